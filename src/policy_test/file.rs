//! The test-file model: `*.test.yaml` text to checked [`TestCase`]s, every problem reported
//! at once with its file, line, column and field, as policy files are.

mod cases;
mod context;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::config::yaml::{self, SpanMap};
use crate::config::{ConfigError, Diagnostic, DiagnosticKind, YamlBudget};
use crate::context::HookContext;
use crate::decision::Verdict;
use crate::point::Point;

/// The session key of a case that names none.
pub(crate) const DEFAULT_SESSION: &str = "test:session";
/// The session key of a case with `subagent: true` that names none.
pub(crate) const DEFAULT_SUBAGENT_SESSION: &str = "agent:main:subagent:test";
/// The point of a case that names none.
pub(crate) const DEFAULT_POINT: Point = Point::TurnToolPre;

/// The keys of the file's top level.
const FILE_KEYS: &[&str] = &["policy", "cases"];
/// The keys that describe the context in short; they exclude `context`.
const SHORTHAND_KEYS: &[&str] = &[
    "tool",
    "command",
    "args",
    "session",
    "prompt",
    "topic",
    "subagent",
    "cwd",
    "workspace",
];
/// The other keys of a case.
const CASE_KEYS: &[&str] = &["name", "point", "context", "expect", "hook", "message"];
/// The keys of `expect` written as a mapping (`expect: { decision: block, hook: x }`).
const EXPECT_KEYS: &[&str] = &["decision", "hook", "message"];

/// A test file, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct TestFile {
    /// The file, as it was named.
    pub path: PathBuf,
    /// `policy:`, resolved against the file's directory; `None`: the caller's default.
    pub policy: Option<PathBuf>,
    /// The cases, in file order.
    pub cases: Vec<TestCase>,
}

/// One case: an event and what the policy must decide about it.
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// The case's name, unique in its file.
    pub name: String,
    /// The line the case starts on.
    pub line: usize,
    /// The lifecycle point to evaluate.
    pub point: Point,
    /// The event.
    pub context: HookContext,
    /// What must come out.
    pub expect: Expectation,
}

/// What a case requires of the decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// The verdict.
    pub verdict: Verdict,
    /// The deciding hook's id, when given.
    pub hook: Option<String>,
    /// A substring of the decision's message, when given.
    pub message: Option<String>,
}

/// Why a test file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read test file `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file was read but has problems; every problem is listed.
    #[error("`{}` is not a valid test file: {} problem{}", file.display(), diagnostics.len(), if diagnostics.len() == 1 { "" } else { "s" })]
    Invalid {
        /// The file.
        file: PathBuf,
        /// The file's text, for rendering snippets.
        source_text: Arc<str>,
        /// The problems, in file order.
        diagnostics: Vec<Diagnostic>,
    },
}

impl LoadError {
    /// The problems found in the file (empty for a read error).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            LoadError::Invalid { diagnostics, .. } => diagnostics,
            LoadError::Read { .. } => &[],
        }
    }
}

/// Reads and checks the test file at `path`.
pub fn load_file(path: &Path) -> Result<TestFile, LoadError> {
    let text = crate::config::read_text(path, &YamlBudget::default()).map_err(|e| match e {
        ConfigError::Invalid {
            file,
            source_text,
            diagnostics,
        } => LoadError::Invalid {
            file,
            source_text,
            diagnostics,
        },
        ConfigError::Read { path, source } => LoadError::Read { path, source },
        ConfigError::NotRegular { path, kind } => LoadError::Read {
            path,
            source: std::io::Error::other(format!("it is {kind}, not a regular file")),
        },
        other => LoadError::Read {
            path: path.to_path_buf(),
            source: std::io::Error::other(other.to_string()),
        },
    })?;
    parse_str(&text, path)
}

