//! The path-like arguments of a tool call, normalised, for `match.pathGlob`.

mod host;
mod lexical;

use serde_json::{Map, Value};

use super::sed_script;
use super::shell::effects;
use super::shell::{CommandLine, SimpleCommand};
pub(super) use host::{expand_on_host, real_paths};
pub(crate) use lexical::{after_home_variable, below_proc_root, normalize};

/// `toolArgs` fields that name files for the file tools (Claude Code's `file_path` and
/// `notebook_path`, OpenClaw's `path`, and common spellings of both).
const PATH_FIELDS: &[&str] = &[
    "path",
    "file_path",
    "filePath",
    "notebook_path",
    "paths",
    "file",
    "filename",
    "source",
    "destination",
];

/// Most wildcard paths (`~/.ssh/*`) of one call tested for what they could name; a call
/// with more matches a `pathGlob` outright.
pub(crate) const MAX_WILDCARD_PATHS: usize = 32;

/// Programs whose arguments are text or numbers, not files: only their redirections name
/// files. `command-from-data awk COMMAND` stands for a command awk builds from its data,
/// whose own commands are read and recorded beside it; `kill` and `wait` take process and
/// job ids (`kill $!`, which the reader writes `*`, as it writes `$$`).
const TEXT_PROGRAMS: &[&str] = &[
    "echo",
    "printf",
    "command-from-data",
    "kill",
    "wait",
    "sleep",
    "exit",
    "return",
    "seq",
];

/// The path-field values of `args`, normalised.
pub(super) fn of_tool_args(args: &Map<String, Value>, out: &mut Vec<String>) {
    for field in PATH_FIELDS {
        match args.get(*field) {
            Some(Value::String(p)) => out.push(normalize(p)),
            Some(Value::Array(items)) => {
                out.extend(items.iter().filter_map(Value::as_str).map(normalize));
            }
            _ => {}
        }
    }
}

/// Every argument and redirection target of `line`'s commands that could be a path,
/// normalised; a relative path after `cd dir` is joined to `dir`.
pub(super) fn of_command_line(line: &CommandLine, out: &mut Vec<String>) {
    collect(line, false, out);
}

/// [`of_command_line`] without the paths a command only writes, for `match.readGlob`: what
/// the reader's effects say it overwrites or appends to without reading (`> f`, `cp a f`,
/// `tee f`, `dd of=f`; see [`effects::written_unread`]).
pub(super) fn read_of_command_line(line: &CommandLine, out: &mut Vec<String>) {
    collect(line, true, out);
}

fn collect(line: &CommandLine, reads_only: bool, out: &mut Vec<String>) {
    collect_where(line, reads_only, |_| true, out);
}

/// [`collect`] for the commands `keep` takes only. A relative path is read in the
/// directory its command runs in (`cd build && rm -rf ./*` is `build/*`); where the line
/// went somewhere the reader cannot know (`cd "$X"`, or a `cd` that may have failed before
/// a `;`), as written.
pub(super) fn collect_where(
    line: &CommandLine,
    reads_only: bool,
    keep: impl Fn(&SimpleCommand) -> bool,
    out: &mut Vec<String>,
) {
    for command in line.commands.iter().filter(|c| keep(c)) {
        let recursive = reads_trees(command);
        // tar's `-C DIR` is where it goes, not what it reads (its members joined to it are
        // a command of their own).
        let tar_dir = |word: &str| {
            command.program.ends_with("tar")
                && command.args.windows(2).any(|w| {
                    (w[0] == "-C" || w[0] == "--directory") && std::ptr::eq(w[1].as_str(), word)
                })
        };
        for word in words(command, reads_only) {
            let path = match command.dir.as_deref() {
                Some(dir) if dir != "." && !word.starts_with(['/', '~', '$']) => {
                    normalize(&format!("{dir}/{word}"))
                }
                _ => normalize(word),
            };
            // The home directory, the root, /etc or /var/backups (where the shadow backups
            // are) read whole (`tar czf x.tgz ~`, `rsync -a / build/`) reads every file
            // below it, the credential files among them.
            if recursive
                && !tar_dir(word)
                && matches!(
                    path.as_str(),
                    "~" | "/" | "/home" | "/root" | "/Users" | "/etc" | "/var/backups"
                )
            {
                out.push(format!("{}/**/*", path.trim_end_matches('/')));
            }
            out.push(path);
        }
    }
}

