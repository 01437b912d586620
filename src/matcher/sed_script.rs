//! Whether a `sed` only edits its files in place: its output goes back into each file, so
//! it prints nothing of what it reads (`sed -i 's/^DEBUG=.*/DEBUG=1/' .env` changes a
//! setting; it does not show the file's secrets).

/// Whether `sed` with `args` edits its files in place and prints nothing of them anywhere:
/// `-i` with scripts of only substitutions and deletions. A `w` or `e` (flag or command),
/// a file read in (`r`), another command, or an option but the plain ones, and it may.
pub(super) fn only_edits(args: &[String]) -> bool {
    let mut in_place = false;
    let mut scripts: Vec<&str> = Vec::new();
    let mut operands: Vec<&str> = Vec::new();
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        match a.as_str() {
            "--in-place" => in_place = true,
            "--regexp-extended" | "--separate" | "--null-data" | "--posix" => {}
            "-e" | "--expression" => match iter.next() {
                Some(script) => scripts.push(script),
                None => return false,
            },
            long if long.starts_with("--in-place=") => in_place = true,
            long if long.starts_with("--expression=") => {
                scripts.push(&long["--expression=".len()..]);
            }
            "--" => operands.extend(iter.by_ref().map(String::as_str)),
            short if short.starts_with('-') && short.len() > 1 => {
                // `-Ei`, `-i.bak`: `i` takes the rest of the word as its backup suffix.
                let flags = &short[1..];
                let (plain, suffix) = flags.split_at(flags.find('i').unwrap_or(flags.len()));
                if !plain.chars().all(|c| matches!(c, 'E' | 'r' | 's' | 'z')) {
                    return false;
                }
                // A suffix with a `/` or `*` names where the backup goes, elsewhere.
                if let Some(backup) = suffix.strip_prefix('i') {
                    in_place = true;
                    if backup.contains(['/', '*']) {
                        return false;
                    }
                }
            }
            operand => operands.push(operand),
        }
    }
    if scripts.is_empty() {
        scripts.extend(operands.first());
    }
    in_place && !scripts.is_empty() && scripts.into_iter().all(script_only_edits)
}

/// Whether a sed script is only substitutions (flags `g`, `p`, `i`, `I`, `m`, `M`, a
/// number) and deletions, each with an optional line or pattern address or two.
fn script_only_edits(script: &str) -> bool {
    let mut chars = script.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace() || *c == ';').is_some() {}
        if chars.peek().is_none() {
            return true;
        }
        for _ in 0..2 {
            match chars.peek() {
                Some('/') => {
                    chars.next();
                    if !delimited(&mut chars, '/') {
                        return false;
                    }
                    while chars.next_if(|c| matches!(c, 'I' | 'M')).is_some() {}
                }
                Some(c) if c.is_ascii_digit() || *c == '$' => {
                    while chars.next_if(|c| c.is_ascii_digit() || *c == '$').is_some() {}
                }
                _ => break,
            }
            if chars.next_if_eq(&',').is_none() {
                break;
            }
        }
        chars.next_if_eq(&'!');
        match chars.next() {
            Some('d') => {}
            Some('s') => {
                let Some(delim) = chars.next().filter(|d| !matches!(d, '\\' | '\n')) else {
                    return false;
                };
                if !delimited(&mut chars, delim) || !delimited(&mut chars, delim) {
                    return false;
                }
                while chars
                    .next_if(|c| {
                        matches!(c, 'g' | 'p' | 'i' | 'I' | 'm' | 'M') || c.is_ascii_digit()
                    })
                    .is_some()
                {}
            }
            _ => return false,
        }
        if !matches!(chars.peek(), None | Some(';' | '\n' | ' ' | '\t')) {
            return false;
        }
    }
}

/// Skips a part up to its closing `delim` (a `\` escapes the next character); false when
/// it does not end on this line.
fn delimited(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, delim: char) -> bool {
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\n' => return false,
            c if c == delim => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::only_edits;

    fn args(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn substitutions_and_deletions_in_place_only_edit() {
        for line in [
            "-i s/^DEBUG=.*/DEBUG=1/ .env",
            "-i.bak -e s|a|b|g -e /^#/d .env",
            "-Ei 1,/x/s/a/b/2 .env",
            "--in-place=.orig --expression=$d .env",
            "-i s/a\\/b/c/I;3d .env",
        ] {
            assert!(only_edits(&args(line)), "{line}");
        }
    }

    #[test]
    fn anything_that_may_print_or_run_does_not() {
        for line in [
            "s/a/b/ .env",
            "-n -i p .env",
            "-i s/a/b/w /dev/stdout .env",
            "-i s/a/b/e .env",
            "-i 1e cat .env",
            "-i 1r /etc/shadow .env",
            "-i w/tmp/x .env",
            "-i s/a/b .env",
            "--debug -i s/a/b/ .env",
            "-i/tmp/* s/a/b/ .env",
            "-i -e",
        ] {
            assert!(!only_edits(&args(line)), "{line}");
        }
    }
}
