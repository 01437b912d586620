//! Approvals end to end: a real `hookgate serve`, real HTTP, the real `approvals.json`, real
//! signals. Every test drives the `require_approval` hook of [`policy`] and checks what the
//! gateway would see (the Decisions of later calls) as well as the approvals endpoints.

mod concurrency;
mod crash;
mod decisions;
mod persistence;
mod store;
mod wait;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use reqwest::blocking::Client;
use serde_json::{Value, json};

use crate::daemon::{Daemon, json_response};
use crate::util::Dir;

/// A timeout no test waits for: requests stay pending for the whole test.
pub const LONG: u64 = 600_000;
const POLL: Duration = Duration::from_millis(20);
/// How long [`poll`] waits for a change that should come (loaded 2-core machine, debug build).
const DEADLINE: Duration = Duration::from_secs(15);

/// The approvals policy: exec of anything matching `deploy|ls` needs a human. `extra` holds
/// more keys of the hook, one per line, indented by four spaces (`timeoutAction: allow`).
pub fn policy(timeout_ms: u64, extra: &str) -> String {
    format!(
        r#"version: "1"
hooks:
  - name: deploy-approval
    point: turn:tool:pre
    match: {{ tool: exec, commandPattern: "deploy|ls" }}
    action: require_approval
    risk: high
    timeoutMs: {timeout_ms}
{extra}    description: deploys need a human
"#
    )
}

/// A scratch directory holding `HOOKS.yaml` = [`policy`]`(timeout_ms, extra)`.
pub fn setup(timeout_ms: u64, extra: &str) -> Dir {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy(timeout_ms, extra));
    dir
}

/// The approvals file beside the policy.
pub fn approvals_file(dir: &Dir) -> PathBuf {
    dir.path().join("approvals.json")
}

/// The stored approvals as a restarted daemon reads them: the snapshot `approvals.json` and
/// the journal of changes since (panics when they do not read).
pub fn stored(dir: &Dir) -> Value {
    stored_at(&approvals_file(dir))
}

/// [`stored`] for the store at `path`.
pub fn stored_at(path: &std::path::Path) -> Value {
    let state = hookgate::approvals::read_state(path)
        .unwrap_or_else(|e| panic!("cannot read the approvals at {}: {e}", path.display()));
    serde_json::to_value(state).expect("state as JSON")
}

/// An evaluation of `exec` of `command` in `session` at `turn:tool:pre`.
pub fn call(session: &str, command: &str) -> Value {
    json!({
        "point": "turn:tool:pre",
        "context": {
            "sessionKey": session,
            "toolName": "exec",
            "toolArgs": { "command": command },
        }
    })
}

/// [`call`] that waits for the approval to be decided.
pub fn waiting(session: &str, command: &str) -> Value {
    let mut body = call(session, command);
    body["wait"] = json!(true);
    body
}

/// Evaluates `exec` of `command` in `session`; the Decision (must be 200).
pub fn eval(d: &Daemon, session: &str, command: &str) -> Value {
    d.decide(&call(session, command))
}

