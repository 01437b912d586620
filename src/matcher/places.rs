//! Places: where a path is, seen from the project the agent works in. A policy says what may
//! be deleted by place (`match.command.deletes: [home, system]`), not by spelling: `rm -rf
//! build` in a project deletes a build output, the same line in the home directory does not.
//!
//! The project is the context's `workspace`, else the nearest ancestor of its `cwd` holding
//! `.git`; the home directory, a directory holding it and `/` are never one. Relative paths
//! and `cd` on the line resolve against `cwd`; without one, a relative path is in an
//! `unknown` place.

mod gitignore;
mod host;
mod names;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

use ignore::gitignore::Gitignore;

use gitignore::gitignore;
#[cfg(any(feature = "server", test))]
pub(crate) use host::unseen;
use host::{find_workspace, home_dir};
use names::{HOME_CACHES, REGENERABLE_ANYWHERE, may_name_git, names_a_tree, regenerable};

pub(crate) use crate::config::Place;
use crate::context::HookContext;
use crate::matcher::paths::{after_home_variable, normalize};
use crate::matcher::shell::effects::{PathTouch, Touch};

/// The workspace of a project started in `dir` (absolute): the nearest ancestor holding
/// `.git`, else `dir` itself; never the home directory, a directory holding it, nor `/`
/// ([`Where::new`] drops them).
/// For a gateway that says where its session started (Claude Code's
/// `CLAUDE_PROJECT_DIR`), so that a project without git still has its own files.
#[cfg(feature = "cli")]
pub(crate) fn project_workspace(dir: &str) -> Option<String> {
    if !dir.starts_with('/') || !std::path::Path::new(dir).is_dir() {
        return None;
    }
    let dir = normalize(dir);
    Some(find_workspace(&dir, home_dir().as_deref()).unwrap_or(dir))
}

/// What a command does to a path, and where the path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// What the command does to it.
    pub touch: Touch,
    /// Whether what is below it goes too.
    pub recursive: bool,
    /// Where it is.
    pub place: Place,
}

/// What paths are placed against, for one evaluation.
#[derive(Debug, Clone, Default)]
pub struct Where {
    cwd: Option<String>,
    workspace: Option<String>,
    home: Option<String>,
    temp: Vec<String>,
    /// The workspace's root `.gitignore`, when it has one hookgate could read.
    ignored: Option<Arc<Gitignore>>,
    /// Whether the `.gitignore` files below the root are read from this host.
    nested: bool,
    /// The `.gitignore` of each directory below the root looked at in this evaluation.
    below_root: RefCell<HashMap<String, Option<Arc<Gitignore>>>>,
    /// How many `.gitignore` matchers this evaluation has consulted (see
    /// [`MAX_CONSULTED`](gitignore::MAX_CONSULTED)).
    consulted: Cell<usize>,
    /// The gate's own files, absolute and normalised (see [`Place::Gate`]).
    gate: Option<Arc<[String]>>,
}

impl Where {
    /// The places of `ctx`: its `cwd` and `workspace` (or the workspace found from `cwd`),
    /// and this host's home and temporary directories.
    pub fn of(ctx: &HookContext) -> Where {
        let home = home_dir();
        let mut temp = vec!["/tmp".to_owned(), "/var/tmp".to_owned()];
        if let Ok(dir) = std::env::var("TMPDIR")
            && dir.starts_with('/')
        {
            temp.push(normalize(&dir));
        }
        let cwd = ctx.cwd.as_deref().map(normalize);
        let workspace = ctx.workspace.as_deref().map(normalize).or_else(|| {
            cwd.as_deref()
                .and_then(|c| find_workspace(c, home.as_deref()))
        });
        let mut places = Where::new(cwd, workspace, home, temp);
        places.ignored = places.workspace.as_deref().and_then(gitignore);
        places.nested = true;
        places
    }

