//! The shell's pathname wildcards (`*`, `?`, `[...]`, `{a,b}`), matched against a literal
//! path without compiling anything: used on paths that arrive with each call.

/// Most alternatives a `{a,b}` list may expand to before the match gives up (no match).
const MAX_ALTERNATIVES: usize = 64;

/// Whether the shell would expand `pattern` to `path`: component by component, `*` and `?`
/// never cross `/`, and a leading `.` must be written (`*` does not name `.env`).
///
/// A `**` component stands for any number of directories, and the names after it may start
/// with a dot: that is what `find DIR -name P` finds, which the reader writes `DIR/**/P`. A
/// `**` a user writes is read the same way (bash's `globstar` with `dotglob`), which can
/// only name more files than bash would. Below the home directory or the root (`~/**`,
/// `/**`) `**` crosses hidden directories (`~/.aws`); below a relative start (`src/**`) it
/// does not, as a project's hidden directories (`.git`, `.venv`) hold no one's keys.
pub(crate) fn matches(pattern: &str, path: &str) -> bool {
    let mut budget = MAX_ALTERNATIVES;
    expand_braces(pattern, &mut budget, &mut |alternative| {
        if !alternative.contains("**") {
            // Component by component, with nothing to allocate: most patterns.
            let (mut pats, mut parts) = (alternative.split('/'), path.split('/'));
            loop {
                match (pats.next(), parts.next()) {
                    (None, None) => return true,
                    (Some(p), Some(t)) if component(p.as_bytes(), t.as_bytes(), false) => {}
                    _ => return false,
                }
            }
        }
        let pats: Vec<&str> = alternative.split('/').collect();
        let parts: Vec<&str> = path.split('/').collect();
        components(&pats, &parts)
    })
}

/// Most pattern-by-path component pairs a match with `**` compares; past it, the pattern
/// is taken to match (which only names more files).
const MAX_PAIRS: usize = 1 << 20;

/// Each pattern component against path components, `**` standing for any run of them: a
/// row of "matched so far" per pattern component, so the work is the product of the two
/// lengths, bounded by [`MAX_PAIRS`].
fn components(pats: &[&str], parts: &[&str]) -> bool {
    let deep_from = pats.iter().position(|c| *c == "**").unwrap_or(pats.len());
    if pats.len().saturating_mul(parts.len() + 1) > MAX_PAIRS {
        return true;
    }
    let relative = pats
        .first()
        .is_some_and(|c| !c.is_empty() && !c.starts_with('~'));
    let mut reach = vec![false; parts.len() + 1];
    reach[0] = true;
    let mut next = vec![false; parts.len() + 1];
    for (i, pat) in pats.iter().enumerate() {
        if *pat == "**" {
            next[0] = reach[0];
            for j in 1..=parts.len() {
                let crosses = !(relative && parts[j - 1].starts_with('.'));
                next[j] = reach[j] || (next[j - 1] && crosses);
            }
        } else {
            next[0] = false;
            for j in 1..=parts.len() {
                next[j] = reach[j - 1]
                    && component(pat.as_bytes(), parts[j - 1].as_bytes(), i > deep_from);
            }
        }
        std::mem::swap(&mut reach, &mut next);
    }
    reach[parts.len()]
}

/// Calls `each` on every expansion of the first `{a,b}` list (recursively); true if one
/// call is.
fn expand_braces(pattern: &str, budget: &mut usize, each: &mut dyn FnMut(&str) -> bool) -> bool {
    let Some(open) = pattern.find('{') else {
        return each(pattern);
    };
    let Some(len) = pattern[open..].find('}') else {
        return each(pattern);
    };
    let (head, body, tail) = (
        &pattern[..open],
        &pattern[open + 1..open + len],
        &pattern[open + len + 1..],
    );
    if !body.contains(',') || body.contains('{') {
        return each(pattern);
    }
    body.split(',').any(|item| {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        expand_braces(&format!("{head}{item}{tail}"), budget, each)
    })
}

