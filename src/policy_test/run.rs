//! Running test cases with the real engine, judging the decisions, and measuring coverage.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::file::{Expectation, LoadError, TestCase, TestFile};
use crate::actions::Services;
use crate::config::{self, ConfigError};
use crate::decision::{Decision, Verdict};
use crate::engine::Engine;
use crate::graph::RuleGraph;

/// How to run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RunOptions {
    /// Run the actions for real: `log` and `summarize_and_log` write, LLMs are asked,
    /// notices are sent. By default a run is dry (see [`Services::dry_run`]).
    pub live_actions: bool,
}

/// The outcome of one case.
#[derive(Debug, Clone)]
pub(crate) struct CaseResult {
    /// The case's name.
    pub name: String,
    /// The line the case starts on.
    pub line: usize,
    /// Why the case failed, one line per unmet expectation; empty when it passed.
    pub failures: Vec<String>,
    /// The engine's decision.
    pub decision: Decision,
    /// How long the evaluation took.
    pub duration: Duration,
}

impl CaseResult {
    /// Whether the decision met every expectation.
    pub(crate) fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Why a test file's cases could not be run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FileError {
    /// The test file is unreadable or malformed.
    #[error(transparent)]
    TestFile(#[from] LoadError),
    /// Its policy could not be found or loaded.
    #[error("{error}")]
    Policy {
        /// The policy, when one was found.
        path: Option<PathBuf>,
        /// Why it could not be used.
        error: Arc<ConfigError>,
    },
}

/// What happened to one test file.
#[derive(Debug)]
pub(crate) struct FileReport {
    /// The test file.
    pub file: PathBuf,
    /// The policy its cases ran against, when known.
    pub policy: Option<PathBuf>,
    /// One result per case, in file order; or why none ran.
    pub outcome: Result<Vec<CaseResult>, FileError>,
    /// How long the file took.
    pub duration: Duration,
}

impl FileReport {
    /// The report of a file whose cases could not be run.
    pub(crate) fn error(file: PathBuf, policy: Option<PathBuf>, error: FileError) -> FileReport {
        FileReport {
            file,
            policy,
            outcome: Err(error),
            duration: Duration::ZERO,
        }
    }

    /// The results of the cases that ran.
    pub(crate) fn cases(&self) -> &[CaseResult] {
        self.outcome.as_deref().unwrap_or_default()
    }

    /// Cases that passed.
    pub(crate) fn passed(&self) -> usize {
        self.cases().iter().filter(|c| c.passed()).count()
    }

    /// Cases that failed.
    pub(crate) fn failed(&self) -> usize {
        self.cases().iter().filter(|c| !c.passed()).count()
    }
}

/// The enabled hooks of one policy that no case exercised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Coverage {
    /// The policy, as the first test file that used it named it.
    pub policy: PathBuf,
    /// Its enabled hooks.
    pub enabled: usize,
    /// The enabled hooks that never appeared in a decision's results, in file order.
    pub unexercised: Vec<Unexercised>,
}

impl Coverage {
    /// Enabled hooks that some case exercised.
    pub(crate) fn exercised(&self) -> usize {
        self.enabled.saturating_sub(self.unexercised.len())
    }
}

/// An enabled hook that no case exercised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unexercised {
    /// The hook's id.
    pub hook: String,
    /// The file it is written in, when not the policy file itself (it was included).
    pub file: Option<PathBuf>,
    /// The line of its entry in that file, when known.
    pub line: Option<usize>,
}

/// Runs test files, loading each policy once, and records which hooks ran.
#[derive(Debug)]
pub(crate) struct Runner {
    services: Arc<Services>,
    policies: Vec<PolicyRun>,
    by_path: HashMap<PathBuf, usize>,
}

#[derive(Debug)]
struct PolicyRun {
    path: PathBuf,
    loaded: Result<Loaded, Arc<ConfigError>>,
    exercised: HashSet<String>,
}

#[derive(Debug)]
struct Loaded {
    engine: Engine,
    /// The files the policy was composed from, for the lines of unexercised hooks.
    sources: Vec<config::SourceFile>,
}

impl Runner {
    /// A runner; its services are a dry run's unless `options.live_actions`.
    pub(crate) fn new(options: RunOptions) -> Runner {
        let services = if options.live_actions {
            Services::default()
        } else {
            Services::dry_run()
        };
        Runner {
            services: Arc::new(services),
            policies: Vec::new(),
            by_path: HashMap::new(),
        }
    }

