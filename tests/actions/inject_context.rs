//! `inject_context`: plain and JSONL sources, misses, size limits, path templates, and the
//! same through the daemon.

use serde_json::json;

use super::{base, check, check_command, check_context, injected, policy, run_check};
use crate::daemon::{Daemon, exec};
use crate::util::Dir;

const MIB: usize = 1024 * 1024;

/// One `inject_context` hook named `name` with `fields` (YAML lines, four spaces in).
fn hook(name: &str, fields: &str) -> String {
    format!("  - name: {name}\n    point: turn:tool:pre\n    action: inject_context\n{fields}")
}

fn source(path: &str) -> String {
    format!("    source: \"{path}\"\n")
}

/// The block a `.jsonl` source turns into.
fn block(entries: &[&str]) -> String {
    let mut lines = vec![format!(
        "── Recent Topic Context (last {} interactions) ──",
        entries.len()
    )];
    lines.extend(entries.iter().map(|e| (*e).to_owned()));
    lines.push("── End Topic Context ──".to_owned());
    lines.join("\n")
}

#[test]
fn a_plain_file_is_injected_whole() {
    let dir = Dir::new();
    let content = "# Rules\n\n  héllo wörld ✓  \n";
    dir.write("ctx.md", content);
    policy(&dir, &hook("ctx", &source("ctx.md")));
    let checked = check(&dir);

    checked.assert_allowed();
    assert_eq!(checked.injected(), [content], "untrimmed, byte for byte");
    let result = checked.result("ctx");
    assert_eq!(result["action"], "inject_context");
    assert_eq!(result["passed"], true);
    assert_eq!(
        checked.message("ctx"),
        format!(
            "Injected context from \"{}\" ({} chars)",
            base(&dir).join("ctx.md").display(),
            content.chars().count()
        )
    );
    assert_eq!(
        (content.chars().count(), content.len()),
        (27, 31),
        "characters, not bytes"
    );
}

#[test]
fn source_wins_over_target_and_target_is_the_fallback() {
    let dir = Dir::new();
    dir.write("a.md", "from source");
    dir.write("b.md", "from target");
    policy(
        &dir,
        &[
            hook("both", &format!("{}    target: b.md\n", source("a.md"))),
            hook("fallback", "    target: b.md\n"),
            hook("neither", ""),
        ]
        .concat(),
    );
    let checked = check(&dir);

    checked.assert_allowed();
    assert_eq!(checked.injected(), ["from source", "from target"]);
    assert!(checked.message("both").contains("a.md"));
    assert!(checked.message("fallback").contains("b.md"));
    assert_eq!(
        checked.message("neither"),
        "No source configured; injection skipped."
    );
}

#[test]
fn injected_content_follows_hook_order() {
    let dir = Dir::new();
    dir.write("late.md", "late");
    dir.write("early.md", "early");
    super::script(&dir, "out.sh", "#!/bin/sh\necho from script\n");
    policy(
        &dir,
        &[
            hook("late", &format!("{}    priority: 10\n", source("late.md"))),
            "  - name: script\n    point: turn:tool:pre\n    action: exec_script\n    \
             target: out.sh\n    injectOutput: true\n    priority: 50\n"
                .to_owned(),
            hook(
                "early",
                &format!("{}    priority: 90\n", source("early.md")),
            ),
        ]
        .concat(),
    );
    let checked = check(&dir);
    checked.assert_allowed();
    assert_eq!(checked.injected(), ["early", "from script", "late"]);
}

