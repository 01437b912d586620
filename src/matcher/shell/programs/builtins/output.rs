//! What everyday programs print, where the reader can know it: `printf`, `mktemp`, `date`,
//! `seq`, and the filters that pass on some of the lines they read.

use super::super::super::expand::{Field, ansi_c};
use super::super::super::walk::Data;

/// `printf FORMAT ARGS`: `%s`, `%b`, `%c`, `%d`/`%i`, `%q`-free formats, with widths; the
/// format is reused while arguments remain, as bash does.
pub(in crate::matcher::shell::programs) fn printf(format: &str, args: &[String]) -> String {
    let format = ansi_c(format);
    let mut out = String::new();
    let mut next = 0;
    loop {
        let mut used = false;
        let chars: Vec<char> = format.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '%' {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            i += 1;
            let spec_start = i;
            while i < chars.len() && "-+ #0123456789.".contains(chars[i]) {
                i += 1;
            }
            let spec: String = chars[spec_start..i.min(chars.len())].iter().collect();
            let Some(&conv) = chars.get(i) else { break };
            i += 1;
            if conv == '%' {
                out.push('%');
                continue;
            }
            let arg = args.get(next).cloned().unwrap_or_default();
            next += 1;
            used = true;
            let text = match conv {
                'b' => ansi_c(&arg),
                'c' => arg.chars().next().map(String::from).unwrap_or_default(),
                'd' | 'i' | 'u' => arg.trim().parse::<i64>().unwrap_or(0).to_string(),
                _ => arg,
            };
            let left = spec.starts_with('-');
            let width: usize = spec
                .trim_start_matches(['-', '+', ' ', '#', '0'])
                .split('.')
                .next()
                .and_then(|w| w.parse().ok())
                .unwrap_or(0)
                .min(4096);
            let precision: Option<usize> = spec.split_once('.').and_then(|(_, p)| p.parse().ok());
            let text: String = match (conv, precision) {
                ('s' | 'b', Some(p)) => text.chars().take(p).collect(),
                _ => text,
            };
            let pad = width.saturating_sub(text.chars().count());
            if left {
                out.push_str(&text);
                out.extend(std::iter::repeat_n(' ', pad));
            } else {
                out.extend(std::iter::repeat_n(' ', pad));
                out.push_str(&text);
            }
        }
        if !used || next >= args.len() {
            break;
        }
    }
    out
}

/// A pattern for the path `mktemp` prints: in `-p DIR`/`--tmpdir=DIR` (else `$TMPDIR`,
/// else `/tmp`), named by its template with `*` for the random `X`s.
pub(super) fn temp_name(args: &[String]) -> String {
    let mut dir: Option<&str> = None;
    let mut template: Option<&str> = None;
    let mut tmpdir_flag = false;
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        match a.as_str() {
            "-p" | "--tmpdir" => dir = iter.next().map(String::as_str),
            "-t" => tmpdir_flag = true,
            "--suffix" => {
                iter.next();
            }
            o if o.starts_with("--tmpdir=") => dir = o.strip_prefix("--tmpdir="),
            o if o.starts_with('-') => {}
            t => template = Some(t),
        }
    }
    let base = || {
        dir.map(str::to_owned)
            .or_else(|| std::env::var("TMPDIR").ok().filter(|d| d.starts_with('/')))
            .unwrap_or_else(|| "/tmp".to_owned())
    };
    // The `X`s become random characters: a `*` matches them.
    let random = |t: &str| format!("{}*", t.trim_end_matches('X'));
    match template {
        Some(t) if t.contains('/') && !tmpdir_flag && dir.is_none() => random(t),
        Some(t) => format!("{}/{}", base(), random(t.rsplit('/').next().unwrap_or(t))),
        None => format!("{}/tmp.*", base()),
    }
}

