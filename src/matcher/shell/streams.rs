//! Streams that never end: what `yes`, `seq inf` and readers of `/dev/zero` or
//! `/dev/urandom` print has no end, and passes unchanged through filters (`tee`, `tr`,
//! `gzip`, `base64`, ...) until a command that stops reading (`head -c 1M`, `dd count=`).
//! Written to a file on the way, it fills the disk (`cat /dev/zero | tee f`, `yes | gzip >
//! f.gz`, `cp /dev/zero f`), read as the `dd` with no count that filters know; given to
//! `xargs -P 0`, it starts processes without bound (`seq inf | xargs -P0 -n1 sleep`), and
//! the line is unreadable. A pipeline's commands are judged one by one as the reader runs them,
//! each knowing whether what it reads is endless.

use std::borrow::Cow;

use super::SimpleCommand;
use super::effects::{self, Touch};
use super::programs::urls::file_url_path;
use crate::matcher::code::ENDLESS_DEVICES;

/// Programs that print what they read, changed or not, for as long as it comes, unless an
/// option bounds them (see [`bounded`]); each reads a file it is given or standard input.
const FILTERS: &[&str] = &[
    "cat", "tee", "tr", "base64", "base32", "basenc", "gzip", "pigz", "xz", "bzip2", "zstd", "lz4",
    "od", "xxd", "hexdump", "pv", "rev", "fold", "nl", "strings", "tail",
];

/// Programs that keep all they read before they print (`sort`, `tac`, `diff`), hold it
/// (`mapfile`) or write it all to files (`split`): given an endless stream, they fill
/// memory or the disk with it.
const HOARDERS: &[&str] = &[
    "diff",
    "sort",
    "shuf",
    "tac",
    "sponge",
    "mapfile",
    "readarray",
    "split",
    "csplit",
];

/// Programs that read lines: a device of zero bytes is one line without end.
const LINE_READERS: &[&str] = &[
    "awk", "gawk", "mawk", "nawk", "grep", "egrep", "fgrep", "sed", "perl", "ruby",
];

/// Whether `tail` keeps its input's last lines until the input ends: not with bytes
/// (`-c`), nor from an offset on (`-n +2`, `-c +1`), which pass the input on as it comes.
fn keeps_last_lines(args: &[String]) -> bool {
    !args.iter().enumerate().any(|(k, a)| {
        a.starts_with("-c")
            || a.starts_with("--bytes")
            || a.starts_with('+')
            || a.starts_with("-n+")
            || a.starts_with("--lines=+")
            || a == "-n" && args.get(k + 1).is_some_and(|v| v.starts_with('+'))
    })
}

/// Whether `tail` keeps a gigabyte or more of its input until the input ends (`tail -c
/// 500G`, `tail -n 2000000000`): of a stream that never ends, in memory.
fn keeps_a_huge_tail(args: &[String]) -> bool {
    const HUGE: u128 = 1 << 30;
    let size = |v: &str| {
        let v = v.trim_start_matches(['+', '-']);
        let digits = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
        let n: u128 = v[..digits].parse().ok()?;
        let unit: u128 = match v[digits..].trim_end_matches(['B', 'i']) {
            "" => 1,
            "K" | "k" => 1 << 10,
            "M" => 1 << 20,
            "G" => 1 << 30,
            "T" => 1 << 40,
            "P" => 1 << 50,
            "E" => 1 << 60,
            _ => return None,
        };
        Some(n.saturating_mul(unit))
    };
    let mut k = 0;
    while let Some(a) = args.get(k) {
        let value = match a.as_str() {
            "-c" | "-n" | "--bytes" | "--lines" => args.get(k + 1).map(String::as_str),
            _ => a
                .strip_prefix("--bytes=")
                .or_else(|| a.strip_prefix("--lines="))
                .or_else(|| a.strip_prefix("-c").filter(|v| !v.is_empty()))
                .or_else(|| a.strip_prefix("-n").filter(|v| !v.is_empty())),
        };
        if value.and_then(size).is_some_and(|n| n >= HUGE) {
            return true;
        }
        k += 1;
    }
    false
}

