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

    /// Reads the script file `path` for a command running in `dir`.
    pub(super) fn read(&self, dir: Option<&str>, path: &str) -> HostFile {
        let Some(absolute) = self.absolute(dir, path) else {
            return HostFile::Unreadable("the directory the script is in is not known");
        };
        read_regular(&absolute)
    }
}

/// The text of the regular file at `path`, bounded, read as every file hookgate reads is
/// (`config::regular_file`: a FIFO or a device is never waited on or read, the type is
/// checked on the open file).
fn read_regular(path: &str) -> HostFile {
    use crate::config::regular_file::{self, FileError, FileKind};
    let limit = u64::try_from(MAX_FILE).unwrap_or(u64::MAX);
    match regular_file::read_to_string(std::path::Path::new(path), limit) {
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
        Err(FileError::TooLarge { .. }) => HostFile::Unreadable("the script file is over 64 KiB"),
        Err(_) => HostFile::Unreadable("the script file is not UTF-8 text"),
    }
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
        assert!(matches!(
            read_regular(&path("big")),
            HostFile::Unreadable(_)
        ));
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
