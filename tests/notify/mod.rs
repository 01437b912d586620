//! Notifications: the exact Telegram and webhook requests, fallback targets, and decisions
//! that never wait for a notifier, against real HTTP stand-ins on 127.0.0.1.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::daemon::Daemon;
use crate::stand_in::{Reply, StandIn};
use crate::util::{Dir, code, run_with_stdin, stdout};

const OK: &str = r#"{"ok":true,"result":{}}"#;

fn policy(telegram: &StandIn, webhook: Option<&StandIn>) -> String {
    let webhook = webhook
        .map(|w| {
            format!(
                "    webhook: {{ url: \"{}/hook\", tokenEnv: HOOK_WEBHOOK_TOKEN }}\n",
                w.url()
            )
        })
        .unwrap_or_default();
    format!(
        r#"version: "1"
defaults:
  notificationTarget: "telegram:group:-100999:topic:7"
  notify:
    telegram: {{ baseUrl: "{}" }}
{webhook}hooks:
  - name: rm-guard
    point: [turn:tool:pre, subagent:tool:pre]
    match: {{ tool: exec, commandPattern: "rm -rf" }}
    action: block
    notifyUser: true
    onFailure: {{ action: block, message: "Blocked rm" }}
"#,
        telegram.url()
    )
}

fn context(session: &str) -> String {
    json!({
        "sessionKey": session,
        "toolName": "exec",
        "toolArgs": { "command": "rm -rf /" },
    })
    .to_string()
}

/// `hookgate check` of a blocked `rm -rf` in `session`; the Decision JSON.
fn check(dir: &Dir, point: &str, session: &str) -> Value {
    let mut cmd = dir.hookgate(&[
        "check",
        "--config",
        "HOOKS.yaml",
        "--point",
        point,
        "--context",
        "-",
        "--format",
        "json",
    ]);
    cmd.env("TELEGRAM_BOT_TOKEN", "123:secret")
        .env("HOOK_WEBHOOK_TOKEN", "hook-token");
    let out = run_with_stdin(cmd, &context(session));
    assert_eq!(code(&out), 2, "{}", crate::util::stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("decision JSON")
}

#[test]
fn a_block_sends_the_exact_telegram_request_and_lists_the_notice() {
    let telegram = StandIn::start(Reply::Json(200, OK.into()));
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy(&telegram, None));
    let decision = check(
        &dir,
        "turn:tool:pre",
        "agent:main:telegram:group:-100123:topic:42",
    );
    assert_eq!(
        decision["notifications"],
        json!([{
            "hook": "rm-guard",
            "point": "turn:tool:pre",
            "sessionKey": "agent:main:telegram:group:-100123:topic:42",
            "fallbackTarget": "telegram:group:-100999:topic:7",
            "message": "Blocked rm",
        }])
    );
    // `check` waits (briefly) for queued notices before it exits.
    let requests = telegram.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    let r = &requests[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/bot123:secret/sendMessage");
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(
        r.json(),
        json!({ "chat_id": -100123, "text": "Blocked rm", "message_thread_id": 42 })
    );
}

#[test]
fn a_session_without_a_chat_falls_back_to_the_notification_target() {
    let telegram = StandIn::start(Reply::Json(200, OK.into()));
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy(&telegram, None));
    check(&dir, "subagent:tool:pre", "agent:main:subagent:7f3a");
    let requests = telegram.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        requests[0].json(),
        json!({ "chat_id": -100999, "text": "Blocked rm", "message_thread_id": 7 })
    );

    check(&dir, "turn:tool:pre", "agent:main:telegram:987654321");
    let requests = telegram.requests();
    assert_eq!(
        requests[1].json(),
        json!({ "chat_id": 987654321, "text": "Blocked rm" })
    );
}

#[test]
fn the_webhook_gets_the_notice_as_json_with_its_bearer_token() {
    let telegram = StandIn::start(Reply::Json(200, OK.into()));
    let webhook = StandIn::start(Reply::Json(204, String::new()));
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy(&telegram, Some(&webhook)));
    check(&dir, "turn:tool:pre", "agent:main:main");
    let requests = webhook.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/hook"));
    assert_eq!(r.header("authorization"), Some("Bearer hook-token"));
    let body = r.json();
    assert_eq!(body["hook"], "rm-guard");
    assert_eq!(body["point"], "turn:tool:pre");
    assert_eq!(body["sessionKey"], "agent:main:main");
    assert_eq!(body["message"], "Blocked rm");
    assert!(
        body["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')),
        "{body}"
    );
    // The session names no chat, so Telegram used the fallback target.
    assert_eq!(telegram.requests()[0].json()["chat_id"], -100999);
}

#[test]
fn on_failure_notify_sends_the_failure_to_the_user() {
    let telegram = StandIn::start(Reply::Json(200, OK.into()));
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        &format!(
            r#"version: "1"
defaults:
  notify: {{ telegram: {{ baseUrl: "{}" }} }}
hooks:
  - name: checker
    point: turn:tool:pre
    action: exec_script
    script: "echo broken >&2; exit 4"
    onFailure: {{ action: notify }}
"#,
            telegram.url()
        ),
    );
    let mut cmd = dir.hookgate(&[
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
    cmd.env("TELEGRAM_BOT_TOKEN", "t");
    let out = run_with_stdin(cmd, &context("agent:main:telegram:555"));
    assert_eq!(code(&out), 0, "a notify failure passes");
    let decision: Value = serde_json::from_str(&stdout(&out)).expect("decision");
    assert_eq!(
        decision["results"][0]["message"],
        "Action failed (user notified): Script failed (exit 4): broken"
    );
    let text = "Hook action \"exec_script\" failed: Script failed (exit 4): broken";
    assert_eq!(decision["notifications"][0]["message"], text);
    assert_eq!(
        telegram.requests()[0].json(),
        json!({ "chat_id": 555, "text": text })
    );
}

#[test]
fn a_hung_notifier_never_delays_a_decision_and_a_full_queue_drops_and_counts() {
    let telegram = StandIn::start(Reply::Hang);
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy(&telegram, None));
    let mut cmd = Daemon::command(&dir, &[]);
    cmd.env("TELEGRAM_BOT_TOKEN", "t");
    let d = Daemon::spawn(cmd);
    let blocked = json!({
        "point": "turn:tool:pre",
        "context": { "sessionKey": "agent:main:telegram:1", "toolName": "exec",
                     "toolArgs": { "command": "rm -rf /" } },
    });

    // The first notice hangs in delivery (a 10 s client timeout). Decisions must not wait:
    // 20 of them in a row finish long before one delivery attempt could time out.
    let started = Instant::now();
    for _ in 0..20 {
        assert_eq!(d.decide(&blocked)["decision"], "block");
    }
    telegram.wait_for(1, Duration::from_secs(10));
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "decisions waited for the hung notifier: {:?}",
        started.elapsed()
    );

    // 2,000 more notices against a queue of 1,024 behind a hung delivery: some are dropped,
    // counted, and every decision is still a block.
    let batch = Value::Array(vec![blocked; 1000]);
    for _ in 0..2 {
        let (status, decisions) = d.evaluate(&batch);
        assert_eq!(status, 200);
        let decisions = decisions.as_array().expect("array");
        assert!(decisions.iter().all(|x| x["decision"] == "block"));
    }
    let dropped = d.metrics().sum("hookgate_notifications_dropped_total");
    assert!(dropped >= 900.0, "dropped {dropped}");
    assert!(d.stderr_text().contains("notification queue full"));
}
