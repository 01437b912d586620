//! The workspace's `.gitignore` files: read from disk, remembered while unchanged, and
//! consulted to find what git does not keep (a build output the project makes again).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use ignore::gitignore::Gitignore;

use super::host::REMEMBERED;
use super::{Where, below};

impl Where {
    /// Whether the workspace's `.gitignore` files ignore `path` (in the workspace): what
    /// git does not keep, the project makes again. Not `.env` files, which people ignore to
    /// keep them out of git, not because they are made again. As in git, the `.gitignore`
    /// nearest the path decides first (`!keep.txt` in `build/.gitignore` keeps it), up to
    /// [`MAX_NESTED`] directories below the root.
    pub(super) fn is_ignored(&self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or("");
        if name.starts_with(".env") {
            return false;
        }
        let Some(root) = self.workspace.as_deref() else {
            return false;
        };
        let Some(rest) = below(path, root) else {
            return false;
        };
        let mut dirs = vec![root.to_owned()];
        if self.nested {
            let parts: Vec<&str> = rest.split('/').collect();
            let deepest = parts.len().saturating_sub(1).min(MAX_NESTED);
            dirs.extend((1..=deepest).map(|k| format!("{root}/{}", parts[..k].join("/"))));
        }
        let is_dir = self.nested && Path::new(path).is_dir();
        for dir in dirs.iter().rev() {
            // Past the budget, what is not yet known to be ignored is taken as kept: a
            // workspace file, which the policy guards more than a build output.
            self.consulted.set(self.consulted.get() + 1);
            if self.consulted.get() > MAX_CONSULTED {
                return false;
            }
            let ignored = match dir == root {
                true => self.ignored.clone(),
                false => self
                    .below_root
                    .borrow_mut()
                    .entry(dir.clone())
                    .or_insert_with(|| gitignore(dir))
                    .clone(),
            };
            let Some(ignored) = ignored else {
                continue;
            };
            if !Path::new(path).starts_with(ignored.path()) {
                continue;
            }
            match ignored.matched_path_or_any_parents(path, is_dir) {
                ignore::Match::Ignore(_) => return true,
                ignore::Match::Whitelist(_) => return false,
                ignore::Match::None => {}
            }
        }
        false
    }
}

/// How many directories below the workspace's root have their `.gitignore` read.
const MAX_NESTED: usize = 16;
/// How many `.gitignore` matchers one evaluation consults, over all its paths: a line of
/// thousands of deep paths stays bounded.
pub(super) const MAX_CONSULTED: usize = 2048;

/// How long a `.gitignore` read is trusted before its modification time is looked at again.
const IGNORE_CHECKED_FOR: Duration = Duration::from_secs(2);
/// Largest `.gitignore` read.
pub(super) const MAX_GITIGNORE: u64 = 256 * 1024;

/// What this host showed of a directory's `.gitignore`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sight {
    /// The directory is here, and its `.gitignore` was read or there is none.
    Seen,
    /// The `.gitignore` is there but could not be read (too large, not permitted).
    Unreadable,
    /// The directory is not here.
    Missing,
}

/// The `.gitignore` in the directory `workspace` (its root, or a directory below),
/// compiled; read again when it changes (a stat at most every 2 s per directory, never a
/// process per decision).
pub(super) fn gitignore(workspace: &str) -> Option<Arc<Gitignore>> {
    gitignore_seen(workspace).0
}

/// [`gitignore`], and what this host showed of it.
pub(super) fn gitignore_seen(workspace: &str) -> (Option<Arc<Gitignore>>, Sight) {
    type Read = (Option<SystemTime>, Instant, Option<Arc<Gitignore>>, Sight);
    static READ: Mutex<Option<HashMap<String, Read>>> = Mutex::new(None);
    let now = Instant::now();
    let mut read = READ.lock().unwrap_or_else(PoisonError::into_inner);
    let read = read.get_or_insert_with(HashMap::new);
    if let Some((_, at, ignored, sight)) = read.get(workspace)
        && now.duration_since(*at) < IGNORE_CHECKED_FOR
    {
        return (ignored.clone(), *sight);
    }
    let file = Path::new(workspace).join(".gitignore");
    let meta = std::fs::metadata(&file).ok().filter(|m| m.is_file());
    let modified = meta.as_ref().and_then(|m| m.modified().ok());
    // Without a file there is nothing to compare: whether the directory is here is looked
    // at again.
    if let Some((seen, at, ignored, sight)) = read.get_mut(workspace)
        && modified.is_some()
        && *seen == modified
    {
        *at = now;
        return (ignored.clone(), *sight);
    }
    // A .gitignore that cannot be read leaves the built-in names alone in force.
    let (ignored, sight) = match meta {
        None if Path::new(workspace).is_dir() => (None, Sight::Seen),
        None => (None, Sight::Missing),
        Some(m) if m.len() > MAX_GITIGNORE => (None, Sight::Unreadable),
        Some(_) => {
            let (matcher, read) = read_gitignore(workspace, &file);
            match (matcher.is_empty(), read) {
                (true, false) => (None, Sight::Unreadable),
                (true, true) => (None, Sight::Seen),
                (false, _) => (Some(Arc::new(matcher)), Sight::Seen),
            }
        }
    };
    if read.len() >= REMEMBERED {
        read.clear();
    }
    read.insert(
        workspace.to_owned(),
        (modified, now, ignored.clone(), sight),
    );
    (ignored, sight)
}

/// The `.gitignore` at `file` (of the directory `dir`), compiled, and whether all of it was
/// read. Only a regular file is read, and no more than its budget: one swapped for a FIFO
/// after it was looked at would otherwise hold the decision at its open.
pub(super) fn read_gitignore(dir: &str, file: &Path) -> (Gitignore, bool) {
    let text = match crate::regular_file::read_to_string(file, MAX_GITIGNORE) {
        Ok(text) => text,
        Err(e) => {
            tracing::debug!(file = %file.display(), error = %e, "a .gitignore was not read");
            return (Gitignore::empty(), false);
        }
    };
    let mut builder = ignore::gitignore::GitignoreBuilder::new(dir);
    let mut whole = true;
    for line in text.lines() {
        if let Err(e) = builder.add_line(Some(file.to_path_buf()), line) {
            tracing::debug!(file = %file.display(), error = %e, "part of a .gitignore was not read");
            whole = false;
        }
    }
    match builder.build() {
        Ok(matcher) => (matcher, whole),
        Err(_) => (Gitignore::empty(), false),
    }
}
