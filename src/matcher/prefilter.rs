//! One pass over a subject for all the patterns of a policy, instead of one regex per hook.
//!
//! Each pattern is reduced to literals that any match must start or end with (from the regex
//! syntax tree). One Aho-Corasick automaton over all of them finds, in a single scan, the
//! few patterns that could match; only those run their own regex to confirm. A pattern with
//! no usable literal (`.`, `\w+`) is confirmed on every subject.
//!
//! A single `RegexSet` over all the patterns was measured first: fine at 1,000 patterns
//! (about 0.7 µs a pass), but at 10,000 its lazy DFA outgrows its cache and a pass costs
//! 0.1 to 5 ms. The literal scan stays under 1 µs at 10,000 (docs/performance.md).

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, MatchKind};
use regex_syntax::hir::literal::{ExtractKind, Extractor, Seq};
use smallvec::SmallVec;

use super::Deadline;
use super::Pattern;

/// Positions (in [`PatternIndex`] order) of the patterns that matched a subject, ascending.
/// Inline up to 8, which covers every realistic call; more spill to the heap.
pub(crate) type Hits = SmallVec<[u32; 8]>;

/// The distinct patterns of one subject kind (command subjects, session keys), indexed by
/// their literals.
#[derive(Debug, Clone, Default)]
pub struct PatternIndex {
    patterns: Vec<Pattern>,
    /// Over the literals of the patterns that have usable ones.
    scanner: Option<AhoCorasick>,
    /// For each literal of `scanner`, the patterns it stands for.
    owners: Vec<SmallVec<[u32; 1]>>,
    /// Patterns without usable literals: confirmed on every subject.
    unindexed: Vec<u32>,
}

impl PatternIndex {
    /// Indexes `patterns` (distinct by source); their positions are their ids.
    pub fn new(patterns: Vec<Pattern>) -> PatternIndex {
        let extracted: Vec<Option<[Seq; 2]>> =
            patterns.iter().map(|p| literals(p.as_str())).collect();
        // How many patterns could use each literal: a literal many patterns share ("--force")
        // would make all of them candidates whenever it appears.
        let mut sharing: HashMap<&[u8], u32> = HashMap::new();
        for seqs in extracted.iter().flatten() {
            for seq in seqs {
                for lit in seq.literals().into_iter().flatten() {
                    *sharing.entry(lit.as_bytes()).or_default() += 1;
                }
            }
        }
        let mut literal_ids: HashMap<Vec<u8>, u32> = HashMap::new();
        let mut owners: Vec<SmallVec<[u32; 1]>> = Vec::new();
        let mut unindexed = Vec::new();
        for (id, seqs) in extracted.iter().enumerate() {
            // INVARIANT: a policy has far fewer than 2^32 patterns (the file budget bounds it).
            let id = id as u32;
            let Some(best) = seqs.as_ref().and_then(|s| most_selective(s, &sharing)) else {
                unindexed.push(id);
                continue;
            };
            for lit in best.literals().into_iter().flatten() {
                let next = owners.len() as u32;
                let slot = *literal_ids.entry(lit.as_bytes().to_vec()).or_insert(next);
                if slot == next {
                    owners.push(SmallVec::new());
                }
                let list = &mut owners[slot as usize];
                if list.last() != Some(&id) {
                    list.push(id);
                }
            }
        }
        let mut literals: Vec<(Vec<u8>, u32)> = literal_ids.into_iter().collect();
        literals.sort_by_key(|(_, slot)| *slot);
        let scanner = if literals.is_empty() {
            None
        } else {
            AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(literals.iter().map(|(l, _)| l))
                .ok()
        };
        if scanner.is_none() {
            // Without an automaton every pattern is confirmed directly.
            unindexed = (0..patterns.len() as u32).collect();
            owners.clear();
        }
        PatternIndex {
            patterns,
            scanner,
            owners,
            unindexed,
        }
    }

    /// Builds the matchers of the patterns that run on every subject (those without
    /// usable literals).
    pub fn warm_unindexed(&self) {
        for &id in &self.unindexed {
            if let Some(pattern) = self.patterns.get(id as usize) {
                pattern.warm();
            }
        }
    }

    /// Adds to `hits` the patterns that match `subject` and are not in it yet.
    pub fn add_hits(&self, subject: &str, hits: &mut Hits) {
        self.add_hits_until(subject, hits, &Deadline::none());
    }

    /// [`PatternIndex::add_hits`], one step of `deadline` per pattern run: `false` when it
    /// stopped at the bound, and `hits` may then miss some.
    pub fn add_hits_until(&self, subject: &str, hits: &mut Hits, deadline: &Deadline) -> bool {
        if let Some(scanner) = &self.scanner {
            // A literal may occur thousands of times (`(` in 64 KiB of code); each pattern
            // is run over the subject once, not once per occurrence, or the work would
            // grow with the square of the subject.
            let mut tried = Hits::new();
            for found in scanner.find_overlapping_iter(subject) {
                let Some(owners) = self.owners.get(found.pattern().as_usize()) else {
                    continue;
                };
                for &id in owners {
                    let Err(at) = tried.binary_search(&id) else {
                        continue;
                    };
                    tried.insert(at, id);
                    if !deadline.step() {
                        return false;
                    }
                    self.confirm(id, subject, hits);
                }
            }
        }
        for &id in &self.unindexed {
            if !deadline.step() {
                return false;
            }
            self.confirm(id, subject, hits);
        }
        true
    }

