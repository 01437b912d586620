//! The resource table, as reviewed data: command-line tools that manage resources (cloud
//! CLIs, Kubernetes, containers, infrastructure as code, package registries, secrets
//! managers, backups, the init system, the firewall), how each finds its subcommand path
//! among its options, and the verbs its options or its name imply. `match.command.verbs`
//! reads a command through this table (`docs/hooks-reference.md#verbs`).
//!
//! The path is the subcommand words (`kubectl -n prod delete pod x` → `delete`; `aws
//! --profile p s3 rm s3://b` → `s3 rm`; `gcloud --project p compute instances delete vm` →
//! `compute instances delete vm`), lowercased, after skipping each option and the value of
//! the options that take one (from the table; `--opt=value` carries its own). A value the
//! reader cannot know where a subcommand word goes (`kubectl $VERB pod x`) makes the verbs
//! unknown, and unknown verbs match every `verbs` filter: the line is stopped, as an
//! unknown argument of a program that deletes is elsewhere.
//!
//! Option lists follow each tool's own reference (`--help` of the current releases). A list
//! may miss an option: an unlisted option written without `=` may take the next word as its
//! value, so that word is also read as a possible verb (reading more than runs is allowed;
//! reading less is not).

mod table;

use super::super::SUBSTITUTION;
use table::{Groups, READ_ONLY, RESOURCES, Resource, When};

/// The row for `program`.
fn find(program: &str) -> Option<&'static Resource> {
    // Every simple command a `verbs` filter looks at looks its program up.
    static BY_NAME: std::sync::LazyLock<std::collections::HashMap<&str, &Resource>> =
        std::sync::LazyLock::new(|| {
            let mut map = std::collections::HashMap::new();
            for row in RESOURCES {
                for name in row.names {
                    map.entry(*name).or_insert(row);
                }
            }
            map
        });
    BY_NAME.get(program).copied()
}

/// Whether `program` is read by the resource table (`verbs` can match it).
pub(crate) fn has_verbs(program: &str) -> bool {
    find(program).is_some()
}

/// What a command of a resource tool does, as the table reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Verbs {
    /// The subcommand path, lowercased (`["s3", "rm"]`); where an unlisted option may have
    /// taken a word as its value, the words of both readings.
    pub words: Vec<String>,
    /// Verbs implied by the options or the program (`force`, `delete`, `auto-approve`).
    pub implied: Vec<&'static str>,
    /// A subcommand word (or a word that may be one) is not known before the line runs.
    pub unknown: bool,
    /// The command changes nothing: a dry run or help (`--dry-run`, `--help`).
    pub inert: bool,
}

impl Verbs {
    /// Whether one of `wanted` (lowercase) is a verb of the command: a path word, a `-` or
    /// `:`-separated part of one (`delete-bucket`, `apps:destroy`), or an implied verb. An
    /// unknown path matches any list; an inert command matches none.
    pub(crate) fn any_of(&self, wanted: &[String]) -> bool {
        if self.inert {
            return false;
        }
        if self.unknown {
            return true;
        }
        let is = |w: &str| wanted.iter().any(|v| v == w);
        self.implied.iter().any(|v| is(v))
            || self
                .words
                .iter()
                .any(|w| is(w) || w.split(['-', ':']).any(&is))
    }
}

/// The verbs of `program` run with `args`, or `None` when the table does not list it.
pub(crate) fn verbs(program: &str, args: &[String]) -> Option<Verbs> {
    let row = find(program)?;
    // After `--` come operands, or another program's command (`kubectl exec pod -- rm`).
    let all = args;
    let args = match args.iter().position(|a| a == "--") {
        Some(end) => &args[..end],
        None => args,
    };
    let mut out = Verbs::default();
    // An unlisted option may or may not take the next word: read both ways.
    let first = path(row, args, false);
    let second = first.ambiguous.then(|| path(row, args, true));
    for reading in std::iter::once(&first).chain(second.as_ref()) {
        out.unknown |= reading.unknown;
        for imply in row.implies {
            let on_path = imply.path.len() <= reading.words.len()
                && imply
                    .path
                    .iter()
                    .zip(&reading.words)
                    .all(|(want, got)| want == got);
            if !on_path || out.implied.contains(&imply.verb) {
                continue;
            }
            let holds = match imply.when {
                When::Always => true,
                When::Flag(long, short) => has_flag(row, args, long, short, true),
                // A check reads `--` itself (`kill -- -1`).
                When::Check(test) => test(all),
            };
            if holds {
                out.implied.push(imply.verb);
            }
        }
        for w in &reading.words {
            if !out.words.contains(w) {
                out.words.push(w.clone());
            }
        }
    }
    out.inert = row
        .inert
        .iter()
        .any(|(long, short)| has_flag(row, args, long, *short, false));
    Some(out)
}

/// One reading of a subcommand path.
#[derive(Debug, Default)]
struct Reading {
    words: Vec<String>,
    /// A word where a subcommand goes is not known.
    unknown: bool,
    /// An unlisted option came before the path ended (it may take a value).
    ambiguous: bool,
}

/// Words that, on a [`Groups::Deep`] path, are a command rather than a group (by their
/// first `-`-separated part: `get-credentials`, `delete-bucket`): an unknown word after
/// one is its operand, not a subcommand. `run`, `deploy`, `export`, `logs` are groups in
/// some CLIs (`gcloud run services delete`), so they are not here.
const LEAVES: &[&str] = &[
    "add",
    "attach",
    "cancel",
    "cp",
    "create",
    "delete",
    "destroy",
    "detach",
    "disable",
    "download",
    "enable",
    "get",
    "list",
    "login",
    "logout",
    "mv",
    "purge",
    "reboot",
    "remove",
    "reset",
    "resize",
    "restart",
    "rm",
    "scale",
    "set",
    "ssh",
    "scp",
    "start",
    "stop",
    "sync",
    "terminate",
    "unset",
    "update",
    "upload",
    "wipe",
];

