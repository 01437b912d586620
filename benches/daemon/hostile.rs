//! The hostile scenario (docs/performance.md, "Under attack"): the daemon on a generated
//! 6,000-hook policy (the realistic mix), while clients send pathological 64 KiB commands
//! back to back and slowloris connections trickle headers, 200 ordinary clients each send
//! a call every 100 ms (about 2,000 calls/s) and a prober asks `/healthz` every 20 ms.
//! Half the ordinary calls have shell syntax (read on the evaluation pool), half are plain
//! (checked on the request thread). Prints the ordinary calls' latency percentiles, all and
//! by kind, the longest `/healthz` answer, what the hostile calls got, and the daemon's CPU
//! time. Not a criterion measurement: one run of `HOSTILE_SECONDS`.

use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::Criterion;
use hdrhistogram::Histogram;

use super::Daemon;
use super::support::{self, CALLS, Mix};

const HOOKS: usize = 6_000;
const ORDINARY_CLIENTS: usize = 200;
const THINK: Duration = Duration::from_millis(100);
const HOSTILE_CLIENTS: usize = 4;
const SLOWLORIS: usize = 16;
const HOSTILE_SECONDS: u64 = 15;
/// [`CALLS`]' commands with shell syntax, deciding alike.
const SHELL_COMMANDS: [&str; CALLS.len()] = [
    "cd /tmp && ls -la | head -n 20",
    "git status --short && git push origin main",
    "cd /srv/app && shred -u secrets.txt",
];
/// Just under the shell reader's 64 KiB.
const SIZE: usize = 64 * 1024 - 64;

/// Pathological commands of just under 64 KiB: one long plain command, the most simple
/// commands the reader keeps, nested substitutions, and a line that writes and runs scripts.
fn hostile_commands() -> Vec<String> {
    let cut = |s: String| s[..SIZE.min(s.len())].to_owned();
    vec![
        cut("ls ".to_owned() + &"-a ".repeat(SIZE / 3)),
        cut("x; ".repeat(SIZE / 3)),
        cut("$(echo ".repeat(SIZE / 14) + &")".repeat(SIZE / 14)),
        cut("echo a > f; sh f; ".repeat(SIZE / 18)),
        cut("a=1;".repeat(SIZE / 4)),
    ]
}

fn body(command: &str) -> String {
    serde_json::json!({
        "point": "turn:tool:pre",
        "context": {
            "sessionKey": "agent:main:main",
            "toolName": "exec",
            "toolArgs": { "command": command },
        }
    })
    .to_string()
}

