//! `hookgate init <gateway>`: writes (or, with `--print`, prints) the gateway's hook
//! configuration that runs `hookgate hook --gateway <gateway>` at each event hookgate maps,
//! merged into the gateway's settings file without losing what is there.
//!
//! Each hook command first checks that the hookgate binary is there and, when it is not,
//! exits 2 (the block of every gateway here) for events that can be blocked: a gateway takes
//! "command not found" (127) as a failed hook and goes on, which would let every call
//! through once hookgate is uninstalled or moved.

use std::path::{Path, PathBuf};

use crate::adapters::Gateway;
use serde_json::{Map, Value, json};

use super::{EXIT_ERROR, emit};

/// The opencode plugin `init opencode` installs.
const OPENCODE_PLUGIN: &str = include_str!("../../examples/opencode-plugin/hookgate.js");

/// Arguments of `hookgate init`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The gateway: claude-code, gemini, codex, copilot, cursor, opencode.
    #[arg(value_parser = parse_gateway)]
    gateway: Gateway,
    /// Print the configuration instead of writing it.
    #[arg(long)]
    print: bool,
    /// Write the user's settings (e.g. ~/.gemini/settings.json) instead of the project's
    /// (.gemini/settings.json in the current directory).
    #[arg(long)]
    user: bool,
    /// The settings file to merge into (default: the gateway's, per --user).
    #[arg(long)]
    file: Option<PathBuf>,
    /// The policy the hook uses (made absolute); default: found at each call as
    /// `hookgate hook` finds it (./HOOKS.yaml in the project, $HOOKGATE_CONFIG, ...).
    #[arg(long, conflicts_with = "daemon")]
    config: Option<PathBuf>,
    /// Ask the daemon at this URL instead (approvals for gateways that cannot ask).
    #[arg(long)]
    daemon: Option<String>,
    /// The hookgate binary the hook runs (default: this one, by its absolute path).
    #[arg(long)]
    bin: Option<PathBuf>,
}

fn parse_gateway(name: &str) -> Result<Gateway, String> {
    Gateway::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Gateway::ALL.iter().map(|g| g.name()).collect();
        format!("unknown gateway `{name}` (known: {})", known.join(", "))
    })
}

/// Why `init` could not write.
#[derive(Debug, thiserror::Error)]
enum InitError {
    #[error("cannot read `{path}`: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("`{path}` is not a JSON object ({problem}); fix or move it, then run init again")]
    NotObject { path: String, problem: String },
    #[error("cannot write `{path}`: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Setup(String),
}

pub(crate) fn run(args: Args) -> u8 {
    match try_run(&args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("hookgate init: {e}");
            EXIT_ERROR
        }
    }
}

fn try_run(args: &Args) -> Result<(), InitError> {
    let hook = HookCommand::new(args)?;
    let path = match &args.file {
        Some(file) => file.clone(),
        None => default_file(args.gateway, args.user)?,
    };
    if args.gateway == Gateway::Opencode {
        // opencode loads plugins, not commands: the plugin is the configuration. It runs the
        // command `HOOKGATE_COMMAND` names, or `hookgate hook --gateway opencode`.
        let text = OPENCODE_PLUGIN.replace(
            "const DEFAULT_COMMAND = null;",
            &format!(
                "const DEFAULT_COMMAND = {};",
                json!(hook.wrapped("tool.execute.before"))
            ),
        );
        return output(args.print, &path, &text);
    }
    let existing = if args.print {
        Map::new()
    } else {
        read_settings(&path)?
    };
    let merged = merge(args.gateway, existing, &hook);
    let text = serde_json::to_string_pretty(&Value::Object(merged))
        .map_err(|e| InitError::Setup(e.to_string()))?;
    output(args.print, &path, &format!("{text}\n"))
}

