//! What the code reader found the code does (deletes, writes, runs), given to the reader as
//! the simple commands filters already see.

use super::super::shell_c_reading;
use crate::matcher::code::{Effect, Found, Val};
use crate::matcher::shell::SUBSTITUTION;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader};

/// File tools that read every word after `--` as an operand (getopt's convention).
pub(super) const ENDS_OPTIONS_AT_DASHES: &[&str] = &[
    "rm", "rmdir", "unlink", "shred", "mv", "cp", "ln", "install", "chmod", "chown", "chgrp",
    "truncate", "tee", "cat", "touch", "mkdir",
];

/// The programs code's own file operations are read as, which take no options from it.
const FILE_OPERATIONS: &[&str] = &[
    "mv", "cp", "ln", "tee", "cat", "mkdir", "rmdir", "rm", "chmod", "chown", "touch", "unlink",
];

/// Most paths one operand's `{a,b}` groups stand for; past it, the operand is not known.
const MOST_ALTERNATIVES: usize = 64;

/// `DIR/{a,b}/x`, a path with names that are one of several (`if d in ('a', 'b')` narrows
/// a listing so), as the paths it names, as bash expands braces among a command's words: a
/// word of the code's is a literal to every filter, which would take the braces for part of
/// a name. Any other word is itself.
fn alternatives(arg: &Val) -> Vec<Val> {
    let Some(text) = arg.text().filter(|t| t.contains('{')) else {
        return vec![arg.clone()];
    };
    let mut done = Vec::new();
    let mut open = vec![text.to_owned()];
    while let Some(path) = open.pop() {
        let group = path.find('{').and_then(|start| {
            let len = path[start..].find('}')?;
            let inner = &path[start + 1..start + len];
            (inner.contains(',') && !inner.contains('{')).then_some((start, start + len))
        });
        let Some((start, end)) = group else {
            done.push(Val::Known(path));
            continue;
        };
        for name in path[start + 1..end].split(',') {
            open.push(format!("{}{name}{}", &path[..start], &path[end + 1..]));
        }
        if open.len() + done.len() > MOST_ALTERNATIVES {
            return vec![Val::Unknown];
        }
    }
    done.reverse();
    done
}

/// Records what one effect runs.
pub(super) fn effect(r: &mut Reader, effect: Effect) {
    match effect {
        // The code's input, as for `Exec` below (Perl's `open(STDIN, ">&S"); exec "/bin/sh -i"`).
        Effect::Shell(Val::Known(script)) => shell_c_reading(r, &script, Data::Unknown),
        Effect::Shell(Val::Fetched) => {
            r.unreadable("the code runs a command it downloaded or decoded");
        }
        Effect::Shell(Val::Unknown | Val::Prefix(_) | Val::NameIn(_)) => {
            r.unreadable("the code runs a shell command built at run time");
        }
        // What a program started by code reads on its input is the code's to choose: a
        // socket it connected (`os.dup2(s.fileno(), 0)` before `sh -i`), data it holds. So a
        // shell or interpreter started with no script reads an unknown one.
        Effect::Load(_) if r.in_host_file() => {}
        Effect::Exec(mut argv) | Effect::Load(mut argv) => {
            // A program the code found on `PATH` (`shutil.which('pytest')`, read as
            // `/**/pytest`) runs as its name does in the shell.
            if let Some(Val::Known(program)) = argv.first_mut()
                && let Some(name) = program.strip_prefix("/**/")
                && !name.contains(['/', '*', '?', '[', '{'])
            {
                *program = name.to_owned();
            }
            let argv: Vec<Val> = argv.iter().flat_map(alternatives).collect();
            for fields in fields_of(&argv) {
                r.run(fields, &Io::default(), Data::Unknown, &[]);
            }
        }
        Effect::ModulePath(path) => {
            let downloaded = match &path {
                Val::Known(p) => r.env.holds_unknown_below(p.trim_end_matches('/')),
                Val::Fetched => true,
                Val::Unknown | Val::Prefix(_) | Val::NameIn(_) => false,
            };
            if downloaded {
                r.unreadable("the code imports modules from where the line downloaded them");
            }
        }
        // What the code writes, when known, is the file's text: a script run from it is read.
        Effect::Write(args, text) => {
            // Nothing written over a file (`File.write(f, "")`) is the file emptied.
            let appends = args.iter().any(|a| a.text() == Some("-a"));
            let mut argv = if text == Val::known("") && !appends {
                ["truncate", "-s", "0"].map(Val::known).to_vec()
            } else {
                vec![Val::known("tee")]
            };
            argv.extend(args.iter().flat_map(alternatives));
            let data = match text {
                Val::Known(text) => Data::Known(text),
                _ => Data::Unknown,
            };
            for fields in fields_of(&argv) {
                r.run(fields, &Io::default(), data.clone(), &[]);
            }
        }
        Effect::Command(program, args) => {
            let fields = match (program, args.as_slice()) {
                // A raw connection reads as the program that makes one: `nc HOST PORT`.
                ("curl", [Val::Known(url)]) if url.starts_with("tcp://") => {
                    let address = url.trim_start_matches("tcp://");
                    let (host, port) = address.rsplit_once(':').unwrap_or((address, ""));
                    let host = host.trim_start_matches('[').trim_end_matches(']');
                    ["nc", host, port]
                        .iter()
                        .filter(|w| !w.is_empty())
                        .map(|w| Field::literal(w))
                        .collect()
                }
                _ => {
                    let mut argv = vec![Val::known(program)];
                    // A file operation of the code's own (`rename($a, $b)`, `os.remove(p)`,
                    // `shutil.rmtree(p)` read as `rm -r -f`) parses no options: a value not
                    // known there is a path, never a flag, as `--` after the flags its
                    // reading gives it says to the program read in its place.
                    let flag = |a: &Val| a.text().is_some_and(|t| t.starts_with('-'));
                    let flags = args.iter().take_while(|a| flag(a)).count();
                    let operands = &args[flags..];
                    let unknown = operands.iter().any(|a| a.text().is_none());
                    let mut args: Vec<Val> = args.iter().flat_map(alternatives).collect();
                    if unknown && !operands.iter().any(flag) && FILE_OPERATIONS.contains(&program) {
                        args.insert(flags, Val::known("--"));
                    }
                    argv.extend(args);
                    // Its input is the code's own (`runpy.run_path('/dev/stdin')`), as for
                    // `Exec` above.
                    for fields in fields_of(&argv) {
                        let first = r.recorded();
                        r.run(fields, &Io::default(), Data::Unknown, &[]);
                        // `cp /dev/zero f` from code fills the disk as in the shell.
                        r.judge_recorded(first, false);
                    }
                    return;
                }
            };
            r.run(fields, &Io::default(), Data::Nothing, &[]);
        }
    }
}

