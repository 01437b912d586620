//! `exec_script`: run a script with the context in its environment. Exit 0 passes; anything
//! else fails (and `onFailure` applies). The script is supervised by [`crate::process`]: its
//! own process group, killed whole at exit or timeout, output capped.

use std::time::Duration;

use super::{Invocation, Outcome};
use crate::config::Script;
use crate::process::{self, DEFAULT_TIMEOUT_MS, Ended, Program};

pub(super) async fn run(inv: &Invocation<'_>, script: &Script, inject_output: bool) -> Outcome {
    let spec = inv.hook.spec();
    let timeout_ms = spec.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    // An inline script's file lives until the end of this function, whatever happens.
    let (program, label, _temp) = match prepare(inv, script) {
        Ok(prepared) => prepared,
        Err(message) => return Outcome::fail(message),
    };
    let program = Program {
        env: environment(inv),
        timeout: Duration::from_millis(timeout_ms),
        ..program
    };
    let ended = match process::run(program).await {
        Ok(ended) => ended,
        Err(e) => return Outcome::fail(process::spawn_error(&e, &label)),
    };
    let (status, stdout, stderr) = match ended {
        Ended::Exited {
            status,
            stdout,
            stderr,
        } => (status, stdout, stderr),
        Ended::TimedOut => {
            tracing::warn!(hook = %spec.id, script = %label, timeout_ms, "exec_script timed out; process group killed");
            return Outcome::fail(format!("Script \"{label}\" timed out after {timeout_ms}ms"));
        }
    };
    let (out, err) = (stdout.trim(), stderr.trim());
    if status.success() {
        let message = if out.is_empty() {
            format!("Script \"{label}\" completed successfully")
        } else {
            out.to_owned()
        };
        let injected = (inject_output && !out.is_empty()).then(|| out.to_owned());
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
        process::describe_status(status)
    };
    tracing::warn!(hook = %spec.id, script = %label, %code, "exec_script failed");
    Outcome::fail(format!(
        "Script failed (exit {code}): {}",
        super::block::truncate_plain(&reason, 500)
    ))
}

/// The program for the hook's `target` (checked against the denylist) or its inline `script`
/// (a private temporary file handed to its interpreter), and its name for messages.
fn prepare(
    inv: &Invocation<'_>,
    script: &Script,
) -> Result<(Program, String, Option<tempfile::TempPath>), String> {
    let empty = |path| Program {
        path,
        args: Vec::new(),
        env: Vec::new(),
        stdin: None,
        timeout: Duration::ZERO,
    };
    let script = match (script, inv.hook.path()) {
        (Script::File(_), Some(file)) => {
            let path = inv.render_path(file);
            let label = path.display().to_string();
            let resolved = process::resolve_allowed(&path)?;
            return Ok((empty(resolved), label, None));
        }
        (Script::Inline(text), _) => text,
        // INVARIANT: the graph parses a `Script::File` into the hook's path template.
        (Script::File(file), None) => return Err(format!("script file {file} was not compiled")),
    };
    let label = format!("inline script of hook {}", inv.hook.id());
    let temp = write_private(script)
        .map_err(|e| format!("Failed to create temporary script file: {e}"))?;
    // The file is handed to its interpreter rather than executed, so it never needs to be
    // executable, and no exec can race a descriptor still open for writing.
    let (interpreter, argument) = interpreter(script);
    let mut program = empty(interpreter.into());
    program.args.extend(argument.map(Into::into));
    program.args.push(temp.as_os_str().to_owned());
    Ok((program, label, Some(temp)))
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

/// The environment of docs/hooks-reference.md, "exec_script": the process's own, plus the context as `HOOK_*` variables.
fn environment(inv: &Invocation<'_>) -> Vec<(&'static str, String)> {
    let ctx = inv.ctx;
    let topic = ctx.topic_text().unwrap_or_default();
    let args = ctx
        .tool_args
        .as_ref()
        .and_then(|a| serde_json::to_string(a).ok())
        .unwrap_or_else(|| "{}".to_owned());
    let timestamp = serde_json::Number::from_f64(inv.timestamp_ms)
        .map(|n| crate::js::number(&n))
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
    vars.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
