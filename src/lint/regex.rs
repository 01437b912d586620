//! Regex smells (`unescaped-dot`, `unanchored`): patterns that likely mean something else
//! than they say. What a pattern can match is in `analysis.rs`.
//!
//! Patterns reached the linter through the loader, so they parse; any that would not is
//! skipped. The analyses answer "certainly" or "don't know", never a guess in between:
//! a "don't know" reports nothing.

use regex_syntax::ast::{self, Ast};

use super::analysis::is_shell_program;
use super::reach::{SubjectKind, subject_of};
use super::{Code, Diagnostic, Lint, PatternKind, char_position, hook_pointer, patterns};
use crate::config::{HookSpec, Position};
use crate::point::Point;

pub(super) fn check(cx: &Lint<'_>, out: &mut Vec<Diagnostic>) {
    for hook in cx.hooks() {
        for field in patterns(hook) {
            let source = field.pattern.as_str();
            let Ok(parsed) = ast::parse::Parser::new().parse(source) else {
                continue;
            };
            let pointer = hook_pointer(hook, &field.suffix);
            let start = cx.position(&hook.file, &pointer);
            let text = cx.text(&hook.file).unwrap_or_default();
            let double_quoted = scalar_is_double_quoted(text, start);
            for dot in unescaped_dots(&parsed, source) {
                let char_index = source
                    .get(..dot.offset)
                    .map_or(0, |before| before.chars().count());
                let position = char_position(text, start, source, char_index);
                let escaped = dot.escaped(double_quoted);
                out.push(cx.at(
                    Code::UnescapedDot,
                    &hook.file,
                    position,
                    &pointer,
                    format!(
                        "unescaped `.` in `{}` matches any character, not only a dot",
                        dot.text
                    ),
                    Some(format!("escape it to match a literal dot: `{escaped}`")),
                ));
            }
            match field.kind {
                PatternKind::Command => {
                    if sees_shell_commands(hook)
                        && let Some(word) = bare_word(&parsed)
                        && is_shell_program(&word)
                    {
                        out.push(cx.at_hook(
                            Code::Unanchored,
                            hook,
                            &field.suffix,
                            format!(
                                "commandPattern `{source}` is a bare word: it also matches inside other words and arguments (`{}`)",
                                inside_example(&word)
                            ),
                            Some(format!(
                                "match the word with `\\b{word}\\b`, the program that runs with `^{word}\\s` (or `match.command: {{ program: {word} }}`)"
                            )),
                        ));
                    }
                }
                PatternKind::Session => {
                    if unanchored_session_prefix(&parsed) {
                        out.push(cx.at_hook(
                            Code::Unanchored,
                            hook,
                            &field.suffix,
                            format!(
                                "sessionPattern `{source}` starts with a session-key prefix but is not anchored: it also matches keys that hold it further in"
                            ),
                            Some(format!("anchor it at the start of the key: `^{source}`")),
                        ));
                    }
                }
                PatternKind::Arg | PatternKind::ArgsPattern | PatternKind::AnyArg => {}
            }
        }
    }
}

/// Whether the scalar at `start` is written in double quotes (where a backslash is doubled).
fn scalar_is_double_quoted(text: &str, start: Position) -> bool {
    text.lines()
        .nth(start.line.saturating_sub(1))
        .and_then(|l| l.chars().nth(start.column.saturating_sub(1)))
        == Some('"')
}

/// Whether `hook` sees shell commands, where a bare word also matches inside other words
/// and arguments: its tools include a shell tool, or it has no tool filter and fires at a
/// tool call. (At a prompt point the subject is the prompt, where a word search is normal.)
fn sees_shell_commands(hook: &HookSpec) -> bool {
    match hook.filter.tool.as_deref() {
        Some(tools) => tools
            .iter()
            .any(|t| subject_of(t) == Some(SubjectKind::Shell)),
        None => hook.points.iter().any(|p| {
            matches!(
                p,
                Point::TurnToolPre
                    | Point::TurnToolPost
                    | Point::SubagentToolPre
                    | Point::SubagentToolPost
                    | Point::PermissionRequest
                    | Point::ToolError
                    | Point::ToolResultPersist
            )
        }),
    }
}

/// Unescaped `.`s joining literal words: a domain or a file name (`api.openai.com`).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Dot {
    /// The byte offset of the first `.` in the pattern.
    pub(super) offset: usize,
    /// The words, as written (`api.openai.com`).
    pub(super) text: String,
}

impl Dot {
    /// The words with each dot escaped, for a YAML string in double quotes or not.
    fn escaped(&self, double_quoted: bool) -> String {
        self.text
            .replace('.', if double_quoted { "\\\\." } else { "\\." })
    }
}

