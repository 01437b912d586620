//! `hookgate serve`: the daemon, with hot reload, signals and graceful shutdown.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::actions::Services;
use crate::approvals::{
    ApprovalStore, Approvals, DEFAULT_COMPACT_BYTES, DEFAULT_MAX_PENDING, FileStore, Options,
};
use crate::engine::PoolConfig;
use crate::regular_file::{FileError, RegularFile};
use crate::reload::{LivePolicy, PolicyWatcher, ReloadTrigger};
use crate::server::{
    self, AppState, BearerToken, DEFAULT_MASKED_FIELDS, DecisionLog, FieldMask, LoginAnnouncer,
    MAX_TOKEN_FILE_BYTES, ServerConfig, Tokens,
};
use tokio::signal::unix::{SignalKind, signal};

use super::{EXIT_ERROR, LogFormat, report};

/// Arguments of `hookgate serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Policy file (default: $HOOKGATE_CONFIG, $OPENCLAW_HOOKS_CONFIG, ./HOOKS.yaml,
    /// $OPENCLAW_WORKSPACE/HOOKS.yaml).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Address to listen on. Anything but loopback needs an evaluate token.
    #[arg(long, default_value = server::DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// File holding the evaluate token, the gateway's (default: $HOOKGATE_TOKEN). Without
    /// it, local requests may evaluate.
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// File holding the approve token, people's: decide approvals, revoke grants (default:
    /// $HOOKGATE_APPROVER_TOKEN). Without it, only the console's login link approves.
    #[arg(long, value_name = "FILE")]
    approver_token_file: Option<PathBuf>,
    /// File holding the admin token: reload, switch hooks, and all the rest (default:
    /// $HOOKGATE_ADMIN_TOKEN). Without it, only the console's login link administers.
    #[arg(long, value_name = "FILE")]
    admin_token_file: Option<PathBuf>,
    /// Largest request body, in bytes.
    #[arg(long, default_value_t = server::DEFAULT_BODY_LIMIT, value_name = "BYTES")]
    max_body: usize,
    /// Longest a request may take, actions included (e.g. 30s, 500ms); then 503.
    #[arg(long, default_value = "30s", value_parser = humantime::parse_duration)]
    request_timeout: Duration,
    /// Largest batch of evaluations in one request.
    #[arg(long, default_value_t = server::DEFAULT_MAX_BATCH)]
    max_batch: usize,
    /// Longest a client may take to send a request's headers, or to start its next request
    /// on a kept-alive connection; then the connection is closed.
    #[arg(long, default_value = "10s", value_parser = positive_duration)]
    header_timeout: Duration,
    /// Longest a client may take to send a request's body after its headers; then 408 and
    /// the connection is closed.
    #[arg(long, default_value = "30s", value_parser = positive_duration)]
    body_timeout: Duration,
    /// Most connections served at once; past it new connections wait to be accepted.
    #[arg(long, default_value_t = server::DEFAULT_MAX_CONNECTIONS, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u32).range(1..), |n| n as usize))]
    max_connections: usize,
    /// Append one JSON line per decision to this file.
    #[arg(long, value_name = "FILE.jsonl")]
    decision_log: Option<PathBuf>,
    /// Tool-argument field names to mask in the decision log and the console: a field is
    /// masked when its name contains one of these, ignoring case.
    #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_MASKED_FIELDS.iter().map(|s| s.to_string()))]
    mask_fields: Vec<String>,
    /// The approvals file (default: approvals.json beside the policy).
    #[arg(long, value_name = "FILE")]
    approvals: Option<PathBuf>,
    /// When the approvals file is unreadable or corrupt: `refuse` to start (default), or
    /// start with approvals `deny-all` (every require_approval call is denied).
    #[arg(long, value_enum, default_value_t)]
    approvals_fallback: ApprovalsFallback,
    /// Most approval requests pending at once; past it a new request is denied, with the
    /// limit in the message, until some are decided or expire.
    #[arg(long, default_value_t = DEFAULT_MAX_PENDING, value_name = "N", value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u32).range(1..), |n| n as usize))]
    max_pending_approvals: usize,
    /// Size of the approvals journal past which it is folded into the approvals file.
    #[arg(long, default_value_t = DEFAULT_COMPACT_BYTES, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    approvals_journal_limit: u64,
    /// Do not watch the policy file; reload only on SIGHUP or POST /v1/reload.
    #[arg(long)]
    no_watch: bool,
    /// Threads answering requests (default: one less than the CPUs, at least one, so the
    /// gateway calling on the same host keeps a core and tail latency stays low).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    workers: Option<u16>,
    /// Threads that check filters (read commands, run regexes), off the threads answering
    /// requests (default: the CPUs); one more is kept for calls with little text.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    eval_threads: Option<u16>,
    /// Evaluations that may wait for a filter-checking thread; past it a call is blocked at
    /// once (fail closed).
    #[arg(long, default_value_t = crate::engine::pool::DEFAULT_QUEUE, value_name = "N")]
    eval_queue: usize,
    /// Longest an evaluation's filter checks may take, waiting for a thread included; then
    /// the call is blocked (fail closed). Actions and approval waits are not counted.
    #[arg(long, default_value = "1s", value_parser = positive_duration)]
    eval_time_limit: Duration,
    /// How long the policy file must be quiet before a change is reloaded.
    #[arg(long, default_value = "50ms", value_parser = humantime::parse_duration)]
    reload_debounce: Duration,
}

