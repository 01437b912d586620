//! The approvals file across restarts, and when it cannot be used: corrupt (refuse or
//! deny-all) or held by another daemon.

use serde_json::{Value, json};

use super::{
    LONG, allowed, approvals_file, ask, ask_decision, decide, eval, get_ok, grants, history, kill9,
    pending_ids, setup, stored,
};
use crate::daemon::{Daemon, run_to_exit};
use crate::util::Dir;

/// How the first daemon goes away.
#[derive(Debug, Clone, Copy)]
enum Stop {
    Term,
    Kill,
}

/// Pending requests and every kind of grant, then a restart on the same directory: all of
/// it is still there and still applies.
fn state_survives(stop: Stop) {
    let dir = setup(LONG, "");
    let mut d = Daemon::start(&dir, &[]);
    let waiting = ask(&d, "s1", "deploy prod");
    let other_waiting = ask(&d, "s2", "deploy prod");
    let session = ask(&d, "s1", "deploy staging");
    decide(&d, &session, "approve_session", None);
    let always = ask(&d, "s1", "ls -la");
    decide(&d, &always, "approve_always", Some("exec:ls *"));
    let exact = ask(&d, "s1", "deploy docs");
    decide(&d, &exact, "approve_always", None);
    let once = ask(&d, "s1", "deploy canary");
    decide(&d, &once, "approve", None);
    let denied = ask(&d, "s1", "deploy db");
    decide(&d, &denied, "deny", None);
    // A one-time approval used before the stop stays used.
    let used = ask(&d, "s1", "deploy used");
    decide(&d, &used, "approve", None);
    allowed(&d, "s1", "deploy used");
    let grants_before = grants(&d);
    let history_before = history(&d);
    assert_eq!(grants_before.len(), 4, "{grants_before:?}");
    assert_eq!(history_before.len(), 6, "{history_before:?}");

    match stop {
        Stop::Term => {
            d.signal("TERM");
            let status = d.wait_exit();
            assert_eq!(status.code(), Some(0), "{}", d.stderr_text());
        }
        Stop::Kill => kill9(&mut d),
    }
    drop(d);
    // The file is whole and holds it all.
    let file = stored(&dir);
    assert_eq!(file["version"], 1, "{file}");
    assert_eq!(file["pending"].as_array().map(Vec::len), Some(2), "{file}");

    let d = Daemon::start(&dir, &[]);
    assert_eq!(pending_ids(&d, ""), vec![waiting.clone(), other_waiting]);
    assert_eq!(grants(&d), grants_before);
    assert_eq!(history(&d), history_before);
    let shown = get_ok(&d, &format!("/v1/approvals/{waiting}"));
    assert_eq!(shown["status"], "pending", "{shown}");

    // Re-asking a pending call finds the stored request; it is not notified again.
    let again = ask_decision(&d, "s1", "deploy prod");
    assert_eq!(again["approval"]["id"], waiting.as_str(), "{again}");
    assert!(
        again["notifications"]
            .as_array()
            .is_none_or(|n| n.is_empty()),
        "{again}"
    );
    // The grants still apply.
    assert_eq!(
        allowed(&d, "s1", "deploy staging"),
        "Approved by session grant by alice"
    );
    ask(&d, "s2", "deploy staging");
    assert_eq!(
        allowed(&d, "s7", "ls /var"),
        "Approved by always grant `exec:ls *`"
    );
    assert_eq!(
        allowed(&d, "s7", "deploy docs"),
        "Approved by always grant `exec:deploy docs`"
    );
    assert_eq!(
        allowed(&d, "s1", "deploy canary"),
        "Approved by one-time approval by alice"
    );
    ask(&d, "s1", "deploy canary");
    ask(&d, "s1", "deploy db");
    ask(&d, "s1", "deploy used");
    // Decided before the restart: still decided. Pending before: decidable now.
    let (status, body) = super::decide_raw(&d, &denied, "approve", None);
    super::api_error(status, &body, 409, "already_decided");
    decide(&d, &waiting, "approve", None);
    assert_eq!(
        allowed(&d, "s1", "deploy prod"),
        "Approved by one-time approval by alice"
    );
}

#[test]
fn pending_requests_and_grants_survive_sigterm_and_a_restart() {
    state_survives(Stop::Term);
}

#[test]
fn pending_requests_and_grants_survive_kill_9_and_a_restart() {
    state_survives(Stop::Kill);
}

