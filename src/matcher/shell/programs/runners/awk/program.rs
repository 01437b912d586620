//! The commands an awk program runs: `system()`, `print | "cmd"` and `"cmd" | getline`,
//! with commands that are constants or built from values the reader knows.

use super::super::{shell_c, shell_c_reading};
use super::Values;
use super::files::{awk_files, operand, print_redirects};
use super::text::{awk_printed, awk_string, is_name, statement_end, top_level_redirect};
use crate::matcher::shell::walk::{Data, Reader};
use crate::matcher::shell::{SUBSTITUTION, SimpleCommand};

/// Whether every indirect call of a (masked) program (`@name(...)`) calls a function the
/// program defines: `name` is given once, by `-v` or in the program, the name of such a
/// function as a constant (`-v mode=sum` with `function sum(...)`). Any other value
/// (`run = op[3]`, a field, `"system"`) may name a built-in that runs commands.
pub(super) fn indirect_calls_known(program: &str, values: &Values) -> bool {
    let defined: Vec<&str> = program
        .match_indices("function")
        .filter_map(|(k, _)| {
            let rest = program[k + 8..].trim_start();
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (end > 0).then(|| &rest[..end])
        })
        .collect();
    let b = program.as_bytes();
    let called = b.iter().enumerate().filter_map(|(k, c)| {
        let name_len = b[k + 1..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        let called = *c == b'@'
            && name_len > 0
            && b[k + 1 + name_len..]
                .iter()
                .find(|c| !c.is_ascii_whitespace())
                == Some(&b'(');
        called.then(|| &program[k + 1..k + 1 + name_len])
    });
    called
        .collect::<Vec<_>>()
        .into_iter()
        .all(|name| values.constant(name).is_some_and(|v| defined.contains(&v)))
}

/// What a program that is only a `BEGIN` block of constant `print`s and `printf`s writes
/// (`awk 'BEGIN { print "import sys"; print "print(1)" }' | python3 -`): it reads no input.
pub(super) fn begin_only_output(program: &str) -> Option<String> {
    let body = program
        .trim()
        .strip_prefix("BEGIN")?
        .trim_start()
        .strip_prefix('{')?;
    let body = body.trim_end().strip_suffix('}')?;
    let mut out = String::new();
    let mut rest = body;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';');
        if rest.is_empty() {
            return Some(out);
        }
        let end = statement_end(rest);
        let statement = &rest[..end];
        // Only a statement that ends here, at a separator: not `)` or a nested `}`.
        if !matches!(rest[end..].chars().next(), None | Some(';' | '\n')) {
            return None;
        }
        match awk_printed(statement) {
            Data::Known(text)
                if top_level_redirect(statement).is_none() && !statement.contains('|') =>
            {
                out.push_str(&text);
            }
            _ => return None,
        }
        rest = &rest[end..];
    }
}

/// Whether `bare` (a program without its blanks) assigns a variable itself with more
/// after it (`s=s s`, `s=s"x"`): awk's concatenation, which grows the value each time.
fn concatenates_onto_itself(bare: &str) -> bool {
    let b = bare.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    bare.match_indices('=').any(|(at, _)| {
        let before = &b[..at];
        let start = before.iter().rposition(|c| !word(*c)).map_or(0, |k| k + 1);
        let name = &bare[start..at];
        let after = &bare[at + 1..];
        // Not `==`, `<=`, `!=`, `>=`, nor `+=` and the like (no name right before).
        !name.is_empty()
            && !name.as_bytes()[0].is_ascii_digit()
            && !after.starts_with('=')
            && after.strip_prefix(name).is_some_and(|rest| {
                rest.bytes()
                    .next()
                    .is_some_and(|c| word(c) || matches!(c, b'"' | b'$' | b'('))
            })
    })
}

