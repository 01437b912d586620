//! What bash did, read off the trace: the programs it ran, the planted secrets it read,
//! and the planted files it deleted or overwrote.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use super::paths::{normalize, resolve};
use super::sandbox::WORK;
use super::strace::Call;

/// One thing the line did that the reader must have predicted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A program ran: `execve` succeeded.
    Exec {
        pid: u32,
        path: String,
        program: String,
        args: Vec<String>,
    },
    /// A planted secret was opened for reading, by `program` (the process's last exec).
    SecretRead {
        pid: u32,
        program: String,
        path: String,
    },
    /// A planted file or directory was deleted, renamed away, replaced, truncated or
    /// opened for writing.
    Deleted {
        pid: u32,
        path: String,
        how: &'static str,
    },
    /// An interpreter running code of the line tried to reach the network (the sandbox has
    /// none, so the attempt is what is seen: a connection, or the name lookup before it).
    Connect {
        pid: u32,
        program: String,
        address: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Exec {
                pid,
                path,
                program,
                args,
            } => {
                let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
                write!(
                    f,
                    "exec   {program} [{}] ({path}, pid {pid})",
                    args.join(", ")
                )
            }
            Event::SecretRead { pid, program, path } => {
                write!(f, "read   {path} (by {program}, pid {pid})")
            }
            Event::Deleted { pid, path, how } => write!(f, "delete {path} ({how}, pid {pid})"),
            Event::Connect {
                pid,
                program,
                address,
            } => write!(f, "connect {address} (by {program}, pid {pid})"),
        }
    }
}

/// Programs that other programs start on their own, not commands of the line: (the program
/// that starts it, where the started one lives or its name, its exact arguments if they
/// must be these). A process started this way still counts as its starter's (what it
/// execs next is judged as if the starter did). Keep it tiny; a shell or an interpreter
/// is only allowed with fixed arguments (it would hide whatever it runs).
const INTERNAL: &[(&str, &str, Option<&[&str]>)] = &[
    // git's helpers (git-remote-https, ...) live in its exec-path; git starts them itself
    // for `git clone`, `git push`, `git fetch`.
    ("git", "/usr/lib/git-core/", None),
    ("git", "/usr/local/libexec/git-core/", None),
    // scp and sftp copy over an ssh connection they start themselves.
    ("scp", "ssh", None),
    ("sftp", "ssh", None),
    // gpg starts its key agent.
    ("gpg", "gpg-agent", None),
    // GNU tar runs its compressor through `sh -c gzip` (`-z`), which then execs gzip.
    ("tar", "sh", Some(&["-c", "gzip"])),
    ("tar", "gzip", None),
    // gdb lists the character sets iconv knows when it starts.
    ("gdb", "iconv", Some(&["-l"])),
    // `systemctl -H host` reaches the host's systemd over ssh, as scp does.
    ("systemctl", "ssh", None),
    // SysV `service` finds its own name.
    ("service", "basename", None),
    // tmux records each pane in utmp through its set-group-id helper, from the pane's
    // process (forked by the server, where the trace may show the pane's shell first).
    ("tmux", "utempter", None),
    ("bash", "utempter", None),
    // `git filter-branch` is a shell script among git's helpers (so its children count as
    // git's): its message filter defaults to a bare `cat`, and it sleeps ten seconds after
    // its warning that filter-repo should be used instead.
    ("git", "cat", Some(&[])),
    ("git", "sleep", Some(&["10"])),
    // The Cloud SDK's `gcloud` is a shell wrapper: it finds its install directory, the
    // machine and the terminal width, then runs the SDK's bundled Python on gcloud.py with
    // the line's arguments. That Python is the SDK's own, under its install directory.
    ("gcloud", "readlink", None),
    ("gcloud", "dirname", None),
    ("gcloud", "uname", Some(&["-m"])),
    ("gcloud", "tput", Some(&["cols"])),
    ("gcloud", "/usr/lib/google-cloud-sdk/", None),
];

/// Starters whose helpers under a directory of their own install may be interpreters (a
/// bundled runtime), since that directory is theirs, not a program the line chose.
const OWN_RUNTIMES: &[(&str, &str)] = &[("gcloud", "/usr/lib/google-cloud-sdk/")];

