//! OpenClaw plugin hooks: `{event, ctx}` of a named hook in, a HookContext and the points to
//! evaluate; a Decision out, the hook's own result shape ([`result`]).
//!
//! The hooks are the ones OpenClaw 2026.9.6 fires (`PluginHookName` in its `dist/*.d.ts`)
//! that correspond to a hookgate point. Sub-agent sessions (`:subagent:` in
//! `ctx.sessionKey`) map to the `subagent:*` points, as the seed plugin did. Tool names are
//! compared as OpenClaw sends them (lowercased: `exec`).

use serde_json::{Map, Value};

use crate::context::HookContext;
use crate::point::Point;

pub(crate) use super::openclaw_result::result;

/// The hooks this adapter takes, which the plugin registers. OpenClaw ignores a hook name it
/// does not know (with only a log line), so the plugin compares this list with the host's.
pub(crate) const HOOKS: &[&str] = &[
    "before_tool_call",
    "after_tool_call",
    "before_prompt_build",
    "agent_end",
    "heartbeat_prompt_contribution",
    "cron_changed",
    "before_compaction",
    "after_compaction",
    "message_received",
    "message_sending",
    "message_sent",
    "session_start",
    "session_end",
    "subagent_spawned",
    "subagent_ended",
    "gateway_start",
    "gateway_stop",
    "before_install",
    "resolve_exec_env",
];

/// Why a payload could not be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum PayloadError {
    /// The hook name is not one this adapter maps.
    #[error("unknown OpenClaw hook `{0}`")]
    UnknownHook(String),
    /// The body is not `{event, ctx}`.
    #[error("the body must be a JSON object {{\"event\": {{...}}, \"ctx\": {{...}}}}: {0}")]
    Shape(String),
}

/// A hook read: the points to evaluate, in order, and the context.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// Evaluated in order; the first answer that is not `allow` is the hook's. Empty when this
    /// firing is no hookgate moment (a cron job being edited, say): nothing is evaluated.
    pub points: Vec<Point>,
    /// The context, with `point` set to the first point.
    pub context: HookContext,
}

fn text(m: &Map<String, Value>, k: &str) -> Option<String> {
    m.get(k).and_then(Value::as_str).map(str::to_owned)
}

/// The points `hook` is evaluated at, given its event and context.
fn points_of(
    hook: &str,
    event: &Map<String, Value>,
    ctx: &Map<String, Value>,
    sub: bool,
) -> Vec<Point> {
    let trigger = text(ctx, "trigger");
    let (tool_pre, tool_post, pre, post) = if sub {
        let s = (Point::SubagentToolPre, Point::SubagentToolPost);
        (s.0, s.1, Point::SubagentPre, Point::SubagentPost)
    } else {
        (
            Point::TurnToolPre,
            Point::TurnToolPost,
            Point::TurnPre,
            Point::TurnPost,
        )
    };
    match hook {
        // A sub-agent is spawned through the `sessions_spawn` tool: the spawn is decided
        // there, where OpenClaw can still refuse it, and then the tool point as for any call.
        "before_tool_call" if text(event, "toolName").as_deref() == Some("sessions_spawn") => {
            vec![Point::SubagentSpawnPre, tool_pre]
        }
        "before_tool_call" => vec![tool_pre],
        "after_tool_call" => match event.get("error") {
            Some(Value::Null) | None => vec![tool_post],
            Some(_) => vec![Point::ToolError],
        },
        // A heartbeat's turn is evaluated once, at heartbeat_prompt_contribution (which needs
        // no conversation access), not again here.
        "before_prompt_build" if trigger.as_deref() == Some("heartbeat") => vec![],
        "before_prompt_build" => vec![pre],
        "agent_end" if trigger.as_deref() == Some("heartbeat") => vec![Point::HeartbeatPost],
        "agent_end" if event.get("success") == Some(&Value::Bool(false)) => vec![Point::AgentError],
        "agent_end" => vec![post],
        "heartbeat_prompt_contribution" => vec![Point::HeartbeatPre],
        "cron_changed" => match text(event, "action").as_deref() {
            Some("started") => vec![Point::CronPre],
            Some("finished") => vec![Point::CronPost],
            // added, updated, removed, scheduled: an edit of the schedule, not a run.
            _ => vec![],
        },
        "before_compaction" => vec![Point::CompactionPre],
        "after_compaction" => vec![Point::CompactionPost],
        "message_received" => vec![Point::MessageReceived],
        "message_sending" => vec![Point::MessageSending],
        "message_sent" => vec![Point::MessageSent],
        "session_start" => vec![Point::SessionStart],
        "session_end" => vec![Point::SessionEnd],
        "subagent_spawned" => vec![Point::SubagentSpawnPost],
        "subagent_ended" => vec![Point::SubagentEnd],
        "gateway_start" => vec![Point::GatewayStart],
        "gateway_stop" => vec![Point::GatewayStop],
        "before_install" => vec![Point::InstallPre],
        "resolve_exec_env" => vec![Point::ExecEnv],
        _ => vec![],
    }
}

