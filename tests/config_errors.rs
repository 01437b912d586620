//! Every kind of config error, with its line, column, field path, message and help asserted,
//! and the loader's budgets against hostile files (alias bombs, deep nesting).

use std::path::Path;
use std::time::{Duration, Instant};

use hookgate::config::FileKind;
use hookgate::config::{self, ConfigError, DiagnosticKind};
use hookgate::{Diagnostic, Point};

/// Loads `yaml` and returns every diagnostic; fails if the policy loads.
fn diagnostics(yaml: &str) -> Vec<Diagnostic> {
    match config::load_str(yaml, Path::new("t.yaml")) {
        Ok(p) => panic!(
            "policy loaded ({} hooks) but should not:\n{yaml}",
            p.document.hooks.len()
        ),
        Err(ConfigError::Invalid {
            file, diagnostics, ..
        }) => {
            assert_eq!(file, Path::new("t.yaml"));
            assert!(!diagnostics.is_empty(), "an invalid policy names a problem");
            diagnostics
        }
        Err(other) => panic!("expected an invalid-policy error, got {other}"),
    }
}

/// The only diagnostic of `yaml`.
fn single(yaml: &str) -> Diagnostic {
    let mut d = diagnostics(yaml);
    assert_eq!(d.len(), 1, "expected exactly one problem: {d:#?}");
    d.remove(0)
}

/// Asserts position, field path and message of `d`.
#[track_caller]
fn assert_at(d: &Diagnostic, line: usize, column: usize, path: &str, message: &str) {
    assert_eq!(
        (d.line(), d.column(), d.path(), d.message()),
        (line, column, path, message),
        "{d}"
    );
    assert_eq!(d.file(), Path::new("t.yaml"));
}

