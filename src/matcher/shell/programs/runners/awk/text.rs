//! Reading awk's text without parsing it: statements, strings, names, and the parts
//! outside strings.

use crate::matcher::shell::walk::Data;

/// `program` with its comments and the insides of its regular expressions blanked out
/// (same length), so that the scanners below see a `"`, `|` or `>` in them (`# it"s`,
/// `/^(ok|FAIL)/`) as the text it is. A `/` opens a regular expression only where an
/// operand is expected; after a name, a number, `)` or `]` it divides, and so when in
/// doubt nothing is blanked.
pub(super) fn masked(program: &str) -> String {
    let b = program.as_bytes();
    let mut out = b.to_vec();
    let (mut i, mut quoted) = (0, false);
    // The last byte outside strings, regular expressions and blanks.
    let mut last: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        if quoted {
            match c {
                b'\\' => i += 1,
                b'"' => {
                    quoted = false;
                    last = Some(c);
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => quoted = true,
            b'#' => {
                let end = b[i..]
                    .iter()
                    .position(|&x| x == b'\n')
                    .map_or(b.len(), |n| i + n);
                out[i..end].fill(b' ');
                i = end;
                continue;
            }
            b'/' if last
                .is_none_or(|l| !(l.is_ascii_alphanumeric() || b"_$)].\"".contains(&l))) =>
            {
                let mut j = i + 1;
                while j < b.len() && !matches!(b[j], b'/' | b'\n') {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                if j < b.len() && b[j] == b'/' {
                    out[i + 1..j].fill(b' ');
                    last = Some(b'/');
                    i = j + 1;
                    continue;
                }
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            last = Some(c);
        }
        i += 1;
    }
    // Only whole characters were blanked: the text stays UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| program.to_owned())
}

/// Whether `c` may be in a name the reader takes as a path as it is, quoted or not.
pub(super) fn plain_name_char(c: char) -> bool {
    c.is_alphanumeric() || "/._-+,@%:=".contains(c)
}

pub(super) fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Where the statement that starts `text` ends: at a `;`, `}` or line end outside strings
/// and parentheses.
pub(super) fn statement_end(text: &str) -> usize {
    outside_strings(text, |c, depth| {
        depth == 0 && matches!(c, ')' | ';' | '}' | '\n')
    })
    .unwrap_or(text.len())
}

/// What follows the `>` of an output redirection in a `print` statement's text: a `>` outside
/// strings and parentheses (inside them it compares).
pub(super) fn top_level_redirect(statement: &str) -> Option<&str> {
    outside_strings(statement, |c, depth| c == '>' && depth == 0).map(|k| &statement[k + 1..])
}

/// The first position in `text`, outside strings, of a character for which `stop` holds,
/// given the depth of parentheses before it.
pub(super) fn outside_strings(
    text: &str,
    mut stop: impl FnMut(char, usize) -> bool,
) -> Option<usize> {
    let (mut depth, mut quoted, mut escaped) = (0usize, false, false);
    for (k, c) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if quoted {
            match c {
                '\\' => escaped = true,
                '"' => quoted = false,
                _ => {}
            }
        } else if c == '"' {
            quoted = true;
        } else if stop(c, depth) {
            return Some(k);
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth = depth.saturating_sub(1);
        }
    }
    None
}

/// What the `print` or `printf` statement that ends `before` (at a `| "cmd"`) writes: its
/// text when it prints one constant string, else not known.
pub(super) fn awk_printed(before: &str) -> Data {
    let statement = before
        .rsplit([';', '{', '}', '\n'])
        .next()
        .unwrap_or(before)
        .trim();
    let constant = |expression: &str| {
        awk_string(expression.trim())
            .filter(|(_, after)| after.trim().is_empty())
            .map(|(text, _)| text)
    };
    if let Some(expression) = statement.strip_prefix("printf")
        && let Some(text) = constant(expression).filter(|t| !t.contains('%'))
    {
        return Data::Known(text);
    }
    match statement.strip_prefix("print").and_then(constant) {
        Some(text) => Data::Known(format!("{text}\n")),
        None => Data::Unknown,
    }
}

/// A double-quoted awk string at the start of `text`, unescaped, and the text after it.
/// Escapes as awk reads them: `\n`, `\t` and the other letters of C, a character by its
/// octal code (`\143`, up to three digits) or, in gawk, its hex code (`\x63`, up to two);
/// any other escaped character is itself.
pub(super) fn awk_string(text: &str) -> Option<(String, &str)> {
    let body = text.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices().peekable();
    let code = |chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
                radix: u32,
                first: u32,
                most: usize| {
        let mut value = first;
        for _ in 1..most {
            match chars.peek().and_then(|(_, d)| d.to_digit(radix)) {
                Some(d) => {
                    value = value * radix + d;
                    chars.next();
                }
                None => break,
            }
        }
        char::from_u32(value)
    };
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[k + 1..])),
            '\\' => {
                let escaped = chars.next()?.1;
                let decoded = match escaped {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    'a' => '\u{7}',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'v' => '\u{b}',
                    d @ '0'..='7' => code(&mut chars, 8, d.to_digit(8)?, 3)?,
                    'x' => match chars.next()?.1.to_digit(16) {
                        Some(d) => code(&mut chars, 16, d, 2)?,
                        None => return None,
                    },
                    other => other,
                };
                out.push(decoded);
            }
            c => out.push(c),
        }
    }
    None
}