/// One path component against one pattern component; with `dots`, a wildcard may match a
/// leading dot.
fn component(pattern: &[u8], text: &[u8], dots: bool) -> bool {
    if !dots && text.first() == Some(&b'.') && !matches!(pattern.first(), Some(b'.' | b'\\')) {
        return false;
    }
    // The classic iterative match: on a mismatch, retry from the last `*` one byte later.
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        let step = match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
                continue;
            }
            Some(b'?') => Some(1),
            Some(b'[') => match class(&pattern[p..], text[t]) {
                Some(width) => width,
                // Unterminated: a literal `[`.
                None => (text[t] == b'[').then_some(1),
            },
            Some(b'\\') if p + 1 < pattern.len() => (pattern[p + 1] == text[t]).then_some(2),
            Some(&c) => (c == text[t]).then_some(1),
            None => None,
        };
        match (step, star) {
            (Some(width), _) => {
                p += width;
                t += 1;
            }
            (None, Some((sp, st))) => {
                p = sp + 1;
                t = st + 1;
                star = Some((sp, st + 1));
            }
            (None, None) => return false,
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// For the class `[...]` opening `pattern`: its width in bytes if it holds `c`, `Some(None)`
/// if it does not, `None` if it is not terminated.
fn class(pattern: &[u8], c: u8) -> Option<Option<usize>> {
    let negated = matches!(pattern.get(1), Some(b'!' | b'^'));
    let start = if negated { 2 } else { 1 };
    // `]` right after the opening is a member, not the end.
    let end = start + 1 + pattern.get(start + 1..)?.iter().position(|&b| b == b']')?;
    let members = &pattern[start..end];
    let mut found = false;
    let mut i = 0;
    while i < members.len() {
        if i + 2 < members.len() && members[i + 1] == b'-' {
            found |= (members[i]..=members[i + 2]).contains(&c);
            i += 3;
        } else {
            found |= members[i] == c;
            i += 1;
        }
    }
    Some((found != negated).then_some(end + 1))
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn wildcards_stay_within_a_component() {
        for (pattern, path) in [
            ("~/.ssh/*", "~/.ssh/id_rsa"),
            ("~/.ss?/id*", "~/.ssh/id_ed25519"),
            ("/etc/sh[a-z]dow", "/etc/shadow"),
            ("/etc/sh[!x]dow", "/etc/shadow"),
            (".env*", ".env.local"),
            ("~/.{ssh,aws}/*", "~/.aws/credentials"),
            ("*a*b", "xaab"),
            ("\\*", "*"),
            ("a[", "a["),
            // `**`: any depth, hidden names included (what `find` finds).
            ("~/**/credentials", "~/.aws/credentials"),
            ("./**/*", "./.env"),
            ("~/**/*", "~/a/.git/config"),
            ("/p/**/destructive.yaml", "/p/policies/destructive.yaml"),
            ("/**/proj", "/root/proj"),
            ("./**/*.pyc", "./.x.pyc"),
            ("a/**/**/b", "a/b"),
        ] {
            assert!(matches(pattern, path), "{pattern} {path}");
        }
        for (pattern, path) in [
            ("~/*", "~/.env"),
            ("*", "a/b"),
            ("~/.ssh/*", "~/.ssh"),
            ("/etc/sh[!a]dow", "/etc/shadow"),
            ("*.txt", "notes.md"),
            ("a[", "ab"),
            ("./**/*.pyc", "./src/x.py"),
            ("./**/*", "."),
            ("~/**/credentials", "/etc/credentials"),
            // A relative start's hidden directories are not crossed.
            ("src/**/*.json", "src/.docker/config.json"),
            ("**/*.json", ".docker/config.json"),
        ] {
            assert!(!matches(pattern, path), "{pattern} {path}");
        }
        let many = "{a,b}".repeat(40);
        assert!(!matches(&many, "x"), "the expansion budget ends the search");
        let deep = "**/".repeat(400) + "x";
        let path = "a/".repeat(400) + "y";
        assert!(!matches(&deep, &path), "`**` is matched row by row");
        let deeper = "**/".repeat(5000) + "x";
        let path = "a/".repeat(5000) + "y";
        assert!(matches(&deeper, &path), "past the bound, taken to match");
    }
}
