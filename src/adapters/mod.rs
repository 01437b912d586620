//! Translation between gateways' own hook payloads and hookgate's context and decision.
//!
//! [`translate`] is what every command-hook gateway shares (the payload read as an object,
//! the caller's session key and sub-agent identity, `cwd` and `workspace`, the answer of a
//! hook command); [`tools`] maps each gateway's tool names to hookgate's canonical ones;
//! [`Gateway`] dispatches to one module per gateway. OpenClaw, a plugin API rather than a
//! hook command, has its own shapes ([`openclaw`]).

pub mod claude_code;
pub mod codex;
pub mod copilot;
pub mod cursor;
mod gateway;
pub mod gemini;
pub mod openclaw;
mod openclaw_result;
pub mod opencode;
pub mod tools;
pub mod translate;

pub use gateway::Gateway;
pub use translate::{Answer, Event, PayloadError};

use crate::engine::Engine;

/// Evaluates one Claude Code hook payload and answers in Claude Code's format. Never fails:
/// an unreadable payload is answered per [`claude_code::failure`].
pub async fn claude_code(engine: &Engine, payload: &[u8]) -> claude_code::Answer {
    Gateway::ClaudeCode.evaluate(engine, payload, None).await
}
