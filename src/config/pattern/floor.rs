//! A lower bound of a pattern's compiled size, to turn away a pattern that is certainly over
//! the size limit without building it.
//!
//! Building a pattern's automaton is the exact check, but one that runs up to the limit
//! costs about 10 ms (its Unicode classes are compiled again for every copy a repetition
//! makes), and a policy can hold thousands of them: 5,000 took 48 s to validate. The
//! floor counts only what the compiler certainly builds: every copy of a repeated part, and
//! each large Unicode class at the size it compiles to on its own (the compiler shares no
//! states between two occurrences of a class). Everything else counts nothing.

use std::cell::RefCell;
use std::collections::HashMap;

use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_syntax::hir::{Class, ClassUnicode, Hir, HirKind};

/// Classes with fewer ranges count nothing (they compile small, and measuring costs).
const MEASURED_RANGES: usize = 8;
/// Most class sizes remembered per thread.
const MEMO: usize = 256;

/// Bytes the forward automaton of `hir` takes at least (without captures).
pub(super) fn floor(hir: &Hir) -> usize {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) | HirKind::Literal(_) => 0,
        HirKind::Class(Class::Bytes(_)) => 0,
        HirKind::Class(Class::Unicode(class)) => class_size(class),
        HirKind::Repetition(rep) => {
            // The compiler writes out `min` copies, then one per optional repeat up to
            // `max`; an unbounded tail is one more copy, in a loop.
            let copies = match rep.max {
                Some(0) => 0,
                Some(max) => max.max(rep.min),
                None => rep.min.max(1),
            };
            floor(&rep.sub).saturating_mul(copies as usize)
        }
        HirKind::Capture(capture) => floor(&capture.sub),
        HirKind::Concat(items) | HirKind::Alternation(items) => {
            items.iter().map(floor).fold(0, usize::saturating_add)
        }
    }
}

/// What `class` alone compiles to, beyond an empty automaton; remembered per thread.
fn class_size(class: &ClassUnicode) -> usize {
    if class.ranges().len() < MEASURED_RANGES {
        return 0;
    }
    thread_local! {
        static SIZES: RefCell<HashMap<Vec<(char, char)>, usize>> = RefCell::new(HashMap::new());
    }
    let key: Vec<(char, char)> = class
        .ranges()
        .iter()
        .map(|r| (r.start(), r.end()))
        .collect();
    if let Some(size) = SIZES.with(|sizes| sizes.borrow().get(&key).copied()) {
        return size;
    }
    let size = compiled(&Hir::class(Class::Unicode(class.clone())))
        .saturating_sub(compiled(&Hir::empty()));
    SIZES.with(|sizes| {
        let mut sizes = sizes.borrow_mut();
        if sizes.len() >= MEMO {
            sizes.clear();
        }
        sizes.insert(key, size);
    });
    size
}

/// The size of `hir`'s automaton; 0 if it does not build (then it bounds nothing).
fn compiled(hir: &Hir) -> usize {
    thompson::Compiler::new()
        .configure(thompson::Config::new().which_captures(WhichCaptures::None))
        .build_from_hir(hir)
        .map_or(0, |nfa| nfa.memory_usage())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hir(source: &str) -> Hir {
        regex_syntax::ParserBuilder::new()
            .build()
            .parse(source)
            .expect("parses")
    }

    /// The floor must never be above the automaton it stands for, or a pattern under the
    /// limit could be turned away.
    #[test]
    fn the_floor_is_never_above_the_built_automaton() {
        let patterns = [
            r"\w",
            r"\w{3}",
            r"\w{1,40}",
            r"(\w+-)+\w{3}7$",
            r"(\w{1,10}\s*){10}x",
            r"\pL{10}\p{Greek}+",
            r"(?i)[a-zé]{20}straße",
            r"[\u{80}-\u{10FFFF}]{8}",
            r"(\w|\d){0,5}\W?",
            r"(?:\s\S){7}",
            r"\w{0}\w*",
            r"rm\s+-rf",
            r"[^a]{30}",
            r"(a|aa)*(b|bb)*",
            "",
        ];
        for source in patterns {
            let nfa = thompson::Compiler::new()
                .configure(
                    thompson::Config::new()
                        .which_captures(WhichCaptures::None)
                        .nfa_size_limit(None),
                )
                .build(source)
                .expect("builds");
            assert!(
                floor(&hir(source)) <= nfa.memory_usage(),
                "{source}: floor {} > {}",
                floor(&hir(source)),
                nfa.memory_usage()
            );
        }
    }

    #[test]
    fn a_repeated_unicode_class_is_counted_per_copy() {
        let one = floor(&hir(r"\w"));
        assert!(one > 0);
        assert_eq!(
            floor(&hir(r"(\w{1,100}\s*){100}")),
            floor(&hir(r"\s")) * 100 + one * 10_000
        );
    }
}