/// What an endless stream does at one command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    /// What the command prints is endless.
    Endless,
    /// It prints an end, or nothing endless reached it.
    Ends,
    /// It writes the endless stream to a file: the disk fills.
    FillsDisk,
    /// It starts a process per item of the endless stream, all at once.
    SpawnsWithoutBound,
    /// It keeps the endless stream, in memory or in temporary files.
    Hoards,
}

/// Why `xargs -P 0` given endless input, or one item per process of input not known, is
/// a process bomb.
pub(super) const XARGS_BOMB: &str = "`xargs -P 0` starts a process for each item of its input, all at once, and that input may never end or be huge (a fork bomb)";

impl Outcome {
    /// Why a line holding the command cannot be read as harmless, if it cannot: a process
    /// bomb has no command that filters could match.
    pub(super) fn reason(self) -> Option<&'static str> {
        match self {
            Outcome::SpawnsWithoutBound => Some(XARGS_BOMB),
            Outcome::Hoards => Some(
                "a command keeps all of a stream that never ends (`yes | sort`, `awk 1 /dev/zero`): a memory or disk bomb",
            ),
            _ => None,
        }
    }
}

/// For a command that [fills the disk](Outcome::FillsDisk), what it amounts to for each
/// file it writes: `dd if=/dev/zero of=FILE` with no count, the command filters know as a
/// disk filler (its verb `fill`).
pub(super) fn fills(command: &SimpleCommand) -> Vec<SimpleCommand> {
    // `dd if=/dev/zero of=f` is that command already.
    if command.program == "dd" && source(command) {
        return Vec::new();
    }
    effects::touches(command)
        .iter()
        .filter(|t| matches!(t.touch, Touch::Overwrite | Touch::Append))
        .map(|t| {
            SimpleCommand::implied(
                "dd",
                vec!["if=/dev/zero".to_owned(), format!("of={}", t.path)],
                Some("as an endless stream written to a file".to_owned()),
            )
        })
        .collect()
}

/// The command of a pipeline stage that reads its input and writes its output, from what
/// the stage recorded: its program, or what a wrapper runs (`nohup yes > f`), with the
/// wrapper's redirections.
pub(super) fn doer(stage: &[SimpleCommand]) -> Option<Cow<'_, SimpleCommand>> {
    let mut redirects = Vec::new();
    for command in stage {
        if super::programs::runs_in_place(&command.program) {
            redirects.extend(command.redirects.iter().cloned());
            continue;
        }
        if redirects.is_empty() {
            return Some(Cow::Borrowed(command));
        }
        let mut doer = command.clone();
        doer.redirects.extend(redirects);
        return Some(Cow::Owned(doer));
    }
    None
}

/// What `command` does with its input (`endless_in`: whether that input never ends).
pub(super) fn judge(command: &SimpleCommand, endless_in: bool) -> Outcome {
    let program = command.program.as_str();
    if endless_in && program == "xargs" && unbounded_parallel(&command.args) {
        return Outcome::SpawnsWithoutBound;
    }
    let line_reader =
        LINE_READERS.contains(&program) || program == "tail" && keeps_last_lines(&command.args);
    let zero_line = line_reader && reads(command, &["/dev/zero"]);
    let hoarder =
        HOARDERS.contains(&program) || program == "tail" && keeps_a_huge_tail(&command.args);
    if zero_line || (hoarder && (endless_in || reads(command, ENDLESS_DEVICES))) {
        return Outcome::Hoards;
    }
    if matches!(program, "jq" | "gojq" | "jaq") && jq_hoards(&command.args) {
        return Outcome::Hoards;
    }
    let endless = source(command) || (endless_in && passes_on(command));
    if !endless {
        return Outcome::Ends;
    }
    let writes = effects::touches(command)
        .iter()
        .any(|t| matches!(t.touch, Touch::Overwrite | Touch::Append));
    if writes {
        Outcome::FillsDisk
    } else {
        Outcome::Endless
    }
}

