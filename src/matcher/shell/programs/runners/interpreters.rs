//! Interpreters of other languages: where their code comes from (`-c`, `-e`, `-r`, a file,
//! standard input), and, for the languages the code reader knows, what the code does, as
//! the simple commands filters already see (`shutil.rmtree(p)` is `rm -r -f p`).

use std::borrow::Cow;

use crate::matcher::code::{self, Effect, Lang, Val};
use crate::matcher::shell::SUBSTITUTION;
use crate::matcher::shell::env::{FileText, file_key};
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader, is_stdin_path};

use super::shell_c_reading;
use crate::matcher::shell::programs::table::CODE_FLAGS;

/// Where an interpreter's program comes from.
#[derive(Debug, PartialEq)]
enum Code<'a> {
    /// Inline code (`-c`, `-e`, each `-e` a line of its own), and whether it is known.
    Inline(Vec<(Cow<'a, str>, bool)>),
    /// A script file, and whether its name is known.
    File(&'a str, bool),
    /// Standard input.
    Stdin,
    /// A module or something else the line does not hold (`python -m venv`).
    Elsewhere,
    /// Code the reader cannot read, and why (an encoded `data:` URL).
    Opaque(&'static str),
    /// A module that acts on its arguments, as this command does (`python3 -m venv
    /// --clear DIR` empties DIR: `rm -r -f DIR`).
    Command(Vec<Field>),
}

/// An interpreter: the code it runs, read where the language is known; code from a
/// substitution, a pipe or a download is not understood.
pub(in crate::matcher::shell::programs) fn interpreter(
    r: &mut Reader,
    program: &str,
    args: &[Field],
    stdin: &Data,
) {
    let lang = Lang::of_program(program);
    let mut preloads = Vec::new();
    let mut script_args: &[Field] = &[];
    let code = match lang {
        Some(lang) => code_of(lang, program, args, &mut preloads, &mut script_args),
        None => generic_code_of(args),
    };
    if lang == Some(Lang::Perl) {
        magic_open(r, script_args);
        in_place_backups(r, args, script_args);
    }
    if lang == Some(Lang::JavaScript) {
        node_output_files(r, args);
    }
    if let (Some(lang), Code::Inline(parts)) = (lang, &code)
        && let [(name, false)] = parts.as_slice()
        && let Some(command) = file_helper(lang, args, name.trim())
    {
        let mut words: Vec<Field> = command.iter().map(|w| Field::literal(w)).collect();
        // The helpers expand patterns in their arguments themselves (`Dir[]`, `glob`).
        words.extend(
            script_args
                .iter()
                .filter(|a| a.text != "--")
                .map(|a| Field {
                    glob: a.glob || a.text.contains(['*', '?', '[', '{']),
                    ..a.clone()
                }),
        );
        r.run(words, &Io::default(), Data::Nothing, &[]);
        return;
    }
    // `php -l FILE`, `ruby -c FILE`, `node --check FILE` only check the script's syntax:
    // it is read, not run. Code preloaded by an option is read as a run.
    if let (Some(lang), Code::File(script, _)) = (lang, &code)
        && preloads.is_empty()
        && checks_syntax_only(lang, args)
        && let Some(file) = args.iter().find(|a| a.text == *script)
    {
        let word = |w: &str| Field::literal(w);
        r.run(
            vec![word("cat"), word("--"), file.clone()],
            &Io::default(),
            Data::Nothing,
            &[],
        );
        return;
    }
    // A framework's console run by its script (`python manage.py shell -c CODE`, `php
    // artisan tinker --execute=CODE`).
    if let Code::File(script, false) = code
        && let Some(lang) = lang
    {
        let name = script.rsplit('/').next().unwrap_or(script);
        match (lang, name) {
            (Lang::Python, "manage.py") => console(r, lang, &DJANGO, script_args, stdin),
            (Lang::Php, "artisan") => console(r, lang, &LARAVEL, script_args, stdin),
            _ => {}
        }
    }
    let script_args: Vec<Val> = script_args
        .iter()
        .map(|f| match f.unknown {
            true => Val::Unknown,
            false => Val::Known(f.text.clone()),
        })
        .collect();
    // Code that runs before the program: `node -r ./x.js`, `--import data:...`.
    for preload in preloads {
        run_code(r, (program, lang), preload, stdin, &[]);
    }
    run_code(r, (program, lang), code, stdin, &script_args);
}

/// The files node's own options write: warnings appended to `--redirect-warnings=F`, a
/// diagnostic report (which holds the environment) to `--report-filename` in
/// `--report-directory`.
fn node_output_files(r: &mut Reader, args: &[Field]) {
    let value = |name: &str| -> Option<Field> {
        args.iter()
            .take_while(|a| a.text != "--")
            .enumerate()
            .find_map(|(k, a)| match a.text.strip_prefix(name) {
                Some(rest) if rest.starts_with('=') => Some(Field {
                    text: rest[1..].to_owned(),
                    ..a.clone()
                }),
                Some("") => args.get(k + 1).cloned(),
                _ => None,
            })
    };
    let word = |w: &str| Field::literal(w);
    if let Some(file) = value("--redirect-warnings") {
        r.run(
            vec![word("tee"), word("-a"), file],
            &Io::default(),
            Data::Nothing,
            &[],
        );
    }
    if let Some(file) =
        value("--report-filename").filter(|f| f.text != "stdout" && f.text != "stderr")
    {
        let file = match value("--report-directory").or_else(|| value("--report-dir")) {
            Some(dir) if !file.text.starts_with('/') => Field {
                text: format!("{}/{}", dir.text.trim_end_matches('/'), file.text),
                unknown: dir.unknown || file.unknown,
                ..file
            },
            _ => file,
        };
        r.run(vec![word("tee"), file], &Io::default(), Data::Nothing, &[]);
    }
}

/// `python3 -i` (or `PYTHONINSPECT` set) goes on to read its standard input as code once
/// its program has run: `python3 -i -c 'print(1)' <<EOF` runs the here-document too.
pub(in crate::matcher::shell::programs) fn inspect_mode(
    r: &mut Reader,
    program: &str,
    args: &[Field],
    env: &[(String, crate::matcher::shell::env::Value)],
    stdin: &Data,
) {
    if Lang::of_program(program) != Some(Lang::Python) {
        return;
    }
    // Python's own options end at the code (`-c`, `-m`), the script or `-`.
    let own = args
        .iter()
        .take_while(|a| a.text.starts_with('-') && a.text != "-" && a.text != "--");
    let flag = own
        .map(|a| a.text.as_str())
        .filter(|t| !t.starts_with("--"))
        .any(|t| {
            // `-qi`, `-ic CODE`: a cluster up to its first option that takes a value.
            let cluster = t[1..].split(['c', 'm', 'W', 'X', 'Q']).next().unwrap_or("");
            cluster.contains('i')
        });
    let set = match super::line_variable(r, env, "PYTHONINSPECT") {
        Some(crate::matcher::shell::env::Value::Known(v)) => !v.is_empty(),
        Some(_) => true,
        None => false,
    };
    let mut preloads = Vec::new();
    let mut script_args: &[Field] = &[];
    let reads_stdin = matches!(
        code_of(Lang::Python, program, args, &mut preloads, &mut script_args),
        Code::Stdin
    );
    if (flag || set) && !reads_stdin {
        run_code(r, (program, Some(Lang::Python)), Code::Stdin, stdin, &[]);
    }
}

/// `erb FILE...` renders each template, running the Ruby code in it (`<% code %>`): a
/// template the line wrote (or the host's, when decisions read host files) is read as
/// that code.
pub(in crate::matcher::shell::programs) fn erb_templates(r: &mut Reader, args: &[Field]) {
    // The options that take a value: a library (`-r`), an encoding, a trim mode, a safe level.
    const VALUE: &[&str] = &["-r", "-E", "-T", "-S"];
    let mut operands = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if !operands && a.text == "--" {
            operands = true;
            continue;
        }
        if !operands && a.text.starts_with('-') && a.text != "-" {
            i += usize::from(VALUE.contains(&a.text.as_str()));
            continue;
        }
        if let Some((text, _)) = script_file(r, &a.text, a.unknown) {
            let path = a.text.as_str();
            r.built.insert(file_key(path));
            let code = code::erb_code(&text);
            r.in_file(path, |r| {
                read_code(r, Some(Lang::Ruby), &code, &[], Some(path))
            });
        }
    }
}

/// `rake -e CODE` (`--execute`, `-p`/`--execute-print`, `-E`/`--execute-continue`) runs
/// CODE as Ruby, with Rake's own `sh` at hand.
pub(in crate::matcher::shell::programs) fn rake_code(r: &mut Reader, args: &[Field]) {
    const CODE: &[&str] = &[
        "-e",
        "--execute",
        "-p",
        "--execute-print",
        "-E",
        "--execute-continue",
    ];
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let (name, inline) = long_value(a);
        if !CODE.contains(&name) {
            continue;
        }
        let (text, unknown) = match inline {
            Some(value) => (value, a.unknown),
            None => {
                i += 1;
                match args.get(i - 1) {
                    Some(code) => (code.text.as_str(), code.unknown),
                    None => continue,
                }
            }
        };
        if unknown {
            r.opaque("rake runs Ruby code that comes from a substitution");
        } else {
            read_code(r, Some(Lang::Ruby), text, &[], None);
        }
    }
}

/// A web framework's console: the subcommands that start it, the options that give it code
/// to run, and the options that take another value.
pub(in crate::matcher::shell::programs) struct Console {
    subcommands: &'static [&'static str],
    code: &'static [&'static str],
    value: &'static [&'static str],
    /// The first operand is the code (`rails runner CODE`), or a script file when it is
    /// named like one (`rails runner script/fix.rb`).
    operand: bool,
}

