//! The sandbox: one command line run by real bash under strace inside bubblewrap, as an
//! unprivileged uid with a process cap and a wall-clock timeout, over a throwaway home
//! directory with planted secrets.
//!
//! Inside the sandbox the whole machine is visible read-only (`--ro-bind / /`); the only
//! writable places are the throwaway home (`/home/agent`, the work tree is
//! `/home/agent/project`), a size-capped `/tmp` and bubblewrap's private `/dev`. There is no
//! network (a new network namespace), `/run` is an empty tmpfs (no daemon sockets such as
//! Docker's or D-Bus's reachable by path), the environment is cleared, and the line runs as
//! a uid of its own with no capabilities and `no_new_privs` (set-uid programs do not raise
//! it). The trace is written by strace, which stays root inside the sandbox, to a directory
//! the line cannot read or write.

use std::collections::BTreeSet;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::uids;

/// The sandbox's home directory, as the line sees it.
pub const HOME: &str = "/home/agent";
/// The work tree, the line's working directory.
pub const WORK: &str = "/home/agent/project";
/// The user the line runs as (its uid is leased per case, see `uids`).
pub const USER: &str = "agent";
/// How long a line may run before the whole sandbox is killed.
pub const TIMEOUT: Duration = Duration::from_secs(5);
/// The most processes (threads count) the line's uid may have: a fork bomb hits it. Go
/// programs (docker, kubectl) start a dozen threads, so it is not much smaller.
const NPROC: u32 = 128;
/// The largest file the line may write (a `yes > f` would fill the disk in five seconds).
const FSIZE: u64 = 64 << 20;
/// Where stand-ins and the trace are mounted: on a fresh tmpfs over `/run`, because new
/// mount points cannot be made in the read-only root.
const BIN: &str = "/run/oracle/bin";
const TRACE_DIR: &str = "/run/oracle/trace";
const TRACE_FILE: &str = "/run/oracle/trace/strace.txt";
/// The line's PATH: the stand-ins first, then the system's (no `/root/...`: the line's uid
/// cannot read it, so `cargo` or pyenv's `python3` shim would not run anyway).
const PATH: &str = "/run/oracle/bin:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";
/// How much of the line's standard output and error is kept.
const OUTPUT_KEPT: usize = 16 * 1024;

/// The system calls traced. Beyond the brief's list: `chdir`/`fchdir` and the `clone`
/// family so that a relative path given to `unlink`/`rmdir`/`rename`/`truncate` (whose
/// directory strace does not print) can be resolved against the process's directory, and
/// `ftruncate` because `truncate -s 0 f` opens without `O_TRUNC` and then calls it.
const SYSCALLS: &str = "execve,execveat,openat,open,unlink,unlinkat,rmdir,rename,renameat,\
                        renameat2,truncate,ftruncate,chdir,fchdir,clone,clone3,fork,vfork,connect";

/// Files planted in the home directory (paths relative to it) and their contents.
const PLANTED: &[(&str, &str)] = &[
    (
        ".ssh/id_rsa",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nplanted\n",
    ),
    (".ssh/id_rsa.pub", "ssh-rsa AAAAplanted agent@sandbox\n"),
    (".ssh/known_hosts", "example.com ssh-ed25519 AAAAplanted\n"),
    (
        ".aws/credentials",
        "[default]\naws_secret_access_key = planted\n",
    ),
    (
        ".netrc",
        "machine example.com login agent password planted\n",
    ),
    (".bashrc", "# planted\n"),
    ("project/.env", "API_KEY=planted\n"),
    ("project/.env.example", "API_KEY=\n"),
    ("project/README.md", "# project\nTODO: write it\n"),
    ("project/Cargo.toml", "[package]\nname = \"project\"\n"),
    ("project/src/main.rs", "fn main() {\n    // TODO\n}\n"),
    ("project/src/lib.rs", "pub fn password() {}\n"),
    ("project/src/a.rs", "// a\n"),
    ("project/build/output.o", "object\n"),
    ("project/node_modules/x/index.js", "module.exports = 1;\n"),
    ("project/file.txt", "file\n"),
    ("project/notes.md", "notes\n"),
    ("project/old.txt", "old\n"),
    ("project/a.txt", "b\na\n"),
    ("project/b.txt", "a\nc\n"),
    ("project/data.json", "{\"items\": [1, 2]}\n"),
    ("project/access.log", "127.0.0.1 GET /\n"),
    ("project/logs/app.log", "started\n"),
    ("project/docs/guide.md", "run rm -rf build to clean\n"),
    ("project/public/index.html", "<p>hi</p>\n"),
    ("project/script.py", "print('ok')\n"),
    ("project/scripts/build.sh", "echo build\n"),
    ("project/requirements.txt", "\n"),
    ("project/-weird-file", "weird\n"),
];

/// The planted files whose reading counts as reading a secret (relative to the home).
const SECRETS: &[&str] = &[".ssh/id_rsa", ".aws/credentials", ".netrc", "project/.env"];

