//! The operator console: `GET /` and its two assets, embedded in the binary.
//!
//! These routes are open: the shell holds no data and no secret. Everything the page shows
//! comes from the guarded API, which the page calls with `fetch` and either a bearer token or
//! the session cookie that the one-time login link sets (`GET /login`, see `auth::session`
//! and `console/console.js`). The headers lock the page down: only its own script and style
//! run (no inline code, so markup injected by data could not execute even if it reached the
//! DOM), it talks only to its own origin, it cannot be framed, and nothing is cached or sent
//! as a referrer.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::auth::session::{COOKIE, LIFETIME};

const INDEX_HTML: &str = include_str!("console/index.html");
const CONSOLE_CSS: &str = include_str!("console/console.css");
const CONSOLE_JS: &str = include_str!("console/console.js");

/// The Content-Security-Policy of every console response.
pub(crate) const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// Headers of every console response.
const HEADERS: [(HeaderName, &str); 6] = [
    (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    // The shell is tiny; not caching it means an upgraded daemon never runs an old script.
    (header::CACHE_CONTROL, "no-store"),
    // For browsers that predate `frame-ancestors`.
    (header::X_FRAME_OPTIONS, "DENY"),
    // Another site may not even load the script as a resource.
    (
        HeaderName::from_static("cross-origin-resource-policy"),
        "same-origin",
    ),
];

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = ([(header::CONTENT_TYPE, content_type)], body).into_response();
    let headers = response.headers_mut();
    for (name, value) in HEADERS {
        headers.insert(name, header::HeaderValue::from_static(value));
    }
    response
}

/// `GET /`: the page.
pub(crate) async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /console.css`.
pub(crate) async fn css() -> Response {
    asset("text/css; charset=utf-8", CONSOLE_CSS)
}

/// `GET /console.js`.
pub(crate) async fn js() -> Response {
    asset("text/javascript; charset=utf-8", CONSOLE_JS)
}

/// The query of `GET /login`.
#[derive(Debug, serde::Deserialize)]
pub(crate) struct Login {
    code: Option<String>,
}

/// `GET /login?code=…`: the one-time link `hookgate serve` printed. A good code opens a
/// session (the cookie) and sends the browser to the console; any other is refused.
pub(crate) async fn login(
    State(app): State<Arc<AppState>>,
    query: Result<Query<Login>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let code = query.ok().and_then(|Query(q)| q.code).unwrap_or_default();
    let Some(secret) = app.sessions.login(&code) else {
        tracing::warn!("a console login with a wrong or used code was refused");
        let page = "This login link is wrong or was used already. hookgate serve prints a new \
                    one in its terminal each time one is used.\n";
        return (
            StatusCode::FORBIDDEN,
            [(header::CACHE_CONTROL, "no-store")],
            page,
        )
            .into_response();
    };
    tracing::info!("a console session was opened with the login link");
    let cookie = format!(
        "{COOKIE}={secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}",
        LIFETIME.as_secs()
    );
    redirect_home(&cookie)
}

/// `POST /logout`: ends the console session and clears its cookie.
pub(crate) async fn logout(State(app): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    if let Some(secret) = super::auth::session_of(&headers) {
        app.sessions.logout(secret);
    }
    let cookie = format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    let mut response = StatusCode::NO_CONTENT.into_response();
    set_cookie(&mut response, &cookie);
    response
}

fn redirect_home(cookie: &str) -> Response {
    let mut response = (
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, "/"),
            (header::CACHE_CONTROL, "no-store"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
    )
        .into_response();
    set_cookie(&mut response, cookie);
    response
}

fn set_cookie(response: &mut Response, cookie: &str) {
    if let Ok(value) = HeaderValue::from_str(cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shell_has_no_inline_code() {
        // The CSP forbids inline script and style: any here would silently not run.
        let html = INDEX_HTML.to_ascii_lowercase();
        assert!(!html.contains("<script>"), "inline script");
        assert!(!html.contains("style="), "inline style attribute");
        assert!(!html.contains("<style"), "inline style element");
        let handler = html.match_indices(" on").any(|(i, _)| {
            let name: String = html[i + 3..]
                .chars()
                .take_while(char::is_ascii_alphabetic)
                .collect();
            html[i + 3 + name.len()..].starts_with('=')
        });
        assert!(!handler, "inline event handler");
        assert!(html.contains(r#"<script src="/console.js" defer></script>"#));
    }

    #[test]
    fn the_script_never_parses_data_as_markup() {
        for sink in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
        ] {
            assert!(!CONSOLE_JS.contains(sink), "console.js uses {sink}");
        }
    }
}
