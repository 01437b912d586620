//! The validated form of HOOKS.yaml: what the graph compiler consumes.

mod build;

use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

pub(crate) use build::build;

use super::action::Action;
use super::filters::{ArgFilter, CommandFilter, PathGlob};
use super::pattern::Regex;
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
    pub action: Action,
    /// Fields written on the hook that its action does not read (`lastN` on a `log`), in
    /// the order the hook reference lists them. They load, as the seed's did; lint warns.
    pub unused_fields: Vec<&'static str>,
    /// How long the hook's programs may run (an action's, a `custom` matcher's), or how
    /// long `require_approval` waits, in milliseconds.
    pub timeout_ms: Option<u64>,
    /// false: never fires.
    pub enabled: bool,
    /// Per-hook mode, else the default's.
    pub mode: Mode,
    /// Per-hook failure policy.
    pub on_failure: Option<OnFailure>,
}

/// The `match` section as written, checked (regexes within their limits, globs parsed):
/// plain data, which `matcher::Filters` compiles.
#[derive(Debug, Clone, Default)]
pub struct MatchSpec {
    /// Exact tool names (one of them must be the context's tool).
    pub tool: Option<Vec<String>>,
    /// Regex on the command subject.
    pub command_pattern: Option<Regex>,
    /// Topic id as a string; `*` = any present topic.
    pub topic_id: Option<String>,
    /// Whether the session must (or must not) be a sub-agent's.
    pub is_sub_agent: Option<bool>,
    /// Regex on the session key.
    pub session_pattern: Option<Regex>,
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
    /// Places one of the file tools' path fields must lie in (`Write ~/.bashrc` is in
    /// `home`).
    pub path_in: Option<Vec<super::Place>>,
    /// External matcher program (relative to the policy's directory).
    pub custom: Option<String>,
}
