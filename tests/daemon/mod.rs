//! `hookgate serve` end to end: a real daemon process, real HTTP, real files and signals.

mod api;
mod bounded;
mod clients;
mod console;
mod lifecycle;
mod reload;
mod roles;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use reqwest::blocking::Client;
use serde_json::{Value, json};

use crate::util::Dir;

/// How long a daemon may take to print its listening line (a debug build on a loaded machine).
const START_DEADLINE: Duration = Duration::from_secs(20);
/// How long [`Daemon::wait_for`] polls for an expected change.
const WAIT_DEADLINE: Duration = Duration::from_secs(10);
/// How long a process may take to exit once it should.
pub const EXIT_DEADLINE: Duration = Duration::from_secs(10);
const POLL: Duration = Duration::from_millis(20);

/// A policy whose one hook blocks `exec` of `rm -rf` with `message`. `action` is the last key,
/// so no proper prefix of the file (a reader racing an in-place write) is a valid policy.
pub fn policy(message: &str) -> String {
    format!(
        r#"version: "1"
hooks:
  - name: rm-guard
    point: turn:tool:pre
    match: {{ tool: exec, commandPattern: "rm\\s+-rf" }}
    onFailure: {{ action: block, message: "{message}" }}
    action: block
"#
    )
}

/// Schema-invalid: `blok` at 7:13.
pub const INVALID: &str = r#"version: "1"
hooks:
  - name: rm-guard
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "rm\\s+-rf" }
    onFailure: { action: block, message: "policy-C" }
    action: blok
"#;

/// Not even YAML.
pub const BROKEN_YAML: &str = "version: \"1\"\nhooks:\n  - name: [unclosed\n    point: {\n";

/// A policy whose `turn:pre` takes a while: `block` fails, `onFailure: retry` retries it
/// `retries` times (100, 200, 400, 800 ms ...), then passes: the verdict is allow.
pub fn slow_policy(retries: u32) -> String {
    format!(
        r#"version: "1"
hooks:
  - name: slow
    point: turn:pre
    action: block
    onFailure: {{ action: retry, retries: {retries} }}
"#
    )
}

/// `sha256:<hex>` of a policy text, as the daemon reports it.
pub fn hash(text: &str) -> String {
    hookgate::config::content_hash(text)
}

/// An evaluation request for `exec` of `command` at `turn:tool:pre`.
pub fn exec(command: &str) -> Value {
    json!({
        "point": "turn:tool:pre",
        "context": {
            "sessionKey": "agent:main:test",
            "toolName": "exec",
            "toolArgs": { "command": command },
        }
    })
}

/// A `hookgate` command in `dir` with neither a token nor a log level from the environment.
pub fn serve_command(dir: &Dir, args: &[&str]) -> Command {
    let mut cmd = dir.hookgate(args);
    for name in [
        "HOOKGATE_TOKEN",
        "HOOKGATE_APPROVER_TOKEN",
        "HOOKGATE_ADMIN_TOKEN",
        "HOOKGATE_URL",
        "HOOKGATE_LOG",
    ] {
        cmd.env_remove(name);
    }
    cmd
}

/// A running `hookgate serve`, killed on drop.
pub struct Daemon {
    child: Child,
    addr: SocketAddr,
    stderr: Arc<Output>,
    reader: Option<JoinHandle<()>>,
    client: Client,
    /// The console session cookie, signed in with the one-time link: the operator's approve
    /// and admin powers (absent when the daemon printed no link).
    session: Option<String>,
}

impl Daemon {
    /// `hookgate serve --config HOOKS.yaml --listen 127.0.0.1:0 <extra>` in `dir`.
    pub fn command(dir: &Dir, extra: &[&str]) -> Command {
        let mut args = vec!["serve", "--config", "HOOKS.yaml", "--listen", "127.0.0.1:0"];
        args.extend_from_slice(extra);
        serve_command(dir, &args)
    }

    /// Starts [`Daemon::command`] and waits until it listens.
    pub fn start(dir: &Dir, extra: &[&str]) -> Daemon {
        Daemon::spawn(Daemon::command(dir, extra))
    }

