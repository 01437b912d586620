//! The compiled rule graph: an immutable, shareable index of hooks by point, tool, and the
//! pattern or topic each hook needs (`index.rs`).

mod index;
mod template;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(crate) use template::Template;
pub(crate) use template::{Vars, iso_timestamp, now_ms};

use crate::config::{Defaults, Document, HookSpec, LoadedPolicy, Mode, NotifySettings};
use crate::context::HookContext;
use crate::matcher::{Filters, Pattern, PatternIds, PatternIndex, PatternIndexes, Subject};
use crate::point::Point;
use index::{Merge, PointIndex};

/// One hook, ready to evaluate: its spec plus everything pre-computed from it.
#[derive(Debug, Clone)]
pub struct CompiledHook {
    spec: HookSpec,
    /// Its `match` section compiled.
    filters: Filters,
    /// Its points joined by ", " (the seed's block message names them all).
    points_label: String,
    /// The action's path template (`Action::path_template`), parsed.
    path: Option<Template>,
    failure_message: Option<Template>,
    /// Its patterns' ids in the graph's pattern indexes.
    ids: PatternIds,
    /// The absolute directory of its policy file: its relative paths resolve against it.
    base_dir: Arc<Path>,
}

impl CompiledHook {
    /// The validated spec.
    pub fn spec(&self) -> &HookSpec {
        &self.spec
    }
    /// Its `match` section compiled.
    pub(crate) fn filters(&self) -> &Filters {
        &self.filters
    }
    /// The hook's id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }
    /// Its patterns' ids in the graph's pattern indexes.
    pub fn pattern_ids(&self) -> PatternIds {
        self.ids
    }
    pub(crate) fn points_label(&self) -> &str {
        &self.points_label
    }
    /// The file the action reads or writes, as a template (see [`Action::path_template`]).
    pub(crate) fn path(&self) -> Option<&Template> {
        self.path.as_ref()
    }
    pub(crate) fn failure_message(&self) -> Option<&Template> {
        self.failure_message.as_ref()
    }

    /// Resolves a (rendered) relative path against the directory of the hook's own policy
    /// file, so an included pack's scripts and logs sit beside the pack.
    pub(crate) fn resolve_path(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.base_dir.join(p)
        }
    }
}

/// The compiled policy. Immutable once built; share it with `Arc`.
#[derive(Debug, Clone)]
pub struct RuleGraph {
    /// Hooks in evaluation order (priority descending, then file order).
    ordered: Vec<CompiledHook>,
    index: Vec<PointIndex>,
    patterns: PatternIndexes,
    /// Topic ids named by hooks (other than `*`), numbered for the index.
    topics: HashMap<String, u32>,
    defaults: Defaults,
    defaults_failure_message: Option<Template>,
    notify_channels: Option<Arc<NotifySettings>>,
    source: PathBuf,
    /// The policy's files, the approvals store beside it, the files its actions write or run
    /// (the audit log) and the running binary, absolute and normalised, for
    /// [`Place::Gate`](crate::config::Place::Gate).
    gate_files: Arc<[String]>,
}

impl RuleGraph {
    /// Compiles a loaded policy; each hook's relative paths resolve against the directory of
    /// the file it is written in.
    pub fn from_policy(policy: &LoadedPolicy) -> RuleGraph {
        let mut graph = RuleGraph::compile(policy.document.clone(), &policy.path);
        // An include without hooks is the gate's file too.
        let files: Vec<&Path> = policy.sources.iter().map(|s| &*s.path).collect();
        let stores: Vec<PathBuf> = files.iter().flat_map(|f| approvals_store(f)).collect();
        let actions = action_files(&graph.ordered);
        graph.gate_files = gate_files(
            files
                .into_iter()
                .chain(stores.iter().map(PathBuf::as_path))
                .chain(actions.iter().map(PathBuf::as_path)),
        );
        graph
    }

