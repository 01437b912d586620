//! Where approvals are kept. [`ApprovalStore`] is the seam for a shared backend; the default
//! is [`FileStore`]: a snapshot (`approvals.json`) and an append-only journal of the changes
//! since (`approvals.json.journal`), folded into a new snapshot once it grows past a size.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::change::Change;
use super::files::{self, Access, Repair};
use super::journal;
use super::model::{ApprovalRequest, FORMAT_VERSION, Grant, HistoryEntry, State};

/// The journal size past which [`FileStore`] compacts, by default.
pub const DEFAULT_COMPACT_BYTES: u64 = 1 << 20;

/// Why the approvals state could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another process holds the file.
    #[error("`{}` is in use by another hookgate process (lock file `{}`)", path.display(), lock.display())]
    Locked {
        /// The approvals file.
        path: PathBuf,
        /// Its lock file.
        lock: PathBuf,
    },
    /// The file could not be read or written.
    #[error("cannot {action} `{}`: {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a valid approvals file. It is never replaced silently.
    #[error("`{}` is not a valid approvals file: {message}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong, with line and column.
        message: String,
    },
    /// The file is not safe to trust: others may write it, it is someone else's, or it is a
    /// symlink. It is left as it is.
    #[error("refusing `{}`: {reason}", path.display())]
    Unsafe {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// An earlier write failed; nothing is written after it (the change it carried may or
    /// may not be on disk), and approvals stay unavailable until the store is reopened.
    #[error("the approvals store failed, and takes no more changes until hookgate restarts: {0}")]
    Failed(Arc<StoreError>),
    /// A store was written before [`ApprovalStore::load`] (a bug in the caller).
    #[error("the approvals store was written before it was loaded")]
    NotLoaded,
    /// The writer thread could not be started.
    #[error("cannot start the approvals writer thread: {0}")]
    Thread(std::io::Error),
    /// The writer thread is gone (it panicked, or the approvals are being dropped).
    #[error("the approvals writer stopped")]
    WriterGone,
}

/// Keeps the approvals state as a sequence of changes. The approvals call it from one thread
/// of their own, never from an async worker, one call at a time.
///
/// Crash safety is the store's: after a crash at any moment, [`ApprovalStore::load`] returns
/// the state after every change whose `append` returned, and possibly some whose `append`
/// had not returned yet, in order.
pub trait ApprovalStore: Send + std::fmt::Debug {
    /// The stored state (the empty state when nothing is stored yet). Called once, first.
    fn load(&mut self) -> Result<State, StoreError>;
    /// Stores `changes`, in order, durably before returning.
    fn append(&mut self, changes: &[Change]) -> Result<(), StoreError>;
    /// Whether [`ApprovalStore::compact`] is due.
    fn wants_compaction(&self) -> bool {
        false
    }
    /// Replaces what is stored by `state`, the state after every change appended so far.
    fn compact(&mut self, state: &State) -> Result<(), StoreError> {
        let _ = state;
        Ok(())
    }
}

/// The snapshot file as written: the state and the number of the last change it holds.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SnapshotOut<'a> {
    version: u32,
    journal_seq: u64,
    pending: &'a [ApprovalRequest],
    grants: &'a [Grant],
    history: &'a VecDeque<HistoryEntry>,
}

/// The snapshot file as read (`journalSeq` is absent from files older than the journal).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SnapshotIn {
    version: u32,
    #[serde(default)]
    journal_seq: u64,
    pending: Vec<ApprovalRequest>,
    grants: Vec<Grant>,
    history: VecDeque<HistoryEntry>,
}

/// A snapshot and a journal, 0600 and never followed through a symlink; an exclusive advisory
/// lock on `<file>.lock` for as long as the store is open, so two processes never write them
/// at once.
///
/// A change costs one appended line and one `fdatasync`. When the journal passes
/// [`FileStore::compact_after`] bytes, the state is written to a new snapshot (a temporary file
/// created `O_EXCL` with a random name, fsynced, renamed over the old one, directory fsynced)
/// that records the number of its last change, and the journal is then emptied. A crash
/// between the two leaves journal lines the snapshot already holds; their numbers say so, and
/// they are skipped.
#[derive(Debug)]
pub struct FileStore {
    path: PathBuf,
    journal_path: PathBuf,
    journal: Option<File>,
    journal_len: u64,
    /// The number of the last change stored.
    seq: u64,
    compact_after: u64,
    _lock: File,
}

