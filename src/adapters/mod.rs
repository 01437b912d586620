//! Translation between gateways' own hook payloads and hookgate's context and decision.

pub mod claude_code;
pub mod openclaw;
mod openclaw_result;

use crate::engine::Engine;

/// Evaluates one Claude Code hook payload and answers in Claude Code's format. Never fails:
/// an unreadable payload is answered per [`claude_code::failure`].
pub async fn claude_code(engine: &Engine, payload: &[u8]) -> claude_code::Answer {
    match claude_code::parse(payload) {
        Ok(event) => {
            let decision = engine.evaluate(event.point, &event.context).await;
            claude_code::answer(&event.name, &decision)
        }
        Err(e) => claude_code::failure(&claude_code::event_name(payload), &e.to_string()),
    }
}
