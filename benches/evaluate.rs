//! Run with: cargo bench --bench evaluate
//!
//! Evaluation latency per decision, in process, on generated policies (`support`) of 10, 100,
//! 1,000 and 10,000 hooks of the realistic mix, and on the index's worst case (every hook on
//! `exec` with a distinct regex), for a call that matches no hook (`miss`), one that hits an
//! audit hook and is allowed (`hit`), and one the last hook blocks (`block`).
//!
//! Criterion estimates the mean and median per decision. Each case is then run again, one
//! decision per sample, into a histogram whose p50 and p99 are printed at the end. Those
//! samples include two clock reads (about 40 ns here), so they sit slightly above criterion's.

#[path = "support/shipped_allocator.rs"]
mod shipped_allocator;
mod support;

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hookgate::{Engine, HookContext, Point, RuleGraph, config};
use support::{CALLS, Call, Mix};

const SIZES: [usize; 4] = [10, 100, 1_000, 10_000];
/// Decisions recorded per case for the percentile table.
const SAMPLES: usize = 20_000;

fn engine(n: usize, mix: Mix) -> Engine {
    let yaml = support::hooks_yaml(&support::rules(n, mix));
    let loaded = config::load_str(&yaml, Path::new("bench.yaml")).expect("generated policy");
    Engine::new(Arc::new(RuleGraph::from_policy(&loaded)))
}

fn context(call: &Call) -> HookContext {
    serde_json::from_str(&call.context_json()).expect("context")
}

struct Case {
    label: String,
    n: usize,
    engine: Engine,
    point: Point,
    ctx: HookContext,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for n in SIZES {
        let mixes: &[Mix] = if n == 1_000 {
            &[Mix::Realistic, Mix::AllExec]
        } else {
            &[Mix::Realistic]
        };
        for &mix in mixes {
            let engine = engine(n, mix);
            for call in &CALLS {
                cases.push(Case {
                    label: format!("{}/{}", mix.name(), call.name),
                    n,
                    engine: engine.clone(),
                    point: call.point.parse().expect("point"),
                    ctx: context(call),
                });
            }
            cases.push(Case {
                label: format!("{}/no-hooks-at-point", mix.name()),
                n,
                engine: engine.clone(),
                point: Point::CronPre,
                ctx: context(&CALLS[0]),
            });
        }
    }
    cases
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime")
}

fn evaluation(c: &mut Criterion) {
    let runtime = runtime();
    let cases = cases();
    for case in &cases {
        let want_block = case.label.ends_with("/block");
        let decision = runtime.block_on(case.engine.evaluate(case.point, &case.ctx));
        assert_eq!(!decision.passed, want_block, "{} at {}", case.label, case.n);
    }
    let mut group = c.benchmark_group("evaluate");
    for case in &cases {
        group.bench_with_input(
            BenchmarkId::new(&case.label, case.n),
            &case.ctx,
            |b, ctx| b.iter(|| runtime.block_on(case.engine.evaluate(case.point, black_box(ctx)))),
        );
    }
    group.finish();
    percentiles(&runtime, &cases);
}

/// One decision per sample: p50 and p99 per case, printed as a table.
fn percentiles(runtime: &tokio::runtime::Runtime, cases: &[Case]) {
    println!(
        "\n{:<28} {:>7} {:>10} {:>10}",
        "case", "hooks", "p50", "p99"
    );
    for case in cases {
        let (p50, p99) = support::quantiles(SAMPLES, || {
            black_box(runtime.block_on(case.engine.evaluate(case.point, black_box(&case.ctx))));
        });
        println!(
            "{:<28} {:>7} {:>8.2}µs {:>8.2}µs",
            case.label,
            case.n,
            p50 / 1000.0,
            p99 / 1000.0,
        );
    }
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
