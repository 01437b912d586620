//! Approvals: calls that wait for a human, the decisions humans take, and the grants those
//! decisions leave behind (DESIGN.md, "Approvals").
//!
//! [`Approvals`] keeps the state in memory and writes every change through its
//! [`ApprovalStore`] before answering, while holding its lock: writes are serialised, and a
//! decision that was acknowledged is on disk.

pub mod model;
pub mod store;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use globset::{GlobBuilder, GlobMatcher};
use serde::Serialize;
use tokio::sync::watch;

pub use model::{ApprovalRequest, Grant, HistoryEntry, State};
pub use store::{ApprovalStore, FileStore, StoreError};

use crate::config::{ApprovalDecision, TimeoutAction};

/// How a request ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Resolution {
    /// A human approved it (once, for the session, or always).
    Approved {
        /// Who.
        by: String,
        /// How.
        decision: ApprovalDecision,
    },
    /// A human denied it.
    Denied {
        /// Who.
        by: String,
    },
    /// Nobody decided in time; `timeoutAction` applied.
    TimedOut {
        /// What applied.
        action: TimeoutAction,
    },
    /// The wait was cut short because the daemon is shutting down; the request stays pending
    /// (and is read back at the next start).
    Released,
}

/// Why a decision was refused.
#[derive(Debug, thiserror::Error)]
pub enum DecideError {
    /// No pending request has this id, and none was decided.
    #[error("no approval request `{0}`")]
    NotFound(String),
    /// The request was decided already (by someone else, or it timed out).
    #[error("approval request `{0}` was already decided")]
    AlreadyDecided(String),
    /// The hook does not offer this decision.
    #[error("`{decision:?}` is not allowed for this request; allowed: {allowed:?}")]
    NotAllowed {
        /// What was asked.
        decision: ApprovalDecision,
        /// What the hook allows.
        allowed: Vec<ApprovalDecision>,
    },
    /// The request expired before the decision (its timeout action applies).
    #[error("approval request `{0}` has expired")]
    Expired(String),
    /// `by` is empty or reserved (`timeout` marks timeouts in the history).
    #[error("invalid `by` \"{0}\": give the approver's name")]
    InvalidBy(String),
    /// An always-grant pattern that is not `tool:glob`.
    #[error("invalid pattern `{pattern}`: {reason}")]
    BadPattern {
        /// The pattern.
        pattern: String,
        /// Why.
        reason: String,
    },
    /// The decision could not be stored, so it was not taken.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A matched grant, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantMatch {
    /// How it reads: `always grant exec:ls *`, `session grant`, `one-time approval`.
    pub description: String,
}

/// The live approvals state over a store.
#[derive(Debug)]
pub struct Approvals {
    store: Box<dyn ApprovalStore>,
    inner: Mutex<Inner>,
    /// Set when the store could not be read and the daemon runs deny-all.
    unavailable: Option<String>,
    /// Becomes true when waiting callers must be answered now (shutdown).
    released: watch::Sender<bool>,
}

#[derive(Debug, Default)]
struct Inner {
    state: State,
    /// Compiled always-grants: (grant id, tool, glob on the subject).
    always: Vec<(String, String, GlobMatcher)>,
    /// Resolution channels of pending requests, for callers that wait.
    waiters: HashMap<String, watch::Sender<Option<Resolution>>>,
}

impl Approvals {
    /// Opens the approvals kept in `store`.
    pub fn open(store: Box<dyn ApprovalStore>) -> Result<Approvals, StoreError> {
        let state = store.load()?;
        let mut inner = Inner {
            state,
            ..Inner::default()
        };
        inner.compile();
        Ok(Approvals {
            store,
            inner: Mutex::new(inner),
            unavailable: None,
            released: watch::channel(false).0,
        })
    }

