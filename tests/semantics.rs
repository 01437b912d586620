//! The seed plugin's decision semantics where a decision alone does not show them, end to end
//! through `Engine::evaluate`: what `log` writes and where (targets, templates, the
//! short-circuit's files), the notices `notify` and `notifyUser` send, retry timing, `explain`,
//! the exit code and JSON shape of a decision, generated trace ids and the tool index.
//! Messages are asserted exactly (DESIGN.md, "Decision semantics"). Every case that is only a
//! policy, a point, a context and the decision's fields lives in `testdata/*.json`, run by
//! `tests/corpus.rs`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hookgate::Services;
use hookgate::config::{self, Mode};
use hookgate::internals::Filter;
use hookgate::{Decision, Engine, HookContext, Point, RuleGraph, Step, Verdict};
use hookgate::{Notice, Notifier};
use serde_json::{Value, json};

/// 2026-02-19T08:00:00.000Z in Unix milliseconds.
const TS: f64 = 1_771_488_000_000.0;
const TS_ISO: &str = "2026-02-19T08:00:00.000Z";

fn graph(yaml: &str) -> RuleGraph {
    let policy = config::load_str(yaml, Path::new("t.yaml")).unwrap_or_else(|e| {
        let diags: Vec<String> = e.diagnostics().iter().map(|d| d.to_string()).collect();
        panic!("policy does not load: {e}\n{}", diags.join("\n"))
    });
    RuleGraph::from_policy(&policy)
}

fn engine(yaml: &str) -> Engine {
    Engine::new(Arc::new(graph(yaml)))
}

/// Writes `yaml` to `dir/HOOKS.yaml` and loads it from there, so relative targets resolve
/// against `dir`.
fn engine_in(dir: &Path, yaml: &str) -> Engine {
    let path = dir.join("HOOKS.yaml");
    std::fs::write(&path, yaml).expect("write policy");
    let policy = config::load_file(&path).unwrap_or_else(|e| panic!("policy does not load: {e}"));
    Engine::new(Arc::new(RuleGraph::from_policy(&policy)))
}

fn ctx(v: Value) -> HookContext {
    serde_json::from_value(v).expect("context")
}

fn tool_ctx(tool: &str, command: &str) -> HookContext {
    ctx(json!({
        "sessionKey": "agent:main:main",
        "toolName": tool,
        "toolArgs": { "command": command },
        "timestamp": TS,
    }))
}

fn hooks_fired(d: &Decision) -> Vec<&str> {
    d.results.iter().map(|r| r.hook.as_str()).collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn lines(path: &Path) -> Vec<String> {
    read(path).lines().map(str::to_owned).collect()
}

/// A notifier that remembers every notice: (session key, fallback target, message).
#[derive(Debug, Default)]
struct Recorder(Mutex<Vec<(String, Option<String>, String)>>);

impl Notifier for Recorder {
    fn notify(&self, notice: Notice) {
        self.0.lock().expect("recorder lock").push((
            notice.session_key,
            notice.fallback_target,
            notice.message,
        ));
    }
}

impl Recorder {
    /// Every notice so far, with its fallback target.
    fn taken_full(&self) -> Vec<(String, Option<String>, String)> {
        std::mem::take(&mut *self.0.lock().expect("recorder lock"))
    }

    /// Every notice so far as (session key, message).
    fn taken(&self) -> Vec<(String, String)> {
        self.taken_full()
            .into_iter()
            .map(|(session, _, message)| (session, message))
            .collect()
    }
}

fn engine_with_recorder(yaml: &str) -> (Engine, Arc<Recorder>) {
    let recorder = Arc::new(Recorder::default());
    let services = Arc::new(Services::new(recorder.clone()));
    (
        Engine::with_services(Arc::new(graph(yaml)), services),
        recorder,
    )
}

// ---------------------------------------------------------------------------------------------
// Short-circuit: the hooks after a block do not run
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn short_circuit_stops_in_the_middle_of_many_hooks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut yaml = String::from("version: \"1\"\nhooks:\n");
    for i in 0..64 {
        yaml.push_str(&format!(
            "  - {{ name: before-{i}, point: turn:tool:pre, action: log, target: before.jsonl }}\n"
        ));
    }
    yaml.push_str(
        "  - { name: stop, point: turn:tool:pre, match: { commandPattern: \"rm\\\\s\" }, action: block }\n",
    );
    for i in 0..64 {
        yaml.push_str(&format!(
            "  - {{ name: after-{i}, point: turn:tool:pre, action: log, target: after.jsonl }}\n"
        ));
    }
    let e = engine_in(dir.path(), &yaml);
    assert_eq!(e.graph().hooks().len(), 129);

    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    e.flush().await;
    assert_eq!(d.results.len(), 65, "results stop at the blocker");
    assert_eq!(d.results[64].hook, "stop");
    assert!(!d.results[64].passed);
    assert!(d.results[..64].iter().all(|r| r.passed));
    assert_eq!(d.decision, Verdict::Block);
    assert_eq!(d.hook.as_deref(), Some("stop"));
    assert_eq!(lines(&dir.path().join("before.jsonl")).len(), 64);
    let after = dir.path().join("after.jsonl");
    assert!(
        !after.exists() || read(&after).is_empty(),
        "hooks after the blocker must not run"
    );

    // The same chain without a match on the blocker runs to the end and writes the file, so
    // the check above is not vacuous.
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "ls"))
        .await;
    e.flush().await;
    assert_eq!(d.results.len(), 128);
    assert_eq!(d.decision, Verdict::Allow);
    assert_eq!(lines(&after).len(), 64);
}

