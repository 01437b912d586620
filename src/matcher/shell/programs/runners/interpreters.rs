//! Interpreters of other languages: where their code comes from (`-c`, `-e`, `-r`, a file,
//! standard input), and, for the languages the code reader knows, what the code does, as
//! the simple commands filters already see (`shutil.rmtree(p)` is `rm -r -f p`).

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
    Inline(Vec<(&'a str, bool)>),
    /// A script file.
    File(&'a Field),
    /// Standard input.
    Stdin,
    /// A module or something else the line does not hold (`python -m venv`).
    Elsewhere,
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
    let code = match lang {
        Some(lang) => code_of(lang, program, args),
        None => generic_code_of(args),
    };
    // `python3 /dev/stdin <<< '...'` reads its program from standard input.
    let code = match code {
        Code::File(file) if !file.unknown && is_stdin_path(&file.text) => Code::Stdin,
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
                .map(|(text, _)| *text)
                .collect::<Vec<_>>()
                .join("\n")
        }
        Code::File(file) => {
            if file.unknown {
                r.opaque("the interpreter runs code that comes from a substitution");
            } else if file.text.starts_with("http://") || file.text.starts_with("https://") {
                r.opaque("the interpreter runs code it downloads");
            } else if let Err(why) = r.load_host_file(&file.text) {
                r.opaque(why);
            } else {
                match r.env.files.get(&file_key(&file.text)) {
                    Some(FileText::Unknown) => r.opaque(
                        "the line runs a script it downloaded or made from a command's output",
                    ),
                    Some(FileText::Known(text)) if lang.is_some() => {
                        let text = text.clone();
                        r.in_file(&file.text, |r| read_code(r, lang, &text));
                    }
                    _ => {}
                }
            }
            return;
        }
        Code::Stdin => match stdin {
            Data::Unknown => {
                r.opaque("a script is piped into an interpreter");
                return;
            }
            Data::Known(text) => text.clone(),
            Data::Nothing => return,
        },
        Code::Elsewhere => return,
    };
    read_code(r, lang, &text);
}

/// Reads `text` in `lang` into the commands it runs.
fn read_code(r: &mut Reader, lang: Option<Lang>, text: &str) {
    let Some(lang) = lang else { return };
    let reading = code::read_within(lang, text, &mut r.code_work);
    for found in reading.found {
        let origin = format!("from {} code, line {}", lang.name(), found.line);
        r.reached(origin, |r| effect(r, found.effect));
    }
    if let Some(unread) = reading.opaque {
        r.opaque(unread.reason);
    }
}

/// Records what one effect runs.
fn effect(r: &mut Reader, effect: Effect) {
    match effect {
        // The code's input, as for `Exec` below (Perl's `open(STDIN, ">&S"); exec "/bin/sh -i"`).
        Effect::Shell(Val::Known(script)) => shell_c_reading(r, &script, Data::Unknown),
        Effect::Shell(Val::Fetched) => {
            r.opaque("the code runs a command it downloaded or decoded");
        }
        Effect::Shell(Val::Unknown) => {
            r.opaque("the code runs a shell command built at run time");
        }
        // What a program started by code reads on its input is the code's to choose: a
        // socket it connected (`os.dup2(s.fileno(), 0)` before `sh -i`), data it holds. So a
        // shell or interpreter started with no script reads an unknown one.
        Effect::Exec(argv) => {
            r.run(
                argv.into_iter().map(field).collect(),
                &Io::default(),
                Data::Unknown,
                &[],
            );
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
                    let mut fields = vec![Field::literal(program)];
                    fields.extend(args.into_iter().map(field));
                    fields
                }
            };
            r.run(fields, &Io::default(), Data::Nothing, &[]);
        }
    }
}

/// A value of the code as a shell field: an unknown one reads as a substitution would.
fn field(value: Val) -> Field {
    match value {
        Val::Known(text) => Field {
            text,
            quoted: true,
            ..Field::default()
        },
        Val::Unknown | Val::Fetched => Field {
            text: SUBSTITUTION.to_owned(),
            unknown: true,
            ..Field::default()
        },
    }
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
            long_code: &[],
            long_value: &["--check-hash-based-pycs"],
        },
        Lang::JavaScript => Syntax {
            code: "ep",
            value: "rC",
            attached: "",
            module: "",
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
            attached: "0xWTKk",
            module: "",
            long_code: &[],
            long_value: &["--encoding"],
        },
        Lang::Perl => Syntax {
            code: "eE",
            value: "MmI",
            attached: "il0xdDCF",
            module: "",
            long_code: &[],
            long_value: &[],
        },
        Lang::Php => Syntax {
            code: "rBRE",
            value: "dcztF",
            attached: "",
            module: "",
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
            long_code: &[],
            long_value: &[],
        },
        Lang::Lua => Syntax {
            code: "e",
            value: "l",
            attached: "",
            module: "",
            long_code: &[],
            long_value: &[],
        },
    }
}

/// Where the code of `program` (an interpreter of `lang`) comes from.
fn code_of<'a>(lang: Lang, program: &str, args: &'a [Field]) -> Code<'a> {
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
                .map_or(Code::Elsewhere, Code::File);
        }
        ("deno", Some(_)) => return Code::Elsewhere,
        _ => args,
    };
    let s = syntax(lang, program);
    let mut inline: Vec<(&str, bool)> = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        i += 1;
        if t == "-" {
            return if inline.is_empty() {
                Code::Stdin
            } else {
                Code::Inline(inline)
            };
        }
        if t == "--" {
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            let name = format!("--{name}");
            let takes =
                s.long_code.contains(&name.as_str()) || s.long_value.contains(&name.as_str());
            if takes && !long.contains('=') {
                if s.long_code.contains(&name.as_str())
                    && let Some(code) = args.get(i)
                {
                    inline.push(part(code));
                }
                i += 1;
            }
            continue;
        }
        let Some(bundle) = t.strip_prefix('-') else {
            // The first operand is the script, unless code was given inline.
            return if inline.is_empty() {
                Code::File(a)
            } else {
                Code::Inline(inline)
            };
        };
        if a.unknown {
            // An option not known could be one that runs code.
            return Code::Inline(vec![part(a)]);
        }
        for (at, c) in bundle.char_indices() {
            let rest = &bundle[at + c.len_utf8()..];
            if s.module.contains(c) {
                return Code::Elsewhere;
            }
            if s.code.contains(c) {
                if rest.is_empty() {
                    if let Some(code) = args.get(i) {
                        inline.push(part(code));
                    }
                    i += 1;
                } else {
                    // `-e'code'` in one word: the code is the rest of it.
                    inline.push((rest, false));
                }
                break;
            }
            if s.value.contains(c) {
                if rest.is_empty() {
                    i += 1;
                }
                break;
            }
            if s.attached.contains(c) {
                break;
            }
        }
    }
    if !inline.is_empty() {
        Code::Inline(inline)
    } else if let Some(file) = args.get(i) {
        Code::File(file)
    } else {
        Code::Stdin
    }
}

/// A word as inline code.
fn part(field: &Field) -> (&str, bool) {
    (field.text.as_str(), field.unknown)
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
            return Code::File(a);
        }
    }
    Code::Stdin
}
