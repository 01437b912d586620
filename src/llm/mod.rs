//! Calls to an LLM endpoint: OpenAI-compatible chat completions or Anthropic's Messages API,
//! for `summarize_and_log` and `notify_user`'s summaries.
//!
//! Requests run on a background thread, started by the first call (a process that never
//! summarises starts none). The caller waits for the answer at most the endpoint's
//! `timeoutMs`; after that it gets an error, and whatever the endpoint does later is
//! dropped. Built without the `llm` feature, there is no HTTP client: every call gets an
//! error that says so, and the actions fall back as they do when an endpoint fails.

#[cfg(feature = "llm")]
mod worker;

use crate::config::LlmSettings;

/// How long a call may take when `timeoutMs` is not set.
#[cfg(feature = "llm")]
pub(crate) const DEFAULT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// One completion to run.
#[derive(Debug, Clone)]
#[cfg_attr(
    not(feature = "llm"),
    allow(dead_code, reason = "only the LLM worker reads it")
)]
pub(crate) struct Prompt {
    /// The model name.
    pub model: String,
    /// The system prompt.
    pub system: String,
    /// The user message.
    pub user: String,
}

/// Handle to the LLM worker. Cheap to clone; the clones share one worker.
#[derive(Debug, Clone, Default)]
pub(crate) struct LlmClient {
    #[cfg(feature = "llm")]
    worker: std::sync::Arc<std::sync::OnceLock<worker::Worker>>,
}

impl LlmClient {
    /// A client whose worker starts with its first call.
    pub(crate) fn new() -> LlmClient {
        LlmClient::default()
    }

    /// The endpoint's answer to `prompt`, or why there is none. Never takes longer than the
    /// endpoint's timeout.
    #[cfg(feature = "llm")]
    pub(crate) async fn complete(
        &self,
        settings: &LlmSettings,
        prompt: Prompt,
    ) -> Result<String, String> {
        self.worker
            .get_or_init(worker::Worker::start)
            .complete(settings, prompt)
            .await
    }

    /// Without the `llm` feature: why there is no answer.
    #[cfg(not(feature = "llm"))]
    pub(crate) async fn complete(
        &self,
        settings: &LlmSettings,
        prompt: Prompt,
    ) -> Result<String, String> {
        let _ = (settings, prompt);
        Err("this build of hookgate has no LLM client (the `llm` feature is off)".to_owned())
    }
}