#[test]
fn a_jsonl_source_injects_its_last_entries_as_a_block() {
    let dir = Dir::new();
    let log = [
        r#"{"timestamp":"t0","point":"turn:post","summary":"zero"}"#,
        r#"{"timestamp":"t1","point":"turn:post","summary":"one"}"#,
        r#"{"timestamp":"t2","summary":"two"}"#,
        "",
        r#"{"timestamp":1700000000000,"point":"turn:post","summary":"three"}"#,
        r#"{"timestamp":"t4","point":"cron:post","summary":"four"}"#,
        r#"{"timestamp":"t5","point":"turn:post","summary":"five"}"#,
    ]
    .join("\n");
    dir.write("topic.jsonl", &format!("{log}\n"));
    policy(
        &dir,
        &[
            hook("default", &source("topic.jsonl")),
            hook("two", &format!("{}    lastN: 2\n", source("topic.jsonl"))),
        ]
        .concat(),
    );
    let checked = check(&dir);

    checked.assert_allowed();
    let five = block(&[
        "[t1] turn:post: one",
        "[t2] two",
        "[1700000000000] turn:post: three",
        "[t4] cron:post: four",
        "[t5] turn:post: five",
    ]);
    let two = block(&["[t4] cron:post: four", "[t5] turn:post: five"]);
    assert_eq!(checked.injected(), [five.clone(), two.clone()]);
    assert_eq!(
        checked.message("default"),
        format!(
            "Injected context from \"{}\" ({} chars)",
            base(&dir).join("topic.jsonl").display(),
            five.chars().count()
        )
    );
}

#[test]
fn malformed_jsonl_lines_are_skipped() {
    let dir = Dir::new();
    let log = [
        r#"{"timestamp":"t1","point":"turn:post","summary":"one"}"#,
        "not json",
        r#"{"timestamp":"t2","summary":"two"}"#,
        "[1, 2]",
        r#"{"unrelated":true}"#,
        r#"{"timestamp":"t3","point":"turn:post","summary":"three"}"#,
        r#"{"timestamp":"t4","point":"turn:post","summary":"#,
    ]
    .join("\n");
    dir.write("topic.jsonl", &log);
    policy(
        &dir,
        &hook(
            "topic",
            &format!("{}    lastN: 10\n", source("topic.jsonl")),
        ),
    );
    let checked = check(&dir);

    checked.assert_allowed();
    assert_eq!(
        checked.injected(),
        [block(&[
            "[t1] turn:post: one",
            "[t2] two",
            "[t3] turn:post: three"
        ])]
    );

    // lastN counts lines: skipped lines inside the window leave fewer entries (the header
    // counts those shown).
    policy(
        &dir,
        &hook("topic", &format!("{}    lastN: 3\n", source("topic.jsonl"))),
    );
    assert_eq!(check(&dir).injected(), [block(&["[t3] turn:post: three"])]);
}

#[test]
fn a_missing_source_passes_and_injects_nothing() {
    let dir = Dir::new();
    policy(&dir, &hook("ctx", &source("missing.md")));
    let checked = check(&dir);

    checked.assert_allowed();
    assert!(checked.injected().is_empty(), "{}", checked.decision);
    assert_eq!(checked.result("ctx")["passed"], true);
    assert_eq!(
        checked.message("ctx"),
        format!(
            "Injection failed: ENOENT: no such file or directory, open '{}'",
            base(&dir).join("missing.md").display()
        )
    );
}

#[test]
fn an_unreadable_source_passes_and_injects_nothing() {
    let dir = Dir::new();
    std::fs::create_dir_all(base(&dir).join("a-directory")).expect("mkdir");
    policy(&dir, &hook("ctx", &source("a-directory")));
    let checked = check(&dir);

    checked.assert_allowed();
    assert!(checked.injected().is_empty(), "{}", checked.decision);
    let message = checked.message("ctx");
    let prefix = format!(
        "Injection failed: cannot read \"{}\": ",
        base(&dir).join("a-directory").display()
    );
    assert!(message.starts_with(&prefix), "{message}");
}

/// A source that is a FIFO or a device (or a link to one) is refused at once: a FIFO would
/// block the read until a writer came, `/dev/zero` never ends.
#[test]
fn a_fifo_or_device_source_passes_at_once_and_injects_nothing() {
    let dir = Dir::new();
    let fifo = base(&dir).join("pipe.md");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    std::os::unix::fs::symlink("/dev/zero", base(&dir).join("zero.md")).expect("symlink");
    policy(
        &dir,
        &[
            hook("fifo", &source("pipe.md")),
            hook("device", &source("/dev/zero")),
            hook("link", &source("zero.md")),
        ]
        .concat(),
    );
    let checked = check(&dir);

    checked.assert_allowed();
    assert!(checked.injected().is_empty(), "{}", checked.decision);
    assert_eq!(
        checked.message("fifo"),
        format!(
            "Injection failed: cannot read \"{}\": it is a FIFO, not a regular file",
            fifo.display()
        )
    );
    assert_eq!(
        checked.message("device"),
        "Injection failed: cannot read \"/dev/zero\": it is a character device, not a regular file"
    );
    assert_eq!(
        checked.message("link"),
        format!(
            "Injection failed: cannot read \"{}\": it is a character device, not a regular file",
            base(&dir).join("zero.md").display()
        )
    );
}

