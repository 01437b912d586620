//! Operational routes: health, readiness, status, reload, switching hooks, metrics.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::AppState;
use super::body::Body;
use super::error::ApiError;
use crate::config::{EditError, SwitchError};
use crate::reload::{ReloadOutcome, ReloadTrigger};

/// Liveness: the process answers.
pub(crate) async fn healthz() -> Response {
    Json(json!({ "status": "ok" })).into_response()
}

/// Readiness: a policy is in force and the daemon is not shutting down.
pub(crate) async fn readyz(State(app): State<Arc<AppState>>) -> Response {
    if app.draining.load(Ordering::Relaxed) {
        let body = json!({ "status": "shutting down" });
        return (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
    }
    Json(json!({ "status": "ready", "hash": app.live.current().hash() })).into_response()
}

/// What is in force, and how the last reload went.
pub(crate) async fn status(State(app): State<Arc<AppState>>) -> Response {
    Json(app.live.status()).into_response()
}

/// Reloads now and answers with the outcome: 200 when a policy is in force from the file,
/// 422 when the file is invalid (the previous policy stays in force).
pub(crate) async fn reload(State(app): State<Arc<AppState>>) -> Response {
    let outcome = app.live.reload(ReloadTrigger::Request).await;
    let status = match outcome {
        ReloadOutcome::Failed { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        _ => StatusCode::OK,
    };
    (status, Json(outcome)).into_response()
}

/// The body of `POST /v1/hooks/{name}`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Switch {
    enabled: bool,
}

/// Switches a hook on or off in the file it is written in, as `hookgate enable|disable` does,
/// and reloads: 200 with the file, line and reload outcome; 404 for an unknown hook, 422 when
/// the file cannot be edited.
pub(crate) async fn switch_hook(
    State(app): State<Arc<AppState>>,
    axum::extract::Path(name): axum::extract::Path<String>,
    Body(body): Body,
) -> Result<Response, ApiError> {
    let Switch { enabled } = super::evaluate::parse(&body)?;
    let policy = app.live.path().to_path_buf();
    let hook = name.clone();
    let switched =
        tokio::task::spawn_blocking(move || crate::config::switch_in_file(&policy, &hook, enabled))
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "the edit failed",
                )
            })?
            .map_err(|e| match e {
                SwitchError::Edit(EditError::NoSuchHook { .. }) => {
                    ApiError::not_found(e.to_string())
                }
                _ => ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "cannot_edit",
                    e.to_string(),
                ),
            })?;
    tracing::info!(hook = %name, enabled, file = %switched.file.display(), "hook switched over the API");
    let reload = app.live.reload(ReloadTrigger::Request).await;
    Ok(Json(json!({
        "hook": name,
        "enabled": enabled,
        "changed": switched.changed,
        "file": switched.file,
        "line": switched.line,
        "reload": reload,
    }))
    .into_response())
}

/// Prometheus text exposition.
pub(crate) async fn metrics(State(app): State<Arc<AppState>>) -> Response {
    let text = super::metrics::render(app.metrics.as_ref(), &app.live.status());
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

pub(crate) async fn not_found() -> ApiError {
    ApiError::not_found("no such route")
}

pub(crate) async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route does not take that method",
    )
}
