//! Approvals: calls that wait for a human, the decisions humans take, and the grants those
//! decisions leave behind (docs/approvals.md).
//!
//! [`Approvals`] keeps the state in memory. Every change is made under its lock and queued,
//! in that order, to a writer thread that stores it ([`writer`]); the call that made the
//! change answers only once it is stored, and so does any call whose answer rests on a change
//! still queued (a grant, a request found pending): what was acknowledged is on disk. No
//! file is touched on the async workers.

#[cfg(feature = "server")]
pub(crate) mod api;
mod change;
mod files;
mod journal;
mod model;
mod store;
mod writer;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use globset::{GlobBuilder, GlobMatcher};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

pub use change::Change;
pub use model::{ApprovalRequest, Grant, HistoryEntry, State};
pub use store::{ApprovalStore, DEFAULT_COMPACT_BYTES, FileStore, StoreError, read_state};

use crate::config::{ApprovalDecision, TimeoutAction};
use crate::mask::FieldMask;
use writer::Writer;

/// Pending requests kept at most, by default.
pub const DEFAULT_MAX_PENDING: usize = 1000;

/// How the approvals behave.
#[derive(Debug, Clone)]
pub struct Options {
    /// Pending requests kept at most; past it a new request is refused
    /// ([`RequestError::Full`]), and the caller denied. Pending ones still expire at their
    /// deadlines, oldest first.
    pub max_pending: usize,
    /// What is masked in the tool arguments of a request before it is kept (and so listed and
    /// shown): the decision log's mask.
    pub mask: FieldMask,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_pending: DEFAULT_MAX_PENDING,
            mask: FieldMask::default(),
        }
    }
}

/// How a request ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The wait was cut short: the daemon is shutting down (the request stays pending and is
    /// read back at the next start), or the store failed and nothing can be decided.
    Released,
}

/// Why a request could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// Too many requests are pending.
    #[error(
        "{limit} approval requests are already pending (the limit); decide some or let them expire"
    )]
    Full {
        /// The limit ([`Options::max_pending`]).
        limit: usize,
    },
    /// The request could not be stored, so it was not opened.
    #[error(transparent)]
    Store(#[from] StoreError),
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
    /// The decision could not be stored, so it was not acknowledged.
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
    /// The writer over the store; none when the store is unusable (deny-all).
    writer: Option<Writer>,
    /// A store that is not written, held for its lock (deny-all).
    _held: Mutex<Option<Box<dyn ApprovalStore>>>,
    inner: Mutex<Inner>,
    options: Options,
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
    /// Changes queued to the writer so far: an answer that rests on the state must wait until
    /// this many are stored.
    submitted: u64,
}

/// A waiting caller to answer once the change that settles its request is stored.
type Settled = (watch::Sender<Option<Resolution>>, Resolution);
/// A caller's subscription to a request's decision.
type Waiting = watch::Receiver<Option<Resolution>>;

impl Approvals {
    /// Opens the approvals kept in `store`. This reads the store: call it before the async
    /// runtime serves, or from a blocking thread.
    pub fn open(
        mut store: Box<dyn ApprovalStore>,
        options: Options,
    ) -> Result<Approvals, StoreError> {
        let state = store.load()?;
        Approvals::start(store, state, options)
    }

    /// Serves `state`, just loaded from `store`. Requests kept with arguments the mask hides
    /// (by an older version, or under another mask) are masked, and the store compacted so
    /// the clear values leave the disk. Like [`Approvals::open`], not for an async worker.
    pub fn start(
        mut store: Box<dyn ApprovalStore>,
        mut state: State,
        options: Options,
    ) -> Result<Approvals, StoreError> {
        let mut masked = false;
        for request in &mut state.pending {
            if let Some(args) = &request.args {
                let hidden = options.mask.apply(args);
                if hidden != *args {
                    request.args = Some(hidden);
                    masked = true;
                }
            }
        }
        if masked {
            store.compact(&state)?;
        }
        let writer = Writer::start(store, state.clone())?;
        let mut inner = Inner {
            state,
            ..Inner::default()
        };
        inner.compile();
        Ok(Approvals {
            writer: Some(writer),
            _held: Mutex::new(None),
            inner: Mutex::new(inner),
            options,
            unavailable: None,
            released: watch::channel(false).0,
        })
    }

