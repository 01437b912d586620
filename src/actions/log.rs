//! `log`: append a JSONL line describing the event (to `target`, else stderr). Always passes;
//! a failed write falls back to stderr.

use serde::Serialize;
use serde_json::{Map, Value};

use super::block::truncate;
use super::{Invocation, Outcome};
use crate::graph::iso_timestamp;

/// Longest string argument kept in a log line, in characters.
const ARG_EXCERPT: usize = 100;
/// Longest prompt kept in a log line, in characters.
const PROMPT_EXCERPT: usize = 200;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Entry<'a> {
    timestamp: String,
    point: &'a str,
    session_key: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    topic_id: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    subagent: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cron_job: Option<&'a str>,
}

pub(super) async fn run(inv: &Invocation<'_>) -> Outcome {
    // A dry run passes the same way, without writing.
    if !inv.services.dry_run {
        let line = entry(inv);
        let path = inv.hook.path().map(|t| inv.render_path(t));
        inv.services.log.append(path, line).await;
    }
    Outcome::pass(format!("Logged event at {}", inv.point))
}

fn non_empty(s: &Option<String>) -> Option<&str> {
    s.as_deref().filter(|s| !s.is_empty())
}

pub(super) fn entry(inv: &Invocation<'_>) -> String {
    let ctx = inv.ctx;
    let entry = Entry {
        timestamp: iso_timestamp(inv.timestamp_ms),
        point: inv.point.as_str(),
        session_key: &ctx.session_key,
        topic_id: ctx.topic_id.as_ref(),
        tool: non_empty(&ctx.tool_name),
        args: ctx.tool_args.as_ref().map(|args| {
            args.iter()
                .map(|(k, v)| match v {
                    Value::String(s) => (k.clone(), Value::String(truncate(s, ARG_EXCERPT))),
                    other => (k.clone(), other.clone()),
                })
                .collect()
        }),
        prompt: non_empty(&ctx.prompt).map(|p| truncate(p, PROMPT_EXCERPT)),
        subagent: non_empty(&ctx.subagent_label),
        cron_job: non_empty(&ctx.cron_job),
    };
    // Serialising plain strings and JSON values cannot fail; keep a line even if it did.
    // The line is escaped for terminals too: a log on stderr, or one someone tails.
    crate::terminal::into_escaped_json(serde_json::to_string(&entry).unwrap_or_else(|e| {
        format!(
            r#"{{"timestamp":{:?},"error":"unserialisable log entry: {e}"}}"#,
            iso_timestamp(inv.timestamp_ms)
        )
    }))
}
