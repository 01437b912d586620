//! `sed` (its `e` command and flag) and `awk` (`system`, pipes to and from commands).

use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Reader};

use super::{shell_c, shell_c_reading};

/// `sed`: the `e` command and the `e` flag of `s` run commands; `w`/`r` name files.
pub(super) fn sed(r: &mut Reader, row: &Program, args: &[Field]) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut scripts: Vec<String> = Vec::new();
    for o in &opts {
        if let Some(s) = option_value(o, 'e', "expression") {
            scripts.push(s);
        }
        if option_value(o, 'f', "file").is_some() {
            r.opaque("sed reads its script from a file");
        }
    }
    if scripts.is_empty()
        && let Some(s) = t.get(at)
    {
        scripts.push(s.clone());
        if args[at].unknown {
            r.opaque("sed's script is not known before it runs");
        }
    }
    for s in scripts {
        sed_script(r, &s);
    }
    Data::Unknown
}

/// Finds `e` commands and `s///e` flags in a sed script.
fn sed_script(r: &mut Reader, script: &str) {
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            's' | 'y' => {
                let Some(&delim) = chars.get(i + 1) else {
                    return;
                };
                if delim == '\n' || delim == '\\' {
                    i += 1;
                    continue;
                }
                // Skip the two parts.
                let mut parts = 0;
                let mut j = i + 2;
                while j < chars.len() && parts < 2 {
                    if chars[j] == '\\' {
                        j += 2;
                        continue;
                    }
                    if chars[j] == delim {
                        parts += 1;
                    }
                    j += 1;
                }
                let flags_end = chars[j.min(chars.len())..]
                    .iter()
                    .position(|c| matches!(c, ';' | '\n' | '}'))
                    .map_or(chars.len(), |p| j + p);
                let flags: String = chars[j.min(chars.len())..flags_end].iter().collect();
                if c == 's' && flags.split('w').next().unwrap_or_default().contains('e') {
                    r.opaque("sed runs its pattern space as a command (the s///e flag)");
                }
                i = flags_end;
            }
            'e' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|c| *c == '\n' || *c == ';')
                    .map_or(chars.len(), |p| i + 1 + p);
                let command: String = chars[i + 1..end].iter().collect();
                if command.trim().is_empty() {
                    r.opaque("sed runs its pattern space as a command (the e command)");
                } else {
                    shell_c(r, command.trim());
                }
                i = end;
            }
            'r' | 'R' | 'w' | 'W' | 'a' | 'i' | 'c' | ':' | 'b' | 't' | 'T' | '#' => {
                // Their argument runs to the end of the line.
                i = chars[i..]
                    .iter()
                    .position(|c| *c == '\n')
                    .map_or(chars.len(), |p| i + p);
            }
            _ => i += 1,
        }
    }
}

/// `awk`: `system(...)`, `print | "cmd"`, `"cmd" | getline` with a constant command are
/// read; any other of these forms makes the line opaque.
pub(super) fn awk(r: &mut Reader, row: &Program, args: &[Field]) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut programs: Vec<String> = Vec::new();
    let mut from_file = false;
    for o in &opts {
        if let Some(s) = option_value(o, 'f', "file") {
            from_file = true;
            let _ = s;
        }
        if let Opt::Long(l, Some(s)) = o
            && l == "source"
        {
            programs.push(s.clone());
        }
    }
    if !from_file
        && programs.is_empty()
        && let Some(p) = args.get(at)
    {
        if p.unknown {
            r.opaque("awk's program is not known before it runs");
        }
        programs.push(p.text.clone());
    }
    if from_file {
        r.opaque("awk reads its program from a file");
    }
    for p in programs {
        awk_program(r, &p);
    }
    Data::Unknown
}

