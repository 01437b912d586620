//! Property tests of the error renderers (`hookgate validate`'s report, `hookgate lint`'s
//! snippets): on hostile policy text (long lines, invalid UTF-8 read lossily, control and
//! bidirectional formatting characters, deep nesting) they never panic, and what they write
//! holds no control character but newlines.

use std::path::Path;

use hookgate::config::{self, ConfigError, Diagnostic, DiagnosticKind, Position, report};
use hookgate::internals::is_escaped;
use proptest::prelude::*;

const CASES: u32 = 128;

/// Renders the error of loading `text` (if it fails) as `hookgate validate` does, and checks
/// the report; returns it.
fn check_render(text: &str) -> Result<String, TestCaseError> {
    let Err(error) = config::load_str(text, Path::new("fuzz\u{1b}[2J.yaml")) else {
        return Ok(String::new());
    };
    let plain = report::render_error(&error, false);
    check_clean(&plain)?;
    prop_assert!(plain.contains("error: "), "{}", plain);
    // With styles, the escapes are the renderer's own; it must not panic either.
    let styled = report::render_error(&error, true);
    prop_assert!(!styled.is_empty());
    if let ConfigError::Invalid { diagnostics, .. } = &error {
        for d in diagnostics {
            let at = format!(":{}:{}: ", d.line(), d.column());
            prop_assert!(plain.contains(&at), "{} missing in:\n{}", at, plain);
        }
    }
    Ok(plain)
}

/// No control or bidirectional formatting character but `\n`, and no line so long that a
/// terminal would choke on it.
fn check_clean(out: &str) -> Result<(), TestCaseError> {
    if let Some(c) = out.chars().find(|&c| is_escaped(c) && c != '\n') {
        prop_assert!(false, "raw {:?} in:\n{}", c, out);
    }
    for line in out.lines() {
        prop_assert!(
            line.chars().count() < 40 * report::WINDOW,
            "a line of {} characters",
            line.chars().count()
        );
    }
    Ok(())
}

/// Text that is hard on a renderer: controls, bidi, tabs, CR, wide and combining characters.
fn hostile_fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "\x1b[2J",
            "\x1b]0;title\x07",
            "\u{9b}31m",
            "\u{202e}",
            "\u{2066}x\u{2069}",
            "\u{200e}\u{200f}\u{61c}",
            "\r",
            "\r\n",
            "\t",
            "\0",
            "\x7f",
            "日本",
            "e\u{301}",
            "🦀",
            "\u{feff}",
            ":",
            "[",
            "{",
            "\"",
            "'",
            "- ",
            "\n",
        ])
        .prop_map(str::to_owned),
        "\\PC{1,8}",
        any::<String>(),
    ]
}

/// A run of characters long enough to push a problem past the renderer's limits.
fn long_run() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![1usize, 239, 240, 241, 5_000, 65_534, 65_536, 70_000]),
        prop::sample::select(vec!["a", "é", "日", "\t", "\x1b", "\u{202e}", " "]),
    )
        .prop_map(|(n, c)| c.repeat(n))
}

/// A policy with a long run and hostile fragments spliced in before a problem.
fn hostile_policy() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "version: \"1\"\nhooks: [",
            "version: \"1\"\nhooks:\n  - name: \"",
            "version: \"1\"\nhooks:\n  - point: ",
            "version: \"1\"\nhooks:\n  - { name: x, point: turn:pre, action: block, match: { commandPattern: \"",
            "",
        ]),
        long_run(),
        prop::collection::vec(hostile_fragment(), 0..4),
        prop::sample::select(vec![" x: y", "\" }", "trun:pre\n    action: blok\n", "]]", ""]),
    )
        .prop_map(|(head, run, fragments, tail)| {
            let mut text = head.to_owned();
            text.push_str(&run);
            for f in fragments {
                text.push_str(&f);
            }
            text.push_str(tail);
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn rendering_errors_of_hostile_policies_never_panics(text in hostile_policy()) {
        check_render(&text)?;
    }

    #[test]
    fn rendering_errors_of_arbitrary_bytes_never_panics(
        bytes in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        check_render(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn rendering_errors_of_deep_nesting_never_panics(
        depth in 1usize..3_000,
        open in prop::sample::select(vec!["[", "{", "- ", "{a: ", "[\u{202e}, "]),
    ) {
        check_render(&format!("version: 1\nhooks: {}\n", open.repeat(depth)))?;
    }

    #[test]
    fn rendering_a_warning_anywhere_never_panics(
        text in prop_oneof![hostile_policy(), any::<String>()],
        line in 0usize..8,
        column in prop_oneof![0usize..300, 65_000usize..200_000],
        title in hostile_fragment(),
        help in prop::option::of(hostile_fragment()),
    ) {
        let file = Path::new("w.yaml");
        let at = Position { line, column };
        let warning = Diagnostic::new(DiagnosticKind::Lint, file, at, "", title).warning();
        let shown = match help {
            Some(help) => warning.clone().with_help(help),
            None => warning.clone(),
        };
        let out = report::render_diagnostics(file, &text, &[shown], false);
        check_clean(&out)?;
        report::render_diagnostics(file, &text, &[warning], true);
    }
}

#[test]
fn an_error_past_column_65535_is_shown_cut_with_its_real_column() {
    let text = format!("version: \"1\"\nhooks: [{} x: y\n", "a".repeat(70_000));
    let out = check_render(&text).expect("renders cleanly");
    let column = match config::load_str(&text, Path::new("t.yaml")) {
        Err(e) => e.diagnostics()[0].column(),
        Ok(_) => panic!("the policy loads"),
    };
    assert!(column > 65_535, "{out}");
    // The header gives the file's column; the line is cut around it.
    assert!(
        out.contains(&format!("[fuzz\\x1b[2J.yaml:2:{column}]")),
        "{out}"
    );
    assert!(out.contains("│ …aaaa"), "{out}");
    assert!(out.contains("here"), "{out}");
}

#[test]
fn controls_in_the_snippet_are_shown_escaped() {
    let text = "version: \"1\"\r\nhooks:\r\n  - name: \"a\u{1b}[2J\u{202e}\"\r\n    point: trun:pre\t\u{7}\r\n    action: block\r\n";
    let out = check_render(text).expect("renders cleanly");
    assert!(out.contains(r#"name: "a\x1b[2J\u{202e}""#), "{out}");
    // CRLF line ends are line ends, not `\r`.
    assert!(out.contains("│ hooks:\n"), "{out}");
}