// ---------------------------------------------------------------------------------------------
// Filters: explain names the one that failed
// ---------------------------------------------------------------------------------------------

/// A policy with one blocking hook at turn:tool:pre under `match`; whether `c` is blocked.
async fn blocks(e: &Engine, c: &HookContext) -> bool {
    let d = e.evaluate(Point::TurnToolPre, c).await;
    assert_eq!(d.passed, d.decision == Verdict::Allow);
    d.decision == Verdict::Block
}

fn guard(filter: &str) -> Engine {
    engine(&format!(
        "version: 1\nhooks:\n  - name: guard\n    point: turn:tool:pre\n    match: {filter}\n    action: block\n"
    ))
}

#[tokio::test]
async fn filters_and_together_and_explain_names_the_failing_one() {
    let e = guard(
        r#"{ tool: exec, commandPattern: "rm", topicId: 42, isSubAgent: false, sessionPattern: "^agent:main:",
             args: { cwd: "^/work" }, command: { program: rm }, pathGlob: "/" }"#,
    );
    let base = json!({
        "sessionKey": "agent:main:telegram",
        "topicId": 42,
        "toolName": "exec",
        "toolArgs": {"command": "rm -rf /", "cwd": "/work"},
    });
    assert!(blocks(&e, &ctx(base.clone())).await, "all filters match");

    let variants: [(&str, Value, Filter); 8] = [
        (
            "toolArgs",
            json!({"command": "rm -rf /", "cwd": "/tmp"}),
            Filter::Args,
        ),
        (
            "toolArgs",
            json!({"command": "echo rm /", "cwd": "/work"}),
            Filter::Command,
        ),
        (
            "toolArgs",
            json!({"command": "rm -rf /tmp", "cwd": "/work"}),
            Filter::PathGlob,
        ),
        ("toolName", json!("bash"), Filter::Tool),
        ("toolArgs", json!({"command": "ls"}), Filter::CommandPattern),
        ("topicId", json!(43), Filter::TopicId),
        (
            "sessionKey",
            json!("agent:main:subagent:x"),
            Filter::IsSubAgent,
        ),
        (
            "sessionKey",
            json!("agent:ops:telegram"),
            Filter::SessionPattern,
        ),
    ];
    for (field, value, filter) in variants {
        let mut v = base.clone();
        v[field] = value;
        let c = ctx(v);
        assert!(!blocks(&e, &c).await, "{field} differs");
        let (d, steps) = e.explain(Point::TurnToolPre, &c).await;
        assert_eq!(d.decision, Verdict::Allow);
        if filter == Filter::Tool {
            // A hook filtered on another tool is not even a candidate.
            assert!(steps.is_empty(), "{steps:?}");
        } else {
            assert_eq!(
                steps,
                [Step::Skipped {
                    hook: "guard".into(),
                    filter
                }],
                "{field}"
            );
            assert_eq!(filter.as_str(), filter_name(filter));
        }
    }
}

