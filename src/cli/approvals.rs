//! `hookgate approvals`: list and decide approval requests, list and revoke grants.
//!
//! It talks to the running daemon when there is one (`--url`, or when the approvals file is
//! locked by a daemon), and works on the approvals file directly otherwise.

use std::path::PathBuf;

use crate::approvals::api::{Decided, DecisionRequest, GrantList, PendingList, Revoked, Shown};
use crate::approvals::{Approvals, FileStore, Options, Resolution, StoreError};
use crate::config::{ApprovalDecision, TimeoutAction};
use crate::terminal::{self, escape};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::daemon::{self, DEFAULT_URL};
use super::{EXIT_ERROR, Format, emit};

/// Arguments of `hookgate approvals`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Sub,
    /// The daemon to talk to (default: the file, or http://127.0.0.1:18790 when a daemon
    /// holds the file).
    #[arg(long, global = true, env = "HOOKGATE_URL")]
    url: Option<String>,
    /// File holding the token to present: deciding and revoking need the approve (or admin)
    /// token (default: $HOOKGATE_APPROVER_TOKEN, $HOOKGATE_ADMIN_TOKEN, $HOOKGATE_TOKEN).
    #[arg(long, global = true, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// The policy whose approvals.json to use when working on the file.
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    /// The approvals file (default: approvals.json beside the policy).
    #[arg(long, global = true, value_name = "FILE")]
    approvals: Option<PathBuf>,
    /// text or json.
    #[arg(long, global = true, value_enum, default_value_t)]
    format: Format,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// Pending requests.
    List,
    /// One request, pending or decided.
    Show {
        /// The request id (apr_...).
        id: String,
    },
    /// Approve a request: once, for the session, or always.
    Approve {
        /// The request id.
        id: String,
        /// Approve this tool and subject for the rest of the session.
        #[arg(long, conflicts_with = "always")]
        session: bool,
        /// Approve for every session from now on.
        #[arg(long)]
        always: bool,
        /// With --always: the grant pattern, `tool:glob` (default: the exact subject).
        #[arg(long, requires = "always")]
        pattern: Option<String>,
        /// Who decides (default: $USER).
        #[arg(long)]
        by: Option<String>,
    },
    /// Deny a request.
    Deny {
        /// The request id.
        id: String,
        /// Who decides (default: $USER).
        #[arg(long)]
        by: Option<String>,
    },
    /// Standing grants.
    Grants,
    /// Remove a grant.
    Revoke {
        /// The grant id (g_...).
        id: String,
    },
}

pub(crate) fn run(args: Args) -> u8 {
    let result = match &args.url {
        Some(url) => over_http(&args, url),
        None => match open_file(&args) {
            Ok(approvals) => on_file(&args, &approvals),
            Err(Opened::Locked) => over_http(&args, DEFAULT_URL),
            Err(Opened::Failed(message)) => Err(message),
        },
    };
    match result {
        Ok(output) => {
            emit(&output);
            0
        }
        Err(message) => {
            // The message may quote an id or a path given on the command line.
            eprintln!("error: {}", escape(&message));
            EXIT_ERROR
        }
    }
}

enum Opened {
    /// A daemon holds the file: talk to it instead.
    Locked,
    Failed(String),
}

fn open_file(args: &Args) -> Result<Approvals, Opened> {
    let path = match &args.approvals {
        Some(p) => p.clone(),
        None => super::policy_path(args.config.as_deref())
            .map_err(|e| Opened::Failed(e.to_string()))?
            .with_file_name("approvals.json"),
    };
    let store = match FileStore::open(&path) {
        Ok(store) => store,
        Err(StoreError::Locked { .. }) => return Err(Opened::Locked),
        Err(e) => return Err(Opened::Failed(e.to_string())),
    };
    Approvals::open(Box::new(store), Options::default()).map_err(|e| Opened::Failed(e.to_string()))
}

fn decider(by: Option<&String>) -> String {
    by.cloned()
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "cli".to_owned())
}

