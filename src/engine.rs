//! The engine: evaluate a lifecycle point against the rule graph.
//!
//! Semantics follow the seed plugin exactly (docs/hooks-reference.md, "Decision semantics"):
//! candidates in priority then file order, filters AND together, actions run in turn, the
//! first result that does not pass ends the chain, and failures follow `onFailure`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use compact_str::CompactString;

use crate::actions::{self, Invocation, Outcome, Services};
use crate::config::{FailureAction, Mode, OnFailure};
use crate::context::HookContext;
use crate::decision::{Decision, HookResult, Verdict};
use crate::graph::{RuleGraph, now_ms};
use crate::matcher::{self, Filter};
pub(crate) use checks::Checked;
use checks::Checks;
#[cfg(feature = "server")]
pub(crate) use pool::PoolConfig;
pub(crate) use pool::{Cause, EvalPool};

mod checks;
pub(crate) mod pool;
use crate::notify::Notice;
use crate::point::Point;

/// Retries of `onFailure: retry` when `retries` is not set.
const DEFAULT_RETRIES: u32 = 3;
/// The longest [`Engine::flush`] waits for notifications to be delivered.
pub(crate) const NOTIFY_FLUSH_LIMIT: Duration = Duration::from_secs(3);
/// The first retry waits this long; each further retry doubles it.
const RETRY_BASE: Duration = Duration::from_millis(100);

/// Evaluates lifecycle points against a compiled policy. Cheap to clone and share.
#[derive(Debug, Clone)]
pub struct Engine {
    graph: Arc<RuleGraph>,
    services: Arc<Services>,
}

/// How to evaluate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EvalOptions {
    /// `require_approval` waits for the human's decision (or the timeout) instead of
    /// answering `ask` at once.
    pub wait_for_approval: bool,
}

/// What happened to one candidate hook, for explanations (`hookgate check`).
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The hook's filters rejected the context; names the first filter that failed.
    Skipped {
        /// The hook's id.
        hook: String,
        /// The filter that did not match.
        filter: Filter,
    },
    /// The hook matched and its action ran; the result is `results[result]` of the decision.
    Fired {
        /// The hook's id.
        hook: String,
        /// Index into [`Decision::results`].
        result: usize,
    },
}

impl Engine {
    /// An engine over `graph` with default services (log writer, notifications to the log).
    pub fn new(graph: Arc<RuleGraph>) -> Engine {
        Engine {
            graph,
            services: Arc::new(Services::default()),
        }
    }

    /// An engine over `graph` that shares `services` (e.g. with the engine it replaces).
    pub fn with_services(graph: Arc<RuleGraph>, services: Arc<Services>) -> Engine {
        Engine { graph, services }
    }

    /// The compiled policy.
    pub fn graph(&self) -> &Arc<RuleGraph> {
        &self.graph
    }

    /// The shared services.
    pub fn services(&self) -> &Arc<Services> {
        &self.services
    }

    /// Evaluates `point` for `ctx`. Never panics on input and never fails: every action error
    /// is turned into a result by the hook's `onFailure` policy.
    pub async fn evaluate(&self, point: Point, ctx: &HookContext) -> Decision {
        self.run(point, ctx, None, EvalOptions::default()).await
    }

    /// [`Engine::evaluate`], also returning what happened to each candidate hook.
    pub async fn explain(&self, point: Point, ctx: &HookContext) -> (Decision, Vec<Step>) {
        let mut steps = Vec::new();
        let decision = self
            .run(point, ctx, Some(&mut steps), EvalOptions::default())
            .await;
        (decision, steps)
    }

    /// Waits until every log line queued so far is written, and (for at most
    /// [`NOTIFY_FLUSH_LIMIT`]) until queued notifications are handled. Call it before a
    /// one-shot process exits.
    pub async fn flush(&self) {
        self.services.log.flush().await;
        if let Some(done) = self.services.notifier.flush() {
            let _ = tokio::time::timeout(NOTIFY_FLUSH_LIMIT, done).await;
        }
    }

    /// [`Engine::evaluate`] with options.
    pub async fn evaluate_with(
        &self,
        point: Point,
        ctx: &HookContext,
        options: EvalOptions,
    ) -> Decision {
        self.run(point, ctx, None, options).await
    }

    /// [`Engine::evaluate_with`] after the filters were checked by [`check_all`] (on this
    /// engine's graph): only the hooks that passed them are visited.
    pub async fn evaluate_checked(
        &self,
        point: Point,
        ctx: &HookContext,
        passed: Vec<Checked>,
        options: EvalOptions,
    ) -> Decision {
        self.run_checked(point, ctx, None, options, Some(passed))
            .await
    }

    /// [`Engine::evaluate_with`] for the daemon: the filters are checked on `pool` (or here,
    /// for a light call) within the pool's time limit, then the hooks that passed fire here.
    /// Past the limit, or when the pool is full, the call gets the fail-closed answer: a
    /// block whose message says why, with no hook and no results.
    pub async fn evaluate_bounded(
        &self,
        point: Point,
        ctx: &HookContext,
        options: EvalOptions,
        pool: &EvalPool,
    ) -> Result<Decision, FailClosed> {
        match pool.check(&self.graph, point, ctx).await {
            Ok(passed) => Ok(self.evaluate_checked(point, ctx, passed, options).await),
            Err(cause) => Err(FailClosed {
                decision: self.fail_closed(point, ctx, cause),
                cause,
            }),
        }
    }

