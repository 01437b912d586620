//! The config stage: HOOKS.yaml text to a validated [`Document`].
//!
//! Loading runs in four steps, each reporting every problem it finds with file, line, column
//! and field path: YAML parsing within hard budgets ([`yaml`]), the JSON Schema
//! (`schemas/hooks.schema.json`), typed conversion, and semantic checks (regexes compiled with
//! limits, unique names, actions this build runs).

mod action;
mod compose;
#[cfg(feature = "server")]
mod edit;
pub(crate) mod error;
pub(crate) mod filters;
mod locate;
mod model;
pub(crate) mod pattern;
mod place;
#[cfg(feature = "cli")]
pub mod report;
pub(crate) mod schema;

pub(crate) mod yaml;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use crate::regular_file::{FileError, FileKind};
pub use action::{Action, ActionName, ApprovalDecision, ApprovalSpec, Risk, Script, TimeoutAction};
#[cfg(feature = "cli")]
pub(crate) use compose::canonical_json;
pub use compose::content_hash;
pub use compose::{MAX_FILES, SourceFile, SourceRole, Touched};
#[cfg(feature = "server")]
pub(crate) use edit::{EditError, SwitchError, switch_in_file};
pub use error::{Code, ConfigError, Diagnostic, DiagnosticKind, Related, Severity};
pub use filters::{ArgFilter, CommandFilter, NameSet, PathGlob};
pub use locate::{ConfigSource, locate_policy};
pub use model::{
    DEFAULT_DISCOVER_DEPTH, DEFAULT_PRIORITY, Defaults, Discover, Document, FailureAction,
    HookSpec, HostFiles, LlmProvider, LlmSettings, MatchSpec, Mode, NotifySettings, OnFailure,
    TelegramSettings, Unparseable, WebhookSettings,
};
pub use pattern::{PatternError, Regex};
pub use place::Place;
#[cfg(feature = "cli")]
pub(crate) use schema::HOOKS_SCHEMA;
pub use yaml::{Position, YamlBudget};

/// A policy read from a file (or a string) and validated, with the files it brought in.
#[derive(Debug, Clone)]
pub struct LoadedPolicy {
    /// The root policy file.
    pub path: PathBuf,
    /// The root file's text.
    pub text: Arc<str>,
    /// The validated document: the root's version and defaults, and the hooks of every
    /// file in order (the root's, then each include's, then each discovered file's).
    pub document: Document,
    /// Every file the policy was composed from, the root first.
    pub sources: Vec<SourceFile>,
    /// Problems that did not stop the load: a discovered file skipped, a conflict between
    /// files, a setting ignored.
    pub warnings: Vec<Diagnostic>,
}

/// Reads and validates the policy at `path`.
pub fn load_file(path: &Path) -> Result<LoadedPolicy, ConfigError> {
    load_file_with(path, &YamlBudget::default())
}

/// [`load_file`] with explicit budgets.
pub fn load_file_with(path: &Path, budget: &YamlBudget) -> Result<LoadedPolicy, ConfigError> {
    load_file_tracked(path, budget).0
}

/// [`load_file_with`], also telling which files and directories the load read, whether it
/// succeeded or not: a watcher reloads when one of them changes.
pub fn load_file_tracked(
    path: &Path,
    budget: &YamlBudget,
) -> (Result<LoadedPolicy, ConfigError>, Touched) {
    match read_text(path, budget) {
        Ok(text) => compose::compose(path, Arc::from(text), budget),
        Err(e) => (
            Err(e),
            Touched {
                files: vec![path.to_path_buf()],
                dirs: Vec::new(),
            },
        ),
    }
}

/// Reads the policy text at `path`: a regular file (see [`regular_file`](crate::regular_file)), within the size
/// budget, and UTF-8.
pub fn read_text(path: &Path, budget: &YamlBudget) -> Result<String, ConfigError> {
    read_policy_file(path, budget).map_err(|e| config_error(path, e))
}