impl FileStore {
    /// Opens the store at `path`, taking its lock; fails at once if another process has it.
    /// Nothing else is read until [`ApprovalStore::load`].
    pub fn open(path: &Path) -> Result<FileStore, StoreError> {
        let lock_path = sibling(path, ".lock");
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
                action: "create the directory of",
                path: path.to_path_buf(),
                source,
            })?;
        }
        let lock = files::create(&lock_path, Access::Lock, Repair::Yes)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Locked {
                    path: path.to_path_buf(),
                    lock: lock_path,
                });
            }
            Err(std::fs::TryLockError::Error(source)) => {
                return Err(StoreError::Io {
                    action: "lock",
                    path: lock_path,
                    source,
                });
            }
        }
        Ok(FileStore {
            path: path.to_path_buf(),
            journal_path: journal_path(path),
            journal: None,
            journal_len: 0,
            seq: 0,
            compact_after: DEFAULT_COMPACT_BYTES,
            _lock: lock,
        })
    }

    /// Compacts once the journal passes `bytes` (default [`DEFAULT_COMPACT_BYTES`]). The
    /// cost: one snapshot write per `bytes` of changes.
    pub fn compact_after(mut self, bytes: u64) -> FileStore {
        self.compact_after = bytes.max(1);
        self
    }

    /// The snapshot file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The journal file.
    pub fn journal_path(&self) -> &Path {
        &self.journal_path
    }
}

/// The error of `action` on `path`.
fn io(action: &'static str, path: &Path) -> impl Fn(std::io::Error) -> StoreError + use<> {
    let path = path.to_path_buf();
    move |source| StoreError::Io {
        action,
        path: path.clone(),
        source,
    }
}

/// `<path><suffix>`.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The journal beside the snapshot at `path`.
pub(super) fn journal_path(path: &Path) -> PathBuf {
    sibling(path, ".journal")
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

impl ApprovalStore for FileStore {
    fn load(&mut self) -> Result<State, StoreError> {
        let (mut state, snapshot_seq) = read_snapshot(&self.path, Repair::Yes)?;
        let mut journal = files::create(&self.journal_path, Access::Append, Repair::Yes)?;
        // The journal may have just been created: its name must be as durable as its lines.
        sync_directory(&self.path)?;
        let mut bytes = Vec::new();
        journal
            .read_to_end(&mut bytes)
            .map_err(io("read", &self.journal_path))?;
        let replayed = journal::replay(&self.journal_path, &bytes, snapshot_seq, &mut state)?;
        if replayed.torn {
            // The next line must start on a line of its own.
            journal
                .set_len(replayed.valid_len)
                .and_then(|()| journal.sync_data())
                .map_err(io("truncate the torn last line of", &self.journal_path))?;
            tracing::warn!(
                file = %self.journal_path.display(),
                "dropped an unfinished last line of the approvals journal (a write cut short by a crash; it was never acknowledged)"
            );
        }
        self.journal_len = replayed.valid_len;
        self.seq = replayed.last_seq;
        self.journal = Some(journal);
        Ok(state)
    }

    fn append(&mut self, changes: &[Change]) -> Result<(), StoreError> {
        // Checked: the numbering goes on from the snapshot's, which comes from a file.
        let Some(last) = self.seq.checked_add(changes.len() as u64) else {
            return Err(StoreError::Corrupt {
                path: self.path.clone(),
                message: format!("`journalSeq` {} leaves no room for more changes", self.seq),
            });
        };
        let mut lines = Vec::new();
        for (n, change) in (1u64..).zip(changes) {
            // At most `last`: no overflow.
            journal::encode(self.seq + n, change, &mut lines)
                .map_err(|e| io("encode a change for", &self.journal_path)(e.into()))?;
        }
        let io = io("append to", &self.journal_path);
        let Some(journal) = self.journal.as_mut() else {
            return Err(StoreError::NotLoaded);
        };
        let written = journal.write_all(&lines).and_then(|()| journal.sync_data());
        if let Err(e) = written {
            // Best effort: cut a partial line off, so the file stays readable.
            let _ = journal.set_len(self.journal_len);
            return Err(io(e));
        }
        self.journal_len += lines.len() as u64;
        self.seq = last;
        Ok(())
    }

    fn wants_compaction(&self) -> bool {
        self.journal_len >= self.compact_after
    }

    fn compact(&mut self, state: &State) -> Result<(), StoreError> {
        write_snapshot(&self.path, state, self.seq)?;
        // From here the journal's lines are all in the snapshot; a crash before the
        // truncation is durable only leaves lines that the next load skips.
        let Some(journal) = self.journal.as_mut() else {
            return Err(StoreError::NotLoaded);
        };
        journal
            .set_len(0)
            .and_then(|()| journal.sync_data())
            .map_err(io("empty", &self.journal_path))?;
        self.journal_len = 0;
        Ok(())
    }
}

/// Writes the snapshot: a temporary file (random name, `O_EXCL`, 0600) in the same directory,
/// fsynced, renamed over `path`, then the directory fsynced so the rename is durable too.
fn write_snapshot(path: &Path, state: &State, seq: u64) -> Result<(), StoreError> {
    let io = |action, source| StoreError::Io {
        action,
        path: path.to_path_buf(),
        source,
    };
    let snapshot = SnapshotOut {
        version: FORMAT_VERSION,
        journal_seq: seq,
        pending: &state.pending,
        grants: &state.grants,
        history: &state.history,
    };
    let mut json = serde_json::to_vec_pretty(&snapshot).map_err(|e| io("encode", e.into()))?;
    json.push(b'\n');
    let dir = directory_of(path);
    let mut prefix = path.file_name().unwrap_or_default().to_os_string();
    prefix.push(".");
    let mut temp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(|e| io("create a temporary file beside", e))?;
    temp.write_all(&json)
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|e| io("write", e))?;
    // On failure the temporary file is removed when `temp` drops.
    temp.persist(path).map_err(|e| io("replace", e.error))?;
    sync_directory(path)
}

