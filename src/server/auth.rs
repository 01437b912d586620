//! Bearer-token authentication.
//!
//! Only the token's SHA-256 digest is kept, and the presented token is hashed and compared with
//! it in constant time: neither the content nor the length of the token leaks through timing.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::AppState;
use super::error::ApiError;

/// The daemon's shared secret.
#[derive(Clone)]
pub struct BearerToken {
    digest: [u8; 32],
}

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(..)")
    }
}

/// Why a token was refused at start-up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TokenError {
    /// Empty, or only whitespace.
    #[error("the token is empty")]
    Empty,
    /// Holds characters an HTTP header cannot carry.
    #[error("the token must be printable ASCII without spaces")]
    NotPrintable,
}

impl BearerToken {
    /// A token from its text; surrounding whitespace (a file's trailing newline) is ignored.
    pub fn new(secret: &str) -> Result<BearerToken, TokenError> {
        let secret = secret.trim();
        if secret.is_empty() {
            return Err(TokenError::Empty);
        }
        if !secret.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(TokenError::NotPrintable);
        }
        Ok(BearerToken {
            digest: Sha256::digest(secret.as_bytes()).into(),
        })
    }

    /// Whether `presented` is the token.
    pub fn verify(&self, presented: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        digest.ct_eq(&self.digest).into()
    }
}

/// Middleware: lets a request through only with `Authorization: Bearer <token>`, when the
/// daemon has a token.
pub(crate) async fn require_token(
    State(app): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(token) = &app.config.token else {
        return next.run(request).await;
    };
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer);
    match presented {
        Some(p) if token.verify(p) => next.run(request).await,
        Some(_) => ApiError::unauthorized("the bearer token is wrong").into_response(),
        None => ApiError::unauthorized("this route needs `Authorization: Bearer <token>`")
            .into_response(),
    }
}

/// The credentials of a `Bearer` authorization header (the scheme is case-insensitive).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, rest) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verifies_only_the_exact_token() {
        let token = BearerToken::new("s3cret-token\n").unwrap();
        assert!(token.verify("s3cret-token"));
        assert!(!token.verify("s3cret-toke"));
        assert!(!token.verify("s3cret-token2"));
        assert!(!token.verify(""));
    }

    #[test]
    fn refuses_empty_and_unprintable_tokens() {
        assert_eq!(BearerToken::new(" \n").unwrap_err(), TokenError::Empty);
        assert_eq!(
            BearerToken::new("a b").unwrap_err(),
            TokenError::NotPrintable
        );
        assert_eq!(BearerToken::new("é").unwrap_err(), TokenError::NotPrintable);
    }

    #[test]
    fn parses_bearer_headers() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer   abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer "), None);
        assert_eq!(bearer("Bearer"), None);
    }
}