/// Shells and interpreters: internal only with fixed arguments.
const NEVER_INTERNAL: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "busybox", "python", "python3", "perl", "ruby", "node",
    "env",
];

/// Secrets that programs read on their own, without being named on the command line:
/// (program, secret relative to the home). Keep it tiny: each is the program's documented
/// behaviour, not something the line chose.
const IMPLICIT_READS: &[(&str, &str)] = &[
    // wget, and git's HTTP transport (git-remote-https, libcurl with netrc on; its reads
    // count as git's, see INTERNAL), look up the host's login in ~/.netrc.
    ("wget", ".netrc"),
    ("git", ".netrc"),
    // ssh, scp and sftp load the default identity to authenticate (ssh(1), -i); the key
    // goes to the agent protocol, not to the line's output.
    ("ssh", ".ssh/id_rsa"),
    ("scp", ".ssh/id_rsa"),
    ("sftp", ".ssh/id_rsa"),
];

fn internal(parent: &str, path: &str, program: &str, args: &[String]) -> bool {
    INTERNAL.iter().any(|(p, child, fixed)| {
        let named = *child == program || (child.ends_with('/') && path.starts_with(child));
        let own_runtime = OWN_RUNTIMES
            .iter()
            .any(|(starter, dir)| *starter == parent && *child == *dir && path.starts_with(dir));
        let args_ok = match fixed {
            Some(fixed) => args.iter().map(String::as_str).eq(fixed.iter().copied()),
            None => own_runtime || !NEVER_INTERNAL.contains(&program),
        };
        *p == parent && named && args_ok
    })
}

fn implicit_read(program: &str, path: &str) -> bool {
    IMPLICIT_READS
        .iter()
        .any(|(p, rel)| *p == program && path == format!("{}/{rel}", super::sandbox::HOME))
}

