//! summarize_and_log and notify_user against a real HTTP stand-in for the LLM API: an answer,
//! an error, garbage, and a hang; both API shapes.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::stand_in::{Reply, StandIn};
use crate::util::{Dir, code, run_with_stdin, stderr, stdout};

const OPENAI_ANSWER: &str =
    r#"{"choices":[{"message":{"role":"assistant","content":"• deploy plan approved"}}]}"#;

fn summarize_policy(llm: &StandIn, provider: &str, timeout_ms: u64) -> String {
    format!(
        r#"version: "1"
defaults:
  model: test-model
  llm: {{ provider: {provider}, baseUrl: "{}/v1", apiKeyEnv: TEST_LLM_KEY, timeoutMs: {timeout_ms} }}
hooks:
  - name: summarize
    point: turn:post
    action: summarize_and_log
    target: "summaries/{{sessionKey}}.jsonl"
"#,
        llm.url()
    )
}

/// Runs `hookgate check` at turn:post; returns the decision and how long it took.
fn check(dir: &Dir) -> (Value, Duration) {
    let mut cmd = dir.hookgate(&[
        "check",
        "--config",
        "HOOKS.yaml",
        "--point",
        "turn:post",
        "--context",
        "-",
        "--format",
        "json",
    ]);
    cmd.env("TEST_LLM_KEY", "sk-test");
    let context = json!({
        "sessionKey": "agent:main:main",
        "prompt": "ship the deploy plan",
        "response": "Plan approved; deploying.",
        "timestamp": 1_700_000_000_000u64,
    });
    let started = Instant::now();
    let out = run_with_stdin(cmd, &context.to_string());
    let took = started.elapsed();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    (serde_json::from_str(&stdout(&out)).expect("decision"), took)
}

fn entries(dir: &Path) -> Vec<Value> {
    let text =
        std::fs::read_to_string(dir.join("summaries/agent:main:main.jsonl")).expect("summary file");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("JSONL"))
        .collect()
}

const FALLBACK: &str = "Event at turn:post in session agent:main:main at 2023-11-14T22:13:20.000Z";

#[test]
fn an_openai_compatible_answer_is_logged_with_the_exact_request() {
    let llm = StandIn::start(Reply::Json(200, OPENAI_ANSWER.into()));
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &summarize_policy(&llm, "openai", 5000));
    let (decision, _) = check(&dir);
    assert_eq!(
        decision["results"][0]["message"],
        "Summarized and logged event at turn:post"
    );
    assert_eq!(
        entries(dir.path()),
        [json!({
            "timestamp": "2023-11-14T22:13:20.000Z",
            "point": "turn:post",
            "sessionKey": "agent:main:main",
            "summary": "• deploy plan approved",
            "model": "test-model",
        })]
    );
    let request = &llm.requests()[0];
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(request.header("authorization"), Some("Bearer sk-test"));
    let body = request.json();
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["messages"][0]["role"], "system");
    let user = body["messages"][1]["content"]
        .as_str()
        .expect("user message");
    assert!(user.contains("Hook point: turn:post."), "{user}");
    assert!(
        user.contains("User message: \"ship the deploy plan\""),
        "{user}"
    );
    assert!(
        user.contains("Agent response: \"Plan approved; deploying.\""),
        "{user}"
    );
}

#[test]
fn the_anthropic_messages_api_is_spoken_too() {
    let llm = StandIn::start(Reply::Json(
        200,
        r#"{"content":[{"type":"text","text":"summary from claude"}]}"#.into(),
    ));
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &summarize_policy(&llm, "anthropic", 5000));
    check(&dir);
    assert_eq!(entries(dir.path())[0]["summary"], "summary from claude");
    let request = &llm.requests()[0];
    assert_eq!(request.path, "/v1/v1/messages", "baseUrl is used as given");
    assert_eq!(request.header("x-api-key"), Some("sk-test"));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    assert!(request.json()["system"].as_str().is_some());
}

#[test]
fn errors_garbage_and_empty_answers_fall_back_and_pass() {
    for reply in [
        Reply::Json(500, r#"{"error":"overloaded"}"#.into()),
        Reply::Json(200, "this is not json".into()),
        Reply::Json(200, r#"{"choices":[]}"#.into()),
    ] {
        let llm = StandIn::start(reply.clone());
        let dir = Dir::new();
        dir.write("HOOKS.yaml", &summarize_policy(&llm, "openai", 5000));
        let (decision, _) = check(&dir);
        assert_eq!(decision["decision"], "allow", "{reply:?}");
        assert_eq!(entries(dir.path())[0]["summary"], FALLBACK, "{reply:?}");
        assert_eq!(llm.requests().len(), 1);
    }
}

#[test]
fn a_hung_llm_holds_the_decision_no_longer_than_its_timeout() {
    let llm = StandIn::start(Reply::Hang);
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &summarize_policy(&llm, "openai", 300));
    let (decision, took) = check(&dir);
    assert_eq!(decision["decision"], "allow");
    assert_eq!(entries(dir.path())[0]["summary"], FALLBACK);
    // The stand-in never answers: only the 300 ms timeout can have ended the call.
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(
        decision["results"][0]["durationMs"]
            .as_f64()
            .expect("duration")
            >= 300.0
    );
}

#[test]
fn no_endpoint_means_the_fallback_summary() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\nhooks:\n  - { point: turn:post, action: summarize_and_log, target: \"summaries/{sessionKey}.jsonl\" }\n",
    );
    check(&dir);
    let entry = &entries(dir.path())[0];
    assert_eq!(entry["summary"], FALLBACK);
    assert_eq!(entry["model"], "default");
}

#[test]
fn notify_user_sends_a_summary_or_the_plain_notice() {
    let llm = StandIn::start(Reply::Json(200, OPENAI_ANSWER.into()));
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        &format!(
            r#"version: "1"
defaults:
  llm: {{ baseUrl: "{}/v1" }}
hooks:
  - {{ name: done-llm, point: subagent:post, action: notify_user, model: m }}
  - {{ name: done-plain, point: subagent:post, action: notify_user }}
"#,
            llm.url()
        ),
    );
    let mut cmd = dir.hookgate(&[
        "check",
        "--config",
        "HOOKS.yaml",
        "--point",
        "subagent:post",
        "--context",
        "-",
        "--format",
        "json",
    ]);
    cmd.env_remove("TELEGRAM_BOT_TOKEN");
    let context = json!({
        "sessionKey": "agent:main:subagent:42",
        "response": "Refactored the parser.",
        "raw": { "success": true, "durationMs": 12345 },
    });
    let out = run_with_stdin(cmd, &context.to_string());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let decision: Value = serde_json::from_str(&stdout(&out)).expect("decision");
    assert_eq!(
        decision["results"][0]["message"],
        "Notification sent to session: agent:main:subagent:42"
    );
    let notices = decision["notifications"].as_array().expect("notifications");
    assert_eq!(
        notices[0]["message"],
        "✅ Sub-agent done (12.3s)\n\n• deploy plan approved"
    );
    assert_eq!(
        notices[1]["message"],
        "✅ Sub-agent finished (12.3s)\n\nRefactored the parser."
    );
}
