//! Real git as the oracle for the git pack (`policies/git.yaml`, included by the default
//! `HOOKS.yaml`): each generated command runs with real git in a fresh copy of a throwaway
//! repository (`repo.rs`), and what it lost is measured. A command lost work when a file
//! version held before (in a working tree, an index, a stash, or a commit reachable from a
//! ref, here or on the remote) is held nowhere afterwards; the reflog and unreachable
//! objects do not count. Then:
//!
//! - every command that lost work must be stopped (ask or block) by the default policy;
//! - every command that lost nothing must be allowed, unless it is a declared
//!   over-approximation (`commands::OVER_APPROXIMATIONS`, each with its reason), and every
//!   declaration must still be needed.
//!
//! Commit messages and history are not counted as work: `commit --amend` and
//! `reset --soft` keep every file version. The fixture never stages a version that differs
//! from both the commit and the working tree, so `git add` overwriting such a version does
//! not count either.

mod commands;
mod repo;

use std::sync::Arc;

use hookgate::{Engine, HookContext, Point, RuleGraph, Verdict, config};
use serde_json::{Map, Value};

/// The default policy and the packs it includes, copied so its audit log stays in a
/// scratch directory.
fn default_policy() -> (crate::util::Dir, Engine) {
    let dir = crate::util::Dir::new();
    let path = dir.copy_default_policy();
    let policy = config::load_file(&path).expect("HOOKS.yaml loads");
    (dir, Engine::new(Arc::new(RuleGraph::from_policy(&policy))))
}

/// Whether the default policy stops `line` run in `cwd` (where the shell reader looks for
/// what `git checkout NAME` may name), and by which hook.
fn stopped(
    engine: &Engine,
    rt: &tokio::runtime::Runtime,
    line: &str,
    cwd: &std::path::Path,
) -> (bool, String) {
    let mut args = Map::new();
    args.insert("command".to_owned(), Value::String(line.to_owned()));
    let mut ctx = HookContext::new("agent:main:main").with_tool("Bash", args);
    ctx.cwd = Some(cwd.to_string_lossy().into_owned());
    let d = rt.block_on(engine.evaluate(Point::TurnToolPre, &ctx));
    let hook = d.hook.clone().unwrap_or_default();
    (d.decision != Verdict::Allow, hook)
}

/// What the fixture must make lose work, and what it must not: the oracle's own check that
/// the repository still holds what each kind of command can lose.
const MUST_LOSE: &[&str] = &[
    "reset --hard",
    "checkout -- .",
    "restore src/lib.rs",
    "clean -fdx",
    "clean -f",
    "rm -f src/lib.rs",
    "stash clear",
    "stash drop",
    "branch -D unmerged",
    "push --force origin main",
    "push --force-with-lease origin main",
    "push --delete origin topic",
    "push origin :topic",
    "worktree remove -f ../wt",
    "update-ref -d refs/heads/unmerged",
    "reflog expire --expire=now --all",
];
const MUST_KEEP: &[&str] = &[
    "status",
    "stash",
    "stash pop",
    "push -u origin feature",
    "push origin main",
    "restore --staged docs/guide.md",
    "clean -n",
    "branch -d merged",
    "reset --soft HEAD~1",
    "switch feature",
];

#[test]
fn every_git_command_that_loses_work_is_stopped_and_no_other() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let (_policy_dir, engine) = default_policy();
    let sandbox = repo::Sandbox::new();
    let before = sandbox.holdings();
    let mut work = sandbox.blobs(&before.objects);
    work.extend(before.files);
    assert!(
        work.len() >= 15,
        "the fixture holds too little: {}",
        work.len()
    );

    let generated = commands::generate();
    let (mut lost_n, mut kept_n, mut stopped_n, mut over_n) = (0, 0, 0, 0);
    let mut findings = Vec::new();
    let mut over_seen = std::collections::BTreeSet::new();
    for g in &generated {
        sandbox.reset();
        // Decided before it runs, in the repository as it is then.
        let (stop, hook) = stopped(&engine, &rt, &g.line, &sandbox.repo());
        sandbox.run(&g.line);
        let after = sandbox.holdings();
        let lost = work
            .iter()
            .filter(|b| !after.files.contains(*b) && !after.objects.contains(*b))
            .count();
        stopped_n += usize::from(stop);
        let over = commands::OVER_APPROXIMATIONS
            .iter()
            .any(|(base, _)| *base == g.base);
        if g.line.starts_with("git ") {
            let base = &g.line[4..];
            if MUST_LOSE.contains(&base) && lost == 0 || MUST_KEEP.contains(&base) && lost > 0 {
                findings.push(format!(
                    "the fixture no longer tests {base:?} (lost {lost})"
                ));
            }
        }
        if lost > 0 {
            lost_n += 1;
            if !stop {
                findings.push(format!("lost {lost} file versions, allowed: {}", g.line));
            }
        } else {
            kept_n += 1;
            if stop && over {
                over_n += 1;
                over_seen.insert(g.base);
            } else if stop {
                findings.push(format!("lost nothing, stopped by {hook}: {}", g.line));
            }
        }
    }
    for (base, why) in commands::OVER_APPROXIMATIONS {
        if !over_seen.contains(base) {
            findings.push(format!(
                "declared over-approximation not seen ({why}): {base}"
            ));
        }
    }
    eprintln!(
        "git oracle: {} commands from {} bases; {lost_n} lost work, {kept_n} lost nothing; \
         {stopped_n} stopped, {} allowed; {over_n} stopped without loss as declared",
        generated.len(),
        commands::BASES.len(),
        generated.len() - stopped_n
    );
    assert!(findings.is_empty(), "findings:\n{}", findings.join("\n"));
}
