//! Parsing with bash's grammar (`brush-parser`), inside bounds that the parser itself does
//! not keep: a NUL byte (bash stops reading there) and nesting deeper than
//! [`MAX_NESTING`] are refused before the parser runs, since its recursive descent would
//! otherwise exhaust the stack on input like `$($($(...)))`.

use brush_parser::{ParserOptions, Token, ast};

const TOO_DEEP: &str = "the command nests too deeply";

/// Deepest nesting of brackets, backticks and compound keywords read. brush-parser's
/// time doubles with each level of some shapes (`((((`, unterminated `( ( (`, nested
/// `case`: 0.6 s at 24 levels), so the bound is kept where the worst shape stays in the
/// tens of microseconds.
pub(super) const MAX_NESTING: usize = 12;
/// Most here-document operators read: the parser's time grows faster than linearly in them.
const MAX_HEREDOCS: usize = 32;
/// Why a line is refused for the parsing it would take (see [`PARSE_BUDGET`]).
pub(super) const TOO_MUCH_TO_PARSE: &str =
    "the command has too many words and operators to read in time";
/// What one line may spend in brush-parser, whose grammars cost far more than the walk:
/// about 0.6 µs a token of a script, and 0.2 µs a byte of a brace expression. A unit is
/// about a microsecond: a script's token, a word or parameter parsed, a few bytes of a
/// brace expression or here-document (see the walk's and expansion's charges). A 64 KiB
/// line of short commands is 25,000 tokens (25 ms to parse); agents' lines are tens of
/// tokens, and long ones are long because of a quoted script or a here-document, one token
/// each. A script over what is left is refused as soon as its tokenizer passes it.
pub(super) const PARSE_BUDGET: usize = 4096;

/// The syntax tree of `text` and its number of tokens, or why it cannot be read: among
/// the reasons, more than `max_tokens` tokens.
pub(super) fn parse(
    text: &str,
    options: &ParserOptions,
    max_tokens: usize,
) -> Result<(ast::Program, usize), &'static str> {
    if text.contains('\0') {
        return Err("the command holds a NUL byte");
    }
    if bracket_nesting(text) > MAX_NESTING {
        return Err(TOO_DEEP);
    }
    if text.matches("<<").count() > MAX_HEREDOCS {
        return Err("the command holds too many here-documents");
    }
    // brush-parser unwraps in places on malformed input (`''$(<<EOF\n)\nEOF`); such a
    // line is unreadable, never a crash.
    let parsed = std::panic::catch_unwind(|| {
        // brush-parser's `Parser` tokenizes all of the input, then parses; the vendored
        // copy's bounded tokenizer stops at the token count (`vendor/brush-parser`).
        let options_t = options.tokenizer_options();
        let tokens = match brush_parser::tokenize_str_bounded(text, &options_t, max_tokens) {
            Ok(Some(tokens)) => tokens,
            Ok(None) => return Err(TOO_MUCH_TO_PARSE),
            Err(brush_parser::TokenizerError::NestingTooDeep) => return Err(TOO_DEEP),
            Err(inner) => {
                let position = None;
                return Ok(Err(brush_parser::ParseError::Tokenizing {
                    inner,
                    position,
                }));
            }
        };
        if compound_nesting(&tokens) > MAX_NESTING {
            return Err(TOO_DEEP);
        }
        let count = tokens.len();
        Ok(brush_parser::parse_tokens(&tokens, options).map(|program| (program, count)))
    })
    .map_err(|_| "the command could not be parsed")??;
    parsed.map_err(|e| match e {
        brush_parser::ParseError::ParsingAtEndOfInput => {
            "the command ends in the middle of a construct"
        }
        brush_parser::ParseError::Tokenizing { .. } => {
            "a quote, substitution or here-document is not terminated"
        }
        _ => "the command is not valid shell syntax",
    })
}

