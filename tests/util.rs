//! Helpers for driving the real `hookgate` binary.

use std::borrow::BorrowMut;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A scratch directory with files, and a way to run `hookgate` in it.
pub struct Dir {
    dir: tempfile::TempDir,
}

impl Dir {
    pub fn new() -> Dir {
        Dir {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `text` to `name` (parents created) and returns its path.
    /// The repository's default `HOOKS.yaml` and every pack beside it (`policies/*.yaml`, the
    /// test files left out), at the same relative paths: the policy's path.
    pub fn copy_default_policy(&self) -> PathBuf {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        let packs = std::fs::read_dir(repo.join("policies")).expect("policies/");
        for entry in packs {
            let name = entry.expect("policies/ entry").file_name();
            let name = name.to_str().expect("a UTF-8 file name");
            if name.ends_with(".yaml") && !name.ends_with(".test.yaml") {
                let text = std::fs::read_to_string(repo.join("policies").join(name)).expect("pack");
                self.write(&format!("policies/{name}"), &text);
            }
        }
        let text = std::fs::read_to_string(repo.join("HOOKS.yaml")).expect("HOOKS.yaml");
        self.write("HOOKS.yaml", &text)
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&path, text).expect("write");
        path
    }

    /// A `hookgate` command run in this directory with a clean discovery environment.
    pub fn hookgate(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hookgate"));
        cmd.args(args)
            .current_dir(self.dir.path())
            .env_remove("HOOKGATE_CONFIG")
            .env_remove("OPENCLAW_HOOKS_CONFIG")
            .env("OPENCLAW_WORKSPACE", self.dir.path().join("no-workspace"))
            .env("HOME", self.dir.path().join("no-home"));
        cmd
    }
}

/// Runs `cmd` with `stdin` as its standard input.
pub fn run_with_stdin(mut cmd: impl BorrowMut<Command>, stdin: &str) -> Output {
    let mut child = cmd
        .borrow_mut()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hookgate");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

pub fn run(mut cmd: impl BorrowMut<Command>) -> Output {
    cmd.borrow_mut().output().expect("run hookgate")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// The repository root (where the default HOOKS.yaml lives).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
