//! The validated form of HOOKS.yaml: what the graph compiler consumes.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use super::error::{Diagnostic, DiagnosticKind};
use super::filters::{self, ArgFilter, CommandFilter, PathGlob};
use super::pattern::Pattern;
use super::yaml::SpanMap;
use crate::point::Point;

/// Priority of a hook that does not set one.
pub const DEFAULT_PRIORITY: i64 = 50;

/// A policy document that passed every check.
#[derive(Debug, Clone)]
pub struct Document {
    /// The `version` field, as a string.
    pub version: String,
    /// The `defaults` section.
    pub defaults: Defaults,
    /// The hooks, in file order.
    pub hooks: Vec<HookSpec>,
    /// The `include` list: policy files whose hooks join this one's, as written (relative
    /// to this file).
    pub include: Vec<String>,
    /// The `discover` setting: scan the workspace for more `HOOKS.yaml` files.
    pub discover: Option<Discover>,
}

/// `discover`: where to look for more `HOOKS.yaml` files, and how deep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discover {
    /// The directory to scan, as written (relative to this file); `None` is this file's
    /// directory.
    pub root: Option<String>,
    /// How many directory levels below the root to look (1 to 8, default 4).
    pub max_depth: usize,
}

/// The scan depth when `discover` does not set one.
pub const DEFAULT_DISCOVER_DEPTH: usize = 4;

/// The `defaults` section.
#[derive(Debug, Clone, Default)]
pub struct Defaults {
    /// Model for summarize_and_log.
    pub model: Option<String>,
    /// Used when an action errors and its hook has no `onFailure`.
    pub on_failure: Option<OnFailure>,
    /// Fallback notification target.
    pub notification_target: Option<String>,
    /// Delivery channels; `None` means the implicit default (Telegram when its token is set).
    pub notify: Option<NotifySettings>,
    /// The LLM endpoint of summarize_and_log and notify_user.
    pub llm: Option<LlmSettings>,
    /// Whether a `commandPattern` matches a shell command that cannot be read.
    pub on_unparseable: Unparseable,
    /// Whether decisions look at this host's files: symlinks, script files a command runs.
    pub host_files: HostFiles,
    /// Enforce (default) or audit.
    pub mode: Mode,
}

/// Whether decisions read this host's files (`defaults.hostFiles`): where a path's symlinks
/// lead, and the script files a command runs (`bash x.sh`, `./x.py`). Right when hookgate
/// runs on the host the gateway's tools run on; a gate elsewhere would read the wrong files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HostFiles {
    /// Read them (the default).
    #[default]
    Read,
    /// Do not: paths are taken as written, and script files not written on the line are not
    /// read.
    Ignore,
}

/// What a `commandPattern` does with a shell command it cannot read (an unterminated quote,
/// a script piped into a shell, a command over the size or depth bounds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unparseable {
    /// It matches: a guard cannot be walked around by confusing the reader (the default).
    #[default]
    Match,
    /// It matches only if the raw text does.
    Nomatch,
}

/// How risky a call that needs approval is (shown to the approver).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    /// Low.
    Low,
    /// Medium (the default).
    #[default]
    Medium,
    /// High.
    High,
    /// Critical.
    Critical,
}

impl Risk {
    /// The name as written in HOOKS.yaml.
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
            Risk::Critical => "critical",
        }
    }
}

/// What happens when nobody decides in time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeoutAction {
    /// Refuse the call (the default).
    #[default]
    Deny,
    /// Let the call through.
    Allow,
}

/// A decision a human can take on an approval request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    /// This request only.
    Approve,
    /// Refuse this request.
    Deny,
    /// This tool and subject, for the rest of the session.
    ApproveSession,
    /// A persistent pattern (`tool:glob`).
    ApproveAlways,
}

impl ApprovalDecision {
    /// The name as written in requests and files.
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalDecision::Approve => "approve",
            ApprovalDecision::Deny => "deny",
            ApprovalDecision::ApproveSession => "approve_session",
            ApprovalDecision::ApproveAlways => "approve_always",
        }
    }

    /// Every decision.
    pub const ALL: &'static [ApprovalDecision] = &[
        ApprovalDecision::Approve,
        ApprovalDecision::Deny,
        ApprovalDecision::ApproveSession,
        ApprovalDecision::ApproveAlways,
    ];
}

/// A hook's `require_approval` settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ApprovalSpec {
    /// Shown to the approver.
    pub risk: Risk,
    /// When nobody decides in time.
    pub timeout_action: TimeoutAction,
    /// What the approver may choose.
    pub allowed_decisions: Vec<ApprovalDecision>,
    /// Shown to the approver.
    pub description: Option<String>,
}

/// An LLM endpoint (`defaults.llm`, or `llm` on a hook).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LlmSettings {
    /// Which API the endpoint speaks.
    #[serde(default)]
    pub provider: LlmProvider,
    /// The API's base URL.
    pub base_url: String,
    /// Variable holding the API key.
    pub api_key_env: Option<String>,
    /// The longest a call may hold a decision, in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Most tokens in the answer.
    pub max_tokens: Option<u32>,
}

