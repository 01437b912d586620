//! Claude Code hooks: its hook JSON in, a HookContext and point; a Decision out, Claude
//! Code's own answer (stdout JSON and exit code).
//!
//! Session key: `claude-code:<session_id>`, and `claude-code:<session_id>:subagent:<agent_id>`
//! inside a sub-agent, so `isSubAgent` and `sessionPattern` work as for OpenClaw keys.

use serde_json::{Map, Value, json};

use crate::context::HookContext;
use crate::decision::{Decision, Verdict};
use crate::point::Point;

pub(crate) use super::translate::{Answer, Event, PayloadError};

/// The events this adapter maps, and where they go.
fn point_of(event: &str, in_subagent: bool) -> Option<Point> {
    Some(match (event, in_subagent) {
        ("PreToolUse", false) => Point::TurnToolPre,
        ("PreToolUse", true) => Point::SubagentToolPre,
        ("PostToolUse", false) => Point::TurnToolPost,
        ("PostToolUse", true) => Point::SubagentToolPost,
        ("PostToolUseFailure", _) => Point::ToolError,
        ("UserPromptSubmit", _) => Point::TurnPre,
        ("Stop", _) => Point::TurnPost,
        ("SubagentStart", _) => Point::SubagentSpawnPre,
        ("SubagentStop", _) => Point::SubagentPost,
        ("SessionStart", _) => Point::SessionStart,
        ("SessionEnd", _) => Point::SessionEnd,
        ("PreCompact", _) => Point::CompactionPre,
        ("Notification", _) => Point::Notification,
        ("PermissionRequest", _) => Point::PermissionRequest,
        _ => return None,
    })
}

/// Reads a hook payload.
pub(crate) fn parse(payload: &[u8]) -> Result<Event, PayloadError> {
    let fields = super::translate::read_object(payload)?;
    let text = |k: &str| fields.get(k).and_then(Value::as_str).map(str::to_owned);
    let name = text("hook_event_name").unwrap_or_default();
    let agent = text("agent_id").filter(|a| !a.is_empty());
    let point =
        point_of(&name, agent.is_some()).ok_or_else(|| PayloadError::UnknownEvent(name.clone()))?;
    let session = text("session_id").unwrap_or_else(|| "unknown".to_owned());
    let session_key = match &agent {
        Some(agent) => format!("claude-code:{session}:subagent:{agent}"),
        None => format!("claude-code:{session}"),
    };
    let mut ctx = HookContext::new(session_key);
    ctx.point = Some(point);
    ctx.tool_name = text("tool_name");
    ctx.tool_args = match fields.get("tool_input") {
        Some(Value::Object(args)) => Some(args.clone()),
        Some(other) => Some(Map::from_iter([("input".to_owned(), other.clone())])),
        None => None,
    };
    if let Some(tool) = &ctx.tool_name {
        let args = ctx.tool_args.clone().unwrap_or_default();
        let call = super::tools::canonical(super::tools::CLAUDE_CODE, tool, args, None).map_err(
            |problem| PayloadError::Shape {
                event: name.clone(),
                problem,
            },
        )?;
        ctx.tool_args = Some(call.args);
    }
    ctx.prompt = text("prompt");
    ctx.response = match fields.get("tool_response").or_else(|| fields.get("error")) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => Some(other.to_string()),
        None => text("last_assistant_message"),
    };
    ctx.subagent_label = text("agent_type");
    // Claude Code's `cwd` is absolute; anything else is not a place to resolve against.
    ctx.cwd = text("cwd").filter(|c| crate::context::dir_problem(c).is_none());
    ctx.raw = Some(Value::Object(fields));
    Ok(Event {
        name,
        point,
        context: ctx,
    })
}

/// Whether a broken policy or payload must stop this event (exit 2) rather than let it pass:
/// every event but those that only report (an event this adapter does not know is stopped).
pub(crate) fn fails_closed(event_name: &str) -> bool {
    !matches!(
        event_name,
        "PostToolUse"
            | "PostToolUseFailure"
            | "Stop"
            | "SubagentStart"
            | "SubagentStop"
            | "SessionStart"
            | "SessionEnd"
            | "PreCompact"
            | "Notification"
    )
}

