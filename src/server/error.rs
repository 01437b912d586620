//! Errors the daemon answers with: always JSON, always naming what was wrong.

use axum::Json;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// An error response: `{"error": {"status", "code", "message", "field"?, "line"?, "column"?}}`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ApiError {
    #[serde(skip)]
    status: StatusCode,
    code: &'static str,
    message: String,
    /// The request field at fault, as a path (`context.toolArgs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            field: None,
            line: None,
            column: None,
        }
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_request", message)
    }

    pub(crate) fn unauthorized(message: &str) -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    pub(crate) fn not_found(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub(crate) fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub(crate) fn at(mut self, line: usize, column: usize) -> Self {
        if line > 0 {
            self.line = Some(line);
            self.column = Some(column);
        }
        self
    }

    #[cfg(test)]
    pub(crate) fn status(&self) -> StatusCode {
        self.status
    }
}

#[derive(Serialize)]
struct Envelope<'a> {
    error: Body<'a>,
}

#[derive(Serialize)]
struct Body<'a> {
    status: u16,
    #[serde(flatten)]
    error: &'a ApiError,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = Envelope {
            error: Body {
                status: self.status.as_u16(),
                error: &self,
            },
        };
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

impl ApiError {
    /// The body could not be read: over `limit` bytes (413), or broken off.
    pub(crate) fn from_body(rejection: BytesRejection, limit: usize) -> Self {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                "body_too_large",
                format!("the request body is over the {limit}-byte limit"),
            )
        } else {
            ApiError::new(status, "unreadable_body", rejection.body_text())
        }
    }
}
