//! What the approvals file holds: pending requests, grants and a bounded history.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::config::{ApprovalDecision, Risk, TimeoutAction};
use crate::point::Point;

/// The format version of the approvals file.
pub(super) const FORMAT_VERSION: u32 = 1;
/// Decisions kept in the history, at most (the oldest go first).
pub(super) const HISTORY_LIMIT: usize = 1000;

/// A call waiting for a human.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRequest {
    /// `apr_<16 hex>`.
    pub id: String,
    /// The hook that asked.
    pub hook: String,
    /// Where.
    pub point: Point,
    /// Whose call.
    pub session_key: String,
    /// The tool, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Map<String, Value>>,
    /// The command subject (what grants are matched against).
    pub subject: String,
    /// How risky.
    pub risk: Risk,
    /// Why it needs a human.
    pub reasons: Vec<String>,
    /// When it was asked (Unix ms).
    pub created_at_ms: u64,
    /// When it times out (Unix ms).
    pub expires_at_ms: u64,
    /// What happens then.
    pub timeout_action: TimeoutAction,
    /// What the approver may choose.
    pub allowed_decisions: Vec<ApprovalDecision>,
}

/// A standing permission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum Grant {
    /// `tool:glob` on the command subject, for every session.
    Always {
        /// `g_<16 hex>`.
        id: String,
        /// `exec:ls *`, `Read:*.md` (for display; `tool` and `glob` are what match).
        pattern: String,
        /// The tool, exactly (it may itself contain `:`).
        tool: String,
        /// The glob on the command subject.
        glob: String,
        /// Who granted it.
        by: String,
        /// When (Unix ms).
        at_ms: u64,
    },
    /// This tool and exact subject, for one session.
    Session {
        /// `g_<16 hex>`.
        id: String,
        /// The session.
        session_key: String,
        /// The tool ("" when the call had none).
        tool: String,
        /// The exact subject.
        subject: String,
        /// Who granted it.
        by: String,
        /// When (Unix ms).
        at_ms: u64,
    },
    /// `approve`: the next identical call in the session passes, once.
    Once {
        /// `g_<16 hex>`.
        id: String,
        /// The session.
        session_key: String,
        /// The tool ("" when the call had none).
        tool: String,
        /// The exact subject.
        subject: String,
        /// Who approved.
        by: String,
        /// When (Unix ms).
        at_ms: u64,
    },
}

impl Grant {
    /// The grant's id.
    pub fn id(&self) -> &str {
        match self {
            Grant::Always { id, .. } | Grant::Session { id, .. } | Grant::Once { id, .. } => id,
        }
    }
}

/// One decision, as remembered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    /// The request decided.
    pub request_id: String,
    /// The decision (`timeout` decisions are recorded as deny or approve with by = "timeout").
    pub decision: ApprovalDecision,
    /// Who decided.
    pub by: String,
    /// When (Unix ms).
    pub at_ms: u64,
    /// The request's tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The request's subject.
    pub subject: String,
    /// The session.
    pub session_key: String,
    /// For approve_always: the pattern granted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
}

/// The whole approvals state, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct State {
    /// [`FORMAT_VERSION`].
    pub version: u32,
    /// Requests waiting for a decision.
    pub pending: Vec<ApprovalRequest>,
    /// Standing permissions.
    pub grants: Vec<Grant>,
    /// The last [`HISTORY_LIMIT`] decisions, oldest first.
    pub history: VecDeque<HistoryEntry>,
}

impl Default for State {
    fn default() -> Self {
        State {
            version: FORMAT_VERSION,
            pending: Vec::new(),
            grants: Vec::new(),
            history: VecDeque::new(),
        }
    }
}

impl State {
    /// Records a decision, dropping the oldest beyond the limit.
    pub fn remember(&mut self, entry: HistoryEntry) {
        self.history.push_back(entry);
        while self.history.len() > HISTORY_LIMIT {
            self.history.pop_front();
        }
    }
}