pub(super) fn awk_program(r: &mut Reader, program: &str, values: &Values) {
    awk_files(r, program, values);
    let bare: String = program.chars().filter(|c| !c.is_whitespace()).collect();
    if ["while(1)", "for(;;)", "while(\"1\")", "while(!0)"]
        .iter()
        .any(|l| bare.contains(l))
    {
        if bare.contains("system(") {
            r.unreadable("awk runs commands in an endless loop");
        } else if print_redirects(program).next().is_some() {
            r.unreadable("awk writes a file in an endless loop");
        } else if concatenates_onto_itself(&bare) {
            r.unreadable("awk grows what it holds in an endless loop (a memory bomb)");
        }
    }
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
            // `system("cmd")`, or `system(cmd)` of a variable assigned a constant.
            let group = operand(rest);
            let code = group
                .strip_prefix('(')
                .and_then(|g| g.strip_suffix(')'))
                .and_then(|argument| values.eval(r, argument, 0));
            match code {
                Some(code) if rest.starts_with('(') => shell_c(r, &code),
                _ => match listed_commands(program, group, values) {
                    Some(commands) => commands.iter().for_each(|c| shell_c(r, c)),
                    None => built_from_data(r, group, values),
                },
            }
        }
        if b[i] == b'|' && b.get(i + 1) != Some(&b'|') && b.get(i.wrapping_sub(1)) != Some(&b'|') {
            let after = program[i + 1..].trim_start();
            if after.starts_with("getline") || after.starts_with('&') {
                // `"cmd" | getline`: the command is the string before the bar, or a variable
                // assigned a constant (`cmd | getline`).
                let before = program[..i].trim_end();
                let name_at = before
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(0, |k| k + 1);
                let code = if before.ends_with('"') {
                    before.rfind('"').and_then(|end| {
                        let start = before[..end].rfind('"')?;
                        Some(before[start + 1..end].to_owned())
                    })
                } else {
                    Some(&before[name_at..])
                        .filter(|name| !name.is_empty())
                        .and_then(|name| values.eval(r, name, 0))
                };
                match code {
                    Some(code) => shell_c(r, &code),
                    None => r.unreadable("awk runs a command it builds at run time"),
                }
            } else {
                // `print X | "cmd"`: what is printed is the command's input, which a shell
                // or an interpreter runs as its program.
                match awk_string(after) {
                    Some((code, _)) => shell_c_reading(r, &code, awk_printed(&program[..i])),
                    None => r.unreadable("awk runs a command it builds at run time"),
                }
            }
        }
        i += 1;
    }
}

/// The variable that stands for the data in a command awk builds from it: the shell reader
/// takes its value as one not known, as it takes the field's.
const DATA: &str = "HOOKGATE_AWK_DATA";

/// `system("mkdir -p out/" $1)`: a command built from constants and the data awk reads.
/// What the constants run is read with the data as a value not known (`mkdir -p
/// out/${HOOKGATE_AWK_DATA}`), and the command is also reported as a virtual
/// `command-from-data awk COMMAND`, for the policy to weigh: the shell parses the data too,
/// so a line of it (`x;rm -rf ~`) can run anything. Anything else built at run time
/// (`system($0)`, a condition, a variable set on the line to the stand-in's name), or
/// built from data the line itself holds or wrote (`<<< 'x;rm -rf ~'`, a file written
/// before), is unreadable.
fn built_from_data(r: &mut Reader, group: &str, values: &Values) {
    const REASON: &str = "awk runs a command it builds at run time";
    let stand_in = format!("${{{DATA}}}");
    let command = group
        .strip_prefix('(')
        .and_then(|g| g.strip_suffix(')'))
        // The stand-in's name written in the program could give it a value in the command
        // (`system("HOOKGATE_AWK_DATA=x; rm -rf " $1)`).
        .filter(|g| {
            !values.data_on_line
                && !g.contains(DATA)
                && matches!(r.env.get(DATA), crate::matcher::shell::env::Value::Unknown)
        })
        .and_then(|argument| values.eval_with_data(r, argument, &stand_in));
    // The data must be in a command with a program of its own written out.
    let Some(command) = command.filter(|c| {
        c.contains(&stand_in)
            && c.trim_start()
                .starts_with(|ch: char| ch.is_ascii_alphanumeric() || "./_".contains(ch))
    }) else {
        return r.unreadable(REASON);
    };
    // Shown, and checked by the oracle, with the data as any text.
    let shown = command.replace(&stand_in, SUBSTITUTION);
    let virtual_command = |program: &str, args: Vec<String>| SimpleCommand {
        program: program.to_owned(),
        args,
        redirects: Vec::new(),
        origin: None,
        dir: None,
    };
    r.record(virtual_command("sh", vec!["-c".to_owned(), shown.clone()]));
    r.script(&command, Data::Nothing);
    r.record(virtual_command(
        "command-from-data",
        vec!["awk".to_owned(), shown],
    ));
}

