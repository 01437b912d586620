//! Running a program under supervision, for `exec_script`, external actions and external
//! matchers.
//!
//! The program runs in a process group of its own. When it exits, or when its timeout runs
//! out, the whole group gets SIGKILL, so nothing it forked outlives it. Output is captured up
//! to [`OUTPUT_CAP`] per stream. The child is driven by a small runtime of its own on a
//! blocking thread: whatever runtime the caller evaluates on (even one without an I/O driver),
//! it is never blocked by the program.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

/// Default time a program may run.
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 30_000;
/// Captured bytes per output stream; the rest is read and discarded.
pub(crate) const OUTPUT_CAP: usize = 1024 * 1024;
/// Longest `KEY=value` string, NUL included, that Linux accepts at exec (MAX_ARG_STRLEN).
const ENV_STRING_CAP: usize = 128 * 1024;
/// After the program exits, how long its output pipes may take to close.
const DRAIN_GRACE: Duration = Duration::from_millis(500);
/// Program paths refused after resolving symlinks and `..` (the seed's denylist).
const DENIED: &[&str] = &["/etc/", "/usr/bin/rm", "/bin/rm", "/usr/sbin/", "/sbin/"];

/// A program to run, owned, so it can move to a thread of its own.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    pub(crate) path: PathBuf,
    pub(crate) args: Vec<OsString>,
    pub(crate) env: Vec<(&'static str, String)>,
    /// Written to stdin, which is then closed; `None`: stdin is `/dev/null`.
    pub(crate) stdin: Option<Vec<u8>>,
    pub(crate) timeout: Duration,
}

/// How a program ended.
#[derive(Debug)]
pub(crate) enum Ended {
    /// It exited (or was killed by a signal) within its time.
    Exited {
        status: ExitStatus,
        stdout: String,
        stderr: String,
    },
    /// Its time ran out; its process group was killed.
    TimedOut,
}

/// Runs `program` to its end or its timeout. `Err` is a failure to start (or to wait).
pub(crate) async fn run(program: Program) -> std::io::Result<Ended> {
    let joined = tokio::task::spawn_blocking(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(supervise(program))
    })
    .await;
    joined.unwrap_or_else(|e| Err(std::io::Error::other(e)))
}

async fn supervise(program: Program) -> std::io::Result<Ended> {
    let mut command = Command::new(&program.path);
    command
        .args(&program.args)
        .envs(
            program
                .env
                .into_iter()
                .map(|(k, v)| (k, env_safe(v, ENV_STRING_CAP - k.len() - 2))),
        )
        .stdin(if program.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = command.spawn()?;
    // The group id is the leader's pid, taken while the leader cannot have been reaped.
    let group = child.id().map(|pid| Pid::from_raw(pid as i32));
    let stdout = Capture::start(child.stdout.take());
    let stderr = Capture::start(child.stderr.take());
    if let (Some(mut pipe), Some(input)) = (child.stdin.take(), program.stdin) {
        // A program that exits without reading its input is not an error.
        tokio::spawn(async move {
            let _ = pipe.write_all(&input).await;
        });
    }
    let waited = tokio::time::timeout(program.timeout, child.wait()).await;
    kill_group(group);
    match waited {
        Ok(Ok(status)) => Ok(Ended::Exited {
            status,
            stdout: stdout.finish().await,
            stderr: stderr.finish().await,
        }),
        Ok(Err(e)) => Err(e),
        Err(_) => {
            let _ = child.wait().await;
            Ok(Ended::TimedOut)
        }
    }
}

/// Kills every process left in the group. The group may already be gone.
fn kill_group(group: Option<Pid>) {
    if let Some(group) = group {
        let _ = killpg(group, Signal::SIGKILL);
    }
}

/// The seed's messages for a program that could not be started.
pub(crate) fn spawn_error(e: &std::io::Error, label: &str) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => format!("Script not found: \"{label}\""),
        std::io::ErrorKind::PermissionDenied => {
            format!("Script not executable: \"{label}\" (permission denied)")
        }
        _ => format!("Script \"{label}\" could not be started: {e}"),
    }
}

/// `exited with 3`, `killed by signal 9`.
pub(crate) fn describe_status(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        (None, None) => status.to_string(),
    }
}

/// The program at `path`, checked against the denylist on its lexically normalised path and
/// again after resolving symlinks; returns the resolved path, which is the one to run (a
/// symlink swapped after the check changes nothing).
pub(crate) fn resolve_allowed(path: &Path) -> Result<PathBuf, String> {
    let label = path.display().to_string();
    if let Some(denied) = denied(&normalise(path)) {
        return Err(denied);
    }
    let resolved = std::fs::canonicalize(path).map_err(|e| spawn_error(&e, &label))?;
    match denied(&resolved) {
        Some(denied) => Err(denied),
        None => Ok(resolved),
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
    fn environment_values_are_made_acceptable_to_exec() {
        assert_eq!(env_safe("a\0b".to_owned(), 10), "ab");
        assert_eq!(env_safe("é".repeat(100), 11), "é".repeat(5));
    }
}
