//! Slow and odd clients: header and body read timeouts, the connection limit, and JSON
//! objects that repeat a key. Bounds are generous (a loaded debug build); the daemon is given
//! short timeouts instead.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Daemon, exec, json_response, new_client, policy};
use crate::util::{Dir, code, run, run_with_stdin, stderr};

/// The longest any cut-off or answer may take here (the daemon's timeouts are 1 s).
const GENEROUS: Duration = Duration::from_secs(15);

fn dir() -> Dir {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy("policy-A"));
    dir
}

/// How a slow client's connection ended.
#[derive(Debug)]
struct Ended {
    /// What the daemon sent before closing.
    received: String,
}

/// Connects, sends `head` whole, then `trickle` one byte every `pace`, watching for the
/// daemon to close the connection; gives up (None) after [`GENEROUS`].
fn trickle(addr: SocketAddr, head: &[u8], trickle: &[u8], pace: Duration) -> Option<Ended> {
    let start = Instant::now();
    let mut tcp = TcpStream::connect(addr).expect("connect");
    tcp.set_read_timeout(Some(pace)).expect("read timeout");
    let mut received = Vec::new();
    let closed = |received: &[u8]| Ended {
        received: String::from_utf8_lossy(received).into_owned(),
    };
    if tcp.write_all(head).is_err() {
        return Some(closed(&received));
    }
    let mut bytes = trickle.iter().cycle();
    let mut buf = [0u8; 4096];
    while start.elapsed() < GENEROUS {
        match tcp.read(&mut buf) {
            Ok(0) => return Some(closed(&received)),
            Ok(n) => received.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Some(closed(&received)),
        }
        let byte = *bytes.next().expect("cycle");
        if tcp.write_all(&[byte]).is_err() {
            return Some(closed(&received));
        }
    }
    None
}

/// `GET /healthz` on a fresh connection: answered 200 `ok` within [`GENEROUS`].
fn healthz(d: &Daemon) {
    let started = Instant::now();
    let (status, body) = json_response(
        new_client()
            .get(d.url("/healthz"))
            .send()
            .expect("GET /healthz"),
    );
    assert_eq!(status, 200, "{body}");
    assert!(started.elapsed() < GENEROUS, "{:?}", started.elapsed());
}

#[test]
fn slowloris_headers_are_cut_off_while_others_are_answered() {
    let dir = dir();
    let d = Daemon::start(&dir, &["--header-timeout", "1s"]);
    let addr = d.addr();
    let slow: Vec<_> = (0..8)
        .map(|_| {
            thread::spawn(move || {
                // Never finishes: the header block has no blank line.
                trickle(
                    addr,
                    b"GET /healthz HTTP/1.1\r\n",
                    b"X-Slow: aaaaaaaaaa\r\n",
                    Duration::from_millis(250),
                )
            })
        })
        .collect();
    // While they trickle, ordinary clients are answered, and answered right.
    for _ in 0..5 {
        healthz(&d);
        let decision = d.decide(&exec("rm -rf /tmp/x"));
        assert_eq!(decision["decision"], "block", "{decision}");
        assert_eq!(d.decide(&exec("ls"))["decision"], "allow");
        thread::sleep(Duration::from_millis(200));
    }
    for handle in slow {
        let ended = handle
            .join()
            .expect("slow client")
            .unwrap_or_else(|| panic!("a slowloris connection was still open after {GENEROUS:?}"));
        // Never answered as if the request were complete.
        assert!(!ended.received.contains("200 OK"), "{ended:?}");
    }
    healthz(&d);
}

#[test]
fn an_idle_kept_alive_connection_is_closed_after_the_header_timeout() {
    let dir = dir();
    let d = Daemon::start(&dir, &["--header-timeout", "1s"]);
    let mut tcp = TcpStream::connect(d.addr()).expect("connect");
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .expect("write");
    tcp.set_read_timeout(Some(GENEROUS)).expect("read timeout");
    let mut received = Vec::new();
    let started = Instant::now();
    // The answer, then (sending nothing more) the close.
    let result = tcp.read_to_end(&mut received);
    let text = String::from_utf8_lossy(&received);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(
        result.is_ok() && started.elapsed() < GENEROUS,
        "{result:?} after {:?}",
        started.elapsed()
    );
}

