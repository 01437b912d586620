//! Run with: cargo bench --bench places
//!
//! Decisions that place paths (issue 24 item 8): the default policy's place rules
//! (`policies/destructive.yaml`, where they live; the audit log of the full default policy
//! is left out so that the figures are the decision, not a file append) on commands run in
//! a real workspace on disk: a `.git`, a root `.gitignore`, and a chain of 16 directories
//! below it, each with its own `.gitignore`. Placing a path reads the `.gitignore` files
//! from the root down to it, cached and looked at again at most every 2 s, so after the
//! first decision none costs a file read.
//!
//! The worst case deletes 64 files at the bottom of the chain, which only the deepest
//! `.gitignore` ignores: each path is checked against all 17 files.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

#[path = "support/shipped_allocator.rs"]
mod shipped_allocator;
mod support;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hookgate::{Engine, HookContext, Point, RuleGraph, config};

const SAMPLES: usize = 5_000;
const DEPTH: usize = 16;

struct Case {
    label: &'static str,
    command: String,
    blocked: bool,
}

fn workspace(root: &Path) -> String {
    std::fs::create_dir_all(root.join(".git")).expect("mkdir .git");
    std::fs::write(root.join(".gitignore"), "generated/\n*.log\n").expect(".gitignore");
    // `generated/` ignores a directory: it must be one on disk.
    std::fs::create_dir_all(root.join("generated")).expect("mkdir generated");
    let mut dir = root.to_path_buf();
    for level in 1..=DEPTH {
        dir = dir.join(format!("d{level}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let rules = if level == DEPTH {
            "*.tmp\n"
        } else {
            "unused-pattern\n"
        };
        std::fs::write(dir.join(".gitignore"), rules).expect(".gitignore");
    }
    (1..=DEPTH)
        .map(|l| format!("d{l}"))
        .collect::<Vec<_>>()
        .join("/")
}

fn cases(deep: &str) -> Vec<Case> {
    let many: Vec<String> = (0..64).map(|i| format!("{deep}/f{i}.tmp")).collect();
    vec![
        Case {
            label: "rm-build",
            command: "rm -rf build".into(),
            blocked: false,
        },
        Case {
            label: "rm-ignored",
            command: "rm -rf generated".into(),
            blocked: false,
        },
        Case {
            label: "write-file",
            command: "cargo test 2>&1 | tee test.log > out.txt".into(),
            blocked: false,
        },
        Case {
            label: "rm-home-glob",
            command: "rm -f ~/Downloads/*.md".into(),
            blocked: true,
        },
        Case {
            label: "worst-64-deep",
            command: format!("rm -rf {}", many.join(" ")),
            blocked: false,
        },
    ]
}

fn places(c: &mut Criterion) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("project");
    let deep = workspace(&root);
    let policy = dir.path().join("HOOKS.yaml");
    std::fs::write(
        &policy,
        format!(
            "version: 1\ninclude:\n  - {}\n",
            repo.join("policies/destructive.yaml").display()
        ),
    )
    .expect("policy");
    let loaded = config::load_file(&policy).expect("the destructive pack loads");
    let engine = Engine::new(Arc::new(RuleGraph::from_policy(&loaded)));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let cwd = root.to_str().expect("utf-8 path").to_owned();
    let context = |command: &str| -> HookContext {
        serde_json::from_value(serde_json::json!({
            "sessionKey": "bench",
            "toolName": "Bash",
            "toolArgs": { "command": command },
            "cwd": cwd,
        }))
        .expect("context")
    };
    let cases = cases(&deep);
    let contexts: Vec<HookContext> = cases.iter().map(|c| context(&c.command)).collect();
    for (case, ctx) in cases.iter().zip(&contexts) {
        let decision = runtime.block_on(engine.evaluate(Point::TurnToolPre, ctx));
        assert_eq!(
            !decision.passed, case.blocked,
            "{}: {:?}",
            case.label, decision.message
        );
    }
    let mut group = c.benchmark_group("places");
    for (case, ctx) in cases.iter().zip(&contexts) {
        group.bench_with_input(BenchmarkId::from_parameter(case.label), ctx, |b, ctx| {
            b.iter(|| runtime.block_on(engine.evaluate(Point::TurnToolPre, black_box(ctx))))
        });
    }
    group.finish();
    println!("\n{:<16} {:>10} {:>10}", "case", "p50", "p99");
    for (case, ctx) in cases.iter().zip(&contexts) {
        let (p50, p99) = support::quantiles(SAMPLES, || {
            black_box(runtime.block_on(engine.evaluate(Point::TurnToolPre, black_box(ctx))));
        });
        println!(
            "{:<16} {:>8.2}µs {:>8.2}µs",
            case.label,
            p50 / 1000.0,
            p99 / 1000.0
        );
    }
}

criterion_group!(benches, places);
criterion_main!(benches);
