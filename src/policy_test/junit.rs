//! JUnit XML for CI systems: one `<testsuite>` per test file, one `<testcase>` per case.
//!
//! A file that could not be run (malformed, or its policy would not load) is a suite with one
//! `<testcase>` holding an `<error>`. With `fail_uncovered`, a last suite `coverage` has one
//! case per policy, failed when some enabled hook was not exercised.

use std::fmt::Write;

use super::run::{Coverage, FileError, FileReport};

/// The whole report as JUnit XML.
pub(crate) fn render(
    reports: &[FileReport],
    coverage: &[Coverage],
    fail_uncovered: bool,
) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    let mut time = 0.0;
    for report in reports {
        let file = report.file.display().to_string();
        let seconds = report.duration.as_secs_f64();
        time += seconds;
        match &report.outcome {
            Ok(cases) => {
                let failed = cases.iter().filter(|c| !c.passed()).count();
                tests += cases.len();
                failures += failed;
                let _ = writeln!(
                    suites,
                    r#"  <testsuite name="{}" tests="{}" failures="{failed}" errors="0" skipped="0" time="{seconds:.3}">"#,
                    escape_attr(&file),
                    cases.len(),
                );
                if let Some(policy) = &report.policy {
                    let _ = writeln!(
                        suites,
                        r#"    <properties><property name="policy" value="{}"/></properties>"#,
                        escape_attr(&policy.display().to_string())
                    );
                }
                for case in cases {
                    let open = format!(
                        r#"    <testcase name="{}" classname="{}" file="{}" line="{}" time="{:.3}""#,
                        escape_attr(&case.name),
                        escape_attr(&file),
                        escape_attr(&file),
                        case.line,
                        case.duration.as_secs_f64(),
                    );
                    if case.passed() {
                        let _ = writeln!(suites, "{open}/>");
                    } else {
                        let _ = writeln!(
                            suites,
                            "{open}>\n      <failure message=\"{}\" type=\"assertion\">{}</failure>\n    </testcase>",
                            escape_attr(case.failures.first().map_or("", String::as_str)),
                            escape_text(&case.failures.join("\n")),
                        );
                    }
                }
                if let Some(c) = report
                    .policy
                    .as_ref()
                    .and_then(|p| coverage_of(coverage, p))
                {
                    let _ = writeln!(
                        suites,
                        "    <system-out>{}</system-out>",
                        escape_text(&super::report::coverage_line(c))
                    );
                }
            }
            Err(error) => {
                tests += 1;
                errors += 1;
                let _ = writeln!(
                    suites,
                    r#"  <testsuite name="{0}" tests="1" failures="0" errors="1" skipped="0" time="0.000">
    <testcase name="{1}" classname="{0}" file="{0}">
      <error message="{2}" type="{3}">{4}</error>
    </testcase>
  </testsuite>"#,
                    escape_attr(&file),
                    escape_attr(match error {
                        FileError::TestFile(_) => "(test file)",
                        FileError::Policy { .. } => "(policy)",
                    }),
                    escape_attr(&error.to_string()),
                    match error {
                        FileError::TestFile(_) => "invalid-test-file",
                        FileError::Policy { .. } => "invalid-policy",
                    },
                    escape_text(&super::report::error_details(error)),
                );
                continue;
            }
        }
        suites.push_str("  </testsuite>\n");
    }
    if fail_uncovered {
        let failed = coverage
            .iter()
            .filter(|c| !c.unexercised.is_empty())
            .count();
        tests += coverage.len();
        failures += failed;
        let _ = writeln!(
            suites,
            r#"  <testsuite name="coverage" tests="{}" failures="{failed}" errors="0" skipped="0" time="0.000">"#,
            coverage.len()
        );
        for c in coverage {
            let policy = c.policy.display().to_string();
            let open = format!(
                r#"    <testcase name="every enabled hook is exercised" classname="{}" file="{}""#,
                escape_attr(&policy),
                escape_attr(&policy)
            );
            if c.unexercised.is_empty() {
                let _ = writeln!(suites, "{open}/>");
            } else {
                let line = super::report::coverage_line(c);
                let _ = writeln!(
                    suites,
                    "{open}>\n      <failure message=\"{}\" type=\"coverage\">{}</failure>\n    </testcase>",
                    escape_attr(&line),
                    escape_text(&line)
                );
            }
        }
        suites.push_str("  </testsuite>\n");
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hookgate test\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{time:.3}\">\n{suites}</testsuites>\n"
    )
}

fn coverage_of<'c>(coverage: &'c [Coverage], policy: &std::path::Path) -> Option<&'c Coverage> {
    coverage.iter().find(|c| c.policy == policy)
}

/// Escapes text for element content: the five XML specials become entities, a carriage
/// return a character reference (a parser would drop it), and what XML 1.0 cannot hold
/// (control characters but tab and newline, U+FFFE, U+FFFF) becomes `\u{..}`.
pub(crate) fn escape_text(s: &str) -> String {
    escape(s, false)
}

/// Escapes text for an attribute value: as [`escape_text`], and tab and newline become
/// character references too (a parser would turn them into spaces).
pub(crate) fn escape_attr(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\r' => out.push_str("&#13;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\n' | '\t' => out.push(c),
            // Not even a character reference may name these in XML 1.0.
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specials_become_entities() {
        assert_eq!(
            escape_text(r#"a < b && c > "d" 'e'"#),
            "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &apos;e&apos;"
        );
        assert_eq!(escape_attr("<&>\"'"), "&lt;&amp;&gt;&quot;&apos;");
        // Already-escaped text is escaped again, not trusted.
        assert_eq!(escape_text("&amp;"), "&amp;amp;");
        assert_eq!(escape_text("ünïcödé ✓"), "ünïcödé ✓");
    }

    #[test]
    fn control_characters_never_reach_the_xml() {
        let escaped = escape_text("bell\u{7} nul\u{0} esc\u{1b}[31m ff\u{c} \u{FFFE}");
        assert_eq!(
            escaped,
            "bell\\u{7} nul\\u{0} esc\\u{1b}[31m ff\\u{c} \\u{fffe}"
        );
        assert!(!escaped.chars().any(|c| c.is_control()));
        // Whitespace XML keeps: raw in text, references in attributes (which would
        // normalise it to spaces), and a carriage return always a reference.
        assert_eq!(escape_text("a\tb\nc\rd"), "a\tb\nc&#13;d");
        assert_eq!(escape_attr("a\tb\nc\rd"), "a&#9;b&#10;c&#13;d");
    }
}