fn all_points() -> String {
    Point::ALL
        .iter()
        .map(|p| p.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

// ---------------------------------------------------------------------------------------------
// Points, fields, types
// ---------------------------------------------------------------------------------------------

#[test]
fn unknown_point_has_a_did_you_mean() {
    let d =
        single("version: \"1\"\nhooks:\n  - name: a\n    point: turn:tool:pr\n    action: block\n");
    assert_at(
        &d,
        4,
        12,
        "hooks[0].point",
        "unknown lifecycle point `turn:tool:pr`",
    );
    assert_eq!(d.kind(), DiagnosticKind::Schema);
    let help = d.help().expect("help");
    // DESIGN: the error lists the valid points, with a did-you-mean.
    assert_eq!(
        help,
        format!(
            "did you mean `turn:tool:pre`? valid points: {}",
            all_points()
        )
    );
    assert_eq!(
        d.to_string(),
        format!(
            "t.yaml:4:12: hooks[0].point: unknown lifecycle point `turn:tool:pr` (help: {help})"
        )
    );
}

#[test]
fn unknown_point_in_a_list_is_located_at_the_item() {
    let d = single(
        "version: 1\nhooks:\n  - name: a\n    point: [turn:pre, sesion:start]\n    action: block\n",
    );
    assert_at(
        &d,
        4,
        23,
        "hooks[0].point[1]",
        "unknown lifecycle point `sesion:start`",
    );
    assert_eq!(
        d.help(),
        Some(
            format!(
                "did you mean `session:start`? valid points: {}",
                all_points()
            )
            .as_str()
        )
    );
    // Block-style list.
    let d = single(
        "version: 1\nhooks:\n  - point:\n      - turn:pre\n      - cron:pst\n    action: block\n",
    );
    assert_at(
        &d,
        5,
        9,
        "hooks[0].point[1]",
        "unknown lifecycle point `cron:pst`",
    );
    assert_eq!(
        d.help(),
        Some(format!("did you mean `cron:post`? valid points: {}", all_points()).as_str())
    );
}

#[test]
fn unknown_point_far_from_any_lists_the_valid_ones() {
    let d = single("version: 1\nhooks:\n  - point: zzzzzzzz\n    action: block\n");
    assert_at(
        &d,
        3,
        12,
        "hooks[0].point",
        "unknown lifecycle point `zzzzzzzz`",
    );
    assert_eq!(
        d.help(),
        Some(format!("valid points: {}", all_points()).as_str())
    );
}

#[test]
fn unknown_field_is_located_at_the_key_with_a_did_you_mean() {
    let d = single("version: \"1\"\nhooks:\n  - point: turn:pre\n    action: log\n    tagret: x\n");
    assert_at(&d, 5, 5, "hooks[0].tagret", "unknown field `tagret`");
    assert_eq!(d.help(), Some("did you mean `target`?"));

    let d = single(
        "version: 1\nhooks:\n  - point: turn:pre\n    match:\n      comandPattern: rm\n    action: log\n",
    );
    assert_at(
        &d,
        5,
        7,
        "hooks[0].match.comandPattern",
        "unknown field `comandPattern`",
    );
    assert_eq!(d.help(), Some("did you mean `commandPattern`?"));

    let d = single("version: 1\ndefaults:\n  mod: audit\nhooks: []\n");
    assert_at(&d, 3, 3, "defaults.mod", "unknown field `mod`");
    assert_eq!(d.help(), Some("did you mean `mode`?"));

    let d = single(
        "version: 1\nhooks:\n  - { name: a, point: turn:pre, action: block, onFailure: { action: block, mesage: x } }\n",
    );
    assert_at(
        &d,
        3,
        76,
        "hooks[0].onFailure.mesage",
        "unknown field `mesage`",
    );
    assert_eq!(d.help(), Some("did you mean `message`?"));
}

#[test]
fn unknown_field_far_from_any_lists_the_allowed_ones() {
    let d = single("version: 1\nhooks: []\nextra: 1\n");
    assert_at(&d, 3, 1, "extra", "unknown field `extra`");
    assert_eq!(
        d.help(),
        Some("allowed fields: version, defaults, hooks, include, discover")
    );
}

#[test]
fn wrong_types_name_what_was_expected_and_found() {
    let d =
        single("version: 1\nhooks:\n  - point: turn:pre\n    priority: high\n    action: log\n");
    assert_at(
        &d,
        4,
        15,
        "hooks[0].priority",
        "expected an integer, found a string (`high`)",
    );
    let d =
        single("version: 1\nhooks:\n  - point: turn:pre\n    enabled: \"yes\"\n    action: log\n");
    assert_at(
        &d,
        4,
        14,
        "hooks[0].enabled",
        "expected a boolean, found a string (`yes`)",
    );
    let d = single("version: \"1\"\nhooks: {}\n");
    assert_at(&d, 2, 8, "hooks", "expected a list, found a mapping");
    let d = single("version: 1\nhooks:\n");
    assert_at(&d, 2, 6, "hooks", "expected a list, found nothing (null)");
    let d = single("version: 1\nhooks: [block]\n");
    assert_at(
        &d,
        2,
        9,
        "hooks[0]",
        "expected a mapping, found a string (`block`)",
    );
    let d = single(
        "version: 1\nhooks:\n  - point: turn:pre\n    match: { isSubAgent: \"true\", tool: exec }\n    action: log\n",
    );
    assert_at(
        &d,
        4,
        26,
        "hooks[0].match.isSubAgent",
        "expected a boolean, found a string (`true`)",
    );
    let d = single(
        "version: 1\nhooks:\n  - point: turn:pre\n    match: { tool: 5 }\n    action: log\n",
    );
    assert_at(
        &d,
        4,
        20,
        "hooks[0].match.tool",
        "expected a string or a list, found a number (`5`)",
    );
    let d = single("hello");
    assert_at(&d, 1, 1, "", "expected a mapping, found a string (`hello`)");
    assert_eq!(d.kind(), DiagnosticKind::Schema);
}

#[test]
fn missing_required_fields() {
    let d = single("hooks: []\n");
    assert_at(&d, 1, 1, "", "missing required field `version`");
    let d = single("version: 1\n");
    assert_at(&d, 1, 1, "", "missing required field `hooks`");
    // The document starts after the comments.
    let d = single("# policy\n\nhooks:\n  - point: turn:pre\n    action: log\n");
    assert_at(&d, 3, 1, "", "missing required field `version`");

    let d = single("version: 1\nhooks:\n  - name: a\n    action: log\n");
    assert_at(&d, 3, 5, "hooks[0]", "missing required field `point`");
    let d = single("version: 1\nhooks:\n  - name: a\n    point: turn:pre\n");
    assert_at(&d, 3, 5, "hooks[0]", "missing required field `action`");

    let d = single(
        "version: 1\nhooks:\n  - point: turn:pre\n    action: block\n    onFailure: { message: m }\n",
    );
    assert_at(
        &d,
        5,
        16,
        "hooks[0].onFailure",
        "missing required field `action`",
    );

    // An empty file is not a policy.
    let d = single("");
    assert_at(&d, 1, 1, "", "expected a mapping, found nothing (null)");
}

#[test]
fn duplicate_hook_names_point_at_the_second_and_name_the_first() {
    let d = single(
        "version: 1\nhooks:\n  - name: a\n    point: turn:pre\n    action: log\n  - name: a\n    point: turn:post\n    action: log\n",
    );
    assert_at(&d, 6, 11, "hooks[1].name", "duplicate hook name `a`");
    assert_eq!(d.kind(), DiagnosticKind::Semantic);
    assert_eq!(
        d.help(),
        Some("hooks[0] (line 3) already uses it; names must be unique")
    );
}

// ---------------------------------------------------------------------------------------------
// Regexes
// ---------------------------------------------------------------------------------------------

fn pattern_policy(field: &str, pattern: &str) -> String {
    format!(
        "version: 1\nhooks:\n  - point: turn:pre\n    match:\n      {field}: \"{pattern}\"\n    action: log\n"
    )
}

#[test]
fn invalid_regex_is_a_load_error_at_the_pattern() {
    let d = single(&pattern_policy("commandPattern", "rm ("));
    assert_at(
        &d,
        5,
        23,
        "hooks[0].match.commandPattern",
        "invalid regex: unclosed group (at byte 3)",
    );
    assert_eq!(d.kind(), DiagnosticKind::Semantic);
    let d = single(&pattern_policy("sessionPattern", "[a-"));
    assert_eq!(
        (d.line(), d.column(), d.path()),
        (5, 23, "hooks[0].match.sessionPattern")
    );
    assert!(d.message().starts_with("invalid regex: "), "{d}");
}

#[test]
fn look_around_is_rejected_with_an_explanation() {
    let d = single(&pattern_policy("commandPattern", "rm(?!\\\\s+-i)"));
    assert_at(
        &d,
        5,
        23,
        "hooks[0].match.commandPattern",
        "look-around (`(?=`, `(?!`, `(?<=`, `(?<!`) at byte 2 is not supported",
    );
    assert!(d.help().expect("help").contains("linear-time"), "{d}");

    let d = single(
        "version: 1\nhooks:\n  - point: turn:pre\n    match: { sessionPattern: \"(?<=agent:)main\" }\n    action: log\n",
    );
    assert_eq!((d.line(), d.column()), (4, 30));
    assert_eq!(d.path(), "hooks[0].match.sessionPattern");
    assert!(d.message().contains("look-around"), "{d}");

    let d = single(&pattern_policy("commandPattern", "(a)\\\\1"));
    assert_at(
        &d,
        5,
        23,
        "hooks[0].match.commandPattern",
        "backreference at byte 3 is not supported",
    );
    assert!(d.help().is_some());
}

#[test]
fn oversized_regexes_are_rejected() {
    let d = single(&pattern_policy("commandPattern", "a{1000}{1000}"));
    assert_at(
        &d,
        5,
        23,
        "hooks[0].match.commandPattern",
        "regex compiles to more than 1048576 bytes",
    );
    assert!(d.help().is_some());

    let d = single(&pattern_policy("commandPattern", &"a".repeat(5000)));
    assert_at(
        &d,
        5,
        23,
        "hooks[0].match.commandPattern",
        "regex is 5000 bytes long, over the 4096 byte limit",
    );

    let deep = format!("{}a{}", "(".repeat(100), ")".repeat(100));
    let d = single(&pattern_policy("sessionPattern", &deep));
    assert_at(
        &d,
        5,
        23,
        "hooks[0].match.sessionPattern",
        "regex nests deeper than 64 levels",
    );
}

#[test]
fn seed_style_regexes_load() {
    for pattern in [
        "\\\\d{3}",
        "\\\\s+",
        "(?i)sudo",
        "[^/]+\\\\.env$",
        "rm\\\\s+(-[rRfF]{1,4}|--recursive|--force)",
        "^https?:\\\\/\\\\/",
    ] {
        let yaml = pattern_policy("commandPattern", pattern);
        if let Err(e) = config::load_str(&yaml, Path::new("t.yaml")) {
            panic!("{pattern}: {e}: {:?}", e.diagnostics());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// onFailure, limits, actions
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_on_failure_action_lists_the_choices() {
    let d = single(
        "version: 1\nhooks:\n  - point: turn:pre\n    action: block\n    onFailure:\n      action: explode\n",
    );
    assert_at(
        &d,
        6,
        15,
        "hooks[0].onFailure.action",
        "`explode` is not one of `block`, `retry`, `notify`, `continue`",
    );
    assert_eq!(d.help(), None);

    let d = single(
        "version: 1\nhooks:\n  - point: turn:pre\n    action: block\n    onFailure: { action: contineu }\n",
    );
    assert_at(
        &d,
        5,
        26,
        "hooks[0].onFailure.action",
        "`contineu` is not one of `block`, `retry`, `notify`, `continue`",
    );
    assert_eq!(d.help(), Some("did you mean `continue`?"));

    let d = single("version: 1\ndefaults:\n  onFailure: { action: ignore }\nhooks: []\n");
    assert_eq!(
        (d.line(), d.column(), d.path()),
        (3, 24, "defaults.onFailure.action")
    );
}

#[test]
fn retries_and_last_n_must_be_at_least_one() {
    let d = single(
        "version: 1\nhooks:\n  - point: turn:pre\n    action: block\n    onFailure:\n      action: retry\n      retries: 0\n",
    );
    assert_at(
        &d,
        7,
        16,
        "hooks[0].onFailure.retries",
        "must be at least 1, found 0",
    );
    let d = single(
        "version: 1\nhooks:\n  - point: turn:pre\n    action: block\n    onFailure: { action: retry, retries: 11 }\n",
    );
    assert_at(
        &d,
        5,
        42,
        "hooks[0].onFailure.retries",
        "must be at most 10, found 11",
    );
    let d = single("version: 1\nhooks:\n  - point: turn:pre\n    action: log\n    lastN: 0\n");
    assert_at(&d, 5, 12, "hooks[0].lastN", "must be at least 1, found 0");
}

#[test]
fn unknown_action_has_a_did_you_mean() {
    let d = single("version: 1\nhooks:\n  - point: turn:pre\n    action: blok\n");
    assert_at(&d, 4, 13, "hooks[0].action", "unknown action `blok`");
    assert_eq!(d.kind(), DiagnosticKind::Semantic);
    assert_eq!(d.help(), Some("did you mean `block`?"));

    let d = single("version: 1\nhooks:\n  - point: turn:pre\n    action: frobnicate\n");
    assert_at(&d, 4, 13, "hooks[0].action", "unknown action `frobnicate`");
    assert_eq!(
        d.help(),
        Some(
            "actions available: block, log, exec_script, inject_context, summarize_and_log, notify_user, require_approval"
        )
    );

    let d = diagnostics("version: 1\nhooks:\n  - point: turn:pre\n    action: \"\"\n");
    assert_at(&d[0], 4, 13, "hooks[0].action", "must not be empty");
}

#[test]
fn external_programs_load_as_actions_and_matchers() {
    let policy = hookgate::config::load_str(
        "version: 1\nhooks:\n  - point: turn:pre\n    match: { custom: ./m.sh }\n    action: ./actions/x.sh\n",
        std::path::Path::new("HOOKS.yaml"),
    )
    .expect("external programs are valid");
    let hook = &policy.document.hooks[0];
    assert_eq!(
        hook.action,
        hookgate::config::Action::External {
            program: "./actions/x.sh".to_owned()
        }
    );
    assert_eq!(hook.filter.custom.as_deref(), Some("./m.sh"));
}

// ---------------------------------------------------------------------------------------------
// YAML
// ---------------------------------------------------------------------------------------------

#[test]
fn yaml_syntax_errors_have_a_position() {
    let d = single("version: 1\nhooks:\n  - point: [turn:pre\n    action: log\n");
    assert_eq!(d.kind(), DiagnosticKind::Yaml);
    assert_eq!((d.line(), d.column(), d.path()), (4, 11, ""));
    assert!(d.message().starts_with("invalid YAML: "), "{d}");

    let d = single("version: 1\nhooks:\n  - point: turn:pre\n   action: log\n");
    assert_eq!(d.kind(), DiagnosticKind::Yaml);
    assert_eq!((d.line(), d.column()), (4, 4));
    assert!(d.message().starts_with("invalid YAML: "), "{d}");

    let d = single("version: 1\nhooks:\n\t- point: turn:pre\n");
    assert_eq!((d.line(), d.column()), (3, 2));
    assert!(d.message().contains("tab"), "{d}");
}

#[test]
fn duplicate_keys_are_rejected_at_the_second_key() {
    let d = single("version: 1\nhooks:\n  - point: turn:pre\n    action: log\n    action: block\n");
    assert_eq!(d.kind(), DiagnosticKind::Yaml);
    assert_eq!((d.line(), d.column()), (5, 5));
    assert_eq!(
        d.message(),
        "duplicate key `action`: a key may appear once in a mapping"
    );

    let d = single("version: 1\nversion: 1\nhooks: []\n");
    assert_eq!((d.line(), d.column()), (2, 1));
    assert!(d.message().contains("duplicate"), "{d}");
}

#[test]
fn several_errors_are_all_reported_in_file_order() {
    let d = diagnostics(
        "version: 1\nhooks:\n  - point: trun:pre\n    action: log\n  - point: turn:pre\n    action: blok\n  - point: turn:pre\n    action: log\n    match: { commandPattern: \"(\" }\n  - name: x\n    point: cron:pre\n    action: log\n    lastN: 0\n  - name: x\n    action: log\n    tagret: y\n",
    );
    let got: Vec<(usize, usize, &str, &str)> = d
        .iter()
        .map(|d| (d.line(), d.column(), d.path(), d.message()))
        .collect();
    assert_eq!(
        got,
        [
            (
                3,
                12,
                "hooks[0].point",
                "unknown lifecycle point `trun:pre`"
            ),
            (6, 13, "hooks[1].action", "unknown action `blok`"),
            (
                9,
                30,
                "hooks[2].match.commandPattern",
                "invalid regex: unclosed group (at byte 0)"
            ),
            (13, 12, "hooks[3].lastN", "must be at least 1, found 0"),
            (14, 5, "hooks[4]", "missing required field `point`"),
            (14, 11, "hooks[4].name", "duplicate hook name `x`"),
            (16, 5, "hooks[4].tagret", "unknown field `tagret`"),
        ]
    );
}

#[test]
fn the_error_summary_counts_the_problems() {
    let err = config::load_str("version: 3\nhooks: 4\n", Path::new("dir/HOOKS.yaml"))
        .expect_err("invalid");
    assert_eq!(err.diagnostics().len(), 2);
    assert_eq!(
        err.to_string(),
        "`dir/HOOKS.yaml` is not a valid policy: 2 problems"
    );
    assert!(
        err.diagnostics()
            .iter()
            .all(|d| d.file() == Path::new("dir/HOOKS.yaml"))
    );
}

#[test]
fn files_are_read_and_errors_name_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("HOOKS.yaml");
    std::fs::write(
        &path,
        "version: 1\nhooks:\n  - point: turn:pre\n    action: blok\n",
    )
    .expect("write");
    let err = config::load_file(&path).expect_err("invalid");
    let d = &err.diagnostics()[0];
    assert_eq!(d.file(), path.as_path());
    assert_eq!((d.line(), d.column()), (4, 13));
    assert!(
        d.to_string()
            .starts_with(&format!("{}:4:13: ", path.display()))
    );

    let missing = dir.path().join("nope.yaml");
    match config::load_file(&missing) {
        Err(ConfigError::Read { path, source }) => {
            assert_eq!(path, missing);
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("expected a read error, got {other:?}"),
    }

    std::fs::write(&path, b"version: 1\nhooks: []\n# \xff\xfe\n").expect("write");
    match config::load_file(&path) {
        Err(ConfigError::Read { source, .. }) => {
            assert_eq!(source.kind(), std::io::ErrorKind::InvalidData);
        }
        other => panic!("expected a read error for non-UTF-8, got {other:?}"),
    }
}

#[test]
fn a_policy_that_is_not_a_regular_file_is_a_typed_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("pipe.yaml");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    for (path, kind) in [
        (fifo.as_path(), FileKind::Fifo),
        (Path::new("/dev/zero"), FileKind::CharDevice),
        (dir.path(), FileKind::Directory),
    ] {
        match config::load_file(path) {
            Err(ConfigError::NotRegular { path: p, kind: k }) => {
                assert_eq!((p.as_path(), k), (path, kind));
            }
            other => panic!("{}: expected NotRegular, got {other:?}", path.display()),
        }
    }
    let err = config::load_file(&fifo).expect_err("fifo");
    assert_eq!(
        err.to_string(),
        format!(
            "cannot read policy file `{}`: it is a FIFO, not a regular file",
            fifo.display()
        )
    );

    // Over the budget: refused with its size, before anything is parsed.
    let big = dir.path().join("big.yaml");
    std::fs::write(
        &big,
        "version: 1\nhooks: []\n#".to_owned() + &"x".repeat(100),
    )
    .expect("write");
    let budget = config::YamlBudget {
        max_bytes: 64,
        ..Default::default()
    };
    let err = config::load_file_with(&big, &budget).expect_err("too large");
    let d = &err.diagnostics()[0];
    assert_eq!(d.kind(), DiagnosticKind::Yaml);
    assert_eq!(d.message(), "file is 122 bytes, over the 64 byte limit");
}

fn assert_rejected_quickly(yaml: &str, what: &str) -> Diagnostic {
    let started = Instant::now();
    let result = config::load_str(yaml, Path::new("t.yaml"));
    // Not a timing assertion on the loader: a bound only a hang would break.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{what} took too long"
    );
    let err = result.expect_err(what);
    assert_eq!(err.diagnostics().len(), 1, "{what}: {err}");
    let d = err.diagnostics()[0].clone();
    assert_eq!(d.kind(), DiagnosticKind::Yaml, "{what}: {d}");
    assert!(d.line() >= 1 && d.column() >= 1);
    d
}

#[test]
fn an_alias_bomb_is_rejected() {
    // Eleven levels of nine-fold aliases: 9^12 nodes if expanded.
    let mut yaml = String::from("version: 1\nhooks: []\na: &a [x,x,x,x,x,x,x,x,x]\n");
    for i in 1..12u8 {
        let (name, prev) = ((b'a' + i) as char, (b'a' + i - 1) as char);
        let refs = vec![format!("*{prev}"); 9].join(",");
        yaml.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    let d = assert_rejected_quickly(&yaml, "alias bomb");
    assert!(d.message().contains("alias"), "{d}");

    // Many small aliases break the alias count budget.
    let mut yaml = String::from("version: 1\nhooks:\n  - &h { point: turn:pre, action: log }\n");
    yaml.push_str(&"  - *h\n".repeat(2000));
    assert_rejected_quickly(&yaml, "alias count");
}

#[test]
fn ten_thousand_levels_of_nesting_are_rejected() {
    let seqs = format!(
        "version: 1\nhooks: {}{}\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    assert_rejected_quickly(&seqs, "deep sequences");
    let maps = format!(
        "version: 1\nhooks: {}{}\n",
        "{a: ".repeat(10_000),
        "}".repeat(10_000)
    );
    assert_rejected_quickly(&maps, "deep mappings");
    let mut block = String::from("version: 1\nhooks:\n");
    for depth in 0..10_000 {
        block.push_str(&" ".repeat(depth % 40));
        block.push_str("- \n");
    }
    // Whatever this parses as, it must not be accepted as a policy or hang.
    let started = Instant::now();
    assert!(config::load_str(&block, Path::new("t.yaml")).is_err());
    assert!(started.elapsed() < Duration::from_secs(10));
}

// ---------------------------------------------------------------------------------------------
// Regressions: bugs found while writing these tests, fixed in src/
// ---------------------------------------------------------------------------------------------

/// A hook whose integer field is written as a float (`priority: 100.0`, `retries: 2.0`,
/// `lastN: 5.0`) or whose `lastN` overflows u32 passes the JSON Schema ("integer" accepts
/// 100.0) but fails the typed conversion, and `model::build` then skips the hook without a
/// diagnostic: the policy loads with the hook missing.
#[test]
fn integer_fields_written_as_floats_never_drop_a_hook_silently() {
    for field in [
        "priority: 100.0",
        "lastN: 5.0",
        "lastN: 5000000000",
        "onFailure: { action: block, retries: 2.0 }",
    ] {
        let yaml = format!(
            "version: 1\nhooks:\n  - name: guard\n    point: turn:tool:pre\n    action: block\n    {field}\n"
        );
        match config::load_str(&yaml, Path::new("t.yaml")) {
            Ok(p) => assert_eq!(
                p.document.hooks.len(),
                1,
                "`{field}`: the policy loaded without its only hook"
            ),
            Err(e) => {
                let d = e.diagnostics();
                assert!(!d.is_empty(), "`{field}`: {e}");
                assert!(d[0].path().starts_with("hooks[0]"), "`{field}`: {d:?}");
            }
        }
    }
}

/// The same conversion failure in `defaults` discards the whole section without a word:
/// `mode: audit` (and every other default) is silently dropped.
#[test]
fn defaults_with_a_float_integer_are_not_silently_discarded() {
    let yaml = "version: 1\ndefaults:\n  mode: audit\n  onFailure: { action: retry, retries: 2.0 }\nhooks: []\n";
    match config::load_str(yaml, Path::new("t.yaml")) {
        Ok(p) => assert_eq!(p.document.defaults.mode, config::Mode::Audit),
        Err(e) => assert!(!e.diagnostics().is_empty()),
    }
}

/// The seed read HOOKS.yaml with js-yaml (YAML 1.2 core schema), where `yes`, `no`, `on`,
/// `off`, `y` and `n` are plain strings. The YAML layer here resolves them as booleans, so a
/// seed file with `name: off` or `tool: on` no longer loads (DESIGN: "existing files keep
/// working").
#[test]
fn yaml_1_1_boolean_words_are_strings_as_in_the_seed() {
    let yaml = "version: 1\nhooks:\n  - { name: off, point: turn:tool:pre, match: { tool: on, topicId: y }, action: block }\n";
    let policy = config::load_str(yaml, Path::new("t.yaml"))
        .unwrap_or_else(|e| panic!("{e}: {:?}", e.diagnostics()));
    let hook = &policy.document.hooks[0];
    assert_eq!(hook.id, "off");
    assert_eq!(hook.filter.tool.as_deref(), Some(&["on".to_owned()][..]));
    assert_eq!(hook.filter.topic_id.as_deref(), Some("y"));
}

/// `point: []` is reported as an unknown point named `[]` with the list of valid points,
/// instead of the list being empty.
#[test]
fn an_empty_point_list_says_it_is_empty() {
    let d = single("version: 1\nhooks:\n  - point: []\n    action: block\n");
    assert_at(&d, 3, 12, "hooks[0].point", "must have at least 1 item");
}

/// `version: 2` says "`2` is not one of `1`, `1`" and suggests "did you mean `1`?".
#[test]
fn an_unsupported_version_does_not_list_one_twice() {
    let d = single("version: 2\nhooks: []\n");
    assert_eq!((d.line(), d.column(), d.path()), (1, 10, "version"));
    assert!(!d.message().contains("`1`, `1`"), "{d}");
}

/// Messages are for policy authors: no Rust type names or library options (STYLE.md §3).
#[test]
fn yaml_errors_do_not_leak_rust_api_names() {
    let cases = [
        "version: 1\nversion: 1\nhooks: []\n".to_owned(),
        format!(
            "version: 1\nhooks: {}{}\n",
            "{a: ".repeat(40),
            "}".repeat(40)
        ),
        format!(
            "version: 1\nhooks:\n  - &h {{ point: turn:pre, action: log }}\n{}",
            "  - *h\n".repeat(1100)
        ),
        "version: 1\nhooks: []\n---\nx: 1\n".to_owned(),
    ];
    for yaml in cases {
        let d = single(&yaml);
        for leak in [
            "DuplicateKeyPolicy",
            "Options",
            "from_str",
            " { ",
            "Option<",
        ] {
            assert!(!d.message().contains(leak), "{leak:?} in {d}");
        }
    }
}

#[test]
fn exec_script_without_a_script_is_refused_at_load() {
    let d = single("version: 1\nhooks:\n  - point: turn:pre\n    action: exec_script\n");
    assert_at(
        &d,
        4,
        13,
        "hooks[0].action",
        "exec_script needs a script to run",
    );
    assert_eq!(
        d.help(),
        Some("add `target: path/to/script.sh` (relative to this file) or an inline `script:`")
    );
}
