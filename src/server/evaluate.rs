//! `POST /v1/evaluate`: `{point, context}` → Decision, or a list of them → a list of Decisions.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::AppState;
use super::body::Body;
use super::error::ApiError;
use super::recent::Recent;
use crate::context::HookContext;
use crate::decision::Decision;
use crate::engine::EvalOptions;
use crate::point::Point;
use crate::reload::ActivePolicy;

/// One evaluation request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EvaluateRequest {
    /// The lifecycle point; may instead be given as `context.point`.
    #[serde(default)]
    point: Option<String>,
    context: HookContext,
    /// Hold the request until a pending approval is decided or times out.
    #[serde(default)]
    wait: bool,
}

/// The longest a waiting evaluation may take beyond `--request-timeout` (the longest
/// approval `timeoutMs`).
const MAX_WAIT: Duration = Duration::from_secs(3600);

pub(crate) async fn handle(
    State(app): State<Arc<AppState>>,
    Body(body): Body,
) -> Result<Response, ApiError> {
    let limit = app.config.request_timeout;
    let waits = wants_wait(&body);
    let bound = if waits { limit + MAX_WAIT } else { limit };
    match tokio::time::timeout(bound, answer(&app, body)).await {
        Ok(answer) => answer,
        Err(_) => Err(ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "timeout",
            format!("the request took longer than {} ms", bound.as_millis()),
        )),
    }
}

/// Whether a body asks to wait for approvals (only then is the longer bound used).
fn wants_wait(body: &[u8]) -> bool {
    #[derive(Deserialize)]
    struct Wait {
        #[serde(default)]
        wait: bool,
    }
    // The common case pays for a byte scan, not a second parse.
    if memchr::memmem::find(body, b"\"wait\"").is_none() {
        return false;
    }
    match body.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'[') => serde_json::from_slice::<Vec<Wait>>(body)
            .is_ok_and(|items| items.iter().any(|w| w.wait)),
        _ => serde_json::from_slice::<Wait>(body).is_ok_and(|w| w.wait),
    }
}

async fn answer(app: &AppState, body: Bytes) -> Result<Response, ApiError> {
    // One policy for the whole request, even if a reload lands meanwhile.
    let policy = app.live.current();
    if body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        let requests: Vec<EvaluateRequest> = parse(&body)?;
        if requests.len() > app.config.max_batch {
            return Err(ApiError::bad_request(format!(
                "a batch holds at most {} requests; this one has {}",
                app.config.max_batch,
                requests.len()
            )));
        }
        let resolved = requests
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let wait = r.wait;
                resolve(r, &format!("[{i}].")).map(|(p, c)| (p, c, wait))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut decisions = Vec::with_capacity(resolved.len());
        for (point, ctx, wait) in &resolved {
            decisions.push(evaluate(app, &policy, *point, ctx, *wait).await);
        }
        Ok(Json(decisions).into_response())
    } else {
        let request: EvaluateRequest =
            parse(&body).map_err(|e| unknown_point(&body).unwrap_or(e))?;
        let wait = request.wait;
        let (point, ctx) = resolve(request, "")?;
        Ok(Json(evaluate(app, &policy, point, &ctx, wait).await).into_response())
    }
}

/// Evaluates one request on `policy`. Every route that decides over HTTP comes through here,
/// so each decision is counted, logged and shown in the console exactly once.
pub(crate) async fn evaluate(
    app: &AppState,
    policy: &ActivePolicy,
    point: Point,
    ctx: &HookContext,
    wait: bool,
) -> Decision {
    let started = Instant::now();
    let options = EvalOptions {
        wait_for_approval: wait,
    };
    let decision = match policy
        .engine()
        .evaluate_bounded(point, ctx, options, &app.pool)
        .await
    {
        Ok(decision) => decision,
        Err(failed) => {
            super::metrics::fail_closed(point, failed.cause);
            failed.decision
        }
    };
    let latency = started.elapsed();
    super::metrics::record(&decision, latency);
    let latency_ms = latency.as_secs_f64() * 1000.0;
    app.recent
        .push(Recent::new(&decision, ctx, latency_ms, &app.config.mask));
    if let Some(log) = &app.config.decision_log {
        let line = log.line(&decision, ctx, latency_ms, policy.hash());
        app.live
            .services()
            .log
            .append(Some(log.path.clone()), line)
            .await;
    }
    decision
}

/// The point of a request: `point`, else `context.point`. An unknown name is a 404: the
/// route exists, the point does not.
fn resolve(request: EvaluateRequest, prefix: &str) -> Result<(Point, HookContext), ApiError> {
    let point = match request.point.as_deref() {
        Some(name) => name.parse::<Point>().map_err(|unknown| {
            ApiError::not_found(unknown.to_string()).with_field(format!("{prefix}point"))
        })?,
        None => request.context.point.ok_or_else(|| {
            ApiError::bad_request("missing field `point` (or `context.point`)")
                .with_field(format!("{prefix}point"))
        })?,
    };
    Ok((point, request.context))
}

