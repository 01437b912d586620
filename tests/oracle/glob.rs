//! Glob matching for predicted words, over one string and over a sequence of arguments.
//!
//! A predicted word with `*`, `?` or `[` (a glob the shell expands) or the reader's
//! `$(...)` placeholder (output it cannot know) may stand for zero or more real arguments,
//! each of which it could have produced. The match is deliberately generous: `*` also
//! matches `/` and a leading dot. Over-prediction only costs the reader false positives;
//! the oracle looks for what the reader did not predict at all.

use hookgate::shell::SUBSTITUTION;

/// Whether `word` may stand for other text: glob characters or the placeholder.
pub fn is_wild(word: &str) -> bool {
    word.contains(['*', '?', '[']) || word.contains(SUBSTITUTION)
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Char(char),
    /// `*` or `$(...)`: any text.
    Any,
    /// `?`: one character.
    One,
    /// `[...]`: one character in (or, negated, not in) the set.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
        /// A `[:name:]` class: taken as matching any character.
        named: bool,
    },
}

fn tokens(pattern: &str) -> Vec<Token> {
    let chars: Vec<char> = pattern.chars().collect();
    let placeholder: Vec<char> = SUBSTITUTION.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i..].starts_with(&placeholder) {
            out.push(Token::Any);
            i += placeholder.len();
            continue;
        }
        // `**/` (a path at any depth, as the code reader writes a recursive listing) may
        // also be no directory at all.
        if chars[i..].starts_with(&['*', '*', '/']) {
            out.push(Token::Any);
            i += 3;
            continue;
        }
        match chars[i] {
            '*' => out.push(Token::Any),
            '?' => out.push(Token::One),
            '[' => {
                if let Some((class, next)) = class(&chars, i) {
                    out.push(class);
                    i = next;
                    continue;
                }
                out.push(Token::Char('['));
            }
            c => out.push(Token::Char(c)),
        }
        i += 1;
    }
    out
}

/// The class opening at `chars[start] == '['`, and the index after its `]`; `None` if it
/// is not closed (then the `[` is a plain character, as in bash).
fn class(chars: &[char], start: usize) -> Option<(Token, usize)> {
    let mut i = start + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut named = false;
    let mut first = true;
    while i < chars.len() {
        let c = chars[i];
        if c == ']' && !first {
            return Some((
                Token::Class {
                    negated,
                    ranges,
                    named,
                },
                i + 1,
            ));
        }
        first = false;
        if c == '[' && chars.get(i + 1) == Some(&':') {
            // `[:alpha:]` and the like, skipped whole.
            let close = (i + 2..chars.len().saturating_sub(1))
                .find(|&j| chars[j] == ':' && chars[j + 1] == ']');
            if let Some(close) = close {
                named = true;
                i = close + 2;
                continue;
            }
        }
        if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|e| *e != ']') {
            ranges.push((c, chars[i + 2]));
            i += 3;
        } else {
            ranges.push((c, c));
            i += 1;
        }
    }
    None
}

fn one(token: &Token, c: char) -> bool {
    match token {
        Token::Char(x) => *x == c,
        Token::One => true,
        Token::Any => true,
        Token::Class {
            negated,
            ranges,
            named,
        } => *named || ranges.iter().any(|(a, b)| (*a..=*b).contains(&c)) != *negated,
    }
}

/// Whether `text` is something `pattern` could expand to (or `pattern` itself, literally).
pub fn matches(pattern: &str, text: &str) -> bool {
    if pattern == text {
        return true;
    }
    // As bash's `globstar`: `**/` may also stand for no directory (`d/**/*.o` names
    // `d/a.o`). Each is tried both ways; patterns hold few.
    if let Some(at) = pattern.find("**/") {
        let without = format!("{}{}", &pattern[..at], &pattern[at + 3..]);
        if matches(&without, text) {
            return true;
        }
    }
    let p = tokens(pattern);
    let t: Vec<char> = text.chars().collect();
    // The classic matcher with one remembered star: O(len(p) * len(t)) at worst.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some(Token::Any) => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(tok) if one(tok, t[ti]) => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|tok| *tok == Token::Any)
}

/// One predicted argument, as the sequence matcher sees it.
pub enum Item<'a> {
    /// Exactly one argument, equal to one of these texts.
    Exact(&'a [String]),
    /// Zero or more arguments, each matching one of these patterns.
    Wild(&'a [String]),
}

/// Whether `actual` can be split so that each predicted item takes its share: an exact item
/// one argument, a wild item any number. Linear in `actual` times the predicted items.
pub fn sequence(predicted: &[Item<'_>], actual: &[String]) -> bool {
    let m = predicted.len();
    let mut reach = vec![false; m + 1];
    reach[0] = true;
    close(predicted, &mut reach);
    for arg in actual {
        let mut next = vec![false; m + 1];
        for (i, item) in predicted.iter().enumerate() {
            if !reach[i] {
                continue;
            }
            match item {
                Item::Exact(texts) if texts.iter().any(|t| t == arg) => next[i + 1] = true,
                Item::Wild(patterns) if patterns.iter().any(|p| matches(p, arg)) => {
                    next[i] = true;
                }
                _ => {}
            }
        }
        close(predicted, &mut next);
        if !next.iter().any(|r| *r) {
            return false;
        }
        reach = next;
    }
    reach[m]
}

/// A wild item may take nothing: reaching it reaches the item after it.
fn close(predicted: &[Item<'_>], reach: &mut [bool]) {
    for (i, item) in predicted.iter().enumerate() {
        if reach[i] && matches!(item, Item::Wild(_)) {
            reach[i + 1] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_like_the_shell_but_more_generously() {
        assert!(matches("*.rs", "main.rs"));
        assert!(matches("build/**/*.o", "build/a.o"));
        assert!(matches("build/**/*.o", "build/x/y/a.o"));
        assert!(!matches("build/**/*.o", "src/a.o"));
        assert!(matches("/home/agent/.ssh/id*", "/home/agent/.ssh/id_rsa"));
        assert!(matches(".en?", ".env"));
        assert!(matches("[abc].txt", "b.txt"));
        assert!(matches("[!abc].txt", "d.txt"));
        assert!(!matches("[!abc].txt", "a.txt"));
        assert!(matches("/???/r?", "/bin/rm"));
        assert!(matches("--file=$(...)", "--file=x"));
        assert!(matches(".items[]", ".items[]"));
        assert!(!matches("*.rs", "main.py"));
        assert!(matches("[[:alpha:]]x", "ax"));
        assert!(matches("build/**/*.o", "build/output.o"));
        assert!(matches("build/**/*.o", "build/a/b/c.o"));
        assert!(!matches("build/**/*.o", "src/a.o"));
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| (*x).to_owned()).collect()
    }

    #[test]
    fn a_wild_word_stands_for_any_number_of_arguments() {
        let rf = s(&["-rf"]);
        let star = s(&["*"]);
        let items = [Item::Exact(&rf), Item::Wild(&star)];
        assert!(sequence(&items, &s(&["-rf"])));
        assert!(sequence(&items, &s(&["-rf", "a", "b", "c"])));
        assert!(!sequence(&items, &s(&["-fr", "a"])));
        let sub = s(&["$(...)"]);
        let tail = s(&["/"]);
        let items = [Item::Wild(&sub), Item::Exact(&tail)];
        assert!(sequence(&items, &s(&["-r", "-f", "/"])));
        assert!(!sequence(&items, &s(&["-r", "-f"])));
    }
}
