//! `exec_script`: environment, results, inline scripts, process groups and timeouts, the
//! denylist, output caps, and the same through the daemon.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;

use super::{
    PidFile, base, check, check_command, injected, policy, read_pids, run_check, script, survivors,
};
use crate::daemon::{Daemon, exec};
use crate::util::Dir;

/// "Well before 1000 s": a bound for calls that must not wait for their scripts' children.
/// Not a performance assertion.
const PROMPT: Duration = Duration::from_secs(10);
/// The captured bytes per stream.
const MIB: usize = 1024 * 1024;

/// A script that dumps its environment (NUL-separated) to `$ENV_DUMP`.
const ENV_DUMP: &str = "#!/bin/sh\nenv -0 > \"$ENV_DUMP\"\n";

/// Every variable the action sets.
const HOOK_VARS: [&str; 16] = [
    "HOOK_POINT",
    "HOOK_SESSION",
    "HOOK_SESSION_KEY",
    "HOOK_TOOL",
    "HOOK_ARGS",
    "HOOK_TOPIC",
    "HOOK_TOPIC_ID",
    "HOOK_TIMESTAMP",
    "HOOK_SUBAGENT",
    "HOOK_SUBAGENT_LABEL",
    "HOOK_CRON_JOB",
    "HOOK_PROMPT",
    "HOOK_TRACE_ID",
    "HOOK_RESPONSE",
    "OPENCLAW_USER_MESSAGE",
    "OPENCLAW_ASSISTANT_MESSAGE",
];

/// One `exec_script` hook named `name` running `target`, with `extra` YAML lines (each
/// starting with four spaces) appended.
fn hook(name: &str, target: &str, extra: &str) -> String {
    format!(
        "  - name: {name}\n    point: turn:tool:pre\n    action: exec_script\n    target: \"{target}\"\n{extra}"
    )
}

/// A dir whose policy runs [`ENV_DUMP`]; the dump's path.
fn env_dir() -> (Dir, PathBuf) {
    let dir = Dir::new();
    script(&dir, "env.sh", ENV_DUMP);
    policy(&dir, &hook("env", "env.sh", ""));
    let dump = base(&dir).join("env.bin");
    (dir, dump)
}

/// The environment dumped by [`ENV_DUMP`].
fn read_env(dump: &Path) -> BTreeMap<String, String> {
    let bytes = std::fs::read(dump).unwrap_or_else(|e| panic!("{}: {e}", dump.display()));
    bytes
        .split(|b| *b == 0)
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let kv = String::from_utf8(kv.to_vec()).expect("UTF-8 environment");
            let (k, v) = kv.split_once('=').expect("KEY=VALUE");
            (k.to_owned(), v.to_owned())
        })
        .collect()
}

/// The action's variables in `env` (every one must be set, even when empty).
fn hook_vars(env: &BTreeMap<String, String>) -> BTreeMap<&'static str, String> {
    HOOK_VARS
        .iter()
        .map(|k| {
            let v = env
                .get(*k)
                .unwrap_or_else(|| panic!("{k} is not set: {env:?}"));
            (*k, v.clone())
        })
        .collect()
}