/// When a request is invalid and also names an unknown point, the point is the error to
/// report: the rest cannot be evaluated anywhere.
fn unknown_point(body: &[u8]) -> Option<ApiError> {
    #[derive(Deserialize)]
    struct PointOnly {
        point: Option<String>,
    }
    let name = serde_json::from_slice::<PointOnly>(body).ok()?.point?;
    let request = EvaluateRequest {
        point: Some(name),
        context: HookContext::default(),
        wait: false,
    };
    resolve(request, "").err()
}

/// Parses a JSON body. The fast path is plain serde_json; only a failure is parsed again to
/// name the field at fault.
pub(crate) fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    crate::json_keys::check(body).map_err(duplicate_key)?;
    match serde_json::from_slice(body) {
        Ok(value) => Ok(value),
        Err(first) => {
            let mut de = serde_json::Deserializer::from_slice(body);
            let error = match serde_path_to_error::deserialize::<_, T>(&mut de) {
                Ok(_) => return Err(json_error(&first, None)),
                Err(e) => e,
            };
            let path = error.path().to_string();
            Err(json_error(error.inner(), Some(path)))
        }
    }
}

/// A body whose object repeats a key: refused, never read last-wins.
pub(crate) fn duplicate_key(e: crate::json_keys::DuplicateKey) -> ApiError {
    let api = ApiError::bad_request(e.to_string()).at(e.line, e.column);
    if e.path.is_empty() {
        api.with_field(e.key)
    } else {
        api.with_field(format!("{}.{}", e.path, e.key))
    }
}

fn json_error(error: &serde_json::Error, path: Option<String>) -> ApiError {
    use serde_json::error::Category;
    let (line, column) = (error.line(), error.column());
    let message = strip_position(&error.to_string());
    let code = match error.classify() {
        Category::Syntax | Category::Eof | Category::Io => "invalid_json",
        Category::Data => "invalid_request",
    };
    let mut api =
        ApiError::new(axum::http::StatusCode::BAD_REQUEST, code, message).at(line, column);
    if error.classify() == Category::Data
        && let Some(field) = field_path(path.as_deref(), &error.to_string())
    {
        api = api.with_field(field);
    }
    api
}

/// The field a data error is about. For a missing field, serde points at the object that
/// lacks it, so the field's own name is appended.
fn field_path(path: Option<&str>, message: &str) -> Option<String> {
    let path = path.filter(|p| !p.is_empty() && *p != ".");
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next());
    match (path, missing) {
        (Some(p), Some(m)) => Some(format!("{p}.{m}")),
        (None, Some(m)) => Some(m.to_owned()),
        (Some(p), None) => Some(p.to_owned()),
        (None, None) => None,
    }
}

/// serde_json's message without its trailing " at line L column C" (given separately).
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(body: &str) -> serde_json::Value {
        let e = parse::<EvaluateRequest>(body.as_bytes()).unwrap_err();
        serde_json::to_value(&e).unwrap()
    }

    #[test]
    fn names_the_missing_field() {
        let e = err(r#"{"point":"turn:pre","context":{}}"#);
        assert_eq!(e["field"], "context.sessionKey");
        assert_eq!(e["message"], "missing field `sessionKey`");
    }

    #[test]
    fn names_the_field_of_the_wrong_type() {
        let e = err(r#"{"point":"turn:pre","context":{"sessionKey":"s","toolArgs":"rm"}}"#);
        assert_eq!(e["field"], "context.toolArgs");
        assert_eq!(e["code"], "invalid_request");
    }

    #[test]
    fn malformed_json_has_a_position_and_no_field() {
        let e = err("{\"point\":\n  \"turn:pre\",,}");
        assert_eq!(e["code"], "invalid_json");
        assert_eq!(e["line"], 2);
        assert!(e.get("field").is_none());
    }

    #[test]
    fn unknown_envelope_fields_are_rejected() {
        let e = err(r#"{"point":"turn:pre","contxt":{}}"#);
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains("unknown field `contxt`"),
            "{e}"
        );
    }

    #[test]
    fn an_unknown_point_outranks_other_errors() {
        let e = unknown_point(br#"{"point":"bogus","context":{}}"#).unwrap();
        assert_eq!(e.status(), axum::http::StatusCode::NOT_FOUND);
        assert!(unknown_point(br#"{"point":"turn:pre","context":{}}"#).is_none());
        assert!(unknown_point(b"{").is_none());
    }

    #[test]
    fn unknown_points_are_404_with_a_hint() {
        let request: EvaluateRequest =
            serde_json::from_str(r#"{"point":"turn:tool:pree","context":{"sessionKey":"s"}}"#)
                .unwrap();
        let e = resolve(request, "").unwrap_err();
        assert_eq!(e.status(), axum::http::StatusCode::NOT_FOUND);
        let e = serde_json::to_value(&e).unwrap();
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains("did you mean `turn:tool:pre`")
        );
        assert_eq!(e["field"], "point");
    }
}
