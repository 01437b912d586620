//! `hookgate hook --gateway <name>`: a gateway's hook command. Reads the hook JSON on stdin
//! and answers on stdout (and with the exit code) in that gateway's format, evaluating here
//! or, with `--daemon`, through the daemon (where an `ask` is kept for a person to approve).
//! `hookgate claude-code` is `hookgate hook --gateway claude-code`.
//!
//! Whatever goes wrong, the answer is the gateway's block for events that can be blocked:
//! exit 2 with the reason on stderr. No other non-zero exit is used for them, because every
//! gateway here takes any other code as "the hook failed, go on".

use std::io::Read;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::adapters::{Answer, Gateway};
use crate::{Engine, RuleGraph};

use super::{daemon, emit, load_policy};

/// Largest hook payload read from stdin.
const MAX_PAYLOAD: u64 = 8 * 1024 * 1024;

/// The default of `--deadline`: below the hook timeout `hookgate init` writes for every
/// gateway (30 s), so the block is ours, not a timeout's.
const DEFAULT_DEADLINE_SECONDS: u64 = 20;

/// Arguments of `hookgate hook`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The gateway whose hook this is.
    #[arg(long, value_parser = parse_gateway)]
    gateway: Gateway,
    #[command(flatten)]
    common: Common,
}

/// Arguments of `hookgate claude-code` (the gateway is Claude Code).
#[derive(Debug, clap::Args)]
pub(crate) struct ClaudeCodeArgs {
    #[command(flatten)]
    common: Common,
}

/// What every hook command takes.
#[derive(Debug, clap::Args)]
struct Common {
    /// The event, for gateways whose payload does not name it (Copilot CLI:
    /// `--event preToolUse`).
    #[arg(long)]
    event: Option<String>,
    /// Policy file (default: $HOOKGATE_CONFIG, $OPENCLAW_HOOKS_CONFIG, ./HOOKS.yaml,
    /// $OPENCLAW_WORKSPACE/HOOKS.yaml).
    #[arg(long, conflicts_with = "daemon")]
    config: Option<PathBuf>,
    /// Ask the daemon at this URL (e.g. http://127.0.0.1:18790) instead of evaluating here:
    /// approvals are kept there, so a gateway that cannot ask can be approved and retried.
    #[arg(long)]
    daemon: Option<String>,
    /// File holding the evaluate token for `--daemon` (default: $HOOKGATE_TOKEN).
    #[arg(long, requires = "daemon")]
    token_file: Option<PathBuf>,
    /// Seconds within which the hook answers. Past them it answers as it does when it cannot
    /// decide (a block, for events that can be blocked) and exits: a gateway that times a
    /// hook out lets the call run (Copilot CLI, Claude Code), so this must stay below the
    /// gateway's hook timeout.
    #[arg(long, default_value_t = DEFAULT_DEADLINE_SECONDS, value_parser = clap::value_parser!(u64).range(1..=3600))]
    deadline: u64,
}

fn parse_gateway(name: &str) -> Result<Gateway, String> {
    Gateway::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Gateway::ALL.iter().map(|g| g.name()).collect();
        format!("unknown gateway `{name}` (known: {})", known.join(", "))
    })
}

pub(crate) fn run(args: Args) -> u8 {
    run_for(args.gateway, args.common)
}

pub(crate) fn run_claude_code(args: ClaudeCodeArgs) -> u8 {
    run_for(Gateway::ClaudeCode, args.common)
}

fn run_for(gateway: Gateway, args: Common) -> u8 {
    let answering = Answering::new(gateway, args.event.clone().unwrap_or_default());
    answering.start_deadline(Duration::from_secs(args.deadline));
    answering.report(answer(gateway, &args, &answering))
}

