//! `make`: the recipes it runs, from a makefile the line wrote or gives on standard input,
//! with the variables it can know, and the functions (`$(shell ...)`) a makefile calls.

use super::super::shell_c;
use crate::matcher::shell::env::file_key;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Io, Reader, is_stdin_path};

/// `make -f -` runs the recipes of a makefile read from standard input; `--eval`'s text is
/// makefile text too. A makefile of the workspace is its own (like `bash build.sh`).
pub(in crate::matcher::shell::programs::runners) fn make(
    r: &mut Reader,
    row: &Program,
    args: &[Field],
    stdin: Data,
) -> Data {
    let t = texts(args);
    let (opts, _) = options::leading(&t, &row.options);
    for o in &opts {
        if let Some(dir) = option_value(o, 'C', "directory")
            && r.env.in_downloaded_dir(&file_key(&dir))
        {
            r.unreadable("make runs the makefile of a directory the line downloaded");
        }
        if let Some(file) =
            option_value(o, 'f', "file").or_else(|| option_value(o, 'f', "makefile"))
        {
            let data = if is_stdin_path(&file) {
                stdin.clone()
            } else {
                r.file_data(&Field::literal(&file))
            };
            makefile(r, data, args);
        }
        match o {
            Opt::Long(l, Some(text)) if l == "eval" => {
                makefile(r, Data::Known(text.clone()), args);
            }
            Opt::Short('E', Some(text)) => makefile(r, Data::Known(text.clone()), args),
            _ => {}
        }
    }
    for a in args {
        if let Some(shell) = a.text.strip_prefix("SHELL=") {
            r.run(
                vec![Field::literal(shell)],
                &Io::default(),
                Data::Nothing,
                &[],
            );
        } else if let Some((name, value)) = a.text.split_once('=')
            && !a.unknown
            && is_make_name(name.trim_end_matches([':', '+', '?', '!']))
            && value.contains(['|', ';', '&', '`', '\n'])
        {
            // A variable set on the command line takes the place of the makefile's in
            // its recipes (`make CC='curl ... | sh; cc'`): shell code there runs.
            shell_c(r, value);
        }
    }
    Data::Unknown
}

/// Reads a makefile's recipes, as make would run them with `args` (its command line:
/// `NAME=value` there overrides the makefile, `-e` lets the environment override it).
pub(in crate::matcher::shell::programs::runners) fn makefile(
    r: &mut Reader,
    data: Data,
    args: &[Field],
) {
    match data {
        Data::Known(text) => {
            let mut vars = MakeVars::default();
            for a in args {
                if let Some((name, value)) = a.text.split_once('=') {
                    // `NAME:=v`, `NAME+=v` on the command line too.
                    let plain = name.trim_end_matches([':', '+', '?', '!']);
                    if is_make_name(plain) {
                        let known =
                            !a.unknown && !value.contains('$') && plain.len() + 1 >= name.len();
                        vars.overrides
                            .push((plain.to_owned(), known.then(|| value.to_owned())));
                    }
                }
                vars.environment_first |= a.text == "-e" || a.text == "--environment-overrides";
            }
            // Flags from the environment may hold `NAME=value` overrides, or `-e`.
            vars.environment_first |= ["MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS"]
                .iter()
                .any(|name| r.env.assigned(name));
            vars.anything = text.contains("$(eval") || text.contains("${eval");
            // GNU make's `.RECIPEPREFIX` sets what starts a recipe line instead of a tab.
            let mut prefix = '\t';
            for line in text.lines() {
                if let Some(value) = recipe_prefix(line) {
                    match value.chars().next() {
                        Some('$') => r.unreadable("a makefile computes what starts its recipes"),
                        Some(c) => prefix = c,
                        None => prefix = '\t',
                    }
                    continue;
                }
                let recipe = if let Some(recipe) = line.strip_prefix(prefix) {
                    // make skips blanks and these marks, in any order (`job.c`).
                    recipe.trim_start_matches(['@', '-', '+', ' ', '\t'])
                } else if let Some((_, recipe)) = line
                    .split_once(';')
                    .filter(|(target, _)| target.contains(':'))
                {
                    recipe.trim_start_matches(['@', '-', '+', ' ', '\t'])
                } else {
                    vars.assign(line);
                    continue;
                };
                shell_c(r, &vars.expand(recipe));
            }
            if text.contains("$(shell") {
                r.unreadable("a makefile runs $(shell ...)");
            }
            // GNU make's `load` (`-load`) directive loads a shared object into make.
            if text.lines().any(|l| {
                let l = l.trim_start().trim_start_matches('-');
                l.strip_prefix("load")
                    .is_some_and(|rest| rest.starts_with([' ', '\t']))
            }) {
                r.unreadable("a makefile loads a shared object into make (load)");
            }
            make_file_function(r, &text);
        }
        Data::Unknown | Data::Listing(..) => {
            r.unreadable("make reads a makefile that is not known before it runs")
        }
        Data::Nothing => {}
    }
}

