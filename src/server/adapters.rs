//! Gateway-shaped routes: the same answers as the hook commands, over HTTP.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};

use serde_json::Value;

use super::AppState;
use super::body::Body;
use super::error::ApiError;

use crate::adapters::{Gateway, openclaw};
use crate::context::HookContext;
use crate::decision::{Decision, Verdict};
use crate::point::Point;

/// `POST /v1/claude-code`: a Claude Code `http` hook, the same as `/v1/hook/claude-code`.
pub(crate) async fn claude_code(
    State(app): State<Arc<AppState>>,
    Body(body): Body,
) -> Result<Response, ApiError> {
    Ok(Json(answer(&app, Gateway::ClaudeCode, &body, None).await).into_response())
}

/// The query of `POST /v1/hook/{gateway}`.
#[derive(Debug, serde::Deserialize)]
pub(crate) struct HookQuery {
    /// The event, for gateways whose payload does not name it (Copilot CLI).
    event: Option<String>,
}

/// `POST /v1/hook/{gateway}`: one gateway's hook payload; answers with the JSON its hook
/// command would print (always 200: a hook caller reads the body, so a failure that must
/// block is answered with the event's blocking JSON, never an error status a gateway might
/// take as "no objection"). An `ask` is kept in the approvals store, so a gateway that cannot
/// ask is told where to approve, and the retry passes once approved.
pub(crate) async fn hook(
    State(app): State<Arc<AppState>>,
    Path(gateway): Path<String>,
    Query(query): Query<HookQuery>,
    Body(body): Body,
) -> Result<Response, ApiError> {
    let Some(gateway) = Gateway::from_name(&gateway) else {
        let known: Vec<&str> = Gateway::ALL.iter().map(|g| g.name()).collect();
        return Err(ApiError::not_found(format!(
            "unknown gateway `{gateway}` (known: {})",
            known.join(", ")
        )));
    };
    Ok(Json(answer(&app, gateway, &body, query.event.as_deref()).await).into_response())
}

/// The HTTP body answering `body` for `gateway`.
async fn answer(app: &AppState, gateway: Gateway, body: &[u8], given: Option<&str>) -> Value {
    let name = gateway.event_name(body, given);
    let answer = match gateway.parse(body, given) {
        Ok(event) => {
            let decision = evaluate(app, event.point, &event.context).await;
            gateway.answer(&event, &decision, true)
        }
        Err(e) => gateway.failure(&name, &e.to_string()),
    };
    gateway.http_body(&name, &answer)
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