#[test]
fn a_trickling_body_is_cut_off_with_408() {
    let dir = dir();
    let d = Daemon::start(&dir, &["--body-timeout", "1s"]);
    let head =
        b"POST /v1/evaluate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                 Content-Length: 4096\r\n\r\n";
    let ended = trickle(d.addr(), head, b" ", Duration::from_millis(250))
        .unwrap_or_else(|| panic!("the trickling body was still read after {GENEROUS:?}"));
    assert!(
        ended.received.starts_with("HTTP/1.1 408"),
        "{ended:?}\nstderr:\n{}",
        d.stderr_text()
    );
    assert!(ended.received.contains("body_timeout"), "{ended:?}");
    // Other routes that read a body are bounded the same way.
    let head = b"POST /v1/claude-code HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4096\r\n\r\n";
    let ended = trickle(d.addr(), head, b" ", Duration::from_millis(250))
        .unwrap_or_else(|| panic!("the trickling body was still read after {GENEROUS:?}"));
    assert!(ended.received.starts_with("HTTP/1.1 408"), "{ended:?}");
    healthz(&d);
    assert_eq!(d.decide(&exec("rm -rf /"))["decision"], "block");
}

#[test]
fn past_the_connection_limit_new_connections_wait_for_a_slot() {
    let dir = dir();
    // Long header timeout: only the limit is at work here.
    let d = Daemon::start(&dir, &["--max-connections", "4", "--header-timeout", "60s"]);
    let held: Vec<_> = (0..4)
        .map(|_| TcpStream::connect(d.addr()).expect("connect"))
        .collect();
    // Give the daemon the time to accept all four (a positive check, so no flakiness).
    thread::sleep(Duration::from_millis(500));
    let quick = reqwest::blocking::Client::builder()
        .no_proxy()
        .timeout(Duration::from_millis(1500))
        .build()
        .expect("client");
    let refused = quick.get(d.url("/healthz")).send();
    assert!(
        refused.as_ref().is_err_and(reqwest::Error::is_timeout),
        "a fifth connection was served past the limit of four: {refused:?}"
    );
    // One held connection closes: its slot serves the next.
    drop(held);
    healthz(&d);
    assert_eq!(d.decide(&exec("ls"))["decision"], "allow");
}

#[test]
fn silent_connections_past_the_limit_do_not_stop_healthz() {
    let dir = dir();
    let d = Daemon::start(&dir, &["--max-connections", "4", "--header-timeout", "1s"]);
    let silent: Vec<_> = (0..12)
        .map(|_| TcpStream::connect(d.addr()).expect("connect"))
        .collect();
    // Each is cut off by the header timeout, freeing its slot; /healthz gets one.
    for _ in 0..3 {
        healthz(&d);
    }
    // And the silent ones are closed, not left open.
    for mut tcp in silent {
        tcp.set_read_timeout(Some(GENEROUS)).expect("read timeout");
        let mut buf = [0u8; 64];
        match tcp.read(&mut buf) {
            Ok(0) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
            other => panic!("a silent connection was not closed: {other:?}"),
        }
    }
}

#[test]
fn timeouts_and_the_limit_must_be_positive() {
    let dir = dir();
    for args in [
        ["--header-timeout", "0s"],
        ["--body-timeout", "0ms"],
        ["--max-connections", "0"],
    ] {
        let out = run(Daemon::command(&dir, &args));
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
    }
}

/// POSTs `body` as it is to `path`: status and JSON answer.
fn post_raw(d: &Daemon, path: &str, body: &str) -> (u16, Value) {
    json_response(
        d.client()
            .post(d.url(path))
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
            .expect("POST"),
    )
}

fn duplicate_error(status: u16, body: &Value, key: &str) -> Value {
    assert_eq!(status, 400, "{body}");
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&format!("duplicate key \"{key}\"")),
        "{body}"
    );
    body["error"].clone()
}

