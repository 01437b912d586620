//! `hookgate claude-code` driven with recorded Claude Code hook payloads (one per event, in
//! tests/fixtures/claude-code/), checking stdout JSON and exit codes; and the same answers
//! from the daemon's `POST /v1/claude-code`.

use serde_json::{Value, json};

use crate::daemon::Daemon;
use crate::util::{Dir, code, run_with_stdin, stderr, stdout};

const POLICY: &str = r#"version: "1"
hooks:
  - name: no-rm
    point: [turn:tool:pre, subagent:tool:pre, permission:request]
    match: { tool: Bash, commandPattern: "rm\\s+-rf|sudo" }
    action: block
    onFailure: { action: block, message: "No recursive rm or sudo." }
  - name: subagents-offline
    point: subagent:tool:pre
    match: { tool: WebFetch }
    action: block
    onFailure: { action: block, message: "Sub-agents stay offline." }
  - name: deploy-approval
    point: turn:tool:pre
    match: { tool: Bash, commandPattern: "^deploy" }
    action: require_approval
    description: deploys need a human
  - name: secrets-in-output
    point: turn:tool:post
    match: { commandPattern: "\\.env" }
    action: block
    onFailure: { action: block, message: "Tool output may hold secrets; do not repeat it." }
  - name: injection
    point: turn:pre
    match: { commandPattern: "(?i)ignore previous instructions" }
    action: block
    onFailure: { action: block, message: "Prompt rejected by policy." }
  - name: no-browser-agents
    point: subagent:spawn:pre
    match: { commandPattern: "" }
    action: exec_script
    script: 'test "$HOOK_SUBAGENT_LABEL" != browser-agent || { echo "browser agents are not allowed" >&2; exit 1; }'
  - name: reminder
    point: session:start
    action: inject_context
    source: reminder.md
  - name: log-everything
    point: [turn:post, subagent:post, session:end, compaction:pre, notification, tool:error]
    action: log
    target: logs/events.jsonl
"#;

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/claude-code/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn dir() -> Dir {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    dir.write("reminder.md", "Never touch production without a ticket.");
    dir
}

/// Runs the hook command on a fixture: (exit code, stdout JSON or Null, stderr).
fn hook(dir: &Dir, name: &str) -> (i32, Value, String) {
    let out = run_with_stdin(
        dir.hookgate(&["claude-code", "--config", "HOOKS.yaml"]),
        &fixture(name),
    );
    let text = stdout(&out);
    let json = if text.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{name}: stdout is not JSON: {e}: {text}"))
    };
    (code(&out), json, stderr(&out))
}

