//! `inject_context`: read a file and hand its content to the gateway, which prepends it for
//! the model (OpenClaw's `prependContext`, Claude Code's `additionalContext`).
//!
//! Plain files are injected whole; `.jsonl` files as their last `lastN` entries, one
//! `[timestamp] point: summary` line each. Files are read on every call (they change between
//! calls, e.g. a conversation log) but never more than [`MAX_BYTES`] of them. The action always
//! passes: a missing or unreadable file is reported in the message and injects nothing.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

use super::{Invocation, Outcome};
use crate::regular_file::{FileError, RegularFile};

/// Entries taken from a `.jsonl` source when `lastN` is not set.
const DEFAULT_LAST_N: usize = 5;
/// The most that is read of a source file: a plain file over it is refused; of a `.jsonl`
/// file, only the tail this long is read.
pub(crate) const MAX_BYTES: u64 = 1024 * 1024;

pub(super) async fn run(inv: &Invocation<'_>, last_n: Option<u32>) -> Outcome {
    let spec = inv.hook.spec();
    let Some(template) = inv.hook.path() else {
        return Outcome::pass("No source configured; injection skipped.");
    };
    let path = inv.render_path(template);
    let last_n = last_n.map_or(DEFAULT_LAST_N, |n| n as usize);
    let read_path = path.clone();
    let loaded = tokio::task::spawn_blocking(move || load(&read_path, last_n)).await;
    let content = match loaded {
        Ok(Ok(content)) => content,
        Ok(Err(message)) => {
            tracing::warn!(hook = %spec.id, path = %path.display(), %message, "inject_context: cannot load the source");
            return Outcome::pass(format!("Injection failed: {message}"));
        }
        Err(join) => return Outcome::pass(format!("Injection failed: {join}")),
    };
    if content.is_empty() {
        return Outcome::pass(format!(
            "Source \"{}\" is empty; injection skipped.",
            path.display()
        ));
    }
    let message = format!(
        "Injected context from \"{}\" ({} chars)",
        path.display(),
        content.chars().count()
    );
    Outcome::pass(message).with_injected(Some(content))
}

/// The content to inject from `path`, or the reason it cannot be read. Only a regular file
/// is read (a FIFO or a device would block or never end; see
/// [`regular_file`](crate::regular_file)).
fn load(path: &Path, last_n: usize) -> Result<String, String> {
    let not_readable = |e: std::io::Error| io_message(&e, path);
    let refused = |e: FileError| match e {
        FileError::Io { source, .. } => io_message(&source, path),
        FileError::TooLarge { size, .. } => format!(
            "\"{}\" is {}over the {MAX_BYTES}-byte limit for injected files",
            path.display(),
            size.map_or_else(String::new, |s| format!("{s} bytes, "))
        ),
        FileError::NotRegular { kind, .. } => format!(
            "cannot read \"{}\": it is {kind}, not a regular file",
            path.display()
        ),
        other => other.to_string(),
    };
    let file = RegularFile::open(path).map_err(refused)?;
    let jsonl = path.extension().is_some_and(|e| e == "jsonl");
    if !jsonl {
        let bytes = file.read_to_end(MAX_BYTES).map_err(refused)?;
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
    }
    let len = file.metadata().len();
    let mut file = file.into_file();
    let start = len.saturating_sub(MAX_BYTES);
    file.seek(SeekFrom::Start(start)).map_err(not_readable)?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES)
        .read_to_end(&mut bytes)
        .map_err(not_readable)?;
    let text = String::from_utf8_lossy(&bytes);
    // A tail read starts mid-line: drop the partial first line.
    let text = if start > 0 {
        text.split_once('\n').map_or("", |(_, rest)| rest)
    } else {
        &text
    };
    Ok(format_entries(text, last_n))
}

/// The seed's message for an I/O error (Node's `ENOENT: no such file or directory, open '…'`
/// for a missing file), else the error itself.
fn io_message(e: &std::io::Error, path: &Path) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => format!(
            "ENOENT: no such file or directory, open '{}'",
            path.display()
        ),
        _ => format!("cannot read \"{}\": {e}", path.display()),
    }
}

/// The last `last_n` lines of a JSONL log as a context block. Lines that are not JSON objects
/// are skipped, as are objects without a timestamp, point or summary.
fn format_entries(text: &str, last_n: usize) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let recent = &lines[lines.len().saturating_sub(last_n)..];
    let entries: Vec<String> = recent
        .iter()
        .filter_map(|line| {
            let entry = serde_json::from_str::<Value>(line).ok()?;
            let entry = entry.as_object()?;
            let timestamp = match entry.get("timestamp") {
                Some(Value::String(s)) => s.clone(),
                None | Some(Value::Null) => String::new(),
                Some(other) => crate::context::js_string(other),
            };
            let text_of = |key: &str| entry.get(key).and_then(Value::as_str).unwrap_or("");
            let (point, summary) = (text_of("point"), text_of("summary"));
            if timestamp.is_empty() && point.is_empty() && summary.is_empty() {
                return None;
            }
            let point_part = if point.is_empty() {
                String::new()
            } else {
                format!("{point}: ")
            };
            Some(format!("[{timestamp}] {point_part}{summary}"))
        })
        .collect();
    if entries.is_empty() {
        return String::new();
    }
    let mut block = vec![format!(
        "── Recent Topic Context (last {} interactions) ──",
        entries.len()
    )];
    block.extend(entries);
    block.push("── End Topic Context ──".to_owned());
    block.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonl_entries_are_the_last_n_formatted_like_the_seed() {
        let text = concat!(
            r#"{"timestamp":"t1","point":"turn:post","summary":"one"}"#,
            "\n",
            "not json\n",
            r#"{"timestamp":"t2","summary":"two"}"#,
            "\n\n",
            r#"{"timestamp":"t3","point":"turn:post","summary":"three"}"#,
            "\n",
        );
        assert_eq!(
            format_entries(text, 3),
            "── Recent Topic Context (last 2 interactions) ──\n[t2] two\n[t3] turn:post: three\n── End Topic Context ──"
        );
        assert_eq!(format_entries("", 5), "");
        assert_eq!(format_entries("{}\n[1]\n", 5), "");
    }

    #[test]
    fn a_large_jsonl_file_is_read_from_its_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let line = format!(
            "{{\"timestamp\":\"t\",\"summary\":\"{}\"}}\n",
            "x".repeat(1000)
        );
        let mut text = line.repeat(1100);
        text.push_str("{\"timestamp\":\"last\",\"summary\":\"end\"}\n");
        std::fs::write(&path, text).unwrap();
        let content = load(&path, 2).unwrap();
        assert!(
            content.ends_with("[last] end\n── End Topic Context ──"),
            "{content}"
        );
        assert!(content.starts_with("── Recent Topic Context (last 2 interactions) ──"));
    }

    #[test]
    fn a_large_plain_file_is_refused_and_a_missing_one_named() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.md");
        std::fs::write(&big, vec![b'a'; (MAX_BYTES + 1) as usize]).unwrap();
        assert!(
            load(&big, 5)
                .unwrap_err()
                .contains("over the 1048576-byte limit")
        );
        let missing = dir.path().join("missing.md");
        assert_eq!(
            load(&missing, 5).unwrap_err(),
            format!(
                "ENOENT: no such file or directory, open '{}'",
                missing.display()
            )
        );
    }
}
