//! GitHub Copilot CLI hooks (`.github/hooks/*.json`, version 1): its hook JSON in, an event;
//! a Decision out, its answer.
//!
//! Copilot CLI's payload does not name its event, so the hook command names it:
//! `hookgate hook --gateway copilot --event preToolUse` (the route takes `?event=`); a
//! payload that names one (`hook_event_name` or `hookEventName`) wins. `toolArgs` is a JSON
//! string in the documentation and an object from Copilot CLI 1.0.102: both are read.
//! `preToolUse` answers `permissionDecision: allow|deny|ask` with
//! `permissionDecisionReason`. Session key: `copilot:<sessionId>` when Copilot sends one; in
//! a sub-agent, `copilot:<parentAgentId>:subagent:<agentId>`.

use serde_json::{Map, Value, json};

use super::gateway::{AskAsDeny, Gateway, block_reason, context_text, rewrite_refused};
use super::tools;
use super::translate::{
    Answer, Caller, Event, PayloadError, absolute_dir, non_empty, read_object, response_text, text,
};
use crate::decision::{Decision, Verdict};
use crate::point::Point;

/// Reads a hook payload; `given` is the event name from the command line.
pub(crate) fn parse(payload: &[u8], given: Option<&str>) -> Result<Event, PayloadError> {
    let fields = read_object(payload)?;
    let name = non_empty(&fields, "hook_event_name")
        .or_else(|| non_empty(&fields, "hookEventName"))
        .or_else(|| given.map(str::to_owned))
        .unwrap_or_default();
    let agent = non_empty(&fields, "agentId").or_else(|| non_empty(&fields, "agent_id"));
    // Inside a sub-agent (its `task` tool) Copilot CLI 1.0.102 sends the sub-agent's own id
    // as `sessionId` too, and the session that started it as `parentAgentId`: the key is
    // the parent's, so it reads `copilot:<parent>:subagent:<agentId>` as for every gateway.
    let parent = non_empty(&fields, "parentAgentId")
        .or_else(|| non_empty(&fields, "parent_agent_id"))
        .filter(|_| agent.is_some());
    let caller = Caller {
        gateway: "copilot",
        session: parent.or_else(|| {
            non_empty(&fields, "sessionId").or_else(|| non_empty(&fields, "session_id"))
        }),
        agent,
    };
    let point = match name.as_str() {
        "preToolUse" => caller.tool_point(true),
        "postToolUse" => caller.tool_point(false),
        "userPromptSubmitted" => Point::TurnPre,
        "agentStop" => Point::TurnPost,
        "subagentStart" => Point::SubagentSpawnPre,
        "subagentStop" => Point::SubagentPost,
        "sessionStart" => Point::SessionStart,
        "sessionEnd" => Point::SessionEnd,
        "errorOccurred" => Point::AgentError,
        "notification" => Point::Notification,
        _ => return Err(PayloadError::UnknownEvent(name)),
    };
    let cwd = absolute_dir(text(&fields, "cwd"));
    let shape = |problem: String| PayloadError::Shape {
        event: name.clone(),
        problem,
    };
    let mut ctx = caller.context(point, fields.clone());
    ctx.cwd = cwd.clone();
    if let Some(tool) = text(&fields, "toolName") {
        let args = match fields.get("toolArgs") {
            Some(Value::Object(args)) => args.clone(),
            Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
                Ok(Value::Object(args)) => args,
                _ => return Err(shape("has a `toolArgs` that is not a JSON object".into())),
            },
            None | Some(Value::Null) => Map::new(),
            Some(_) => return Err(shape("has a `toolArgs` that is not a JSON object".into())),
        };
        let call = tools::canonical(tools::COPILOT, &tool, args, cwd.as_deref()).map_err(shape)?;
        ctx.tool_name = Some(call.name);
        ctx.tool_args = Some(call.args);
    } else if name == "preToolUse" {
        return Err(shape("has no `toolName`".into()));
    }
    // The sub-agent's name (`subagentStart` and `subagentStop` carry it), for `match.subagent`.
    ctx.subagent_label =
        non_empty(&fields, "agentName").or_else(|| non_empty(&fields, "agentType"));
    ctx.prompt = text(&fields, "prompt");
    ctx.response = fields
        .get("toolResult")
        .and_then(|r| r.get("textResultForLlm"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| response_text(fields.get("error")));
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
        "postToolUse"
            | "userPromptSubmitted"
            | "agentStop"
            | "subagentStart"
            | "subagentStop"
            | "sessionStart"
            | "sessionEnd"
            | "errorOccurred"
            | "notification"
    )
}

/// The JSON that blocks `event`.
pub(crate) fn deny_json(event: &str, reason: &str) -> Option<Value> {
    matches!(event, "preToolUse" | "")
        .then(|| json!({ "permissionDecision": "deny", "permissionDecisionReason": reason }))
}

