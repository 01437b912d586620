//! `notify_user`: tell the session's user that the event happened (typically a sub-agent
//! finishing), with an LLM summary when a model and endpoint are configured. Always passes.

use serde_json::Value;

use super::block::truncate_plain;
use super::{Invocation, Outcome};
use crate::config::LlmSettings;
use crate::llm::Prompt;

const SYSTEM_PROMPT: &str = "You tell an operator, in 1 to 3 plain sentences, what a finished \
AI sub-agent task achieved: the task, the key results, and any problem. If it failed, say so \
first. Be direct; do not begin with \"I\".";

pub(super) async fn run(
    inv: &Invocation<'_>,
    model: Option<&str>,
    llm: Option<&LlmSettings>,
) -> Outcome {
    let spec = inv.hook.spec();
    let defaults = inv.graph.defaults();
    let model = model.or(defaults.model.as_deref());
    let llm = llm.or(defaults.llm.as_ref());
    let status = Status::of(inv);
    let text = match (model, llm) {
        // A dry run asks no LLM; the plain notice is listed in the decision, not sent.
        (Some(model), Some(settings)) if !inv.services.dry_run => {
            let prompt = Prompt {
                model: model.to_owned(),
                system: SYSTEM_PROMPT.to_owned(),
                user: status.prompt(inv),
            };
            match inv.services.llm.complete(settings, prompt).await {
                Ok(summary) => format!(
                    "{} Sub-agent done{}\n\n{summary}",
                    status.emoji(),
                    status.duration()
                ),
                Err(error) => {
                    tracing::warn!(hook = %spec.id, %error, "notify_user: the LLM summary failed; sending the plain notice");
                    status.plain(inv)
                }
            }
        }
        _ => status.plain(inv),
    };
    Outcome::pass(format!(
        "Notification sent to session: {}",
        inv.ctx.session_key
    ))
    .with_notice(Some(text))
}

/// What the gateway said about the finished run (`raw.success`, `raw.error`, `raw.durationMs`).
struct Status<'a> {
    failed: bool,
    error: Option<&'a str>,
    duration_ms: Option<f64>,
}

impl<'a> Status<'a> {
    fn of(inv: &Invocation<'a>) -> Status<'a> {
        let raw = inv.ctx.raw.as_ref();
        let field = |k: &str| raw.and_then(|r| r.get(k));
        Status {
            failed: field("success").and_then(Value::as_bool) == Some(false),
            error: field("error").and_then(Value::as_str),
            duration_ms: field("durationMs").and_then(Value::as_f64),
        }
    }

    fn emoji(&self) -> &'static str {
        if self.failed { "❌" } else { "✅" }
    }

    /// ` (12.3s)`, or nothing.
    fn duration(&self) -> String {
        self.duration_ms
            .map(|ms| format!(" ({}s)", (ms / 100.0).round() / 10.0))
            .unwrap_or_default()
    }

    fn prompt(&self, inv: &Invocation<'_>) -> String {
        let mut parts = Vec::new();
        if self.failed {
            let error = self.error.map(|e| format!(" — {e}")).unwrap_or_default();
            parts.push(format!("Status: FAILED{error}."));
        } else {
            parts.push("Status: Completed successfully.".to_owned());
        }
        if let Some(ms) = self.duration_ms {
            parts.push(format!("Duration: {}s.", (ms / 100.0).round() / 10.0));
        }
        if let Some(response) = inv.ctx.response.as_deref().filter(|r| !r.is_empty()) {
            parts.push(format!(
                "Agent final output (excerpt): \"{}\"",
                truncate_plain(response, 1200)
            ));
        } else if let Some(prompt) = inv.ctx.prompt.as_deref().filter(|p| !p.is_empty()) {
            parts.push(format!("Task: \"{}\"", truncate_plain(prompt, 400)));
        }
        parts.join(" ")
    }

    /// The notice without an LLM (the seed's format).
    fn plain(&self, inv: &Invocation<'_>) -> String {
        let header = format!("{} Sub-agent finished{}", self.emoji(), self.duration());
        if let (true, Some(error)) = (self.failed, self.error) {
            return format!("{header}\n\n⚠️ Error: {}", truncate_plain(error, 300));
        }
        match inv
            .ctx
            .response
            .as_deref()
            .map(|r| truncate_plain(r, 400).trim())
        {
            Some(excerpt) if !excerpt.is_empty() => format!("{header}\n\n{excerpt}"),
            _ => header,
        }
    }
}
