//! Who may call which route: roles, their bearer tokens, and the console's login.
//!
//! Each route needs one [`Access`]; a request's grants are the union of what its credentials
//! give: a role's bearer token ([`Tokens`]), a console session ([`session`]), and, when the
//! daemon has no evaluate token, being a local request (see [`local_request`]), which gives
//! what the gateway's token would. Approving and administering are never given to a request
//! for being local: without their tokens, only a console session opened with the one-time
//! link that `hookgate serve` prints to its own terminal has them. The agent behind the gate
//! is local too.
//!
//! A local request must still not be a web page that the operator happens to have open: a page
//! elsewhere can send a "simple" cross-origin POST (no preflight) to `127.0.0.1`, or rebind its
//! own host name to `127.0.0.1` and read the answers. So local means addressed to a loopback
//! host name and, from browsers, same-origin. A page cannot present a token (the browser never
//! adds an `Authorization` header by itself) nor the session cookie (`SameSite=Strict`).

mod roles;
pub(crate) mod session;
mod token;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub(crate) use roles::Tokens;
pub(crate) use roles::{Access, Grants};
pub(crate) use session::LoginAnnouncer;
pub(crate) use token::{BearerToken, MAX_TOKEN_FILE_BYTES};

use super::AppState;
use super::error::ApiError;

/// Middleware: lets a request through when its credentials grant `access`; otherwise 401
/// (no credentials, or a wrong token) or 403, naming the role the route needs.
pub(crate) async fn require(
    State((app, access)): State<(Arc<AppState>, Access)>,
    request: Request,
    next: Next,
) -> Response {
    match grants(&app, request.headers()) {
        Ok((grants, _)) if grants.allows(access) => next.run(request).await,
        Ok((_, presented)) => missing(access, presented, &app.config.tokens).into_response(),
        Err(e) => e.into_response(),
    }
}

/// What the request's credentials grant, and whether it presented any.
pub(crate) fn grants(app: &AppState, headers: &HeaderMap) -> Result<(Grants, bool), ApiError> {
    let tokens = &app.config.tokens;
    let mut grants = Grants::default();
    let mut presented = false;
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let token = value.to_str().ok().and_then(bearer).ok_or_else(|| {
            ApiError::unauthorized("the Authorization header must be `Bearer <token>`")
        })?;
        grants = tokens
            .grants_of(token)
            .ok_or_else(|| ApiError::unauthorized("the bearer token is wrong"))?;
        presented = true;
    }
    if let Some(session) = session_of(headers)
        && app.sessions.valid(session)
    {
        presented = true;
        // The cookie is SameSite=Strict; a browser that says otherwise is refused anyway.
        if same_origin(headers) {
            grants = grants.with(Grants::CONSOLE);
        }
    }
    if tokens.evaluate.is_none() && local_request(headers).is_ok() {
        grants = grants.with(Grants::GATEWAY);
    }
    Ok((grants, presented))
}

/// The answer to a request whose credentials do not grant `access`.
fn missing(access: Access, presented: bool, tokens: &Tokens) -> ApiError {
    let how = match access {
        Access::Evaluate => "the evaluate token (`hookgate serve --token-file`)",
        Access::Read => "the token of any role",
        Access::Approve => {
            "the approve token (`hookgate serve --approver-token-file`) or a console session \
             opened with the one-time login link that `hookgate serve` prints"
        }
        Access::Admin => {
            "the admin token (`hookgate serve --admin-token-file`) or a console session opened \
             with the one-time login link that `hookgate serve` prints"
        }
    };
    let message = format!("this route needs the {} role: {how}", access.role());
    if presented {
        return ApiError::new(StatusCode::FORBIDDEN, "forbidden", message);
    }
    let open_locally = match access {
        Access::Evaluate => tokens.evaluate.is_none(),
        Access::Read => !tokens.any(),
        Access::Approve | Access::Admin => false,
    };
    if open_locally {
        // Open to local requests, so only one that is not local ends up here.
        return ApiError::new(StatusCode::FORBIDDEN, "forbidden", NOT_LOCAL);
    }
    ApiError::unauthorized(&message)
}

const NOT_LOCAL: &str = "without a token, this daemon answers only requests to 127.0.0.1, \
                         [::1] or localhost, and no cross-origin browser request; set a token \
                         to be reached otherwise";

/// The console session a request presents, if any.
pub(crate) fn session_of(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(session::cookie)
}

/// Whether a browser says the request comes from the page's own origin (a program that sends
/// neither `Origin` nor `Sec-Fetch-Site` is not a page).
fn same_origin(headers: &HeaderMap) -> bool {
    let text = |name| headers.get(name).map(|v| v.to_str().unwrap_or(""));
    let host = text(header::HOST);
    let origin_ok = text(header::ORIGIN).is_none_or(|origin| {
        host.is_some_and(|h| {
            ["http://", "https://"].iter().any(|scheme| {
                origin
                    .strip_prefix(scheme)
                    .is_some_and(|o| o.eq_ignore_ascii_case(h))
            })
        })
    });
    let site_ok = text(header::HeaderName::from_static("sec-fetch-site"))
        .is_none_or(|site| site == "same-origin" || site == "none");
    origin_ok && site_ok
}

/// Whether a request to a tokenless daemon comes from this host's programs or from the
/// console it serves: its `Host` is a loopback name (`127.0.0.1`, `[::1]`, `localhost`; a
/// rebound DNS name is not), and a browser's `Origin` and `Sec-Fetch-Site`, when present,
/// say same-origin. Programs that send neither header are unaffected.
fn local_request(headers: &HeaderMap) -> Result<(), &'static str> {
    let text = |name| headers.get(name).map(|v| v.to_str().unwrap_or(""));
    let host = text(header::HOST);
    if host.is_some_and(|h| !loopback_host(h)) {
        return Err(NOT_LOCAL);
    }
    if let Some(origin) = text(header::ORIGIN) {
        let same = host.is_some_and(|h| {
            origin
                .strip_prefix("http://")
                .is_some_and(|o| o.eq_ignore_ascii_case(h))
        });
        if !same {
            return Err(NOT_LOCAL);
        }
    }
    if text(header::HeaderName::from_static("sec-fetch-site"))
        .is_some_and(|site| site != "same-origin" && site != "none")
    {
        return Err(NOT_LOCAL);
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
