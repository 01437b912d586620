//! `summarize_and_log`: an LLM summary of the event, appended as a JSONL line to `target`.
//!
//! The action always passes. When the LLM cannot answer (no endpoint configured, an error, a
//! timeout, an answer without text) the line holds a deterministic fallback summary instead.

use serde::Serialize;

use super::block::truncate_plain;
use super::{Invocation, Outcome};
use crate::config::LlmSettings;
use crate::graph::iso_timestamp;
use crate::llm::Prompt;

/// What the summariser is asked to do.
const SYSTEM_PROMPT: &str = "You record the working state of an AI agent so that it can \
resume after losing its memory. From the event below, write 2 to 5 short bullet points: \
the task being worked on (name projects, files, commands and values exactly), what just \
happened and the current step, decisions and approvals, blockers and next steps, and who \
asked for what. Be specific; a vague summary is worthless.";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Entry<'a> {
    timestamp: String,
    point: &'a str,
    session_key: &'a str,
    summary: &'a str,
    model: &'a str,
}

pub(super) async fn run(
    inv: &Invocation<'_>,
    model: Option<&str>,
    llm: Option<&LlmSettings>,
) -> Outcome {
    if inv.services.dry_run {
        // A dry run passes the same way, without asking the LLM or writing.
        return passed(inv);
    }
    let spec = inv.hook.spec();
    let defaults = inv.graph.defaults();
    let model = model.or(defaults.model.as_deref()).unwrap_or("default");
    let summary = match llm.or(defaults.llm.as_ref()) {
        Some(settings) => {
            let prompt = Prompt {
                model: model.to_owned(),
                system: SYSTEM_PROMPT.to_owned(),
                user: describe(inv),
            };
            match inv.services.llm.complete(settings, prompt).await {
                Ok(summary) => summary,
                Err(error) => {
                    tracing::warn!(hook = %spec.id, %error, "summarize_and_log: the LLM call failed; writing the fallback summary");
                    fallback(inv)
                }
            }
        }
        None => {
            tracing::warn!(hook = %spec.id, "summarize_and_log: no LLM endpoint (defaults.llm); writing the fallback summary");
            fallback(inv)
        }
    };
    let entry = Entry {
        timestamp: iso_timestamp(inv.timestamp_ms),
        point: inv.point.as_str(),
        session_key: &inv.ctx.session_key,
        summary: &summary,
        model,
    };
    // The summary is the LLM's: escaped for terminals like every log line.
    let line =
        crate::terminal::into_escaped_json(serde_json::to_string(&entry).unwrap_or_default());
    let path = inv.hook.path().map(|t| inv.render_path(t));
    inv.services.log.append(path, line).await;
    passed(inv)
}

fn passed(inv: &Invocation<'_>) -> Outcome {
    Outcome::pass(format!("Summarized and logged event at {}", inv.point))
}

/// The summary written when the LLM cannot answer (the seed's wording).
pub(super) fn fallback(inv: &Invocation<'_>) -> String {
    format!(
        "Event at {} in session {} at {}",
        inv.point,
        inv.ctx.session_key,
        iso_timestamp(inv.timestamp_ms)
    )
}

/// The event, for the LLM: the point, the session and what the context holds.
fn describe(inv: &Invocation<'_>) -> String {
    let ctx = inv.ctx;
    let mut parts = vec![
        format!("Hook point: {}.", inv.point),
        format!("Session: {}.", ctx.session_key),
    ];
    if let Some(prompt) = ctx.prompt.as_deref().filter(|p| !p.is_empty()) {
        parts.push(format!(
            "User message: \"{}\"",
            truncate_plain(prompt, 2000)
        ));
    }
    if let Some(tool) = &ctx.tool_name {
        parts.push(format!("Tool: {tool}."));
    }
    if let Some(args) = ctx.tool_args.as_ref().filter(|a| !a.is_empty()) {
        let json = serde_json::to_string(args).unwrap_or_default();
        parts.push(format!("Tool args: {}", truncate_plain(&json, 400)));
    }
    if let Some(response) = ctx.response.as_deref().filter(|r| !r.is_empty()) {
        parts.push(format!(
            "Agent response: \"{}\"",
            truncate_plain(response, 1500)
        ));
    }
    if let Some(label) = &ctx.subagent_label {
        parts.push(format!("Subagent: {label}."));
    }
    if let Some(job) = &ctx.cron_job {
        parts.push(format!("Cron job: {job}."));
    }
    parts.join(" ")
}
