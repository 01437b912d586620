//! `exec_script`: run a script with the context in its environment. Exit 0 passes; anything
//! else fails (and `onFailure` applies).
//!
//! The script runs in a process group of its own. When it exits, or when `timeoutMs` runs out,
//! the whole group is killed, so nothing it forked outlives it. Output is captured up to
//! [`OUTPUT_CAP`] per stream. The runtime is never blocked: the process, its pipes and the
//! timeout are all tokio's.

use std::path::{Component, Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;

use super::{Invocation, Outcome};

/// Default time a script may run.
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 30_000;
/// Captured bytes per output stream; the rest is read and discarded.
pub(crate) const OUTPUT_CAP: usize = 1024 * 1024;
/// Longest `KEY=value` string, NUL included, that Linux accepts at exec (MAX_ARG_STRLEN).
const ENV_STRING_CAP: usize = 128 * 1024;
/// After the script exits, how long its output pipes may take to close.
const DRAIN_GRACE: Duration = Duration::from_millis(500);
/// Script paths refused after resolving symlinks and `..` (the seed's denylist).
const DENIED: &[&str] = &["/etc/", "/usr/bin/rm", "/bin/rm", "/usr/sbin/", "/sbin/"];

/// What to run, and how to name it in messages.
struct Prepared {
    command: Command,
    label: String,
    /// An inline script's file; removed when dropped, whatever happens.
    _temp: Option<tempfile::TempPath>,
}

/// Everything the script needs, owned, so it can run on a thread of its own.
struct Job {
    hook_id: String,
    /// The hook's `target`, rendered and resolved against the policy's directory.
    target: Option<PathBuf>,
    script: Option<String>,
    env: Vec<(&'static str, String)>,
    timeout_ms: u64,
    inject_output: bool,
}

pub(super) async fn run(inv: &Invocation<'_>) -> Outcome {
    let spec = inv.hook.spec();
    let job = Job {
        hook_id: spec.id.clone(),
        target: inv.hook.target().map(|t| inv.render_path(t)),
        script: spec.script.clone(),
        env: environment(inv),
        timeout_ms: spec.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
        inject_output: spec.inject_output,
    };
    // The child is driven by a runtime of its own on a blocking thread: whatever runtime the
    // embedder evaluates on (even one without an I/O driver), it is never blocked by the
    // script, and the script never needs its I/O driver.
    match tokio::task::spawn_blocking(move || job.execute()).await {
        Ok(outcome) => outcome,
        Err(e) => Outcome::fail(format!("exec_script could not run: {e}")),
    }
}

impl Job {
    fn execute(self) -> Outcome {
        let prepared = match self.prepare() {
            Ok(p) => p,
            Err(outcome) => return outcome,
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build();
        match runtime {
            Ok(runtime) => runtime.block_on(self.supervise(prepared)),
            Err(e) => Outcome::fail(format!("exec_script could not start its runtime: {e}")),
        }
    }

    /// Runs the prepared command to its end or its timeout, then kills its process group.
    async fn supervise(&self, prepared: Prepared) -> Outcome {
        let Prepared {
            mut command,
            label,
            _temp,
        } = prepared;
        command
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = match command.spawn() {
            Ok(child) => child,
            Err(e) => return Outcome::fail(spawn_error(&e, &label)),
        };
        // The group id is the leader's pid, taken while the leader cannot have been reaped.
        let group = child.id().map(|pid| Pid::from_raw(pid as i32));
        let stdout = Capture::start(child.stdout.take());
        let stderr = Capture::start(child.stderr.take());

        let timeout = Duration::from_millis(self.timeout_ms);
        let waited = tokio::time::timeout(timeout, child.wait()).await;
        kill_group(group);
        let status = match waited {
            Ok(Ok(status)) => status,
            Ok(Err(e)) => {
                return Outcome::fail(format!("Script \"{label}\" could not be waited for: {e}"));
            }
            Err(_) => {
                let _ = child.wait().await;
                tracing::warn!(hook = %self.hook_id, script = %label, timeout_ms = self.timeout_ms, "exec_script timed out; process group killed");
                return Outcome::fail(format!(
                    "Script \"{label}\" timed out after {}ms",
                    self.timeout_ms
                ));
            }
        };
        let (stdout, stderr) = (stdout.finish().await, stderr.finish().await);
        let (out, err) = (stdout.trim(), stderr.trim());
        if status.success() {
            let message = if out.is_empty() {
                format!("Script \"{label}\" completed successfully")
            } else {
                out.to_owned()
            };
            let injected = (self.inject_output && !out.is_empty()).then(|| out.to_owned());
            return Outcome::pass(message).with_injected(injected);
        }
        let code = status
            .code()
            .map_or_else(|| "unknown".to_owned(), |c| c.to_string());
        let reason = if !err.is_empty() {
            err.to_owned()
        } else if !out.is_empty() {
            out.to_owned()
        } else {
            describe_status(status)
        };
        tracing::warn!(hook = %self.hook_id, script = %label, %code, "exec_script failed");
        Outcome::fail(format!(
            "Script failed (exit {code}): {}",
            super::block::truncate_plain(&reason, 500)
        ))
    }

    /// The command for the hook's `target` (a path, checked against the denylist) or its
    /// inline `script` (a private temporary file, run through its interpreter).
    fn prepare(&self) -> Result<Prepared, Outcome> {
        if let Some(path) = &self.target {
            let label = path.display().to_string();
            if let Some(denied) = denied(&normalise(path)) {
                return Err(Outcome::fail(denied));
            }
            let resolved =
                std::fs::canonicalize(path).map_err(|e| Outcome::fail(spawn_error(&e, &label)))?;
            if let Some(denied) = denied(&resolved) {
                return Err(Outcome::fail(denied));
            }
            // Run the resolved path: a symlink swapped after the check changes nothing.
            return Ok(Prepared {
                command: Command::new(resolved),
                label,
                _temp: None,
            });
        }
        let Some(script) = &self.script else {
            // The config stage refuses exec_script without target or script.
            return Err(Outcome::fail(
                "exec_script requires either \"target\" (file path) or \"script\" (inline content)",
            ));
        };
        let label = format!("inline script of hook {}", self.hook_id);
        let temp = write_private(script)
            .map_err(|e| Outcome::fail(format!("Failed to create temporary script file: {e}")))?;
        // The file is handed to its interpreter rather than executed, so it never needs to be
        // executable, and no exec can race a descriptor still open for writing.
        let (interpreter, argument) = interpreter(script);
        let mut command = Command::new(interpreter);
        command.args(argument).arg(&temp);
        Ok(Prepared {
            command,
            label,
            _temp: Some(temp),
        })
    }
}

/// Writes `script` to a new file readable only by this user (0700, as the issue asks).
fn write_private(script: &str) -> std::io::Result<tempfile::TempPath> {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let mut file = tempfile::Builder::new()
        .prefix("hookgate-exec-")
        .suffix(".sh")
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempfile()?;
    file.write_all(script.as_bytes())?;
    file.as_file().sync_all()?;
    Ok(file.into_temp_path())
}

/// The interpreter of an inline script: its `#!` line (program and at most one argument, as
/// the kernel reads it), else `/bin/sh`.
fn interpreter(script: &str) -> (String, Option<String>) {
    let Some(line) = script.strip_prefix("#!").and_then(|s| s.lines().next()) else {
        return ("/bin/sh".to_owned(), None);
    };
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((program, arg)) => (program.to_owned(), Some(arg.trim().to_owned())),
        None if !line.is_empty() => (line.to_owned(), None),
        None => ("/bin/sh".to_owned(), None),
    }
}

/// `path` with `.` and `..` removed lexically (what `path.resolve` does in the seed).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The seed's refusal message when `path` falls under the denylist.
fn denied(path: &Path) -> Option<String> {
    let text = path.to_string_lossy();
    DENIED
        .iter()
        .find(|d| text.starts_with(*d) || text == d.trim_end_matches('/'))
        .map(|d| {
            format!(
                "Script path \"{text}\" is blocked for security reasons (matches deny pattern: {d})"
            )
        })
}

fn spawn_error(e: &std::io::Error, label: &str) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => format!("Script not found: \"{label}\""),
        std::io::ErrorKind::PermissionDenied => {
            format!("Script not executable: \"{label}\" (permission denied)")
        }
        _ => format!("Script \"{label}\" could not be started: {e}"),
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status.signal() {
        Some(signal) => format!("killed by signal {signal}"),
        None => status.to_string(),
    }
}

/// Kills every process left in the script's group. The group may already be gone.
fn kill_group(group: Option<Pid>) {
    if let Some(group) = group {
        let _ = killpg(group, Signal::SIGKILL);
    }
}

/// The DESIGN.md environment: the process's own, plus the context as `HOOK_*` variables.
fn environment(inv: &Invocation<'_>) -> Vec<(&'static str, String)> {
    let ctx = inv.ctx;
    let topic = ctx.topic_text().unwrap_or_default();
    let args = ctx
        .tool_args
        .as_ref()
        .and_then(|a| serde_json::to_string(a).ok())
        .unwrap_or_else(|| "{}".to_owned());
    let timestamp = serde_json::Number::from_f64(inv.timestamp_ms)
        .map(|n| crate::config::js_number(&n))
        .unwrap_or_default();
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    let vars = [
        ("HOOK_POINT", inv.point.as_str().to_owned()),
        ("HOOK_SESSION", ctx.session_key.clone()),
        ("HOOK_SESSION_KEY", ctx.session_key.clone()),
        ("HOOK_TOOL", text(&ctx.tool_name)),
        ("HOOK_ARGS", args),
        ("HOOK_TOPIC", topic.clone()),
        ("HOOK_TOPIC_ID", topic),
        ("HOOK_TIMESTAMP", timestamp),
        ("HOOK_SUBAGENT", ctx.is_sub_agent().to_string()),
        ("HOOK_SUBAGENT_LABEL", text(&ctx.subagent_label)),
        ("HOOK_CRON_JOB", text(&ctx.cron_job)),
        ("HOOK_PROMPT", text(&ctx.prompt)),
        ("HOOK_TRACE_ID", text(&ctx.trace_id)),
        ("HOOK_RESPONSE", text(&ctx.response)),
        ("OPENCLAW_USER_MESSAGE", text(&ctx.prompt)),
        ("OPENCLAW_ASSISTANT_MESSAGE", text(&ctx.response)),
    ];
    vars.into_iter()
        .map(|(k, v)| (k, env_safe(v, ENV_STRING_CAP - k.len() - 2)))
        .collect()
}

/// An environment value the kernel accepts: no NUL, at most `cap` bytes (the key, `=` and
/// the terminating NUL take the rest of [`ENV_STRING_CAP`]).
fn env_safe(mut value: String, cap: usize) -> String {
    if value.contains('\0') {
        value = value.replace('\0', "");
    }
    if value.len() > cap {
        let mut cut = cap;
        while !value.is_char_boundary(cut) {
            cut -= 1;
        }
        value.truncate(cut);
    }
    value
}

/// One output stream, read to its end in the background, keeping the first [`OUTPUT_CAP`]
/// bytes.
struct Capture {
    buffer: Arc<Mutex<Vec<u8>>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Capture {
    fn start(stream: Option<impl AsyncRead + Unpin + Send + 'static>) -> Capture {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let task = stream.map(|mut stream| {
            let buffer = Arc::clone(&buffer);
            tokio::spawn(async move {
                let mut chunk = [0u8; 8192];
                while let Ok(n) = stream.read(&mut chunk).await {
                    if n == 0 {
                        break;
                    }
                    let mut kept = buffer.lock().unwrap_or_else(PoisonError::into_inner);
                    let room = OUTPUT_CAP.saturating_sub(kept.len());
                    kept.extend_from_slice(&chunk[..n.min(room)]);
                }
            })
        });
        Capture { buffer, task }
    }

    /// What was captured, once the stream closed (or after a short grace, if a process that
    /// left the group still holds it open).
    async fn finish(mut self) -> String {
        if let Some(task) = self.task.take() {
            let abort = task.abort_handle();
            if tokio::time::timeout(DRAIN_GRACE, task).await.is_err() {
                abort.abort();
            }
        }
        let bytes = self.buffer.lock().unwrap_or_else(PoisonError::into_inner);
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_denylist_matches_prefixes_and_exact_files() {
        assert!(denied(Path::new("/etc/cron.daily/x")).is_some());
        assert!(denied(Path::new("/usr/bin/rm")).is_some());
        assert!(denied(Path::new("/sbin")).is_some());
        assert!(
            denied(Path::new("/usr/bin/rmdir")).is_some(),
            "the seed's prefix match"
        );
        assert!(denied(Path::new("/etcetera/x")).is_none());
        assert!(denied(Path::new("/opt/hooks/check.sh")).is_none());
        assert_eq!(
            denied(Path::new("/etc/passwd")).unwrap(),
            "Script path \"/etc/passwd\" is blocked for security reasons (matches deny pattern: /etc/)"
        );
    }

    #[test]
    fn dot_dot_is_resolved_before_the_denylist() {
        assert_eq!(
            normalise(Path::new("/opt/hooks/../../etc/./x")),
            PathBuf::from("/etc/x")
        );
    }

    #[test]
    fn inline_scripts_run_under_their_shebang_or_sh() {
        assert_eq!(interpreter("echo hi"), ("/bin/sh".to_owned(), None));
        assert_eq!(
            interpreter("#!/bin/bash\necho"),
            ("/bin/bash".to_owned(), None)
        );
        assert_eq!(
            interpreter("#! /usr/bin/env python3 -u\nprint()"),
            ("/usr/bin/env".to_owned(), Some("python3 -u".to_owned()))
        );
        assert_eq!(interpreter("#!\necho"), ("/bin/sh".to_owned(), None));
    }

    #[test]
    fn environment_values_are_made_acceptable_to_exec() {
        assert_eq!(env_safe("a\0b".to_owned(), 10), "ab");
        assert_eq!(env_safe("é".repeat(100), 11), "é".repeat(5));
    }
}
