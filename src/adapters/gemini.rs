//! Gemini CLI hooks (`settings.json`, 0.61.0): its hook JSON in, an event; a Decision out,
//! its answer. Checked against the real program (tests/gateways_real.rs).
//!
//! Session key: `gemini-cli:<session_id>`. Gemini CLI sends no sub-agent identity: a tool
//! call made by one of its sub-agents (`invoke_agent`) fires the same `BeforeTool` as the
//! main agent's and is evaluated at `turn:tool:pre`.
//!
//! Gemini CLI cannot ask a person from a hook: an `ask` becomes a deny saying where to
//! approve ([`AskAsDeny`]).

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
        gateway: "gemini-cli",
        session: non_empty(&fields, "session_id"),
        agent: None,
    };
    let cwd = absolute_dir(text(&fields, "cwd"));
    let point = match name.as_str() {
        "BeforeTool" => caller.tool_point(true),
        "AfterTool" => caller.tool_point(false),
        "BeforeAgent" => Point::TurnPre,
        "AfterAgent" => Point::TurnPost,
        "SessionStart" => Point::SessionStart,
        "SessionEnd" => Point::SessionEnd,
        "PreCompress" => Point::CompactionPre,
        "Notification" => Point::Notification,
        _ => return Err(PayloadError::UnknownEvent(name)),
    };
    let mut ctx = caller.context(point, fields.clone());
    ctx.cwd = cwd.clone();
    if let Some(tool) = text(&fields, "tool_name") {
        let args = match fields.get("tool_input") {
            Some(Value::Object(args)) => args.clone(),
            None | Some(Value::Null) => Map::new(),
            Some(_) => {
                return Err(PayloadError::Shape {
                    event: name,
                    problem: "has a `tool_input` that is not an object".into(),
                });
            }
        };
        let call =
            tools::canonical(tools::GEMINI, &tool, args, cwd.as_deref()).map_err(|problem| {
                PayloadError::Shape {
                    event: name.clone(),
                    problem,
                }
            })?;
        ctx.tool_name = Some(call.name);
        ctx.tool_args = Some(call.args);
        if call.cwd.is_some() {
            ctx.cwd = absolute_dir(call.cwd);
        }
    } else if matches!(name.as_str(), "BeforeTool" | "AfterTool") {
        return Err(PayloadError::Shape {
            event: name,
            problem: "has no `tool_name`".into(),
        });
    }
    ctx.prompt = text(&fields, "prompt");
    ctx.response = match name.as_str() {
        "AfterTool" => response_text(fields.get("tool_response")),
        "AfterAgent" => text(&fields, "prompt_response"),
        _ => None,
    };
    Ok(Event {
        name,
        point,
        context: ctx,
    })
}

/// Events a failure must stop: all but those that only report (exit 2 after a response
/// would make Gemini CLI retry the turn). An event this adapter does not know is stopped.
pub(crate) fn fails_closed(event: &str) -> bool {
    !matches!(
        event,
        "AfterTool"
            | "AfterAgent"
            | "SessionStart"
            | "SessionEnd"
            | "PreCompress"
            | "Notification"
            | "BeforeModel"
            | "AfterModel"
            | "BeforeToolSelection"
    )
}

/// The JSON that blocks `event`: `decision: deny` with the reason, which Gemini CLI sends to
/// the model as the tool's error (BeforeTool), as the tool's result (AfterTool), or as the
/// reason the prompt was refused (BeforeAgent).
pub(crate) fn deny_json(event: &str, reason: &str) -> Option<Value> {
    matches!(
        event,
        "BeforeTool" | "AfterTool" | "BeforeAgent" | "AfterAgent" | ""
    )
    .then(|| json!({ "decision": "deny", "reason": reason }))
}

/// Gemini CLI's answer for `decision` at `event`.
pub(crate) fn answer(event: &str, decision: &Decision, ask: &AskAsDeny) -> Answer {
    let stopped = decision.decision != Verdict::Allow;
    if stopped && let Some(json) = deny_json(event, &ask.stop_reason(decision)) {
        return Answer::json(json);
    }
    if event == "BeforeTool"
        && let Some(params) = &decision.params
    {
        // Gemini could merge `hookSpecificOutput.tool_input`, but the rewrite is of the
        // canonical arguments (`file_path`, not the tool's own spelling): refusing is the
        // answer that cannot run something other than what the policy checked.
        return Answer::json(
            json!({ "decision": "deny", "reason": rewrite_refused(Gateway::Gemini, params) }),
        );
    }
    let mut out = Map::new();
    if stopped {
        // Not a moment Gemini CLI lets a hook stop (a session start, a notification): the
        // user is told.
        out.insert("systemMessage".into(), json!(ask.stop_reason(decision)));
    }
    if let Some(context) = context_text(decision)
        .filter(|_| matches!(event, "BeforeAgent" | "AfterTool" | "SessionStart"))
    {
        out.insert(
            "hookSpecificOutput".into(),
            json!({ "hookEventName": event, "additionalContext": context }),
        );
    }
    Answer::json_or_nothing(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_real_payloads_read() {
        // Recorded from Gemini CLI 0.61.0 (BeforeTool), trimmed.
        let e = parse(br#"{"session_id":"c424","transcript_path":"/h/.gemini/tmp/p/chats/s.jsonl","cwd":"/tmp/gx/proj","hook_event_name":"BeforeTool","timestamp":"2026-11-25T13:04:20.190Z","tool_name":"run_shell_command","tool_input":{"command":"touch /tmp/gx/marker","description":"x"}}"#).unwrap();
        assert_eq!(e.point, Point::TurnToolPre);
        assert_eq!(e.context.session_key, "gemini-cli:c424");
        assert_eq!(e.context.tool_name.as_deref(), Some("Bash"));
        assert_eq!(e.context.command_subject(), "touch /tmp/gx/marker");
        assert_eq!(e.context.cwd.as_deref(), Some("/tmp/gx/proj"));
        let e = parse(
            br#"{"session_id":"c","cwd":"/p","hook_event_name":"BeforeAgent","prompt":"hi"}"#,
        )
        .unwrap();
        assert_eq!(
            (e.point, e.context.prompt.as_deref()),
            (Point::TurnPre, Some("hi"))
        );
        assert!(matches!(
            parse(br#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{}}"#),
            Err(PayloadError::Shape { .. })
        ));
        assert!(matches!(
            parse(br#"{"hook_event_name":"BeforeModel"}"#),
            Err(PayloadError::UnknownEvent(_))
        ));
    }
}