/// Whether `command` reads the directories it is given whole: an archiver creating an
/// archive, a recursive copy, a sync.
fn reads_trees(command: &SimpleCommand) -> bool {
    let args = &command.args;
    let short = |letters: &str| {
        args.iter().any(|a| {
            a.strip_prefix('-')
                .is_some_and(|b| !b.starts_with('-') && b.chars().any(|c| letters.contains(c)))
        })
    };
    let long = |names: &[&str]| args.iter().any(|a| names.contains(&a.as_str()));
    let subcommand = |names: &[&str]| {
        args.iter()
            .find(|a| !a.starts_with('-'))
            .is_some_and(|a| names.contains(&a.as_str()))
    };
    match command.program.as_str() {
        // `tar czf`, `tar -cf`, `tar --create`; and the members the reader joined to a
        // `-C DIR`, a command of their own with no options (`tar ~/.`).
        "tar" | "bsdtar" | "gtar" => {
            args.first()
                .is_some_and(|a| !a.starts_with('-') && a.contains('c'))
                || short("c")
                || long(&["--create"])
                || !args.is_empty() && args.iter().all(|a| !a.starts_with('-'))
        }
        "zip" => short("r") || long(&["--recurse-paths"]),
        // A recursive search reads every file below (`grep -rhoE 'ghp_\w+' ~`); ripgrep
        // skips hidden files, `.ssh` and `.aws` among them, unless told not to.
        "grep" | "egrep" | "fgrep" => {
            short("rR") || long(&["--recursive", "--dereference-recursive"])
        }
        "rg" => long(&["--hidden", "-uu", "-uuu", "-.", "--unrestricted"]),
        // A build's context is sent whole to the daemon, which may be another machine
        // (`DOCKER_HOST=tcp://... docker build -f - ~`).
        "docker" | "podman" | "nerdctl" | "buildah" => long(&["build", "buildx", "bud"]),
        "cp" => short("rRa") || long(&["--recursive", "--archive"]),
        "rsync" => short("ra") || long(&["--recursive", "--archive"]),
        "scp" => short("r"),
        "pax" => short("w"),
        "7z" | "7za" | "7zz" => args.first().is_some_and(|a| a == "a"),
        "rclone" => subcommand(&["copy", "sync", "move", "copyto"]),
        // Backups take the directories they are given whole (the subcommand may come after
        // an option's value: `restic -r REPO backup DIR`).
        "restic" | "rustic" => long(&["backup"]),
        "borg" | "borgbackup" => long(&["create"]),
        "kopia" => long(&["snapshot", "snap"]) && long(&["create"]),
        "tarsnap" => short("c"),
        "duplicity" => !long(&[
            "restore",
            "verify",
            "list-current-files",
            "collection-status",
        ]),
        // Uploads of a directory to cloud storage.
        "aws" => long(&["s3"]) && (long(&["sync"]) || long(&["cp"]) && long(&["--recursive"])),
        "gsutil" => long(&["rsync"]) || long(&["cp"]) && short("rR"),
        _ => false,
    }
}

/// The words of `command` that may name a file it reads, as written (relative to the
/// command's directory): what [`read_of_command_line`] collects, for one command, without
/// streams (`< /dev/null`, `2> /dev/null`). This is what `match.reads` places.
pub fn read_words(command: &SimpleCommand) -> Vec<&str> {
    let mut words = words(command, true);
    words.retain(|w| !effects::is_stream(w));
    words
}

