//! `hookgate test`: the real binary on test files in a scratch directory: results and exit
//! codes, expectations on hook and message, JUnit XML, coverage, malformed files, directory
//! search, and the dry run of side effects.

use serde_json::Value;

use crate::util::{Dir, code, run, stderr, stdout};

const POLICY: &str = r#"version: "1"
hooks:
  - name: audit
    point: turn:tool:pre
    priority: 100
    action: log
    target: logs/audit.jsonl
  - name: rm-guard
    point: turn:tool:pre
    match: { tool: exec, commandPattern: '^rm\s+-[a-zA-Z]*[rf]' }
    action: block
    onFailure: { action: block, message: "Blocked: recursive rm" }
  - name: no-secrets
    point: turn:tool:pre
    match: { tool: Read, pathGlob: "**/.ssh/id_*" }
    action: block
  - name: fork-bomb
    point: turn:tool:pre
    match: { commandPattern: ':\(\)\s*\{' }
    action: block
  - name: ask-deploy
    point: turn:tool:pre
    match: { tool: exec, commandPattern: '^deploy' }
    action: require_approval
  - name: switched-off
    point: turn:tool:pre
    enabled: false
    action: block
"#;

const PASSING: &str = r#"policy: policy.yaml
cases:
  - name: recursive rm is blocked
    tool: exec
    command: "rm -rf /"
    expect: block
    hook: rm-guard
    message: recursive
  - name: ls is allowed
    tool: exec
    command: "ls -la"
    expect: allow
  - name: reading an ssh key is blocked
    tool: Read
    args: { file_path: /home/me/.ssh/id_rsa }
    expect: block
    hook: no-secrets
  - name: deploy asks a human
    tool: exec
    command: deploy prod
    expect: ask
    hook: ask-deploy
  - name: a whole context
    context: { sessionKey: "agent:main:main", toolName: exec, toolArgs: { command: "rm -r /tmp/x" } }
    expect: block
"#;

/// The 1-based line of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("{needle} not in the text"))
}

