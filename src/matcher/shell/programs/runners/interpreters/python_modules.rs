//! Python modules run with `-m`: those that run code or a command of their own, read as
//! that code or command (`python -m pdb`, `-m venv --clear DIR`).

use super::Code;
use super::command_line::{file_of, part};
use crate::matcher::shell::expand::Field;
use std::borrow::Cow;

/// The code a Python module run with `-m` runs from its arguments `args` (then set to the
/// arguments of the script it runs): `timeit`'s statements and `-s` setup, and the script
/// (or module) a profiler, `trace` or `pdb` runs, with `pdb -c` commands read as code
/// (what is not a debugger command runs as Python). Other modules run nothing of the line.
pub(super) fn python_module<'a>(module: &str, args: &mut &'a [Field], depth: usize) -> Code<'a> {
    // (options that take a value, long ones among them, the option naming a module)
    let (with_value, long_with_value, module_option): (&str, &[&str], &str) = match module {
        "timeit" => ("nrsu", &["--number", "--repeat", "--setup", "--unit"], ""),
        "cProfile" | "profile" => ("os", &["--outfile", "--sort"], "-m"),
        "trace" => (
            "fC",
            &["--file", "--coverdir", "--ignore-module", "--ignore-dir"],
            "--module",
        ),
        "pdb" => ("c", &["--command"], "-m"),
        // `--clear` deletes what each directory holds before the environment is made.
        "venv" if args.iter().any(|a| a.text == "--clear") => {
            let mut command = vec![
                Field::literal("rm"),
                Field::literal("-r"),
                Field::literal("-f"),
            ];
            command.push(Field::literal("--"));
            // `--prompt` is the one option that takes the next word.
            let operands = args.iter().enumerate().filter(|(k, a)| {
                !a.text.starts_with('-') && (*k == 0 || args[k - 1].text != "--prompt")
            });
            command.extend(operands.map(|(_, a)| a.clone()));
            return Code::Command(command);
        }
        // Tools installed as modules run as their programs do (`python3 -m twine upload`
        // is `twine upload`), so that the rules about the program see them.
        "twine" | "poetry" | "flit" | "hatch" | "uv" | "pipx" | "awscli" => {
            let program = if module == "awscli" { "aws" } else { module };
            let mut command = vec![Field::literal(program)];
            command.extend(args.iter().cloned());
            return Code::Command(command);
        }
        // `json.tool [INFILE [OUTFILE]]` reads the one and writes the other.
        "json.tool" => {
            let mut skip = false;
            let files: Vec<&Field> = args
                .iter()
                .filter(|a| {
                    let value = std::mem::replace(&mut skip, a.text == "--indent");
                    !value && (!a.text.starts_with('-') || a.text == "-")
                })
                .collect();
            let word = |w: &str| Field::literal(w);
            let command = match files.as_slice() {
                [] => return Code::Elsewhere,
                [input] if input.text == "-" => return Code::Elsewhere,
                [input] => vec![word("cat"), word("--"), (*input).clone()],
                [input, output, ..] if input.text == "-" => {
                    vec![word("tee"), word("--"), (*output).clone()]
                }
                [input, output, ..] => {
                    vec![word("cp"), word("--"), (*input).clone(), (*output).clone()]
                }
            };
            return Code::Command(command);
        }
        // `zipfile`/`tarfile` `-e ARCHIVE DIR` unpack into DIR, `-c ARCHIVE FILES` pack the
        // files, as `unzip` and `tar` do.
        "zipfile" | "tarfile" => {
            let word = |w: &str| Field::literal(w);
            let (flag, operands) = match args.split_first() {
                Some((flag, rest)) => (flag.text.as_str(), rest),
                None => return Code::Elsewhere,
            };
            let zip = module == "zipfile";
            let mut command = match (flag, zip) {
                ("-e" | "--extract", true) => match operands {
                    [archive, dir, ..] => vec![
                        word("unzip"),
                        word("-o"),
                        archive.clone(),
                        word("-d"),
                        dir.clone(),
                    ],
                    _ => return Code::Elsewhere,
                },
                ("-e" | "--extract", false) => match operands {
                    [archive, dir, ..] => {
                        vec![
                            word("tar"),
                            word("-xf"),
                            archive.clone(),
                            word("-C"),
                            dir.clone(),
                        ]
                    }
                    _ => return Code::Elsewhere,
                },
                ("-c" | "--create", true) => vec![word("zip"), word("-r")],
                ("-c" | "--create", false) => vec![word("tar"), word("-cf")],
                _ => return Code::Elsewhere,
            };
            if matches!(flag, "-c" | "--create") {
                command.extend(operands.iter().cloned());
            }
            return Code::Command(command);
        }
        // `python3 -m pickle FILE` unpickles the file to print it.
        "pickle" => {
            return Code::Unreadable("the module unpickles a file, which can run any code");
        }
        // The module's own `__main__` prints the file it parses: `~/.netrc`, or the one
        // named.
        "netrc" => {
            let file = args
                .first()
                .cloned()
                .unwrap_or_else(|| Field::literal("~/.netrc"));
            return Code::Command(vec![Field::literal("cat"), Field::literal("--"), file]);
        }
        _ => return Code::Elsewhere,
    };
    let mut code: Vec<(Cow<'a, str>, bool)> = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        let (name, attached) = match t.split_once('=') {
            Some((n, v)) if t.starts_with("--") => (n, Some(v)),
            // `-n5`: a letter and its value (the word may hold any text after the dash).
            _ if t.len() > 2
                && !t.starts_with("--")
                && t.starts_with('-')
                && t.is_char_boundary(2) =>
            {
                (&t[..2], Some(&t[2..]))
            }
            _ => (t, None),
        };
        let takes = name.starts_with("--") && long_with_value.contains(&name)
            || name.len() == 2 && name.starts_with('-') && with_value.contains(&name[1..]);
        let runs_code = module == "timeit" && matches!(name, "-s" | "--setup")
            || module == "pdb" && matches!(name, "-c" | "--command");
        if a.unknown && t.starts_with(['-', '$']) {
            return Code::Unreadable("a module's option is not known before it runs");
        }
        if !module_option.is_empty() && t == module_option {
            let Some(inner) = args.get(i + 1) else {
                return Code::Elsewhere;
            };
            if inner.unknown || depth > 2 {
                return Code::Unreadable("a module runs a module that is not known here");
            }
            // `pdb -c '!code' -m MODULE`: the statements run before the module does.
            if !code.is_empty() {
                return Code::Unreadable(DEBUGGER_STATEMENTS);
            }
            *args = args.get(i + 2..).unwrap_or_default();
            return python_module(&inner.text, args, depth + 1);
        }
        if takes {
            let value = match attached {
                Some(v) if !v.is_empty() => (Cow::Borrowed(v), a.unknown),
                _ => {
                    i += 1;
                    match args.get(i) {
                        Some(v) => part(v),
                        None => break,
                    }
                }
            };
            // pdb's own commands (`-c continue`) run nothing of the line.
            let debugger_command = module == "pdb" && !value.1 && PDB_COMMANDS.contains(&&*value.0);
            if runs_code && !debugger_command {
                code.push(value);
            }
        } else if t == "--" {
            i += 1;
            break;
        } else if !t.starts_with('-') || t == "-" {
            break;
        }
        i += 1;
    }
    let rest: &'a [Field] = args.get(i..).unwrap_or_default();
    if module == "timeit" {
        // Every operand is a statement, which timeit runs many times over (a million by
        // default): read inside a loop, so that a fork in it is the fork bomb it is.
        code.extend(
            rest.iter()
                .map(|f| match f.unknown || f.text.trim().is_empty() {
                    true => part(f),
                    false => {
                        let body: Vec<String> =
                            f.text.lines().map(|l| format!("    {l}")).collect();
                        let looped = format!("for _ in range(1000000):\n{}", body.join("\n"));
                        (Cow::Owned(looped), false)
                    }
                }),
        );
        *args = &[];
        return Code::Inline(code);
    }
    let Some(script) = rest.first() else {
        return Code::Elsewhere;
    };
    *args = &rest[1..];
    if code.is_empty() {
        file_of(script)
    } else {
        Code::Unreadable(DEBUGGER_STATEMENTS)
    }
}

const DEBUGGER_STATEMENTS: &str = "the debugger runs statements given on its command line";

/// pdb commands that step or look, and run no statement of their own.
const PDB_COMMANDS: &[&str] = &[
    "c", "cont", "continue", "q", "quit", "exit", "n", "next", "s", "step", "w", "where", "bt",
    "l", "list", "ll", "a", "args", "r", "return", "u", "up", "d", "down",
];
