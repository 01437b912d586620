//! The daemon's OpenClaw plugin-hook routes: `{event, ctx}` in, the hook's result shape out.

use serde_json::{Value, json};

use crate::daemon::Daemon;
use crate::util::Dir;

const POLICY: &str = r#"version: "1"
hooks:
  - name: no-rm
    point: [turn:tool:pre, subagent:tool:pre]
    match: { tool: exec, commandPattern: "rm\\s+-rf" }
    action: block
    onFailure: { action: block, message: "No recursive rm." }
  - name: subagents-no-browser
    point: subagent:tool:pre
    match: { tool: browser }
    action: block
    onFailure: { action: block, message: "Sub-agents stay off the browser." }
  - name: deploys
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "^deploy" }
    action: require_approval
    description: deploys need a human
  - name: rewrite-spawn
    point: turn:tool:pre
    match: { tool: sessions_spawn }
    action: ./add-origin.sh
  - name: reminder
    point: [turn:pre, subagent:pre]
    action: inject_context
    source: reminder.md
  - name: no-secrets-out
    point: message:sending
    match: { commandPattern: "sk-[A-Za-z0-9]{8}" }
    action: block
"#;

fn hook(d: &Daemon, name: &str, event: Value, session: &str) -> (u16, Value) {
    let response = d
        .client()
        .post(d.url(&format!("/v1/openclaw/{name}")))
        .json(&json!({ "event": event, "ctx": { "sessionKey": session, "agentId": "main" } }))
        .send()
        .expect("POST");
    let status = response.status().as_u16();
    (status, response.json().expect("JSON"))
}

fn start() -> (Dir, Daemon) {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    dir.write("reminder.md", "Be careful with production.");
    let script = dir.write(
        "add-origin.sh",
        "#!/bin/sh\nread -r ctx\necho '{\"passed\":true,\"message\":\"origin added\",\"modifiedParams\":{\"task\":\"t\",\"origin\":\"agent:main:main\"}}'\n",
    );
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let d = Daemon::start(&dir, &[]);
    (dir, d)
}