    /// Approvals that deny every request, because the store is unusable (`reason`). The store
    /// is kept, unwritten, for its lock.
    pub fn deny_all(store: Box<dyn ApprovalStore>, reason: String) -> Approvals {
        Approvals {
            writer: None,
            _held: Mutex::new(Some(store)),
            inner: Mutex::new(Inner::default()),
            options: Options::default(),
            unavailable: Some(reason),
            released: watch::channel(false).0,
        }
    }

    /// Answers every waiting caller now with [`Resolution::Released`], and every later one at
    /// once: nobody can decide while the daemon drains. Requests stay pending.
    pub fn release_waiters(&self) {
        self.released.send_replace(true);
    }

    /// Why approvals are unavailable (every request is denied), if they are: the store could
    /// not be read at start, or a write failed since.
    pub fn unavailable(&self) -> Option<String> {
        self.unavailable.clone().or_else(|| {
            self.writer
                .as_ref()
                .and_then(Writer::failed)
                .map(|e| StoreError::Failed(e).to_string())
        })
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An error when nothing can be stored any more.
    fn writable(&self) -> Result<(), StoreError> {
        match &self.writer {
            Some(writer) => writer
                .failed()
                .map_or(Ok(()), |e| Err(StoreError::Failed(e))),
            None => Err(StoreError::WriterGone),
        }
    }

    /// Applies `change` to the live state and queues it to the writer, in that order, under
    /// the lock (`inner`): the journal's order is the state's.
    fn record(&self, inner: &mut Inner, change: Change) {
        change.apply(&mut inner.state);
        inner.submitted += 1;
        if let Some(writer) = &self.writer {
            writer.submit(change);
        }
    }

    /// Waits until the first `upto` changes are stored.
    async fn stored(&self, upto: u64) -> Result<(), StoreError> {
        match &self.writer {
            _ if upto == 0 => Ok(()),
            Some(writer) => writer.durable(upto).await,
            None => Err(StoreError::WriterGone),
        }
    }

    /// Answers waiting callers once their requests' change is stored (`result`); when it
    /// could not be, they are answered [`Resolution::Released`] (`ask`): nothing stored
    /// may let a call through.
    fn answer(settled: Vec<Settled>, result: &Result<(), StoreError>) {
        for (waiter, resolution) in settled {
            let resolution = if result.is_ok() {
                resolution
            } else {
                Resolution::Released
            };
            let _ = waiter.send(Some(resolution));
        }
    }

    /// The grant that lets this call through without asking, if any. A one-time approval is
    /// used up by the call it lets through. It answers once the grant, and its use, are
    /// stored.
    pub async fn use_grant(
        &self,
        session_key: &str,
        tool: Option<&str>,
        subject: &str,
    ) -> Result<Option<GrantMatch>, StoreError> {
        if self.unavailable.is_some() {
            return Ok(None);
        }
        self.writable()?;
        let (found, upto) = {
            let mut inner = self.lock();
            let found = self.find_grant(&mut inner, session_key, tool.unwrap_or(""), subject);
            (found, inner.submitted)
        };
        self.stored(upto).await?;
        Ok(found)
    }

    fn find_grant(
        &self,
        inner: &mut Inner,
        session_key: &str,
        tool: &str,
        subject: &str,
    ) -> Option<GrantMatch> {
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
                return Some(GrantMatch {
                    description: format!("always grant `{pattern}`"),
                });
            }
        }
        let found = inner.state.grants.iter().find(|g| match g {
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
        })?;
        match found {
            Grant::Once { id, by, .. } => {
                let description = format!("one-time approval by {by}");
                let grant_id = id.clone();
                self.record(inner, Change::GrantUsed { grant_id });
                Some(GrantMatch { description })
            }
            Grant::Session { by, .. } => Some(GrantMatch {
                description: format!("session grant by {by}"),
            }),
            Grant::Always { .. } => None,
        }
    }

    /// Records `request` as pending, its arguments masked, unless the same call (hook,
    /// session, tool, subject) is pending already; returns the pending request and whether it
    /// is new. Past [`Options::max_pending`] a new request is refused.
    pub async fn open_request(
        &self,
        request: ApprovalRequest,
    ) -> Result<(ApprovalRequest, bool), RequestError> {
        let (opened, new, _) = self.open_pending(request, false).await?;
        Ok((opened, new))
    }

    /// [`Approvals::open_request`], then [`Approvals::wait`] for the decision. The caller is
    /// counted as waiting from the moment its request can be decided, so an approval given
    /// before it gets to wait goes to it, rather than to a one-time grant that the next
    /// identical call would use too (one approval, two runs).
    pub async fn open_request_and_wait(
        &self,
        request: ApprovalRequest,
    ) -> Result<(ApprovalRequest, bool, Resolution), RequestError> {
        let (opened, new, waiting) = self.open_pending(request, true).await?;
        let resolution = match waiting {
            Some(rx) => self.wait_on(&opened.id, rx, opened.expires_at_ms).await,
            None => self.wait(&opened.id).await,
        };
        Ok((opened, new, resolution))
    }

    /// Opens (or finds) the request; with `waits`, subscribes to its decision under the
    /// same lock that makes it decidable.
    async fn open_pending(
        &self,
        mut request: ApprovalRequest,
        waits: bool,
    ) -> Result<(ApprovalRequest, bool, Option<Waiting>), RequestError> {
        self.writable()?;
        let (opened, waiting, upto) = {
            let mut inner = self.lock();
            let existing = inner.state.pending.iter().find(|p| {
                p.hook == request.hook
                    && p.session_key == request.session_key
                    && p.tool == request.tool
                    && p.subject == request.subject
            });
            let opened = match existing {
                Some(existing) => (existing.clone(), false),
                None if inner.state.pending.len() >= self.options.max_pending => {
                    return Err(RequestError::Full {
                        limit: self.options.max_pending,
                    });
                }
                None => {
                    request.args = request.args.map(|a| self.options.mask.apply(&a));
                    self.record(
                        &mut inner,
                        Change::Opened {
                            request: request.clone(),
                        },
                    );
                    inner
                        .waiters
                        .insert(request.id.clone(), watch::channel(None).0);
                    (request, true)
                }
            };
            let waiting = waits.then(|| {
                inner
                    .waiters
                    .entry(opened.0.id.clone())
                    .or_insert_with(|| watch::channel(None).0)
                    .subscribe()
            });
            (opened, waiting, inner.submitted)
        };
        self.stored(upto).await?;
        Ok((opened.0, opened.1, waiting))
    }

    /// Decides a pending request. Exactly one decision wins; later ones get
    /// [`DecideError::AlreadyDecided`]. It answers, and a caller waiting on the request is
    /// answered, once the decision is stored.
    pub async fn decide(
        &self,
        id: &str,
        decision: ApprovalDecision,
        by: &str,
        pattern: Option<&str>,
    ) -> Result<(ApprovalRequest, Resolution), DecideError> {
        let (request, resolution, settled, upto) = {
            let mut inner = self.lock();
            let (request, resolution, settled) =
                self.decide_locked(&mut inner, id, decision, by, pattern)?;
            (request, resolution, settled, inner.submitted)
        };
        let stored = self.stored(upto).await;
        Approvals::answer(settled.into_iter().collect(), &stored);
        stored?;
        Ok((request, resolution))
    }

    fn decide_locked(
        &self,
        inner: &mut Inner,
        id: &str,
        decision: ApprovalDecision,
        by: &str,
        pattern: Option<&str>,
    ) -> Result<(ApprovalRequest, Resolution, Option<Settled>), DecideError> {
        let Some(request) = inner.state.pending.iter().find(|p| p.id == id).cloned() else {
            return Err(if inner.state.history.iter().any(|h| h.request_id == id) {
                DecideError::AlreadyDecided(id.to_owned())
            } else {
                DecideError::NotFound(id.to_owned())
            });
        };
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
        self.writable()?;
        let now = now_ms();
        let tool = request.tool.clone().unwrap_or_default();
        // A caller waiting on this request takes a one-time approval itself; only a caller
        // that re-asks later needs a one-time grant to find.
        let waited_for = inner
            .waiters
            .get(id)
            .is_some_and(|w| w.receiver_count() > 0);
        let mut granted_pattern = None;
        let mut new_always = None;
        let grant = match decision {
            ApprovalDecision::Deny => None,
            ApprovalDecision::Approve if waited_for => None,
            ApprovalDecision::Approve => Some(Grant::Once {
                id: new_id("g"),
                session_key: request.session_key.clone(),
                tool,
                subject: request.subject.clone(),
                by: by.to_owned(),
                at_ms: now,
            }),
            ApprovalDecision::ApproveSession => Some(Grant::Session {
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
                Some(Grant::Always {
                    id,
                    pattern: shown,
                    tool: grant_tool,
                    glob,
                    by: by.to_owned(),
                    at_ms: now,
                })
            }
        };
        let entry = HistoryEntry {
            request_id: request.id.clone(),
            decision,
            by: by.to_owned(),
            at_ms: now,
            tool: request.tool.clone(),
            subject: request.subject.clone(),
            session_key: request.session_key.clone(),
            pattern: granted_pattern,
        };
        self.record(
            inner,
            Change::Decided {
                request_id: request.id.clone(),
                grant,
                entry,
            },
        );
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
        let settled = inner
            .waiters
            .remove(id)
            .map(|waiter| (waiter, resolution.clone()));
        Ok((request, resolution, settled))
    }

    /// Resolves every pending request past its expiry by its `timeoutAction`, once stored.
    pub async fn expire_due(&self) -> Result<Vec<(ApprovalRequest, Resolution)>, StoreError> {
        let now = now_ms();
        let (resolved, settled, upto) = {
            let mut inner = self.lock();
            if !inner.state.pending.iter().any(|p| p.expires_at_ms <= now) {
                return Ok(Vec::new());
            }
            self.writable()?;
            let due: Vec<ApprovalRequest> = inner
                .state
                .pending
                .iter()
                .filter(|p| p.expires_at_ms <= now)
                .cloned()
                .collect();
            let entries = due
                .iter()
                .map(|request| HistoryEntry {
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
                })
                .collect();
            self.record(&mut inner, Change::Expired { entries });
            let mut resolved = Vec::new();
            let mut settled = Vec::new();
            for request in due {
                let resolution = Resolution::TimedOut {
                    action: request.timeout_action,
                };
                if let Some(waiter) = inner.waiters.remove(&request.id) {
                    settled.push((waiter, resolution.clone()));
                }
                resolved.push((request, resolution));
            }
            (resolved, settled, inner.submitted)
        };
        let stored = self.stored(upto).await;
        Approvals::answer(settled, &stored);
        stored?;
        Ok(resolved)
    }

    /// Waits until request `id` is decided or expires (then its `timeoutAction` applies).
    pub async fn wait(&self, id: &str) -> Resolution {
        let found = {
            let mut inner = self.lock();
            match inner.state.pending.iter().find(|p| p.id == id).cloned() {
                Some(request) => {
                    let sender = inner
                        .waiters
                        .entry(id.to_owned())
                        .or_insert_with(|| watch::channel(None).0);
                    Ok((sender.subscribe(), request.expires_at_ms))
                }
                None => Err(inner.submitted),
            }
        };
        match found {
            Ok((rx, expires_at_ms)) => self.wait_on(id, rx, expires_at_ms).await,
            // Settled already: answer once that is stored.
            Err(upto) => self.settled_when_stored(id, upto).await,
        }
    }

    /// Waits on `rx`, subscribed to request `id`'s decision, until it is decided or
    /// expires at `expires_at_ms`.
    async fn wait_on(&self, id: &str, mut rx: Waiting, expires_at_ms: u64) -> Resolution {
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
        match self.expire_due().await {
            Ok(resolved) => match resolved.into_iter().find(|(r, _)| r.id == id) {
                Some((_, resolution)) => resolution,
                // Settled meanwhile, by someone else's change: answer once that is stored.
                None => {
                    let upto = self.lock().submitted;
                    self.settled_when_stored(id, upto).await
                }
            },
            Err(e) => {
                // Approvals are unavailable now: fail closed, whatever `timeoutAction` says.
                tracing::error!(error = %e, "cannot record an approval timeout");
                Resolution::Released
            }
        }
    }

    /// [`Approvals::settled`], once the first `upto` changes are stored; `Released` when
    /// they cannot be.
    async fn settled_when_stored(&self, id: &str, upto: u64) -> Resolution {
        match self.stored(upto).await {
            Ok(()) => self.settled(id),
            Err(_) => Resolution::Released,
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

    /// Removes a grant, once stored; false when there is none with this id.
    pub async fn revoke(&self, grant_id: &str) -> Result<bool, StoreError> {
        let upto = {
            let mut inner = self.lock();
            if !inner.state.grants.iter().any(|g| g.id() == grant_id) {
                return Ok(false);
            }
            self.writable()?;
            self.record(
                &mut inner,
                Change::Revoked {
                    grant_id: grant_id.to_owned(),
                },
            );
            inner.always.retain(|(id, _, _)| id != grant_id);
            inner.submitted
        };
        self.stored(upto).await?;
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
mod properties;
#[cfg(test)]
mod tests;
