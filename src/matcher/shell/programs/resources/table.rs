//! The rows of the resource table: for each tool, its options that take a value, how its
//! subcommand path continues, the verbs its options or name imply, and the options that
//! make it change nothing. Read by `super` (the module comment says how).

mod cloud;
mod clusters;
mod host;
mod registries;
mod secrets;

use super::super::super::options::Options;
use super::super::rows::{concat, count};

/// How a tool's subcommand path continues past its first word.
#[derive(Debug, Clone, Copy)]
pub(super) enum Groups {
    /// Past the words listed (`docker volume rm`: `volume`), up to the depth.
    Listed(&'static [&'static str]),
    /// Past every word up to the depth, stopping after a read-only verb (`gcloud compute
    /// instances describe vm`: the operand `vm` is not read). For the deep cloud CLIs,
    /// whose groups are too many to list.
    Deep,
}

/// When a row of [`Imply`] applies.
#[derive(Debug, Clone, Copy)]
pub(super) enum When {
    /// Always, on this path.
    Always,
    /// With the option `--long` (or `-long` for Go-style tools), or the short letter.
    Flag(&'static str, Option<char>),
    /// When the arguments pass this test (`kill -9 -1`).
    Check(fn(&[String]) -> bool),
}

/// A verb the tool's options or name imply on a subcommand path.
#[derive(Debug, Clone, Copy)]
pub(super) struct Imply {
    /// The path it applies on: a prefix of the command's path (empty: any path).
    pub(super) path: &'static [&'static str],
    pub(super) when: When,
    pub(super) verb: &'static str,
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub(super) struct Resource {
    pub(super) names: &'static [&'static str],
    /// Options before and between subcommand words: which take a value.
    pub(super) options: Options,
    /// Long options are written with one dash (`-auto-approve`), as Go's `flag` reads them.
    pub(super) go_style: bool,
    /// Most subcommand words read.
    pub(super) depth: usize,
    pub(super) groups: Groups,
    pub(super) implies: &'static [Imply],
    /// Options after which the command changes nothing (`--dry-run`, `--help`), as
    /// `(long, short)`; a value that reads as false (`--dry-run=none`) does not count.
    pub(super) inert: &'static [(&'static str, Option<char>)],
}

/// Words that end a [`Groups::Deep`] path: what follows them is an operand.
pub(super) const READ_ONLY: &[&str] = &[
    "cat", "describe", "diff", "explain", "get", "help", "history", "images", "info", "inspect",
    "list", "ls", "plan", "print", "ps", "read", "search", "show", "status", "tail", "top",
    "version", "view", "whoami",
];

const fn opts(
    short_with_value: &'static str,
    long: &'static [&'static str],
    abbreviations: bool,
) -> Options {
    Options {
        short_with_value,
        long,
        abbreviations,
    }
}

const fn flag(
    path: &'static [&'static str],
    long: &'static str,
    short: Option<char>,
    verb: &'static str,
) -> Imply {
    Imply {
        path,
        when: When::Flag(long, short),
        verb,
    }
}

const fn always(path: &'static [&'static str], verb: &'static str) -> Imply {
    Imply {
        path,
        when: When::Always,
        verb,
    }
}

const HELP: (&str, Option<char>) = ("help", None);
const HELP_H: (&str, Option<char>) = ("help", Some('h'));
const DRY_RUN: (&str, Option<char>) = ("dry-run", None);

// ------------------------------------------------------------------------------------------
// Option lists shared by several rows.

/// Cobra-style tools with no global option that takes a value worth listing: their
/// unlisted options are read as possibly taking one (see the module comment).
const NO_OPTIONS: Options = opts("", &[], false);

// ------------------------------------------------------------------------------------------

/// The table. Names are the programs' file names; each appears in one row. Its rows are kept
/// by kind of tool, in a file each, and joined here in that order.
pub(super) static RESOURCES: &[Resource] = &concat::<_, { count(KINDS) }>(KINDS);

/// The rows by kind of tool.
const KINDS: &[&[Resource]] = &[
    cloud::CLOUD,
    clusters::CLUSTERS,
    registries::REGISTRIES,
    secrets::SECRETS,
    host::HOST,
];
