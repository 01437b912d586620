//! `hookgate lint`: the real binary on policies with planted smells, on clean and invalid
//! policies, and on the repository's own policies.

use serde_json::Value;

use crate::util::{Dir, code, repo, run, stderr, stdout};

/// One smell per code, each on a line the test finds by its text.
const SMELLY: &str = r#"version: "1"
hooks:
  - name: audit
    point: [turn:tool:pre, subagent:tool:pre]
    priority: 100
    action: log
  - name: no-sub-browser
    point: subagent:tool:pre
    match: { tool: browser, isSubAgent: true }
    action: block
  - name: log-sub-browser
    point: subagent:tool:pre
    match: { isSubAgent: true, tool: browser }
    action: log
  - name: main-only
    point: turn:tool:pre
    match: { isSubAgent: false, sessionPattern: ':subagent:' }
    action: log
  - name: rm-on-read
    point: turn:tool:pre
    match: { tool: Read, commandPattern: 'rm\s+-rf' }
    action: block
  - name: no-pipe-to-shell
    point: turn:tool:pre
    match: { tool: exec, commandPattern: '^curl\s.*\|\s*sh\b' }
    action: block
    onFailure: { action: continue, message: "no" }
  - name: ask-push
    point: turn:tool:pre
    match: { tool: exec, commandPattern: '^git\s+push\b' }
    action: require_approval
    risk: critical
    timeoutAction: allow
  - name: log-publish
    point: turn:tool:pre
    match: { tool: exec, commandPattern: '^npm\s+publish\b' }
    action: log
  - name: log-publish-again
    point: turn:tool:pre
    match: { commandPattern: '^npm\s+publish\b', tool: exec }
    action: log
  - name: no-evil-fetch
    point: turn:tool:pre
    match: { tool: web_fetch, args: { url: 'https://evil.example/' } }
    action: block
  - name: no-sudo
    point: turn:tool:pre
    match: { tool: exec, commandPattern: sudo }
    action: block
"#;

/// The 1-based line of the first line of `text` holding `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("`{needle}` not in the policy"))
}

/// The findings of a `--format json` run.
fn json_findings(out: &std::process::Output) -> Vec<Value> {
    serde_json::from_str::<Vec<Value>>(&stdout(out))
        .unwrap_or_else(|e| panic!("not a JSON array ({e}): {}", stdout(out)))
}

/// A finding's code without its `hookgate::` prefix, after checking that it has the prefix
/// and is a warning: the shape every diagnostic has in JSON.
fn lint_code(f: &Value) -> String {
    assert_eq!(f["severity"], "warning", "{f}");
    let code = f["code"].as_str().unwrap_or_default();
    code.strip_prefix("hookgate::")
        .unwrap_or_else(|| panic!("a code without its prefix: {f}"))
        .to_owned()
}

fn summary(findings: &[Value]) -> Vec<(String, usize)> {
    findings
        .iter()
        .map(|f| {
            (
                lint_code(f),
                f["line"].as_u64().unwrap_or_default() as usize,
            )
        })
        .collect()
}

