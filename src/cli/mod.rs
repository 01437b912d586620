//! Command-line interface: a thin layer over the library.

mod approvals;
mod check;
mod context_args;
mod daemon;
mod hook;
mod hooks;
mod init;
mod lint;
mod packs;
mod report;
mod serve;
mod test;
mod validate;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::{self, ConfigError, LoadedPolicy};
use crate::terminal;
use clap::{Parser, Subcommand, ValueEnum};

/// The policy gate for AI-agent gateways.
#[derive(Debug, Parser)]
#[command(name = "hookgate", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Format of the log on stderr (level from $HOOKGATE_LOG, e.g. `debug`).
    #[arg(long, global = true, value_enum, default_value_t)]
    log_format: LogFormat,
}

/// Format of the diagnostic log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check a policy file and report every problem with its line and column.
    Validate(validate::Args),
    /// Evaluate a lifecycle point against a policy and explain the decision.
    Check(check::Args),
    /// Print the JSON Schema of HOOKS.yaml (for editors and CI).
    Schema,
    /// Run the gate as an HTTP daemon that reloads its policy live.
    Serve(serve::Args),
    /// List and decide approval requests; list and revoke grants.
    Approvals(approvals::Args),
    /// A gateway's hook command: its hook JSON on stdin, its own answer on stdout (Claude
    /// Code, Gemini CLI, Codex, Copilot CLI, Cursor, opencode).
    Hook(hook::Args),
    /// A Claude Code command hook: the same as `hook --gateway claude-code`.
    ClaudeCode(hook::ClaudeCodeArgs),
    /// Wire hookgate into a gateway: write (or print) its hook configuration.
    Init(init::Args),
    /// List the policy's hooks: name, points, action, enabled, source.
    List(hooks::ListArgs),
    /// Switch a hook on: edits its `enabled` line in place; through the daemon (admin role)
    /// when one serves the policy.
    Enable(hooks::SwitchArgs),
    /// Switch a hook off: edits its `enabled` line in place; through the daemon (admin role)
    /// when one serves the policy.
    Disable(hooks::SwitchArgs),
    /// Ask the running daemon to reload its policy now (admin role).
    Reload(hooks::ReloadArgs),
    /// List the packs in `policies/` beside the policy: what each guards, its hooks, and
    /// whether the policy includes it.
    Packs(packs::Args),
    /// Run policy test files (`*.test.yaml`): expected decisions, coverage, JUnit for CI.
    Test(test::Args),
    /// Report smells in a valid policy: hooks that can never fire, blocks that fail open,
    /// duplicates, likely regex mistakes.
    Lint(lint::Args),
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
enum Format {
    /// Human-readable.
    #[default]
    Text,
    /// Machine-readable JSON.
    Json,
}

/// Exit code for usage and config errors.
const EXIT_ERROR: u8 = 1;

pub(crate) fn run() -> ExitCode {
    let cli = Cli::parse();
    // A daemon reports its life (listening, reloads) by default; one-shot commands only warn.
    let default_level = match cli.command {
        Command::Serve(_) => "info",
        _ => "warn",
    };
    init_tracing(cli.log_format, default_level);
    let code = match cli.command {
        Command::Serve(args) => serve::run(args, cli.log_format),
        Command::Approvals(args) => approvals::run(args),
        Command::ClaudeCode(args) => hook::run_claude_code(args),
        Command::Hook(args) => hook::run(args),
        Command::Init(args) => init::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Check(args) => check::run(args),
        Command::List(args) => hooks::list(args),
        Command::Enable(args) => hooks::switch(args, true),
        Command::Disable(args) => hooks::switch(args, false),
        Command::Reload(args) => hooks::reload(args),
        Command::Packs(args) => packs::run(args),
        Command::Test(args) => test::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Schema => {
            emit(config::HOOKS_SCHEMA);
            0
        }
    };
    ExitCode::from(code)
}

/// The log on stderr. Its fields carry what agents send and policies say (tool names,
/// session keys, hook names, messages, paths): in text, each value has its controls and
/// bidirectional formatting characters escaped ([`terminal::escape`]); in JSON, the line is
/// [`terminal::escape_json`]ed. The level and colours stay the formatter's own.
fn init_tracing(format: LogFormat, default_level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("HOOKGATE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_level));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = match format {
        LogFormat::Json => builder.json().with_writer(|| EscapedJson).try_init(),
        LogFormat::Text => builder
            .with_writer(std::io::stderr)
            .with_ansi(std::io::stderr().is_terminal())
            .fmt_fields(escaped_fields())
            .try_init(),
    };
}

/// The text log's fields, `name=value` apart from the message, each value escaped.
fn escaped_fields() -> impl for<'w> tracing_subscriber::fmt::FormatFields<'w> + 'static {
    use tracing_subscriber::field::MakeExt;
    tracing_subscriber::fmt::format::debug_fn(|writer, field, value| {
        let value = format!("{value:?}");
        let name = field.name();
        match name {
            "message" => write!(writer, "{}", terminal::escape(&value)),
            _ => write!(
                writer,
                "{}={}",
                name.strip_prefix("r#").unwrap_or(name),
                terminal::escape(&value)
            ),
        }
    })
    .delimited(" ")
}

/// stderr for JSON log lines, each [`terminal::escape_json`]ed (the formatter writes a
/// whole line at a time).
struct EscapedJson;

impl Write for EscapedJson {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut stderr = std::io::stderr().lock();
        match std::str::from_utf8(buf) {
            Ok(text) => stderr.write_all(terminal::escape_json(text).as_bytes())?,
            Err(_) => stderr.write_all(buf)?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// The runtime of a one-shot command that evaluates policies: one thread, with timers (for
/// action timeouts and retries).
fn evaluation_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
}

/// Prints to stdout; a closed pipe (`hookgate check | head`) is not an error worth a panic.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// The policy file of a command that reads one: `FILE` or `--config` (`validate`, `lint`).
#[derive(Debug, clap::Args)]
struct PolicyFileArgs {
    /// Policy file (default: --config, $HOOKGATE_CONFIG, $OPENCLAW_HOOKS_CONFIG, ./HOOKS.yaml,
    /// $OPENCLAW_WORKSPACE/HOOKS.yaml).
    file: Option<PathBuf>,
    /// Policy file (same as FILE).
    #[arg(long, conflicts_with = "file")]
    config: Option<PathBuf>,
}

impl PolicyFileArgs {
    /// The policy file named, else the one discovery finds.
    fn path(&self) -> Result<PathBuf, ConfigError> {
        policy_path(self.file.as_deref().or(self.config.as_deref()))
    }
}

/// Finds the policy file (`--config`, then the environment, then the usual places).
fn policy_path(flag: Option<&Path>) -> Result<PathBuf, ConfigError> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let (path, _) = config::locate_policy(flag, |k| std::env::var(k).ok(), &cwd)?;
    Ok(path)
}

/// Finds and loads the policy. Its warnings go to the log (`validate` and `lint` show them
/// with snippets).
fn load_policy(flag: Option<&PathBuf>) -> Result<LoadedPolicy, ConfigError> {
    let policy = config::load_file(&policy_path(flag.map(PathBuf::as_path))?)?;
    for w in &policy.warnings {
        tracing::warn!("{w}");
    }
    Ok(policy)
}
