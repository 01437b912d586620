//! Watching the policy's files: their directories, not the files, because editors save by writing a
//! new file and renaming it over the old one, and Kubernetes swaps a `..data` symlink.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::Notify;

use super::{LivePolicy, ReloadTrigger};
use crate::config::Touched;

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

/// Keeps the live policy in step with its files. Dropping it stops watching.
pub struct PolicyWatcher {
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

/// The directory entries whose change may change the policy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Relevant {
    /// Each policy file (and symlink target) as its directory and name there. For a file
    /// whose directory is missing, the nearest existing ancestor and the missing entry in it.
    entries: HashSet<(PathBuf, OsString)>,
    /// The directories of those entries: a `..`-prefixed entry in one is Kubernetes' swap.
    file_dirs: HashSet<PathBuf>,
    /// Directories a discovery scan read: a `HOOKS.yaml` or a directory appearing in one
    /// may add a policy file.
    scanned: HashSet<PathBuf>,
}

impl Relevant {
    /// What to watch for the files and directories a load read; `root` must resolve.
    fn resolve(root: &Path, touched: &Touched) -> Result<Relevant, WatchError> {
        let mut relevant = Relevant::default();
        relevant
            .add_file(root)
            .map_err(|source| WatchError::Resolve {
                path: root.to_path_buf(),
                source,
            })?;
        for file in &touched.files {
            // A file that cannot be placed (no existing ancestor) is left to SIGHUP.
            let _ = relevant.add_file(file);
        }
        for dir in &touched.dirs {
            if let Ok(dir) = dir.canonicalize() {
                relevant.scanned.insert(dir);
            }
        }
        Ok(relevant)
    }

    fn add_file(&mut self, path: &Path) -> std::io::Result<()> {
        let name = path
            .file_name()
            .map(OsString::from)
            .ok_or_else(|| std::io::Error::other("the path names no file"))?;
        let mut dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut entry = name;
        // Climb to the nearest directory that exists: creating the missing one is the change.
        let resolved = loop {
            match dir.canonicalize() {
                Ok(resolved) => break resolved,
                Err(e) => {
                    let (Some(parent), Some(missing)) = (dir.parent(), dir.file_name()) else {
                        return Err(e);
                    };
                    entry = missing.to_os_string();
                    dir = if parent.as_os_str().is_empty() {
                        PathBuf::from(".")
                    } else {
                        parent.to_path_buf()
                    };
                }
            }
        };
        self.file_dirs.insert(resolved.clone());
        self.entries.insert((resolved, entry));
        let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        if is_link
            && let Ok(target) = path.canonicalize()
            && let (Some(d), Some(n)) = (target.parent(), target.file_name())
        {
            self.file_dirs.insert(d.to_path_buf());
            self.entries.insert((d.to_path_buf(), n.to_os_string()));
        }
        Ok(())
    }

    fn dirs(&self) -> HashSet<PathBuf> {
        self.file_dirs.union(&self.scanned).cloned().collect()
    }

    /// Whether a change to `changed` may have changed the policy: one of its files, the
    /// file a symlink points at, a `..`-prefixed entry beside one (Kubernetes' `..data`
    /// swap), or a new `HOOKS.yaml` or directory where discovery looks.
    fn matches(&self, changed: &Path) -> bool {
        let (Some(dir), Some(name)) = (changed.parent(), changed.file_name()) else {
            return false;
        };
        let key = (dir.to_path_buf(), name.to_os_string());
        if self.entries.contains(&key) {
            return true;
        }
        if self.file_dirs.contains(dir) && name.as_encoded_bytes().starts_with(b"..") {
            return true;
        }
        self.scanned.contains(dir) && (name == POLICY_FILE_NAME || changed.is_dir())
    }
}

/// The file name discovery looks for.
const POLICY_FILE_NAME: &str = "HOOKS.yaml";

impl PolicyWatcher {
    /// Starts watching `live`'s files; each burst of changes, once quiet for `debounce`,
    /// causes one reload. After every reload (whatever asked for it) the watched set follows
    /// the files that load read. Must be called inside a tokio runtime.
    pub fn start(live: Arc<LivePolicy>, debounce: Duration) -> Result<PolicyWatcher, WatchError> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| WatchError::NoRuntime)?;
        let relevant = Relevant::resolve(live.path(), &live.touched())?;
        let shared = Arc::new(Mutex::new(relevant.clone()));
        // A Notify holds at most one permit: bursts arriving during a reload coalesce into one
        // more reload, never a queue of them.
        let wake = Arc::new(Notify::new());
        // Events arrive one by one on the watcher's thread, which sleeps until the kernel
        // has one: an idle daemon wakes for nothing. The bursts are debounced by the task
        // below.
        let handler = {
            let shared = Arc::clone(&shared);
            let wake = Arc::clone(&wake);
            move |result: notify::Result<notify::Event>| match result {
                Ok(e) => {
                    let relevant = shared.lock().unwrap_or_else(PoisonError::into_inner);
                    // Reading the file (as a reload does) raises access events; only changes
                    // count, or every reload would schedule the next.
                    if e.need_rescan()
                        || (!matches!(e.kind, EventKind::Access(_))
                            && e.paths.iter().any(|p| relevant.matches(p)))
                    {
                        wake.notify_one();
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "policy watcher error");
                    // After an error, events may have been lost: check the file.
                    wake.notify_one();
                }
            }
        };
        let root_dir = relevant
            .file_dirs
            .iter()
            .next()
            .cloned()
            .unwrap_or_default();
        let watcher = notify::recommended_watcher(handler).map_err(|source| WatchError::Watch {
            dir: root_dir,
            source,
        })?;
        let mut watches = Watches {
            watcher,
            dirs: HashSet::new(),
        };
        // The root file's directory must be watchable; the others are reported and retried
        // after the next reload.
        let root = Relevant::resolve(live.path(), &Touched::default())?;
        for dir in root.dirs() {
            watches.add(&dir)?;
        }
        watches.sync(&relevant.dirs());
        tracing::debug!(dirs = watches.dirs.len(), "watching the policy files");
        let task = runtime.spawn(async move {
            loop {
                tokio::select! {
                    () = wake.notified() => {
                        quiet(&wake, debounce).await;
                        live.reload(ReloadTrigger::Watch).await;
                    }
                    () = live.loaded.notified() => {}
                }
                let Ok(next) = Relevant::resolve(live.path(), &live.touched()) else {
                    continue;
                };
                let added = watches.sync(&next.dirs());
                *shared.lock().unwrap_or_else(PoisonError::into_inner) = next;
                if added {
                    // A file may have changed before its directory was watched.
                    wake.notify_one();
                }
            }
        });
        Ok(PolicyWatcher { task })
    }
}

