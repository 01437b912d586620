//! Shells (`-c` scripts, script files, standard input, `BASH_ENV`), interpreters of
//! other languages (where their code comes from), and `env` (its assignments and `-S`).

use crate::matcher::shell::SUBSTITUTION;
use crate::matcher::shell::env::Value;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Io, Reader, is_stdin_path};

use super::stdin_shell;
use crate::matcher::shell::programs::builtins;

/// Whether a shell started with `args` runs nothing: `bash -n` (`-o noexec`) reads its
/// script for a syntax check. The last of `-n`/`+n` given before the script counts.
pub(in crate::matcher::shell::programs) fn noexec(args: &[Field]) -> bool {
    let mut noexec = false;
    let mut words = args.iter().map(|a| a.text.as_str());
    while let Some(t) = words.next() {
        if t == "--" || t == "-" || !(t.starts_with('-') || t.starts_with('+')) || t.len() < 2 {
            break;
        }
        if matches!(t, "-o" | "+o") {
            if words.next() == Some("noexec") {
                noexec = t == "-o";
            }
        } else if matches!(t, "-O" | "+O" | "--rcfile" | "--init-file") {
            words.next();
        } else if !t.starts_with("--") && t.contains('n') {
            noexec = t.starts_with('-');
        }
    }
    noexec
}

/// A shell: its `-c` script, a script file, or what it reads on standard input.
pub(in crate::matcher::shell::programs) fn shell(
    r: &mut Reader,
    args: &[Field],
    stdin: Data,
    env: &[(String, Value)],
) -> Data {
    for (name, value) in env {
        if matches!(name.as_str(), "BASH_ENV" | "ENV") {
            match value {
                Value::Known(path) => {
                    r.run_file(path, Data::Nothing);
                }
                Value::Unknown => {
                    r.unreadable("the shell's start-up file comes from an unknown value")
                }
            }
        }
    }
    // The shell's own options, with the names `-o`/`-O` take, up to its first operand.
    let mut options: Vec<String> = Vec::new();
    for a in args {
        let value = matches!(options.last().map(String::as_str), Some("-o" | "-O"));
        if !value && (!a.text.starts_with(['-', '+']) || a.text == "--" || a.text == "-") {
            break;
        }
        options.push(a.text.clone());
    }
    builtins::unread_shell_options(r, &options);
    let mut i = 0;
    let mut command_string = false;
    let mut from_stdin = false;
    // `bash -O extglob -c '... !(keep) ...'`: the script is parsed with the patterns on.
    let extglob = args
        .windows(2)
        .any(|w| w[0].text == "-O" && w[1].text == "extglob");
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "--" || t == "-" {
            i += 1;
            break;
        }
        if !(t.starts_with('-') || t.starts_with('+')) || t.len() < 2 {
            break;
        }
        if a.unknown {
            r.unreadable("an option of the shell is not known before it runs");
        }
        if matches!(t, "-o" | "+o" | "-O" | "+O") {
            i += 1;
        } else if matches!(t, "--rcfile" | "--init-file") {
            if let Some(f) = args.get(i + 1) {
                r.run_file(&f.text, Data::Nothing);
            }
            i += 1;
        } else if t.starts_with('-') && !t.starts_with("--") {
            command_string |= t.contains('c');
            from_stdin |= t.contains('s');
        }
        i += 1;
    }
    if noexec(args) {
        return Data::Nothing;
    }
    match args.get(i) {
        Some(script) if command_string => {
            if script.unknown {
                r.unreadable("the shell runs a script that comes from a substitution");
            }
            let positional: Vec<Value> = args
                .get(i + 2..)
                .unwrap_or_default()
                .iter()
                .map(Field::value)
                .collect();
            let saved = r.env.positional.replace(positional);
            let saved0 = std::mem::replace(&mut r.env.arg0, args.get(i + 1).map(Field::value));
            let globbing = r.options.enable_extended_globbing;
            r.options.enable_extended_globbing |= extglob;
            let nocase = r.env.nocaseglob;
            r.env.nocaseglob |= options.windows(2).any(|w| w == ["-O", "nocaseglob"]);
            r.script(&script.text, Data::Nothing);
            r.options.enable_extended_globbing = globbing;
            r.env.nocaseglob = nocase;
            r.env.positional = saved;
            r.env.arg0 = saved0;
        }
        Some(file) if !from_stdin => {
            if file.unknown || is_stdin_path(&file.text) && stdin == Data::Unknown {
                r.unreadable("the shell runs a script that comes from a substitution");
            } else if is_stdin_path(&file.text) {
                stdin_shell(r, stdin);
            } else {
                r.run_script_file(&file.text, args.get(i + 1..).unwrap_or_default());
            }
        }
        _ => {
            // `bash -s a b <<EOF`: the script on standard input gets the operands as `$1`...
            let positional = args
                .get(i..)
                .unwrap_or_default()
                .iter()
                .map(Field::value)
                .collect();
            let saved = r.env.positional.replace(positional);
            stdin_shell(r, stdin);
            r.env.positional = saved;
        }
    }
    Data::Unknown
}

