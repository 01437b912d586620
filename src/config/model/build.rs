//! From a schema-checked document to the model: the raw forms serde reads each part into,
//! and the checks that turn them into [`Document`], every problem reported in one run.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use super::{
    DEFAULT_DISCOVER_DEPTH, DEFAULT_PRIORITY, Defaults, Discover, Document, HookSpec, HostFiles,
    LlmSettings, MatchSpec, Mode, NotifySettings, OnFailure, Unparseable,
};
use crate::config::action::{
    Action, ActionName, ApprovalDecision, ApprovalSpec, Risk, Script, TimeoutAction,
};
use crate::config::error::{Code, Diagnostic, DiagnosticKind};
use crate::config::filters;
use crate::config::pattern::Regex;
use crate::config::yaml::SpanMap;
use crate::point::Point;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawDefaults {
    model: Option<String>,
    on_failure: Option<OnFailure>,
    notification_target: Option<String>,
    notify: Option<NotifySettings>,
    llm: Option<LlmSettings>,
    on_unparseable: Option<Unparseable>,
    host_files: Option<HostFiles>,
    mode: Option<Mode>,
}

#[derive(Clone, Deserialize)]
#[serde(untagged)]
enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawDiscover {
    On(bool),
    Settings {
        root: Option<String>,
        #[serde(rename = "maxDepth")]
        max_depth: Option<usize>,
    },
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StringOrNumber {
    String(String),
    Number(serde_json::Number),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawMatch {
    tool: Option<OneOrMany<String>>,
    topic_id: Option<StringOrNumber>,
    is_sub_agent: Option<bool>,
    // Patterns and `custom` are read from the raw value by the semantic checks.
    #[serde(rename = "commandPattern")]
    _command_pattern: Option<String>,
    #[serde(rename = "sessionPattern")]
    _session_pattern: Option<String>,
    unparseable: Option<bool>,
    #[serde(rename = "command")]
    _command: Option<Value>,
    #[serde(rename = "args")]
    _args: Option<Value>,
    #[serde(rename = "pathGlob")]
    _path_glob: Option<Value>,
    #[serde(rename = "readGlob")]
    _read_glob: Option<Value>,
    #[serde(rename = "pathIn")]
    _path_in: Option<Value>,
    custom: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawHook {
    name: Option<String>,
    point: OneOrMany<Point>,
    priority: Option<i64>,
    #[serde(rename = "match")]
    filter: Option<RawMatch>,
    action: String,
    model: Option<String>,
    llm: Option<LlmSettings>,
    target: Option<String>,
    source: Option<String>,
    script: Option<String>,
    last_n: Option<u32>,
    inject_output: Option<bool>,
    timeout_ms: Option<u64>,
    risk: Option<Risk>,
    timeout_action: Option<TimeoutAction>,
    allowed_decisions: Option<Vec<ApprovalDecision>>,
    description: Option<String>,
    notify_user: Option<bool>,
    enabled: Option<bool>,
    mode: Option<Mode>,
    on_failure: Option<OnFailure>,
}

impl RawHook {
    /// The hook's action with the fields it reads, taken out of the flat YAML form. `None`
    /// for an `exec_script` without a script, which [`build`] has already reported. What is
    /// left of the action fields afterwards is what the action does not read (see
    /// [`RawHook::unused_fields`]).
    fn take_action(&mut self, name: ActionName) -> Option<Action> {
        Some(match name {
            ActionName::Block => Action::Block {
                notify_user: self.notify_user.take().unwrap_or(false),
            },
            ActionName::Log => Action::Log {
                target: self.target.take(),
            },
            ActionName::ExecScript => Action::ExecScript {
                // A script file wins over inline text.
                script: match (self.target.take(), self.script.take()) {
                    (Some(file), text) => {
                        self.script = text;
                        Script::File(file)
                    }
                    (None, Some(text)) => Script::Inline(text),
                    (None, None) => return None,
                },
                inject_output: self.inject_output.take().unwrap_or(false),
            },
            ActionName::InjectContext => Action::InjectContext {
                source: self.source.take().or_else(|| self.target.take()),
                last_n: self.last_n.take(),
            },
            ActionName::SummarizeAndLog => Action::SummarizeAndLog {
                target: self.target.take(),
                model: self.model.take(),
                llm: self.llm.take(),
            },
            ActionName::NotifyUser => Action::NotifyUser {
                model: self.model.take(),
                llm: self.llm.take(),
            },
            ActionName::RequireApproval => Action::RequireApproval(ApprovalSpec {
                risk: self.risk.take().unwrap_or_default(),
                timeout_action: self.timeout_action.take().unwrap_or_default(),
                allowed_decisions: self
                    .allowed_decisions
                    .take()
                    .unwrap_or_else(|| ApprovalDecision::ALL.to_vec()),
                description: self.description.take(),
            }),
            ActionName::External => Action::External {
                program: self.action.clone(),
            },
        })
    }

    /// The action fields still set after [`RawHook::take_action`]: written, but not read by
    /// this hook's action. `timeoutMs` also bounds a `custom` matcher, so it is used then.
    fn unused_fields(&self, action: &Action) -> Vec<&'static str> {
        let times_out = matches!(
            action,
            Action::ExecScript { .. } | Action::External { .. } | Action::RequireApproval(_)
        ) || self.filter.as_ref().is_some_and(|m| m.custom.is_some());
        [
            ("model", self.model.is_some()),
            ("llm", self.llm.is_some()),
            ("target", self.target.is_some()),
            ("source", self.source.is_some()),
            ("script", self.script.is_some()),
            ("lastN", self.last_n.is_some()),
            ("injectOutput", self.inject_output.is_some()),
            ("timeoutMs", self.timeout_ms.is_some() && !times_out),
            ("risk", self.risk.is_some()),
            ("timeoutAction", self.timeout_action.is_some()),
            ("allowedDecisions", self.allowed_decisions.is_some()),
            ("description", self.description.is_some()),
            ("notifyUser", self.notify_user.is_some()),
        ]
        .into_iter()
        .filter_map(|(field, set)| set.then_some(field))
        .collect()
    }
}

/// Converts a schema-checked JSON value into a [`Document`], running the semantic checks.
/// Hooks that do not deserialize were already reported by the schema and are skipped, so the
/// semantic problems of the other hooks are still reported in the same run.
///
/// `inherited` is the root file's defaults when this file is brought in by another: its
/// hooks then take their defaults from there, not from their own file.
pub(crate) fn build(
    value: &Value,
    spans: &SpanMap,
    file: &Path,
    inherited: Option<&Defaults>,
    out: &mut Vec<Diagnostic>,
) -> Option<Document> {
    let shared_file: Arc<Path> = Arc::from(file);
    let errors_before = out.len();
    let semantic = |pointer: &str, message: String| {
        Diagnostic::new(
            DiagnosticKind::Semantic,
            file,
            spans.value(pointer),
            pointer,
            message,
        )
    };

    let version = match value.get("version") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(crate::js::number(n)),
        _ => None,
    };
    let defaults = value
        .get("defaults")
        .and_then(|d| typed::<RawDefaults>(d, "/defaults", spans, file, out))
        .map(|d| Defaults {
            model: d.model,
            on_failure: d.on_failure,
            notification_target: d.notification_target,
            notify: d.notify,
            llm: d.llm,
            on_unparseable: d.on_unparseable.unwrap_or_default(),
            host_files: d.host_files.unwrap_or_default(),
            mode: d.mode.unwrap_or_default(),
        })
        .unwrap_or_default();
    let effective = inherited.unwrap_or(&defaults);
    let include = value
        .get("include")
        .and_then(|i| typed::<Vec<String>>(i, "/include", spans, file, out))
        .unwrap_or_default();
    let discover = value
        .get("discover")
        .and_then(|d| typed::<RawDiscover>(d, "/discover", spans, file, out))
        .and_then(|d| match d {
            RawDiscover::On(false) => None,
            RawDiscover::On(true) => Some(Discover {
                root: None,
                max_depth: DEFAULT_DISCOVER_DEPTH,
            }),
            RawDiscover::Settings { root, max_depth } => Some(Discover {
                root,
                max_depth: max_depth.unwrap_or(DEFAULT_DISCOVER_DEPTH),
            }),
        });

    if value.is_object()
        && value.get("hooks").is_none()
        && value.get("include").is_none()
        && discover.is_none()
    {
        out.push(
            semantic("", "missing required field `hooks`".to_owned())
                .with_code(Code::MissingField)
                .with_help(
                    "add a `hooks:` list (it may be empty), or `include:` other policy files",
                ),
        );
    }

    let mut hooks = Vec::new();
    let mut names: HashMap<&str, usize> = HashMap::new();
    let raw_hooks = value
        .get("hooks")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    for (index, raw) in raw_hooks.iter().enumerate() {
        let at = format!("/hooks/{index}");
        // Semantic checks read the raw value field by field, so they run (and report) even
        // for a hook the schema rejected for another reason.
        if let Some(name) = raw.get("name").and_then(Value::as_str)
            && let Some(first) = names.insert(name, index)
        {
            let first_at = spans.value(&format!("/hooks/{first}/name"));
            out.push(
                semantic(
                    &format!("{at}/name"),
                    format!("duplicate hook name `{name}`"),
                )
                .with_help(format!(
                    "hooks[{first}] (line {}) already uses it; names must be unique",
                    first_at.line
                ))
                .with_related(file, first_at, "the first use of the name"),
            );
        }
        let action = raw.get("action").and_then(Value::as_str).and_then(|name| {
            if is_program_path(name) {
                return Some(ActionName::External);
            }
            let action = ActionName::from_name(name);
            if action.is_none() {
                let (message, help) = unknown_action(name);
                let d = semantic(&format!("{at}/action"), message).with_code(Code::UnknownAction);
                out.push(d.with_help(help));
            }
            action
        });
        if action == Some(ActionName::ExecScript)
            && raw.get("target").is_none()
            && raw.get("script").is_none()
        {
            out.push(
                semantic(
                    &format!("{at}/action"),
                    "exec_script needs a script to run".to_owned(),
                )
                .with_help("add `target: path/to/script.sh` (relative to this file) or an inline `script:`"),
            );
        }
        let filter = raw.get("match");
        let mut regex = |field: &str| {
            let source = filter?.get(field)?.as_str()?;
            Regex::new(source)
                .map_err(|e| {
                    let d = semantic(&format!("{at}/match/{field}"), e.message);
                    out.push(match e.help {
                        Some(help) => d.with_help(help),
                        None => d,
                    });
                })
                .ok()
        };
        let command_pattern = regex("commandPattern");
        let session_pattern = regex("sessionPattern");
        let (structured, problems) = filter.map(filters::parse).unwrap_or_default();
        for (place, message, help) in problems {
            let d = semantic(&format!("{at}/match{place}"), message);
            out.push(match help {
                Some(help) => d.with_help(help),
                None => d,
            });
        }

        let (Some(action), Some(mut hook)) = (action, typed::<RawHook>(raw, &at, spans, file, out))
        else {
            continue;
        };
        let Some(action) = hook.take_action(action) else {
            continue;
        };
        let unused_fields = hook.unused_fields(&action);
        let mut points = Vec::new();
        for p in match hook.point {
            OneOrMany::One(p) => vec![p],
            OneOrMany::Many(ps) => ps,
        } {
            if !points.contains(&p) {
                points.push(p);
            }
        }
        let m = hook.filter;
        hooks.push(HookSpec {
            file: Arc::clone(&shared_file),
            index,
            id: hook.name.unwrap_or_else(|| format!("hooks[{index}]")),
            points,
            priority: hook.priority.unwrap_or(DEFAULT_PRIORITY),
            filter: MatchSpec {
                tool: m.as_ref().and_then(|m| m.tool.clone()).map(|t| match t {
                    OneOrMany::One(tool) => vec![tool],
                    OneOrMany::Many(tools) => tools,
                }),
                command_pattern,
                topic_id: m
                    .as_ref()
                    .and_then(|m| m.topic_id.as_ref())
                    .map(|t| match t {
                        StringOrNumber::String(s) => s.clone(),
                        StringOrNumber::Number(n) => crate::js::number(n),
                    }),
                is_sub_agent: m.as_ref().and_then(|m| m.is_sub_agent),
                session_pattern,
                unparseable: m.as_ref().and_then(|m| m.unparseable),
                command: structured.command,
                args: structured.args,
                path_glob: structured.path_glob,
                read_glob: structured.read_glob,
                path_in: structured.path_in,
                custom: m.as_ref().and_then(|m| m.custom.clone()),
            },
            action,
            unused_fields,
            timeout_ms: hook.timeout_ms,
            enabled: hook.enabled.unwrap_or(true),
            mode: hook.mode.unwrap_or(effective.mode),
            on_failure: hook.on_failure,
        });
    }

    if out.len() > errors_before {
        return None;
    }
    Some(Document {
        version: version?,
        defaults,
        hooks,
        include,
        discover,
    })
}

/// Converts a schema-checked value to its typed form. A value the schema accepted but the
/// typed form cannot hold is reported here, so no hook or setting is ever dropped silently.
fn typed<T: serde::de::DeserializeOwned>(
    raw: &Value,
    pointer: &str,
    spans: &SpanMap,
    file: &Path,
    out: &mut Vec<Diagnostic>,
) -> Option<T> {
    match T::deserialize(raw) {
        Ok(v) => Some(v),
        Err(e) => {
            let prefix = crate::config::error::field_path(pointer);
            let inside = |path: &str| {
                path == prefix
                    || path.starts_with(&format!("{prefix}."))
                    || path.starts_with(&format!("{prefix}["))
            };
            if !out.iter().any(|d| inside(d.path())) {
                out.push(Diagnostic::new(
                    DiagnosticKind::Semantic,
                    file,
                    spans.value(pointer),
                    pointer,
                    format!("cannot be read: {e}"),
                ));
            }
            None
        }
    }
}

/// The message and advice for an action name this build does not run.
fn unknown_action(name: &str) -> (String, String) {
    let built: Vec<&str> = ActionName::ALL.iter().map(|a| a.as_str()).collect();
    let available = format!("actions available: {}", built.join(", "));
    let message = format!("unknown action `{name}`");
    let help = crate::suggest::closest(name, built.iter().copied())
        .map_or(available, |s| format!("did you mean `{s}`?"));
    (message, help)
}

/// Whether an `action` names an external program rather than a built-in action: a path
/// (`./actions/check.sh`, `/opt/hooks/x`).
fn is_program_path(name: &str) -> bool {
    name.contains('/')
}
