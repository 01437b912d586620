//! Talking to a running daemon: the token the caller presents, one request, and errors that
//! say which role was missing.

use std::path::Path;

use crate::regular_file;
use crate::server::MAX_TOKEN_FILE_BYTES;
use serde_json::Value;

/// The daemon's default address.
pub(crate) const DEFAULT_URL: &str = "http://127.0.0.1:18790";

/// The token to present: the file's, else the first of `envs` that is set; none otherwise.
pub(crate) fn token(file: Option<&Path>, envs: &[&str]) -> Result<Option<String>, String> {
    if let Some(file) = file {
        let text = regular_file::read_to_string(file, MAX_TOKEN_FILE_BYTES).map_err(|e| {
            format!(
                "cannot read the token file `{}`: {}",
                file.display(),
                e.reason()
            )
        })?;
        return Ok(Some(text.trim().to_owned()));
    }
    Ok(envs
        .iter()
        .find_map(|name| std::env::var(name).ok())
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty()))
}

/// `method url/path` with `token` and a JSON `body`: the answer's JSON when it succeeded; an
/// error with the daemon's message otherwise (which names the role a 401 or 403 lacked),
/// followed by `needs` (where this command takes the token from) on a 401 or 403.
pub(crate) fn call(
    url: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
    needs: &str,
) -> Result<Value, String> {
    let base = url.trim_end_matches('/');
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let (status, value) = runtime.block_on(async {
        let client = reqwest::Client::new();
        let mut request = match method {
            "POST" => client.post(format!("{base}{path}")),
            "DELETE" => client.delete(format!("{base}{path}")),
            _ => client.get(format!("{base}{path}")),
        };
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request
            .send()
            .await
            .map_err(|e| format!("cannot reach the daemon at {base}: {e}"))?;
        let status = response.status();
        let value: Value = response
            .json()
            .await
            .map_err(|e| format!("the daemon's answer is not JSON: {e}"))?;
        Ok::<_, String>((status, value))
    })?;
    if status.is_success() {
        return Ok(value);
    }
    let message = value["error"]["message"]
        .as_str()
        .map_or_else(|| value.to_string(), str::to_owned);
    match status.as_u16() {
        401 | 403 => Err(format!("{message} ({status}). {needs}")),
        _ => Err(format!("{message} ({status})")),
    }
}