#[test]
fn duplicate_keys_in_tool_args_are_refused_with_400() {
    let dir = dir();
    let d = Daemon::start(&dir, &[]);
    // Last-wins would read `rm -rf /`; first-wins `ls`: the gate reads neither.
    let body = r#"{"point": "turn:tool:pre", "context": {"sessionKey": "s", "toolName": "exec",
        "toolArgs": {"command": "ls", "command": "rm -rf /"}}}"#;
    let (status, answer) = post_raw(&d, "/v1/evaluate", body);
    let error = duplicate_error(status, &answer, "command");
    assert_eq!(error["code"], "invalid_request", "{answer}");
    assert_eq!(error["field"], "context.toolArgs.command", "{answer}");
    assert_eq!(error["line"], 2, "{answer}");

    // Nested, in an array, in a batch, at the top level.
    let nested = r#"{"point": "turn:tool:pre", "context": {"sessionKey": "s", "toolName": "exec",
        "toolArgs": {"command": "ls", "env": [{"PATH": "/bin", "PATH": "/tmp"}]}}}"#;
    let (status, answer) = post_raw(&d, "/v1/evaluate", nested);
    let error = duplicate_error(status, &answer, "PATH");
    assert_eq!(error["field"], "context.toolArgs.env[0].PATH", "{answer}");
    let (status, answer) = post_raw(&d, "/v1/evaluate", &format!("[{nested}]"));
    duplicate_error(status, &answer, "PATH");
    let top = r#"{"point": "turn:pre", "point": "turn:tool:pre", "context": {"sessionKey": "s"}}"#;
    let (status, answer) = post_raw(&d, "/v1/evaluate", top);
    duplicate_error(status, &answer, "point");

    // The same keys in different objects are fine.
    let fine = r#"{"point": "turn:tool:pre", "context": {"sessionKey": "s", "toolName": "exec",
        "toolArgs": {"command": "rm -rf /", "opts": {"command": "ls"}}}}"#;
    let (status, answer) = post_raw(&d, "/v1/evaluate", fine);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["decision"], "block", "{answer}");

    // The gateway-shaped routes refuse them too.
    let (status, answer) = post_raw(
        &d,
        "/v1/openclaw/before_tool_call",
        r#"{"event": {"toolName": "exec", "params": {"command": "ls", "command": "rm -rf /"}},
            "ctx": {"sessionKey": "s"}}"#,
    );
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("duplicate key \"command\"")),
        "{answer}"
    );
    // Claude Code: always 200, and a refusal it blocks on.
    let response = d
        .client()
        .post(d.url("/v1/claude-code"))
        .body(
            r#"{"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash",
                "tool_input": {"command": "ls", "command": "rm -rf /"}}"#,
        )
        .send()
        .expect("POST /v1/claude-code");
    assert_eq!(response.status().as_u16(), 200);
    let text = response.text().expect("body");
    assert!(text.contains(r#"duplicate key \"command\""#), "{text}");
    assert!(text.contains("deny"), "{text}");
    healthz(&d);
}

#[test]
fn the_cli_refuses_duplicate_keys_too() {
    let dir = dir();
    let ctx = r#"{"sessionKey": "s", "point": "turn:tool:pre", "toolName": "exec",
        "toolArgs": {"command": "ls", "command": "rm -rf /"}}"#;
    let out = run_with_stdin(
        dir.hookgate(&["check", "--config", "HOOKS.yaml", "--context", "-"]),
        ctx,
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(r#"duplicate key "command" in `toolArgs`"#),
        "{}",
        stderr(&out)
    );
    let out = run(dir.hookgate(&[
        "check",
        "--config",
        "HOOKS.yaml",
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=ls",
        "--arg",
        "command=rm -rf /",
    ]));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("given twice"), "{}", stderr(&out));
    let out = run_with_stdin(
        dir.hookgate(&["claude-code", "--config", "HOOKS.yaml"]),
        r#"{"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash",
            "tool_input": {"command": "ls", "command": "rm -rf /"}}"#,
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(r#"duplicate key "command" in `tool_input`"#),
        "{}",
        stderr(&out)
    );
}
