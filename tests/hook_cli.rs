//! `hookgate hook --gateway <name>` and `hookgate init <gateway>` as a gateway and a new user
//! run them: fail closed on bad input, a missing policy or an unreachable daemon (exit 2,
//! never another non-zero code, for events that can be blocked); init merges without losing
//! what is there, refuses to overwrite what it cannot read, and writes hook commands that
//! block when the hookgate binary is gone.

use std::process::Command;

use serde_json::Value;

use crate::util::{Dir, code, run, run_with_stdin, stderr, stdout};

/// A tool-call payload per gateway (and the `--event` Copilot CLI needs).
const TOOL_CALLS: &[(&str, Option<&str>, &str)] = &[
    (
        "claude-code",
        None,
        r#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
    ),
    (
        "gemini",
        None,
        r#"{"hook_event_name":"BeforeTool","session_id":"s","cwd":"/w","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#,
    ),
    (
        "codex",
        None,
        r#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
    ),
    (
        "copilot",
        Some("preToolUse"),
        r#"{"timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#,
    ),
    (
        "cursor",
        None,
        r#"{"hook_event_name":"beforeShellExecution","conversation_id":"c","workspace_roots":["/w"],"command":"ls","cwd":"/w"}"#,
    ),
    (
        "opencode",
        None,
        r#"{"event":"tool.execute.before","sessionID":"s","tool":"bash","args":{"command":"ls"},"directory":"/w"}"#,
    ),
];

fn hook(dir: &Dir, gateway: &str, event: Option<&str>, extra: &[&str]) -> Command {
    let mut args = vec!["hook", "--gateway", gateway];
    if let Some(event) = event {
        args.extend(["--event", event]);
    }
    args.extend_from_slice(extra);
    dir.hookgate(&args)
}

#[test]
fn every_gateway_fails_closed() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", "version: \"1\"\nhooks: []\n");
    for (gateway, event, payload) in TOOL_CALLS {
        // A good payload on an empty policy passes.
        let out = run_with_stdin(
            hook(&dir, gateway, *event, &["--config", "HOOKS.yaml"]),
            payload,
        );
        assert_eq!(code(&out), 0, "{gateway}: {}", stderr(&out));
        // Garbage, a tool call without its command, a missing policy, an unreachable daemon:
        // each blocks with exit 2 and says why.
        let no_command = payload
            .replace("\"command\"", "\"cmd\"")
            .replace("\\\"command\\\"", "\\\"cmd\\\"");
        for (what, input, extra) in [
            ("garbage", "{\"not json", vec!["--config", "HOOKS.yaml"]),
            (
                "no command",
                no_command.as_str(),
                vec!["--config", "HOOKS.yaml"],
            ),
            ("no policy", *payload, vec!["--config", "missing.yaml"]),
            (
                "no daemon",
                *payload,
                vec!["--daemon", "http://127.0.0.1:9"],
            ),
        ] {
            let out = run_with_stdin(hook(&dir, gateway, *event, &extra), input);
            assert_eq!(code(&out), 2, "{gateway}, {what}: {}", stderr(&out));
            assert!(
                stderr(&out).contains("hookgate could not evaluate this event"),
                "{gateway}, {what}: {}",
                stderr(&out)
            );
        }
    }
    let out = run(dir.hookgate(&["hook", "--gateway", "nope"]));
    assert_ne!(code(&out), 0);
    assert!(
        stderr(&out).contains("unknown gateway `nope`"),
        "{}",
        stderr(&out)
    );
}

/// A gateway that times a hook out lets the call run (Copilot CLI, Claude Code), so a hook
/// that cannot decide in time answers with a block itself, at `--deadline`: here a policy
/// whose action takes 5 s, and a gateway that never closes the hook's stdin.
#[test]
fn a_hook_that_cannot_decide_in_time_blocks_at_its_deadline() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\nhooks:\n  - name: slow\n    point: [turn:tool:pre, turn:tool:post]\n    action: exec_script\n    script: \"sleep 5\"\n",
    );
    for (gateway, event, payload) in TOOL_CALLS {
        let started = std::time::Instant::now();
        let out = run_with_stdin(
            hook(
                &dir,
                gateway,
                *event,
                &["--config", "HOOKS.yaml", "--deadline", "1"],
            ),
            payload,
        );
        assert_eq!(code(&out), 2, "{gateway}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("could not decide within its deadline (1 s"),
            "{gateway}: {}",
            stderr(&out)
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(4),
            "{gateway}"
        );
    }
    // An event that only reports gets the reporting failure (exit 1, a warning), not a block.
    let post = r#"{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"ok"}"#;
    let out = run_with_stdin(
        hook(
            &dir,
            "claude-code",
            None,
            &["--config", "HOOKS.yaml", "--deadline", "1"],
        ),
        post,
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));

    // Stdin held open: the payload never ends, the deadline still answers.
    let mut child = hook(
        &dir,
        "claude-code",
        None,
        &["--config", "HOOKS.yaml", "--deadline", "1"],
    )
    .stdin(std::process::Stdio::piped())
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .expect("spawn hookgate");
    let _held = child.stdin.take();
    let out = child.wait_with_output().expect("wait");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("deadline"), "{}", stderr(&out));
}

