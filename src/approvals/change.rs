//! One change to the approvals state: what the journal records, and what both the live state
//! and a replay apply. The same [`Change::apply`] serves both, so a state read back after a
//! crash is the state that was served.

use serde::{Deserialize, Serialize};

use super::model::{ApprovalRequest, Grant, HistoryEntry, State};

/// A change to the approvals state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Change {
    /// A request became pending.
    Opened {
        /// The request, its arguments already masked.
        request: ApprovalRequest,
    },
    /// A human decided a pending request.
    Decided {
        /// The request.
        request_id: String,
        /// The grant the decision left, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        grant: Option<Grant>,
        /// The history entry.
        entry: HistoryEntry,
    },
    /// Pending requests reached their expiry; each entry names its request.
    Expired {
        /// One history entry per expired request.
        entries: Vec<HistoryEntry>,
    },
    /// A one-time approval let its call through.
    GrantUsed {
        /// The grant.
        grant_id: String,
    },
    /// A grant was revoked.
    Revoked {
        /// The grant.
        grant_id: String,
    },
}

impl Change {
    /// Applies the change. Ids that are not there are ignored: applying is total, so a replay
    /// never stops on a change whose target an earlier change removed.
    pub fn apply(&self, state: &mut State) {
        match self {
            Change::Opened { request } => state.pending.push(request.clone()),
            Change::Decided {
                request_id,
                grant,
                entry,
            } => {
                state.pending.retain(|p| p.id != *request_id);
                state.grants.extend(grant.clone());
                state.remember(entry.clone());
            }
            Change::Expired { entries } => {
                state
                    .pending
                    .retain(|p| !entries.iter().any(|e| e.request_id == p.id));
                for entry in entries {
                    state.remember(entry.clone());
                }
            }
            Change::GrantUsed { grant_id } | Change::Revoked { grant_id } => {
                state.grants.retain(|g| g.id() != grant_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ApprovalDecision;

    fn entry(id: &str) -> HistoryEntry {
        HistoryEntry {
            request_id: id.into(),
            decision: ApprovalDecision::Deny,
            by: "ops".into(),
            at_ms: 1,
            tool: None,
            subject: "deploy".into(),
            session_key: "s".into(),
            pattern: None,
        }
    }

    #[test]
    fn changes_round_trip_as_one_json_line() {
        let change = Change::Decided {
            request_id: "apr_1".into(),
            grant: None,
            entry: entry("apr_1"),
        };
        let line = serde_json::to_string(&change).unwrap();
        assert!(!line.contains('\n'));
        assert!(
            line.starts_with(r#"{"kind":"decided","requestId":"apr_1""#),
            "{line}"
        );
        assert_eq!(serde_json::from_str::<Change>(&line).unwrap(), change);
    }

    #[test]
    fn applying_a_change_to_a_missing_target_changes_nothing_else() {
        let mut state = State::default();
        Change::Revoked {
            grant_id: "g_x".into(),
        }
        .apply(&mut state);
        assert_eq!(state, State::default());
        Change::Expired {
            entries: vec![entry("apr_gone")],
        }
        .apply(&mut state);
        assert_eq!(state.history.len(), 1);
    }
}
