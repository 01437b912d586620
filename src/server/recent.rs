//! The recent decisions: an in-memory ring of the last [`CAPACITY`] decisions the daemon made
//! over HTTP, for the console and `GET /v1/decisions`.
//!
//! It is a live view, not a record: the oldest entries are dropped as new ones come, and
//! nothing survives a restart (`--decision-log` is the record). What is kept is bounded
//! twice over, in count and in size, so hostile input cannot grow it: strings are clipped and
//! tool arguments are copied only up to a budget, with secret-looking fields masked by the
//! same [`FieldMask`] as the decision log.
//!
//! The request path pays for building one record and one short mutex section (a sequence
//! number and a push into a preallocated deque). Readers clone `Arc`s under the lock and
//! serialize outside it.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::context::HookContext;
use crate::decision::{Decision, Verdict};
use crate::graph::iso_timestamp;
use crate::mask::{FieldMask, MASKED};
use crate::point::Point;

/// Decisions kept.
pub(crate) const CAPACITY: usize = 500;

/// Longest subject kept, in characters (a command can be a whole script).
const SUBJECT_CHARS: usize = 256;
/// Longest message kept, in characters.
const MESSAGE_CHARS: usize = 512;
/// Longest name kept (hook, tool, session key, trace id), in characters.
const NAME_CHARS: usize = 128;
/// Longest string inside the copied tool arguments, in characters.
const ARG_CHARS: usize = 256;
/// Values copied from the tool arguments, at most; the rest is summarised.
const ARG_VALUES: usize = 64;
/// Nesting copied from the tool arguments, at most.
const ARG_DEPTH: usize = 4;
/// What marks a clipped string or a cut-off part of the arguments.
const CLIPPED: &str = "…";

/// One decision, as the console shows it.
#[derive(Debug)]
pub(crate) struct Recent {
    at_ms: f64,
    point: Point,
    decision: Verdict,
    hook: Option<String>,
    message: Option<String>,
    latency_ms: f64,
    session_key: String,
    tool: Option<String>,
    subject: String,
    args: Option<Map<String, Value>>,
    trace_id: String,
}

impl Recent {
    /// The record of `decision` on `ctx`, bounded and masked.
    pub(crate) fn new(
        decision: &Decision,
        ctx: &HookContext,
        latency_ms: f64,
        mask: &FieldMask,
    ) -> Recent {
        Recent {
            at_ms: crate::graph::now_ms(),
            point: decision.point,
            decision: decision.decision,
            hook: decision.hook.as_deref().map(|h| clip(h, NAME_CHARS)),
            message: decision.message.as_deref().map(|m| clip(m, MESSAGE_CHARS)),
            latency_ms,
            session_key: clip(&ctx.session_key, NAME_CHARS),
            tool: ctx.tool_name.as_deref().map(|t| clip(t, NAME_CHARS)),
            subject: subject(ctx, mask),
            args: ctx.tool_args.as_ref().map(|a| {
                let mut budget = ARG_VALUES;
                bounded_map(a, mask, ARG_DEPTH, &mut budget)
            }),
            trace_id: clip(&decision.trace_id, NAME_CHARS),
        }
    }
}

/// The command subject, clipped; masked when the argument it comes from is a masked field
/// (a `--mask-fields url` hides `toolArgs.url` here as in the log).
fn subject(ctx: &HookContext, mask: &FieldMask) -> String {
    let subject = ctx.command_subject();
    let from_masked_field = ctx.tool_args.as_ref().is_some_and(|args| {
        // The subject borrows from one of the arguments: find which by address, so the
        // order of candidate fields stays defined in one place (`command_subject`).
        args.iter().any(|(k, v)| {
            matches!(v, Value::String(s) if std::ptr::eq(s.as_str(), subject)) && mask.hides(k)
        })
    });
    if from_masked_field {
        MASKED.to_owned()
    } else {
        clip(subject, SUBJECT_CHARS)
    }
}

/// `text` cut to `max` characters, with [`CLIPPED`] appended when it was cut.
fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((end, _)) => {
            let mut out = String::with_capacity(end + CLIPPED.len());
            out.push_str(&text[..end]);
            out.push_str(CLIPPED);
            out
        }
    }
}