/// Whether `command` names one of `devices` as an operand or reads it on its input.
fn reads(command: &SimpleCommand, devices: &[&str]) -> bool {
    command.args.iter().any(|a| devices.contains(&a.as_str()))
        || command
            .redirects
            .iter()
            .any(|r| r.op == "<" && devices.contains(&r.target.as_str()))
}

/// Whether `command` prints without end whatever it reads: `yes`, `seq inf`, a filter or
/// `cp` of an endless device, `dd` from one with no count.
fn source(command: &SimpleCommand) -> bool {
    let args = &command.args;
    let device = |w: &str| ENDLESS_DEVICES.contains(&w);
    let reads_device = reads(command, ENDLESS_DEVICES);
    match command.program.as_str() {
        "yes" => true,
        "seq" => args
            .iter()
            .any(|a| matches!(a.to_ascii_lowercase().as_str(), "inf" | "+inf" | "infinity")),
        "cp" => args.iter().any(|a| device(a)),
        // `curl file:///dev/zero`, unless `-r` asks for a range of bytes.
        "curl" => {
            let range = |a: &String| a.starts_with("-r") || a.starts_with("--range");
            args.iter()
                .any(|a| file_url_path(a).is_some_and(|p| device(&p)))
                && !args.iter().any(range)
        }
        "dd" => {
            args.iter()
                .any(|a| a.strip_prefix("if=").is_some_and(device))
                && !args.iter().any(|a| a.starts_with("count="))
        }
        "jq" | "gojq" | "jaq" => jq_endless(args),
        p => FILTERS.contains(&p) && reads_device && !bounded(command),
    }
}

/// Whether a jq program generates without end (`repeat(f)`, `range(infinite)`,
/// `while(true; ...)`, `until(false; ...)`) with nothing to cut it (`limit`, `first`).
/// The program is looked for in every argument: an input file named so is unlikely.
fn jq_endless(args: &[String]) -> bool {
    const GENERATORS: &[&str] = &[
        "repeat(",
        "infinite",
        "while(true",
        "until(false",
        "recurse(.+",
    ];
    args.iter().any(|a| {
        let bare: String = a.chars().filter(|c| !c.is_whitespace()).collect();
        GENERATORS.iter().any(|g| bare.contains(g))
            && !bare.contains("limit(")
            && !bare.contains("first(")
    })
}

/// Whether a jq program keeps all its endless output: collected in an array, reduced, or
/// counted (`[repeat("x")]`, `[range(infinite)] | length`).
fn jq_hoards(args: &[String]) -> bool {
    jq_endless(args)
        && args
            .iter()
            .any(|a| a.contains('[') || a.contains("reduce") || a.contains("foreach"))
}

/// Whether `command` passes its endless input on: a filter not bounded by an option, or a
/// `dd` with no count.
fn passes_on(command: &SimpleCommand) -> bool {
    match command.program.as_str() {
        "dd" => !command.args.iter().any(|a| a.starts_with("count=")),
        p => FILTERS.contains(&p) && !bounded(command),
    }
}

/// Whether an option makes the filter stop after a number of bytes or lines: `od -N`,
/// `xxd -l`, `hexdump -n`, `pv -S`, `tail -n`/`-c` (which print only the end, so never
/// print anything of an endless stream).
fn bounded(command: &SimpleCommand) -> bool {
    let bounds: &[&str] = match command.program.as_str() {
        "od" => &["-N", "--read-bytes"],
        "xxd" => &["-l", "-len"],
        "hexdump" => &["-n", "--length"],
        "pv" => &["-S", "--stop-at-size"],
        // `tail -f` and `tail -c +N`/`-n +N` print from a point on, for as long as it comes.
        "tail" => {
            return !command.args.iter().enumerate().any(|(k, a)| {
                a.starts_with("-f")
                    || a == "--follow"
                    || a.starts_with('+')
                    || ((a == "-c" || a == "-n")
                        && command.args.get(k + 1).is_some_and(|n| n.starts_with('+')))
                    || a.starts_with("-c+")
                    || a.starts_with("-n+")
            });
        }
        _ => return false,
    };
    command.args.iter().any(|a| {
        bounds
            .iter()
            .any(|b| a == b || (a.starts_with(b) && a.len() > b.len()))
    })
}