/// Django's `shell` (`manage.py`, `django-admin`).
pub(in crate::matcher::shell::programs) const DJANGO: Console = Console {
    subcommands: &["shell"],
    code: &["-c", "--command"],
    value: &[
        "-i",
        "--interface",
        "--settings",
        "--pythonpath",
        "-v",
        "--verbosity",
    ],
    operand: false,
};
/// Rails' `runner`, and `console`, which reads its code from standard input.
pub(in crate::matcher::shell::programs) const RAILS: Console = Console {
    subcommands: &["runner", "r", "console", "c"],
    code: &[],
    value: &["-e", "--environment"],
    operand: true,
};
/// Laravel's `tinker` (`php artisan`).
const LARAVEL: Console = Console {
    subcommands: &["tinker"],
    code: &["--execute"],
    value: &["--env"],
    operand: false,
};

/// `rails credentials:show` (`:edit`, `:diff`, `encrypted:show FILE`): Rails decrypts the
/// credentials with `config/master.key` (or an environment's `config/credentials/ENV.key`,
/// or `--key FILE`) and prints them, as reading the key would give them.
pub(in crate::matcher::shell::programs) fn rails_credentials(r: &mut Reader, args: &[Field]) {
    const SHOWS: &[&str] = &[
        "credentials:show",
        "credentials:edit",
        "credentials:diff",
        "encrypted:show",
        "encrypted:edit",
    ];
    if !args.iter().any(|a| SHOWS.contains(&a.text.as_str())) {
        return;
    }
    let mut words = vec![
        Field::literal("cat"),
        Field::literal("config/master.key"),
        Field {
            glob: true,
            ..Field::literal("config/credentials/*.key")
        },
    ];
    let key = args
        .windows(2)
        .filter(|w| matches!(w[0].text.as_str(), "-k" | "--key"))
        .map(|w| w[1].clone());
    words.extend(key);
    r.run(words, &Io::default(), Data::Nothing, &[]);
}

