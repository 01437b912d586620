use super::*;
use crate::approvals::model::Grant;
use std::os::unix::fs::PermissionsExt;

fn always(id: &str) -> Grant {
    Grant::Always {
        id: id.into(),
        pattern: "exec:ls *".into(),
        tool: "exec".into(),
        glob: "ls *".into(),
        by: "ops".into(),
        at_ms: 1,
    }
}

fn granted(id: &str) -> Change {
    Change::Decided {
        request_id: format!("apr_{id}"),
        grant: Some(always(id)),
        entry: HistoryEntry {
            request_id: format!("apr_{id}"),
            decision: crate::config::ApprovalDecision::ApproveAlways,
            by: "ops".into(),
            at_ms: 1,
            tool: Some("exec".into()),
            subject: "ls".into(),
            session_key: "s".into(),
            pattern: None,
        },
    }
}

fn ids(state: &State) -> Vec<String> {
    state.grants.iter().map(|g| g.id().to_owned()).collect()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn appends_and_loads_and_refuses_a_second_opener() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("approvals.json");
    let mut store = FileStore::open(&path).unwrap();
    assert_eq!(store.load().unwrap(), State::default());
    store.append(&[granted("g_1"), granted("g_2")]).unwrap();
    assert!(
        !path.exists(),
        "a change appends to the journal; the snapshot is not rewritten"
    );
    assert_eq!(ids(&read_state(&path).unwrap()), ["g_1", "g_2"]);
    assert_eq!(mode(store.journal_path()), 0o600);
    assert!(matches!(
        FileStore::open(&path),
        Err(StoreError::Locked { .. })
    ));
    drop(store);
    let mut store = FileStore::open(&path).unwrap();
    assert_eq!(ids(&store.load().unwrap()), ["g_1", "g_2"]);
}

#[test]
fn compaction_writes_a_private_snapshot_and_empties_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("approvals.json");
    let mut store = FileStore::open(&path).unwrap().compact_after(1);
    let mut state = store.load().unwrap();
    for id in ["g_1", "g_2"] {
        let change = granted(id);
        store.append(std::slice::from_ref(&change)).unwrap();
        change.apply(&mut state);
    }
    assert!(store.wants_compaction());
    store.compact(&state).unwrap();
    assert!(!store.wants_compaction());
    assert_eq!(std::fs::metadata(store.journal_path()).unwrap().len(), 0);
    assert_eq!(mode(&path), 0o600);
    let snapshot: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(snapshot["journalSeq"], 2);
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");

    // Later changes go on from the snapshot's number.
    store.append(&[granted("g_3")]).unwrap();
    drop(store);
    let mut store = FileStore::open(&path).unwrap();
    assert_eq!(ids(&store.load().unwrap()), ["g_1", "g_2", "g_3"]);
}

#[test]
fn a_compaction_cut_short_before_the_journal_is_emptied_applies_nothing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("approvals.json");
    let mut store = FileStore::open(&path).unwrap();
    let mut state = store.load().unwrap();
    let mut changes = vec![granted("g_1"), granted("g_2")];
    // A change that is not idempotent: replaying it again would add a second g_1.
    store.append(&changes).unwrap();
    for c in &changes {
        c.apply(&mut state);
    }
    // The crash: the new snapshot is in place, the journal still holds its lines.
    write_snapshot(&path, &state, 2).unwrap();
    drop(store);
    let mut store = FileStore::open(&path).unwrap();
    assert_eq!(ids(&store.load().unwrap()), ["g_1", "g_2"]);
    changes.push(granted("g_3"));
    store.append(&changes[2..]).unwrap();
    drop(store);
    assert_eq!(ids(&read_state(&path).unwrap()), ["g_1", "g_2", "g_3"]);
}

#[test]
fn a_torn_last_line_is_dropped_and_the_next_change_starts_a_new_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("approvals.json");
    let mut store = FileStore::open(&path).unwrap();
    store.load().unwrap();
    store.append(&[granted("g_1")]).unwrap();
    drop(store);
    let journal = journal_path(&path);
    let mut torn = Vec::new();
    journal::encode(2, &granted("g_2"), &mut torn).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .unwrap();
    file.write_all(&torn[..torn.len() / 2]).unwrap();
    drop(file);
    // A read-only look ignores it and leaves it.
    assert_eq!(ids(&read_state(&path).unwrap()), ["g_1"]);

    let mut store = FileStore::open(&path).unwrap();
    assert_eq!(ids(&store.load().unwrap()), ["g_1"]);
    store.append(&[granted("g_3")]).unwrap();
    drop(store);
    assert_eq!(ids(&read_state(&path).unwrap()), ["g_1", "g_3"]);
}

#[test]
fn a_corrupt_snapshot_is_an_error_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("approvals.json");
    std::fs::write(&path, "{\"version\": 1,\n \"pending\": [").unwrap();
    let e = read_state(&path).unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
    std::fs::write(
        &path,
        r#"{"version":9,"pending":[],"grants":[],"history":[]}"#,
    )
    .unwrap();
    assert!(
        read_state(&path)
            .unwrap_err()
            .to_string()
            .contains("format version 9")
    );
}

#[test]
fn change_numbers_from_the_file_cannot_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("approvals.json");
    let snapshot = format!(
        r#"{{"version":1,"journalSeq":{},"pending":[],"grants":[],"history":[]}}"#,
        u64::MAX
    );
    std::fs::write(&path, snapshot).unwrap();
    let mut store = FileStore::open(&path).unwrap();
    store.load().unwrap();
    let e = store.append(&[granted("g_1")]).unwrap_err();
    assert!(e.to_string().contains("journalSeq"), "{e}");
}

#[test]
fn loose_modes_are_repaired_or_refused_at_load() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("approvals.json");
    std::fs::write(
        &path,
        r#"{"version":1,"pending":[],"grants":[],"history":[]}"#,
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut store = FileStore::open(&path).unwrap();
    store.load().unwrap();
    assert_eq!(mode(&path), 0o600);
    drop(store);

    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
    let mut store = FileStore::open(&path).unwrap();
    let e = store.load().unwrap_err().to_string();
    assert!(e.contains("approvals.json") && e.contains("0666"), "{e}");
    drop(store);

    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let journal = journal_path(&path);
    std::fs::write(&journal, "").unwrap();
    std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o622)).unwrap();
    let mut store = FileStore::open(&path).unwrap();
    let e = store.load().unwrap_err().to_string();
    assert!(e.contains("approvals.json.journal"), "{e}");
}
