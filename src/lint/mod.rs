//! Lint: smells in a policy that loads but probably does not do what its author meant.
//!
//! `validate` reports errors: a policy that cannot load. [`lint`] looks at a policy that did
//! load and reports hooks that can never fire, blocks that let everything through, copies,
//! and regexes that likely mean something else than they say. Every finding (a warning [`Diagnostic`]) names its
//! file, line and column, found with one positioned parse of each source file.
//!
//! The checks, one file per group:
//! - `reach.rs`: `shadowed`, `contradiction`, `tool-subject`;
//! - `failure.rs`: `fails-open`, `approval-times-out-open`;
//! - `duplicates.rs`: `duplicate`;
//! - `regex.rs`: `unescaped-dot`, `unanchored`;
//! - `analysis.rs`: what a regex can match, for the others;
//! - `fields.rs`: `unused-field`.
//!
//! The composition warnings of the load (`conflict`, `composition`) are findings too.

mod analysis;
mod duplicates;
mod failure;
mod fields;
mod reach;
mod regex;

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

pub(crate) use crate::config::Code;
use crate::config::{Diagnostic, HookSpec, LoadedPolicy, Position, Regex, SourceFile};

/// The smells of `policy`, sorted by file (the root first, then the other files in the
/// order they were brought in), line and column.
pub(crate) fn lint(policy: &LoadedPolicy) -> Vec<Diagnostic> {
    let cx = Lint::new(policy);
    let mut out = Vec::new();
    reach::check(&cx, &mut out);
    failure::check(&cx, &mut out);
    duplicates::check(&cx, &mut out);
    regex::check(&cx, &mut out);
    fields::check(&cx, &mut out);
    out.extend(policy.warnings.iter().cloned());
    cx.sort(&mut out);
    out.dedup();
    out
}

/// What the checks share: the policy, each file's positions and raw values, and the hooks
/// in evaluation order.
pub(crate) struct Lint<'p> {
    policy: &'p LoadedPolicy,
    sources: &'p [SourceFile],
    /// Index into `sources` by file path.
    by_path: HashMap<&'p Path, usize>,
    /// Indexes into `policy.document.hooks`, in evaluation order (priority descending, then
    /// composed order), as the rule graph orders them.
    order: Vec<usize>,
}

impl<'p> Lint<'p> {
    fn new(policy: &'p LoadedPolicy) -> Lint<'p> {
        let sources = policy.sources.as_slice();
        let mut by_path = HashMap::new();
        for (i, s) in sources.iter().enumerate() {
            by_path.entry(&*s.path).or_insert(i);
        }
        let hooks = &policy.document.hooks;
        let mut order: Vec<usize> = (0..hooks.len()).collect();
        // Stable: equal priorities keep composed order.
        order.sort_by_key(|&i| std::cmp::Reverse(hooks[i].priority));
        Lint {
            policy,
            sources,
            by_path,
            order,
        }
    }

    /// Every hook, in composed order.
    pub(crate) fn hooks(&self) -> &'p [HookSpec] {
        &self.policy.document.hooks
    }

    fn source(&self, file: &Path) -> Option<&'p SourceFile> {
        self.by_path.get(file).and_then(|&i| self.sources.get(i))
    }

    /// The text of `file`, if it is one of the policy's files.
    pub(crate) fn text(&self, file: &Path) -> Option<&'p str> {
        self.source(file).map(|s| &*s.text)
    }

    /// The position of the value at `pointer` in `file` (1:1 when unknown).
    pub(crate) fn position(&self, file: &Path, pointer: &str) -> Position {
        self.source(file)
            .map_or(Position { line: 1, column: 1 }, |s| s.position(pointer))
    }

    /// The raw value at `pointer` in `file`.
    pub(crate) fn raw(&self, file: &Path, pointer: &str) -> Option<&Value> {
        self.source(file)?.positioned()?.value.pointer(pointer)
    }

    /// The raw value of `hook` (its entry in its file's `hooks` list).
    pub(crate) fn raw_hook(&self, hook: &HookSpec) -> Option<&Value> {
        self.raw(&hook.file, &hook_pointer(hook, ""))
    }

    /// A finding at `suffix` of `hook` (`""` for the hook itself, `/match/tool`, ...).
    pub(crate) fn at_hook(
        &self,
        code: Code,
        hook: &HookSpec,
        suffix: &str,
        message: String,
        help: Option<String>,
    ) -> Diagnostic {
        let pointer = hook_pointer(hook, suffix);
        let position = self.position(&hook.file, &pointer);
        self.at(code, &hook.file, position, &pointer, message, help)
    }

    /// A finding at `position` of `file`, for the field at `pointer`.
    pub(crate) fn at(
        &self,
        code: Code,
        file: &Path,
        position: Position,
        pointer: &str,
        message: String,
        help: Option<String>,
    ) -> Diagnostic {
        let finding = Diagnostic::lint(code, file, position, pointer, message);
        match help {
            Some(help) => finding.with_help(help),
            None => finding,
        }
    }

    /// Indexes into [`Lint::hooks`], in evaluation order.
    pub(crate) fn order(&self) -> &[usize] {
        &self.order
    }

    /// `finding` with `hook` as a related place, said to be `what`.
    pub(crate) fn relate(&self, finding: Diagnostic, hook: &HookSpec, what: &str) -> Diagnostic {
        let position = self.position(&hook.file, &hook_pointer(hook, ""));
        finding.with_related(&hook.file, position, format!("{what}: `{}`", hook.id))
    }

    /// How `hook` is named in a message: its id, with its line (and its file when that is not
    /// `from`'s).
    pub(crate) fn describe(&self, hook: &HookSpec, from: &Path) -> String {
        let line = self.position(&hook.file, &hook_pointer(hook, "")).line;
        if *hook.file == *from {
            format!("`{}` (line {line})", hook.id)
        } else {
            format!("`{}` (`{}` line {line})", hook.id, hook.file.display())
        }
    }

    fn sort(&self, findings: &mut [Diagnostic]) {
        let key = |f: &Diagnostic| {
            let rank = self.by_path.get(f.file()).copied();
            let rank = rank.unwrap_or(self.sources.len());
            (rank, f.file().to_path_buf(), f.line(), f.column(), f.code())
        };
        findings.sort_by(|a, b| {
            key(a)
                .cmp(&key(b))
                .then_with(|| a.message().cmp(b.message()))
        });
    }
}

