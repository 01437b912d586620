//! Bounded work: pathological 64 KiB commands against a 6,000-hook policy hold the evaluation
//! threads, while `/healthz` and ordinary calls are still answered, and answered right.
//!
//! No timing asserts: the hostile calls run over a short `--eval-time-limit` (a debug build
//! takes seconds over them), and what is checked is that they are blocked saying so, that the
//! rest is answered at all (within a liveness bound of several seconds), and that SIGTERM is
//! obeyed while the threads are busy.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Daemon, exec, json_response, new_client};
use crate::util::Dir;

/// How long a liveness probe may take to be answered: several seconds, far above what the
/// daemon needs, so that only a stall fails it.
const LIVENESS: Duration = Duration::from_secs(8);
/// Hooks gated by a literal (`prog<i>`), which a hostile command opens by the hundred.
const GATED: usize = 5_900;
/// Hooks that read every argument of a `prog` command with a regex.
const HEAVY: usize = 100;
/// The time limit the daemon is started with.
const LIMIT: &str = "100ms";

/// 6,001 hooks on `exec`: an `rm -rf` guard, gated regex hooks and argument-reading hooks.
fn policy() -> String {
    let mut yaml = String::from(
        "version: \"1\"\nhooks:\n  - name: rm-guard\n    point: turn:tool:pre\n    \
         priority: 10\n    match: { tool: exec, commandPattern: \"rm\\\\s+-rf\" }\n    \
         action: block\n",
    );
    for i in 0..GATED {
        yaml.push_str(&format!(
            "  - name: gated-{i}\n    point: turn:tool:pre\n    match: {{ tool: exec, \
             commandPattern: \"\\\\bprog{i} +([a-z]+ +)*--force\" }}\n    action: block\n"
        ));
    }
    for i in 0..HEAVY {
        yaml.push_str(&format!(
            "  - name: heavy-{i}\n    point: turn:tool:pre\n    match: {{ tool: exec, command: \
             {{ program: prog, anyArg: \"^(x+-)+x{{3}}{i}$\" }} }}\n    action: block\n"
        ));
    }
    yaml
}

/// Just under 64 KiB: `prog a a a ...` (one command of 32,000 arguments, each read by every
/// heavy hook), or `prog` commands joined by `;` whose first arguments open gated hooks.
fn hostile(kind: usize) -> String {
    const SIZE: usize = 64 * 1024 - 64;
    let mut command = String::with_capacity(SIZE + 128);
    if kind.is_multiple_of(2) {
        command.push_str("prog");
        while command.len() < SIZE {
            command.push_str(" a");
        }
    } else {
        let mut i = 0;
        while command.len() < SIZE - 128 {
            command.push_str(&format!("prog prog{i} {}; ", "x ".repeat(50)));
            i += 1;
        }
        command.push_str("prog a a");
    }
    command
}

fn start(dir: &Dir) -> Daemon {
    dir.write("HOOKS.yaml", &policy());
    Daemon::start(
        dir,
        &[
            "--eval-time-limit",
            LIMIT,
            "--eval-threads",
            "2",
            "--no-watch",
        ],
    )
}

/// Starts `clients` threads that send hostile calls until `stop`; each checks its answer
/// (a block, saying it ran over the time limit) and counts it in `answered`.
fn flood(
    d: &Daemon,
    clients: usize,
    stop: &Arc<AtomicBool>,
    answered: &Arc<AtomicUsize>,
) -> Vec<thread::JoinHandle<()>> {
    flood_with(d, clients, stop, answered, true)
}

