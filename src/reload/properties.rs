//! A model-based property test of reloading: random sequences of writes to a policy and the
//! pack it may include (valid, invalid, or cut short as a crash mid-write leaves a file) and
//! reloads, checked against a reference model: a reload puts in force exactly the policy on
//! disk when it is valid, says `unchanged` when that is the policy in force, and otherwise
//! fails and keeps the last good policy, which then decides every call.

use std::path::Path;

use proptest::prelude::*;

use super::*;
use crate::context::HookContext;
use crate::decision::Verdict;
use crate::point::Point;

/// Versions `0..VERSIONS` of each file; version `k` of the policy blocks `cmd<k>`, version
/// `j` of the pack `pack<j>`.
const VERSIONS: u8 = 4;

/// A file as the model knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum File {
    /// Version `k`; for the policy, whether it includes the pack.
    Good(u8, bool),
    /// Not a valid policy (a syntax error, or a write cut short).
    Bad,
    Missing,
}

#[derive(Debug, Clone)]
enum Op {
    WritePolicy(File),
    WritePack(File),
    Reload,
}

fn file() -> impl Strategy<Value = File> {
    prop_oneof![
        4 => (0..VERSIONS, any::<bool>()).prop_map(|(k, pack)| File::Good(k, pack)),
        1 => Just(File::Bad),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => file().prop_map(Op::WritePolicy),
        2 => prop_oneof![4 => file(), 1 => Just(File::Missing)].prop_map(Op::WritePack),
        3 => Just(Op::Reload),
    ]
}

/// The text of a file; `Bad` alternates between a YAML error and a write cut short.
fn text(name: &str, file: File, salt: usize) -> Option<String> {
    let hook = |id: &str, command: String| {
        format!(
            "  - {{ name: {id}, point: turn:tool:pre, match: {{ commandPattern: \"^{command}$\" }}, action: block }}\n"
        )
    };
    match file {
        File::Good(k, include) if name == "HOOKS.yaml" => Some(format!(
            "version: 1\n{}hooks:\n{}",
            if include {
                "include: [pack.yaml]\n"
            } else {
                ""
            },
            hook("root", format!("cmd{k}"))
        )),
        File::Good(j, _) => Some(format!(
            "version: 1\nhooks:\n{}",
            hook("pack", format!("pack{j}"))
        )),
        File::Bad if salt.is_multiple_of(2) => Some("version: 1\nhooks: [ { name: x,\n".to_owned()),
        File::Bad => Some("version: 1\nhooks:\n  - point: turn:tool:pre\n    act".to_owned()),
        File::Missing => None,
    }
}

fn write(dir: &Path, name: &str, file: File, salt: usize) {
    let path = dir.join(name);
    match text(name, file, salt) {
        Some(text) => std::fs::write(path, text).expect("write"),
        None => {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The policy the files make, when they make one: the commands it blocks.
fn policy_of(root: File, pack: File) -> Option<Vec<String>> {
    match (root, pack) {
        (File::Good(k, false), _) => Some(vec![format!("cmd{k}")]),
        (File::Good(k, true), File::Good(j, _)) => {
            Some(vec![format!("cmd{k}"), format!("pack{j}")])
        }
        _ => None,
    }
}

/// Whether the policy in force blocks exactly `blocked` of every command the files can name.
async fn decides(live: &LivePolicy, blocked: &[String]) {
    let active = live.current();
    for k in 0..VERSIONS {
        for command in [format!("cmd{k}"), format!("pack{k}")] {
            let mut ctx = HookContext::new("s");
            ctx.tool_name = Some("exec".into());
            ctx.tool_args = serde_json::json!({ "command": command })
                .as_object()
                .cloned();
            let decision = active.engine().evaluate(Point::TurnToolPre, &ctx).await;
            let expected = if blocked.contains(&command) {
                Verdict::Block
            } else {
                Verdict::Allow
            };
            assert_eq!(
                decision.decision, expected,
                "{command}: in force {blocked:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_reload_installs_the_policy_on_disk_or_keeps_the_last_good_one(
        ops in proptest::collection::vec(op(), 1..32)
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            let dir = tempfile::tempdir().expect("tempdir");
            let (mut root, mut pack) = (File::Good(0, false), File::Missing);
            write(dir.path(), "HOOKS.yaml", root, 0);
            let live = LivePolicy::load(&dir.path().join("HOOKS.yaml"), Arc::new(Services::dry_run()))
                .expect("the first policy loads");
            // In force: the files it was read from, and what it blocks.
            let mut in_force = (root, policy_of(root, pack).expect("valid"));
            for (salt, op) in ops.iter().enumerate() {
                match *op {
                    Op::WritePolicy(file) => {
                        root = file;
                        write(dir.path(), "HOOKS.yaml", file, salt);
                    }
                    Op::WritePack(file) => {
                        pack = file;
                        write(dir.path(), "pack.yaml", file, salt);
                    }
                    Op::Reload => {
                        let outcome = live.reload(ReloadTrigger::Request).await;
                        match policy_of(root, pack) {
                            None => assert!(
                                matches!(outcome, ReloadOutcome::Failed { .. }),
                                "{root:?} {pack:?}: {outcome:?}"
                            ),
                            Some(blocked) if blocked == in_force.1 && root == in_force.0 => {
                                assert!(
                                    matches!(outcome, ReloadOutcome::Unchanged { .. }),
                                    "{root:?} {pack:?}: {outcome:?}"
                                );
                            }
                            Some(blocked) => {
                                assert!(
                                    matches!(outcome, ReloadOutcome::Reloaded { hooks, .. } if hooks == blocked.len()),
                                    "{root:?} {pack:?}: {outcome:?}"
                                );
                                in_force = (root, blocked);
                            }
                        }
                    }
                }
                decides(&live, &in_force.1).await;
            }
        });
    }
}