#[test]
fn every_planted_smell_is_reported_at_its_line() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", SMELLY);
    let out = run(dir.hookgate(&["lint", "--format", "json"]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let findings = json_findings(&out);
    let at = |needle: &str| line_of(SMELLY, needle);
    let expected: Vec<(String, usize)> = vec![
        ("shadowed".into(), at("name: log-sub-browser")),
        ("contradiction".into(), at("sessionPattern: ':subagent:'")),
        ("tool-subject".into(), at("tool: Read, commandPattern")),
        ("fails-open".into(), at("action: continue")),
        ("approval-times-out-open".into(), at("timeoutAction: allow")),
        ("duplicate".into(), at("name: log-publish-again")),
        ("unescaped-dot".into(), at("evil.example")),
        ("unanchored".into(), at("commandPattern: sudo")),
    ];
    assert_eq!(summary(&findings), expected, "{findings:#?}");

    // A finding about two hooks names the other one as a related place.
    let related = |code: &str| {
        let f = findings.iter().find(|f| lint_code(f) == code);
        f.and_then(|f| f["related"][0]["line"].as_u64())
            .unwrap_or_default() as usize
    };
    assert_eq!(related("shadowed"), at("name: no-sub-browser"));
    let original = SMELLY
        .lines()
        .position(|l| l.ends_with("name: log-publish"));
    assert_eq!(Some(related("duplicate")), original.map(|i| i + 1));
    assert!(
        findings
            .iter()
            .filter(|f| lint_code(f) == "unanchored")
            .all(|f| f.get("related").is_none())
    );

    // Columns: the most specific field.
    let column = |code: &str| {
        findings
            .iter()
            .find(|f| lint_code(f) == code)
            .and_then(|f| f["column"].as_u64())
            .unwrap_or_default() as usize
    };
    let dot_line = SMELLY
        .lines()
        .nth(at("evil.example") - 1)
        .unwrap_or_default();
    let dot_column = dot_line
        .find("evil.example")
        .map(|i| dot_line[..i].chars().count() + "evil".len() + 1)
        .unwrap_or_default();
    assert_eq!(column("unescaped-dot"), dot_column);
    let fails_line = SMELLY
        .lines()
        .nth(at("action: continue") - 1)
        .unwrap_or_default();
    assert_eq!(
        column("fails-open"),
        fails_line.find("continue").unwrap_or_default() + 1
    );
    assert_eq!(column("shadowed"), 5);

    // Every finding names its file and field, says what is wrong and how to fix it.
    for f in &findings {
        assert!(
            f["file"]
                .as_str()
                .is_some_and(|p| p.ends_with("HOOKS.yaml")),
            "{f}"
        );
        assert!(
            f["path"].as_str().is_some_and(|p| p.starts_with("hooks[")),
            "{f}"
        );
        assert!(f["message"].as_str().is_some_and(|m| !m.is_empty()), "{f}");
        assert!(f["help"].as_str().is_some_and(|h| !h.is_empty()), "{f}");
    }
    let shadowed = &findings[0];
    assert!(
        shadowed["message"]
            .as_str()
            .is_some_and(|m| m.contains("`no-sub-browser`")
                && m.contains(&format!("line {}", at("name: no-sub-browser")))),
        "{shadowed}"
    );
}

#[test]
fn text_output_shows_snippets_and_a_summary() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", SMELLY);
    let out = run(dir.hookgate(&["lint"]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let text = stdout(&out);
    let line = line_of(SMELLY, "commandPattern: sudo");
    assert!(
        text.contains(&format!("HOOKS.yaml:{line}:")) && text.contains("[unanchored]"),
        "{text}"
    );
    assert!(text.contains("help:"), "{text}");
    assert!(
        text.contains("match: { tool: exec, commandPattern: sudo }"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("8 warnings"), "{text}");
}

#[test]
fn allow_leaves_codes_out() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", SMELLY);
    let out = run(dir.hookgate(&[
        "lint",
        "--format",
        "json",
        "--allow",
        "unanchored",
        "--allow",
        // The code as JSON prints it is taken too.
        "hookgate::shadowed",
    ]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let codes: Vec<String> = summary(&json_findings(&out))
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    assert_eq!(codes.len(), 6, "{codes:?}");
    assert!(!codes.iter().any(|c| c == "unanchored" || c == "shadowed"));

    // Every code allowed: nothing left, exit 0.
    let mut args = vec!["lint"];
    for c in [
        "shadowed",
        "contradiction",
        "tool-subject",
        "fails-open",
        "approval-times-out-open",
        "duplicate",
        "unescaped-dot",
        "unanchored",
    ] {
        args.extend(["--allow", c]);
    }
    let out = run(dir.hookgate(&args));
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).contains("no smells found"));

    // An unknown code is a usage error that lists the codes.
    let out = run(dir.hookgate(&["lint", "--allow", "shadow"]));
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("unknown lint code `shadow`"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("shadowed"), "{}", stderr(&out));
}

#[test]
fn a_clean_policy_exits_0() {
    let dir = Dir::new();
    dir.write(
        "policy.yaml",
        "version: \"1\"\nhooks:\n  - name: audit\n    point: turn:tool:pre\n    priority: 100\n    action: log\n  - name: no-rm\n    point: turn:tool:pre\n    match: { tool: exec, commandPattern: '^rm\\s+-[a-zA-Z]*[rf]' }\n    action: block\n",
    );
    let out = run(dir.hookgate(&["lint", "policy.yaml"]));
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out), "no smells found\n");
    let out = run(dir.hookgate(&["lint", "--config", "policy.yaml", "--format", "json"]));
    assert_eq!(code(&out), 0);
    assert_eq!(json_findings(&out), Vec::<Value>::new());
}

#[test]
fn an_invalid_policy_exits_1_with_the_error_line() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\nhooks:\n  - name: x\n    point: trun:pre\n    action: block\n",
    );
    let out = run(dir.hookgate(&["lint"]));
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("HOOKS.yaml:4:"), "{}", stderr(&out));
    let out = run(dir.hookgate(&["lint", "--format", "json"]));
    assert_eq!(code(&out), 1);
    let diagnostics = json_findings(&out);
    assert_eq!(diagnostics[0]["line"], 4, "{diagnostics:#?}");
    // A missing file is an error too.
    let out = run(dir.hookgate(&["lint", "missing.yaml"]));
    assert_eq!(code(&out), 1);
}

#[test]
fn composition_warnings_are_findings_in_their_file() {
    let dir = Dir::new();
    dir.write(
        "packs/base.yaml",
        "version: \"1\"\ndefaults: { mode: audit }\nhooks:\n  - name: pack-log\n    point: turn:pre\n    match: { tool: exec }\n    action: log\n",
    );
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\ninclude: [packs/base.yaml]\nhooks:\n  - name: root-log\n    point: turn:pre\n    match: { tool: exec }\n    action: log\n",
    );
    let out = run(dir.hookgate(&["lint", "--format", "json"]));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let findings = json_findings(&out);
    let found: Vec<(String, usize, bool)> = findings
        .iter()
        .map(|f| {
            (
                lint_code(f),
                f["line"].as_u64().unwrap_or_default() as usize,
                f["file"].as_str().is_some_and(|p| p.ends_with("base.yaml")),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("composition".to_owned(), 2, true),
            ("conflict".to_owned(), 4, true)
        ],
        "{findings:#?}"
    );
}

#[test]
fn the_repository_policies_lint_clean() {
    let mut files = vec![repo().join("HOOKS.yaml")];
    let mut packs: Vec<_> = std::fs::read_dir(repo().join("policies"))
        .expect("policies/")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "yaml")
                && !p.to_string_lossy().ends_with(".test.yaml")
        })
        .collect();
    packs.sort();
    files.extend(packs);
    let dir = Dir::new();
    for file in files {
        let path = file.to_string_lossy().into_owned();
        let out = run(dir.hookgate(&["lint", "--format", "json", &path]));
        assert_eq!(code(&out), 0, "{path}: {}{}", stdout(&out), stderr(&out));
    }
}