fn approve_decision(session: bool, always: bool) -> ApprovalDecision {
    match (session, always) {
        (true, _) => ApprovalDecision::ApproveSession,
        (_, true) => ApprovalDecision::ApproveAlways,
        _ => ApprovalDecision::Approve,
    }
}

/// Works on the file directly (no daemon runs).
fn on_file(args: &Args, approvals: &Approvals) -> Result<String, String> {
    // A change is stored by the approvals' writer thread, and awaited.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(on_file_async(args, approvals))
}

/// What a subcommand answers, in the shapes the daemon answers with.
enum Answer {
    Pending(PendingList),
    Shown(Shown),
    Decided(Decided),
    Grants(GrantList),
    Revoked(Revoked),
}

async fn on_file_async(args: &Args, approvals: &Approvals) -> Result<String, String> {
    let answer = match &args.command {
        Sub::List => Answer::Pending(PendingList {
            pending: approvals.pending(),
            unavailable: approvals.unavailable(),
        }),
        Sub::Show { id } => Answer::Shown(match approvals.find(id) {
            (Some(request), _) => Shown::Pending { request },
            (None, Some(decision)) => Shown::Decided { decision },
            (None, None) => return Err(format!("no approval request `{id}`")),
        }),
        Sub::Approve {
            id,
            session,
            always,
            pattern,
            by,
        } => {
            let decision = approve_decision(*session, *always);
            let (request, resolution) = approvals
                .decide(id, decision, &decider(by.as_ref()), pattern.as_deref())
                .await
                .map_err(|e| e.to_string())?;
            Answer::Decided(Decided {
                request,
                resolution,
            })
        }
        Sub::Deny { id, by } => {
            let (request, resolution) = approvals
                .decide(id, ApprovalDecision::Deny, &decider(by.as_ref()), None)
                .await
                .map_err(|e| e.to_string())?;
            Answer::Decided(Decided {
                request,
                resolution,
            })
        }
        Sub::Grants => Answer::Grants(GrantList {
            grants: approvals.grants(),
        }),
        Sub::Revoke { id } => {
            if !approvals.revoke(id).await.map_err(|e| e.to_string())? {
                return Err(format!("no grant `{id}`"));
            }
            Answer::Revoked(Revoked {
                revoked: id.clone(),
            })
        }
    };
    Ok(render(args, &answer))
}

/// Talks to the daemon at `url`, presenting the approve token (deciding needs it; reading
/// takes any role's).
fn over_http(args: &Args, url: &str) -> Result<String, String> {
    let token = daemon::token(
        args.token_file.as_deref(),
        &[
            "HOOKGATE_APPROVER_TOKEN",
            "HOOKGATE_ADMIN_TOKEN",
            "HOOKGATE_TOKEN",
        ],
    )?;
    let (method, path, body) = match &args.command {
        Sub::List => ("GET", "/v1/approvals".to_owned(), None),
        Sub::Show { id } => ("GET", format!("/v1/approvals/{id}"), None),
        Sub::Approve {
            id,
            session,
            always,
            pattern,
            by,
        } => (
            "POST",
            format!("/v1/approvals/{id}"),
            Some(DecisionRequest {
                decision: approve_decision(*session, *always),
                by: Some(decider(by.as_ref())),
                pattern: pattern.clone(),
            }),
        ),
        Sub::Deny { id, by } => (
            "POST",
            format!("/v1/approvals/{id}"),
            Some(DecisionRequest {
                decision: ApprovalDecision::Deny,
                by: Some(decider(by.as_ref())),
                pattern: None,
            }),
        ),
        Sub::Grants => ("GET", "/v1/grants".to_owned(), None),
        Sub::Revoke { id } => ("DELETE", format!("/v1/grants/{id}"), None),
    };
    let needs = match method {
        "GET" => "Reading needs a token of any role: --token-file FILE or $HOOKGATE_TOKEN",
        _ => {
            "Deciding needs the approve token: --token-file FILE or $HOOKGATE_APPROVER_TOKEN \
             (or decide in the console opened with the login link hookgate serve prints)"
        }
    };
    let body = body
        .map(|b| serde_json::to_value(b).map_err(|e| e.to_string()))
        .transpose()?;
    let value = daemon::call(url, method, &path, token.as_deref(), body, needs)?;
    fn read<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, String> {
        serde_json::from_value(value)
            .map_err(|e| format!("the daemon's answer is not understood: {e}"))
    }
    let answer = match &args.command {
        Sub::List => Answer::Pending(read(value)?),
        Sub::Show { .. } => Answer::Shown(read(value)?),
        Sub::Approve { .. } | Sub::Deny { .. } => Answer::Decided(read(value)?),
        Sub::Grants => Answer::Grants(read(value)?),
        Sub::Revoke { .. } => Answer::Revoked(read(value)?),
    };
    Ok(render(args, &answer))
}

