//! Live reload: by the watcher (rename, in-place write, Kubernetes symlink swap), by SIGHUP,
//! by `POST /v1/reload`; invalid files keep the last good policy; reloads under load.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use super::{BROKEN_YAML, Daemon, INVALID, exec, hash, new_client, policy};
use crate::util::Dir;

/// Replaces `path` the way editors do: a new file beside it, renamed over it.
fn write_atomically(path: &Path, text: &str) {
    let tmp = path.with_extension("yaml.tmp");
    std::fs::write(&tmp, text).expect("write temp");
    std::fs::rename(&tmp, path).expect("rename");
}

fn start_with_a(extra: &[&str]) -> (Dir, Daemon) {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy("policy-A"));
    let d = Daemon::start(&dir, extra);
    assert_eq!(d.block_message(), "policy-A");
    assert_eq!(d.hash(), hash(&policy("policy-A")));
    (dir, d)
}

fn last_reload(d: &Daemon) -> Value {
    d.status()["lastReload"].clone()
}

#[test]
fn an_atomic_rename_is_reloaded() {
    let (dir, d) = start_with_a(&[]);
    write_atomically(&dir.path().join("HOOKS.yaml"), &policy("policy-B"));
    d.wait_for_policy("policy-B", &policy("policy-B"));
    let last = last_reload(&d);
    assert_eq!(last["trigger"], "watch", "{last}");
    // The log line follows the swap; on a loaded machine it may land a moment later.
    d.wait_for(
        || d.stderr_text().contains("policy reloaded"),
        "the reload's log line",
    );
}

#[test]
fn an_in_place_write_is_reloaded() {
    let (dir, d) = start_with_a(&[]);
    std::fs::write(dir.path().join("HOOKS.yaml"), policy("policy-B")).expect("write");
    d.wait_for_policy("policy-B", &policy("policy-B"));
    assert_eq!(last_reload(&d)["trigger"], "watch");
    // And back.
    std::fs::write(dir.path().join("HOOKS.yaml"), policy("policy-A")).expect("write");
    d.wait_for_policy("policy-A", &policy("policy-A"));
}

#[test]
fn a_kubernetes_style_symlink_swap_is_reloaded() {
    let dir = Dir::new();
    let root = dir.path();
    dir.write("..v1/HOOKS.yaml", &policy("policy-A"));
    dir.write("..v2/HOOKS.yaml", &policy("policy-B"));
    symlink("..v1", root.join("..data")).expect("symlink ..data");
    symlink("..data/HOOKS.yaml", root.join("HOOKS.yaml")).expect("symlink HOOKS.yaml");
    let d = Daemon::start(&dir, &[]);
    assert_eq!(d.block_message(), "policy-A");

    // kubelet's update: a new ..data link renamed over the old one.
    let swap = |target: &str| {
        symlink(target, root.join("..data_tmp")).expect("symlink ..data_tmp");
        std::fs::rename(root.join("..data_tmp"), root.join("..data")).expect("rename ..data");
    };
    swap("..v2");
    d.wait_for_policy("policy-B", &policy("policy-B"));

    // The next update, after kubelet removed the old version: the watcher still follows.
    std::fs::remove_dir_all(root.join("..v1")).expect("rm ..v1");
    dir.write("..v3/HOOKS.yaml", &policy("policy-A"));
    swap("..v3");
    std::fs::remove_dir_all(root.join("..v2")).expect("rm ..v2");
    d.wait_for_policy("policy-A", &policy("policy-A"));
}

#[test]
fn sighup_reloads_when_not_watching() {
    let (dir, d) = start_with_a(&["--no-watch"]);
    std::fs::write(dir.path().join("HOOKS.yaml"), policy("policy-B")).expect("write");
    write_atomically(&dir.path().join("HOOKS.yaml"), &policy("policy-B"));
    // Not watching: nothing happens on its own.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(d.block_message(), "policy-A");
    assert_eq!(d.hash(), hash(&policy("policy-A")));
    assert_eq!(last_reload(&d), Value::Null);

    d.signal("HUP");
    d.wait_for_policy("policy-B", &policy("policy-B"));
    let last = last_reload(&d);
    assert_eq!(last["trigger"], "signal", "{last}");
    assert_eq!(last["result"], "reloaded", "{last}");
    assert_eq!(last["hash"], hash(&policy("policy-B")), "{last}");
}

