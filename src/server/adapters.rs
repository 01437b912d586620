//! Gateway-shaped routes: the same answers as the hook commands, over HTTP.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::body::Body;
use super::error::ApiError;

use crate::adapters::{claude_code as cc, openclaw};
use crate::context::HookContext;
use crate::decision::{Decision, Verdict};
use crate::point::Point;

/// `POST /v1/claude-code`: a Claude Code `http` hook. Takes the hook JSON, answers with what
/// `hookgate claude-code` would print (always 200: Claude Code treats other statuses as
/// non-blocking errors, so a failure that must block is answered with blocking JSON).
pub(crate) async fn claude_code(
    State(app): State<Arc<AppState>>,
    Body(body): Body,
) -> Result<Response, ApiError> {
    let name = cc::event_name(&body);
    let answer = match cc::parse(&body) {
        Ok(event) => cc::answer(
            &event.name,
            &evaluate(&app, event.point, &event.context).await,
        ),
        Err(e) => cc::failure(&name, &e.to_string()),
    };
    Ok(Json(cc::http_body(&name, &answer)).into_response())
}

/// `POST /v1/openclaw/{hook}`: an OpenClaw plugin hook's `{event, ctx}`; answers with the
/// hook's result shape (`{block, blockReason, params}`, `{prependContext}`, `{cancel}`, ...)
/// and the Decision under `hookgate`.
pub(crate) async fn openclaw(
    State(app): State<Arc<AppState>>,
    Path(hook): Path<String>,
    Body(body): Body,
) -> Result<Response, ApiError> {
    let parsed = openclaw::parse(&hook, &body).map_err(|e| match e {
        openclaw::PayloadError::UnknownHook(_) => ApiError::not_found(e.to_string()),
        openclaw::PayloadError::Shape(_) => ApiError::bad_request(e.to_string()),
    })?;
    let mut ctx = parsed.context;
    let mut answer = None;
    // In order; the first answer that is not allow is the hook's (a refused spawn is not
    // evaluated again as a tool call).
    for point in parsed.points {
        ctx.point = Some(point);
        let decision = evaluate(&app, point, &ctx).await;
        let stop = decision.decision != Verdict::Allow;
        answer = Some(decision);
        if stop {
            break;
        }
    }
    Ok(match answer {
        Some(decision) => Json(openclaw::result(&hook, &decision)),
        // Not a hookgate moment (a cron job edited, a heartbeat turn evaluated elsewhere).
        None => Json(serde_json::json!({ "hookgate": null })),
    }
    .into_response())
}

/// Evaluates on the policy in force, as `/v1/evaluate` does (counted, logged, shown in the
/// console); an adapter never waits for an approval.
async fn evaluate(app: &AppState, point: Point, ctx: &HookContext) -> Decision {
    let policy = app.live.current();
    super::evaluate::evaluate(app, &policy, point, ctx, false).await
}