/// What to do when the approvals file cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
enum ApprovalsFallback {
    /// Refuse to start, and say why.
    #[default]
    Refuse,
    /// Start, denying every approval request, and say why in the log and /v1/approvals.
    DenyAll,
}

pub(crate) fn run(args: Args, log_format: LogFormat) -> u8 {
    match start(args, log_format) {
        Ok(()) => 0,
        Err(Failure::Reported) => EXIT_ERROR,
        Err(Failure::Message(message)) => {
            eprintln!("error: {message}");
            EXIT_ERROR
        }
    }
}

enum Failure {
    /// Already printed (a policy report).
    Reported,
    Message(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Message(message)
    }
}

fn start(args: Args, log_format: LogFormat) -> Result<(), Failure> {
    let tokens = Tokens {
        evaluate: load_token(args.token_file.as_deref(), "HOOKGATE_TOKEN")?,
        approve: load_token(
            args.approver_token_file.as_deref(),
            "HOOKGATE_APPROVER_TOKEN",
        )?,
        admin: load_token(args.admin_token_file.as_deref(), "HOOKGATE_ADMIN_TOKEN")?,
    };
    tokens.check().map_err(|e| e.to_string())?;
    if tokens.evaluate.is_none() && !args.listen.ip().is_loopback() {
        return Err(format!(
            "refusing to listen on {} without a token: anyone who can reach it could evaluate. \
             Set the evaluate token (HOOKGATE_TOKEN or --token-file), or listen on 127.0.0.1",
            args.listen
        )
        .into());
    }
    let path = super::policy_path(args.config.as_deref()).map_err(|e| {
        report::print_config_error(&e);
        Failure::Reported
    })?;
    let workers = args.workers.map_or_else(default_workers, usize::from);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    // One mask for the decision log, the console's recent decisions and approval requests.
    let mask = FieldMask::new(args.mask_fields.iter().map(String::as_str));
    let options = Options {
        max_pending: args.max_pending_approvals,
        mask: mask.clone(),
    };
    let approvals = open_approvals(
        &path,
        args.approvals.as_deref(),
        args.approvals_journal_limit,
        options,
        args.approvals_fallback,
    )?;
    let services = Services::default().with_approvals(Arc::new(approvals));
    let live = LivePolicy::load(&path, Arc::new(services)).map_err(|e| {
        report::print_config_error(&e);
        Failure::Reported
    })?;
    let config = ServerConfig {
        tokens,
        console_login: None,
        body_limit: args.max_body,
        request_timeout: args.request_timeout,
        max_batch: args.max_batch,
        header_timeout: args.header_timeout,
        body_timeout: args.body_timeout,
        max_connections: args.max_connections,
        decision_log: args.decision_log.map(|path| DecisionLog {
            path,
            mask: mask.clone(),
        }),
        mask,
        evaluation: PoolConfig {
            threads: args
                .eval_threads
                .map_or_else(|| PoolConfig::default().threads, usize::from),
            queue: args.eval_queue,
            time_limit: args.eval_time_limit,
        },
    };
    runtime.block_on(serve(
        Arc::new(live),
        config,
        log_format,
        args.listen,
        (!args.no_watch).then_some(args.reload_debounce),
    ))
}

