//! Interpreters of other languages: where their code comes from (`-c`, `-e`, `-r`, a file,
//! standard input), and, for the languages the code reader knows, what the code does, as
//! the simple commands filters already see (`shutil.rmtree(p)` is `rm -r -f p`).

mod command_line;
mod effects;
mod frameworks;
mod python_modules;

use crate::matcher::code::{self, Lang, Val};
use crate::matcher::shell::SUBSTITUTION;
use crate::matcher::shell::env::{FileText, file_key};
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader, is_stdin_path};
use command_line::{code_of, generic_code_of};
use effects::{ENDS_OPTIONS_AT_DASHES, effect};
use frameworks::LARAVEL;
pub(in crate::matcher::shell::programs) use frameworks::{
    DJANGO, RAILS, console, erb_templates, rails_credentials, rake_code,
};
use std::borrow::Cow;

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
    Unreadable(&'static str),
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
    let code = match code {
        Code::Inline(parts) if lang == Some(Lang::Perl) => {
            Code::Inline(perl_line_loop(args, parts))
        }
        other => other,
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
        // `-f` and what it runs or writes from such values unreadable itself.
        if super::awk::AWKS.contains(&program) {
            return args.iter().any(|a| {
                a.unknown && (a.text.starts_with(SUBSTITUTION) || a.text.starts_with('-'))
            });
        }
        // zip's and unzip's words are options or files; an option only from a word that
        // starts unknown (its command, `-TT CMD`, is read by the zip runner).
        if matches!(program, "zip" | "unzip") {
            return args.iter().any(Field::may_be_option);
        }
        if matches!(program, "tar" | "gtar" | "bsdtar") {
            return args
                .iter()
                .enumerate()
                .any(|(k, a)| a.unknown && !super::tools::tar_path(args, k));
        }
        // Past a written `--`, the file tools take every word as an operand; before it, so
        // is a word whose start is known and not `-` (`mv "$log.$i.gz" ...`), which
        // getopt takes as one, as long as the shell does not split it.
        let file_tool = ENDS_OPTIONS_AT_DASHES.contains(&program);
        let options = match args.iter().position(|a| a.text == "--" && !a.unknown) {
            Some(end) if file_tool => &args[..end],
            _ => args,
        };
        return options.iter().any(|a| {
            if file_tool {
                a.may_be_option()
            } else {
                a.unknown
            }
        });
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
        Code::Stdin | Code::Unreadable(_) | Code::Command(_) => false,
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
    let origin = match code {
        Code::Stdin => code::Origin::Stdin,
        _ => code::Origin::Inline,
    };
    let text = match code {
        Code::Inline(parts) => {
            if parts.iter().any(|(_, unknown)| *unknown) {
                r.unreadable("the interpreter runs code that comes from a substitution");
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
                    r.in_file(path, |r| read_code(r, lang, &text, Some(path)));
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
                r.unreadable(
                    "the interpreter's code is a here-document with a substitution or variable \
                     not known before the line runs; quote its delimiter (<<'EOF') so the code \
                     is read as written, and compute the value in the code",
                );
                return;
            }
            Data::Unknown | Data::Listing(..) => {
                r.unreadable("a script is piped into an interpreter");
                return;
            }
            Data::Known(text) => text.clone(),
            Data::Nothing => return,
        },
        Code::Unreadable(why) => {
            r.unreadable(why);
            return;
        }
        Code::Elsewhere => return,
        Code::Command(command) => {
            r.run(command, &Io::default(), Data::Nothing, &[]);
            return;
        }
    };
    match lang {
        Some(_) => read_code_from(r, lang, &text, (args, origin), None),
        None => super::unread::read(r, program, &text),
    }
}

/// The text of the script file `path` an interpreter runs, and whether it came from the
/// host rather than the line; `None` when there is no text to read (the file is not
/// there, or is compiled), and the line is made unreadable when the code cannot be known.
pub(super) fn script_file(r: &mut Reader, path: &str, unknown: bool) -> Option<(String, bool)> {
    if unknown {
        r.unreadable("the interpreter runs code that comes from a substitution");
    } else if path.starts_with("http://") || path.starts_with("https://") {
        r.unreadable("the interpreter runs code it downloads");
    } else if let Err(why) = r.load_host_file(path) {
        r.unreadable(why);
    } else {
        let key = file_key(path);
        match r.env.files.get(&key) {
            Some(FileText::Unknown) => {
                r.unreadable(
                    "the line runs a script it downloaded or made from a command's output",
                );
            }
            Some(FileText::Known(text)) => return Some((text.clone(), r.is_host_file(&key))),
            None => {}
        }
    }
    None
}

/// Reads `text` in `lang` into the commands it runs; `path`, when it is the text of a
/// script file, is where (its directory is `__DIR__`).
pub(super) fn read_code(r: &mut Reader, lang: Option<Lang>, text: &str, path: Option<&str>) {
    read_code_from(r, lang, text, (&[], code::Origin::Elsewhere), path);
}

/// [`read_code`] of code from `origin`, run with the arguments given.
fn read_code_from(
    r: &mut Reader,
    lang: Option<Lang>,
    text: &str,
    args: (&[Val], code::Origin),
    path: Option<&str>,
) {
    let Some(lang) = lang else { return };
    let env = std::mem::take(&mut r.code_env);
    let reading = code::read_script(lang, text, args, &env, path, &mut r.code_work);
    r.code_env = env;
    if effects::hands_code_through_environment(text, &reading.found) {
        r.unreadable(
            "the code runs a program and names an environment variable that makes a program \
             run other code (BASH_ENV, LD_PRELOAD, GIT_SSH_COMMAND, ...), which the reader does \
             not follow into what it runs",
        );
    }
    for found in reading.found {
        let origin = format!("from {} code, line {}", lang.name(), found.line);
        r.reached(origin, |r| effect(r, found.effect));
    }
    if let Some(unread) = reading.unreadable {
        r.unreadable(unread.reason);
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

/// `perl -i'SPEC'` keeps each edited file's old text as a backup: SPEC with each `*`
/// replaced by the file's name, which may name another directory (`-i'/etc/cron.d/*'`
/// copies the file there). A plain suffix (`-i.bak`) writes beside the file and is left to
/// the in-place edit's own reading.
/// perl's switches that take the rest of the word (or the next) as their value: the
/// letters of a bundle after one are not switches.
const PERL_VALUE_SWITCHES: [char; 11] = ['i', 'e', 'E', 'M', 'm', 'I', 'F', 'x', 'd', 'D', 'C'];

/// perl's `-n` and `-p` put the code inside a loop over the input's lines (`LINE: while
/// (<>) { CODE }`), as text: code that closes that loop early and opens a block of its
/// own (`-ne '$n++ }{ print $n'`, which runs its last part once, at the end) is read so,
/// inside the same loop. Other code is read as written.
fn perl_line_loop<'a>(
    args: &[Field],
    parts: Vec<(std::borrow::Cow<'a, str>, bool)>,
) -> Vec<(std::borrow::Cow<'a, str>, bool)> {
    let loops = args
        .iter()
        .take_while(|a| a.text.starts_with('-') && a.text != "--")
        .any(|a| {
            let bundle = a.text.strip_prefix('-').filter(|b| !b.starts_with('-'));
            bundle.is_some_and(|b| {
                b.split(PERL_VALUE_SWITCHES)
                    .next()
                    .is_some_and(|flags| flags.contains(['n', 'p']))
            })
        });
    if !loops || parts.iter().any(|(_, unknown)| *unknown) {
        return parts;
    }
    let code = parts
        .iter()
        .map(|(text, _)| text.as_ref())
        .collect::<Vec<_>>()
        .join("\n");
    let mut depth = 0i64;
    let closes_the_loop = code.chars().any(|c| {
        depth += match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        };
        depth < 0
    });
    if !closes_the_loop {
        return parts;
    }
    // On the code's first line, so that lines are counted as in the code.
    vec![(
        std::borrow::Cow::Owned(format!("LINE: while (<>) {{{code}\n;}}")),
        false,
    )]
}

fn in_place_backups(r: &mut Reader, args: &[Field], files: &[Field]) {
    let spec = args
        .iter()
        .take_while(|a| a.text.starts_with('-') && a.text != "--")
        .find_map(|a| {
            let bundle = a.text.strip_prefix('-').filter(|b| !b.starts_with('-'))?;
            let at = bundle.find(PERL_VALUE_SWITCHES)?;
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
