//! Where approvals are kept. [`ApprovalStore`] is the seam for a shared backend; the default
//! is [`FileStore`], one JSON file written crash-safely.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::model::{FORMAT_VERSION, State};

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
}

/// Keeps the approvals state. Every `save` must be atomic: after a crash at any moment, `load`
/// returns either the previous state or the new one.
pub trait ApprovalStore: Send + Sync + std::fmt::Debug {
    /// The stored state (the empty state when nothing is stored yet).
    fn load(&self) -> Result<State, StoreError>;
    /// Replaces the stored state.
    fn save(&self, state: &State) -> Result<(), StoreError>;
}

/// One JSON file, replaced atomically (temp file, fsync, rename, fsync of the directory), and
/// an exclusive advisory lock on `<file>.lock` for as long as the store is open, so two
/// processes never write it at once.
#[derive(Debug)]
pub struct FileStore {
    path: PathBuf,
    _lock: File,
}

impl FileStore {
    /// Opens the store at `path`, taking its lock; fails at once if another process has it.
    pub fn open(path: &Path) -> Result<FileStore, StoreError> {
        let lock_path = lock_path(path);
        let io = |action, source| StoreError::Io {
            action,
            path: lock_path.clone(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| io("create the directory of", e))?;
        }
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| io("open", e))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Locked {
                    path: path.to_path_buf(),
                    lock: lock_path,
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io("lock", e)),
        }
        Ok(FileStore {
            path: path.to_path_buf(),
            _lock: lock,
        })
    }

    /// The approvals file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

impl ApprovalStore for FileStore {
    fn load(&self) -> Result<State, StoreError> {
        read_state(&self.path)
    }

    fn save(&self, state: &State) -> Result<(), StoreError> {
        let io = |action, source| StoreError::Io {
            action,
            path: self.path.clone(),
            source,
        };
        let json = serde_json::to_vec_pretty(state).map_err(|e| io("encode", e.into()))?;
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".tmp-{}", std::process::id()));
        let temp = dir.join(name);
        let written = (|| {
            let mut file = File::create(&temp)?;
            file.write_all(&json)?;
            file.write_all(b"\n")?;
            file.sync_all()?;
            std::fs::rename(&temp, &self.path)?;
            // The rename is durable only once the directory entry is.
            File::open(&dir)?.sync_all()
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        written.map_err(|e| io("write", e))
    }
}

/// Reads an approvals file without taking its lock (for read-only views). A missing file is
/// the empty state; anything unreadable is an error, never an empty state.
pub fn read_state(path: &Path) -> Result<State, StoreError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(State::default()),
        Err(source) => {
            return Err(StoreError::Io {
                action: "read",
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let state: State = serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    if state.version != FORMAT_VERSION {
        return Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            message: format!(
                "format version {} (this build reads {FORMAT_VERSION})",
                state.version
            ),
        });
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_loads_and_refuses_a_second_opener() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("approvals.json");
        let store = FileStore::open(&path).unwrap();
        assert_eq!(store.load().unwrap(), State::default());
        let mut state = State::default();
        state.grants.push(super::super::model::Grant::Always {
            id: "g_1".into(),
            pattern: "exec:ls *".into(),
            tool: "exec".into(),
            glob: "ls *".into(),
            by: "ops".into(),
            at_ms: 1,
        });
        store.save(&state).unwrap();
        assert_eq!(store.load().unwrap(), state);
        assert!(matches!(
            FileStore::open(&path),
            Err(StoreError::Locked { .. })
        ));
        drop(store);
        assert!(FileStore::open(&path).is_ok());
    }

    #[test]
    fn a_corrupt_file_is_an_error_with_its_position() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("approvals.json");
        std::fs::write(&path, "{\"version\": 1,\n \"pending\": [").unwrap();
        let e = read_state(&path).unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        std::fs::write(
            &path,
            r#"{"version":9,"pending":[],"grants":[],"history":[]}"#,
        )
        .unwrap();
        assert!(
            read_state(&path)
                .unwrap_err()
                .to_string()
                .contains("format version 9")
        );
    }
}