/// The commands `system("CMD " $0)` (or `$1` with the default field splitting) runs for
/// each path of the listing awk reads: `ls tests/*.sh | awk '{ system("bash " $0) }'`
/// runs `bash tests/*.sh`, path by path. The path may be quoted (`system("rm -f \"" $0
/// "\"")`, which stands for the path as it is), and the command a variable assigned once
/// (`cmd = "gzip " $0; system(cmd)`). `None` when the argument has another shape, or there
/// is no such listing.
fn listed_commands(program: &str, group: &str, values: &Values) -> Option<Vec<String>> {
    if values.listed.is_empty() {
        return None;
    }
    let mut inner = group.strip_prefix('(')?.strip_suffix(')')?.trim();
    if is_name(inner) {
        inner = values.vars.get(inner)?.as_deref()?.trim();
    }
    let (mut prefix, rest) = awk_string(inner)?;
    let rest = rest.trim();
    let (field, mut suffix) = match rest.find(|c: char| c.is_whitespace() || c == '"') {
        Some(end) => {
            let (suffix, after) = awk_string(rest[end..].trim_start())?;
            if !after.trim().is_empty() {
                return None;
            }
            (&rest[..end], suffix)
        }
        None => (rest, String::new()),
    };
    // A path quoted for the shell is the path itself.
    for quote in ['"', '\''] {
        if prefix.ends_with(quote) && suffix.starts_with(quote) {
            prefix.pop();
            suffix.remove(0);
        }
    }
    let others = program.replacen(group, "", 1);
    Some(
        listed_records(field, program, &others, values)?
            .iter()
            .flatten()
            .map(|path| format!("{prefix}{path}{suffix}"))
            .collect(),
    )
}

/// The records `field` (`$0`, or `$1` with the default field splitting) takes in turn:
/// each alternative list of the paths awk reads on its standard input. The record must
/// reach its use as it was read: nothing in `others` (the program but that use) reads
/// another (`getline`), splits records elsewhere (`RS`), or rewrites one (`sub`, `gsub`,
/// an assignment to a field or to `NF`). `None` for any other field or program.
pub(super) fn listed_records<'v>(
    field: &str,
    program: &str,
    others: &str,
    values: &'v Values,
) -> Option<&'v [Vec<String>]> {
    let whole_line = field == "$0";
    let first_field = field == "$1"
        && values.default_fields
        && !program.contains("FS")
        && !values.vars.contains_key("FS");
    let rewrites = ["getline", "RS", "NF", "sub("]
        .iter()
        .any(|w| others.contains(w))
        || ["RS", "NF"].iter().any(|v| values.vars.contains_key(*v))
        || assigns_field(others);
    // The records come from the files the program adds to `ARGV`, not the listing.
    if !values.argv_added.is_empty() || values.argv_written {
        return None;
    }
    if values.listed.is_empty() || !(whole_line || first_field) || rewrites {
        return None;
    }
    Some(&values.listed)
}

/// Whether awk code assigns a field (`$0 = x`, `$1="y"`, `$(i) += 1`), which rewrites the
/// record: a `$` term followed by an assignment operator, not by `==`.
pub(super) fn assigns_field(code: &str) -> bool {
    code.match_indices('$').any(|(at, _)| {
        let term = code[at + 1..]
            .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || "_()".contains(c))
            .trim_start();
        let operator = term.trim_start_matches(['+', '-', '*', '/', '%', '^']);
        (operator.starts_with('=') && !operator.starts_with("=="))
            || term.starts_with("++")
            || term.starts_with("--")
    })
}
