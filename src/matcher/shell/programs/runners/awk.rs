//! `awk` programs: `system`, pipes to and from commands, and the files `print` writes.

use std::collections::HashMap;

use crate::matcher::shell::SUBSTITUTION;
use crate::matcher::shell::env::Value;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Reader, is_stdin_path};

use super::{record_written, shell_c, shell_c_reading};

/// `awk`: `system(...)`, `print | "cmd"`, `"cmd" | getline` with a constant command are
/// read; any other of these forms makes the line opaque.
/// The awk programs, read alike.
pub(super) const AWKS: &[&str] = &["awk", "gawk", "mawk", "nawk", "busybox-awk"];

pub(super) fn awk(r: &mut Reader, row: &Program, args: &[Field], stdin: &Data) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut programs: Vec<String> = Vec::new();
    let mut program_files: Vec<String> = Vec::new();
    let mut values = Values {
        default_fields: !opts
            .iter()
            .any(|o| option_value(o, 'F', "field-separator").is_some()),
        ..Values::default()
    };
    for o in &opts {
        if let Some(file) = option_value(o, 'f', "file").or_else(|| option_value(o, 'E', "exec")) {
            program_files.push(file);
        }
        // A library found on `AWKPATH`, which the reader does not search.
        if option_value(o, 'i', "include").is_some_and(|name| !is_inplace(&name)) {
            r.opaque(INCLUDES);
        }
        if let Some(extension) = option_value(o, 'l', "load") {
            extension_loaded(r, &extension, &programs_text(args, at));
        }
        if let Opt::Long(l, Some(s)) = o
            && l == "source"
        {
            programs.push(s.clone());
        }
        if let Some(assignment) = option_value(o, 'v', "assign") {
            values.assign_operand(&assignment);
        }
    }
    // gawk's profile, variable dump and pretty-printed program are written to a file.
    let written = gawk_output_files(t.get(..at).unwrap_or_default());
    if !written.is_empty() {
        record_written(r, written, false, "written by gawk");
    }
    let mut operands = at;
    let from_file = !program_files.is_empty();
    if !from_file
        && programs.is_empty()
        && let Some(p) = args.get(at)
    {
        if p.unknown {
            r.opaque("awk's program is not known before it runs");
        }
        programs.push(p.text.clone());
        operands += 1;
    }
    // A program file the line wrote, or one of the workspace, is read as the program;
    // one that cannot be read (no host files, a download, standard input) is not known.
    for file in program_files {
        // `awk -f /dev/stdin data.tsv <<'AWK' ... AWK`: the here-document is the program.
        let data = match stdin {
            Data::Known(text) if is_stdin_path(&file) => Data::Known(text.clone()),
            _ => r.file_data(&Field::literal(&file)),
        };
        match data {
            Data::Known(text) => programs.push(text),
            _ => r.opaque("awk reads its program from a file that is not known before it runs"),
        }
    }
    for a in args.get(operands..).unwrap_or_default() {
        if a.unknown {
            values.files.push(None);
        } else if !values.assign_operand(&a.text) {
            values.files.push(Some(a.text.clone()));
        }
    }
    // A listing on standard input, read when no file operand is; or lines known to be
    // plain names (`printf '%s\n' a b | awk ...`), which awk reads the same way: no blank
    // and no shell syntax, as a listing's, since a command built from one (`system("rm -f
    // \"" $0 "\"")`) is read with its quotes taken off.
    const MOST_LINES: usize = 64;
    match stdin {
        Data::Listing(lists, false)
            if values.files.is_empty() && lists.iter().flatten().all(|f| !f.unknown) =>
        {
            values.listed = lists
                .iter()
                .map(|list| list.iter().map(|f| f.text.clone()).collect())
                .collect();
        }
        Data::Known(text)
            if values.files.is_empty()
                && (1..=MOST_LINES).contains(&text.lines().count())
                && text
                    .lines()
                    .all(|l| !l.is_empty() && l.chars().all(plain_name_char)) =>
        {
            values.listed = vec![text.lines().map(str::to_owned).collect()];
        }
        _ => {}
    }
    let printed = match programs.as_slice() {
        [one] => begin_only_output(one),
        _ => None,
    };
    for p in programs {
        let p = masked(&p);
        // gawk's `@load "ext"`, `@include "file"` and indirect calls (`@f(...)`, `f` a
        // variable naming any function, `system` among them). The directives' names are
        // strings, which `masked` keeps.
        for (directive, name) in directives(&p) {
            match directive {
                "load" => extension_loaded(r, name, &p),
                "include" if !is_inplace(name) => r.opaque(INCLUDES),
                _ => {}
            }
        }
        values.assign_in(&p);
        if !indirect_calls_known(&p, &values) {
            r.opaque("awk calls a function named by a value");
        }
        awk_program(r, &p, &values);
    }
    printed.map_or(Data::Unknown, Data::Known)
}