    /// Compiles `document` (from the policy file `source`).
    pub fn compile(document: Document, source: &Path) -> RuleGraph {
        let mut base_dirs = BaseDirs::default();
        let mut specs = document.hooks;
        // Stable sort: equal priorities keep file order.
        specs.sort_by_key(|h| std::cmp::Reverse(h.priority));
        let mut command_patterns = Distinct::default();
        let mut session_patterns = Distinct::default();
        let mut topics = Distinct::default();
        let ordered: Vec<CompiledHook> = specs
            .into_iter()
            .map(|spec| {
                let filters = Filters::compile(&spec.filter);
                CompiledHook {
                    points_label: spec
                        .points
                        .iter()
                        .map(|p| p.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    path: spec.action.path_template().map(Template::parse),
                    failure_message: spec
                        .on_failure
                        .as_ref()
                        .and_then(|f| f.message.as_deref())
                        .map(Template::parse),
                    ids: PatternIds {
                        command: filters
                            .command_pattern
                            .as_ref()
                            .map(|p| command_patterns.id(p)),
                        session: filters
                            .session_pattern
                            .as_ref()
                            .map(|p| session_patterns.id(p)),
                    },
                    base_dir: base_dirs.of(&spec.file),
                    filters,
                    spec,
                }
            })
            .collect();

        let mut index = vec![PointIndex::default(); Point::ALL.len()];
        for (rank, hook) in ordered.iter().enumerate() {
            if !hook.spec.enabled {
                continue;
            }
            // INVARIANT: a policy has far fewer than 2^32 hooks (the file size budget bounds it).
            let rank = rank as u32;
            let topic = hook
                .spec
                .filter
                .topic_id
                .as_deref()
                .filter(|t| *t != "*")
                .map(|t| topics.text_id(t));
            let gate = index::gate_of(hook.ids, topic);
            for point in &hook.spec.points {
                let slot = &mut index[point.index()];
                match &hook.spec.filter.tool {
                    Some(tools) => {
                        for tool in tools {
                            slot.by_tool
                                .entry(tool.clone())
                                .or_default()
                                .push(rank, gate);
                        }
                    }
                    None => slot.any_tool.push(rank, gate),
                }
            }
        }
        let defaults_failure_message = document
            .defaults
            .on_failure
            .as_ref()
            .and_then(|f| f.message.as_deref())
            .map(Template::parse);
        let notify_channels = document.defaults.notify.clone().map(Arc::new);
        let files: Vec<Arc<Path>> = base_dirs.0.keys().cloned().collect();
        let stores: Vec<PathBuf> = files
            .iter()
            .map(|f| &**f)
            .chain([source])
            .flat_map(approvals_store)
            .collect();
        let action_files = action_files(&ordered);
        let gate_files = gate_files(
            files
                .iter()
                .map(|f| &**f)
                .chain([source])
                .chain(stores.iter().map(PathBuf::as_path))
                .chain(action_files.iter().map(PathBuf::as_path)),
        );
        RuleGraph {
            ordered,
            index,
            patterns: PatternIndexes {
                command: PatternIndex::new(command_patterns.patterns),
                session: PatternIndex::new(session_patterns.patterns),
            },
            topics: topics.texts,
            notify_channels,
            defaults: document.defaults,
            defaults_failure_message,
            source: source.to_path_buf(),
            gate_files,
        }
    }

    /// The hooks that could fire at `point` for the call `subject` describes, in evaluation
    /// order. Hooks filtered on another tool, and hooks whose pattern or topic the call
    /// does not have, are never visited.
    pub fn candidates<'g>(&'g self, point: Point, subject: &Subject<'_>) -> Candidates<'g> {
        let ctx = subject.context();
        let slot = &self.index[point.index()];
        let (a, b, opened) = index::select(
            slot.buckets(ctx.tool_name.as_deref()),
            subject,
            self.topic_of(ctx),
        );
        Candidates {
            graph: self,
            ranks: Merge {
                a,
                b,
                opened,
                next_opened: 0,
            },
        }
    }

    /// Every enabled hook at `point` whose tool filter admits `tool`, in evaluation order:
    /// [`RuleGraph::candidates`] without the pattern and topic gates, for explanations.
    pub fn candidates_for_tool<'g>(&'g self, point: Point, tool: Option<&str>) -> Candidates<'g> {
        let [any, tooled] = self.index[point.index()].buckets(tool);
        Candidates {
            graph: self,
            ranks: Merge {
                a: any.map_or(&[], index::Bucket::all),
                b: tooled.map_or(&[], index::Bucket::all),
                opened: Default::default(),
                next_opened: 0,
            },
        }
    }

    /// Builds now the matchers of the patterns that run whenever their hook is a candidate:
    /// `args`, `command.anyArg` and `command.argsPattern`, and the command and session
    /// patterns the index cannot gate (they have no literal to look for). Built on first
    /// use otherwise, they would make the first calls after a load slow enough, on a large
    /// policy, to run over the daemon's time limit. Gated patterns stay lazy: most never
    /// run.
    pub fn warm(&self) {
        self.patterns.command.warm_unindexed();
        self.patterns.session.warm_unindexed();
        for hook in &self.ordered {
            let filter = &hook.filters;
            for arg in filter.args.iter().flatten() {
                arg.pattern.warm();
            }
            if let Some(command) = &filter.command {
                for pattern in [&command.args_pattern, &command.any_arg]
                    .into_iter()
                    .flatten()
                {
                    pattern.warm();
                }
            }
        }
    }

    /// The patterns of the policy, indexed for one pass per subject.
    pub fn patterns(&self) -> &PatternIndexes {
        &self.patterns
    }

    /// The id of the context's topic, if some hook names it.
    fn topic_of(&self, ctx: &HookContext) -> Option<u32> {
        match ctx.topic_id.as_ref()? {
            serde_json::Value::String(s) => self.topics.get(s.as_str()).copied(),
            _ => self.topics.get(ctx.topic_text()?.as_str()).copied(),
        }
    }

    /// Enabled hooks registered for `point`, whatever their tool filter; for explanations.
    pub fn registered(&self, point: Point) -> impl Iterator<Item = &CompiledHook> {
        self.ordered
            .iter()
            .filter(move |h| h.spec.enabled && h.spec.points.contains(&point))
    }

    /// Every hook, in evaluation order.
    pub fn hooks(&self) -> &[CompiledHook] {
        &self.ordered
    }

    /// The `defaults` section.
    pub fn defaults(&self) -> &Defaults {
        &self.defaults
    }

    /// `defaults.onFailure.message`, parsed.
    pub(crate) fn defaults_failure_message(&self) -> Option<&Template> {
        self.defaults_failure_message.as_ref()
    }

    /// The policy's default mode.
    pub fn mode(&self) -> Mode {
        self.defaults.mode
    }

    /// `defaults.notify`, shared with every notice the policy sends.
    pub(crate) fn notify_channels(&self) -> Option<Arc<NotifySettings>> {
        self.notify_channels.clone()
    }

    /// The file the policy was loaded from.
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// The gate's own files: the policy's files, the approvals store beside it and the
    /// running binary, absolute and normalised, each also as its real path when a symlink
    /// leads there.
    pub fn gate_files(&self) -> &Arc<[String]> {
        &self.gate_files
    }
}