/// Prints `text`, or writes it to `path` (atomically: a reader never sees half a file).
fn output(print: bool, path: &Path, text: &str) -> Result<(), InitError> {
    if print {
        emit(text);
        return Ok(());
    }
    let write = |source| InitError::Write {
        path: path.display().to_string(),
        source,
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(write)?;
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(write)?;
    std::io::Write::write_all(&mut file, text.as_bytes()).map_err(write)?;
    file.persist(path).map_err(|e| write(e.error))?;
    eprintln!("hookgate init: wrote {}", path.display());
    Ok(())
}

/// The gateway's settings file, in the project or the user's home.
fn default_file(gateway: Gateway, user: bool) -> Result<PathBuf, InitError> {
    let relative = match gateway {
        Gateway::ClaudeCode => ".claude/settings.json",
        Gateway::Gemini => ".gemini/settings.json",
        Gateway::Codex => ".codex/hooks.json",
        Gateway::Copilot => ".github/hooks/hookgate.json",
        Gateway::Cursor => ".cursor/hooks.json",
        Gateway::Opencode if user => ".config/opencode/plugin/hookgate.js",
        Gateway::Opencode => ".opencode/plugin/hookgate.js",
    };
    if !user {
        return Ok(PathBuf::from(relative));
    }
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .ok_or_else(|| InitError::Setup("$HOME is not set; give --file".into()))?;
    let home = PathBuf::from(home);
    Ok(match gateway {
        // Codex's home is $CODEX_HOME, ~/.codex by default.
        Gateway::Codex => std::env::var_os("CODEX_HOME")
            .filter(|h| !h.is_empty())
            .map_or_else(|| home.join(".codex"), PathBuf::from)
            .join("hooks.json"),
        // Copilot CLI's personal hooks: $COPILOT_HOME/hooks (~/.copilot/hooks), read in every
        // folder, trusted or not.
        Gateway::Copilot => std::env::var_os("COPILOT_HOME")
            .filter(|h| !h.is_empty())
            .map_or_else(|| home.join(".copilot"), PathBuf::from)
            .join("hooks/hookgate.json"),
        _ => home.join(relative),
    })
}

/// The settings already in `path` (none when it does not exist). A file that is not a JSON
/// object is an error: overwriting it would lose what is there.
fn read_settings(path: &Path) -> Result<Map<String, Value>, InitError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Map::new()),
        Err(source) => {
            return Err(InitError::Read {
                path: path.display().to_string(),
                source,
            });
        }
    };
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(InitError::NotObject {
            path: path.display().to_string(),
            problem: "it is JSON, but not an object".into(),
        }),
        Err(e) => Err(InitError::NotObject {
            path: path.display().to_string(),
            problem: e.to_string(),
        }),
    }
}

/// The command each hook runs.
struct HookCommand {
    gateway: Gateway,
    bin: String,
    extra: String,
}

impl HookCommand {
    fn new(args: &Args) -> Result<HookCommand, InitError> {
        let bin = match &args.bin {
            Some(bin) => bin.clone(),
            None => std::env::current_exe()
                .map_err(|e| InitError::Setup(format!("cannot find this binary: {e}")))?,
        };
        let mut extra = String::new();
        if let Some(config) = &args.config {
            let config = std::path::absolute(config)
                .map_err(|e| InitError::Setup(format!("cannot resolve --config: {e}")))?;
            extra.push_str(&format!(" --config {}", quote(&config.to_string_lossy())));
        }
        if let Some(url) = &args.daemon {
            extra.push_str(&format!(" --daemon {}", quote(url)));
        }
        Ok(HookCommand {
            gateway: args.gateway,
            bin: bin.to_string_lossy().into_owned(),
            extra,
        })
    }

    /// The shell command for `event`: fails closed (exit 2) when the binary is missing and
    /// the event can be blocked, warns (exit 1) otherwise; then runs the hook.
    fn wrapped(&self, event: &str) -> String {
        let code = if self.gateway.fails_closed(event) {
            2
        } else {
            1
        };
        let bin = quote(&self.bin);
        let event_arg = match self.gateway {
            Gateway::Copilot => format!(" --event {event}"),
            _ => String::new(),
        };
        format!(
            "command -v {bin} >/dev/null 2>&1 || {{ echo 'hookgate is not installed at {}: refusing' >&2; exit {code}; }}; exec {bin} hook --gateway {}{event_arg}{}",
            self.bin.replace('\'', ""),
            self.gateway.name(),
            self.extra
        )
    }
}

/// `s` quoted for a POSIX shell.
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-:=@+,".contains(c))
    {
        return s.to_owned();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The events `init` wires for each gateway: every one its adapter maps that matters for a
/// decision (tool calls, prompts, sessions, sub-agents).
fn events(gateway: Gateway) -> &'static [&'static str] {
    match gateway {
        Gateway::ClaudeCode => &[
            "PreToolUse",
            "PostToolUse",
            "UserPromptSubmit",
            "PermissionRequest",
            "SessionStart",
            "Stop",
            "SubagentStart",
            "SubagentStop",
        ],
        Gateway::Gemini => &[
            "BeforeTool",
            "AfterTool",
            "BeforeAgent",
            "AfterAgent",
            "SessionStart",
            "SessionEnd",
        ],
        Gateway::Codex => &[
            "PreToolUse",
            "PostToolUse",
            "PermissionRequest",
            "UserPromptSubmit",
            "SessionStart",
            "Stop",
        ],
        Gateway::Copilot => &[
            "preToolUse",
            "postToolUse",
            "userPromptSubmitted",
            "sessionStart",
            "sessionEnd",
            "agentStop",
            "subagentStart",
            "subagentStop",
        ],
        Gateway::Cursor => &[
            "beforeShellExecution",
            "beforeMCPExecution",
            "beforeReadFile",
            "afterFileEdit",
            "beforeSubmitPrompt",
            "stop",
        ],
        Gateway::Opencode => &[],
    }
}

