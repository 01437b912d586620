//! The LLM worker: a background thread with a runtime and HTTP client of its own, started
//! by the first call, so an embedder's runtime needs no I/O driver for it.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use super::{DEFAULT_TIMEOUT, Prompt};
use crate::config::{LlmProvider, LlmSettings};

/// Answer length when `maxTokens` is not set.
const DEFAULT_MAX_TOKENS: u32 = 300;
/// Calls waiting for the worker, at most; more fail at once (and fall back).
const QUEUE: usize = 256;
/// The Anthropic API version sent with each request.
const ANTHROPIC_VERSION: &str = "2023-06-01";

struct Call {
    settings: LlmSettings,
    prompt: Prompt,
    reply: oneshot::Sender<Result<String, String>>,
}

/// Handle to the worker thread.
#[derive(Debug)]
pub(super) struct Worker {
    tx: mpsc::Sender<Call>,
}

impl std::fmt::Debug for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Call")
            .field("model", &self.prompt.model)
            .finish()
    }
}

impl Worker {
    /// Starts the worker thread.
    pub(super) fn start() -> Worker {
        let (tx, rx) = mpsc::channel(QUEUE);
        let spawned = std::thread::Builder::new()
            .name("hookgate-llm".into())
            .spawn(move || run(rx));
        if let Err(e) = spawned {
            // Without the thread every call fails at once and the actions fall back.
            tracing::error!(error = %e, "cannot start the LLM thread");
        }
        Worker { tx }
    }

    /// The endpoint's answer to `prompt`, or why there is none. Never takes longer than the
    /// endpoint's timeout.
    pub(super) async fn complete(
        &self,
        settings: &LlmSettings,
        prompt: Prompt,
    ) -> Result<String, String> {
        let limit = timeout(settings);
        let (reply, answer) = oneshot::channel();
        let call = Call {
            settings: settings.clone(),
            prompt,
            reply,
        };
        self.tx
            .try_send(call)
            .map_err(|_| "the LLM queue is full".to_owned())?;
        match tokio::time::timeout(limit, answer).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err("the LLM worker stopped".to_owned()),
            Err(_) => Err(format!("no answer within {} ms", limit.as_millis())),
        }
    }
}

fn timeout(settings: &LlmSettings) -> Duration {
    settings
        .timeout_ms
        .map_or(DEFAULT_TIMEOUT, Duration::from_millis)
}

fn run(mut rx: mpsc::Receiver<Call>) {
    let Some(runtime) = crate::worker::runtime("llm") else {
        while let Some(call) = rx.blocking_recv() {
            let _ = call
                .reply
                .send(Err("the LLM runtime is not running".into()));
        }
        return;
    };
    runtime.block_on(async move {
        let mut client: Option<reqwest::Client> = None;
        while let Some(call) = rx.recv().await {
            if client.is_none() {
                client = reqwest::Client::builder().build().ok();
            }
            let Some(client) = client.clone() else {
                let _ = call.reply.send(Err("cannot build the HTTP client".into()));
                continue;
            };
            // Calls run concurrently: one slow endpoint does not hold up the others.
            tokio::spawn(async move {
                let result = tokio::time::timeout(
                    timeout(&call.settings),
                    request(&client, &call.settings, &call.prompt),
                )
                .await
                .unwrap_or_else(|_| Err("timed out".to_owned()));
                let _ = call.reply.send(result);
            });
        }
    });
}

async fn request(
    client: &reqwest::Client,
    settings: &LlmSettings,
    prompt: &Prompt,
) -> Result<String, String> {
    let key = match &settings.api_key_env {
        Some(env) => Some(
            std::env::var(env)
                .ok()
                .filter(|k| !k.trim().is_empty())
                .ok_or_else(|| format!("{env} is not set"))?,
        ),
        None => None,
    };
    let base = settings.base_url.trim_end_matches('/');
    let max_tokens = settings.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
    let builder = match settings.provider {
        LlmProvider::Openai => {
            let body = json!({
                "model": prompt.model,
                "max_tokens": max_tokens,
                "messages": [
                    { "role": "system", "content": prompt.system },
                    { "role": "user", "content": prompt.user },
                ],
            });
            let builder = client.post(format!("{base}/chat/completions")).json(&body);
            match key {
                Some(key) => builder.bearer_auth(key.trim()),
                None => builder,
            }
        }
        LlmProvider::Anthropic => {
            let body = json!({
                "model": prompt.model,
                "max_tokens": max_tokens,
                "system": prompt.system,
                "messages": [ { "role": "user", "content": prompt.user } ],
            });
            let builder = client
                .post(format!("{base}/v1/messages"))
                .header("anthropic-version", ANTHROPIC_VERSION)
                .json(&body);
            match key {
                Some(key) => builder.header("x-api-key", key.trim()),
                None => builder,
            }
        }
    };
    let response = builder
        .send()
        .await
        .map_err(|e| format!("request failed: {e}"))?;
    let status = response.status();
    let body: Value = response
        .json()
        .await
        .map_err(|e| format!("the answer ({status}) is not JSON: {e}"))?;
    if !status.is_success() {
        return Err(format!("the endpoint answered {status}"));
    }
    answer_text(settings.provider, &body).ok_or_else(|| "the answer holds no text".to_owned())
}

/// The text of an answer: `choices[0].message.content`, or Anthropic's first text block.
fn answer_text(provider: LlmProvider, body: &Value) -> Option<String> {
    let text = match provider {
        LlmProvider::Openai => body
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)?,
        LlmProvider::Anthropic => body
            .get("content")?
            .as_array()?
            .iter()
            .find(|b| b.get("type").and_then(Value::as_str) == Some("text"))?
            .get("text")
            .and_then(Value::as_str)?,
    };
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_from_either_shape() {
        let openai =
            json!({ "choices": [ { "message": { "role": "assistant", "content": " sum " } } ] });
        assert_eq!(
            answer_text(LlmProvider::Openai, &openai).as_deref(),
            Some("sum")
        );
        let anthropic =
            json!({ "content": [ { "type": "thinking" }, { "type": "text", "text": "s" } ] });
        assert_eq!(
            answer_text(LlmProvider::Anthropic, &anthropic).as_deref(),
            Some("s")
        );
        assert_eq!(
            answer_text(LlmProvider::Openai, &json!({ "choices": [] })),
            None
        );
        assert_eq!(
            answer_text(
                LlmProvider::Openai,
                &json!({ "choices": [ { "message": { "content": "  " } } ] })
            ),
            None
        );
        assert_eq!(answer_text(LlmProvider::Anthropic, &json!("garbage")), None);
    }
}
