//! Errors of the config stage: one [`Diagnostic`] per problem, all of them at once.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::yaml::Position;
use crate::regular_file::FileKind;

/// Which check found a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiagnosticKind {
    /// The text is not YAML, or breaks a budget (size, depth, nodes, aliases).
    Yaml,
    /// The document does not fit `schemas/hooks.schema.json`.
    Schema,
    /// The document fits the schema but means something invalid (a bad regex, a duplicate name).
    Semantic,
    /// Bringing files together (`include`, `discover`): a missing file, a cycle, a name used
    /// twice, overlapping hooks.
    Composition,
    /// `hookgate lint`: a policy that loads but probably does not do what its author meant.
    Lint,
}

/// Whether a problem stops the policy from loading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The policy does not load.
    Error,
    /// The policy loads; the problem is reported and the author should look.
    Warning,
}

/// What a problem is: a stable id, written `hookgate::<name>` in JSON output and reports
/// (`docs/lint.md` lists the warnings, `docs/hooks-reference.md` the errors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// Not YAML, or over a budget (size, depth, nodes, aliases).
    Yaml,
    /// A field the format does not have.
    UnknownField,
    /// A required field left out.
    MissingField,
    /// A `point` hookgate does not know.
    UnknownPoint,
    /// An `action` hookgate does not know.
    UnknownAction,
    /// A value of the wrong type or outside its allowed set.
    InvalidValue,
    /// A value that fits the format but means something invalid (a bad regex, a name used
    /// twice, an action this build cannot run).
    Invalid,
    /// Bringing files together (`include`, `discover`): a missing file, a cycle, a file
    /// skipped, a setting ignored.
    Composition,
    /// Hooks of different files that overlap or share a name.
    Conflict,
    /// A hook that an earlier unconditional block keeps from ever running at a point.
    Shadowed,
    /// A `match` that contradicts itself, so the hook can never fire.
    Contradiction,
    /// A filter that cannot match the subject of the tools the hook is limited to.
    ToolSubject,
    /// A `block` (or `require_approval`) whose `onFailure` turns its refusal into a pass.
    FailsOpen,
    /// A high-risk `require_approval` that lets the call through when nobody answers.
    ApprovalTimesOutOpen,
    /// Two hooks of one file with the same points, `match` and action.
    Duplicate,
    /// An unescaped `.` between words: a domain or file name whose dot matches anything.
    UnescapedDot,
    /// A pattern that was clearly meant to be anchored and is not.
    Unanchored,
    /// A field the hook's action does not read.
    UnusedField,
}

impl Code {
    /// The codes `hookgate lint` reports, in the order `docs/lint.md` lists them.
    pub const LINT: &'static [Code] = &[
        Code::Shadowed,
        Code::Contradiction,
        Code::ToolSubject,
        Code::FailsOpen,
        Code::ApprovalTimesOutOpen,
        Code::Duplicate,
        Code::UnescapedDot,
        Code::Unanchored,
        Code::UnusedField,
        Code::Conflict,
        Code::Composition,
    ];

    /// The name, without the `hookgate::` prefix: `unknown-point`.
    pub fn name(self) -> &'static str {
        match self {
            Code::Yaml => "yaml",
            Code::UnknownField => "unknown-field",
            Code::MissingField => "missing-field",
            Code::UnknownPoint => "unknown-point",
            Code::UnknownAction => "unknown-action",
            Code::InvalidValue => "invalid-value",
            Code::Invalid => "invalid",
            Code::Composition => "composition",
            Code::Conflict => "conflict",
            Code::Shadowed => "shadowed",
            Code::Contradiction => "contradiction",
            Code::ToolSubject => "tool-subject",
            Code::FailsOpen => "fails-open",
            Code::ApprovalTimesOutOpen => "approval-times-out-open",
            Code::Duplicate => "duplicate",
            Code::UnescapedDot => "unescaped-dot",
            Code::Unanchored => "unanchored",
            Code::UnusedField => "unused-field",
        }
    }

    /// The lint code named `name`, with or without the `hookgate::` prefix.
    pub fn lint_code(name: &str) -> Option<Code> {
        let name = name.strip_prefix(PREFIX).unwrap_or(name);
        Code::LINT.iter().copied().find(|c| c.name() == name)
    }

    /// The code a problem found by `kind` has when its site names no closer one.
    fn of_kind(kind: DiagnosticKind) -> Code {
        match kind {
            DiagnosticKind::Yaml => Code::Yaml,
            DiagnosticKind::Schema => Code::InvalidValue,
            DiagnosticKind::Semantic | DiagnosticKind::Lint => Code::Invalid,
            DiagnosticKind::Composition => Code::Composition,
        }
    }
}

const PREFIX: &str = "hookgate::";

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}{}", self.name())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// One problem in a policy file, with where it is: an error that kept the policy from
/// loading, a warning of its load, or a smell `hookgate lint` found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    kind: DiagnosticKind,
    code: Code,
    severity: Severity,
    file: PathBuf,
    line: usize,
    column: usize,
    path: String,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<Related>,
}

/// Another place a problem involves: the hook that shadows this one, the first use of a
/// name used twice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    file: PathBuf,
    line: usize,
    column: usize,
    message: String,
}

impl Related {
    /// The policy file.
    pub fn file(&self) -> &Path {
        &self.file
    }
    /// 1-based line.
    pub fn line(&self) -> usize {
        self.line
    }
    /// 1-based column (in characters).
    pub fn column(&self) -> usize {
        self.column
    }
    /// What is there, such as `the first use`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Related {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, line, column) = (self.file.display(), self.line, self.column);
        write!(f, "{file}:{line}:{column}: {}", self.message)
    }
}

impl std::error::Error for Related {}

impl miette::Diagnostic for Related {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }
}

