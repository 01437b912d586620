//! Only regular files are read: a policy, an include, a discovered file or a token file that
//! is a device, a FIFO, or a link to one gives a clear error naming it, at once (never a hang,
//! never an endless read), and an include over the size budget is refused while it is read.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{Dir, code, stderr, stdout};

/// How long a command may run: the errors come at once, so only a hang (a FIFO waited on, a
/// device read forever) comes near this.
const DEADLINE: Duration = Duration::from_secs(10);
/// The default YAML size budget (`YamlBudget::default().max_bytes`).
const MAX_BYTES: u64 = 8 * 1024 * 1024;

/// Runs `cmd` to its end; kills it and fails the test if it runs past [`DEADLINE`].
fn run_bounded(mut cmd: Command) -> Output {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn hookgate");
    let drain = |pipe: Option<Box<dyn Read + Send>>| -> JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            let err = err.join().unwrap_or_default();
            panic!(
                "{cmd:?} still running after {DEADLINE:?}; stderr:\n{}",
                String::from_utf8_lossy(&err)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

fn symlink(target: impl AsRef<Path>, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// A pack: one named block hook for `exec`.
fn pack(name: &str) -> String {
    format!(
        "version: \"1\"\nhooks:\n  - name: {name}\n    point: turn:tool:pre\n    match: {{ tool: exec, commandPattern: \"{name}\" }}\n    action: block\n"
    )
}

/// A root policy with one hook and the `include` list `entries` (one per line, from line 3).
fn including(entries: &[&str]) -> String {
    let mut text = String::from("version: \"1\"\ninclude:\n");
    for entry in entries {
        text.push_str(&format!("  - {entry}\n"));
    }
    text.push_str(&pack("root-hook")["version: \"1\"\n".len()..]);
    text
}

/// `hookgate validate --config HOOKS.yaml --format json` in `dir`: (exit code, diagnostics).
fn validate_json(dir: &Dir) -> (i32, Vec<Value>) {
    let out =
        run_bounded(dir.hookgate(&["validate", "--config", "HOOKS.yaml", "--format", "json"]));
    let diagnostics = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}{}", stdout(&out), stderr(&out)));
    (code(&out), diagnostics)
}

/// Asserts that validating `dir` fails with one diagnostic at `line`:3 of HOOKS.yaml whose
/// message is `message`.
#[track_caller]
fn assert_include_refused(dir: &Dir, line: u64, message: &str) {
    let (code, diagnostics) = validate_json(dir);
    assert_eq!(code, 1, "{diagnostics:?}");
    let [d] = diagnostics.as_slice() else {
        panic!("one problem expected: {diagnostics:#?}");
    };
    assert_eq!(d["kind"], "composition", "{d}");
    assert_eq!(d["file"], "HOOKS.yaml", "{d}");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(line), Some(5)),
        "{d}"
    );
    assert_eq!(d["message"], message, "{d}");
}

#[test]
fn an_include_of_dev_zero_is_refused_at_once() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &including(&["/dev/zero"]));
    assert_include_refused(
        &dir,
        3,
        "cannot read included file `/dev/zero`: it is a character device, not a regular file",
    );
    // The text report names the file, the entry's line and column, and what to do.
    let out = run_bounded(dir.hookgate(&["validate", "--config", "HOOKS.yaml"]));
    assert_eq!(code(&out), 1);
    let text = stderr(&out);
    assert!(text.contains("HOOKS.yaml:3:5"), "{text}");
    assert!(
        text.contains("an include must name a regular file"),
        "{text}"
    );
}

#[test]
fn an_include_that_is_a_fifo_is_refused_at_once() {
    let dir = Dir::new();
    mkfifo(&dir.path().join("pipe.yaml"));
    dir.write("HOOKS.yaml", &including(&["pipe.yaml"]));
    assert_include_refused(
        &dir,
        3,
        "cannot read included file `pipe.yaml`: it is a FIFO, not a regular file",
    );
    // So do the commands that load the policy to use it.
    let out = run_bounded(dir.hookgate(&[
        "check",
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=ls",
    ]));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("it is a FIFO"), "{}", stderr(&out));
}