fn awk_program(r: &mut Reader, program: &str) {
    awk_output_files(r, program);
    let b = program.as_bytes();
    let mut i = 0;
    // Inside a string, `|` and `system` are text: `print $1 | "sort | uniq -c"`.
    let mut quoted = false;
    while i < b.len() {
        match b[i] {
            b'\\' if quoted => {
                i += 2;
                continue;
            }
            b'"' => quoted = !quoted,
            _ if quoted => {
                i += 1;
                continue;
            }
            _ => {}
        }
        if program[i..].starts_with("system")
            && !b
                .get(i.wrapping_sub(1))
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            let rest = program[i + 6..].trim_start();
            match rest
                .strip_prefix('(')
                .map(str::trim_start)
                .and_then(awk_string)
            {
                Some((code, after)) if after.trim_start().starts_with(')') => {
                    shell_c(r, &code);
                }
                _ => r.opaque("awk runs a command it builds at run time"),
            }
        }
        if b[i] == b'|' && b.get(i + 1) != Some(&b'|') && b.get(i.wrapping_sub(1)) != Some(&b'|') {
            let after = program[i + 1..].trim_start();
            if after.starts_with("getline") || after.starts_with('&') {
                // `"cmd" | getline`: the command is the string before the bar.
                let before = program[..i].trim_end();
                match before.rfind('"').and_then(|end| {
                    let start = before[..end].rfind('"')?;
                    Some(before[start + 1..end].to_owned())
                }) {
                    Some(code) if before.ends_with('"') => {
                        shell_c(r, &code);
                    }
                    _ => r.opaque("awk runs a command it builds at run time"),
                }
            } else {
                // `print X | "cmd"`: what is printed is the command's input, which a shell
                // or an interpreter runs as its program.
                match awk_string(after) {
                    Some((code, _)) => shell_c_reading(r, &code, awk_printed(&program[..i])),
                    None => r.opaque("awk runs a command it builds at run time"),
                }
            }
        }
        i += 1;
    }
}

/// The files awk's `print > FILE` and `print >> FILE` write, recorded as `tee FILE` (`tee -a`):
/// a constant file by name, any other as a file not known.
fn awk_output_files(r: &mut Reader, program: &str) {
    let mut rest = program;
    while let Some(at) = rest.find("print") {
        let statement = &rest[at + 5..];
        let end = statement.find([';', '}', '\n']).unwrap_or(statement.len());
        rest = &statement[end..];
        let Some(redirect) = top_level_redirect(&statement[..end]) else {
            continue;
        };
        let (append, target) = match redirect.strip_prefix('>') {
            Some(after) => (true, after.trim_start()),
            None => (false, redirect.trim_start()),
        };
        let file = match awk_string(target) {
            Some((file, after)) if after.trim().is_empty() => file,
            _ => crate::matcher::shell::SUBSTITUTION.to_owned(),
        };
        let mut args = Vec::new();
        if append {
            args.push("-a".to_owned());
        }
        args.push(file);
        r.record(crate::matcher::shell::SimpleCommand {
            program: "tee".to_owned(),
            args,
            redirects: Vec::new(),
            origin: Some("from awk's print > FILE".to_owned()),
            dir: None,
        });
    }
}

/// What follows the `>` of an output redirection in a `print` statement's text: a `>` outside
/// strings and parentheses (inside them it compares).
fn top_level_redirect(statement: &str) -> Option<&str> {
    let mut depth = 0usize;
    let mut quoted = false;
    let mut escaped = false;
    for (k, c) in statement.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => depth = depth.saturating_sub(1),
            '>' if !quoted && depth == 0 => return Some(&statement[k + 1..]),
            _ => {}
        }
    }
    None
}

/// What the `print` or `printf` statement that ends `before` (at a `| "cmd"`) writes: its
/// text when it prints one constant string, else not known.
fn awk_printed(before: &str) -> Data {
    let statement = before
        .rsplit([';', '{', '}', '\n'])
        .next()
        .unwrap_or(before)
        .trim();
    let constant = |expression: &str| {
        awk_string(expression.trim())
            .filter(|(_, after)| after.trim().is_empty())
            .map(|(text, _)| text)
    };
    if let Some(expression) = statement.strip_prefix("printf")
        && let Some(text) = constant(expression).filter(|t| !t.contains('%'))
    {
        return Data::Known(text);
    }
    match statement.strip_prefix("print").and_then(constant) {
        Some(text) => Data::Known(format!("{text}\n")),
        None => Data::Unknown,
    }
}

/// A double-quoted awk string at the start of `text`, unescaped, and the text after it.
fn awk_string(text: &str) -> Option<(String, &str)> {
    let body = text.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[k + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}