/// `--name=value` as its name and value; any other word as itself, with no value.
fn long_value(a: &Field) -> (&str, Option<&str>) {
    match a.text.split_once('=') {
        Some((name, value)) if name.starts_with("--") => (name, Some(value)),
        _ => (a.text.as_str(), None),
    }
}

/// Reads the code a framework's console runs ([`DJANGO`], [`RAILS`], [`LARAVEL`]), in
/// `lang`: from its code option, its operand, or its standard input. `args` start at the
/// subcommand.
pub(in crate::matcher::shell::programs) fn console(
    r: &mut Reader,
    lang: Lang,
    console: &Console,
    args: &[Field],
    stdin: &Data,
) {
    let Some((sub, rest)) = args.split_first() else {
        return;
    };
    if !console.subcommands.contains(&sub.text.as_str()) {
        return;
    }
    // The code and whether it is unknown: a code option's (the last), else the operand.
    let mut text: Option<(&str, bool)> = None;
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        i += 1;
        let (name, value) = long_value(a);
        if console.code.contains(&name) {
            text = match value {
                Some(v) => Some((v, a.unknown)),
                None => rest.get(i).map(|f| (f.text.as_str(), f.unknown)),
            };
            i += usize::from(value.is_none());
        } else if console.value.contains(&name) && value.is_none() {
            i += 1;
        } else if console.operand && !a.text.starts_with('-') && text.is_none() {
            text = Some((a.text.as_str(), a.unknown));
        }
    }
    match text {
        Some((_, true)) => r.opaque("the console runs code that comes from a substitution"),
        // `rails runner script/fix.rb`: the file, as `ruby script/fix.rb` runs it.
        Some((path, false))
            if console.operand
                && path.ends_with(".rb")
                && !path.contains(|c: char| c.is_whitespace() || "()'\";".contains(c)) =>
        {
            run_code(r, ("ruby", Some(lang)), Code::File(path, false), stdin, &[]);
        }
        Some((text, false)) => read_code(r, Some(lang), text, &[], None),
        None => run_code(r, ("console", Some(lang)), Code::Stdin, stdin, &[]),
    }
}

/// Modules that run the project's own code whatever their arguments say (`-p plugin` loads
/// a module that is there already): an unknown argument to one changes nothing the gate
/// looks at.
const TEST_RUNNERS: &[&str] = &["pytest", "unittest", "doctest"];

