//! `GET /v1/decisions?after=<seq>&decision=<allow|block|ask>&limit=<n>`: the recent decisions
//! (see [`super::recent`]), newest first, and `last`, the sequence number to pass as `after`
//! on the next call so that only newer decisions come back.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::AppState;
use super::error::ApiError;
use super::recent::{CAPACITY, RecentView};
use crate::decision::Verdict;

/// Answered when `limit` is not given.
const DEFAULT_LIMIT: usize = 100;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DecisionsQuery {
    /// Only decisions with a greater sequence number.
    #[serde(default)]
    after: u64,
    /// Only decisions of this verdict.
    decision: Option<Verdict>,
    /// At most this many (capped at the ring's capacity).
    limit: Option<usize>,
}

#[derive(Serialize)]
struct Answer<'a> {
    decisions: Vec<RecentView<'a>>,
    last: u64,
}

pub(crate) async fn list(
    State(app): State<Arc<AppState>>,
    query: Result<Query<DecisionsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT).min(CAPACITY);
    // The lock is held only to clone `Arc`s; serialising happens after it is released.
    let (found, last) = app.recent.since(query.after, query.decision, limit);
    let decisions = found
        .iter()
        .map(|(seq, r)| RecentView::new(*seq, r))
        .collect();
    Ok(Json(Answer { decisions, last }).into_response())
}
