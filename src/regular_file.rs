//! Reading a file a user named (a policy file, an include, a token file, an injected source):
//! only a regular file, and never more of it than a budget.
//!
//! A path in a policy or on the command line may name anything: `/dev/zero` (endless), a FIFO
//! (an open that blocks until a writer comes, then a read that blocks until it writes), a
//! socket, a directory, or a kernel file under `/proc` or `/sys` (sizes that lie, reads with
//! side effects). [`RegularFile::open`] refuses all of them:
//!
//! - the path is looked at first (`stat`, following symlinks), so a device or FIFO is refused
//!   without being opened at all (opening some devices has effects of its own);
//! - the file is then opened with `O_NONBLOCK` (a FIFO swapped in after that look cannot block
//!   the open) and `O_NOCTTY`, and the *opened handle* is checked again (`fstat`, and on Linux
//!   `fstatfs` for the kernel's pseudo-filesystems): what is read is what was checked;
//! - the read stops one byte past the budget ([`RegularFile::read_to_end`]), so a file that
//!   grows while it is read, or whose size lies, cannot exceed it.
//!
//! Symlinks are followed, wherever they lead: a path written in a policy may itself name any
//! file the user can read, so refusing links would add no protection, and policies are often
//! installed as links (dotfile managers, Kubernetes ConfigMaps). The file a link reaches must
//! pass every check above, so a link to `/dev/zero` or to a FIFO is refused like the device or
//! FIFO itself.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// What a path names when it is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A directory.
    Directory,
    /// A named pipe.
    Fifo,
    /// A character device (`/dev/zero`, a terminal).
    CharDevice,
    /// A block device (a disk).
    BlockDevice,
    /// A Unix socket.
    Socket,
    /// A file of one of the kernel's pseudo-filesystems (`proc`, `sysfs`, `debugfs`, ...):
    /// its name.
    Kernel(&'static str),
    /// Something else that is not a regular file.
    Other,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileKind::Directory => f.write_str("a directory"),
            FileKind::Fifo => f.write_str("a FIFO"),
            FileKind::CharDevice => f.write_str("a character device"),
            FileKind::BlockDevice => f.write_str("a block device"),
            FileKind::Socket => f.write_str("a socket"),
            FileKind::Kernel(fs) => write!(f, "a kernel file ({fs})"),
            FileKind::Other => f.write_str("not a regular file"),
        }
    }
}

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Opening, inspecting or reading the file failed (missing, no permission, ...).
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The path names something other than a regular file.
    #[error("`{}` is {kind}, not a regular file", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is.
        kind: FileKind,
    },
    /// The file is larger than the budget (`size` when its metadata told; `None` when it
    /// grew past the budget while it was read).
    #[error(
        "`{}` is {}over the {limit}-byte limit",
        path.display(),
        size.map_or_else(String::new, |s| format!("{s} bytes, "))
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size, when known.
        size: Option<u64>,
        /// The budget, in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("`{}` is not UTF-8: {source}", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// Where the bad bytes are.
        source: std::str::Utf8Error,
    },
}

impl FileError {
    /// What is wrong, without the file's name, for a message that names it its own way:
    /// `it is a FIFO, not a regular file`, `No such file or directory (os error 2)`.
    pub fn reason(&self) -> String {
        match self {
            FileError::Io { source, .. } => source.to_string(),
            FileError::NotRegular { kind, .. } => format!("it is {kind}, not a regular file"),
            FileError::TooLarge {
                size: Some(size),
                limit,
                ..
            } => format!("it is {size} bytes, over the {limit}-byte limit"),
            FileError::TooLarge { limit, .. } => {
                format!("it grew past the {limit}-byte limit while it was read")
            }
            FileError::NotUtf8 { source, .. } => format!("not UTF-8: {source}"),
        }
    }

    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io { path, .. }
            | FileError::NotRegular { path, .. }
            | FileError::TooLarge { path, .. }
            | FileError::NotUtf8 { path, .. } => path,
        }
    }
}

