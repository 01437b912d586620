//! The live policy: the graph in force, replaced atomically when its file changes.
//!
//! A reload reads the file, hashes it, and when the content is new, validates and compiles it
//! on a blocking thread, off the request path. Only a graph that compiled is swapped in; an
//! invalid file leaves the last good one in force and is reported ([`LivePolicy::status`],
//! the log, and the `hookgate_reloads_total{result="error"}` metric). Evaluations hold an
//! `Arc` to the policy they started with, so a swap never changes a decision in flight.

#[cfg(feature = "server")]
mod watch;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use arc_swap::ArcSwap;
use serde::Serialize;

#[cfg(feature = "server")]
pub use watch::{PolicyWatcher, WatchError};

use crate::actions::Services;
use crate::config::{self, ConfigError, Diagnostic, Touched, YamlBudget};
use crate::engine::Engine;
use crate::graph::{RuleGraph, iso_timestamp};

/// The policy in force: its engine and where it came from.
#[derive(Debug)]
pub struct ActivePolicy {
    engine: Engine,
    hash: String,
    loaded_at: SystemTime,
    files: Vec<PolicyFile>,
    warnings: Vec<Diagnostic>,
}

impl ActivePolicy {
    fn new(policy: &config::LoadedPolicy, services: Arc<Services>) -> ActivePolicy {
        let graph = RuleGraph::from_policy(policy);
        // Before the policy is in force (a reload keeps the old one meanwhile), so its first
        // calls are not the ones that build its matchers, against the time limit.
        graph.warm();
        ActivePolicy {
            engine: Engine::with_services(Arc::new(graph), services),
            hash: policy.hash(),
            loaded_at: SystemTime::now(),
            files: policy
                .sources
                .iter()
                .map(|s| PolicyFile {
                    path: s.path.to_path_buf(),
                    role: s.role,
                })
                .collect(),
            warnings: policy.warnings.clone(),
        }
    }

    /// The engine over this policy's graph.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }
    /// `sha256:<hex>` of the file's bytes (of every file's path and bytes when it includes
    /// or discovers others).
    pub fn hash(&self) -> &str {
        &self.hash
    }
    /// When this policy was swapped in.
    pub fn loaded_at(&self) -> SystemTime {
        self.loaded_at
    }
}

/// What asked for a reload (reported in the log, the status and the metrics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReloadTrigger {
    /// The file watcher saw the file (or its directory entry) change.
    Watch,
    /// SIGHUP.
    Signal,
    /// `POST /v1/reload` or a library call.
    Request,
}

/// How a reload ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum ReloadOutcome {
    /// A new policy is in force.
    Reloaded {
        /// Its hash.
        hash: String,
        /// Its hook count.
        hooks: usize,
    },
    /// The file holds the policy already in force; nothing changed.
    Unchanged {
        /// The hash in force.
        hash: String,
    },
    /// The policy could not be loaded; the previous policy stays in force.
    #[serde(rename = "error")]
    Failed {
        /// What went wrong, with every problem's line and column.
        error: ReloadError,
    },
}

impl ReloadOutcome {
    /// `reloaded`, `unchanged` or `error` (the metric label).
    pub fn label(&self) -> &'static str {
        match self {
            ReloadOutcome::Reloaded { .. } => "reloaded",
            ReloadOutcome::Unchanged { .. } => "unchanged",
            ReloadOutcome::Failed { .. } => "error",
        }
    }
}

/// Why a policy file could not be loaded, in a form the status endpoint can show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReloadError {
    /// One line for the log.
    pub message: String,
    /// Every problem, with file, line, column and field path (empty for read errors).
    pub diagnostics: Vec<Diagnostic>,
}

impl From<&ConfigError> for ReloadError {
    fn from(e: &ConfigError) -> Self {
        ReloadError {
            message: e.to_string(),
            diagnostics: e.diagnostics().to_vec(),
        }
    }
}

/// The last reload attempt.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReloadReport {
    /// When it ended (ISO 8601).
    pub at: String,
    /// What asked for it.
    pub trigger: ReloadTrigger,
    /// How it ended.
    #[serde(flatten)]
    pub outcome: ReloadOutcome,
}

/// A snapshot of the live policy for `/v1/status`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyStatus {
    /// The policy file.
    pub config: PathBuf,
    /// Every file of the policy in force, the root first.
    pub files: Vec<PolicyFile>,
    /// Problems of the policy in force that did not stop its load (a discovered file
    /// skipped, a conflict between files).
    pub warnings: Vec<Diagnostic>,
    /// The hash of the policy in force.
    pub hash: String,
    /// When it was swapped in (ISO 8601).
    pub loaded_at: String,
    /// The same instant, for gauges.
    #[serde(skip)]
    pub loaded_at_time: SystemTime,
    /// Its hook count (enabled and disabled).
    pub hooks: usize,
    /// false when the last reload failed: the file on disk is not the policy in force.
    pub healthy: bool,
    /// The last reload attempt, if any since start.
    pub last_reload: Option<ReloadReport>,
    /// The last failed attempt, if any since start.
    pub last_error: Option<ReloadReport>,
}