    /// The answer when the gate could not decide: block, saying why.
    fn fail_closed(&self, point: Point, ctx: &HookContext, cause: Cause) -> Decision {
        Decision {
            point,
            decision: Verdict::Block,
            passed: false,
            message: Some(cause.message()),
            hook: None,
            mode: self.graph.mode(),
            results: Vec::new(),
            injected_context: Vec::new(),
            notifications: Vec::new(),
            params: None,
            approval: None,
            trace_id: match &ctx.trace_id {
                Some(given) => CompactString::from(given.as_str()),
                None => trace_id(ctx, now_ms()),
            },
        }
    }

    async fn run(
        &self,
        point: Point,
        ctx: &HookContext,
        steps: Option<&mut Vec<Step>>,
        options: EvalOptions,
    ) -> Decision {
        self.run_checked(point, ctx, steps, options, None).await
    }

    async fn run_checked(
        &self,
        point: Point,
        ctx: &HookContext,
        mut steps: Option<&mut Vec<Step>>,
        options: EvalOptions,
        checked: Option<Vec<Checked>>,
    ) -> Decision {
        let graph = &*self.graph;
        // One clock read serves the templates' timestamp and the trace id.
        let now = now_ms();
        let timestamp_ms = ctx.timestamp.unwrap_or(now);
        let mut results = Vec::new();
        let mut injected_context = Vec::new();
        let mut notifications = Vec::new();
        let mut params = None;
        let mut approval = None;
        let mut blocked = false;

        let mut checks = match checked {
            Some(passed) => Checks::done(graph, passed),
            None => Checks::lazy(graph, point, ctx, steps.is_some()),
        };
        while let Some((hook, mut accepted)) = checks.next() {
            if let (Ok(()), Some(program)) = (accepted, hook.spec().filter.custom.as_deref()) {
                let timeout = hook
                    .spec()
                    .timeout_ms
                    .map_or(matcher::custom::DEFAULT_TIMEOUT, Duration::from_millis);
                let path = hook.resolve_path(program);
                // Boxed, like `fire` below: the evaluation future stays small for the
                // common path, where no hook fires and nothing else is awaited.
                let custom = Box::pin(matcher::custom::matches(
                    hook.id(),
                    &path,
                    ctx,
                    point,
                    timeout,
                ));
                if !custom.await {
                    accepted = Err(Filter::Custom);
                }
            }
            if let Err(filter) = accepted {
                if let Some(steps) = steps.as_deref_mut() {
                    steps.push(Step::Skipped {
                        hook: hook.id().to_owned(),
                        filter,
                    });
                }
                continue;
            }
            let inv = Invocation {
                hook,
                ctx,
                point,
                timestamp_ms,
                graph,
                services: &self.services,
                wait_for_approval: options.wait_for_approval,
            };
            let Fired {
                mut result,
                injected,
                notice,
                params: new_params,
                approval: new_approval,
            } = Box::pin(self.fire(&inv)).await;
            approval = new_approval;
            injected_context.extend(injected);
            if new_params.is_some() {
                params = new_params;
            }
            if let Some(message) = notice {
                let notice = Notice {
                    hook: hook.id().to_owned(),
                    point,
                    session_key: ctx.session_key.clone(),
                    fallback_target: graph.defaults().notification_target.clone(),
                    message,
                    channels: graph.notify_channels(),
                };
                self.services.notify(notice.clone());
                notifications.push(notice);
            }
            if let Some(steps) = steps.as_deref_mut() {
                steps.push(Step::Fired {
                    hook: hook.id().to_owned(),
                    result: results.len(),
                });
            }
            let note = if result.passed {
                None
            } else {
                checks.note(hook)
            };
            if let Some(note) = note {
                result.message = Some(match result.message.take() {
                    Some(m) => format!("{m} {note}"),
                    None => note,
                });
            }
            let stop = !result.passed;
            results.push(result);
            if stop {
                blocked = true;
                break;
            }
        }

        let decider = results.last().filter(|_| blocked);
        Decision {
            point,
            decision: match (blocked, &approval) {
                (true, Some(_)) => Verdict::Ask,
                (true, None) => Verdict::Block,
                (false, _) => Verdict::Allow,
            },
            passed: !blocked,
            message: decider.and_then(|r| r.message.clone()),
            hook: decider.map(|r| r.hook.clone()),
            mode: graph.mode(),
            results,
            injected_context,
            notifications,
            params: params.map(serde_json::Value::Object),
            approval: approval
                .filter(|_| blocked)
                .and_then(|a| serde_json::to_value(a).ok()),
            trace_id: match &ctx.trace_id {
                Some(given) => CompactString::from(given.as_str()),
                None => trace_id(ctx, now),
            },
        }
    }

