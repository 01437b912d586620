//! Translation between gateways' own hook payloads and hookgate's context and decision.
//!
//! [`translate`] is what every command-hook gateway shares (the payload read as an object,
//! the caller's session key and sub-agent identity, `cwd` and `workspace`, the answer of a
//! hook command); [`tools`] maps each gateway's tool names to hookgate's canonical ones;
//! [`Gateway`] dispatches to one module per gateway. OpenClaw, a plugin API rather than a
//! hook command, has its own shapes ([`openclaw`]).

pub(crate) mod claude_code;
pub(crate) mod codex;
pub(crate) mod copilot;
pub(crate) mod cursor;
mod gateway;
pub(crate) mod gemini;
pub(crate) mod openclaw;
mod openclaw_result;
pub(crate) mod opencode;
pub(crate) mod tools;
pub(crate) mod translate;

pub(crate) use gateway::Gateway;
pub(crate) use translate::Answer;
