//! User regexes: checked at load, with size and nesting limits, and with errors that explain
//! the JavaScript constructs (look-around, backreferences) the Rust dialect lacks; compiled
//! for matching the first time they are used.
//!
//! A compiled matcher costs 3 to 160 µs and 2 to 30 KiB per pattern, and the pattern index
//! (`matcher::PatternIndex`) runs only the patterns whose literals a subject contains, so
//! most patterns of a large policy never run. Loading therefore checks each pattern by
//! compiling its automaton within the size limit and dropping it (3 to 30 µs); the matcher
//! is built on first use and shared by every clone of the pattern.

use std::fmt;
use std::sync::{Arc, OnceLock};

use regex_automata::meta;
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::syntax;
use regex_syntax::ast::ErrorKind as AstErrorKind;

/// Compiled-program size limit for one pattern (bytes of the compiled automaton).
const SIZE_LIMIT: usize = 1 << 20;
/// Deepest nesting of groups and repetitions in one pattern.
const NEST_LIMIT: u32 = 64;
/// Longest pattern text accepted.
const MAX_PATTERN_LEN: usize = 4096;

/// A regex from a policy file, with its source text. Clones share the compiled matcher.
#[derive(Clone)]
pub struct Pattern {
    inner: Arc<Inner>,
}

struct Inner {
    source: String,
    /// `None` once a build failed (see [`Pattern::is_match`]).
    regex: OnceLock<Option<meta::Regex>>,
}

impl Pattern {
    /// Checks `source` within the limits.
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
        // The forward automaton is what the size limit bounds; building it is the check. One
        // compiler per thread keeps its scratch (a 10,000-entry UTF-8 cache) across patterns.
        thread_local! {
            static CHECKER: thompson::Compiler = {
                let mut compiler = thompson::Compiler::new();
                compiler.syntax(syntax_config()).configure(
                    thompson::Config::new()
                        .which_captures(WhichCaptures::None)
                        .nfa_size_limit(Some(SIZE_LIMIT)),
                );
                compiler
            };
        }
        CHECKER.with(|compiler| {
            compiler
                .build(source)
                .map(drop)
                .map_err(|e| explain_build_error(&e))
        })?;
        Ok(Pattern {
            inner: Arc::new(Inner {
                source: source.to_owned(),
                regex: OnceLock::new(),
            }),
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.inner.source
    }

    /// Whether the pattern matches anywhere in `haystack` (unanchored, like JavaScript's `test`).
    ///
    /// The first call builds the matcher. Its build was checked at load, with a stricter
    /// limit than this one; should it fail anyway, the pattern matches everything, so that a
    /// blocking hook fails closed, and the error is logged once.
    #[inline]
    pub fn is_match(&self, haystack: &str) -> bool {
        match self.inner.regex.get_or_init(|| self.build()) {
            Some(regex) => regex.is_match(haystack),
            None => true,
        }
    }

    #[cold]
    fn build(&self) -> Option<meta::Regex> {
        let built = meta::Regex::builder()
            .syntax(syntax_config())
            .configure(
                meta::Config::new()
                    // Only "does it match" is asked: no capture groups, and no one-pass DFA
                    // (which serves captures), a quarter of the memory.
                    .which_captures(WhichCaptures::None)
                    .onepass(false)
                    // The reverse automaton can be a little larger than the forward one
                    // the load-time check bounded.
                    .nfa_size_limit(Some(2 * SIZE_LIMIT))
                    .hybrid_cache_capacity(SIZE_LIMIT),
            )
            .build(&self.inner.source);
        match built {
            Ok(regex) => Some(regex),
            Err(error) => {
                tracing::error!(
                    pattern = %self.inner.source,
                    %error,
                    "a pattern that passed validation did not compile; it matches everything"
                );
                None
            }
        }
    }
}

/// The regex crate's defaults (Unicode, UTF-8), with our nesting limit.
fn syntax_config() -> syntax::Config {
    syntax::Config::new().nest_limit(NEST_LIMIT)
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.inner.source)
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

fn explain_build_error(e: &thompson::BuildError) -> PatternError {
    match e.size_limit() {
        Some(limit) => PatternError {
            message: format!("regex compiles to more than {limit} bytes"),
            help: Some("split it into several hooks or simplify repetitions like `{1000}`".into()),
        },
        None => PatternError {
            message: format!("invalid regex: {}", first_line(&e.to_string())),
            help: None,
        },
    }
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
