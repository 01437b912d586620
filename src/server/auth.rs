//! Bearer-token authentication.
//!
//! Only the token's SHA-256 digest is kept, and the presented token is hashed and compared with
//! it in constant time: neither the content nor the length of the token leaks through timing.
//!
//! Without a token (loopback only), the daemon must still not obey a web page that the
//! operator happens to have open: a page elsewhere can send a "simple" cross-origin POST
//! (no preflight) to `127.0.0.1`, or rebind its own host name to `127.0.0.1` and read the
//! answers. So a tokenless daemon answers only requests addressed to a loopback host name,
//! and, from browsers, only same-origin ones (see [`local_request`]). With a token, neither
//! attack can present it: the browser never adds an `Authorization` header by itself.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::AppState;
use super::error::ApiError;

/// The most a token file may hold, in bytes: a token is a line of printable ASCII, and a
/// token file is read only if it is a regular file no larger than this (see
/// [`regular_file`](crate::config::regular_file)).
pub const MAX_TOKEN_FILE_BYTES: u64 = 4096;

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
        return match local_request(request.headers()) {
            Ok(()) => next.run(request).await,
            Err(why) => ApiError::new(StatusCode::FORBIDDEN, "forbidden", why).into_response(),
        };
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

/// Whether a request to a tokenless daemon comes from this host's programs or from the
/// console it serves: its `Host` is a loopback name (`127.0.0.1`, `[::1]`, `localhost`; a
/// rebound DNS name is not), and a browser's `Origin` and `Sec-Fetch-Site`, when present,
/// say same-origin. Programs that send neither header are unaffected.
fn local_request(headers: &HeaderMap) -> Result<(), &'static str> {
    const REFUSED: &str = "without a token, this daemon answers only requests to 127.0.0.1, \
                           [::1] or localhost, and no cross-origin browser request; set a token \
                           to be reached otherwise";
    let text = |name| headers.get(name).map(|v| v.to_str().unwrap_or(""));
    let host = text(header::HOST);
    if host.is_some_and(|h| !loopback_host(h)) {
        return Err(REFUSED);
    }
    if let Some(origin) = text(header::ORIGIN) {
        let same = host.is_some_and(|h| {
            origin
                .strip_prefix("http://")
                .is_some_and(|o| o.eq_ignore_ascii_case(h))
        });
        if !same {
            return Err(REFUSED);
        }
    }
    if text(header::HeaderName::from_static("sec-fetch-site"))
        .is_some_and(|site| site != "same-origin" && site != "none")
    {
        return Err(REFUSED);
    }
    Ok(())
}

/// Whether a `Host` header names this machine by a name no DNS answer can change.
fn loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or("", |(ip, _)| ip),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
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
    fn recognises_loopback_hosts() {
        for host in [
            "127.0.0.1:18790",
            "127.0.0.1",
            "127.1.2.3:80",
            "[::1]:18790",
            "[::1]",
            "localhost:1",
            "LOCALHOST",
        ] {
            assert!(loopback_host(host), "{host}");
        }
        for host in [
            "evil.example:18790",
            "10.0.0.1:18790",
            "localhost.evil.example",
            "[::2]:1",
            "",
            "[::1",
            "0.0.0.0:18790",
        ] {
            assert!(!loopback_host(host), "{host}");
        }
    }

    #[test]
    fn a_tokenless_daemon_refuses_foreign_hosts_and_cross_origin_browsers() {
        let headers = |pairs: &[(&'static str, &str)]| {
            let mut map = HeaderMap::new();
            for (k, v) in pairs {
                map.insert(*k, v.parse().unwrap());
            }
            map
        };
        let host = ("host", "127.0.0.1:18790");
        assert!(local_request(&headers(&[])).is_ok());
        assert!(local_request(&headers(&[host])).is_ok());
        assert!(local_request(&headers(&[host, ("origin", "http://127.0.0.1:18790")])).is_ok());
        assert!(local_request(&headers(&[host, ("sec-fetch-site", "same-origin")])).is_ok());
        assert!(local_request(&headers(&[("host", "rebound.evil.example:18790")])).is_err());
        assert!(local_request(&headers(&[host, ("origin", "https://evil.example")])).is_err());
        assert!(local_request(&headers(&[host, ("origin", "null")])).is_err());
        assert!(local_request(&headers(&[host, ("origin", "http://localhost:18790")])).is_err());
        assert!(local_request(&headers(&[host, ("sec-fetch-site", "cross-site")])).is_err());
        assert!(local_request(&headers(&[host, ("sec-fetch-site", "same-site")])).is_err());
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
