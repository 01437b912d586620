//! Approval routes: list and decide pending requests, list and revoke grants, read the history.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::AppState;
use super::body::Body;
use super::error::ApiError;
use crate::approvals::api::{Decided, DecisionRequest, GrantList, PendingList, Revoked, Shown};
use crate::approvals::{Approvals, DecideError};
use crate::config::Risk;

fn approvals(app: &AppState) -> Result<&Arc<Approvals>, ApiError> {
    app.live.services().approvals().ok_or_else(|| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "approvals_unavailable",
            "this daemon keeps no approvals",
        )
    })
}

/// Filters of `GET /v1/approvals`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct PendingFilter {
    session_key: Option<String>,
    tool: Option<String>,
    risk: Option<Risk>,
    hook: Option<String>,
}

pub(crate) async fn list(
    State(app): State<Arc<AppState>>,
    filter: Result<Query<PendingFilter>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(filter) = filter.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let approvals = approvals(&app)?;
    let pending: Vec<_> = approvals
        .pending()
        .into_iter()
        .filter(|r| {
            filter
                .session_key
                .as_ref()
                .is_none_or(|s| *s == r.session_key)
                && filter
                    .tool
                    .as_ref()
                    .is_none_or(|t| Some(t) == r.tool.as_ref())
                && filter.risk.is_none_or(|k| k == r.risk)
                && filter.hook.as_ref().is_none_or(|h| *h == r.hook)
        })
        .collect();
    let unavailable = approvals.unavailable();
    Ok(Json(PendingList {
        pending,
        unavailable,
    })
    .into_response())
}

pub(crate) async fn show(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    match approvals(&app)?.find(&id) {
        (Some(request), _) => Ok(Json(Shown::Pending { request }).into_response()),
        (None, Some(decision)) => Ok(Json(Shown::Decided { decision }).into_response()),
        (None, None) => Err(ApiError::not_found(format!("no approval request `{id}`"))),
    }
}

pub(crate) async fn decide(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Body(body): Body,
) -> Result<Response, ApiError> {
    let body: DecisionRequest = super::evaluate::parse(&body)?;
    let by = body.by.as_deref().unwrap_or("api");
    match approvals(&app)?
        .decide(&id, body.decision, by, body.pattern.as_deref())
        .await
    {
        Ok((request, resolution)) => Ok(Json(Decided {
            request,
            resolution,
        })
        .into_response()),
        Err(e) => Err(decide_error(e)),
    }
}

fn decide_error(e: DecideError) -> ApiError {
    let message = e.to_string();
    match e {
        DecideError::NotFound(_) => ApiError::not_found(message),
        DecideError::AlreadyDecided(_) => {
            ApiError::new(StatusCode::CONFLICT, "already_decided", message)
        }
        DecideError::Expired(_) => ApiError::new(StatusCode::CONFLICT, "expired", message),
        DecideError::InvalidBy(_) => ApiError::bad_request(message).with_field("by"),
        DecideError::NotAllowed { .. } => ApiError::bad_request(message).with_field("decision"),
        DecideError::BadPattern { .. } => ApiError::bad_request(message).with_field("pattern"),
        DecideError::Store(_) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "store_failed", message)
        }
    }
}

pub(crate) async fn grants(State(app): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let grants = approvals(&app)?.grants();
    Ok(Json(GrantList { grants }).into_response())
}

pub(crate) async fn revoke(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    match approvals(&app)?.revoke(&id).await {
        Ok(true) => Ok(Json(Revoked { revoked: id }).into_response()),
        Ok(false) => Err(ApiError::not_found(format!("no grant `{id}`"))),
        Err(e) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "store_failed",
            e.to_string(),
        )),
    }
}

pub(crate) async fn history(State(app): State<Arc<AppState>>) -> Result<Response, ApiError> {
    Ok(Json(json!({ "history": approvals(&app)?.history() })).into_response())
}
