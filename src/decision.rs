//! The output of an evaluation.

use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::Mode;
use crate::point::Point;

/// What the gateway should do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Go on.
    Allow,
    /// Stop; show the message.
    Block,
    /// Wait for a human (an approval is pending).
    Ask,
}

impl Verdict {
    /// The exit code of `hookgate check` for this verdict: 0, 2 or 3.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Allow => 0,
            Verdict::Block => 2,
            Verdict::Ask => 3,
        }
    }
}

/// The result of one hook's action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HookResult {
    /// The hook's id (`name`, else `hooks[i]`).
    pub hook: String,
    /// The action that produced the result.
    pub action: String,
    /// false: the hook stops the chain.
    pub passed: bool,
    /// What happened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Wall-clock time of the hook, in milliseconds.
    pub duration_ms: f64,
    /// true: the hook would have blocked but runs in audit mode, so it passed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub audit: bool,
}

/// The answer for one lifecycle point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// The point evaluated.
    pub point: Point,
    /// allow, block or ask.
    pub decision: Verdict,
    /// false exactly when some result did not pass.
    pub passed: bool,
    /// The deciding result's message.
    pub message: Option<String>,
    /// The deciding hook's id.
    pub hook: Option<String>,
    /// The policy's default mode.
    pub mode: Mode,
    /// One result per hook that fired, in order.
    pub results: Vec<HookResult>,
    /// Context the gateway should prepend for the model.
    pub injected_context: Vec<String>,
    /// Messages for the session's user that hooks sent (already queued for delivery per
    /// `defaults.notify`; listed so a gateway can deliver them through its own channels).
    /// Omitted from the JSON when empty, so the shape docs/hooks-reference.md gives is unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notifications: Vec<crate::notify::Notice>,
    /// Replacement tool parameters, when a hook rewrote them.
    pub params: Option<Value>,
    /// The pending approval request, for `ask`.
    pub approval: Option<Value>,
    /// Correlation id (the context's, or a generated one). Kept inline when it is short, as
    /// a generated one without a topic is, so that an allow decision needs no allocation.
    pub trace_id: CompactString,
}

impl Decision {
    /// The exit code of `hookgate check`: 0 allow, 2 block, 3 ask.
    pub fn exit_code(&self) -> i32 {
        self.decision.exit_code()
    }
}
