use super::*;

/// Lints `yaml` as the file `HOOKS.yaml`.
pub(crate) fn lint_yaml(yaml: &str) -> Vec<Diagnostic> {
    let policy = crate::config::load_str(yaml, Path::new("HOOKS.yaml"))
        .unwrap_or_else(|e| panic!("policy does not load: {e}: {:?}", e.diagnostics()));
    lint(&policy)
}

/// The findings of `code` in `yaml`.
pub(crate) fn findings(yaml: &str, code: Code) -> Vec<Diagnostic> {
    lint_yaml(yaml)
        .into_iter()
        .filter(|f| f.code() == code)
        .collect()
}

#[test]
fn lint_codes_round_trip_and_serialize_with_their_prefix() {
    for code in Code::LINT {
        assert_eq!(Code::lint_code(code.name()), Some(*code));
        assert_eq!(Code::lint_code(&code.to_string()), Some(*code));
        assert_eq!(
            serde_json::to_value(code).ok(),
            Some(Value::String(format!("hookgate::{}", code.name())))
        );
    }
    assert_eq!(Code::lint_code("nope"), None);
    // A load error's code is not one `--allow` takes.
    assert_eq!(Code::lint_code("unknown-point"), None);
}

#[test]
fn every_finding_is_a_warning_of_the_lint_kind() {
    let yaml = "version: 1\nhooks:\n  - name: a\n    point: turn:pre\n    match: { tool: exec, commandPattern: 'sudo' }\n    action: block\n";
    let found = lint_yaml(yaml);
    assert!(!found.is_empty());
    for f in &found {
        assert_eq!(f.severity(), crate::config::Severity::Warning, "{f}");
        assert_eq!(f.kind(), crate::config::DiagnosticKind::Lint, "{f}");
        assert!(f.to_string().starts_with("HOOKS.yaml:5:"), "{f}");
    }
}

#[test]
fn a_clean_policy_has_no_findings() {
    let yaml = "version: 1\nhooks:\n  - name: audit\n    point: turn:tool:pre\n    priority: 100\n    action: log\n  - name: no-rm\n    point: turn:tool:pre\n    match: { tool: exec, commandPattern: '^rm\\s+-[a-zA-Z]*[rf]' }\n    action: block\n";
    assert_eq!(lint_yaml(yaml), Vec::new());
}

#[test]
fn characters_of_scalars_are_found_in_the_source() {
    let text = "a: x.y\nb: 'it''s.a'\nc: \"a\\\\b.c\"\nd: |-\n  one\n  two.x\ne: >\n  f.g\n";
    let p = |line, column| Position { line, column };
    // Plain.
    assert_eq!(char_position(text, p(1, 4), "x.y", 1), p(1, 5));
    // Single-quoted, after an escaped quote.
    assert_eq!(char_position(text, p(2, 4), "it's.a", 4), p(2, 10));
    // Double-quoted, after an escaped backslash.
    assert_eq!(char_position(text, p(3, 4), "a\\b.c", 3), p(3, 9));
    // Literal block, from its indicator or from its content: the second line.
    assert_eq!(char_position(text, p(4, 4), "one\ntwo.x", 7), p(6, 6));
    assert_eq!(char_position(text, p(5, 3), "one\ntwo.x", 7), p(6, 6));
    assert_eq!(char_position(text, p(5, 3), "one\ntwo.x", 1), p(5, 4));
    // A line that is not in the source: the start.
    assert_eq!(char_position(text, p(5, 3), "one\ntwo.y", 7), p(5, 3));
    // Folded block: the scalar's start.
    assert_eq!(char_position(text, p(7, 4), "f.g\n", 1), p(7, 4));
    // A value that is not what the source says: the start.
    assert_eq!(char_position(text, p(1, 4), "zzz", 1), p(1, 4));
    // Out of range, and positions past the text: the start, no panic.
    assert_eq!(char_position(text, p(1, 4), "x.y", 9), p(1, 4));
    assert_eq!(char_position(text, p(99, 1), "x", 0), p(99, 1));
    assert_eq!(char_position(text, p(1, 99), "x", 0), p(1, 99));
}

#[test]
fn composition_warnings_become_findings() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("pack.yaml"),
        "version: 1\nhooks:\n  - name: b\n    point: turn:pre\n    match: { tool: exec }\n    action: log\n",
    )
    .expect("write");
    let root = dir.path().join("HOOKS.yaml");
    std::fs::write(
        &root,
        "version: 1\ninclude: [pack.yaml]\nhooks:\n  - name: a\n    point: turn:pre\n    match: { tool: exec }\n    action: log\n",
    )
    .expect("write");
    let policy = crate::config::load_file(&root).expect("policy");
    let found = lint(&policy);
    let conflicts: Vec<&Diagnostic> = found
        .iter()
        .filter(|f| f.code() == Code::Conflict)
        .collect();
    assert_eq!(conflicts.len(), 1, "{found:#?}");
    assert!(conflicts[0].file().ends_with("pack.yaml"));
    assert_eq!(conflicts[0].line(), 3);
    assert_eq!(conflicts[0].severity(), crate::config::Severity::Warning);
    // The hook it overlaps, in the root file, is its related place.
    let related = conflicts[0].related();
    assert_eq!(related.len(), 1, "{found:#?}");
    assert!(related[0].file().ends_with("HOOKS.yaml"));
    assert_eq!(related[0].line(), 4);
    assert!(
        conflicts[0].message().starts_with("hook `b` overlaps"),
        "{found:#?}"
    );
    // Not reported a second time as a duplicate: they are in different files.
    assert!(
        found.iter().all(|f| f.code() != Code::Duplicate),
        "{found:#?}"
    );
}
