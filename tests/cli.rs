//! The `hookgate` binary end to end: real files, real processes, exit codes.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{Dir, code, repo, run, run_with_stdin, stderr, stdout};

const POLICY: &str = r#"version: "1"
hooks:
  - name: audit
    point: [turn:tool:pre, subagent:tool:pre]
    priority: 100
    action: log
    target: logs/{sessionKey}.jsonl
  - name: rm-guard
    point: [turn:tool:pre, subagent:tool:pre]
    match: { tool: exec, commandPattern: "rm\\s+-[a-zA-Z]*[rf]" }
    action: block
    onFailure: { action: block, message: "Blocked: recursive rm" }
"#;

const BROKEN: &str = r#"version: "1"
hooks:
  - point: [turn:pre, turn:tool:pr]
    match: { tool: exec, commandPattern: "rm(?!x)", tol: 1 }
    action: block
  - name: a
    point: turn:pre
    action: blok
"#;

fn decision(out: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

#[test]
fn validate_accepts_a_good_policy() {
    let dir = Dir::new();
    let file = dir.write("HOOKS.yaml", POLICY);
    let out = run(dir.hookgate(&["validate", file.to_str().unwrap_or_default()]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("is valid: 2 hooks"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn validate_reports_every_error_with_line_and_column() {
    let dir = Dir::new();
    dir.write("bad.yaml", BROKEN);
    let out = run(dir.hookgate(&["validate", "bad.yaml"]));
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    for expected in [
        "bad.yaml:3:23: hooks[0].point[1]: unknown lifecycle point `turn:tool:pr`",
        "did you mean `turn:tool:pre`?",
        "bad.yaml:4:42: hooks[0].match.commandPattern: look-around",
        "bad.yaml:4:53: hooks[0].match.tol: unknown field `tol`",
        "bad.yaml:8:13: hooks[1].action: unknown action `blok`",
        "did you mean `block`?",
        "4 problems",
    ] {
        assert!(err.contains(expected), "missing {expected:?} in:\n{err}");
    }
    // The snippet shows the offending line.
    assert!(err.contains("point: [turn:pre, turn:tool:pr]"), "{err}");
}

#[test]
fn validate_json_lists_diagnostics() {
    let dir = Dir::new();
    dir.write("bad.yaml", BROKEN);
    let out = run(dir.hookgate(&["validate", "bad.yaml", "--format", "json"]));
    assert_eq!(code(&out), 1);
    let list = decision(&out);
    let items = list.as_array().expect("array");
    assert_eq!(items.len(), 4);
    assert_eq!(items[0]["line"], 3);
    assert_eq!(items[0]["column"], 23);
    assert_eq!(items[0]["path"], "hooks[0].point[1]");
    assert_eq!(items[3]["message"], "unknown action `blok`");
    // Every problem has a stable code and a severity, the same shape `lint` prints.
    let codes: Vec<&str> = items.iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(
        codes,
        [
            "hookgate::unknown-point",
            "hookgate::invalid",
            "hookgate::unknown-field",
            "hookgate::unknown-action"
        ],
        "{list:#}"
    );
    assert!(items.iter().all(|d| d["severity"] == "error"), "{list:#}");
}

#[test]
fn a_duplicate_name_points_at_its_first_use() {
    let dir = Dir::new();
    dir.write(
        "dup.yaml",
        "version: \"1\"\nhooks:\n  - name: a\n    point: turn:pre\n    action: log\n  - name: a\n    point: turn:pre\n    action: log\n",
    );
    let out = run(dir.hookgate(&["validate", "dup.yaml", "--format", "json"]));
    assert_eq!(code(&out), 1);
    let list = decision(&out);
    assert_eq!(list[0]["line"], 6, "{list:#}");
    assert_eq!(list[0]["related"][0]["line"], 3, "{list:#}");
    assert_eq!(list[0]["related"][0]["column"], 11, "{list:#}");
    let out = run(dir.hookgate(&["validate", "dup.yaml"]));
    let err = stderr(&out);
    assert!(
        err.contains("note: dup.yaml:3:11: the first use of the name"),
        "{err}"
    );
}

#[test]
fn validate_reports_an_error_past_column_65535_without_panicking() {
    let dir = Dir::new();
    dir.write(
        "long.yaml",
        &format!("version: \"1\"\nhooks: [{} x: y\n", "a".repeat(70_000)),
    );
    let out = run(dir.hookgate(&["validate", "long.yaml"]));
    let err = stderr(&out);
    assert_eq!(code(&out), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains("[long.yaml:2:700"),
        "the header has the real column: {err}"
    );
    assert!(err.lines().all(|l| l.chars().count() < 2_000), "{err}");
}

#[test]
fn validate_shows_controls_in_the_policy_escaped() {
    let dir = Dir::new();
    dir.write(
        "ctl.yaml",
        "version: \"1\"\nhooks:\n  - name: \"\u{1b}]0;pwned\u{7}\u{202e}\"\n    point: trun:pre\n    action: block\n",
    );
    let out = run(dir.hookgate(&["validate", "ctl.yaml"]));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        !err.contains('\u{1b}') && !err.contains('\u{202e}'),
        "{err:?}"
    );
    assert!(err.contains(r#"name: "\x1b]0;pwned\x07\u{202e}""#), "{err}");
}

#[test]
fn hostile_yaml_is_rejected_fast() {
    let dir = Dir::new();
    let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
    for i in 1..12u8 {
        let (name, prev) = ((b'a' + i) as char, (b'a' + i - 1) as char);
        bomb.push_str(&format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{prev}"); 9].join(",")
        ));
    }
    dir.write("bomb.yaml", &bomb);
    dir.write(
        "deep.yaml",
        &format!(
            "version: 1\nhooks: {}{}\n",
            "[".repeat(10_000),
            "]".repeat(10_000)
        ),
    );
    for file in ["bomb.yaml", "deep.yaml"] {
        let start = Instant::now();
        let out = run(dir.hookgate(&["validate", file]));
        assert_eq!(code(&out), 1, "{file}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("{file}:")),
            "{}",
            stderr(&out)
        );
        // A hang guard, not a benchmark.
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{file} took {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn check_blocks_with_exit_2_and_writes_the_audit_log() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let out = run(dir.hookgate(&[
        "check",
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=rm -rf /",
        "--session",
        "s1",
        "--format",
        "json",
    ]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let d = decision(&out);
    assert_eq!(d["decision"], "block");
    assert_eq!(d["passed"], false);
    assert_eq!(d["hook"], "rm-guard");
    assert_eq!(d["message"], "Blocked: recursive rm");
    assert_eq!(d["results"].as_array().map(Vec::len), Some(2));
    assert_eq!(d["results"][0]["message"], "Logged event at turn:tool:pre");
    let log = std::fs::read_to_string(dir.path().join("logs/s1.jsonl")).expect("audit log");
    let entry: Value = serde_json::from_str(log.trim()).expect("jsonl");
    assert_eq!(entry["args"]["command"], "rm -rf /");
    assert_eq!(entry["sessionKey"], "s1");
}

#[test]
fn check_allows_with_exit_0_and_explains_in_text() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let out = run(dir.hookgate(&[
        "check",
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=ls -l",
    ]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("audit: matched, action log -> pass"),
        "{text}"
    );
    assert!(
        text.contains("rm-guard: skipped, match.commandPattern did not match"),
        "{text}"
    );
    assert!(text.contains("decision: ALLOW"), "{text}");
}

#[test]
fn packs_lists_every_pack_with_what_it_guards_and_whether_the_policy_includes_it() {
    // The repository's own packs, read where they are (nothing is written).
    let repo = concat!(env!("CARGO_MANIFEST_DIR"), "/HOOKS.yaml");
    let dir = Dir::new();
    let out = run(dir.hookgate(&["packs", "--config", repo, "--format", "json"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let packs: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let packs = packs.as_array().expect("a list");
    assert!(packs.len() >= 8, "{packs:?}");
    let pack = |name: &str| {
        packs
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {packs:?}"))
    };
    for p in packs {
        assert!(p["error"].is_null(), "{p}");
        assert!(p["hooks"].as_u64().is_some_and(|n| n > 0), "{p}");
        assert_eq!(p["tests"], true, "every shipped pack has its cases: {p}");
        assert!(p["guards"].as_str().is_some_and(|g| !g.is_empty()), "{p}");
    }
    for included in [
        "destructive",
        "privilege-escalation",
        "self-protection",
        "git",
    ] {
        assert_eq!(pack(included)["included"], true, "{included}");
    }
    assert_eq!(pack("credentials")["included"], false);
    assert_eq!(
        pack("git")["guards"],
        "git commands that throw away work nobody can get back."
    );

    // A pack that does not load is listed as such, and the others still are.
    dir.copy_default_policy();
    dir.write(
        "policies/broken.yaml",
        "# Policy pack: broken.\nversion: [\n",
    );
    let out = run(dir.hookgate(&["packs"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("broken") && stdout(&out).contains("does not load"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_places_deletes_against_cwd_and_refuses_a_relative_one() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/policies/destructive.yaml"
        ))
        .expect("pack"),
    );
    std::fs::create_dir_all(dir.path().join("proj/.git")).expect("project");
    let cwd = dir.path().join("proj/src");
    std::fs::create_dir_all(&cwd).expect("src");
    let check = |extra: &[&str], command: &str| {
        let arg = format!("command={command}");
        let mut args = vec![
            "check",
            "--point",
            "turn:tool:pre",
            "--tool",
            "exec",
            "--arg",
            &arg,
        ];
        args.extend_from_slice(extra);
        args.extend(["--format", "json"]);
        run(dir.hookgate(&args))
    };
    let cwd = cwd.to_str().expect("utf-8");
    let decided = |out: &std::process::Output| -> serde_json::Value {
        serde_json::from_str(&stdout(out)).expect("a decision")
    };
    let out = check(&["--cwd", cwd], "rm -rf ../target");
    assert_eq!(decided(&out)["decision"], "allow", "{}", stdout(&out));
    let out = check(&["--cwd", cwd], "rm -rf ../../proj");
    assert_eq!(
        decided(&out)["hook"],
        "no-delete-workspace-root",
        "{}",
        stdout(&out)
    );
    // Without a cwd the same delete cannot be placed.
    let out = check(&[], "rm -rf ../target");
    assert_eq!(decided(&out)["decision"], "ask", "{}", stdout(&out));
    let out = check(&["--cwd", "proj"], "ls");
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("--cwd must be an absolute path"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn check_says_when_the_workspace_is_not_on_this_host() {
    let dir = Dir::new();
    let policy = repo().join("HOOKS.yaml");
    let policy = policy.to_str().unwrap_or_default();
    let mut args = vec!["check", "--config", policy, "--point", "turn:tool:pre"];
    args.extend(["--tool", "Bash", "--arg", "command=rm -rf build"]);
    args.extend(["--cwd", "/nonexistent-host-path/proj"]);
    args.extend(["--workspace", "/nonexistent-host-path/proj"]);
    let out = run(dir.hookgate(&args));
    // The build output is still known by its name.
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "places:  the workspace /nonexistent-host-path/proj is not a directory on this host"
        ),
        "{text}"
    );
}

#[test]
fn a_block_names_the_command_that_read_the_path_it_is_about() {
    let dir = Dir::new();
    let policy = repo().join("HOOKS.yaml");
    let out = run(dir.hookgate(&[
        "check",
        "--config",
        policy.to_str().unwrap_or_default(),
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=python3 -c \"def keys(p):\n    return set(open(p).read().split())\nprint(keys('.env.example') - keys('.env'))\"",
    ]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let text = stdout(&out);
    // Both reads are `cat`s the hook takes; only the second reads a credential file.
    assert!(
        text.contains("(hookgate read `cat .env` from python code, line 2)"),
        "{text}"
    );
}

#[test]
fn check_explain_lists_the_commands_found_inside_interpreter_code() {
    let dir = Dir::new();
    let policy = repo().join("HOOKS.yaml");
    let policy = policy.to_str().unwrap_or_default();
    let out = run(dir.hookgate(&[
        "check",
        "--explain",
        "--config",
        policy,
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=python3 -c \"import os, shutil\nprint('cleaning')\nshutil.rmtree(os.path.expanduser('~/.ssh'))\"",
    ]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("found:   rm -r -f ~/.ssh  (from python code, line 3)"),
        "{text}"
    );
    assert!(
        text.contains("(hookgate read `rm -r -f ~/.ssh` from python code, line 3)"),
        "{text}"
    );
    // Without --explain the text stays as it was.
    let out = run(dir.hookgate(&[
        "check",
        "--config",
        policy,
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=python3 -c 'import os; os.system(\"ls\")'",
    ]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        !stdout(&out).lines().any(|l| l.starts_with("found:")),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_reads_a_context_from_a_file_or_stdin() {
    let dir = Dir::new();
    let policy = dir.write("p.yaml", POLICY);
    let policy = policy.to_str().unwrap_or_default();
    let ctx = r#"{"point":"subagent:tool:pre","sessionKey":"agent:main:subagent:x","toolName":"exec","toolArgs":{"command":"rm -fr /tmp"}}"#;
    dir.write("ctx.json", ctx);
    let out = run(dir.hookgate(&[
        "check",
        "--config",
        policy,
        "--context",
        "ctx.json",
        "--format",
        "json",
    ]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(decision(&out)["point"], "subagent:tool:pre");
    let out = run_with_stdin(
        dir.hookgate(&[
            "check",
            "--config",
            policy,
            "--context",
            "-",
            "--format",
            "json",
        ]),
        ctx,
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = run_with_stdin(
        dir.hookgate(&["check", "--config", policy, "--context", "-"]),
        r#"{"toolName": 5}"#,
    );
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("invalid context"), "{}", stderr(&out));
}

#[test]
fn check_usage_and_config_errors_exit_1() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let out = run(dir.hookgate(&["check", "--point", "turn:tool:pr", "--tool", "exec"]));
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("did you mean `turn:tool:pre`?"),
        "{}",
        stderr(&out)
    );
    let out = run(dir.hookgate(&["check", "--tool", "exec"]));
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("no lifecycle point"),
        "{}",
        stderr(&out)
    );
    let empty = Dir::new();
    let out = run(empty.hookgate(&["check", "--point", "turn:pre"]));
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("no policy file found"),
        "{}",
        stderr(&out)
    );
    let out = run(dir.hookgate(&["check", "--config", "missing.yaml", "--point", "turn:pre"]));
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("cannot read policy file `missing.yaml`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn discovery_uses_the_environment_in_order() {
    let dir = Dir::new();
    dir.write("a/A.yaml", POLICY);
    dir.write("b/B.yaml", "version: 1\nhooks: []\n");
    dir.write(
        "ws/HOOKS.yaml",
        "version: 1\nhooks: [{ point: turn:pre, action: block }]\n",
    );
    let blocked = |cmd: &mut std::process::Command| code(&run(cmd));
    let args = [
        "check",
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=rm -rf /",
    ];
    // HOOKGATE_CONFIG wins over OPENCLAW_HOOKS_CONFIG.
    let a = dir.path().join("a/A.yaml");
    let b = dir.path().join("b/B.yaml");
    assert_eq!(
        blocked(
            dir.hookgate(&args)
                .env("HOOKGATE_CONFIG", &a)
                .env("OPENCLAW_HOOKS_CONFIG", &b)
        ),
        2
    );
    assert_eq!(
        blocked(dir.hookgate(&args).env("OPENCLAW_HOOKS_CONFIG", &b)),
        0
    );
    // Then the workspace.
    let ws = ["check", "--point", "turn:pre", "--prompt", "hi"];
    assert_eq!(
        blocked(
            dir.hookgate(&ws)
                .env("OPENCLAW_WORKSPACE", dir.path().join("ws"))
        ),
        2
    );
}

#[test]
fn batch_mode_prints_one_decision_per_line() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let lines = [
        r#"{"sessionKey":"s","toolName":"exec","toolArgs":{"command":"ls"}}"#,
        r#"{"sessionKey":"s","toolName":"exec","toolArgs":{"command":"rm -rf /"}}"#,
        "",
        r#"{"point":"turn:pre","sessionKey":"s","prompt":"hello"}"#,
    ];
    dir.write("calls.jsonl", &lines.join("\n"));
    let out = run(dir.hookgate(&[
        "check",
        "--point",
        "turn:tool:pre",
        "--contexts",
        "calls.jsonl",
    ]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let decisions: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(decisions.len(), 3);
    assert_eq!(decisions[0]["decision"], "allow");
    assert_eq!(decisions[1]["decision"], "block");
    assert_eq!(decisions[2]["point"], "turn:pre");

    dir.write("bad.jsonl", "{\"sessionKey\":\"s\"}\nnot json\n");
    let out = run(dir.hookgate(&["check", "--point", "turn:pre", "--contexts", "bad.jsonl"]));
    assert_eq!(code(&out), 1);
    let outputs: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(outputs.len(), 2);
    assert_eq!(outputs[1]["line"], 2);
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
}

#[test]
fn batch_mode_on_stdin_answers_each_line_before_the_next_arrives() {
    use std::io::{BufRead, BufReader, Write};
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let mut child = dir
        .hookgate(&["check", "--point", "turn:tool:pre", "--contexts", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start hookgate");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut answers = BufReader::new(child.stdout.take().expect("stdout")).lines();
    for (command, want) in [("rm -rf /", "block"), ("ls", "allow")] {
        let call = serde_json::json!({
            "sessionKey": "s",
            "toolName": "exec",
            "toolArgs": { "command": command },
        });
        // The pipe stays open: the answer must come while hookgate waits for more input.
        writeln!(stdin, "{call}").expect("write a call");
        stdin.flush().expect("flush");
        let line = answers.next().expect("an answer").expect("read");
        let decision: Value = serde_json::from_str(&line).expect("json line");
        assert_eq!(decision["decision"], want, "{command}");
    }
    drop(stdin);
    assert!(answers.next().is_none());
    assert_eq!(child.wait().expect("exit").code(), Some(2));
}

#[test]
fn schema_command_prints_the_shipped_schema() {
    let dir = Dir::new();
    let out = run(dir.hookgate(&["schema"]));
    assert_eq!(code(&out), 0);
    let printed: Value = serde_json::from_str(&stdout(&out)).expect("schema json");
    let shipped: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("schemas/hooks.schema.json")).expect("read"),
    )
    .expect("json");
    assert_eq!(printed, shipped);
}

#[test]
fn every_shipped_policy_validates() {
    let dir = Dir::new();
    let mut files = vec![repo().join("HOOKS.yaml")];
    for entry in std::fs::read_dir(repo().join("policies")).expect("policies/") {
        let path = entry.expect("entry").path();
        // `*.test.yaml` files hold a pack's test cases, not a policy.
        let is_test = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with(".test.yaml"));
        if path.extension().is_some_and(|e| e == "yaml") && !is_test {
            files.push(path);
        }
    }
    assert!(files.len() >= 2, "{files:?}");
    for file in files {
        let out = run(dir.hookgate(&["validate", file.to_str().unwrap_or_default()]));
        assert_eq!(code(&out), 0, "{}: {}", file.display(), stderr(&out));
    }
}

#[test]
fn readme_main_command_blocks_rm_rf_with_the_repo_policy() {
    let dir = Dir::new();
    let policy = repo().join("HOOKS.yaml");
    let out = run(dir.hookgate(&[
        "check",
        "--config",
        policy.to_str().unwrap_or_default(),
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=rm -rf /",
        "--format",
        "json",
    ]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(decision(&out)["decision"], "block");
    let out = run(dir.hookgate(&[
        "check",
        "--config",
        policy.to_str().unwrap_or_default(),
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        "command=ls -la",
    ]));
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
}

/// A policy whose blocking hook's name holds an escape sequence (YAML's `\e` is ESC).
const HOSTILE_NAME_POLICY: &str = r#"version: "1"
hooks:
  - name: audit
    point: turn:tool:pre
    action: log
    target: logs/audit.jsonl
  - name: "rm-guard\e[2J\u202e"
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "rm\\s+-rf" }
    action: block
    onFailure: { action: block, message: "Blocked \e]0;title\a" }
"#;

/// No raw escape, bell, C1 CSI or right-to-left override in `text`.
#[track_caller]
fn assert_no_raw_controls(text: &str) {
    for c in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}'] {
        assert!(!text.contains(c), "raw {c:?} in {text:?}");
    }
}

#[test]
fn check_explains_hostile_arguments_and_names_escaped() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", HOSTILE_NAME_POLICY);
    let command = "rm -rf /srv \u{1b}[2J\u{1b}]0;title\u{7} \u{9b}31m \u{202e}gnp.exe";
    let out = run(dir.hookgate(&[
        "check",
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        &format!("command={command}"),
    ]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let text = stdout(&out);
    assert_no_raw_controls(&text);
    for shown in [
        r"\x1b[2J",
        r"\x1b]0;title\x07",
        r"\u{9b}31m",
        r"\u{202e}gnp.exe",
        r"decision: BLOCK by rm-guard\x1b[2J\u{202e}: Blocked \x1b]0;title\x07",
    ] {
        assert!(text.contains(shown), "missing {shown:?} in:\n{text}");
    }
    // The JSON stays the exact value, with those characters as `\u` escapes.
    let out = run(dir.hookgate(&[
        "check",
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        &format!("command={command}"),
        "--format",
        "json",
    ]));
    assert_no_raw_controls(&stdout(&out));
    assert_eq!(decision(&out)["hook"], "rm-guard\u{1b}[2J\u{202e}");
    // So does the `log` action's line.
    let log = std::fs::read_to_string(dir.path().join("logs/audit.jsonl")).expect("audit log");
    assert_no_raw_controls(&log);
    let entry: Value = serde_json::from_str(log.lines().next().unwrap_or_default()).expect("jsonl");
    assert_eq!(entry["args"]["command"], command);
}

#[test]
fn list_shows_hostile_hook_names_escaped() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", HOSTILE_NAME_POLICY);
    let out = run(dir.hookgate(&["list"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let table = stdout(&out);
    assert_no_raw_controls(&table);
    assert!(
        table.contains(r"rm-guard\x1b[2J\u{202e}  turn:tool:pre"),
        "{table}"
    );
    let out = run(dir.hookgate(&["list", "--format", "json"]));
    assert_no_raw_controls(&stdout(&out));
    assert_eq!(decision(&out)[1]["name"], "rm-guard\u{1b}[2J\u{202e}");
}

/// 5,000 regexes far over the size limit, each distinct: every one is reported (file, line,
/// field), in text and in JSON, and nothing panics. Turning them away used to build each to
/// the limit (48 s for these); no timing is asserted here.
#[test]
fn validating_thousands_of_oversized_regexes_reports_each() {
    const N: usize = 5_000;
    let dir = Dir::new();
    let mut yaml = String::from("version: \"1\"\nhooks:\n");
    for i in 0..N {
        yaml.push_str(&format!(
            "  - name: r{i}\n    point: turn:tool:pre\n    match: {{ tool: exec, commandPattern: \"(\\\\w{{1,100}}\\\\s*){{100}}x{i}\" }}\n    action: block\n"
        ));
    }
    dir.write("huge.yaml", &yaml);
    let out = run(dir.hookgate(&["validate", "huge.yaml"]));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(&format!("{N} problems")), "{err}");
    assert!(
        err.contains("huge.yaml:5:42: hooks[0].match.commandPattern: regex compiles to more than 1048576 bytes"),
        "{err}"
    );
    let out = run(dir.hookgate(&["validate", "--format", "json", "huge.yaml"]));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let diagnostics: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let diagnostics = diagnostics.as_array().expect("an array");
    assert_eq!(diagnostics.len(), N);
    let last = &diagnostics[N - 1];
    assert_eq!(
        last["path"],
        format!("hooks[{}].match.commandPattern", N - 1)
    );
    assert_eq!(last["line"], 4 * (N - 1) + 5);
    assert!(
        last["message"]
            .as_str()
            .is_some_and(|m| m.contains("more than 1048576 bytes")),
        "{last}"
    );
}

/// A valid policy of 6,000 hooks with regexes of every kind validates.
#[test]
fn validating_a_six_thousand_hook_policy_succeeds() {
    let dir = Dir::new();
    let mut yaml = String::from("version: \"1\"\nhooks:\n");
    for i in 0..6_000 {
        let filter = match i % 3 {
            0 => format!("commandPattern: \"\\\\bprog{i}\\\\s+--force\""),
            1 => format!("command: {{ anyArg: \"^(x+-)+x{{3}}{i}$\" }}"),
            _ => format!("args: {{ path: \"^/srv/{i}/\" }}"),
        };
        yaml.push_str(&format!(
            "  - name: h{i}\n    point: turn:tool:pre\n    match: {{ tool: exec, {filter} }}\n    action: block\n"
        ));
    }
    dir.write("big.yaml", &yaml);
    let out = run(dir.hookgate(&["validate", "big.yaml"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("is valid: 6000 hooks"),
        "{}",
        stdout(&out)
    );
}