/// Whether an argument not known before the line runs is one the interpreter itself reads
/// (`python3 $X` may be `python3 -c CODE`), rather than one its program gets as data
/// (`python3 -c CODE "$X"`, `python3 test.py "$X"`, `python3 -m pytest -k "$X"`). A module
/// other than a test runner reads its arguments as options (`python3 -m pip install "$X"`).
pub(in crate::matcher::shell::programs) fn takes_unknown_option(
    program: &str,
    args: &[Field],
) -> bool {
    let Some(lang) = Lang::of_program(program) else {
        // awk reads a word it does not know as data when its start is known (`-v
        // ver="$(git describe)"`, a file operand `logs/$D.log`): an option or a program
        // can only come from a word that starts unknown. Its reader makes the program,
        // `-f` and what it runs or writes from such values opaque itself.
        if super::awk::AWKS.contains(&program) {
            return args.iter().any(|a| {
                a.unknown && (a.text.starts_with(SUBSTITUTION) || a.text.starts_with('-'))
            });
        }
        // Past a written `--`, the file tools take every word as an operand.
        let options = match args.iter().position(|a| a.text == "--" && !a.unknown) {
            Some(end) if ENDS_OPTIONS_AT_DASHES.contains(&program) => &args[..end],
            _ => args,
        };
        return options.iter().any(|a| a.unknown);
    };
    let mut preloads = Vec::new();
    let mut script_args: &[Field] = &[];
    let code = code_of(lang, program, args, &mut preloads, &mut script_args);
    let mut own = args.len() - script_args.len().min(args.len());
    let module = args
        .get(..own)
        .and_then(|a| a.last())
        .map(|m| m.text.as_str());
    let data_args = match code {
        // Python's `-c CODE` ends its options; perl, ruby and node go on reading switches
        // after `-e CODE` up to the first operand, which an unknown word may not be.
        Code::Inline(_) => {
            if lang != Lang::Python && script_args.first().is_some_and(|a| a.unknown) {
                own += 1;
            }
            true
        }
        Code::File(..) => true,
        Code::Elsewhere => {
            module.is_some_and(|m| TEST_RUNNERS.contains(&m.trim_start_matches("-m")))
        }
        Code::Stdin | Code::Opaque(_) | Code::Command(_) => false,
    };
    let looked_at = if data_args { &args[..own] } else { args };
    looked_at.iter().any(|a| a.unknown)
}

/// The command a file helper library runs when its function is the whole program and the
/// operands its arguments: `ruby -run -e rm -- -rf PATHS` (un.rb), `perl
/// -MExtUtils::Command -e rm_rf -- PATHS` (what Makefiles call).
fn file_helper(lang: Lang, args: &[Field], function: &str) -> Option<&'static [&'static str]> {
    let loaded = |module: &str, options: &[&str]| {
        args.iter().enumerate().any(|(k, a)| {
            options.iter().any(|o| {
                a.text.strip_prefix(o) == Some(module)
                    || a.text == *o && args.get(k + 1).is_some_and(|m| m.text == module)
            })
        })
    };
    let command: &'static [&'static str] = match lang {
        Lang::Ruby if loaded("un", &["-r"]) => match function {
            "rm" => &["rm"],
            "cp" => &["cp"],
            "mv" => &["mv"],
            "ln" => &["ln"],
            "mkdir" => &["mkdir"],
            "rmdir" => &["rmdir"],
            "install" => &["install"],
            "chmod" => &["chmod"],
            "touch" => &["touch"],
            _ => return None,
        },
        Lang::Perl if loaded("ExtUtils::Command", &["-M", "-m"]) => match function {
            "rm_rf" => &["rm", "-r", "-f"],
            "rm_f" => &["rm", "-f"],
            "cp" => &["cp"],
            "mv" => &["mv"],
            "chmod" => &["chmod"],
            "touch" => &["touch"],
            "mkpath" => &["mkdir", "-p"],
            "cat" => &["cat"],
            _ => return None,
        },
        _ => return None,
    };
    Some(command)
}

/// Perl reads its operands (`-n`, `-p`, `<>`) with the two-argument `open`, which takes
/// `cmd |` and `| cmd` as commands to run and `>f` as a file to write: `perl -ne print
/// 'rm -rf ~ |'` runs `rm -rf ~`. Each operand so written is read as what it does.
fn magic_open(r: &mut Reader, operands: &[Field]) {
    for a in operands.iter().filter(|a| !a.unknown) {
        let t = a.text.trim();
        if let Some(command) = t.strip_suffix('|').or_else(|| t.strip_prefix('|')) {
            super::shell_c(r, command.trim());
        } else if let Some(path) = t.strip_prefix('>') {
            let (append, path) = match path.strip_prefix('>') {
                Some(rest) => (true, rest),
                None => (false, path),
            };
            let mut words = vec![Field::literal("tee")];
            if append {
                words.push(Field::literal("-a"));
            }
            words.push(Field::literal(path.trim_start_matches('&').trim()));
            r.run(words, &Io::default(), Data::Nothing, &[]);
        }
    }
}