    /// Starts `cmd` (a `hookgate serve`) and waits until it listens.
    pub fn spawn(mut cmd: Command) -> Daemon {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn hookgate serve");
        let (stderr, reader) = capture(child.stderr.take().expect("stderr"));
        let deadline = Instant::now() + START_DEADLINE;
        let addr = loop {
            let text = stderr.text();
            if let Some(addr) = listening_addr(&text) {
                break addr;
            }
            if let Some(status) = child.try_wait().expect("try_wait") {
                let _ = reader.join();
                panic!(
                    "hookgate serve exited ({status}) before listening; stderr:\n{}",
                    stderr.text()
                );
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("hookgate serve did not listen within {START_DEADLINE:?}; stderr:\n{text}");
            }
            // Woken as soon as a line arrives: callers may act right after the announcement.
            stderr.wait_for_line(&text, POLL);
        };
        // The login link follows the listening line.
        let mut text = stderr.text();
        while login_code(&text).is_none()
            && Instant::now() < deadline
            && child.try_wait().ok().flatten().is_none()
        {
            stderr.wait_for_line(&text, POLL);
            text = stderr.text();
        }
        let session = login_code(&text).map(|code| sign_in(addr, &code));
        Daemon {
            child,
            addr,
            stderr,
            reader: Some(reader),
            client: new_client(),
            session,
        }
    }

    /// A new client (its own connections) in the operator's console session: approve and
    /// admin.
    pub fn operator(&self) -> Client {
        let cookie = self
            .session
            .as_deref()
            .unwrap_or_else(|| panic!("the daemon printed no login link:\n{}", self.stderr_text()));
        session_client(cookie)
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// A keep-alive client (shared by clones).
    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// Everything the daemon wrote to stderr so far.
    pub fn stderr_text(&self) -> String {
        self.stderr.text()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Polls `cond` every 20 ms for up to 10 s; panics naming `what` if it never holds.
    pub fn wait_for(&self, mut cond: impl FnMut() -> bool, what: &str) {
        let deadline = Instant::now() + WAIT_DEADLINE;
        while !cond() {
            if Instant::now() > deadline {
                panic!(
                    "timed out after {WAIT_DEADLINE:?} waiting for {what}; daemon stderr:\n{}",
                    self.stderr_text()
                );
            }
            std::thread::sleep(POLL);
        }
    }

    /// Sends `signal` (`HUP`, `TERM`, `INT`) with `kill`.
    pub fn signal(&self, signal: &str) {
        send_signal(self.pid(), signal);
    }

    /// Waits for the process to exit; panics if it is still running after `EXIT_DEADLINE`.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + EXIT_DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                if let Some(reader) = self.reader.take() {
                    let _ = reader.join();
                }
                return status;
            }
            if Instant::now() > deadline {
                panic!(
                    "hookgate serve still running {EXIT_DEADLINE:?} after it should have exited; \
                     stderr:\n{}",
                    self.stderr_text()
                );
            }
            std::thread::sleep(POLL);
        }
    }

    /// `POST /v1/evaluate` with `body`: the status and the JSON answer.
    pub fn evaluate(&self, body: &Value) -> (u16, Value) {
        let response = self
            .client
            .post(self.url("/v1/evaluate"))
            .json(body)
            .send()
            .expect("POST /v1/evaluate");
        json_response(response)
    }

    /// `POST /v1/evaluate` with `body` that must be answered 200; the Decision.
    pub fn decide(&self, body: &Value) -> Value {
        let (status, decision) = self.evaluate(body);
        assert_eq!(status, 200, "{decision}\nstderr:\n{}", self.stderr_text());
        decision
    }

    /// The message blocking `rm -rf` under the policy in force (it must block).
    pub fn block_message(&self) -> String {
        let decision = self.decide(&exec("rm -rf /tmp/x"));
        assert_eq!(decision["decision"], "block", "{decision}");
        decision["message"]
            .as_str()
            .unwrap_or_else(|| panic!("no message: {decision}"))
            .to_owned()
    }

    /// `GET path` without credentials: the status and the JSON answer.
    pub fn get(&self, path: &str) -> (u16, Value) {
        let response = self.client.get(self.url(path)).send().expect("GET");
        json_response(response)
    }

    /// `POST path` without a body, as the operator: the status and the JSON answer.
    pub fn post(&self, path: &str) -> (u16, Value) {
        let response = self.operator().post(self.url(path)).send().expect("POST");
        json_response(response)
    }

    /// `GET /v1/status`.
    pub fn status(&self) -> Value {
        let (status, body) = self.get("/v1/status");
        assert_eq!(status, 200, "{body}");
        body
    }

    /// The hash of the policy in force, from `/v1/status`.
    pub fn hash(&self) -> String {
        self.status()["hash"]
            .as_str()
            .expect("status.hash")
            .to_owned()
    }

    /// `GET /metrics`, parsed.
    pub fn metrics(&self) -> Metrics {
        let response = self
            .client
            .get(self.url("/metrics"))
            .send()
            .expect("GET /metrics");
        assert_eq!(response.status().as_u16(), 200);
        Metrics::parse(&response.text().expect("metrics text"))
    }

    /// Waits until `message` blocks `rm -rf` and `/v1/status` reports `text`'s hash.
    pub fn wait_for_policy(&self, message: &str, text: &str) {
        let want = hash(text);
        self.wait_for(
            || self.block_message() == message && self.hash() == want,
            &format!("the policy blocking with {message:?} ({want}) to be in force"),
        );
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The code of the last console login link in `stderr`.
pub fn login_code(stderr: &str) -> Option<String> {
    const MARK: &str = "/login?code=";
    let line = stderr.lines().rev().find(|l| l.contains(MARK))?;
    let rest = &line[line.find(MARK)? + MARK.len()..];
    Some(rest.chars().take_while(char::is_ascii_hexdigit).collect())
}

/// Opens `/login?code=<code>` as a browser would; the session cookie (`name=value`).
pub fn sign_in(addr: SocketAddr, code: &str) -> String {
    let response = Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("reqwest client")
        .get(format!("http://{addr}/login?code={code}"))
        .send()
        .expect("GET /login");
    assert_eq!(
        response.status().as_u16(),
        303,
        "login with the printed code"
    );
    response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("a session cookie")
        .to_owned()
}

/// A client that sends `cookie`.
pub fn session_client(cookie: &str) -> Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        reqwest::header::COOKIE,
        cookie.parse().expect("cookie header"),
    );
    Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(30))
        .default_headers(headers)
        .build()
        .expect("reqwest client")
}