fn filter_name(f: Filter) -> &'static str {
    match f {
        Filter::Tool => "tool",
        Filter::CommandPattern => "commandPattern",
        Filter::TopicId => "topicId",
        Filter::IsSubAgent => "isSubAgent",
        Filter::SessionPattern => "sessionPattern",
        Filter::Unparseable => "unparseable",
        Filter::Command => "command",
        Filter::Args => "args",
        Filter::PathGlob => "pathGlob",
        Filter::ReadGlob => "readGlob",
        Filter::PathIn => "pathIn",
        Filter::Custom => "custom",
    }
}

// ---------------------------------------------------------------------------------------------
// onFailure
// ---------------------------------------------------------------------------------------------

const RM_BLOCKED: &str = "Action blocked by lifecycle hook. | Tool: exec | Command: rm -rf / | Hook point: turn:tool:pre";

fn on_failure_policy(on_failure: &str) -> String {
    format!(
        r#"
version: 1
hooks:
  - name: gate
    point: turn:tool:pre
    action: block
    onFailure: {on_failure}
  - name: later
    point: turn:tool:pre
    action: block
    onFailure: {{ action: continue, message: later ran }}
"#
    )
}

#[tokio::test]
async fn notify_tells_the_user_and_passes() {
    let (e, recorder) = engine_with_recorder(&on_failure_policy("{ action: notify }"));
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(d.decision, Verdict::Allow);
    assert_eq!(hooks_fired(&d), ["gate", "later"]);
    assert!(d.results[0].passed);
    assert_eq!(
        d.results[0].message.as_deref(),
        Some(format!("Action failed (user notified): {RM_BLOCKED}").as_str())
    );
    assert_eq!(
        recorder.taken(),
        [(
            "agent:main:main".to_owned(),
            format!("Hook action \"block\" failed: {RM_BLOCKED}")
        )]
    );

    // With a message, the user is sent that message.
    let (e, recorder) = engine_with_recorder(&on_failure_policy(
        "{ action: notify, message: \"stopped {tool} in {sessionKey}\" }",
    ));
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(
        d.results[0].message.as_deref(),
        Some("Action failed (user notified): stopped exec in agent:main:main")
    );
    assert_eq!(
        recorder.taken(),
        [(
            "agent:main:main".to_owned(),
            "stopped exec in agent:main:main".to_owned()
        )]
    );
}

#[tokio::test]
async fn retry_backs_off_then_passes_with_the_error() {
    let e = engine(&on_failure_policy("{ action: retry, retries: 2 }"));
    let started = Instant::now();
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(300),
        "waits 100 + 200 ms, took {elapsed:?}"
    );
    assert_eq!(d.decision, Verdict::Allow);
    assert_eq!(hooks_fired(&d), ["gate", "later"]);
    assert!(d.results[0].passed);
    assert_eq!(
        d.results[0].message.as_deref(),
        Some(format!("Action failed after 2 retries: {RM_BLOCKED}").as_str())
    );
    assert!(
        d.results[0].duration_ms >= 300.0,
        "{}",
        d.results[0].duration_ms
    );
}

#[tokio::test]
async fn retry_defaults_to_three_retries() {
    let e = engine(&on_failure_policy("{ action: retry }"));
    let started = Instant::now();
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_millis(700),
        "waits 100 + 200 + 400 ms, took {elapsed:?}"
    );
    assert_eq!(
        d.results[0].message.as_deref(),
        Some(format!("Action failed after 3 retries: {RM_BLOCKED}").as_str())
    );
    assert!(d.passed);
}

#[tokio::test]
async fn defaults_on_failure_is_not_consulted_when_an_action_returns_passed_false() {
    for defaults in [
        "{ action: continue }",
        "{ action: notify }",
        "{ action: retry, retries: 5, message: never }",
    ] {
        let (e, recorder) = engine_with_recorder(&format!(
            r#"
version: 1
defaults:
  onFailure: {defaults}
hooks:
  - name: gate
    point: turn:tool:pre
    action: block
  - name: later
    point: turn:tool:pre
    action: log
"#
        ));
        let started = Instant::now();
        let d = e
            .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
            .await;
        assert_eq!(d.decision, Verdict::Block, "defaults {defaults}");
        assert!(!d.passed);
        assert_eq!(
            d.message.as_deref(),
            Some(RM_BLOCKED),
            "defaults {defaults}"
        );
        assert_eq!(d.hook.as_deref(), Some("gate"));
        assert_eq!(hooks_fired(&d), ["gate"]);
        assert!(recorder.taken().is_empty(), "defaults {defaults}");
        // A retry policy would take 3.1 s; the block is immediate.
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "defaults {defaults}"
        );
    }
}

