//! Places: where a path is, seen from the project the agent works in. A policy says what may
//! be deleted by place (`match.command.deletes: [home, system]`), not by spelling: `rm -rf
//! build` in a project deletes a build output, the same line in the home directory does not.
//!
//! The project is the context's `workspace`, else the nearest ancestor of its `cwd` holding
//! `.git`; the home directory and `/` are never one. Relative paths and `cd` on the line
//! resolve against `cwd`; without one, a relative path is in an `unknown` place.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use ignore::gitignore::Gitignore;

pub(crate) use crate::config::Place;
use crate::context::HookContext;
use crate::matcher::paths::{after_home_variable, normalize};
use crate::matcher::shell::effects::{PathTouch, Touch};

/// Directory names whose contents a build or an install makes again.
pub(crate) const REGENERABLE: &[&str] = &[
    "node_modules",
    "target",
    "build",
    "dist",
    "out",
    ".venv",
    "venv",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".tox",
    ".next",
    ".nuxt",
    ".turbo",
    ".parcel-cache",
    ".cache",
    "coverage",
    // Framework caches (`var/cache`, `tmp/cache`, `storage/framework/cache`).
    "cache",
    ".gradle",
    ".dart_tool",
    "bin",
    "obj",
    "_build",
    "cmake-build-debug",
    "cmake-build-release",
    // Test and tool outputs: coverage reports, bundlers', notebooks' and linters' caches,
    // static builds, Terraform's downloaded providers and modules (`terraform init`).
    "htmlcov",
    ".coverage",
    ".hypothesis",
    ".nox",
    ".eggs",
    ".ipynb_checkpoints",
    ".vite",
    ".svelte-kit",
    ".angular",
    ".docusaurus",
    ".eslintcache",
    ".sass-cache",
    "storybook-static",
    ".terraform",
    "blib",
];

/// The directories among [`REGENERABLE`] that only package managers and tools make, so
/// their contents are regenerable wherever they are outside the system (`~/node_modules`
/// after an `npm install` in the home directory); `build` or `bin` in the home directory may
/// be the user's own.
const REGENERABLE_ANYWHERE: &[&str] = &[
    // XDG's cache directory (`~/.cache`): what programs keep there they can make again.
    ".cache",
    "node_modules",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    // npm's download cache and npx's installs (`~/.npm/_cacache`, `~/.npm/_npx`), pnpm's
    // store: refilled from the registry on the next install.
    "_cacache",
    "_npx",
    ".pnpm-store",
];

/// Package managers' download caches at fixed places in the home directory, filled again
/// by the next build (`go clean -modcache` empties Go's).
const HOME_CACHES: &[&str] = &[
    "go/pkg/mod",
    ".cargo/registry",
    ".m2/repository",
    ".gradle/caches",
];

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
    /// How many `.gitignore` matchers this evaluation has consulted (see [`MAX_CONSULTED`]).
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
        // The home directory and `/` are never a workspace.
        let workspace = workspace.filter(|w| w != "/" && Some(w) != home.as_ref());
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
                    Place::Workspace if REGENERABLE.contains(&name) => Place::Regenerable,
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
            if rest.split('/').any(|c| REGENERABLE.contains(&c)) || self.is_ignored(path) {
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

impl Where {
    /// Whether the workspace's `.gitignore` files ignore `path` (in the workspace): what
    /// git does not keep, the project makes again. Not `.env` files, which people ignore to
    /// keep them out of git, not because they are made again. As in git, the `.gitignore`
    /// nearest the path decides first (`!keep.txt` in `build/.gitignore` keeps it), up to
    /// [`MAX_NESTED`] directories below the root.
    fn is_ignored(&self, path: &str) -> bool {
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
const MAX_CONSULTED: usize = 2048;

/// How long a `.gitignore` read is trusted before its modification time is looked at again.
const IGNORE_CHECKED_FOR: Duration = Duration::from_secs(2);
/// Largest `.gitignore` read.
const MAX_GITIGNORE: u64 = 256 * 1024;

/// What this host showed of a directory's `.gitignore`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sight {
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
fn gitignore(workspace: &str) -> Option<Arc<Gitignore>> {
    gitignore_seen(workspace).0
}

/// [`gitignore`], and what this host showed of it.
fn gitignore_seen(workspace: &str) -> (Option<Arc<Gitignore>>, Sight) {
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
fn read_gitignore(dir: &str, file: &Path) -> (Gitignore, bool) {
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

/// The home directory of the user hookgate runs as, normalised.
fn home_dir() -> Option<String> {
    std::env::var("HOME")
        .ok()
        .filter(|h| h.starts_with('/'))
        .map(|h| normalize(&h))
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

/// How long a workspace found on disk is trusted before it is looked for again.
const FOUND_FOR: Duration = Duration::from_secs(10);
/// Most directories whose workspace is remembered.
const REMEMBERED: usize = 1024;

/// The nearest ancestor of `cwd` (itself included) holding `.git`, other than `home` and `/`;
/// remembered for a few seconds so a decision costs no file-system walk.
fn find_workspace(cwd: &str, home: Option<&str>) -> Option<String> {
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

/// Kinds of files a project is written in: deleting every one of a kind is deleting the
/// project's work, where `*.pyc`, `*.o` or `*.log` are what a build or a run leaves.
const SOURCE_KINDS: &[&str] = &[
    "py", "pyi", "js", "mjs", "cjs", "jsx", "ts", "tsx", "vue", "svelte", "rs", "go", "java", "kt",
    "kts", "scala", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "rb", "php", "swift", "m",
    "mm", "sh", "bash", "zsh", "pl", "pm", "lua", "sql", "dart", "ex", "exs", "erl", "hs", "ml",
    "clj", "r", "jl", "md", "rst", "ipynb",
];

/// Whether a wildcard `path` names every file of a directory or of a tree (`dir/*`,
/// `dir/**/*`, `dir/**`), or every source file of a kind in one (`*.py`, `src/**/*.ts`,
/// `*.{rb,js}`).
fn names_a_tree(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or(path);
    if matches!(last, "*" | "**") {
        return true;
    }
    // `*.{py,js}` names every file of each kind.
    last.strip_prefix("*.").is_some_and(|kinds| {
        let kinds = kinds
            .strip_prefix('{')
            .and_then(|k| k.strip_suffix('}'))
            .unwrap_or(kinds);
        kinds.split(',').any(|kind| SOURCE_KINDS.contains(&kind))
    })
}

/// Whether a pattern below the workspace may name its `.git` itself, or something in it:
/// its first name, after any `**` (which may stand for no directory), matches `.git` as
/// the shell matches (`.gi?`, `.[g]it`, `**/.git`; not `*`, which skips hidden names).
fn may_name_git(rest: &str) -> bool {
    let mut parts = rest.split('/');
    let mut skipped = false;
    let first = loop {
        match parts.next() {
            Some("**") => skipped = true,
            Some(first) => break first,
            None => return false,
        }
    };
    (skipped || first.contains(['*', '?', '['])) && crate::matcher::wildcard_matches(first, ".git")
}

#[cfg(test)]
mod tests;
