//! External matcher and action programs, run for real: exit codes, stdin, result JSON,
//! timeouts, and the fail-open / fail-closed rules.

use std::os::unix::fs::PermissionsExt;

use serde_json::{Value, json};

use crate::util::{Dir, code, run_with_stdin, stderr, stdout};

fn script(dir: &Dir, name: &str, body: &str) {
    let path = dir.write(name, &format!("#!/bin/sh\n{body}\n"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

fn check(dir: &Dir, yaml: &str) -> (i32, Value, String) {
    dir.write("HOOKS.yaml", yaml);
    let cmd = dir.hookgate(&[
        "check",
        "--config",
        "HOOKS.yaml",
        "--point",
        "turn:tool:pre",
        "--context",
        "-",
        "--format",
        "json",
    ]);
    let context = json!({
        "sessionKey": "agent:main:main",
        "toolName": "exec",
        "toolArgs": { "command": "rm -rf /" },
    });
    let out = run_with_stdin(cmd, &context.to_string());
    let decision = serde_json::from_str(&stdout(&out)).unwrap_or(Value::Null);
    (code(&out), decision, stderr(&out))
}

fn matcher_policy(timeout_ms: u64) -> String {
    format!(
        "version: \"1\"\nhooks:\n  - name: guarded\n    point: turn:tool:pre\n    match: {{ tool: exec, custom: ./matcher.sh }}\n    action: block\n    timeoutMs: {timeout_ms}\n"
    )
}

#[test]
fn a_matcher_exiting_0_matches_and_1_does_not() {
    let dir = Dir::new();
    script(&dir, "matcher.sh", "cat > stdin.json; exit 0");
    let (status, decision, _) = check(&dir, &matcher_policy(5000));
    assert_eq!(status, 2, "{decision}");
    let seen: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("stdin.json")).expect("stdin"),
    )
    .expect("the matcher got JSON");
    assert_eq!(seen["point"], "turn:tool:pre");
    assert_eq!(seen["sessionKey"], "agent:main:main");
    assert_eq!(seen["toolArgs"]["command"], "rm -rf /");

    script(&dir, "matcher.sh", "exit 1");
    let (status, decision, _) = check(&dir, &matcher_policy(5000));
    assert_eq!(status, 0, "{decision}");
    assert_eq!(decision["results"], json!([]));
}

#[test]
fn a_broken_matcher_fails_open_with_a_warning() {
    let dir = Dir::new();
    // A crash, a missing program and a hang all make the hook fire.
    script(&dir, "matcher.sh", "exit 3");
    let (status, _, err) = check(&dir, &matcher_policy(5000));
    assert_eq!(status, 2);
    assert!(err.contains("match.custom failed; the hook fires"), "{err}");

    std::fs::remove_file(dir.path().join("matcher.sh")).expect("rm");
    let (status, _, err) = check(&dir, &matcher_policy(5000));
    assert_eq!(status, 2);
    assert!(err.contains("Script not found"), "{err}");

    script(&dir, "matcher.sh", "sleep 30");
    let (status, _, err) = check(&dir, &matcher_policy(200));
    assert_eq!(status, 2);
    assert!(err.contains("timed out after 200 ms"), "{err}");
}

fn action_policy(timeout_ms: u64) -> String {
    format!(
        "version: \"1\"\nhooks:\n  - name: external\n    point: turn:tool:pre\n    action: ./actions/decide.sh\n    timeoutMs: {timeout_ms}\n"
    )
}

#[test]
fn an_action_result_passes_injects_and_rewrites_params() {
    let dir = Dir::new();
    script(
        &dir,
        "actions/decide.sh",
        r#"read -r ctx; echo '{"passed":true,"message":"rewritten","injectedContent":"be careful","modifiedParams":{"command":"rm -ri /tmp/x"}}'"#,
    );
    let (status, decision, err) = check(&dir, &action_policy(5000));
    assert_eq!(status, 0, "{err}");
    assert_eq!(decision["results"][0]["action"], "./actions/decide.sh");
    assert_eq!(decision["results"][0]["message"], "rewritten");
    assert_eq!(decision["injectedContext"], json!(["be careful"]));
    assert_eq!(decision["params"], json!({ "command": "rm -ri /tmp/x" }));
}

#[test]
fn an_action_that_says_no_blocks_and_anything_malformed_fails_closed() {
    let dir = Dir::new();
    script(
        &dir,
        "actions/decide.sh",
        r#"echo '{"passed":false,"message":"not today"}'"#,
    );
    let (status, decision, _) = check(&dir, &action_policy(5000));
    assert_eq!(status, 2);
    assert_eq!(decision["message"], "not today");
    assert_eq!(decision["params"], Value::Null);

    for (body, expect) in [
        ("echo 'not json'", "printed no valid result JSON"),
        (
            "echo '{\"message\":\"no verdict\"}'",
            "printed no valid result JSON",
        ),
        ("echo boom >&2; exit 2", "failed: boom"),
        ("sleep 30", "timed out after 300ms"),
    ] {
        script(&dir, "actions/decide.sh", body);
        let (status, decision, _) = check(&dir, &action_policy(300));
        assert_eq!(status, 2, "{body}: {decision}");
        let message = decision["message"].as_str().expect("message");
        assert!(message.contains(expect), "{body}: {message}");
    }
}

#[test]
fn an_action_program_under_etc_is_refused() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join("actions")).expect("mkdir");
    std::os::unix::fs::symlink("/etc/hostname", dir.path().join("actions/decide.sh"))
        .expect("symlink");
    let (status, decision, _) = check(&dir, &action_policy(5000));
    assert_eq!(status, 2);
    assert_eq!(
        decision["message"],
        "Script path \"/etc/hostname\" is blocked for security reasons (matches deny pattern: /etc/)"
    );
}