/// The value a line gives `.RECIPEPREFIX` (`.RECIPEPREFIX = >`, `:=`, `override`), blanks
/// around it dropped.
fn recipe_prefix(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let line = line.strip_prefix("override").map_or(line, str::trim_start);
    let rest = line.strip_prefix(".RECIPEPREFIX")?.trim_start();
    let value = ["::=", ":::=", ":=", "?=", "+=", "="]
        .iter()
        .find_map(|op| rest.strip_prefix(op))?;
    Some(value.trim())
}

/// make's `$(file >FILE,TEXT)` and `$(file >>FILE,TEXT)` write the file when expanded.
fn make_file_function(r: &mut Reader, text: &str) {
    for (at, _) in text.match_indices("file >").take(MAX_FILE_FUNCTIONS) {
        if !text[..at].ends_with("$(") && !text[..at].ends_with("${") {
            continue;
        }
        let rest = &text[at + "file >".len()..];
        let (append, rest) = match rest.strip_prefix('>') {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let file = rest
            .split([',', ')', '}'])
            .next()
            .unwrap_or_default()
            .trim();
        if file.contains('$') {
            r.unreadable("a makefile writes a file whose name it computes ($(file ...))");
        } else {
            super::super::record_written(r, vec![file.to_owned()], append, "make's $(file ...)");
        }
    }
}

/// The most `$(file ...)` functions read from one makefile.
const MAX_FILE_FUNCTIONS: usize = 64;

/// A makefile's variables as far as a reader of its lines knows them: plain assignments
/// (`NAME = value`, `:=`, `?=`, `+=`) and make's own defaults (`$(RM)` is `rm -f`); `None`
/// for a value not known.
#[derive(Default)]
struct MakeVars {
    assigned: Vec<(String, Option<String>)>,
    /// From make's command line, which the makefile cannot change.
    overrides: Vec<(String, Option<String>)>,
    /// `make -e`: the environment's values win over the makefile's.
    environment_first: bool,
    /// The makefile includes another or evaluates text as makefile (`include`, `$(eval`):
    /// any variable may hold anything.
    anything: bool,
    /// Inside `define NAME` ... `endef`, whose lines are a value, not assignments.
    in_define: bool,
}

fn is_make_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// What a variable stands for that the reader does not know: an environment variable of
/// no known value to the shell reader.
const MAKE_UNKNOWN: &str = "${HOOKGATE_MAKE_VALUE_NOT_KNOWN}";

impl MakeVars {
    /// Takes a line that may assign a variable.
    fn assign(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if self.in_define {
            self.in_define = words.first() != Some(&"endef");
            return;
        }
        match words.as_slice() {
            [first, ..] if matches!(*first, "include" | "-include" | "sinclude") => {
                self.anything = true;
                return;
            }
            // `define NAME`, `override define NAME =`, `undefine NAME`: a value not read.
            _ if let Some(k) = words
                .iter()
                .position(|w| matches!(*w, "define" | "undefine")) =>
            {
                self.in_define = words[k] == "define";
                if let Some(name) = words.get(k + 1) {
                    self.not_known(name.trim_end_matches([':', '+', '?', '!', '=']));
                }
                return;
            }
            _ => {}
        }
        let Some((name, op, value)) = ["::=", ":=", "?=", "+=", "="].iter().find_map(|op| {
            let (name, value) = line.split_once(op)?;
            Some((name.trim(), *op, value.trim()))
        }) else {
            return;
        };
        if !is_make_name(name) {
            // A target's own value (`clean: DIR := ~`), or one the command line cannot
            // change (`override DIR := ~`): the name's value is not known anywhere.
            if let Some(last) = name
                .rsplit(|c: char| c.is_whitespace() || c == ':')
                .find(|w| !w.is_empty())
            {
                self.not_known(last);
            }
            return;
        }
        let value = (!value.contains('$')).then(|| value.to_owned());
        let old = self.assigned.iter().rposition(|(n, _)| n == name);
        let value = match (op, old) {
            ("?=", Some(_)) => return,
            // Set only when the environment does not set it, or added to what it holds.
            ("?=" | "+=", None) => None,
            ("+=", Some(k)) => match (&self.assigned[k].1, value) {
                (Some(a), Some(b)) => Some(format!("{a} {b}")),
                _ => None,
            },
            _ => value,
        };
        self.assigned.push((name.to_owned(), value));
    }

    /// `name` may hold anything, whatever the command line says.
    fn not_known(&mut self, name: &str) {
        if is_make_name(name) {
            self.assigned.push((name.to_owned(), None));
            self.overrides.push((name.to_owned(), None));
        }
    }

    /// The shell text make hands to `/bin/sh -c` for `recipe`: `$$` is `$`, `$(NAME)`,
    /// `${NAME}` and `$N` (one character) are variables (`$HOME` is `$(H)` then `OME`); one
    /// the makefile does not set is the environment's, read as the shell's `${NAME}`.
    fn expand(&self, recipe: &str) -> String {
        let mut out = String::with_capacity(recipe.len());
        let mut chars = recipe.char_indices().peekable();
        while let Some((_, c)) = chars.next() {
            if c != '$' {
                out.push(c);
                continue;
            }
            let name: String = match chars.next() {
                None => break,
                Some((_, '$')) => {
                    out.push('$');
                    continue;
                }
                Some((_, open @ ('(' | '{'))) => {
                    let close = if open == '(' { ')' } else { '}' };
                    let mut name = String::new();
                    for (_, c) in chars.by_ref() {
                        if c == close {
                            break;
                        }
                        name.push(c);
                    }
                    name
                }
                Some((_, c)) => c.to_string(),
            };
            out.push_str(&self.value(&name));
        }
        out
    }

    fn value(&self, name: &str) -> String {
        if self.anything {
            return MAKE_UNKNOWN.to_owned();
        }
        let set = |vars: &[(String, Option<String>)]| {
            vars.iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone().unwrap_or_else(|| MAKE_UNKNOWN.to_owned()))
        };
        if let Some(value) = set(&self.overrides) {
            return value;
        }
        if let Some(value) = set(&self.assigned) {
            return if self.environment_first {
                MAKE_UNKNOWN.to_owned()
            } else {
                value
            };
        }
        match name {
            "RM" => "rm -f".to_owned(),
            "MAKE" => "make".to_owned(),
            "CC" => "cc".to_owned(),
            "CXX" => "g++".to_owned(),
            "AR" => "ar".to_owned(),
            "SHELL" => "/bin/sh".to_owned(),
            // An environment variable, as the shell reader knows it.
            _ if is_make_name(name) => format!("${{{name}}}"),
            // Automatic variables (`$@`, `$<`), functions (`$(wildcard *.c)`).
            _ => MAKE_UNKNOWN.to_owned(),
        }
    }
}
