//! Lua's literal syntax (numbers, quoted strings' escapes) and `string.format`, on known
//! values.

use crate::matcher::code::Val;

/// A number as `..` writes it: integers (decimal or hex) only.
pub(super) fn number(text: &str) -> Val {
    let t = text.to_ascii_lowercase();
    let n = match t.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => t.parse::<i64>().ok(),
    };
    n.map_or(Val::Unknown, |n| Val::Known(n.to_string()))
}

/// `string.format`: `%s`, `%d`, `%q` and `%%` with known arguments. `%q` writes a string
/// between double quotes; one it would escape (a quote, a backslash, a control character)
/// is not followed.
pub(super) fn format(format: &str, args: &[Val]) -> Option<String> {
    let mut out = String::new();
    let mut items = args.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '%' => out.push('%'),
            's' | 'd' => out.push_str(items.next()?.text()?),
            'q' => {
                let text = items.next()?.text()?;
                if text.contains(['"', '\\']) || text.chars().any(char::is_control) {
                    return None;
                }
                out.push('"');
                out.push_str(text);
                out.push('"');
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A quoted string's escapes decoded (`\n`, `\ddd`, `\xXX`, `\u{XXX}`, `\z`); `None` when
/// an escape makes bytes that are not text.
pub(super) fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next()?;
        match e {
            'n' | '\n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '\\' | '"' | '\'' => out.push(e),
            'z' => {
                while chars.peek().is_some_and(|c| c.is_ascii_whitespace()) {
                    chars.next();
                }
            }
            'x' => {
                let hex: String = (0..2).filter_map(|_| chars.next()).collect();
                let b = u8::from_str_radix(&hex, 16).ok().filter(u8::is_ascii)?;
                out.push(char::from(b));
            }
            '0'..='9' => {
                let mut n = e.to_digit(10)?;
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(10)) {
                        Some(d) => {
                            n = n * 10 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from(u8::try_from(n).ok().filter(u8::is_ascii)?));
            }
            'u' => {
                if chars.next() != Some('{') {
                    return None;
                }
                let hex: String = chars.by_ref().take_while(|c| *c != '}').collect();
                out.push(
                    u32::from_str_radix(&hex, 16)
                        .ok()
                        .and_then(char::from_u32)?,
                );
            }
            _ => return None,
        }
    }
    Some(out)
}