/// Makes the names in the directory of `path` durable (a rename, a new file).
fn sync_directory(path: &Path) -> Result<(), StoreError> {
    File::open(directory_of(path))
        .and_then(|d| d.sync_all())
        .map_err(io("sync the directory of", path))
}

/// The snapshot at `path` and the number of its last change; a missing file is the empty
/// state.
fn read_snapshot(path: &Path, repair: Repair) -> Result<(State, u64), StoreError> {
    let Some(mut file) = files::open(path, Access::Read, repair)? else {
        return Ok((State::default(), 0));
    };
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|source| StoreError::Io {
            action: "read",
            path: path.to_path_buf(),
            source,
        })?;
    let snapshot: SnapshotIn = serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    if snapshot.version != FORMAT_VERSION {
        return Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            message: format!(
                "format version {} (this build reads {FORMAT_VERSION})",
                snapshot.version
            ),
        });
    }
    let state = State {
        version: snapshot.version,
        pending: snapshot.pending,
        grants: snapshot.grants,
        history: snapshot.history,
    };
    Ok((state, snapshot.journal_seq))
}

/// Reads the approvals at `path` (snapshot and journal) without taking the lock or changing
/// anything, for read-only views. A missing store is the empty state; an unfinished last
/// journal line is ignored; anything else unreadable is an error, never an empty state.
pub fn read_state(path: &Path) -> Result<State, StoreError> {
    let (mut state, snapshot_seq) = read_snapshot(path, Repair::No)?;
    let journal_path = journal_path(path);
    if let Some(mut journal) = files::open(&journal_path, Access::Read, Repair::No)? {
        let mut bytes = Vec::new();
        journal
            .read_to_end(&mut bytes)
            .map_err(|source| StoreError::Io {
                action: "read",
                path: journal_path.clone(),
                source,
            })?;
        journal::replay(&journal_path, &bytes, snapshot_seq, &mut state)?;
    }
    Ok(state)
}

#[cfg(test)]
mod tests;
