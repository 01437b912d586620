//! The JSON of the approvals: what `/v1/approvals` and `/v1/grants` answer, and what
//! `hookgate approvals` prints, whether it asked the daemon or read the file. One set of
//! shapes, serialised by the server and by the CLI, and read back by the CLI.

use serde::{Deserialize, Serialize};

use super::{ApprovalRequest, Grant, HistoryEntry, Resolution};
use crate::config::ApprovalDecision;

/// The pending requests, and why approvals cannot be used if they cannot.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct PendingList {
    /// The requests waiting for a decision.
    pub pending: Vec<ApprovalRequest>,
    /// Why requests are denied without being kept (`null` when they are kept).
    #[serde(default)]
    pub unavailable: Option<String>,
}

/// One request, pending or decided.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub(crate) enum Shown {
    /// Still waiting.
    Pending {
        /// The request.
        request: ApprovalRequest,
    },
    /// Decided: what the history keeps of it.
    Decided {
        /// The decision.
        decision: HistoryEntry,
    },
}

/// A decision taken, and how the request ended.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Decided {
    /// The request decided.
    pub request: ApprovalRequest,
    /// How it ended.
    pub resolution: Resolution,
}

/// The standing grants.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct GrantList {
    /// Every grant.
    pub grants: Vec<Grant>,
}

/// A grant removed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Revoked {
    /// Its id.
    pub revoked: String,
}

/// The body of `POST /v1/approvals/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct DecisionRequest {
    /// The decision.
    pub decision: ApprovalDecision,
    /// Who decides (default "api").
    #[serde(default)]
    pub by: Option<String>,
    /// approve_always: the grant pattern (`tool:glob`); default the exact subject.
    #[serde(default)]
    pub pattern: Option<String>,
}