/// An open regular file, checked on its handle.
#[derive(Debug)]
pub(crate) struct RegularFile {
    file: File,
    metadata: Metadata,
    path: PathBuf,
}

impl RegularFile {
    /// Opens `path` if it is a regular file (a symlink is followed; what it reaches must be
    /// one); see the [module documentation](self).
    pub(crate) fn open(path: &Path) -> Result<RegularFile, FileError> {
        let io = |source| FileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let not_regular = |kind| FileError::NotRegular {
            path: path.to_path_buf(),
            kind,
        };
        if path.starts_with("/proc") {
            return Err(not_regular(FileKind::Kernel("proc")));
        }
        if path.starts_with("/sys") {
            return Err(not_regular(FileKind::Kernel("sysfs")));
        }
        // Refuse what the path names before opening it: opening a device can act on it.
        let before = std::fs::metadata(path).map_err(io)?;
        check_kind(&before).map_err(not_regular)?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(nix::libc::O_NONBLOCK | nix::libc::O_NOCTTY)
            .open(path)
            .map_err(io)?;
        // The handle decides: the path may have been swapped since it was looked at.
        let metadata = file.metadata().map_err(io)?;
        check_kind(&metadata).map_err(not_regular)?;
        if let Some(fs) = kernel_filesystem(&file) {
            return Err(not_regular(FileKind::Kernel(fs)));
        }
        Ok(RegularFile {
            file,
            metadata,
            path: path.to_path_buf(),
        })
    }

    /// The opened file's metadata (its size and mode when it was opened).
    pub(crate) fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// The open file, for a caller that reads it its own way (a tail, a stream); it must
    /// bound what it reads itself.
    pub(crate) fn into_file(self) -> File {
        self.file
    }

    /// The whole file, if it has at most `limit` bytes; the read stops one byte past the
    /// limit whatever the file's size claims.
    pub(crate) fn read_to_end(self, limit: u64) -> Result<Vec<u8>, FileError> {
        let size = self.metadata.len();
        if size > limit {
            return Err(FileError::TooLarge {
                path: self.path,
                size: Some(size),
                limit,
            });
        }
        // The size is a hint for the buffer only: the read itself is what is bounded.
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        let read = self
            .file
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes);
        if let Err(source) = read {
            return Err(FileError::Io {
                path: self.path,
                source,
            });
        }
        if bytes.len() as u64 > limit {
            return Err(FileError::TooLarge {
                path: self.path,
                size: None,
                limit,
            });
        }
        Ok(bytes)
    }

    /// [`read_to_end`](Self::read_to_end), as UTF-8 text.
    pub(crate) fn read_to_string(self, limit: u64) -> Result<String, FileError> {
        let path = self.path.clone();
        let bytes = self.read_to_end(limit)?;
        String::from_utf8(bytes).map_err(|e| FileError::NotUtf8 {
            path,
            source: e.utf8_error(),
        })
    }
}

/// The regular file at `path` as UTF-8 text, if it has at most `limit` bytes.
pub(crate) fn read_to_string(path: &Path, limit: u64) -> Result<String, FileError> {
    RegularFile::open(path)?.read_to_string(limit)
}

fn check_kind(metadata: &Metadata) -> Result<(), FileKind> {
    let t = metadata.file_type();
    if t.is_file() {
        return Ok(());
    }
    Err(if t.is_dir() {
        FileKind::Directory
    } else if t.is_fifo() {
        FileKind::Fifo
    } else if t.is_char_device() {
        FileKind::CharDevice
    } else if t.is_block_device() {
        FileKind::BlockDevice
    } else if t.is_socket() {
        FileKind::Socket
    } else {
        FileKind::Other
    })
}

