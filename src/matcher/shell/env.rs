//! What the reader knows of the shell's state at a point of the line: variables and arrays
//! with known or unknown values, functions, aliases, options, positional parameters, and
//! the files the line itself wrote.

use std::collections::HashMap;

use brush_parser::ast;

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
}

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
    /// Every body a function name was given: a definition inside a branch may not have
    /// run, so each is read at a call.
    pub(super) functions: HashMap<String, Vec<ast::FunctionBody>>,
    /// Every text an alias name was given, likewise.
    pub(super) aliases: HashMap<String, Vec<String>>,
    /// `$1`...: the arguments of the function being inlined (`None` at the top level,
    /// where they are the agent's own and unknown).
    pub(super) positional: Option<Vec<Value>>,
    /// Files written by the line, by normalised path.
    pub(super) files: HashMap<String, FileText>,
    /// Symbolic links the line created: link path → target.
    pub(super) links: HashMap<String, String>,
    /// `set -x`: `PS4` is expanded before each command.
    pub(super) xtrace: bool,
}

/// Where the line is: the directory `cd` moved to (see `SimpleCommand::dir`). Kept as a
/// variable so that subshells and branches scope it as bash does, under a name no shell
/// code can set (`PWD=/tmp` does not move the shell).
pub(super) const DIR: &str = "\0dir";

/// Variables whose value the reader takes as known though the line did not set them.
fn builtin_value(name: &str) -> Option<Value> {
    match name {
        DIR => Some(Value::known(".")),
        "HOME" => Some(Value::known("~")),
        "PWD" => Some(Value::known(".")),
        // The field separator is whitespace unless the line changes it.
        "IFS" => Some(Value::known(" \t\n")),
        _ => None,
    }
}

impl Env {
    /// The value of `$name` (an array's first element), unknown when the line did not set it.
    pub(super) fn get(&self, name: &str) -> Value {
        match self.vars.get(name) {
            Some(Var::Scalar(v)) => v.clone(),
            Some(Var::Array(items)) => items.first().map_or(Value::known(""), |(_, v)| v.clone()),
            None => builtin_value(name).unwrap_or(Value::Unknown),
        }
    }

    /// The elements of array `name` (a scalar is a one-element array), or `None` when the
    /// line did not set it.
    pub(super) fn array(&self, name: &str) -> Option<Vec<Value>> {
        match self.vars.get(name)? {
            Var::Scalar(v) => Some(vec![v.clone()]),
            Var::Array(items) => Some(items.iter().map(|(_, v)| v.clone()).collect()),
        }
    }

    /// Element `index` of array `name`.
    pub(super) fn element(&self, name: &str, index: &str) -> Value {
        match self.vars.get(name) {
            Some(Var::Array(items)) => items
                .iter()
                .find(|(k, _)| k == index)
                .map_or(Value::known(""), |(_, v)| v.clone()),
            Some(Var::Scalar(v)) if index == "0" => v.clone(),
            Some(Var::Scalar(_)) => Value::known(""),
            None => Value::Unknown,
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
        self.vars.insert(name.to_owned(), Var::Scalar(value));
    }

    pub(super) fn set_array(&mut self, name: &str, items: Vec<Value>) {
        let items = items
            .into_iter()
            .enumerate()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        self.vars.insert(name.to_owned(), Var::Array(items));
    }

    pub(super) fn set_element(&mut self, name: &str, index: String, value: Value) {
        let entry = self
            .vars
            .entry(name.to_owned())
            .or_insert_with(|| Var::Array(Vec::new()));
        if let Var::Scalar(v) = entry {
            *entry = Var::Array(vec![("0".to_owned(), v.clone())]);
        }
        if let Var::Array(items) = entry {
            match items.iter_mut().find(|(k, _)| *k == index) {
                Some(slot) => slot.1 = value,
                None => items.push((index, value)),
            }
        }
    }

    pub(super) fn unset(&mut self, name: &str) {
        self.vars.remove(name);
        self.functions.remove(name);
    }

    /// The variables as they are now, to restore or join with later.
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot(self.vars.clone())
    }

    /// Puts back the variables of `saved` (a subshell ended).
    pub(super) fn restore(&mut self, saved: Snapshot) {
        self.vars = saved.0;
    }

    /// After code that may or may not have run: a variable whose value differs from
    /// `other`'s is unknown.
    pub(super) fn join(&mut self, other: &Snapshot) {
        let mut now = Snapshot(std::mem::take(&mut self.vars));
        now.join_vars(other);
        self.vars = now.0;
    }

    /// Records that the line wrote `text` to `path` (appending if `append`).
    pub(super) fn write_file(&mut self, path: &str, text: FileText, append: bool) {
        let key = file_key(path);
        match (self.files.get_mut(&key), text) {
            (Some(FileText::Known(old)), FileText::Known(new)) if append => old.push_str(&new),
            (Some(old), FileText::Unknown) if append => *old = FileText::Unknown,
            (Some(FileText::Unknown), _) if append => {}
            (_, text) => {
                self.files.insert(key, text);
            }
        }
    }

    /// `path` with a link the line made at its start replaced by the link's target.
    pub(super) fn resolve_link(&self, path: &str) -> Option<String> {
        let key = file_key(path);
        self.links.iter().find_map(|(link, target)| {
            let rest = key.strip_prefix(link.as_str())?;
            (rest.is_empty() || rest.starts_with('/')).then(|| format!("{target}{rest}"))
        })
    }

    /// How many variables are set.
    pub(super) fn vars_len(&self) -> usize {
        self.vars.len()
    }

    /// The names of the variables set, for `${!prefix*}`.
    pub(super) fn names(&self) -> impl Iterator<Item = &str> {
        self.vars.keys().map(String::as_str)
    }
}

/// The variables at one point of the line.
#[derive(Debug, Clone, Default)]
pub(super) struct Snapshot(HashMap<String, Var>);

impl Snapshot {
    /// Joins `other` into these values: where they differ, the variable is unknown.
    pub(super) fn join_vars(&mut self, other: &Snapshot) {
        for (name, var) in &other.0 {
            match self.0.get_mut(name) {
                Some(mine) if mine == var => {}
                Some(mine) => *mine = Var::Scalar(Value::Unknown),
                None => {
                    self.0.insert(name.clone(), Var::Scalar(Value::Unknown));
                }
            }
        }
        for (name, var) in &mut self.0 {
            if !other.0.contains_key(name) {
                *var = Var::Scalar(Value::Unknown);
            }
        }
    }
}

/// The key a file is remembered under: `./x.sh` and `x.sh` are one file.
pub(super) fn file_key(path: &str) -> String {
    crate::matcher::paths::normalize(path)
}
