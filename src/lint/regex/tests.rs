use super::super::tests::findings;
use regex_syntax::hir::Hir;

use super::*;
use crate::lint::analysis::{
    anchored_strings, can_match, hir, is_anchored_path, is_shell_command, requires_literal,
};

fn parse(source: &str) -> Ast {
    ast::parse::Parser::new().parse(source).expect("parses")
}

fn hir_of(source: &str) -> Hir {
    hir(source).expect("parses")
}

fn one_hook(filter: &str) -> String {
    format!(
        "version: 1\nhooks:\n  - name: h\n    point: turn:tool:pre\n    match: {filter}\n    action: block\n"
    )
}

#[test]
fn dots_between_words_are_found() {
    let dots = |s: &str| {
        unescaped_dots(&parse(s), s)
            .into_iter()
            .map(|d| (d.offset, d.text))
            .collect::<Vec<_>>()
    };
    assert_eq!(dots("github.com"), [(6, "github.com".into())]);
    assert_eq!(dots(r"\.env.local"), [(5, "env.local".into())]);
    assert_eq!(dots("^api.openai.com/"), [(4, "api.openai.com".into())]);
    assert_eq!(dots("(?:^|/)id_rsa.pub$"), [(13, "id_rsa.pub".into())]);
    assert_eq!(dots("^10.0.0.1$"), [(3, "10.0.0.1".into())]);
    assert_eq!(dots(r"api\.openai.com"), [(11, "openai.com".into())]);
    assert_eq!(dots("(a.bcd|xy.z)"), [(2, "a.bcd".into())]);
    // Clean look-alikes: escaped, repeated, in a class, too short, dots doubled.
    for clean in [
        r"github\.com",
        "rm.*-rf",
        "a.+b",
        "ab.?cd",
        "ab.{2}cd",
        "ab[.]cd",
        "a.b",
        "x.yz",
        "gr.y",
        "v1.2",
        "ab.(c)",
        "ab..cd",
        ".env",
        "env.",
    ] {
        assert_eq!(dots(clean), [], "{clean}");
    }
}

#[test]
fn unescaped_dots_are_reported_at_the_dot() {
    let found = findings(
        &one_hook("{ tool: web_fetch, args: { url: 'https://github.com/' } }"),
        Code::UnescapedDot,
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    // `    match: { tool: web_fetch, args: { url: '` is 44 characters; `https://github` 14.
    assert_eq!((found[0].line(), found[0].column()), (5, 45 + 14));
    assert_eq!(found[0].path(), "hooks[0].match.args.url");
    assert!(found[0].help().is_some_and(|h| h.contains(r"github\.com")));

    // Double quotes: the help doubles the backslash.
    let found = findings(
        &one_hook("{ commandPattern: \"curl api.example.com\" }"),
        Code::UnescapedDot,
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!((found[0].line(), found[0].column()), (5, 31 + 8));
    assert!(
        found[0]
            .help()
            .is_some_and(|h| h.contains(r"`api\\.example\\.com`")),
        "{found:#?}"
    );

    assert_eq!(
        findings(
            &one_hook("{ commandPattern: 'github\\.com' }"),
            Code::UnescapedDot
        ),
        []
    );
}

#[test]
fn dots_in_block_scalars_are_placed_on_their_line() {
    let yaml = "version: 1\nhooks:\n  - name: h\n    point: turn:tool:pre\n    match:\n      commandPattern: |-\n        (?x)\n          ^curl\\s\n        | evil.example\n    action: block\n";
    let found = findings(yaml, Code::UnescapedDot);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!((found[0].line(), found[0].column()), (9, 15));
}

#[test]
fn bare_words_are_found() {
    assert_eq!(bare_word(&parse("sudo")).as_deref(), Some("sudo"));
    assert_eq!(bare_word(&parse("(?i)sudo")).as_deref(), Some("sudo"));
    for clean in [
        r"\bsudo\b",
        r"^sudo\s",
        r"sudo\s",
        "rm -rf",
        "x",
        "sudo|su",
        r"sudo\b",
        "rm-rf",
    ] {
        assert_eq!(bare_word(&parse(clean)), None, "{clean}");
    }
    let found = findings(
        &one_hook("{ tool: exec, commandPattern: sudo }"),
        Code::Unanchored,
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].path(), "hooks[0].match.commandPattern");
    assert!(found[0].message().contains("pseudo"), "{found:#?}");
    // Without a tool filter, at a tool call too.
    let yaml = "version: 1\nhooks:\n  - { point: turn:tool:pre, match: { commandPattern: rm }, action: block }\n";
    assert_eq!(findings(yaml, Code::Unanchored).len(), 1);
    // A word search in prompts, or in file paths, is normal.
    let yaml = "version: 1\nhooks:\n  - { point: turn:pre, match: { commandPattern: passwd }, action: log }\n";
    assert_eq!(findings(yaml, Code::Unanchored), []);
    assert_eq!(
        findings(
            &one_hook("{ tool: Read, commandPattern: ssh }"),
            Code::Unanchored
        ),
        []
    );
    // A word that names no program is a search for that text.
    assert_eq!(
        findings(
            &one_hook("{ tool: exec, commandPattern: secret }"),
            Code::Unanchored
        ),
        []
    );
    // Only commandPattern: a bare word elsewhere is left alone.
    assert_eq!(
        findings(
            &one_hook("{ tool: exec, command: { anyArg: sudo } }"),
            Code::Unanchored
        ),
        []
    );
}

#[test]
fn unanchored_session_prefixes_are_found() {
    assert!(unanchored_session_prefix(&parse("agent:main:")));
    assert!(unanchored_session_prefix(&parse("agent:a|agent:b")));
    for clean in [
        "^agent:main:",
        "telegram:group",
        ":subagent:",
        "agent:a|^agent:b",
        "(?:agent:)",
    ] {
        assert!(!unanchored_session_prefix(&parse(clean)), "{clean}");
    }
    let found = findings(
        &one_hook("{ sessionPattern: 'agent:main:' }"),
        Code::Unanchored,
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].path(), "hooks[0].match.sessionPattern");
    assert_eq!(
        findings(
            &one_hook("{ sessionPattern: '^agent:main:' }"),
            Code::Unanchored
        ),
        []
    );
}

