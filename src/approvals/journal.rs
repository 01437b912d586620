//! The journal's format: one JSON line per change, `{"seq":N,"change":{...}}`, numbered from
//! the snapshot on. A line counts once its newline is on disk, so an unterminated last line is
//! a write a crash cut short, which nobody was told had succeeded: it is dropped. Anything else
//! that does not read is corruption, reported with its line.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::change::Change;
use super::model::State;
use super::store::StoreError;

#[derive(Serialize)]
struct RecordOut<'a> {
    seq: u64,
    change: &'a Change,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    seq: u64,
    change: Change,
}

/// Appends the line of change number `seq` to `out`.
pub(super) fn encode(seq: u64, change: &Change, out: &mut Vec<u8>) -> serde_json::Result<()> {
    serde_json::to_writer(&mut *out, &RecordOut { seq, change })?;
    out.push(b'\n');
    Ok(())
}

/// What a replay found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Replayed {
    /// The number of the last change now in the state (the snapshot's when none was applied).
    pub last_seq: u64,
    /// The length of the whole lines: where the next line goes.
    pub valid_len: u64,
    /// Whether an unterminated last line was dropped.
    pub torn: bool,
}

/// Applies the changes of the journal `bytes` (read from `path`) that come after the
/// snapshot's `snapshot_seq` to `state`.
pub(super) fn replay(
    path: &Path,
    bytes: &[u8],
    snapshot_seq: u64,
    state: &mut State,
) -> Result<Replayed, StoreError> {
    let corrupt = |line: usize, message: String| StoreError::Corrupt {
        path: path.to_path_buf(),
        message: format!("line {line}: {message}"),
    };
    let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let mut last_seq = snapshot_seq;
    let mut previous: Option<u64> = None;
    // Every complete line: the bytes before the last newline, split at the others.
    let complete = whole
        .checked_sub(1)
        .map(|end| bytes[..end].split(|b| *b == b'\n'));
    for (index, line) in complete.into_iter().flatten().enumerate() {
        let number = index + 1;
        let record: Record =
            serde_json::from_slice(line).map_err(|e| corrupt(number, e.to_string()))?;
        // Checked: the numbers come from the file.
        if previous.is_some_and(|p| p.checked_add(1) != Some(record.seq)) {
            return Err(corrupt(
                number,
                format!(
                    "change {} follows change {}: changes are missing or repeated",
                    record.seq,
                    previous.unwrap_or_default()
                ),
            ));
        }
        previous = Some(record.seq);
        if record.seq <= snapshot_seq {
            // Already in the snapshot: a compaction was cut short before the journal was
            // emptied.
            continue;
        }
        if last_seq.checked_add(1) != Some(record.seq) {
            return Err(corrupt(
                number,
                format!(
                    "change {} does not follow the snapshot's change {snapshot_seq}: changes \
                     are missing",
                    record.seq
                ),
            ));
        }
        record.change.apply(state);
        last_seq = record.seq;
    }
    Ok(Replayed {
        last_seq,
        valid_len: whole as u64,
        torn: whole < bytes.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approvals::model::Grant;

    fn grant(id: &str) -> Change {
        Change::Revoked {
            grant_id: id.to_owned(),
        }
    }

    fn lines(from: u64, changes: &[Change]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, c) in changes.iter().enumerate() {
            encode(from + i as u64, c, &mut out).unwrap();
        }
        out
    }

    fn state_with_grants(ids: &[&str]) -> State {
        let mut state = State::default();
        for id in ids {
            state.grants.push(Grant::Always {
                id: (*id).to_owned(),
                pattern: "exec:x".into(),
                tool: "exec".into(),
                glob: "x".into(),
                by: "ops".into(),
                at_ms: 1,
            });
        }
        state
    }

    #[test]
    fn replays_the_changes_after_the_snapshot() {
        let bytes = lines(1, &[grant("g_1"), grant("g_2"), grant("g_3")]);
        let mut state = state_with_grants(&["g_1", "g_2", "g_3", "g_4"]);
        // The snapshot already holds change 1 (g_1 stays: it is not applied again).
        state.grants.retain(|g| g.id() != "g_1");
        state
            .grants
            .insert(0, state_with_grants(&["g_1"]).grants[0].clone());
        let r = replay(Path::new("j"), &bytes, 1, &mut state).unwrap();
        assert_eq!(r.last_seq, 3);
        assert!(!r.torn);
        assert_eq!(r.valid_len, bytes.len() as u64);
        let ids: Vec<_> = state.grants.iter().map(Grant::id).collect();
        assert_eq!(ids, ["g_1", "g_4"]);
    }

    #[test]
    fn an_unterminated_last_line_is_dropped() {
        let mut bytes = lines(1, &[grant("g_1")]);
        let whole = bytes.len();
        let next = lines(2, &[grant("g_2")]);
        bytes.extend_from_slice(&next[..next.len() - 5]);
        let mut state = state_with_grants(&["g_1", "g_2"]);
        let r = replay(Path::new("j"), &bytes, 0, &mut state).unwrap();
        assert_eq!((r.last_seq, r.valid_len, r.torn), (1, whole as u64, true));
        assert_eq!(state.grants.len(), 1, "the torn change is not applied");
    }

    #[test]
    fn corruption_before_the_last_line_names_the_line() {
        let mut bytes = lines(1, &[grant("g_1")]);
        bytes.extend_from_slice(b"{\"seq\":2,\"change\":{\"kind\":\"nope\"}}\n");
        bytes.extend_from_slice(&lines(3, &[grant("g_3")]));
        let e = replay(Path::new("a.journal"), &bytes, 0, &mut State::default()).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("a.journal") && text.contains("line 2"),
            "{text}"
        );

        // A terminated last line that does not read is corruption too: it was acknowledged.
        let mut bytes = lines(1, &[grant("g_1")]);
        bytes.extend_from_slice(b"garbage\n");
        let e = replay(Path::new("j"), &bytes, 0, &mut State::default()).unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
    }

    #[test]
    fn missing_changes_are_corruption() {
        let mut bytes = lines(1, &[grant("g_1")]);
        bytes.extend_from_slice(&lines(3, &[grant("g_3")]));
        let e = replay(Path::new("j"), &bytes, 0, &mut State::default()).unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        // The journal starts past the snapshot.
        let bytes = lines(5, &[grant("g_5")]);
        let e = replay(Path::new("j"), &bytes, 3, &mut State::default()).unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
    }
}