/// The text of the last assistant message in `agent_end`'s `messages` (a string content, or
/// the text parts of a content array).
fn last_assistant_text(messages: &[Value]) -> Option<String> {
    let message = messages
        .iter()
        .rev()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("assistant"))?;
    match message.get("content")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        }
        _ => None,
    }
}

fn pick(event: &Map<String, Value>, keys: &[(&str, &str)]) -> Map<String, Value> {
    keys.iter()
        .filter_map(|(from, to)| event.get(*from).map(|v| ((*to).to_owned(), v.clone())))
        .collect()
}

/// Fills the context fields the seed filled at `point`.
fn fill(context: &mut HookContext, hook: &str, event: &Map<String, Value>) {
    match hook {
        "before_tool_call" | "after_tool_call" => {
            context.tool_name = text(event, "toolName");
            context.tool_args = event.get("params").and_then(Value::as_object).cloned();
            // The exec tool runs in `workdir` when the model names one (a relative one is
            // joined to the agent's workspace in `parse`).
            context.cwd = context
                .tool_args
                .as_ref()
                .and_then(|a| a.get("workdir"))
                .and_then(Value::as_str)
                .filter(|w| !w.is_empty() && !w.contains('\0'))
                .map(str::to_owned);
            context.response = match event.get("result").or_else(|| event.get("error")) {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Null) | None => None,
                Some(other) => Some(other.to_string()),
            };
        }
        "before_prompt_build" => context.prompt = text(event, "prompt"),
        "agent_end" => {
            context.response = text(event, "response").or_else(|| {
                event
                    .get("messages")
                    .and_then(Value::as_array)
                    .and_then(|m| last_assistant_text(m))
            });
        }
        "heartbeat_prompt_contribution" => {
            context.heartbeat_meta = Some(Value::Object(event.clone()));
        }
        "cron_changed" => {
            context.cron_job = text(event, "jobId");
            context.response = text(event, "summary").or_else(|| text(event, "error"));
        }
        "message_received" | "message_sending" | "message_sent" => {
            let mut args = pick(event, &[("channel", "channel"), ("to", "recipient")]);
            args.extend(pick(event, &[("recipient", "recipient"), ("from", "from")]));
            if let Some(content) = event.get("content") {
                args.insert("message".to_owned(), content.clone());
            }
            context.tool_args = Some(args);
        }
        "subagent_spawned" | "subagent_ended" => {
            context.subagent_label = text(event, "label")
                .or_else(|| text(event, "agentId"))
                .or_else(|| text(event, "targetSessionKey"));
            context.tool_args = Some(event.clone());
        }
        "before_install" => {
            // What is installed, and from where: the subject is the source path.
            context.tool_name = text(event, "targetType");
            context.tool_args = Some(pick(
                event,
                &[
                    ("targetName", "name"),
                    ("sourcePath", "path"),
                    ("origin", "origin"),
                ],
            ));
        }
        "resolve_exec_env" => {
            context.tool_name = text(event, "toolName");
            context.tool_args = Some(pick(event, &[("host", "host")]));
        }
        _ => {}
    }
}

