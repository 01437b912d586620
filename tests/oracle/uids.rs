//! Leases of unprivileged uids, one per sandbox running at a time.
//!
//! The fork-bomb cap is `RLIMIT_NPROC`, which the kernel checks against the number of
//! processes of the *real uid*, machine-wide. Two cases running as the same uid would share
//! one cap (one case's processes could make the other's `fork` fail), so each running case
//! gets a uid of its own. The lease is an exclusive lock on a file per uid in the temporary
//! directory, so concurrent test binaries (two `cargo test` runs) do not collide either.

use std::fs::{File, OpenOptions};
use std::path::PathBuf;
use std::time::Duration;

/// The first uid handed out; far above the uids Debian gives to people and services.
const FIRST: u32 = 61_000;
/// How many uids there are: more than the cases that ever run at once.
const COUNT: u32 = 64;

/// A uid held for as long as this value lives.
pub struct Lease {
    pub uid: u32,
    // The lock is released when the file is closed.
    _lock: File,
}

/// Takes a free uid, waiting for one if all are in use.
pub fn lease() -> Lease {
    let dir = std::env::temp_dir().join("hookgate-oracle-uids");
    std::fs::create_dir_all(&dir).expect("create the uid lock directory");
    loop {
        for uid in FIRST..FIRST + COUNT {
            let path: PathBuf = dir.join(format!("{uid}.lock"));
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .expect("open a uid lock file");
            if file.try_lock().is_ok() {
                return Lease { uid, _lock: file };
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
