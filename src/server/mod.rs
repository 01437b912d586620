//! The daemon: the engine over HTTP, with authentication, limits, metrics and live reload.
//!
//! Routes (`docs/daemon.md`): each guarded route needs a role ([`router`] lists them, `auth`
//! says who has which); `GET /healthz`, `GET /readyz`, the console's shell (`GET /` and its
//! two assets, which hold no data) and its login are open. Every error is a JSON body naming
//! what was wrong.

mod adapters;
mod admin;
mod approvals;
mod auth;
mod body;
mod console;
mod decision_log;
mod decisions;
mod error;
mod evaluate;
mod metrics;
mod recent;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use metrics_exporter_prometheus::PrometheusHandle;
use tower_http::catch_panic::CatchPanicLayer;

pub(crate) use crate::mask::{DEFAULT_MASKED_FIELDS, FieldMask};
pub(crate) use auth::{BearerToken, LoginAnnouncer, MAX_TOKEN_FILE_BYTES, Tokens};
pub(crate) use decision_log::DecisionLog;
pub(crate) use metrics::install_recorder;

use crate::engine::{EvalPool, PoolConfig};
use crate::reload::LivePolicy;
use error::ApiError;
use recent::RecentDecisions;

/// The default listen address.
pub(crate) const DEFAULT_LISTEN: &str = "127.0.0.1:18790";
/// The default request body limit: 1 MiB.
pub(crate) const DEFAULT_BODY_LIMIT: usize = 1024 * 1024;
/// The default time a request may take, actions included.
pub(crate) const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// How often pending approval requests past their expiry are resolved.
const APPROVAL_SWEEP: Duration = Duration::from_millis(500);
/// The default largest batch of `POST /v1/evaluate`.
pub(crate) const DEFAULT_MAX_BATCH: usize = 1000;
/// The default time a client has to send a request's headers (and, on a kept-alive
/// connection, to start the next request) before the connection is closed.
pub(crate) const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The default time a client has to send a request's body, from the end of its headers.
pub(crate) const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The default largest number of connections served at once.
pub(crate) const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// How long to pause accepting after an accept error that is not the client's (such as
/// too many open files), so the loop does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// How the daemon treats requests.
#[derive(Debug, Clone)]
pub(crate) struct ServerConfig {
    /// One token per role (see `docs/daemon.md`, "Roles").
    pub tokens: Tokens,
    /// Where the console's one-time login codes go; without it, no console login exists.
    pub console_login: Option<LoginAnnouncer>,
    /// Largest request body, in bytes.
    pub body_limit: usize,
    /// Longest a request may take before it is answered 503.
    pub request_timeout: Duration,
    /// Largest batch of evaluations in one request.
    pub max_batch: usize,
    /// Longest a client may take to send a request's headers, or to start the next request
    /// on a kept-alive connection; then the connection is closed.
    pub header_timeout: Duration,
    /// Longest a client may take to send a request's body once its headers are in; then
    /// 408 and the connection is closed.
    pub body_timeout: Duration,
    /// Most connections served at once. Past it the daemon stops accepting until one
    /// closes: new connections wait in the listen backlog, they are not refused.
    pub max_connections: usize,
    /// Where each decision is logged, if anywhere.
    pub decision_log: Option<DecisionLog>,
    /// Tool-argument fields hidden from `GET /v1/decisions` (the decision log has its own).
    pub mask: FieldMask,
    /// The threads, queue and time limit of the filter checks.
    pub evaluation: PoolConfig,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            tokens: Tokens::default(),
            console_login: None,
            body_limit: DEFAULT_BODY_LIMIT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            max_batch: DEFAULT_MAX_BATCH,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            decision_log: None,
            mask: FieldMask::default(),
            evaluation: PoolConfig::default(),
        }
    }
}

/// What every request handler shares.
#[derive(Debug)]
pub(crate) struct AppState {
    live: Arc<LivePolicy>,
    config: ServerConfig,
    metrics: Option<PrometheusHandle>,
    draining: AtomicBool,
    /// The last decisions, for the console.
    recent: RecentDecisions,
    /// The console's login code and sessions.
    sessions: auth::session::Sessions,
    /// Where filters are checked, off the async workers.
    pool: EvalPool,
}

impl AppState {
    /// State over `live`; `metrics` renders `/metrics` (see [`install_recorder`]). Starts the
    /// evaluation pool's threads, which is what can fail.
    pub(crate) fn new(
        live: Arc<LivePolicy>,
        config: ServerConfig,
        metrics: Option<PrometheusHandle>,
    ) -> std::io::Result<Arc<AppState>> {
        let sessions = auth::session::Sessions::new(config.console_login.clone());
        let pool = EvalPool::new(config.evaluation)?;
        Ok(Arc::new(AppState {
            live,
            sessions,
            config,
            metrics,
            draining: AtomicBool::new(false),
            recent: RecentDecisions::default(),
            pool,
        }))
    }
}

