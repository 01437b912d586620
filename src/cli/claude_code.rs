//! `hookgate claude-code`: a Claude Code `command` hook. Reads the hook JSON on stdin and
//! answers on stdout (and with the exit code) in Claude Code's format.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use hookgate::adapters::{self, claude_code};
use hookgate::{Engine, RuleGraph};

use super::{emit, load_policy};

/// Largest hook payload read from stdin.
const MAX_PAYLOAD: u64 = 8 * 1024 * 1024;

/// Arguments of `hookgate claude-code`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Policy file (default: $HOOKGATE_CONFIG, $OPENCLAW_HOOKS_CONFIG, ./HOOKS.yaml,
    /// $OPENCLAW_WORKSPACE/HOOKS.yaml).
    #[arg(long)]
    config: Option<PathBuf>,
}

pub(crate) fn run(args: Args) -> u8 {
    let mut payload = Vec::new();
    if let Err(e) = std::io::stdin().take(MAX_PAYLOAD).read_to_end(&mut payload) {
        return report(claude_code::failure("", &format!("cannot read stdin: {e}")));
    }
    let name = claude_code::event_name(&payload);
    // A policy that cannot be loaded must not let a tool call through silently.
    let policy = match load_policy(args.config.as_ref()) {
        Ok(policy) => policy,
        Err(e) => return report(claude_code::failure(&name, &e.to_string())),
    };
    let runtime = match super::evaluation_runtime() {
        Ok(rt) => rt,
        Err(e) => return report(claude_code::failure(&name, &e.to_string())),
    };
    let engine = Engine::new(Arc::new(RuleGraph::from_policy(&policy)));
    let answer = runtime.block_on(async {
        let answer = adapters::claude_code(&engine, &payload).await;
        engine.flush().await;
        answer
    });
    report(answer)
}

fn report(answer: claude_code::Answer) -> u8 {
    if let Some(json) = &answer.stdout {
        emit(&format!("{json}\n"));
    }
    if let Some(message) = &answer.stderr {
        eprintln!("{message}");
    }
    answer.exit_code
}
