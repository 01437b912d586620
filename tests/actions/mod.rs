//! `exec_script` and `inject_context` end to end: real policies, scripts, files and processes,
//! driven through `hookgate check` and `hookgate serve`.

mod exec_script;
mod inject_context;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::Dir;

/// How long one `hookgate check` may take before the test gives up on it (a hang is a bug,
/// but it must fail the test, not stall the suite).
const CHECK_DEADLINE: Duration = Duration::from_secs(30);
/// How long killed processes get to disappear (the kernel reaps asynchronously).
const REAP_DEADLINE: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(20);

/// The temp directory of `dir`, canonical, so that expected paths match whatever the binary
/// prints whether or not it resolves symlinks in the policy's directory.
pub fn base(dir: &Dir) -> PathBuf {
    dir.path().canonicalize().expect("canonical tempdir")
}

/// Writes `HOOKS.yaml` with `hooks` (YAML list items, indented by two spaces) under a
/// version-1 header; returns its canonical path.
pub fn policy(dir: &Dir, hooks: &str) -> PathBuf {
    dir.write("HOOKS.yaml", &format!("version: \"1\"\nhooks:\n{hooks}"));
    base(dir).join("HOOKS.yaml")
}

/// Writes an executable (0755) file `name` with `body`; returns its canonical path.
pub fn script(dir: &Dir, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.write(name, body);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    base(dir).join(name)
}

/// What one `hookgate check --format json` did.
pub struct Checked {
    pub code: i32,
    pub decision: Value,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Checked {
    /// The one result of hook `name`.
    pub fn result(&self, name: &str) -> &Value {
        let results = self.decision["results"].as_array().expect("results");
        let found: Vec<&Value> = results.iter().filter(|r| r["hook"] == name).collect();
        assert_eq!(found.len(), 1, "one result of {name}: {}", self.decision);
        found[0]
    }

    /// The message of hook `name`'s result.
    pub fn message(&self, name: &str) -> String {
        self.result(name)["message"]
            .as_str()
            .unwrap_or_else(|| panic!("no message for {name}: {}", self.decision))
            .to_owned()
    }

    /// `injectedContext`, as strings.
    pub fn injected(&self) -> Vec<String> {
        injected(&self.decision)
    }

    /// Asserts an allow (exit 0) with every result passed.
    pub fn assert_allowed(&self) {
        assert_eq!(self.code, 0, "{}\nstderr:\n{}", self.decision, self.stderr);
        assert_eq!(self.decision["decision"], "allow", "{}", self.decision);
        assert_eq!(self.decision["passed"], true, "{}", self.decision);
        assert_eq!(self.decision["message"], Value::Null, "{}", self.decision);
    }

    /// Asserts a block (exit 2) by hook `hook` with `message`, which is also the hook's
    /// failing result (the last one).
    pub fn assert_blocked(&self, hook: &str, message: &str) {
        assert_eq!(self.code, 2, "{}\nstderr:\n{}", self.decision, self.stderr);
        assert_eq!(self.decision["decision"], "block", "{}", self.decision);
        assert_eq!(self.decision["passed"], false, "{}", self.decision);
        assert_eq!(self.decision["hook"], hook, "{}", self.decision);
        assert_eq!(self.decision["message"], message, "{}", self.decision);
        let last = self.decision["results"]
            .as_array()
            .and_then(|r| r.last())
            .expect("a result");
        assert_eq!(last["hook"], hook, "{}", self.decision);
        assert_eq!(last["passed"], false, "{}", self.decision);
        assert_eq!(last["message"], message, "{}", self.decision);
    }
}

/// `injectedContext` of a Decision, as strings.
pub fn injected(decision: &Value) -> Vec<String> {
    decision["injectedContext"]
        .as_array()
        .unwrap_or_else(|| panic!("no injectedContext: {decision}"))
        .iter()
        .map(|v| v.as_str().expect("a string").to_owned())
        .collect()
}

/// `hookgate check` of `dir`'s HOOKS.yaml (by its absolute path) at `turn:tool:pre`, with
/// `extra` context flags appended (default: `--tool exec --arg command=ls`).
pub fn check_command(dir: &Dir, extra: &[&str]) -> Command {
    let config = base(dir).join("HOOKS.yaml");
    let mut args = vec![
        "check",
        "--config",
        config.to_str().expect("UTF-8 path"),
        "--point",
        "turn:tool:pre",
        "--format",
        "json",
    ];
    if extra.is_empty() {
        args.extend(["--tool", "exec", "--arg", "command=ls"]);
    } else {
        args.extend_from_slice(extra);
    }
    let mut cmd = dir.hookgate(&args);
    // Nothing of the test runner's own environment may pose as context.
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("HOOK_") {
            cmd.env_remove(key);
        }
    }
    cmd
}

/// `hookgate check` for an `exec` of `ls`.
pub fn check(dir: &Dir) -> Checked {
    run_check(check_command(dir, &[]), None)
}

/// `hookgate check --context -` with `context` on stdin.
pub fn check_context(dir: &Dir, context: &Value) -> Checked {
    run_check(
        check_command(dir, &["--context", "-"]),
        Some(&context.to_string()),
    )
}

/// Runs a `hookgate check` to its end (at most [`CHECK_DEADLINE`]) and parses its Decision.
pub fn run_check(mut cmd: Command, stdin: Option<&str>) -> Checked {
    let started = Instant::now();
    let mut child = cmd
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hookgate check");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin");
        pipe.write_all(text.as_bytes()).expect("write stdin");
    }
    let out = drain(child.stdout.take().expect("stdout"));
    let err = drain(child.stderr.take().expect("stderr"));
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if started.elapsed() > CHECK_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "hookgate check still running after {CHECK_DEADLINE:?}; stderr:\n{}",
                err.join().unwrap_or_default()
            );
        }
        std::thread::sleep(POLL);
    };
    let elapsed = started.elapsed();
    let (stdout, stderr) = (out.join().expect("stdout"), err.join().expect("stderr"));
    let decision = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!("{status}: stdout is not a Decision ({e}): {stdout}\nstderr:\n{stderr}")
    });
    Checked {
        code: status.code().unwrap_or(-1),
        decision,
        stderr,
        elapsed,
    }
}

/// Reads `pipe` to its end on a thread (a full pipe would block the writer).
fn drain(mut pipe: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Whether process `pid` is running (a zombie waiting to be reaped is not).
pub fn alive(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // `pid (comm) S ...`: the state follows the last `)`, as comm may contain anything.
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next());
    !matches!(state, Some('Z' | 'X') | None)
}

/// The pids recorded in `file`, one a line.
pub fn read_pids(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Waits up to [`REAP_DEADLINE`] for every one of `pids` to be gone; returns those that are
/// still running.
pub fn survivors(pids: &[u32]) -> Vec<u32> {
    let deadline = Instant::now() + REAP_DEADLINE;
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(POLL);
    }
}

/// Kills, when dropped, whatever the pids in `file` (processes our own scripts started and
/// recorded) still runs, so that a failing test leaves no `sleep 1000` behind.
pub struct PidFile(pub PathBuf);

impl Drop for PidFile {
    fn drop(&mut self) {
        use nix::sys::signal::{Signal, kill};
        use nix::unistd::Pid;
        for pid in read_pids(&self.0) {
            if alive(pid) {
                let _ = kill(Pid::from_raw(pid as i32), Signal::SIGKILL);
            }
        }
    }
}
