//! The decision log: one JSONL line per decision, with secret-looking tool arguments masked
//! and the characters a terminal would obey escaped ([`crate::terminal::escape_json`]).

use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::context::HookContext;
use crate::decision::{Decision, Verdict};
use crate::graph::iso_timestamp;
use crate::mask::FieldMask;
use crate::point::Point;

/// Where decisions are logged and what is masked.
#[derive(Debug, Clone)]
pub(crate) struct DecisionLog {
    /// The JSONL file.
    pub path: PathBuf,
    /// Fields hidden in tool arguments.
    pub mask: FieldMask,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Line<'a> {
    ts: String,
    point: Point,
    decision: Verdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    hook: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    trace_id: &'a str,
    latency_ms: f64,
    session_key: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<Map<String, Value>>,
    policy: &'a str,
    /// What this host could not see of the context's directories, when placing paths.
    #[serde(skip_serializing_if = "Option::is_none")]
    places_note: Option<String>,
}

impl DecisionLog {
    /// The JSONL line for one decision.
    pub(crate) fn line(
        &self,
        decision: &Decision,
        ctx: &HookContext,
        latency_ms: f64,
        policy_hash: &str,
    ) -> String {
        let line = Line {
            ts: iso_timestamp(crate::graph::now_ms()),
            point: decision.point,
            decision: decision.decision,
            hook: decision.hook.as_deref(),
            message: decision.message.as_deref(),
            trace_id: &decision.trace_id,
            latency_ms,
            session_key: &ctx.session_key,
            tool: ctx.tool_name.as_deref(),
            args: ctx.tool_args.as_ref().map(|a| self.mask.apply(a)),
            policy: policy_hash,
            places_note: crate::matcher::places::unseen(ctx),
        };
        // JSON escapes only U+0000-U+001F; `tail -f` of the log must not obey the rest either.
        crate::terminal::into_escaped_json(serde_json::to_string(&line).unwrap_or_default())
    }
}
