//! The approvals' writer: one thread that owns the store, so no async worker ever waits on a
//! file. Changes arrive over a channel in the order they were made to the live state (they
//! are sent under its lock); the thread appends them in batches (one `fdatasync` for all the
//! changes that queued up meanwhile), and publishes how many are durable. Callers await that
//! number before they answer: what was acknowledged is on disk.
//!
//! The thread keeps its own copy of the state, applying the changes it has stored, to compact
//! from without stopping the live state.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use tokio::sync::watch;

use super::change::Change;
use super::model::State;
use super::store::{ApprovalStore, StoreError};

/// Most changes appended with one sync.
const MAX_BATCH: usize = 256;
/// Batches to let pass after a failed compaction before trying again (the journal still
/// holds everything; only its growth is at stake, so a failing disk is not hammered).
const COMPACTION_BACKOFF: u32 = 1024;

/// How far the writer got.
#[derive(Debug, Clone, Default)]
pub(super) struct Progress {
    /// Changes stored so far, counted from the writer's start.
    pub durable: u64,
    /// The failure that stopped the writer, if any: nothing after it is stored.
    pub failed: Option<Arc<StoreError>>,
}

/// The handle to the writer thread.
#[derive(Debug)]
pub(super) struct Writer {
    jobs: Option<Sender<Change>>,
    progress: watch::Receiver<Progress>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    /// Starts the thread over `store`, whose state (loaded already) is `state`.
    pub(super) fn start(store: Box<dyn ApprovalStore>, state: State) -> Result<Writer, StoreError> {
        let (jobs, queue) = channel();
        let (report, progress) = watch::channel(Progress::default());
        let thread = std::thread::Builder::new()
            .name("hookgate-approvals".to_owned())
            .spawn(move || run(store, state, &queue, &report))
            .map_err(StoreError::Thread)?;
        Ok(Writer {
            jobs: Some(jobs),
            progress,
            thread: Some(thread),
        })
    }

    /// Queues `change`; never blocks. Call it under the lock that orders the changes.
    pub(super) fn submit(&self, change: Change) {
        if let Some(jobs) = &self.jobs {
            // A send fails only when the thread is gone, which `durable` reports.
            let _ = jobs.send(change);
        }
    }

    /// The failure that stopped the writer, if any.
    pub(super) fn failed(&self) -> Option<Arc<StoreError>> {
        self.progress.borrow().failed.clone()
    }

    /// Waits until the first `upto` changes submitted are stored.
    pub(super) async fn durable(&self, upto: u64) -> Result<(), StoreError> {
        let mut progress = self.progress.clone();
        let reached = progress
            .wait_for(|p| p.durable >= upto || p.failed.is_some())
            .await
            .map(|p| p.clone());
        let p = reached.unwrap_or_else(|_| progress.borrow().clone());
        if p.durable >= upto {
            return Ok(());
        }
        Err(match p.failed {
            Some(e) => StoreError::Failed(e),
            None => StoreError::WriterGone,
        })
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // Closing the channel ends the thread once the queue is stored; joining it releases
        // the store (and its file lock) before the approvals are gone.
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(
    mut store: Box<dyn ApprovalStore>,
    mut state: State,
    queue: &Receiver<Change>,
    report: &watch::Sender<Progress>,
) {
    let mut durable = 0u64;
    let mut skip_compaction = 0u32;
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        batch.extend(queue.try_iter().take(MAX_BATCH - 1));
        if report.borrow().failed.is_some() {
            // After a failure nothing more is stored: the journal may end in a change that
            // is not in the live state's order any more.
            continue;
        }
        if let Err(e) = store.append(&batch) {
            tracing::error!(error = %e, "cannot store approval changes; approvals are unavailable until hookgate restarts");
            report.send_modify(|p| p.failed = Some(Arc::new(e)));
            continue;
        }
        for change in &batch {
            change.apply(&mut state);
        }
        durable += batch.len() as u64;
        report.send_modify(|p| p.durable = durable);
        if skip_compaction > 0 {
            skip_compaction -= 1;
        } else if store.wants_compaction()
            && let Err(e) = store.compact(&state)
        {
            tracing::error!(error = %e, "cannot compact the approvals journal; it keeps growing until a later try succeeds");
            skip_compaction = COMPACTION_BACKOFF;
        }
    }
}