/// The arguments and redirection targets of `command` that could be paths (`@file` as
/// `file`, and `--file=path` also as `path`), without a searcher's pattern or what
/// `echo` prints; with `reads_only`, without what it only writes.
fn words(command: &SimpleCommand, reads_only: bool) -> Vec<&str> {
    let written = match reads_only {
        true => effects::written_unread(command),
        false => Vec::new(),
    };
    // A word is skipped when a write names it or part of it (`of=f`): the effects borrow
    // their paths from the words, so this is where they point.
    let only_written = |arg: &str| {
        let range = arg.as_ptr() as usize..arg.as_ptr() as usize + arg.len().max(1);
        written
            .iter()
            .any(|w| range.contains(&(w.as_ptr() as usize)))
    };
    fn push<'c>(out: &mut Vec<&'c str>, word: &'c str) {
        let word = word.strip_prefix('@').unwrap_or(word);
        out.push(word);
        // `--file=path`, `of=/dev/sda`
        if let Some((_, value)) = word.split_once('=') {
            out.push(value.strip_prefix('@').unwrap_or(value));
        }
    }
    let mut out = Vec::new();
    // `cd DIR` goes there and reads or writes nothing (`cd /tmp/x*` opens no
    // `/tmp/x.pem`); the commands after it name their paths in it.
    let goes_only = matches!(command.program.as_str(), "cd" | "pushd");
    // `rm`, `rmdir` and `unlink` remove names without opening what they hold: for
    // `readGlob` they read nothing (what they delete is for the delete rules).
    let deletes_only = reads_only && matches!(command.program.as_str(), "rm" | "rmdir" | "unlink");
    // `sed -i` with only substitutions writes back what it reads and shows none of it:
    // for `readGlob` it reads nothing (what it writes is for the write rules).
    let edits_only =
        reads_only && command.program == "sed" && sed_script::only_edits(&command.args);
    if !TEXT_PROGRAMS.contains(&command.program.as_str())
        && !names_without_reading(command)
        && !goes_only
        && !deletes_only
        && !edits_only
    {
        let pattern = search_pattern(&command.program, &command.args);
        let script = super::shell::script_operand(&command.program, &command.args);
        let http = super::shell::http::is_client(&command.program);
        let mut after_test = false;
        let git = command.program == "git";
        // awk's `-v NAME=VALUE` and `NAME=VALUE` operands set variables: values, not files.
        let assignments = super::shell::awk_assignments(&command.program, &command.args);
        let searcher = SEARCHERS.iter().any(|(p, _)| *p == command.program);
        let names_resources = names_resources(command);
        for (k, a) in command.args.iter().enumerate() {
            // `find . -name '.env*'`: a test's pattern, not a file; `git commit -m MSG`: a
            // message (`-F FILE` reads a file, and stays); a searcher's file-name filter
            // (`rg --glob 'config/**'`, `grep --include='*.py'`) narrows what it reads.
            let test_value = assignments[k]
                || std::mem::take(&mut after_test)
                || git && (a.starts_with("--message=") || a.starts_with("-m") && a.len() > 2)
                || searcher
                    && NAME_FILTERS
                        .iter()
                        .any(|f| a.strip_prefix(f).is_some_and(|v| v.starts_with('=')));
            after_test = command.program == "find"
                && super::shell::FIND_PATTERN_TESTS.contains(&a.as_str())
                || git && (a == "-m" || a == "--message")
                || searcher && NAME_FILTERS.contains(&a.as_str())
                || matches!(
                    (command.program.as_str(), a.as_str()),
                    ("rg", "-g" | "-t" | "-T") | ("ag", "-g" | "-G")
                );
            let resource = names_resources
                && !a.starts_with('-')
                && !k
                    .checked_sub(1)
                    .and_then(|j| command.args.get(j))
                    .is_some_and(|o| KUBECTL_FILE_OPTIONS.contains(&o.as_str()));
            let skipped = Some(k) == pattern
                || Some(k) == script
                || test_value
                || resource
                || (http && is_web_url(a));
            if !skipped && !only_written(a) {
                push(&mut out, a);
            }
        }
    }
    for r in &command.redirects {
        if !only_written(&r.target) {
            push(&mut out, &r.target);
        }
    }
    out
}

