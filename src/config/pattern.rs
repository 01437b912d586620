//! User regexes: checked at load, with size and nesting limits, and with errors that explain
//! the JavaScript constructs (look-around, backreferences) the Rust dialect lacks. A
//! [`Regex`] is the checked text; `matcher::Pattern` is what matches, built from it.
//!
//! A compiled matcher costs 3 to 160 µs and 2 to 30 KiB per pattern, and the pattern index
//! (`matcher::PatternIndex`) runs only the patterns whose literals a subject contains, so
//! most patterns of a large policy never run. Loading therefore checks each pattern by a
//! bound over its syntax tree or, when that cannot tell, by compiling its automaton within
//! the size limit and dropping it (3 to 30 µs); the matcher is built on first use.

mod floor;

use std::fmt;
use std::sync::Arc;

use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::syntax;
use regex_syntax::ast::ErrorKind as AstErrorKind;
use regex_syntax::hir::{Class, Hir, HirKind};
use regex_syntax::utf8::Utf8Sequences;

/// Compiled-program size limit for one pattern (bytes of the compiled automaton).
pub(crate) const SIZE_LIMIT: usize = 1 << 20;
/// Deepest nesting of groups and repetitions in one pattern.
const NEST_LIMIT: u32 = 64;
/// Longest pattern text accepted.
const MAX_PATTERN_LEN: usize = 4096;

/// A regex from a policy file, as written, checked within the limits: plain data that
/// `matcher::Pattern` compiles.
#[derive(Clone, PartialEq, Eq)]
pub struct Regex {
    source: Arc<str>,
}

impl Regex {
    /// Checks `source` within the limits.
    pub fn new(source: &str) -> Result<Regex, PatternError> {
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
        let ast = parser.parse(source).map_err(|e| explain_ast_error(&e))?;
        // Most patterns are provably far under the size limit, which a bound over their
        // syntax tree shows without building them. (Building them was a fifth of a one-shot
        // `hookgate check`.) A pattern that fails to translate, or whose bound is over the
        // limit, is built, so every error and every rejection is the automaton's own.
        let hir = regex_syntax::hir::translate::Translator::new().translate(source, &ast);
        // And some are provably far over it: a build that runs to the limit costs about
        // 10 ms, which thousands of such patterns would make minutes.
        if hir.as_ref().is_ok_and(|hir| floor::floor(hir) > SIZE_LIMIT) {
            return Err(over_size_limit(SIZE_LIMIT));
        }
        let small = hir.is_ok_and(|hir| automaton_bound(&hir) <= SIZE_LIMIT);
        if small {
            return Ok(Regex {
                source: Arc::from(source),
            });
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
        Ok(Regex {
            source: Arc::from(source),
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }
}

/// An upper bound of the bytes the forward automaton of `hir` takes, from its syntax tree.
/// Generous on purpose: it only decides whether building the automaton can be skipped.
fn automaton_bound(hir: &Hir) -> usize {
    /// Bytes per state, with its transitions; the automaton's run under 40.
    const STATE_BYTES: usize = 64;
    /// Tables every automaton has (byte classes, start states, look-around sets).
    const FIXED_BYTES: usize = 8 * 1024;
    states(hir)
        .saturating_mul(STATE_BYTES)
        .saturating_add(FIXED_BYTES)
}

fn states(hir: &Hir) -> usize {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => 1,
        HirKind::Literal(literal) => literal.0.len() + 1,
        HirKind::Class(Class::Bytes(class)) => class.ranges().len() + 1,
        // Each range becomes UTF-8 byte sequences of up to 4 bytes, a state per byte at
        // most (the automaton shares common prefixes and suffixes, so it has fewer).
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|r| 4 * Utf8Sequences::new(r.start(), r.end()).count())
            .fold(1, usize::saturating_add),
        HirKind::Repetition(rep) => {
            // Unrolled into as many copies as the larger count, plus one for a loop.
            let copies = rep.max.unwrap_or(rep.min).max(rep.min) as usize + 1;
            states(&rep.sub).saturating_mul(copies).saturating_add(1)
        }
        HirKind::Capture(capture) => states(&capture.sub).saturating_add(2),
        HirKind::Concat(items) | HirKind::Alternation(items) => items
            .iter()
            .map(states)
            .fold(items.len() + 1, usize::saturating_add),
    }
}

/// The regex crate's defaults (Unicode, UTF-8), with our nesting limit.
pub(crate) fn syntax_config() -> syntax::Config {
    syntax::Config::new().nest_limit(NEST_LIMIT)
}

impl fmt::Debug for Regex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Regex({:?})", self.source)
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

fn over_size_limit(limit: usize) -> PatternError {
    PatternError {
        message: format!("regex compiles to more than {limit} bytes"),
        help: Some("split it into several hooks or simplify repetitions like `{1000}`".into()),
    }
}

fn explain_build_error(e: &thompson::BuildError) -> PatternError {
    match e.size_limit() {
        Some(limit) => over_size_limit(limit),
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
    fn look_around_and_backreferences_are_explained() {
        let e = Regex::new("rm(?!\\s+-i)").unwrap_err();
        assert!(e.message.contains("look-around"), "{e:?}");
        assert!(e.help.is_some());
        let e = Regex::new("(a)\\1").unwrap_err();
        assert!(e.message.contains("backreference"), "{e:?}");
    }

    #[test]
    fn oversized_patterns_are_rejected() {
        assert!(
            Regex::new("a{1000}{1000}")
                .unwrap_err()
                .message
                .contains("more than")
        );
        let deep = format!("{}a{}", "(".repeat(100), ")".repeat(100));
        assert!(Regex::new(&deep).unwrap_err().message.contains("nests"));
        assert!(
            Regex::new(&"a".repeat(5000))
                .unwrap_err()
                .message
                .contains("limit")
        );
    }

    /// The bound that lets loading skip building a pattern must hold: it is never below the
    /// size of the automaton it stands for.
    #[test]
    fn the_size_bound_is_never_below_the_built_automaton() {
        let patterns = [
            r"rm\s+-rf",
            r"\brm\s+(?:-\S+\s+)*-[a-zA-Z]*[rRf]|\brm\s+--(?:recursive|force)",
            r"(?:^|/)\.(?:ssh|aws|gnupg|kube|docker|azure)/?$",
            r"^(?:of=)?/dev/(?:[shv]d[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d)",
            r"\w{50}",
            r"(?i)[a-zé]{20}straße",
            r"[^a]{30}",
            r"\S+\s+\S+",
            r".{100}",
            r"\pL{10}\p{Greek}+",
            r"(a|b|c){200}",
            r"(?i)ignore (all )?previous instructions",
            r"[\u{80}-\u{10FFFF}]{8}",
            r"\d{3}-\d{4}",
            "",
        ];
        for source in patterns {
            let hir = regex_syntax::ParserBuilder::new()
                .build()
                .parse(source)
                .expect("parses");
            let nfa = thompson::Compiler::new()
                .configure(thompson::Config::new().which_captures(WhichCaptures::None))
                .build(source)
                .expect("builds");
            assert!(
                automaton_bound(&hir) >= nfa.memory_usage(),
                "{source}: bound {} < {}",
                automaton_bound(&hir),
                nfa.memory_usage()
            );
        }
    }

    #[test]
    fn plain_syntax_errors_are_reported() {
        let e = Regex::new("rm (").unwrap_err();
        assert!(e.message.starts_with("invalid regex"), "{e:?}");
    }
}