/// The JSON pointer of `suffix` in `hook`'s entry: `/hooks/3/match/tool`.
pub(crate) fn hook_pointer(hook: &HookSpec, suffix: &str) -> String {
    format!("/hooks/{}{suffix}", hook.index)
}

/// Escapes a `match.args` field name as a JSON pointer token.
pub(crate) fn pointer_token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// One regex field of a hook: where it is (a pointer suffix of the hook) and its pattern.
pub(crate) struct PatternField<'h> {
    /// `/match/commandPattern`, `/match/args/url`, ...
    pub(crate) suffix: String,
    /// Which field it is.
    pub(crate) kind: PatternKind,
    /// The pattern.
    pub(crate) pattern: &'h Regex,
}

/// Which regex field a pattern is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PatternKind {
    /// `match.commandPattern`
    Command,
    /// `match.sessionPattern`
    Session,
    /// `match.args.<field>`
    Arg,
    /// `match.command.argsPattern`
    ArgsPattern,
    /// `match.command.anyArg`
    AnyArg,
}

/// Every regex of `hook`'s `match`, in the order `hookgate check` tests them.
pub(crate) fn patterns(hook: &HookSpec) -> Vec<PatternField<'_>> {
    let f = &hook.filter;
    let mut out = Vec::new();
    if let Some(p) = &f.command_pattern {
        out.push(PatternField {
            suffix: "/match/commandPattern".to_owned(),
            kind: PatternKind::Command,
            pattern: p,
        });
    }
    if let Some(p) = &f.session_pattern {
        out.push(PatternField {
            suffix: "/match/sessionPattern".to_owned(),
            kind: PatternKind::Session,
            pattern: p,
        });
    }
    for arg in f.args.iter().flatten() {
        out.push(PatternField {
            suffix: format!("/match/args/{}", pointer_token(&arg.field)),
            kind: PatternKind::Arg,
            pattern: &arg.pattern,
        });
    }
    if let Some(command) = &f.command {
        if let Some(p) = &command.args_pattern {
            out.push(PatternField {
                suffix: "/match/command/argsPattern".to_owned(),
                kind: PatternKind::ArgsPattern,
                pattern: p,
            });
        }
        if let Some(p) = &command.any_arg {
            out.push(PatternField {
                suffix: "/match/command/anyArg".to_owned(),
                kind: PatternKind::AnyArg,
                pattern: p,
            });
        }
    }
    out
}

/// The position of the character at `char_index` of the string `value`, whose scalar
/// starts at `start` in `text`. Exact for plain, single-quoted and double-quoted scalars on
/// one line and for literal block scalars (`|`, `|-`, `|+`); anything else (a folded or
/// multi-line flow scalar, an escape it does not know) gives `start`.
pub(crate) fn char_position(
    text: &str,
    start: Position,
    value: &str,
    char_index: usize,
) -> Position {
    scalar_char_position(text, start, value, char_index).unwrap_or(start)
}

