//! The common allow path (a call that no hook matches) allocates nothing: the engine's
//! evaluation is polled directly, with a heap counter around it.
//!
//! Its own test binary, because the counter is the global allocator and counts every thread.

#[path = "../benches/support/mod.rs"]
mod support;

use std::alloc::System;
use std::future::Future;
use std::path::Path;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use hookgate::{Decision, Engine, HookContext, Point, RuleGraph, config};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use support::{CALLS, Mix};

#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Polls the evaluation once: with no hook firing, nothing is awaited, so it is ready.
fn evaluate_now(engine: &Engine, point: Point, ctx: &HookContext) -> Decision {
    let mut future = pin!(engine.evaluate(point, ctx));
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(decision) => decision,
        Poll::Pending => panic!("an evaluation with no action to run awaited something"),
    }
}

fn engine(n: usize, mix: Mix) -> Engine {
    let yaml = support::hooks_yaml(&support::rules(n, mix));
    let policy = config::load_str(&yaml, Path::new("bench.yaml")).expect("generated policy");
    Engine::new(Arc::new(RuleGraph::from_policy(&policy)))
}

/// Heap allocations made by one evaluation, after a first one warmed lazy caches: the
/// fewest seen over evaluations spread across some 200 ms, because the counter also sees the
/// engine's background threads (the log writer, the LLM worker), whose start-up can overlap
/// a few back-to-back evaluations. An engine that allocates does so on every evaluation, so
/// the fewest stays above zero.
fn allocations(engine: &Engine, point: Point, ctx: &HookContext) -> (usize, Decision) {
    let mut decision = evaluate_now(engine, point, ctx);
    let mut fewest = usize::MAX;
    for _ in 0..100 {
        let region = Region::new(ALLOCATOR);
        decision = evaluate_now(engine, point, ctx);
        fewest = fewest.min(region.change().allocations);
        if fewest == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    (fewest, decision)
}

/// One test: the counter is global, and a second test running alongside would be counted.
#[test]
fn a_call_no_hook_matches_allocates_nothing() {
    let miss: HookContext = serde_json::from_str(&CALLS[0].context_json()).expect("context");
    for mix in [Mix::Realistic, Mix::AllExec] {
        for n in [10, 1_000] {
            let engine = engine(n, mix);
            let (count, decision) = allocations(&engine, Point::TurnToolPre, &miss);
            assert!(decision.passed && decision.results.is_empty());
            assert_eq!(count, 0, "{n} hooks of {mix:?}");
            let (count, _) = allocations(&engine, Point::CronPre, &miss);
            assert_eq!(count, 0, "a point without hooks, {n} hooks of {mix:?}");
        }
    }
    // The same measurement on a call that fires a hook: results and messages are built, so
    // a counter that saw nothing would be broken, not the engine allocation-free.
    let block: HookContext = serde_json::from_str(&CALLS[2].context_json()).expect("context");
    let (count, decision) = allocations(&engine(10, Mix::Realistic), Point::TurnToolPre, &block);
    assert!(!decision.passed);
    assert!(count > 0);
}
