//! The host's files at decision time (`defaults.hostFiles`, issue 21 item 4), through the
//! real `hookgate check` on real files: a file tool's path that is a symlink is checked as
//! the file it links to, and the script files a command runs are read, whoever wrote them.

use serde_json::Value;

use crate::util::{Dir, code, run, stderr, stdout};

/// A project (with `.git`) in a scratch directory with its own home, and the default policy.
struct Host {
    dir: Dir,
}

impl Host {
    fn new() -> Host {
        let dir = Dir::new();
        dir.copy_default_policy();
        std::fs::create_dir_all(dir.path().join("proj/.git")).expect("project");
        std::fs::create_dir_all(dir.path().join("home/.ssh")).expect("home");
        dir.write("home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
        Host { dir }
    }

    fn project(&self) -> String {
        self.dir.path().join("proj").to_string_lossy().into_owned()
    }

    /// Writes a file of the project, executable.
    fn script(&self, name: &str, text: &str) {
        let path = self.dir.write(&format!("proj/{name}"), text);
        let mut mode = std::fs::metadata(&path).expect("meta").permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut mode, 0o755);
        std::fs::set_permissions(&path, mode).expect("chmod");
    }

    /// The decision for one tool call, as JSON.
    fn decide(&self, tool: &str, arg: &str) -> Value {
        let home = self.dir.path().join("home");
        let out = run(self
            .dir
            .hookgate(&[
                "check",
                "--config",
                "HOOKS.yaml",
                "--point",
                "turn:tool:pre",
                "--format",
                "json",
                "--tool",
                tool,
                "--cwd",
                &self.project(),
                "--arg",
                arg,
            ])
            .env("HOME", &home));
        serde_json::from_str(&stdout(&out))
            .unwrap_or_else(|e| panic!("{e}: {} {}", stdout(&out), stderr(&out)))
    }
}

fn verdict(d: &Value) -> &str {
    d["decision"].as_str().unwrap_or_default()
}

#[test]
fn a_symlinked_path_is_checked_as_the_file_it_links_to() {
    let host = Host::new();
    std::os::unix::fs::symlink(
        host.dir.path().join("home/.ssh/id_rsa"),
        host.dir.path().join("proj/notes.txt"),
    )
    .expect("symlink");
    let read = host.decide("Read", "file_path=notes.txt");
    assert_eq!(verdict(&read), "block", "{read}");
    let message = read["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("(hookgate checked `notes.txt` as `~/.ssh/id_rsa`, the file it links to)"),
        "{message}"
    );
    let cat = host.decide("Bash", "command=cat notes.txt");
    assert_eq!(verdict(&cat), "block", "{cat}");
    // A plain file of the same name is just a file.
    std::fs::remove_file(host.dir.path().join("proj/notes.txt")).expect("rm");
    host.dir.write("proj/notes.txt", "hello\n");
    assert_eq!(
        verdict(&host.decide("Read", "file_path=notes.txt")),
        "allow"
    );
}

#[test]
fn script_files_a_command_runs_are_read_whoever_wrote_them() {
    let host = Host::new();
    host.script("clean.sh", "echo cleaning\nrm -rf ~\n");
    host.script(
        "tidy.py",
        "#!/usr/bin/env python3\nimport shutil, os\nshutil.rmtree(os.path.expanduser('~'))\n",
    );
    host.script("ok.sh", "#!/bin/sh\necho fine\nrm -rf build\n");
    host.dir.write("proj/drop.sql", "DROP TABLE users;\n");
    for line in [
        "bash clean.sh",
        "./clean.sh",
        "sh < clean.sh",
        "source clean.sh",
        ". ./clean.sh",
        "./tidy.py",
        "python3 tidy.py",
    ] {
        let d = host.decide("Bash", &format!("command={line}"));
        assert_eq!(verdict(&d), "block", "{line}: {d}");
        assert_eq!(d["hook"], "no-delete-in-home", "{line}: {d}");
    }
    assert_eq!(
        verdict(&host.decide("Bash", "command=psql -f drop.sql")),
        "ask"
    );
    for line in ["bash ok.sh", "./ok.sh", "bash missing.sh", "./missing"] {
        let d = host.decide("Bash", &format!("command={line}"));
        assert_eq!(verdict(&d), "allow", "{line}: {d}");
    }
}