/// A masked copy of `map`, of at most `budget` values and `depth` levels (`map`'s included).
fn bounded_map(
    map: &Map<String, Value>,
    mask: &FieldMask,
    depth: usize,
    budget: &mut usize,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, v) in map {
        if *budget == 0 {
            out.insert(
                CLIPPED.to_owned(),
                Value::String(more(map.len() - out.len())),
            );
            break;
        }
        *budget -= 1;
        let v = if mask.hides(k) {
            Value::String(MASKED.to_owned())
        } else {
            bounded_value(v, mask, depth.saturating_sub(1), budget)
        };
        out.insert(clip(k, NAME_CHARS), v);
    }
    out
}

/// A masked copy of `value` within `depth` levels (its own included) and the `budget`.
fn bounded_value(value: &Value, mask: &FieldMask, depth: usize, budget: &mut usize) -> Value {
    match value {
        Value::String(s) => Value::String(clip(s, ARG_CHARS)),
        Value::Object(_) | Value::Array(_) if depth == 0 => Value::String(CLIPPED.to_owned()),
        Value::Object(map) => Value::Object(bounded_map(map, mask, depth, budget)),
        Value::Array(items) => {
            let mut out = Vec::new();
            for item in items {
                if *budget == 0 {
                    out.push(Value::String(more(items.len() - out.len())));
                    break;
                }
                *budget -= 1;
                out.push(bounded_value(item, mask, depth.saturating_sub(1), budget));
            }
            Value::Array(out)
        }
        other => other.clone(),
    }
}

fn more(n: usize) -> String {
    format!("{CLIPPED} {n} more")
}

/// The ring itself.
#[derive(Debug)]
pub(crate) struct RecentDecisions {
    ring: Mutex<Ring>,
}

#[derive(Debug)]
struct Ring {
    /// Oldest first, each with its sequence number.
    items: VecDeque<(u64, Arc<Recent>)>,
    /// The sequence number of the newest record (0: none yet).
    last: u64,
}

impl Default for RecentDecisions {
    fn default() -> Self {
        RecentDecisions {
            ring: Mutex::new(Ring {
                // Allocated once: a push never reallocates.
                items: VecDeque::with_capacity(CAPACITY),
                last: 0,
            }),
        }
    }
}

impl RecentDecisions {
    fn lock(&self) -> MutexGuard<'_, Ring> {
        self.ring.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds `record` under the next sequence number (1, 2, ...).
    pub(crate) fn push(&self, record: Recent) {
        // Allocate before the lock, free after it: the section is a counter and a move.
        let record = Arc::new(record);
        let evicted = {
            let mut ring = self.lock();
            ring.last += 1;
            let seq = ring.last;
            let evicted = if ring.items.len() >= CAPACITY {
                ring.items.pop_front()
            } else {
                None
            };
            ring.items.push_back((seq, record));
            evicted
        };
        drop(evicted);
    }

    /// Up to `limit` records newer than `after` (and of `verdict`, when given), newest first;
    /// and the sequence number of the newest record of all, to ask `after` next time.
    pub(crate) fn since(
        &self,
        after: u64,
        verdict: Option<Verdict>,
        limit: usize,
    ) -> (Vec<(u64, Arc<Recent>)>, u64) {
        let ring = self.lock();
        let found = ring
            .items
            .iter()
            .rev()
            .take_while(|(seq, _)| *seq > after)
            .filter(|(_, r)| verdict.is_none_or(|v| v == r.decision))
            .take(limit)
            .cloned()
            .collect();
        (found, ring.last)
    }
}

/// A record as JSON (`GET /v1/decisions`): the decision log's field names, plus `seq` and
/// `subject`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecentView<'a> {
    seq: u64,
    ts: String,
    point: Point,
    decision: Verdict,
    hook: Option<&'a str>,
    message: Option<&'a str>,
    latency_ms: f64,
    session_key: &'a str,
    tool: Option<&'a str>,
    subject: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<&'a Map<String, Value>>,
    trace_id: &'a str,
}

