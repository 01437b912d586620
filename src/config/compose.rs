//! Composition: the root policy file plus the files it brings in, by `include` (chosen by
//! the root's author: any problem in them is an error) and by `discover` (found in the
//! workspace: a problem skips that file with a warning, never the root).
//!
//! Hooks keep their own file: ids of unnamed hooks name it, relative paths resolve beside it,
//! and `enable`/`disable` edit it. Only the root file's `version` and `defaults` apply.

mod diagnostics;
mod discover;
mod hash;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::Value;

use super::error::{Code, ConfigError, Diagnostic};
use super::model::{Defaults, Document, HookSpec};
use super::yaml::{self, Parsed, Position, YamlBudget};
use super::{LoadedPolicy, load_single, read_policy_file};
use crate::regular_file::FileError;
pub(crate) use hash::canonical_json;
pub use hash::content_hash;

/// Most policy files one policy may be composed of.
pub const MAX_FILES: usize = 256;

/// One file a policy was composed from.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Its path, as resolved from the file that brought it in.
    pub path: Arc<Path>,
    /// Its text.
    pub text: Arc<str>,
    /// How it came in.
    pub role: SourceRole,
    /// The budgets it was read within, for its positioned read.
    budget: YamlBudget,
    /// Its values with their positions, read on the first need: a policy that loads is read
    /// without them (a third faster), and a composition warning, `lint` or `hookgate test`'s
    /// coverage report then share this one positioned read.
    positioned: Arc<OnceLock<Option<Parsed>>>,
}

impl SourceFile {
    pub(crate) fn new(path: &Path, text: Arc<str>, role: SourceRole, budget: YamlBudget) -> Self {
        SourceFile {
            path: Arc::from(path),
            text,
            role,
            budget,
            positioned: Arc::default(),
        }
    }

    /// Its values with their positions (`None` if the text no longer parses, which a
    /// loaded file's text always does).
    pub(crate) fn positioned(&self) -> Option<&Parsed> {
        self.positioned
            .get_or_init(|| yaml::parse(&self.text, &self.budget).ok())
            .as_ref()
    }

    /// The position of the value at `pointer` (1:1 when unknown).
    pub(crate) fn position(&self, pointer: &str) -> Position {
        self.positioned()
            .map_or(Position { line: 1, column: 1 }, |p| p.spans.value(pointer))
    }
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
        self.sources
            .push(SourceFile::new(path, text, role, *self.budget));
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
}

/// The directory of a policy file (`""` for a bare file name).
fn dir_of(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new(""))
}

#[cfg(test)]
mod tests;