    fn confirm(&self, id: u32, subject: &str, hits: &mut Hits) {
        let Err(at) = hits.binary_search(&id) else {
            return;
        };
        if self
            .patterns
            .get(id as usize)
            .is_some_and(|p| p.is_match(subject))
        {
            hits.insert(at, id);
        }
    }
}

/// The prefix and suffix literal sets of `source`: every match starts with one of the first
/// and ends with one of the second. `None` if the pattern does not parse here.
fn literals(source: &str) -> Option<[Seq; 2]> {
    // The same syntax the regex was compiled with (Unicode on, case-sensitive by default);
    // flags inside the pattern, like `(?i)`, are honoured by the extractor.
    let hir = regex_syntax::ParserBuilder::new()
        .nest_limit(128)
        .build()
        .parse(source)
        .ok()?;
    let mut prefix = Extractor::new().kind(ExtractKind::Prefix).extract(&hir);
    prefix.optimize_for_prefix_by_preference();
    let mut suffix = Extractor::new().kind(ExtractKind::Suffix).extract(&hir);
    suffix.optimize_for_suffix_by_preference();
    Some([prefix, suffix])
}

/// Of the prefix and suffix sets, the one whose most shared literal is shared least (then
/// whose shortest literal is longest); `None` when neither is a finite set of non-empty
/// literals.
fn most_selective<'s>(seqs: &'s [Seq; 2], sharing: &HashMap<&[u8], u32>) -> Option<&'s Seq> {
    seqs.iter()
        .filter_map(|seq| {
            let lits = seq.literals()?;
            let shortest = lits.iter().map(|l| l.as_bytes().len()).min()?;
            if shortest == 0 {
                return None;
            }
            let shared = lits
                .iter()
                .map(|l| sharing.get(l.as_bytes()).copied().unwrap_or(0))
                .max()
                .unwrap_or(0);
            Some((seq, shared, shortest))
        })
        .min_by_key(|&(_, shared, shortest)| (shared, std::cmp::Reverse(shortest)))
        .map(|(seq, _, _)| seq)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(sources: &[&str]) -> PatternIndex {
        PatternIndex::new(
            sources
                .iter()
                .map(|s| Pattern::new(s).expect("pattern"))
                .collect(),
        )
    }

    fn hits(index: &PatternIndex, subject: &str) -> Vec<u32> {
        let mut hits = Hits::new();
        index.add_hits(subject, &mut hits);
        hits.to_vec()
    }

    #[test]
    fn hits_are_exactly_the_patterns_that_match() {
        let sources = [
            r"^cmd1\s+--force\b",
            r"^cmd10\s+--force\b",
            r"\bshred\s",
            r"(?i)RM\s+-rf",
            r"\w+\.env$",
            r".",
            r"curl\s+\S*host3\.example\.com",
            r"^$",
        ];
        let index = index(&sources);
        let subjects = [
            "cmd10 --force",
            "cmd1 --force",
            "shred -u x",
            "rm -rf /",
            "cat prod.env",
            "curl -s https://host3.example.com/x",
            "",
            "ls",
        ];
        for subject in subjects {
            let want: Vec<u32> = sources
                .iter()
                .enumerate()
                .filter(|(_, s)| Pattern::new(s).expect("pattern").is_match(subject))
                .map(|(i, _)| i as u32)
                .collect();
            assert_eq!(hits(&index, subject), want, "{subject:?}");
        }
    }

    #[test]
    fn a_pattern_is_run_once_however_often_its_literal_occurs() {
        // `\s` makes the literal inexact: every `(` is a candidate, and none matches.
        let index = index(&[r"\(\s*\)\s*\{"]);
        let subject = "(1) ".repeat(16_000);
        let deadline = Deadline::steps(2);
        let mut hits = Hits::new();
        assert!(index.add_hits_until(&subject, &mut hits, &deadline));
        assert!(hits.is_empty());
    }

    #[test]
    fn patterns_without_literals_are_confirmed_on_every_subject() {
        let index = index(&[r"\w+", r"[0-9]{3}", "deploy"]);
        assert_eq!(index.unindexed, [0]);
        assert_eq!(hits(&index, "deploy 123"), [0, 1, 2]);
        assert_eq!(hits(&index, "!!"), Vec::<u32>::new());
    }

    #[test]
    fn a_shared_literal_is_avoided_when_a_rarer_one_exists() {
        let index = index(&[r"^cmd1\s+--force", r"^cmd2\s+--force", r"^cmd3\s+--force"]);
        // Each pattern is indexed by its own prefix, not by the shared "--force".
        assert_eq!(index.owners.len(), 3);
        assert_eq!(hits(&index, "ls --force"), Vec::<u32>::new());
        assert_eq!(hits(&index, "cmd2 --force"), [1]);
    }

    #[test]
    fn hits_accumulate_over_several_subjects_without_duplicates() {
        let index = index(&["rm", "dd"]);
        let mut hits = Hits::new();
        index.add_hits("rm x", &mut hits);
        index.add_hits("dd rm", &mut hits);
        assert_eq!(hits.to_vec(), [0, 1]);
    }
}