    /// Runs every case of `file` against the policy at `policy`, in order.
    pub(crate) async fn run(&mut self, file: &TestFile, policy: &Path) -> FileReport {
        let started = Instant::now();
        let slot = self.policy(policy);
        // Named as the first file that used it named it, as coverage names it.
        let policy = self.policies[slot].path.clone();
        let engine = match &self.policies[slot].loaded {
            Ok(loaded) => loaded.engine.clone(),
            Err(error) => {
                return FileReport::error(
                    file.path.clone(),
                    Some(policy.clone()),
                    FileError::Policy {
                        path: Some(policy),
                        error: Arc::clone(error),
                    },
                );
            }
        };
        let mut results = Vec::with_capacity(file.cases.len());
        for case in &file.cases {
            let result = run_case(&engine, case).await;
            let exercised = &mut self.policies[slot].exercised;
            for r in &result.decision.results {
                if !exercised.contains(&r.hook) {
                    exercised.insert(r.hook.clone());
                }
            }
            results.push(result);
        }
        FileReport {
            file: file.path.clone(),
            policy: Some(policy),
            outcome: Ok(results),
            duration: started.elapsed(),
        }
    }

    /// The slot of the policy at `path`, loading it the first time.
    fn policy(&mut self, path: &Path) -> usize {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if let Some(slot) = self.by_path.get(&key) {
            return *slot;
        }
        let loaded = config::load_file(path)
            .map(|policy| Loaded {
                engine: Engine::with_services(
                    Arc::new(RuleGraph::from_policy(&policy)),
                    Arc::clone(&self.services),
                ),
                sources: policy.sources.clone(),
            })
            .map_err(Arc::new);
        self.policies.push(PolicyRun {
            path: path.to_path_buf(),
            loaded,
            exercised: HashSet::new(),
        });
        let slot = self.policies.len() - 1;
        self.by_path.insert(key, slot);
        slot
    }

    /// Per policy that loaded, in first-use order: the enabled hooks no case exercised.
    pub(crate) fn coverage(&self) -> Vec<Coverage> {
        self.policies
            .iter()
            .filter_map(|run| {
                let loaded = run.loaded.as_ref().ok()?;
                let mut enabled: Vec<_> = loaded
                    .engine
                    .graph()
                    .hooks()
                    .iter()
                    .map(|h| h.spec())
                    .filter(|spec| spec.enabled)
                    .collect();
                enabled.sort_by_key(|spec| spec.index);
                let missing: Vec<_> = enabled
                    .iter()
                    .filter(|spec| !run.exercised.contains(&spec.id))
                    .collect();
                // Lines only for files that have an unexercised hook: a positioned read
                // costs a parse.
                let unexercised = missing
                    .iter()
                    .map(|spec| {
                        let source = loaded.sources.iter().find(|s| s.path == spec.file);
                        let root = loaded.sources.first().is_none_or(|s| s.path == spec.file);
                        Unexercised {
                            hook: spec.id.clone(),
                            file: (!root).then(|| spec.file.to_path_buf()),
                            line: source.and_then(|s| s.positioned()).map(|parsed| {
                                parsed.spans.value(&format!("/hooks/{}", spec.index)).line
                            }),
                        }
                    })
                    .collect();
                Some(Coverage {
                    policy: run.path.clone(),
                    enabled: enabled.len(),
                    unexercised,
                })
            })
            .collect()
    }

    /// Waits for what the actions queued (log lines, notices) in a live run.
    pub(crate) async fn flush(&self) {
        if let Some(loaded) = self.policies.iter().find_map(|p| p.loaded.as_ref().ok()) {
            // The services are shared: one engine flushes them all.
            loaded.engine.flush().await;
        }
    }
}

/// Evaluates one case and judges the decision.
pub(crate) async fn run_case(engine: &Engine, case: &TestCase) -> CaseResult {
    let started = Instant::now();
    let decision = engine.evaluate(case.point, &case.context).await;
    CaseResult {
        name: case.name.clone(),
        line: case.line,
        failures: judge(&case.expect, &decision),
        decision,
        duration: started.elapsed(),
    }
}

