//! Run with: cargo bench --bench decide
//!
//! Whole decisions, in process, with the repository's default policy (`HOOKS.yaml` and the
//! packs it includes) on shell calls in a workspace: the everyday lines of the shell bench,
//! and its worst shapes as 64 KiB commands, both repeated to the size and to just under the
//! reader's parse budget (issue 18: every decision in 10 ms or less). This is the reader
//! plus every hook's filters on what it read, the places of what each command touches,
//! and the actions. p50 and p99 of single decisions are printed at the end.

#[path = "support/shipped_allocator.rs"]
mod shipped_allocator;
mod support;

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hookgate::shell;
use hookgate::{Engine, HookContext, Point, RuleGraph, config};
use support::shell_lines::{
    NOT_AT_BOUND, NUMBERED, SHAPES, TYPICAL, at_parse_bound, heredoc_file, numbered, repeated,
};

struct Case {
    label: String,
    ctx: HookContext,
}

fn context(command: &str, workspace: &std::path::Path) -> HookContext {
    let json = serde_json::json!({
        "sessionKey": "agent:main:main",
        "toolName": "exec",
        "toolArgs": { "command": command },
        "cwd": workspace,
    });
    serde_json::from_value(json).expect("context")
}

fn cases(workspace: &std::path::Path) -> Vec<Case> {
    let mut cases: Vec<Case> = TYPICAL
        .iter()
        .enumerate()
        .map(|(k, line)| Case {
            label: format!("typical/{k}"),
            ctx: context(line, workspace),
        })
        .collect();
    for (name, unit) in SHAPES {
        cases.push(Case {
            label: format!("worst/{name}/65536"),
            ctx: context(&repeated(unit, shell::MAX_INPUT), workspace),
        });
        if !NOT_AT_BOUND.contains(name) {
            cases.push(Case {
                label: format!("at-parse-bound/{name}"),
                ctx: context(&at_parse_bound(unit), workspace),
            });
        }
    }
    for (name, prefix, unit, last) in NUMBERED {
        cases.push(Case {
            label: format!("worst/{name}/65536"),
            ctx: context(&numbered(prefix, unit, last, shell::MAX_INPUT), workspace),
        });
    }
    cases.push(Case {
        label: "heredoc-file/65536".to_owned(),
        ctx: context(&heredoc_file(shell::MAX_INPUT), workspace),
    });
    cases
}

fn decisions(c: &mut Criterion) {
    let policy_dir = tempfile::tempdir().expect("tempdir");
    let policy = support::copy_default_policy(policy_dir.path());
    let loaded = config::load_file(&policy).expect("the default policy loads");
    let engine = Engine::new(Arc::new(RuleGraph::from_policy(&loaded)));
    let workspace = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(workspace.path().join(".git")).expect("mkdir .git");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let cases = cases(workspace.path());
    let decide = |ctx: &HookContext| runtime.block_on(engine.evaluate(Point::TurnToolPre, ctx));
    let mut group = c.benchmark_group("decide");
    group.sample_size(10);
    for case in &cases {
        group.bench_with_input(
            BenchmarkId::from_parameter(&case.label),
            &case.ctx,
            |b, ctx| b.iter(|| decide(black_box(ctx))),
        );
    }
    group.finish();
    println!(
        "\n{:<40} {:>9} {:>10} {:>10}",
        "case", "decision", "p50", "p99"
    );
    for case in &cases {
        let decision = decide(&case.ctx);
        let samples = if case.label.starts_with("typical") {
            2_000
        } else {
            100
        };
        let (p50, p99) = support::quantiles(samples, || {
            black_box(decide(black_box(&case.ctx)));
        });
        println!(
            "{:<40} {:>9} {:>8.3}ms {:>8.3}ms",
            case.label,
            if decision.passed { "allow" } else { "block" },
            p50 / 1e6,
            p99 / 1e6,
        );
    }
}

criterion_group!(benches, decisions);
criterion_main!(benches);