const INCLUDES: &str = "awk includes a library from its search path, which hookgate does not read";

/// gawk's extensions that add nothing that runs, reads or writes past what the reader
/// follows: characters, time, integer division; `readfile` (its reads are read, as
/// `getline < FILE` is), `readdir` (directories read as lists of names); `filefuncs`
/// (`stat`) while the program does not `chdir`, which would move every relative path the
/// reader reads.
const QUIET_EXTENSIONS: &[&str] = &[
    "ordchr",
    "time",
    "intdiv",
    "filefuncs",
    "inplace",
    "readfile",
    "readdir",
];

/// gawk loads the extension `name` for `program`: one that can run, read or write what
/// it is given (`fork`, `readfile`, `readdir`, `rwarray`, any other) is not read.
fn extension_loaded(r: &mut Reader, name: &str, program: &str) {
    let name = name.trim_end_matches(".so");
    let quiet =
        QUIET_EXTENSIONS.contains(&name) && !(name == "filefuncs" && program.contains("chdir"));
    if !quiet {
        r.opaque(
            "awk loads an extension, which adds functions that run, read or write what it is given",
        );
    }
}

/// gawk's in-place editing library (`-i inplace`), whose effect is the edit itself.
fn is_inplace(name: &str) -> bool {
    matches!(name, "inplace" | "inplace.awk")
}

