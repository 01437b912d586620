//! A model-based property test of the approvals and their file store: random sequences of
//! requests, decisions, grant uses and revocations, with the daemon stopped and started again
//! (often compacting the journal) and crashes that leave a torn last line, are checked after
//! every step against a reference model kept here.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use proptest::prelude::*;
use serde_json::json;

use super::tests::request;
use super::*;

/// Requests are numbered `0..REQUESTS`; each has its own subject, `deploy <n>`.
const REQUESTS: u8 = 12;
const SESSION: &str = "s1";
const TOOL: &str = "exec";

#[derive(Debug, Clone)]
enum Op {
    Open(u8),
    Decide(u8, ApprovalDecision),
    UseGrant(u8),
    Revoke(u8),
    /// The daemon stops and starts again.
    Reopen,
    /// The daemon dies while appending a change nobody was told of: the journal ends in
    /// these bytes, with no newline.
    Crash(Vec<u8>),
}

fn op() -> impl Strategy<Value = Op> {
    let n = 0..REQUESTS;
    let decision = prop_oneof![
        Just(ApprovalDecision::Approve),
        Just(ApprovalDecision::Deny),
        Just(ApprovalDecision::ApproveSession),
        Just(ApprovalDecision::ApproveAlways),
    ];
    prop_oneof![
        4 => n.clone().prop_map(Op::Open),
        4 => (n.clone(), decision).prop_map(|(n, d)| Op::Decide(n, d)),
        2 => n.clone().prop_map(Op::UseGrant),
        1 => n.prop_map(Op::Revoke),
        1 => Just(Op::Reopen),
        1 => proptest::collection::vec(0x20u8..0x7f, 0..40).prop_map(Op::Crash),
    ]
}

/// What the approvals must hold: by request number.
#[derive(Debug, Default)]
struct Model {
    opened: Vec<u8>,
    pending: Vec<u8>,
    /// The decisions, in the order taken.
    history: Vec<(u8, ApprovalDecision)>,
    /// The grants standing, and the decision that left each.
    grants: BTreeMap<u8, ApprovalDecision>,
}

fn subject(n: u8) -> String {
    format!("deploy {n}")
}

fn number(subject: &str) -> Option<u8> {
    subject.strip_prefix("deploy ")?.parse().ok()
}

/// The request number a grant is for.
fn granted(grant: &Grant) -> Option<u8> {
    match grant {
        Grant::Always { glob, .. } => number(glob),
        Grant::Session { subject, .. } | Grant::Once { subject, .. } => number(subject),
    }
}

fn open(path: &Path) -> Approvals {
    // A small journal: most sequences compact it several times.
    let store = FileStore::open(path).expect("store").compact_after(600);
    Approvals::open(Box::new(store), Options::default()).expect("approvals")
}

/// Runs `op` on `approvals` and on `model`, checking what it answered.
async fn step(approvals: &Approvals, model: &mut Model, op: &Op) {
    match *op {
        Op::Open(n) if model.opened.contains(&n) => {}
        Op::Open(n) => {
            let mut asked = request(&format!("apr_{n}"), &subject(n), json!({}));
            asked.session_key = SESSION.into();
            let (_, new) = approvals.open_request(asked).await.expect("opened");
            assert!(new);
            model.opened.push(n);
            model.pending.push(n);
        }
        Op::Decide(n, decision) => {
            let answer = approvals
                .decide(&format!("apr_{n}"), decision, "ops", None)
                .await;
            match (model.pending.iter().position(|p| *p == n), answer) {
                (Some(at), Ok(_)) => {
                    model.pending.remove(at);
                    model.history.push((n, decision));
                    if decision != ApprovalDecision::Deny {
                        model.grants.insert(n, decision);
                    }
                }
                (None, Err(DecideError::AlreadyDecided(_))) => {
                    assert!(model.history.iter().any(|(d, _)| *d == n));
                }
                (None, Err(DecideError::NotFound(_))) => assert!(!model.opened.contains(&n)),
                (pending, answer) => panic!("decide {n}: pending {pending:?}, got {answer:?}"),
            }
        }
        Op::UseGrant(n) => {
            let found = approvals
                .use_grant(SESSION, Some(TOOL), &subject(n))
                .await
                .expect("stored");
            assert_eq!(found.is_some(), model.grants.contains_key(&n), "use {n}");
            if model.grants.get(&n) == Some(&ApprovalDecision::Approve) {
                model.grants.remove(&n);
            }
        }
        Op::Revoke(n) => {
            let id = approvals
                .grants()
                .iter()
                .find(|g| granted(g) == Some(n))
                .map(|g| g.id().to_owned());
            let revoked = approvals
                .revoke(id.as_deref().unwrap_or("g_none"))
                .await
                .expect("stored");
            assert_eq!(revoked, model.grants.remove(&n).is_some(), "revoke {n}");
        }
        Op::Reopen | Op::Crash(_) => unreachable!("handled by the caller"),
    }
}

/// Whether `approvals` holds what `model` says.
fn agrees(approvals: &Approvals, model: &Model) {
    let pending: Vec<Option<u8>> = approvals
        .pending()
        .iter()
        .map(|p| number(&p.subject))
        .collect();
    let expected: Vec<Option<u8>> = model.pending.iter().map(|n| Some(*n)).collect();
    assert_eq!(pending, expected, "pending");
    let history: Vec<(Option<u8>, ApprovalDecision)> = approvals
        .history()
        .iter()
        .map(|h| (number(&h.subject), h.decision))
        .collect();
    let expected: Vec<_> = model.history.iter().map(|(n, d)| (Some(*n), *d)).collect();
    assert_eq!(history, expected, "history");
    let mut grants: Vec<Option<u8>> = approvals.grants().iter().map(granted).collect();
    grants.sort();
    let expected: Vec<Option<u8>> = model.grants.keys().map(|n| Some(*n)).collect();
    assert_eq!(grants, expected, "grants");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn approvals_survive_restarts_compaction_and_torn_writes(
        ops in proptest::collection::vec(op(), 1..48)
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            let dir = tempfile::tempdir().expect("tempdir");
            let path = dir.path().join("approvals.json");
            let mut approvals = open(&path);
            let mut model = Model::default();
            for op in &ops {
                match op {
                    Op::Reopen => {
                        drop(approvals);
                        approvals = open(&path);
                    }
                    Op::Crash(torn) => {
                        drop(approvals);
                        let mut journal = std::fs::OpenOptions::new()
                            .append(true)
                            .create(true)
                            .open(store::journal_path(&path))
                            .expect("journal");
                        journal.write_all(torn).expect("torn line");
                        drop(journal);
                        approvals = open(&path);
                    }
                    op => step(&approvals, &mut model, op).await,
                }
                agrees(&approvals, &model);
            }
        });
    }
}