/// `env [options] [NAME=VALUE]... [command]`, and `env -S 'script'`.
pub(super) fn env_command(
    r: &mut Reader,
    row: &Program,
    args: &[Field],
    stdin: Data,
    outer: &[(String, Value)],
) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut split: Option<String> = None;
    for o in &opts {
        if let Some(s) = option_value(o, 'S', "split-string") {
            split = Some(s);
        }
    }
    let mut env: Vec<(String, Value)> = outer.to_vec();
    let mut k = at.min(args.len());
    while let Some(a) = args.get(k) {
        // A function a child bash imports (`BASH_FUNC_make%%=() { ...; }`).
        if a.text.starts_with("BASH_FUNC_") && a.text.contains('=') {
            r.unreadable(
                "the line changes what a command name runs (BASH_CMDS, BASH_ALIASES, BASH_FUNC_)",
            );
            k += 1;
            continue;
        }
        match a.text.split_once('=') {
            Some((name, value))
                if !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                let value = if a.unknown {
                    Value::Unknown
                } else {
                    Value::Known(value.to_owned())
                };
                r.special_variable(name, &value);
                env.push((name.to_owned(), value));
                k += 1;
            }
            _ => break,
        }
    }
    let mut rest: Vec<Field> = args[k..].to_vec();
    if let Some(s) = split {
        // `-S` splits its string into words (no globbing, no operators: `;` is a word),
        // which come before the other operands.
        let mut words = split_string(&s);
        words.extend(rest);
        rest = words;
    }
    r.run(rest, &Io::default(), stdin, &env)
}

/// The words of `env -S`'s string, split as env does: on whitespace, with single quotes
/// literal, double quotes and backslash escapes (`\_` is a space), `#` starting a comment
/// at a word's start, and `${NAME}` (the environment's value) unknown.
fn split_string(s: &str) -> Vec<Field> {
    let mut words = Vec::new();
    let mut word: Option<Field> = None;
    let mut chars = s.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, '#') if word.is_none() => break,
            (None, '\'' | '"') => {
                field(&mut word).quoted = true;
                quote = Some(c);
            }
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => field(&mut word).text.push(c),
            (_, '\\') => match chars.next() {
                Some('_') => field(&mut word).text.push(' '),
                Some('n') => field(&mut word).text.push('\n'),
                Some('t') => field(&mut word).text.push('\t'),
                Some('c') => break,
                Some(other) => field(&mut word).text.push(other),
                None => {}
            },
            (_, '$') if chars.peek() == Some(&'{') => {
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
                let f = field(&mut word);
                f.text.push_str(SUBSTITUTION);
                f.unknown = true;
            }
            (_, c) => field(&mut word).text.push(c),
        }
    }
    words.extend(word);
    words
}

/// The word being built, started if need be.
fn field(word: &mut Option<Field>) -> &mut Field {
    word.get_or_insert_with(Field::default)
}