/// Every event, and Claude Code's expected answer.
fn expectations() -> Vec<(&'static str, Value)> {
    vec![
        (
            "pre_tool_use_rm",
            json!({ "hookSpecificOutput": { "hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "No recursive rm or sudo." } }),
        ),
        ("pre_tool_use_ls", Value::Null),
        (
            "pre_tool_use_subagent",
            json!({ "hookSpecificOutput": { "hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "Sub-agents stay offline." } }),
        ),
        (
            "pre_tool_use_deploy",
            json!({ "hookSpecificOutput": { "hookEventName": "PreToolUse",
                "permissionDecision": "ask", "permissionDecisionReason": "Approval required: deploys need a human" } }),
        ),
        (
            "post_tool_use",
            json!({ "decision": "block", "reason": "Tool output may hold secrets; do not repeat it." }),
        ),
        ("post_tool_use_failure", Value::Null),
        (
            "user_prompt_submit",
            json!({ "decision": "block", "reason": "Prompt rejected by policy." }),
        ),
        ("stop", Value::Null),
        (
            "subagent_start",
            json!({ "continue": false, "stopReason": "Script failed (exit 1): browser agents are not allowed" }),
        ),
        ("subagent_stop", Value::Null),
        (
            "session_start",
            json!({ "hookSpecificOutput": { "hookEventName": "SessionStart",
                "additionalContext": "Never touch production without a ticket." } }),
        ),
        ("session_end", Value::Null),
        ("pre_compact", Value::Null),
        ("notification", Value::Null),
        (
            "permission_request",
            json!({ "hookSpecificOutput": { "hookEventName": "PermissionRequest",
                "decision": { "behavior": "deny", "message": "No recursive rm or sudo." } } }),
        ),
    ]
}

#[test]
fn every_event_gets_claude_codes_own_answer() {
    let dir = dir();
    for (name, expected) in expectations() {
        let (status, output, err) = hook(&dir, name);
        assert_eq!(status, 0, "{name}: {err}");
        assert_eq!(output, expected, "{name}");
    }
    // The log hook saw the events without a decision of their own, with derived session keys.
    let log = std::fs::read_to_string(dir.path().join("logs/events.jsonl")).expect("event log");
    let points: Vec<String> = log
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).expect("JSONL")["point"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect();
    for point in [
        "tool:error",
        "turn:post",
        "subagent:post",
        "session:end",
        "compaction:pre",
        "notification",
    ] {
        assert!(
            points.iter().any(|p| p == point),
            "{point} not logged: {points:?}"
        );
    }
    assert!(
        log.contains("\"sessionKey\":\"claude-code:9f1c2d3e-claude:subagent:agent-7\""),
        "{log}"
    );
}

#[test]
fn a_broken_or_missing_policy_fails_closed_for_tool_calls() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\nhooks:\n  - point: turn:tool:pree\n    action: block\n",
    );
    let (status, output, err) = hook(&dir, "pre_tool_use_ls");
    assert_eq!(status, 2, "PreToolUse must block when the policy is broken");
    assert_eq!(output, Value::Null);
    assert!(
        err.contains("hookgate could not evaluate this event"),
        "{err}"
    );
    assert!(err.contains("HOOKS.yaml"), "{err}");
    let (status, _, _) = hook(&dir, "user_prompt_submit");
    assert_eq!(status, 2);
    let (status, _, _) = hook(&dir, "session_end");
    assert_eq!(
        status, 1,
        "a non-blocking event reports the error without blocking"
    );

    std::fs::remove_file(dir.path().join("HOOKS.yaml")).expect("rm");
    let (status, _, err) = hook(&dir, "pre_tool_use_ls");
    assert_eq!(status, 2, "{err}");

    let out = run_with_stdin(
        dir.hookgate(&["claude-code", "--config", "HOOKS.yaml"]),
        "not json at all",
    );
    assert_eq!(code(&out), 2, "unreadable input fails closed");
}

#[test]
fn the_daemon_answers_the_same_over_http() {
    let dir = dir();
    let d = Daemon::start(&dir, &[]);
    let client = d.client();
    for (name, expected) in expectations() {
        let response = client
            .post(d.url("/v1/claude-code"))
            .header("content-type", "application/json")
            .body(fixture(name))
            .send()
            .expect("POST /v1/claude-code");
        assert_eq!(response.status().as_u16(), 200, "{name}");
        let body: Value = response.json().expect("JSON body");
        let expected = if expected.is_null() {
            json!({})
        } else {
            expected
        };
        assert_eq!(body, expected, "{name}");
    }
    // Unreadable input to a tool hook is answered with a deny, not an error status.
    let body: Value = client
        .post(d.url("/v1/claude-code"))
        .body("{\"hook_event_name\":\"PreToolUse\",")
        .send()
        .expect("POST")
        .json()
        .expect("JSON");
    assert_eq!(
        body["hookSpecificOutput"]["permissionDecision"], "deny",
        "{body}"
    );
}

/// The repository's own policy, run as Claude Code's hook on a `Write` in a project without
/// `.git` below the home directory: the directory the session started in
/// (`CLAUDE_PROJECT_DIR`) is the workspace, so the project's files are the agent's to
/// write, and the home directory's start-up files still are not.
#[test]
fn the_session_s_project_directory_is_the_workspace_without_git() {
    let dir = Dir::new();
    let home = dir.path().join("no-home");
    let project = home.join("app");
    std::fs::create_dir_all(&project).expect("mkdir project");
    let policy = format!("{}/HOOKS.yaml", env!("CARGO_MANIFEST_DIR"));
    let write = |path: &std::path::Path, project_dir: Option<&std::path::Path>| {
        let payload = json!({
            "session_id": "s1", "transcript_path": "/tmp/t.jsonl",
            "cwd": project.display().to_string(), "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": { "file_path": path.display().to_string(), "content": "x\n" },
        });
        let mut cmd = dir.hookgate(&["claude-code", "--config", &policy]);
        match project_dir {
            Some(p) => cmd.env("CLAUDE_PROJECT_DIR", p),
            None => cmd.env_remove("CLAUDE_PROJECT_DIR"),
        };
        let out = run_with_stdin(cmd, &payload.to_string());
        let answer: Value = serde_json::from_str(&stdout(&out)).unwrap_or(Value::Null);
        answer["hookSpecificOutput"]["permissionDecision"]
            .as_str()
            .unwrap_or("allow")
            .to_owned()
    };
    let index = project.join("index.html");
    assert_eq!(write(&index, Some(&project)), "allow");
    // Without it the project is only a directory of the home directory.
    assert_eq!(write(&index, None), "deny");
    // A start-up file of the home directory is not the project's.
    assert_eq!(write(&home.join(".bashrc"), Some(&project)), "deny");
    // The home directory itself is never a workspace.
    assert_eq!(write(&home.join(".bashrc"), Some(&home)), "deny");
}