/// Fewest word characters in a dotted name for its dots to read as literal dots.
const DOT_WORDS: usize = 4;

/// Every run of literal words joined by single unescaped `.`s (outside a class, not
/// repeated), with at least [`DOT_WORDS`] word characters in all: `github.com`,
/// `id_rsa.pub`, `10.0.0.1`; not `a.b` or `gr.y`. One per run, at its first dot.
pub(super) fn unescaped_dots(ast: &Ast, source: &str) -> Vec<Dot> {
    let mut out = Vec::new();
    walk_concats(ast, &mut |items| {
        let mut k = 0;
        while k < items.len() {
            if word_literal(&items[k]).is_none() {
                k += 1;
                continue;
            }
            let mut text = String::new();
            let mut first_dot = None;
            let mut letters = 0;
            let mut j = k;
            while let Some(item) = items.get(j) {
                if let Some(c) = word_literal(item) {
                    text.push(c);
                    letters += 1;
                } else if let Ast::Dot(span) = item
                    && items.get(j + 1).and_then(word_literal).is_some()
                {
                    text.push('.');
                    first_dot.get_or_insert(span.start.offset);
                } else {
                    break;
                }
                j += 1;
            }
            if let Some(offset) = first_dot
                && letters >= DOT_WORDS
                && source.is_char_boundary(offset)
            {
                out.push(Dot { offset, text });
            }
            k = j.max(k + 1);
        }
    });
    out
}

/// The character of a literal word character (`a`, `_`, `7`), written as itself.
fn word_literal(ast: &Ast) -> Option<char> {
    match ast {
        Ast::Literal(l)
            if l.kind == ast::LiteralKind::Verbatim && (l.c.is_alphanumeric() || l.c == '_') =>
        {
            Some(l.c)
        }
        _ => None,
    }
}

/// Calls `each` with the items of every concatenation in `ast` (a lone item counts as a
/// concatenation of one).
fn walk_concats(ast: &Ast, each: &mut dyn FnMut(&[Ast])) {
    match ast {
        Ast::Concat(c) => {
            each(&c.asts);
            for item in &c.asts {
                walk_concats(item, each);
            }
        }
        Ast::Alternation(a) => {
            for item in &a.asts {
                walk_concats(item, each);
            }
        }
        Ast::Group(g) => walk_concats(&g.ast, each),
        Ast::Repetition(r) => walk_concats(&r.ast, each),
        other => each(std::slice::from_ref(other)),
    }
}

/// The word, when the whole pattern is one bare word of two or more characters (flags such
/// as `(?i)` aside): `sudo`, `rm`. The check reports it when the word names a program.
pub(super) fn bare_word(ast: &Ast) -> Option<String> {
    let items: &[Ast] = match ast {
        Ast::Concat(c) => &c.asts,
        other => std::slice::from_ref(other),
    };
    let mut word = String::new();
    for item in items {
        match item {
            Ast::Flags(_) if word.is_empty() => {}
            Ast::Literal(l)
                if l.kind == ast::LiteralKind::Verbatim
                    && (l.c.is_ascii_alphanumeric() || l.c == '_') =>
            {
                word.push(l.c);
            }
            _ => return None,
        }
    }
    (word.len() >= 2).then_some(word)
}

/// A word that holds `word`, for the message: `sudo` gives `pseudo`.
fn inside_example(word: &str) -> String {
    match word {
        "sudo" => "echo pseudo".to_owned(),
        "rm" => "format, perm".to_owned(),
        "su" => "sum, result".to_owned(),
        "dd" => "add, git add".to_owned(),
        "sh" => "ssh, push".to_owned(),
        "cp" => "scp".to_owned(),
        _ => format!("echo my_{word}_notes"),
    }
}

/// Whether a session pattern starts with the literal `agent:` without `^` (every
/// alternative of it, when it has several).
pub(super) fn unanchored_session_prefix(ast: &Ast) -> bool {
    let alternatives: &[Ast] = match ast {
        Ast::Alternation(a) => &a.asts,
        other => std::slice::from_ref(other),
    };
    !alternatives.is_empty()
        && alternatives.iter().all(|alt| {
            let items: &[Ast] = match alt {
                Ast::Concat(c) => &c.asts,
                other => std::slice::from_ref(other),
            };
            let prefix: String = items
                .iter()
                .map_while(|i| match i {
                    Ast::Literal(l) => Some(l.c),
                    _ => None,
                })
                .take(6)
                .collect();
            prefix == "agent:"
        })
}

#[cfg(test)]
mod tests;