#[test]
fn a_script_hookgate_cannot_follow_or_is_too_long_asks_and_one_it_cannot_open_is_unreadable() {
    let host = Host::new();
    // As a project's gradle wrapper does: the program is a variable set in branches.
    host.script(
        "gradlew",
        "#!/bin/sh\nif [ -n \"$JAVA_HOME\" ]; then JAVACMD=$JAVA_HOME/bin/java; else JAVACMD=java; fi\nexec \"$JAVACMD\" \"$@\"\n",
    );
    let d = host.decide("Bash", "command=./gradlew build");
    assert_eq!(verdict(&d), "ask", "{d}");
    assert_eq!(d["hook"], "ask-unreadable-script-file", "{d}");
    // Over the size bound, as a project's generated `./configure` is: never read, and asked
    // about as a script that cannot be followed, in whichever way it is run.
    host.script("configure", &"echo x\n".repeat(12_000));
    for line in [
        "./configure --prefix=/usr",
        "bash configure",
        "source ./configure",
    ] {
        let d = host.decide("Bash", &format!("command={line}"));
        assert_eq!(verdict(&d), "ask", "{line}: {d}");
        assert_eq!(d["hook"], "ask-unreadable-script-file", "{line}: {d}");
    }
    host.script(
        "gen.py",
        &format!("import os\n{}", "x = 1\n".repeat(12_000)),
    );
    let d = host.decide("Bash", "command=python3 gen.py");
    assert_eq!(verdict(&d), "ask", "{d}");
    // Not a regular file: never read, never waited on, unreadable.
    let fifo = host.dir.path().join("proj/pipe.sh");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).expect("mkfifo");
    let d = host.decide("Bash", "command=bash pipe.sh");
    assert_eq!(verdict(&d), "block", "{d}");
}

#[test]
fn a_recursive_delete_of_a_plain_file_is_one_file_and_moving_a_directory_out_is_a_tree() {
    let host = Host::new();
    host.dir.write("proj/package-lock.json", "{}\n");
    std::fs::create_dir_all(host.dir.path().join("proj/src")).expect("src");
    std::fs::create_dir_all(host.dir.path().join("proj/node_modules")).expect("modules");
    let cmd = |line: &str| verdict(&host.decide("Bash", &format!("command={line}"))).to_owned();
    // Routine: a lock file and the build output go.
    assert_eq!(
        cmd("rm -rf node_modules package-lock.json && npm install"),
        "allow"
    );
    assert_eq!(cmd("rm -rf src"), "ask");
    // The line may make a directory where the file was before deleting it.
    assert_eq!(
        cmd(
            "rm package-lock.json; mkdir package-lock.json; mv src package-lock.json; rm -rf package-lock.json"
        ),
        "ask"
    );
    // Moving a project directory out of the project asks, as deleting it would; a rename
    // inside the project does not.
    assert_eq!(cmd("mv src /tmp/x && rm -rf /tmp/x"), "ask");
    assert_eq!(cmd("mv src build/"), "ask");
    assert_eq!(cmd("mv src lib"), "allow");
    assert_eq!(cmd("cp package-lock.json /tmp"), "allow");
}

#[test]
fn a_patch_file_on_the_host_is_read_for_the_files_it_writes() {
    let host = Host::new();
    let diff = |path: &str| format!("--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-x\n+y\n");
    host.dir.write("proj/weaken.patch", &diff("HOOKS.yaml"));
    host.dir.write("proj/fix.patch", &diff("src/main.rs"));
    let cmd = |line: &str| verdict(&host.decide("Bash", &format!("command={line}"))).to_owned();
    assert_eq!(cmd("git apply weaken.patch"), "block");
    assert_eq!(cmd("git am weaken.patch"), "block");
    assert_eq!(cmd("patch -p1 < weaken.patch"), "block");
    assert_eq!(cmd("git apply fix.patch && cargo test"), "allow");
    assert_eq!(cmd("patch -p1 -i fix.patch"), "allow");
    assert_eq!(cmd("git apply --check weaken.patch"), "allow");
}

