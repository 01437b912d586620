//! Rendering config errors for people: the YAML snippet with line, column and field.

use std::path::Path;

use hookgate::config::{ConfigError, Diagnostic, LoadedPolicy};
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource, Report,
    Severity,
};

/// Prints `error` to stderr: one snippet per problem, then a summary line.
pub(crate) fn print_config_error(error: &ConfigError) {
    match error {
        ConfigError::Invalid {
            file,
            source_text,
            diagnostics,
        } => {
            for d in diagnostics {
                let report = Report::new(to_miette(d, source_text)).with_source_code(
                    NamedSource::new(file.display().to_string(), source_text.to_string()),
                );
                eprintln!("{report:?}");
            }
            eprintln!("error: {error}");
        }
        other => eprintln!("error: {other}"),
    }
}

/// Prints the loaded policy's warnings to stderr, each with its snippet.
pub(crate) fn print_warnings(policy: &LoadedPolicy) {
    for d in &policy.warnings {
        let text = policy
            .sources
            .iter()
            .find(|s| *s.path == *d.file())
            .map_or_else(String::new, |s| s.text.to_string());
        let diagnostic = to_miette(d, &text).with_severity(Severity::Warning);
        let report = Report::new(diagnostic)
            .with_source_code(NamedSource::new(d.file().display().to_string(), text));
        eprintln!("{report:?}");
    }
}

/// `diagnostics` of `file` (whose text is `text`) as snippets, for a report written elsewhere
/// than stderr; `color`: with ANSI styles. Lines are not wrapped, so `file:line:column`
/// stays whole.
pub(crate) fn render_diagnostics(
    file: &Path,
    text: &str,
    diagnostics: &[Diagnostic],
    color: bool,
) -> String {
    let handler = handler(color);
    let mut out = String::new();
    for d in diagnostics {
        let report = Report::new(to_miette(d, text)).with_source_code(NamedSource::new(
            file.display().to_string(),
            text.to_string(),
        ));
        if handler.render_report(&mut out, &*report).is_err() {
            // Rendering into a String cannot fail; keep the plain line if it ever did.
            out.push_str(&d.to_string());
        }
        out.push('\n');
    }
    out
}

/// One warning as a snippet: `title`, the token at `line`/`column` of `text` (the text of
/// `file`) labelled, and `help`; `color`: with ANSI styles. Used by `hookgate lint`.
pub(crate) fn render_warning(
    file: &Path,
    text: &str,
    line: usize,
    column: usize,
    title: &str,
    help: Option<&str>,
    color: bool,
) -> String {
    let handler = handler(color);
    let mut m = MietteDiagnostic::new(title.to_owned()).with_severity(Severity::Warning);
    if let Some((offset, len)) = byte_span(text, line, column) {
        m = m.with_label(LabeledSpan::at(offset..offset + len, "here"));
    }
    if let Some(help) = help {
        m = m.with_help(help.to_owned());
    }
    let report = Report::new(m).with_source_code(NamedSource::new(
        file.display().to_string(),
        text.to_string(),
    ));
    let mut out = String::new();
    if handler.render_report(&mut out, &*report).is_err() {
        // Rendering into a String cannot fail; keep the plain title if it ever did.
        out = title.to_owned();
    }
    out.push('\n');
    out
}

/// The snippet renderer for reports written to a string: lines are not wrapped, so
/// `file:line:column` stays whole; `color`: with ANSI styles.
fn handler(color: bool) -> GraphicalReportHandler {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme).with_wrap_lines(false)
}

fn to_miette(d: &Diagnostic, text: &str) -> MietteDiagnostic {
    let title = if d.path().is_empty() {
        format!(
            "{}:{}:{}: {}",
            d.file().display(),
            d.line(),
            d.column(),
            d.message()
        )
    } else {
        format!(
            "{}:{}:{}: {}: {}",
            d.file().display(),
            d.line(),
            d.column(),
            d.path(),
            d.message()
        )
    };
    let mut m = MietteDiagnostic::new(title);
    if let Some((offset, len)) = byte_span(text, d.line(), d.column()) {
        m = m.with_label(LabeledSpan::at(offset..offset + len, "here"));
    }
    if let Some(help) = d.help() {
        m = m.with_help(help.to_owned());
    }
    m
}

/// The byte range of the token at 1-based `line`/`column` (column in characters).
fn byte_span(text: &str, line: usize, column: usize) -> Option<(usize, usize)> {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let content = l.trim_end_matches(['\n', '\r']);
            let start = content
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(content.len(), |(b, _)| b);
            let rest = &content[start..];
            // The token runs to the next space or comma (at least one character, if any).
            let token = rest
                .find(|c: char| c.is_whitespace() || c == ',')
                .unwrap_or(rest.len());
            let len = if token == 0 {
                rest.chars().next().map_or(0, char::len_utf8)
            } else {
                token
            };
            return Some((offset + start, len));
        }
        offset += l.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::byte_span;

    #[test]
    fn spans_cover_the_token() {
        let text = "version: 1\nhooks:\n  - point: trun:pre\n";
        assert_eq!(byte_span(text, 3, 12), Some((29, 8)));
        assert_eq!(&text[29..37], "trun:pre");
        assert_eq!(byte_span(text, 9, 1), None);
    }
}
