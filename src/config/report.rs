//! Config problems rendered for people: each one as its title (`file:line:column: field:
//! message`), the YAML snippet around it with the token labelled, and its help.
//!
//! The policy text is untrusted here like everything else: the snippet, the file name, the
//! title and the help have their controls and bidirectional formatting characters escaped
//! ([`crate::terminal`]), so the output holds no control character but the newlines between
//! its lines (and, with `color`, the renderer's own ANSI styles). A long line is cut to a
//! window of [`WINDOW`] characters around the problem, marked with `…` where it was cut: the
//! snippet stays readable, and no column reaches the 65,535 past which the renderer's
//! padding panics.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, MietteError,
    MietteSpanContents, Report, Severity, SourceCode, SourceSpan, SpanContents,
};

use super::{ConfigError, Diagnostic, LoadedPolicy};
use crate::terminal::escape;

/// The longest part of a source line a snippet shows, in characters.
pub const WINDOW: usize = 240;

/// What marks a line cut for the snippet.
const CUT: &str = "…";

/// `error` as people read it: a snippet per problem (when it has any), then `error: …`.
/// `color`: with ANSI styles. This is what `hookgate validate` prints on stderr.
pub fn render_error(error: &ConfigError, color: bool) -> String {
    let mut out = match error {
        ConfigError::Invalid {
            file,
            source_text,
            diagnostics,
        } => render_diagnostics(file, source_text, diagnostics, color),
        _ => String::new(),
    };
    let _ = writeln!(out, "error: {}", escape(&error.to_string()));
    out
}

/// `diagnostics` of `file` (whose text is `text`), each as a snippet followed by a newline,
/// marked as its severity says; `color`: with ANSI styles. Lines are not wrapped, so
/// `file:line:column` stays whole.
pub fn render_diagnostics(
    file: &Path,
    text: &str,
    diagnostics: &[Diagnostic],
    color: bool,
) -> String {
    let handler = handler(color);
    let lines = Lines::of(text);
    let mut out = String::new();
    for d in diagnostics {
        render(&handler, &mut out, file, &lines, d);
    }
    out
}

/// `diagnostics` of the files of `policy` (its load's warnings, or what `hookgate lint`
/// found), each as a snippet of the file it names.
pub fn render_in(policy: &LoadedPolicy, diagnostics: &[Diagnostic], color: bool) -> String {
    let handler = handler(color);
    let mut out = String::new();
    for d in diagnostics {
        let text = policy
            .sources
            .iter()
            .find(|s| *s.path == *d.file())
            .map_or("", |s| &*s.text);
        render(&handler, &mut out, d.file(), &Lines::of(text), d);
    }
    out
}

/// The warnings of a policy that loaded, each as a snippet of the file it names.
pub fn render_warnings(policy: &LoadedPolicy, color: bool) -> String {
    render_in(policy, &policy.warnings, color)
}

/// The snippet renderer: lines are not wrapped, so `file:line:column` stays whole.
fn handler(color: bool) -> GraphicalReportHandler {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_wrap_lines(false)
        .with_context_lines(CONTEXT)
}

/// Lines shown before and after the problem's.
const CONTEXT: usize = 1;

/// Appends `d`, a problem in `file` whose text is `lines`, and a newline to `out`.
fn render(
    handler: &GraphicalReportHandler,
    out: &mut String,
    file: &Path,
    lines: &Lines<'_>,
    d: &Diagnostic,
) {
    let title = escape(&shorten(&d.title())).into_owned();
    let severity = match d.severity() {
        super::Severity::Error => Severity::Error,
        super::Severity::Warning => Severity::Warning,
    };
    let mut m = MietteDiagnostic::new(title.clone())
        .with_severity(severity)
        .with_code(d.code().to_string());
    if let Some(help) = d.help() {
        m = m.with_help(escape(&shorten(help)));
    }
    let name = escape(&file.display().to_string()).into_owned();
    let snippet = Snippet::new(name, lines, d.line(), d.column());
    if let Some((span, _)) = snippet.label {
        m = m.with_label(LabeledSpan::new_with_span(Some("here".to_owned()), span));
    }
    let report = Report::new(m).with_source_code(snippet);
    let mut rendered = String::new();
    if handler.render_report(&mut rendered, &*report).is_ok() {
        out.push_str(&rendered);
    } else {
        // Rendering into a String cannot fail; keep the plain title if it ever did.
        out.push_str(&title);
    }
    for related in d.related() {
        let _ = writeln!(out, "  note: {}", escape(&shorten(&related.to_string())));
    }
    out.push('\n');
}

