//! The analysis of patterns the checks use: whether a regex can match at all, the strings
//! of an anchored one, the text every match must contain, whether it describes a shell
//! command or a path. Each answers "certainly" or "don't know", never a guess in between.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// Most strings [`finite_strings`] enumerates before it gives up.
const MAX_STRINGS: usize = 256;
/// Most characters a class may hold to be enumerated.
const MAX_CLASS_CHARS: u32 = 16;

/// The pattern's syntax tree with the regex crate's settings (Unicode, UTF-8).
pub(super) fn hir(source: &str) -> Option<Hir> {
    regex_syntax::ParserBuilder::new()
        .build()
        .parse(source)
        .ok()
}

/// Whether `hir` can match some string. `false` is certain: an empty class, `^` after
/// text that cannot be empty, `$` before it, or `\b` between two word characters.
pub(super) fn can_match(hir: &Hir) -> bool {
    if hir.properties().minimum_len().is_none() {
        return false;
    }
    match hir.kind() {
        HirKind::Empty | HirKind::Literal(_) | HirKind::Look(_) => true,
        HirKind::Class(class) => !class_is_empty(class),
        HirKind::Repetition(rep) => rep.min == 0 || can_match(&rep.sub),
        HirKind::Capture(cap) => can_match(&cap.sub),
        HirKind::Alternation(alts) => alts.iter().any(can_match),
        HirKind::Concat(items) => items.iter().all(can_match) && concat_can_match(items),
    }
}

fn class_is_empty(class: &Class) -> bool {
    match class {
        Class::Unicode(c) => c.ranges().is_empty(),
        Class::Bytes(c) => c.ranges().is_empty(),
    }
}