/// Reads one piece of an interpreter's code, wherever it comes from; inline code runs with
/// the script arguments `args`.
fn run_code(
    r: &mut Reader,
    (program, lang): (&str, Option<Lang>),
    code: Code<'_>,
    stdin: &Data,
    args: &[Val],
) {
    // `python3 /dev/stdin <<< '...'` reads its program from standard input.
    let code = match code {
        Code::File(path, false) if is_stdin_path(path) => Code::Stdin,
        other => other,
    };
    let text = match code {
        Code::Inline(parts) => {
            if parts.iter().any(|(_, unknown)| *unknown) {
                r.opaque("the interpreter runs code that comes from a substitution");
                return;
            }
            parts
                .iter()
                .map(|(text, _)| text.as_ref())
                .collect::<Vec<_>>()
                .join("\n")
        }
        Code::File(path, unknown) => {
            match (script_file(r, path, unknown), lang) {
                (Some((text, _)), Some(_)) => {
                    r.built.insert(file_key(path));
                    r.in_file(path, |r| read_code(r, lang, &text, &[], Some(path)));
                }
                // Code of a language hookgate does not read is looked at when the line
                // wrote it; the host's scripts run as the project's own do.
                (Some((text, false)), None) => super::unread::read(r, program, &text),
                _ => {}
            }
            return;
        }
        Code::Stdin => match stdin {
            Data::Unknown if r.stdin_built => {
                r.opaque(
                    "the interpreter's code is a here-document with a substitution or variable \
                     not known before the line runs; quote its delimiter (<<'EOF') so the code \
                     is read as written, and compute the value in the code",
                );
                return;
            }
            Data::Unknown | Data::Listing(..) => {
                r.opaque("a script is piped into an interpreter");
                return;
            }
            Data::Known(text) => text.clone(),
            Data::Nothing => return,
        },
        Code::Opaque(why) => {
            r.opaque(why);
            return;
        }
        Code::Elsewhere => return,
        Code::Command(command) => {
            r.run(command, &Io::default(), Data::Nothing, &[]);
            return;
        }
    };
    match lang {
        Some(_) => read_code(r, lang, &text, args, None),
        None => super::unread::read(r, program, &text),
    }
}

/// The text of the script file `path` an interpreter runs, and whether it came from the
/// host rather than the line; `None` when there is no text to read (the file is not
/// there, or is compiled), and the line is made opaque when the code cannot be known.
pub(super) fn script_file(r: &mut Reader, path: &str, unknown: bool) -> Option<(String, bool)> {
    if unknown {
        r.opaque("the interpreter runs code that comes from a substitution");
    } else if path.starts_with("http://") || path.starts_with("https://") {
        r.opaque("the interpreter runs code it downloads");
    } else if let Err(why) = r.load_host_file(path) {
        r.opaque(why);
    } else {
        let key = file_key(path);
        match r.env.files.get(&key) {
            Some(FileText::Unknown) => {
                r.opaque("the line runs a script it downloaded or made from a command's output");
            }
            Some(FileText::Known(text)) => return Some((text.clone(), r.is_host_file(&key))),
            None => {}
        }
    }
    None
}

/// Reads `text` in `lang` into the commands it runs; `path`, when it is the text of a
/// script file, is where (its directory is `__DIR__`).
pub(super) fn read_code(
    r: &mut Reader,
    lang: Option<Lang>,
    text: &str,
    args: &[Val],
    path: Option<&str>,
) {
    let Some(lang) = lang else { return };
    let env = std::mem::take(&mut r.code_env);
    let reading = code::read_script(lang, text, args, &env, path, &mut r.code_work);
    r.code_env = env;
    for found in reading.found {
        let origin = format!("from {} code, line {}", lang.name(), found.line);
        r.reached(origin, |r| effect(r, found.effect));
    }
    if let Some(unread) = reading.opaque {
        r.opaque(unread.reason);
    }
}

/// File tools that read every word after `--` as an operand (getopt's convention).
const ENDS_OPTIONS_AT_DASHES: &[&str] = &[
    "rm", "rmdir", "unlink", "shred", "mv", "cp", "ln", "install", "chmod", "chown", "chgrp",
    "truncate", "tee", "cat", "touch", "mkdir",
];

/// The programs code's own file operations are read as, which take no options from it.
const FILE_OPERATIONS: &[&str] = &[
    "mv", "cp", "ln", "tee", "cat", "mkdir", "rmdir", "rm", "chmod", "chown", "touch", "unlink",
];