async fn serve(
    live: Arc<LivePolicy>,
    mut config: ServerConfig,
    log_format: LogFormat,
    listen: SocketAddr,
    watch: Option<Duration>,
) -> Result<(), Failure> {
    // Said in the listening line, once the config has gone to the server.
    let roles = token_roles(&config.tokens);
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    config.console_login = Some(login_announcer(local, log_format));
    let _watcher = match watch {
        Some(debounce) => match PolicyWatcher::start(Arc::clone(&live), debounce) {
            Ok(w) => Some(w),
            Err(e) => {
                tracing::error!(error = %e, "not watching the policy file; reload with SIGHUP or POST /v1/reload");
                None
            }
        },
        None => None,
    };
    let mut hangup =
        signal(SignalKind::hangup()).map_err(|e| format!("cannot handle SIGHUP: {e}"))?;
    // Every handler is installed before the daemon says it is listening, so a signal sent
    // as soon as it is up shuts it down cleanly.
    let mut terminate =
        signal(SignalKind::terminate()).map_err(|e| format!("cannot handle SIGTERM: {e}"))?;
    let mut interrupt =
        signal(SignalKind::interrupt()).map_err(|e| format!("cannot handle SIGINT: {e}"))?;
    let reloader = {
        let live = Arc::clone(&live);
        tokio::spawn(async move {
            while hangup.recv().await.is_some() {
                live.services().reopen_logs().await;
                live.reload(ReloadTrigger::Signal).await;
            }
        })
    };
    let shutdown = async move {
        tokio::select! {
            _ = terminate.recv() => tracing::info!("SIGTERM received"),
            _ = interrupt.recv() => tracing::info!("SIGINT received"),
        }
    };
    let app = AppState::new(Arc::clone(&live), config, server::install_recorder())
        .map_err(|e| format!("cannot start the evaluation threads: {e}"))?;
    let active = live.current();
    tracing::info!(
        policy = %live.path().display(),
        hooks = active.engine().graph().hooks().len(),
        hash = active.hash(),
        tokens = %roles,
        "listening on http://{local}"
    );
    drop(active);
    let served = server::serve(listener, app, shutdown).await;
    reloader.abort();
    served.map_err(|e| Failure::Message(format!("the server failed: {e}")))?;
    tracing::info!("stopped");
    Ok(())
}

/// A duration above zero (a zero timeout would cut off every client).
fn positive_duration(text: &str) -> Result<Duration, String> {
    match humantime::parse_duration(text) {
        Ok(d) if d.is_zero() => Err("must be above zero".to_owned()),
        Ok(d) => Ok(d),
        Err(e) => Err(e.to_string()),
    }
}

/// One less than the CPUs, at least one. Measured on 2 cores with the load generator on the
/// same host: two workers gave 3.9 ms p99 at 8 connections, one worker 0.5 ms (docs/performance.md).
fn default_workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get().saturating_sub(1))
        .max(1)
}

