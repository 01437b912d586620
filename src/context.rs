//! The input of an evaluation: what the gateway knows about the event at a lifecycle point.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::point::Point;

/// The event a gateway asks about, in the seed plugin's camelCase JSON shape.
///
/// Only `sessionKey` is required; absent fields are absent, not empty strings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HookContext {
    /// The point the gateway fired (informational; evaluation takes the point separately).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<Point>,
    /// The session, e.g. `agent:main:telegram:group:-100123:topic:42`.
    pub session_key: String,
    /// Forum topic id (a number or a string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic_id: Option<Value>,
    /// The user's prompt (turn points).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The tool being called (tool points).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// The tool's arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_args: Option<Map<String, Value>>,
    /// The agent's or tool's response (post points).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// Sub-agent label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subagent_label: Option<String>,
    /// Cron job name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cron_job: Option<String>,
    /// Heartbeat metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heartbeat_meta: Option<Value>,
    /// The gateway's raw event payload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<Value>,
    /// When the event happened, in Unix milliseconds (defaults to now).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<f64>,
    /// Correlation id; generated when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
    /// The directory the tool runs in, absolute (Claude Code's `cwd`, OpenClaw's `workdir`):
    /// what relative paths and `cd` on the line resolve against.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "absolute_path"
    )]
    pub cwd: Option<String>,
    /// The project root, absolute, when the gateway knows it; otherwise the nearest
    /// ancestor of `cwd` holding `.git` (see [`crate::matcher::places`]).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "absolute_path"
    )]
    pub workspace: Option<String>,
}

/// Whether `path` can be a `cwd` or a `workspace`: absolute (a relative one would resolve
/// against wherever the gate happens to run) and without a NUL byte. `None` when it can,
/// else why not.
pub(crate) fn dir_problem(path: &str) -> Option<String> {
    if !path.starts_with('/') {
        Some(format!(
            "must be an absolute path (starting with `/`), not `{path}`"
        ))
    } else if path.contains('\0') {
        Some("must not hold a NUL byte".to_owned())
    } else {
        None
    }
}

/// A `cwd` or `workspace` field: see [`dir_problem`].
fn absolute_path<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let path = Option::<String>::deserialize(d)?;
    match path.as_deref().and_then(dir_problem) {
        Some(problem) => Err(serde::de::Error::custom(problem)),
        None => Ok(path),
    }
}

impl HookContext {
    /// A context for `session_key` with every optional field absent.
    pub fn new(session_key: impl Into<String>) -> Self {
        HookContext {
            session_key: session_key.into(),
            ..HookContext::default()
        }
    }

    /// Sets the tool name and arguments.
    pub fn with_tool(mut self, name: impl Into<String>, args: Map<String, Value>) -> Self {
        self.tool_name = Some(name.into());
        self.tool_args = Some(args);
        self
    }

    /// Sets the prompt.
    pub fn with_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.prompt = Some(prompt.into());
        self
    }

    /// The text `commandPattern` is matched against: the first string among `toolArgs.command`,
    /// `.path`, `.file_path`, `.url`, `.message`; else a non-empty prompt; else "".
    pub fn command_subject(&self) -> &str {
        if let Some(args) = &self.tool_args {
            for key in ["command", "path", "file_path", "url", "message"] {
                if let Some(Value::String(s)) = args.get(key) {
                    return s;
                }
            }
        }
        self.prompt.as_deref().unwrap_or("")
    }

    /// Whether the session is a sub-agent's (`sessionKey` contains `:subagent:`).
    pub fn is_sub_agent(&self) -> bool {
        self.session_key.contains(":subagent:")
    }

    /// `toolArgs.command` as JavaScript's `String()` would print it, when it is truthy.
    pub(crate) fn command_text(&self) -> Option<String> {
        let command = self.tool_args.as_ref()?.get("command")?;
        truthy(command).then(|| js_string(command))
    }

    /// The topic id as a string (JavaScript `String(topicId)`), when present.
    pub(crate) fn topic_text(&self) -> Option<String> {
        self.topic_id.as_ref().map(js_string)
    }
}

/// JavaScript truthiness of a JSON value.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// JavaScript's `String(v)` for a JSON value.
pub(crate) fn js_string(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => crate::js::number(n),
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|i| {
                if i.is_null() {
                    String::new()
                } else {
                    js_string(i)
                }
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx(args: Value, prompt: Option<&str>) -> HookContext {
        let mut c = HookContext::new("s");
        c.tool_args = args.as_object().cloned();
        c.prompt = prompt.map(str::to_owned);
        c
    }

    #[test]
    fn subject_follows_the_seed_order() {
        assert_eq!(
            ctx(json!({"path": "/p", "command": "ls"}), None).command_subject(),
            "ls"
        );
        assert_eq!(
            ctx(json!({"url": "u", "file_path": "f"}), None).command_subject(),
            "f"
        );
        assert_eq!(
            ctx(json!({"message": "m", "url": "u"}), None).command_subject(),
            "u"
        );
        assert_eq!(
            ctx(json!({"command": 5, "message": "m"}), None).command_subject(),
            "m"
        );
        assert_eq!(
            ctx(json!({"command": ["ls"]}), Some("p")).command_subject(),
            "p"
        );
        assert_eq!(ctx(json!({}), Some("")).command_subject(), "");
        assert_eq!(HookContext::new("s").command_subject(), "");
    }

    #[test]
    fn command_text_is_javascript_string() {
        assert_eq!(
            ctx(json!({"command": "rm"}), None)
                .command_text()
                .as_deref(),
            Some("rm")
        );
        assert_eq!(
            ctx(json!({"command": 7}), None).command_text().as_deref(),
            Some("7")
        );
        assert_eq!(
            ctx(json!({"command": ["a", null, 1]}), None)
                .command_text()
                .as_deref(),
            Some("a,,1")
        );
        assert_eq!(ctx(json!({"command": ""}), None).command_text(), None);
        assert_eq!(ctx(json!({"command": 0}), None).command_text(), None);
        assert_eq!(
            ctx(json!({"command": {}}), None).command_text().as_deref(),
            Some("[object Object]")
        );
    }

    #[test]
    fn deserializes_the_seed_shape() {
        let c: HookContext = serde_json::from_value(json!({
            "point": "turn:tool:pre", "sessionKey": "agent:main:subagent:x", "topicId": 42,
            "toolName": "exec", "toolArgs": {"command": "ls"}, "timestamp": 1700000000000u64,
            "unknownExtra": true
        }))
        .expect("context");
        assert_eq!(c.point, Some(Point::TurnToolPre));
        assert!(c.is_sub_agent());
        assert_eq!(c.topic_text().as_deref(), Some("42"));
        assert!(serde_json::from_value::<HookContext>(json!({"toolName": "exec"})).is_err());
    }
}
