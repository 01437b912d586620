//! Watching the policy file: its directory, not the file, because editors save by writing a
//! new file and renaming it over the old one, and Kubernetes swaps a `..data` symlink.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use tokio::sync::Notify;

use super::{LivePolicy, ReloadTrigger};

/// Why the watcher could not start.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// Not called from inside a tokio runtime.
    #[error("the policy watcher needs a tokio runtime")]
    NoRuntime,
    /// The policy's directory could not be resolved.
    #[error("cannot resolve the directory of `{}`: {source}", path.display())]
    Resolve {
        /// The policy file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The operating system refused the watch (e.g. the inotify limit).
    #[error("cannot watch `{}`: {source}", dir.display())]
    Watch {
        /// The directory.
        dir: PathBuf,
        /// The watcher's error.
        source: notify::Error,
    },
}

/// Keeps the live policy in step with its file. Dropping it stops watching.
pub struct PolicyWatcher {
    _debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    task: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for PolicyWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PolicyWatcher").finish_non_exhaustive()
    }
}

impl Drop for PolicyWatcher {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The directory entries whose change may change the policy's content.
#[derive(Debug, Clone)]
struct Relevant {
    /// The policy's own directory, and its file name there.
    dir: PathBuf,
    name: OsString,
    /// When the policy is a symlink: the directory and name of the file it resolves to.
    target: Option<(PathBuf, OsString)>,
}

impl Relevant {
    fn resolve(path: &Path) -> Result<Relevant, WatchError> {
        let resolve_error = |source| WatchError::Resolve {
            path: path.to_path_buf(),
            source,
        };
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let dir = parent.canonicalize().map_err(resolve_error)?;
        let name = path
            .file_name()
            .map(OsString::from)
            .ok_or_else(|| resolve_error(std::io::Error::other("the path names no file")))?;
        let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        let target = if is_link {
            let resolved = path.canonicalize().map_err(resolve_error)?;
            match (resolved.parent(), resolved.file_name()) {
                (Some(d), Some(n)) if d != dir => Some((d.to_path_buf(), n.to_os_string())),
                _ => None,
            }
        } else {
            None
        };
        Ok(Relevant { dir, name, target })
    }

    fn dirs(&self) -> impl Iterator<Item = &Path> {
        std::iter::once(self.dir.as_path()).chain(self.target.as_ref().map(|(d, _)| d.as_path()))
    }

    /// Whether a change to `changed` may have changed the policy: the file itself, the file a
    /// symlink points at, or a `..`-prefixed entry beside it (Kubernetes' `..data` swap).
    fn matches(&self, changed: &Path) -> bool {
        let (Some(dir), Some(name)) = (changed.parent(), changed.file_name()) else {
            return false;
        };
        if dir == self.dir {
            return name == self.name || name.as_encoded_bytes().starts_with(b"..");
        }
        self.target
            .as_ref()
            .is_some_and(|(d, n)| dir == d && name == n)
    }
}

impl PolicyWatcher {
    /// Starts watching `live`'s file; each burst of changes, once quiet for `debounce`, causes
    /// one reload. Must be called inside a tokio runtime.
    pub fn start(live: Arc<LivePolicy>, debounce: Duration) -> Result<PolicyWatcher, WatchError> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| WatchError::NoRuntime)?;
        let relevant = Relevant::resolve(live.path())?;
        // A Notify holds at most one permit: bursts arriving during a reload coalesce into one
        // more reload, never a queue of them.
        let wake = Arc::new(Notify::new());
        let handler = {
            let relevant = relevant.clone();
            let wake = Arc::clone(&wake);
            move |result: DebounceEventResult| match result {
                Ok(events) => {
                    // Reading the file (as a reload does) raises access events; only changes
                    // count, or every reload would schedule the next.
                    let touched = events.iter().any(|e| {
                        e.need_rescan()
                            || (!matches!(e.kind, EventKind::Access(_))
                                && e.paths.iter().any(|p| relevant.matches(p)))
                    });
                    if touched {
                        wake.notify_one();
                    }
                }
                Err(errors) => {
                    for e in errors {
                        tracing::warn!(error = %e, "policy watcher error");
                    }
                    // After an error, events may have been lost: check the file.
                    wake.notify_one();
                }
            }
        };
        let mut debouncer =
            new_debouncer(debounce, None, handler).map_err(|source| WatchError::Watch {
                dir: relevant.dir.clone(),
                source,
            })?;
        for dir in relevant.dirs() {
            debouncer
                .watch(dir, RecursiveMode::NonRecursive)
                .map_err(|source| WatchError::Watch {
                    dir: dir.to_path_buf(),
                    source,
                })?;
        }
        let task = runtime.spawn(async move {
            loop {
                wake.notified().await;
                live.reload(ReloadTrigger::Watch).await;
            }
        });
        tracing::debug!(dir = %relevant.dir.display(), "watching the policy file");
        Ok(PolicyWatcher {
            _debouncer: debouncer,
            task,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relevant_entries_are_the_file_and_kubernetes_dot_dot_entries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("HOOKS.yaml");
        std::fs::write(&path, "").unwrap();
        let relevant = Relevant::resolve(&path).unwrap();
        let base = dir.path().canonicalize().unwrap();
        assert!(relevant.matches(&base.join("HOOKS.yaml")));
        assert!(relevant.matches(&base.join("..data")));
        assert!(!relevant.matches(&base.join("audit.jsonl")));
        assert!(!relevant.matches(&base.join("logs").join("HOOKS.yaml")));
        assert!(relevant.target.is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_policy_also_watches_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::fs::write(real.join("policy.yaml"), "").unwrap();
        let conf = dir.path().join("conf");
        std::fs::create_dir(&conf).unwrap();
        std::os::unix::fs::symlink(real.join("policy.yaml"), conf.join("HOOKS.yaml")).unwrap();
        let relevant = Relevant::resolve(&conf.join("HOOKS.yaml")).unwrap();
        let real = real.canonicalize().unwrap();
        assert!(relevant.matches(&real.join("policy.yaml")));
        assert!(!relevant.matches(&real.join("other.yaml")));
        assert_eq!(relevant.dirs().count(), 2);
    }
}
