//! opencode: its plugin API has no hook command, so `examples/opencode-plugin/hookgate.js`
//! (a plugin) runs `hookgate hook --gateway opencode` from `tool.execute.before`,
//! `tool.execute.after` and `chat.message`, with this payload:
//!
//! ```json
//! {"event": "tool.execute.before", "sessionID": "ses_2", "parentSessionID": "ses_1",
//!  "agent": "general", "tool": "bash", "args": {"command": "ls"},
//!  "directory": "/w/app", "worktree": "/w/app"}
//! ```
//!
//! and reads `{"decision": "allow" | "block", "reason": "..."}`: the plugin throws the reason
//! to stop the tool (opencode gives the model the error). A session with a parent is a
//! sub-agent's (opencode's `task` tool): session key `opencode:<parent>:subagent:<session>`.
//! opencode 1.18.33 does not name the agent in `tool.execute.before`; the plugin sends the one
//! `chat.message` named for the session. Outside a git repository `worktree` is `/`, and
//! `directory` is the workspace (both seen from the real program, tests/gateways_real.rs).
//! The plugin cannot ask a person from `tool.execute.before`, so an `ask` becomes a block
//! saying where to approve.

use serde_json::{Map, Value, json};

use super::gateway::{AskAsDeny, Gateway, context_text, rewrite_refused};
use super::tools;
use super::translate::{
    Answer, Caller, Event, PayloadError, absolute_dir, non_empty, read_object, response_text, text,
};
use crate::decision::{Decision, Verdict};
use crate::point::Point;

/// Reads a payload from the plugin.
pub(crate) fn parse(payload: &[u8]) -> Result<Event, PayloadError> {
    let fields = read_object(payload)?;
    let name = text(&fields, "event").unwrap_or_default();
    let session = non_empty(&fields, "sessionID");
    let parent = non_empty(&fields, "parentSessionID");
    let caller = match parent {
        Some(parent) => Caller {
            gateway: "opencode",
            session: Some(parent),
            agent: session,
        },
        None => Caller {
            gateway: "opencode",
            session,
            agent: None,
        },
    };
    let point = match name.as_str() {
        "tool.execute.before" => caller.tool_point(true),
        "tool.execute.after" => caller.tool_point(false),
        "chat.message" => Point::TurnPre,
        "session.created" => Point::SessionStart,
        "session.idle" => Point::TurnPost,
        _ => return Err(PayloadError::UnknownEvent(name)),
    };
    let workspace = absolute_dir(text(&fields, "worktree"))
        .filter(|w| w != "/")
        .or_else(|| absolute_dir(text(&fields, "directory")));
    let cwd = absolute_dir(text(&fields, "directory")).or_else(|| workspace.clone());
    let mut ctx = caller.context(point, fields.clone());
    ctx.cwd = cwd.clone();
    ctx.workspace = workspace;
    ctx.subagent_label = text(&fields, "agent").filter(|_| ctx.is_sub_agent());
    if let Some(tool) = text(&fields, "tool") {
        let args = match fields.get("args") {
            Some(Value::Object(args)) => args.clone(),
            None | Some(Value::Null) => Map::new(),
            Some(_) => {
                return Err(PayloadError::Shape {
                    event: name,
                    problem: "has `args` that are not an object".into(),
                });
            }
        };
        let call =
            tools::canonical(tools::OPENCODE, &tool, args, cwd.as_deref()).map_err(|problem| {
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
    } else if name == "tool.execute.before" {
        return Err(PayloadError::Shape {
            event: name,
            problem: "has no `tool`".into(),
        });
    }
    ctx.prompt = text(&fields, "prompt");
    ctx.response = response_text(fields.get("output"));
    Ok(Event {
        name,
        point,
        context: ctx,
    })
}

/// Events a failure must stop: all but those that only report.
pub(crate) fn fails_closed(event: &str) -> bool {
    !matches!(
        event,
        "tool.execute.after" | "session.created" | "session.idle"
    )
}

/// The JSON that blocks `event` (the plugin throws `reason`).
pub(crate) fn deny_json(event: &str, reason: &str) -> Option<Value> {
    matches!(event, "tool.execute.before" | "chat.message" | "")
        .then(|| json!({ "decision": "block", "reason": reason }))
}

/// The plugin's answer for `decision` at `event`.
pub(crate) fn answer(event: &str, decision: &Decision, ask: &AskAsDeny) -> Answer {
    if decision.decision != Verdict::Allow
        && let Some(json) = deny_json(event, &ask.stop_reason(decision))
    {
        return Answer::json(json);
    }
    if event == "tool.execute.before"
        && let Some(params) = &decision.params
    {
        let reason = rewrite_refused(Gateway::Opencode, params);
        return Answer::json(deny_json(event, &reason).unwrap_or_default());
    }
    let mut out = Map::new();
    out.insert("decision".into(), json!("allow"));
    if let Some(context) = context_text(decision) {
        out.insert("context".into(), json!(context));
    }
    Answer::json(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_payloads_read() {
        let e = parse(br#"{"event":"tool.execute.before","sessionID":"ses_2","parentSessionID":"ses_1","agent":"general","tool":"bash","args":{"command":"ls","workdir":"web"},"directory":"/w/app","worktree":"/w/app"}"#).unwrap();
        assert_eq!(e.point, Point::SubagentToolPre);
        assert_eq!(e.context.session_key, "opencode:ses_1:subagent:ses_2");
        assert_eq!(e.context.cwd.as_deref(), Some("/w/app/web"));
        assert_eq!(e.context.workspace.as_deref(), Some("/w/app"));
        let e = parse(br#"{"event":"tool.execute.before","sessionID":"s","tool":"read","args":{"filePath":"/home/u/.ssh/id_rsa"},"directory":"/w"}"#).unwrap();
        assert_eq!(e.context.tool_name.as_deref(), Some("Read"));
        assert_eq!(
            e.context.tool_args.unwrap()["file_path"],
            "/home/u/.ssh/id_rsa"
        );
    }
}