/// Values of the code as the fields of a command: an unknown one reads as a substitution
/// would. A value known only by how it starts (`home + '/.ssh/' + name`) gives the command
/// twice: once with it not known, as it may hold anything after its start (`../..`), and
/// once as the pattern `START*`, for the filters that look at where it points. A name in a
/// directory is `DIR/*`, and again `DIR/..`.
fn fields_of(values: &[Val]) -> Vec<Vec<Field>> {
    // How the command is read again: a value known by its start as a pattern; a name in a
    // directory as `..` (pathlib's `with_name('..')` climbs).
    #[derive(PartialEq)]
    enum Reading {
        First,
        Patterns,
        Parents,
    }
    let field = |value: &Val, reading: &Reading| match value {
        // An option whose value is not known (`'--level=' . getenv('L')`) is neither an
        // operand nor a pattern: read as the shell reads `--level=$L`.
        Val::Prefix(start) if is_option(start) => Field {
            text: format!("{start}{SUBSTITUTION}"),
            unknown: true,
            ..Field::default()
        },
        Val::Known(text) => Field {
            text: text.clone(),
            quoted: true,
            ..Field::default()
        },
        Val::Prefix(start) if *reading == Reading::Patterns => Field {
            text: format!("{start}*"),
            glob: true,
            ..Field::default()
        },
        Val::NameIn(dir) if *reading == Reading::Parents => Field {
            text: format!("{dir}.."),
            quoted: true,
            ..Field::default()
        },
        // One name, in a directory: the pattern is all it can be, or `..`.
        Val::NameIn(dir) => Field {
            text: format!("{dir}*"),
            glob: true,
            ..Field::default()
        },
        Val::Unknown | Val::Fetched | Val::Prefix(_) => Field {
            text: SUBSTITUTION.to_owned(),
            unknown: true,
            ..Field::default()
        },
    };
    let mut out = vec![values.iter().map(|v| field(v, &Reading::First)).collect()];
    if values
        .iter()
        .any(|v| matches!(v, Val::Prefix(start) if !is_option(start)))
    {
        out.push(
            values
                .iter()
                .map(|v| field(v, &Reading::Patterns))
                .collect(),
        );
    }
    if values.iter().any(|v| matches!(v, Val::NameIn(_))) {
        out.push(values.iter().map(|v| field(v, &Reading::Parents)).collect());
    }
    out
}

/// Whether a value that starts with `start` is an option (`--level=...`).
fn is_option(start: &str) -> bool {
    start.starts_with('-')
}

/// Environment variables whose value makes the program given them run other code: the
/// shell's start-up file, a preloaded library, perl's debugger, git's ssh and diff
/// commands, an exported bash function. Code that names one and runs a program may hand it
/// over in the program's environment (`Process.spawn({"BASH_ENV" => f}, "bash", "-c",
/// "true")`), which no reader follows.
const RUNS_CODE_FROM_ENVIRONMENT: &[&str] = &[
    "BASH_ENV",
    "LD_PRELOAD",
    "LD_AUDIT",
    "PERL5DB",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "BASH_FUNC_",
];

/// Whether code of `text`, which had the effects `found`, runs a program and names one of
/// [`RUNS_CODE_FROM_ENVIRONMENT`].
pub(super) fn hands_code_through_environment(text: &str, found: &[Found]) -> bool {
    let runs = found.iter().any(|f| {
        matches!(
            f.effect,
            Effect::Shell(_) | Effect::Exec(_) | Effect::Load(_)
        )
    });
    runs && RUNS_CODE_FROM_ENVIRONMENT
        .iter()
        .any(|name| text.contains(name))
}