#[test]
fn a_corrupt_file_refuses_to_start_and_is_left_unchanged() {
    let dir = setup(LONG, "");
    for (corrupt, line) in [
        ("{\"version\": 1, \"pending\": [", "line 1"),
        (
            "{\n  \"version\": 1,\n  \"pending\": [],\n  \"grants\": {\n",
            "line 4",
        ),
        (
            "{\"version\": 2, \"pending\": [], \"grants\": [], \"history\": []}\n",
            "version 2",
        ),
    ] {
        let path = dir.write("approvals.json", corrupt);
        let (status, stderr) = run_to_exit(Daemon::command(&dir, &[]));
        assert_eq!(status.code(), Some(1), "{corrupt:?}: {stderr}");
        assert!(stderr.contains("approvals.json"), "{corrupt:?}: {stderr}");
        assert!(
            stderr.contains(line),
            "{corrupt:?} should name {line}: {stderr}"
        );
        assert!(
            stderr.contains("--approvals-fallback deny-all"),
            "no hint: {stderr}"
        );
        assert!(!stderr.contains("listening on"), "{stderr}");
        assert_eq!(
            std::fs::read(&path).expect("read"),
            corrupt.as_bytes(),
            "the corrupt file was changed"
        );
    }
}

#[test]
fn deny_all_fallback_starts_and_blocks_every_approval() {
    let dir = setup(LONG, "");
    let corrupt = "{\"version\": 1, \"pending\": [";
    let path = dir.write("approvals.json", corrupt);
    let mut d = Daemon::start(&dir, &["--approvals-fallback", "deny-all"]);

    for (session, command) in [
        ("s1", "deploy prod"),
        ("s2", "ls -la"),
        ("s1", "deploy prod"),
    ] {
        let decision = eval(&d, session, command);
        assert_eq!(decision["decision"], "block", "{decision}");
        assert_eq!(decision["passed"], false, "{decision}");
        assert_eq!(decision["approval"], Value::Null, "{decision}");
        let message = decision["message"].as_str().expect("message");
        assert!(
            message.starts_with("Denied: approvals are unavailable"),
            "{message}"
        );
        assert!(message.contains("approvals.json"), "{message}");
    }
    // Calls no approval hook matches are not affected.
    assert_eq!(eval(&d, "s1", "echo hi")["decision"], "allow");
    let listed = get_ok(&d, "/v1/approvals");
    assert_eq!(listed["pending"], json!([]), "{listed}");
    assert!(
        listed["unavailable"]
            .as_str()
            .is_some_and(|u| u.contains("approvals.json")),
        "{listed}"
    );
    assert!(grants(&d).is_empty());
    let (status, body) = super::decide_raw(&d, "apr_0000000000000000", "approve", None);
    assert_eq!(status, 404, "{body}");

    d.signal("TERM");
    assert_eq!(d.wait_exit().code(), Some(0), "{}", d.stderr_text());
    assert_eq!(
        std::fs::read(&path).expect("read"),
        corrupt.as_bytes(),
        "deny-all changed the corrupt file"
    );
}

#[test]
fn a_second_daemon_on_the_same_file_exits_1() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let id = ask(&d, "s1", "deploy prod");
    let before = stored(&dir);

    for fallback in ["refuse", "deny-all"] {
        let (status, stderr) =
            run_to_exit(Daemon::command(&dir, &["--approvals-fallback", fallback]));
        assert_eq!(status.code(), Some(1), "{fallback}: {stderr}");
        assert!(stderr.contains("approvals.json"), "{stderr}");
        assert!(stderr.contains("in use"), "{stderr}");
        assert!(!stderr.contains("listening on"), "{stderr}");
    }
    // The first daemon is untouched and still decides.
    assert_eq!(stored(&dir), before);
    assert_eq!(pending_ids(&d, ""), vec![id.clone()]);
    decide(&d, &id, "approve", None);
    allowed(&d, "s1", "deploy prod");
}

#[test]
fn the_approvals_option_names_another_file() {
    let dir = setup(LONG, "");
    let elsewhere = dir.path().join("state").join("my-approvals.json");
    let elsewhere_arg = elsewhere.to_str().expect("utf-8").to_owned();
    let mut d = Daemon::start(&dir, &["--approvals", &elsewhere_arg]);
    let id = ask(&d, "s1", "ls -la");
    decide(&d, &id, "approve_always", Some("exec:ls *"));
    assert!(
        !approvals_file(&dir).exists(),
        "approvals.json beside the policy was written"
    );
    let file = super::stored_at(&elsewhere);
    assert_eq!(file["grants"][0]["pattern"], "exec:ls *", "{file}");
    d.signal("TERM");
    assert_eq!(d.wait_exit().code(), Some(0));
    drop(d);

    // Without the option, the default file (empty) is used: no grant.
    let d = Daemon::start(&dir, &[]);
    ask(&d, "s1", "ls -la");
    drop(d);
    // With it, the grant is back.
    let fresh = Dir::new();
    fresh.write("HOOKS.yaml", &super::policy(LONG, ""));
    let d = Daemon::start(&fresh, &["--approvals", &elsewhere_arg]);
    assert_eq!(
        allowed(&d, "s2", "ls /"),
        "Approved by always grant `exec:ls *`"
    );
}
