use serde_json::json;

use super::*;

fn parse(text: &str) -> Result<TestFile, LoadError> {
    parse_str(text, Path::new("policies/x.test.yaml"))
}

fn problems(text: &str) -> Vec<String> {
    match parse(text) {
        Ok(file) => panic!("expected problems, got {file:?}"),
        Err(e) => e.diagnostics().iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn expect_may_be_a_mapping_with_the_decision_hook_and_message() {
    let file = parse(
        "cases:\n  - name: a\n    tool: exec\n    command: rm -rf /\n    expect: { decision: block, hook: rm-guard, message: recursive }\n",
    )
    .expect("parses");
    let expect = &file.cases[0].expect;
    assert_eq!(expect.verdict, Verdict::Block);
    assert_eq!(expect.hook.as_deref(), Some("rm-guard"));
    assert_eq!(expect.message.as_deref(), Some("recursive"));

    let found = problems(
        "cases:\n  - name: a\n    expect: { decison: block }\n  - name: b\n    hook: x\n    expect: { decision: block, hook: y }\n",
    );
    assert!(found.iter().any(|p| p.contains("3:15: cases[0].expect.decison: unknown field `decison` (help: did you mean `decision`?)")), "{found:#?}");
    assert!(
        found
            .iter()
            .any(|p| p.contains("cases[0].expect: missing field `decision`")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains("5:5: cases[1].hook: `hook` is given inside `expect` too")),
        "{found:#?}"
    );
}

#[test]
fn shorthand_becomes_a_context() {
    let file = parse(
        r#"
policy: destructive.yaml
cases:
  - name: rm
    tool: exec
    command: "rm -rf /"
    args: { cwd: /tmp, n: 3 }
    prompt: clean up
    topic: 42
    expect: block
    hook: rm-guard
    message: recursive
  - name: sub
    point: subagent:tool:pre
    subagent: true
    tool: browser
    topic: general
    expect: allow
"#,
    )
    .expect("valid");
    assert_eq!(
        file.policy,
        Some(PathBuf::from("policies/destructive.yaml"))
    );
    let rm = &file.cases[0];
    assert_eq!(rm.name, "rm");
    assert_eq!(rm.line, 4);
    assert_eq!(rm.point, Point::TurnToolPre);
    assert_eq!(rm.context.session_key, DEFAULT_SESSION);
    assert_eq!(rm.context.tool_name.as_deref(), Some("exec"));
    assert_eq!(rm.context.prompt.as_deref(), Some("clean up"));
    assert_eq!(rm.context.topic_id, Some(json!(42)));
    assert_eq!(
        rm.context
            .tool_args
            .as_ref()
            .map(|a| Value::Object(a.clone())),
        Some(json!({ "cwd": "/tmp", "n": 3, "command": "rm -rf /" }))
    );
    assert_eq!(
        rm.expect,
        Expectation {
            verdict: Verdict::Block,
            hook: Some("rm-guard".into()),
            message: Some("recursive".into()),
        }
    );
    let sub = &file.cases[1];
    assert_eq!(sub.point, Point::SubagentToolPre);
    assert_eq!(sub.context.session_key, DEFAULT_SUBAGENT_SESSION);
    assert!(sub.context.is_sub_agent());
    assert_eq!(sub.context.topic_id, Some(json!("general")));
    assert_eq!(sub.context.tool_args, None);
}

#[test]
fn a_whole_context_is_taken_as_is() {
    let file = parse(
        r#"
cases:
  - name: ctx
    context: { sessionKey: "agent:main:main", toolName: Read, toolArgs: { file_path: /etc/passwd }, point: turn:tool:post }
    expect: ask
"#,
    )
    .expect("valid");
    assert_eq!(file.policy, None);
    let case = &file.cases[0];
    assert_eq!(case.point, Point::TurnToolPost);
    assert_eq!(case.context.session_key, "agent:main:main");
    assert_eq!(case.context.tool_name.as_deref(), Some("Read"));
    assert_eq!(case.expect.verdict, Verdict::Ask);
}

#[test]
fn context_with_shorthand_is_rejected_at_each_shorthand_key() {
    let found = problems(
        "cases:\n  - name: both\n    tool: exec\n    context: { sessionKey: s }\n    command: ls\n    expect: allow\n",
    );
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with(
            "policies/x.test.yaml:3:5: cases[0].tool: `tool` cannot be used together with `context`"
        ),
        "{found:?}"
    );
    assert!(found[1].starts_with("policies/x.test.yaml:5:5: cases[0].command:"));
}

#[test]
fn unknown_keys_are_rejected_with_their_line_and_a_suggestion() {
    let found = problems(
        "cases:\n  - name: typo\n    tool: exec\n    comand: ls\n    expect: block\nextra: 1\n",
    );
    assert_eq!(
        found,
        [
            "policies/x.test.yaml:4:5: cases[0].comand: unknown field `comand` (help: did you mean `command`?)",
            "policies/x.test.yaml:6:1: extra: unknown field `extra` (help: known fields: `policy`, `cases`)",
        ]
    );
    let found = problems(
        "cases:\n  - name: c\n    context: { sessionKey: s, toolname: exec }\n    expect: allow\n",
    );
    assert_eq!(
        found,
        [
            "policies/x.test.yaml:3:31: cases[0].context.toolname: unknown context field `toolname` (help: did you mean `toolName`?)"
        ]
    );
}

#[test]
fn bad_values_are_named() {
    let found = problems(
        r#"cases:
  - name: a
    point: turn:tool:pr
    expect: blok
  - name: a
    expect: allow
    hook: x
  - expect: block
    topic: [1]
  - name: b
    session: "agent:main:main"
    subagent: true
    expect: block
  - name: c
    command: ls
    args: { command: pwd }
    expect: block
  - name: d
    context: { toolName: exec }
    expect: block
  - just a string
"#,
    );
    let expected = [
        "3:12: cases[0].point: unknown lifecycle point `turn:tool:pr` (help: did you mean `turn:tool:pre`?)",
        "4:13: cases[0].expect: unknown verdict `blok` (help: did you mean `block`?)",
        "7:5: cases[1].hook: `hook` needs a `block` or `ask` decision",
        "8:5: cases[2]: missing field `name`",
        "9:12: cases[2].topic: expected a string or an integer, found a list",
        "12:15: cases[3].subagent: `subagent: true` contradicts `session: agent:main:main`",
        "15:14: cases[4].command: the command is given twice",
        "19:14: cases[5].context: invalid context: missing field `sessionKey`",
        "21:5: cases[6]: expected a case",
    ];
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    for (got, want) in found.iter().zip(expected) {
        assert!(
            got.starts_with(&format!("policies/x.test.yaml:{want}")),
            "{got}\n  does not start with {want}"
        );
    }
}

#[test]
fn cwd_and_workspace_are_absolute_or_beside_the_test_file() {
    let file = parse(
        "cases:\n  - name: a\n    command: ls\n    cwd: /w/app/src\n    workspace: /w/app\n    expect: allow\n",
    )
    .expect("parses");
    assert_eq!(file.cases[0].context.cwd.as_deref(), Some("/w/app/src"));
    assert_eq!(file.cases[0].context.workspace.as_deref(), Some("/w/app"));
    let file = parse_str(
        "cases:\n  - name: a\n    command: ls\n    cwd: ../proj/./src\n    workspace: .\n    expect: allow\n",
        Path::new("/w/policies/x.test.yaml"),
    )
    .expect("parses");
    assert_eq!(file.cases[0].context.cwd.as_deref(), Some("/w/proj/src"));
    assert_eq!(
        file.cases[0].context.workspace.as_deref(),
        Some("/w/policies")
    );
}

#[test]
fn duplicate_names_are_rejected() {
    let found =
        problems("cases:\n  - { name: same, expect: allow }\n  - { name: same, expect: block }\n");
    assert_eq!(
        found,
        [
            "policies/x.test.yaml:3:13: cases[1].name: duplicate case name `same` (help: the first case of that name is on line 2)"
        ]
    );
}

#[test]
fn the_file_must_have_cases() {
    assert_eq!(
        problems("policy: p.yaml\n"),
        ["policies/x.test.yaml:1:1: missing field `cases`"]
    );
    assert!(problems("")[0].contains("expected a mapping with `cases`"));
    assert!(problems("cases: [")[0].contains("invalid YAML"));
    assert!(parse("cases: []\n").expect("valid").cases.is_empty());
}