fn scalar_char_position(
    text: &str,
    start: Position,
    value: &str,
    char_index: usize,
) -> Option<Position> {
    let line = text.lines().nth(start.line.checked_sub(1)?)?;
    let raw: Vec<char> = line.chars().skip(start.column.checked_sub(1)?).collect();
    let at = |column_offset: usize| Position {
        line: start.line,
        column: start.column + column_offset,
    };
    match raw.first()? {
        '\'' => {
            // Single-quoted: `''` is one quote; nothing else is escaped.
            let (decoded, map) = single_quoted(&raw)?;
            (decoded == value).then_some(())?;
            map.get(char_index).map(|&offset| at(offset))
        }
        '"' => {
            let (decoded, map) = double_quoted(&raw)?;
            (decoded == value).then_some(())?;
            map.get(char_index).map(|&offset| at(offset))
        }
        '|' => literal_block(text, start, &raw, value, char_index),
        '>' | '[' | '{' | '&' | '!' | '*' => None,
        // A block scalar's position is that of its first content line.
        _ if value.contains('\n') => block_content(text, start, value, char_index),
        _ => {
            // Plain: the value as written, on this line.
            let written: String = raw.iter().take(value.chars().count()).collect();
            (written == value && !value.contains('\n')).then_some(())?;
            (char_index < value.chars().count()).then(|| at(char_index))
        }
    }
}

/// A single-quoted scalar's value and, for each of its characters, its offset in `raw`.
fn single_quoted(raw: &[char]) -> Option<(String, Vec<usize>)> {
    let mut decoded = String::new();
    let mut map = Vec::new();
    let mut i = 1;
    loop {
        match raw.get(i)? {
            '\'' if raw.get(i + 1) == Some(&'\'') => {
                decoded.push('\'');
                map.push(i);
                i += 2;
            }
            '\'' => return Some((decoded, map)),
            &c => {
                decoded.push(c);
                map.push(i);
                i += 1;
            }
        }
    }
}

/// A double-quoted scalar's value and, for each of its characters, its offset in `raw`;
/// `None` for an escape this does not decode.
fn double_quoted(raw: &[char]) -> Option<(String, Vec<usize>)> {
    let mut decoded = String::new();
    let mut map = Vec::new();
    let mut i = 1;
    loop {
        match raw.get(i)? {
            '"' => return Some((decoded, map)),
            '\\' => {
                let escape = *raw.get(i + 1)?;
                let (c, len) = match escape {
                    '\\' | '"' | '/' | ' ' => (escape, 2),
                    't' | '\t' => ('\t', 2),
                    'n' => ('\n', 2),
                    'r' => ('\r', 2),
                    '0' => ('\0', 2),
                    'a' => ('\u{7}', 2),
                    'b' => ('\u{8}', 2),
                    'e' => ('\u{1b}', 2),
                    'f' => ('\u{c}', 2),
                    'v' => ('\u{b}', 2),
                    'x' | 'u' | 'U' => {
                        let digits = match escape {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let hex: String = raw.get(i + 2..i + 2 + digits)?.iter().collect();
                        let c = char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?;
                        (c, 2 + digits)
                    }
                    _ => return None,
                };
                decoded.push(c);
                map.push(i);
                i += len;
            }
            &c => {
                decoded.push(c);
                map.push(i);
                i += 1;
            }
        }
    }
}

/// The position of a character of a block scalar whose content starts at `start`: each of
/// its lines is a source line, indented as the first one. Checked against the source, so a
/// folded scalar (whose lines were joined) gives `None`.
fn block_content(text: &str, start: Position, value: &str, char_index: usize) -> Option<Position> {
    let indent = start.column.checked_sub(1)?;
    let mut remaining = char_index;
    for (k, value_line) in value.split('\n').enumerate() {
        let len = value_line.chars().count();
        if remaining < len {
            let source = text.lines().nth(start.line.checked_sub(1)? + k)?;
            let prefix: String = source.chars().take(indent).collect();
            let content: String = source.chars().skip(indent).collect();
            (prefix.chars().all(|c| c == ' ' || k == 0) && content.starts_with(value_line))
                .then_some(())?;
            return Some(Position {
                line: start.line + k,
                column: start.column + remaining,
            });
        }
        remaining = remaining.checked_sub(len + 1)?;
    }
    None
}

/// The position of a character of a literal block scalar (`|`): its lines are the source
/// lines after the indicator, less their indentation.
fn literal_block(
    text: &str,
    start: Position,
    raw: &[char],
    value: &str,
    char_index: usize,
) -> Option<Position> {
    // `|`, `|-` or `|+`, then nothing but a comment; an explicit indentation is not handled.
    let header: String = raw.iter().collect();
    let rest = header
        .strip_prefix('|')?
        .trim_start_matches(['-', '+'])
        .trim_start();
    if !(rest.is_empty() || rest.starts_with('#')) {
        return None;
    }
    let lines: Vec<&str> = text.lines().skip(start.line).collect();
    let indent = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())?;
    // Find the value line holding the character, and the offset in it.
    let mut remaining = char_index;
    for (k, value_line) in value.split('\n').enumerate() {
        let len = value_line.chars().count();
        if remaining < len {
            let source = lines.get(k)?;
            let content = source.get(indent..)?;
            content.starts_with(value_line).then_some(())?;
            return Some(Position {
                line: start.line + 1 + k,
                column: indent + 1 + remaining,
            });
        }
        remaining = remaining.checked_sub(len + 1)?;
    }
    None
}

#[cfg(test)]
pub(crate) mod tests;
