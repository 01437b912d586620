//! `awk` programs: `system`, pipes to and from commands, and the files `print` writes.

mod files;
mod program;
mod text;
mod values;

use super::record_written;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Reader, is_stdin_path};
use program::{awk_program, begin_only_output, indirect_calls_known};
use text::{masked, plain_name_char};
use values::Values;

/// `awk`: `system(...)`, `print | "cmd"`, `"cmd" | getline` with a constant command are
/// read; any other of these forms makes the line unreadable.
/// The awk programs, read alike.
pub(super) const AWKS: &[&str] = &["awk", "gawk", "mawk", "nawk", "busybox-awk"];

/// Which of awk's `args` set a variable rather than name a file: the value of `-v` and
/// `--assign` (`-v s="$start"`, `-vs=1`), and `NAME=VALUE` operands.
pub(crate) fn assignments(program: &str, args: &[String]) -> Vec<bool> {
    let mut out = vec![false; args.len()];
    if !AWKS.contains(&program) {
        return out;
    }
    let mut value_next = false;
    for (k, a) in args.iter().enumerate() {
        let assigns = |a: &str| {
            a.split_once('=')
                .is_some_and(|(name, _)| text::is_name(name))
        };
        out[k] = std::mem::take(&mut value_next)
            || a.strip_prefix("-v").is_some_and(|rest| !rest.is_empty())
            || assigns(a);
        value_next = a == "-v" || a == "--assign";
    }
    out
}

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
            r.unreadable(INCLUDES);
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
            r.unreadable("awk's program is not known before it runs");
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
            _ => r.unreadable("awk reads its program from a file that is not known before it runs"),
        }
    }
    for a in args.get(operands..).unwrap_or_default() {
        if a.unknown {
            values.files.push(None);
        } else if !values.assign_operand(&a.text) {
            values.files.push(Some(a.text.clone()));
        }
    }
    const MOST_LINES: usize = 64;
    // Data written out on the line (`<<< 'x;rm -rf ~'`, `echo ... |`, a file the line
    // wrote): a command awk builds from it is not asked about but read, or unreadable.
    values.data_on_line = matches!(stdin, Data::Known(_)) || !r.env.written.is_empty();
    // Whole lines of any listing, or of known text, which `getline < $0` reads as files,
    // blanks or not.
    if values.files.is_empty() {
        match stdin {
            Data::Listing(lists, _) => {
                values.listed_lines = lists
                    .iter()
                    .map(|list| list.iter().map(|f| f.text.clone()).collect())
                    .collect();
            }
            Data::Known(text) if (1..=MOST_LINES).contains(&text.lines().count()) => {
                values.listed_lines = vec![text.lines().map(str::to_owned).collect()];
                values.lines_are_text = true;
            }
            _ => {}
        }
    }
    // Of those, the paths of a listing whose names are all known, or lines known to be
    // plain names (`printf '%s\n' a b | awk ...`), which awk reads the same way: no blank
    // and no shell syntax, as a listing's, since a command built from one (`system("rm -f
    // \"" $0 "\"")`) is read with its quotes taken off.
    let plain = match stdin {
        Data::Listing(lists, false) => lists.iter().flatten().all(|f| !f.unknown),
        Data::Known(_) => values
            .listed_lines
            .iter()
            .flatten()
            .all(|l| !l.is_empty() && l.chars().all(plain_name_char)),
        _ => false,
    };
    if plain {
        values.listed = values.listed_lines.clone();
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
                "include" if !is_inplace(name) => r.unreadable(INCLUDES),
                _ => {}
            }
        }
        values.assign_in(&p);
        if !indirect_calls_known(&p, &values) {
            r.unreadable("awk calls a function named by a value");
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
        r.unreadable(
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
