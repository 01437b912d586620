//! The request body every route that reads one takes: bounded in size (`--max-body`) and in
//! time (`--body-timeout`, from the end of the headers to the last byte).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::ApiError;

/// The whole body, read within the body timeout.
pub(crate) struct Body(pub(crate) Bytes);

/// Why the body could not be read; a timed-out connection is closed.
pub(crate) struct BodyRejection(ApiError, bool);

impl IntoResponse for BodyRejection {
    fn into_response(self) -> Response {
        let mut response = self.0.into_response();
        if self.1 {
            // The rest of the body is never read: the connection cannot be reused.
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

impl FromRequest<Arc<AppState>> for Body {
    type Rejection = BodyRejection;

    async fn from_request(request: Request, app: &Arc<AppState>) -> Result<Self, Self::Rejection> {
        let limit = app.config.body_timeout;
        match tokio::time::timeout(limit, Bytes::from_request(request, app)).await {
            Ok(Ok(bytes)) => Ok(Body(bytes)),
            Ok(Err(rejection)) => Err(BodyRejection(
                ApiError::from_body(rejection, app.config.body_limit),
                false,
            )),
            Err(_) => Err(BodyRejection(
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "body_timeout",
                    format!(
                        "the request body was not received within {} ms",
                        limit.as_millis()
                    ),
                ),
                true,
            )),
        }
    }
}
