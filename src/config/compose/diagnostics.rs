//! Where a composition problem is: positions in the loaded files (each file's positioned
//! read, made only when a problem needs it), and the errors and warnings built at them.

use std::path::Path;
use std::sync::Arc;

use super::{Composer, SourceFile};
use crate::config::error::{Code, ConfigError, Diagnostic, DiagnosticKind};
use crate::config::yaml::Position;

impl Composer<'_> {
    fn source(&self, path: &Path) -> Option<&SourceFile> {
        self.sources.iter().rev().find(|s| *s.path == *path)
    }

    fn text_of(&self, path: &Path) -> Option<Arc<str>> {
        self.source(path).map(|s| Arc::clone(&s.text))
    }

    /// The position of `pointer` in the loaded file `path`.
    fn position(&self, path: &Path, pointer: &str) -> Position {
        self.source(path)
            .map_or(Position { line: 1, column: 1 }, |s| s.position(pointer))
    }

    pub(super) fn line_of(&self, path: &Arc<Path>, pointer: &str) -> usize {
        self.position(path, pointer).line
    }

    /// A composition problem at `pointer` of the loaded file `path`.
    pub(super) fn diagnostic_at(
        &self,
        path: &Path,
        pointer: &str,
        message: String,
        help: Option<&str>,
    ) -> Diagnostic {
        let position = self.position(path, pointer);
        let diagnostic = Diagnostic::new(
            DiagnosticKind::Composition,
            path,
            position,
            pointer,
            message,
        );
        match help {
            Some(help) => diagnostic.with_help(help),
            None => diagnostic,
        }
    }

    pub(super) fn error_at(
        &self,
        path: &Path,
        pointer: &str,
        message: String,
        help: Option<&str>,
    ) -> ConfigError {
        let diagnostic = self.diagnostic_at(path, pointer, message, help);
        self.error(path, diagnostic)
    }

    /// `diagnostic`, a problem of the loaded file `path`, as the error of the load.
    pub(super) fn error(&self, path: &Path, diagnostic: Diagnostic) -> ConfigError {
        ConfigError::Invalid {
            file: path.to_path_buf(),
            source_text: self.text_of(path).unwrap_or_else(|| Arc::from("")),
            diagnostics: vec![diagnostic],
        }
    }

    /// `diagnostic` with the hook at `hooks[index]` of `file` as a related place.
    pub(super) fn related_hook(
        &self,
        diagnostic: Diagnostic,
        file: &Path,
        index: usize,
        message: &str,
    ) -> Diagnostic {
        let position = self.position(file, &format!("/hooks/{index}"));
        diagnostic.with_related(file, position, message)
    }

    pub(super) fn warn_at(
        &mut self,
        path: &Path,
        pointer: &str,
        code: Code,
        message: String,
        help: Option<String>,
    ) {
        let warning = self.diagnostic_at(path, pointer, message, help.as_deref());
        self.warnings.push(warning.with_code(code).warning());
    }

    /// The last warning, with the hook at `hooks[index]` of `file` as a related place.
    pub(super) fn relate_last_warning(&mut self, file: &Path, index: usize, message: &str) {
        if let Some(warning) = self.warnings.pop() {
            let warning = self.related_hook(warning, file, index, message);
            self.warnings.push(warning);
        }
    }
}