/// What `decision` fails of `expect`, one line per unmet expectation (empty: it passed).
/// A wrong verdict is reported alone: the hook and message checks are moot then.
pub(crate) fn judge(expect: &Expectation, decision: &Decision) -> Vec<String> {
    if decision.decision != expect.verdict {
        return vec![format!(
            "expected {}, got {}",
            verdict_name(expect.verdict),
            describe(decision)
        )];
    }
    let mut failures = Vec::new();
    if let Some(hook) = &expect.hook
        && decision.hook.as_deref() != Some(hook.as_str())
    {
        failures.push(format!(
            "expected the decision by hook `{hook}`, got {}",
            describe(decision)
        ));
    }
    if let Some(part) = &expect.message
        && !decision
            .message
            .as_deref()
            .is_some_and(|m| m.contains(part.as_str()))
    {
        failures.push(format!(
            "expected the message to contain {part:?}, got {}",
            describe(decision)
        ));
    }
    failures
}

/// The decision in one line: `block by rm-guard: "..."`, `allow (hooks that ran: audit)`.
pub(crate) fn describe(decision: &Decision) -> String {
    match decision.decision {
        Verdict::Allow => {
            let ran: Vec<String> = decision
                .results
                .iter()
                .map(|r| {
                    if r.audit {
                        format!("{} (audit mode: would have blocked)", r.hook)
                    } else {
                        r.hook.clone()
                    }
                })
                .collect();
            if ran.is_empty() {
                "allow (no hook matched)".to_owned()
            } else {
                format!("allow (hooks that ran: {})", ran.join(", "))
            }
        }
        verdict => format!(
            "{} by {}: {:?}",
            verdict_name(verdict),
            decision.hook.as_deref().unwrap_or("(no hook)"),
            decision.message.as_deref().unwrap_or("")
        ),
    }
}

/// `allow`, `block` or `ask`.
pub(crate) fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Allow => "allow",
        Verdict::Block => "block",
        Verdict::Ask => "ask",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::HookContext;
    use crate::point::Point;

    fn decision(yaml: &str, command: &str) -> Decision {
        let policy = config::load_str(yaml, Path::new("HOOKS.yaml")).expect("policy");
        let engine = Engine::with_services(
            Arc::new(RuleGraph::from_policy(&policy)),
            Arc::new(Services::dry_run()),
        );
        let args = serde_json::json!({ "command": command });
        let ctx =
            HookContext::new("s").with_tool("exec", args.as_object().cloned().unwrap_or_default());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime");
        runtime.block_on(engine.evaluate(Point::TurnToolPre, &ctx))
    }

    const POLICY: &str = r#"
version: "1"
hooks:
  - { name: audit, point: turn:tool:pre, action: log }
  - name: rm-guard
    point: turn:tool:pre
    match: { tool: exec, commandPattern: '^rm\s' }
    action: block
    onFailure: { action: block, message: "recursive rm is not allowed" }
"#;

    fn expect(verdict: Verdict, hook: Option<&str>, message: Option<&str>) -> Expectation {
        Expectation {
            verdict,
            hook: hook.map(Into::into),
            message: message.map(Into::into),
        }
    }

    #[test]
    fn judging_checks_verdict_hook_and_message() {
        let blocked = decision(POLICY, "rm -rf /");
        let allowed = decision(POLICY, "ls");
        assert!(
            judge(
                &expect(Verdict::Block, Some("rm-guard"), Some("recursive")),
                &blocked
            )
            .is_empty()
        );
        assert!(judge(&expect(Verdict::Allow, None, None), &allowed).is_empty());
        assert_eq!(
            judge(&expect(Verdict::Allow, None, None), &blocked),
            [r#"expected allow, got block by rm-guard: "recursive rm is not allowed""#]
        );
        assert_eq!(
            judge(&expect(Verdict::Block, None, None), &allowed),
            ["expected block, got allow (hooks that ran: audit)"]
        );
        assert_eq!(
            judge(
                &expect(Verdict::Block, Some("other"), Some("forced")),
                &blocked
            ),
            [
                r#"expected the decision by hook `other`, got block by rm-guard: "recursive rm is not allowed""#,
                r#"expected the message to contain "forced", got block by rm-guard: "recursive rm is not allowed""#,
            ]
        );
    }
}