/// Checks test-file `text`; `path` names it in diagnostics, and `policy:` is resolved
/// against its directory.
pub(crate) fn parse_str(text: &str, path: &Path) -> Result<TestFile, LoadError> {
    let source_text: Arc<str> = Arc::from(text);
    let invalid = |diagnostics: Vec<Diagnostic>| LoadError::Invalid {
        file: path.to_path_buf(),
        source_text: Arc::clone(&source_text),
        diagnostics,
    };
    let parsed = yaml::parse(text, &YamlBudget::default()).map_err(|e| {
        invalid(vec![Diagnostic::new(
            DiagnosticKind::Yaml,
            path,
            e.position,
            "",
            e.message,
        )])
    })?;
    let mut checker = Checker {
        file: path,
        spans: &parsed.spans,
        diagnostics: Vec::new(),
    };
    let file = checker.file(&parsed.value, path);
    let mut diagnostics = checker.diagnostics;
    match file {
        Some(file) if diagnostics.is_empty() => Ok(file),
        _ => {
            diagnostics.sort_by_key(|d| (d.line(), d.column()));
            diagnostics.dedup();
            Err(invalid(diagnostics))
        }
    }
}

/// Walks the parsed document, collecting problems.
struct Checker<'a> {
    file: &'a Path,
    spans: &'a SpanMap,
    diagnostics: Vec<Diagnostic>,
}

/// Where a problem is reported: at a key, or at a value.
#[derive(Clone, Copy)]
enum At {
    Key,
    Value,
}

impl Checker<'_> {
    /// `dir` (relative) resolved against the test file's directory, absolute and normalised.
    fn beside_file(&self, dir: &str) -> String {
        let base = self.file.parent().unwrap_or(Path::new(""));
        let joined = std::path::absolute(base.join(dir)).unwrap_or_else(|_| base.join(dir));
        crate::matcher::paths::normalize(&joined.to_string_lossy())
    }

    fn report(
        &mut self,
        kind: DiagnosticKind,
        pointer: &str,
        at: At,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        let position = match at {
            At::Key => self.spans.key(pointer),
            At::Value => self.spans.value(pointer),
        };
        let mut d = Diagnostic::new(kind, self.file, position, pointer, message);
        if let Some(help) = help {
            d = d.with_help(help);
        }
        self.diagnostics.push(d);
    }

    /// A structural problem (wrong type, missing or unknown key) at a value.
    fn schema(&mut self, pointer: &str, message: impl Into<String>) {
        self.report(DiagnosticKind::Schema, pointer, At::Value, message, None);
    }

    /// A problem of meaning (a conflict, a duplicate, an unknown name) at a value.
    fn semantic(&mut self, pointer: &str, message: impl Into<String>, help: Option<String>) {
        self.report(DiagnosticKind::Semantic, pointer, At::Value, message, help);
    }

    /// Reports every key of `map` not in `known`, at the key, with a did-you-mean.
    fn unknown_keys(&mut self, map: &Map<String, Value>, pointer: &str, known: &[&[&str]]) {
        let all = || known.iter().flat_map(|k| k.iter().copied());
        for key in map.keys() {
            if all().any(|k| k == key) {
                continue;
            }
            let help = match crate::suggest::closest(key, all()) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!(
                    "known fields: {}",
                    all()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            self.report(
                DiagnosticKind::Schema,
                &child(pointer, key),
                At::Key,
                format!("unknown field `{key}`"),
                Some(help),
            );
        }
    }

    /// The string at `map[key]`, if present; a value of another type is reported.
    fn string<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        pointer: &str,
        key: &str,
    ) -> Option<&'v str> {
        match map.get(key)? {
            Value::String(s) => Some(s),
            other => {
                self.schema(
                    &child(pointer, key),
                    format!("expected a string, found {}", kind(other)),
                );
                None
            }
        }
    }

    /// Like [`Checker::string`], and the string must not be empty.
    fn non_empty(&mut self, map: &Map<String, Value>, pointer: &str, key: &str) -> Option<String> {
        let s = self.string(map, pointer, key)?;
        if s.is_empty() {
            self.schema(&child(pointer, key), "must not be empty");
            return None;
        }
        Some(s.to_owned())
    }
}

/// `pointer` extended by `key`.
fn child(pointer: &str, key: &str) -> String {
    let mut out = pointer.to_owned();
    yaml::push_token(&mut out, key);
    out
}

/// What a value is, for messages: "a string", "a list", ...
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "nothing (null)",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod tests;
