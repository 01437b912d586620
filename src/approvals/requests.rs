//! A request's life: opened (or found pending), waited on by its caller, then decided by
//! a human or expired by its `timeoutAction`.

use std::time::Duration;

use tokio::sync::watch;

use super::grants::{compile_glob, glob_literal, split_pattern};
use super::{
    ApprovalRequest, Approvals, Change, DecideError, Grant, HistoryEntry, Inner, RequestError,
    Resolution, Settled, StoreError, Waiting, new_id, now_ms,
};
use crate::config::{ApprovalDecision, TimeoutAction};

impl Approvals {
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
    pub(super) async fn open_pending(
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
    pub(super) async fn wait_on(
        &self,
        id: &str,
        mut rx: Waiting,
        expires_at_ms: u64,
    ) -> Resolution {
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
}