/// `text` cut in the middle to at most [`TEXT_MAX`] characters (a message quoting a whole
/// long line is no use on a terminal), with [`CUT`] where it was cut.
fn shorten(text: &str) -> Cow<'_, str> {
    let Some((head, _)) = text.char_indices().nth(TEXT_MAX) else {
        return Cow::Borrowed(text);
    };
    let head = text[..head]
        .char_indices()
        .nth(TEXT_MAX * 2 / 3)
        .map_or(head, |(b, _)| b);
    let tail = text
        .char_indices()
        .rev()
        .nth(TEXT_MAX / 3 - 1)
        .map_or(head, |(b, _)| b.max(head));
    Cow::Owned(format!("{}{CUT}{}", &text[..head], &text[tail..]))
}

/// The longest title or help shown whole, in characters.
const TEXT_MAX: usize = 4 * WINDOW;

/// The lines of a text as `split_inclusive('\n')` cuts them, found by number without
/// walking the text again for each problem.
struct Lines<'a> {
    text: &'a str,
    /// The byte offset where each line starts.
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn of(text: &'a str) -> Lines<'a> {
        let mut starts = Vec::new();
        if !text.is_empty() {
            starts.push(0);
            starts.extend(
                text.match_indices('\n')
                    .map(|(i, _)| i + 1)
                    .filter(|&s| s < text.len()),
            );
        }
        Lines { text, starts }
    }

    /// Line `index` (0-based) without its line break (`\n` or `\r\n`).
    fn get(&self, index: usize) -> Option<&'a str> {
        let start = *self.starts.get(index)?;
        let end = self
            .starts
            .get(index + 1)
            .copied()
            .unwrap_or(self.text.len());
        let line = &self.text[start..end];
        let line = line.strip_suffix('\n').unwrap_or(line);
        Some(line.strip_suffix('\r').unwrap_or(line))
    }
}

/// What the renderer is shown of a file: the problem's line and [`CONTEXT`] lines around
/// it, each escaped and cut to a window, numbered as in the file.
struct Snippet {
    name: String,
    text: String,
    /// The 0-based number in the file of the snippet's first line.
    first_line: usize,
    /// The labelled token in `text`, and the 0-based column (in characters) where it
    /// starts in the file, for the `[file:line:column]` header.
    label: Option<(SourceSpan, usize)>,
}

impl Snippet {
    fn new(name: String, lines: &Lines<'_>, line: usize, column: usize) -> Snippet {
        let mut snippet = Snippet {
            name,
            text: String::new(),
            first_line: 0,
            label: None,
        };
        let Some((index, content)) = line.checked_sub(1).and_then(|i| Some((i, lines.get(i)?)))
        else {
            return snippet;
        };
        let (start, end) = token(content, column);
        snippet.first_line = index.saturating_sub(CONTEXT);
        for i in snippet.first_line..=index + CONTEXT {
            let Some(text) = lines.get(i) else { break };
            if i != index {
                let (_, w1) = window(text, 0);
                shown(&mut snippet.text, text, 0, w1);
                snippet.text.push('\n');
                continue;
            }
            let (w0, w1) = window(text, start);
            let at = snippet.text.len()
                + if w0 > 0 { CUT.len() } else { 0 }
                + escape(&text[w0..start]).len();
            let len = escape(&text[start..end.min(w1)]).len();
            let column = text[..start].chars().count();
            snippet.label = Some(((at, len).into(), column));
            shown(&mut snippet.text, text, w0, w1);
            snippet.text.push('\n');
        }
        snippet
    }
}

/// Appends bytes `w0..w1` of `line`, escaped, with [`CUT`] where the line goes on.
fn shown(out: &mut String, line: &str, w0: usize, w1: usize) {
    if w0 > 0 {
        out.push_str(CUT);
    }
    out.push_str(&escape(&line[w0..w1]));
    if w1 < line.len() {
        out.push_str(CUT);
    }
}

