//! The files of the host the command will run on, read at decision time: the script files a
//! command runs (`bash x.sh`, `./x.py`, `source x.sh`, `sh < x.sh`) that the line itself did
//! not write. Without this, an agent writes a script with one call and runs it with another,
//! and the gate sees only `bash x.sh`.
//!
//! Reading is bounded: regular files only (a FIFO or a device is never opened for reading
//! in a way that blocks), at most [`MAX_FILE`] bytes each and [`MAX_FILES`] files a line.

/// Largest script file read, in bytes (the shell reader's own input limit).
pub(super) const MAX_FILE: usize = 64 * 1024;
/// Most script files read for one command line.
pub(super) const MAX_FILES: usize = 8;

/// Where the command runs, so relative paths can be found.
#[derive(Debug, Clone)]
pub struct Host {
    /// The working directory the line starts in (absolute).
    pub cwd: String,
    /// The home directory, for `~`.
    pub home: Option<String>,
}

/// What a script file on the host holds.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum HostFile {
    /// Its text.
    Text(String),
    /// There is none (the command will fail to find it).
    Missing,
    /// One is there, but hookgate cannot read it, and why.
    Unreadable(&'static str),
    /// One is there, a regular text file longer than hookgate reads ([`MAX_FILE`]).
    TooLarge(&'static str),
    /// A compiled program (an ELF file, such as `/bin/ls`): read by its name, as a program
    /// found on `PATH` is.
    Compiled,
}

impl Host {
    /// The host as `cwd` (absolute) sees it, with this process's `$HOME`.
    pub fn at(cwd: &str) -> Option<Host> {
        cwd.starts_with('/').then(|| Host {
            cwd: cwd.to_owned(),
            home: std::env::var("HOME").ok().filter(|h| h.starts_with('/')),
        })
    }

    /// The absolute path of `path` for a command running in `dir` (see
    /// [`SimpleCommand::dir`](super::SimpleCommand::dir)); `None` when it cannot be known.
    pub(crate) fn absolute(&self, dir: Option<&str>, path: &str) -> Option<String> {
        let home = || self.home.as_deref();
        let path = match path.strip_prefix('~') {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("{}{rest}", home()?),
            Some(_) => return None,
            None => path.to_owned(),
        };
        if path.starts_with('/') {
            return Some(path);
        }
        let dir = dir?;
        let base = match dir.strip_prefix('~') {
            Some(rest) => format!("{}{rest}", home()?),
            None if dir.starts_with('/') => dir.to_owned(),
            None => format!("{}/{dir}", self.cwd),
        };
        Some(format!("{base}/{path}"))
    }

    /// Whether `dir` (a directory as [`SimpleCommand::dir`](super::SimpleCommand::dir)
    /// writes it) is a directory on this host, so that a `cd` to it succeeds.
    pub(super) fn is_dir(&self, dir: &str) -> bool {
        self.absolute(Some(dir), ".")
            .is_some_and(|path| std::fs::metadata(path).is_ok_and(|m| m.is_dir()))
    }

    /// The top of the git work tree holding `dir` on this host (what `git rev-parse
    /// --show-toplevel` prints there): the nearest directory, `dir` or above, with a
    /// `.git`.
    pub(super) fn git_toplevel(&self, dir: &str) -> Option<String> {
        let start = self.absolute(Some(dir), ".")?;
        let start = std::path::Path::new(&start);
        start
            .ancestors()
            .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
            .map(|d| {
                let text = d.to_string_lossy();
                // `/root/proj/.` is `/root/proj`.
                text.strip_suffix("/.").unwrap_or(&text).to_owned()
            })
    }

    /// Where `PATH` finds program `name` on this host (`which`, `command -v`): the first
    /// executable regular file of that name in an absolute directory of this process's
    /// `PATH`. The agent's `PATH` may differ; a line that sets `PATH` is read without this.
    pub(super) fn on_path(&self, name: &str) -> Option<String> {
        use std::os::unix::fs::PermissionsExt;
        if name.is_empty() || name.contains('/') || name == "." || name == ".." {
            return None;
        }
        let path = std::env::var("PATH").ok()?;
        path.split(':')
            .filter(|d| d.starts_with('/'))
            .map(|d| format!("{}/{name}", d.trim_end_matches('/')))
            .find(|p| {
                std::fs::metadata(p)
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            })
    }

    /// Whether something is at `name` inside `base` for a command running in `dir` (a
    /// symlink counts as itself): `None` when that cannot be known: `base` is unknown or not
    /// a directory on this host (a gate on another machine than the gateway), or looking
    /// fails for another reason than there being nothing.
    pub(super) fn holds(&self, dir: Option<&str>, base: &str, name: &str) -> Option<bool> {
        let base = self.absolute(dir, base)?;
        if !std::fs::metadata(&base).ok()?.is_dir() {
            return None;
        }
        match std::fs::symlink_metadata(std::path::Path::new(&base).join(name)) {
            Ok(_) => Some(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(false),
            Err(_) => None,
        }
    }

    /// Whether a name that `find` (`recursive`) or `ls` would print for `path` may be cut
    /// into other words by `xargs`, or read as more than text by a shell ([`splits`]), at
    /// `path` itself or, for a directory, among its entries (at any depth
    /// when `recursive`; symbolic links are not followed, as `find` does not). True when it
    /// cannot be told: the path is not known, a directory cannot be read, or there are more
    /// than [`MAX_LISTED`] entries to look at.
    pub(super) fn names_may_split(&self, dir: Option<&str>, path: &str, recursive: bool) -> bool {
        let Some(absolute) = self.absolute(dir, path) else {
            return true;
        };
        let mut pending = vec![std::path::PathBuf::from(&absolute)];
        let mut seen = 0usize;
        let mut top = true;
        while let Some(at) = pending.pop() {
            let meta = match std::fs::symlink_metadata(&at) {
                Ok(meta) => meta,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && top => return false,
                Err(_) => return true,
            };
            // Only the path itself, then (with `recursive`) the directories found below.
            if !meta.is_dir() {
                continue;
            }
            top = false;
            let Ok(entries) = std::fs::read_dir(&at) else {
                return true;
            };
            for entry in entries {
                seen += 1;
                let Ok(entry) = entry else { return true };
                if seen > MAX_LISTED {
                    return true;
                }
                let name = entry.file_name();
                let Some(name) = name.to_str() else {
                    return true;
                };
                if splits(name) {
                    return true;
                }
                if recursive && entry.file_type().is_ok_and(|t| t.is_dir()) {
                    pending.push(entry.path());
                }
            }
        }
        splits(absolute.rsplit('/').next().unwrap_or_default())
    }

    /// The files a script path that is a pattern (`tests/*.sh`) names on the host, as the
    /// shell would expand it: the entries of its directory whose names match its last part
    /// (hidden ones only for a pattern that starts with `.`), sorted, as written (`dir/name`).
    /// `None` when that cannot be told: a pattern in the directory part, a directory that
    /// cannot be read or has more than [`MAX_LISTED`] entries.
    pub(super) fn expand(&self, dir: Option<&str>, pattern: &str) -> Option<Vec<String>> {
        let (parent, last) = match pattern.rsplit_once('/') {
            Some((parent, last)) => (Some(parent), last),
            None => (None, pattern),
        };
        if parent.is_some_and(|p| p.contains(['*', '?', '['])) {
            return None;
        }
        let listed = match parent {
            Some("") => "/".to_owned(),
            Some(p) => self.absolute(dir, p)?,
            None => self.absolute(dir, ".")?,
        };
        let entries = match std::fs::read_dir(&listed) {
            Ok(entries) => entries,
            // No such directory: the pattern names nothing, and the shell runs nothing.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(Vec::new()),
            Err(_) => return None,
        };
        let mut found = Vec::new();
        for (seen, entry) in entries.enumerate() {
            if seen >= MAX_LISTED {
                return None;
            }
            let name = entry.ok()?.file_name();
            let name = name.to_str()?;
            if name.starts_with('.') && !last.starts_with('.') {
                continue;
            }
            if super::pattern::is_match(name, last)? {
                found.push(match parent {
                    Some(p) => format!("{p}/{name}"),
                    None => name.to_owned(),
                });
            }
        }
        found.sort();
        Some(found)
    }

    /// Reads the script file `path` for a command running in `dir`.
    pub(super) fn read(&self, dir: Option<&str>, path: &str) -> HostFile {
        let Some(absolute) = self.absolute(dir, path) else {
            return HostFile::Unreadable("the directory the script is in is not known");
        };
        read_regular(&absolute)
    }
}

/// Most directory entries [`Host::names_may_split`] looks at.
const MAX_LISTED: usize = 5_000;

/// Whether a name with this text may be cut into other words by `xargs` (a blank, a
/// newline, a quote, a backslash), or be more than text where `xargs -I{} sh -c '... {}'`
/// puts it into a shell script (`$(...)`, `;`, a glob, ...).
pub(super) fn splits(name: &str) -> bool {
    name.chars().any(|c| {
        c.is_whitespace()
            || c.is_control()
            || matches!(
                c,
                '\'' | '"'
                    | '\\'
                    | '$'
                    | '`'
                    | ';'
                    | '&'
                    | '|'
                    | '<'
                    | '>'
                    | '('
                    | ')'
                    | '{'
                    | '}'
                    | '*'
                    | '?'
                    | '['
                    | ']'
                    | '~'
                    | '#'
                    | '!'
            )
    })
}

/// The text of the regular file at `path`, bounded, read as every file hookgate reads is
/// (`regular_file`: a FIFO or a device is never waited on or read, the type is
/// checked on the open file).
fn read_regular(path: &str) -> HostFile {
    use crate::regular_file::{self, FileError, FileKind};
    let limit = u64::try_from(MAX_FILE).unwrap_or(u64::MAX);
    let path = std::path::Path::new(path);
    if is_compiled(path) {
        return HostFile::Compiled;
    }
    match regular_file::read_to_string(path, limit) {
        Ok(text) => HostFile::Text(text),
        Err(FileError::Io { source, .. }) => match source.kind() {
            std::io::ErrorKind::NotFound => HostFile::Missing,
            std::io::ErrorKind::PermissionDenied => {
                HostFile::Unreadable("hookgate may not read the script file")
            }
            _ => HostFile::Unreadable("the script file cannot be read"),
        },
        // `bash dir` fails: nothing runs.
        Err(FileError::NotRegular {
            kind: FileKind::Directory,
            ..
        }) => HostFile::Missing,
        Err(FileError::NotRegular { .. }) => {
            HostFile::Unreadable("the script is not a regular file")
        }
        Err(FileError::TooLarge { .. }) => HostFile::TooLarge("the script file is over 64 KiB"),
        Err(_) => HostFile::Unreadable("the script file is not UTF-8 text"),
    }
}

/// Whether `path` is a regular file that starts as an ELF executable does. Only that magic
/// number counts: a script that is not UTF-8 or is over the size limit stays unreadable, so
/// that writing a stray byte into a script cannot hide it.
fn is_compiled(path: &std::path::Path) -> bool {
    use std::io::Read;
    let Ok(file) = crate::regular_file::RegularFile::open(path) else {
        return false;
    };
    let mut magic = [0u8; 4];
    file.into_file().read_exact(&mut magic).is_ok() && magic == *b"\x7fELF"
}

/// The interpreter a `#!` line names, and the argument it passes (`#!/usr/bin/env -S python3
/// -u` → `python3`), as a program name.
pub(super) fn shebang(text: &str) -> Option<String> {
    let line = text.strip_prefix("#!")?.lines().next()?.trim();
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let name = first.rsplit('/').next()?;
    if name != "env" {
        return Some(name.to_owned());
    }
    words
        .find(|w| !w.starts_with('-') && !w.contains('='))
        .map(|w| w.rsplit('/').next().unwrap_or(w).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compiled_program_is_read_by_its_name_and_a_script_never_is() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).expect("write");
            path.to_string_lossy().into_owned()
        };
        let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
        elf.resize(200 * 1024, 0xff);
        assert_eq!(read_regular(&write("prog", &elf)), HostFile::Compiled);
        // Not UTF-8, or too long, without the magic number: not a program, not read.
        assert!(matches!(
            read_regular(&write("x.sh", b"#!/bin/sh\nrm -rf ~ #\xff\n")),
            HostFile::Unreadable(_)
        ));
        let long = format!(
            "#!/bin/sh\n{}rm -rf ~\n",
            "# pad\n".repeat(MAX_FILE / 6 + 1)
        );
        assert!(matches!(
            read_regular(&write("long.sh", long.as_bytes())),
            HostFile::TooLarge(_)
        ));
        assert_eq!(
            read_regular(&write("ok.sh", b"echo hi\n")),
            HostFile::Text("echo hi\n".into())
        );
    }

    #[test]
    fn the_top_of_a_work_tree_is_the_nearest_directory_with_a_git() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
        std::fs::create_dir_all(dir.path().join("src/deep")).expect("mkdir");
        let top = dir.path().to_string_lossy().into_owned();
        let host = Host {
            cwd: format!("{top}/src"),
            home: None,
        };
        assert_eq!(host.git_toplevel("."), Some(top.clone()));
        assert_eq!(host.git_toplevel("./deep"), Some(top.clone()));
        assert_eq!(host.git_toplevel(&top), Some(top.clone()));
        let outside = tempfile::tempdir().expect("tempdir");
        let host = Host {
            cwd: outside.path().to_string_lossy().into_owned(),
            home: None,
        };
        // Above a temporary directory there is no work tree (unless the machine's root is one).
        if std::fs::symlink_metadata("/.git").is_err()
            && std::fs::symlink_metadata("/tmp/.git").is_err()
        {
            assert_eq!(host.git_toplevel("."), None);
        }
    }

    #[test]
    fn what_the_host_holds_is_known_only_in_a_directory_it_has() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("README.md"), "x").expect("write");
        let host = Host {
            cwd: dir.path().to_string_lossy().into_owned(),
            home: None,
        };
        assert_eq!(host.holds(Some("."), ".", "README.md"), Some(true));
        assert_eq!(host.holds(Some("."), ".", "main"), Some(false));
        assert_eq!(host.holds(Some("."), ".", "feature/x"), Some(false));
        assert_eq!(host.holds(Some("."), "/", "etc"), Some(true));
        // A directory this host does not have, or one not known: nothing can be said.
        assert_eq!(host.holds(Some("gone"), ".", "main"), None);
        assert_eq!(host.holds(Some("."), "/no/such/repo", "main"), None);
        assert_eq!(host.holds(None, ".", "main"), None);
        let elsewhere = Host {
            cwd: "/no/such/project".into(),
            home: None,
        };
        assert_eq!(elsewhere.holds(Some("."), ".", "main"), None);
    }

    #[test]
    fn paths_resolve_against_the_line_directory() {
        let host = Host {
            cwd: "/p".into(),
            home: Some("/h".into()),
        };
        assert_eq!(
            host.absolute(Some("."), "x.sh").as_deref(),
            Some("/p/./x.sh")
        );
        assert_eq!(
            host.absolute(Some("sub"), "x.sh").as_deref(),
            Some("/p/sub/x.sh")
        );
        assert_eq!(host.absolute(Some("~/d"), "x").as_deref(), Some("/h/d/x"));
        assert_eq!(host.absolute(None, "x").as_deref(), None);
        assert_eq!(host.absolute(None, "/abs").as_deref(), Some("/abs"));
        assert_eq!(host.absolute(None, "~/x").as_deref(), Some("/h/x"));
    }

    #[test]
    fn regular_files_only_and_bounded() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
        std::fs::write(path("a.sh"), "rm -rf x\n").expect("write");
        assert_eq!(
            read_regular(&path("a.sh")),
            HostFile::Text("rm -rf x\n".into())
        );
        assert_eq!(read_regular(&path("none")), HostFile::Missing);
        std::fs::write(path("big"), vec![b'x'; MAX_FILE + 1]).expect("write");
        assert!(matches!(read_regular(&path("big")), HostFile::TooLarge(_)));
        nix::unistd::mkfifo(path("fifo").as_str(), nix::sys::stat::Mode::S_IRWXU).expect("fifo");
        assert!(matches!(
            read_regular(&path("fifo")),
            HostFile::Unreadable(_)
        ));
        assert!(matches!(read_regular("/dev/zero"), HostFile::Unreadable(_)));
    }

    #[test]
    fn interpreters_of_shebang_lines() {
        assert_eq!(shebang("#!/bin/bash\nx").as_deref(), Some("bash"));
        assert_eq!(
            shebang("#!/usr/bin/env python3\n").as_deref(),
            Some("python3")
        );
        assert_eq!(
            shebang("#!/usr/bin/env -S node --x\n").as_deref(),
            Some("node")
        );
        assert_eq!(shebang("echo hi").as_deref(), None);
    }
}