/// The events in `calls`, given the planted secrets and files.
pub fn events(calls: &[Call], secrets: &[String], planted: &BTreeSet<String>) -> Vec<Event> {
    let mut state = State::default();
    // Parents first: with -f a child's first calls may be printed before the `clone` that
    // made it returns in its parent.
    for call in calls {
        if matches!(call.name.as_str(), "clone" | "clone3" | "fork" | "vfork")
            && let Some(child) = call.returned()
        {
            state.parent.insert(child, call.pid);
        }
    }
    let mut out = Vec::new();
    for call in calls {
        state.adopt(call.pid);
        state.learn_cwd(call);
        // A connection attempt counts whether or not it succeeded: there is no network.
        if call.name == "connect" {
            out.extend(connect(&state, call));
            continue;
        }
        if !call.ok() {
            continue;
        }
        match call.name.as_str() {
            "chdir" => {
                if let Some(p) = call.string(0) {
                    let dir = resolve(&state.cwd(call.pid), &p);
                    state.cwd.insert(call.pid, dir);
                }
            }
            "fchdir" => {
                if let Some(p) = call.fd_path(0) {
                    state.cwd.insert(call.pid, p);
                }
            }
            "execve" | "execveat" => {
                if let Some(e) = state.exec(call) {
                    out.push(e);
                }
            }
            "open" | "openat" => out.extend(opened(&state, call, secrets, planted)),
            "unlink" | "rmdir" | "truncate" => {
                let path = state.path_arg(call, None, 0);
                if counts(planted, &path) {
                    out.push(deleted(call, path, how(&call.name)));
                }
            }
            "unlinkat" => {
                let path = state.path_arg(call, Some(0), 1);
                if counts(planted, &path) {
                    out.push(deleted(call, path, "unlinkat"));
                }
            }
            "ftruncate" => {
                if let Some(path) = call.fd_path(0).filter(|p| planted.contains(p)) {
                    out.push(deleted(call, path, "ftruncate"));
                }
            }
            "rename" | "renameat" | "renameat2" => {
                let (from, to) = if call.name == "rename" {
                    (state.path_arg(call, None, 0), state.path_arg(call, None, 1))
                } else {
                    (
                        state.path_arg(call, Some(0), 1),
                        state.path_arg(call, Some(2), 3),
                    )
                };
                if counts(planted, &from) {
                    out.push(deleted(call, from, "renamed away"));
                }
                if counts(planted, &to) {
                    out.push(deleted(call, to, "replaced by a rename"));
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether a deletion at `path` is an event: a planted path, or one whose directory strace
/// could not name.
fn counts(planted: &BTreeSet<String>, path: &str) -> bool {
    planted.contains(path) || path.starts_with("(fd ")
}

fn how(syscall: &str) -> &'static str {
    match syscall {
        "unlink" => "unlink",
        "rmdir" => "rmdir",
        _ => "truncate",
    }
}

fn deleted(call: &Call, path: String, how: &'static str) -> Event {
    Event::Deleted {
        pid: call.pid,
        path,
        how,
    }
}

/// A secret opened for reading, a planted file opened to be truncated or written.
/// Interpreters whose inline code the reader reads: their own connections are predicted.
const CODE_INTERPRETERS: &[&str] = &[
    "python3", "python", "perl", "node", "nodejs", "ruby", "php", "lua", "lua5.4", "luajit",
];

/// A connection attempt to an internet address by an interpreter.
fn connect(state: &State, call: &Call) -> Option<Event> {
    let program = state.program(call.pid);
    let name = program.rsplit('/').next().unwrap_or(&program);
    let interpreter = CODE_INTERPRETERS.contains(&name)
        || name
            .strip_prefix("python3.")
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit()));
    let sockaddr = call.args.get(1)?;
    if !interpreter
        || !state.runs_inline_code(call.pid)
        || !(sockaddr.contains("AF_INET") || sockaddr.contains("AF_INET6"))
    {
        return None;
    }
    let field = |key: &str| {
        let at = sockaddr.find(key)? + key.len();
        let rest = sockaddr.get(at..)?;
        let end = rest.find([')', ',', '}'])?;
        Some(rest[..end].trim_matches('"').to_owned())
    };
    let host = field("inet_addr(\"").or_else(|| field("inet_pton(AF_INET6, \""))?;
    let port = field("htons(").unwrap_or_default();
    Some(Event::Connect {
        pid: call.pid,
        program: name.to_owned(),
        address: format!("{host}:{port}"),
    })
}

fn opened(
    state: &State,
    call: &Call,
    secrets: &[String],
    planted: &BTreeSet<String>,
) -> Vec<Event> {
    let (dir, path, flags) = if call.name == "open" {
        (None, 0, 1)
    } else {
        (Some(0), 1, 2)
    };
    // The returned descriptor's path is the file really opened (symlinks followed).
    let target = call
        .returned_path()
        .unwrap_or_else(|| state.path_arg(call, dir, path));
    let flags = call.args.get(flags).map(String::as_str).unwrap_or_default();
    let writes = flags.contains("O_WRONLY") || flags.contains("O_RDWR");
    let mut out = Vec::new();
    let program = state.program(call.pid);
    if secrets.contains(&target) && !flags.contains("O_WRONLY") && !implicit_read(&program, &target)
    {
        out.push(Event::SecretRead {
            pid: call.pid,
            program,
            path: target.clone(),
        });
    }
    if planted.contains(&target) {
        if flags.contains("O_TRUNC") {
            out.push(deleted(call, target, "opened with O_TRUNC"));
        } else if writes && !flags.contains("O_DIRECTORY") {
            out.push(deleted(call, target, "opened for writing"));
        }
    }
    out
}

/// What is known of each process while reading the trace in order.
#[derive(Default)]
struct State {
    /// Each process's parent.
    parent: HashMap<u32, u32>,
    /// Each process's working directory, as last seen.
    cwd: HashMap<u32, String>,
    /// Each process's program: its last exec, or its parent's.
    program: HashMap<u32, String>,
    /// The last program each process exec'd: (path, argv).
    last_exec: HashMap<u32, (String, Vec<String>)>,
    /// Whether the top `bash -c LINE` has been seen (and skipped).
    top_seen: bool,
}

impl State {
    fn cwd(&self, pid: u32) -> String {
        self.cwd
            .get(&pid)
            .cloned()
            .unwrap_or_else(|| WORK.to_owned())
    }

    /// `AT_FDCWD</dir>` in any call tells the process's directory.
    fn learn_cwd(&mut self, call: &Call) {
        for arg in &call.args {
            if let Some(rest) = arg.strip_prefix("AT_FDCWD")
                && let Some(dir) = super::strace::decoration(rest)
            {
                self.cwd.insert(call.pid, dir);
            }
        }
    }

    /// A process seen for the first time starts in its parent's directory, running its
    /// parent's program (until it execs).
    fn adopt(&mut self, pid: u32) {
        if self.program.contains_key(&pid) {
            return;
        }
        let parent = self.parent.get(&pid).copied();
        let program = parent.map_or_else(|| "bash".to_owned(), |p| self.program(p));
        let dir = parent.map_or_else(|| WORK.to_owned(), |p| self.cwd(p));
        self.program.insert(pid, program);
        self.cwd.entry(pid).or_insert(dir);
    }

    /// Whether the process (or the one it was forked from) exec'd an interpreter with code
    /// on its command line or standard input, not a script file (`node /usr/bin/npm`).
    fn runs_inline_code(&self, pid: u32) -> bool {
        let mut pid = pid;
        for _ in 0..64 {
            if let Some((_, argv)) = self.last_exec.get(&pid) {
                for a in argv.iter().skip(1) {
                    let code_flag = matches!(
                        a.as_str(),
                        "-c" | "-e" | "-E" | "-r" | "-p" | "--eval" | "--print" | "-"
                    ) || (a.starts_with('-')
                        && !a.starts_with("--")
                        && a.ends_with(['c', 'e', 'E']));
                    if code_flag {
                        return true;
                    }
                    if !a.starts_with('-') {
                        return false;
                    }
                }
                return true;
            }
            match self.parent.get(&pid) {
                Some(parent) => pid = *parent,
                None => return false,
            }
        }
        false
    }

    fn program(&self, pid: u32) -> String {
        self.program
            .get(&pid)
            .cloned()
            .unwrap_or_else(|| "bash".to_owned())
    }

    /// Argument `i` as a path, resolved against the descriptor in argument `dir` (or the
    /// process's directory). A relative path against a descriptor whose path strace did
    /// not print comes back as `(fd N)/name`: never planted, so the caller reports it
    /// rather than guessing a directory.
    fn path_arg(&self, call: &Call, dir: Option<usize>, i: usize) -> String {
        let path = call.string(i).unwrap_or_default();
        if path.starts_with('/') {
            return normalize(&path);
        }
        let base = match dir.and_then(|d| call.args.get(d).map(|a| (a, call.fd_path(d)))) {
            Some((_, Some(decorated))) => decorated,
            Some((arg, None)) if arg != "AT_FDCWD" => return format!("(fd {arg})/{path}"),
            _ => self.cwd(call.pid),
        };
        resolve(&base, &path)
    }

    /// The event for a successful `execve`/`execveat`, unless it is the top bash, the
    /// interpreter of a script that the same process just exec'd, or an internal helper.
    fn exec(&mut self, call: &Call) -> Option<Event> {
        let (path, argv) = if call.name == "execve" {
            (call.string(0)?, call.strings(1)?)
        } else {
            let p = call.string(1).unwrap_or_default();
            let full = if p.is_empty() {
                call.fd_path(0).unwrap_or_default()
            } else {
                self.path_arg(call, Some(0), 1)
            };
            (full, call.strings(2)?)
        };
        let previous = self
            .last_exec
            .insert(call.pid, (path.clone(), argv.clone()));
        let program = path.rsplit('/').next().unwrap_or_default().to_owned();
        let parent = self.program(call.pid);
        if !self.top_seen {
            self.top_seen = true;
            self.program.insert(call.pid, program);
            return None;
        }
        let args = argv.get(1..).map(<[String]>::to_vec).unwrap_or_default();
        if internal(&parent, &normalize(&path), &program, &args) {
            return None; // the process stays its starter's
        }
        self.program.insert(call.pid, program.clone());
        // `#!/usr/bin/env node` in /usr/bin/npm: the kernel runs env, which then execs
        // node with argv [node, /usr/bin/npm, ARGS...]. That second exec is npm's own
        // start-up, so it is not an event: the same process, the script's path as the
        // first argument and the script's arguments after it.
        if let Some((prev_path, prev_argv)) = previous
            && argv.get(1) == Some(&prev_path)
            && argv.get(2..) == prev_argv.get(1..)
        {
            return None;
        }
        Some(Event::Exec {
            pid: call.pid,
            path,
            program,
            args,
        })
    }
}
