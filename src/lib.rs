//! # hookgate
//!
//! The policy gate for AI-agent gateways. A security team writes `HOOKS.yaml`; hookgate
//! compiles it into a [`RuleGraph`] and the gateway's agent loop asks an [`Engine`] for a
//! [`Decision`] at every lifecycle point (before each tool call, on each prompt, when a
//! sub-agent spawns, ...): allow, block, or ask a human.
//!
//! The pipeline runs one way: [`config`] (YAML within budgets → JSON Schema → typed, checked
//! [`Document`]) → [`graph`] (immutable index by point and tool) → [`Engine`] (matching,
//! ordering, short-circuit, `onFailure`) → actions (`block`, `log`).
//!
//! ```
//! use std::{path::Path, sync::Arc};
//! use hookgate::{Engine, HookContext, Point, RuleGraph, Verdict, config};
//!
//! let policy = config::load_str(r#"
//! version: "1"
//! hooks:
//!   - name: rm-guard
//!     point: [turn:tool:pre, subagent:tool:pre]
//!     match: { tool: exec, commandPattern: "rm\\s+-[a-zA-Z]*[rf]" }
//!     action: block
//!     onFailure: { action: block, message: "Blocked: recursive rm" }
//! "#, Path::new("HOOKS.yaml"))?;
//! let engine = Engine::new(Arc::new(RuleGraph::from_policy(&policy)));
//!
//! let args = serde_json::json!({ "command": "rm -rf /" });
//! let ctx = HookContext::new("agent:main:main")
//!     .with_tool("exec", args.as_object().cloned().unwrap_or_default());
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
//! let decision = runtime.block_on(engine.evaluate(Point::TurnToolPre, &ctx));
//! assert_eq!(decision.decision, Verdict::Block);
//! assert_eq!(decision.message.as_deref(), Some("Blocked: recursive rm"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The engine is async because some actions do I/O; matching itself is synchronous and
//! touches only the hooks indexed under the point and tool. Evaluation never panics and never
//! returns an error: action failures become results through the hook's `onFailure` policy.

// With `server` but not `cli`, the daemon's code is built (for `reload::PolicyWatcher` and
// its tests) but nothing starts it: `hookgate serve` is the CLI's.
#![cfg_attr(
    all(feature = "server", not(feature = "cli")),
    allow(dead_code, unused_imports)
)]

// Private by default: the public API is what this file re-exports and the modules it marks
// `pub` (docs/architecture.md, "The public API"). `unreachable_pub` keeps it that way.
mod actions;
#[cfg(feature = "server")]
mod adapters;
pub mod approvals;
#[cfg(feature = "cli")]
mod cli;
pub mod config;
mod context;
mod decision;
mod engine;
mod graph;
mod js;
#[cfg(feature = "server")]
mod json_keys;
#[cfg(feature = "cli")]
mod lint;
mod llm;
mod mask;
mod matcher;
mod notify;
mod point;
#[cfg(feature = "cli")]
mod policy_test;
mod process;
mod regular_file;
pub mod reload;
#[cfg(feature = "server")]
mod server;
mod suggest;
mod terminal;
mod walk;
mod worker;

pub use actions::Services;
pub use config::{ConfigError, Diagnostic, DiagnosticKind, Document, LoadedPolicy};
pub use context::HookContext;
pub use decision::{Decision, HookResult, Verdict};
pub use engine::{Engine, EvalOptions, Step};
pub use graph::RuleGraph;
pub use notify::{Notice, Notifier};
pub use point::Point;

/// The shell reader: a command line read as bash would run it, within bounds
/// (`docs/shell-reader.md`).
pub mod shell {
    pub use crate::matcher::shell::effects::touches;
    pub use crate::matcher::shell::{
        CommandLine, Host, MAX_COMMANDS, MAX_DEPTH, MAX_INPUT, Redirect, SUBSTITUTION,
        SimpleCommand, parse, parse_counting, parse_on,
    };
}

/// The code reader: inline Python, JavaScript, Perl, Ruby, PHP and Lua read for what they
/// run, delete, read, write and fetch (`docs/code-reader.md`).
pub mod code {
    pub use crate::matcher::code::{
        Effect, Found, Lang, MAX_CODE, MAX_EFFECTS, PARSE_WORK, Reading, Unread, Val, read,
        read_within,
    };
}

/// The `hookgate` command line: parses the process's arguments, runs the command and
/// returns its exit code. The binary's `main` is this call.
#[cfg(feature = "cli")]
pub fn run_cli() -> std::process::ExitCode {
    cli::run()
}

/// Internals the project's own integration tests and benches reach into. Not part of the
/// API: no documentation, no stability, may change in any release.
#[doc(hidden)]
pub mod internals {
    pub use crate::matcher::Filter;
    pub use crate::matcher::paths::read_words;
    pub use crate::matcher::places::Where;
    #[cfg(feature = "cli")]
    pub use crate::policy_test::file::load_file as load_test_file;
    pub use crate::terminal::is_escaped;
}
