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

pub mod actions;
pub mod adapters;
pub mod approvals;
pub mod config;
pub mod context;
pub mod decision;
pub mod engine;
pub mod graph;
pub mod json_keys;
pub mod lint;
pub mod llm;
pub mod mask;
pub mod matcher;
pub mod notify;
pub mod point;
pub mod policy_test;
pub mod process;
pub mod reload;
#[cfg(feature = "server")]
pub mod server;
mod suggest;
pub mod terminal;
mod walk;
mod worker;

pub use config::{ConfigError, Diagnostic, Document, LoadedPolicy};
pub use context::HookContext;
pub use decision::{Decision, HookResult, Verdict};
pub use engine::{Engine, EvalOptions, Step};
pub use graph::RuleGraph;
pub use point::Point;