/// The byte range of the token at 1-based `column` (in characters) of `line`: from there to
/// the next space or comma, at least one character if any is left. A column past the end
/// is the end.
fn token(line: &str, column: usize) -> (usize, usize) {
    let start = line
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(line.len(), |(b, _)| b);
    let rest = &line[start..];
    let len = match rest.find(|c: char| c.is_whitespace() || c == ',') {
        // At a space or a comma: that one character.
        Some(0) => rest.chars().next().map_or(0, char::len_utf8),
        Some(n) => n,
        None => rest.len(),
    };
    (start, start + len)
}

/// The byte range of at most [`WINDOW`] characters of `line` to show around byte `focus` (a
/// character boundary): from a third of the window before it, or the whole window from the
/// start or to the end of the line when it is near either.
fn window(line: &str, focus: usize) -> (usize, usize) {
    let advance = |from: usize, chars: usize| {
        line[from..]
            .char_indices()
            .nth(chars)
            .map_or(line.len(), |(b, _)| from + b)
    };
    let retreat = |to: usize, chars: usize| {
        line[..to]
            .char_indices()
            .rev()
            .take(chars)
            .last()
            .map_or(to, |(b, _)| b)
    };
    let w1 = advance(focus, WINDOW - WINDOW / 3);
    let w0 = retreat(w1, WINDOW);
    if w0 == 0 {
        (0, advance(0, WINDOW))
    } else {
        (w0, w1)
    }
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner =
            self.text
                .as_str()
                .read_span(span, context_lines_before, context_lines_after)?;
        // The header's column is the file's, not the cut and escaped line's.
        let column = match self.label {
            Some((label, column)) if context_lines_before == 0 && *span == label => column,
            _ => inner.column(),
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            column,
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_run_to_a_space_or_comma() {
        let line = "  - point: [trun:pre, turn:tool:pr]";
        let (s, e) = token(line, 13);
        assert_eq!(&line[s..e], "trun:pre");
        let (s, e) = token(line, 21);
        assert_eq!(&line[s..e], ",", "a comma alone is its own token");
        assert_eq!(token(line, 99), (line.len(), line.len()));
        assert_eq!(token("", 1), (0, 0));
        let (s, e) = token("é,x", 1);
        assert_eq!(&"é,x"[s..e], "é");
    }

    #[test]
    fn windows_hold_the_focus() {
        let short = "version: 1";
        assert_eq!(window(short, 3), (0, short.len()));
        let long = "é".repeat(10 * WINDOW);
        for focus_char in [0, 1, WINDOW / 2, 5 * WINDOW, 10 * WINDOW - 1, 10 * WINDOW] {
            let focus = focus_char * 'é'.len_utf8();
            let (w0, w1) = window(&long, focus);
            assert!(w0 <= focus && focus <= w1, "{focus_char}: {w0}..{w1}");
            assert_eq!(long[w0..w1].chars().count(), WINDOW, "{focus_char}");
        }
    }

    #[test]
    fn long_titles_are_cut_in_the_middle() {
        assert_eq!(shorten("short"), "short");
        let exact = "x".repeat(TEXT_MAX);
        assert_eq!(shorten(&exact), exact);
        let long = format!("start{}end", "é".repeat(10 * TEXT_MAX));
        let cut = shorten(&long);
        assert!(
            cut.starts_with("startéé") && cut.ends_with("ééend"),
            "{cut}"
        );
        assert!(cut.contains(CUT));
        assert_eq!(cut.chars().count(), TEXT_MAX * 2 / 3 + 1 + TEXT_MAX / 3);
    }

    #[test]
    fn lines_are_found_by_number() {
        let lines = Lines::of("a\r\nb\n\nc");
        assert_eq!(
            (0..5).map(|i| lines.get(i)).collect::<Vec<_>>(),
            [Some("a"), Some("b"), Some(""), Some("c"), None]
        );
        assert_eq!(Lines::of("a\n").get(1), None);
        assert_eq!(Lines::of("").get(0), None);
    }
}
