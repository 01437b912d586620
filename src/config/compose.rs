//! Composition: the root policy file plus the files it brings in, by `include` (chosen by
//! the root's author: any problem in them is an error) and by `discover` (found in the
//! workspace: a problem skips that file with a warning, never the root).
//!
//! Hooks keep their own file: ids of unnamed hooks name it, relative paths resolve beside it,
//! and `enable`/`disable` edit it. Only the root file's `version` and `defaults` apply.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::error::{Code, ConfigError, Diagnostic, DiagnosticKind};
use super::model::{Defaults, Discover, Document, HookSpec};
use super::yaml::{self, Position, SpanMap, YamlBudget};
use super::{LoadedPolicy, load_single, read_policy_file, read_text};
use crate::regular_file::FileError;

/// Most policy files one policy may be composed of.
pub const MAX_FILES: usize = 256;
/// Most directories one discovery scan reads.
const MAX_SCANNED_DIRS: usize = 10_000;
/// Directories discovery never enters.
const SKIPPED_DIRS: &[&str] = &["node_modules", ".git", "dist"];
/// The file name discovery looks for.
const POLICY_FILE_NAME: &str = "HOOKS.yaml";

/// One file a policy was composed from.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Its path, as resolved from the file that brought it in.
    pub path: Arc<Path>,
    /// Its text.
    pub text: Arc<str>,
    /// How it came in.
    pub role: SourceRole,
}

/// How a file came into a policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceRole {
    /// The policy file itself.
    Root,
    /// Named by an `include` list.
    Included,
    /// Found by `discover`.
    Discovered,
}

/// What a load read or scanned, whether or not it succeeded: a watcher reloads when any of
/// it changes (a file that was missing may be created to fix the policy).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Touched {
    /// Every policy file read or looked for.
    pub files: Vec<PathBuf>,
    /// Every directory a discovery scan read (a new `HOOKS.yaml` may appear in one).
    pub dirs: Vec<PathBuf>,
}

/// `sha256:<hex>` of `text`.
pub fn content_hash(text: &str) -> String {
    hex_digest(Sha256::digest(text.as_bytes()).as_slice())
}

fn hex_digest(digest: &[u8]) -> String {
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in digest {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

impl LoadedPolicy {
    /// `sha256:<hex>`: of the file's bytes for a single-file policy; otherwise of every
    /// source's path and text, in order, so a change to any of them changes it.
    pub fn hash(&self) -> String {
        if let [only] = self.sources.as_slice() {
            return content_hash(&only.text);
        }
        let mut hasher = Sha256::new();
        for source in &self.sources {
            let path = source.path.as_os_str().as_encoded_bytes();
            hasher.update((path.len() as u64).to_le_bytes());
            hasher.update(path);
            hasher.update((source.text.len() as u64).to_le_bytes());
            hasher.update(source.text.as_bytes());
        }
        hex_digest(hasher.finalize().as_slice())
    }
}

/// Loads the policy at `root` (whose text is `text`) with every file it brings in.
pub(crate) fn compose(
    root: &Path,
    text: Arc<str>,
    budget: &YamlBudget,
) -> (Result<LoadedPolicy, ConfigError>, Touched) {
    let mut composer = Composer::new(root, budget);
    let result = composer.run(root, text);
    (result, composer.touched)
}

/// How a duplicate hook name is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OnDuplicate {
    /// A load error (the root and its includes: the author can fix it).
    Error,
    /// A conflict warning; the later hook is left out (discovered files).
    Skip,
}

/// A file on the include chain, for cycle detection and its message.
struct Link {
    canonical: PathBuf,
    shown: PathBuf,
}

/// Where a rollback returns to when a discovered file turns out invalid.
struct Mark {
    sources: usize,
    hooks: usize,
    warnings: usize,
    seen: usize,
}

struct Composer<'b> {
    budget: &'b YamlBudget,
    root_dir: PathBuf,
    defaults: Defaults,
    sources: Vec<SourceFile>,
    hooks: Vec<HookSpec>,
    /// Canonical JSON of each hook's `match`, parallel to `hooks` (only when composing).
    match_keys: Vec<String>,
    names: HashMap<String, usize>,
    seen: HashSet<PathBuf>,
    seen_order: Vec<PathBuf>,
    warnings: Vec<Diagnostic>,
    touched: Touched,
    spans: HashMap<PathBuf, SpanMap>,
    composing: bool,
}

