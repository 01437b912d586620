//! OpenClaw plugin hooks: `{event, ctx}` of a named hook in, a HookContext and point; a
//! Decision out, the hook's own result shape.
//!
//! Sub-agent sessions (`:subagent:` in `ctx.sessionKey`) map to the `subagent:*` points, as
//! the seed plugin did. Tool names are compared as OpenClaw sends them (lowercased: `exec`).

use serde_json::{Map, Value, json};

use crate::context::HookContext;
use crate::decision::{Decision, Verdict};
use crate::point::Point;

/// The hooks this adapter takes.
pub const HOOKS: &[&str] = &[
    "before_tool_call",
    "after_tool_call",
    "before_prompt_build",
    "before_agent_start",
    "agent_end",
    "message_sending",
    "session_start",
    "session_end",
    "subagent_spawning",
];

fn point_of(hook: &str, sub: bool) -> Option<Point> {
    Some(match (hook, sub) {
        ("before_tool_call", false) => Point::TurnToolPre,
        ("before_tool_call", true) => Point::SubagentToolPre,
        ("after_tool_call", false) => Point::TurnToolPost,
        ("after_tool_call", true) => Point::SubagentToolPost,
        ("before_prompt_build" | "before_agent_start", false) => Point::TurnPre,
        ("before_prompt_build" | "before_agent_start", true) => Point::SubagentPre,
        ("agent_end", false) => Point::TurnPost,
        ("agent_end", true) => Point::SubagentPost,
        ("message_sending", _) => Point::MessageSending,
        ("session_start", _) => Point::SessionStart,
        ("session_end", _) => Point::SessionEnd,
        ("subagent_spawning", _) => Point::SubagentSpawnPre,
        _ => return None,
    })
}

/// Why a payload could not be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PayloadError {
    /// The hook name is not one this adapter maps.
    #[error("unknown OpenClaw hook `{0}`")]
    UnknownHook(String),
    /// The body is not `{event, ctx}`.
    #[error("the body must be a JSON object {{\"event\": {{...}}, \"ctx\": {{...}}}}: {0}")]
    Shape(String),
}

/// Reads the `{event, ctx}` of `hook` into the point and context to evaluate.
pub fn parse(hook: &str, body: &[u8]) -> Result<(Point, HookContext), PayloadError> {
    if !HOOKS.contains(&hook) {
        return Err(PayloadError::UnknownHook(hook.to_owned()));
    }
    crate::json_keys::check(body).map_err(|e| PayloadError::Shape(e.to_string()))?;
    let value: Value =
        serde_json::from_slice(body).map_err(|e| PayloadError::Shape(e.to_string()))?;
    let empty = Map::new();
    let event = value
        .get("event")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let ctx = value
        .get("ctx")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    if !value.is_object() {
        return Err(PayloadError::Shape("not an object".to_owned()));
    }
    let text =
        |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).map(str::to_owned);
    let session_key = text(ctx, "sessionKey").unwrap_or_else(|| "unknown".to_owned());
    let sub = session_key.contains(":subagent:");
    let point = point_of(hook, sub).ok_or_else(|| PayloadError::UnknownHook(hook.to_owned()))?;
    let mut context = HookContext::new(session_key);
    context.point = Some(point);
    context.topic_id = ctx.get("topicId").or_else(|| ctx.get("threadId")).cloned();
    match hook {
        "before_tool_call" | "after_tool_call" => {
            context.tool_name = text(event, "toolName");
            context.tool_args = event.get("params").and_then(Value::as_object).cloned();
            context.response = match event.get("result").or_else(|| event.get("error")) {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Null) | None => None,
                Some(other) => Some(other.to_string()),
            };
        }
        "before_prompt_build" | "before_agent_start" => context.prompt = text(event, "prompt"),
        "agent_end" => context.response = text(event, "response"),
        "message_sending" => {
            let mut args = Map::new();
            for key in ["channel", "recipient"] {
                if let Some(v) = event.get(key) {
                    args.insert(key.to_owned(), v.clone());
                }
            }
            if let Some(content) = event.get("content") {
                args.insert("message".to_owned(), content.clone());
            }
            context.tool_args = Some(args);
        }
        "subagent_spawning" => {
            context.subagent_label = text(event, "label").or_else(|| text(event, "agentId"));
            context.tool_args = Some(event.clone());
        }
        _ => {}
    }
    context.raw = Some(value);
    Ok((point, context))
}

/// The hook's result for `decision`, plus the Decision itself under `hookgate`.
pub fn result(hook: &str, decision: &Decision) -> Value {
    let reason = decision
        .message
        .clone()
        .unwrap_or_else(|| "Blocked by hookgate policy".to_owned());
    let mut out = Map::new();
    let stopped = decision.decision != Verdict::Allow;
    match hook {
        "before_tool_call" | "subagent_spawning" => {
            if stopped {
                // A gateway that does not know `requireApproval` still blocks (fails closed).
                out.insert("block".into(), json!(true));
                out.insert("blockReason".into(), json!(reason));
            }
            if decision.decision == Verdict::Ask {
                out.insert(
                    "requireApproval".into(),
                    decision.approval.clone().unwrap_or(Value::Null),
                );
            }
            if let (Some(params), false) = (&decision.params, stopped) {
                out.insert("params".into(), params.clone());
            }
        }
        "before_prompt_build" | "before_agent_start" => {
            if !decision.injected_context.is_empty() && !stopped {
                out.insert(
                    "prependContext".into(),
                    json!(decision.injected_context.join("\n\n")),
                );
            }
            if stopped {
                // OpenClaw cannot refuse a prompt here; the reason is prepended instead, so the
                // model is told.
                out.insert("prependContext".into(), json!(reason));
            }
        }
        "message_sending" => {
            if stopped {
                out.insert("cancel".into(), json!(true));
            } else if let Some(content) = decision.params.as_ref().and_then(|p| p.get("message")) {
                out.insert("content".into(), content.clone());
            }
        }
        _ => {}
    }
    out.insert(
        "hookgate".into(),
        serde_json::to_value(decision).unwrap_or(Value::Null),
    );
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_agent_sessions_map_to_sub_agent_points() {
        let (point, ctx) = parse(
            "before_tool_call",
            br#"{"event":{"toolName":"exec","params":{"command":"ls"}},"ctx":{"sessionKey":"agent:main:subagent:7"}}"#,
        )
        .unwrap();
        assert_eq!(point, Point::SubagentToolPre);
        assert_eq!(ctx.command_subject(), "ls");
        let (point, ctx) = parse(
            "message_sending",
            br#"{"event":{"content":"hi","channel":"telegram"},"ctx":{"sessionKey":"agent:main:main"}}"#,
        )
        .unwrap();
        assert_eq!(
            (point, ctx.command_subject()),
            (Point::MessageSending, "hi")
        );
        assert!(matches!(
            parse("nope", b"{}"),
            Err(PayloadError::UnknownHook(_))
        ));
        assert!(matches!(
            parse("agent_end", b"[1]"),
            Err(PayloadError::Shape(_))
        ));
    }
}