#[test]
fn an_all_passing_file_exits_0_with_one_line_per_case() {
    let dir = Dir::new();
    dir.write("policy.yaml", POLICY);
    dir.write("destructive.test.yaml", PASSING);
    let out = run(dir.hookgate(&["test"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    assert!(
        text.contains("running 5 cases from destructive.test.yaml (policy policy.yaml)"),
        "{text}"
    );
    for name in [
        "recursive rm is blocked",
        "ls is allowed",
        "reading an ssh key is blocked",
        "deploy asks a human",
        "a whole context",
    ] {
        assert!(text.contains(&format!("test {name} ... ok\n")), "{text}");
    }
    let case_lines = text
        .lines()
        .filter(|l| l.starts_with("test ") && l.contains(" ... "));
    assert_eq!(case_lines.count(), 5, "{text}");
    assert!(!text.contains("failures:"), "{text}");
    let last = text.lines().last().unwrap_or_default();
    assert_eq!(last, "test result: ok. 5 passed, 0 failed", "{text}");
}

#[test]
fn a_failing_case_exits_1_and_explains_itself() {
    let dir = Dir::new();
    dir.write("policy.yaml", POLICY);
    dir.write(
        "t.test.yaml",
        r#"policy: policy.yaml
cases:
  - { name: rm is blocked, tool: exec, command: "rm -rf /", expect: block }
  - { name: git push is allowed, tool: exec, command: "rm -f x", expect: allow }
  - { name: cat is blocked, tool: exec, command: "cat notes", expect: block }
"#,
    );
    let out = run(dir.hookgate(&["test", "t.test.yaml"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert!(text.contains("test rm is blocked ... ok\n"), "{text}");
    assert!(
        text.contains("test git push is allowed ... FAILED\n"),
        "{text}"
    );
    assert!(text.contains("test cat is blocked ... FAILED\n"), "{text}");
    assert!(text.contains("\nfailures:\n"), "{text}");
    assert!(
        text.contains("---- t.test.yaml (line 4): git push is allowed ----\nexpected allow, got block by rm-guard: \"Blocked: recursive rm\"\n"),
        "{text}"
    );
    assert!(
        text.contains("expected block, got allow (hooks that ran: audit)"),
        "{text}"
    );
    assert!(
        text.contains("test result: FAILED. 1 passed, 2 failed"),
        "{text}"
    );
}

#[test]
fn hook_and_message_expectations_are_checked() {
    let dir = Dir::new();
    dir.write("policy.yaml", POLICY);
    dir.write(
        "t.test.yaml",
        r#"policy: policy.yaml
cases:
  - { name: right hook and message, tool: exec, command: "rm -rf /", expect: block, hook: rm-guard, message: "recursive rm" }
  - { name: wrong hook, tool: exec, command: "rm -rf /", expect: block, hook: no-secrets }
  - { name: wrong message, tool: exec, command: "rm -rf /", expect: block, message: "forced push" }
"#,
    );
    let out = run(dir.hookgate(&["test", "t.test.yaml"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert!(
        text.contains("test right hook and message ... ok"),
        "{text}"
    );
    assert!(text.contains("test wrong hook ... FAILED"), "{text}");
    assert!(text.contains("test wrong message ... FAILED"), "{text}");
    assert!(
        text.contains("expected the decision by hook `no-secrets`, got block by rm-guard: \"Blocked: recursive rm\""),
        "{text}"
    );
    assert!(
        text.contains("expected the message to contain \"forced push\", got block by rm-guard"),
        "{text}"
    );
    assert!(text.contains("1 passed, 2 failed"), "{text}");
}

#[test]
fn coverage_names_the_enabled_hooks_no_case_exercised() {
    let dir = Dir::new();
    dir.write("policy.yaml", POLICY);
    dir.write("destructive.test.yaml", PASSING);
    let out = run(dir.hookgate(&["test"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "coverage alone does not fail: {text}");
    let line = line_of(POLICY, "- name: fork-bomb");
    assert!(
        text.contains(&format!(
            "coverage: policy.yaml: 4 of 5 enabled hooks exercised; not exercised: fork-bomb (line {line})"
        )),
        "{text}"
    );
    // A disabled hook is not counted.
    assert!(!text.contains("switched-off"), "{text}");

    let out = run(dir.hookgate(&["test", "--fail-uncovered"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert!(
        text.contains("test result: FAILED. 5 passed, 0 failed, 1 hook not exercised"),
        "{text}"
    );
}

#[test]
fn a_malformed_test_file_names_its_line_and_the_others_still_run() {
    let dir = Dir::new();
    dir.write("policy.yaml", POLICY);
    dir.write("a.test.yaml", PASSING);
    dir.write(
        "b.test.yaml",
        "policy: policy.yaml\ncases:\n  - name: typo\n    tool: exec\n    comand: rm -rf /\n    expect: block\n",
    );
    let out = run(dir.hookgate(&["test"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert!(
        text.contains("error: `b.test.yaml` is not a valid test file: 1 problem"),
        "{text}"
    );
    assert!(
        text.contains("b.test.yaml:5:5: cases[0].comand: unknown field `comand`"),
        "{text}"
    );
    assert!(text.contains("did you mean `command`?"), "{text}");
    // The good file ran.
    assert!(
        text.contains("test recursive rm is blocked ... ok"),
        "{text}"
    );
    assert!(
        text.contains("test result: FAILED. 5 passed, 0 failed, 1 error"),
        "{text}"
    );

    // `context` with shorthand, and an unknown point, are errors too.
    dir.write(
        "b.test.yaml",
        "cases:\n  - name: both\n    context: { sessionKey: s }\n    tool: exec\n    point: turn:tool:pr\n    expect: allow\n",
    );
    let out = run(dir.hookgate(&["test", "b.test.yaml", "--config", "policy.yaml"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert!(
        text.contains(
            "b.test.yaml:4:5: cases[0].tool: `tool` cannot be used together with `context`"
        ),
        "{text}"
    );
    assert!(
        text.contains("b.test.yaml:5:12: cases[0].point: unknown lifecycle point `turn:tool:pr`"),
        "{text}"
    );
}

#[test]
fn a_policy_that_cannot_be_loaded_is_an_error() {
    let dir = Dir::new();
    dir.write(
        "t.test.yaml",
        "policy: missing.yaml\ncases: [{ name: x, expect: allow }]\n",
    );
    dir.write("u.test.yaml", "cases: [{ name: y, expect: allow }]\n");
    let out = run(dir.hookgate(&["test"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert!(
        text.contains("error: t.test.yaml: cannot read policy file `missing.yaml`"),
        "{text}"
    );
    // Without `policy:` nor --config, discovery finds nothing here.
    assert!(
        text.contains("error: u.test.yaml: no policy file found"),
        "{text}"
    );
    assert!(text.contains("0 passed, 0 failed, 2 errors"), "{text}");
}

#[test]
fn files_without_policy_use_config_or_discovery() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    dir.write("other.yaml", "version: \"1\"\nhooks: []\n");
    dir.write(
        "t.test.yaml",
        "cases: [{ name: rm, tool: exec, command: rm -rf /, expect: block }]\n",
    );
    let out = run(dir.hookgate(&["test"]));
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("(policy HOOKS.yaml)"),
        "{}",
        stdout(&out)
    );

    let out = run(dir.hookgate(&["test", "--config", "other.yaml"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert!(text.contains("(policy other.yaml)"), "{text}");
    assert!(
        text.contains("expected block, got allow (no hook matched)"),
        "{text}"
    );
}

#[test]
fn directories_are_searched_for_test_files() {
    let dir = Dir::new();
    dir.write("policies/policy.yaml", POLICY);
    dir.write(
        "policies/sub/a.test.yaml",
        "policy: ../policy.yaml\ncases: [{ name: in a subdirectory, tool: exec, command: rm -rf /, expect: block }]\n",
    );
    dir.write(
        "policies/b.test.yml",
        "policy: policy.yaml\ncases: [{ name: yml too, tool: exec, command: ls, expect: allow }]\n",
    );
    // Not test files, or in skipped directories: broken on purpose, never read.
    dir.write("policies/notes.yaml", "not: [a test\n");
    dir.write("node_modules/pkg/x.test.yaml", "not: [a test\n");
    dir.write("target/y.test.yaml", "not: [a test\n");
    let out = run(dir.hookgate(&["test"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    let b = text.find("running 1 case from policies/b.test.yml (policy policies/policy.yaml)");
    // One policy, named as the first file that used it named it.
    let a = text.find("running 1 case from policies/sub/a.test.yaml (policy policies/policy.yaml)");
    assert!(
        b.is_some() && a.is_some() && b < a,
        "sorted by path: {text}"
    );
    assert!(text.contains("test in a subdirectory ... ok"), "{text}");
    assert!(text.contains("test yml too ... ok"), "{text}");
    assert!(text.contains("2 passed, 0 failed"), "{text}");

    let out = run(dir.hookgate(&["test", "policies/sub"]));
    assert_eq!(code(&out), 0);
    assert!(
        stdout(&out).contains("1 passed, 0 failed"),
        "{}",
        stdout(&out)
    );

    let empty = Dir::new();
    let out = run(empty.hookgate(&["test"]));
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("no test files"), "{}", stderr(&out));
}

#[test]
fn a_test_run_writes_no_audit_log_unless_live() {
    let dir = Dir::new();
    dir.write("policy.yaml", POLICY);
    dir.write("destructive.test.yaml", PASSING);
    let log = dir.path().join("logs/audit.jsonl");

    let out = run(dir.hookgate(&["test"]));
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(!log.exists(), "a dry run wrote the audit log");

    let out = run(dir.hookgate(&["test", "--live-actions"]));
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let written = std::fs::read_to_string(&log).expect("the live run wrote the audit log");
    assert_eq!(written.lines().count(), 5, "{written}");
}

#[test]
fn scripts_and_matchers_run_in_a_dry_run() {
    let dir = Dir::new();
    dir.write(
        "policy.yaml",
        r#"version: "1"
hooks:
  - name: script-gate
    point: turn:tool:pre
    match: { tool: exec }
    action: exec_script
    script: 'touch ran; case "$HOOK_ARGS" in *forbidden*) echo no >&2; exit 1;; esac'
"#,
    );
    dir.write(
        "t.test.yaml",
        r#"policy: policy.yaml
cases:
  - { name: the script blocks, tool: exec, command: forbidden thing, expect: block, hook: script-gate, message: "exit 1" }
  - { name: the script allows, tool: exec, command: fine, expect: allow }
"#,
    );
    let out = run(dir.hookgate(&["test"]));
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(dir.path().join("ran").exists());
}

#[test]
fn junit_output_is_well_formed_with_the_right_counts() {
    let dir = Dir::new();
    dir.write("policy.yaml", POLICY);
    dir.write(
        "a.test.yaml",
        r#"policy: policy.yaml
cases:
  - { name: "quotes \"q\" & <tags> 'too'", tool: exec, command: "rm -rf /", expect: block }
  - { name: fails, tool: exec, command: "rm -rf /", expect: allow }
  - { name: passes, tool: exec, command: ls, expect: allow }
"#,
    );
    dir.write("b.test.yaml", "cases:\n  - name: x\n    expekt: block\n");
    let out = run(dir.hookgate(&["test", "--format", "junit"]));
    assert_eq!(code(&out), 1);
    let xml = stdout(&out);
    assert_well_formed(&xml);
    assert!(
        xml.contains(r#"<testsuites name="hookgate test" tests="4" failures="1" errors="1""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<testsuite name="a.test.yaml" tests="3" failures="1" errors="0""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<testsuite name="b.test.yaml" tests="1" failures="0" errors="1""#),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 4, "{xml}");
    assert!(
        xml.contains(r#"<testcase name="quotes &quot;q&quot; &amp; &lt;tags&gt; &apos;too&apos;" classname="a.test.yaml""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure message="expected allow, got block by rm-guard: &quot;Blocked: recursive rm&quot;""#),
        "{xml}"
    );
    assert!(
        xml.contains("<error message=\"`b.test.yaml` is not a valid test file"),
        "{xml}"
    );
    assert!(
        xml.contains("b.test.yaml:3:5: cases[0].expekt: unknown field"),
        "{xml}"
    );
    // Diagnostics go to stderr, so stdout stays XML.
    assert!(stderr(&out).contains("b.test.yaml:3:5"), "{}", stderr(&out));
}

#[test]
fn json_output_has_cases_decisions_and_a_summary() {
    let dir = Dir::new();
    dir.write("policy.yaml", POLICY);
    dir.write("destructive.test.yaml", PASSING);
    let out = run(dir.hookgate(&["test", "--format", "json"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(doc["summary"]["passed"], 5);
    assert_eq!(doc["summary"]["failed"], 0);
    assert_eq!(doc["summary"]["ok"], true);
    let cases = &doc["files"][0]["cases"];
    assert_eq!(cases[0]["name"], "recursive rm is blocked");
    assert_eq!(cases[0]["decision"]["hook"], "rm-guard");
    assert_eq!(doc["coverage"][0]["unexercised"][0]["hook"], "fork-bomb");
}

/// A small well-formedness check (no XML parser among the dependencies): one declaration,
/// balanced tags, quoted attributes, only the five entities and decimal or hex references,
/// no character XML 1.0 forbids.
fn assert_well_formed(xml: &str) {
    let body = xml
        .strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .unwrap_or_else(|| panic!("no XML declaration: {xml}"));
    let mut open: Vec<&str> = Vec::new();
    let mut rest = body;
    let mut roots = 0;
    while let Some(start) = rest.find('<') {
        check_text(&rest[..start], xml);
        let end = start
            + rest[start..]
                .find('>')
                .unwrap_or_else(|| panic!("unclosed tag: {xml}"));
        let tag = &rest[start + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name), "mismatched </{name}>: {xml}");
        } else {
            let closed = tag.ends_with('/');
            let tag = tag.trim_end_matches('/');
            let (name, mut attrs) = tag.split_once(' ').unwrap_or((tag, ""));
            assert!(
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
                "bad tag name {name:?}: {xml}"
            );
            while !attrs.trim().is_empty() {
                let (key, after) = attrs
                    .trim_start()
                    .split_once("=\"")
                    .unwrap_or_else(|| panic!("bad attribute in <{tag}>: {xml}"));
                assert!(key.chars().all(|c| c.is_ascii_alphanumeric()), "{key:?}");
                let (value, after) = after
                    .split_once('"')
                    .unwrap_or_else(|| panic!("unterminated attribute in <{tag}>"));
                assert!(!value.contains('<'), "raw < in attribute: {value}");
                check_text(value, xml);
                attrs = after;
            }
            if open.is_empty() {
                roots += 1;
            }
            if !closed {
                open.push(name);
            }
        }
        rest = &rest[end + 1..];
    }
    check_text(rest, xml);
    assert!(open.is_empty(), "unclosed elements {open:?}: {xml}");
    assert_eq!(roots, 1, "one root element: {xml}");
}

fn check_text(text: &str, xml: &str) {
    for c in text.chars() {
        assert!(
            !c.is_control() || matches!(c, '\t' | '\n' | '\r'),
            "control character {c:?} in XML: {xml}"
        );
    }
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        let after = &rest[i + 1..];
        let end = after
            .find(';')
            .unwrap_or_else(|| panic!("bare & in {text:?}"));
        let entity = &after[..end];
        let known = matches!(entity, "amp" | "lt" | "gt" | "quot" | "apos")
            || entity
                .strip_prefix('#')
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        assert!(known, "unknown entity &{entity}; in {text:?}");
        rest = &after[end + 1..];
    }
}

#[test]
fn coverage_names_the_file_of_an_included_hook() {
    let dir = Dir::new();
    dir.write(
        "policy.yaml",
        "version: \"1\"\ninclude: [packs/extra.yaml]\nhooks:\n  - { name: root-rm, point: turn:tool:pre, match: { commandPattern: '^rm ' }, action: block }\n",
    );
    let pack = "version: \"1\"\nhooks:\n  - { name: pack-dd, point: turn:tool:pre, match: { commandPattern: '^dd ' }, action: block }\n  - { name: pack-mkfs, point: turn:tool:pre, match: { commandPattern: '^mkfs' }, action: block }\n";
    dir.write("packs/extra.yaml", pack);
    dir.write(
        "t.test.yaml",
        "policy: policy.yaml\ncases:\n  - { name: rm, tool: exec, command: rm -r x, expect: block, hook: root-rm }\n  - { name: dd, tool: exec, command: dd if=x, expect: block, hook: pack-dd }\n",
    );
    let out = run(dir.hookgate(&["test"]));
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    let line = line_of(pack, "pack-mkfs");
    assert!(
        text.contains(&format!(
            "coverage: policy.yaml: 2 of 3 enabled hooks exercised; not exercised: pack-mkfs (packs/extra.yaml line {line})"
        )),
        "{text}"
    );
}

#[test]
fn the_shipped_packs_pass_their_tests_with_every_hook_exercised() {
    let out = run(Dir::new().hookgate(&[
        "test",
        "--fail-uncovered",
        &crate::util::repo().join("policies").to_string_lossy(),
    ]));
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    assert!(text.contains(" passed, 0 failed"), "{text}");
    // Every pack has a test file.
    for entry in std::fs::read_dir(crate::util::repo().join("policies")).expect("policies/") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if let Some(stem) = name.strip_suffix(".yaml").filter(|s| !s.ends_with(".test")) {
            assert!(
                path.with_file_name(format!("{stem}.test.yaml")).is_file(),
                "{name} has no test file"
            );
        }
    }
}