#[test]
fn an_empty_source_passes_and_injects_nothing() {
    let dir = Dir::new();
    dir.write("empty.md", "");
    // A JSONL log without a single usable entry is empty too.
    dir.write("junk.jsonl", "not json\n[1]\n{}\n");
    policy(
        &dir,
        &[
            hook("empty", &source("empty.md")),
            hook("junk", &source("junk.jsonl")),
        ]
        .concat(),
    );
    let checked = check(&dir);

    checked.assert_allowed();
    assert!(checked.injected().is_empty(), "{}", checked.decision);
    for (name, file) in [("empty", "empty.md"), ("junk", "junk.jsonl")] {
        assert_eq!(
            checked.message(name),
            format!(
                "Source \"{}\" is empty; injection skipped.",
                base(&dir).join(file).display()
            )
        );
    }
}

#[test]
fn a_plain_file_over_one_mebibyte_is_refused() {
    let dir = Dir::new();
    dir.write("big.md", &"a".repeat(MIB + 1));
    dir.write("limit.md", &"b".repeat(MIB));
    policy(
        &dir,
        &[
            hook("big", &source("big.md")),
            hook("limit", &source("limit.md")),
        ]
        .concat(),
    );
    let checked = check(&dir);

    checked.assert_allowed();
    assert_eq!(checked.result("big")["passed"], true);
    assert_eq!(
        checked.message("big"),
        format!(
            "Injection failed: \"{}\" is 1048577 bytes, over the 1048576-byte limit for injected files",
            base(&dir).join("big.md").display()
        )
    );
    // Exactly at the limit is still injected; only that one.
    let injected = checked.injected();
    assert_eq!(injected.len(), 1);
    assert_eq!(injected[0].len(), MIB);
    assert!(injected[0].bytes().all(|b| b == b'b'));
}

#[test]
fn a_jsonl_file_over_one_mebibyte_still_yields_its_last_entries() {
    let dir = Dir::new();
    let filler = format!(
        "{{\"timestamp\":\"old\",\"summary\":\"{}\"}}\n",
        "x".repeat(500)
    );
    let mut log = filler.repeat(2 * MIB / filler.len() + 1);
    log.push_str("{\"timestamp\":\"t1\",\"point\":\"turn:post\",\"summary\":\"penultimate\"}\n");
    log.push_str("{\"timestamp\":\"t2\",\"point\":\"turn:post\",\"summary\":\"last\"}\n");
    assert!(log.len() > 2 * MIB);
    dir.write("big.jsonl", &log);
    policy(
        &dir,
        &hook("log", &format!("{}    lastN: 2\n", source("big.jsonl"))),
    );
    let checked = check(&dir);

    checked.assert_allowed();
    assert_eq!(
        checked.injected(),
        [block(&[
            "[t1] turn:post: penultimate",
            "[t2] turn:post: last"
        ])]
    );
}

