//! What the reader knows of the shell's state at a point of the line: variables and arrays
//! with known or unknown values, functions, aliases, options, positional parameters, and
//! the files the line itself wrote.

mod branches;

use brush_parser::ast;
use std::collections::HashMap;

pub(super) use branches::{Branches, Mark};

/// A value as far as the reader can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Value {
    /// Exactly this text.
    Known(String),
    /// Anything: command output, input read at run time, the agent's environment.
    Unknown,
}

impl Value {
    pub(super) fn known(text: impl Into<String>) -> Value {
        Value::Known(text.into())
    }
}

/// A shell variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Var {
    Scalar(Value),
    /// An indexed or associative array, in order; element values may be unknown.
    Array(Vec<(String, Value)>),
    /// One of these values (two to [`MOST_WAYS`], each a known text or an array): the ways
    /// code that may not have run could have gone set it differently (`x=build; [ -n "$CI" ]
    /// && x=dist`, `args=(-v); [ -n "$CI" ] && args+=(--ci)`). Its value is unknown, except
    /// to a simple command that names it, which is read once per value
    /// (`Reader::simple_each_way`), and to an append, made to each.
    OneOf(Vec<Var>),
}

/// Most texts a variable set on different ways is followed with; past it, it is unknown.
pub(super) const MOST_WAYS: usize = 4;
/// Most variables followed as one of several texts at a time; past it, another is unknown.
const MOST_VARIABLES_WITH_WAYS: usize = 8;
/// Most elements of an array followed as one of a variable's ways: each way is a copy.
const MOST_ITEMS_OF_A_WAY: usize = 64;

/// What the line wrote to a file, for a later command that runs or reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum FileText {
    Known(String),
    /// Downloaded (`curl -o`, `wget`) or made from a command's output: running it runs
    /// code nobody has seen.
    Unknown,
}

/// The shell state the reader tracks.
#[derive(Debug, Default)]
pub(super) struct Env {
    vars: HashMap<String, Var>,
    /// Every change to `vars`, with the value it replaced (`None`: unset), oldest first.
    /// Code that may not run (`a && b`, a branch, a subshell) is read from a [`Mark`] and
    /// then undone or joined by walking the changes since, so the cost is that of the
    /// changes made, not of the variables set: copying the variables at every `&&` made a
    /// line of `v1=1 && v2=1 && ...` quadratic.
    trail: Vec<(String, Option<Var>)>,
    /// Every body a function name was given: a definition inside a branch may not have
    /// run, so each is read at a call.
    pub(super) functions: HashMap<String, Vec<ast::FunctionBody>>,
    /// Every text an alias name was given, likewise.
    pub(super) aliases: HashMap<String, Vec<String>>,
    /// `$1`...: the arguments of the function being inlined (`None` at the top level,
    /// where they are the agent's own and unknown).
    pub(super) positional: Option<Vec<Value>>,
    /// `$0` when a `bash -c SCRIPT NAME ...` gave one (`xargs bash -c 'lint "$0"'`).
    pub(super) arg0: Option<Value>,
    /// Files written by the line, by normalised path.
    pub(super) files: HashMap<String, FileText>,
    /// Files the line wrote itself, by normalised path: one read from the host and then
    /// written over is the line's own after that.
    pub(super) written: std::collections::HashSet<String>,
    /// Directories the line filled with files it downloaded (`git clone URL DIR`), by
    /// normalised path: every file in them is one the line downloaded.
    downloaded_dirs: Vec<String>,
    /// The line fetches something from another machine (`curl`, `scp HOST:f .`): an
    /// archive of unknown bytes unpacked after it may be that download.
    pub(super) fetches: bool,
    /// Paths `which`/`command -v` printed: running one is running the program of that name
    /// as `PATH` finds it, read by its name as a bare `python3` is.
    pub(super) on_path: Vec<String>,
    /// Symbolic links the line created: link path → target.
    pub(super) links: HashMap<String, String>,
    /// `set -x`: `PS4` is expanded before each command.
    pub(super) xtrace: bool,
    /// `shopt -s nocaseglob`: patterns match names in any case.
    pub(super) nocaseglob: bool,
    /// Names declared references to other variables (`declare -n ref`); a `for` loop over
    /// such a name makes it refer to each word's variable in turn.
    pub(super) namerefs: Vec<String>,
    /// Names declared associative arrays (`declare -A m`): bash orders their elements its
    /// own way, so a slice of one is not known.
    pub(super) associative: Vec<String>,
    /// Variables a trap's code names (see `Reader::trap`), and whether one has changed
    /// since the traps were last read.
    pub(super) watched: Vec<String>,
    pub(super) watched_changed: bool,
    /// The variables that are now [`Var::OneOf`], kept beside `vars` so that a command can
    /// look for them without a walk over every variable.
    with_ways: Vec<String>,
}