#[test]
fn impossible_regexes_are_found() {
    for never in [r"a\bc", "a^", "$a", r"[^\s\S]", r"x(?:a\bc|$b)", r"(?:a^)+"] {
        assert!(!can_match(&hir_of(never)), "{never}");
    }
    for possible in [
        r"\ba\b", "^a", "a$", "(?m)a^", "a?^b", r"a\b c", "(?:a^)*", r"a\Bc", "", "a|b^",
    ] {
        assert!(can_match(&hir_of(possible)), "{possible}");
    }
}

#[test]
fn anchored_strings_are_listed() {
    let strings = |s: &str| anchored_strings(&hir_of(s));
    assert_eq!(
        strings("^agent:main:main$"),
        Some(vec!["agent:main:main".into()])
    );
    assert_eq!(strings("^(?:a|b)c$").map(|v| v.len()), Some(2));
    assert_eq!(strings("^a[0-9]$").map(|v| v.len()), Some(10));
    assert_eq!(strings("^agent:main"), None);
    assert_eq!(strings("agent:main$"), None);
    assert_eq!(strings("^a.*$"), None);
    assert_eq!(strings("^[a-z]{3}$"), None);
}

#[test]
fn required_literals_are_found() {
    assert!(requires_literal(
        &hir_of("^agent:[^:]+:subagent:"),
        ":subagent:"
    ));
    assert!(requires_literal(&hir_of("(?:x|y):subagent:"), ":subagent:"));
    assert!(requires_literal(
        &hir_of("a:subagent:|:subagent:b"),
        ":subagent:"
    ));
    assert!(!requires_literal(&hir_of("(?::subagent:)?x"), ":subagent:"));
    assert!(!requires_literal(&hir_of(":subagent:|main"), ":subagent:"));
    assert!(!requires_literal(&hir_of("(?i):subagent:"), ":subagent:"));
}

#[test]
fn shell_commands_and_paths_are_told_apart() {
    for shell in [
        r"rm\s+-rf",
        "^curl ",
        r"\b(?:sudo|su)\s",
        r"^(rm|curl)\s+",
        "git push",
    ] {
        assert!(is_shell_command(&hir_of(shell)), "{shell}");
    }
    for other in [
        r"rm\s*-rf",
        "curl",
        r"\.env$",
        "^/etc/",
        r"foo\s+bar",
        r"rm-rf\s",
        "(?i)rm ",
        r"rm\s|\.ssh",
    ] {
        assert!(!is_shell_command(&hir_of(other)), "{other}");
    }
    for path in ["^/", "^~/", r"^\./", "^(?:/etc|~/.ssh)"] {
        assert!(is_anchored_path(&hir_of(path)), "{path}");
    }
    for other in ["/etc", "^https://", "^(?:/|h)", "(?m)x^/"] {
        assert!(!is_anchored_path(&hir_of(other)), "{other}");
    }
}