/// Whether `command` names files without reading what they hold, or reads them and prints
/// nothing of it: git's `check-ignore`, `check-attr`, `status`, `ls-files` and `rm
/// --cached` (`git rm --cached .env` takes the file out of the index and leaves it where
/// it is); `wc`'s counts; a `grep` that says only whether settings are there
/// ([`grep_prints_no_content`]).
fn names_without_reading(command: &SimpleCommand) -> bool {
    match command.program.as_str() {
        "git" if revisions_only(&command.args) => return true,
        "git" => {}
        // `--files0-from=F` prints the names F holds, in its messages too.
        "wc" => return !command.args.iter().any(|a| a.starts_with("--files0-from")),
        "grep" | "egrep" | "fgrep" => return grep_prints_no_content(command),
        _ => return false,
    }
    let mut operands = command.args.iter().filter(|a| !a.starts_with('-'));
    match operands.next().map(String::as_str) {
        Some("check-ignore" | "check-attr" | "status" | "ls-files") => true,
        Some("rm") => command.args.iter().any(|a| a == "--cached"),
        _ => false,
    }
}

/// Whether a git command's operands are revisions, branches or remotes, never files, and
/// it reads no file named on its line (`git merge-base --is-ancestor "$b" "origin/$main"`,
/// `git branch -d -- "$b"`): not `-F`/`--file`, which read a message from a file.
fn revisions_only(args: &[String]) -> bool {
    const SUBCOMMANDS: &[&str] = &[
        "merge-base",
        "branch",
        "symbolic-ref",
        "for-each-ref",
        "rev-list",
        "describe",
        "fetch",
        "pull",
        "push",
        "remote",
        "switch",
    ];
    let Some(sub) = args.iter().find(|a| !a.starts_with('-')) else {
        return false;
    };
    SUBCOMMANDS.contains(&sub.as_str())
        && !args
            .iter()
            .any(|a| a == "-F" || a.starts_with("--file") || a.starts_with("-F"))
}