/// Records what one effect runs.
fn effect(r: &mut Reader, effect: Effect) {
    match effect {
        // The code's input, as for `Exec` below (Perl's `open(STDIN, ">&S"); exec "/bin/sh -i"`).
        Effect::Shell(Val::Known(script)) => shell_c_reading(r, &script, Data::Unknown),
        Effect::Shell(Val::Fetched) => {
            r.opaque("the code runs a command it downloaded or decoded");
        }
        Effect::Shell(Val::Unknown | Val::Prefix(_) | Val::NameIn(_)) => {
            r.opaque("the code runs a shell command built at run time");
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
                r.opaque("the code imports modules from where the line downloaded them");
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
            argv.extend(args);
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
                    let mut args = args.clone();
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
    if values.iter().any(|v| matches!(v, Val::Prefix(_))) {
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

/// Options that take a value, per language, and the options whose value is code.
struct Syntax {
    /// Short options whose value (the rest of the word, or the next word) is code.
    code: &'static str,
    /// Short options that take a value (the rest of the word, or the next word).
    value: &'static str,
    /// Short options whose value can only be attached (`-i.bak`, `-l0`).
    attached: &'static str,
    /// Short options after which the program is a module, not code on the line.
    module: &'static str,
    /// Short options whose value is only the digits attached to them, after which the word
    /// goes on with more options (Perl's `-l`, `-0777`: `-lne CODE`, `-0777ne CODE`).
    digits: &'static str,
    /// Whether a short code option takes the rest of its word as the code (`-e'code'`);
    /// node takes it from the next word only (`-pe CODE` is `-p -e CODE`).
    attached_code: bool,
    /// Long options whose value is code.
    long_code: &'static [&'static str],
    /// Long options that take a value.
    long_value: &'static [&'static str],
}

fn syntax(lang: Lang, program: &str) -> Syntax {
    match lang {
        Lang::Python => Syntax {
            code: "c",
            value: "WXQ",
            attached: "",
            module: "m",
            digits: "",
            attached_code: true,
            long_code: &[],
            long_value: &["--check-hash-based-pycs"],
        },
        Lang::JavaScript => Syntax {
            code: "ep",
            value: "rC",
            attached: "",
            module: "",
            digits: "",
            attached_code: false,
            long_code: &["--eval", "--print"],
            long_value: &[
                "--require",
                "--import",
                "--loader",
                "--experimental-loader",
                "--input-type",
                "--conditions",
                "--env-file",
                "--title",
            ],
        },
        Lang::Ruby => Syntax {
            code: "e",
            value: "rICEF",
            attached: "xWTKk",
            module: "",
            digits: "0",
            attached_code: true,
            long_code: &[],
            long_value: &["--encoding"],
        },
        Lang::Perl => Syntax {
            code: "eE",
            value: "MmI",
            attached: "ixdDCF",
            module: "",
            digits: "l0",
            attached_code: true,
            long_code: &[],
            long_value: &[],
        },
        Lang::Php => Syntax {
            code: "rBRE",
            value: "dcztF",
            attached: "",
            module: "",
            digits: "",
            attached_code: true,
            long_code: &[
                "--run",
                "--process-begin",
                "--process-code",
                "--process-end",
            ],
            long_value: &["--define", "--php-ini", "--zend-extension"],
        },
        Lang::Lua if program.starts_with("luajit") => Syntax {
            code: "e",
            value: "lbjO",
            attached: "",
            module: "",
            digits: "",
            attached_code: true,
            long_code: &[],
            long_value: &[],
        },
        Lang::Lua => Syntax {
            code: "e",
            value: "l",
            attached: "",
            module: "",
            digits: "",
            attached_code: true,
            long_code: &[],
            long_value: &[],
        },
    }
}

/// Where the code of `program` (an interpreter of `lang`) comes from.
fn code_of<'a>(
    lang: Lang,
    program: &str,
    args: &'a [Field],
    preloads: &mut Vec<Code<'a>>,
    script_args: &mut &'a [Field],
) -> Code<'a> {
    // `deno eval CODE`, `deno run FILE`, `bun run FILE`, `bun -e CODE`.
    let args = match (program, args.first().map(|a| a.text.as_str())) {
        ("deno", Some("eval")) => {
            return args
                .get(1)
                .map_or(Code::Elsewhere, |c| Code::Inline(vec![part(c)]));
        }
        ("deno", Some("run")) | ("bun", Some("run")) => {
            return args
                .iter()
                .skip(1)
                .find(|a| !a.text.starts_with('-'))
                .map_or(Code::Elsewhere, file_of);
        }
        ("deno", Some(_)) => return Code::Elsewhere,
        _ => args,
    };
    let s = syntax(lang, program);
    let mut inline: Vec<(Cow<'a, str>, bool)> = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        i += 1;
        if t == "-" {
            return if inline.is_empty() {
                // `python3 - a b`: the program comes on standard input, `a b` are its
                // arguments.
                *script_args = &args[i..];
                Code::Stdin
            } else {
                Code::Inline(inline)
            };
        }
        if t == "--" {
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            let name = format!("--{name}");
            if let Some(code) = value.filter(|_| s.long_code.contains(&name.as_str())) {
                // `--eval=CODE`: the code is the rest of the word.
                inline.push((Cow::Borrowed(code), a.unknown));
                continue;
            }
            if let Some(value) = value {
                preloads.extend(preload(lang, &name, value, a.unknown));
                continue;
            }
            let takes =
                s.long_code.contains(&name.as_str()) || s.long_value.contains(&name.as_str());
            if takes {
                if let Some(next) = args.get(i) {
                    if s.long_code.contains(&name.as_str()) {
                        inline.push(part(next));
                    } else {
                        preloads.extend(preload(lang, &name, &next.text, next.unknown));
                    }
                }
                i += 1;
            }
            continue;
        }
        let Some(bundle) = t.strip_prefix('-') else {
            // The first operand is the script, unless code was given inline.
            return if inline.is_empty() {
                *script_args = &args[i..];
                file_of(a)
            } else {
                *script_args = &args[i - 1..];
                Code::Inline(inline)
            };
        };
        if a.unknown {
            // An option not known could be one that runs code.
            return Code::Inline(vec![part(a)]);
        }
        // After a digits option: its octal digits, or `x` and hex digits (`-0x1FF`).
        let mut number: Option<fn(char) -> bool> = None;
        for (at, c) in bundle.char_indices() {
            if let Some(digit) = number {
                if digit(c) {
                    continue;
                }
                if c == 'x' && at > 0 && bundle[..at].ends_with('0') {
                    number = Some(|c: char| c.is_ascii_hexdigit());
                    continue;
                }
            }
            number = None;
            let rest = &bundle[at + c.len_utf8()..];
            if s.module.contains(c) {
                // The module's own arguments follow its name (`-m pytest -q`, `-mpytest`).
                *script_args = args
                    .get(i + usize::from(rest.is_empty())..)
                    .unwrap_or_default();
                let name = match rest.is_empty() {
                    true => args.get(i).map_or("", |m| m.text.as_str()),
                    false => rest,
                };
                return match lang {
                    Lang::Python => python_module(name, script_args, 0),
                    _ => Code::Elsewhere,
                };
            }
            if s.digits.contains(c) {
                number = Some(|c: char| ('0'..='7').contains(&c));
                continue;
            }
            if s.code.contains(c) {
                if rest.is_empty() || !s.attached_code {
                    match args.get(i) {
                        // node takes no option as code: `-p -e CODE` prints what `-e` runs.
                        Some(next) if !s.attached_code && next.text.starts_with('-') => {}
                        Some(code) => {
                            inline.push(part(code));
                            i += 1;
                        }
                        None => i += 1,
                    }
                } else {
                    // `-e'code'` in one word: the code is the rest of it.
                    inline.push((Cow::Borrowed(rest), false));
                }
                break;
            }
            if s.value.contains(c) {
                let name = format!("-{c}");
                if rest.is_empty() {
                    if let Some(next) = args.get(i) {
                        preloads.extend(preload(lang, &name, &next.text, next.unknown));
                    }
                    i += 1;
                } else {
                    preloads.extend(preload(lang, &name, rest, a.unknown));
                }
                break;
            }
            if s.attached.contains(c) {
                break;
            }
        }
    }
    if !inline.is_empty() {
        *script_args = args.get(i..).unwrap_or_default();
        Code::Inline(inline)
    } else if let Some(file) = args.get(i) {
        *script_args = args.get(i + 1..).unwrap_or_default();
        file_of(file)
    } else if args[..i.min(args.len())]
        .iter()
        .any(|a| prints_and_exits(lang, &a.text))
    {
        Code::Elsewhere
    } else {
        Code::Stdin
    }
}