/// Whether a hook entry is one `init` wrote (so a second run replaces it, not adds one).
fn is_ours(entry: &Value) -> bool {
    let text = entry.to_string();
    text.contains(" hook --gateway ")
}

/// `settings` with hookgate's hook at each event, every other entry kept.
fn merge(
    gateway: Gateway,
    mut settings: Map<String, Value>,
    hook: &HookCommand,
) -> Map<String, Value> {
    if matches!(gateway, Gateway::Copilot | Gateway::Cursor) {
        settings.entry("version").or_insert(json!(1));
    }
    let hooks = settings
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    if !hooks.is_object() {
        // A `hooks` that is not an object is not a configuration the gateway reads.
        *hooks = Value::Object(Map::new());
    }
    let Some(hooks) = hooks.as_object_mut() else {
        return settings;
    };
    for event in events(gateway) {
        let entry = entry(gateway, event, &hook.wrapped(event));
        let list = hooks
            .entry((*event).to_owned())
            .or_insert_with(|| Value::Array(Vec::new()));
        if !list.is_array() {
            *list = Value::Array(Vec::new());
        }
        if let Some(list) = list.as_array_mut() {
            list.retain(|e| !is_ours(e));
            list.push(entry);
        }
    }
    settings
}

/// One hook entry in the gateway's own shape.
fn entry(gateway: Gateway, event: &str, command: &str) -> Value {
    match gateway {
        // A matcher group holding the command (`.*` matches every tool for tool events, and
        // is ignored by the others).
        Gateway::ClaudeCode | Gateway::Codex => json!({
            "hooks": [{ "type": "command", "command": command, "timeout": 30 }] }),
        // Gemini CLI's matcher is a regex for tool events and an exact string for the
        // others, so only tool events get one.
        Gateway::Gemini if event.contains("Tool") => json!({ "matcher": ".*",
            "hooks": [{ "type": "command", "command": command, "name": "hookgate",
                        "timeout": 30000 }] }),
        Gateway::Gemini => json!({ "hooks": [{ "type": "command", "command": command,
                                               "name": "hookgate", "timeout": 30000 }] }),
        Gateway::Copilot => json!({ "type": "command", "bash": command, "timeoutSec": 30 }),
        Gateway::Cursor => json!({ "command": command }),
        Gateway::Opencode => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hook(gateway: Gateway) -> HookCommand {
        HookCommand {
            gateway,
            bin: "/opt/hook gate/hookgate".into(),
            extra: String::new(),
        }
    }

    #[test]
    fn merging_keeps_what_is_there_and_replaces_our_own() {
        let existing = json!({ "theme": "dark", "hooks": { "BeforeTool": [
            { "matcher": "write_file", "hooks": [{ "type": "command", "command": "./lint.sh" }] },
            { "hooks": [{ "type": "command", "command": "old hook --gateway gemini" }] } ] } });
        let merged = merge(
            Gateway::Gemini,
            existing.as_object().cloned().unwrap_or_default(),
            &hook(Gateway::Gemini),
        );
        assert_eq!(merged["theme"], "dark");
        let before = merged["hooks"]["BeforeTool"].as_array().unwrap();
        assert_eq!(before.len(), 2, "{before:?}");
        assert_eq!(before[0]["hooks"][0]["command"], "./lint.sh");
        let command = before[1]["hooks"][0]["command"].as_str().unwrap();
        assert!(
            command.starts_with("command -v '/opt/hook gate/hookgate'"),
            "{command}"
        );
        assert!(command.contains("exit 2;"), "{command}");
        let after = merged["hooks"]["AfterAgent"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap();
        assert!(
            after.contains("exit 1;"),
            "AfterAgent cannot be blocked: {after}"
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("/usr/bin/hookgate"), "/usr/bin/hookgate");
        assert_eq!(quote("/a b/it's"), r"'/a b/it'\''s'");
    }
}