/// The JSON that blocks event `name` with `reason`.
pub(crate) fn deny_json(name: &str, reason: &str) -> Value {
    match name {
        "PermissionRequest" => json!({ "hookSpecificOutput": {
            "hookEventName": name, "decision": { "behavior": "deny", "message": reason } } }),
        "UserPromptSubmit" => json!({ "decision": "block", "reason": reason }),
        _ => json!({ "hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": reason } }),
    }
}

/// Claude Code's answer for `decision` at event `name`.
pub(crate) fn answer(name: &str, decision: &Decision) -> Answer {
    let reason = decision
        .message
        .clone()
        .unwrap_or_else(|| "Blocked by hookgate policy".to_owned());
    let context =
        (!decision.injected_context.is_empty()).then(|| decision.injected_context.join("\n\n"));
    let mut specific = Map::new();
    specific.insert("hookEventName".into(), json!(name));
    let mut top = Map::new();
    let stopped = decision.decision != Verdict::Allow;
    match name {
        "PreToolUse" => {
            match decision.decision {
                Verdict::Block => {
                    specific.insert("permissionDecision".into(), json!("deny"));
                    specific.insert("permissionDecisionReason".into(), json!(reason));
                }
                Verdict::Ask => {
                    specific.insert("permissionDecision".into(), json!("ask"));
                    specific.insert("permissionDecisionReason".into(), json!(reason));
                }
                // Not blocked by policy is not approved: Claude Code's own permission rules
                // still apply, so no decision is given.
                Verdict::Allow => {}
            }
            if let (Some(params), false) = (&decision.params, stopped) {
                specific.insert("updatedInput".into(), params.clone());
            }
        }
        "PermissionRequest" => {
            if decision.decision == Verdict::Block {
                specific.insert(
                    "decision".into(),
                    json!({ "behavior": "deny", "message": reason }),
                );
            }
        }
        "PostToolUse" | "PostToolUseFailure" | "UserPromptSubmit" | "Stop" | "SubagentStop" => {
            if stopped {
                top.insert("decision".into(), json!("block"));
                top.insert("reason".into(), json!(reason));
            }
        }
        _ => {
            if stopped {
                top.insert("continue".into(), json!(false));
                top.insert("stopReason".into(), json!(reason));
            }
        }
    }
    if let Some(context) = context.filter(|_| !stopped) {
        specific.insert("additionalContext".into(), json!(context));
    }
    if specific.len() > 1 {
        top.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    Answer {
        stdout: (!top.is_empty()).then_some(Value::Object(top)),
        exit_code: 0,
        stderr: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_agents_get_sub_agent_points_and_keys() {
        let e = parse(br#"{"hook_event_name":"PreToolUse","session_id":"abc","agent_id":"a1","tool_name":"Bash","tool_input":{"command":"ls"}}"#).unwrap();
        assert_eq!(e.point, Point::SubagentToolPre);
        assert_eq!(e.context.session_key, "claude-code:abc:subagent:a1");
        assert!(e.context.is_sub_agent());
        assert_eq!(e.context.command_subject(), "ls");
        let e =
            parse(br#"{"hook_event_name":"UserPromptSubmit","session_id":"abc","prompt":"hi"}"#)
                .unwrap();
        assert_eq!(
            (e.point, e.context.prompt.as_deref()),
            (Point::TurnPre, Some("hi"))
        );
    }

    #[test]
    fn unknown_events_and_garbage_are_errors() {
        assert!(matches!(parse(b"[]"), Err(PayloadError::NotJson(_))));
        assert_eq!(
            parse(br#"{"hook_event_name":"Nope"}"#).unwrap_err(),
            PayloadError::UnknownEvent("Nope".into())
        );
        assert_eq!(
            super::super::Gateway::ClaudeCode
                .failure("PreToolUse", "x")
                .exit_code,
            2
        );
        assert_eq!(
            super::super::Gateway::ClaudeCode
                .failure("SessionEnd", "x")
                .exit_code,
            1
        );
    }
}