/// The API an LLM endpoint speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LlmProvider {
    /// OpenAI-compatible chat completions.
    #[default]
    Openai,
    /// Anthropic's Messages API.
    Anthropic,
}

/// `defaults.notify`: where notifications are delivered.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NotifySettings {
    /// The Telegram Bot API.
    pub telegram: Option<TelegramSettings>,
    /// A generic JSON webhook.
    pub webhook: Option<WebhookSettings>,
}

/// `defaults.notify.telegram`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TelegramSettings {
    /// API base URL (default `https://api.telegram.org`).
    pub base_url: Option<String>,
    /// Variable holding the bot token (default `TELEGRAM_BOT_TOKEN`).
    pub token_env: Option<String>,
}

/// `defaults.notify.webhook`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebhookSettings {
    /// Where to POST.
    pub url: String,
    /// Variable holding a bearer token, if any.
    pub token_env: Option<String>,
}

/// Whether blocks are enforced or only reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Blocks stop the agent.
    #[default]
    Enforce,
    /// Would-be blocks are recorded with `"audit": true`; the decision stays allow.
    Audit,
}

impl Mode {
    /// The name as written in HOOKS.yaml.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Enforce => "enforce",
            Mode::Audit => "audit",
        }
    }
}

/// What to do when an action blocks or errors.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OnFailure {
    /// block, retry, notify or continue.
    pub action: FailureAction,
    /// Retries for `retry` (default 3).
    pub retries: Option<u32>,
    /// Notify the user when the hook blocks.
    pub notify_user: Option<bool>,
    /// Block or notification message (a template).
    pub message: Option<String>,
}

/// The `onFailure.action` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailureAction {
    /// Stop with the message.
    Block,
    /// Run the action again with exponential backoff.
    Retry,
    /// Tell the user, then pass.
    Notify,
    /// Pass.
    Continue,
}

/// The built-in actions this build of hookgate runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ActionName {
    /// Stop the agent at this point.
    Block,
    /// Append a JSONL line describing the event.
    Log,
    /// Run a script with the context in its environment; exit 0 passes.
    ExecScript,
    /// Read a file and hand its content to the gateway to prepend for the model.
    InjectContext,
    /// Summarise the event with an LLM and append the summary to a JSONL file.
    SummarizeAndLog,
    /// Send the session's user a message about the event.
    NotifyUser,
    /// Pause the call until a human approves or denies it (`decision: "ask"`).
    RequireApproval,
    /// Run an external action program (`action: ./path`); the hook's `program`.
    External,
}

impl ActionName {
    /// Every action this build runs.
    pub const ALL: &'static [ActionName] = &[
        ActionName::Block,
        ActionName::Log,
        ActionName::ExecScript,
        ActionName::InjectContext,
        ActionName::SummarizeAndLog,
        ActionName::NotifyUser,
        ActionName::RequireApproval,
    ];

    /// The name as written in HOOKS.yaml.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionName::Block => "block",
            ActionName::Log => "log",
            ActionName::ExecScript => "exec_script",
            ActionName::InjectContext => "inject_context",
            ActionName::SummarizeAndLog => "summarize_and_log",
            ActionName::NotifyUser => "notify_user",
            ActionName::RequireApproval => "require_approval",
            ActionName::External => "external",
        }
    }

    fn from_name(name: &str) -> Option<ActionName> {
        ActionName::ALL.iter().copied().find(|a| a.as_str() == name)
    }
}

/// One hook after validation.
#[derive(Debug, Clone)]
pub struct HookSpec {
    /// The policy file this hook is written in (the root file or one it brought in).
    pub file: Arc<Path>,
    /// Position in its file's `hooks` list.
    pub index: usize,
    /// The `name`, else `hooks[i]` (`<file>:hooks[i]` outside the root file): the id used
    /// in decisions and logs.
    pub id: String,
    /// The points it is registered for, in file order, without repeats.
    pub points: Vec<Point>,
    /// Higher runs first.
    pub priority: i64,
    /// Filters (all must match).
    pub filter: MatchSpec,
    /// What it does.
    pub action: ActionName,
    /// For [`ActionName::External`]: the program, as written (relative to the policy's
    /// directory).
    pub program: Option<String>,
    /// summarize_and_log / notify_user model.
    pub model: Option<String>,
    /// This hook's LLM endpoint.
    pub llm: Option<LlmSettings>,
    /// Output file (log), a template.
    pub target: Option<String>,
    /// inject_context source, a template.
    pub source: Option<String>,
    /// exec_script inline script, a template.
    pub script: Option<String>,
    /// inject_context entry count.
    pub last_n: Option<u32>,
    /// exec_script output injection.
    pub inject_output: bool,
    /// How long the action may run (programs) or wait (require_approval), in milliseconds.
    pub timeout_ms: Option<u64>,
    /// require_approval settings.
    pub approval: ApprovalSpec,
    /// Notify on block.
    pub notify_user: bool,
    /// false: never fires.
    pub enabled: bool,
    /// Per-hook mode, else the default's.
    pub mode: Mode,
    /// Per-hook failure policy.
    pub on_failure: Option<OnFailure>,
}