/// Reads the `{event, ctx}` of `hook` into the points and context to evaluate.
pub(crate) fn parse(hook: &str, body: &[u8]) -> Result<Parsed, PayloadError> {
    if !HOOKS.contains(&hook) {
        return Err(PayloadError::UnknownHook(hook.to_owned()));
    }
    crate::json_keys::check(body).map_err(|e| PayloadError::Shape(e.to_string()))?;
    let value: Value =
        serde_json::from_slice(body).map_err(|e| PayloadError::Shape(e.to_string()))?;
    if !value.is_object() {
        return Err(PayloadError::Shape("not an object".to_owned()));
    }
    let empty = Map::new();
    let event = value
        .get("event")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let ctx = value
        .get("ctx")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    // Some hooks carry the session in the event only (resolve_exec_env, heartbeat, cron).
    let session_key = text(ctx, "sessionKey")
        .or_else(|| text(event, "sessionKey"))
        .unwrap_or_else(|| "unknown".to_owned());
    let sub = session_key.contains(":subagent:");
    let points = points_of(hook, event, ctx, sub);
    let mut context = HookContext::new(session_key);
    context.point = points.first().copied();
    context.topic_id = ctx.get("topicId").or_else(|| ctx.get("threadId")).cloned();
    fill(&mut context, hook, event);
    // The agent's workspace, where the host gives it; OpenClaw's exec runs there unless the
    // call names a `workdir`.
    context.workspace =
        text(ctx, "workspaceDir").filter(|w| crate::context::dir_problem(w).is_none());
    context.cwd = match (context.cwd.take(), &context.workspace) {
        (Some(dir), _) if crate::context::dir_problem(&dir).is_none() => Some(dir),
        (Some(dir), Some(root)) => Some(crate::matcher::paths::normalize(&format!("{root}/{dir}"))),
        (None, root) => root.clone(),
        // A relative workdir without a workspace names no place hookgate knows.
        (Some(_), None) => None,
    };
    context.raw = Some(value.clone());
    Ok(Parsed { points, context })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(hook: &str, body: &str) -> Vec<Point> {
        parse(hook, body.as_bytes()).expect("parses").points
    }

    #[test]
    fn the_exec_workdir_and_the_agent_workspace_place_paths() {
        let parsed = parse(
            "before_tool_call",
            br#"{"event":{"toolName":"exec","params":{"command":"rm -rf build","workdir":"/w/app/web"}},"ctx":{"sessionKey":"s","workspaceDir":"/w/app"}}"#,
        )
        .unwrap();
        assert_eq!(parsed.context.cwd.as_deref(), Some("/w/app/web"));
        assert_eq!(parsed.context.workspace.as_deref(), Some("/w/app"));
        let parsed = parse(
            "before_tool_call",
            br#"{"event":{"toolName":"exec","params":{"command":"ls","workdir":"web"}},"ctx":{"sessionKey":"s","workspaceDir":"/w/app"}}"#,
        )
        .unwrap();
        assert_eq!(parsed.context.cwd.as_deref(), Some("/w/app/web"));
    }

    #[test]
    fn sub_agent_sessions_map_to_sub_agent_points() {
        let parsed = parse(
            "before_tool_call",
            br#"{"event":{"toolName":"exec","params":{"command":"ls"}},"ctx":{"sessionKey":"agent:main:subagent:7"}}"#,
        )
        .unwrap();
        assert_eq!(parsed.points, [Point::SubagentToolPre]);
        assert_eq!(parsed.context.command_subject(), "ls");
        let parsed = parse(
            "message_sending",
            br#"{"event":{"content":"hi","to":"telegram:1"},"ctx":{"sessionKey":"agent:main:main"}}"#,
        )
        .unwrap();
        assert_eq!(
            (parsed.points, parsed.context.command_subject()),
            (vec![Point::MessageSending], "hi")
        );
        assert!(matches!(
            parse("before_agent_start", b"{}"),
            Err(PayloadError::UnknownHook(_))
        ));
        assert!(matches!(
            parse("agent_end", b"[1]"),
            Err(PayloadError::Shape(_))
        ));
    }

    #[test]
    fn triggers_and_actions_pick_the_point() {
        let spawn = r#"{"event":{"toolName":"sessions_spawn","params":{"task":"t"}},"ctx":{"sessionKey":"agent:main:main"}}"#;
        assert_eq!(
            points("before_tool_call", spawn),
            [Point::SubagentSpawnPre, Point::TurnToolPre]
        );
        let heartbeat = r#"{"event":{"prompt":"p","messages":[]},"ctx":{"sessionKey":"agent:main:main","trigger":"heartbeat"}}"#;
        assert!(points("before_prompt_build", heartbeat).is_empty());
        assert_eq!(points("agent_end", heartbeat), [Point::HeartbeatPost]);
        let failed = r#"{"event":{"success":false,"error":"x","messages":[]},"ctx":{"sessionKey":"agent:main:main"}}"#;
        assert_eq!(points("agent_end", failed), [Point::AgentError]);
        let cron = |action: &str| {
            points(
                "cron_changed",
                &format!(r#"{{"event":{{"action":"{action}","jobId":"j"}},"ctx":{{}}}}"#),
            )
        };
        assert_eq!(
            (cron("started"), cron("finished"), cron("added")),
            (vec![Point::CronPre], vec![Point::CronPost], vec![])
        );
        let error =
            r#"{"event":{"toolName":"exec","params":{},"error":"boom"},"ctx":{"sessionKey":"s"}}"#;
        assert_eq!(points("after_tool_call", error), [Point::ToolError]);
    }

    #[test]
    fn agent_end_reads_the_last_assistant_text() {
        let body = br#"{"event":{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"text","text":"the answer"}]}]},"ctx":{"sessionKey":"s"}}"#;
        let parsed = parse("agent_end", body).unwrap();
        assert_eq!(parsed.context.response.as_deref(), Some("the answer"));
    }

    #[test]
    fn installs_are_evaluated_on_their_source_path() {
        let body =
            br#"{"event":{"targetType":"skill","targetName":"x","sourcePath":"/tmp/x"},"ctx":{}}"#;
        let parsed = parse("before_install", body).unwrap();
        assert_eq!(parsed.points, [Point::InstallPre]);
        assert_eq!(parsed.context.command_subject(), "/tmp/x");
    }
}