/// What the hook answers, however long it takes (the deadline is [`Answering`]'s).
fn answer(gateway: Gateway, args: &Common, answering: &Answering) -> Answer {
    let given = args.event.as_deref();
    let mut payload = Vec::new();
    if let Err(e) = std::io::stdin().take(MAX_PAYLOAD).read_to_end(&mut payload) {
        let name = args.event.clone().unwrap_or_default();
        return gateway.failure(&name, &format!("cannot read stdin: {e}"));
    }
    let name = gateway.event_name(&payload, given);
    answering.set_event(&name);
    if let Some(url) = &args.daemon {
        return match through_daemon(gateway, url, args, &payload, args.deadline) {
            Ok(json) => Answer {
                stdout: Some(json),
                exit_code: 0,
                stderr: None,
            },
            Err(e) => gateway.failure(&name, &e),
        };
    }
    // A policy that cannot be loaded must not let a tool call through silently.
    let policy = match load_policy(args.config.as_ref()) {
        Ok(policy) => policy,
        Err(e) => return gateway.failure(&name, &e.to_string()),
    };
    let runtime = match super::evaluation_runtime() {
        Ok(rt) => rt,
        Err(e) => return gateway.failure(&name, &e.to_string()),
    };
    let engine = Engine::new(Arc::new(RuleGraph::from_policy(&policy)));
    // Claude Code runs its hooks with the directory the session started in: the project,
    // whose files are the agent's to write even where it has no `.git` yet. The agent's own
    // `cd` does not change it.
    let workspace = match gateway {
        Gateway::ClaudeCode => std::env::var("CLAUDE_PROJECT_DIR")
            .ok()
            .and_then(|dir| crate::matcher::places::project_workspace(&dir)),
        _ => None,
    };
    runtime.block_on(async {
        let answer = gateway.evaluate(&engine, &payload, given, workspace).await;
        engine.flush().await;
        answer
    })
}

/// The one answer a hook run gives: the evaluation's, or, if the deadline comes first, the
/// failure answer for the event read so far.
struct Answering {
    gateway: Gateway,
    state: Arc<Mutex<Answered>>,
}

struct Answered {
    done: bool,
    event: String,
}

impl Answering {
    fn new(gateway: Gateway, event: String) -> Answering {
        let state = Answered { done: false, event };
        Answering {
            gateway,
            state: Arc::new(Mutex::new(state)),
        }
    }

    fn set_event(&self, event: &str) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        event.clone_into(&mut state.event);
    }

    /// A thread that, `after` from now, answers for the run and ends the process, unless
    /// the run has answered by then.
    fn start_deadline(&self, after: Duration) {
        let (gateway, state) = (self.gateway, Arc::clone(&self.state));
        let watchdog = std::thread::Builder::new()
            .name("hookgate-deadline".into())
            .spawn(move || {
                std::thread::sleep(after);
                let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
                if state.done {
                    return;
                }
                state.done = true;
                let reason = format!(
                    "hookgate could not decide within its deadline ({} s, `--deadline`)",
                    after.as_secs()
                );
                let code = print(&gateway.failure(&state.event, &reason));
                std::process::exit(i32::from(code));
            });
        // Without the watchdog the run still answers; only a hang would go unanswered.
        if let Err(e) = watchdog {
            eprintln!("hookgate: cannot start the deadline thread: {e}");
        }
    }

    /// Prints `answer` unless the deadline answered first; the exit code.
    fn report(&self, answer: Answer) -> u8 {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.done {
            // The deadline thread is ending the process with its own answer.
            drop(state);
            loop {
                std::thread::park();
            }
        }
        state.done = true;
        print(&answer)
    }
}

/// The daemon's answer to `payload` at `POST /v1/hook/<gateway>`: the JSON to print.
fn through_daemon(
    gateway: Gateway,
    url: &str,
    args: &Common,
    payload: &[u8],
    deadline: u64,
) -> Result<serde_json::Value, String> {
    let token = daemon::token(args.token_file.as_deref(), &["HOOKGATE_TOKEN"])?;
    let mut target = format!("{}/v1/hook/{}", url.trim_end_matches('/'), gateway.name());
    if let Some(event) = &args.event {
        // Event names are identifiers; anything else is refused rather than escaped.
        if !event
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
        {
            return Err(format!("`--event {event}` is not an event name"));
        }
        target.push_str(&format!("?event={event}"));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(async {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(deadline))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        let mut request = client
            .post(&target)
            .header("content-type", "application/json")
            .body(payload.to_vec());
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request
            .send()
            .await
            .map_err(|e| format!("cannot reach the hookgate daemon at {url}: {e}"))?;
        let status = response.status();
        let body: serde_json::Value = response
            .json()
            .await
            .map_err(|e| format!("the daemon's answer is not JSON: {e}"))?;
        if !status.is_success() {
            let message = body["error"]["message"]
                .as_str()
                .map_or_else(|| body.to_string(), str::to_owned);
            return Err(format!(
                "the daemon refused the request: {message} ({status})"
            ));
        }
        Ok(body)
    })
}

/// Writes `answer` out; its exit code.
fn print(answer: &Answer) -> u8 {
    if let Some(json) = &answer.stdout {
        emit(&format!("{json}\n"));
    }
    if let Some(message) = &answer.stderr {
        eprintln!("{message}");
    }
    answer.exit_code
}
