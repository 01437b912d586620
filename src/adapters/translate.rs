//! What every command-hook gateway shares: the payload read as a JSON object, the event it
//! becomes (a point and a context with `cwd`, `workspace` and the sub-agent's identity), and
//! the answer a hook command gives (stdout JSON, an exit code, stderr).

use serde_json::{Map, Value};

use crate::context::{HookContext, dir_problem};
use crate::point::Point;

/// A gateway's answer to one hook event.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Answer {
    /// The JSON to print on stdout (or return over HTTP), if any.
    pub stdout: Option<Value>,
    /// The exit code: 0, or 2 to block with `stderr` as the reason.
    pub exit_code: u8,
    /// Shown to the model (exit 2) or the user.
    pub stderr: Option<String>,
}

impl Answer {
    /// Exit 0 with `json` on stdout.
    pub(crate) fn json(json: Value) -> Answer {
        Answer {
            stdout: Some(json),
            exit_code: 0,
            stderr: None,
        }
    }

    /// Exit 0 with `json` on stdout, or nothing when it is an empty object (so the gateway's
    /// own rules apply).
    pub(crate) fn json_or_nothing(json: Map<String, Value>) -> Answer {
        Answer {
            stdout: (!json.is_empty()).then_some(Value::Object(json)),
            exit_code: 0,
            stderr: None,
        }
    }
}

/// Why a payload could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum PayloadError {
    /// Not a JSON object.
    #[error("the hook input is not a JSON object: {0}")]
    NotJson(String),
    /// The event name is missing or not one this adapter maps.
    #[error("unknown or missing hook event `{0}`")]
    UnknownEvent(String),
    /// A field the event needs is missing or of the wrong type.
    #[error("the `{event}` hook input {problem}")]
    Shape {
        /// The event.
        event: String,
        /// What is wrong, e.g. "has no `command` string".
        problem: String,
    },
}

/// A parsed hook event.
#[derive(Debug, Clone)]
pub(crate) struct Event {
    /// The gateway's own event name (`PreToolUse`, `BeforeTool`, `beforeShellExecution`).
    pub name: String,
    /// Where it is evaluated.
    pub point: Point,
    /// What it is evaluated with.
    pub context: HookContext,
}

/// The payload as a JSON object, with duplicate keys refused (a second `command` must not
/// hide the first from the gate while the gateway runs it).
pub(crate) fn read_object(payload: &[u8]) -> Result<Map<String, Value>, PayloadError> {
    crate::json_keys::check(payload).map_err(|e| PayloadError::NotJson(e.to_string()))?;
    let value: Value =
        serde_json::from_slice(payload).map_err(|e| PayloadError::NotJson(e.to_string()))?;
    match value {
        Value::Object(fields) => Ok(fields),
        _ => Err(PayloadError::NotJson("expected an object".to_owned())),
    }
}

/// The string field `key`, if it is one.
pub(crate) fn text(fields: &Map<String, Value>, key: &str) -> Option<String> {
    fields.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The string field `key`, non-empty.
pub(crate) fn non_empty(fields: &Map<String, Value>, key: &str) -> Option<String> {
    text(fields, key).filter(|s| !s.is_empty())
}

/// The event name at `key`, if the payload can be read at all ("" otherwise, which fails
/// closed).
pub(crate) fn event_name_at(payload: &[u8], key: &str) -> String {
    serde_json::from_slice::<Value>(payload)
        .ok()
        .and_then(|v| v.get(key).and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_default()
}

/// A directory the gateway reported, kept only when it is absolute: a relative one would
/// resolve against wherever the gate happens to run.
pub(crate) fn absolute_dir(dir: Option<String>) -> Option<String> {
    dir.filter(|d| dir_problem(d).is_none())
}

/// `path` made absolute against `cwd` when it is relative and `cwd` is known; as it is
/// otherwise. File tools of several gateways take paths relative to the project.
pub(crate) fn against(cwd: Option<&str>, path: &str) -> String {
    match cwd {
        Some(cwd) if !path.starts_with('/') && !path.starts_with('~') && !path.is_empty() => {
            format!("{}/{}", cwd.trim_end_matches('/'), path)
        }
        _ => path.to_owned(),
    }
}

/// Who is calling: the gateway, its session, and the sub-agent inside it, if any.
#[derive(Debug, Clone)]
pub(crate) struct Caller<'a> {
    /// The session key's prefix (`codex`, `gemini-cli`, ...).
    pub gateway: &'a str,
    /// The gateway's session id (`unknown` when it gives none: the key must not be empty).
    pub session: Option<String>,
    /// The sub-agent's id, when the call comes from one.
    pub agent: Option<String>,
}

impl Caller<'_> {
    /// `<gateway>:<session>`, or `<gateway>:<session>:subagent:<agent>` inside a sub-agent,
    /// so `isSubAgent` and `sessionPattern` work as for OpenClaw and Claude Code keys.
    pub(crate) fn session_key(&self) -> String {
        let session = self.session.as_deref().unwrap_or("unknown");
        match &self.agent {
            Some(agent) => format!("{}:{session}:subagent:{agent}", self.gateway),
            None => format!("{}:{session}", self.gateway),
        }
    }

    /// The tool point for a call before (`pre`) or after it runs, the sub-agent's when the
    /// call comes from one.
    pub(crate) fn tool_point(&self, pre: bool) -> Point {
        match (pre, self.agent.is_some()) {
            (true, false) => Point::TurnToolPre,
            (true, true) => Point::SubagentToolPre,
            (false, false) => Point::TurnToolPost,
            (false, true) => Point::SubagentToolPost,
        }
    }

    /// A context for this caller at `point`, with the gateway's raw payload kept.
    pub(crate) fn context(&self, point: Point, raw: Map<String, Value>) -> HookContext {
        let mut ctx = HookContext::new(self.session_key());
        ctx.point = Some(point);
        ctx.raw = Some(Value::Object(raw));
        ctx
    }
}

/// The text of a tool's response for post points: a string as it is, anything else as JSON.
pub(crate) fn response_text(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_points_and_paths() {
        let main = Caller {
            gateway: "codex",
            session: Some("s1".into()),
            agent: None,
        };
        assert_eq!(main.session_key(), "codex:s1");
        assert_eq!(main.tool_point(true), Point::TurnToolPre);
        let sub = Caller {
            agent: Some("a7".into()),
            ..main.clone()
        };
        assert_eq!(sub.session_key(), "codex:s1:subagent:a7");
        assert_eq!(sub.tool_point(false), Point::SubagentToolPost);
        assert_eq!(against(Some("/w/p/"), "src/a.rs"), "/w/p/src/a.rs");
        assert_eq!(against(Some("/w/p"), "/etc/passwd"), "/etc/passwd");
        assert_eq!(against(None, "a.rs"), "a.rs");
        assert_eq!(absolute_dir(Some("rel".into())), None);
        assert!(matches!(
            read_object(br#"{"a":1,"a":2}"#),
            Err(PayloadError::NotJson(_))
        ));
    }
}
