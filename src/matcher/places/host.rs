//! What this host shows of the directories a context names: the home directory, the
//! workspace found on disk above `cwd`, and, for the decision log, what could not be seen.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

#[cfg(any(feature = "server", test))]
use super::gitignore::{Sight, gitignore_seen};
#[cfg(any(feature = "server", test))]
use crate::context::HookContext;
use crate::matcher::paths::normalize;

/// The home directory of the user hookgate runs as, normalised.
pub(super) fn home_dir() -> Option<String> {
    std::env::var("HOME")
        .ok()
        .filter(|h| h.starts_with('/'))
        .map(|h| normalize(&h))
}

/// How long a workspace found on disk is trusted before it is looked for again.
const FOUND_FOR: Duration = Duration::from_secs(10);
/// Most directories whose workspace is remembered.
pub(super) const REMEMBERED: usize = 1024;

/// The nearest ancestor of `cwd` (itself included) holding `.git`, other than `home` and `/`;
/// remembered for a few seconds so a decision costs no file-system walk.
pub(super) fn find_workspace(cwd: &str, home: Option<&str>) -> Option<String> {
    look_up(cwd, home).0
}

/// [`find_workspace`], and whether `cwd` is a directory on this host.
fn look_up(cwd: &str, home: Option<&str>) -> (Option<String>, bool) {
    type Found = HashMap<String, (Option<String>, bool, Instant)>;
    static FOUND: Mutex<Option<Found>> = Mutex::new(None);
    let now = Instant::now();
    {
        let found = FOUND.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((workspace, here, at)) = found.as_ref().and_then(|f| f.get(cwd))
            && now.duration_since(*at) < FOUND_FOR
        {
            return (workspace.clone(), *here);
        }
    }
    let here = Path::new(cwd).is_dir();
    let workspace = Path::new(cwd)
        .ancestors()
        .filter(|d| d.as_os_str() != "/" && Some(d.as_os_str()) != home.map(AsRef::as_ref))
        .find(|d| d.join(".git").exists())
        .and_then(|d| d.to_str().map(str::to_owned));
    let mut found = FOUND.lock().unwrap_or_else(PoisonError::into_inner);
    let found = found.get_or_insert_with(HashMap::new);
    if found.len() >= REMEMBERED {
        found.clear();
    }
    found.insert(cwd.to_owned(), (workspace.clone(), here, now));
    (workspace, here)
}

/// What this host could not show of the directories `ctx` names, in words for the
/// decision log: a daemon on another machine than the agent's, or a `.gitignore` it may not
/// read. Paths are placed all the same, build outputs by their built-in names only. Looked
/// up in the caches placing fills, so it costs no more than a decision's placing.
#[cfg(any(feature = "server", test))]
pub(crate) fn unseen(ctx: &HookContext) -> Option<String> {
    if ctx.cwd.is_none() && ctx.workspace.is_none() {
        return None;
    }
    let home = home_dir();
    let cwd = ctx.cwd.as_deref().map(normalize);
    let (found, cwd_here) = match cwd.as_deref() {
        Some(c) => look_up(c, home.as_deref()),
        None => (None, true),
    };
    let workspace = ctx
        .workspace
        .as_deref()
        .map(normalize)
        .or(found)
        .filter(|w| w != "/" && Some(w) != home.as_ref());
    let names_only = "build outputs are known by their built-in names only";
    match workspace {
        Some(w) => match gitignore_seen(&w).1 {
            Sight::Seen => None,
            Sight::Unreadable => Some(format!(
                "the workspace's {w}/.gitignore could not be read: {names_only}"
            )),
            Sight::Missing => Some(format!(
                "the workspace {w} is not a directory on this host: {names_only}"
            )),
        },
        None => (!cwd_here).then(|| {
            format!(
                "the cwd {} is not a directory on this host, so no workspace was found: \
                 {names_only}",
                cwd.unwrap_or_default()
            )
        }),
    }
}
