//! External action programs (`action: ./actions/check.sh`): the context as JSON on stdin, a
//! result JSON on stdout. Anything but a well-formed result from a program that exited 0
//! fails closed (`passed: false`).

use serde::Deserialize;
use serde_json::{Map, Value};

use super::{Invocation, Outcome, Report};
use crate::process::{self, DEFAULT_TIMEOUT_MS, Ended, Program};

/// What the program prints.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reply {
    passed: bool,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    injected_content: Option<String>,
    #[serde(default)]
    modified_params: Option<Map<String, Value>>,
}

pub(super) async fn run(inv: &Invocation<'_>, program: &str) -> Outcome {
    let spec = inv.hook.spec();
    let path = inv.hook.resolve_path(program);
    let label = path.display().to_string();
    let resolved = match process::resolve_allowed(&path) {
        Ok(p) => p,
        Err(message) => return Outcome::fail(message),
    };
    let timeout_ms = spec.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    let program = Program {
        path: resolved,
        args: Vec::new(),
        env: Vec::new(),
        stdin: Some(context_json(inv)),
        timeout: std::time::Duration::from_millis(timeout_ms),
    };
    let (status, stdout, stderr) = match process::run(program).await {
        Ok(Ended::Exited {
            status,
            stdout,
            stderr,
        }) => (status, stdout, stderr),
        Ok(Ended::TimedOut) => {
            return Outcome::fail(format!(
                "Action program \"{label}\" timed out after {timeout_ms}ms"
            ));
        }
        Err(e) => return Outcome::fail(process::spawn_error(&e, &label)),
    };
    if !status.success() {
        let detail = match stderr.trim() {
            "" => process::describe_status(status),
            err => super::block::truncate_plain(err, 500).to_owned(),
        };
        return Outcome::fail(format!("Action program \"{label}\" failed: {detail}"));
    }
    let reply: Reply = match serde_json::from_str(stdout.trim()) {
        Ok(reply) => reply,
        Err(e) => {
            return Outcome::fail(format!(
                "Action program \"{label}\" printed no valid result JSON ({e})"
            ));
        }
    };
    let report = Report {
        message: reply.message,
        injected: reply.injected_content.filter(|c| !c.is_empty()),
        notice: None,
        params: None,
    };
    if reply.passed {
        Outcome::Pass(Report {
            params: reply.modified_params,
            ..report
        })
    } else {
        Outcome::Fail(report)
    }
}

/// The context as the program reads it: the HookContext JSON, with `point` set.
pub(crate) fn context_json(inv: &Invocation<'_>) -> Vec<u8> {
    let mut ctx = inv.ctx.clone();
    ctx.point = Some(inv.point);
    serde_json::to_vec(&ctx).unwrap_or_else(|_| b"{}".to_vec())
}
