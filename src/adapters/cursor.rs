//! Cursor hooks (`~/.cursor/hooks.json` or `<project>/.cursor/hooks.json`, version 1): the
//! documented payloads in, an event; a Decision out, the answer shape of that event.
//!
//! Cursor is not in a package registry, so this adapter is checked against the payloads of
//! its documentation (tests/fixtures/cursor/), not against the program.
//!
//! Each event has its own answer shape: `beforeShellExecution` and `beforeMCPExecution`
//! answer `permission: allow|deny|ask` with `user_message` and `agent_message`;
//! `beforeReadFile` answers `permission: allow|deny` only (so an `ask` becomes a deny saying
//! where to approve); `beforeSubmitPrompt` answers `continue`; the `after*` events and `stop`
//! cannot stop anything. Session key: `cursor:<conversation_id>`; Cursor sends no sub-agent
//! identity. `workspace_roots[0]` is the context's workspace, and the shell command's `cwd`
//! its cwd (the workspace root for the other events).

use serde_json::{Map, Value, json};

use super::gateway::{AskAsDeny, Gateway, block_reason, rewrite_refused};
use super::tools;
use super::translate::{
    Answer, Caller, Event, PayloadError, absolute_dir, non_empty, read_object, text,
};
use crate::decision::{Decision, Verdict};
use crate::point::Point;

/// A tool name and its arguments.
type Call = (String, Map<String, Value>);

/// Reads a hook payload.
pub(crate) fn parse(payload: &[u8]) -> Result<Event, PayloadError> {
    let fields = read_object(payload)?;
    let name = text(&fields, "hook_event_name").unwrap_or_default();
    let caller = Caller {
        gateway: "cursor",
        session: non_empty(&fields, "conversation_id"),
        agent: None,
    };
    let workspace = absolute_dir(
        fields
            .get("workspace_roots")
            .and_then(Value::as_array)
            .and_then(|roots| roots.first())
            .and_then(Value::as_str)
            .map(str::to_owned),
    );
    let cwd = absolute_dir(text(&fields, "cwd")).or_else(|| workspace.clone());
    let shape = |problem: &str| PayloadError::Shape {
        event: name.clone(),
        problem: problem.to_owned(),
    };
    // (point, tool and its arguments): Cursor names the tool by the event.
    let (point, tool): (Point, Option<Call>) = match name.as_str() {
        "beforeShellExecution" | "afterShellExecution" => {
            let command = text(&fields, "command").ok_or_else(|| shape("has no `command`"))?;
            let args = Map::from_iter([("command".to_owned(), Value::String(command))]);
            let pre = name == "beforeShellExecution";
            (
                caller.tool_point(pre),
                Some((tools::SHELL.to_owned(), args)),
            )
        }
        "beforeReadFile" => {
            let path = text(&fields, "file_path").ok_or_else(|| shape("has no `file_path`"))?;
            let args = Map::from_iter([("file_path".to_owned(), Value::String(path))]);
            (
                caller.tool_point(true),
                Some((tools::READ.to_owned(), args)),
            )
        }
        "afterFileEdit" => {
            let path = text(&fields, "file_path").ok_or_else(|| shape("has no `file_path`"))?;
            let mut args = Map::from_iter([("file_path".to_owned(), Value::String(path))]);
            if let Some(edits) = fields.get("edits") {
                args.insert("edits".into(), edits.clone());
            }
            (
                caller.tool_point(false),
                Some((tools::EDIT.to_owned(), args)),
            )
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            let tool = text(&fields, "tool_name").ok_or_else(|| shape("has no `tool_name`"))?;
            // `tool_input` is a JSON string in some Cursor versions and an object in others.
            let args = match fields.get("tool_input") {
                Some(Value::Object(args)) => args.clone(),
                Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
                    Ok(Value::Object(args)) => args,
                    _ => Map::from_iter([("input".to_owned(), Value::String(s.clone()))]),
                },
                _ => Map::new(),
            };
            let pre = name == "beforeMCPExecution";
            (caller.tool_point(pre), Some((tool, args)))
        }
        "beforeSubmitPrompt" => (Point::TurnPre, None),
        "afterAgentResponse" | "stop" => (Point::TurnPost, None),
        _ => return Err(PayloadError::UnknownEvent(name)),
    };
    let mut ctx = caller.context(point, fields.clone());
    ctx.cwd = cwd.clone();
    ctx.workspace = workspace;
    if let Some((tool, args)) = tool {
        let call = tools::canonical(tools::CURSOR, &tool, args, cwd.as_deref())
            .map_err(|problem| shape(&problem))?;
        ctx.tool_name = Some(call.name);
        ctx.tool_args = Some(call.args);
    }
    ctx.prompt = text(&fields, "prompt");
    ctx.response = text(&fields, "output")
        .or_else(|| text(&fields, "result_json"))
        .or_else(|| text(&fields, "text"));
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
        "afterShellExecution"
            | "afterMCPExecution"
            | "afterFileEdit"
            | "afterAgentResponse"
            | "afterAgentThought"
            | "stop"
    )
}