/// The daemon's routes and middleware. Each guarded route names the [`auth::Access`] it
/// needs, here in one table.
pub(crate) fn router(app: Arc<AppState>) -> Router {
    use auth::Access::{Admin, Approve, Evaluate, Read};
    let need = |access| middleware::from_fn_with_state((Arc::clone(&app), access), auth::require);
    // Evaluations bound their own time: one that waits for a human may take longer.
    let bounded = Router::new()
        .route("/v1/status", get(admin::status).route_layer(need(Read)))
        .route("/metrics", get(admin::metrics).route_layer(need(Read)))
        .route(
            "/v1/decisions",
            get(decisions::list).route_layer(need(Read)),
        )
        .route(
            "/v1/approvals",
            get(approvals::list).route_layer(need(Read)),
        )
        .route(
            "/v1/approvals/history",
            get(approvals::history).route_layer(need(Read)),
        )
        .route(
            "/v1/approvals/{id}",
            get(approvals::show)
                .route_layer(need(Read))
                .merge(post(approvals::decide).route_layer(need(Approve))),
        )
        .route("/v1/grants", get(approvals::grants).route_layer(need(Read)))
        .route(
            "/v1/grants/{id}",
            axum::routing::delete(approvals::revoke).route_layer(need(Approve)),
        )
        .route("/v1/reload", post(admin::reload).route_layer(need(Admin)))
        .route(
            "/v1/hooks/{name}",
            post(admin::switch_hook).route_layer(need(Admin)),
        )
        .route_layer(middleware::from_fn_with_state(Arc::clone(&app), time_limit));
    let evaluate = Router::new()
        .route("/v1/evaluate", post(evaluate::handle))
        .route("/v1/claude-code", post(adapters::claude_code))
        .route("/v1/hook/{gateway}", post(adapters::hook))
        .route("/v1/openclaw/{hook}", post(adapters::openclaw))
        .route_layer(need(Evaluate));
    Router::new()
        .route("/healthz", get(admin::healthz))
        .route("/readyz", get(admin::readyz))
        .route("/", get(console::index))
        .route("/console.css", get(console::css))
        .route("/console.js", get(console::js))
        .route("/login", get(console::login))
        .route("/logout", post(console::logout))
        .merge(bounded)
        .merge(evaluate)
        .fallback(admin::not_found)
        .method_not_allowed_fallback(admin::method_not_allowed)
        .layer(DefaultBodyLimit::max(app.config.body_limit))
        .layer(CatchPanicLayer::custom(panic_response))
        .with_state(app)
}

/// Serves on `listener` until `shutdown` resolves; then stops accepting, lets requests in
/// flight finish, and flushes the logs.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let upkeep = app.metrics.clone().map(|handle| {
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(metrics::UPKEEP_INTERVAL).await;
                handle.run_upkeep();
            }
        })
    });
    let sweeper = app.live.services().approvals().cloned().map(|approvals| {
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(APPROVAL_SWEEP).await;
                if approvals.unavailable().is_some() {
                    // Nothing can be recorded (and the failure was logged once).
                    continue;
                }
                if let Err(e) = approvals.expire_due().await {
                    tracing::error!(error = %e, "cannot record expired approval requests");
                }
            }
        })
    });
    app.sessions.issue_code();
    let served = accept_loop(listener, Arc::clone(&app), shutdown).await;
    for task in [upkeep, sweeper].into_iter().flatten() {
        task.abort();
    }
    app.live.current().engine().flush().await;
    served
}

/// Accepts connections until `shutdown` resolves, at most `max_connections` at a time, each
/// served over HTTP/1.1 with the header timeout; then lets the open ones finish.
async fn accept_loop(
    listener: tokio::net::TcpListener,
    app: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::server::graceful::GracefulShutdown;
    use hyper_util::service::TowerToHyperService;

    let service = TowerToHyperService::new(router(Arc::clone(&app)));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(app.config.header_timeout);
    let slots = Arc::new(tokio::sync::Semaphore::new(
        app.config.max_connections.max(1),
    ));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // A slot first: past the limit, connections wait in the kernel's backlog.
        let slot = tokio::select! {
            biased;
            () = &mut shutdown => break,
            slot = Arc::clone(&slots).acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
        };
        let tcp = tokio::select! {
            biased;
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    if !is_connection_error(&e) {
                        tracing::error!(error = %e, "cannot accept a connection");
                        tokio::time::sleep(ACCEPT_BACKOFF).await;
                    }
                    continue;
                }
            },
        };
        // Request/response over keep-alive: Nagle's algorithm would add delayed-ACK stalls.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
        let connection = graceful.watch(http.serve_connection(TokioIo::new(tcp), service.clone()));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                // Header timeouts, resets and malformed requests end up here.
                tracing::debug!(error = %e, "connection closed");
            }
            drop(slot);
        });
    }
    app.draining.store(true, Ordering::Relaxed);
    if let Some(approvals) = app.live.services().approvals() {
        approvals.release_waiters();
    }
    tracing::info!("shutting down: finishing requests in flight");
    graceful.shutdown().await;
    Ok(())
}

/// Accept errors about one connection (the client went away); any other error is the
/// listener's own.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        e.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    )
}

/// Answers 503 when a request runs over the configured time; the gateway should treat that
/// as it treats any gate failure (fail closed).
pub(crate) async fn time_limit(
    State(app): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let limit = app.config.request_timeout;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "timeout",
            format!("the request took longer than {} ms", limit.as_millis()),
        )
        .into_response(),
    }
}

fn panic_response(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let detail = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("unknown");
    tracing::error!(panic = detail, "request handler panicked");
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "internal error; see the daemon's log",
    )
    .into_response()
}