#[test]
fn host_files_ignore_takes_paths_as_written() {
    let host = Host::new();
    host.script("clean.sh", "rm -rf ~\n");
    std::os::unix::fs::symlink(
        host.dir.path().join("home/.ssh/id_rsa"),
        host.dir.path().join("proj/notes.txt"),
    )
    .expect("symlink");
    let policy = std::fs::read_to_string(host.dir.path().join("HOOKS.yaml")).expect("policy");
    let ignoring = policy.replacen("defaults:\n", "defaults:\n  hostFiles: ignore\n", 1);
    host.dir.write("HOOKS.yaml", &ignoring);
    let validate = run(host.dir.hookgate(&["validate", "HOOKS.yaml"]));
    assert_eq!(code(&validate), 0, "{}", stderr(&validate));
    assert_eq!(
        verdict(&host.decide("Bash", "command=bash clean.sh")),
        "allow"
    );
    assert_eq!(
        verdict(&host.decide("Read", "file_path=notes.txt")),
        "allow"
    );
    // Whether a recursive delete is of a plain file is not looked up either.
    host.dir.write("proj/package-lock.json", "{}\n");
    assert_eq!(
        verdict(&host.decide("Bash", "command=rm -rf package-lock.json")),
        "ask"
    );
}

#[test]
fn a_wildcard_in_a_directory_on_this_host_names_the_files_that_are_there() {
    let host = Host::new();
    host.dir.write("proj/a.txt", "1\n");
    host.dir.write("proj/b.txt", "2\n");
    host.dir.write("proj/.env", "TOKEN=x\n");
    let bash = |command: &str| host.decide("Bash", &format!("command={command}"));
    // `*` skips `.env`, as bash does, and names nothing else a credential filter covers.
    for command in [
        "wc -l *",
        "grep -n foo *",
        "cp * /tmp/backup/",
        "du -sh ./*",
    ] {
        let d = bash(command);
        assert_eq!(verdict(&d), "allow", "{command}: {d}");
    }
    assert_eq!(verdict(&bash("cat .e*")), "block");
    // A key in the project, or a link to one, is among what `*` names.
    std::os::unix::fs::symlink(
        host.dir.path().join("home/.ssh/id_rsa"),
        host.dir.path().join("proj/notes.md"),
    )
    .expect("symlink");
    assert_eq!(verdict(&bash("head -n 1 *")), "block");
    assert_eq!(verdict(&bash("head -n 1 *.txt")), "allow");
    // Counting its lines prints nothing of it.
    assert_eq!(verdict(&bash("wc -l *")), "allow");
    assert_eq!(verdict(&bash("cat ../home/.ssh/*")), "block");
}

/// The gate's own files are a place (`gate`) whatever they are called, so the directory
/// that holds the policy cannot be deleted or moved away by any spelling the reader reads.
#[test]
fn the_directory_holding_the_policy_is_the_gates_place() {
    let host = Host::new();
    let gate = host.dir.path().to_string_lossy().into_owned();
    let bash = |command: &str| host.decide("Bash", &format!("command={command}"));
    for command in [
        format!("rm -rf {gate}"),
        format!("mv {gate}/policies /tmp/p-old"),
        format!("find {gate} -delete"),
        format!("python3 -c \"import shutil; shutil.rmtree('{gate}/policies')\""),
        format!("rm {gate}/policies/*"),
        format!("tar -xf /tmp/x.tar -C {gate}"),
        format!("cd {gate} && rm -r policies"),
    ] {
        let d = bash(&command);
        assert_eq!(verdict(&d), "block", "{command}: {d}");
        assert!(
            d["hook"]
                .as_str()
                .is_some_and(|h| h.starts_with("gate-files")),
            "{command}: {d}"
        );
    }
    // Reading them, and working beside them, stays allowed.
    for command in [
        format!("cat {gate}/HOOKS.yaml"),
        format!("cp {gate}/HOOKS.yaml /tmp/copy.yaml"),
        "cp notes.txt ..".to_owned(),
        "rm -rf build".to_owned(),
    ] {
        let d = bash(&command);
        assert_eq!(verdict(&d), "allow", "{command}: {d}");
    }
}