/// Whether a `grep` prints only whether, how often or in which files a line starts with a
/// setting's name and `=` (`grep -q '^DATABASE_URL=' .env`), or holds a `=` at all (`grep
/// -c = .env`). Probes like these learn which settings a file has, not their values: a
/// pattern that is not anchored at a name, or a fixed string, can be matched against the
/// end of a value or of a key's line, one character at a time.
fn grep_prints_no_content(command: &SimpleCommand) -> bool {
    let args = &command.args;
    let Some(pattern) = search_pattern(&command.program, args).and_then(|k| args.get(k)) else {
        return false;
    };
    let (mut quiet, mut fixed) = (false, command.program == "fgrep");
    for a in args.iter().filter(|a| *a != pattern) {
        match a.as_str() {
            "--" => break,
            "--quiet"
            | "--silent"
            | "--count"
            | "--files-with-matches"
            | "--files-without-match" => quiet = true,
            "--fixed-strings" => fixed = true,
            long if long.starts_with("--") => {}
            short if short.starts_with('-') => {
                for c in short.chars().skip(1) {
                    match c {
                        'q' | 'c' | 'l' | 'L' => quiet = true,
                        'F' => fixed = true,
                        // The rest of the word is this option's value.
                        'e' | 'f' | 'm' | 'A' | 'B' | 'C' | 'd' | 'D' => break,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    let setting = pattern
        .strip_prefix('^')
        .and_then(|p| p.strip_suffix('='))
        .is_some_and(|name| {
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    quiet && (pattern == "=" || !fixed && setting)
}

/// Searchers' options whose value filters the names of the files searched, not a file.
const NAME_FILTERS: &[&str] = &[
    "--glob",
    "--iglob",
    "--include",
    "--exclude",
    "--exclude-dir",
    "--include-dir",
    "--type",
    "--type-not",
    "--ignore-dir",
];

/// kubectl's options whose value is a local file (or a directory of them).
const KUBECTL_FILE_OPTIONS: &[&str] = &[
    "-f",
    "--filename",
    "-k",
    "--kustomize",
    "--kubeconfig",
    "--from-file",
    "--from-env-file",
    "--client-key",
    "--client-certificate",
    "--certificate-authority",
    "--token-file",
];

/// Whether `command`'s operands name cluster resources, not files: kubectl's (`kubectl
/// rollout status "deploy/$svc"`), which reads local files only as the values of
/// [`KUBECTL_FILE_OPTIONS`]; `kubectl cp` copies local paths and keeps them.
fn names_resources(command: &SimpleCommand) -> bool {
    matches!(command.program.as_str(), "kubectl" | "oc")
        && command
            .args
            .iter()
            .find(|a| !a.starts_with('-'))
            .is_none_or(|a| a != "cp")
}

/// Whether `arg`, given to an HTTP client, is a web URL (`https://h/x`, `localhost:3000/x`)
/// rather than a file: `file://` URLs and paths stay files.
fn is_web_url(arg: &str) -> bool {
    if let Some((scheme, _)) = arg.split_once("://") {
        return !scheme.eq_ignore_ascii_case("file")
            && scheme.bytes().all(|b| b.is_ascii_alphanumeric());
    }
    !arg.starts_with(['/', '.', '~', '@', '-'])
        && arg
            .split('/')
            .next()
            .is_some_and(|host| host.contains(':') && !host.contains('='))
}

/// Searchers whose first operand is the pattern searched for, not a file (`grep -rn
/// "/etc/shadow" src/`), and their options that take a value in the next argument.
const SEARCHERS: &[(&str, &[&str])] = &[
    (
        "grep",
        &[
            "-A",
            "-B",
            "-C",
            "-d",
            "-D",
            "-m",
            "--context",
            "--max-count",
        ],
    ),
    ("egrep", &["-A", "-B", "-C", "-d", "-D", "-m"]),
    ("fgrep", &["-A", "-B", "-C", "-d", "-D", "-m"]),
    ("zgrep", &["-A", "-B", "-C", "-m"]),
    (
        "rg",
        &[
            "-A",
            "-B",
            "-C",
            "-g",
            "-t",
            "-T",
            "-m",
            "-j",
            "-M",
            "--glob",
            "--type",
            "--type-not",
            "--max-count",
        ],
    ),
    ("ag", &["-A", "-B", "-C", "-G", "-m", "--ignore"]),
    ("ack", &["-A", "-B", "-C", "-m"]),
];

/// The index in `args` of the pattern operand of a searcher (`git grep` included), if it
/// has one: none when the pattern comes from `-e`/`-f`.
fn search_pattern(program: &str, args: &[String]) -> Option<usize> {
    let (args, offset, with_value) = match program {
        "git" => {
            let sub = args.iter().position(|a| !a.starts_with('-'))?;
            (args[sub] == "grep").then_some(())?;
            (
                &args[sub + 1..],
                sub + 1,
                ["-A", "-B", "-C", "-m", "--max-count"].as_slice(),
            )
        }
        p => {
            let (_, with_value) = SEARCHERS.iter().find(|(name, _)| *name == p)?;
            (args, 0, *with_value)
        }
    };
    // grep's and rg's `-e`/`-f` in a bundle (`-qf FILE`, `-epattern`).
    let bundles_e_f = matches!(program, "git" | "grep" | "egrep" | "fgrep" | "rg");
    let mut k = 0;
    while let Some(a) = args.get(k) {
        if matches!(a.as_str(), "-e" | "-f" | "--regexp" | "--file")
            || a.starts_with("--regexp=")
            || a.starts_with("--file=")
            || bundles_e_f
                && a.starts_with('-')
                && !a.starts_with("--")
                && a.len() > 2
                && a[1..].contains(['e', 'f'])
        {
            return None;
        }
        if a == "--" {
            return args.get(k + 1).map(|_| offset + k + 1);
        }
        if !a.starts_with('-') || a == "-" {
            return Some(offset + k);
        }
        k += if with_value.contains(&a.as_str()) {
            2
        } else {
            1
        };
    }
    None
}

#[cfg(test)]
mod tests;