impl<'b> Composer<'b> {
    fn new(root: &Path, budget: &'b YamlBudget) -> Self {
        Composer {
            budget,
            root_dir: dir_of(root).to_path_buf(),
            defaults: Defaults::default(),
            sources: Vec::new(),
            hooks: Vec::new(),
            match_keys: Vec::new(),
            names: HashMap::new(),
            seen: HashSet::new(),
            seen_order: Vec::new(),
            warnings: Vec::new(),
            touched: Touched {
                files: vec![root.to_path_buf()],
                dirs: Vec::new(),
            },
            spans: HashMap::new(),
            composing: false,
        }
    }

    fn run(&mut self, root: &Path, text: Arc<str>) -> Result<LoadedPolicy, ConfigError> {
        let (document, value) = load_single(&text, root, self.budget, None)?;
        let Document {
            version,
            defaults,
            hooks,
            include,
            discover,
        } = document;
        self.composing = !include.is_empty() || discover.is_some();
        self.defaults = defaults;
        let canonical = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        self.remember(canonical.clone());
        self.add_source(root, Arc::clone(&text), SourceRole::Root);
        self.add_hooks(root, SourceRole::Root, hooks, &value, OnDuplicate::Error)?;
        let mut chain = vec![Link {
            canonical,
            shown: root.to_path_buf(),
        }];
        self.include_all(root, &include, &mut chain, OnDuplicate::Error)?;
        if let Some(discover) = &discover {
            self.discover(root, discover);
        }
        self.report_overlaps();
        Ok(LoadedPolicy {
            path: root.to_path_buf(),
            text,
            document: Document {
                version,
                defaults: std::mem::take(&mut self.defaults),
                hooks: std::mem::take(&mut self.hooks),
                include,
                discover,
            },
            sources: std::mem::take(&mut self.sources),
            warnings: std::mem::take(&mut self.warnings),
        })
    }

    /// Brings in each file of `including`'s `include` list, in order, depth first.
    fn include_all(
        &mut self,
        including: &Path,
        include: &[String],
        chain: &mut Vec<Link>,
        on_duplicate: OnDuplicate,
    ) -> Result<(), ConfigError> {
        for (i, entry) in include.iter().enumerate() {
            let pointer = format!("/include/{i}");
            let path = dir_of(including).join(entry);
            self.touched.files.push(path.clone());
            let canonical = path.canonicalize().map_err(|e| {
                self.error_at(
                    including,
                    &pointer,
                    format!("cannot read included file `{}`: {e}", path.display()),
                    Some("paths in `include` are relative to the file that names them"),
                )
            })?;
            if let Some(start) = chain.iter().position(|l| l.canonical == canonical) {
                let mut cycle: Vec<String> = chain[start..]
                    .iter()
                    .map(|l| l.shown.display().to_string())
                    .collect();
                cycle.push(path.display().to_string());
                return Err(self.error_at(
                    including,
                    &pointer,
                    format!("include cycle: {}", cycle.join(" -> ")),
                    Some("a file may not include itself, directly or through others"),
                ));
            }
            if self.seen.contains(&canonical) {
                // Brought in already (two packs sharing a base): its hooks are there once.
                continue;
            }
            if self.sources.len() >= MAX_FILES {
                return Err(self.error_at(
                    including,
                    &pointer,
                    format!("more than {MAX_FILES} policy files"),
                    None,
                ));
            }
            let text = read_policy_file(&path, self.budget).map_err(|e| {
                let help = matches!(e, FileError::NotRegular { .. }).then_some(
                    "an include must name a regular file; a symlink is followed, and the file \
                     it reaches must be one",
                );
                self.error_at(
                    including,
                    &pointer,
                    format!(
                        "cannot read included file `{}`: {}",
                        path.display(),
                        e.reason()
                    ),
                    help,
                )
            })?;
            chain.push(Link {
                canonical: canonical.clone(),
                shown: path.clone(),
            });
            let brought = self.bring_in(
                &path,
                canonical,
                text,
                SourceRole::Included,
                chain,
                on_duplicate,
            );
            chain.pop();
            brought?;
        }
        Ok(())
    }