/// A client that never goes through a proxy and never waits forever.
pub fn new_client() -> Client {
    Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("reqwest client")
}

/// A response's status and JSON body (panics when the body is not JSON).
pub fn json_response(response: reqwest::blocking::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().expect("response body");
    let body = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("status {status}: body is not JSON ({e}): {text}"));
    (status, body)
}

/// Runs `kill -<signal> <pid>`.
pub fn send_signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -{signal} {pid}: {status}");
}

/// Runs `cmd`, which must exit by itself: its exit status and stderr. Panics (after killing
/// it) if it is still running after `EXIT_DEADLINE`, e.g. because it started serving.
pub fn run_to_exit(mut cmd: Command) -> (ExitStatus, String) {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn hookgate");
    let (stderr, reader) = capture(child.stderr.take().expect("stderr"));
    let deadline = Instant::now() + EXIT_DEADLINE;
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            let _ = reader.join();
            return (status, stderr.text());
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "hookgate was expected to exit but is still running; stderr:\n{}",
                stderr.text()
            );
        }
        std::thread::sleep(POLL);
    }
}

/// What a process wrote to a pipe so far; waiters are woken at each line.
#[derive(Default)]
struct Output {
    text: Mutex<String>,
    line: Condvar,
}

impl Output {
    fn lock(&self) -> MutexGuard<'_, String> {
        self.text.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn text(&self) -> String {
        self.lock().clone()
    }