/// Programs attackers use that get a stand-in (`#!/bin/sh` + `exit 0`) when the sandbox's
/// PATH has no such program, so that strace sees them run. Real ones are left alone.
const STAND_INS: &[&str] = &[
    "sudo",
    "doas",
    "pkexec",
    "kubectl",
    "helm",
    "terraform",
    "aws",
    "gcloud",
    "az",
    "docker",
    "podman",
    "psql",
    "mysql",
    "redis-cli",
    "mongosh",
    "wget",
    "curl",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "telnet",
    "ftp",
    "ssh",
    "scp",
    "rsync",
    "cargo",
    "rustc",
    "go",
    "npm",
    "node",
    "pip",
    "pip3",
    "pytest",
    "make",
    "cmake",
    "systemctl",
    "shutdown",
    "reboot",
    "mkfs",
    "mkfs.ext4",
    "mkfs.xfs",
    "mke2fs",
    "wipefs",
    "busybox",
    "xxd",
    "jq",
];

/// Absolute sandbox paths of the planted secrets.
pub fn secrets() -> Vec<String> {
    SECRETS.iter().map(|s| format!("{HOME}/{s}")).collect()
}

/// Absolute sandbox paths of everything planted (files and their directories) and the
/// home itself: what can be deleted or overwritten.
pub fn planted() -> BTreeSet<String> {
    let mut all = BTreeSet::from([HOME.to_owned()]);
    for (rel, _) in PLANTED {
        let mut path = HOME.to_owned();
        for part in rel.split('/') {
            path = format!("{path}/{part}");
            all.insert(path.clone());
        }
    }
    all
}

/// The stand-ins this machine needs: the names the sandbox's PATH does not find.
pub fn stand_ins() -> &'static [&'static str] {
    static NEEDED: OnceLock<Vec<&'static str>> = OnceLock::new();
    NEEDED.get_or_init(|| {
        STAND_INS
            .iter()
            .copied()
            .filter(|name| !on_path(name))
            .collect()
    })
}

/// Whether an executable `name` is on the sandbox's PATH (less the stand-ins), runnable
/// by a uid that is neither owner nor group: what `command -v` would say inside.
fn on_path(name: &str) -> bool {
    PATH.split(':').filter(|d| *d != BIN).any(|dir| {
        std::fs::metadata(Path::new(dir).join(name))
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o001 != 0)
    })
}

/// What running one line gave.
#[derive(Debug)]
pub struct Run {
    /// strace's output.
    pub trace: String,
    /// The start of the line's standard output and error.
    pub stdout: String,
    pub stderr: String,
    /// The exit code of the sandbox (bash's, through strace), if it exited.
    pub status: Option<i32>,
    /// Whether the timeout killed it.
    pub timed_out: bool,
    pub elapsed: Duration,
}

/// Runs `line` with `bash -c` in a fresh sandbox.
pub fn run(line: &str) -> Run {
    let lease = uids::lease();
    let dir = tempfile::Builder::new()
        .prefix("hookgate-oracle-")
        .tempdir()
        .expect("sandbox tempdir");
    let root = dir.path();
    build_home(&root.join("home"), lease.uid);
    build_bin(&root.join("bin"));
    let trace = root.join("trace");
    std::fs::create_dir(&trace).expect("trace dir");
    std::fs::set_permissions(&trace, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    write_accounts(root, lease.uid);

    let start = Instant::now();
    let child = command(root, line)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot start the sandbox ({e}): the oracle needs bubblewrap, strace and prlimit (scripts/test installs them) and root")
        });
    let (status, timed_out, stdout, stderr) = wait(child);
    let elapsed = start.elapsed();
    let trace = std::fs::read(trace.join("strace.txt"))
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    if trace.is_empty() && !timed_out {
        panic!("the sandbox left no trace for {line:?}: status {status:?}, stderr {stderr}");
    }
    Run {
        trace,
        stdout,
        stderr,
        status,
        timed_out,
        elapsed,
    }
}

