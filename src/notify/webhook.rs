//! Webhook delivery: the notice as JSON, POSTed to a URL.

use serde::Serialize;

use super::Notice;
use crate::config::WebhookSettings;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Body<'a> {
    #[serde(flatten)]
    notice: &'a Notice,
    timestamp: String,
}

/// Sends `notice`; returns what happened, for the log and the metrics.
pub(super) async fn send(
    client: &reqwest::Client,
    settings: &WebhookSettings,
    notice: &Notice,
) -> Result<(), String> {
    let body = Body {
        notice,
        timestamp: crate::graph::iso_timestamp(crate::graph::now_ms()),
    };
    let mut request = client.post(&settings.url).json(&body);
    if let Some(env) = &settings.token_env {
        let token = std::env::var(env)
            .ok()
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| format!("{env} is not set"))?;
        request = request.bearer_auth(token.trim());
    }
    let response = request
        .send()
        .await
        .map_err(|e| format!("request failed: {e}"))?;
    let status = response.status();
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("the webhook answered {status}"))
    }
}
