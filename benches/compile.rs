//! Run with: cargo bench --bench compile
//!
//! Load + validate + compile time of generated policies (`support`) of 10 to 10,000 hooks,
//! from YAML text to a ready `RuleGraph`, and the heap the compiled policy keeps per hook.
//!
//! Memory is counted by a global allocator that tracks heap bytes (its atomic counters add a
//! few percent to the compile times measured here): the figure is what
//! the `RuleGraph` holds after the YAML text, the parse tree and the validator's scratch are
//! freed, after one evaluation has warmed the matchers' caches. The embedded JSON Schema
//! validator is compiled once per process (not per policy), before the count starts.

mod support;

use std::alloc::System;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hookgate::{Engine, HookContext, Point, RuleGraph, config};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use support::{CALLS, Mix};

#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

const SIZES: [usize; 4] = [10, 100, 1_000, 10_000];

fn compile(yaml: &str) -> RuleGraph {
    let loaded = config::load_str(yaml, Path::new("bench.yaml")).expect("generated policy");
    RuleGraph::from_policy(&loaded)
}

fn load_and_compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("load_compile");
    group.sample_size(10);
    for n in SIZES {
        let yaml = support::hooks_yaml(&support::rules(n, Mix::Realistic));
        group.bench_with_input(BenchmarkId::from_parameter(n), &yaml, |b, yaml| {
            b.iter(|| compile(black_box(yaml)))
        });
    }
    group.finish();
    memory_per_hook();
}

/// Live heap bytes held by a compiled policy, per hook, printed as a table.
fn memory_per_hook() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    // Compile the schema validator and warm the runtime before counting.
    drop(compile(&support::hooks_yaml(&support::rules(
        2,
        Mix::Realistic,
    ))));
    println!(
        "\n{:<10} {:>7} {:>14} {:>12}",
        "policy", "hooks", "heap", "per hook"
    );
    for mix in [Mix::Realistic, Mix::AllExec] {
        for n in SIZES {
            let yaml = support::hooks_yaml(&support::rules(n, mix));
            let region = Region::new(ALLOCATOR);
            let engine = Engine::new(Arc::new(compile(&yaml)));
            for call in &CALLS {
                let ctx: HookContext = serde_json::from_str(&call.context_json()).expect("ctx");
                black_box(runtime.block_on(engine.evaluate(Point::TurnToolPre, &ctx)));
            }
            let change = region.change();
            // A realloc is counted in these two as the size difference.
            let held = change.bytes_allocated as isize - change.bytes_deallocated as isize;
            println!(
                "{:<10} {:>7} {:>12.1}KiB {:>10.0}B",
                mix.name(),
                n,
                held as f64 / 1024.0,
                held as f64 / n as f64
            );
            drop(engine);
        }
    }
}

criterion_group!(benches, load_and_compile);
criterion_main!(benches);
