//! Each interpreter's command line: the options that take a value, and where its code comes
//! from (`-c`, `-e`, a file, standard input, a preloaded module, a `data:` URL).

use super::Code;
use super::python_modules::python_module;
use crate::matcher::code::Lang;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::programs::table::CODE_FLAGS;
use std::borrow::Cow;

/// `--name=value` as its name and value; any other word as itself, with no value.
pub(super) fn long_value(a: &Field) -> (&str, Option<&str>) {
    match a.text.split_once('=') {
        Some((name, value)) if name.starts_with("--") => (name, Some(value)),
        _ => (a.text.as_str(), None),
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
pub(super) fn code_of<'a>(
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
pub(super) fn file_of(field: &Field) -> Code<'_> {
    Code::File(&field.text, field.unknown)
}

/// A word as inline code.
pub(super) fn part(field: &Field) -> (Cow<'_, str>, bool) {
    (Cow::Borrowed(field.text.as_str()), field.unknown)
}

/// The code an option's value makes the interpreter run before its program, if any: a
/// file or `data:` URL that node preloads (`-r`, `--require`, `--import`, `--loader`), a
/// Ruby file required by path (`-r./x.rb`; `-rjson` is a library), PHP's
/// `auto_prepend_file`, and Perl's `-M'X;code'` (which perl runs as `use X;code;`).
pub(super) fn preload<'a>(
    lang: Lang,
    option: &str,
    value: &'a str,
    unknown: bool,
) -> Option<Code<'a>> {
    if unknown {
        let node_code = lang == Lang::JavaScript
            && matches!(
                option,
                "-r" | "--require" | "--import" | "--loader" | "--experimental-loader"
            );
        return node_code.then_some(Code::Unreadable(
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
        _ => Code::Unreadable("the interpreter runs code from an encoded data: URL"),
    }
}

/// An interpreter the code reader does not know: the operand after a code option, or the
/// first operand (a script).
pub(super) fn generic_code_of(args: &[Field]) -> Code<'_> {
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