/// `xargs -P 0` (or `--max-procs=0`): as many processes at once as there are items.
fn unbounded_parallel(args: &[String]) -> bool {
    args.iter().enumerate().any(|(k, a)| {
        matches!(a.as_str(), "-P0" | "--max-procs=0")
            || ((a == "-P" || a == "--max-procs") && args.get(k + 1).is_some_and(|n| n == "0"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first command of `line` as the reader records it.
    fn one(line: &str) -> SimpleCommand {
        super::super::parse(line).commands.remove(0)
    }

    #[test]
    fn endless_streams_written_to_files_fill_the_disk() {
        use Outcome::*;
        for (command, endless_in, want) in [
            ("cat /dev/zero", false, Endless),
            ("yes", false, Endless),
            ("seq inf", false, Endless),
            ("tee f", true, FillsDisk),
            ("gzip > f.gz", true, FillsDisk),
            ("dd of=f", true, FillsDisk),
            ("cp /dev/zero f", false, FillsDisk),
            ("tail -c +1 /dev/zero > big", false, FillsDisk),
            // tail keeps the last lines until the input ends: of /dev/zero, one line that
            // grows until memory runs out (GNU tail: "memory exhausted", with or without
            // `-f`), and nothing is written.
            ("tail -f /dev/zero > big", false, Hoards),
            ("pv /dev/urandom > f", false, FillsDisk),
            ("gzip -c < /dev/zero > z.gz", false, FillsDisk),
            (
                "curl -s file:///dev/zero -o build/cache.bin",
                false,
                FillsDisk,
            ),
            ("curl -s FILE://localhost/dev/%7Aero > f", false, FillsDisk),
            ("curl file:///dev/urandom", false, Endless),
            ("xargs -P0 -n1 sleep", true, SpawnsWithoutBound),
            ("xargs -P 0 touch", true, SpawnsWithoutBound),
            // jq's own endless generators: kept whole in an array, printed, or written.
            ("jq -n '[repeat(\"x\")] | length'", false, Hoards),
            ("jq -n '[range(infinite)]'", false, Hoards),
            ("jq -n 'repeat(1)'", false, Endless),
            ("jq -n 'while(true; .+1)' > f", false, FillsDisk),
        ] {
            assert_eq!(judge(&one(command), endless_in), want, "{command}");
        }
    }

    #[test]
    fn bounded_reads_of_endless_streams_end() {
        for (command, endless_in) in [
            ("head -n 100 > lines.txt", true),
            ("head -c 32 /dev/urandom > key.bin", false),
            ("od -An -N 16 -tx1 /dev/urandom > seed", false),
            ("xxd -l 16 -p /dev/urandom > token", false),
            ("dd if=/dev/zero of=disk.img bs=1M count=16", false),
            ("dd of=f bs=1M count=4", true),
            ("apt-get install -y curl", true),
            ("xargs -P0 -n1 echo", false),
            ("xargs -P 4 -n1 echo", true),
            ("jq -n '[limit(5; repeat(1))]'", false),
            ("jq '.items[] | .name' data.json", false),
            ("tail -n 5 log.txt > last", false),
            ("tail -c 100 /dev/zero", false),
            ("tee b.txt", false),
            ("cat /dev/null > f", false),
        ] {
            assert_eq!(judge(&one(command), endless_in), Outcome::Ends, "{command}");
        }
    }
}
