//! Prometheus metrics: counters and the latency histogram through the `metrics` facade, plus
//! gauges describing the policy in force, rendered from the live state at scrape time (so a
//! replaced policy's hash never lingers as a stale series).

use std::fmt::Write as _;
use std::time::{Duration, SystemTime};

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::decision::Decision;
use crate::engine::Cause;
use crate::point::Point;
use crate::reload::PolicyStatus;

const DECISIONS: &str = "hookgate_decisions_total";
const LATENCY: &str = "hookgate_evaluation_duration_seconds";
const DEADLINE_EXCEEDED: &str = "hookgate_evaluation_deadline_exceeded_total";
const OVERLOADED: &str = "hookgate_evaluation_overloaded_total";
const FAILED: &str = "hookgate_evaluation_failures_total";

/// Histogram buckets for evaluation latency, in seconds: 5 µs to 5 s.
const LATENCY_BUCKETS: &[f64] = &[
    0.000_005, 0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005,
    0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// How often histogram samples are folded into buckets between scrapes (bounds memory).
pub(crate) const UPKEEP_INTERVAL: Duration = Duration::from_secs(5);

/// Installs the process-wide Prometheus recorder. `None` when another recorder is installed
/// already (the daemon then serves only the policy gauges).
pub(crate) fn install_recorder() -> Option<PrometheusHandle> {
    let builder = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(LATENCY.to_owned()), LATENCY_BUCKETS)
        .ok()?;
    match builder.install_recorder() {
        Ok(handle) => {
            describe();
            Some(handle)
        }
        Err(e) => {
            tracing::warn!(error = %e, "metrics recorder not installed");
            None
        }
    }
}

fn describe() {
    metrics::describe_counter!(
        DECISIONS,
        "Decisions by lifecycle point, verdict and deciding hook."
    );
    metrics::describe_histogram!(
        LATENCY,
        metrics::Unit::Seconds,
        "Time to evaluate one lifecycle point, actions included."
    );
    metrics::describe_counter!(
        DEADLINE_EXCEEDED,
        "Evaluations blocked because their checks ran over --eval-time-limit."
    );
    metrics::describe_counter!(
        OVERLOADED,
        "Evaluations blocked at once because every evaluation thread was busy and the queue full."
    );
    metrics::describe_counter!(
        FAILED,
        "Evaluations blocked because their checks failed (a panic, logged)."
    );
    metrics::describe_counter!(
        "hookgate_reloads_total",
        "Policy reload attempts by result (reloaded, unchanged, error)."
    );
}

/// Counts one decision and records its latency.
pub(crate) fn record(decision: &Decision, latency: Duration) {
    let hook = decision.hook.clone().unwrap_or_default();
    metrics::counter!(DECISIONS,
        "point" => decision.point.as_str(),
        "decision" => verdict_label(decision),
        "hook" => hook)
    .increment(1);
    metrics::histogram!(LATENCY, "point" => decision.point.as_str()).record(latency.as_secs_f64());
}

/// Counts an evaluation that got the fail-closed answer, by why.
pub(crate) fn fail_closed(point: Point, cause: Cause) {
    let name = match cause {
        Cause::TimeLimit(_) => DEADLINE_EXCEEDED,
        Cause::Overloaded => OVERLOADED,
        Cause::Failed => FAILED,
    };
    metrics::counter!(name, "point" => point.as_str()).increment(1);
}

fn verdict_label(decision: &Decision) -> &'static str {
    match decision.decision {
        crate::decision::Verdict::Allow => "allow",
        crate::decision::Verdict::Block => "block",
        crate::decision::Verdict::Ask => "ask",
    }
}

/// The exposition text: the recorder's series, then the policy gauges.
pub(crate) fn render(handle: Option<&PrometheusHandle>, status: &PolicyStatus) -> String {
    let mut out = handle.map(PrometheusHandle::render).unwrap_or_default();
    let loaded_at = unix_seconds(status.loaded_at_time);
    let _ = write!(
        out,
        "# HELP hookgate_policy_info The policy in force (always 1).\n\
         # TYPE hookgate_policy_info gauge\n\
         hookgate_policy_info{{path=\"{}\",hash=\"{}\"}} 1\n\
         # HELP hookgate_policy_hooks Hooks in the policy in force.\n\
         # TYPE hookgate_policy_hooks gauge\n\
         hookgate_policy_hooks {}\n\
         # HELP hookgate_policy_loaded_timestamp_seconds When the policy in force was loaded.\n\
         # TYPE hookgate_policy_loaded_timestamp_seconds gauge\n\
         hookgate_policy_loaded_timestamp_seconds {loaded_at}\n\
         # HELP hookgate_policy_reload_healthy 0 when the last reload failed and an older policy is in force.\n\
         # TYPE hookgate_policy_reload_healthy gauge\n\
         hookgate_policy_reload_healthy {}\n",
        label_value(&status.config.display().to_string()),
        label_value(&status.hash),
        status.hooks,
        u8::from(status.healthy),
    );
    out
}

fn unix_seconds(t: SystemTime) -> f64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Escapes a Prometheus label value (backslash, double quote, newline).
fn label_value(v: &str) -> String {
    v.replace('\\', r"\\")
        .replace('"', "\\\"")
        .replace('\n', r"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
