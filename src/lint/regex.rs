//! Regex smells (`unescaped-dot`, `unanchored`), and the analysis of patterns the other
//! checks use: whether a regex can match at all, the strings of an anchored one, the text
//! every match must contain, whether it describes a shell command or a path.
//!
//! Patterns reached the linter through the loader, so they parse; any that would not is
//! skipped. The analyses answer "certainly" or "don't know", never a guess in between:
//! a "don't know" reports nothing.

use regex_syntax::ast::{self, Ast};
use regex_syntax::hir::{Class, Hir, HirKind, Look};

use super::reach::{SubjectKind, subject_of};
use super::{Code, Diagnostic, Lint, PatternKind, char_position, hook_pointer, patterns};
use crate::config::{HookSpec, Position};
use crate::point::Point;

/// Most strings [`finite_strings`] enumerates before it gives up.
const MAX_STRINGS: usize = 256;
/// Most characters a class may hold to be enumerated.
const MAX_CLASS_CHARS: u32 = 16;

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

/// The pattern's syntax tree with the regex crate's settings (Unicode, UTF-8).
pub(super) fn hir(source: &str) -> Option<Hir> {
    regex_syntax::ParserBuilder::new()
        .build()
        .parse(source)
        .ok()
}

/// Whether `hir` can match some string. `false` is certain: an empty class, `^` after
/// text that cannot be empty, `$` before it, or `\b` between two word characters.
pub(super) fn can_match(hir: &Hir) -> bool {
    if hir.properties().minimum_len().is_none() {
        return false;
    }
    match hir.kind() {
        HirKind::Empty | HirKind::Literal(_) | HirKind::Look(_) => true,
        HirKind::Class(class) => !class_is_empty(class),
        HirKind::Repetition(rep) => rep.min == 0 || can_match(&rep.sub),
        HirKind::Capture(cap) => can_match(&cap.sub),
        HirKind::Alternation(alts) => alts.iter().any(can_match),
        HirKind::Concat(items) => items.iter().all(can_match) && concat_can_match(items),
    }
}

fn class_is_empty(class: &Class) -> bool {
    match class {
        Class::Unicode(c) => c.ranges().is_empty(),
        Class::Bytes(c) => c.ranges().is_empty(),
    }
}