/// How deeply `text` nests brackets, braces and backticks, for the parser's time (see
/// [`MAX_NESTING`]). Counted without regard to quoting, so a quoted closer can hide a level
/// (`$(echo ")" ...`); that costs no stack, as the tokenizer bounds its own recursion
/// (`NestingTooDeep`, `vendor/brush-parser/PATCHES.md`) and the reader its depth. A `{` or
/// `[` counts where it may open something (after `$`, or starting a word: `${x}`, `{ a; }`,
/// `[[ ... ]]`, `$[1]`), not inside a word or after a quote (`'{'`, `a[1]`); each closer
/// closes only its own kind.
fn bracket_nesting(text: &str) -> usize {
    let (mut parens, mut braces, mut squares) = (0usize, 0usize, 0usize);
    let mut max = 0;
    let mut in_backticks = false;
    let mut before = b' ';
    let bytes = text.as_bytes();
    // The text of a here-document whose delimiter is quoted is data the parser never
    // reads (one token): its brackets (a regex's `\(` in `python3 - <<'EOF'`) do not nest.
    let mut pending: Vec<(&str, bool)> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        if b == b'<'
            && let Some((delimiter, dash, end)) = quoted_heredoc(text, at)
        {
            pending.push((delimiter, dash));
            at = end;
            before = b'x';
            continue;
        }
        if b == b'\n' && !pending.is_empty() {
            at = skip_heredoc_bodies(text, at + 1, &pending);
            pending.clear();
            before = b'\n';
            continue;
        }
        at += 1;
        let opens =
            before == b'$' || matches!(before, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(');
        match b {
            b'`' if in_backticks => {
                in_backticks = false;
                parens = parens.saturating_sub(1);
            }
            b'`' => {
                in_backticks = true;
                parens += 1;
            }
            b'(' => parens += 1,
            b')' => parens = parens.saturating_sub(1),
            b'{' if opens => braces += 1,
            b'}' => braces = braces.saturating_sub(1),
            b'[' if opens => squares += 1,
            b']' => squares = squares.saturating_sub(1),
            _ => {}
        }
        before = b;
        max = max.max(parens + braces + squares);
    }
    max
}

/// The delimiter of a here-document operator at `at` whose delimiter is quoted
/// (`<<'EOF'`, `<<-"END"`), whether it strips tabs, and where the operator ends.
fn quoted_heredoc(text: &str, at: usize) -> Option<(&str, bool, usize)> {
    let rest = text.get(at..)?.strip_prefix("<<")?;
    if rest.starts_with('<') || text[..at].ends_with('<') {
        return None;
    }
    let dash = rest.starts_with('-');
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let rest = rest.trim_start_matches([' ', '\t']);
    let quote = rest.chars().next().filter(|q| matches!(q, '\'' | '"'))?;
    let word = &rest[1..];
    // A delimiter is a short word: looking further for the quote would make the scan's
    // time grow with the square of a line of `<<'`.
    let len = word.bytes().take(64).position(|c| c == quote as u8)?;
    let delimiter = &word[..len];
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    if delimiter.is_empty() || !delimiter.chars().all(plain) {
        return None;
    }
    let end = text.len() - word.len() + len + 1;
    Some((delimiter, dash, end))
}

/// Where the bodies of `heredocs`, one after another from `from`, end: past each
/// terminating line (a line that is the delimiter, after tabs for `<<-`), or the text's end.
fn skip_heredoc_bodies(text: &str, mut from: usize, heredocs: &[(&str, bool)]) -> usize {
    for (delimiter, dash) in heredocs {
        loop {
            let Some(rest) = text.get(from..).filter(|r| !r.is_empty()) else {
                return text.len();
            };
            let line_end = rest.find('\n').map_or(text.len(), |n| from + n);
            let line = &text[from..line_end];
            let line = if *dash {
                line.trim_start_matches('\t')
            } else {
                line
            };
            from = (line_end + 1).min(text.len());
            if line == *delimiter {
                break;
            }
        }
    }
    from
}

/// How deeply `tokens` nest compound commands: brush-parser's recursive descent goes down
/// a level per `(`, `{` and compound-command keyword. Counted on tokens, where a quoted
/// word or a here-document's text is one word: the `if`s and `for`s of a commit message or
/// of the Python fed to `python3 - <<'EOF'` are not keywords. Brackets and keywords are
/// counted apart, so a `case` pattern's `)` does not cancel its `case`, and bounded
/// together.
fn compound_nesting(tokens: &[Token]) -> usize {
    let (mut brackets, mut keywords, mut max) = (0usize, 0usize, 0usize);
    for token in tokens {
        match token.to_str() {
            "(" | "{" => brackets += 1,
            ")" | "}" => brackets = brackets.saturating_sub(1),
            "if" | "case" | "for" | "while" | "until" | "select" | "function" => keywords += 1,
            "fi" | "esac" | "done" => keywords = keywords.saturating_sub(1),
            _ => {}
        }
        max = max.max(brackets + keywords);
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_braces_and_brackets_in_words_are_not_nesting() {
        let options = ParserOptions::default();
        let words = "sudo sudo '{' '{' '{' '{' '{'; sudo '{' '{' '{' '{' '{'; '{' '{' '{' '{' '{'";
        assert!(parse(words, &options, usize::MAX).is_ok());
        let indexes = "echo a[1] b[2] c[3] d[4] e[5] f[6] g[7] h[8] i[9] j[10] k[11] l[12] m[13]";
        assert!(parse(indexes, &options, usize::MAX).is_ok());
        let groups = "{ ".repeat(13) + "x; " + &"}; ".repeat(13);
        assert_eq!(
            parse(&groups, &options, usize::MAX).err(),
            Some("the command nests too deeply")
        );
    }

    #[test]
    fn brackets_in_a_quoted_here_document_are_data() {
        let options = ParserOptions::default();
        let codemod = format!(
            "python3 - <<'EOF'\nimport re\n{}print(1)\nEOF",
            "s = re.sub(r\"\\bassertEquals\\(\", \"assertEqual(\", s)\n".repeat(20)
        );
        assert!(parse(&codemod, &options, usize::MAX).is_ok());
        let dashed = format!("cat <<-\"END\" > f\n\t{}\n\tEND\necho ok", "(".repeat(40));
        assert!(parse(&dashed, &options, usize::MAX).is_ok());
        // The delimiter unquoted, the text is read for substitutions: it counts.
        let unquoted = format!("cat <<EOF\n{}\nEOF", "$(".repeat(20));
        assert_eq!(
            parse(&unquoted, &options, usize::MAX).err(),
            Some("the command nests too deeply")
        );
        // After the terminating line, brackets count again.
        let after = format!(
            "cat <<'EOF'\n((\nEOF\n{}x{}",
            "( ".repeat(20),
            ") ".repeat(20)
        );
        assert_eq!(
            parse(&after, &options, usize::MAX).err(),
            Some("the command nests too deeply")
        );
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        let options = ParserOptions::default();
        let deep = format!("{}x{}", "$(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(
            parse(&deep, &options, usize::MAX).err(),
            Some("the command nests too deeply")
        );
        let deep_if = "if true; then ".repeat(5_000);
        assert_eq!(
            parse(&deep_if, &options, usize::MAX).err(),
            Some("the command nests too deeply")
        );
        let deep_for = "for a in b; do ".repeat(13) + &"done; ".repeat(13);
        assert_eq!(
            parse(&deep_for, &options, usize::MAX).err(),
            Some("the command nests too deeply")
        );
        // Keywords that are words of data are not nesting: quoted, or in a here-document.
        let message = format!(
            "git commit -m \"{}\"",
            "if it fails, for each host, ".repeat(20)
        );
        assert!(parse(&message, &options, usize::MAX).is_ok());
        let python = format!(
            "python3 - <<'EOF'\n{}EOF\n",
            "for i in range(3):\n    if i:\n        print(i)\n".repeat(40)
        );
        assert!(parse(&python, &options, usize::MAX).is_ok());
        assert!(parse("if [ -f x ]; then (echo {a,b}); fi", &options, 64).is_ok());
        assert_eq!(
            parse("a\0b", &options, 64).err(),
            Some("the command holds a NUL byte")
        );
        assert!(
            parse("''$(<<EOF\n)\nEOF\n", &options, 64).is_err(),
            "a parser panic is caught"
        );
    }

    #[test]
    fn too_many_tokens_are_refused_but_long_quoted_words_are_not() {
        let options = ParserOptions::default();
        let max = 4096;
        // `echo a;` is three tokens.
        let just_under = "echo a; ".repeat(max / 3);
        assert_eq!(parse(&just_under, &options, max).map(|p| p.1), Ok(4095));
        let over = format!("{just_under}echo a; echo b");
        assert_eq!(parse(&over, &options, max).err(), Some(TOO_MUCH_TO_PARSE));
        let script = format!("python3 -c '{}'", "print(1) ; ".repeat(5_000));
        assert_eq!(parse(&script, &options, 3).map(|p| p.1), Ok(3));
        let heredoc = format!("cat > f <<'EOF'\n{}EOF\n", "a b c d\n".repeat(5_000));
        assert!(parse(&heredoc, &options, 16).is_ok());
        let not_terminated = Some("a quote, substitution or here-document is not terminated");
        assert_eq!(parse("echo 'x", &options, max).err(), not_terminated);
        // The tokenizer stops at the bound: what comes after is never read.
        let stops = format!("{}echo 'x", "a;".repeat(max));
        assert_eq!(parse(&stops, &options, max).err(), Some(TOO_MUCH_TO_PARSE));
    }
}