/// [`flood`]; unless `strict`, answers are counted but not checked (the daemon may be
/// shutting down under them).
fn flood_with(
    d: &Daemon,
    clients: usize,
    stop: &Arc<AtomicBool>,
    answered: &Arc<AtomicUsize>,
    strict: bool,
) -> Vec<thread::JoinHandle<()>> {
    (0..clients)
        .map(|c| {
            let (url, stop, answered) = (
                d.url("/v1/evaluate"),
                Arc::clone(stop),
                Arc::clone(answered),
            );
            let body = exec(&hostile(c));
            thread::spawn(move || {
                let client = new_client();
                while !stop.load(Ordering::Relaxed) {
                    let Ok(response) = client.post(&url).json(&body).send() else {
                        return; // the daemon is shutting down
                    };
                    if !strict {
                        answered.fetch_add(1, Ordering::Relaxed);
                        let _ = response.bytes();
                        continue;
                    }
                    let (status, decision) = json_response(response);
                    assert_eq!(status, 200, "{decision}");
                    assert_eq!(decision["decision"], "block", "{decision}");
                    let message = decision["message"].as_str().unwrap_or_default();
                    assert!(
                        message.contains("ran over its time limit (100 ms)"),
                        "{decision}"
                    );
                    answered.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect()
}

/// `GET /healthz` on a fresh connection: 200 within [`LIVENESS`].
fn healthz(d: &Daemon) {
    let started = Instant::now();
    let (status, body) = json_response(
        new_client()
            .get(d.url("/healthz"))
            .timeout(LIVENESS)
            .send()
            .expect("GET /healthz answered"),
    );
    assert_eq!(status, 200, "{body}");
    assert!(started.elapsed() < LIVENESS, "{:?}", started.elapsed());
}

fn decide(d: &Daemon, command: &str) -> Value {
    let (status, decision) = json_response(
        new_client()
            .post(d.url("/v1/evaluate"))
            .json(&exec(command))
            .timeout(LIVENESS)
            .send()
            .expect("an ordinary call answered"),
    );
    assert_eq!(status, 200, "{decision}");
    decision
}

#[test]
fn pathological_commands_are_blocked_at_the_time_limit_while_others_are_answered() {
    let dir = Dir::new();
    let d = start(&dir);
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    // Twice as many hostile clients as threads: the pool is busy and its queue holds more.
    let hostile = flood(&d, 4, &stop, &answered);
    d.wait_for(
        || answered.load(Ordering::Relaxed) >= 4,
        "hostile calls to be answered",
    );
    for _ in 0..10 {
        healthz(&d);
        let blocked = decide(&d, "rm -rf /tmp/x");
        assert_eq!(blocked["decision"], "block", "{blocked}");
        assert_eq!(blocked["hook"], "rm-guard", "{blocked}");
        let allowed = decide(&d, "ls -la");
        assert_eq!(allowed["decision"], "allow", "{allowed}");
    }
    stop.store(true, Ordering::Relaxed);
    for client in hostile {
        client.join().expect("hostile client");
    }
    let metrics = d.metrics();
    let exceeded = metrics.sum("hookgate_evaluation_deadline_exceeded_total");
    assert!(
        exceeded >= answered.load(Ordering::Relaxed) as f64,
        "{}",
        metrics.text
    );
    // Once the flood is over, a call that needs the pool is decided again (as soon as the
    // threads are done with the last hostile call: a liveness bound, polled).
    d.wait_for(
        || decide(&d, "cd /tmp && rm -rf x")["hook"] == "rm-guard",
        "a shell line to be decided by rm-guard",
    );
}

#[test]
fn sigterm_is_obeyed_while_every_evaluation_thread_is_busy() {
    let dir = Dir::new();
    let mut d = start(&dir);
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let hostile = flood_with(&d, 4, &stop, &answered, false);
    d.wait_for(
        || answered.load(Ordering::Relaxed) >= 2,
        "hostile calls to be answered",
    );
    d.signal("TERM");
    let status = d.wait_exit();
    assert!(status.success(), "{status}\n{}", d.stderr_text());
    stop.store(true, Ordering::Relaxed);
    for client in hostile {
        client.join().expect("hostile client");
    }
}

#[test]
fn a_command_nested_thousands_deep_is_answered_and_the_daemon_stays_up() {
    let dir = Dir::new();
    let d = start(&dir);
    // A quoted `)` in each level hides it from a count of brackets; brush-parser's tokenizer
    // once recursed once per level until the process aborted.
    let n = 5_000;
    let deep = "$(echo \")\" ".repeat(n) + &")".repeat(n);
    let answer = decide(&d, &deep);
    assert_ne!(answer["decision"], "allow", "{answer}");
    healthz(&d);
    assert_eq!(decide(&d, "ls -la")["decision"], "allow");
}