    /// Places against these directories (absolute, normalised).
    pub fn new(
        cwd: Option<String>,
        workspace: Option<String>,
        home: Option<String>,
        temp: Vec<String>,
    ) -> Where {
        // The home directory, `/` and a directory holding the home directory (`/home`) are
        // never a workspace: the home's files would be the agent's to write.
        let workspace = workspace.filter(|w| {
            w != "/"
                && home
                    .as_deref()
                    .is_none_or(|h| h != w && !h.starts_with(&format!("{w}/")))
        });
        Where {
            cwd,
            workspace,
            home,
            temp,
            ignored: None,
            nested: false,
            below_root: RefCell::default(),
            consulted: Cell::new(0),
            gate: None,
        }
    }

    /// These places, with `gate` the gate's own files (absolute, normalised).
    pub fn with_gate(mut self, gate: Option<Arc<[String]>>) -> Where {
        self.gate = gate;
        self
    }

    /// The workspace, if there is one.
    pub fn workspace(&self) -> Option<&str> {
        self.workspace.as_deref()
    }

    /// Where each of a command's `touches` is, for a command running in `dir`.
    /// A touch of the gate's own files is placed twice: where it is, and [`Place::Gate`].
    pub fn place_touches(&self, dir: Option<&str>, touches: &[PathTouch<'_>]) -> Vec<Placed> {
        touches
            .iter()
            .flat_map(|t| {
                // `tar -C DIR`: relative to DIR, itself relative to the command's directory.
                let joined;
                let dir = match (t.base, dir) {
                    (None, dir) => dir,
                    (Some(base), _) if base.starts_with(['/', '~']) => Some(base),
                    (Some(base), Some(dir)) => {
                        joined = format!("{dir}/{base}");
                        Some(joined.as_str())
                    }
                    (Some(_), None) => None,
                };
                let place = match t.inside {
                    true => self.place_inside(dir, t.path),
                    false => match self.place(dir, t.path) {
                        // A write cannot replace the workspace, a directory: `cp x .` writes
                        // in it.
                        Place::WorkspaceRoot
                            if matches!(t.touch, Touch::Overwrite | Touch::Append) =>
                        {
                            self.place_inside(dir, t.path)
                        }
                        // Nor `/tmp` itself: `cp x /tmp` writes a file in it.
                        Place::System
                            if matches!(t.touch, Touch::Overwrite | Touch::Append)
                                && self
                                    .absolute(dir, t.path)
                                    .is_some_and(|a| self.temp.contains(&a)) =>
                        {
                            self.place_inside(dir, t.path)
                        }
                        place => place,
                    },
                };
                // Deleting a directory that holds the workspace deletes the workspace.
                let place = match t.touch == Touch::Delete && self.holds_workspace(dir, t) {
                    true => Place::WorkspaceRoot,
                    false => place,
                };
                // Every file below a directory, one by one (`find src -type f -exec shred -u
                // {} +`, `truncate -s 0` of each), every file in one (`rm src/*`), or every
                // source file of a kind (`rm src/**/*.py`): the tree as much as `rm -r` of it.
                let tree = t.touch == Touch::Delete && names_a_tree(t.path);
                let placed = |place| Placed {
                    touch: t.touch,
                    recursive: t.recursive || tree,
                    place,
                };
                let gate = self.touches_gate(dir, t).then(|| placed(Place::Gate));
                std::iter::once(placed(place)).chain(gate)
            })
            .collect()
    }

    /// Whether `t`'s path is a directory above the workspace (`rm -rf ..` in its root,
    /// `rm -rf /tmp/*` for a workspace under `/tmp`), or, for `find DIR -delete`, one whose
    /// contents hold it.
    fn holds_workspace(&self, dir: Option<&str>, t: &PathTouch<'_>) -> bool {
        let (Some(workspace), Some(path)) = (self.workspace.as_deref(), self.absolute(dir, t.path))
        else {
            return false;
        };
        if path.contains(['*', '?', '[']) {
            return ancestors(workspace)
                .chain([workspace])
                .any(|a| crate::matcher::wildcard_matches(&path, a));
        }
        below(workspace, &path).is_some_and(|rest| !rest.is_empty())
    }

    /// Whether `t` reaches a file of the gate: writes one, deletes (or moves away) one or a
    /// directory holding one, changes the mode of one (or of a directory holding one, with
    /// `-R`), or writes inside the directory one is in (`tar -x -C DIR`, which may put any
    /// name there; an archive's entries deeper down are not seen). Writing a named file
    /// into such a directory (`cp x .`) does not: a workspace often holds its policy.
    fn touches_gate(&self, dir: Option<&str>, t: &PathTouch<'_>) -> bool {
        let Some(gate) = self.gate.as_deref().filter(|g| !g.is_empty()) else {
            return false;
        };
        let Some(path) = self.absolute(dir, t.path) else {
            return false;
        };
        let holds = |file: &str| below(file, &path).is_some_and(|rest| !rest.is_empty());
        let pattern = path.contains(['*', '?', '[']);
        gate.iter().any(|file| {
            if pattern {
                // A pattern names a gate file, or, for a delete, a directory holding one.
                let deletes_tree = t.touch == Touch::Delete || t.recursive;
                return crate::matcher::wildcard_matches(&path, file)
                    || deletes_tree
                        && ancestors(file).any(|a| crate::matcher::wildcard_matches(&path, a));
            }
            if t.inside {
                // What lands in a directory goes directly in it as far as the reader can
                // tell (`tar -x -C DIR`); a delete inside it reaches any depth.
                return match t.touch {
                    Touch::Delete => holds(file),
                    _ => file
                        .rsplit_once('/')
                        .is_some_and(|(parent, _)| parent == path),
                };
            }
            *file == path
                || match t.touch {
                    Touch::Delete => holds(file),
                    // `chmod 000 DIR` locks the gate out of every file below DIR too.
                    Touch::Mode => holds(file),
                    Touch::Overwrite | Touch::Append => false,
                }
        })
    }

    /// Where `path` is, for a command running in `dir` (see
    /// [`SimpleCommand::dir`](crate::matcher::shell::SimpleCommand::dir); `None`: not known).
    /// A path with a glob is placed inside the directory its pattern starts in.
    pub fn place(&self, dir: Option<&str>, path: &str) -> Place {
        let Some(absolute) = self.absolute(dir, path) else {
            return self.place_partly_known(path);
        };
        match absolute.find(['*', '?', '[']) {
            // What a glob matches is inside the directory it starts in (`~/*` is in the
            // home directory, `./*.pyc` in the workspace, not the workspace itself).
            Some(at) => {
                if let Some(root) = self.workspace.as_deref()
                    && below(&absolute, root).is_some_and(may_name_git)
                {
                    return Place::WorkspaceRoot;
                }
                let fixed = absolute[..at].rsplit_once('/').map_or("", |(d, _)| d);
                // `/home/*/.ssh/id_*` matches inside the home directory too.
                if let Some(home) = self.home.as_deref()
                    && below(fixed, home).is_none()
                {
                    // So does a `**` below a directory that holds it (`/home/**/*`, what
                    // File::Find over `/home` reads); not one below the root, placed there.
                    if absolute[at..].starts_with("**")
                        && !fixed.is_empty()
                        && below(home, fixed).is_some()
                    {
                        return self.place_of(&format!("{home}/x"));
                    }
                    let depth = home.matches('/').count();
                    let parts: Vec<&str> = absolute.splitn(depth + 2, '/').collect();
                    // `/**/x` (what `find / -name x` finds) is placed where it starts, at
                    // the root, rather than in whichever home `**` could reach.
                    if parts.len() == depth + 2
                        && !parts[..=depth].contains(&"**")
                        && crate::matcher::wildcard_matches(&parts[..=depth].join("/"), home)
                    {
                        return self.place_of(&format!("{home}/x"));
                    }
                }
                let inside = self.place_of(&format!("{fixed}/x"));
                // `./*__pycache__` (what `find . -name __pycache__` finds): every match is
                // a build output when the name it must end with is one.
                let name = absolute
                    .rsplit('/')
                    .next()
                    .unwrap_or("")
                    .trim_start_matches('*');
                match inside {
                    Place::Workspace if regenerable(name) => Place::Regenerable,
                    place => place,
                }
            }
            None => self.place_of(&absolute),
        }
    }

    /// Where an absolute path with a part not known is (`/sys/fs/cgroup$(...)/cgroup.kill`):
    /// in the system when the directory its known start names is, since what follows
    /// stays below it unless it climbs out with `..`, which leaves it nowhere safer to
    /// name. Anywhere else it is not known.
    fn place_partly_known(&self, path: &str) -> Place {
        let substitution = crate::matcher::shell::SUBSTITUTION;
        let Some(at) = path.find(substitution).filter(|_| path.starts_with('/')) else {
            return Place::Unknown;
        };
        let fixed = path[..at].rsplit_once('/').map_or("", |(d, _)| d);
        if fixed.is_empty() || fixed.contains(['*', '?', '[']) {
            return Place::Unknown;
        }
        match self.place_of(&normalize(&format!("{fixed}/x"))) {
            Place::System => Place::System,
            _ => Place::Unknown,
        }
    }

    /// Where what is inside `path` is (`find DIR -delete` deletes there, not `DIR` itself).
    pub fn place_inside(&self, dir: Option<&str>, path: &str) -> Place {
        let inside = format!("{}/{}", path.trim_end_matches('/'), "x");
        self.place(dir, if path.is_empty() { path } else { &inside })
    }

    /// `path` made absolute and normalised, `~` being the home directory; `None` when it
    /// cannot be.
    pub(crate) fn absolute(&self, dir: Option<&str>, path: &str) -> Option<String> {
        if path.is_empty() || path.contains(crate::matcher::shell::SUBSTITUTION) {
            return None;
        }
        let joined = if path.starts_with('/') {
            path.to_owned()
        } else if let Some(rest) = home_relative(path).or_else(|| after_home_variable(path)) {
            format!("{}/{rest}", self.home.as_deref()?)
        } else if path.starts_with('~') {
            // `~user`: another user's home, which is a home too.
            return Some(format!("{}/{}", self.home.as_deref()?, path));
        } else {
            let dir = dir?;
            let base = if dir.starts_with('/') {
                dir.to_owned()
            } else if let Some(rest) = home_relative(dir) {
                format!("{}/{rest}", self.home.as_deref()?)
            } else {
                format!("{}/{dir}", self.cwd.as_deref()?)
            };
            format!("{base}/{path}")
        };
        Some(normalize(&joined))
    }

    fn place_of(&self, path: &str) -> Place {
        if let Some(root) = self.workspace.as_deref()
            && let Some(rest) = below(path, root)
        {
            if rest.is_empty() || rest == ".git" || rest.starts_with(".git/") {
                return Place::WorkspaceRoot;
            }
            if rest.split('/').any(regenerable) || self.is_ignored(path) {
                return Place::Regenerable;
            }
            return Place::Workspace;
        }
        // Home first: a home directory under /tmp (a sandbox's) is still a home.
        if let Some(home) = self.home.as_deref()
            && let Some(rest) = below(path, home)
        {
            if rest.split('/').any(|c| REGENERABLE_ANYWHERE.contains(&c))
                || HOME_CACHES.iter().any(|c| below(rest, c).is_some())
            {
                return Place::Regenerable;
            }
            return Place::Home;
        }
        if self
            .temp
            .iter()
            .any(|t| below(path, t).is_some_and(|rest| !rest.is_empty()))
        {
            return Place::Temp;
        }
        Place::System
    }
}

/// `rest` of `~/rest` (or `""` for `~`).
fn home_relative(path: &str) -> Option<&str> {
    match path {
        "~" => Some(""),
        _ => path.strip_prefix("~/"),
    }
}

/// What follows `root` in `path` (`""` for `root` itself), if `path` is in `root`.
/// The directories above `path` (absolute), nearest first, `/` excepted.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let mut rest = path;
    std::iter::from_fn(move || {
        rest = rest.rsplit_once('/').map(|(dir, _)| dir)?;
        (!rest.is_empty()).then_some(rest)
    })
}

fn below<'p>(path: &'p str, root: &str) -> Option<&'p str> {
    if root == "/" {
        return Some(path.trim_start_matches('/'));
    }
    let rest = path.strip_prefix(root)?;
    match rest.strip_prefix('/') {
        Some(rest) => Some(rest),
        None => rest.is_empty().then_some(""),
    }
}

#[cfg(test)]
mod tests;