    /// Loads one file (already read) and the files it includes.
    fn bring_in(
        &mut self,
        path: &Path,
        canonical: PathBuf,
        text: String,
        role: SourceRole,
        chain: &mut Vec<Link>,
        on_duplicate: OnDuplicate,
    ) -> Result<(), ConfigError> {
        self.remember(canonical);
        let text: Arc<str> = Arc::from(text);
        let (document, value) = load_single(&text, path, self.budget, Some(&self.defaults))?;
        self.add_source(path, text, role);
        for (key, why) in [
            ("defaults", "only the root file's `defaults` apply"),
            ("discover", "only the root file's `discover` applies"),
        ] {
            if value.get(key).is_some() {
                self.warn_at(
                    path,
                    &format!("/{key}"),
                    Code::Composition,
                    format!("`{key}` ignored: {why}"),
                    None,
                );
            }
        }
        self.add_hooks(path, role, document.hooks, &value, on_duplicate)?;
        self.include_all(path, &document.include, chain, on_duplicate)
    }

    fn add_source(&mut self, path: &Path, text: Arc<str>, role: SourceRole) {
        self.sources.push(SourceFile {
            path: Arc::from(path),
            text,
            role,
        });
    }

    /// Adds a loaded file's hooks, checking their names against every file before it.
    fn add_hooks(
        &mut self,
        path: &Path,
        role: SourceRole,
        hooks: Vec<HookSpec>,
        value: &Value,
        on_duplicate: OnDuplicate,
    ) -> Result<(), ConfigError> {
        let raw_hooks = value.get("hooks");
        for mut hook in hooks {
            let raw = raw_hooks.and_then(|h| h.get(hook.index));
            if role != SourceRole::Root && raw.and_then(|r| r.get("name")).is_none() {
                hook.id = format!("{}:hooks[{}]", self.shown(path).display(), hook.index);
            }
            if let Some(&first) = self.names.get(&hook.id) {
                let (file, index) = (Arc::clone(&self.hooks[first].file), self.hooks[first].index);
                let help = format!(
                    "`{}` line {} already uses it; names must be unique across all policy files",
                    file.display(),
                    self.line_of(&file, &format!("/hooks/{index}"))
                );
                let pointer = format!("/hooks/{}/name", hook.index);
                let message = format!("duplicate hook name `{}`", hook.id);
                match on_duplicate {
                    OnDuplicate::Error => {
                        let d = self.diagnostic_at(path, &pointer, message, Some(&help));
                        let d = self.related_hook(d, &file, index, "the first use of the name");
                        return Err(self.error(path, d));
                    }
                    OnDuplicate::Skip => {
                        self.warn_at(
                            path,
                            &pointer,
                            Code::Conflict,
                            format!("{message}; this hook is left out"),
                            Some(help),
                        );
                        self.relate_last_warning(&file, index, "the first use of the name");
                        continue;
                    }
                }
            }
            self.names.insert(hook.id.clone(), self.hooks.len());
            if self.composing {
                self.match_keys
                    .push(canonical_json(raw.and_then(|r| r.get("match"))));
            }
            self.hooks.push(hook);
        }
        Ok(())
    }

