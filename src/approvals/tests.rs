//! Tests of the live approvals: patterns, the pending bound, masking, and that an answer
//! comes only once its change is stored.

use super::grants::{compile_glob, glob_literal, split_pattern};
use super::*;

#[test]
fn literal_subjects_escape_glob_syntax() {
    let glob = compile_glob(&glob_literal("ls *.md [x]")).unwrap();
    assert!(glob.is_match("ls *.md [x]"));
    assert!(!glob.is_match("ls a.md [x]"));
}

#[test]
fn patterns_need_a_tool_and_a_glob() {
    assert!(split_pattern("ls *", "exec").is_err());
    let (tool, glob) = split_pattern("Read:*.md", "exec").unwrap();
    assert_eq!(tool, "Read");
    assert!(compile_glob(&glob).unwrap().is_match("/home/me/notes/a.md"));
}

#[test]
fn the_request_tool_may_contain_a_colon() {
    let (tool, glob) = split_pattern("github:create_issue:bug *", "github:create_issue").unwrap();
    assert_eq!(
        (tool.as_str(), glob.as_str()),
        ("github:create_issue", "bug *")
    );
    let (tool, glob) = split_pattern("exec:curl http://x", "exec").unwrap();
    assert_eq!((tool.as_str(), glob.as_str()), ("exec", "curl http://x"));
}

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::config::Risk;
use crate::point::Point;

pub(super) fn request(id: &str, subject: &str, args: serde_json::Value) -> ApprovalRequest {
    ApprovalRequest {
        id: id.to_owned(),
        hook: "deploy-approval".into(),
        point: Point::ALL[0],
        session_key: "s1".into(),
        tool: Some("exec".into()),
        args: args.as_object().cloned(),
        subject: subject.to_owned(),
        risk: Risk::High,
        reasons: vec!["deploys need a human".into()],
        created_at_ms: now_ms(),
        expires_at_ms: now_ms() + 600_000,
        timeout_action: TimeoutAction::Deny,
        allowed_decisions: vec![
            ApprovalDecision::Approve,
            ApprovalDecision::Deny,
            ApprovalDecision::ApproveSession,
            ApprovalDecision::ApproveAlways,
        ],
    }
}

fn open_at(path: &Path, options: Options) -> Approvals {
    let store = FileStore::open(path).unwrap();
    Approvals::open(Box::new(store), options).unwrap()
}

fn scratch() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("approvals.json");
    (dir, path)
}

#[tokio::test]
async fn past_the_bound_a_new_request_is_refused_naming_the_limit() {
    let (_dir, path) = scratch();
    let options = Options {
        max_pending: 2,
        ..Options::default()
    };
    let approvals = open_at(&path, options);
    for n in 0..2 {
        let r = request(&format!("apr_{n}"), &format!("deploy {n}"), json!({}));
        assert!(approvals.open_request(r).await.unwrap().1);
    }
    let e = approvals
        .open_request(request("apr_2", "deploy 2", json!({})))
        .await
        .unwrap_err();
    assert!(matches!(e, RequestError::Full { limit: 2 }), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("2 approval requests are already pending (the limit)"),
        "{e}"
    );
    // A call already pending still finds its request.
    let (again, new) = approvals
        .open_request(request("apr_x", "deploy 0", json!({})))
        .await
        .unwrap();
    assert_eq!((again.id.as_str(), new), ("apr_0", false));
    // Deciding one makes room.
    approvals
        .decide("apr_0", ApprovalDecision::Deny, "ops", None)
        .await
        .unwrap();
    assert!(
        approvals
            .open_request(request("apr_2", "deploy 2", json!({})))
            .await
            .unwrap()
            .1
    );
    assert_eq!(approvals.pending().len(), 2);
}

#[tokio::test]
async fn request_arguments_are_kept_masked() {
    let (dir, path) = scratch();
    let approvals = open_at(&path, Options::default());
    let args =
        json!({ "command": "deploy", "apiKey": "sk-live-1", "env": { "DB_PASSWORD": "hunter2" } });
    let (opened, _) = approvals
        .open_request(request("apr_1", "deploy", args))
        .await
        .unwrap();
    let masked =
        json!({ "command": "deploy", "apiKey": "[masked]", "env": { "DB_PASSWORD": "[masked]" } });
    assert_eq!(json!(opened.args), masked);
    assert_eq!(json!(approvals.pending()[0].args), masked);
    assert_eq!(json!(read_state(&path).unwrap().pending[0].args), masked);
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(
            !text.contains("sk-live-1") && !text.contains("hunter2"),
            "{text}"
        );
    }
    // Grants match the subject, which is kept whole.
    approvals
        .decide("apr_1", ApprovalDecision::ApproveAlways, "ops", None)
        .await
        .unwrap();
    let grant = approvals
        .use_grant("s2", Some("exec"), "deploy")
        .await
        .unwrap();
    assert_eq!(grant.unwrap().description, "always grant `exec:deploy`");
}

#[tokio::test]
async fn requests_kept_unmasked_are_masked_at_start() {
    let (_dir, path) = scratch();
    let mut state = State::default();
    state
        .pending
        .push(request("apr_1", "deploy", json!({ "token": "t-secret" })));
    let file = json!({"version": 1, "pending": state.pending, "grants": [], "history": []});
    std::fs::write(&path, file.to_string()).unwrap();
    let approvals = open_at(&path, Options::default());
    assert_eq!(
        json!(approvals.pending()[0].args),
        json!({ "token": "[masked]" })
    );
    assert!(!std::fs::read_to_string(&path).unwrap().contains("t-secret"));
}

