//! External matcher programs (`match.custom`): the context as JSON on stdin; exit 0 is a
//! match, exit 1 no match. Anything else (missing, denied, a crash, a timeout) fails open:
//! the hook fires, and a warning says why. A broken matcher on a `block` hook therefore
//! blocks rather than silently letting calls through.

use std::path::Path;
use std::time::Duration;

use crate::context::HookContext;
use crate::point::Point;
use crate::process::{self, Ended, Program};

/// How long a matcher may run when the hook sets no `timeoutMs`.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether the program at `path` accepts `ctx` at `point`.
pub(crate) async fn matches(
    hook: &str,
    path: &Path,
    ctx: &HookContext,
    point: Point,
    timeout: Duration,
) -> bool {
    let fail_open = |why: String| {
        tracing::warn!(hook, matcher = %path.display(), %why, "match.custom failed; the hook fires (fail open)");
        true
    };
    let resolved = match process::resolve_allowed(path) {
        Ok(p) => p,
        Err(why) => return fail_open(why),
    };
    let mut ctx = ctx.clone();
    ctx.point = Some(point);
    let program = Program {
        path: resolved,
        args: Vec::new(),
        env: Vec::new(),
        stdin: Some(serde_json::to_vec(&ctx).unwrap_or_else(|_| b"{}".to_vec())),
        timeout,
    };
    match process::run(program).await {
        Ok(Ended::Exited { status, .. }) => match status.code() {
            Some(0) => true,
            Some(1) => false,
            _ => fail_open(process::describe_status(status)),
        },
        Ok(Ended::TimedOut) => fail_open(format!("timed out after {} ms", timeout.as_millis())),
        Err(e) => fail_open(e.to_string()),
    }
}