#[tokio::test]
async fn notify_user_on_a_block_notifies_with_the_block_message() {
    let (e, recorder) = engine_with_recorder(
        "version: 1\nhooks:\n  - { point: turn:tool:pre, action: block, notifyUser: true }\n",
    );
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(d.decision, Verdict::Block);
    assert_eq!(
        recorder.taken(),
        [("agent:main:main".to_owned(), RM_BLOCKED.to_owned())]
    );

    let (e, recorder) = engine_with_recorder(
        "version: 1\nhooks:\n  - { point: turn:tool:pre, action: block, onFailure: { action: block, notifyUser: true, message: \"no {tool}\" } }\n",
    );
    e.evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(
        recorder.taken(),
        [("agent:main:main".to_owned(), "no exec".to_owned())]
    );

    let (e, recorder) =
        engine_with_recorder("version: 1\nhooks:\n  - { point: turn:tool:pre, action: block }\n");
    e.evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert!(
        recorder.taken().is_empty(),
        "no notifyUser, no notification"
    );
}

#[tokio::test]
async fn notices_carry_the_default_notification_target_as_fallback() {
    let (e, recorder) = engine_with_recorder(
        r#"
version: 1
defaults: { notificationTarget: "telegram:123" }
hooks:
  - { point: turn:tool:pre, action: block, onFailure: { action: notify, message: "careful" } }
"#,
    );
    e.evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(
        recorder.taken_full(),
        [(
            "agent:main:main".to_owned(),
            Some("telegram:123".to_owned()),
            "careful".to_owned()
        )]
    );
    let (e, recorder) = engine_with_recorder(
        "version: 1\nhooks:\n  - { point: turn:tool:pre, action: block, notifyUser: true }\n",
    );
    e.evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(
        recorder.taken_full(),
        [("agent:main:main".to_owned(), None, RM_BLOCKED.to_owned())]
    );
}

// ---------------------------------------------------------------------------------------------
// log
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn log_passes_and_writes_one_jsonl_line_with_the_seed_keys_in_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let target = dir.path().join("audit.jsonl");
    let e = engine_in(
        dir.path(),
        &format!(
            "version: 1\nhooks:\n  - {{ name: audit, point: [turn:tool:pre, cron:pre], action: log, target: {:?} }}\n",
            target.display().to_string()
        ),
    );
    // Fields given in another order than the line's.
    let c = ctx(json!({
        "cronJob": "nightly",
        "subagentLabel": "helper",
        "prompt": "list files",
        "toolArgs": {"command": "ls -la", "n": 3, "deep": {"k": [1, "v"]}},
        "toolName": "exec",
        "topicId": 42,
        "sessionKey": "agent:main:subagent:x",
        "timestamp": TS,
        "response": "not logged",
        "traceId": "not logged either",
    }));
    let d = e.evaluate(Point::TurnToolPre, &c).await;
    assert_eq!(d.decision, Verdict::Allow);
    assert_eq!(d.results.len(), 1);
    assert_eq!(d.results[0].hook, "audit");
    assert_eq!(d.results[0].action, "log");
    assert!(d.results[0].passed);
    assert_eq!(
        d.results[0].message.as_deref(),
        Some("Logged event at turn:tool:pre")
    );
    e.flush().await;
    assert_eq!(
        lines(&target),
        [format!(
            r#"{{"timestamp":"{TS_ISO}","point":"turn:tool:pre","sessionKey":"agent:main:subagent:x","topicId":42,"tool":"exec","args":{{"command":"ls -la","n":3,"deep":{{"k":[1,"v"]}}}},"prompt":"list files","subagent":"helper","cronJob":"nightly"}}"#
        )]
    );

    // A second event appends a second line; the message names the point evaluated.
    let d = e
        .evaluate(
            Point::CronPre,
            &ctx(json!({"sessionKey": "cron:1", "topicId": "t-1", "timestamp": TS + 1.0})),
        )
        .await;
    assert_eq!(
        d.results[0].message.as_deref(),
        Some("Logged event at cron:pre")
    );
    e.flush().await;
    let got = lines(&target);
    assert_eq!(got.len(), 2);
    assert_eq!(
        got[1],
        r#"{"timestamp":"2026-02-19T08:00:00.001Z","point":"cron:pre","sessionKey":"cron:1","topicId":"t-1"}"#
    );
}