/// Where the line is: the directory `cd` moved to (see `SimpleCommand::dir`). Kept as a
/// variable so that subshells and branches scope it as bash does, under a name no shell
/// code can set (`PWD=/tmp` does not move the shell).
pub(super) const DIR: &str = "\0dir";

/// Where the line is instead if a `cd` before a `;` failed (`cd build; rm -rf *` runs `rm`
/// in `build`, or where the line started): set while that may be, so that the commands
/// that follow are also recorded as run there.
pub(super) const DIR_IF_CD_FAILED: &str = "\0dir-if-cd-failed";

/// Variables whose value the reader takes as known though the line did not set them.
fn builtin_value(name: &str) -> Option<Value> {
    match name {
        DIR => Some(Value::known(".")),
        "HOME" => Some(Value::known("~")),
        "PWD" => Some(Value::known(".")),
        // The field separator is whitespace unless the line changes it.
        "IFS" => Some(Value::known(" \t\n")),
        // A user name: one component of a path, never a `/` or a quote (written `*`, as
        // `date`'s output is; which name, the environment says).
        "USER" | "LOGNAME" => Some(Value::known("*")),
        _ => None,
    }
}

/// The user hookgate runs as, for `whoami`: a name, never a path.
pub(super) fn user_name() -> String {
    std::env::var("USER")
        .ok()
        .filter(|u| !u.is_empty() && !u.contains('/') && u != "." && u != "..")
        .unwrap_or_else(|| "user".to_owned())
}

impl Env {
    /// The value of `$name` (an array's first element), unknown when the line did not set it.
    pub(super) fn get(&self, name: &str) -> Value {
        // Bash computes these at each use; an assignment only seeds or resets them
        // (`RANDOM=1` fixes the sequence, not the value).
        if matches!(
            name,
            "RANDOM"
                | "SRANDOM"
                | "SECONDS"
                | "LINENO"
                | "BASHPID"
                | "EPOCHSECONDS"
                | "EPOCHREALTIME"
        ) {
            return Value::Unknown;
        }
        match self.vars.get(name) {
            Some(Var::Scalar(v)) => v.clone(),
            Some(Var::Array(items)) => items.first().map_or(Value::known(""), |(_, v)| v.clone()),
            Some(Var::OneOf(_)) => Value::Unknown,
            None => builtin_value(name).unwrap_or(Value::Unknown),
        }
    }

    /// Whether `$name` holds the value the reader gives it when the line did not set it
    /// (`HOME` is `~`).
    pub(super) fn is_builtin(&self, name: &str) -> bool {
        !self.vars.contains_key(name) && builtin_value(name).is_some()
    }

    /// The elements of array `name` (a scalar is a one-element array), or `None` when the
    /// line did not set it.
    pub(super) fn array(&self, name: &str) -> Option<Vec<Value>> {
        match self.vars.get(name)? {
            Var::Scalar(v) => Some(vec![v.clone()]),
            Var::Array(items) => Some(items.iter().map(|(_, v)| v.clone()).collect()),
            Var::OneOf(_) => Some(vec![Value::Unknown]),
        }
    }

    /// The keys (indices) of array `name`, for `${!name[@]}`; `None` when not known.
    pub(super) fn keys(&self, name: &str) -> Option<Vec<String>> {
        match self.vars.get(name)? {
            Var::Scalar(_) => Some(vec!["0".to_owned()]),
            Var::Array(items) => Some(items.iter().map(|(k, _)| k.clone()).collect()),
            Var::OneOf(_) => None,
        }
    }

    /// Element `index` of array `name`.
    /// Whether `name` is an indexed array (or a scalar, element 0): its subscripts are
    /// arithmetic, so one that does not evaluate names an element not known.
    pub(super) fn is_indexed(&self, name: &str) -> bool {
        match self.vars.get(name) {
            Some(Var::Array(items)) => items.iter().all(|(k, _)| k.parse::<i64>().is_ok()),
            Some(Var::Scalar(_)) => true,
            _ => false,
        }
    }