/// The subcommand path of `args` by `row`; `unlisted_take_value`: whether an option the
/// row does not list takes the next word as its value.
fn path(row: &Resource, args: &[String], unlisted_take_value: bool) -> Reading {
    let mut out = Reading::default();
    let mut i = 0;
    // Whether a word of the path is a command, so an unknown word is its operand.
    let mut after_leaf = false;
    while let Some(a) = args.get(i) {
        if out.words.len() >= row.depth || !continues(row, &out.words) {
            break;
        }
        i += 1;
        let unknown = a.contains(SUBSTITUTION);
        if a.starts_with('-') && a.len() > 1 && !unknown {
            let (takes, listed) = option_value(row, a);
            out.ambiguous |= !listed;
            i += usize::from(takes || !listed && unlisted_take_value);
            continue;
        }
        if unknown {
            out.unknown |= !after_leaf;
            break;
        }
        let word = a.to_ascii_lowercase();
        after_leaf |= matches!(row.groups, Groups::Deep)
            && word
                .split(['-', ':'])
                .next()
                .is_some_and(|first| LEAVES.contains(&first) || READ_ONLY.contains(&first));
        out.words.push(word);
    }
    out
}

/// Whether the path goes on past its last word.
fn continues(row: &Resource, path: &[String]) -> bool {
    let Some(last) = path.last() else {
        return true;
    };
    match row.groups {
        Groups::Listed(groups) => groups.contains(&last.as_str()),
        Groups::Deep => !READ_ONLY.contains(&last.as_str()),
    }
}

/// For option `a`: whether the next word is its value, and whether the row lists it (an
/// unlisted option may take a value the table does not know of).
fn option_value(row: &Resource, a: &str) -> (bool, bool) {
    let long = match a.strip_prefix("--") {
        Some(l) => Some(l),
        None if row.go_style => a.strip_prefix('-'),
        None => None,
    };
    if let Some(long) = long {
        if long.contains('=') {
            return (false, true);
        }
        return match row.options.resolve_long(long) {
            Some((_, takes_value)) => (takes_value, true),
            None => (false, false),
        };
    }
    // A bundle of short options: a letter that takes a value takes the rest of the bundle,
    // or the next word when it is last. The table lists the letters that take a value, not
    // those that do not, so a bundle without one may still take the next word.
    let bundle = &a[1..];
    for (k, c) in bundle.char_indices() {
        if row.options.short_with_value.contains(c) {
            return (k + c.len_utf8() == bundle.len(), true);
        }
    }
    (false, false)
}

/// Whether `args` set option `--long` (`-long` for Go-style tools, an unambiguous prefix
/// where the tool accepts abbreviations) or `-short` (alone or in a bundle). A value that
/// reads as false (`--dry-run=false`, `--prune=0`) unsets it. `implied`: the option makes
/// the command do more, so an argument not known before the line runs may be it; otherwise
/// (a dry run) only the written option counts, and not when the next word may be its
/// false value (`npm publish --dry-run false`).
fn has_flag(
    row: &Resource,
    args: &[String],
    long: &str,
    short: Option<char>,
    implied: bool,
) -> bool {
    args.iter().enumerate().any(|(i, a)| {
        if a.contains(SUBSTITUTION) {
            return implied;
        }
        // `--cache-dir --dry-run` is a cache directory named `--dry-run`: a dry run counts
        // only where no option before it can take it as a value.
        if !implied && i > 0 && may_take_next(row, &args[i - 1]) {
            return false;
        }
        let next_unsets = || {
            !implied
                && args
                    .get(i + 1)
                    .is_some_and(|n| is_false(n) || n.contains(SUBSTITUTION))
        };
        let written = match a.strip_prefix("--") {
            Some(l) => Some(l),
            None if row.go_style => a.strip_prefix('-'),
            None => None,
        };
        if let Some(written) = written {
            let (name, value) = match written.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (written, None),
            };
            // A prefix of `long` is `long` to the tool, or ambiguous (the tool refuses to
            // run); a dry run needs a longer one, so that no exact option of the tool the
            // table does not list can be what the prefix names.
            let shortest = if implied { 2 } else { 4 };
            let named = name == long
                || row.options.abbreviations && name.len() >= shortest && long.starts_with(name);
            return named
                && match value {
                    Some(v) => !is_false(v),
                    None => !next_unsets(),
                };
        }
        let Some(short) = short else {
            return false;
        };
        let Some(bundle) = a.strip_prefix('-').filter(|b| !b.is_empty()) else {
            return false;
        };
        // A letter that takes a value ends the bundle; but the table's letters are those of
        // the options before the subcommand (`docker compose -f FILE`), which the
        // subcommand may read as flags (`docker compose rm -fsv`): an implied verb reads
        // the whole bundle.
        for c in bundle.chars() {
            if c == short {
                return true;
            }
            if !implied && row.options.short_with_value.contains(c) {
                return false;
            }
        }
        false
    })
}

/// Whether `a` is an option that takes (or may take) the next word as its value.
fn may_take_next(row: &Resource, a: &str) -> bool {
    if !a.starts_with('-') || a.len() < 2 || a.contains(SUBSTITUTION) {
        return a.contains(SUBSTITUTION);
    }
    let (takes, listed) = option_value(row, a);
    takes || !listed
}

/// Whether an option's value turns it off.
fn is_false(value: &str) -> bool {
    matches!(
        value.to_ascii_lowercase().as_str(),
        "false" | "0" | "no" | "off" | "none"
    )
}

#[cfg(test)]
mod tests;
