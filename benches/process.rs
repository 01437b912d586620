//! Run with: cargo bench --bench process
//!
//! End-to-end wall time of one gate decision made by a fresh process, as a Claude Code
//! command hook runs it on every tool call: process start, loading and compiling the repo's
//! own HOOKS.yaml, one decision, output, exit. Two commands:
//!
//! - `hookgate check --config HOOKS.yaml --point turn:tool:pre --context ctx.json`
//! - `hookgate claude-code --config HOOKS.yaml` with a PreToolUse payload on stdin
//!
//! for an allowed call (`ls -la`) and a blocked one (`rm -rf /`). The policy is a copy in a
//! scratch directory, so its audit log lands there. Criterion estimates the mean; each
//! case is then run again into a histogram whose p50 and p99 are printed.

#[path = "support/shipped_allocator.rs"]
mod shipped_allocator;
mod support;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

const BIN: &str = env!("CARGO_BIN_EXE_hookgate");
const SAMPLES: usize = 200;

struct Case {
    name: &'static str,
    args: Vec<String>,
    stdin: Option<String>,
}

fn cases(dir: &Path) -> Vec<Case> {
    let policy = support::copy_default_policy(dir);
    let mut cases = Vec::new();
    for (outcome, command) in [("allow", "ls -la"), ("block", "rm -rf /")] {
        let context = dir.join(format!("{outcome}.json"));
        let json = serde_json::json!({
            "sessionKey": "agent:main:main",
            "toolName": "exec",
            "toolArgs": { "command": command },
        });
        std::fs::write(&context, json.to_string()).expect("write context");
        cases.push(Case {
            name: if outcome == "allow" {
                "check/allow"
            } else {
                "check/block"
            },
            args: args(&[
                "check",
                "--config",
                &path(&policy),
                "--point",
                "turn:tool:pre",
                "--context",
                &path(&context),
            ]),
            stdin: None,
        });
        let payload = serde_json::json!({
            "session_id": "bench",
            "transcript_path": "/tmp/transcript.jsonl",
            "cwd": path(dir),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": { "command": command },
        });
        cases.push(Case {
            name: if outcome == "allow" {
                "claude-code/allow"
            } else {
                "claude-code/block"
            },
            args: args(&["claude-code", "--config", &path(&policy)]),
            stdin: Some(payload.to_string()),
        });
    }
    cases
}

fn args(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// Runs the command once, to completion; returns whether it blocked.
fn run(case: &Case, dir: &PathBuf) -> bool {
    let mut child = Command::new(BIN)
        .args(&case.args)
        .current_dir(dir)
        .env_remove("HOOKGATE_CONFIG")
        .stdin(if case.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hookgate");
    if let (Some(input), Some(mut stdin)) = (&case.stdin, child.stdin.take()) {
        stdin.write_all(input.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("hookgate runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // check exits 2 on a block; claude-code answers with a deny decision.
    out.status.code() == Some(2) || stdout.contains("\"deny\"")
}

fn processes(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().to_path_buf();
    let cases = cases(&root);
    for case in &cases {
        assert_eq!(
            run(case, &root),
            case.name.ends_with("block"),
            "{} decided wrongly",
            case.name
        );
    }
    let mut group = c.benchmark_group("process");
    group.sample_size(50);
    for case in &cases {
        group.bench_function(BenchmarkId::from_parameter(case.name), |b| {
            b.iter(|| run(case, &root))
        });
    }
    group.finish();

    println!("\n{:<20} {:>10} {:>10}", "command", "p50", "p99");
    for case in &cases {
        let (p50, p99) = support::quantiles(SAMPLES, || {
            run(case, &root);
        });
        println!(
            "{:<20} {:>8.2}ms {:>8.2}ms",
            case.name,
            p50 / 1e6,
            p99 / 1e6,
        );
    }
}

criterion_group!(benches, processes);
criterion_main!(benches);