/// Code on the line that loads a file of its language runs that file, which is read; the
/// files a host file loads in turn (a project's libraries) are not followed.
#[test]
fn a_file_loaded_by_inline_code_is_read_and_its_own_loads_are_not_followed() {
    let host = Host::new();
    host.dir
        .write("proj/evil.php", "<?php system(\"rm -rf ~\");\n");
    // Composer's autoloader: it loads a file that loads others by computed names.
    host.dir.write(
        "proj/vendor/autoload.php",
        "<?php\nrequire_once __DIR__ . '/composer/autoload_real.php';\nreturn ComposerAutoloaderInit::getLoader();\n",
    );
    host.dir.write(
        "proj/vendor/composer/autoload_real.php",
        "<?php\nforeach ($files as $f) { require $f; }\n",
    );
    host.dir.write("proj/lib/evil.rb", "system(\"rm -rf ~\")\n");
    let bash = |command: &str| host.decide("Bash", &format!("command={command}"));
    for command in [
        "php -r 'include \"evil.php\";'",
        "ruby -e 'load \"./lib/evil.rb\"'",
        "ruby -e 'require_relative \"lib/evil\"'",
    ] {
        let d = bash(command);
        assert_eq!(verdict(&d), "block", "{command}: {d}");
    }
    let d = bash("php -r 'require \"vendor/autoload.php\"; echo PHP_VERSION;'");
    assert_eq!(verdict(&d), "allow", "{d}");
}

/// What the reader found in a file of the host is not handed to the agent in a message: a
/// block names the program and what the call itself wrote.
#[test]
fn a_block_message_does_not_quote_what_a_host_file_holds() {
    let host = Host::new();
    host.dir.write("proj/.env", "API_KEY=secret123\n");
    host.script("deploy.sh", "#!/bin/sh\nrm -rf ~\n");
    let bash = |command: &str| host.decide("Bash", &format!("command={command}"));
    for command in [
        "cat .env | xargs sudo",
        "xargs -a .env sudo",
        "sudo $(cat .env)",
    ] {
        let d = bash(command);
        assert_eq!(verdict(&d), "block", "{command}: {d}");
        let message = d["message"].as_str().unwrap_or_default();
        assert!(!message.contains("secret123"), "{command}: {message}");
    }
    // Program names and short flags stay, so a script's own line still explains itself.
    let d = bash("sh deploy.sh");
    assert_eq!(verdict(&d), "block", "{d}");
    let message = d["message"].as_str().unwrap_or_default();
    assert!(message.contains("`rm -rf ~`"), "{message}");
}

#[test]
fn script_files_named_by_a_pattern_are_each_read() {
    let host = Host::new();
    host.script("tests/a.sh", "echo ok\n");
    for line in [
        "bash tests/*.sh",
        "ls tests/*.sh | xargs -n1 bash",
        "ls tests/*.sh | awk '{ system(\"bash \" $0) }'",
    ] {
        let d = host.decide("Bash", &format!("command={line}"));
        assert_eq!(verdict(&d), "allow", "{line}: {d}");
    }
    // A script planted by an earlier call is found through the pattern too.
    host.script("tests/z.sh", "rm -rf ~\n");
    for line in [
        "bash tests/*.sh",
        "for t in tests/*.sh; do bash \"$t\"; done",
    ] {
        let d = host.decide("Bash", &format!("command={line}"));
        assert_eq!(verdict(&d), "block", "{line}: {d}");
    }
}
