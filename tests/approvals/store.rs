//! The store's defences: the pending bound, masked arguments, private files, the journal
//! (no rewrite of the whole store per change), and `kill -9` while the journal is compacted.

use std::os::unix::fs::PermissionsExt;

use serde_json::{Value, json};

use super::{LONG, approvals_file, ask, decide, eval, get_ok, pending_ids, setup, stored};
use crate::daemon::{Daemon, run_to_exit};
use crate::util::Dir;

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

fn journal(dir: &Dir) -> std::path::PathBuf {
    dir.path().join("approvals.json.journal")
}

#[test]
fn past_the_pending_bound_a_new_request_is_denied_naming_the_limit() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &["--max-pending-approvals", "3"]);
    let first = ask(&d, "s1", "deploy 1");
    ask(&d, "s1", "deploy 2");
    ask(&d, "s1", "deploy 3");

    let refused = eval(&d, "s1", "deploy 4");
    assert_eq!(refused["decision"], "block", "{refused}");
    assert_eq!(refused["passed"], false, "{refused}");
    assert_eq!(refused["approval"], Value::Null, "{refused}");
    assert_eq!(
        refused["message"],
        "Denied: 3 approval requests are already pending (the limit); decide some or let them expire",
        "{refused}"
    );
    assert_eq!(pending_ids(&d, "").len(), 3);
    // A call already pending still gets its request.
    assert_eq!(ask(&d, "s1", "deploy 1"), first);
    // Deciding one makes room.
    decide(&d, &first, "deny", None);
    ask(&d, "s1", "deploy 4");
}

#[test]
fn request_arguments_are_kept_masked_in_private_files_and_appended_not_rewritten() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let body = json!({
        "point": "turn:tool:pre",
        "context": {
            "sessionKey": "s1",
            "toolName": "exec",
            "toolArgs": { "command": "deploy prod", "apiKey": "sk-live-4242", "env": { "GITHUB_TOKEN": "ghp_secret" } },
        }
    });
    let decision = d.decide(&body);
    assert_eq!(decision["decision"], "ask", "{decision}");
    let masked = json!({ "command": "deploy prod", "apiKey": "[masked]", "env": { "GITHUB_TOKEN": "[masked]" } });
    assert_eq!(decision["approval"]["args"], masked, "{decision}");
    let id = super::id_of(&decision);
    assert_eq!(
        get_ok(&d, &format!("/v1/approvals/{id}"))["request"]["args"],
        masked
    );
    assert_eq!(super::pending(&d, "")[0]["args"], masked);

    for n in 0..5 {
        let id = ask(&d, "s2", &format!("deploy {n}"));
        decide(&d, &id, "approve_session", None);
    }
    // Eleven changes, each one line of the journal; the snapshot was never written.
    let text = std::fs::read_to_string(journal(&dir)).expect("journal");
    assert_eq!(text.lines().count(), 11, "{text}");
    assert!(
        !approvals_file(&dir).exists(),
        "a change rewrote the whole store"
    );
    for (file, secret) in [
        (journal(&dir), "sk-live-4242"),
        (journal(&dir), "ghp_secret"),
    ] {
        assert!(
            !std::fs::read_to_string(&file)
                .expect("read")
                .contains(secret),
            "{secret} stored in {}",
            file.display()
        );
    }
    assert_eq!(mode(&journal(&dir)), 0o600);
    assert_eq!(mode(&dir.path().join("approvals.json.lock")), 0o600);
    assert_eq!(stored(&dir)["pending"][0]["args"], masked);
}

#[test]
fn a_store_others_may_write_is_refused_and_one_they_may_read_is_repaired() {
    let dir = setup(LONG, "");
    let empty = r#"{"version":1,"pending":[],"grants":[],"history":[]}"#;
    let path = dir.write("approvals.json", empty);
    for (loose, name) in [(0o666, "approvals.json"), (0o620, "approvals.json")] {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(loose)).expect("chmod");
        let (status, stderr) = run_to_exit(Daemon::command(&dir, &[]));
        assert_eq!(status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(name), "{stderr}");
        assert!(stderr.contains(&format!("{loose:04o}")), "{stderr}");
        assert!(stderr.contains("lets other users write it"), "{stderr}");
        assert!(!stderr.contains("listening on"), "{stderr}");
        assert_eq!(mode(&path), loose, "a refused file was changed");
    }
    // The journal is checked as well.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let journal_path = dir.write("approvals.json.journal", "");
    std::fs::set_permissions(&journal_path, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let (status, stderr) = run_to_exit(Daemon::command(&dir, &[]));
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("approvals.json.journal"), "{stderr}");

    // Readable by others only: repaired, with a warning, and the daemon starts.
    for file in [&path, &journal_path] {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    }
    let mut d = Daemon::start(&dir, &[]);
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&journal_path), 0o600);
    ask(&d, "s1", "deploy prod");
    d.signal("TERM");
    assert_eq!(d.wait_exit().code(), Some(0));
    assert!(
        d.stderr_text().contains("readable by other users"),
        "{}",
        d.stderr_text()
    );
}

#[test]
fn a_symlinked_journal_is_refused_not_followed() {
    let dir = setup(LONG, "");
    let target = dir.write("elsewhere.txt", "precious\n");
    std::os::unix::fs::symlink(&target, journal(&dir)).expect("symlink");
    let (status, stderr) = run_to_exit(Daemon::command(&dir, &[]));
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&target).expect("read"),
        "precious\n"
    );
}

#[test]
fn kill_9_while_the_journal_is_compacted_loses_no_acknowledged_decision() {
    // A small journal limit: the journal is folded into the snapshot every few decisions,
    // so the kills land before, during and after compactions.
    let mut compacted = 0;
    super::crash::kill_cycles(
        &["--no-watch", "--approvals-journal-limit", "4096"],
        |dir, cycle| {
            let snapshot: Value = std::fs::read_to_string(approvals_file(dir))
                .ok()
                .and_then(|text| serde_json::from_str(&text).ok())
                .unwrap_or_else(|| panic!("cycle {cycle}: no snapshot after compactions"));
            if snapshot["journalSeq"].as_u64().is_some_and(|n| n > 0) {
                compacted += 1;
            }
            let left = std::fs::metadata(journal(dir)).map_or(0, |m| m.len());
            // One batch of changes may pass the limit before the compaction that follows it.
            assert!(
                left < 4096 + 64 * 1024,
                "cycle {cycle}: the journal was not compacted ({left} bytes)"
            );
        },
    );
    assert_eq!(compacted, 4, "every cycle compacted");
}