/// One file of the policy in force.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyFile {
    /// Its path.
    pub path: PathBuf,
    /// root, included or discovered.
    pub role: config::SourceRole,
}

#[derive(Debug, Default)]
struct History {
    last: Option<ReloadReport>,
    last_error: Option<ReloadReport>,
}

/// A policy file and the graph compiled from it, kept current by [`LivePolicy::reload`].
#[derive(Debug)]
pub struct LivePolicy {
    path: PathBuf,
    budget: YamlBudget,
    services: Arc<Services>,
    active: ArcSwap<ActivePolicy>,
    /// Serialises reloads, so an older file can never be swapped in after a newer one.
    reloading: tokio::sync::Mutex<()>,
    history: Mutex<History>,
    /// What the last load attempt read: the watcher's set of files and directories.
    touched: Mutex<Touched>,
    /// Notified after each load attempt, so the watcher follows `touched`.
    loaded: tokio::sync::Notify,
}

impl LivePolicy {
    /// Loads the policy at `path`; fails when it is not valid (there is no good policy yet).
    pub fn load(path: &Path, services: Arc<Services>) -> Result<LivePolicy, ConfigError> {
        let budget = YamlBudget::default();
        let (policy, touched) = config::load_file_tracked(path, &budget);
        let policy = policy?;
        log_warnings(&policy.warnings);
        let active = ActivePolicy::new(&policy, Arc::clone(&services));
        Ok(LivePolicy {
            path: path.to_path_buf(),
            budget,
            services,
            active: ArcSwap::from_pointee(active),
            reloading: tokio::sync::Mutex::new(()),
            history: Mutex::new(History::default()),
            touched: Mutex::new(touched),
            loaded: tokio::sync::Notify::new(),
        })
    }

    /// The files and directories the last load attempt read, successful or not.
    pub fn touched(&self) -> Touched {
        self.touched
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The policy file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The policy in force. Hold the `Arc` for the whole evaluation: a reload meanwhile does
    /// not affect it.
    pub fn current(&self) -> Arc<ActivePolicy> {
        self.active.load_full()
    }

    /// The services shared by every policy this live policy has held.
    pub fn services(&self) -> &Arc<Services> {
        &self.services
    }

    /// Re-reads the file and swaps in the new policy if it is valid and different.
    pub async fn reload(&self, trigger: ReloadTrigger) -> ReloadOutcome {
        let _serial = self.reloading.lock().await;
        let path = self.path.clone();
        let budget = self.budget;
        let current_hash = self.current().hash.clone();
        let services = Arc::clone(&self.services);
        let built = tokio::task::spawn_blocking(move || {
            let (policy, touched) = config::load_file_tracked(&path, &budget);
            let built = policy.map(|policy| {
                let hash = policy.hash();
                if hash == current_hash {
                    return Built::Same(hash);
                }
                log_warnings(&policy.warnings);
                Built::New(Box::new(ActivePolicy::new(&policy, services)))
            });
            (built, touched)
        })
        .await;
        let built = built.map(|(built, touched)| {
            *self.touched.lock().unwrap_or_else(PoisonError::into_inner) = touched;
            self.loaded.notify_one();
            built
        });
        let outcome = match built {
            Ok(Ok(Built::Same(hash))) => ReloadOutcome::Unchanged { hash },
            Ok(Ok(Built::New(active))) => {
                let hooks = active.engine.graph().hooks().len();
                let hash = active.hash.clone();
                self.active.store(Arc::from(active));
                ReloadOutcome::Reloaded { hash, hooks }
            }
            Ok(Err(error)) => ReloadOutcome::Failed {
                error: ReloadError::from(&error),
            },
            Err(join) => ReloadOutcome::Failed {
                error: ReloadError {
                    message: format!("the reload task failed: {join}"),
                    diagnostics: Vec::new(),
                },
            },
        };
        self.record(trigger, &outcome);
        outcome
    }

    fn record(&self, trigger: ReloadTrigger, outcome: &ReloadOutcome) {
        metrics::counter!("hookgate_reloads_total", "result" => outcome.label()).increment(1);
        match outcome {
            ReloadOutcome::Reloaded { hash, hooks } => {
                tracing::info!(?trigger, %hash, hooks, path = %self.path.display(), "policy reloaded");
            }
            ReloadOutcome::Unchanged { .. } => {
                tracing::debug!(?trigger, path = %self.path.display(), "policy unchanged");
            }
            ReloadOutcome::Failed { error } => {
                let first = error
                    .diagnostics
                    .first()
                    .map(|d| format!("{}:{}: {}: {}", d.line(), d.column(), d.path(), d.message()));
                tracing::warn!(
                    ?trigger,
                    path = %self.path.display(),
                    error = %error.message,
                    first_problem = first.as_deref().unwrap_or(""),
                    "policy reload failed; the previous policy stays in force"
                );
            }
        }
        let report = ReloadReport {
            at: iso_timestamp(crate::graph::now_ms()),
            trigger,
            outcome: outcome.clone(),
        };
        let mut history = self.history.lock().unwrap_or_else(PoisonError::into_inner);
        if matches!(outcome, ReloadOutcome::Failed { .. }) {
            history.last_error = Some(report.clone());
        }
        history.last = Some(report);
    }

    /// What is in force and how the last reload went.
    pub fn status(&self) -> PolicyStatus {
        let active = self.current();
        let history = self.history.lock().unwrap_or_else(PoisonError::into_inner);
        PolicyStatus {
            config: self.path.clone(),
            files: active.files.clone(),
            warnings: active.warnings.clone(),
            hash: active.hash.clone(),
            loaded_at: iso_timestamp(system_time_ms(active.loaded_at)),
            loaded_at_time: active.loaded_at,
            hooks: active.engine.graph().hooks().len(),
            healthy: !matches!(
                history.last.as_ref().map(|r| &r.outcome),
                Some(ReloadOutcome::Failed { .. })
            ),
            last_reload: history.last.clone(),
            last_error: history.last_error.clone(),
        }
    }
}

enum Built {
    Same(String),
    New(Box<ActivePolicy>),
}

/// Reports a loaded policy's warnings (a skipped discovered file, a conflict) in the log.
fn log_warnings(warnings: &[Diagnostic]) {
    for warning in warnings {
        tracing::warn!(file = %warning.file().display(), line = warning.line(), column = warning.column(), "{}", warning.message());
    }
}

fn system_time_ms(t: SystemTime) -> f64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::content_hash;

