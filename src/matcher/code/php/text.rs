//! PHP's literal syntax (integers, single- and double-quoted escapes, heredoc indentation)
//! and string formatting, on known values.

use super::{by_field, kind};
use tree_sitter::Node;

use super::Php;
use crate::matcher::code::Val;

/// An integer literal (`0755` and `0o755` octal, `0x`, `0b`).
pub(super) fn int(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    let lower = t.to_ascii_lowercase();
    if let Some(h) = lower.strip_prefix("0x") {
        return i64::from_str_radix(h, 16).ok();
    }
    if let Some(b) = lower.strip_prefix("0b") {
        return i64::from_str_radix(b, 2).ok();
    }
    if let Some(o) = lower.strip_prefix("0o") {
        return i64::from_str_radix(o, 8).ok();
    }
    if t.len() > 1 && t.starts_with('0') {
        return i64::from_str_radix(&t[1..], 8).ok();
    }
    t.parse().ok()
}

/// A mode (an integer, or a string PHP reads as decimal) as `chmod` takes it.
pub(super) fn octal(mode: Val) -> Val {
    match mode.text().and_then(|m| m.trim().parse::<u32>().ok()) {
        Some(n) => Val::Known(format!("{n:o}")),
        None => Val::Unknown,
    }
}

/// `%s`, `%d`, `%%` and `%1$s` with known arguments.
pub(super) fn sprintf(format: &str, args: &[Val]) -> Option<String> {
    let mut out = String::new();
    let mut next = 0;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit() || **d == '$') {
            spec.push(d);
            chars.next();
        }
        match chars.next()? {
            '%' if spec.is_empty() => out.push('%'),
            's' | 'd' => {
                let n = match spec.strip_suffix('$') {
                    Some(n) => n.parse::<usize>().ok()?.checked_sub(1)?,
                    None if spec.is_empty() => {
                        next += 1;
                        next - 1
                    }
                    None => return None,
                };
                out.push_str(args.get(n)?.text()?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A single-quoted string's value: only `\'` and `\\` are escapes.
pub(super) fn single_quoted(php: &Php<'_, '_, '_>, node: Node<'_>) -> String {
    let mut out = String::new();
    let mut c = node.walk();
    for part in node.named_children(&mut c) {
        match (kind(part), php.text(part)) {
            ("escape_sequence", "\\'") => out.push('\''),
            ("escape_sequence", "\\\\") => out.push('\\'),
            (_, text) => out.push_str(text),
        }
    }
    out
}

/// One escape of a double-quoted string.
pub(super) fn double_escape(text: &str) -> String {
    let body = text.get(1..).unwrap_or_default();
    let code = |digits: &str, radix| {
        u32::from_str_radix(digits, radix)
            .ok()
            .and_then(|n| char::from_u32(n % 256))
    };
    let decoded = match body.chars().next() {
        Some('n') => Some('\n'),
        Some('t') => Some('\t'),
        Some('r') => Some('\r'),
        Some('v') => Some('\x0b'),
        Some('e') => Some('\x1b'),
        Some('f') => Some('\x0c'),
        Some(c @ ('\\' | '$' | '"' | '`')) => Some(c),
        Some('0'..='7') => code(body, 8),
        Some('x') => code(&body[1..], 16),
        Some('u') => body
            .get(2..body.len().saturating_sub(1))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32),
        _ => None,
    };
    decoded.map_or_else(|| text.to_owned(), String::from)
}

/// The column of a heredoc's closing marker: PHP removes that indentation from its lines.
pub(super) fn indent_of(node: Node<'_>) -> usize {
    by_field(node, "end_tag").map_or(0, |e| e.start_position().column)
}

/// `text` without the first `indent` blanks of each line (`at_start`: it starts a line).
pub(super) fn dedent(text: &str, indent: usize, at_start: bool) -> String {
    if indent == 0 {
        return text.to_owned();
    }
    let strip = |(n, line): (usize, &str)| {
        if n == 0 && !at_start {
            return line.to_owned();
        }
        let cut = line
            .chars()
            .take(indent)
            .take_while(|c| *c == ' ' || *c == '\t')
            .count();
        line.get(cut..).unwrap_or_default().to_owned()
    };
    text.split('\n')
        .enumerate()
        .map(strip)
        .collect::<Vec<_>>()
        .join("\n")
}