/// [`read_text`], with the typed reason it failed.
fn read_policy_file(
    path: &Path,
    budget: &YamlBudget,
) -> Result<String, crate::regular_file::FileError> {
    crate::regular_file::read_to_string(path, budget.max_bytes as u64)
}

/// A policy file's read error as the config stage reports it.
fn config_error(path: &Path, e: crate::regular_file::FileError) -> ConfigError {
    use crate::regular_file::FileError;
    match e {
        FileError::Io { path, source } => ConfigError::Read { path, source },
        FileError::NotRegular { path, kind } => ConfigError::NotRegular { path, kind },
        FileError::TooLarge { size, limit, .. } => {
            let message = match size {
                Some(size) => format!("file is {size} bytes, over the {limit} byte limit"),
                None => format!("file grew past the {limit} byte limit while it was read"),
            };
            let position = Position { line: 1, column: 1 };
            let diagnostic = Diagnostic::new(DiagnosticKind::Yaml, path, position, "", message);
            invalid(path, Arc::from(""), vec![diagnostic])
        }
        FileError::NotUtf8 { path, source } => ConfigError::Read {
            path,
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("not UTF-8: {source}"),
            ),
        },
    }
}

/// Validates policy `text`; `origin` names it in diagnostics.
pub fn load_str(text: &str, origin: &Path) -> Result<LoadedPolicy, ConfigError> {
    load_str_with(text, origin, &YamlBudget::default())
}

/// [`load_str`] with explicit budgets. Files it includes are read relative to `origin`.
pub fn load_str_with(
    text: &str,
    origin: &Path,
    budget: &YamlBudget,
) -> Result<LoadedPolicy, ConfigError> {
    compose::compose(origin, Arc::from(text), budget).0
}

/// Validates one file's `text` on its own (no includes followed): its document and value.
/// `inherited` is the root's defaults when another file brought this one in.
fn load_single(
    text: &Arc<str>,
    origin: &Path,
    budget: &YamlBudget,
    inherited: Option<&Defaults>,
) -> Result<(Document, serde_json::Value), ConfigError> {
    // A valid policy, the usual case, needs no positions: read it without them first.
    if let Ok(value) = yaml::parse_plain(text, budget) {
        let mut diagnostics = Vec::new();
        let no_spans = yaml::SpanMap::default();
        schema::check(&value, &no_spans, origin, &mut diagnostics);
        if diagnostics.is_empty()
            && let Some(document) =
                model::build(&value, &no_spans, origin, inherited, &mut diagnostics)
            && diagnostics.is_empty()
        {
            return Ok((document, value));
        }
    }
    // Otherwise read it again with positions, for diagnostics that name lines and columns.
    let parsed = yaml::parse(text, budget)
        .map_err(|e| invalid(origin, Arc::clone(text), vec![yaml_diagnostic(origin, e)]))?;
    let mut diagnostics = Vec::new();
    schema::check(&parsed.value, &parsed.spans, origin, &mut diagnostics);
    let document = model::build(
        &parsed.value,
        &parsed.spans,
        origin,
        inherited,
        &mut diagnostics,
    );
    match document {
        Some(document) if diagnostics.is_empty() => Ok((document, parsed.value)),
        _ => {
            diagnostics.sort_by_key(|d| (d.line(), d.column()));
            diagnostics.dedup();
            Err(invalid(origin, Arc::clone(text), diagnostics))
        }
    }
}

fn invalid(file: &Path, source_text: Arc<str>, diagnostics: Vec<Diagnostic>) -> ConfigError {
    ConfigError::Invalid {
        file: file.to_path_buf(),
        source_text,
        diagnostics,
    }
}

fn yaml_diagnostic(file: &Path, e: yaml::YamlError) -> Diagnostic {
    Diagnostic::new(DiagnosticKind::Yaml, file, e.position, "", e.message)
}