/// Copilot CLI's answer for `decision` at `event`.
pub(crate) fn answer(event: &str, decision: &Decision, ask: &AskAsDeny) -> Answer {
    match (event, decision.decision) {
        ("preToolUse", Verdict::Ask) => {
            return Answer::json(json!({
                "permissionDecision": "ask",
                "permissionDecisionReason": block_reason(decision) }));
        }
        ("preToolUse", Verdict::Block) => {
            return Answer::json(deny_json(event, &ask.stop_reason(decision)).unwrap_or_default());
        }
        ("agentStop" | "subagentStop", Verdict::Block | Verdict::Ask) => {
            return Answer::json(json!({ "decision": "block", "reason": block_reason(decision) }));
        }
        _ => {}
    }
    if event == "preToolUse"
        && let Some(params) = &decision.params
    {
        let reason = rewrite_refused(Gateway::Copilot, params);
        return Answer::json(deny_json(event, &reason).unwrap_or_default());
    }
    match context_text(decision) {
        Some(context)
            if matches!(
                event,
                "sessionStart" | "subagentStart" | "userPromptSubmitted" | "postToolUse"
            ) =>
        {
            Answer::json(json!({ "additionalContext": context }))
        }
        _ => Answer::json_or_nothing(Map::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_payloads_read() {
        let e = parse(
            br#"{"timestamp":1704614600000,"cwd":"/w/app","toolName":"bash","toolArgs":"{\"command\":\"rm -rf dist\",\"description\":\"Clean\"}"}"#,
            Some("preToolUse"),
        )
        .unwrap();
        assert_eq!(e.point, Point::TurnToolPre);
        assert_eq!(e.context.tool_name.as_deref(), Some("Bash"));
        assert_eq!(e.context.command_subject(), "rm -rf dist");
        assert_eq!(e.context.session_key, "copilot:unknown");
        assert!(matches!(
            parse(
                br#"{"toolName":"bash","toolArgs":"[1]"}"#,
                Some("preToolUse")
            ),
            Err(PayloadError::Shape { .. })
        ));
        assert!(matches!(
            parse(br#"{"toolName":"bash"}"#, None),
            Err(PayloadError::UnknownEvent(_))
        ));
    }

    /// Payloads Copilot CLI 1.0.102 sent hookgate in tests/gateways_real.rs: `toolArgs` is
    /// an object, and a sub-agent's call names itself as `sessionId`.
    #[test]
    fn real_payloads_read() {
        let e = parse(
            br#"{"sessionId":"f295","timestamp":1795805827803,"cwd":"/w/app","toolName":"bash","toolArgs":{"command":"touch m1","description":"as asked"}}"#,
            Some("preToolUse"),
        )
        .unwrap();
        assert_eq!(e.point, Point::TurnToolPre);
        assert_eq!(e.context.session_key, "copilot:f295");
        assert_eq!(e.context.command_subject(), "touch m1");
        let e = parse(
            br#"{"sessionId":"725d","timestamp":1795805828235,"cwd":"/w/app","toolName":"bash","toolArgs":{"command":"touch m1","description":"as asked"},"agentId":"725d","agentType":"task","parentAgentId":"f295"}"#,
            Some("preToolUse"),
        )
        .unwrap();
        assert_eq!(e.point, Point::SubagentToolPre);
        assert_eq!(e.context.session_key, "copilot:f295:subagent:725d");
        let e = parse(
            br#"{"sessionId":"f295","cwd":"/w/app","agentId":"725d","agentType":"task","agentName":"task","response":"done","stopReason":"end_turn","stop_hook_active":false,"parentAgentId":"f295"}"#,
            Some("subagentStop"),
        )
        .unwrap();
        assert_eq!(e.point, Point::SubagentPost);
        assert_eq!(e.context.session_key, "copilot:f295:subagent:725d");
        assert_eq!(e.context.subagent_label.as_deref(), Some("task"));
    }

    #[test]
    fn a_sub_agent_start_is_keyed_as_the_sub_agent() {
        // As Copilot CLI 1.0.102 sent it (the documented SubagentStartHookInput has only the
        // name; the real one also names the sub-agent and its parent).
        let e = parse(
            br#"{"sessionId":"5e55","timestamp":1795834064502,"cwd":"/w/app","transcriptPath":"/h/.copilot/session-state/5e55/events.jsonl","agentName":"task","agentId":"5348","agentType":"task","parentAgentId":"5e55"}"#,
            Some("subagentStart"),
        )
        .unwrap();
        assert_eq!(e.point, Point::SubagentSpawnPre);
        assert_eq!(e.context.session_key, "copilot:5e55:subagent:5348");
        assert_eq!(e.context.subagent_label.as_deref(), Some("task"));
        // As documented: the parent's session only.
        let e = parse(
            br#"{"sessionId":"5e55","timestamp":1,"cwd":"/w/app","agentName":"task"}"#,
            Some("subagentStart"),
        )
        .unwrap();
        assert_eq!(e.context.session_key, "copilot:5e55");
        // Copilot reads only `additionalContext` from its answer: nothing to refuse.
        assert!(!fails_closed("subagentStart"));
    }
}