#[tokio::test]
async fn log_leaves_out_absent_fields() {
    let dir = tempfile::tempdir().expect("tempdir");
    let e = engine_in(
        dir.path(),
        "version: 1\nhooks:\n  - { point: turn:pre, action: log, target: out.jsonl }\n",
    );
    let mut c = HookContext::new("s");
    c.timestamp = Some(TS);
    e.evaluate(Point::TurnPre, &c).await;
    e.flush().await;
    assert_eq!(
        lines(&dir.path().join("out.jsonl")),
        [format!(
            r#"{{"timestamp":"{TS_ISO}","point":"turn:pre","sessionKey":"s"}}"#
        )]
    );
}

#[tokio::test]
async fn log_cuts_string_arguments_to_100_and_the_prompt_to_200_characters() {
    let dir = tempfile::tempdir().expect("tempdir");
    let e = engine_in(
        dir.path(),
        "version: 1\nhooks:\n  - { point: turn:tool:pre, action: log, target: out.jsonl }\n",
    );
    let c = ctx(json!({
        "sessionKey": "s",
        "timestamp": TS,
        "toolName": "write",
        "toolArgs": {
            "long": "L".repeat(150),
            "exact": "E".repeat(100),
            "wide": "ü".repeat(101),
            "number": 12345678901234567_u64,
            "list": ["x".repeat(150)],
        },
        "prompt": "P".repeat(250),
    }));
    e.evaluate(Point::TurnToolPre, &c).await;
    let c = ctx(json!({"sessionKey": "s", "timestamp": TS, "prompt": "Q".repeat(200)}));
    e.evaluate(Point::TurnToolPre, &c).await;
    e.flush().await;

    let got = lines(&dir.path().join("out.jsonl"));
    assert_eq!(got.len(), 2);
    let first: Value = serde_json::from_str(&got[0]).expect("json line");
    assert_eq!(first["args"]["long"], format!("{}…", "L".repeat(100)));
    assert_eq!(first["args"]["exact"], "E".repeat(100));
    assert_eq!(first["args"]["wide"], format!("{}…", "ü".repeat(100)));
    assert_eq!(first["args"]["number"], json!(12345678901234567_u64));
    assert_eq!(first["prompt"], format!("{}…", "P".repeat(200)));
    let second: Value = serde_json::from_str(&got[1]).expect("json line");
    assert_eq!(second["prompt"], "Q".repeat(200));
}

#[tokio::test]
async fn log_timestamp_is_the_context_time_in_iso_8601() {
    let dir = tempfile::tempdir().expect("tempdir");
    let e = engine_in(
        dir.path(),
        "version: 1\nhooks:\n  - { point: turn:pre, action: log, target: out.jsonl }\n",
    );
    for ms in [TS + 123.9, 0.0, 1_500.0] {
        let mut c = HookContext::new("s");
        c.timestamp = Some(ms);
        e.evaluate(Point::TurnPre, &c).await;
    }
    e.flush().await;
    let stamps: Vec<String> = lines(&dir.path().join("out.jsonl"))
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("json line");
            v["timestamp"].as_str().expect("timestamp").to_owned()
        })
        .collect();
    assert_eq!(
        stamps,
        [
            "2026-02-19T08:00:00.123Z",
            "1970-01-01T00:00:00.000Z",
            "1970-01-01T00:00:01.500Z"
        ]
    );
}

#[tokio::test]
async fn relative_log_targets_resolve_against_the_policy_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let policy_dir = dir.path().join("conf");
    std::fs::create_dir(&policy_dir).expect("mkdir");
    let e = engine_in(
        &policy_dir,
        "version: 1\nhooks:\n  - { point: turn:pre, action: log, target: \"logs/deep/{topicId}/events.jsonl\" }\n",
    );
    let c = ctx(json!({"sessionKey": "s", "topicId": 42, "timestamp": TS}));
    let d = e.evaluate(Point::TurnPre, &c).await;
    assert!(d.passed);
    e.flush().await;
    let file: PathBuf = policy_dir.join("logs/deep/42/events.jsonl");
    assert_eq!(lines(&file).len(), 1, "parent directories are created");
    assert!(
        !Path::new("logs/deep/42/events.jsonl").exists(),
        "not relative to the cwd"
    );
}

