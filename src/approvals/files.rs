//! Opening the store's files safely. They hold who may run what, so:
//!
//! - they are created `0600`, and opened with `O_NOFOLLOW`: a symlink planted in their place
//!   is refused, never followed;
//! - the *opened* file is checked (`fstat`): it must be a regular file owned by this user and
//!   writable by nobody else, else it is refused with the reason (whoever could write it could
//!   forge grants); one that others may only read is repaired to `0600`, with a warning;
//! - `O_NONBLOCK` on the open, so a FIFO swapped in cannot hang the start.

use std::fs::{File, OpenOptions, Permissions};
use std::io::ErrorKind;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use super::store::StoreError;

/// How a store file is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Access {
    /// Read only; a missing file is `None`.
    Read,
    /// Read and append, created `0600` when missing.
    Append,
    /// Write, created `0600` when missing (the lock file).
    Lock,
}

/// What to do with a file others may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Repair {
    /// `chmod 600` it, with a warning (the store's owner opening it).
    Yes,
    /// Leave it (a read-only look).
    No,
}

/// Opens `path` as `access` says and checks what was opened (module docs).
pub(super) fn open(
    path: &Path,
    access: Access,
    repair: Repair,
) -> Result<Option<File>, StoreError> {
    let mut options = OpenOptions::new();
    match access {
        Access::Read => options.read(true),
        Access::Append => options.read(true).append(true).create(true),
        Access::Lock => options.write(true).create(true).truncate(false),
    };
    options
        .mode(0o600)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK);
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == ErrorKind::NotFound && access == Access::Read => return Ok(None),
        // O_NOFOLLOW on a symlink: ELOOP.
        Err(e) if e.raw_os_error() == Some(nix::libc::ELOOP) => {
            return Err(unsafe_file(
                path,
                "it is a symbolic link; the store's files must be regular files".to_owned(),
            ));
        }
        Err(source) => {
            return Err(StoreError::Io {
                action: "open",
                path: path.to_path_buf(),
                source,
            });
        }
    };
    check(path, &file, repair)?;
    Ok(Some(file))
}

/// [`open`] for an access that creates the file: it is always there.
pub(super) fn create(path: &Path, access: Access, repair: Repair) -> Result<File, StoreError> {
    open(path, access, repair)?.ok_or_else(|| StoreError::Io {
        action: "create",
        path: path.to_path_buf(),
        source: ErrorKind::NotFound.into(),
    })
}

/// Refuses a file that is not a regular file of ours writable only by us; repairs one that
/// others may read.
fn check(path: &Path, file: &File, repair: Repair) -> Result<(), StoreError> {
    let io = |source| StoreError::Io {
        action: "inspect",
        path: path.to_path_buf(),
        source,
    };
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(unsafe_file(path, "it is not a regular file".to_owned()));
    }
    let me = nix::unistd::geteuid().as_raw();
    if meta.uid() != me {
        return Err(unsafe_file(
            path,
            format!(
                "it is owned by uid {}, not by this user (uid {me}); its owner could forge approvals",
                meta.uid()
            ),
        ));
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 != 0 {
        return Err(unsafe_file(
            path,
            format!(
                "its mode {mode:04o} lets other users write it, and so forge approvals; check \
                 who changed it, then `chmod 600` it"
            ),
        ));
    }
    if mode & 0o077 != 0 && repair == Repair::Yes {
        file.set_permissions(Permissions::from_mode(0o600))
            .map_err(|source| StoreError::Io {
                action: "chmod 600",
                path: path.to_path_buf(),
                source,
            })?;
        tracing::warn!(
            file = %path.display(),
            was = %format!("{mode:04o}"),
            "a file of the approvals store was readable by other users; its mode is now 0600"
        );
    }
    Ok(())
}

fn unsafe_file(path: &Path, reason: String) -> StoreError {
    StoreError::Unsafe {
        path: path.to_path_buf(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().mode() & 0o7777
    }

    #[test]
    fn new_files_are_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        open(&path, Access::Append, Repair::Yes).unwrap().unwrap();
        assert_eq!(mode(&path), 0o600);
        assert!(
            open(&dir.path().join("none"), Access::Read, Repair::Yes)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn a_readable_file_is_repaired_and_a_writable_one_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("approvals.json");
        std::fs::write(&path, "{}").unwrap();
        std::fs::set_permissions(&path, Permissions::from_mode(0o644)).unwrap();
        open(&path, Access::Read, Repair::No).unwrap();
        assert_eq!(mode(&path), 0o644, "a read-only look repairs nothing");
        open(&path, Access::Read, Repair::Yes).unwrap();
        assert_eq!(mode(&path), 0o600);

        for loose in [0o620, 0o602, 0o666] {
            std::fs::set_permissions(&path, Permissions::from_mode(loose)).unwrap();
            let e = open(&path, Access::Append, Repair::Yes).unwrap_err();
            let text = e.to_string();
            assert!(text.contains("approvals.json"), "{text}");
            assert!(text.contains(&format!("{loose:04o}")), "{text}");
            assert!(text.contains("write"), "{text}");
            assert_eq!(mode(&path), loose, "a refused file is left as it is");
        }
    }

    #[test]
    fn a_symlink_is_refused_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, "x").unwrap();
        let link = dir.path().join("approvals.json.journal");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = open(&link, Access::Append, Repair::Yes).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "x");
        // A dangling link is not created through either.
        std::fs::remove_file(&target).unwrap();
        assert!(open(&link, Access::Append, Repair::Yes).is_err());
        assert!(!target.exists());
    }
}