/// The name of the kernel pseudo-filesystem `file` is on, if it is on one: its files are
/// interfaces to the kernel, not data (sizes of 0 or 4096 whatever they hold, reads that
/// disclose or change state), wherever it is mounted.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn kernel_filesystem(file: &File) -> Option<&'static str> {
    use nix::sys::statfs::{self, FsType};
    const KERNEL: &[(FsType, &str)] = &[
        (statfs::PROC_SUPER_MAGIC, "proc"),
        (statfs::SYSFS_MAGIC, "sysfs"),
        (statfs::DEBUGFS_MAGIC, "debugfs"),
        (statfs::TRACEFS_MAGIC, "tracefs"),
        (statfs::SECURITYFS_MAGIC, "securityfs"),
        (statfs::SELINUX_MAGIC, "selinuxfs"),
        (statfs::CGROUP_SUPER_MAGIC, "cgroup"),
        (statfs::CGROUP2_SUPER_MAGIC, "cgroup2"),
        (statfs::BPF_FS_MAGIC, "bpf"),
    ];
    let fs = statfs::fstatfs(file).ok()?.filesystem_type();
    KERNEL.iter().find(|(t, _)| *t == fs).map(|&(_, name)| name)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn kernel_filesystem(_file: &File) -> Option<&'static str> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
        RegularFile::open(path)?.read_to_end(limit)
    }

    #[test]
    fn a_regular_file_is_read_within_its_budget() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.yaml");
        std::fs::write(&path, "0123456789").expect("write");
        assert_eq!(read(&path, 10).expect("fits"), b"0123456789");
        assert_eq!(read_to_string(&path, 100).expect("fits"), "0123456789");
        let err = read(&path, 9).expect_err("over");
        assert!(
            matches!(
                err,
                FileError::TooLarge {
                    size: Some(10),
                    limit: 9,
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!("`{}` is 10 bytes, over the 9-byte limit", path.display())
        );
    }

    #[test]
    fn devices_fifos_directories_and_kernel_files_are_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(
            &fifo,
            nix::sys::stat::Mode::S_IRUSR | nix::sys::stat::Mode::S_IWUSR,
        )
        .expect("mkfifo");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        let cases: [(&Path, FileKind); 5] = [
            (Path::new("/dev/zero"), FileKind::CharDevice),
            (&fifo, FileKind::Fifo),
            (&link, FileKind::CharDevice),
            (dir.path(), FileKind::Directory),
            (Path::new("/proc/self/status"), FileKind::Kernel("proc")),
        ];
        for (path, kind) in cases {
            match read(path, 1 << 20) {
                Err(FileError::NotRegular { path: p, kind: k }) => {
                    assert_eq!((p.as_path(), k), (path, kind));
                }
                other => panic!("{}: {other:?}", path.display()),
            }
        }
        let err = read(&fifo, 10).expect_err("fifo");
        assert_eq!(
            err.to_string(),
            format!("`{}` is a FIFO, not a regular file", fifo.display())
        );
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn a_kernel_file_reached_by_a_link_is_refused_on_its_handle() {
        let dir = tempfile::tempdir().expect("tempdir");
        let link = dir.path().join("status");
        std::os::unix::fs::symlink("/proc/self/status", &link).expect("symlink");
        let err = read(&link, 1 << 20).expect_err("proc");
        assert!(
            matches!(
                err,
                FileError::NotRegular {
                    kind: FileKind::Kernel("proc"),
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(err.path(), link);
    }

    #[test]
    fn a_missing_file_and_bad_text_name_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("missing");
        match read(&missing, 10) {
            Err(FileError::Io { path, source }) => {
                assert_eq!(path, missing);
                assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
            }
            other => panic!("{other:?}"),
        }
        let bad = dir.path().join("bad");
        std::fs::write(&bad, b"a\xff").expect("write");
        assert!(matches!(
            read_to_string(&bad, 10),
            Err(FileError::NotUtf8 { .. })
        ));
    }
}