    /// Scans the workspace and brings in each `HOOKS.yaml` found; an invalid one is skipped
    /// with a warning.
    fn discover(&mut self, root: &Path, discover: &Discover) {
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

    /// Warns about hooks from different files registered at a common point with the same
    /// `match`: both run for the same calls, which is rarely meant.
    fn report_overlaps(&mut self) {
        if self.sources.len() < 2 {
            return;
        }
        let mut by_match: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut found = Vec::new();
        for (i, key) in self.match_keys.iter().enumerate() {
            let earlier = by_match.entry(key.as_str()).or_default();
            let hook = &self.hooks[i];
            if let Some(&j) = earlier.iter().find(|&&j| {
                let other = &self.hooks[j];
                other.file != hook.file && other.points.iter().any(|p| hook.points.contains(p))
            }) {
                found.push((i, j));
            }
            earlier.push(i);
        }
        for (i, j) in found {
            let (later, earlier) = (self.hooks[i].clone(), self.hooks[j].clone());
            let (file, pointer) = (Arc::clone(&later.file), format!("/hooks/{}", later.index));
            let line = self.line_of(&earlier.file, &format!("/hooks/{}", earlier.index));
            let message = format!(
                "hook `{}` overlaps `{}` (`{}` line {line}): a common point and the same `match`",
                later.id,
                earlier.id,
                earlier.file.display(),
            );
            self.warn_at(
                &file,
                &pointer,
                Code::Conflict,
                message,
                Some("both run for the same calls; if one copies the other, remove one".to_owned()),
            );
            self.relate_last_warning(&earlier.file, earlier.index, "the hook it overlaps");
        }
    }

    fn remember(&mut self, canonical: PathBuf) {
        self.seen.insert(canonical.clone());
        self.seen_order.push(canonical);
    }

    fn mark(&self) -> Mark {
        Mark {
            sources: self.sources.len(),
            hooks: self.hooks.len(),
            warnings: self.warnings.len(),
            seen: self.seen_order.len(),
        }
    }

    fn rollback(&mut self, mark: Mark) {
        for hook in self.hooks.drain(mark.hooks..) {
            self.names.remove(&hook.id);
        }
        self.match_keys
            .truncate(mark.hooks.min(self.match_keys.len()));
        self.sources.truncate(mark.sources);
        self.warnings.truncate(mark.warnings);
        for canonical in self.seen_order.drain(mark.seen..) {
            self.seen.remove(&canonical);
        }
    }

    /// `path` relative to the root file's directory when it is inside it.
    fn shown<'p>(&self, path: &'p Path) -> &'p Path {
        if self.root_dir.as_os_str().is_empty() {
            return path;
        }
        path.strip_prefix(&self.root_dir).unwrap_or(path)
    }

    fn text_of(&self, path: &Path) -> Option<Arc<str>> {
        self.sources
            .iter()
            .rev()
            .find(|s| *s.path == *path)
            .map(|s| Arc::clone(&s.text))
    }

    /// The position of `pointer` in the loaded file `path` (read again with positions once).
    fn position(&mut self, path: &Path, pointer: &str) -> Position {
        if !self.spans.contains_key(path) {
            let spans = self
                .text_of(path)
                .and_then(|text| yaml::parse(&text, self.budget).ok())
                .map(|parsed| parsed.spans)
                .unwrap_or_default();
            self.spans.insert(path.to_path_buf(), spans);
        }
        self.spans
            .get(path)
            .map_or(Position { line: 1, column: 1 }, |s| s.value(pointer))
    }

    fn line_of(&mut self, path: &Arc<Path>, pointer: &str) -> usize {
        self.position(path, pointer).line
    }

    /// A composition problem at `pointer` of the loaded file `path`.
    fn diagnostic_at(
        &mut self,
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

    fn error_at(
        &mut self,
        path: &Path,
        pointer: &str,
        message: String,
        help: Option<&str>,
    ) -> ConfigError {
        let diagnostic = self.diagnostic_at(path, pointer, message, help);
        self.error(path, diagnostic)
    }

    /// `diagnostic`, a problem of the loaded file `path`, as the error of the load.
    fn error(&self, path: &Path, diagnostic: Diagnostic) -> ConfigError {
        ConfigError::Invalid {
            file: path.to_path_buf(),
            source_text: self.text_of(path).unwrap_or_else(|| Arc::from("")),
            diagnostics: vec![diagnostic],
        }
    }

    /// `diagnostic` with the hook at `hooks[index]` of `file` as a related place.
    fn related_hook(
        &mut self,
        diagnostic: Diagnostic,
        file: &Path,
        index: usize,
        message: &str,
    ) -> Diagnostic {
        let position = self.position(file, &format!("/hooks/{index}"));
        diagnostic.with_related(file, position, message)
    }

    fn warn_at(
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
    fn relate_last_warning(&mut self, file: &Path, index: usize, message: &str) {
        if let Some(warning) = self.warnings.pop() {
            let warning = self.related_hook(warning, file, index, message);
            self.warnings.push(warning);
        }
    }
}

/// The directory of a policy file (`""` for a bare file name).
fn dir_of(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new(""))
}

/// The `HOOKS.yaml` files under `base`, at most `max_depth` directory levels down, sorted;
/// `node_modules`, `.git` and `dist` are not entered, nor are symlinked directories (a link
/// could loop or leave the workspace). The directories read are added to `dirs`.
fn scan(base: &Path, max_depth: usize, dirs: &mut Vec<PathBuf>) -> Result<Vec<PathBuf>, String> {
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

/// A JSON text of `value` with object keys sorted: equal for equal values whatever the
/// order the keys were written in (`""` for no value).
pub(crate) fn canonical_json(value: Option<&Value>) -> String {
    fn write(value: &Value, out: &mut String) {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (n, key) in keys.into_iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(key.clone()).to_string());
                    out.push(':');
                    if let Some(v) = map.get(key) {
                        write(v, out);
                    }
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    if let Some(value) = value {
        write(value, &mut out);
    }
    out
}

#[cfg(test)]
mod tests;