#[tokio::test]
async fn every_acknowledged_change_is_in_the_journal_and_the_snapshot_is_not_rewritten() {
    let (_dir, path) = scratch();
    let approvals = open_at(&path, Options::default());
    approvals
        .open_request(request("apr_1", "deploy a", json!({})))
        .await
        .unwrap();
    approvals
        .open_request(request("apr_2", "deploy b", json!({})))
        .await
        .unwrap();
    approvals
        .decide("apr_1", ApprovalDecision::Approve, "ops", None)
        .await
        .unwrap();
    // Read while the approvals are still open: what was answered is on disk.
    let stored = read_state(&path).unwrap();
    assert_eq!(stored.pending.len(), 1);
    assert_eq!(stored.history[0].request_id, "apr_1");
    assert!(matches!(stored.grants[0], Grant::Once { .. }));
    assert!(!path.exists(), "no change rewrote the snapshot");

    // The one-time approval is used up, on disk too, before the call passes.
    let used = approvals
        .use_grant("s1", Some("exec"), "deploy a")
        .await
        .unwrap();
    assert!(used.is_some());
    assert!(read_state(&path).unwrap().grants.is_empty());
    assert!(
        approvals
            .use_grant("s1", Some("exec"), "deploy a")
            .await
            .unwrap()
            .is_none()
    );
    drop(approvals);
    let reopened = open_at(&path, Options::default());
    assert_eq!(reopened.pending().len(), 1);
    assert_eq!(reopened.history().len(), 1);
}

#[tokio::test]
async fn the_writer_compacts_and_a_reopen_reads_the_same_state() {
    let (_dir, path) = scratch();
    let store = FileStore::open(&path).unwrap().compact_after(512);
    let approvals = Approvals::open(Box::new(store), Options::default()).unwrap();
    for n in 0..40 {
        let id = format!("apr_{n}");
        approvals
            .open_request(request(&id, &format!("deploy {n}"), json!({})))
            .await
            .unwrap();
        approvals
            .decide(&id, ApprovalDecision::ApproveSession, "ops", None)
            .await
            .unwrap();
    }
    let grants = approvals.grants();
    let history = approvals.history();
    drop(approvals);
    assert!(path.exists(), "the journal was compacted into a snapshot");
    let journal = std::fs::metadata(store::journal_path(&path)).unwrap().len();
    assert!(journal < 4096, "the journal keeps growing: {journal} bytes");
    let reopened = open_at(&path, Options::default());
    assert_eq!(reopened.grants(), grants);
    assert_eq!(reopened.history(), history);
}

/// A store whose writes fail after `ok` appends.
#[derive(Debug)]
struct Failing {
    ok: usize,
}

impl ApprovalStore for Failing {
    fn load(&mut self) -> Result<State, StoreError> {
        Ok(State::default())
    }

    fn append(&mut self, _: &[Change]) -> Result<(), StoreError> {
        if self.ok == 0 {
            return Err(StoreError::Io {
                action: "append to",
                path: PathBuf::from("approvals.json.journal"),
                source: std::io::Error::other("disk full"),
            });
        }
        self.ok -= 1;
        Ok(())
    }
}

#[tokio::test]
async fn a_failed_write_is_not_acknowledged_and_approvals_become_unavailable() {
    let approvals =
        Arc::new(Approvals::open(Box::new(Failing { ok: 1 }), Options::default()).unwrap());
    approvals
        .open_request(request("apr_1", "deploy", json!({})))
        .await
        .unwrap();
    let waiting = {
        let approvals = Arc::clone(&approvals);
        tokio::spawn(async move { approvals.wait("apr_1").await })
    };
    // The waiter subscribes before the decision (it holds a receiver once registered).
    while approvals
        .lock()
        .waiters
        .get("apr_1")
        .is_none_or(|w| w.receiver_count() == 0)
    {
        tokio::task::yield_now().await;
    }
    let e = approvals
        .decide("apr_1", ApprovalDecision::Approve, "ops", None)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("disk full"), "{e}");
    // The waiting caller is not let through by a decision that was not stored.
    assert_eq!(waiting.await.unwrap(), Resolution::Released);
    let why = approvals.unavailable().expect("unavailable");
    assert!(why.contains("disk full"), "{why}");
    assert!(matches!(
        approvals
            .open_request(request("apr_2", "deploy 2", json!({})))
            .await,
        Err(RequestError::Store(StoreError::Failed(_)))
    ));
}

/// Regression (the real daemon, under load): a one-time approval given after a waiting
/// call's request became decidable, but before the call got to wait, went to a one-time
/// grant as well as to the call, so the next identical call ran too.
#[tokio::test]
async fn a_waiting_caller_takes_an_approval_given_before_it_waits() {
    let (_dir, path) = scratch();
    let approvals = open_at(&path, Options::default());
    let (opened, new, waiting) = approvals
        .open_pending(request("apr_1", "deploy a", json!({})), true)
        .await
        .unwrap();
    assert!(new);
    // Not waiting yet: the subscription alone marks the caller as one.
    approvals
        .decide("apr_1", ApprovalDecision::Approve, "ops", None)
        .await
        .unwrap();
    assert!(approvals.grants().is_empty(), "{:?}", approvals.grants());
    let waiting = waiting.expect("subscribed");
    let resolution = approvals
        .wait_on(&opened.id, waiting, opened.expires_at_ms)
        .await;
    assert!(
        matches!(resolution, Resolution::Approved { .. }),
        "{resolution:?}"
    );
    // A caller that does not wait leaves a one-time grant for when it asks again.
    approvals
        .open_request(request("apr_2", "deploy b", json!({})))
        .await
        .unwrap();
    approvals
        .decide("apr_2", ApprovalDecision::Approve, "ops", None)
        .await
        .unwrap();
    assert_eq!(approvals.grants().len(), 1);
}