    const GOOD: &str =
        "version: \"1\"\nhooks:\n  - name: a\n    point: turn:pre\n    action: block\n";
    const OTHER: &str =
        "version: \"1\"\nhooks:\n  - name: b\n    point: turn:pre\n    action: log\n";

    fn live(dir: &tempfile::TempDir, text: &str) -> (PathBuf, LivePolicy) {
        let path = dir.path().join("HOOKS.yaml");
        std::fs::write(&path, text).unwrap();
        let live = LivePolicy::load(&path, Arc::new(Services::default())).unwrap();
        (path, live)
    }

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn hash_is_sha256_of_the_text() {
        assert_eq!(
            content_hash(""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn reload_swaps_a_valid_new_file_and_reports_unchanged_content() {
        let dir = tempfile::tempdir().unwrap();
        let (path, live) = live(&dir, GOOD);
        let before = live.current();
        let rt = rt();
        assert!(matches!(
            rt.block_on(live.reload(ReloadTrigger::Request)),
            ReloadOutcome::Unchanged { .. }
        ));
        std::fs::write(&path, OTHER).unwrap();
        let outcome = rt.block_on(live.reload(ReloadTrigger::Request));
        assert_eq!(
            outcome,
            ReloadOutcome::Reloaded {
                hash: content_hash(OTHER),
                hooks: 1
            }
        );
        // The old Arc still holds the old graph: evaluations in flight keep their policy.
        assert_eq!(before.engine().graph().hooks()[0].id(), "a");
        assert_eq!(live.current().engine().graph().hooks()[0].id(), "b");
        assert!(live.status().healthy);
    }

    #[test]
    fn an_invalid_file_keeps_the_last_good_policy_until_fixed() {
        let dir = tempfile::tempdir().unwrap();
        let (path, live) = live(&dir, GOOD);
        let rt = rt();
        let bad = "version: \"1\"\nhooks:\n  - name: a\n    point: nope\n    action: block\n";
        std::fs::write(&path, bad).unwrap();
        let outcome = rt.block_on(live.reload(ReloadTrigger::Watch));
        let ReloadOutcome::Failed { error } = outcome else {
            panic!("expected a failure, got {outcome:?}");
        };
        assert_eq!(error.diagnostics[0].line(), 4);
        assert_eq!(live.current().hash(), content_hash(GOOD));
        let status = live.status();
        assert!(!status.healthy);
        assert_eq!(status.last_error.unwrap().trigger, ReloadTrigger::Watch);

        std::fs::write(&path, OTHER).unwrap();
        assert_eq!(
            rt.block_on(live.reload(ReloadTrigger::Watch)).label(),
            "reloaded"
        );
        let status = live.status();
        assert!(status.healthy);
        assert!(status.last_error.is_some(), "the last error stays visible");
    }

    #[test]
    fn a_missing_file_is_a_failed_reload_not_an_empty_policy() {
        let dir = tempfile::tempdir().unwrap();
        let (path, live) = live(&dir, GOOD);
        std::fs::remove_file(&path).unwrap();
        let outcome = rt().block_on(live.reload(ReloadTrigger::Signal));
        assert_eq!(outcome.label(), "error");
        assert_eq!(live.current().engine().graph().hooks().len(), 1);
    }
}