#[tokio::test]
async fn an_unwritable_log_target_still_passes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let blocker = dir.path().join("plain-file");
    std::fs::write(&blocker, "keep").expect("write");
    let target = blocker.join("sub/out.jsonl");
    let e = engine_in(
        dir.path(),
        &format!(
            "version: 1\nhooks:\n  - {{ name: l, point: turn:pre, action: log, target: {:?} }}\n  - {{ name: after, point: turn:pre, action: log }}\n",
            target.display().to_string()
        ),
    );
    let d = e.evaluate(Point::TurnPre, &HookContext::new("s")).await;
    e.flush().await;
    assert_eq!(d.decision, Verdict::Allow);
    assert_eq!(hooks_fired(&d), ["l", "after"]);
    assert!(d.results[0].passed);
    assert_eq!(
        d.results[0].message.as_deref(),
        Some("Logged event at turn:pre")
    );
    assert_eq!(read(&blocker), "keep");
}

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn template_variables_are_substituted_in_the_target() {
    let dir = tempfile::tempdir().expect("tempdir");
    let e = engine_in(
        dir.path(),
        "version: 1\nhooks:\n  - point: turn:tool:pre\n    action: log\n    target: \"{point}/{tool}/{topicId}/{sessionKey}/{timestamp}-{x}.jsonl\"\n",
    );
    let c = ctx(json!({
        "sessionKey": "agent:main:main",
        "topicId": 7,
        "toolName": "exec",
        "toolArgs": {"command": "ls"},
        "timestamp": TS,
    }));
    e.evaluate(Point::TurnToolPre, &c).await;
    e.flush().await;
    let file = dir.path().join(format!(
        "turn:tool:pre/exec/7/agent:main:main/{TS_ISO}-{{x}}.jsonl"
    ));
    assert_eq!(lines(&file).len(), 1, "{} is missing", file.display());
}

#[tokio::test]
async fn substituted_values_cannot_move_a_log_target_out_of_its_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let policy_dir = dir.path().join("conf");
    std::fs::create_dir(&policy_dir).expect("mkdir");
    let e = engine_in(
        &policy_dir,
        "version: 1\nhooks:\n  - { point: turn:tool:pre, action: log, target: \"logs/{sessionKey}/{topicId}-{tool}.jsonl\" }\n",
    );
    let c = ctx(json!({
        "sessionKey": "../../escape",
        "topicId": "..",
        "toolName": "a/b\\c",
        "timestamp": TS,
    }));
    let d = e.evaluate(Point::TurnToolPre, &c).await;
    assert!(d.passed);
    e.flush().await;
    let file = policy_dir.join("logs/.._.._escape/_-a_b_c.jsonl");
    assert_eq!(lines(&file).len(), 1, "{} is missing", file.display());
    assert!(!dir.path().join("escape").exists());
    // The line itself keeps the values as given.
    let line: Value = serde_json::from_str(&lines(&file)[0]).expect("json line");
    assert_eq!(line["sessionKey"], "../../escape");
}

// ---------------------------------------------------------------------------------------------
// Audit mode
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn audit_mode_records_a_would_be_block_and_allows() {
    let (e, recorder) = engine_with_recorder(
        r#"
version: 1
defaults: { mode: audit }
hooks:
  - { name: rm-guard, point: turn:tool:pre, action: block, notifyUser: true }
  - { name: second, point: turn:tool:pre, action: block, onFailure: { action: block, message: "second {tool}" } }
"#,
    );
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(d.decision, Verdict::Allow);
    assert!(d.passed);
    assert_eq!(d.mode, Mode::Audit);
    assert_eq!(d.message, None);
    assert_eq!(d.hook, None);
    assert_eq!(
        hooks_fired(&d),
        ["rm-guard", "second"],
        "the chain continues"
    );
    assert!(d.results.iter().all(|r| r.passed && r.audit));
    assert_eq!(d.results[0].message.as_deref(), Some(RM_BLOCKED));
    assert_eq!(d.results[1].message.as_deref(), Some("second exec"));
    assert!(
        recorder.taken().is_empty(),
        "an audited block notifies nobody"
    );

    let json = serde_json::to_value(&d).expect("decision json");
    assert_eq!(json["mode"], "audit");
    assert_eq!(json["results"][0]["audit"], true);
}

