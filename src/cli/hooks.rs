//! `hookgate list`, `hookgate enable NAME`, `hookgate disable NAME`

use std::path::{Path, PathBuf};

use crate::approvals::{FileStore, StoreError};
use crate::config::{self, EditError, SwitchError};
use crate::terminal::{self, escape};

use super::{EXIT_ERROR, Format, daemon, emit, load_policy, report};

/// Arguments of `hookgate list`.
#[derive(Debug, clap::Args)]
pub(crate) struct ListArgs {
    /// Policy file (default: $HOOKGATE_CONFIG, $OPENCLAW_HOOKS_CONFIG, ./HOOKS.yaml,
    /// $OPENCLAW_WORKSPACE/HOOKS.yaml).
    #[arg(long)]
    config: Option<PathBuf>,
    /// text: a table; json: an array of hooks.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// Arguments of `hookgate enable` and `hookgate disable`.
#[derive(Debug, clap::Args)]
pub(crate) struct SwitchArgs {
    /// The hook's name.
    name: String,
    /// Policy file (default: as for `list`).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The daemon to ask (default: the one that holds the policy's approvals file, if any;
    /// otherwise the file is edited directly).
    #[arg(long, env = "HOOKGATE_URL")]
    url: Option<String>,
    /// File holding the admin token, which switching a hook in a running daemon needs
    /// (default: $HOOKGATE_ADMIN_TOKEN).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
}

pub(crate) fn list(args: ListArgs) -> u8 {
    let policy = match load_policy(args.config.as_ref()) {
        Ok(p) => p,
        Err(e) => {
            report::print_config_error(&e);
            return EXIT_ERROR;
        }
    };
    let rows: Vec<serde_json::Value> = policy
        .document
        .hooks
        .iter()
        .map(|h| {
            serde_json::json!({
                "name": h.id,
                "points": h.points.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
                "action": h.action.label(),
                "enabled": h.enabled,
                "priority": h.priority,
                "mode": h.mode,
                "source": h.file.display().to_string(),
            })
        })
        .collect();
    match args.format {
        Format::Json => match serde_json::to_string_pretty(&rows) {
            Ok(json) => emit(&format!("{}\n", terminal::escape_json(&json))),
            Err(e) => {
                eprintln!("error: cannot print the hooks: {e}");
                return EXIT_ERROR;
            }
        },
        Format::Text => emit(&table(&policy.document.hooks)),
    }
    0
}

/// The hooks as a table; names, programs and files are the policy's, escaped.
fn table(hooks: &[config::HookSpec]) -> String {
    let rows: Vec<[String; 5]> = hooks
        .iter()
        .map(|h| {
            [
                escape(&h.id).into_owned(),
                h.points
                    .iter()
                    .map(|p| p.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
                escape(h.action.label()).into_owned(),
                if h.enabled { "yes" } else { "no" }.to_owned(),
                escape(&h.file.display().to_string()).into_owned(),
            ]
        })
        .collect();
    let header = ["NAME", "POINTS", "ACTION", "ENABLED", "SOURCE"].map(str::to_owned);
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// Sets the hook's `enabled` in the file it is written in (the policy file, or a file it
/// includes or discovers), in place. When a daemon serves the policy, the daemon does it (and
/// reloads), and only for the admin role: the agent behind the gate may run this command too.
pub(crate) fn switch(args: SwitchArgs, enabled: bool) -> u8 {
    let path = match super::policy_path(args.config.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            report::print_config_error(&e);
            return EXIT_ERROR;
        }
    };
    let url = args
        .url
        .clone()
        .or_else(|| daemon_holds(&path).then(|| daemon::DEFAULT_URL.to_owned()));
    if let Some(url) = url {
        return match over_http(&args, &url, enabled) {
            Ok(message) => {
                emit(&message);
                0
            }
            Err(message) => {
                eprintln!("error: {}", escape(&message));
                EXIT_ERROR
            }
        };
    }
    let word = if enabled { "enabled" } else { "disabled" };
    match config::switch_in_file(&path, &args.name, enabled) {
        Ok(switched) => {
            let at = format!("{}:{}", switched.file.display(), switched.line);
            match switched.changed {
                true => emit(&format!(
                    "{word} `{}` ({})\n",
                    escape(&args.name),
                    escape(&at)
                )),
                false => emit(&format!(
                    "`{}` is already {word} ({})\n",
                    escape(&args.name),
                    escape(&at)
                )),
            }
            0
        }
        Err(SwitchError::Edit(EditError::Invalid(e))) => {
            report::print_config_error(&e);
            EXIT_ERROR
        }
        Err(e) => {
            eprintln!("error: {}", escape(&e.to_string()));
            EXIT_ERROR
        }
    }
}

/// Whether a daemon holds the approvals file beside `policy` (and so serves the policy).
fn daemon_holds(policy: &Path) -> bool {
    matches!(
        FileStore::open(&policy.with_file_name("approvals.json")),
        Err(StoreError::Locked { .. })
    )
}

/// Where the admin commands take their token from.
const ADMIN_NEEDED: &str = "This needs the admin token: --token-file FILE or $HOOKGATE_ADMIN_TOKEN";

fn over_http(args: &SwitchArgs, url: &str, enabled: bool) -> Result<String, String> {
    let token = daemon::token(args.token_file.as_deref(), &["HOOKGATE_ADMIN_TOKEN"])?;
    let path = format!("/v1/hooks/{}", percent_encode(&args.name));
    let answer = daemon::call(
        url,
        "POST",
        &path,
        token.as_deref(),
        Some(serde_json::json!({ "enabled": enabled })),
        ADMIN_NEEDED,
    )?;
    let word = if enabled { "enabled" } else { "disabled" };
    let at = format!(
        "{}:{}",
        answer["file"].as_str().unwrap_or("?"),
        answer["line"]
    );
    Ok(match answer["changed"].as_bool() {
        Some(true) => format!(
            "{word} `{}` ({}), by the daemon at {url}\n",
            escape(&args.name),
            escape(&at)
        ),
        _ => format!(
            "`{}` is already {word} ({})\n",
            escape(&args.name),
            escape(&at)
        ),
    })
}

/// A hook name as one URL path segment.
fn percent_encode(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Arguments of `hookgate reload`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReloadArgs {
    /// The daemon to ask.
    #[arg(long, env = "HOOKGATE_URL", default_value = daemon::DEFAULT_URL)]
    url: String,
    /// File holding the admin token (default: $HOOKGATE_ADMIN_TOKEN).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
}

/// `hookgate reload`: `POST /v1/reload` with the admin token; prints the outcome.
pub(crate) fn reload(args: ReloadArgs) -> u8 {
    let outcome =
        daemon::token(args.token_file.as_deref(), &["HOOKGATE_ADMIN_TOKEN"]).and_then(|token| {
            daemon::call(
                &args.url,
                "POST",
                "/v1/reload",
                token.as_deref(),
                None,
                ADMIN_NEEDED,
            )
        });
    match outcome {
        Ok(answer) => {
            emit(&format!("{}\n", terminal::escape_json(&answer.to_string())));
            0
        }
        Err(message) => {
            eprintln!("error: {}", escape(&message));
            EXIT_ERROR
        }
    }
}