impl<'a> RecentView<'a> {
    pub(crate) fn new(seq: u64, r: &'a Recent) -> RecentView<'a> {
        RecentView {
            seq,
            ts: iso_timestamp(r.at_ms),
            point: r.point,
            decision: r.decision,
            hook: r.hook.as_deref(),
            message: r.message.as_deref(),
            latency_ms: r.latency_ms,
            session_key: &r.session_key,
            tool: r.tool.as_deref(),
            subject: &r.subject,
            args: r.args.as_ref(),
            trace_id: &r.trace_id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx(args: Value) -> HookContext {
        HookContext::new("s").with_tool("exec", args.as_object().cloned().unwrap_or_default())
    }

    fn decision(verdict: Verdict) -> Decision {
        Decision {
            point: Point::TurnToolPre,
            decision: verdict,
            passed: verdict == Verdict::Allow,
            message: None,
            hook: None,
            mode: crate::config::Mode::default(),
            results: Vec::new(),
            injected_context: Vec::new(),
            notifications: Vec::new(),
            params: None,
            approval: None,
            trace_id: "t".into(),
        }
    }

    fn record(verdict: Verdict) -> Recent {
        Recent::new(
            &decision(verdict),
            &ctx(json!({"command": "ls"})),
            0.1,
            &FieldMask::default(),
        )
    }

    #[test]
    fn clips_on_character_boundaries() {
        assert_eq!(clip("héllo", 10), "héllo");
        assert_eq!(clip("héllo", 2), "hé…");
        assert_eq!(clip("", 0), "");
    }

    #[test]
    fn masks_like_the_decision_log_and_bounds_the_copy() {
        let args = json!({
            "command": "x".repeat(1000),
            "password": "p",
            "nested": { "apiKey": "k", "deep": { "a": { "b": { "c": 1 } } } },
            "list": (0..100).collect::<Vec<_>>(),
        });
        let r = Recent::new(
            &decision(Verdict::Block),
            &ctx(args),
            0.1,
            &FieldMask::default(),
        );
        let args = Value::Object(r.args.clone().unwrap_or_default());
        assert_eq!(args["password"], MASKED);
        assert_eq!(args["nested"]["apiKey"], MASKED);
        assert_eq!(args["nested"]["deep"]["a"]["b"], CLIPPED);
        assert_eq!(r.subject.chars().count(), SUBJECT_CHARS + 1);
        assert!(r.subject.ends_with(CLIPPED));
        let list = args["list"].as_array().map(Vec::len).unwrap_or(0);
        assert!(list <= ARG_VALUES, "{list}");
        assert!(args.to_string().len() < 4096, "{args}");
    }

    #[test]
    fn a_subject_from_a_masked_field_is_masked() {
        let mask = FieldMask::new(["url"]);
        let r = Recent::new(
            &decision(Verdict::Allow),
            &ctx(json!({"url": "https://x/?token=1"})),
            0.1,
            &mask,
        );
        assert_eq!(r.subject, MASKED);
    }

    #[test]
    fn the_ring_keeps_the_newest_and_filters() {
        let ring = RecentDecisions::default();
        for i in 0..CAPACITY + 10 {
            let verdict = if i % 2 == 0 {
                Verdict::Allow
            } else {
                Verdict::Block
            };
            ring.push(record(verdict));
        }
        let last = (CAPACITY + 10) as u64;
        let (all, newest) = ring.since(0, None, usize::MAX);
        assert_eq!(newest, last);
        assert_eq!(all.len(), CAPACITY);
        assert_eq!(all.first().map(|(s, _)| *s), Some(last));
        assert_eq!(all.last().map(|(s, _)| *s), Some(11));

        let (after, _) = ring.since(last - 3, None, usize::MAX);
        assert_eq!(
            after.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
            [last, last - 1, last - 2]
        );
        let (blocks, _) = ring.since(last - 10, Some(Verdict::Block), 2);
        assert_eq!(blocks.len(), 2);
        assert!(blocks.iter().all(|(_, r)| r.decision == Verdict::Block));
        let (none, newest) = ring.since(last, None, 10);
        assert!(none.is_empty());
        assert_eq!(newest, last);
    }
}
