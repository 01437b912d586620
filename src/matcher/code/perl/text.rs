//! Perl's literal syntax (quoting, escapes, interpolation, numbers) and the string
//! functions it computes (`sprintf`, case changes), on known values.

use super::{by_field, kind};
use tree_sitter::Node;

use super::Pl;
use crate::matcher::code::tree::MAX_NESTING;
use crate::matcher::code::{Lang, Val};

impl Pl<'_, '_, '_> {
    /// A quoted string's value: single quotes as written, double quotes (and `qq`,
    /// backticks, `qx`) with escapes decoded and variables interpolated.
    pub(super) fn string(&mut self, node: Node<'_>, code: &str, depth: usize) -> Val {
        let text = code.get(node.byte_range()).unwrap_or_default();
        let (body, interpolates) = match kind(node) {
            "string_single_quoted" => (delimited(text), false),
            "string_q_quoted" => (
                delimited(text.get(1..).unwrap_or_default().trim_start()),
                false,
            ),
            "string_qq_quoted" | "command_qx_quoted" => {
                let rest = text.get(2..).unwrap_or_default().trim_start();
                (delimited(rest), !rest.starts_with('\''))
            }
            _ => (delimited(text), true),
        };
        if !interpolates {
            let close = text.chars().last().unwrap_or('\'');
            return Val::Known(single_quoted(body, close));
        }
        self.interpolate(body, depth)
    }

    /// The text of a here-document's body, before its end line, interpolated.
    pub(super) fn heredoc(&mut self, node: Node<'_>, code: &str, depth: usize) -> Val {
        let mut c = node.walk();
        let end = node
            .named_children(&mut c)
            .find(|n| kind(*n) == "heredoc_end_identifier")
            .map_or(node.end_byte(), |n| n.start_byte());
        let body = code.get(node.start_byte()..end).unwrap_or_default();
        self.interpolate(body.strip_prefix('\n').unwrap_or(body), depth)
    }

    /// Escapes and `$x`, `${x}`, `$ENV{HOME}`, `$a[0]`, `@a`, `@{[ EXPR ]}` in a string.
    fn interpolate(&mut self, body: &str, depth: usize) -> Val {
        let mut out = Val::known("");
        let mut lit = String::new();
        let mut rest = body;
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            match c {
                '\\' => match unescape(&mut rest) {
                    Some(s) => lit.push_str(&s),
                    None => return Val::Unknown,
                },
                '$' | '@' => {
                    let (name, after) = variable_at(rest);
                    if name.is_empty() {
                        if c == '@' && rest.starts_with("{[") {
                            let Some(end) = rest.find("]}") else {
                                return Val::Unknown;
                            };
                            let expr = rest.get(2..end).unwrap_or_default();
                            out = out
                                .concat(Val::Known(std::mem::take(&mut lit)))
                                .concat(self.sub_expression(expr, depth));
                            rest = &rest[end + 2..];
                            continue;
                        }
                        // `$_` in a File::Find `wanted` function: the file, or after a
                        // directory its name.
                        if c == '$'
                            && let Some(after) = rest.strip_prefix('_')
                            && !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                            && let Some(file) = self.found_name("$_")
                        {
                            let file = match lit.is_empty() && out == Val::known("") {
                                true => file,
                                false => Val::known("*"),
                            };
                            out = out
                                .concat(Val::Known(std::mem::take(&mut lit)))
                                .concat(file);
                            rest = after;
                            continue;
                        }
                        // `$` at the end, `$1`, `$$`, `$_`: a literal or a value not known.
                        if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                            lit.push(c);
                            continue;
                        }
                        return concat_unknown(out, lit);
                    }
                    rest = after;
                    let value = if c == '$' && rest.starts_with('{') && name == "ENV" {
                        let Some(end) = rest.find('}') else {
                            return Val::Unknown;
                        };
                        let key = rest
                            .get(1..end)
                            .unwrap_or_default()
                            .trim_matches(['\'', '"']);
                        rest = &rest[end + 1..];
                        self.env(Val::known(key))
                    } else if c == '$' && (rest.starts_with(['[', '{']) || rest.starts_with("->")) {
                        return concat_unknown(out, lit);
                    } else if c == '@' {
                        let items = self.name(&format!("@{name}"), depth).list();
                        let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
                        texts.map_or(Val::Unknown, |t| Val::Known(t.join(" ")))
                    } else {
                        self.name(&format!("${name}"), depth).val()
                    };
                    out = out
                        .concat(Val::Known(std::mem::take(&mut lit)))
                        .concat(value);
                }
                c => lit.push(c),
            }
        }
        out.concat(Val::Known(lit))
    }

    /// Reads the code a string runs as it is built, wherever the string is: the expressions
    /// of `"@{[ EXPR ]}"`, `"${\ EXPR}"` and any other `@{ }` or `${ }` block that is not a
    /// variable's name (`"${name}"`, `"@{$list}"`), each read as code of its own (what it
    /// names of the code around it is not known there).
    pub(super) fn interpolated_code(&mut self, node: Node<'_>, line: usize) {
        let text = self.src.of(node);
        if kind(node) == "string_qq_quoted"
            && text
                .get(2..)
                .is_some_and(|r| r.trim_start().starts_with('\''))
        {
            return;
        }
        let bytes = text.as_bytes();
        let mut at = 0;
        while let Some(k) = text.get(at..).and_then(|r| r.find(['@', '$'])) {
            let sigil = at + k;
            at = sigil + 1;
            let escaped = sigil > 0 && bytes[sigil - 1] == b'\\';
            if escaped || bytes.get(sigil + 1) != Some(&b'{') {
                continue;
            }
            let mut depth = 0usize;
            let Some(close) = bytes[sigil + 1..].iter().position(|&b| {
                depth = match b {
                    b'{' => depth + 1,
                    b'}' => depth.saturating_sub(1),
                    _ => depth,
                };
                b == b'}' && depth == 0
            }) else {
                self.cx
                    .unreadable("a string's code block is not closed", line);
                return;
            };
            let inner = text[sigil + 2..sigil + 1 + close].trim();
            at = sigil + 2 + close;
            let name = inner
                .strip_prefix('$')
                .or(inner.strip_prefix('^'))
                .unwrap_or(inner);
            if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                continue;
            }
            let expr = match inner.strip_prefix('[').and_then(|e| e.strip_suffix(']')) {
                Some(e) => e,
                None => inner.strip_prefix('\\').unwrap_or(inner),
            };
            self.cx.eval(Val::known(expr), line);
        }
    }

    /// `s/PATTERN/CODE/e` runs its replacement as code, read as such; `/ee` runs what that
    /// code returns, not known before it runs.
    pub(super) fn substitution_code(&mut self, node: Node<'_>, line: usize) {
        let options = by_field(node, "regex_option").map_or("", |o| self.src.of(o));
        let evals = options.matches('e').count();
        if evals == 0 {
            return;
        }
        if evals > 1 {
            self.cx.unreadable(
                "the code runs code built at run time (an eval of a value not known before it runs)",
                line,
            );
            return;
        }
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut c).collect();
        let separator = children.iter().find(|n| kind(**n) == "separator_delimiter");
        let end = children.iter().rev().find(|n| kind(**n) == "end_delimiter");
        let (Some(separator), Some(end)) = (separator, end) else {
            self.cx
                .unreadable("the code's substitution cannot be read", line);
            return;
        };
        // `s{A}{B}e`: the separator is `}`, and the replacement opens with its own bracket.
        let replacement = self
            .src
            .text
            .get(separator.end_byte()..end.start_byte())
            .unwrap_or_default()
            .trim_start()
            .trim_start_matches(['{', '(', '[', '<']);
        self.cx.eval(Val::known(replacement), line);
    }

    /// The value of the expression in `@{[ EXPR ]}`, parsed on its own.
    fn sub_expression(&mut self, expr: &str, depth: usize) -> Val {
        if depth > MAX_NESTING {
            return Val::Unknown;
        }
        let Ok(tree) = crate::matcher::code::tree::parse(Lang::Perl, expr, &mut self.cx.parse_work)
        else {
            return Val::Unknown;
        };
        let root = tree.root_node();
        let mut c = root.walk();
        let items: Vec<Node<'_>> = root.named_children(&mut c).collect();
        match items.as_slice() {
            [one] => {
                let items = self.eval(*one, expr, depth + 1).list();
                let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
                texts.map_or(Val::Unknown, |t| Val::Known(t.join(" ")))
            }
            _ => Val::Unknown,
        }
    }
}

