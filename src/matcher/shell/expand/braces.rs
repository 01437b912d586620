//! Brace expansion (`{a,b}`, `{1..9}`), bounded in the words it makes.

use super::super::walk::Reader;
use super::{MAX_BASH_BRACE_WORDS, MAX_BRACE_WORDS};
use brush_parser::word;

impl Reader {
    /// `raw` after brace expansion, when it has a brace expression: `Some(None)` when it
    /// expands to more words than are read (or is over the parse budget, the line unreadable).
    pub(super) fn braces(&mut self, raw: &str) -> Option<Option<Vec<String>>> {
        if !raw.contains('{') {
            return None;
        }
        // brush-parser's brace grammar costs about 0.2 µs a byte.
        if !self.spend_parse(1 + raw.len() / 4) {
            return Some(None);
        }
        let parsed = word::parse_brace_expansions(raw, &self.options).ok()??;
        // bash builds every word in memory first (`echo {0..9999}{0..9999}{0..99}`).
        if words_of(&parsed) > MAX_BASH_BRACE_WORDS {
            self.unreadable_line(
                "a brace expression expands to more words than memory holds (a memory bomb)",
            );
            return Some(None);
        }
        let mut words = vec![String::new()];
        for piece in parsed {
            match piece {
                word::BraceExpressionOrText::Text(t) => {
                    for w in &mut words {
                        w.push_str(&t);
                    }
                }
                word::BraceExpressionOrText::Expr(members) => {
                    let mut alternatives = Vec::new();
                    for m in members {
                        let Some(texts) = brace_member(&m) else {
                            return Some(None);
                        };
                        alternatives.extend(texts);
                    }
                    let mut next = Vec::new();
                    for w in &words {
                        for a in &alternatives {
                            if next.len() >= MAX_BRACE_WORDS {
                                return Some(None);
                            }
                            let mut joined = String::with_capacity(w.len() + a.len());
                            joined.push_str(w);
                            joined.push_str(a);
                            next.push(joined);
                        }
                    }
                    words = next;
                }
            }
        }
        (words.len() != 1 || words[0] != raw).then_some(Some(words))
    }
}

/// How many words brace expansion makes of `parts` (saturating), without making them.
fn words_of(parts: &[word::BraceExpressionOrText]) -> u128 {
    use word::BraceExpressionMember as M;
    let sequence = |from: i64, to: i64, step: i64| {
        u128::from(from.abs_diff(to)) / u128::from(step.unsigned_abs().max(1)) + 1
    };
    parts.iter().fold(1u128, |total, part| match part {
        word::BraceExpressionOrText::Text(_) => total,
        word::BraceExpressionOrText::Expr(members) => {
            let alternatives = members.iter().fold(0u128, |sum, m| {
                sum.saturating_add(match m {
                    M::Child(inner) => words_of(inner),
                    M::NumberSequence {
                        start,
                        end,
                        increment,
                    } => sequence(*start, *end, *increment),
                    M::CharSequence {
                        start,
                        end,
                        increment,
                    } => sequence(i64::from(*start as u32), i64::from(*end as u32), *increment),
                })
            });
            total.saturating_mul(alternatives)
        }
    })
}

/// The texts one brace member stands for (`a`, or `1..3` → 1 2 3), bounded.
fn brace_member(m: &word::BraceExpressionMember) -> Option<Vec<String>> {
    use word::BraceExpressionMember as M;
    match m {
        M::Child(parts) => {
            let mut words = vec![String::new()];
            for p in parts {
                match p {
                    word::BraceExpressionOrText::Text(t) => {
                        for w in &mut words {
                            w.push_str(t);
                        }
                    }
                    word::BraceExpressionOrText::Expr(members) => {
                        let mut alternatives = Vec::new();
                        for m in members {
                            alternatives.extend(brace_member(m)?);
                        }
                        let mut next = Vec::new();
                        for w in &words {
                            for a in &alternatives {
                                let mut joined = String::with_capacity(w.len() + a.len());
                                joined.push_str(w);
                                joined.push_str(a);
                                next.push(joined);
                            }
                        }
                        if next.len() > MAX_BRACE_WORDS {
                            return None;
                        }
                        words = next;
                    }
                }
            }
            Some(words)
        }
        M::NumberSequence {
            start,
            end,
            increment,
        } => {
            let step = increment.unsigned_abs().max(1) as usize;
            let count = (start.abs_diff(*end) as usize) / step + 1;
            if count > MAX_BRACE_WORDS {
                return None;
            }
            let up = start <= end;
            Some(
                (0..count)
                    .map(|k| {
                        let k = (k * step) as i64;
                        (if up { start + k } else { start - k }).to_string()
                    })
                    .collect(),
            )
        }
        M::CharSequence {
            start,
            end,
            increment,
        } => {
            let (a, z) = (*start as u32, *end as u32);
            let step = increment.unsigned_abs().max(1) as usize;
            let count = (a.abs_diff(z) as usize) / step + 1;
            if count > MAX_BRACE_WORDS {
                return None;
            }
            Some(
                (0..count)
                    .filter_map(|k| {
                        let k = (k * step) as u32;
                        char::from_u32(if a <= z { a + k } else { a - k }).map(String::from)
                    })
                    .collect(),
            )
        }
    }
}
