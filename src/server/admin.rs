//! Operational routes: health, readiness, status, reload, metrics.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::AppState;
use super::error::ApiError;
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