/// Whether the interpreter's own options (those before the script) ask for a syntax check
/// only. perl's `-c` is not one: it runs `BEGIN` blocks and `use` statements.
fn checks_syntax_only(lang: Lang, args: &[Field]) -> bool {
    let check: &[&str] = match lang {
        Lang::Php => &["-l", "--syntax-check"],
        Lang::Ruby => &["-c", "-wc", "-cw"],
        Lang::JavaScript => &["-c", "--check"],
        Lang::Python | Lang::Perl | Lang::Lua => return false,
    };
    args.iter()
        .take_while(|a| a.text.starts_with('-') && a.text != "-" && a.text != "--")
        .any(|a| !a.unknown && check.contains(&a.text.as_str()))
}

/// Whether an option makes the interpreter print something and exit without reading a
/// script: `--version`, `--help`, and the short version options that do so (`ruby -v`
/// prints its version and then reads a script; `python -V` does not).
fn prints_and_exits(lang: Lang, option: &str) -> bool {
    matches!(option, "--version" | "--help" | "-h")
        || match lang {
            Lang::Python => option == "-V" || option == "-VV",
            Lang::JavaScript | Lang::Php | Lang::Lua => option == "-v",
            Lang::Perl => option == "-v" || option == "-V",
            Lang::Ruby => false,
        }
}

/// A word as a script file.
fn file_of(field: &Field) -> Code<'_> {
    Code::File(&field.text, field.unknown)
}

/// The code a Python module run with `-m` runs from its arguments `args` (then set to the
/// arguments of the script it runs): `timeit`'s statements and `-s` setup, and the script
/// (or module) a profiler, `trace` or `pdb` runs, with `pdb -c` commands read as code
/// (what is not a debugger command runs as Python). Other modules run nothing of the line.
fn python_module<'a>(module: &str, args: &mut &'a [Field], depth: usize) -> Code<'a> {
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
            return Code::Opaque("the module unpickles a file, which can run any code");
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
            return Code::Opaque("a module's option is not known before it runs");
        }
        if !module_option.is_empty() && t == module_option {
            let Some(inner) = args.get(i + 1) else {
                return Code::Elsewhere;
            };
            if inner.unknown || depth > 2 {
                return Code::Opaque("a module runs a module that is not known here");
            }
            // `pdb -c '!code' -m MODULE`: the statements run before the module does.
            if !code.is_empty() {
                return Code::Opaque(DEBUGGER_STATEMENTS);
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
        Code::Opaque(DEBUGGER_STATEMENTS)
    }
}

