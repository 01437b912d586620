//! Python's literal syntax and string formatting, on known values.

use crate::matcher::code::Val;

/// `textwrap.dedent(text)`: the whitespace every line that is not blank starts with taken
/// off, and blank lines left empty.
pub(super) fn dedent(text: &str) -> String {
    let indent = |line: &str| line.len() - line.trim_start_matches([' ', '\t']).len();
    let mut margin: Option<&str> = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let own = &line[..indent(line)];
        margin = Some(match margin {
            None => own,
            Some(m) => {
                let common = m
                    .bytes()
                    .zip(own.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &m[..common]
            }
        });
    }
    let margin = margin.unwrap_or("");
    text.split_inclusive('\n')
        .map(|line| {
            let body = line.trim_end_matches('\n');
            match body.trim().is_empty() {
                true => &line[body.len()..],
                false => line.strip_prefix(margin).unwrap_or(line),
            }
        })
        .collect()
}

/// An integer literal's value (`0o755`, `0x4966`, `0b101`, `1_000`).
pub(super) fn parse_int(text: &str) -> Option<u32> {
    parse_wide(text).and_then(|n| u32::try_from(n).ok())
}

/// An integer literal (`1_000`, `0x4966`, `0o755`, `0b1`) of at most 127 bits.
pub(super) fn parse_wide(text: &str) -> Option<i128> {
    let t = text.trim().replace('_', "");
    let radix = |prefixes: [&str; 2]| prefixes.iter().find_map(|p| t.strip_prefix(p));
    if let Some(b) = radix(["0b", "0B"]) {
        return i128::from_str_radix(b, 2).ok();
    }
    if let Some(o) = radix(["0o", "0O"]) {
        return i128::from_str_radix(o, 8).ok();
    }
    if let Some(h) = radix(["0x", "0X"]) {
        return i128::from_str_radix(h, 16).ok();
    }
    t.parse().ok()
}

/// `'%s %s' % (a, b)`: `%s`, `%d` and `%%` with known arguments.
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
            Some('s' | 'd' | 'r' | 'i') => match items.next().and_then(Val::text) {
                Some(t) => out.push_str(t),
                None => return Val::Unknown,
            },
            _ => return Val::Unknown,
        }
    }
    Val::Known(out)
}

/// `'{} {}'.format(a, b)`, `'{host}'.format(host=h)`: empty, numbered and named fields
/// with known arguments.
pub(super) fn format_braces(format: Val, args: &[Val], named: &[(String, Val)]) -> Val {
    let Some(format) = format.text() else {
        return Val::Unknown;
    };
    let mut out = String::new();
    let mut next = 0;
    let mut rest = format;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let Some(close) = tail.find('}') else {
            return Val::Unknown;
        };
        let field = &tail[1..close];
        let n = if field.is_empty() {
            next += 1;
            next - 1
        } else {
            match field.parse::<usize>() {
                Ok(n) => n,
                Err(_) => {
                    match named
                        .iter()
                        .rev()
                        .find(|(k, _)| k == field)
                        .and_then(|(_, v)| v.text())
                    {
                        Some(t) => out.push_str(t),
                        None => return Val::Unknown,
                    }
                    rest = &tail[close + 1..];
                    continue;
                }
            }
        };
        match args.get(n).and_then(Val::text) {
            Some(t) => out.push_str(t),
            None => return Val::Unknown,
        }
        rest = &tail[close + 1..];
    }
    out.push_str(rest);
    Val::Known(out)
}

/// A string literal's escapes decoded (`\n`, `\x41`, `\u0041`, octal); `\N{...}` is kept.
pub(super) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let hex = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>, n: usize| {
            let digits: String = (0..n).filter_map(|_| chars.next()).collect();
            u32::from_str_radix(&digits, 16)
                .ok()
                .and_then(char::from_u32)
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0'..='7' => {
                let mut n = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            n = n * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.extend(char::from_u32(n));
            }
            'x' => out.extend(hex(&mut chars, 2)),
            'u' => out.extend(hex(&mut chars, 4)),
            'U' => out.extend(hex(&mut chars, 8)),
            '\n' => {}
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '\\' | '\'' | '"' => out.push(e),
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn dedent_is_pythons() {
        // Each pair checked with python3.11's textwrap.dedent.
        for (text, want) in [
            (
                "\n\n    import x\n      y\n\t\n    z\n",
                "\n\nimport x\n  y\n\nz\n",
            ),
            ("  a\n b", " a\nb"),
            ("a\n  b\n", "a\n  b\n"),
        ] {
            assert_eq!(super::dedent(text), want, "{text:?}");
        }
    }
}