    pub(super) fn element(&self, name: &str, index: &str) -> Value {
        match self.vars.get(name) {
            Some(Var::Array(items)) => items
                .iter()
                .find(|(k, _)| k == index)
                .map_or(Value::known(""), |(_, v)| v.clone()),
            Some(Var::Scalar(v)) if index == "0" => v.clone(),
            Some(Var::Scalar(_)) => Value::known(""),
            Some(Var::OneOf(_)) | None => Value::Unknown,
        }
    }

    /// Whether the line assigned `name`.
    pub(super) fn assigned(&self, name: &str) -> bool {
        self.vars.contains_key(name)
    }

    pub(super) fn is_set(&self, name: &str) -> bool {
        self.vars.contains_key(name) || builtin_value(name).is_some()
    }

    pub(super) fn set(&mut self, name: &str, value: Value) {
        self.replace(name, Some(Var::Scalar(value)));
    }

    pub(super) fn set_array(&mut self, name: &str, items: Vec<Value>) {
        let items = items
            .into_iter()
            .enumerate()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        self.replace(name, Some(Var::Array(items)));
    }

    /// Sets `name[index]`; returns how many elements were copied to do it (the array's
    /// old value is kept for [`Env::restore`]), for the caller to count as work.
    pub(super) fn set_element(&mut self, name: &str, index: String, value: Value) -> usize {
        let mut items = match self.vars.get(name) {
            Some(Var::Array(items)) => items.clone(),
            Some(Var::Scalar(v)) => vec![("0".to_owned(), v.clone())],
            Some(Var::OneOf(_)) => vec![("0".to_owned(), Value::Unknown)],
            None => Vec::new(),
        };
        let copied = items.len();
        match items.iter_mut().find(|(k, _)| *k == index) {
            Some(slot) => slot.1 = value,
            None => items.push((index, value)),
        }
        self.replace(name, Some(Var::Array(items)));
        copied
    }

    pub(super) fn unset(&mut self, name: &str) {
        self.replace(name, None);
        self.functions.remove(name);
    }

    /// Gives `name` the value `var` (unsets it for `None`), keeping the old one on the trail.
    fn replace(&mut self, name: &str, var: Option<Var>) {
        if self.watched.iter().any(|w| w == name) && self.vars.get(name) != var.as_ref() {
            self.watched_changed = true;
        }
        let old = self.put(name, var);
        self.trail.push((name.to_owned(), old));
    }

    /// Gives `name` the value `var` without a trail entry; returns the old value.
    fn put(&mut self, name: &str, var: Option<Var>) -> Option<Var> {
        let ways = matches!(var, Some(Var::OneOf(_)));
        let old = match var {
            Some(var) => self.vars.insert(name.to_owned(), var),
            None => self.vars.remove(name),
        };
        if matches!(old, Some(Var::OneOf(_))) && !ways {
            self.with_ways.retain(|n| n != name);
        } else if ways && !matches!(old, Some(Var::OneOf(_))) {
            self.with_ways.push(name.to_owned());
        }
        old
    }

    /// The variables that hold one of several values, with those values, among the names
    /// `named` says a command uses.
    pub(super) fn ways_of(&self, named: impl Fn(&str) -> bool) -> Vec<(String, Vec<Var>)> {
        self.with_ways
            .iter()
            .filter(|n| named(n))
            .filter_map(|n| match self.vars.get(n) {
                Some(Var::OneOf(texts)) => Some((n.clone(), texts.clone())),
                _ => None,
            })
            .collect()
    }

    /// Whether some variable holds one of several texts.
    pub(super) fn has_ways(&self) -> bool {
        !self.with_ways.is_empty()
    }

    /// Gives `name` one of `values` again (after a command was read with each of them).
    pub(super) fn set_ways(&mut self, name: &str, values: Vec<Var>) {
        self.replace(name, Some(Var::OneOf(values)));
    }

    /// Whether `name` may be given ways: fewer than [`MOST_VARIABLES_WITH_WAYS`] variables
    /// hold them, or `name` does.
    pub(super) fn room_for_ways(&self, name: &str) -> bool {
        self.with_ways.len() < MOST_VARIABLES_WITH_WAYS
            || matches!(self.vars.get(name), Some(Var::OneOf(_)))
    }

    /// Gives `name` one of `values` (two to [`MOST_WAYS`]) when fewer than
    /// [`MOST_VARIABLES_WITH_WAYS`] variables hold ways, or `name` does; else a value not
    /// known, as [`Env::join_branches`] does.
    pub(super) fn set_new_ways(&mut self, name: &str, values: Vec<Var>) {
        if self.room_for_ways(name) && (2..=MOST_WAYS).contains(&values.len()) {
            self.set_ways(name, values);
        } else {
            self.set(name, Value::Unknown);
        }
    }

