//! Walking a directory tree for the files a name picks: the one walker behind policy
//! discovery (`discover:`) and test files (`hookgate test DIR`). Built on `walkdir`, so a deep
//! tree costs no stack. Directories named in `skipped` are not entered, and links to
//! directories are not followed: a link could loop, or lead out of the tree.

use std::path::{Path, PathBuf};

/// How far a walk goes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Walk<'a> {
    /// Directory levels below the root that are read (0: the root only).
    pub(crate) max_depth: usize,
    /// Directory names not entered below the root.
    pub(crate) skipped: &'a [&'a str],
    /// Most directories read; past it the walk stops with [`TooMany`].
    pub(crate) max_dirs: usize,
}

/// What a walk found: regular files (or links to them) the name picked, in path order; the
/// directories it read; and those it could not read, with why (the root's first).
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub(crate) files: Vec<PathBuf>,
    pub(crate) dirs: Vec<PathBuf>,
    pub(crate) errors: Vec<(PathBuf, std::io::Error)>,
}

/// A walk that read more than its `max_dirs` directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooMany(pub(crate) usize);

impl Walk<'_> {
    /// Walks `root` for the files whose path `picks` accepts. An empty `root` is the working
    /// directory, and what is found under it stays relative (`a/HOOKS.yaml`).
    pub(crate) fn run(self, root: &Path, picks: impl Fn(&Path) -> bool) -> Result<Found, TooMany> {
        let relative = root.as_os_str().is_empty();
        let start = if relative { Path::new(".") } else { root };
        // Files sit one level below the deepest directory read.
        let walker = walkdir::WalkDir::new(start)
            .max_depth(self.max_depth.saturating_add(1))
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|entry| {
                entry.depth() == 0
                    || !entry.file_type().is_dir()
                    || !entry
                        .file_name()
                        .to_str()
                        .is_some_and(|name| self.skipped.contains(&name))
            });
        let mut found = Found::default();
        let as_found = |path: &Path| match path.strip_prefix(".") {
            Ok(rest) if relative && !rest.as_os_str().is_empty() => rest.to_path_buf(),
            _ => path.to_path_buf(),
        };
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let path = e.path().unwrap_or(start).to_path_buf();
                    let error = e
                        .into_io_error()
                        .unwrap_or_else(|| std::io::Error::other("a link loops"));
                    found.errors.push((path, error));
                    continue;
                }
            };
            let path = entry.path();
            if entry.file_type().is_dir() {
                if entry.depth() <= self.max_depth {
                    if found.dirs.len() >= self.max_dirs {
                        return Err(TooMany(self.max_dirs));
                    }
                    found.dirs.push(as_found(path));
                }
            } else if entry.depth() > 0 && picks(path) && path.is_file() {
                // Only a regular file, or a link to one: what reads it checks again.
                found.files.push(as_found(path));
            }
        }
        found.files.sort();
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(paths: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for path in paths {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "").expect("write");
        }
        dir
    }

    const WALK: Walk<'static> = Walk {
        max_depth: 1,
        skipped: &["node_modules"],
        max_dirs: 100,
    };

    #[test]
    fn a_walk_stops_at_its_depth_skips_what_it_is_told_and_sorts() {
        let dir = tree(&[
            "b.yaml",
            "a/x.yaml",
            "a/b/deep.yaml",
            "node_modules/n.yaml",
            "a/x.txt",
        ]);
        let found = WALK
            .run(dir.path(), |p| p.extension().is_some_and(|e| e == "yaml"))
            .expect("walks");
        assert_eq!(
            found.files,
            [dir.path().join("a/x.yaml"), dir.path().join("b.yaml")]
        );
        // The root and `a`; not `a/b` (too deep) nor `node_modules` (skipped).
        assert_eq!(found.dirs, [dir.path().to_path_buf(), dir.path().join("a")]);
        assert!(found.errors.is_empty());
    }

    #[test]
    fn a_missing_root_is_an_error_and_too_many_directories_stop_the_walk() {
        let dir = tree(&["a/x", "b/x", "c/x"]);
        let missing = WALK
            .run(&dir.path().join("missing"), |_| true)
            .expect("walks");
        assert_eq!(missing.errors.len(), 1);
        assert_eq!(missing.errors[0].0, dir.path().join("missing"));
        let few = Walk {
            max_dirs: 2,
            ..WALK
        };
        assert_eq!(few.run(dir.path(), |_| true).err(), Some(TooMany(2)));
    }

    #[cfg(unix)]
    #[test]
    fn links_to_directories_are_not_followed_but_links_to_files_are_found() {
        let dir = tree(&["real/x.yaml", "f.yaml"]);
        std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("link")).expect("link");
        std::os::unix::fs::symlink(dir.path().join("f.yaml"), dir.path().join("g.yaml"))
            .expect("link");
        let found = WALK.run(dir.path(), |_| true).expect("walks");
        assert_eq!(
            found.files,
            [
                dir.path().join("f.yaml"),
                dir.path().join("g.yaml"),
                dir.path().join("real/x.yaml")
            ]
        );
    }
}