/// The approvals store `hookgate serve` keeps beside the policy unless told otherwise
/// (`--approvals`): the snapshot, its journal and its lock. Taken beside every file
/// of the policy, so that a pack's directory is covered whichever file is the policy.
fn approvals_store(policy: &Path) -> [PathBuf; 3] {
    [
        "approvals.json",
        "approvals.json.journal",
        "approvals.json.lock",
    ]
    .map(|name| policy.with_file_name(name))
}

/// What the hooks' actions write or run (the audit log, a script), where a path holds no
/// variable: changing one changes what the gate does or what it leaves behind.
fn action_files(hooks: &[CompiledHook]) -> Vec<PathBuf> {
    hooks
        .iter()
        .filter_map(|h| h.path()?.constant().map(|p| h.resolve_path(&p)))
        .collect()
}

/// The absolute, normalised paths of `files` and of the running binary, and their real
/// paths where those differ.
fn gate_files<'p>(files: impl Iterator<Item = &'p Path>) -> Arc<[String]> {
    let mut out: Vec<String> = Vec::new();
    let files: Vec<PathBuf> = files
        .map(Path::to_path_buf)
        .chain(std::env::current_exe().ok())
        .collect();
    for file in &files {
        let absolute = std::path::absolute(file).unwrap_or_else(|_| file.clone());
        let real = std::fs::canonicalize(&absolute).ok();
        for path in std::iter::once(absolute).chain(real) {
            let path = crate::matcher::paths::normalize(&path.to_string_lossy());
            if !out.contains(&path) {
                out.push(path);
            }
        }
    }
    out.into()
}

/// The absolute directory of each policy file, computed once per file.
#[derive(Default)]
struct BaseDirs(HashMap<Arc<Path>, Arc<Path>>);

impl BaseDirs {
    fn of(&mut self, file: &Arc<Path>) -> Arc<Path> {
        let dir = self.0.entry(Arc::clone(file)).or_insert_with(|| {
            let parent = match file.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            // Absolute, so paths in messages and the exec_script denylist see whole paths,
            // as the seed's `path.resolve` did, whatever the working directory later becomes.
            Arc::from(std::path::absolute(parent).unwrap_or_else(|_| parent.to_path_buf()))
        });
        Arc::clone(dir)
    }
}

/// Numbers distinct patterns (by source) or texts in order of first appearance.
#[derive(Default)]
struct Distinct {
    texts: HashMap<String, u32>,
    patterns: Vec<Pattern>,
}

impl Distinct {
    fn id(&mut self, pattern: &Pattern) -> u32 {
        let next = self.texts.len() as u32;
        let id = *self
            .texts
            .entry(pattern.as_str().to_owned())
            .or_insert(next);
        if id == next {
            self.patterns.push(pattern.clone());
        }
        id
    }

    fn text_id(&mut self, text: &str) -> u32 {
        let next = self.texts.len() as u32;
        *self.texts.entry(text.to_owned()).or_insert(next)
    }
}

/// Iterator over the candidate hooks of one call, in evaluation order.
#[derive(Debug, Clone)]
pub struct Candidates<'g> {
    graph: &'g RuleGraph,
    ranks: Merge<'g>,
}

impl<'g> Candidates<'g> {
    /// The next candidate with its rank: its position in [`RuleGraph::hooks`].
    pub(crate) fn next_ranked(&mut self) -> Option<(u32, &'g CompiledHook)> {
        let rank = self.ranks.next()?;
        Some((rank, self.graph.ordered.get(rank as usize)?))
    }
}

impl<'g> Iterator for Candidates<'g> {
    type Item = &'g CompiledHook;

    fn next(&mut self) -> Option<&'g CompiledHook> {
        let rank = self.ranks.next()?;
        self.graph.ordered.get(rank as usize)
    }
}

#[cfg(test)]
mod tests;