// ---------------------------------------------------------------------------------------------
// The decision's shape, generated trace ids, the tool index
// ---------------------------------------------------------------------------------------------

/// The fields the corpus compares are in `testdata/decision.json`; here, what it does not:
/// the exit code, the fields a plain block leaves empty, key order and `durationMs`.
#[tokio::test]
async fn a_block_exits_2_and_its_json_keeps_the_seed_key_order() {
    let e = engine(
        r#"
version: 1
hooks:
  - { name: audit, point: turn:tool:pre, action: block, onFailure: { action: continue, message: seen } }
  - { name: rm-guard, point: turn:tool:pre, action: block, onFailure: { action: block, message: "Blocked: recursive rm" } }
"#,
    );
    let mut c = tool_ctx("exec", "rm -rf /");
    c.trace_id = Some("trace-from-gateway".into());
    let d = e.evaluate(Point::TurnToolPre, &c).await;
    assert_eq!(d.point, Point::TurnToolPre);
    assert_eq!(d.exit_code(), 2);
    assert!(d.injected_context.is_empty());
    assert_eq!(d.params, None);
    assert_eq!(d.approval, None);

    let json = serde_json::to_value(&d).expect("decision json");
    let keys: Vec<&str> = json
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "point",
            "decision",
            "passed",
            "message",
            "hook",
            "mode",
            "results",
            "injectedContext",
            "params",
            "approval",
            "traceId"
        ]
    );
    assert_eq!(json["point"], "turn:tool:pre");
    let result = json["results"][1].as_object().expect("result object");
    let keys: Vec<&str> = result.keys().map(String::as_str).collect();
    assert_eq!(keys, ["hook", "action", "passed", "message", "durationMs"]);
    assert!(result["durationMs"].as_f64().expect("durationMs") >= 0.0);
}

#[tokio::test]
async fn an_allow_exits_0() {
    let e = engine(
        "version: 1\nhooks:\n  - { point: turn:pre, action: block, match: { tool: exec } }\n",
    );
    let d = e.evaluate(Point::TurnPre, &HookContext::new("s")).await;
    assert_eq!(d.decision, Verdict::Allow);
    assert_eq!(d.exit_code(), 0);
}

fn assert_generated_trace_id(id: &str, topic: &str) {
    let prefix = format!("t{topic}-");
    let rest = id
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{id:?} does not start with {prefix:?}"));
    let (ms, suffix) = rest
        .rsplit_once('-')
        .unwrap_or_else(|| panic!("{id:?} has no suffix"));
    assert!(
        !ms.is_empty() && ms.bytes().all(|b| b.is_ascii_digit()),
        "{id:?}"
    );
    assert_eq!(suffix.len(), 4, "{id:?}");
    assert!(
        suffix
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()),
        "{id:?}"
    );
}

#[tokio::test]
async fn trace_id_is_generated_from_the_topic_when_absent() {
    let e = engine("version: 1\nhooks: []\n");
    let d = e
        .evaluate(
            Point::TurnPre,
            &ctx(json!({"sessionKey": "s", "topicId": 42})),
        )
        .await;
    assert_generated_trace_id(&d.trace_id, "42");
    let d = e
        .evaluate(
            Point::TurnPre,
            &ctx(json!({"sessionKey": "s", "topicId": "general"})),
        )
        .await;
    assert_generated_trace_id(&d.trace_id, "general");
    let d = e.evaluate(Point::TurnPre, &HookContext::new("s")).await;
    assert_generated_trace_id(&d.trace_id, "none");
}

/// Which tools a tool list matches is in `testdata/filters.json`; here, the index.
#[tokio::test]
async fn a_tool_list_is_indexed_under_each_of_its_tools_once() {
    let e = engine(
        "version: 1\nhooks:\n  - { name: shells, point: turn:tool:pre, match: { tool: [exec, Bash, exec], commandPattern: \"^rm\" }, action: block }\n",
    );
    // Named twice, indexed once: the hook is one candidate, not two.
    assert_eq!(
        e.graph()
            .candidates_for_tool(Point::TurnToolPre, Some("exec"))
            .count(),
        1
    );
    assert_eq!(
        e.graph()
            .candidates_for_tool(Point::TurnToolPre, Some("Read"))
            .count(),
        0
    );
}
