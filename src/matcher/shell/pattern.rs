//! Bash patterns (`*`, `?`, `[...]`) as the parameter-expansion operators use them:
//! `${x#p}`, `${x%%p}`, `${x/p/r}`. Matching is O(text × pattern) with no backtracking
//! blow-up; values longer than a bound are left unknown.

use brush_parser::word::SubstringMatchKind;

use super::expand::Trim;

/// Longest value the operators are applied to.
const MAX_TEXT: usize = 4096;

/// `text` with the part `kind` names removed, if `pattern` can be read.
pub(super) fn trim(text: &str, pattern: &str, kind: Trim) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() > MAX_TEXT {
        return None;
    }
    let pat = compile(pattern)?;
    let n = chars.len();
    let cut = match kind {
        Trim::SmallestPrefix => (0..=n)
            .find(|&k| matches(&pat, &chars[..k]))
            .map(|k| (k, n)),
        Trim::LargestPrefix => (0..=n)
            .rev()
            .find(|&k| matches(&pat, &chars[..k]))
            .map(|k| (k, n)),
        Trim::SmallestSuffix => (0..=n)
            .rev()
            .find(|&k| matches(&pat, &chars[k..]))
            .map(|k| (0, k)),
        Trim::LargestSuffix => (0..=n)
            .find(|&k| matches(&pat, &chars[k..]))
            .map(|k| (0, k)),
    };
    Some(match cut {
        Some((a, b)) => chars[a..b].iter().collect(),
        None => text.to_owned(),
    })
}

/// `text` with the longest match of `pattern` replaced as `kind` says.
pub(super) fn replace(
    text: &str,
    pattern: &str,
    with: &str,
    kind: SubstringMatchKind,
) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() > MAX_TEXT {
        return None;
    }
    // An empty pattern anchored at the start or the end matches there: `${x/#/pre}`
    // prepends, `${x/%/post}` appends; unanchored, it replaces nothing.
    if pattern.is_empty() {
        return Some(match kind {
            SubstringMatchKind::Prefix => format!("{with}{text}"),
            SubstringMatchKind::Suffix => format!("{text}{with}"),
            _ => text.to_owned(),
        });
    }
    let pat = compile(pattern)?;
    let n = chars.len();
    let longest_at = |start: usize| {
        (start..=n)
            .rev()
            .find(|&end| matches(&pat, &chars[start..end]))
    };
    let mut out = String::new();
    match kind {
        SubstringMatchKind::Prefix => match longest_at(0) {
            Some(end) => {
                out.push_str(with);
                out.extend(&chars[end..]);
            }
            None => return Some(text.to_owned()),
        },
        SubstringMatchKind::Suffix => match (0..=n).find(|&k| matches(&pat, &chars[k..])) {
            Some(k) => {
                out.extend(&chars[..k]);
                out.push_str(with);
            }
            None => return Some(text.to_owned()),
        },
        SubstringMatchKind::FirstOccurrence | SubstringMatchKind::Anywhere => {
            let all = matches!(kind, SubstringMatchKind::Anywhere);
            let mut i = 0;
            let mut replaced = false;
            while i < n {
                if (all || !replaced)
                    && let Some(end) = longest_at(i).filter(|&e| e > i)
                {
                    out.push_str(with);
                    i = end;
                    replaced = true;
                    continue;
                }
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    Some(out)
}

#[derive(Debug, Clone)]
enum Tok {
    Char(char),
    Any,
    Star,
    Class(Vec<(char, char)>, bool),
}

/// Whether `pattern` matches all of `text` (as `find -name` and `case` match); `None` when
/// the pattern or the text is past what is modelled.
pub(super) fn is_match(text: &str, pattern: &str) -> Option<bool> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() > MAX_TEXT {
        return None;
    }
    Some(matches(&compile(pattern)?, &chars))
}

fn compile(pattern: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = pattern.chars().collect();
    if chars.len() > MAX_TEXT {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' => out.push(Tok::Star),
            '?' => out.push(Tok::Any),
            '\\' => {
                i += 1;
                out.push(Tok::Char(*chars.get(i)?));
            }
            '[' => {
                let mut j = i + 1;
                let negate = matches!(chars.get(j), Some('!' | '^'));
                if negate {
                    j += 1;
                }
                let mut ranges = Vec::new();
                let mut first = true;
                while j < chars.len() && (first || chars[j] != ']') {
                    first = false;
                    if chars[j] == '[' && chars.get(j + 1) == Some(&':') {
                        // Character classes are not modelled.
                        return None;
                    }
                    if chars.get(j + 1) == Some(&'-') && chars.get(j + 2).is_some_and(|c| *c != ']')
                    {
                        ranges.push((chars[j], chars[j + 2]));
                        j += 3;
                    } else {
                        ranges.push((chars[j], chars[j]));
                        j += 1;
                    }
                }
                if j >= chars.len() {
                    out.push(Tok::Char('['));
                } else {
                    out.push(Tok::Class(ranges, negate));
                    i = j;
                }
            }
            '(' if i > 0 && matches!(chars[i - 1], '@' | '!' | '+') => return None,
            c => out.push(Tok::Char(c)),
        }
        i += 1;
    }
    Some(out)
}

fn one(tok: &Tok, c: char) -> bool {
    match tok {
        Tok::Char(x) => *x == c,
        Tok::Any => true,
        Tok::Star => false,
        Tok::Class(ranges, negate) => ranges.iter().any(|(a, b)| (*a..=*b).contains(&c)) != *negate,
    }
}

/// Whether `pat` matches all of `text`: the classic two-pointer wildcard match.
fn matches(pat: &[Tok], text: &[char]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pat.len() && !matches!(pat[p], Tok::Star) && one(&pat[p], text[t]) {
            p += 1;
            t += 1;
        } else if p < pat.len() && matches!(pat[p], Tok::Star) {
            star = Some((p, t));
            p += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pat[p..].iter().all(|x| matches!(x, Tok::Star))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_names_match_like_find_name() {
        assert_eq!(is_match(".", "*.o"), Some(false));
        assert_eq!(is_match("main.o", "*.o"), Some(true));
        assert_eq!(is_match("__pycache__", "__pycache__"), Some(true));
        assert_eq!(is_match("build", "[bd]uild"), Some(true));
        assert_eq!(is_match("x", "[[:alpha:]]"), None);
    }

    #[test]
    fn trims_and_replaces_like_bash() {
        assert_eq!(
            trim("path/to/file.tar.gz", "*.", Trim::SmallestPrefix).as_deref(),
            Some("tar.gz")
        );
        assert_eq!(
            trim("path/to/file.tar.gz", "*.", Trim::LargestPrefix).as_deref(),
            Some("gz")
        );
        assert_eq!(
            trim("path/to/file.tar.gz", ".*", Trim::SmallestSuffix).as_deref(),
            Some("path/to/file.tar")
        );
        assert_eq!(
            trim("path/to/file.tar.gz", ".*", Trim::LargestSuffix).as_deref(),
            Some("path/to/file")
        );
        assert_eq!(
            replace("xrmx", "x", "", SubstringMatchKind::Anywhere).as_deref(),
            Some("rm")
        );
        assert_eq!(
            replace("a-b-c", "-", "+", SubstringMatchKind::FirstOccurrence).as_deref(),
            Some("a+b-c")
        );
        assert_eq!(
            replace("abc", "[ab]", "", SubstringMatchKind::Anywhere).as_deref(),
            Some("c")
        );
    }
}