/// The approvals kept beside the policy (or in `file`). A file that cannot be used stops the
/// start, unless the fallback says deny-all; it is never replaced. Runs before the runtime
/// serves: the store is read here, on the main thread.
fn open_approvals(
    policy: &Path,
    file: Option<&Path>,
    journal_limit: u64,
    options: Options,
    fallback: ApprovalsFallback,
) -> Result<Approvals, String> {
    let path = file.map_or_else(
        || policy.with_file_name("approvals.json"),
        Path::to_path_buf,
    );
    let mut store = FileStore::open(&path)
        .map_err(|e| format!("approvals: {e}"))?
        .compact_after(journal_limit);
    match store.load() {
        Ok(state) => {
            Approvals::start(Box::new(store), state, options).map_err(|e| format!("approvals: {e}"))
        }
        Err(e) => match fallback {
            ApprovalsFallback::Refuse => Err(format!(
                "approvals: {e}. The file is left as it is; fix or move it, or start with \
                 --approvals-fallback deny-all"
            )),
            ApprovalsFallback::DenyAll => {
                tracing::error!(error = %e, "approvals unavailable: every require_approval call is denied");
                Ok(Approvals::deny_all(Box::new(store), e.to_string()))
            }
        },
    }
}

/// A role's token from its file, else from `env`; none when neither is given. The file must
/// be a regular file of at most [`MAX_TOKEN_FILE_BYTES`] (a FIFO or a device is refused,
/// never waited on) that no other user may read or write.
fn load_token(file: Option<&Path>, env: &str) -> Result<Option<BearerToken>, String> {
    let (text, origin) = match file {
        Some(path) => {
            let cannot =
                |why: &str| format!("cannot read the token file `{}`: {why}", path.display());
            let file = RegularFile::open(path).map_err(|e: FileError| cannot(&e.reason()))?;
            private(file.metadata())
                .map_err(|why| format!("refusing the token file `{}`: {why}", path.display()))?;
            let text = file
                .read_to_string(MAX_TOKEN_FILE_BYTES)
                .map_err(|e| cannot(&e.reason()))?;
            (text, format!("the token file `{}`", path.display()))
        }
        None => match std::env::var(env) {
            Ok(text) => (text, env.to_owned()),
            Err(std::env::VarError::NotPresent) => return Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => {
                return Err(format!("{env} is not valid UTF-8"));
            }
        },
    };
    BearerToken::new(&text)
        .map(Some)
        .map_err(|e| format!("{origin}: {e}"))
}

/// A token file is the credential itself: group or other access of any kind refuses it.
fn private(meta: &std::fs::Metadata) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(format!(
            "its mode is {mode:03o}, so other users may read or change it; chmod 600 it"
        ));
    }
    Ok(())
}

/// The roles that have a token, for the start-up line.
fn token_roles(tokens: &Tokens) -> String {
    let roles: Vec<&str> = [
        ("evaluate", tokens.evaluate.is_some()),
        ("approve", tokens.approve.is_some()),
        ("admin", tokens.admin.is_some()),
    ]
    .into_iter()
    .filter_map(|(role, set)| set.then_some(role))
    .collect();
    if roles.is_empty() {
        "none (local requests evaluate; the console link approves)".to_owned()
    } else {
        roles.join(",")
    }
}

/// Prints each one-time console login link to this process's standard error (as a JSON
/// object when the log is JSON, so the stream stays one object per line), never through the
/// log's subscriber, never to the decision log and never over the API.
fn login_announcer(local: SocketAddr, log_format: LogFormat) -> LoginAnnouncer {
    let host = match local.ip() {
        ip if ip.is_unspecified() && local.is_ipv4() => {
            SocketAddr::from(([127, 0, 0, 1], local.port()))
        }
        ip if ip.is_unspecified() => {
            SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, local.port()))
        }
        _ => local,
    };
    LoginAnnouncer::new(move |code| {
        let url = format!("http://{host}/login?code={code}");
        match log_format {
            LogFormat::Json => eprintln!(
                "{}",
                serde_json::json!({
                    "level": "INFO",
                    "fields": { "message": "console login link (one use)", "url": url },
                })
            ),
            LogFormat::Text => {
                eprintln!("console login (one use; a new link is printed after each use): {url}")
            }
        }
    })
}