    /// Gives `name` one of its ways, `value`, to read a command with.
    pub(super) fn set_way(&mut self, name: &str, value: Var) {
        self.replace(name, Some(value));
    }

    /// What `name` holds, when it is exactly `value` (a way [`Env::set_way`] gave it).
    pub(super) fn holds(&self, name: &str, value: &Var) -> bool {
        self.vars.get(name) == Some(value)
    }

    /// `name+=(values)` when `name` holds one of several values: appended to each, so
    /// `[ -n "$CI" ] && args+=(--ci); args+=(tests)` keeps both ways. Returns whether it
    /// did (`false`: `name` does not hold ways, or a way would grow too long).
    pub(super) fn append_each_way(&mut self, name: &str, values: &[Value]) -> bool {
        let Some(Var::OneOf(ways)) = self.vars.get(name) else {
            return false;
        };
        let mut grown = Vec::with_capacity(ways.len());
        for way in ways {
            let mut items = match way {
                Var::Array(items) => items.clone(),
                Var::Scalar(v) => vec![("0".to_owned(), v.clone())],
                Var::OneOf(_) => return false,
            };
            if items.len() + values.len() > MOST_ITEMS_OF_A_WAY {
                return false;
            }
            let next = items.len();
            items.extend(
                values
                    .iter()
                    .enumerate()
                    .map(|(k, v)| ((next + k).to_string(), v.clone())),
            );
            grown.push(Var::Array(items));
        }
        self.replace(name, Some(Var::OneOf(grown)));
        true
    }

    /// Records that the line wrote `text` to `path` (appending if `append`).
    pub(super) fn write_file(&mut self, path: &str, text: FileText, append: bool) {
        let key = file_key(path);
        self.written.insert(key.clone());
        match (self.files.get_mut(&key), text) {
            (Some(FileText::Known(old)), FileText::Known(new)) if append => old.push_str(&new),
            (Some(old), FileText::Unknown) if append => *old = FileText::Unknown,
            (Some(FileText::Unknown), _) if append => {}
            (_, text) => {
                self.files.insert(key, text);
            }
        }
    }

    /// Records that every file in directory `path` was downloaded by the line.
    pub(super) fn downloaded_dir(&mut self, path: &str) {
        self.downloaded_dirs.push(file_key(path));
    }

    /// Whether the line downloaded any directory.
    pub(super) fn downloads_any(&self) -> bool {
        !self.downloaded_dirs.is_empty()
    }

    /// Whether the file (or directory) `key` is in a directory the line downloaded.
    pub(super) fn in_downloaded_dir(&self, key: &str) -> bool {
        self.downloaded_dirs.iter().any(|dir| match dir.as_str() {
            // The working directory holds every relative path.
            "." | "" => !key.starts_with('/'),
            _ => key
                .strip_prefix(dir.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
        })
    }

    /// Whether the file (or directory) `path` holds what the line downloaded or made from a
    /// command's output.
    pub(super) fn holds_unknown_text(&self, path: &str) -> bool {
        let key = file_key(path);
        matches!(self.files.get(&key), Some(FileText::Unknown)) || self.in_downloaded_dir(&key)
    }

    /// Whether the directory `dir` holds a file the line downloaded or made from a
    /// command's output (or is itself such a file or a downloaded directory).
    pub(super) fn holds_unknown_below(&self, dir: &str) -> bool {
        let key = file_key(dir);
        self.holds_unknown_text(&key)
            || self.files.iter().any(|(k, text)| {
                matches!(text, FileText::Unknown)
                    && k.strip_prefix(key.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
    }

    /// `path` with a link the line made at its start replaced by the link's target.
    pub(super) fn resolve_link(&self, path: &str) -> Option<String> {
        let key = file_key(path);
        self.links.iter().find_map(|(link, target)| {
            let rest = key.strip_prefix(link.as_str())?;
            (rest.is_empty() || rest.starts_with('/')).then(|| format!("{target}{rest}"))
        })
    }

    /// The names of the variables set, for `${!prefix*}`.
    pub(super) fn names(&self) -> impl Iterator<Item = &str> {
        self.vars.keys().map(String::as_str)
    }
}

/// The key a file is remembered under: `./x.sh` and `x.sh` are one file.
pub(super) fn file_key(path: &str) -> String {
    crate::matcher::paths::normalize(path)
}

#[cfg(test)]
mod tests;