    /// Approvals that deny every request, because the store is unusable (`reason`).
    pub fn deny_all(store: Box<dyn ApprovalStore>, reason: String) -> Approvals {
        Approvals {
            store,
            inner: Mutex::new(Inner::default()),
            unavailable: Some(reason),
            released: watch::channel(false).0,
        }
    }

    /// Answers every waiting caller now with [`Resolution::Released`], and every later one at
    /// once: nobody can decide while the daemon drains. Requests stay pending.
    pub fn release_waiters(&self) {
        self.released.send_replace(true);
    }

    /// Why approvals are unavailable (every request is denied), if they are.
    pub fn unavailable(&self) -> Option<&str> {
        self.unavailable.as_deref()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The grant that lets this call through without asking, if any. A one-time approval is
    /// used up by the call it lets through.
    pub fn use_grant(
        &self,
        session_key: &str,
        tool: Option<&str>,
        subject: &str,
    ) -> Result<Option<GrantMatch>, StoreError> {
        if self.unavailable.is_some() {
            return Ok(None);
        }
        let mut inner = self.lock();
        let tool = tool.unwrap_or("");
        for (id, grant_tool, glob) in &inner.always {
            if grant_tool == tool && glob.is_match(subject) {
                let pattern = inner
                    .state
                    .grants
                    .iter()
                    .find_map(|g| match g {
                        Grant::Always {
                            id: gid, pattern, ..
                        } if gid == id => Some(pattern.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                return Ok(Some(GrantMatch {
                    description: format!("always grant `{pattern}`"),
                }));
            }
        }
        let found = inner.state.grants.iter().position(|g| match g {
            Grant::Session {
                session_key: s,
                tool: t,
                subject: sub,
                ..
            }
            | Grant::Once {
                session_key: s,
                tool: t,
                subject: sub,
                ..
            } => s == session_key && t == tool && sub == subject,
            Grant::Always { .. } => false,
        });
        let Some(index) = found else {
            return Ok(None);
        };
        if let Grant::Once { by, .. } = &inner.state.grants[index] {
            let description = format!("one-time approval by {by}");
            let mut next = inner.state.clone();
            next.grants.remove(index);
            self.store.save(&next)?;
            inner.state = next;
            return Ok(Some(GrantMatch { description }));
        }
        let by = match &inner.state.grants[index] {
            Grant::Session { by, .. } => by.clone(),
            _ => String::new(),
        };
        Ok(Some(GrantMatch {
            description: format!("session grant by {by}"),
        }))
    }

    /// Records `request` as pending, unless the same call (hook, session, tool, subject) is
    /// pending already; returns the pending request and whether it is new.
    pub fn open_request(
        &self,
        request: ApprovalRequest,
    ) -> Result<(ApprovalRequest, bool), StoreError> {
        let mut inner = self.lock();
        if let Some(existing) = inner.state.pending.iter().find(|p| {
            p.hook == request.hook
                && p.session_key == request.session_key
                && p.tool == request.tool
                && p.subject == request.subject
        }) {
            return Ok((existing.clone(), false));
        }
        let mut next = inner.state.clone();
        next.pending.push(request.clone());
        self.store.save(&next)?;
        inner.state = next;
        inner
            .waiters
            .insert(request.id.clone(), watch::channel(None).0);
        Ok((request, true))
    }

    /// Decides a pending request. Exactly one decision wins; later ones get
    /// [`DecideError::AlreadyDecided`].
    pub fn decide(
        &self,
        id: &str,
        decision: ApprovalDecision,
        by: &str,
        pattern: Option<&str>,
    ) -> Result<(ApprovalRequest, Resolution), DecideError> {
        let mut inner = self.lock();
        let Some(index) = inner.state.pending.iter().position(|p| p.id == id) else {
            return Err(if inner.state.history.iter().any(|h| h.request_id == id) {
                DecideError::AlreadyDecided(id.to_owned())
            } else {
                DecideError::NotFound(id.to_owned())
            });
        };
        let request = inner.state.pending[index].clone();
        if by.trim().is_empty() || by == "timeout" {
            return Err(DecideError::InvalidBy(by.to_owned()));
        }
        if request.expires_at_ms <= now_ms() {
            return Err(DecideError::Expired(id.to_owned()));
        }
        if !request.allowed_decisions.contains(&decision) {
            return Err(DecideError::NotAllowed {
                decision,
                allowed: request.allowed_decisions,
            });
        }
        let now = now_ms();
        let tool = request.tool.clone().unwrap_or_default();
        // A caller waiting on this request takes a one-time approval itself; only a caller
        // that re-asks later needs a one-time grant to find.
        let waited_for = inner
            .waiters
            .get(id)
            .is_some_and(|w| w.receiver_count() > 0);
        let mut next = inner.state.clone();
        next.pending.remove(index);
        let mut granted_pattern = None;
        let mut new_always = None;
        match decision {
            ApprovalDecision::Deny => {}
            ApprovalDecision::Approve if waited_for => {}
            ApprovalDecision::Approve => next.grants.push(Grant::Once {
                id: new_id("g"),
                session_key: request.session_key.clone(),
                tool,
                subject: request.subject.clone(),
                by: by.to_owned(),
                at_ms: now,
            }),
            ApprovalDecision::ApproveSession => next.grants.push(Grant::Session {
                id: new_id("g"),
                session_key: request.session_key.clone(),
                tool,
                subject: request.subject.clone(),
                by: by.to_owned(),
                at_ms: now,
            }),
            ApprovalDecision::ApproveAlways => {
                let (grant_tool, glob) = match pattern {
                    Some(p) => split_pattern(p, &tool)?,
                    None => (tool.clone(), glob_literal(&request.subject)),
                };
                let matcher = compile_glob(&glob).map_err(|reason| DecideError::BadPattern {
                    pattern: pattern.unwrap_or(&glob).to_owned(),
                    reason,
                })?;
                let id = new_id("g");
                let shown = format!("{grant_tool}:{glob}");
                granted_pattern = Some(shown.clone());
                new_always = Some((id.clone(), grant_tool.clone(), matcher));
                next.grants.push(Grant::Always {
                    id,
                    pattern: shown,
                    tool: grant_tool,
                    glob,
                    by: by.to_owned(),
                    at_ms: now,
                });
            }
        }
        next.remember(HistoryEntry {
            request_id: request.id.clone(),
            decision,
            by: by.to_owned(),
            at_ms: now,
            tool: request.tool.clone(),
            subject: request.subject.clone(),
            session_key: request.session_key.clone(),
            pattern: granted_pattern,
        });
        self.store.save(&next)?;
        inner.state = next;
        // Only the new grant is compiled: recompiling them all would make each decision
        // slower as grants accumulate, while evaluations wait on this lock.
        inner.always.extend(new_always);
        let resolution = match decision {
            ApprovalDecision::Deny => Resolution::Denied { by: by.to_owned() },
            other => Resolution::Approved {
                by: by.to_owned(),
                decision: other,
            },
        };
        if let Some(waiter) = inner.waiters.remove(id) {
            let _ = waiter.send(Some(resolution.clone()));
        }
        Ok((request, resolution))
    }

    /// Resolves every pending request past its expiry by its `timeoutAction`.
    pub fn expire_due(&self) -> Result<Vec<(ApprovalRequest, Resolution)>, StoreError> {
        let now = now_ms();
        let mut inner = self.lock();
        if !inner.state.pending.iter().any(|p| p.expires_at_ms <= now) {
            return Ok(Vec::new());
        }
        let mut next = inner.state.clone();
        let (due, kept): (Vec<_>, Vec<_>) =
            next.pending.drain(..).partition(|p| p.expires_at_ms <= now);
        next.pending = kept;
        for request in &due {
            next.remember(HistoryEntry {
                request_id: request.id.clone(),
                decision: match request.timeout_action {
                    TimeoutAction::Deny => ApprovalDecision::Deny,
                    TimeoutAction::Allow => ApprovalDecision::Approve,
                },
                by: "timeout".to_owned(),
                at_ms: now,
                tool: request.tool.clone(),
                subject: request.subject.clone(),
                session_key: request.session_key.clone(),
                pattern: None,
            });
        }
        self.store.save(&next)?;
        inner.state = next;
        let mut resolved = Vec::new();
        for request in due {
            let resolution = Resolution::TimedOut {
                action: request.timeout_action,
            };
            if let Some(waiter) = inner.waiters.remove(&request.id) {
                let _ = waiter.send(Some(resolution.clone()));
            }
            resolved.push((request, resolution));
        }
        Ok(resolved)
    }

    /// Waits until request `id` is decided or expires (then its `timeoutAction` applies).
    pub async fn wait(&self, id: &str) -> Resolution {
        let (mut rx, expires_at_ms, timeout_action) = {
            let mut inner = self.lock();
            let Some(request) = inner.state.pending.iter().find(|p| p.id == id).cloned() else {
                return self.settled(id);
            };
            let sender = inner
                .waiters
                .entry(id.to_owned())
                .or_insert_with(|| watch::channel(None).0);
            (
                sender.subscribe(),
                request.expires_at_ms,
                request.timeout_action,
            )
        };
        let left = Duration::from_millis(expires_at_ms.saturating_sub(now_ms()));
        let decided = async {
            match tokio::time::timeout(left, rx.wait_for(Option::is_some)).await {
                Ok(Ok(resolution)) => resolution.clone(),
                _ => None,
            }
        };
        let mut released = self.released.subscribe();
        tokio::select! {
            resolution = decided => {
                if let Some(resolution) = resolution {
                    return resolution;
                }
            }
            _ = released.wait_for(|r| *r) => return Resolution::Released,
        }
        match self.expire_due() {
            Ok(resolved) => resolved
                .into_iter()
                .find(|(r, _)| r.id == id)
                .map(|(_, resolution)| resolution)
                .unwrap_or_else(|| self.settled(id)),
            Err(e) => {
                tracing::error!(error = %e, "cannot record an approval timeout");
                Resolution::TimedOut {
                    action: timeout_action,
                }
            }
        }
    }

    /// How a request that is no longer pending was settled (from the history).
    fn settled(&self, id: &str) -> Resolution {
        let inner = self.lock();
        match inner
            .state
            .history
            .iter()
            .rev()
            .find(|h| h.request_id == id)
        {
            Some(h) if h.by == "timeout" => Resolution::TimedOut {
                action: if h.decision == ApprovalDecision::Deny {
                    TimeoutAction::Deny
                } else {
                    TimeoutAction::Allow
                },
            },
            Some(h) if h.decision == ApprovalDecision::Deny => {
                Resolution::Denied { by: h.by.clone() }
            }
            Some(h) => Resolution::Approved {
                by: h.by.clone(),
                decision: h.decision,
            },
            None => Resolution::TimedOut {
                action: TimeoutAction::Deny,
            },
        }
    }

    /// Pending requests, oldest first.
    pub fn pending(&self) -> Vec<ApprovalRequest> {
        self.lock().state.pending.clone()
    }

    /// A pending request, or the history entry of a decided one.
    pub fn find(&self, id: &str) -> (Option<ApprovalRequest>, Option<HistoryEntry>) {
        let inner = self.lock();
        let pending = inner.state.pending.iter().find(|p| p.id == id).cloned();
        let decided = inner
            .state
            .history
            .iter()
            .rev()
            .find(|h| h.request_id == id)
            .cloned();
        (pending, decided)
    }

    /// Standing grants.
    pub fn grants(&self) -> Vec<Grant> {
        self.lock().state.grants.clone()
    }

    /// The decision history, oldest first.
    pub fn history(&self) -> Vec<HistoryEntry> {
        self.lock().state.history.iter().cloned().collect()
    }

    /// Removes a grant; false when there is none with this id.
    pub fn revoke(&self, grant_id: &str) -> Result<bool, StoreError> {
        let mut inner = self.lock();
        let Some(index) = inner.state.grants.iter().position(|g| g.id() == grant_id) else {
            return Ok(false);
        };
        let mut next = inner.state.clone();
        next.grants.remove(index);
        self.store.save(&next)?;
        inner.state = next;
        inner.always.retain(|(id, _, _)| id != grant_id);
        Ok(true)
    }
}

impl Inner {
    /// Recompiles the always-grants (patterns were validated when granted; a pattern that
    /// no longer compiles is skipped with a warning, never matched loosely).
    fn compile(&mut self) {
        self.always = self
            .state
            .grants
            .iter()
            .filter_map(|g| match g {
                Grant::Always { id, tool, glob, .. } => match compile_glob(glob) {
                    Ok(matcher) => Some((id.clone(), tool.clone(), matcher)),
                    Err(e) => {
                        tracing::warn!(grant = %id, error = %e, "skipping an always-grant that does not compile");
                        None
                    }
                },
                _ => None,
            })
            .collect();
    }
}

/// `tool:glob` → the tool and the glob. The request's own tool is recognised even when its
/// name contains `:` (`github:create_issue:*`); any other tool ends at the first `:`.
fn split_pattern(pattern: &str, request_tool: &str) -> Result<(String, String), DecideError> {
    if let Some(glob) = pattern
        .strip_prefix(request_tool)
        .and_then(|rest| rest.strip_prefix(':'))
        .filter(|_| !request_tool.is_empty())
    {
        return Ok((request_tool.to_owned(), glob.to_owned()));
    }
    pattern
        .split_once(':')
        .map(|(tool, glob)| (tool.to_owned(), glob.to_owned()))
        .ok_or_else(|| DecideError::BadPattern {
            pattern: pattern.to_owned(),
            reason: "expected `tool:glob`, e.g. `exec:ls *`".to_owned(),
        })
}

/// The glob on the subject (`*` also matches `/`: subjects are commands and paths alike).
fn compile_glob(glob: &str) -> Result<GlobMatcher, String> {
    GlobBuilder::new(glob)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| e.to_string())
}

/// `subject` as a glob that matches exactly it.
fn glob_literal(subject: &str) -> String {
    let mut out = String::with_capacity(subject.len());
    for c in subject.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A fresh id: `<prefix>_<16 hex>`.
pub(crate) fn new_id(prefix: &str) -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(now_ms());
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u32(std::process::id());
    format!("{prefix}_{:016x}", h.finish())
}

/// Now, in Unix milliseconds.
pub(crate) fn now_ms() -> u64 {
    crate::graph::now_ms() as u64
}

/// Shared handle.
pub type SharedApprovals = Arc<Approvals>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_subjects_escape_glob_syntax() {
        let glob = compile_glob(&glob_literal("ls *.md [x]")).unwrap();
        assert!(glob.is_match("ls *.md [x]"));
        assert!(!glob.is_match("ls a.md [x]"));
    }

    #[test]
    fn patterns_need_a_tool_and_a_glob() {
        assert!(split_pattern("ls *", "exec").is_err());
        let (tool, glob) = split_pattern("Read:*.md", "exec").unwrap();
        assert_eq!(tool, "Read");
        assert!(compile_glob(&glob).unwrap().is_match("/home/me/notes/a.md"));
    }

    #[test]
    fn the_request_tool_may_contain_a_colon() {
        let (tool, glob) =
            split_pattern("github:create_issue:bug *", "github:create_issue").unwrap();
        assert_eq!(
            (tool.as_str(), glob.as_str()),
            ("github:create_issue", "bug *")
        );
        let (tool, glob) = split_pattern("exec:curl http://x", "exec").unwrap();
        assert_eq!((tool.as_str(), glob.as_str()), ("exec", "curl http://x"));
    }
}