/// The impossible sequences of one concatenation: text before `^` (not multi-line), text
/// after `$`, and a word boundary between two word characters (or its negation between a
/// word and a non-word character) written as literals.
fn concat_can_match(items: &[Hir]) -> bool {
    let consumes = |h: &Hir| h.properties().minimum_len().is_some_and(|n| n > 0);
    for (k, item) in items.iter().enumerate() {
        let HirKind::Look(look) = item.kind() else {
            continue;
        };
        match look {
            Look::Start if items[..k].iter().any(consumes) => return false,
            Look::End if items[k + 1..].iter().any(consumes) => return false,
            Look::WordUnicode
            | Look::WordAscii
            | Look::WordUnicodeNegate
            | Look::WordAsciiNegate => {
                let (Some(before), Some(after)) = (
                    k.checked_sub(1).and_then(|i| last_char(&items[i])),
                    items.get(k + 1).and_then(first_char),
                ) else {
                    continue;
                };
                let word = |c: char| c.is_alphanumeric() || c == '_';
                let boundary = word(before) != word(after);
                let wants_boundary = matches!(look, Look::WordUnicode | Look::WordAscii);
                if boundary != wants_boundary && before.is_ascii() && after.is_ascii() {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

fn first_char(hir: &Hir) -> Option<char> {
    match hir.kind() {
        HirKind::Literal(l) => std::str::from_utf8(&l.0).ok()?.chars().next(),
        _ => None,
    }
}

fn last_char(hir: &Hir) -> Option<char> {
    match hir.kind() {
        HirKind::Literal(l) => std::str::from_utf8(&l.0).ok()?.chars().next_back(),
        _ => None,
    }
}

/// Every string an anchored pattern (`^...$`) matches, when there are few: literals,
/// alternations, small classes and fixed repetitions. `None` when the pattern is not
/// anchored at both ends or its strings are too many or unbounded.
pub(super) fn anchored_strings(hir: &Hir) -> Option<Vec<String>> {
    let alternatives: Vec<&Hir> = match hir.kind() {
        HirKind::Alternation(alts) => alts.iter().collect(),
        _ => vec![hir],
    };
    let mut out = Vec::new();
    for alt in alternatives {
        let HirKind::Concat(items) = alt.kind() else {
            return None;
        };
        let (first, rest) = items.split_first()?;
        let (last, middle) = rest.split_last()?;
        if !matches!(first.kind(), HirKind::Look(Look::Start))
            || !matches!(last.kind(), HirKind::Look(Look::End))
        {
            return None;
        }
        let mut strings = vec![String::new()];
        for item in middle {
            strings = product(&strings, &finite_strings(item)?)?;
        }
        out.extend(strings);
        if out.len() > MAX_STRINGS {
            return None;
        }
    }
    Some(out)
}

fn product(heads: &[String], tails: &[String]) -> Option<Vec<String>> {
    if heads.len().saturating_mul(tails.len()) > MAX_STRINGS {
        return None;
    }
    Some(
        heads
            .iter()
            .flat_map(|h| tails.iter().map(move |t| format!("{h}{t}")))
            .collect(),
    )
}

/// The strings `hir` matches, when they are few and `hir` has no assertions.
fn finite_strings(hir: &Hir) -> Option<Vec<String>> {
    match hir.kind() {
        HirKind::Empty => Some(vec![String::new()]),
        HirKind::Literal(l) => Some(vec![String::from_utf8(l.0.to_vec()).ok()?]),
        HirKind::Class(Class::Unicode(class)) => {
            let mut out = Vec::new();
            let mut count = 0u32;
            for range in class.ranges() {
                count = count.saturating_add(u32::from(range.end()) - u32::from(range.start()) + 1);
                if count > MAX_CLASS_CHARS {
                    return None;
                }
                out.extend(
                    (u32::from(range.start())..=u32::from(range.end()))
                        .filter_map(char::from_u32)
                        .map(String::from),
                );
            }
            Some(out)
        }
        HirKind::Class(Class::Bytes(_)) | HirKind::Look(_) => None,
        HirKind::Capture(cap) => finite_strings(&cap.sub),
        HirKind::Concat(items) => {
            let mut strings = vec![String::new()];
            for item in items {
                strings = product(&strings, &finite_strings(item)?)?;
            }
            Some(strings)
        }
        HirKind::Alternation(alts) => {
            let mut out = Vec::new();
            for alt in alts {
                out.extend(finite_strings(alt)?);
                if out.len() > MAX_STRINGS {
                    return None;
                }
            }
            Some(out)
        }
        HirKind::Repetition(rep) => {
            let max = rep.max?;
            if max > 8 {
                return None;
            }
            let one = finite_strings(&rep.sub)?;
            let mut out = Vec::new();
            for n in rep.min..=max {
                let mut strings = vec![String::new()];
                for _ in 0..n {
                    strings = product(&strings, &one)?;
                }
                out.extend(strings);
                if out.len() > MAX_STRINGS {
                    return None;
                }
            }
            Some(out)
        }
    }
}

/// Whether every match of `hir` contains `needle` (as one literal run of the pattern).
pub(super) fn requires_literal(hir: &Hir, needle: &str) -> bool {
    match hir.kind() {
        HirKind::Literal(l) => std::str::from_utf8(&l.0).is_ok_and(|s| s.contains(needle)),
        HirKind::Capture(cap) => requires_literal(&cap.sub, needle),
        HirKind::Repetition(rep) => rep.min > 0 && requires_literal(&rep.sub, needle),
        HirKind::Alternation(alts) => alts.iter().all(|a| requires_literal(a, needle)),
        HirKind::Concat(items) => items.iter().any(|i| requires_literal(i, needle)),
        HirKind::Empty | HirKind::Class(_) | HirKind::Look(_) => false,
    }
}

/// Programs whose name followed by a space marks a pattern as a shell command line, and
/// whose name alone as a `commandPattern` was meant as the program (`unanchored`).
const SHELL_PROGRAMS: &str = "\
    rm rmdir curl wget sudo su doas pkexec runuser chmod chown chgrp chattr dd mkfs mkswap \
    fdisk parted wipefs shred truncate git ssh scp rsync kill pkill killall bash sh zsh dash \
    python python3 perl ruby node npm npx pip pip3 apt apt-get yum dnf brew docker kubectl \
    cat echo ls cp mv tar nc ncat netcat eval export shutdown reboot systemctl crontab find \
    xargs base64 mount umount iptables useradd usermod passwd tee touch mkdir ln gh aws \
    gcloud az terraform make cargo env nohup gpg openssl history unset";

/// Whether `name` is one of [`SHELL_PROGRAMS`].
fn is_shell_program(name: &str) -> bool {
    SHELL_PROGRAMS.split_whitespace().any(|p| p == name)
}

/// Whether every match of `hir` starts (after assertions) with a shell program's name and
/// a space: `rm\s+-rf`, `^curl `, `\b(?:sudo|su)\s`. No path or URL looks like that.
pub(super) fn is_shell_command(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Alternation(alts) => alts.iter().all(is_shell_command),
        HirKind::Capture(cap) => is_shell_command(&cap.sub),
        HirKind::Literal(_) => concat_is_shell_command(std::slice::from_ref(hir)),
        HirKind::Concat(items) => concat_is_shell_command(items),
        _ => false,
    }
}

fn concat_is_shell_command(items: &[Hir]) -> bool {
    let rest = items
        .iter()
        .skip_while(|h| matches!(h.kind(), HirKind::Look(_)));
    // The program names written so far; each ends at a space inside a literal (`curl `) or
    // before an item that is white space (`rm\s+`).
    let mut words = vec![String::new()];
    for item in rest {
        if is_required_space(item) {
            return names_programs(&words);
        }
        let Some(tails) = finite_strings(item) else {
            return false;
        };
        let Some(next) = product(&words, &tails) else {
            return false;
        };
        let spaced: Vec<Option<&str>> = next
            .iter()
            .map(|w| w.find([' ', '\t']).map(|i| &w[..i]))
            .collect();
        if spaced.iter().all(Option::is_some) {
            let names: Vec<String> = spaced.into_iter().flatten().map(str::to_owned).collect();
            return names_programs(&names);
        }
        if spaced.iter().any(Option::is_some) || !next.iter().all(|w| w.chars().all(is_name_char)) {
            return false;
        }
        words = next;
    }
    false
}

/// Whether every one of `names` is a known shell program.
fn names_programs(names: &[String]) -> bool {
    !names.is_empty() && names.iter().all(|n| is_shell_program(n))
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Whether `hir` always matches at least one character, all of them white space.
fn is_required_space(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Literal(l) => l.0.first().is_some_and(|b| *b == b' ' || *b == b'\t'),
        HirKind::Class(Class::Unicode(class)) => {
            !class.ranges().is_empty()
                && class.ranges().iter().all(|r| {
                    u32::from(r.end()) - u32::from(r.start()) < 64
                        && (r.start()..=r.end()).all(char::is_whitespace)
                })
        }
        HirKind::Class(Class::Bytes(class)) => {
            !class.ranges().is_empty()
                && class
                    .ranges()
                    .iter()
                    .all(|r| (r.start()..=r.end()).all(|b| b.is_ascii_whitespace()))
        }
        HirKind::Repetition(rep) => rep.min > 0 && is_required_space(&rep.sub),
        HirKind::Capture(cap) => is_required_space(&cap.sub),
        _ => false,
    }
}

/// Whether every match of `hir` starts at the start of the text with `/`, `~` or `.`: a
/// path, never a URL (which starts with its scheme).
pub(super) fn is_anchored_path(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Alternation(alts) => alts.iter().all(is_anchored_path),
        HirKind::Capture(cap) => is_anchored_path(&cap.sub),
        HirKind::Concat(items) => {
            let Some((first, rest)) = items.split_first() else {
                return false;
            };
            matches!(
                first.kind(),
                HirKind::Look(Look::Start | Look::StartLF | Look::StartCRLF)
            ) && rest.first().and_then(first_chars).is_some_and(|chars| {
                !chars.is_empty() && chars.iter().all(|c| matches!(c, '/' | '~' | '.'))
            })
        }
        _ => false,
    }
}

/// The characters every match of `hir` may start with, when it is made of literals.
fn first_chars(hir: &Hir) -> Option<Vec<char>> {
    match hir.kind() {
        HirKind::Literal(l) => Some(vec![std::str::from_utf8(&l.0).ok()?.chars().next()?]),
        HirKind::Capture(cap) => first_chars(&cap.sub),
        HirKind::Alternation(alts) => {
            let mut out = Vec::new();
            for alt in alts {
                out.extend(first_chars(alt)?);
            }
            Some(out)
        }
        HirKind::Concat(items) => items.first().and_then(first_chars),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
