//! Start-up failures and shutdown: signals, requests in flight, exit codes.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::json;

use super::{Daemon, INVALID, policy, run_to_exit, serve_command, slow_policy};
use crate::util::Dir;

#[test]
fn sigterm_lets_a_request_in_flight_finish_then_exits_0() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &slow_policy(4));
    let log = dir.path().join("decisions.jsonl");
    let mut d = Daemon::start(&dir, &["--decision-log", log.to_str().expect("utf-8")]);
    let addr = d.addr();

    // A batch: a quick probe, then `turn:pre`, which takes 100+200+400+800 ms of retries.
    // The probe's decision-log line shows the request is being handled.
    let batch = json!([
        { "point": "turn:post", "context": { "sessionKey": "probe" } },
        { "point": "turn:pre", "context": { "sessionKey": "slow" } },
    ]);
    let (client, url) = (d.client(), d.url("/v1/evaluate"));
    let request = std::thread::spawn(move || {
        let response = client.post(url).json(&batch).send();
        (Instant::now(), response)
    });
    d.wait_for(
        || std::fs::read_to_string(&log).is_ok_and(|t| t.contains("\"sessionKey\":\"probe\"")),
        "the slow request to be in flight",
    );
    let signalled = Instant::now();
    d.signal("TERM");

    let (answered, response) = request.join().expect("request thread");
    let response = response.expect("the request in flight is answered");
    assert_eq!(response.status().as_u16(), 200);
    let decisions: serde_json::Value = response.json().expect("decisions");
    assert!(
        answered > signalled,
        "the request was answered before SIGTERM: the test proves nothing"
    );
    assert_eq!(decisions[0]["decision"], "allow", "{decisions}");
    assert_eq!(decisions[1]["point"], "turn:pre", "{decisions}");
    assert_eq!(decisions[1]["decision"], "allow", "{decisions}");
    let retried = decisions[1]["results"][0]["message"].as_str().unwrap_or("");
    assert!(retried.contains("after 4 retries"), "{decisions}");

    let status = d.wait_exit();
    assert_eq!(status.code(), Some(0), "{}", d.stderr_text());
    let stderr = d.stderr_text();
    assert!(stderr.contains("SIGTERM received"), "{stderr}");
    assert!(stderr.contains("stopped"), "{stderr}");
    // The slow decision was logged before exit.
    let logged = std::fs::read_to_string(&log).expect("decision log");
    assert!(logged.contains("\"sessionKey\":\"slow\""), "{logged}");
    // Nothing listens any more.
    let refused = TcpStream::connect_timeout(&addr, Duration::from_secs(2));
    assert!(refused.is_err(), "{addr} still accepts connections");
}

#[test]
fn sigint_exits_0() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy("policy-A"));
    let mut d = Daemon::start(&dir, &[]);
    // Serve one request first: see `sigint_right_after_the_listening_line_exits_0`.
    assert_eq!(d.get("/healthz").0, 200);
    d.signal("INT");
    let status = d.wait_exit();
    assert_eq!(status.code(), Some(0), "{}", d.stderr_text());
    assert!(d.stderr_text().contains("SIGINT received"));
    assert!(TcpStream::connect_timeout(&d.addr(), Duration::from_secs(2)).is_err());
}

/// A supervisor may stop the daemon as soon as it announced itself.
#[test]
fn sigint_right_after_the_listening_line_exits_0() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy("policy-A"));
    for attempt in 0..30 {
        let mut d = Daemon::start(&dir, &["--no-watch"]);
        d.signal("INT");
        let status = d.wait_exit();
        assert_eq!(
            status.code(),
            Some(0),
            "attempt {attempt}: {status}\n{}",
            d.stderr_text()
        );
    }
}

#[test]
fn an_invalid_policy_at_start_exits_1_with_its_position() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", INVALID);
    let (status, stderr) = run_to_exit(Daemon::command(&dir, &[]));
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("HOOKS.yaml:7:13"), "{stderr}");
    assert!(stderr.contains("unknown action `blok`"), "{stderr}");
    assert!(!stderr.contains("listening on"), "{stderr}");

    // No policy at all is the same kind of failure.
    let empty = Dir::new();
    let (status, stderr) = run_to_exit(Daemon::command(&empty, &[]));
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("HOOKS.yaml"), "{stderr}");
    assert!(!stderr.contains("listening on"), "{stderr}");
}

#[test]
fn a_port_in_use_exits_1_with_a_clear_message() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy("policy-A"));
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = taken.local_addr().expect("addr").to_string();
    let (status, stderr) = run_to_exit(serve_command(
        &dir,
        &["serve", "--config", "HOOKS.yaml", "--listen", &addr],
    ));
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot listen on {addr}")),
        "{stderr}"
    );
    assert!(stderr.to_lowercase().contains("in use"), "{stderr}");
    assert!(!stderr.contains("listening on"), "{stderr}");
    drop(taken);
}

#[test]
fn json_logs_are_one_object_per_line() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy("policy-A"));
    let d = Daemon::start(&dir, &["--no-watch", "--log-format", "json"]);
    std::fs::write(dir.path().join("HOOKS.yaml"), "version: [").expect("write");
    let (code, _) = d.post("/v1/reload");
    assert_eq!(code, 422);
    d.wait_for(
        || d.stderr_text().contains("policy reload failed"),
        "the failed reload to be logged",
    );
    let stderr = d.stderr_text();
    let lines: Vec<serde_json::Value> = stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l:?}: {e}")))
        .collect();
    let listening = lines
        .iter()
        .find(|l| {
            l["fields"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("listening on"))
        })
        .expect("a listening line");
    assert_eq!(listening["level"], "INFO");
    assert_eq!(listening["fields"]["hooks"], 1);
    let failed = lines
        .iter()
        .find(|l| {
            l["fields"]["message"] == "policy reload failed; the previous policy stays in force"
        })
        .expect("a reload failure line");
    assert_eq!(failed["level"], "WARN");
    assert!(
        failed["fields"]["first_problem"]
            .as_str()
            .is_some_and(|p| p.starts_with("1:")),
        "{failed}"
    );
}