#[test]
fn a_symlinked_include_is_followed_and_what_it_reaches_must_be_a_regular_file() {
    let dir = Dir::new();
    mkfifo(&dir.path().join("pipe"));
    symlink("/dev/zero", &dir.path().join("zero.yaml"));
    symlink(dir.path().join("pipe"), &dir.path().join("fifo.yaml"));
    dir.write("HOOKS.yaml", &including(&["zero.yaml"]));
    assert_include_refused(
        &dir,
        3,
        "cannot read included file `zero.yaml`: it is a character device, not a regular file",
    );
    dir.write("HOOKS.yaml", &including(&["fifo.yaml"]));
    assert_include_refused(
        &dir,
        3,
        "cannot read included file `fifo.yaml`: it is a FIFO, not a regular file",
    );

    // A link to a regular file is read (policies are often installed as links).
    dir.write("packs/real.yaml", &pack("linked-pack"));
    symlink("packs/real.yaml", &dir.path().join("linked.yaml"));
    dir.write("HOOKS.yaml", &including(&["linked.yaml"]));
    let out = run_bounded(dir.hookgate(&["validate", "--config", "HOOKS.yaml"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("2 hooks from 2 files"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn an_include_over_the_size_budget_is_refused_with_its_size() {
    let dir = Dir::new();
    let mut big = pack("big-pack");
    big.push('#');
    big.push_str(&"x".repeat(MAX_BYTES as usize + 1 - big.len()));
    assert_eq!(big.len() as u64, MAX_BYTES + 1);
    dir.write("big.yaml", &big);
    dir.write("HOOKS.yaml", &including(&["small.yaml", "big.yaml"]));
    dir.write("small.yaml", &pack("small-pack"));
    assert_include_refused(
        &dir,
        4,
        &format!(
            "cannot read included file `big.yaml`: it is {} bytes, over the {MAX_BYTES}-byte limit",
            MAX_BYTES + 1
        ),
    );
}

#[test]
fn a_policy_file_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = Dir::new();
    mkfifo(&dir.path().join("pipe.yaml"));
    symlink("/dev/zero", &dir.path().join("zero.yaml"));
    for (file, kind) in [
        ("pipe.yaml", "a FIFO"),
        ("zero.yaml", "a character device"),
        ("/dev/zero", "a character device"),
        (".", "a directory"),
    ] {
        let out = run_bounded(dir.hookgate(&["validate", "--config", file]));
        assert_eq!(code(&out), 1, "{file}: {}", stderr(&out));
        assert_eq!(
            stderr(&out).trim(),
            format!("error: cannot read policy file `{file}`: it is {kind}, not a regular file")
        );
    }
    // The daemon refuses to start on one rather than waiting for a writer.
    let out =
        run_bounded(dir.hookgate(&["serve", "--config", "pipe.yaml", "--listen", "127.0.0.1:0"]));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`pipe.yaml`: it is a FIFO, not a regular file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_token_file_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &pack("rm-guard"));
    mkfifo(&dir.path().join("token"));
    symlink("/dev/zero", &dir.path().join("zero-token"));
    for (file, kind) in [("token", "a FIFO"), ("zero-token", "a character device")] {
        let mut serve = dir.hookgate(&[
            "serve",
            "--config",
            "HOOKS.yaml",
            "--listen",
            "127.0.0.1:0",
            "--token-file",
            file,
        ]);
        serve.env_remove("HOOKGATE_TOKEN");
        let out = run_bounded(serve);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        let expected =
            format!("cannot read the token file `{file}`: it is {kind}, not a regular file");
        assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
        assert!(!stderr(&out).contains("listening on"), "{}", stderr(&out));

        // The approvals CLI reads its token file the same way, before any connection.
        let out = run_bounded(dir.hookgate(&[
            "approvals",
            "list",
            "--url",
            "http://127.0.0.1:9",
            "--token-file",
            file,
        ]));
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    }

    // A token file over 4 KiB is no token.
    let huge = dir.write("huge-token", &"t".repeat(5000));
    std::fs::set_permissions(&huge, std::os::unix::fs::PermissionsExt::from_mode(0o600))
        .expect("chmod");
    let mut serve = dir.hookgate(&[
        "serve",
        "--config",
        "HOOKS.yaml",
        "--listen",
        "127.0.0.1:0",
        "--token-file",
        "huge-token",
    ]);
    serve.env_remove("HOOKGATE_TOKEN");
    let out = run_bounded(serve);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "cannot read the token file `huge-token`: it is 5000 bytes, over the 4096-byte limit"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn discovery_passes_over_a_hooks_yaml_that_is_not_a_regular_file() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", "version: \"1\"\ndiscover: true\nhooks: []\n");
    dir.write("ok/HOOKS.yaml", &pack("found-pack"));
    std::fs::create_dir_all(dir.path().join("fifo")).expect("mkdir");
    mkfifo(&dir.path().join("fifo/HOOKS.yaml"));
    std::fs::create_dir_all(dir.path().join("zero")).expect("mkdir");
    symlink("/dev/zero", &dir.path().join("zero/HOOKS.yaml"));
    let out = run_bounded(dir.hookgate(&["validate"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1 hook from 2 files"),
        "{}",
        stdout(&out)
    );
}