impl Diagnostic {
    /// An error found by `kind` at `position` of `file`, in the field at the JSON pointer
    /// `pointer`, with the code of its kind (see [`Diagnostic::with_code`]).
    pub fn new(
        kind: DiagnosticKind,
        file: &Path,
        position: Position,
        pointer: &str,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            kind,
            code: Code::of_kind(kind),
            severity: Severity::Error,
            file: file.to_path_buf(),
            line: position.line,
            column: position.column,
            path: field_path(pointer),
            message: message.into(),
            help: None,
            related: Vec::new(),
        }
    }

    /// A smell `hookgate lint` found (a warning).
    #[cfg(feature = "cli")]
    pub(crate) fn lint(
        code: Code,
        file: &Path,
        position: Position,
        pointer: &str,
        message: String,
    ) -> Self {
        Diagnostic::new(DiagnosticKind::Lint, file, position, pointer, message)
            .with_code(code)
            .warning()
    }

    /// The same problem with a closer code than its kind's.
    pub fn with_code(mut self, code: Code) -> Self {
        self.code = code;
        self
    }

    /// The same problem as a warning: the policy loads.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// The same problem, with another place it involves.
    pub fn with_related(
        mut self,
        file: &Path,
        position: Position,
        message: impl Into<String>,
    ) -> Self {
        self.related.push(Related {
            file: file.to_path_buf(),
            line: position.line,
            column: position.column,
            message: message.into(),
        });
        self
    }

    /// The same problem with advice on how to fix it.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Which check found the problem.
    pub fn kind(&self) -> DiagnosticKind {
        self.kind
    }
    /// What the problem is.
    pub fn code(&self) -> Code {
        self.code
    }
    /// Whether it kept the policy from loading.
    pub fn severity(&self) -> Severity {
        self.severity
    }
    /// The policy file.
    pub fn file(&self) -> &Path {
        &self.file
    }
    /// 1-based line.
    pub fn line(&self) -> usize {
        self.line
    }
    /// 1-based column (in characters).
    pub fn column(&self) -> usize {
        self.column
    }
    /// The field, as `hooks[2].match.commandPattern` (empty for the whole document).
    pub fn path(&self) -> &str {
        &self.path
    }
    /// What is wrong, in lower case without a final period.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// How to fix it, when there is advice to give.
    pub fn help(&self) -> Option<&str> {
        self.help.as_deref()
    }
    /// The other places the problem involves.
    pub fn related(&self) -> &[Related] {
        &self.related
    }

    /// `file:line:column: ` and what follows it in a report's title: an error names the
    /// field to fix (`hooks[2].action: ...`), a warning its code (`[shadowed] ...`), whose
    /// message names the hook.
    pub(crate) fn title(&self) -> String {
        let mut title = format!("{}:{}:{}: ", self.file.display(), self.line, self.column);
        match self.severity {
            Severity::Warning => {
                title.push('[');
                title.push_str(self.code.name());
                title.push_str("] ");
            }
            Severity::Error if !self.path.is_empty() => {
                title.push_str(&self.path);
                title.push_str(": ");
            }
            Severity::Error => {}
        }
        title.push_str(&self.message);
        title
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title())?;
        if let Some(help) = &self.help {
            write!(f, " (help: {help})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// The snippet is not here: a diagnostic holds its file and position, not the file's text;
/// `config::report` renders one with the text of the loaded policy.
impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display + 'a>)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

/// Turns a JSON pointer (`/hooks/2/match/tool`) into a field path (`hooks[2].match.tool`).
pub(crate) fn field_path(pointer: &str) -> String {
    let mut out = String::new();
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            out.push('[');
            out.push_str(&token);
            out.push(']');
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&token);
        }
    }
    out
}

/// Why a policy could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read policy file `{}`: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The path names something other than a regular file: a FIFO, a device, a socket, a
    /// directory, or a kernel file (`/proc`, `/sys`). Nothing was read from it.
    #[error("cannot read policy file `{}`: it is {kind}, not a regular file", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is.
        kind: FileKind,
    },
    /// No policy file was given and none was found where hookgate looks.
    #[error("no policy file found; looked at {}", list_paths(searched))]
    NotFound {
        /// Every place that was tried, in order.
        searched: Vec<PathBuf>,
    },
    /// The file was read but has problems; every problem is listed.
    #[error("`{}` is not a valid policy: {} problem{}", file.display(), diagnostics.len(), if diagnostics.len() == 1 { "" } else { "s" })]
    Invalid {
        /// The file.
        file: PathBuf,
        /// The file's text, for rendering snippets.
        source_text: Arc<str>,
        /// The problems, in file order.
        diagnostics: Vec<Diagnostic>,
    },
}

fn list_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| format!("`{}`", p.display()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl ConfigError {
    /// The problems found in the file (empty for read and discovery errors).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            ConfigError::Invalid { diagnostics, .. } => diagnostics,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_become_field_paths() {
        assert_eq!(field_path(""), "");
        assert_eq!(
            field_path("/hooks/2/match/commandPattern"),
            "hooks[2].match.commandPattern"
        );
        assert_eq!(field_path("/hooks/0/point/1"), "hooks[0].point[1]");
        assert_eq!(field_path("/a~1b"), "a/b");
    }

    #[test]
    fn display_names_file_line_column_and_field() {
        let d = Diagnostic::new(
            DiagnosticKind::Schema,
            Path::new("HOOKS.yaml"),
            Position { line: 3, column: 7 },
            "/hooks/0/action",
            "expected a string",
        )
        .with_help("write `action: block`");
        assert_eq!(
            d.to_string(),
            "HOOKS.yaml:3:7: hooks[0].action: expected a string (help: write `action: block`)"
        );
    }
}
