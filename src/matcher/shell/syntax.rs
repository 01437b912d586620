//! Parsing with bash's grammar (`brush-parser`), inside bounds that the parser itself does
//! not keep: a NUL byte (bash stops reading there) and nesting deeper than
//! [`MAX_NESTING`] are refused before the parser runs, since its recursive descent would
//! otherwise exhaust the stack on input like `$($($(...)))`.

use brush_parser::{ParserOptions, ast};

/// Deepest nesting of brackets, backticks and compound keywords read. brush-parser's
/// time doubles with each level of some shapes (`((((`, unterminated `( ( (`, nested
/// `case`: 0.6 s at 24 levels), so the bound is kept where the worst shape stays in the
/// tens of microseconds.
pub(super) const MAX_NESTING: usize = 12;
/// Most here-document operators read: the parser's time grows faster than linearly in them.
const MAX_HEREDOCS: usize = 32;

/// The syntax tree of `text`, or why it cannot be read.
pub(super) fn parse(text: &str, options: &ParserOptions) -> Result<ast::Program, &'static str> {
    if text.contains('\0') {
        return Err("the command holds a NUL byte");
    }
    if nesting(text) > MAX_NESTING {
        return Err("the command nests too deeply");
    }
    if text.matches("<<").count() > MAX_HEREDOCS {
        return Err("the command holds too many here-documents");
    }
    // brush-parser unwraps in places on malformed input (`''$(<<EOF\n)\nEOF`); such a
    // line is unreadable, never a crash.
    let parsed = std::panic::catch_unwind(|| {
        brush_parser::Parser::new(text.as_bytes(), options).parse_program()
    })
    .map_err(|_| "the command could not be parsed")?;
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

/// An upper bound on how deeply `text` nests: brackets and braces, backticks, and the
/// compound-command keywords, counted without regard to quoting (which can only make the
/// count larger). Brackets and keywords are counted apart, so a `case` pattern's `)` does
/// not cancel its `case`, and bounded together.
fn nesting(text: &str) -> usize {
    let mut brackets: usize = 0;
    let mut keywords: usize = 0;
    let mut max = 0;
    let mut word_start = true;
    let mut in_backticks = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'`' if in_backticks => {
                in_backticks = false;
                brackets = brackets.saturating_sub(1);
            }
            b'`' => {
                in_backticks = true;
                brackets += 1;
            }
            b'(' | b'{' | b'[' => brackets += 1,
            b')' | b'}' | b']' => brackets = brackets.saturating_sub(1),
            _ => {}
        }
        if word_start && b.is_ascii_alphabetic() {
            let end = bytes[i..]
                .iter()
                .position(|c| !c.is_ascii_alphabetic())
                .map_or(bytes.len(), |p| i + p);
            match &text[i..end] {
                "if" | "case" | "for" | "while" | "until" | "select" | "function" => keywords += 1,
                "fi" | "esac" | "done" => keywords = keywords.saturating_sub(1),
                _ => {}
            }
            i = end;
            word_start = false;
            max = max.max(brackets + keywords);
            continue;
        }
        max = max.max(brackets + keywords);
        word_start = matches!(
            b,
            b' ' | b'\t'
                | b'\n'
                | b';'
                | b'&'
                | b'|'
                | b'('
                | b')'
                | b'{'
                | b'}'
                | b'`'
                | b'$'
                | b'"'
                | b'\''
        );
        i += 1;
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        let options = ParserOptions::default();
        let deep = format!("{}x{}", "$(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(
            parse(&deep, &options).err(),
            Some("the command nests too deeply")
        );
        let deep_if = "if true; then ".repeat(5_000);
        assert!(parse(&deep_if, &options).is_err());
        assert!(parse("if [ -f x ]; then (echo {a,b}); fi", &options).is_ok());
        assert_eq!(
            parse("a\0b", &options).err(),
            Some("the command holds a NUL byte")
        );
        assert!(
            parse("''$(<<EOF\n)\nEOF\n", &options).is_err(),
            "a parser panic is caught"
        );
    }
}
