//! Codex CLI hooks (`hooks.json` or `[hooks]` in `config.toml`, 0.169.0): its hook JSON in,
//! an event; a Decision out, its answer. Checked against the real program
//! (tests/gateways_real.rs).
//!
//! Session key: `codex:<session_id>`, and `codex:<session_id>:subagent:<agent_id>` inside a
//! sub-agent (Codex sends `agent_id`/`agent_type` as Claude Code does).
//!
//! Sharp edges, from the real program: Codex validates a hook's JSON strictly and treats
//! `permissionDecision: "ask"`, `continue: false` or any unknown field as a *failed hook*,
//! and then runs the tool. So this adapter answers only with the fields Codex accepts, an
//! `ask` becomes a deny that says where to approve ([`AskAsDeny`]), and a rewrite (which
//! Codex cannot apply) a deny.

use serde_json::{Map, Value, json};

use super::gateway::{AskAsDeny, Gateway, context_text, rewrite_refused};
use super::tools;
use super::translate::{
    Answer, Caller, Event, PayloadError, absolute_dir, non_empty, read_object, response_text, text,
};
use crate::decision::{Decision, Verdict};
use crate::point::Point;

/// Reads a hook payload.
pub(crate) fn parse(payload: &[u8]) -> Result<Event, PayloadError> {
    let fields = read_object(payload)?;
    let name = text(&fields, "hook_event_name").unwrap_or_default();
    let caller = Caller {
        gateway: "codex",
        session: non_empty(&fields, "session_id"),
        agent: non_empty(&fields, "agent_id"),
    };
    let point = match name.as_str() {
        "PreToolUse" => caller.tool_point(true),
        "PostToolUse" => caller.tool_point(false),
        "PermissionRequest" => Point::PermissionRequest,
        "UserPromptSubmit" => Point::TurnPre,
        "Stop" => Point::TurnPost,
        "SessionStart" => Point::SessionStart,
        "SessionEnd" => Point::SessionEnd,
        "SubagentStart" => Point::SubagentSpawnPre,
        "SubagentStop" => Point::SubagentPost,
        "PreCompact" => Point::CompactionPre,
        "PostCompact" => Point::CompactionPost,
        _ => return Err(PayloadError::UnknownEvent(name)),
    };
    let cwd = absolute_dir(text(&fields, "cwd"));
    let mut ctx = caller.context(point, fields.clone());
    ctx.cwd = cwd.clone();
    if let Some(tool) = text(&fields, "tool_name") {
        let args = match fields.get("tool_input") {
            Some(Value::Object(args)) => args.clone(),
            None | Some(Value::Null) => Map::new(),
            Some(other) => Map::from_iter([("input".to_owned(), other.clone())]),
        };
        let call =
            tools::canonical(tools::CODEX, &tool, args, cwd.as_deref()).map_err(|problem| {
                PayloadError::Shape {
                    event: name.clone(),
                    problem,
                }
            })?;
        ctx.tool_name = Some(call.name);
        ctx.tool_args = Some(call.args);
    } else if matches!(name.as_str(), "PreToolUse" | "PermissionRequest") {
        return Err(PayloadError::Shape {
            event: name,
            problem: "has no `tool_name`".into(),
        });
    }
    ctx.prompt = text(&fields, "prompt");
    ctx.response = response_text(fields.get("tool_response"))
        .or_else(|| text(&fields, "last_assistant_message"));
    ctx.subagent_label = text(&fields, "agent_type");
    Ok(Event {
        name,
        point,
        context: ctx,
    })
}

/// Events a failure must stop: all but those that only report. An event this adapter does
/// not know is stopped.
pub(crate) fn fails_closed(event: &str) -> bool {
    !matches!(
        event,
        "PostToolUse"
            | "Stop"
            | "SessionStart"
            | "SessionEnd"
            | "SubagentStart"
            | "SubagentStop"
            | "PreCompact"
            | "PostCompact"
    )
}

/// The JSON that blocks `event`, in the fields Codex accepts for it.
pub(crate) fn deny_json(event: &str, reason: &str) -> Option<Value> {
    match event {
        "PreToolUse" | "" => Some(json!({ "hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": reason } })),
        "PermissionRequest" => Some(json!({ "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": { "behavior": "deny", "message": reason } } })),
        "PostToolUse" | "UserPromptSubmit" | "Stop" => {
            Some(json!({ "decision": "block", "reason": reason }))
        }
        _ => None,
    }
}

/// Codex's answer for `decision` at `event`.
pub(crate) fn answer(event: &str, decision: &Decision, ask: &AskAsDeny) -> Answer {
    match (event, decision.decision) {
        // A permission request is Codex's own prompt: an `ask` leaves it to the person there.
        ("PermissionRequest", Verdict::Ask) => return Answer::json_or_nothing(Map::new()),
        (_, Verdict::Block | Verdict::Ask) => {
            let reason = ask.stop_reason(decision);
            return match deny_json(event, &reason) {
                Some(json) => Answer::json(json),
                // No JSON form stops this event (a session start, a sub-agent start): exit 2
                // is Codex's blocking exit for every event.
                None => Answer {
                    stdout: None,
                    exit_code: 2,
                    stderr: Some(reason),
                },
            };
        }
        (_, Verdict::Allow) => {}
    }
    if event == "PreToolUse"
        && let Some(params) = &decision.params
    {
        return Answer::json(
            deny_json(event, &rewrite_refused(Gateway::Codex, params)).unwrap_or_default(),
        );
    }
    // Not blocked by policy is not approved: no `allow`, so Codex's own rules still apply.
    match context_text(decision) {
        Some(context)
            if matches!(
                event,
                "PreToolUse"
                    | "PostToolUse"
                    | "UserPromptSubmit"
                    | "SessionStart"
                    | "SubagentStart"
            ) =>
        {
            Answer::json(json!({ "hookSpecificOutput": {
                "hookEventName": event, "additionalContext": context } }))
        }
        _ => Answer::json_or_nothing(Map::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_real_payloads_read() {
        // Recorded from Codex 0.169.0 (PreToolUse), trimmed.
        let e = parse(br#"{"session_id":"01a2","turn_id":"t","transcript_path":"/h/s.jsonl","cwd":"/tmp/cx/proj","hook_event_name":"PreToolUse","model":"m","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"touch /tmp/cx/marker"},"tool_use_id":"call_1"}"#).unwrap();
        assert_eq!(e.point, Point::TurnToolPre);
        assert_eq!(e.context.session_key, "codex:01a2");
        assert_eq!(e.context.command_subject(), "touch /tmp/cx/marker");
        let e = parse(br#"{"session_id":"s","agent_id":"a1","agent_type":"worker","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#).unwrap();
        assert_eq!(e.point, Point::SubagentToolPre);
        assert_eq!(e.context.session_key, "codex:s:subagent:a1");
        assert_eq!(e.context.subagent_label.as_deref(), Some("worker"));
    }
}