pub(crate) fn hostile(_: &mut Criterion) {
    // To compare: `HOOKGATE_BENCH_HOSTILE=0` for the baseline, `HOOKGATE_BENCH_FLOOR=1` for
    // the harness alone (below), `HOOKGATE_BENCH_CLIENTS` and
    // `HOOKGATE_BENCH_HOOKS` for another load, `HOOKGATE_BENCH_FLAGS` for `serve` flags
    // (`--eval-threads 1`), `HOOKGATE_BENCH_BIN` for another build.
    let hostile_clients = count_from_env("HOOKGATE_BENCH_HOSTILE", HOSTILE_CLIENTS);
    let clients = count_from_env("HOOKGATE_BENCH_CLIENTS", ORDINARY_CLIENTS);
    let hooks = count_from_env("HOOKGATE_BENCH_HOOKS", HOOKS);
    let flags = std::env::var("HOOKGATE_BENCH_FLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split_whitespace().collect();
    let yaml = support::hooks_yaml(&support::rules(hooks, Mix::Realistic));
    let daemon = Daemon::start_with(Some(&yaml), &flags);
    let stop = Arc::new(AtomicBool::new(false));
    let addr = daemon.base.trim_start_matches("http://").to_owned();

    let hostile_answers = Arc::new(AtomicU64::new(0));
    let hostile_limited = Arc::new(AtomicU64::new(0));
    let mut threads = Vec::new();
    for command in hostile_commands().into_iter().cycle().take(hostile_clients) {
        let (url, stop) = (format!("{}/v1/evaluate", daemon.base), Arc::clone(&stop));
        let (answers, limited) = (Arc::clone(&hostile_answers), Arc::clone(&hostile_limited));
        let body = body(&command);
        threads.push(std::thread::spawn(move || {
            let client = reqwest::blocking::Client::new();
            while !stop.load(Ordering::Relaxed) {
                let Ok(response) = client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                else {
                    continue;
                };
                let text = response.text().unwrap_or_default();
                answers.fetch_add(1, Ordering::Relaxed);
                if text.contains("time limit") {
                    limited.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    for _ in 0..SLOWLORIS {
        let (addr, stop) = (addr.clone(), Arc::clone(&stop));
        threads.push(std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let Ok(mut tcp) = TcpStream::connect(&addr) else {
                    continue;
                };
                let _ = tcp.write_all(b"POST /v1/evaluate HTTP/1.1\r\n");
                while !stop.load(Ordering::Relaxed) && tcp.write_all(b"X-Slow: a\r\n").is_ok() {
                    std::thread::sleep(Duration::from_millis(500));
                }
            }
        }));
    }
    let healthz_max = Arc::new(AtomicU64::new(0));
    {
        let (url, stop, max) = (
            format!("{}/healthz", daemon.base),
            Arc::clone(&stop),
            Arc::clone(&healthz_max),
        );
        threads.push(std::thread::spawn(move || {
            let client = reqwest::blocking::Client::new();
            while !stop.load(Ordering::Relaxed) {
                let sent = Instant::now();
                let _ = client.get(&url).send().and_then(|r| r.bytes());
                max.fetch_max(sent.elapsed().as_micros() as u64, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        }));
    }

    // A multi-threaded runtime: on one thread, 200 clients measured 2.5 ms p50 of their own
    // scheduling against 0.6 ms for a lone client alongside (docs/performance.md).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let cpu_before = daemon.cpu_time();
    let [plain, syntax] = runtime.block_on(ordinary(&daemon.base, clients));
    let cpu = daemon.cpu_time().saturating_sub(cpu_before);
    stop.store(true, Ordering::Relaxed);
    for thread in threads {
        let _ = thread.join();
    }
    let mut all = plain.clone();
    let _ = all.add(&syntax);
    let figures = |h: &Histogram<u64>| {
        format!(
            "{} calls, p50 {} µs, p99 {} µs, p99.9 {} µs, max {} µs",
            h.len(),
            h.value_at_quantile(0.50),
            h.value_at_quantile(0.99),
            h.value_at_quantile(0.999),
            h.max()
        )
    };
    println!(
        "daemon/hostile ({hooks} hooks, {clients} ordinary clients every {} ms, \
         {hostile_clients} hostile 64 KiB clients, {SLOWLORIS} slowloris, {HOSTILE_SECONDS} s): \
         ordinary {}; of which plain {}; with shell syntax {}; /healthz max {} µs; \
         hostile calls answered {}, of which blocked at the time limit {}; \
         daemon CPU {:.1} s ({:.0}% of one core)",
        THINK.as_millis(),
        figures(&all),
        figures(&plain),
        figures(&syntax),
        healthz_max.load(Ordering::Relaxed),
        hostile_answers.load(Ordering::Relaxed),
        hostile_limited.load(Ordering::Relaxed),
        cpu.as_secs_f64(),
        100.0 * cpu.as_secs_f64() / HOSTILE_SECONDS as f64,
    );
}

fn count_from_env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// The ordinary clients, for [`HOSTILE_SECONDS`]: their latencies in µs, of the plain calls
/// and of those with shell syntax. Every answer is checked against what the policy decides.
async fn ordinary(base: &str, clients: usize) -> [Histogram<u64>; 2] {
    let url = format!("{base}/v1/evaluate");
    let until = Instant::now() + Duration::from_secs(HOSTILE_SECONDS);
    let mut tasks = Vec::new();
    // `HOOKGATE_BENCH_FLOOR=1`: the same clients ask `/healthz` instead, which does no
    // work: what is left is the cost of the harness, HTTP and the machine's scheduling.
    let floor = std::env::var_os("HOOKGATE_BENCH_FLOOR").map(|_| format!("{base}/healthz"));
    for c in 0..clients {
        let (url, floor) = (url.clone(), floor.clone());
        tasks.push(tokio::spawn(async move {
            let client = reqwest::Client::builder()
                .pool_max_idle_per_host(1)
                .tcp_nodelay(true)
                .build()
                .expect("client");
            let mut local = [
                Histogram::<u64>::new(3).expect("histogram"),
                Histogram::<u64>::new(3).expect("histogram"),
            ];
            // Spread the clients over the think time.
            tokio::time::sleep(THINK.mul_f64(c as f64 / clients as f64)).await;
            let mut i = c;
            while Instant::now() < until {
                let mut call = CALLS[i % CALLS.len()].clone();
                // Every other call has shell syntax, as agents' commands often do: such a
                // call is read by the shell reader on the evaluation pool, where the hostile
                // calls are, rather than checked on the request thread.
                let syntax = (i / CALLS.len()) % 2;
                if syntax == 1 {
                    call.command = SHELL_COMMANDS[i % CALLS.len()];
                }
                i += 1;
                let body = format!(
                    r#"{{"point":"{}","context":{}}}"#,
                    call.point,
                    call.context_json()
                );
                let sent = Instant::now();
                let request = match &floor {
                    Some(healthz) => client.get(healthz),
                    None => client
                        .post(&url)
                        .header("content-type", "application/json")
                        .body(body),
                };
                let response = request.send().await.expect("request");
                let text = response.text().await.expect("body");
                let _ = local[syntax].record(sent.elapsed().as_micros() as u64);
                if floor.is_none() {
                    let blocked = text.contains(r#""decision":"block""#);
                    assert_eq!(blocked, call.blocks, "{}: {text}", call.name);
                }
                tokio::time::sleep(THINK).await;
            }
            local
        }));
    }
    let mut all = [
        Histogram::<u64>::new(3).expect("histogram"),
        Histogram::<u64>::new(3).expect("histogram"),
    ];
    for task in tasks {
        for (all, one) in all.iter_mut().zip(task.await.expect("client")) {
            let _ = all.add(one);
        }
    }
    all
}
