//! Run with: cargo bench --bench evaluate
//!
//! Evaluation latency per decision and load+compile time, on generated policies of 10, 100
//! and 1,000 hooks (a mix of tool filters, command patterns and session patterns, spread over
//! several points), for a call that hits only an audit `log`-free allow path, one that misses
//! every hook, and one that blocks.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hookgate::{Engine, HookContext, Point, RuleGraph, config};

const TOOLS: [&str; 5] = ["exec", "Read", "Write", "browser", "message"];

/// A policy of `n` hooks; the last one blocks `exec` calls that run `shred`.
fn policy(n: usize) -> String {
    let mut s = String::from("version: \"1\"\nhooks:\n");
    for i in 0..n.saturating_sub(1) {
        let tool = TOOLS[i % TOOLS.len()];
        let point = if i % 3 == 0 {
            "[turn:tool:pre, subagent:tool:pre]"
        } else {
            "turn:tool:pre"
        };
        let filter = match i % 4 {
            0 => format!("{{ tool: {tool}, commandPattern: \"^cmd{i}\\\\s+--flag\" }}"),
            1 => format!("{{ tool: {tool}, sessionPattern: \"^agent:team{i}:\" }}"),
            2 => format!("{{ commandPattern: \"forbidden-{i}\" }}"),
            _ => format!("{{ tool: {tool}, topicId: {i} }}"),
        };
        s.push_str(&format!(
            "  - {{ name: h{i}, point: {point}, match: {filter}, action: block }}\n"
        ));
    }
    s.push_str("  - { name: shred-guard, point: turn:tool:pre, match: { tool: exec, commandPattern: \"\\\\bshred\\\\b\" }, action: block }\n");
    s
}

fn engine(n: usize) -> Engine {
    let loaded =
        config::load_str(&policy(n), Path::new("bench.yaml")).expect("generated policy is valid");
    Engine::new(Arc::new(RuleGraph::from_policy(&loaded)))
}

fn exec(command: &str) -> HookContext {
    let args = serde_json::json!({ "command": command });
    HookContext::new("agent:main:main")
        .with_tool("exec", args.as_object().cloned().unwrap_or_default())
}

fn evaluation(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let mut group = c.benchmark_group("evaluate");
    for n in [10, 100, 1_000] {
        let engine = engine(n);
        let cases = [
            ("allow", exec("ls -la /tmp")),
            ("block", exec("shred -u secrets.txt")),
            ("other-point", exec("ls")),
        ];
        for (name, ctx) in &cases {
            let point = if *name == "other-point" {
                Point::CronPre
            } else {
                Point::TurnToolPre
            };
            group.bench_with_input(BenchmarkId::new(*name, n), ctx, |b, ctx| {
                b.iter(|| runtime.block_on(engine.evaluate(point, black_box(ctx))))
            });
        }
    }
    group.finish();
}

fn load_and_compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("load_compile");
    group.sample_size(20);
    for n in [10, 100, 1_000] {
        let text = policy(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
            b.iter(|| {
                let loaded =
                    config::load_str(black_box(text), Path::new("bench.yaml")).expect("valid");
                RuleGraph::from_policy(&loaded)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, evaluation, load_and_compile);
criterion_main!(benches);