/// What a string is from a variable not followed on (`"http://h/v1/hooks/$_"`): known to
/// start with what came before it.
fn concat_unknown(out: Val, lit: String) -> Val {
    match out.concat(Val::Known(lit)) {
        Val::Fetched => Val::Fetched,
        start => start.concat(Val::Unknown),
    }
}

/// The text between a quoted string's delimiters (`'a'`, `{a}`, `(a)`).
pub(super) fn delimited(text: &str) -> &str {
    let mut chars = text.chars();
    let (Some(open), Some(_)) = (chars.next(), chars.next_back()) else {
        return "";
    };
    text.get(open.len_utf8()..text.len().saturating_sub(1))
        .unwrap_or_default()
}

/// A single-quoted body: only `\\` and the escaped delimiter are escapes.
fn single_quoted(body: &str, close: char) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&n)) if n == '\\' || n == close => {
                out.push(n);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The variable name at the start of `rest` (`x`, `{x}`, `Foo::x`) and what follows it.
fn variable_at(rest: &str) -> (&str, &str) {
    if let Some(inner) = rest.strip_prefix('{') {
        let Some(end) = inner.find('}') else {
            return ("", rest);
        };
        let name = inner.get(..end).unwrap_or_default().trim();
        if !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
            && !name.starts_with(|c: char| c.is_ascii_digit())
        {
            return (name, &inner[end + 1..]);
        }
        return ("", rest);
    }
    let bytes = rest.as_bytes();
    let mut end = 0;
    while let Some(&b) = bytes.get(end) {
        if b.is_ascii_alphanumeric() || b == b'_' {
            end += 1;
        } else if b == b':'
            && bytes.get(end + 1) == Some(&b':')
            && bytes
                .get(end + 2)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            end += 2;
        } else {
            break;
        }
    }
    let name = rest.get(..end).unwrap_or_default();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) || name == "_" {
        return ("", rest);
    }
    (name, &rest[name.len()..])
}

