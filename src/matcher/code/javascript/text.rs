//! JavaScript's literal syntax (string and template literals with their escapes, numbers,
//! modes in octal) and the methods of a known string, on known values.

use super::kind;
use tree_sitter::Node;

use super::values::Args;
use super::{Js, Obj};
use crate::matcher::code::{MAX_CODE, Val};

impl<'t> Js<'_, '_, 't> {
    /// A string or template literal: escapes decoded, substitutions evaluated.
    pub(super) fn template(&mut self, node: Node<'t>, depth: usize) -> Val {
        let mut out = Val::known("");
        let mut c = node.walk();
        let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
        for part in parts {
            let v = match kind(part) {
                "string_fragment" => Val::known(self.text(part)),
                "escape_sequence" => Val::Known(unescape(self.text(part))),
                "template_substitution" => match part.named_child(0) {
                    Some(e) => self.eval(e, depth + 1).val(),
                    None => Val::Unknown,
                },
                "comment" => continue,
                _ => Val::Unknown,
            };
            out = cat(out, v);
        }
        out
    }
}

/// `a` followed by `b`; text longer than any code read is not followed (doubling a
/// string in a chain of names would otherwise grow it without bound).
pub(super) fn cat(a: Val, b: Val) -> Val {
    match a.concat(b) {
        Val::Known(s) if s.len() > MAX_CODE => Val::Unknown,
        v => v,
    }
}

/// Whether `s` is the pattern of a listing's names: no `/`, some wildcard.
fn is_name_pattern(s: &str) -> bool {
    !s.contains('/') && s.contains(['*', '?', '['])
}

/// Methods of a known string.
pub(super) fn string_method(s: &str, m: &str, args: &Args) -> Obj {
    let text = |n: usize| args.val(n).text().map(str::to_owned);
    let v = |s: String| Obj::Val(Val::Known(s));
    match m {
        "split" => match text(0) {
            Some(sep) if sep.is_empty() => Obj::List(s.chars().map(|c| v(c.to_string())).collect()),
            Some(sep) => Obj::List(s.split(sep.as_str()).map(|p| v(p.to_owned())).collect()),
            None if matches!(args.get(0), Obj::Null) => Obj::List(vec![v(s.to_owned())]),
            None => Obj::Val(Val::Unknown),
        },
        "replace" | "replaceAll" => match (text(0), text(1)) {
            // A regular expression pattern is not a string and is not followed.
            (Some(a), Some(b)) if !a.is_empty() && matches!(args.get(0), Obj::Val(_)) => {
                v(if m == "replace" {
                    s.replacen(&a, &b, 1)
                } else {
                    s.replace(&a, &b)
                })
            }
            // A listing's name (`*`, `*.yml`) with a pattern replaced is still a name in the
            // same directory (any name, as the pattern is not followed) when what is put in
            // has no `/` and something but dots, so the result is never `.` or `..`.
            (_, Some(b)) if is_name_pattern(s) && crate::matcher::code::scope::stays_a_name(&b) => {
                v("*".to_owned())
            }
            _ => Obj::Val(Val::Unknown),
        },
        "concat" => {
            let mut out = Val::known(s);
            for a in &args.items {
                out = cat(out, a.val());
            }
            Obj::Val(out)
        }
        "toLowerCase" => v(s.to_lowercase()),
        "toUpperCase" => v(s.to_uppercase()),
        "trim" => v(s.trim().to_owned()),
        "trimStart" => v(s.trim_start().to_owned()),
        "trimEnd" => v(s.trim_end().to_owned()),
        "toString" | "valueOf" => v(s.to_owned()),
        "normalize" => {
            let form = match args.get(0) {
                Obj::Null => Some("NFC".to_owned()),
                _ => text(0),
            };
            match form.and_then(|f| crate::matcher::code::scope::normalized(s, &f)) {
                Some(n) => v(n),
                None => Obj::Val(Val::Unknown),
            }
        }
        "repeat" => match args.val(0).text().and_then(parse_num) {
            Some(n) if n >= 0.0 && n * (s.len() as f64) <= 4096.0 => v(s.repeat(n as usize)),
            _ => Obj::Val(Val::Unknown),
        },
        "at" | "charAt" => match args.val(0).text().and_then(parse_num) {
            Some(n) if n >= 0.0 => v(s
                .chars()
                .nth(n as usize)
                .map(String::from)
                .unwrap_or_default()),
            _ => Obj::Val(Val::Unknown),
        },
        _ => Obj::Val(Val::Unknown),
    }
}

/// A mode written as `chmod` takes it: a number in octal, a string as it is (Node reads
/// a string mode as octal).
pub(super) fn octal(mode: &Obj) -> Val {
    match mode {
        Obj::Num(n) if *n >= 0.0 && n.fract() == 0.0 && *n < 65536.0 => {
            Val::Known(format!("{:o}", *n as u32))
        }
        Obj::Val(Val::Known(s)) if !s.is_empty() && s.chars().all(|c| c.is_digit(8)) => {
            Val::Known(s.clone())
        }
        _ => Val::Unknown,
    }
}

pub(super) fn parse_num(text: &str) -> Option<f64> {
    let t = text.trim().replace('_', "");
    let radix = |digits: &str, r| u64::from_str_radix(digits, r).ok().map(|n| n as f64);
    let lower = t.to_ascii_lowercase();
    if let Some(d) = lower.strip_prefix("0x") {
        return radix(d, 16);
    }
    if let Some(d) = lower.strip_prefix("0o") {
        return radix(d, 8);
    }
    if let Some(d) = lower.strip_prefix("0b") {
        return radix(d, 2);
    }
    // A legacy octal literal (`0755`).
    if t.len() > 1 && t.starts_with('0') && t.chars().all(|c| c.is_digit(8)) {
        return radix(&t, 8);
    }
    t.parse().ok()
}

pub(super) fn num_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

pub(super) fn char_of(n: f64) -> Option<char> {
    if n < 0.0 || n.fract() != 0.0 || n > f64::from(u32::MAX) {
        return None;
    }
    char::from_u32(n as u32)
}

/// One escape sequence of a string literal.
fn unescape(text: &str) -> String {
    let body = text.strip_prefix('\\').unwrap_or(text);
    let mut chars = body.chars();
    let Some(e) = chars.next() else {
        return String::new();
    };
    let rest: String = chars.collect();
    let hex = |digits: &str| {
        u32::from_str_radix(digits, 16)
            .ok()
            .and_then(char::from_u32)
            .map(String::from)
    };
    let decoded = match e {
        'n' => Some("\n".into()),
        't' => Some("\t".into()),
        'r' => Some("\r".into()),
        'b' => Some("\x08".into()),
        'f' => Some("\x0c".into()),
        'v' => Some("\x0b".into()),
        '\n' | '\r' | '\u{2028}' | '\u{2029}' => Some(String::new()),
        'x' => hex(&rest),
        'u' => hex(rest.trim_start_matches('{').trim_end_matches('}')),
        '0'..='7' => {
            let digits = format!("{e}{rest}");
            u32::from_str_radix(&digits, 8)
                .ok()
                .and_then(char::from_u32)
                .map(String::from)
        }
        other => Some(format!("{other}{rest}")),
    };
    decoded.unwrap_or_else(|| text.to_owned())
}
