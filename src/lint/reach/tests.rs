use super::super::tests::findings;
use super::*;

const HEAD: &str = "version: 1\nhooks:\n";

fn policy(hooks: &str) -> String {
    format!("{HEAD}{hooks}")
}

#[test]
fn a_hook_after_an_unconditional_block_is_shadowed() {
    let yaml = policy(
        "  - name: stop-all\n    point: [turn:tool:pre]\n    action: block\n  - name: audit\n    point: [turn:tool:pre, turn:pre]\n    action: log\n",
    );
    let found = findings(&yaml, Code::Shadowed);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!((found[0].line(), found[0].column()), (6, 5));
    assert_eq!(found[0].path(), "hooks[1]");
    assert!(
        found[0].message().contains("`stop-all` (line 3)"),
        "{found:#?}"
    );
    assert!(
        found[0].message().contains("never fire at turn:tool:pre:"),
        "{found:#?}"
    );
}

#[test]
fn priority_decides_what_runs_first() {
    // The log runs first (higher priority): nothing is shadowed.
    let yaml = policy(
        "  - { name: stop-all, point: turn:pre, action: block }\n  - { name: audit, point: turn:pre, priority: 100, action: log }\n",
    );
    assert_eq!(findings(&yaml, Code::Shadowed), []);
    // The block has the higher priority, though later in the file: shadowed.
    let yaml = policy(
        "  - { name: audit, point: turn:pre, action: log }\n  - { name: stop-all, point: turn:pre, priority: 90, action: block }\n",
    );
    let found = findings(&yaml, Code::Shadowed);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].message().contains("priority 90 > 50"),
        "{found:#?}"
    );
    assert_eq!(found[0].line(), 3);
}

#[test]
fn tool_scoped_blocks_shadow_only_hooks_within_their_tools() {
    let yaml = policy(concat!(
        "  - { name: no-shell, point: turn:tool:pre, match: { tool: [exec, Bash] }, action: block }\n",
        "  - { name: rm, point: turn:tool:pre, match: { tool: exec, commandPattern: '^rm\\s' }, action: block }\n",
        "  - { name: reads, point: turn:tool:pre, match: { tool: [exec, Read] }, action: log }\n",
        "  - { name: any, point: turn:tool:pre, action: log }\n",
    ));
    let found = findings(&yaml, Code::Shadowed);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message().starts_with("hook `rm`"), "{found:#?}");
}

#[test]
fn conditional_disabled_audited_or_failing_open_blocks_shadow_nothing() {
    for blocker in [
        "{ name: b, point: turn:pre, match: { commandPattern: x }, action: block }",
        "{ name: b, point: turn:pre, enabled: false, action: block }",
        "{ name: b, point: turn:pre, mode: audit, action: block }",
        "{ name: b, point: turn:pre, action: block, onFailure: { action: continue } }",
        "{ name: b, point: turn:pre, action: log }",
        "{ name: b, point: turn:pre, match: { isSubAgent: true }, action: block }",
    ] {
        let yaml = policy(&format!(
            "  - {blocker}\n  - {{ name: later, point: turn:pre, action: log }}\n"
        ));
        assert_eq!(findings(&yaml, Code::Shadowed), [], "{blocker}");
    }
    // A disabled hook is never reported as shadowed.
    let yaml = policy(
        "  - { name: b, point: turn:pre, action: block }\n  - { name: off, point: turn:pre, enabled: false, action: log }\n",
    );
    assert_eq!(findings(&yaml, Code::Shadowed), []);
    // Sub-agent blocks shadow hooks for the same kind of session.
    let yaml = policy(
        "  - { name: b, point: turn:pre, match: { isSubAgent: true }, action: block }\n  - { name: s, point: turn:pre, match: { isSubAgent: true }, action: log }\n",
    );
    assert_eq!(findings(&yaml, Code::Shadowed).len(), 1);
}