    /// Waits up to `timeout` for more than `seen`.
    fn wait_for_line(&self, seen: &str, timeout: Duration) {
        let text = self.lock();
        if text.len() == seen.len() {
            let _ = self.line.wait_timeout(text, timeout);
        }
    }
}

/// Drains `pipe` into an [`Output`] on a thread, for the whole life of the process (a full
/// pipe would block it).
fn capture(pipe: impl Read + Send + 'static) -> (Arc<Output>, JoinHandle<()>) {
    let output = Arc::new(Output::default());
    let sink = Arc::clone(&output);
    let reader = std::thread::spawn(move || {
        let mut pipe = BufReader::new(pipe);
        let mut line = Vec::new();
        loop {
            line.clear();
            match pipe.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    sink.lock().push_str(&String::from_utf8_lossy(&line));
                    sink.line.notify_all();
                }
            }
        }
    });
    (output, reader)
}

/// The address of the `listening on http://ADDR` log line.
fn listening_addr(stderr: &str) -> Option<SocketAddr> {
    const MARK: &str = "listening on http://";
    let line = stderr.lines().find(|l| l.contains(MARK))?;
    let rest = &line[line.find(MARK)? + MARK.len()..];
    // Text logs end the address at a space, JSON logs at a quote.
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || ".:[]".contains(c)))
        .unwrap_or(rest.len());
    let addr = &rest[..end];
    Some(
        addr.parse()
            .unwrap_or_else(|e| panic!("bad listening address {addr:?}: {e}")),
    )
}

/// A parsed Prometheus text exposition: one entry per sample.
#[derive(Debug)]
pub struct Metrics {
    pub text: String,
    samples: Vec<(String, BTreeMap<String, String>, f64)>,
}

impl Metrics {
    fn parse(text: &str) -> Metrics {
        let samples = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|line| {
                let (series, value) = line
                    .rsplit_once(' ')
                    .unwrap_or_else(|| panic!("bad metrics line {line:?}"));
                let value: f64 = value
                    .parse()
                    .unwrap_or_else(|e| panic!("bad value in {line:?}: {e}"));
                let (name, labels) = match series.split_once('{') {
                    Some((name, rest)) => (name, parse_labels(rest.trim_end_matches('}'))),
                    None => (series, BTreeMap::new()),
                };
                (name.to_owned(), labels, value)
            })
            .collect();
        Metrics {
            text: text.to_owned(),
            samples,
        }
    }

    /// The samples of `name` that carry every label of `labels`.
    pub fn find(&self, name: &str, labels: &[(&str, &str)]) -> Vec<f64> {
        self.samples
            .iter()
            .filter(|(n, l, _)| {
                n == name
                    && labels
                        .iter()
                        .all(|(k, v)| l.get(*k).is_some_and(|have| have == v))
            })
            .map(|(_, _, v)| *v)
            .collect()
    }

    /// The one sample of `name` with exactly these labels (panics when absent).
    pub fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        let wanted: BTreeMap<String, String> = labels
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        self.samples
            .iter()
            .find(|(n, l, _)| n == name && *l == wanted)
            .map(|(_, _, v)| *v)
            .unwrap_or_else(|| panic!("no sample {name}{labels:?} in:\n{}", self.text))
    }

    /// The sum of every sample of `name` (0 when there is none).
    pub fn sum(&self, name: &str) -> f64 {
        self.find(name, &[]).iter().sum()
    }
}

/// `a="x",b="y\"z"` → {a: x, b: y"z}.
fn parse_labels(text: &str) -> BTreeMap<String, String> {
    let mut labels = BTreeMap::new();
    let mut chars = text.chars().peekable();
    loop {
        let name: String = chars.by_ref().take_while(|c| *c != '=').collect();
        if name.is_empty() {
            break;
        }
        assert_eq!(chars.next(), Some('"'), "bad labels {text:?}");
        let mut value = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => value.push('\n'),
                    Some(other) => value.push(other),
                    None => break,
                },
                '"' => break,
                other => value.push(other),
            }
        }
        labels.insert(name.trim_start_matches(',').trim().to_owned(), value);
        if chars.peek() == Some(&',') {
            chars.next();
        }
    }
    labels
}