fn expected(pairs: &[(&'static str, &str)]) -> BTreeMap<&'static str, String> {
    pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_millis()
}

// ---------------------------------------------------------------------------------------------
// Environment

#[test]
fn the_script_sees_every_context_field_in_its_environment() {
    let (dir, dump) = env_dir();
    let context = json!({
        "sessionKey": "agent:main:subagent:helper-1",
        "topicId": 42,
        "prompt": "ship it\nnow, \"please\" $HOME `id`",
        "toolName": "exec",
        "toolArgs": { "command": "ls -la", "n": 1, "nested": { "b": [true, null] } },
        "response": "done: ✓",
        "subagentLabel": "helper",
        "cronJob": "nightly",
        "timestamp": 1_700_000_000_000u64,
        "traceId": "trace-7",
    });
    let mut cmd = check_command(&dir, &["--context", "-"]);
    cmd.env("ENV_DUMP", &dump)
        .env("HOOKGATE_TEST_INHERITED", "from the caller");
    let checked = run_check(cmd, Some(&context.to_string()));

    checked.assert_allowed();
    assert_eq!(
        checked.message("env"),
        format!(
            "Script \"{}\" completed successfully",
            base(&dir).join("env.sh").display()
        )
    );
    assert!(checked.injected().is_empty(), "{}", checked.decision);
    let env = read_env(&dump);
    assert_eq!(
        hook_vars(&env),
        expected(&[
            ("HOOK_POINT", "turn:tool:pre"),
            ("HOOK_SESSION", "agent:main:subagent:helper-1"),
            ("HOOK_SESSION_KEY", "agent:main:subagent:helper-1"),
            ("HOOK_TOOL", "exec"),
            (
                "HOOK_ARGS",
                r#"{"command":"ls -la","n":1,"nested":{"b":[true,null]}}"#
            ),
            ("HOOK_TOPIC", "42"),
            ("HOOK_TOPIC_ID", "42"),
            ("HOOK_TIMESTAMP", "1700000000000"),
            ("HOOK_SUBAGENT", "true"),
            ("HOOK_SUBAGENT_LABEL", "helper"),
            ("HOOK_CRON_JOB", "nightly"),
            ("HOOK_PROMPT", "ship it\nnow, \"please\" $HOME `id`"),
            ("HOOK_TRACE_ID", "trace-7"),
            ("HOOK_RESPONSE", "done: ✓"),
            (
                "OPENCLAW_USER_MESSAGE",
                "ship it\nnow, \"please\" $HOME `id`"
            ),
            ("OPENCLAW_ASSISTANT_MESSAGE", "done: ✓"),
        ])
    );
    // No other HOOK_* variable, and the process's own environment is inherited.
    let extra: Vec<&String> = env
        .keys()
        .filter(|k| k.starts_with("HOOK_") && !HOOK_VARS.contains(&k.as_str()))
        .collect();
    assert!(extra.is_empty(), "unexpected variables: {extra:?}");
    assert_eq!(env["HOOKGATE_TEST_INHERITED"], "from the caller");
    assert_eq!(env["ENV_DUMP"], dump.to_str().expect("UTF-8"));
}

#[test]
fn absent_context_fields_are_empty_and_override_the_inherited_environment() {
    let (dir, dump) = env_dir();
    let context = json!({ "sessionKey": "agent:main:main", "timestamp": 1_700_000_000_123.5 });
    let mut cmd = check_command(&dir, &["--context", "-"]);
    // Stale values in the gateway's own environment must not pose as context.
    cmd.env("ENV_DUMP", &dump)
        .env("HOOK_PROMPT", "stale")
        .env("HOOK_TOOL", "stale")
        .env("OPENCLAW_ASSISTANT_MESSAGE", "stale");
    let checked = run_check(cmd, Some(&context.to_string()));

    checked.assert_allowed();
    assert_eq!(
        hook_vars(&read_env(&dump)),
        expected(&[
            ("HOOK_POINT", "turn:tool:pre"),
            ("HOOK_SESSION", "agent:main:main"),
            ("HOOK_SESSION_KEY", "agent:main:main"),
            ("HOOK_TOOL", ""),
            ("HOOK_ARGS", "{}"),
            ("HOOK_TOPIC", ""),
            ("HOOK_TOPIC_ID", ""),
            ("HOOK_TIMESTAMP", "1700000000123.5"),
            ("HOOK_SUBAGENT", "false"),
            ("HOOK_SUBAGENT_LABEL", ""),
            ("HOOK_CRON_JOB", ""),
            ("HOOK_PROMPT", ""),
            ("HOOK_TRACE_ID", ""),
            ("HOOK_RESPONSE", ""),
            ("OPENCLAW_USER_MESSAGE", ""),
            ("OPENCLAW_ASSISTANT_MESSAGE", ""),
        ])
    );
}

#[test]
fn shorthand_flags_reach_the_environment_and_the_timestamp_defaults_to_now() {
    let (dir, dump) = env_dir();
    let mut cmd = check_command(
        &dir,
        &[
            "--tool",
            "exec",
            "--arg",
            "command=git status",
            "--arg",
            "n=2",
            "--topic",
            "general",
            "--session",
            "agent:main:telegram",
            "--prompt",
            "hi",
        ],
    );
    cmd.env("ENV_DUMP", &dump);
    let before = now_ms();
    let checked = run_check(cmd, None);
    let after = now_ms();

    checked.assert_allowed();
    let env = read_env(&dump);
    assert_eq!(env["HOOK_ARGS"], r#"{"command":"git status","n":2}"#);
    assert_eq!(env["HOOK_TOPIC"], "general");
    assert_eq!(env["HOOK_TOPIC_ID"], "general");
    assert_eq!(env["HOOK_SESSION"], "agent:main:telegram");
    assert_eq!(env["HOOK_SUBAGENT"], "false");
    assert_eq!(env["OPENCLAW_USER_MESSAGE"], "hi");
    let stamp: u128 = env["HOOK_TIMESTAMP"].parse().unwrap_or_else(|e| {
        panic!(
            "HOOK_TIMESTAMP {:?} is not integral ms: {e}",
            env["HOOK_TIMESTAMP"]
        )
    });
    assert!(
        (before..=after).contains(&stamp),
        "{before} <= {stamp} <= {after}"
    );
}

#[test]
fn nul_bytes_are_dropped_from_values() {
    let (dir, dump) = env_dir();
    let context = json!({ "sessionKey": "s", "prompt": "a\u{0}b", "response": "\u{0}" });
    let mut cmd = check_command(&dir, &["--context", "-"]);
    cmd.env("ENV_DUMP", &dump);
    let checked = run_check(cmd, Some(&context.to_string()));

    // exec refuses a NUL inside an environment string: without the cut the call would block.
    checked.assert_allowed();
    let env = read_env(&dump);
    assert_eq!(env["HOOK_PROMPT"], "ab");
    assert_eq!(env["OPENCLAW_USER_MESSAGE"], "ab");
    assert_eq!(env["HOOK_RESPONSE"], "");
}

/// Linux's limit on one environment string (MAX_ARG_STRLEN), counting `KEY=` and the NUL.
const MAX_ARG_STRLEN: usize = 32 * 4096;

#[test]
fn values_too_long_for_exec_are_cut_and_the_script_runs() {
    let (dir, dump) = env_dir();
    let short = "r".repeat(MAX_ARG_STRLEN - "OPENCLAW_ASSISTANT_MESSAGE=".len() - 1);
    let context = json!({ "sessionKey": "s", "response": short });
    let mut cmd = check_command(&dir, &["--context", "-"]);
    cmd.env("ENV_DUMP", &dump);
    let checked = run_check(cmd, Some(&context.to_string()));
    // The longest response every variable can carry whole.
    checked.assert_allowed();
    let env = read_env(&dump);
    assert_eq!(env["OPENCLAW_ASSISTANT_MESSAGE"], short);
}

/// Regression (dc91a95): each value was cut to 128 KiB - 1 bytes without counting `KEY=` and
/// the NUL, so a response over 131044 bytes made every exec_script fail to start (E2BIG), a
/// block by default.
#[test]
fn values_over_the_exec_limit_are_cut_and_the_script_runs() {
    let (dir, dump) = env_dir();
    let context = json!({
        "sessionKey": "s",
        "prompt": "p".repeat(200_000),
        "response": "r".repeat(200_000),
        "toolArgs": { "content": "c".repeat(200_000) },
    });
    let mut cmd = check_command(&dir, &["--context", "-"]);
    cmd.env("ENV_DUMP", &dump);
    let checked = run_check(cmd, Some(&context.to_string()));

    checked.assert_allowed();
    let env = read_env(&dump);
    for (key, fill) in [
        ("HOOK_PROMPT", 'p'),
        ("OPENCLAW_USER_MESSAGE", 'p'),
        ("HOOK_RESPONSE", 'r'),
        ("OPENCLAW_ASSISTANT_MESSAGE", 'r'),
    ] {
        let value = &env[key];
        // Cut, not dropped: as long as the kernel allows, give or take the key's length.
        assert!(value.chars().all(|c| c == fill), "{key}");
        assert!(
            key.len() + 1 + value.len() < MAX_ARG_STRLEN && value.len() > MAX_ARG_STRLEN - 64,
            "{key}: {} bytes",
            value.len()
        );
    }
    assert!(env["HOOK_ARGS"].starts_with(r#"{"content":"ccc"#));
}

// ---------------------------------------------------------------------------------------------
// Results

#[test]
fn exit_zero_passes_with_trimmed_stdout_and_injects_only_when_asked() {
    let dir = Dir::new();
    let quiet = script(&dir, "quiet.sh", "#!/bin/sh\nexit 0\n");
    script(
        &dir,
        "talk.sh",
        "#!/bin/sh\nprintf '  \\n  hello\\n  world  \\n\\n'\necho 'on stderr' >&2\n",
    );
    script(
        &dir,
        "inject.sh",
        "#!/bin/sh\nprintf '\\n context from script \\n'\n",
    );
    policy(
        &dir,
        &[
            hook("quiet", "quiet.sh", "    injectOutput: true\n"),
            hook("talk", "talk.sh", ""),
            hook("inject", "inject.sh", "    injectOutput: true\n"),
        ]
        .concat(),
    );
    let checked = check(&dir);

    checked.assert_allowed();
    assert_eq!(
        checked.message("quiet"),
        format!("Script \"{}\" completed successfully", quiet.display())
    );
    assert_eq!(checked.message("talk"), "hello\n  world");
    assert_eq!(checked.message("inject"), "context from script");
    for name in ["quiet", "talk", "inject"] {
        let result = checked.result(name);
        assert_eq!(result["action"], "exec_script");
        assert_eq!(result["passed"], true);
        assert!(result["durationMs"].as_f64().is_some_and(|d| d >= 0.0));
    }
    // Only the hook with injectOutput and some output injects; the empty output does not.
    assert_eq!(checked.injected(), ["context from script"]);
}

#[test]
fn a_non_zero_exit_blocks_with_stderr_else_stdout() {
    let dir = Dir::new();
    let ran_after = base(&dir).join("after-ran");
    script(
        &dir,
        "fails.sh",
        "#!/bin/sh\necho 'to stdout'\necho '  went wrong  ' >&2\nexit 3\n",
    );
    script(
        &dir,
        "after.sh",
        &format!("#!/bin/sh\ntouch '{}'\n", ran_after.display()),
    );
    policy(
        &dir,
        &[hook("fails", "fails.sh", ""), hook("after", "after.sh", "")].concat(),
    );
    let checked = check(&dir);
    checked.assert_blocked("fails", "Script failed (exit 3): went wrong");
    assert_eq!(checked.result("fails")["action"], "exec_script");
    assert_eq!(
        checked.decision["results"].as_array().map(Vec::len),
        Some(1)
    );
    assert!(!ran_after.exists(), "the chain must stop at the failure");
    assert!(checked.injected().is_empty());

    // Without stderr, stdout is the reason.
    script(
        &dir,
        "fails.sh",
        "#!/bin/sh\necho ' only stdout '\nexit 3\n",
    );
    check(&dir).assert_blocked("fails", "Script failed (exit 3): only stdout");

    // A long reason is cut to 500 characters.
    script(
        &dir,
        "fails.sh",
        "#!/bin/sh\nhead -c 2000 /dev/zero | tr '\\000' e >&2\nexit 1\n",
    );
    check(&dir).assert_blocked(
        "fails",
        &format!("Script failed (exit 1): {}", "e".repeat(500)),
    );

    // Without any output the reason is still there, and it names the exit.
    script(&dir, "fails.sh", "#!/bin/sh\nexit 3\n");
    let silent = check(&dir);
    assert_eq!(silent.code, 2, "{}", silent.decision);
    let message = silent.decision["message"].as_str().expect("message");
    assert!(message.starts_with("Script failed (exit 3): "), "{message}");
}

#[test]
fn on_failure_continue_notify_and_block_follow_the_engine() {
    let dir = Dir::new();
    let fails = "#!/bin/sh\necho 'went wrong' >&2\nexit 3\n";
    script(&dir, "fails.sh", fails);
    script(&dir, "after.sh", "#!/bin/sh\necho after\n");
    policy(
        &dir,
        &[
            hook("cont", "fails.sh", "    onFailure: { action: continue }\n"),
            hook("noti", "fails.sh", "    onFailure: { action: notify }\n"),
            hook("after", "after.sh", ""),
        ]
        .concat(),
    );
    let checked = check(&dir);
    checked.assert_allowed();
    assert_eq!(
        checked.message("cont"),
        "Action failed (continuing): Script failed (exit 3): went wrong"
    );
    assert_eq!(checked.result("cont")["passed"], true);
    assert_eq!(
        checked.message("noti"),
        "Action failed (user notified): Script failed (exit 3): went wrong"
    );
    assert_eq!(checked.message("after"), "after");

    // A returned failure under onFailure block stands as returned (DESIGN semantics 3):
    // onFailure.message does not replace the script's reason.
    policy(
        &dir,
        &hook(
            "guard",
            "fails.sh",
            "    onFailure: { action: block, message: \"no {tool} today\" }\n",
        ),
    );
    check(&dir).assert_blocked("guard", "Script failed (exit 3): went wrong");

    // A defaults.onFailure is not consulted for a returned failure: still a block.
    dir.write(
        "HOOKS.yaml",
        &format!(
            "version: \"1\"\ndefaults:\n  onFailure: {{ action: continue }}\nhooks:\n{}",
            hook("plain", "fails.sh", "")
        ),
    );
    check(&dir).assert_blocked("plain", "Script failed (exit 3): went wrong");
}

#[test]
fn on_failure_retry_runs_the_script_again() {
    let dir = Dir::new();
    let count = base(&dir).join("count");
    script(
        &dir,
        "flaky.sh",
        &format!(
            "#!/bin/sh\nn=$(cat '{c}' 2>/dev/null || echo 0)\nn=$((n + 1))\necho $n > '{c}'\n\
             if [ $n -lt 2 ]; then echo \"attempt $n failed\" >&2; exit 1; fi\necho \"ok on attempt $n\"\n",
            c = count.display()
        ),
    );
    policy(
        &dir,
        &hook(
            "flaky",
            "flaky.sh",
            "    injectOutput: true\n    onFailure: { action: retry, retries: 2 }\n",
        ),
    );
    let checked = check(&dir);
    checked.assert_allowed();
    assert_eq!(
        checked.message("flaky"),
        "Succeeded on retry 1: ok on attempt 2"
    );
    assert_eq!(checked.injected(), ["ok on attempt 2"]);
    assert_eq!(std::fs::read_to_string(&count).expect("count").trim(), "2");
}

// ---------------------------------------------------------------------------------------------
// Inline scripts

/// One inline-script hook; `script` is the YAML block content (indented by six spaces).
fn inline(name: &str, script: &str, extra: &str) -> String {
    let body: String = script.lines().map(|l| format!("      {l}\n")).collect();
    format!(
        "  - name: {name}\n    point: turn:tool:pre\n    action: exec_script\n{extra}    script: |\n{body}"
    )
}

/// A scratch temp directory for inline scripts, so their files can be seen (and missed).
fn private_tmp(dir: &Dir) -> PathBuf {
    let tmp = base(dir).join("tmp");
    std::fs::create_dir_all(&tmp).expect("mkdir tmp");
    tmp
}

fn check_in_tmp(dir: &Dir, tmp: &Path) -> super::Checked {
    let mut cmd = check_command(dir, &[]);
    cmd.env("TMPDIR", tmp);
    run_check(cmd, None)
}

fn assert_empty_dir(tmp: &Path) {
    let left: Vec<_> = std::fs::read_dir(tmp)
        .expect("read tmp")
        .map(|e| e.expect("entry").path())
        .collect();
    assert!(left.is_empty(), "inline script files left behind: {left:?}");
}

/// The lines of the record file an inline script wrote.
fn record(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn an_inline_script_without_shebang_runs_under_sh_privately_and_is_removed() {
    let dir = Dir::new();
    let tmp = private_tmp(&dir);
    let rec = base(&dir).join("rec");
    let body = format!(
        "printf '%s\\n' \"$0\" > '{r}'\nstat -c %a \"$0\" >> '{r}'\nreadlink /proc/$$/exe >> '{r}'\n\
         set -- a b c\necho \"sh: $# args, $((6 * 7))\"",
        r = rec.display()
    );
    policy(
        &dir,
        &[inline("inline", &body, ""), inline("quiet", "true", "")].concat(),
    );
    let checked = check_in_tmp(&dir, &tmp);

    checked.assert_allowed();
    assert_eq!(checked.message("inline"), "sh: 3 args, 42");
    assert_eq!(
        checked.message("quiet"),
        "Script \"inline script of hook quiet\" completed successfully"
    );
    let lines = record(&rec);
    let file = Path::new(&lines[0]);
    assert_eq!(file.parent(), Some(tmp.as_path()), "{lines:?}");
    let name = file.file_name().and_then(|n| n.to_str()).expect("name");
    assert!(
        name.starts_with("hookgate-exec-") && name.ends_with(".sh"),
        "{name}"
    );
    assert_eq!(lines[1], "700", "mode while it runs");
    let sh = std::fs::canonicalize("/bin/sh").expect("/bin/sh");
    assert_eq!(Path::new(&lines[2]), sh, "the interpreter");
    assert!(!file.exists(), "{} still exists", file.display());
    assert_empty_dir(&tmp);
}

#[test]
fn an_inline_script_is_removed_after_a_failure() {
    let dir = Dir::new();
    let tmp = private_tmp(&dir);
    let rec = base(&dir).join("rec");
    let body = format!(
        "printf '%s\\n' \"$0\" > '{}'\necho nope >&2\nexit 4",
        rec.display()
    );
    policy(&dir, &inline("failing", &body, ""));
    let checked = check_in_tmp(&dir, &tmp);

    checked.assert_blocked("failing", "Script failed (exit 4): nope");
    let lines = record(&rec);
    assert!(
        lines[0].starts_with(tmp.to_str().expect("UTF-8")),
        "{lines:?}"
    );
    assert!(!Path::new(&lines[0]).exists(), "{} still exists", lines[0]);
    assert_empty_dir(&tmp);
}

#[test]
fn an_inline_script_is_removed_after_a_timeout() {
    let dir = Dir::new();
    let tmp = private_tmp(&dir);
    let rec = base(&dir).join("rec");
    let _guard = PidFile(base(&dir).join("pids"));
    let body = format!(
        "printf '%s\\n' \"$0\" > '{r}'\necho $$ > '{p}'\nsleep 1000 &\necho $! >> '{p}'\nwait",
        r = rec.display(),
        p = base(&dir).join("pids").display()
    );
    policy(&dir, &inline("slow", &body, "    timeoutMs: 300\n"));
    let checked = check_in_tmp(&dir, &tmp);

    checked.assert_blocked(
        "slow",
        "Script \"inline script of hook slow\" timed out after 300ms",
    );
    assert!(checked.elapsed < PROMPT, "{:?}", checked.elapsed);
    let lines = record(&rec);
    assert!(!Path::new(&lines[0]).exists(), "{} still exists", lines[0]);
    assert_empty_dir(&tmp);
    let pids = read_pids(&base(&dir).join("pids"));
    assert_eq!(pids.len(), 2, "{pids:?}");
    assert_eq!(survivors(&pids), Vec::<u32>::new());
}

#[test]
fn an_inline_script_with_a_shebang_runs_under_its_interpreter() {
    let dir = Dir::new();
    let tmp = private_tmp(&dir);
    let rec = base(&dir).join("rec");
    let body = format!(
        "#!/usr/bin/env python3\nimport os, sys\nopen('{}', 'w').write(sys.argv[0])\n\
         print('python', sys.version_info.major, oct(os.stat(sys.argv[0]).st_mode & 0o777))",
        rec.display()
    );
    policy(&dir, &inline("py", &body, "    injectOutput: true\n"));
    let checked = check_in_tmp(&dir, &tmp);

    checked.assert_allowed();
    assert_eq!(checked.message("py"), "python 3 0o700");
    assert_eq!(checked.injected(), ["python 3 0o700"]);
    let file = std::fs::read_to_string(&rec).expect("rec");
    assert!(file.starts_with(tmp.to_str().expect("UTF-8")), "{file}");
    assert!(!Path::new(&file).exists());
    assert_empty_dir(&tmp);
}

#[test]
fn an_inline_script_runs_as_written_without_template_substitution() {
    let dir = Dir::new();
    policy(&dir, &inline("literal", "echo '{topicId}:{tool}'", ""));
    let checked = run_check(
        check_command(&dir, &["--tool", "exec", "--topic", "42"]),
        None,
    );
    checked.assert_allowed();
    assert_eq!(checked.message("literal"), "{topicId}:{tool}");
}

#[test]
fn target_wins_over_an_inline_script() {
    let dir = Dir::new();
    script(&dir, "t.sh", "#!/bin/sh\necho from target\n");
    policy(
        &dir,
        &inline(
            "both",
            "echo from inline",
            "    target: t.sh\n    injectOutput: true\n",
        ),
    );
    let checked = check(&dir);
    checked.assert_allowed();
    assert_eq!(checked.message("both"), "from target");
    assert_eq!(checked.injected(), ["from target"]);
}

// ---------------------------------------------------------------------------------------------
// Process groups and timeouts

/// A script that records its pid and those of its children and a grandchild in `pids`, one a
/// line, then waits for them (for ever).
fn forker(pids: &Path) -> String {
    let p = pids.display();
    format!(
        "#!/bin/sh\necho $$ >> '{p}'\nsleep 1000 &\necho $! >> '{p}'\n\
         sh -c 'sleep 1000 & echo $! >> \"{p}\"; wait' &\necho $! >> '{p}'\n\
         sleep 1000 &\necho $! >> '{p}'\nwait\n"
    )
}

#[test]
fn a_timeout_kills_the_script_its_children_and_grandchildren() {
    let dir = Dir::new();
    let pids = base(&dir).join("pids");
    let _guard = PidFile(pids.clone());
    let path = script(&dir, "forker.sh", &forker(&pids));
    policy(&dir, &hook("forker", "forker.sh", "    timeoutMs: 300\n"));
    let checked = check(&dir);

    checked.assert_blocked(
        "forker",
        &format!("Script \"{}\" timed out after 300ms", path.display()),
    );
    assert!(checked.elapsed < PROMPT, "took {:?}", checked.elapsed);
    let duration = checked.result("forker")["durationMs"]
        .as_f64()
        .expect("durationMs");
    assert!(
        (300.0..PROMPT.as_millis() as f64).contains(&duration),
        "{duration}"
    );
    let recorded = read_pids(&pids);
    assert_eq!(
        recorded.len(),
        5,
        "script, 2 children, a subshell and its child: {recorded:?}"
    );
    assert_eq!(survivors(&recorded), Vec::<u32>::new(), "still running");
}

#[test]
fn children_left_behind_by_a_successful_script_are_killed() {
    let dir = Dir::new();
    let pids = base(&dir).join("pids");
    let _guard = PidFile(pids.clone());
    // The child keeps the script's stdout open: without the group kill the call would wait.
    script(
        &dir,
        "leaver.sh",
        &format!(
            "#!/bin/sh\nsleep 1000 &\necho $! >> '{}'\necho started\n",
            pids.display()
        ),
    );
    policy(&dir, &hook("leaver", "leaver.sh", ""));
    let checked = check(&dir);

    checked.assert_allowed();
    assert_eq!(checked.message("leaver"), "started");
    assert!(checked.elapsed < PROMPT, "took {:?}", checked.elapsed);
    let recorded = read_pids(&pids);
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert_eq!(survivors(&recorded), Vec::<u32>::new(), "still running");
}

#[test]
fn a_process_that_left_the_group_cannot_hold_the_call_open() {
    let dir = Dir::new();
    let pids = base(&dir).join("pids");
    // `setsid` puts the child out of reach (documented); it holds stdout open for ever. The
    // guard kills it at the end of the test.
    let _guard = PidFile(pids.clone());
    script(
        &dir,
        "escaper.sh",
        &format!(
            "#!/bin/sh\nsetsid sleep 1000 &\necho $! >> '{}'\necho done\n",
            pids.display()
        ),
    );
    policy(&dir, &hook("escaper", "escaper.sh", ""));
    let checked = check(&dir);

    checked.assert_allowed();
    assert_eq!(checked.message("escaper"), "done");
    assert!(checked.elapsed < PROMPT, "took {:?}", checked.elapsed);
}

// ---------------------------------------------------------------------------------------------
// Paths: denylist, missing and non-executable scripts

#[test]
fn denied_paths_are_refused_after_resolving_dot_dot_and_symlinks() {
    let dir = Dir::new();
    let root = base(&dir);
    let depth = root.components().count();
    let up = "../".repeat(depth + 3);
    let bin_rm = std::fs::canonicalize("/bin/rm").expect("/bin/rm");
    let bin_rm_pattern = if bin_rm.starts_with("/usr/bin/rm") {
        "/usr/bin/rm"
    } else {
        "/bin/rm"
    };
    std::os::unix::fs::symlink("/etc/hostname", root.join("evil.sh")).expect("symlink");
    std::os::unix::fs::symlink("/usr/bin/rm", root.join("rm.sh")).expect("symlink");
    std::os::unix::fs::symlink("/bin/rm", root.join("bin-rm.sh")).expect("symlink");
    std::os::unix::fs::symlink(root.join("evil.sh"), root.join("chain.sh")).expect("symlink");
    let cases: Vec<(String, String, &str)> = vec![
        // A symlink into /etc, and a chain of them.
        ("evil.sh".into(), "/etc/hostname".into(), "/etc/"),
        ("chain.sh".into(), "/etc/hostname".into(), "/etc/"),
        // `..` climbing out of the policy's directory.
        (format!("{up}etc/hostname"), "/etc/hostname".into(), "/etc/"),
        // Refused before it is even looked for.
        (
            format!("{up}etc/hookgate-no-such-script"),
            "/etc/hookgate-no-such-script".into(),
            "/etc/",
        ),
        ("/etc/hostname".into(), "/etc/hostname".into(), "/etc/"),
        ("rm.sh".into(), "/usr/bin/rm".into(), "/usr/bin/rm"),
        (
            "bin-rm.sh".into(),
            bin_rm.display().to_string(),
            bin_rm_pattern,
        ),
        (
            "/usr/sbin/hookgate-no-such".into(),
            "/usr/sbin/hookgate-no-such".into(),
            "/usr/sbin/",
        ),
        (
            "/sbin/hookgate-no-such".into(),
            "/sbin/hookgate-no-such".into(),
            "/sbin/",
        ),
    ];
    for (target, resolved, pattern) in cases {
        policy(&dir, &hook("guarded", &target, ""));
        let checked = check(&dir);
        checked.assert_blocked(
            "guarded",
            &format!(
                "Script path \"{resolved}\" is blocked for security reasons (matches deny pattern: {pattern})"
            ),
        );
    }
}

#[test]
fn ordinary_scripts_run_by_path_symlink_dot_dot_or_template() {
    let dir = Dir::new();
    let root = base(&dir);
    script(&dir, "scripts/exec.sh", "#!/bin/sh\necho ran exec.sh\n");
    script(&dir, "evil.sh", "#!/bin/sh\necho escaped\n");
    std::fs::create_dir_all(root.join("sub")).expect("mkdir");
    std::os::unix::fs::symlink(root.join("scripts/exec.sh"), root.join("link.sh"))
        .expect("symlink");
    let absolute = root.join("scripts/exec.sh");
    for target in [
        "scripts/exec.sh",
        absolute.to_str().expect("UTF-8"),
        "link.sh",
        "sub/../scripts/exec.sh",
        "scripts/{tool}.sh",
    ] {
        policy(&dir, &hook("ok", target, ""));
        let checked = check(&dir);
        checked.assert_allowed();
        assert_eq!(checked.message("ok"), "ran exec.sh", "target {target}");
    }
    // The label is the path as configured (resolved against the policy's directory), not
    // the symlink's destination.
    script(&dir, "scripts/quiet.sh", "#!/bin/sh\n");
    std::os::unix::fs::symlink(root.join("scripts/quiet.sh"), root.join("quiet-link.sh"))
        .expect("symlink");
    policy(&dir, &hook("ok", "quiet-link.sh", ""));
    assert_eq!(
        check(&dir).message("ok"),
        format!(
            "Script \"{}\" completed successfully",
            root.join("quiet-link.sh").display()
        )
    );
    // A hostile tool name cannot move a templated target out of its directory.
    policy(&dir, &hook("ok", "scripts/{tool}.sh", ""));
    let hostile = run_check(check_command(&dir, &["--tool", "../evil"]), None);
    hostile.assert_blocked(
        "ok",
        &format!(
            "Script not found: \"{}\"",
            root.join("scripts/.._evil.sh").display()
        ),
    );
}

#[test]
fn missing_and_non_executable_scripts_block() {
    let dir = Dir::new();
    let root = base(&dir);
    policy(&dir, &hook("missing", "missing.sh", ""));
    check(&dir).assert_blocked(
        "missing",
        &format!(
            "Script not found: \"{}\"",
            root.join("missing.sh").display()
        ),
    );

    // 0644: not executable, even for root.
    dir.write("plain.sh", "#!/bin/sh\necho should not run\n");
    policy(&dir, &hook("plain", "plain.sh", ""));
    check(&dir).assert_blocked(
        "plain",
        &format!(
            "Script not executable: \"{}\" (permission denied)",
            root.join("plain.sh").display()
        ),
    );

    // A missing script follows onFailure like any other failure.
    policy(
        &dir,
        &hook(
            "missing",
            "missing.sh",
            "    onFailure: { action: continue }\n",
        ),
    );
    let checked = check(&dir);
    checked.assert_allowed();
    assert_eq!(
        checked.message("missing"),
        format!(
            "Action failed (continuing): Script not found: \"{}\"",
            root.join("missing.sh").display()
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Output

#[test]
fn output_is_capped_at_one_mebibyte_per_stream() {
    let dir = Dir::new();
    script(
        &dir,
        "big.sh",
        "#!/bin/sh\nhead -c 3145728 /dev/zero | tr '\\000' a\nhead -c 3145728 /dev/zero >&2\n",
    );
    policy(&dir, &hook("big", "big.sh", "    injectOutput: true\n"));
    let checked = check(&dir);

    checked.assert_allowed();
    assert!(checked.elapsed < PROMPT, "took {:?}", checked.elapsed);
    let message = checked.message("big");
    assert_eq!(message.len(), MIB, "the first MiB of stdout");
    assert!(message.bytes().all(|b| b == b'a'));
    let injected = checked.injected();
    assert_eq!(injected.len(), 1);
    assert_eq!(injected[0].len(), MIB);

    // A failing script's 3 MiB of stderr: the reason is its first 500 characters.
    script(
        &dir,
        "big.sh",
        "#!/bin/sh\nhead -c 3145728 /dev/zero | tr '\\000' b >&2\nexit 1\n",
    );
    let failed = check(&dir);
    failed.assert_blocked(
        "big",
        &format!("Script failed (exit 1): {}", "b".repeat(500)),
    );
    assert!(failed.elapsed < PROMPT, "took {:?}", failed.elapsed);
}

// ---------------------------------------------------------------------------------------------
// Through the daemon

#[test]
fn the_daemon_returns_script_output_as_injected_context() {
    let dir = Dir::new();
    script(
        &dir,
        "env.sh",
        "#!/bin/sh\necho \"$HOOK_POINT $HOOK_TOOL $HOOK_ARGS $HOOK_SESSION $HOOK_SUBAGENT\"\n",
    );
    policy(&dir, &hook("env", "env.sh", "    injectOutput: true\n"));
    let d = Daemon::start(&dir, &[]);
    let decision = d.decide(&exec("git status"));

    let expected = r#"turn:tool:pre exec {"command":"git status"} agent:main:test false"#;
    assert_eq!(decision["decision"], "allow", "{decision}");
    assert_eq!(decision["results"][0]["hook"], "env");
    assert_eq!(decision["results"][0]["passed"], true);
    assert_eq!(decision["results"][0]["message"], expected);
    assert_eq!(injected(&decision), [expected]);
}

#[test]
fn the_daemon_kills_a_timed_out_script_and_everything_it_forked() {
    let dir = Dir::new();
    let pids = base(&dir).join("pids");
    let _guard = PidFile(pids.clone());
    script(&dir, "forker.sh", &forker(&pids));
    policy(&dir, &hook("forker", "forker.sh", "    timeoutMs: 300\n"));
    let d = Daemon::start(&dir, &[]);
    let started = Instant::now();
    let decision = d.decide(&exec("ls"));

    assert!(started.elapsed() < PROMPT, "took {:?}", started.elapsed());
    assert_eq!(decision["decision"], "block", "{decision}");
    assert_eq!(decision["hook"], "forker");
    let message = decision["message"].as_str().expect("message");
    // The daemon's --config is relative; the path is still absolute.
    assert_eq!(
        message,
        format!(
            "Script \"{}\" timed out after 300ms",
            base(&dir).join("forker.sh").display()
        )
    );
    let recorded = read_pids(&pids);
    assert_eq!(recorded.len(), 5, "{recorded:?}");
    assert_eq!(survivors(&recorded), Vec::<u32>::new(), "still running");

    // The daemon is unharmed: it answers the next call the same way.
    let again = d.decide(&exec("ls"));
    assert_eq!(again["decision"], "block", "{again}");
}

#[test]
fn a_running_script_does_not_hold_up_other_requests() {
    let dir = Dir::new();
    let root = base(&dir);
    let (started, go) = (root.join("started"), root.join("go"));
    script(
        &dir,
        "gate.sh",
        &format!(
            "#!/bin/sh\ntouch '{}'\nwhile [ ! -e '{}' ]; do sleep 0.02; done\necho released\n",
            started.display(),
            go.display()
        ),
    );
    policy(&dir, &hook("gate", "gate.sh", "    timeoutMs: 20000\n"));
    let d = Daemon::start(&dir, &[]);
    let client = d.client();
    let url = d.url("/v1/evaluate");
    let slow = std::thread::spawn(move || {
        let response = client
            .post(url)
            .json(&exec("ls"))
            .send()
            .expect("POST /v1/evaluate");
        crate::daemon::json_response(response)
    });
    d.wait_for(|| started.exists(), "the script to start");

    // Another evaluation is answered while the script still runs.
    let asked = Instant::now();
    let other = d.decide(&json!({ "point": "turn:pre", "context": { "sessionKey": "s" } }));
    let waited = asked.elapsed();
    assert_eq!(other["decision"], "allow", "{other}");
    assert!(!slow.is_finished(), "the script cannot have finished");
    assert!(waited < PROMPT, "answered after {waited:?}");

    std::fs::write(&go, "").expect("release the script");
    let (status, decision) = slow.join().expect("slow request");
    assert_eq!(status, 200, "{decision}");
    assert_eq!(decision["decision"], "allow", "{decision}");
    assert_eq!(decision["results"][0]["message"], "released");
}

/// Regression (dc91a95): with a relative `--config`, paths in messages were relative, and a
/// `..` target into a denied directory that does not exist reported `Script not found`
/// instead of the denylist refusal.
#[test]
fn a_relative_config_reports_and_checks_absolute_paths() {
    let dir = Dir::new();
    let root = base(&dir);
    std::fs::create_dir_all(root.join("policy")).expect("mkdir");
    let yaml = hook("missing", "missing.sh", "");
    dir.write(
        "policy/HOOKS.yaml",
        &format!("version: \"1\"\nhooks:\n{yaml}"),
    );
    let args = [
        "check",
        "--config",
        "policy/HOOKS.yaml",
        "--point",
        "turn:tool:pre",
        "--format",
        "json",
        "--tool",
        "exec",
    ];
    run_check(dir.hookgate(&args), None).assert_blocked(
        "missing",
        &format!(
            "Script not found: \"{}\"",
            root.join("policy/missing.sh").display()
        ),
    );

    let up = "../".repeat(root.components().count() + 3);
    let yaml = hook("denied", &format!("{up}etc/hookgate-no-such-script"), "");
    dir.write(
        "policy/HOOKS.yaml",
        &format!("version: \"1\"\nhooks:\n{yaml}"),
    );
    run_check(dir.hookgate(&args), None).assert_blocked(
        "denied",
        "Script path \"/etc/hookgate-no-such-script\" is blocked for security reasons (matches deny pattern: /etc/)",
    );
}

#[test]
fn a_relative_config_resolves_targets_against_its_own_directory() {
    let dir = Dir::new();
    script(&dir, "policy/check.sh", "#!/bin/sh\necho policy dir\n");
    script(&dir, "check.sh", "#!/bin/sh\necho working dir\n");
    dir.write(
        "policy/HOOKS.yaml",
        &format!("version: \"1\"\nhooks:\n{}", hook("rel", "check.sh", "")),
    );
    let checked = run_check(
        dir.hookgate(&[
            "check",
            "--config",
            "policy/HOOKS.yaml",
            "--point",
            "turn:tool:pre",
            "--format",
            "json",
            "--tool",
            "exec",
        ]),
        None,
    );
    checked.assert_allowed();
    assert_eq!(checked.message("rel"), "policy dir");
}
