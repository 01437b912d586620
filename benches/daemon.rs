//! Run with: cargo bench --bench daemon
//!
//! Load benchmark of `hookgate serve` over loopback: the real release binary, started on the
//! repo's own HOOKS.yaml (copied to a scratch directory, so its audit log lands there), driven
//! by keep-alive HTTP/1.1 clients on one client thread. Requests alternate between a call the
//! policy blocks (`rm -rf /`) and one it allows (`ls -la`); both are also audit-logged by the
//! policy, as in production.
//!
//! Criterion reports the time per decision across all connections, i.e. 1 / throughput
//! (`thrpt` is decisions/s). Every request's latency is also recorded in a histogram, and the
//! p50/p99/p99.9 per connection count are printed at the end.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

#[path = "daemon/hostile.rs"]
mod hostile;
#[path = "support/shipped_allocator.rs"]
mod shipped_allocator;
mod support;
use hdrhistogram::Histogram;

const BLOCKED: &str = r#"{"point":"turn:tool:pre","context":{"sessionKey":"agent:main:main","toolName":"exec","toolArgs":{"command":"rm -rf /"}}}"#;
const ALLOWED: &str = r#"{"point":"turn:tool:pre","context":{"sessionKey":"agent:main:main","toolName":"exec","toolArgs":{"command":"ls -la"}}}"#;

/// The daemon under test; killed on drop.
struct Daemon {
    child: Child,
    base: String,
    _dir: tempfile::TempDir,
}

impl Daemon {
    fn start() -> Daemon {
        Daemon::start_with(None, &[])
    }

    /// The daemon on `policy` (default: the repo's HOOKS.yaml), with `extra` flags; the binary
    /// is `$HOOKGATE_BENCH_BIN` when set (to compare with another build).
    fn start_with(policy_text: Option<&str>, extra: &[&str]) -> Daemon {
        let dir = tempfile::tempdir().expect("tempdir");
        let policy = match policy_text {
            Some(text) => {
                let policy = dir.path().join("HOOKS.yaml");
                std::fs::write(&policy, text).expect("write the policy");
                policy
            }
            None => support::copy_default_policy(dir.path()),
        };
        let binary = std::env::var_os("HOOKGATE_BENCH_BIN")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_hookgate").into());
        let mut child = Command::new(binary)
            .args(["serve", "--listen", "127.0.0.1:0", "--no-watch", "--config"])
            .arg(&policy)
            .args(extra)
            .env_remove("HOOKGATE_TOKEN")
            .env("HOOKGATE_LOG", "info")
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hookgate serve");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("listening on http://") {
                    let addr = line[at + "listening on http://".len()..]
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned();
                    let _ = tx.send(addr);
                }
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the daemon did not start listening");
        Daemon {
            child,
            base: format!("http://{addr}"),
            _dir: dir,
        }
    }
}

impl Daemon {
    /// The CPU time the daemon has used so far (user and system), from `/proc`; zero where
    /// that cannot be read.
    fn cpu_time(&self) -> Duration {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // Fields 14 and 15 (utime, stime), counted after the command name's closing paren.
        let ticks: u64 = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().skip(11).take(2))
            .into_iter()
            .flatten()
            .filter_map(|field| field.parse::<u64>().ok())
            .sum();
        // The kernel reports them in USER_HZ, 100 on Linux.
        Duration::from_millis(ticks * 10)
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `total` evaluations over `connections` keep-alive connections; returns the wall time.
async fn load(
    clients: &[reqwest::Client],
    url: &str,
    total: u64,
    latencies: &Arc<Mutex<Histogram<u64>>>,
) -> Duration {
    let per_client = total.div_ceil(clients.len() as u64);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (c, client) in clients.iter().enumerate() {
        let (client, url, latencies) = (client.clone(), url.to_owned(), Arc::clone(latencies));
        tasks.push(tokio::spawn(async move {
            let mut local = Histogram::<u64>::new(3).expect("histogram");
            for i in 0..per_client {
                let body = if (i + c as u64).is_multiple_of(2) {
                    BLOCKED
                } else {
                    ALLOWED
                };
                let sent = Instant::now();
                let response = client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await
                    .expect("request");
                assert!(
                    response.status().is_success(),
                    "status {}",
                    response.status()
                );
                let _ = response.bytes().await.expect("body");
                let _ = local.record(sent.elapsed().as_micros() as u64);
            }
            if let Ok(mut all) = latencies.lock() {
                let _ = all.add(&local);
            }
        }));
    }
    for task in tasks {
        task.await.expect("client task");
    }
    started.elapsed()
}

fn daemon(c: &mut Criterion) {
    let daemon = Daemon::start();
    let url = format!("{}/v1/evaluate", daemon.base);
    // One client thread, like `wrk -t1`: the other core is the daemon's.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut group = c.benchmark_group("daemon");
    group.throughput(Throughput::Elements(1));
    let mut report = Vec::new();
    for connections in [1usize, 8] {
        let clients: Vec<reqwest::Client> = (0..connections)
            .map(|_| {
                reqwest::Client::builder()
                    .pool_max_idle_per_host(1)
                    .tcp_nodelay(true)
                    .build()
                    .expect("client")
            })
            .collect();
        let latencies = Arc::new(Mutex::new(Histogram::<u64>::new(3).expect("histogram")));
        group.bench_function(
            BenchmarkId::new("evaluate", format!("{connections}-conns")),
            |b| {
                b.iter_custom(|iters| runtime.block_on(load(&clients, &url, iters, &latencies)));
            },
        );
        if let Ok(h) = latencies.lock() {
            report.push(format!(
                "daemon/evaluate/{connections}-conns: {} requests, latency p50 {} µs, p99 {} µs, p99.9 {} µs, max {} µs",
                h.len(),
                h.value_at_quantile(0.50),
                h.value_at_quantile(0.99),
                h.value_at_quantile(0.999),
                h.max(),
            ));
        }
    }
    group.finish();
    for line in report {
        println!("{line}");
    }
}

criterion_group!(benches, daemon, hostile::hostile);
criterion_main!(benches);