#[test]
fn contradicting_session_filters_are_found() {
    let hook = |m: &str| {
        policy(&format!(
            "  - {{ name: h, point: turn:pre, match: {m}, action: block }}\n"
        ))
    };
    let found = findings(
        &hook("{ isSubAgent: true, sessionPattern: '^agent:main:main$' }"),
        Code::Contradiction,
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].path(), "hooks[0].match.sessionPattern");
    let found = findings(
        &hook("{ isSubAgent: false, sessionPattern: '^agent:[^:]+:subagent:' }"),
        Code::Contradiction,
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    for clean in [
        "{ isSubAgent: true, sessionPattern: '^agent:main:' }",
        "{ isSubAgent: true, sessionPattern: '^agent:main:subagent:x$' }",
        "{ isSubAgent: false, sessionPattern: '^agent:main:' }",
        "{ isSubAgent: false, sessionPattern: '(?::subagent:)?x' }",
        "{ sessionPattern: '^agent:main:main$' }",
    ] {
        assert_eq!(findings(&hook(clean), Code::Contradiction), [], "{clean}");
    }
}

#[test]
fn impossible_regexes_and_programs_are_contradictions() {
    let hook = |m: &str| {
        policy(&format!(
            "  - {{ name: h, point: turn:tool:pre, match: {m}, action: block }}\n"
        ))
    };
    let found = findings(
        &hook("{ tool: exec, commandPattern: 'a\\bc^' }"),
        Code::Contradiction,
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].path(), "hooks[0].match.commandPattern");
    let found = findings(
        &hook("{ tool: exec, command: { program: [rm, '!rm'] } }"),
        Code::Contradiction,
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].path(), "hooks[0].match.command.program");
    let found = findings(
        &hook("{ tool: exec, command: { program: [mkfs.ext4, '!mkfs*'] } }"),
        Code::Contradiction,
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    for clean in [
        "{ tool: exec, commandPattern: '\\brm\\b' }",
        "{ tool: exec, command: { program: ['!ssh', '!scp'] } }",
        "{ tool: exec, command: { program: [rm, '!rmdir'] } }",
        "{ tool: exec, command: { program: ['mkfs*', '!mkfs.ext4'] } }",
        "{ tool: exec, command: { anyArg: '^-rf$' } }",
    ] {
        assert_eq!(findings(&hook(clean), Code::Contradiction), [], "{clean}");
    }
}

#[test]
fn patterns_for_another_subject_are_found() {
    let hook = |m: &str| {
        policy(&format!(
            "  - {{ name: h, point: turn:tool:pre, match: {m}, action: block }}\n"
        ))
    };
    for smell in [
        "{ tool: Read, commandPattern: 'rm\\s+-rf' }",
        "{ tool: [Read, Write], commandPattern: '^curl ' }",
        "{ tool: web_fetch, commandPattern: '^/etc/' }",
        "{ tool: WebFetch, commandPattern: '^~/' }",
        "{ tool: [web_fetch, Read], commandPattern: '^sudo\\s' }",
        "{ tool: [Read, Edit], command: { program: rm } }",
        "{ tool: browser, unparseable: true }",
    ] {
        let found = findings(&hook(smell), Code::ToolSubject);
        assert_eq!(found.len(), 1, "{smell}: {found:#?}");
    }
    let found = findings(
        &hook("{ tool: Read, commandPattern: 'rm\\s+-rf' }"),
        Code::ToolSubject,
    );
    assert_eq!(found[0].path(), "hooks[0].match.commandPattern");
    for clean in [
        "{ tool: [Read, exec], commandPattern: 'rm\\s+-rf' }",
        "{ tool: Read, commandPattern: '^/etc/' }",
        "{ tool: web_fetch, commandPattern: '^https://' }",
        "{ tool: my_tool, commandPattern: 'rm\\s+-rf' }",
        "{ tool: [Read, my_tool], command: { program: rm } }",
        "{ tool: message, commandPattern: 'rm\\s+-rf' }",
        "{ commandPattern: 'rm\\s+-rf' }",
        "{ tool: Read, unparseable: false }",
        "{ tool: Bash, command: { program: rm } }",
    ] {
        assert_eq!(findings(&hook(clean), Code::ToolSubject), [], "{clean}");
    }
}