/// Evaluates a call that must be asked; returns the whole Decision, checked.
pub fn ask_decision(d: &Daemon, session: &str, command: &str) -> Value {
    let decision = eval(d, session, command);
    assert_eq!(
        decision["decision"], "ask",
        "{command} in {session}: {decision}"
    );
    assert_eq!(decision["passed"], false, "{decision}");
    assert_eq!(
        decision["message"], "Approval required: deploys need a human",
        "{decision}"
    );
    assert_eq!(decision["hook"], "deploy-approval", "{decision}");
    let approval = &decision["approval"];
    assert!(
        approval["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("apr_")),
        "{decision}"
    );
    assert_eq!(approval["sessionKey"], session, "{decision}");
    assert_eq!(approval["subject"], command, "{decision}");
    decision
}

/// Evaluates a call that must be asked; the approval request id.
pub fn ask(d: &Daemon, session: &str, command: &str) -> String {
    id_of(&ask_decision(d, session, command))
}

/// The approval id of an `ask` Decision.
pub fn id_of(decision: &Value) -> String {
    decision["approval"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no approval id: {decision}"))
        .to_owned()
}

/// Evaluates a call that must pass; the message of the require_approval result.
pub fn allowed(d: &Daemon, session: &str, command: &str) -> String {
    let decision = eval(d, session, command);
    assert_eq!(
        decision["decision"], "allow",
        "{command} in {session}: {decision}"
    );
    assert_eq!(decision["approval"], Value::Null, "{decision}");
    decision["results"][0]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no result message: {decision}"))
        .to_owned()
}

/// `POST path` with a JSON body, as the operator: the status and the JSON answer.
pub fn post_json(d: &Daemon, path: &str, body: &Value) -> (u16, Value) {
    let response = d
        .operator()
        .post(d.url(path))
        .json(body)
        .send()
        .unwrap_or_else(|e| panic!("POST {path}: {e}"));
    json_response(response)
}

/// `DELETE path`, as the operator: the status and the JSON answer.
pub fn delete(d: &Daemon, path: &str) -> (u16, Value) {
    let response = d
        .operator()
        .delete(d.url(path))
        .send()
        .unwrap_or_else(|e| panic!("DELETE {path}: {e}"));
    json_response(response)
}

/// `POST /v1/approvals/{id}` with `decision` by alice (and `pattern`, if any).
pub fn decide_raw(d: &Daemon, id: &str, decision: &str, pattern: Option<&str>) -> (u16, Value) {
    let mut body = json!({ "decision": decision, "by": "alice" });
    if let Some(pattern) = pattern {
        body["pattern"] = json!(pattern);
    }
    post_json(d, &format!("/v1/approvals/{id}"), &body)
}

/// [`decide_raw`] that must succeed; the answer.
pub fn decide(d: &Daemon, id: &str, decision: &str, pattern: Option<&str>) -> Value {
    let (status, body) = decide_raw(d, id, decision, pattern);
    assert_eq!(
        status,
        200,
        "{decision} {id}: {body}\nstderr:\n{}",
        d.stderr_text()
    );
    body
}

/// `GET path` that must answer 200; the JSON answer.
pub fn get_ok(d: &Daemon, path: &str) -> Value {
    let (status, body) = d.get(path);
    assert_eq!(status, 200, "GET {path}: {body}");
    body
}

/// The pending requests (`GET /v1/approvals` + `query`).
pub fn pending(d: &Daemon, query: &str) -> Vec<Value> {
    let body = get_ok(d, &format!("/v1/approvals{query}"));
    body["pending"]
        .as_array()
        .unwrap_or_else(|| panic!("no pending list: {body}"))
        .clone()
}

/// The ids of the pending requests matching `query`.
pub fn pending_ids(d: &Daemon, query: &str) -> Vec<String> {
    pending(d, query)
        .iter()
        .map(|p| p["id"].as_str().expect("pending id").to_owned())
        .collect()
}

/// The standing grants.
pub fn grants(d: &Daemon) -> Vec<Value> {
    let body = get_ok(d, "/v1/grants");
    body["grants"]
        .as_array()
        .unwrap_or_else(|| panic!("no grants list: {body}"))
        .clone()
}

/// The decision history.
pub fn history(d: &Daemon) -> Vec<Value> {
    let body = get_ok(d, "/v1/approvals/history");
    body["history"]
        .as_array()
        .unwrap_or_else(|| panic!("no history list: {body}"))
        .clone()
}

/// The history entries of request `id`.
pub fn history_of(d: &Daemon, id: &str) -> Vec<Value> {
    history(d)
        .into_iter()
        .filter(|h| h["requestId"] == id)
        .collect()
}

/// Asserts the `{"error": {...}}` envelope with `status` and `code`; returns the inner object.
pub fn api_error(status: u16, body: &Value, expected: u16, code: &str) -> Value {
    assert_eq!(status, expected, "{body}");
    let error = &body["error"];
    assert_eq!(error["status"], expected, "{body}");
    assert_eq!(error["code"], code, "{body}");
    assert!(
        error["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    error.clone()
}

/// Polls `cond` until it holds; panics naming `what` after [`DEADLINE`].
pub fn poll(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + DEADLINE;
    while !cond() {
        assert!(
            Instant::now() < deadline,
            "timed out after {DEADLINE:?} waiting for {what}"
        );
        std::thread::sleep(POLL);
    }
}

/// Waits until a request for `command` in `session` is pending; its id.
pub fn wait_pending(d: &Daemon, session: &str, command: &str) -> String {
    let mut found = None;
    poll(&format!("`{command}` in {session} to be pending"), || {
        found = pending(d, &format!("?sessionKey={session}"))
            .into_iter()
            .find(|p| p["subject"] == command)
            .map(|p| p["id"].as_str().expect("id").to_owned());
        found.is_some()
    });
    found.expect("found")
}

/// Sends `kill -KILL pid` and waits for the daemon to be gone.
pub fn kill9(d: &mut Daemon) {
    crate::daemon::send_signal(d.pid(), "KILL");
    let status = d.wait_exit();
    assert!(!status.success(), "killed daemon exited {status}");
}

/// A POST that may fail (the daemon may be gone): the status and JSON answer, or `None`.
pub fn try_post(client: &Client, url: &str, body: &Value) -> Option<(u16, Value)> {
    let response = client.post(url).json(body).send().ok()?;
    let status = response.status().as_u16();
    let text = response.text().ok()?;
    Some((status, serde_json::from_str(&text).ok()?))
}
