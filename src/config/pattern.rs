//! User regexes: compiled once at load, with size and nesting limits, and with errors that
//! explain the JavaScript constructs (look-around, backreferences) the Rust dialect lacks.

use std::fmt;

use regex::{Regex, RegexBuilder};
use regex_syntax::ast::ErrorKind as AstErrorKind;

/// Compiled-program size limit for one pattern (bytes of the compiled form).
const SIZE_LIMIT: usize = 1 << 20;
/// Deepest nesting of groups and repetitions in one pattern.
const NEST_LIMIT: u32 = 64;
/// Longest pattern text accepted.
const MAX_PATTERN_LEN: usize = 4096;

/// A regex from a policy file, with its source text.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    regex: Regex,
}

impl Pattern {
    /// Compiles `source` within the limits.
    pub fn new(source: &str) -> Result<Pattern, PatternError> {
        if source.len() > MAX_PATTERN_LEN {
            return Err(PatternError {
                message: format!(
                    "regex is {} bytes long, over the {MAX_PATTERN_LEN} byte limit",
                    source.len()
                ),
                help: None,
            });
        }
        // The AST parser names the constructs that the regex crate rejects with a bare message.
        let mut parser = regex_syntax::ast::parse::ParserBuilder::new()
            .nest_limit(NEST_LIMIT)
            .build();
        if let Err(e) = parser.parse(source) {
            return Err(explain_ast_error(&e));
        }
        let regex = RegexBuilder::new(source)
            .size_limit(SIZE_LIMIT)
            .dfa_size_limit(SIZE_LIMIT)
            .nest_limit(NEST_LIMIT)
            .build()
            .map_err(|e| match e {
                regex::Error::CompiledTooBig(limit) => PatternError {
                    message: format!("regex compiles to more than {limit} bytes"),
                    help: Some(
                        "split it into several hooks or simplify repetitions like `{1000}`".into(),
                    ),
                },
                other => PatternError {
                    message: format!("invalid regex: {}", first_line(&other.to_string())),
                    help: None,
                },
            })?;
        Ok(Pattern {
            source: source.to_owned(),
            regex,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the pattern matches anywhere in `haystack` (unanchored, like JavaScript's `test`).
    #[inline]
    pub fn is_match(&self, haystack: &str) -> bool {
        self.regex.is_match(haystack)
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

/// Why a pattern was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    pub(crate) message: String,
    pub(crate) help: Option<String>,
}

fn first_line(s: &str) -> String {
    s.lines()
        .rev()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| s.lines().next().unwrap_or(s))
        .trim_start_matches("error: ")
        .to_owned()
}

fn explain_ast_error(e: &regex_syntax::ast::Error) -> PatternError {
    let at = e.span().start.offset;
    match e.kind() {
        AstErrorKind::UnsupportedLookAround => PatternError {
            message: format!("look-around (`(?=`, `(?!`, `(?<=`, `(?<!`) at byte {at} is not supported"),
            help: Some(
                "hookgate uses linear-time regexes, which have no look-around; match the positive form \
                 instead (e.g. `rm\\s+-[a-z]*r` rather than `rm(?!\\s+-i)`), or split the rule into \
                 several hooks"
                    .into(),
            ),
        },
        AstErrorKind::UnsupportedBackreference => PatternError {
            message: format!("backreference at byte {at} is not supported"),
            help: Some("spell the repeated text out, or use a character class instead of `\\1`".into()),
        },
        AstErrorKind::NestLimitExceeded(limit) => PatternError {
            message: format!("regex nests deeper than {limit} levels"),
            help: None,
        },
        kind => PatternError { message: format!("invalid regex: {kind} (at byte {at})"), help: None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_style_patterns_compile_and_match_unanchored() {
        for (pattern, subject) in [
            ("^rm\\s", "rm -rf /"),
            ("rm\\s+(-[rRfF]{1,4}|--recursive|--force)", "sudo rm -rf /"),
            ("\\d{3}", "abc123"),
            ("(?i)SUDO", "sudo ls"),
            ("[^/]+\\.env$", "app/prod.env"),
            ("https?:\\/\\/evil", "https://evil.example"),
        ] {
            let p = Pattern::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e:?}"));
            assert!(p.is_match(subject), "{pattern} should match {subject}");
        }
    }

    #[test]
    fn look_around_and_backreferences_are_explained() {
        let e = Pattern::new("rm(?!\\s+-i)").unwrap_err();
        assert!(e.message.contains("look-around"), "{e:?}");
        assert!(e.help.is_some());
        let e = Pattern::new("(a)\\1").unwrap_err();
        assert!(e.message.contains("backreference"), "{e:?}");
    }

    #[test]
    fn oversized_patterns_are_rejected() {
        assert!(
            Pattern::new("a{1000}{1000}")
                .unwrap_err()
                .message
                .contains("more than")
        );
        let deep = format!("{}a{}", "(".repeat(100), ")".repeat(100));
        assert!(Pattern::new(&deep).unwrap_err().message.contains("nests"));
        assert!(
            Pattern::new(&"a".repeat(5000))
                .unwrap_err()
                .message
                .contains("limit")
        );
    }

    #[test]
    fn plain_syntax_errors_are_reported() {
        let e = Pattern::new("rm (").unwrap_err();
        assert!(e.message.starts_with("invalid regex"), "{e:?}");
    }
}
