//! Discovery: the `HOOKS.yaml` files found in the workspace. Unlike an include, a problem
//! in one skips that file with a warning, never the root.

use std::path::{Path, PathBuf};

use super::{Composer, Link, OnDuplicate, SourceRole, dir_of};
use crate::config::error::{Code, ConfigError, Diagnostic, DiagnosticKind};
use crate::config::model::Discover;
use crate::config::yaml::Position;
use crate::config::{MAX_FILES, read_text};

/// Most directories one discovery scan reads.
const MAX_SCANNED_DIRS: usize = 10_000;
/// Directories discovery never enters.
const SKIPPED_DIRS: &[&str] = &["node_modules", ".git", "dist"];
/// The file name discovery looks for.
const POLICY_FILE_NAME: &str = "HOOKS.yaml";

impl Composer<'_> {
    /// Scans the workspace and brings in each `HOOKS.yaml` found; an invalid one is skipped
    /// with a warning.
    pub(super) fn discover(&mut self, root: &Path, discover: &Discover) {
        let base = dir_of(root).join(discover.root.as_deref().unwrap_or(""));
        let found = match scan(&base, discover.max_depth, &mut self.touched.dirs) {
            Ok(found) => found,
            Err(message) => {
                self.warn_at(root, "/discover", Code::Composition, message, None);
                return;
            }
        };
        for path in found {
            self.touched.files.push(path.clone());
            let Ok(canonical) = path.canonicalize() else {
                continue;
            };
            if self.seen.contains(&canonical) {
                continue;
            }
            if self.sources.len() >= MAX_FILES {
                self.warn_at(
                    root,
                    "/discover",
                    Code::Composition,
                    format!(
                        "more than {MAX_FILES} policy files: `{}` and later ones are left out",
                        path.display()
                    ),
                    None,
                );
                return;
            }
            let mark = self.mark();
            let mut chain = vec![Link {
                canonical: canonical.clone(),
                shown: path.clone(),
            }];
            let brought = read_text(&path, self.budget).and_then(|text| {
                self.bring_in(
                    &path,
                    canonical,
                    text,
                    SourceRole::Discovered,
                    &mut chain,
                    OnDuplicate::Skip,
                )
            });
            if let Err(error) = brought {
                self.rollback(mark);
                self.skipped(&path, &error);
            }
        }
    }

    fn skipped(&mut self, path: &Path, error: &ConfigError) {
        let shown = path.display();
        let warning = match error.diagnostics() {
            [first, rest @ ..] => {
                let field = if first.path().is_empty() {
                    String::new()
                } else {
                    format!("{}: ", first.path())
                };
                let more = match rest.len() {
                    0 => String::new(),
                    1 => " (and 1 more problem)".to_owned(),
                    n => format!(" (and {n} more problems)"),
                };
                let position = Position {
                    line: first.line(),
                    column: first.column(),
                };
                let message = format!(
                    "discovered policy `{shown}` skipped: {field}{}{more}",
                    first.message()
                );
                let warning = Diagnostic::new(
                    DiagnosticKind::Composition,
                    first.file(),
                    position,
                    "",
                    message,
                );
                match first.help() {
                    Some(help) => warning.with_help(help),
                    None => warning,
                }
            }
            [] => Diagnostic::new(
                DiagnosticKind::Composition,
                path,
                Position { line: 1, column: 1 },
                "",
                format!("discovered policy `{shown}` skipped: {error}"),
            ),
        };
        self.warnings.push(warning.warning());
    }
}

/// The `HOOKS.yaml` files under `base`, at most `max_depth` directory levels down, sorted;
/// `node_modules`, `.git` and `dist` are not entered, nor are symlinked directories (a link
/// could loop or leave the workspace). The directories read are added to `dirs`.
pub(super) fn scan(
    base: &Path,
    max_depth: usize,
    dirs: &mut Vec<PathBuf>,
) -> Result<Vec<PathBuf>, String> {
    let walk = crate::walk::Walk {
        max_depth,
        skipped: SKIPPED_DIRS,
        max_dirs: MAX_SCANNED_DIRS,
    };
    let found = walk
        .run(base, |path| {
            path.file_name() == Some(POLICY_FILE_NAME.as_ref())
        })
        .map_err(|too_many| {
            format!(
                "discovery stopped: more than {} directories under `{}`",
                too_many.0,
                base.display()
            )
        })?;
    // The base always reads as a directory; a directory below it that vanished or is
    // unreadable holds no policy we could load.
    if found.dirs.is_empty() {
        let why = found
            .errors
            .first()
            .map_or_else(|| "not a directory".to_owned(), |(_, e)| e.to_string());
        return Err(format!(
            "cannot scan `{}` for policy files: {why}",
            base.display()
        ));
    }
    dirs.extend(found.dirs);
    Ok(found.files)
}
