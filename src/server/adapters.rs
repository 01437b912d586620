//! Gateway-shaped routes: the same answers as the hook commands, over HTTP.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::ApiError;
use crate::adapters::{self as translate, claude_code as cc};

/// `POST /v1/claude-code`: a Claude Code `http` hook. Takes the hook JSON, answers with what
/// `hookgate claude-code` would print (always 200: Claude Code treats other statuses as
/// non-blocking errors, so a failure that must block is answered with blocking JSON).
pub(crate) async fn claude_code(
    State(app): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(|r| ApiError::from_body(r, app.config.body_limit))?;
    let policy = app.live.current();
    let answer = translate::claude_code(policy.engine(), &body).await;
    let name = cc::event_name(&body);
    Ok(Json(cc::http_body(&name, &answer)).into_response())
}