/// The JSON that blocks `event`.
pub(crate) fn deny_json(event: &str, reason: &str) -> Option<Value> {
    match event {
        "beforeShellExecution" | "beforeMCPExecution" | "" => Some(json!({
            "permission": "deny", "user_message": reason, "agent_message": reason })),
        "beforeReadFile" => Some(json!({ "permission": "deny" })),
        "beforeSubmitPrompt" => Some(json!({ "continue": false, "user_message": reason })),
        _ => None,
    }
}

/// Cursor's answer for `decision` at `event`.
pub(crate) fn answer(event: &str, decision: &Decision, ask: &AskAsDeny) -> Answer {
    let can_ask = matches!(event, "beforeShellExecution" | "beforeMCPExecution");
    match decision.decision {
        Verdict::Ask if can_ask => {
            let reason = block_reason(decision);
            return Answer::json(json!({
                "permission": "ask", "user_message": reason, "agent_message": reason }));
        }
        Verdict::Block | Verdict::Ask => {
            let reason = ask.stop_reason(decision);
            if let Some(json) = deny_json(event, &reason) {
                return Answer::json(json);
            }
        }
        Verdict::Allow => {}
    }
    if fails_closed(event)
        && let Some(params) = &decision.params
    {
        let reason = rewrite_refused(Gateway::Cursor, params);
        return Answer::json(deny_json(event, &reason).unwrap_or_default());
    }
    // Not blocked by policy is not approved: no `permission: allow`, so Cursor's own rules
    // (its allow list, its prompt) still apply.
    Answer::json(json!({}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_payloads_read() {
        let e = parse(br#"{"hook_event_name":"beforeShellExecution","conversation_id":"c1","generation_id":"g","workspace_roots":["/w/app"],"command":"rm -rf build","cwd":"/w/app/web"}"#).unwrap();
        assert_eq!(e.point, Point::TurnToolPre);
        assert_eq!(e.context.tool_name.as_deref(), Some("Bash"));
        assert_eq!(e.context.cwd.as_deref(), Some("/w/app/web"));
        assert_eq!(e.context.workspace.as_deref(), Some("/w/app"));
        let e = parse(br#"{"hook_event_name":"beforeMCPExecution","conversation_id":"c1","workspace_roots":["/w"],"tool_name":"db","tool_input":"{\"query\":\"DROP TABLE x\"}"}"#).unwrap();
        assert_eq!(e.context.tool_args.unwrap()["query"], "DROP TABLE x");
        let e = parse(br#"{"hook_event_name":"beforeReadFile","conversation_id":"c1","workspace_roots":["/w"],"file_path":"notes.txt","content":"x"}"#).unwrap();
        assert_eq!(e.context.tool_args.unwrap()["file_path"], "/w/notes.txt");
    }
}
