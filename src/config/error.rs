//! Errors of the config stage: one [`Diagnostic`] per problem, all of them at once.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::regular_file::FileKind;
use super::yaml::Position;

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
}

/// One problem in a policy file, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    kind: DiagnosticKind,
    file: PathBuf,
    line: usize,
    column: usize,
    path: String,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<String>,
}

impl Diagnostic {
    pub(crate) fn new(
        kind: DiagnosticKind,
        file: &Path,
        position: Position,
        pointer: &str,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            kind,
            file: file.to_path_buf(),
            line: position.line,
            column: position.column,
            path: field_path(pointer),
            message: message.into(),
            help: None,
        }
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Which check found the problem.
    pub fn kind(&self) -> DiagnosticKind {
        self.kind
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
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file.display(), self.line, self.column)?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)?;
        if let Some(help) = &self.help {
            write!(f, " (help: {help})")?;
        }
        Ok(())
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