/// Waits `debounce` from a burst's first event, so that an editor's save (several events
/// within milliseconds) is one reload, then takes the events that arrived meanwhile: they
/// are that reload's. A file that keeps changing is reloaded every `debounce` or so, never
/// postponed.
async fn quiet(wake: &Notify, debounce: Duration) {
    tokio::time::sleep(debounce).await;
    // Polled once: a stored permit is taken, none is waited for.
    let _ = tokio::time::timeout(Duration::ZERO, wake.notified()).await;
}

/// The directories watched, kept equal to what the policy's files need.
struct Watches {
    watcher: RecommendedWatcher,
    dirs: HashSet<PathBuf>,
}

impl Watches {
    fn add(&mut self, dir: &Path) -> Result<(), WatchError> {
        self.watcher
            .watch(dir, RecursiveMode::NonRecursive)
            .map_err(|source| WatchError::Watch {
                dir: dir.to_path_buf(),
                source,
            })?;
        self.dirs.insert(dir.to_path_buf());
        Ok(())
    }

    /// Watches exactly `wanted`; true when a directory was added.
    fn sync(&mut self, wanted: &HashSet<PathBuf>) -> bool {
        let stale: Vec<PathBuf> = self.dirs.difference(wanted).cloned().collect();
        for dir in stale {
            let _ = self.watcher.unwatch(&dir);
            self.dirs.remove(&dir);
        }
        let mut added = false;
        for dir in wanted {
            if self.dirs.contains(dir) {
                continue;
            }
            match self.add(dir) {
                Ok(()) => added = true,
                Err(e) => tracing::warn!(error = %e, "cannot watch a policy directory"),
            }
        }
        added
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touched(files: &[PathBuf], dirs: &[PathBuf]) -> Touched {
        Touched {
            files: files.to_vec(),
            dirs: dirs.to_vec(),
        }
    }

    #[test]
    fn relevant_entries_are_the_file_and_kubernetes_dot_dot_entries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("HOOKS.yaml");
        std::fs::write(&path, "").unwrap();
        let relevant = Relevant::resolve(&path, &Touched::default()).unwrap();
        let base = dir.path().canonicalize().unwrap();
        assert!(relevant.matches(&base.join("HOOKS.yaml")));
        assert!(relevant.matches(&base.join("..data")));
        assert!(!relevant.matches(&base.join("audit.jsonl")));
        assert!(!relevant.matches(&base.join("logs").join("HOOKS.yaml")));
        assert_eq!(relevant.dirs().len(), 1);
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
        let relevant = Relevant::resolve(&conf.join("HOOKS.yaml"), &Touched::default()).unwrap();
        let real = real.canonicalize().unwrap();
        assert!(relevant.matches(&real.join("policy.yaml")));
        assert!(!relevant.matches(&real.join("other.yaml")));
        assert_eq!(relevant.dirs().len(), 2);
    }

    #[test]
    fn included_files_missing_directories_and_scanned_directories_are_relevant() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("HOOKS.yaml");
        std::fs::write(&root, "").unwrap();
        std::fs::create_dir(dir.path().join("packs")).unwrap();
        std::fs::create_dir(dir.path().join("proj")).unwrap();
        let relevant = Relevant::resolve(
            &root,
            &touched(
                &[
                    root.clone(),
                    dir.path().join("packs/a.yaml"),
                    dir.path().join("missing/deeper/b.yaml"),
                ],
                &[dir.path().join("proj")],
            ),
        )
        .unwrap();
        let base = dir.path().canonicalize().unwrap();
        assert!(relevant.matches(&base.join("packs/a.yaml")));
        assert!(!relevant.matches(&base.join("packs/other.yaml")));
        // The missing directory's creation is the change to wait for.
        assert!(relevant.matches(&base.join("missing")));
        assert!(relevant.matches(&base.join("proj/HOOKS.yaml")));
        assert!(!relevant.matches(&base.join("proj/notes.txt")));
        std::fs::create_dir(dir.path().join("proj/new")).unwrap();
        assert!(relevant.matches(&base.join("proj/new")));
        assert_eq!(relevant.dirs().len(), 3);
    }
}
