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
mod grants;
mod journal;
mod model;
mod requests;
mod store;
mod writer;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use globset::GlobMatcher;
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