/// The impossible sequences of one concatenation: text before `^` (not multi-line), text
/// after `$`, and a word boundary between two word characters (or its negation between a
/// word and a non-word character) written as literals.
fn concat_can_match(items: &[Hir]) -> bool {
    let consumes = |h: &Hir| h.properties().minimum_len().is_some_and(|n| n > 0);
    for (k, item) in items.iter().enumerate() {
        let HirKind::Look(look) = item.kind() else {
            continue;
        };
        match look {
            Look::Start if items[..k].iter().any(consumes) => return false,
            Look::End if items[k + 1..].iter().any(consumes) => return false,
            Look::WordUnicode
            | Look::WordAscii
            | Look::WordUnicodeNegate
            | Look::WordAsciiNegate => {
                let (Some(before), Some(after)) = (
                    k.checked_sub(1).and_then(|i| last_char(&items[i])),
                    items.get(k + 1).and_then(first_char),
                ) else {
                    continue;
                };
                let word = |c: char| c.is_alphanumeric() || c == '_';
                let boundary = word(before) != word(after);
                let wants_boundary = matches!(look, Look::WordUnicode | Look::WordAscii);
                if boundary != wants_boundary && before.is_ascii() && after.is_ascii() {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

fn first_char(hir: &Hir) -> Option<char> {
    match hir.kind() {
        HirKind::Literal(l) => std::str::from_utf8(&l.0).ok()?.chars().next(),
        _ => None,
    }
}

fn last_char(hir: &Hir) -> Option<char> {
    match hir.kind() {
        HirKind::Literal(l) => std::str::from_utf8(&l.0).ok()?.chars().next_back(),
        _ => None,
    }
}

/// Every string an anchored pattern (`^...$`) matches, when there are few: literals,
/// alternations, small classes and fixed repetitions. `None` when the pattern is not
/// anchored at both ends or its strings are too many or unbounded.
pub(super) fn anchored_strings(hir: &Hir) -> Option<Vec<String>> {
    let alternatives: Vec<&Hir> = match hir.kind() {
        HirKind::Alternation(alts) => alts.iter().collect(),
        _ => vec![hir],
    };
    let mut out = Vec::new();
    for alt in alternatives {
        let HirKind::Concat(items) = alt.kind() else {
            return None;
        };
        let (first, rest) = items.split_first()?;
        let (last, middle) = rest.split_last()?;
        if !matches!(first.kind(), HirKind::Look(Look::Start))
            || !matches!(last.kind(), HirKind::Look(Look::End))
        {
            return None;
        }
        let mut strings = vec![String::new()];
        for item in middle {
            strings = product(&strings, &finite_strings(item)?)?;
        }
        out.extend(strings);
        if out.len() > MAX_STRINGS {
            return None;
        }
    }
    Some(out)
}

fn product(heads: &[String], tails: &[String]) -> Option<Vec<String>> {
    if heads.len().saturating_mul(tails.len()) > MAX_STRINGS {
        return None;
    }
    Some(
        heads
            .iter()
            .flat_map(|h| tails.iter().map(move |t| format!("{h}{t}")))
            .collect(),
    )
}

/// The strings `hir` matches, when they are few and `hir` has no assertions.
fn finite_strings(hir: &Hir) -> Option<Vec<String>> {
    match hir.kind() {
        HirKind::Empty => Some(vec![String::new()]),
        HirKind::Literal(l) => Some(vec![String::from_utf8(l.0.to_vec()).ok()?]),
        HirKind::Class(Class::Unicode(class)) => {
            let mut out = Vec::new();
            let mut count = 0u32;
            for range in class.ranges() {
                count = count.saturating_add(u32::from(range.end()) - u32::from(range.start()) + 1);
                if count > MAX_CLASS_CHARS {
                    return None;
                }
                out.extend(
                    (u32::from(range.start())..=u32::from(range.end()))
                        .filter_map(char::from_u32)
                        .map(String::from),
                );
            }
            Some(out)
        }
        HirKind::Class(Class::Bytes(_)) | HirKind::Look(_) => None,
        HirKind::Capture(cap) => finite_strings(&cap.sub),
        HirKind::Concat(items) => {
            let mut strings = vec![String::new()];
            for item in items {
                strings = product(&strings, &finite_strings(item)?)?;
            }
            Some(strings)
        }
        HirKind::Alternation(alts) => {
            let mut out = Vec::new();
            for alt in alts {
                out.extend(finite_strings(alt)?);
                if out.len() > MAX_STRINGS {
                    return None;
                }
            }
            Some(out)
        }
        HirKind::Repetition(rep) => {
            let max = rep.max?;
            if max > 8 {
                return None;
            }
            let one = finite_strings(&rep.sub)?;
            let mut out = Vec::new();
            for n in rep.min..=max {
                let mut strings = vec![String::new()];
                for _ in 0..n {
                    strings = product(&strings, &one)?;
                }
                out.extend(strings);
                if out.len() > MAX_STRINGS {
                    return None;
                }
            }
            Some(out)
        }
    }
}

/// Whether every match of `hir` contains `needle` (as one literal run of the pattern).
pub(super) fn requires_literal(hir: &Hir, needle: &str) -> bool {
    match hir.kind() {
        HirKind::Literal(l) => std::str::from_utf8(&l.0).is_ok_and(|s| s.contains(needle)),
        HirKind::Capture(cap) => requires_literal(&cap.sub, needle),
        HirKind::Repetition(rep) => rep.min > 0 && requires_literal(&rep.sub, needle),
        HirKind::Alternation(alts) => alts.iter().all(|a| requires_literal(a, needle)),
        HirKind::Concat(items) => items.iter().any(|i| requires_literal(i, needle)),
        HirKind::Empty | HirKind::Class(_) | HirKind::Look(_) => false,
    }
}

/// Programs whose name followed by a space marks a pattern as a shell command line, and
/// whose name alone as a `commandPattern` was meant as the program (`unanchored`).
const SHELL_PROGRAMS: &str = "\
    rm rmdir curl wget sudo su doas pkexec runuser chmod chown chgrp chattr dd mkfs mkswap \
    fdisk parted wipefs shred truncate git ssh scp rsync kill pkill killall bash sh zsh dash \
    python python3 perl ruby node npm npx pip pip3 apt apt-get yum dnf brew docker kubectl \
    cat echo ls cp mv tar nc ncat netcat eval export shutdown reboot systemctl crontab find \
    xargs base64 mount umount iptables useradd usermod passwd tee touch mkdir ln gh aws \
    gcloud az terraform make cargo env nohup gpg openssl history unset";

/// Whether `name` is one of [`SHELL_PROGRAMS`].
pub(super) fn is_shell_program(name: &str) -> bool {
    SHELL_PROGRAMS.split_whitespace().any(|p| p == name)
}

/// Whether every match of `hir` starts (after assertions) with a shell program's name and
/// a space: `rm\s+-rf`, `^curl `, `\b(?:sudo|su)\s`. No path or URL looks like that.
pub(super) fn is_shell_command(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Alternation(alts) => alts.iter().all(is_shell_command),
        HirKind::Capture(cap) => is_shell_command(&cap.sub),
        HirKind::Literal(_) => concat_is_shell_command(std::slice::from_ref(hir)),
        HirKind::Concat(items) => concat_is_shell_command(items),
        _ => false,
    }
}

fn concat_is_shell_command(items: &[Hir]) -> bool {
    let rest = items
        .iter()
        .skip_while(|h| matches!(h.kind(), HirKind::Look(_)));
    // The program names written so far; each ends at a space inside a literal (`curl `) or
    // before an item that is white space (`rm\s+`).
    let mut words = vec![String::new()];
    for item in rest {
        if is_required_space(item) {
            return names_programs(&words);
        }
        let Some(tails) = finite_strings(item) else {
            return false;
        };
        let Some(next) = product(&words, &tails) else {
            return false;
        };
        let spaced: Vec<Option<&str>> = next
            .iter()
            .map(|w| w.find([' ', '\t']).map(|i| &w[..i]))
            .collect();
        if spaced.iter().all(Option::is_some) {
            let names: Vec<String> = spaced.into_iter().flatten().map(str::to_owned).collect();
            return names_programs(&names);
        }
        if spaced.iter().any(Option::is_some) || !next.iter().all(|w| w.chars().all(is_name_char)) {
            return false;
        }
        words = next;
    }
    false
}

/// Whether every one of `names` is a known shell program.
fn names_programs(names: &[String]) -> bool {
    !names.is_empty() && names.iter().all(|n| is_shell_program(n))
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Whether `hir` always matches at least one character, all of them white space.
fn is_required_space(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Literal(l) => l.0.first().is_some_and(|b| *b == b' ' || *b == b'\t'),
        HirKind::Class(Class::Unicode(class)) => {
            !class.ranges().is_empty()
                && class.ranges().iter().all(|r| {
                    u32::from(r.end()) - u32::from(r.start()) < 64
                        && (r.start()..=r.end()).all(char::is_whitespace)
                })
        }
        HirKind::Class(Class::Bytes(class)) => {
            !class.ranges().is_empty()
                && class
                    .ranges()
                    .iter()
                    .all(|r| (r.start()..=r.end()).all(|b| b.is_ascii_whitespace()))
        }
        HirKind::Repetition(rep) => rep.min > 0 && is_required_space(&rep.sub),
        HirKind::Capture(cap) => is_required_space(&cap.sub),
        _ => false,
    }
}

/// Whether every match of `hir` starts at the start of the text with `/`, `~` or `.`: a
/// path, never a URL (which starts with its scheme).
pub(super) fn is_anchored_path(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Alternation(alts) => alts.iter().all(is_anchored_path),
        HirKind::Capture(cap) => is_anchored_path(&cap.sub),
        HirKind::Concat(items) => {
            let Some((first, rest)) = items.split_first() else {
                return false;
            };
            matches!(
                first.kind(),
                HirKind::Look(Look::Start | Look::StartLF | Look::StartCRLF)
            ) && rest.first().and_then(first_chars).is_some_and(|chars| {
                !chars.is_empty() && chars.iter().all(|c| matches!(c, '/' | '~' | '.'))
            })
        }
        _ => false,
    }
}

/// The characters every match of `hir` may start with, when it is made of literals.
fn first_chars(hir: &Hir) -> Option<Vec<char>> {
    match hir.kind() {
        HirKind::Literal(l) => Some(vec![std::str::from_utf8(&l.0).ok()?.chars().next()?]),
        HirKind::Capture(cap) => first_chars(&cap.sub),
        HirKind::Alternation(alts) => {
            let mut out = Vec::new();
            for alt in alts {
                out.extend(first_chars(alt)?);
            }
            Some(out)
        }
        HirKind::Concat(items) => items.first().and_then(first_chars),
        _ => None,
    }
}
