//! A case's context: a whole `HookContext` as `hookgate check --context` takes it, or the
//! shorthand fields (`tool`, `command`, `cwd`...) that describe one in short.

use serde_json::{Map, Value};

use super::{At, Checker, DEFAULT_SESSION, DEFAULT_SUBAGENT_SESSION, child, kind};
use crate::config::DiagnosticKind;
use crate::config::yaml;
use crate::context::HookContext;
use crate::point::Point;

impl Checker<'_> {
    pub(super) fn point(&mut self, map: &Map<String, Value>, pointer: &str) -> Option<Point> {
        let text = self.string(map, pointer, "point")?;
        match text.parse::<Point>() {
            Ok(point) => Some(point),
            Err(unknown) => {
                self.semantic(
                    &child(pointer, "point"),
                    unknown.message(),
                    Some(unknown.help(false)),
                );
                None
            }
        }
    }

    /// A whole HookContext, in the JSON shape of `hookgate check --context`. Unlike there, an
    /// unknown field is an error: a misspelt field would leave the case testing nothing.
    pub(super) fn context(&mut self, value: &Value, pointer: &str) -> Option<HookContext> {
        let Value::Object(map) = value else {
            self.schema(
                pointer,
                format!("expected a HookContext mapping, found {}", kind(value)),
            );
            return None;
        };
        let ctx = match serde_path_to_error::deserialize::<_, HookContext>(value) {
            Ok(ctx) => ctx,
            Err(e) => {
                let mut at = pointer.to_owned();
                for segment in e.path().iter() {
                    match segment {
                        serde_path_to_error::Segment::Seq { index } => {
                            yaml::push_token(&mut at, &index.to_string());
                        }
                        serde_path_to_error::Segment::Map { key } => {
                            yaml::push_token(&mut at, key);
                        }
                        _ => {}
                    }
                }
                self.schema(&at, format!("invalid context: {}", e.inner()));
                return None;
            }
        };
        // A field the context does not keep is one it does not know. Fields it keeps are
        // written back (null fields are absent either way).
        let kept = serde_json::to_value(&ctx).unwrap_or(Value::Null);
        let known: Vec<&str> = context_fields();
        let mut unknown = false;
        for (key, v) in map {
            if v.is_null() || kept.get(key).is_some() {
                continue;
            }
            unknown = true;
            let help = match crate::suggest::closest(key, known.iter().copied()) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!("HookContext fields: {}", known.join(", ")),
            };
            self.report(
                DiagnosticKind::Schema,
                &child(pointer, key),
                At::Key,
                format!("unknown context field `{key}`"),
                Some(help),
            );
        }
        (!unknown).then_some(ctx)
    }

    /// The context the shorthand fields describe.
    pub(super) fn shorthand(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
    ) -> Option<HookContext> {
        let before = self.diagnostics.len();
        let subagent = match map.get("subagent") {
            None => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => {
                self.schema(
                    &child(pointer, "subagent"),
                    format!("expected true or false, found {}", kind(other)),
                );
                None
            }
        };
        let session = self.non_empty(map, pointer, "session");
        if let (Some(session), Some(subagent)) = (&session, subagent)
            && session.contains(":subagent:") != subagent
        {
            self.semantic(
                &child(pointer, "subagent"),
                format!(
                    "`subagent: {subagent}` contradicts `session: {session}`, which is {}a sub-agent's session",
                    if subagent { "not " } else { "" }
                ),
                Some(
                    "a session is a sub-agent's when its key contains `:subagent:`; drop `subagent` or change `session`"
                        .to_owned(),
                ),
            );
        }
        let session = session.unwrap_or_else(|| {
            if subagent == Some(true) {
                DEFAULT_SUBAGENT_SESSION.to_owned()
            } else {
                DEFAULT_SESSION.to_owned()
            }
        });
        let mut ctx = HookContext::new(session);
        ctx.tool_name = self.non_empty(map, pointer, "tool");
        ctx.prompt = self.string(map, pointer, "prompt").map(str::to_owned);
        for (key, dir) in [("cwd", &mut ctx.cwd), ("workspace", &mut ctx.workspace)] {
            // A relative directory is the test file's own (`cwd: .`), so a case can name the
            // policy's directory wherever the repository is checked out.
            let given = self
                .string(map, pointer, key)
                .map(|d| match d.starts_with('/') {
                    true => d.to_owned(),
                    false => self.beside_file(d),
                });
            match given.as_deref().and_then(crate::context::dir_problem) {
                Some(problem) => self.schema(&child(pointer, key), problem),
                None => *dir = given,
            }
        }
        ctx.topic_id = match map.get("topic") {
            None => None,
            Some(v @ Value::String(_)) => Some(v.clone()),
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Some(Value::Number(n.clone())),
            Some(other) => {
                self.schema(
                    &child(pointer, "topic"),
                    format!("expected a string or an integer, found {}", kind(other)),
                );
                None
            }
        };
        let mut args = match map.get("args") {
            None => None,
            Some(Value::Object(args)) => Some(args.clone()),
            Some(other) => {
                self.schema(
                    &child(pointer, "args"),
                    format!(
                        "expected a mapping of tool arguments, found {}",
                        kind(other)
                    ),
                );
                None
            }
        };
        if let Some(command) = self.string(map, pointer, "command") {
            let args = args.get_or_insert_with(Map::new);
            if args.contains_key("command") {
                self.semantic(
                    &child(pointer, "command"),
                    "the command is given twice, in `command` and in `args.command`",
                    Some("keep one of them".to_owned()),
                );
            }
            args.insert("command".to_owned(), Value::String(command.to_owned()));
        }
        ctx.tool_args = args;
        (self.diagnostics.len() == before).then_some(ctx)
    }
}

/// The JSON field names of [`HookContext`], for suggestions.
fn context_fields() -> Vec<&'static str> {
    vec![
        "point",
        "sessionKey",
        "topicId",
        "prompt",
        "toolName",
        "toolArgs",
        "response",
        "subagentLabel",
        "cronJob",
        "heartbeatMeta",
        "raw",
        "timestamp",
        "traceId",
        "cwd",
        "workspace",
    ]
}
