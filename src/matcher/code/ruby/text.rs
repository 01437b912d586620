//! Ruby's literal syntax (quoting styles, escapes, heredocs, `#{}` interpolation, integers,
//! file modes, ERB templates) and string formatting, on known values.

use super::kind;
use tree_sitter::Node;

use super::Rb;
use crate::matcher::code::Val;
use crate::matcher::code::tree::MAX_NESTING;

impl<'t> Rb<'_, '_, 't> {
    /// A string literal's value: escapes decoded (unless single-quoted), `#{}` parts evaluated.
    pub(super) fn string(&mut self, node: Node<'t>, depth: usize) -> Val {
        if depth > MAX_NESTING {
            return Val::Unknown;
        }
        if kind(node) == "heredoc_beginning" {
            let opening = self.text(node);
            let quote = if opening.contains('\'') {
                Quote::Verbatim
            } else {
                Quote::Double
            };
            let squiggly = opening.starts_with("<<~");
            let Some(body) = self.heredocs.get(&node.start_byte()).copied() else {
                return Val::Unknown;
            };
            // The body runs from the end of the opening line to the terminator's line.
            return match self.parts(body, quote, depth) {
                Val::Known(t) => {
                    let t = t.strip_prefix('\n').unwrap_or(&t);
                    let t = t
                        .rfind('\n')
                        .map_or("", |at| t.get(..=at).unwrap_or_default());
                    Val::Known(if squiggly { dedent(t) } else { t.to_owned() })
                }
                other => other,
            };
        }
        let opening = node
            .child(0)
            .filter(|c| !c.is_named())
            .map_or("", |c| self.text(c));
        let single = ["'", "%q", ":'", "%w", "%i"]
            .iter()
            .any(|q| opening.starts_with(q));
        self.parts(
            node,
            if single { Quote::Single } else { Quote::Double },
            depth,
        )
    }

    fn parts(&mut self, node: Node<'t>, quote: Quote, depth: usize) -> Val {
        let mut out = Val::known("");
        let mut c = node.walk();
        let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
        for part in parts {
            let text = self.text(part);
            let v = match (kind(part), quote) {
                ("string_content" | "heredoc_content", Quote::Single) => Val::Known(unquote(text)),
                ("string_content" | "heredoc_content", _) => Val::known(text),
                ("escape_sequence", _) => Val::Known(unescape(text, false)),
                ("interpolation", _) => match part.named_child(0) {
                    Some(e) => self.eval(e, depth + 1).val(),
                    None => Val::known(""),
                },
                ("string" | "bare_string" | "bare_symbol", _) => self.string(part, depth + 1),
                _ => Val::known(""),
            };
            out = out.concat(v);
        }
        out
    }
}

#[derive(Clone, Copy)]
enum Quote {
    /// `"..."`: escapes and `#{}`.
    Double,
    /// `'...'`: only `\\` and `\'`.
    Single,
    /// `<<~'EOS'`: nothing.
    Verbatim,
}

/// A `<<~` heredoc's lines without the indentation they share.
fn dedent(text: &str) -> String {
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let lines = text.split_inclusive('\n');
    let least = lines
        .clone()
        .filter(|l| !l.trim().is_empty())
        .map(indent)
        .min()
        .unwrap_or(0);
    lines
        .map(|l| l.get(least.min(indent(l))..).unwrap_or_default())
        .collect()
}

/// The Ruby code of an ERB template (`<% code %>`, `<%= expr %>`).
pub(in crate::matcher::code) fn erb_code(template: &str) -> String {
    let mut out = Vec::new();
    for part in template.split("<%").skip(1) {
        let code = part.split("%>").next().unwrap_or_default();
        out.push(
            code.trim_start_matches(['=', '-', '#'])
                .trim_end_matches('-')
                .to_owned(),
        );
    }
    out.join("\n")
}

/// A file mode (`0755`, `0o755`, `493`) as `chmod` takes it; a symbolic one (`"u+x"`) as is.
pub(super) fn octal(mode: Val) -> Val {
    match mode.text().map(|m| (m.parse::<u32>(), m)) {
        Some((Ok(n), _)) => Val::Known(format!("{n:o}")),
        Some((Err(_), m)) if !m.is_empty() && !m.starts_with('-') => Val::known(m),
        _ => Val::Unknown,
    }
}

/// An integer literal (`0755` is octal, `0x`, `0b`, `0o`, `0d`, `1_000`).
pub(super) fn parse_int(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    let (digits, radix) = match t.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("0x") => (t.get(2..).unwrap_or_default(), 16),
        Some("0b") => (t.get(2..).unwrap_or_default(), 2),
        Some("0o") => (t.get(2..).unwrap_or_default(), 8),
        Some("0d") => (t.get(2..).unwrap_or_default(), 10),
        _ if t.len() > 1 && t.starts_with('0') => (t.get(1..).unwrap_or_default(), 8),
        _ => (t.as_str(), 10),
    };
    i64::from_str_radix(digits, radix).ok()
}

/// `'%s %s' % [a, b]`: `%s`, `%d` and `%%` with known arguments.
pub(super) fn percent(format: &str, args: &[Val]) -> Val {
    let mut out = String::new();
    let mut items = args.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('s' | 'd' | 'i' | 'p') => match items.next() {
                Some(Val::Known(t)) => out.push_str(t),
                Some(other) => return other.clone().concat(Val::Unknown),
                None => return Val::Unknown,
            },
            _ => return Val::Unknown,
        }
    }
    Val::Known(out)
}

/// A single-quoted string's content: only `\\` and `\'` are escapes.
/// A word of `%w[...]`/`%W[...]`: a backslash before whitespace makes the whitespace part
/// of the word (`%w[sh -c rm\ -rf\ ~]` is `["sh", "-c", "rm -rf ~"]`).
pub(super) fn word_escapes(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&w)) if w.is_whitespace() => {
                out.push(w);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

fn unquote(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&e @ ('\\' | '\''))) => {
                out.push(e);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// One escape of a double-quoted string (`\n`, `\e`, `\s`, `\x41`, `\101`, `\u0041`,
/// `\u{41 42}`); `character` for a `?a` literal, which is the character itself otherwise.
pub(super) fn unescape(text: &str, character: bool) -> String {
    let Some(rest) = text.strip_prefix('\\') else {
        return text.to_owned();
    };
    let mut chars = rest.chars();
    let Some(e) = chars.next() else {
        return "\\".into();
    };
    let tail = chars.as_str();
    let code = |digits: &str, radix| {
        u32::from_str_radix(digits, radix)
            .ok()
            .and_then(char::from_u32)
    };
    let one = |c: Option<char>| c.map(String::from).unwrap_or_default();
    match e {
        'n' => "\n".into(),
        't' => "\t".into(),
        'r' => "\r".into(),
        's' => " ".into(),
        'e' => "\x1b".into(),
        'a' => "\x07".into(),
        'b' => "\x08".into(),
        'f' => "\x0c".into(),
        'v' => "\x0b".into(),
        '0'..='7' => one(code(rest, 8)),
        'x' => one(code(tail, 16)),
        'u' if tail.starts_with('{') => tail
            .trim_matches(['{', '}'])
            .split_whitespace()
            .map(|d| one(code(d, 16)))
            .collect(),
        'u' => one(code(tail, 16)),
        '\n' if !character => String::new(),
        other => other.to_string(),
    }
}