/// The `match` section, with patterns compiled.
#[derive(Debug, Clone, Default)]
pub struct MatchSpec {
    /// Exact tool names (one of them must be the context's tool).
    pub tool: Option<Vec<String>>,
    /// Regex on the command subject.
    pub command_pattern: Option<Pattern>,
    /// Topic id as a string; `*` = any present topic.
    pub topic_id: Option<String>,
    /// Whether the session must (or must not) be a sub-agent's.
    pub is_sub_agent: Option<bool>,
    /// Regex on the session key.
    pub session_pattern: Option<Pattern>,
    /// Whether the shell command must (or must not) be one the reader cannot understand.
    pub unparseable: Option<bool>,
    /// Test on the simple commands of a shell command.
    pub command: Option<CommandFilter>,
    /// Regexes on named tool arguments (all must match).
    pub args: Option<Vec<ArgFilter>>,
    /// Globs on path-like arguments.
    pub path_glob: Option<PathGlob>,
    /// Globs on the path-like arguments a shell command may read: `pathGlob` without the
    /// paths it only writes (`> f`, `cp a f`).
    pub read_glob: Option<PathGlob>,
    /// External matcher program (relative to the policy's directory).
    pub custom: Option<String>,
}

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
    #[serde(rename = "action")]
    _action: String,
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
        Some(Value::Number(n)) => Some(js_number(n)),
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
            semantic("", "missing required field `hooks`".to_owned()).with_help(
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
            out.push(
                semantic(
                    &format!("{at}/name"),
                    format!("duplicate hook name `{name}`"),
                )
                .with_help(format!(
                    "hooks[{first}] (line {}) already uses it; names must be unique",
                    spans.value(&format!("/hooks/{first}/name")).line
                )),
            );
        }
        let action = raw.get("action").and_then(Value::as_str).and_then(|name| {
            if is_program_path(name) {
                return Some(ActionName::External);
            }
            let action = ActionName::from_name(name);
            if action.is_none() {
                let (message, help) = unknown_action(name);
                out.push(semantic(&format!("{at}/action"), message).with_help(help));
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
        let mut compile = |field: &str| {
            let source = filter?.get(field)?.as_str()?;
            Pattern::new(source)
                .map_err(|e| {
                    let d = semantic(&format!("{at}/match/{field}"), e.message);
                    out.push(match e.help {
                        Some(help) => d.with_help(help),
                        None => d,
                    });
                })
                .ok()
        };
        let command_pattern = compile("commandPattern");
        let session_pattern = compile("sessionPattern");
        let (structured, problems) = filter.map(filters::compile).unwrap_or_default();
        for (place, message, help) in problems {
            let d = semantic(&format!("{at}/match{place}"), message);
            out.push(match help {
                Some(help) => d.with_help(help),
                None => d,
            });
        }

        let (Some(action), Some(hook)) = (action, typed::<RawHook>(raw, &at, spans, file, out))
        else {
            continue;
        };
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
                        StringOrNumber::Number(n) => js_number(n),
                    }),
                is_sub_agent: m.as_ref().and_then(|m| m.is_sub_agent),
                session_pattern,
                unparseable: m.as_ref().and_then(|m| m.unparseable),
                command: structured.command,
                args: structured.args,
                path_glob: structured.path_glob,
                read_glob: structured.read_glob,
                custom: m.as_ref().and_then(|m| m.custom.clone()),
            },
            program: (action == ActionName::External).then(|| hook._action.clone()),
            action,
            model: hook.model,
            llm: hook.llm,
            target: hook.target,
            source: hook.source,
            script: hook.script,
            last_n: hook.last_n,
            inject_output: hook.inject_output.unwrap_or(false),
            timeout_ms: hook.timeout_ms,
            approval: ApprovalSpec {
                risk: hook.risk.unwrap_or_default(),
                timeout_action: hook.timeout_action.unwrap_or_default(),
                allowed_decisions: hook
                    .allowed_decisions
                    .unwrap_or_else(|| ApprovalDecision::ALL.to_vec()),
                description: hook.description,
            },
            notify_user: hook.notify_user.unwrap_or(false),
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
            let prefix = super::error::field_path(pointer);
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

/// Formats a JSON number the way JavaScript's `String(n)` does for the values YAML produces.
pub(crate) fn js_number(n: &serde_json::Number) -> String {
    if let Some(f) = n.as_f64().filter(|_| n.is_f64()) {
        if f.fract() == 0.0 && f.abs() < 1e21 {
            // JavaScript prints integral doubles without a fraction: 42.0 -> "42".
            return format!("{f:.0}");
        }
        return f.to_string();
    }
    n.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_like_javascript() {
        let n = |v: serde_json::Value| match v {
            Value::Number(n) => js_number(&n),
            _ => unreachable!(),
        };
        assert_eq!(n(serde_json::json!(42)), "42");
        assert_eq!(n(serde_json::json!(42.0)), "42");
        assert_eq!(n(serde_json::json!(-7)), "-7");
        assert_eq!(n(serde_json::json!(1.5)), "1.5");
    }
}
