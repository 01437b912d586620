//! A policy regex compiled for matching: built the first time it is asked, shared by every
//! clone (the hook's filter and the pattern index hold the same one).

use std::fmt;
use std::sync::{Arc, OnceLock};

use regex_automata::meta;
use regex_automata::nfa::thompson::WhichCaptures;

use crate::config::Regex;
use crate::config::pattern::{SIZE_LIMIT, syntax_config};

/// A [`Regex`] for matching. Clones share the compiled matcher.
#[derive(Clone)]
pub struct Pattern {
    inner: Arc<Inner>,
}

struct Inner {
    regex: Regex,
    /// `None` once a build failed (see [`Pattern::is_match`]).
    compiled: OnceLock<Option<meta::Regex>>,
}

impl Pattern {
    /// The matcher of `regex`, not built yet.
    pub(crate) fn compile(regex: &Regex) -> Pattern {
        Pattern {
            inner: Arc::new(Inner {
                regex: regex.clone(),
                compiled: OnceLock::new(),
            }),
        }
    }

    /// Checks `source` as a policy's pattern is checked, and compiles it.
    #[cfg(test)]
    pub(crate) fn new(source: &str) -> Result<Pattern, crate::config::PatternError> {
        Regex::new(source).map(|r| Pattern::compile(&r))
    }

    /// The pattern as written.
    pub(crate) fn as_str(&self) -> &str {
        self.inner.regex.as_str()
    }

    /// Whether the pattern matches anywhere in `haystack` (unanchored, like JavaScript's `test`).
    ///
    /// The first call builds the matcher. Its build was checked at load, with a stricter
    /// limit than this one; should it fail anyway, the pattern matches everything, so that a
    /// blocking hook fails closed, and the error is logged once.
    #[inline]
    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        match self.inner.compiled.get_or_init(|| self.build()) {
            Some(regex) => regex.is_match(haystack),
            None => true,
        }
    }

    /// Builds the matcher now, if it is not built yet, so that the first call to match
    /// does not pay for it.
    pub(crate) fn warm(&self) {
        self.inner.compiled.get_or_init(|| self.build());
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
            .build(self.as_str());
        match built {
            Ok(regex) => Some(regex),
            Err(error) => {
                tracing::error!(
                    pattern = %self.as_str(),
                    %error,
                    "a pattern that passed validation did not compile; it matches everything"
                );
                None
            }
        }
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.as_str())
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
    fn clones_share_one_matcher() {
        let p = Pattern::new("^rm\\s").expect("valid");
        let q = p.clone();
        p.warm();
        assert!(q.inner.compiled.get().is_some());
        assert!(q.is_match("rm -rf /") && !q.is_match("ls"));
    }
}
