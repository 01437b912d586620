//! What a command writes, against bash: each generated line writes (or moves away) a
//! planted file in a way bash accepts, and every planted file bash really truncated,
//! wrote, replaced, renamed away or deleted must be one the reader's
//! [`effects::touches`](hookgate::shell::touches) names for some command
//! of the line, or the line must be unreadable. This is what the `overwrites`, `writes` and
//! `deletes` filters place, so a write the reader does not name is a write no place rule
//! can stop.

use hookgate::shell::touches;
use hookgate::shell::{CommandLine, SUBSTITUTION};

use super::compare::{directories, path_covered};
use super::paths::{expand_home, resolve};
use super::sandbox::{HOME, WORK};
use super::{Case, Event, Verdict, check_all};

/// Ways to write `{T}`, each a complete line. The sandbox's `/tmp` is not the line's to
/// write, so what a line makes goes in the work tree.
const WRITERS: &[&str] = &[
    "echo x > {T}",
    "echo x >> {T}",
    ": >| {T}",
    "cat README.md 1> {T}",
    "exec 3<> {T}; echo x >&3",
    "{ echo a; echo b; } > {T}",
    "(echo x) > {T}",
    "for i in 1 2; do echo $i; done > {T}",
    "while false; do :; done > {T}",
    "if true; then echo x; fi >> {T}",
    "x={T}; echo hi > \"$x\"",
    "printf x | tee {T} > /dev/null",
    "printf x | tee -a {T} > /dev/null",
    "truncate -s 0 {T}",
    "truncate --si=0 {T}",
    "dd if=/dev/zero of={T} bs=1 count=1 status=none",
    "sed -i s/a/b/ {T}",
    "sed -ie s/a/b/ {T}",
    "sed -n -i.bak -e p {T}",
    "sed --in-place=.orig 's/^/#/' {T}",
    "cp README.md {T}",
    "cp -f -- README.md {T}",
    "mv notes.md {T}",
    "mv {T} moved.txt",
    "install -m 644 README.md {T}",
    "ln -sf README.md {T}",
    "shred -n 1 {T}",
    "sort -o {T} a.txt",
    "sort -k1 -o{T} a.txt",
    "env LC_ALL=C sort -u -o {T} b.txt",
    "timeout 5 cp README.md {T}",
    "tar -cf a.tar --remove-files {T}",
    "tar --create --file=a.tar --rem {T}",
];

/// The planted files written, as a line may spell them.
const TARGETS: &[&str] = &[
    "~/.bashrc",
    "\"$HOME\"/.ssh/known_hosts",
    "src/main.rs",
    "/home/agent/.netrc",
];

/// Lines that spell their target by `cd`-ing first.
const AFTER_CD: &[&str] = &[
    "cd ~ && echo x > .bashrc",
    "cd src; sed -i s/a/b/ lib.rs",
    "cd .. && cp project/README.md .ssh/known_hosts",
    "cd ~/.ssh && mv known_hosts k",
    "tar -C ~ -cf project/a.tar --remove-files .bashrc",
    "tar -C src -C .. -cf ../a.tar --remove-files README.md",
];

fn lines() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // Every writer once, its target taken in turn, so each target meets each kind of
    // writer without running the whole product.
    for (i, writer) in WRITERS.iter().enumerate() {
        for k in 0..2 {
            let target = TARGETS[(i + k) % TARGETS.len()];
            out.push(writer.replace("{T}", target));
        }
    }
    out.extend(AFTER_CD.iter().map(|l| (*l).to_owned()));
    out.sort();
    out.dedup();
    out
}

/// The planted paths bash wrote, replaced or took away that the reader's touches do not
/// name (empty for an unreadable line).
fn unnamed(case: &Case) -> Vec<String> {
    if matches!(case.verdict, Verdict::Unreadable) {
        return Vec::new();
    }
    let named = named(&case.predicted);
    case.events
        .iter()
        .filter_map(|e| match e {
            Event::Deleted { path, .. } => Some(path),
            _ => None,
        })
        .filter(|path| !named.iter().any(|n| path_covered(n, path)))
        .cloned()
        .collect()
}

/// Every path the reader says a command of `line` deletes or writes, absolute: relative
/// paths against the command's directory (or, when the line went somewhere the reader
/// cannot know, every directory the line names).
fn named(line: &CommandLine) -> Vec<String> {
    let dirs = directories(line);
    let mut out = Vec::new();
    for c in &line.commands {
        let bases: Vec<String> = match c.dir.as_deref() {
            Some(d) => vec![resolve(WORK, &expand_home(d))],
            None => dirs.clone(),
        };
        for t in touches(c) {
            // A path or directory not known stands for any path, as in the main comparison.
            if t.path.contains(SUBSTITUTION) || t.base.is_some_and(|b| b.contains(SUBSTITUTION)) {
                out.push("/".to_owned());
                continue;
            }
            let path = expand_home(t.path);
            let bases = match t.base {
                Some(base) => bases
                    .iter()
                    .map(|b| resolve(b, &expand_home(base)))
                    .collect(),
                None => bases.clone(),
            };
            out.extend(bases.iter().map(|b| resolve(b, &path)));
        }
    }
    out
}

#[test]
fn oracle_every_write_bash_makes_is_one_the_reader_names() {
    let lines = lines();
    let cases = check_all(&lines);
    let written = cases
        .iter()
        .filter(|c| c.events.iter().any(|e| matches!(e, Event::Deleted { .. })))
        .count();
    // The lines are built to write: if most wrote nothing, the sandbox or the trace broke
    // and silence would pass for soundness.
    assert!(
        written * 10 >= lines.len() * 9,
        "only {written} of {} lines wrote a planted file",
        lines.len()
    );
    let missed: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let unnamed = unnamed(c);
            (!unnamed.is_empty()).then(|| {
                format!(
                    "{:?}: bash wrote {unnamed:?}; the reader names {:?}",
                    c.line,
                    named(&c.predicted)
                )
            })
        })
        .collect();
    eprintln!(
        "writes oracle: {} lines, {written} wrote a planted file, {} unreadable, {} unnamed",
        lines.len(),
        cases
            .iter()
            .filter(|c| matches!(c.verdict, Verdict::Unreadable))
            .count(),
        missed.len()
    );
    assert!(
        missed.is_empty(),
        "writes bash made that the reader did not name:\n{}",
        missed.join("\n")
    );
}

#[test]
fn oracle_a_write_no_touch_names_is_caught() {
    // `echo` names no path; only its redirect does. Without redirects the write is unnamed.
    let mut case = super::check("echo x > ~/.bashrc");
    assert!(unnamed(&case).is_empty(), "{}", case.report());
    for c in &mut case.predicted.commands {
        c.redirects.clear();
    }
    assert_eq!(unnamed(&case), [format!("{HOME}/.bashrc")]);
}