/// The texts of the awk programs among `args` from `at` on, for a look at what they call.
fn programs_text(args: &[Field], at: usize) -> String {
    args.get(at..)
        .unwrap_or_default()
        .iter()
        .map(|a| a.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// gawk's `@load`, `@include` and `@namespace` directives with the names they give.
fn directives(program: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for directive in ["load", "include", "namespace"] {
        let marker = format!("@{directive}");
        for (at, _) in program.match_indices(&marker) {
            let rest = program[at + marker.len()..].trim_start();
            let name = rest
                .strip_prefix('"')
                .and_then(|r| r.split_once('"'))
                .map_or("", |(name, _)| name);
            out.push((directive, name));
        }
    }
    out
}

/// The files gawk's `--profile[=F]` (`-p[F]`), `--dump-variables[=F]` (`-d[F]`) and
/// `--pretty-print[=F]` (`-o[F]`) write, with their default names; long names may be
/// shortened, as gawk allows.
fn gawk_output_files(options: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for o in options {
        let (name, value) = o
            .split_once('=')
            .map_or((o.as_str(), None), |(n, v)| (n, Some(v)));
        let default = if let Some(long) = name.strip_prefix("--") {
            let is = |full: &str, shortest: usize| long.len() >= shortest && full.starts_with(long);
            match () {
                _ if is("profile", 4) || is("pretty-print", 3) => "awkprof.out",
                _ if is("dump-variables", 2) => "awkvars.out",
                _ => continue,
            }
        } else {
            let value_attached = o.get(2..).filter(|v| !v.is_empty());
            let default = match o.get(..2) {
                Some("-p" | "-o") => "awkprof.out",
                Some("-d") => "awkvars.out",
                _ => continue,
            };
            out.push(value_attached.unwrap_or(default).to_owned());
            continue;
        };
        out.push(value.unwrap_or(default).to_owned());
    }
    out
}

/// Whether every indirect call of a (masked) program (`@name(...)`) calls a function the
/// program defines: `name` is given once, by `-v` or in the program, the name of such a
/// function as a constant (`-v mode=sum` with `function sum(...)`). Any other value
/// (`run = op[3]`, a field, `"system"`) may name a built-in that runs commands.
fn indirect_calls_known(program: &str, values: &Values) -> bool {
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
fn begin_only_output(program: &str) -> Option<String> {
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

/// `program` with its comments and the insides of its regular expressions blanked out
/// (same length), so that the scanners below see a `"`, `|` or `>` in them (`# it"s`,
/// `/^(ok|FAIL)/`) as the text it is. A `/` opens a regular expression only where an
/// operand is expected; after a name, a number, `)` or `]` it divides, and so when in
/// doubt nothing is blanked.
fn masked(program: &str) -> String {
    let b = program.as_bytes();
    let mut out = b.to_vec();
    let (mut i, mut quoted) = (0, false);
    // The last byte outside strings, regular expressions and blanks.
    let mut last: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        if quoted {
            match c {
                b'\\' => i += 1,
                b'"' => {
                    quoted = false;
                    last = Some(c);
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => quoted = true,
            b'#' => {
                let end = b[i..]
                    .iter()
                    .position(|&x| x == b'\n')
                    .map_or(b.len(), |n| i + n);
                out[i..end].fill(b' ');
                i = end;
                continue;
            }
            b'/' if last
                .is_none_or(|l| !(l.is_ascii_alphanumeric() || b"_$)].\"".contains(&l))) =>
            {
                let mut j = i + 1;
                while j < b.len() && !matches!(b[j], b'/' | b'\n') {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                if j < b.len() && b[j] == b'/' {
                    out[i + 1..j].fill(b' ');
                    last = Some(b'/');
                    i = j + 1;
                    continue;
                }
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            last = Some(c);
        }
        i += 1;
    }
    // Only whole characters were blanked: the text stays UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| program.to_owned())
}

fn awk_program(r: &mut Reader, program: &str, values: &Values) {
    awk_files(r, program, values);
    let bare: String = program.chars().filter(|c| !c.is_whitespace()).collect();
    if ["while(1)", "for(;;)", "while(\"1\")", "while(!0)"]
        .iter()
        .any(|l| bare.contains(l))
    {
        if bare.contains("system(") {
            r.opaque("awk runs commands in an endless loop");
        } else if print_redirects(program).next().is_some() {
            r.opaque("awk writes a file in an endless loop");
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
                    None => r.opaque("awk runs a command it builds at run time"),
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
                    None => r.opaque("awk runs a command it builds at run time"),
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

/// Whether `c` may be in a name the reader takes as a path as it is, quoted or not.
fn plain_name_char(c: char) -> bool {
    c.is_alphanumeric() || "/._-+,@%:=".contains(c)
}

/// The records `field` (`$0`, or `$1` with the default field splitting) takes in turn:
/// each alternative list of the paths awk reads on its standard input. The record must
/// reach its use as it was read: nothing in `others` (the program but that use) reads
/// another (`getline`), splits records elsewhere (`RS`), or rewrites one (`sub`, `gsub`,
/// an assignment to a field or to `NF`). `None` for any other field or program.
fn listed_records<'v>(
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
fn assigns_field(code: &str) -> bool {
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

/// The files awk's program names beyond its operands: `print > FILE` and `print >> FILE`
/// write, recorded as `tee FILE` (`tee -a`), a file whose name is not known as a file not
/// known; `getline < FILE` and a file added to `ARGV` are read, recorded as `cat FILE`.
fn awk_files(r: &mut Reader, program: &str, values: &Values) {
    for redirect in print_redirects(program) {
        let (append, target) = match redirect.strip_prefix('>') {
            Some(after) => (true, after.trim_start()),
            None => (false, redirect.trim_start()),
        };
        // `print > $0` of a listing writes each file it names.
        if let Some(lists) = listed_records(target.trim(), program, program, values) {
            for path in lists.iter().flatten() {
                record_written(r, vec![path.clone()], append, "from awk's print > FILE");
            }
            continue;
        }
        let file = values
            .eval(r, target.trim(), 0)
            .unwrap_or_else(|| SUBSTITUTION.to_owned());
        record_written(r, vec![file], append, "from awk's print > FILE");
    }
    let mut read = Vec::new();
    for (k, _) in program.match_indices("getline") {
        let after = program[k + 7..].trim_start();
        // `getline < FILE` or `getline VAR < FILE`.
        let after = after
            .strip_prefix(|c: char| c.is_ascii_alphabetic() || c == '_')
            .map_or(after, |v| {
                v.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
            })
            .trim_start();
        if let Some(file) = after.strip_prefix('<').filter(|f| !f.starts_with('=')) {
            read.push(operand(file.trim_start()));
        }
    }
    // gawk's `readfile(FILE)` (its `readfile` extension) reads the file whole.
    for (k, _) in program.match_indices("readfile(") {
        read.push(operand(&program[k + 9..]));
    }
    read.extend(values.argv_added.iter().map(String::as_str));
    for expression in read {
        let file = values
            .eval(r, expression.trim(), 0)
            .unwrap_or_else(|| SUBSTITUTION.to_owned());
        r.record(crate::matcher::shell::SimpleCommand {
            program: "cat".to_owned(),
            args: vec![file],
            redirects: Vec::new(),
            origin: Some("read by awk".to_owned()),
            dir: None,
        });
    }
}

/// What follows the `>` of each `print > FILE` (or `printf`, `>>`) in `program`.
fn print_redirects(program: &str) -> impl Iterator<Item = &str> {
    let mut rest = program;
    std::iter::from_fn(move || {
        while let Some(at) = rest.find("print") {
            let statement = &rest[at + 5..];
            // A `;` or `}` inside the printed string does not end the statement.
            let end = outside_strings(statement, |c, depth| {
                depth == 0 && matches!(c, ';' | '}' | '\n')
            })
            .unwrap_or(statement.len());
            rest = &statement[end..];
            if let Some(redirect) = top_level_redirect(&statement[..end]) {
                return Some(redirect);
            }
        }
        None
    })
}

/// Whether the name at `start..end` of `program` is changed other than by `=`: `x++`,
/// `--x`, `x += 1`, `getline x`, `for (x in a)`, or, in a program that calls `sub` or
/// `gsub` (`substitutes`), any name after a comma, which may be a call's target. Looks
/// only at the text next to the name, so a program is read in linear time.
fn changed_in_place(program: &str, start: usize, end: usize, substitutes: bool) -> bool {
    let before = program[..start].trim_end();
    let after = program[end..].trim_start();
    let op_assign = ["+=", "-=", "*=", "/=", "%=", "^="]
        .iter()
        .any(|op| after.starts_with(op));
    after.starts_with("++")
        || after.starts_with("--")
        || before.ends_with("++")
        || before.ends_with("--")
        || op_assign
        || before.ends_with("getline")
        || (after.starts_with("in ") && before.ends_with('('))
        || (substitutes && before.ends_with(','))
}

/// The operand at the start of `text`: a parenthesised group, or what runs up to the
/// next `)`, `;`, `}` or line end (`(getline l < f) > 0`).
fn operand(text: &str) -> &str {
    if text.starts_with('(') {
        return match outside_strings(text, |c, depth| c == ')' && depth == 1) {
            Some(k) => &text[..=k],
            None => text,
        };
    }
    let end = text.find([')', ';', '}', '\n']).unwrap_or(text.len());
    &text[..end]
}

/// What the reader can tell of awk's values: variables assigned one expression (in the
/// program, by `-v NAME=VALUE` or by a `NAME=VALUE` operand), the file operands (`ARGV[1]`,
/// ..., `FILENAME` when there is one) and the files a program adds to `ARGV`.
#[derive(Debug, Default)]
struct Values {
    /// Each variable's one expression; `None` when it is assigned more than once.
    vars: HashMap<String, Option<String>>,
    /// The operands that are files, `None` where not known.
    files: Vec<Option<String>>,
    /// Expressions the program stores in `ARGV`: files it reads.
    argv_added: Vec<String>,
    /// Whether the program changes `ARGV` or `ENVIRON`: their elements are then not known.
    argv_written: bool,
    environ_written: bool,
    /// Terms evaluated so far: `a = b b b; b = c c c; ...` grows as a power of its depth, so
    /// the evaluation of one program is bounded.
    terms: std::cell::Cell<usize>,
    /// The paths awk reads on its standard input, one a line, when it reads a listing whose
    /// names hold no blank or shell syntax (`ls tests/*.sh | awk ...`): each alternative
    /// list of [`Data::Listing`].
    listed: Vec<Vec<String>>,
    /// Whether fields are split at blanks, as by default (no `-F`, no `FS` set): `$1` of a
    /// listed path is then the path.
    default_fields: bool,
}

impl Values {
    /// Deepest chain of variables followed (`a = b; b = c`).
    const MAX_DEPTH: usize = 8;
    /// Most terms evaluated for one program, and longest value made: past them a value is
    /// not known.
    const MAX_TERMS: usize = 4096;
    const MAX_LEN: usize = 4096;

    /// The string constant `name` is given, when that is its one value (`-v f=sum`,
    /// `f = "sum"`).
    fn constant(&self, name: &str) -> Option<&str> {
        let expression = self.vars.get(name)?.as_deref()?.trim();
        let inner = expression.strip_prefix('"')?.strip_suffix('"')?;
        (!inner.contains(['"', '\\'])).then_some(inner)
    }

    /// Takes `NAME=VALUE` as an assignment of a constant; false for anything else.
    fn assign_operand(&mut self, text: &str) -> bool {
        let Some((name, value)) = text.split_once('=') else {
            return false;
        };
        if !is_name(name) {
            return false;
        }
        // awk decodes escapes in the value as in a string (`-v c='\150\157'` is "ho").
        let mut quoted = String::from("\"");
        let mut chars = value.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(n) => quoted.extend(['\\', n]),
                    None => quoted.push_str("\\\\"),
                },
                '"' => quoted.push_str("\\\""),
                c => quoted.push(c),
            }
        }
        quoted.push('"');
        self.set(name, quoted);
        true
    }

    fn set(&mut self, name: &str, expression: String) {
        self.vars
            .entry(name.to_owned())
            .and_modify(|v| *v = None)
            .or_insert(Some(expression));
    }

    /// Collects the assignments `NAME = EXPRESSION` and `ARGV[...] = EXPRESSION` of
    /// `program`, each expression running to the end of its statement.
    fn assign_in(&mut self, program: &str) {
        let b = program.as_bytes();
        let substitutes = program.contains("sub(");
        let mut quoted = false;
        let mut k = 0;
        while k < b.len() {
            let c = b[k];
            if quoted {
                if c == b'\\' {
                    k += 1;
                } else if c == b'"' {
                    quoted = false;
                }
                k += 1;
                continue;
            }
            if c == b'"' {
                quoted = true;
                k += 1;
                continue;
            }
            let starts_name = (c.is_ascii_alphabetic() || c == b'_')
                && !k
                    .checked_sub(1)
                    .and_then(|p| b.get(p))
                    .is_some_and(|p| p.is_ascii_alphanumeric() || *p == b'_' || *p == b'$');
            if !starts_name {
                k += 1;
                continue;
            }
            let start = k;
            while b
                .get(k)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            {
                k += 1;
            }
            let name = &program[start..k];
            if changed_in_place(program, start, k, substitutes) {
                self.vars.insert(name.to_owned(), None);
                continue;
            }
            let mut at = k;
            let element = b.get(at) == Some(&b'[');
            if element {
                match program[at..].find(']') {
                    Some(close) => at += close + 1,
                    None => continue,
                }
            }
            let rest = program[at..].trim_start();
            let Some(value) = rest.strip_prefix('=').filter(|v| !v.starts_with('=')) else {
                continue;
            };
            let end = statement_end(value);
            let expression = value[..end].trim().to_owned();
            match (name, element) {
                ("ARGV", true) => {
                    self.argv_written = true;
                    self.argv_added.push(expression);
                }
                ("ENVIRON", true) => self.environ_written = true,
                (_, true) => {}
                (_, false) => self.set(name, expression),
            }
        }
    }

    /// The text `expression` evaluates to, when it is a concatenation of constants,
    /// `ENVIRON["NAME"]` of a known variable, `ARGV[N]`, `FILENAME` and variables with
    /// such a value; `None` otherwise.
    fn eval(&self, r: &Reader, expression: &str, depth: usize) -> Option<String> {
        if depth > Self::MAX_DEPTH || self.terms.get() > Self::MAX_TERMS {
            return None;
        }
        let mut out = String::new();
        let mut rest = expression.trim_start();
        while !rest.is_empty() {
            self.terms.set(self.terms.get() + 1);
            if self.terms.get() > Self::MAX_TERMS || out.len() > Self::MAX_LEN {
                return None;
            }
            if rest.starts_with('"') {
                let (text, after) = awk_string(rest)?;
                out.push_str(&text);
                rest = after;
            } else if rest.starts_with('(') {
                let group = operand(rest);
                let inner = group.strip_prefix('(')?.strip_suffix(')')?;
                out.push_str(&self.eval(r, inner, depth + 1)?);
                rest = &rest[group.len()..];
            } else if let Some(after) = rest.strip_prefix("ENVIRON[") {
                if self.environ_written {
                    return None;
                }
                let (name, after) = awk_string(after.trim_start())?;
                rest = after.trim_start().strip_prefix(']')?;
                match r.env.get(&name) {
                    Value::Known(text) => out.push_str(&text),
                    Value::Unknown => return None,
                }
            } else if let Some(after) = rest.strip_prefix("ARGV[") {
                if self.argv_written {
                    return None;
                }
                let close = after.find(']')?;
                let n: usize = after[..close].trim().parse().ok()?;
                out.push_str(self.files.get(n.checked_sub(1)?)?.as_deref()?);
                rest = &after[close + 1..];
            } else {
                let len = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .unwrap_or(rest.len());
                let word = &rest[..len];
                if word.is_empty() {
                    return None;
                } else if word.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
                    out.push_str(word);
                } else if word == "FILENAME" {
                    match self.files.as_slice() {
                        [Some(only)] => out.push_str(only),
                        _ => return None,
                    }
                } else {
                    let value = self.vars.get(word)?.as_deref()?;
                    out.push_str(&self.eval(r, value, depth + 1)?);
                }
                rest = &rest[len..];
            }
            rest = rest.trim_start();
        }
        Some(out)
    }
}

fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Where the statement that starts `text` ends: at a `;`, `}` or line end outside strings
/// and parentheses.
fn statement_end(text: &str) -> usize {
    outside_strings(text, |c, depth| {
        depth == 0 && matches!(c, ')' | ';' | '}' | '\n')
    })
    .unwrap_or(text.len())
}

/// What follows the `>` of an output redirection in a `print` statement's text: a `>` outside
/// strings and parentheses (inside them it compares).
fn top_level_redirect(statement: &str) -> Option<&str> {
    outside_strings(statement, |c, depth| c == '>' && depth == 0).map(|k| &statement[k + 1..])
}

/// The first position in `text`, outside strings, of a character for which `stop` holds,
/// given the depth of parentheses before it.
fn outside_strings(text: &str, mut stop: impl FnMut(char, usize) -> bool) -> Option<usize> {
    let (mut depth, mut quoted, mut escaped) = (0usize, false, false);
    for (k, c) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if quoted {
            match c {
                '\\' => escaped = true,
                '"' => quoted = false,
                _ => {}
            }
        } else if c == '"' {
            quoted = true;
        } else if stop(c, depth) {
            return Some(k);
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth = depth.saturating_sub(1);
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
/// Escapes as awk reads them: `\n`, `\t` and the other letters of C, a character by its
/// octal code (`\143`, up to three digits) or, in gawk, its hex code (`\x63`, up to two);
/// any other escaped character is itself.
fn awk_string(text: &str) -> Option<(String, &str)> {
    let body = text.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices().peekable();
    let code = |chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
                radix: u32,
                first: u32,
                most: usize| {
        let mut value = first;
        for _ in 1..most {
            match chars.peek().and_then(|(_, d)| d.to_digit(radix)) {
                Some(d) => {
                    value = value * radix + d;
                    chars.next();
                }
                None => break,
            }
        }
        char::from_u32(value)
    };
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[k + 1..])),
            '\\' => {
                let escaped = chars.next()?.1;
                let decoded = match escaped {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    'a' => '\u{7}',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'v' => '\u{b}',
                    d @ '0'..='7' => code(&mut chars, 8, d.to_digit(8)?, 3)?,
                    'x' => match chars.next()?.1.to_digit(16) {
                        Some(d) => code(&mut chars, 16, d, 2)?,
                        None => return None,
                    },
                    other => other,
                };
                out.push(decoded);
            }
            c => out.push(c),
        }
    }
    None
}