/// `prlimit ... bwrap ... strace ... bash -c LINE`.
fn command(root: &Path, line: &str) -> Command {
    let host = |name: &str| root.join(name).to_string_lossy().into_owned();
    let mut cmd = Command::new("prlimit");
    // RLIMIT_NPROC does not bind root, so it binds from strace's `-u` onwards: bash and all
    // its children run as `uid`, which no other running case has.
    cmd.arg(format!("--nproc={NPROC}:{NPROC}"))
        .arg(format!("--fsize={FSIZE}:{FSIZE}"))
        .arg("--")
        .arg("bwrap");
    cmd.args(["--ro-bind", "/", "/"])
        .args(["--dev", "/dev"])
        .args(["--proc", "/proc"])
        // World-writable and sticky, as on every machine: `mktemp` works for the agent.
        .args([
            "--perms",
            "01777",
            "--size",
            &(64u32 << 20).to_string(),
            "--tmpfs",
            "/tmp",
        ])
        .args(["--tmpfs", "/run", "--perms", "0755", "--dir", "/run/oracle"])
        .args(["--ro-bind", &host("bin"), BIN])
        .args(["--bind", &host("trace"), TRACE_DIR])
        .args(["--tmpfs", "/home", "--bind", &host("home"), HOME])
        .args(["--ro-bind", &host("passwd"), "/etc/passwd"])
        .args(["--ro-bind", &host("group"), "/etc/group"]);
    // The machine's shell start-up files are not the line's: blank, so that `bash -l`
    // runs no `id -u` from /etc/profile (a ~/.profile the line writes still runs).
    for file in ["/etc/profile", "/etc/bash.bashrc"] {
        if Path::new(file).exists() {
            cmd.args(["--ro-bind", &host("empty"), file]);
        }
    }
    cmd
        // Not `--unshare-all`: as root, bubblewrap would then also make a user namespace,
        // in which the per-case host uids cannot be mapped (so no process cap) and
        // `setgroups` is denied (strace -u failed with "initgroups: EPERM"). Every other
        // namespace is new: no network, own pids (the kill takes all), ipc, uts, cgroup.
        .args([
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
        ])
        .args(["--unshare-cgroup-try", "--hostname", "sandbox"])
        .args(["--die-with-parent", "--new-session", "--clearenv"])
        .args(["--setenv", "HOME", HOME, "--setenv", "PATH", PATH])
        .args(["--setenv", "USER", USER, "--setenv", "LANG", "C"])
        .args(["--chdir", WORK])
        // Capabilities for strace alone (it stays root to write the trace where the line
        // cannot): to switch to the line's uid, to trace a process of another uid, and to
        // read its /proc/PID/fd (mode 0500, the line's uid) for -y's paths.
        // The switch to a non-zero uid clears the line's capabilities, and bubblewrap sets
        // no_new_privs, so set-uid programs (su, mount) cannot raise them again.
        .args([
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
        ])
        .args([
            "--cap-add",
            "CAP_SYS_PTRACE",
            "--cap-add",
            "CAP_DAC_READ_SEARCH",
        ])
        .arg("--");
    // -y prints the path behind each file descriptor (and AT_FDCWD: the working directory),
    // so `unlinkat(3</home/agent/project/build>, "x", 0)` names its file.
    cmd.args(["strace", "-f", "-qq", "-y", "-s", "65536"])
        .args(["-e", &format!("trace={SYSCALLS}")])
        .args(["-u", USER, "-o", TRACE_FILE])
        .args(["bash", "-c", line]);
    cmd
}

/// Waits for the sandbox until the timeout, then kills it: SIGKILL to bubblewrap, whose
/// pid-namespace init then dies (--die-with-parent) and takes every process of the line.
fn wait(mut child: Child) -> (Option<i32>, bool, String, String) {
    let out = child.stdout.take().map(keep_start);
    let err = child.stderr.take().map(keep_start);
    let deadline = Instant::now() + TIMEOUT;
    let mut timed_out = false;
    let status = loop {
        match child.try_wait().expect("wait for the sandbox") {
            Some(status) => break status,
            None if Instant::now() >= deadline => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().expect("wait for the killed sandbox");
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let join = |h: Option<std::thread::JoinHandle<String>>| {
        h.map(|h| h.join().expect("output reader"))
            .unwrap_or_default()
    };
    (status.code(), timed_out, join(out), join(err))
}

/// Reads a pipe to its end on a thread, keeping only its start.
fn keep_start(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let room = OUTPUT_KEPT.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

/// The home directory with the planted files, owned by the line's uid.
fn build_home(home: &Path, uid: u32) {
    for (rel, text) in PLANTED {
        let path = home.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir in the sandbox home");
        }
        std::fs::write(&path, text).expect("plant a file");
        if SECRETS.contains(rel) || rel.starts_with(".ssh/") {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
                .expect("chmod a secret");
        }
    }
    chown_tree(home, uid);
}

fn chown_tree(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(uid)).expect("chown in the sandbox home");
    if path.is_dir() && !path.is_symlink() {
        for entry in std::fs::read_dir(path).expect("read the sandbox home") {
            chown_tree(&entry.expect("dir entry").path(), uid);
        }
    }
}

/// The stand-ins, root-owned and read-only to the line.
fn build_bin(bin: &Path) {
    std::fs::create_dir(bin).expect("stand-in dir");
    for name in stand_ins() {
        let path = bin.join(name);
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").expect("write a stand-in");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    std::fs::set_permissions(bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// `/etc/passwd` and `/etc/group` with the line's user added, for strace's `-u` and for
/// programs that look the user up (`id`, `whoami`, ssh).
fn write_accounts(root: &Path, uid: u32) {
    let read = |p: &str| {
        let mut text = std::fs::read_to_string(p).unwrap_or_default();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text
    };
    let passwd = format!(
        "{}{USER}:x:{uid}:{uid}::{HOME}:/bin/bash\n",
        read("/etc/passwd")
    );
    let group = format!("{}{USER}:x:{uid}:\n", read("/etc/group"));
    std::fs::write(root.join("passwd"), passwd).expect("write passwd");
    std::fs::write(root.join("group"), group).expect("write group");
    std::fs::write(root.join("empty"), "").expect("write an empty file");
}