/// Copilot CLI's `subagentStart` (1.0.102) can only be given context for the sub-agent's
/// first prompt: a policy's context reaches it, and a block there (which Copilot cannot
/// enforce) is not answered with a refusal Copilot would misread, nor fails the hook.
#[test]
fn copilot_sub_agent_start_gets_context_and_is_never_refused() {
    let dir = Dir::new();
    dir.write("briefing.txt", "report in haiku");
    dir.write(
        "brief.yaml",
        "version: \"1\"\nhooks:\n  - name: brief\n    point: [subagent:spawn:pre]\n    match: { sessionPattern: \"^copilot:f295$\" }\n    action: inject_context\n    source: briefing.txt\n",
    );
    dir.write(
        "block.yaml",
        "version: \"1\"\nhooks:\n  - name: no-spawn\n    point: [subagent:spawn:pre]\n    action: block\n",
    );
    let payload = r#"{"sessionId":"f295","timestamp":1,"cwd":"/w","transcriptPath":"/t/f295.jsonl","agentName":"task","agentDisplayName":"Task"}"#;
    let ask = |policy: &str| {
        run_with_stdin(
            hook(
                &dir,
                "copilot",
                Some("subagentStart"),
                &["--config", policy],
            ),
            payload,
        )
    };
    let out = ask("brief.yaml");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answer: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(answer["additionalContext"], "report in haiku", "{answer}");

    let out = ask("block.yaml");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        !stdout(&out).contains("permissionDecision"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn init_merges_prints_and_refuses_what_it_cannot_read() {
    let dir = Dir::new();
    dir.write(
        ".cursor/hooks.json",
        r#"{"version":1,"hooks":{"beforeShellExecution":[{"command":"./audit.sh"}]}}"#,
    );
    for _ in 0..2 {
        let out = run(dir.hookgate(&["init", "cursor"]));
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    let text = std::fs::read_to_string(dir.path().join(".cursor/hooks.json")).expect("read");
    let merged: Value = serde_json::from_str(&text).expect("JSON");
    let shell = merged["hooks"]["beforeShellExecution"]
        .as_array()
        .expect("list");
    assert_eq!(shell.len(), 2, "ours once, theirs kept: {merged}");
    assert_eq!(shell[0]["command"], "./audit.sh");
    assert!(merged["hooks"]["beforeReadFile"].is_array(), "{merged}");

    // --print writes nothing.
    let out = run(dir.hookgate(&["init", "copilot", "--print"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let printed: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert!(
        printed["hooks"]["preToolUse"][0]["bash"]
            .as_str()
            .is_some_and(|c| c.contains("--event preToolUse")),
        "{printed}"
    );
    assert!(!dir.path().join(".github").exists());

    // A settings file that is not JSON is left alone.
    dir.write(".gemini/settings.json", "{ \"theme\": ");
    let out = run(dir.hookgate(&["init", "gemini"]));
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("is not a JSON object"),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(dir.path().join(".gemini/settings.json")).expect("read");
    assert_eq!(text, "{ \"theme\": ");
}

#[test]
fn inits_hook_command_blocks_when_hookgate_is_gone() {
    let dir = Dir::new();
    let gone = dir.path().join("uninstalled/hookgate");
    let out = run(dir.hookgate(&["init", "codex", "--print", "--bin", &gone.to_string_lossy()]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let printed: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    for (event, want) in [("PreToolUse", 2), ("PostToolUse", 1)] {
        let command = printed["hooks"][event][0]["hooks"][0]["command"]
            .as_str()
            .expect("command");
        // The gateway's payload is never read: the check fails first.
        let out = Command::new("/bin/sh")
            .args(["-c", command])
            .stdin(std::process::Stdio::null())
            .output()
            .expect("sh");
        assert_eq!(code(&out), want, "{event}: {command}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("hookgate is not installed"),
            "{}",
            stderr(&out)
        );
    }
}