    /// Runs one matching hook to its final result: the action, then `onFailure`, then audit.
    /// Also returns what else the hook produced: injected content, a notice, parameters.
    async fn fire(&self, inv: &Invocation<'_>) -> Fired {
        let started = Instant::now();
        let spec = inv.hook.spec();
        let action = spec.action.label();
        let mut outcome = actions::run(inv).await;
        if let Outcome::Fail(report) = &outcome {
            // A failure follows the hook's own onFailure (default block); anything but block
            // re-routes it through the error path with the message as the error. A held call
            // is not a failure.
            let own = spec
                .on_failure
                .as_ref()
                .map_or(FailureAction::Block, |f| f.action);
            if own != FailureAction::Block {
                let error = report
                    .message
                    .clone()
                    .unwrap_or_else(|| "Action returned passed=false".to_owned());
                outcome = self.on_error(inv, &error).await;
            }
        }
        let audit = !outcome.is_pass() && spec.mode == Mode::Audit;
        let passed = outcome.is_pass();
        let (report, approval) = match outcome {
            Outcome::Pass(report) | Outcome::Fail(report) => (report, None),
            // An audited request asks nobody.
            Outcome::Held(report, request) => (report, Some(*request).filter(|_| !audit)),
        };
        let result = HookResult {
            hook: spec.id.clone(),
            action: action.to_owned(),
            passed: passed || audit,
            message: report.message,
            duration_ms: started.elapsed().as_secs_f64() * 1000.0,
            audit,
        };
        Fired {
            result,
            injected: report.injected,
            notice: report.notice,
            params: report.params,
            approval,
        }
    }

    /// The error path: `hook.onFailure ?? defaults.onFailure`, default continue.
    async fn on_error(&self, inv: &Invocation<'_>, error: &str) -> Outcome {
        let spec = inv.hook.spec();
        let policy: Option<&OnFailure> =
            spec.on_failure
                .as_ref()
                .or(inv.graph.defaults().on_failure.as_ref());
        let action = policy.map_or(FailureAction::Continue, |p| p.action);
        let custom_message = || match &spec.on_failure {
            Some(_) => inv.failure_message(),
            None => inv.graph.defaults_failure_message().map(|t| inv.render(t)),
        };
        match action {
            FailureAction::Block => Outcome::fail(
                custom_message().unwrap_or_else(|| format!("Hook action failed: {error}")),
            ),
            FailureAction::Retry => {
                let retries = policy.and_then(|p| p.retries).unwrap_or(DEFAULT_RETRIES);
                retry(inv, retries, error).await
            }
            FailureAction::Notify => {
                let notice = custom_message().unwrap_or_else(|| {
                    format!("Hook action \"{}\" failed: {error}", spec.action.label())
                });
                Outcome::pass(format!("Action failed (user notified): {error}"))
                    .with_notice(Some(notice))
            }
            FailureAction::Continue => {
                Outcome::pass(format!("Action failed (continuing): {error}"))
            }
        }
    }
}

/// Runs the action again up to `retries` times, waiting 100·2^(n−1) ms before attempt n; the
/// first pass wins. Exhausted retries pass with the original error.
async fn retry(inv: &Invocation<'_>, retries: u32, error: &str) -> Outcome {
    for attempt in 1..=retries {
        let wait = RETRY_BASE.saturating_mul(1u32.checked_shl(attempt - 1).unwrap_or(u32::MAX));
        tokio::time::sleep(wait).await;
        if let Outcome::Pass(mut report) = actions::run(inv).await {
            let message = format!(
                "Succeeded on retry {attempt}: {}",
                report.message.take().unwrap_or_default()
            );
            report.message = Some(message.trim().to_owned());
            return Outcome::Pass(report);
        }
    }
    Outcome::pass(format!("Action failed after {retries} retries: {error}"))
}

/// An evaluation that could not decide, and the fail-closed decision it got instead.
#[derive(Debug, Clone)]
pub struct FailClosed {
    /// The block to answer with.
    pub decision: Decision,
    /// Why it was not decided.
    pub cause: Cause,
}

/// One hook's final result and what else it produced.
struct Fired {
    result: HookResult,
    injected: Option<String>,
    notice: Option<String>,
    params: Option<serde_json::Map<String, serde_json::Value>>,
    approval: Option<crate::approvals::ApprovalRequest>,
}

/// `t<topic|none>-<ms>-<4 random base-36 chars>`, the seed's trace id shape; without a topic
/// it fits [`CompactString`]'s inline capacity (24 bytes), so no allocation.
fn trace_id(ctx: &HookContext, now_ms: f64) -> CompactString {
    use std::fmt::Write;
    use std::hash::BuildHasher;
    // A fresh RandomState is randomly keyed: enough entropy for a correlation id.
    let mut n = std::collections::hash_map::RandomState::new().hash_one(0u8);
    let mut id = CompactString::const_new("t");
    match ctx.topic_text() {
        Some(topic) => id.push_str(&topic),
        None => id.push_str("none"),
    }
    let _ = write!(id, "-{}-", now_ms as u64);
    for _ in 0..4 {
        id.push(char::from_digit((n % 36) as u32, 36).unwrap_or('0'));
        n /= 36;
    }
    id
}