#[test]
fn a_templated_source_reads_the_topic_file_and_cannot_escape() {
    let dir = Dir::new();
    dir.write("ctx/42.md", "topic forty-two");
    dir.write("ctx/_.md", "dot-dot became an underscore");
    dir.write("secret.md", "SECRET");
    policy(&dir, &hook("topic", &source("ctx/{topicId}.md")));

    let topic = |id: serde_json::Value| {
        check_context(
            &dir,
            &json!({ "sessionKey": "s", "topicId": id, "toolName": "exec" }),
        )
    };
    let numeric = topic(json!(42));
    numeric.assert_allowed();
    assert_eq!(numeric.injected(), ["topic forty-two"]);
    assert!(
        numeric
            .message("topic")
            .contains(&base(&dir).join("ctx/42.md").display().to_string()),
        "{}",
        numeric.decision
    );

    for (hostile, rendered) in [
        ("../secret", "ctx/.._secret.md"),
        ("../../etc", "ctx/.._.._etc.md"),
        ("..\\secret", "ctx/.._secret.md"),
    ] {
        let checked = topic(json!(hostile));
        checked.assert_allowed();
        assert!(
            checked.injected().is_empty(),
            "{hostile}: {}",
            checked.decision
        );
        assert_eq!(
            checked.message("topic"),
            format!(
                "Injection failed: ENOENT: no such file or directory, open '{}'",
                base(&dir).join(rendered).display()
            ),
            "topicId {hostile}"
        );
    }
    let dots = topic(json!(".."));
    assert_eq!(dots.injected(), ["dot-dot became an underscore"]);

    // The shorthand flag works the same.
    let flag = run_check(
        check_command(&dir, &["--tool", "exec", "--topic", "42"]),
        None,
    );
    assert_eq!(flag.injected(), ["topic forty-two"]);
}

#[test]
fn the_daemon_returns_injected_context_and_rereads_the_source() {
    let dir = Dir::new();
    let root = base(&dir);
    dir.write("ctx.md", "first version");
    dir.write(
        "topic.jsonl",
        "{\"timestamp\":\"t1\",\"point\":\"turn:post\",\"summary\":\"one\"}\n",
    );
    policy(
        &dir,
        &[
            hook("ctx", &source("ctx.md")),
            hook("log", &source("topic.jsonl")),
        ]
        .concat(),
    );
    let d = Daemon::start(&dir, &[]);

    let first = d.decide(&exec("ls"));
    assert_eq!(first["decision"], "allow", "{first}");
    assert_eq!(
        injected(&first),
        ["first version".to_owned(), block(&["[t1] turn:post: one"])]
    );
    assert_eq!(first["results"][0]["action"], "inject_context");

    // Read on every call: no restart, no reload.
    std::fs::write(root.join("ctx.md"), "second version").expect("rewrite");
    std::fs::write(
        root.join("topic.jsonl"),
        "{\"timestamp\":\"t1\",\"point\":\"turn:post\",\"summary\":\"one\"}\n\
         {\"timestamp\":\"t2\",\"summary\":\"two\"}\n",
    )
    .expect("append");
    let second = d.decide(&exec("ls"));
    assert_eq!(
        injected(&second),
        [
            "second version".to_owned(),
            block(&["[t1] turn:post: one", "[t2] two"])
        ]
    );

    // A missing source still allows, with nothing injected.
    std::fs::remove_file(root.join("ctx.md")).expect("rm");
    let third = d.decide(&exec("ls"));
    assert_eq!(third["decision"], "allow", "{third}");
    assert_eq!(
        injected(&third),
        [block(&["[t1] turn:post: one", "[t2] two"])]
    );
}

/// Regression (dc91a95): with a relative `--config`, the source path in messages was relative.
#[test]
fn a_relative_config_reports_absolute_source_paths() {
    let dir = Dir::new();
    dir.write("policy/ctx.md", "hello\n");
    dir.write("ctx.md", "working directory\n");
    let yaml = format!("version: \"1\"\nhooks:\n{}", hook("ctx", &source("ctx.md")));
    dir.write("policy/HOOKS.yaml", &yaml);
    dir.write("HOOKS.yaml", &yaml);
    for (config, file, content) in [
        ("policy/HOOKS.yaml", "policy/ctx.md", "hello\n"),
        ("HOOKS.yaml", "ctx.md", "working directory\n"),
    ] {
        let checked = run_check(
            dir.hookgate(&[
                "check",
                "--config",
                config,
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
        assert_eq!(checked.injected(), [content], "the policy's own file");
        assert_eq!(
            checked.message("ctx"),
            format!(
                "Injected context from \"{}\" ({} chars)",
                base(&dir).join(file).display(),
                content.chars().count()
            ),
            "--config {config}"
        );
    }
}
