//! The files an awk program writes: `print > FILE` and `>> FILE`, and gawk's in-place edits.

use super::super::record_written;
use super::Values;
use super::program::listed_records;
use super::text::{outside_strings, top_level_redirect};
use crate::matcher::shell::SUBSTITUTION;
use crate::matcher::shell::walk::Reader;

/// The files awk's program names beyond its operands: `print > FILE` and `print >> FILE`
/// write, recorded as `tee FILE` (`tee -a`), a file whose name is not known as a file not
/// known; `getline < FILE` and a file added to `ARGV` are read, recorded as `cat FILE`.
pub(super) fn awk_files(r: &mut Reader, program: &str, values: &Values) {
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
        // `getline line < $0` (or `f = $0; ... < f`) of a listing reads each file it names.
        if let Some(lists) = record_files(expression.trim(), program, values) {
            for path in lists.into_iter().flatten() {
                read_by_awk(r, path);
            }
        }
        let file = values
            .eval(r, expression.trim(), 0)
            .unwrap_or_else(|| SUBSTITUTION.to_owned());
        read_by_awk(r, file);
    }
}

/// Records that awk reads `file`, as `cat FILE`.
fn read_by_awk(r: &mut Reader, file: String) {
    r.record(crate::matcher::shell::SimpleCommand {
        program: "cat".to_owned(),
        args: vec![file],
        redirects: Vec::new(),
        origin: Some("read by awk".to_owned()),
        dir: None,
    });
}

/// What follows the `>` of each `print > FILE` (or `printf`, `>>`) in `program`.
pub(super) fn print_redirects(program: &str) -> impl Iterator<Item = &str> {
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
pub(super) fn changed_in_place(program: &str, start: usize, end: usize, substitutes: bool) -> bool {
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

/// The paths a file expression names when it is the record as read (`$0`, or a variable
/// whose one value is `$0`) and the records are the lines of a listing: the program must
/// not split records otherwise (`RS`) or change them (`sub`, `gsub`, a field assigned).
/// A `getline` with no variable reads into `$0`, so the reads after the first are of
/// files not known, which are recorded too.
fn record_files(expression: &str, program: &str, values: &Values) -> Option<Vec<Vec<String>>> {
    let value = values
        .vars
        .get(expression)
        .and_then(|v| v.as_deref())
        .map_or(expression, str::trim);
    let changes = program.contains("RS")
        || program.contains("sub(")
        || super::program::assigns_field(program);
    if changes || !values.argv_added.is_empty() {
        return None;
    }
    // `$1`, with fields split at blanks: the first word of known text, or a whole line of a
    // listing of plain names.
    if value == "$1" {
        let at_blanks =
            values.default_fields && !program.contains("FS") && !values.vars.contains_key("FS");
        if values.lines_are_text && at_blanks {
            let first_words = values.listed_lines.iter().map(|lines| {
                lines
                    .iter()
                    .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
                    .collect()
            });
            return Some(first_words.collect());
        }
        return listed_records("$1", program, "", values).map(<[_]>::to_vec);
    }
    (value == "$0" && !values.listed_lines.is_empty()).then(|| values.listed_lines.clone())
}

/// The operand at the start of `text`: a parenthesised group, or what runs up to the
/// next `)`, `;`, `}` or line end (`(getline l < f) > 0`).
pub(super) fn operand(text: &str) -> &str {
    if text.starts_with('(') {
        return match outside_strings(text, |c, depth| c == ')' && depth == 1) {
            Some(k) => &text[..=k],
            None => text,
        };
    }
    let end = text.find([')', ';', '}', '\n']).unwrap_or(text.len());
    &text[..end]
}