/// One escape after a `\` in a double-quoted string; `None` for a case change (`\U`).
fn unescape(rest: &mut &str) -> Option<String> {
    let mut chars = rest.chars();
    let Some(e) = chars.next() else {
        return Some("\\".into());
    };
    *rest = chars.as_str();
    let code = |digits: &str, radix| {
        u32::from_str_radix(digits, radix)
            .ok()
            .and_then(char::from_u32)
    };
    let out = match e {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\x07',
        'e' => '\x1b',
        'f' => '\x0c',
        'x' => {
            let (digits, after) = if let Some(inner) = rest.strip_prefix('{') {
                let end = inner.find('}')?;
                (inner.get(..end)?, &inner[end + 1..])
            } else {
                let n = rest
                    .chars()
                    .take(2)
                    .take_while(char::is_ascii_hexdigit)
                    .count();
                (&rest[..n], &rest[n..])
            };
            *rest = after;
            if digits.is_empty() {
                '\0'
            } else {
                code(digits.trim(), 16)?
            }
        }
        '0'..='7' => {
            let n = rest.chars().take(2).take_while(|c| c.is_digit(8)).count();
            let digits = format!("{e}{}", &rest[..n]);
            *rest = &rest[n..];
            code(&digits, 8)?
        }
        'U' | 'L' | 'u' | 'l' | 'Q' | 'E' | 'N' | 'c' | 'o' => return None,
        other => other,
    };
    Some(out.to_string())
}

/// A numeric literal's value as Perl reads it (`0755` is octal).
pub(super) fn number(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.to_owned()),
        None => (false, t),
    };
    let n = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = t.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()?
    } else if t.len() > 1 && t.starts_with('0') {
        i64::from_str_radix(t.trim_start_matches(['0', 'o']), 8)
            .ok()
            .or(Some(0).filter(|_| t.trim_start_matches('0').is_empty()))?
    } else {
        t.parse().ok()?
    };
    Some(if neg { -n } else { n })
}

pub(super) fn case(func: &str, s: &str) -> String {
    let mut chars = s.chars();
    match func {
        "lc" => s.to_lowercase(),
        "uc" => s.to_uppercase(),
        "ucfirst" => chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default(),
        _ => chars
            .next()
            .map(|c| c.to_lowercase().chain(chars).collect())
            .unwrap_or_default(),
    }
}

/// `sprintf` with `%s`, `%d` and `%%` of known arguments; past the first argument not
/// known, only the text before it is (`sprintf "http://%s/%s", $h, shift`).
pub(super) fn sprintf(format: Val, args: &[Val]) -> Val {
    let Some(format) = format.text() else {
        return Val::Unknown;
    };
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
            Some('s' | 'd' | 'i') => match items.next() {
                Some(Val::Known(t)) => out.push_str(t),
                Some(other) => return Val::Known(out).concat(other.clone()),
                None => return Val::Known(out).concat(Val::Unknown),
            },
            _ => return Val::Known(out).concat(Val::Unknown),
        }
    }
    Val::Known(out)
}