/// A pattern for what `date +FORMAT` prints: each conversion a `*`. The caller has ruled
/// out the ones that print a `/`.
pub(super) fn date_like(format: &str) -> String {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c == '%' {
            chars.next();
            if !out.ends_with('*') {
                out.push('*');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The most numbers a `seq` read here prints; past it, what it prints is not known (and a
/// process started per number, all at once, is a bomb: `seq 1000000 | xargs -P 0 -n 1`).
const MOST_SEQ_NUMBERS: i64 = 4096;

/// What `seq [FIRST [STEP]] LAST` prints, for integers and no options.
pub(super) fn seq(args: &[Field]) -> Data {
    let numbers: Option<Vec<i64>> = args
        .iter()
        .map(|a| (!a.unknown).then(|| a.text.parse::<i64>().ok()).flatten())
        .collect();
    let (first, step, last) = match numbers.as_deref() {
        Some([last]) => (1, 1, *last),
        Some([first, last]) => (*first, 1, *last),
        Some([first, step, last]) if *step != 0 => (*first, *step, *last),
        _ => return Data::Unknown,
    };
    let count = last
        .checked_sub(first)
        .and_then(|d| d.checked_div(step))
        .and_then(|c| c.checked_add(1));
    let Some(count) = count.filter(|c| *c <= MOST_SEQ_NUMBERS) else {
        return Data::Unknown;
    };
    let mut out = String::new();
    let mut n = first;
    for _ in 0..count.max(0) {
        out.push_str(&n.to_string());
        out.push('\n');
        n = n.saturating_add(step);
    }
    Data::Known(out)
}

/// Whether `program` with `args` prints some of the lines it reads, unchanged, and reads
/// nothing else: `tail -n +6`, `head -3`, `grep -v node_modules`, `sort -r`, `uniq`,
/// `tac`, `shuf -n 2`, `cat`. Of a listing, it prints some of its names.
pub(in crate::matcher::shell::programs) fn keeps_lines(program: &str, args: &[Field]) -> bool {
    if args.iter().any(|a| a.unknown) {
        return false;
    }
    let t: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
    let count = |v: &str| {
        let v = v.strip_prefix('+').unwrap_or(v);
        !v.is_empty() && v.chars().all(|c| c.is_ascii_digit())
    };
    // Each word a flag of `letters`, an option of `valued` with its value, or (`operands`
    // of them at most) an operand.
    let shaped = |letters: &str, valued: &[&str], long: &[&str], operands: usize| {
        let mut k = 0;
        let mut seen = 0;
        while let Some(w) = t.get(k) {
            if valued.contains(w) {
                k += 2;
                continue;
            }
            let ok = if let Some(l) = w.strip_prefix("--") {
                long.contains(&l)
            } else if let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) {
                flags.chars().all(|c| letters.contains(c))
            } else {
                seen += 1;
                seen <= operands
            };
            if !ok {
                return false;
            }
            k += 1;
        }
        // A valued option at the end with no value.
        k == t.len()
    };
    match program {
        "head" | "tail" => {
            let mut k = 0;
            while let Some(w) = t.get(k) {
                let ok = match *w {
                    "-n" | "--lines" => {
                        k += 1;
                        t.get(k).is_some_and(|v| count(v))
                    }
                    "-q" | "--quiet" | "--silent" => true,
                    _ => w
                        .strip_prefix("--lines=")
                        .or_else(|| w.strip_prefix("-n"))
                        .or_else(|| w.strip_prefix('-'))
                        .is_some_and(count),
                };
                if !ok {
                    return false;
                }
                k += 1;
            }
            true
        }
        // Only an inverted grep (`grep -v node_modules`): what a pattern keeps is narrower
        // than the listing's patterns say (`git ls-files | grep '\.py$'` names no `.env`),
        // and is left as text not known, as before.
        "grep" | "egrep" | "fgrep"
            if t.iter().any(|w| {
                *w == "--invert-match"
                    || w.strip_prefix('-')
                        .is_some_and(|f| !f.starts_with('-') && f.contains('v'))
            }) =>
        {
            let patterns = if t.contains(&"-e") { 0 } else { 1 };
            shaped(
                "vEFiwxGPsy",
                &["-e"],
                &[
                    "invert-match",
                    "ignore-case",
                    "extended-regexp",
                    "fixed-strings",
                    "word-regexp",
                    "line-regexp",
                    "no-messages",
                ],
                patterns,
            )
        }
        "sort" => shaped(
            "rnuVfhbdgMRs",
            &["-t", "-k"],
            &[
                "reverse",
                "numeric-sort",
                "unique",
                "version-sort",
                "ignore-case",
                "human-numeric-sort",
                "stable",
            ],
            0,
        ),
        "uniq" => shaped("udi", &[], &["unique", "repeated", "ignore-case"], 0),
        "tac" | "cat" => t.is_empty(),
        "shuf" => shaped("", &["-n"], &[], 0),
        _ => false,
    }
}