#[test]
fn post_reload_reloads_then_reports_unchanged() {
    let (dir, d) = start_with_a(&["--no-watch"]);
    std::fs::write(dir.path().join("HOOKS.yaml"), policy("policy-B")).expect("write");
    let (status, outcome) = d.post("/v1/reload");
    assert_eq!(status, 200, "{outcome}");
    assert_eq!(outcome["result"], "reloaded", "{outcome}");
    assert_eq!(outcome["hash"], hash(&policy("policy-B")));
    assert_eq!(outcome["hooks"], 1);
    // The reload is done when the answer comes: no waiting.
    assert_eq!(d.block_message(), "policy-B");
    assert_eq!(d.hash(), hash(&policy("policy-B")));

    let (status, outcome) = d.post("/v1/reload");
    assert_eq!(status, 200, "{outcome}");
    assert_eq!(outcome["result"], "unchanged", "{outcome}");
    assert_eq!(outcome["hash"], hash(&policy("policy-B")));
    let last = last_reload(&d);
    assert_eq!(last["trigger"], "request", "{last}");
    assert_eq!(last["result"], "unchanged", "{last}");
}

/// The diagnostics of a failed reload report: they must point at `blok`, line 7 column 13.
fn assert_points_at_blok(report: &Value) {
    let diagnostics = report["error"]["diagnostics"]
        .as_array()
        .unwrap_or_else(|| panic!("no diagnostics: {report}"));
    assert!(
        report["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("HOOKS.yaml")),
        "{report}"
    );
    let blok = diagnostics
        .iter()
        .find(|d| d["message"].as_str().is_some_and(|m| m.contains("blok")))
        .unwrap_or_else(|| panic!("no diagnostic about `blok`: {report}"));
    assert_eq!(blok["line"], 7, "{blok}");
    assert_eq!(blok["column"], 13, "{blok}");
    assert_eq!(blok["path"], "hooks[0].action", "{blok}");
    assert!(
        blok["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("HOOKS.yaml"))
    );
    assert!(blok["kind"].is_string(), "{blok}");
}

#[test]
fn an_invalid_file_keeps_the_old_policy_until_fixed() {
    let (dir, d) = start_with_a(&[]);
    let path = dir.path().join("HOOKS.yaml");
    std::fs::write(&path, INVALID).expect("write");
    d.wait_for(
        || d.status()["healthy"] == false,
        "the status to report the failed reload",
    );

    // The old policy is still in force.
    for _ in 0..3 {
        assert_eq!(d.block_message(), "policy-A");
        assert_eq!(d.decide(&exec("ls"))["decision"], "allow");
    }
    let status = d.status();
    assert_eq!(status["hash"], hash(&policy("policy-A")), "{status}");
    assert_eq!(status["hooks"], 1);
    let error = &status["lastError"];
    assert_eq!(error["trigger"], "watch", "{status}");
    assert_eq!(error["result"], "error", "{status}");
    assert_points_at_blok(error);
    assert_eq!(status["lastReload"]["result"], error["result"], "{status}");

    // Asking for a reload says why it cannot.
    let (code, outcome) = d.post("/v1/reload");
    assert_eq!(code, 422, "{outcome}");
    assert_points_at_blok(&outcome);
    assert_eq!(d.block_message(), "policy-A");

    // The log and the metrics say so too.
    let stderr = d.stderr_text();
    assert!(stderr.contains("policy reload failed"), "{stderr}");
    assert!(stderr.contains("7:13"), "{stderr}");
    let m = d.metrics();
    assert!(
        m.value("hookgate_reloads_total", &[("result", "error")]) >= 2.0,
        "{}",
        m.text
    );
    assert_eq!(m.value("hookgate_policy_reload_healthy", &[]), 0.0);
    assert_eq!(
        m.find(
            "hookgate_policy_info",
            &[("hash", &hash(&policy("policy-A")))]
        ),
        [1.0]
    );
    assert_eq!(d.get("/readyz").0, 200, "still ready: a policy is in force");

    // Fixing the file recovers, without a restart.
    write_atomically(&path, &policy("policy-B"));
    d.wait_for_policy("policy-B", &policy("policy-B"));
    let status = d.status();
    assert_eq!(status["healthy"], true, "{status}");
    assert_eq!(status["lastReload"]["result"], "reloaded", "{status}");
    assert_points_at_blok(&status["lastError"]);
    assert_eq!(
        d.metrics().value("hookgate_policy_reload_healthy", &[]),
        1.0
    );
}

/// The reload outcome is `reloaded`/`unchanged`/`error` in the metric label; the JSON of
/// `POST /v1/reload` and `/v1/status` should use the same word.
#[test]
fn a_failed_reload_is_labelled_error_everywhere() {
    let (dir, d) = start_with_a(&["--no-watch"]);
    std::fs::write(dir.path().join("HOOKS.yaml"), INVALID).expect("write");
    let (code, outcome) = d.post("/v1/reload");
    assert_eq!(code, 422, "{outcome}");
    assert_eq!(
        d.metrics()
            .value("hookgate_reloads_total", &[("result", "error")]),
        1.0
    );
    assert_eq!(outcome["result"], "error", "{outcome}");
    assert_eq!(d.status()["lastError"]["result"], "error");
}

/// After a change is reloaded, nothing more should happen until the file changes again.
#[test]
fn a_burst_of_writes_is_one_reload_of_the_last() {
    // A quiet period long enough that a busy machine's late wake-ups stay inside it.
    let (dir, d) = start_with_a(&["--reload-debounce", "1s"]);
    let before = d.metrics().sum("hookgate_reloads_total");
    // Ten saves 10 ms apart: each falls inside the quiet period the previous one started.
    for k in 0..10 {
        let message = if k == 9 { "policy-B" } else { "policy-A" };
        write_atomically(&dir.path().join("HOOKS.yaml"), &policy(message));
        std::thread::sleep(Duration::from_millis(10));
    }
    d.wait_for_policy("policy-B", &policy("policy-B"));
    // Well past the debounce: no reload is still to come.
    std::thread::sleep(Duration::from_millis(2500));
    let after = d.metrics();
    assert_eq!(
        after.sum("hookgate_reloads_total") - before,
        1.0,
        "one burst, one reload:\n{}",
        after.text
    );
}

#[test]
fn the_watcher_goes_quiet_after_a_change() {
    let (dir, d) = start_with_a(&[]);
    std::fs::write(dir.path().join("HOOKS.yaml"), policy("policy-B")).expect("write");
    d.wait_for_policy("policy-B", &policy("policy-B"));
    // Let the burst of events from that one write settle (a few debounce periods).
    std::thread::sleep(Duration::from_millis(500));
    let before = d.metrics().sum("hookgate_reloads_total");
    std::thread::sleep(Duration::from_millis(1000));
    let after = d.metrics();
    assert_eq!(
        after.sum("hookgate_reloads_total"),
        before,
        "reloads happened with no change to the file:\n{}",
        after.text
    );
}

#[derive(Default)]
struct Tally {
    requests: AtomicUsize,
    blocks_a: AtomicUsize,
    blocks_b: AtomicUsize,
    allows: AtomicUsize,
    failures: Mutex<Vec<String>>,
}

impl Tally {
    fn fail(&self, what: String) {
        let mut failures = self
            .failures
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        failures.push(what);
    }

    fn check(&self, command: &str, response: reqwest::Result<reqwest::blocking::Response>) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        let response = match response {
            Ok(r) => r,
            Err(e) => return self.fail(format!("{command}: request failed: {e}")),
        };
        let status = response.status().as_u16();
        let body: Value = match response.text().map(|t| serde_json::from_str(&t)) {
            Ok(Ok(v)) => v,
            other => return self.fail(format!("{command}: status {status}, body {other:?}")),
        };
        if status != 200 {
            return self.fail(format!("{command}: status {status}: {body}"));
        }
        let blocks = command.starts_with("rm");
        match (blocks, body["decision"].as_str(), body["message"].as_str()) {
            (true, Some("block"), Some("policy-A")) => {
                self.blocks_a.fetch_add(1, Ordering::Relaxed);
            }
            (true, Some("block"), Some("policy-B")) => {
                self.blocks_b.fetch_add(1, Ordering::Relaxed);
            }
            (false, Some("allow"), None) if body["passed"] == true => {
                self.allows.fetch_add(1, Ordering::Relaxed);
            }
            _ => self.fail(format!("{command}: unexpected decision {body}")),
        }
    }
}

/// Clients evaluate without pause while the file is rewritten, valid and invalid, in place
/// and by rename: every request is answered by policy A or policy B, never by anything else.
#[test]
fn reloads_under_load_never_fail_or_mix_policies() {
    const WRITES: usize = 40;
    let (dir, d) = start_with_a(&[]);
    let path = dir.path().join("HOOKS.yaml");
    let (a, b) = (policy("policy-A"), policy("policy-B"));
    let tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    let url = d.url("/v1/evaluate");

    let clients: Vec<_> = (0..4)
        .map(|i| {
            let (tally, stop, url) = (Arc::clone(&tally), Arc::clone(&stop), url.clone());
            std::thread::spawn(move || {
                let client = new_client();
                let mut n = i;
                while !stop.load(Ordering::Relaxed) {
                    let command = if n % 2 == 0 { "rm -rf /var" } else { "ls -la" };
                    n += 1;
                    tally.check(command, client.post(&url).json(&exec(command)).send());
                }
            })
        })
        .collect();
    d.wait_for(
        || tally.requests.load(Ordering::Relaxed) >= 40,
        "the clients to get going",
    );

    let writer = {
        let (path, a, b) = (path.clone(), a.clone(), b.clone());
        std::thread::spawn(move || {
            for i in 0..WRITES {
                let text = match i % 3 {
                    0 => b.as_str(),
                    1 => BROKEN_YAML,
                    _ => a.as_str(),
                };
                if i % 2 == 0 {
                    std::fs::write(&path, text).expect("write");
                } else {
                    write_atomically(&path, text);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            write_atomically(&path, &b);
        })
    };
    writer.join().expect("writer thread");

    d.wait_for_policy("policy-B", &b);
    d.wait_for(
        || tally.blocks_b.load(Ordering::Relaxed) > 0,
        "the clients to see policy B",
    );
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.join().expect("client thread");
    }

    let failures = tally
        .failures
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (requests, blocks_a, blocks_b, allows) = (
        tally.requests.load(Ordering::Relaxed),
        tally.blocks_a.load(Ordering::Relaxed),
        tally.blocks_b.load(Ordering::Relaxed),
        tally.allows.load(Ordering::Relaxed),
    );
    let m = d.metrics();
    println!(
        "hammer: {requests} requests: {blocks_a} blocked by A, {blocks_b} by B, {allows} \
         allowed, {} failed; reloads: {} reloaded, {} unchanged, {} error",
        failures.len(),
        m.find("hookgate_reloads_total", &[("result", "reloaded")])
            .iter()
            .sum::<f64>(),
        m.find("hookgate_reloads_total", &[("result", "unchanged")])
            .iter()
            .sum::<f64>(),
        m.find("hookgate_reloads_total", &[("result", "error")])
            .iter()
            .sum::<f64>(),
    );
    assert!(
        failures.is_empty(),
        "{} of {requests} requests failed; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(blocks_a + blocks_b + allows, requests);
    assert!(blocks_a > 0 && blocks_b > 0, "both policies were seen");
    assert!(allows > 0);
    // B may already be in force from an earlier write, with a broken write failing after it:
    // the final rename of B then reloads as "unchanged", which makes the status healthy again.
    d.wait_for(
        || {
            let status = d.status();
            status["hash"] == hash(&b) && status["healthy"] == true
        },
        "the daemon to report policy B as healthy",
    );
    assert!(
        m.value("hookgate_reloads_total", &[("result", "reloaded")]) >= 2.0,
        "{}",
        m.text
    );
}

/// An include that is a FIFO fails the reload at once (nothing waits for a writer), keeps the
/// policy in force, and leaves shutdown prompt.
#[test]
fn a_fifo_include_fails_the_reload_at_once_and_shutdown_stays_prompt() {
    let (dir, mut d) = start_with_a(&["--no-watch"]);
    let fifo = dir.path().join("pipe.yaml");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    std::fs::write(
        dir.path().join("HOOKS.yaml"),
        format!("{}include: [pipe.yaml]\n", policy("policy-B")),
    )
    .expect("write");
    let started = std::time::Instant::now();
    let (code, outcome) = d.post("/v1/reload");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the reload hung"
    );
    assert_eq!(code, 422, "{outcome}");
    let text = outcome.to_string();
    assert!(
        text.contains("cannot read included file `pipe.yaml`: it is a FIFO, not a regular file"),
        "{text}"
    );
    assert_eq!(d.block_message(), "policy-A");
    d.signal("TERM");
    assert!(d.wait_exit().success(), "{}", d.stderr_text());
}
