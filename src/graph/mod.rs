//! The compiled rule graph: an immutable, shareable index of hooks by point and tool.

mod template;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use template::Template;
pub(crate) use template::{Vars, iso_timestamp, now_ms};

use crate::config::{Defaults, Document, HookSpec, LoadedPolicy, Mode, NotifySettings};
use crate::point::Point;

/// One hook, ready to evaluate: its spec plus everything pre-computed from it.
#[derive(Debug, Clone)]
pub struct CompiledHook {
    spec: HookSpec,
    /// Its points joined by ", " (the seed's block message names them all).
    points_label: String,
    target: Option<Template>,
    /// inject_context's `source`.
    source: Option<Template>,
    failure_message: Option<Template>,
}

impl CompiledHook {
    /// The validated spec.
    pub fn spec(&self) -> &HookSpec {
        &self.spec
    }
    /// The hook's id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }
    pub(crate) fn points_label(&self) -> &str {
        &self.points_label
    }
    pub(crate) fn target(&self) -> Option<&Template> {
        self.target.as_ref()
    }
    pub(crate) fn source(&self) -> Option<&Template> {
        self.source.as_ref()
    }
    pub(crate) fn failure_message(&self) -> Option<&Template> {
        self.failure_message.as_ref()
    }
}

/// Candidates of one point: hooks without a tool filter, and hooks by the tool they name.
/// Both lists hold ranks (positions in evaluation order), ascending.
#[derive(Debug, Clone, Default)]
struct PointIndex {
    any_tool: Vec<u32>,
    by_tool: HashMap<String, Vec<u32>>,
}

/// The compiled policy. Immutable once built; share it with `Arc`.
#[derive(Debug, Clone)]
pub struct RuleGraph {
    /// Hooks in evaluation order (priority descending, then file order).
    ordered: Vec<CompiledHook>,
    index: Vec<PointIndex>,
    defaults: Defaults,
    defaults_failure_message: Option<Template>,
    notify_channels: Option<Arc<NotifySettings>>,
    base_dir: PathBuf,
    source: PathBuf,
}

impl RuleGraph {
    /// Compiles a loaded policy; relative paths in it resolve against the policy's directory.
    pub fn from_policy(policy: &LoadedPolicy) -> RuleGraph {
        let parent = policy.path.parent().unwrap_or(Path::new(""));
        // Absolute, so paths in messages and the exec_script denylist see whole paths, as the
        // seed's `path.resolve` did, whatever the working directory later becomes.
        let parent = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        let base = std::path::absolute(parent).unwrap_or_else(|_| parent.to_path_buf());
        RuleGraph::compile(policy.document.clone(), &policy.path, base)
    }

    /// Compiles `document` (from `source`); relative paths resolve against `base_dir`.
    pub fn compile(document: Document, source: &Path, base_dir: PathBuf) -> RuleGraph {
        let mut specs = document.hooks;
        // Stable sort: equal priorities keep file order.
        specs.sort_by_key(|h| std::cmp::Reverse(h.priority));
        let ordered: Vec<CompiledHook> = specs
            .into_iter()
            .map(|spec| CompiledHook {
                points_label: spec
                    .points
                    .iter()
                    .map(|p| p.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                target: spec.target.as_deref().map(Template::parse),
                source: spec.source.as_deref().map(Template::parse),
                failure_message: spec
                    .on_failure
                    .as_ref()
                    .and_then(|f| f.message.as_deref())
                    .map(Template::parse),
                spec,
            })
            .collect();

        let mut index = vec![PointIndex::default(); Point::ALL.len()];
        for (rank, hook) in ordered.iter().enumerate() {
            if !hook.spec.enabled {
                continue;
            }
            // INVARIANT: a policy has far fewer than 2^32 hooks (the file size budget bounds it).
            let rank = rank as u32;
            for point in &hook.spec.points {
                let slot = &mut index[point.index()];
                match &hook.spec.filter.tool {
                    Some(tools) => {
                        for tool in tools {
                            let ranks = slot.by_tool.entry(tool.clone()).or_default();
                            // A list naming a tool twice indexes the hook once.
                            if ranks.last() != Some(&rank) {
                                ranks.push(rank);
                            }
                        }
                    }
                    None => slot.any_tool.push(rank),
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
        RuleGraph {
            ordered,
            index,
            notify_channels,
            defaults: document.defaults,
            defaults_failure_message,
            base_dir,
            source: source.to_path_buf(),
        }
    }

    /// The hooks that could fire at `point` for a call of `tool`, in evaluation order.
    /// Hooks filtered on another tool are never visited.
    pub fn candidates<'g>(&'g self, point: Point, tool: Option<&str>) -> Candidates<'g> {
        let slot = &self.index[point.index()];
        let tooled = tool
            .and_then(|t| slot.by_tool.get(t))
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        Candidates {
            graph: self,
            a: &slot.any_tool,
            b: tooled,
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

    /// Resolves a (rendered) relative path against the policy's directory.
    pub(crate) fn resolve_path(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.base_dir.join(p)
        }
    }
}

/// Iterator over the candidate hooks of one point: a merge of two rank-sorted lists.
#[derive(Debug, Clone)]
pub struct Candidates<'g> {
    graph: &'g RuleGraph,
    a: &'g [u32],
    b: &'g [u32],
}

impl<'g> Iterator for Candidates<'g> {
    type Item = &'g CompiledHook;

    fn next(&mut self) -> Option<&'g CompiledHook> {
        let rank = match (self.a.first(), self.b.first()) {
            (Some(&x), Some(&y)) if x < y => take_first(&mut self.a, x),
            (Some(_), Some(&y)) => take_first(&mut self.b, y),
            (Some(&x), None) => take_first(&mut self.a, x),
            (None, Some(&y)) => take_first(&mut self.b, y),
            (None, None) => return None,
        };
        self.graph.ordered.get(rank as usize)
    }
}

fn take_first(list: &mut &[u32], value: u32) -> u32 {
    *list = &list[1..];
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::load_str;

    fn graph(yaml: &str) -> RuleGraph {
        let policy = load_str(yaml, Path::new("t.yaml")).expect("policy");
        RuleGraph::from_policy(&policy)
    }

    fn ids(g: &RuleGraph, point: Point, tool: Option<&str>) -> Vec<String> {
        g.candidates(point, tool)
            .map(|h| h.id().to_owned())
            .collect()
    }

    #[test]
    fn candidates_follow_priority_then_file_order_and_skip_other_tools() {
        let g = graph(
            "version: 1\nhooks:\n\
             - { name: a, point: turn:tool:pre, action: log }\n\
             - { name: b, point: turn:tool:pre, match: { tool: exec }, action: log }\n\
             - { name: c, point: turn:tool:pre, match: { tool: read }, action: log }\n\
             - { name: d, point: [turn:tool:pre, turn:pre], priority: 90, action: log }\n\
             - { name: e, point: turn:tool:pre, match: { tool: exec }, priority: 90, action: log }\n\
             - { name: f, point: turn:tool:pre, enabled: false, action: log }\n",
        );
        assert_eq!(
            ids(&g, Point::TurnToolPre, Some("exec")),
            ["d", "e", "a", "b"]
        );
        assert_eq!(ids(&g, Point::TurnToolPre, Some("read")), ["d", "a", "c"]);
        assert_eq!(ids(&g, Point::TurnToolPre, None), ["d", "a"]);
        assert_eq!(ids(&g, Point::TurnPre, Some("exec")), ["d"]);
        assert!(ids(&g, Point::CronPre, None).is_empty());
        assert_eq!(g.hooks()[0].points_label(), "turn:tool:pre, turn:pre");
    }
}