/// JSON (with the characters a terminal would obey written as `\u` escapes), or a short
/// text view with every value from the request escaped: tool arguments, session keys and
/// reasons come from the agent and the policy, and must not drive the terminal or forge a
/// line of the table.
fn render(args: &Args, answer: &Answer) -> String {
    fn json(value: &impl Serialize) -> String {
        let text = serde_json::to_string_pretty(value).unwrap_or_default();
        format!("{}\n", terminal::escape_json(&text))
    }
    if args.format == Format::Json {
        return match answer {
            Answer::Pending(a) => json(a),
            Answer::Shown(a) => json(a),
            Answer::Decided(a) => json(a),
            Answer::Grants(a) => json(a),
            Answer::Revoked(a) => json(a),
        };
    }
    let mut out = String::new();
    match answer {
        Answer::Pending(list) => {
            if list.pending.is_empty() {
                out.push_str("no pending requests\n");
            }
            for r in &list.pending {
                out.push_str(&format!(
                    "{}  {:<8} {:<10} {}  session={}  {}\n",
                    escape(&r.id),
                    r.risk.as_str(),
                    r.tool.as_deref().map_or_else(|| "-".into(), escape),
                    escape(&r.subject),
                    escape(&r.session_key),
                    escape(r.reasons.first().map_or("", String::as_str)),
                ));
            }
        }
        Answer::Grants(list) => {
            if list.grants.is_empty() {
                out.push_str("no grants\n");
            }
            for g in &list.grants {
                out.push_str(&grant_line(g));
            }
        }
        Answer::Decided(decided) => {
            let how = match &decided.resolution {
                Resolution::Approved { by, decision } => {
                    format!("approved ({}) by {}", decision.as_str(), escape(by))
                }
                Resolution::Denied { by } => format!("denied by {}", escape(by)),
                Resolution::TimedOut {
                    action: TimeoutAction::Allow,
                } => "timed out; allowed by timeoutAction".to_owned(),
                Resolution::TimedOut {
                    action: TimeoutAction::Deny,
                } => "timed out; denied".to_owned(),
                Resolution::Released => "released".to_owned(),
            };
            out.push_str(&format!("{}: {how}\n", escape(&decided.request.id)));
        }
        Answer::Revoked(revoked) => {
            out.push_str(&format!("revoked {}\n", escape(&revoked.revoked)));
        }
        // `show`: the request as JSON.
        Answer::Shown(shown) => out.push_str(&json(shown)),
    }
    out
}

/// `id  kind  what  by who`.
fn grant_line(grant: &crate::approvals::Grant) -> String {
    use crate::approvals::Grant;
    let (id, kind, what, by) = match grant {
        Grant::Always {
            id, pattern, by, ..
        } => (id, "always", escape(pattern).into_owned(), by),
        Grant::Session {
            id,
            session_key,
            tool,
            subject,
            by,
            ..
        }
        | Grant::Once {
            id,
            session_key,
            tool,
            subject,
            by,
            ..
        } => (
            id,
            if matches!(grant, Grant::Session { .. }) {
                "session"
            } else {
                "once"
            },
            format!(
                "{}:{} (session {})",
                escape(tool),
                escape(subject),
                escape(session_key)
            ),
            by,
        ),
    };
    format!("{}  {kind:<7} {what}  by {}\n", escape(id), escape(by))
}
