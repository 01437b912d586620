//! `awk` programs: `system`, pipes to and from commands, and the files `print` writes.

mod files;
mod program;
mod text;

use super::record_written;
use crate::matcher::shell::env::Value;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Reader, is_stdin_path};
use files::{changed_in_place, operand};
use program::{awk_program, begin_only_output, indirect_calls_known};
use std::collections::HashMap;
use text::{awk_string, is_name, masked, plain_name_char, statement_end};

/// `awk`: `system(...)`, `print | "cmd"`, `"cmd" | getline` with a constant command are
/// read; any other of these forms makes the line unreadable.
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
    // A listing on standard input, read when no file operand is; or lines known to be
    // plain names (`printf '%s\n' a b | awk ...`), which awk reads the same way: no blank
    // and no shell syntax, as a listing's, since a command built from one (`system("rm -f
    // \"" $0 "\"")`) is read with its quotes taken off.
    const MOST_LINES: usize = 64;
    // Whole lines of any listing, or of known text, which `getline < $0` reads as files,
    // blanks or not.
    match stdin {
        Data::Listing(lists, _) if values.files.is_empty() => {
            values.listed_lines = lists
                .iter()
                .map(|list| list.iter().map(|f| f.text.clone()).collect())
                .collect();
        }
        Data::Known(text)
            if values.files.is_empty() && (1..=MOST_LINES).contains(&text.lines().count()) =>
        {
            values.listed_lines = vec![text.lines().map(str::to_owned).collect()];
            values.lines_are_text = true;
        }
        _ => {}
    }
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
    /// Each alternative list of the paths of a listing on standard input, one a line, which
    /// a record is (`$0`) as long as the program does not change it, blanks or not.
    listed_lines: Vec<Vec<String>>,
    /// Whether those lines are known text (`echo PATH | awk ...`), not a listing: their
    /// fields are known too.
    lines_are_text: bool,
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
        self.eval_in(r, expression, depth, None)
    }

    /// The text of a command built from constants and data (`"mkdir -p out/" $1`), with
    /// `data` in the place of each term the data decides: a field, an array element, a
    /// variable with no one known value, a function's result. `None` for any other
    /// expression (operators, conditions).
    fn eval_with_data(&self, r: &Reader, expression: &str, data: &str) -> Option<String> {
        self.eval_in(r, expression, 0, Some(data))
    }

    fn eval_in(
        &self,
        r: &Reader,
        expression: &str,
        depth: usize,
        data: Option<&str>,
    ) -> Option<String> {
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
                out.push_str(&self.eval_in(r, inner, depth + 1, data)?);
                rest = &rest[group.len()..];
            } else if let (Some(data), Some(after)) = (data, rest.strip_prefix('$')) {
                // A field: `$1`, `$NF`, `$(NF-1)`.
                let len = match after.starts_with('(') {
                    true => operand(after).len(),
                    false => after
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(after.len()),
                };
                if len == 0 {
                    return None;
                }
                out.push_str(data);
                rest = &after[len..];
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
                } else if let Some(value) = self.vars.get(word).and_then(|v| v.as_deref()) {
                    out.push_str(&self.eval_in(r, value, depth + 1, data)?);
                } else {
                    // An array element (`dirs[i]`), a call (`tolower($1)`) or a variable
                    // the data sets.
                    let data = data.filter(|_| is_name(word))?;
                    let after = rest[len..].trim_start();
                    let taken = if after.starts_with('(') {
                        operand(after).len()
                    } else if after.starts_with('[') {
                        after.find(']')? + 1
                    } else {
                        0
                    };
                    out.push_str(data);
                    rest = &after[taken..];
                    rest = rest.trim_start();
                    continue;
                }
                rest = &rest[len..];
            }
            rest = rest.trim_start();
        }
        Some(out)
    }
}