const DEBUGGER_STATEMENTS: &str = "the debugger runs statements given on its command line";

/// pdb commands that step or look, and run no statement of their own.
const PDB_COMMANDS: &[&str] = &[
    "c", "cont", "continue", "q", "quit", "exit", "n", "next", "s", "step", "w", "where", "bt",
    "l", "list", "ll", "a", "args", "r", "return", "u", "up", "d", "down",
];

/// A word as inline code.
fn part(field: &Field) -> (Cow<'_, str>, bool) {
    (Cow::Borrowed(field.text.as_str()), field.unknown)
}

/// The code an option's value makes the interpreter run before its program, if any: a
/// file or `data:` URL that node preloads (`-r`, `--require`, `--import`, `--loader`), a
/// Ruby file required by path (`-r./x.rb`; `-rjson` is a library), PHP's
/// `auto_prepend_file`, and Perl's `-M'X;code'` (which perl runs as `use X;code;`).
fn preload<'a>(lang: Lang, option: &str, value: &'a str, unknown: bool) -> Option<Code<'a>> {
    if unknown {
        let node_code = lang == Lang::JavaScript
            && matches!(
                option,
                "-r" | "--require" | "--import" | "--loader" | "--experimental-loader"
            );
        return node_code.then_some(Code::Opaque(
            "the interpreter preloads code that comes from a substitution",
        ));
    }
    let is_path = |v: &str| v.starts_with(['/', '.', '~']);
    let file = |v: &'a str| Code::File(v, false);
    match (lang, option) {
        (
            Lang::JavaScript,
            "-r" | "--require" | "--import" | "--loader" | "--experimental-loader",
        ) => match value.strip_prefix("data:") {
            Some(data) => Some(data_url(data)),
            None => is_path(value).then(|| file(value)),
        },
        (Lang::Ruby, "-r") => is_path(value).then(|| file(value)),
        (Lang::Php, "-d" | "--define") => {
            let (key, path) = value.split_once('=')?;
            matches!(key.trim(), "auto_prepend_file" | "auto_append_file")
                .then(|| file(path.trim()))
        }
        (Lang::Perl, "-M" | "-m") => {
            let code_like = !value.contains('=')
                && value
                    .chars()
                    .any(|c| !(c.is_ascii_alphanumeric() || "_:,.'-".contains(c)));
            code_like.then(|| Code::Inline(vec![(Cow::Owned(format!("use {value};")), false)]))
        }
        _ => None,
    }
}

/// The code of a `data:` URL (what follows `data:`): plain text after the comma; an
/// encoded one is not read.
fn data_url(data: &str) -> Code<'_> {
    match data.split_once(',') {
        Some((kind, text)) if !kind.ends_with(";base64") && !text.contains('%') => {
            Code::Inline(vec![(Cow::Borrowed(text), false)])
        }
        _ => Code::Opaque("the interpreter runs code from an encoded data: URL"),
    }
}

/// An interpreter the code reader does not know: the operand after a code option, or the
/// first operand (a script).
fn generic_code_of(args: &[Field]) -> Code<'_> {
    for (k, a) in args.iter().enumerate() {
        if CODE_FLAGS.contains(&a.text.as_str()) {
            return args
                .get(k + 1)
                .map_or(Code::Elsewhere, |c| Code::Inline(vec![part(c)]));
        }
        if a.text == "-" {
            return Code::Stdin;
        }
        if !a.text.starts_with('-') {
            return file_of(a);
        }
    }
    Code::Stdin
}

/// `perl -i'SPEC'` keeps each edited file's old text as a backup: SPEC with each `*`
/// replaced by the file's name, which may name another directory (`-i'/etc/cron.d/*'`
/// copies the file there). A plain suffix (`-i.bak`) writes beside the file and is left to
/// the in-place edit's own reading.
fn in_place_backups(r: &mut Reader, args: &[Field], files: &[Field]) {
    let spec = args
        .iter()
        .take_while(|a| a.text.starts_with('-') && a.text != "--")
        .find_map(|a| {
            let bundle = a.text.strip_prefix('-').filter(|b| !b.starts_with('-'))?;
            // The letters that take the rest of the word (or the next) as their value.
            let at = bundle.find(['i', 'e', 'E', 'M', 'm', 'I', 'F', 'x', 'd', 'D', 'C'])?;
            (bundle.as_bytes()[at] == b'i').then(|| (&bundle[at + 1..], a.unknown))
        });
    let Some((spec, unknown)) = spec.filter(|(s, _)| s.contains(['*', '/'])) else {
        return;
    };
    let backups = files
        .iter()
        .filter(|f| f.text != "--")
        .map(|f| match (unknown || f.unknown, spec.contains('*')) {
            (true, _) => SUBSTITUTION.to_owned(),
            (false, true) => {
                let name = f.text.rsplit('/').next().unwrap_or_default();
                spec.replace('*', name)
            }
            (false, false) => format!("{}{spec}", f.text),
        })
        .collect();
    super::record_written(r, backups, false, "perl -i backup");
}