#[test]
fn before_tool_call_blocks_asks_and_rewrites_params() {
    let (_dir, d) = start();
    let main = "agent:main:telegram:group:-1001:topic:5";
    let (status, r) = hook(
        &d,
        "before_tool_call",
        json!({ "toolName": "exec", "params": { "command": "rm -rf /" } }),
        main,
    );
    assert_eq!(status, 200);
    assert_eq!(
        (r["block"].clone(), r["blockReason"].clone()),
        (json!(true), json!("No recursive rm."))
    );
    assert_eq!(r["hookgate"]["point"], "turn:tool:pre");

    let (_, r) = hook(
        &d,
        "before_tool_call",
        json!({ "toolName": "browser", "params": { "url": "https://x" } }),
        "agent:main:subagent:9",
    );
    assert_eq!(r["blockReason"], "Sub-agents stay off the browser.", "{r}");
    assert_eq!(r["hookgate"]["point"], "subagent:tool:pre");

    let (_, r) = hook(
        &d,
        "before_tool_call",
        json!({ "toolName": "exec", "params": { "command": "deploy prod" } }),
        main,
    );
    assert_eq!(
        r["block"], true,
        "an approval blocks a gateway that does not know it"
    );
    // OpenClaw's own shape; the request's id is in the Decision, for the plugin's onResolution.
    assert_eq!(
        r["requireApproval"],
        json!({
            "title": "hookgate: deploys",
            "description": r["blockReason"],
            "severity": "warning",
            "allowedDecisions": ["allow-once", "allow-always", "deny"],
            "timeoutMs": 60000,
            "timeoutReason": format!(
                "hookgate approval {} timed out (denied)",
                r["hookgate"]["approval"]["id"].as_str().unwrap_or_default()
            ),
        }),
        "{r}"
    );
    assert!(
        r["hookgate"]["approval"]["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("apr_"))
    );

    let (_, r) = hook(
        &d,
        "before_tool_call",
        json!({ "toolName": "sessions_spawn", "params": { "task": "t" } }),
        main,
    );
    assert_eq!(
        r["params"],
        json!({ "task": "t", "origin": "agent:main:main" }),
        "{r}"
    );
    assert!(r.get("block").is_none());
    assert_eq!(
        r["hookgate"]["point"], "turn:tool:pre",
        "spawn:pre first, then the tool point"
    );

    let (_, r) = hook(
        &d,
        "before_tool_call",
        json!({ "toolName": "exec", "params": { "command": "ls" } }),
        main,
    );
    assert_eq!(
        r.as_object().expect("object").keys().collect::<Vec<_>>(),
        ["hookgate"]
    );
}

#[test]
fn prompt_build_prepends_context_and_message_sending_cancels() {
    let (_dir, d) = start();
    let (_, r) = hook(
        &d,
        "before_prompt_build",
        json!({ "prompt": "hello" }),
        "agent:main:main",
    );
    assert_eq!(r["prependContext"], "Be careful with production.", "{r}");
    let (_, r) = hook(
        &d,
        "before_prompt_build",
        json!({ "prompt": "hello" }),
        "agent:main:subagent:3",
    );
    assert_eq!(r["hookgate"]["point"], "subagent:pre");

    let (_, r) = hook(
        &d,
        "message_sending",
        json!({ "content": "key sk-abcdefgh12", "channel": "telegram", "recipient": "u" }),
        "agent:main:main",
    );
    assert_eq!(r["cancel"], true, "{r}");
    let (_, r) = hook(
        &d,
        "message_sending",
        json!({ "content": "all good", "channel": "telegram" }),
        "agent:main:main",
    );
    assert!(r.get("cancel").is_none(), "{r}");
}

#[test]
fn void_hooks_are_evaluated_and_unknown_hooks_are_404() {
    let (_dir, d) = start();
    for (name, event) in [
        (
            "after_tool_call",
            json!({ "toolName": "exec", "params": { "command": "ls" }, "result": "ok" }),
        ),
        ("agent_end", json!({ "response": "done", "messages": [] })),
        ("session_start", json!({ "sessionId": "x" })),
        ("session_end", json!({ "sessionId": "x" })),
        (
            "subagent_spawned",
            json!({ "label": "research", "runId": "r" }),
        ),
        (
            "subagent_ended",
            json!({ "targetSessionKey": "agent:main:subagent:1", "reason": "done" }),
        ),
        (
            "heartbeat_prompt_contribution",
            json!({ "heartbeatName": "hb" }),
        ),
        ("cron_changed", json!({ "action": "started", "jobId": "j" })),
        ("before_compaction", json!({ "messageCount": 3 })),
        ("after_compaction", json!({ "messageCount": 1 })),
        ("message_received", json!({ "from": "u", "content": "hi" })),
        (
            "message_sent",
            json!({ "to": "u", "content": "hi", "success": true }),
        ),
        ("gateway_start", json!({ "port": 1 })),
        ("gateway_stop", json!({ "reason": "x" })),
        (
            "before_install",
            json!({ "targetType": "skill", "targetName": "s", "sourcePath": "/tmp/s" }),
        ),
        (
            "resolve_exec_env",
            json!({ "toolName": "exec", "host": "gateway" }),
        ),
    ] {
        let (status, r) = hook(&d, name, event, "agent:main:main");
        assert_eq!(status, 200, "{name}: {r}");
        assert_eq!(r["hookgate"]["decision"], "allow", "{name}");
    }
    let (status, r) = hook(
        &d,
        "cron_changed",
        json!({ "action": "added", "jobId": "j" }),
        "agent:main:main",
    );
    assert_eq!(
        (status, r),
        (200, json!({ "hookgate": null })),
        "an edit is no run"
    );
    // Hooks this OpenClaw no longer fires are unknown, as any other name.
    for name in [
        "before_everything",
        "before_agent_start",
        "subagent_spawning",
    ] {
        let (status, r) = hook(&d, name, json!({}), "agent:main:main");
        assert_eq!(status, 404, "{name}: {r}");
    }
    let response = d
        .client()
        .post(d.url("/v1/openclaw/agent_end"))
        .body("[1,2]")
        .send()
        .expect("POST");
    assert_eq!(response.status().as_u16(), 400);
}
