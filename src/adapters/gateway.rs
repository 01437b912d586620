//! The gateways hookgate answers as a hook command (`hookgate hook --gateway <name>`) and
//! over HTTP (`POST /v1/hook/<name>`): one enum, one dispatch, the same fail-closed rules.

use serde_json::{Value, json};

use super::translate::{Answer, Event, PayloadError};
use super::{claude_code, codex, copilot, cursor, gemini, opencode};
use crate::decision::{Decision, Verdict};
use crate::engine::Engine;

/// A gateway with a hook-command adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Gateway {
    /// Claude Code (`settings.json` hooks).
    ClaudeCode,
    /// Gemini CLI (`settings.json` hooks).
    Gemini,
    /// OpenAI Codex CLI (`hooks.json` or `[hooks]` in `config.toml`).
    Codex,
    /// GitHub Copilot CLI (`.github/hooks/*.json`).
    Copilot,
    /// Cursor (`hooks.json`).
    Cursor,
    /// opencode (a plugin that runs the hook command).
    Opencode,
}

impl Gateway {
    /// Every gateway, in the order the docs list them.
    pub(crate) const ALL: [Gateway; 6] = [
        Gateway::ClaudeCode,
        Gateway::Gemini,
        Gateway::Codex,
        Gateway::Copilot,
        Gateway::Cursor,
        Gateway::Opencode,
    ];

    /// The name used on the command line, in routes and in session keys.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Gateway::ClaudeCode => "claude-code",
            Gateway::Gemini => "gemini",
            Gateway::Codex => "codex",
            Gateway::Copilot => "copilot",
            Gateway::Cursor => "cursor",
            Gateway::Opencode => "opencode",
        }
    }

    /// The gateway named `name` (also `gemini-cli`, `copilot-cli`, `codex-cli`).
    pub(crate) fn from_name(name: &str) -> Option<Gateway> {
        let name = name.strip_suffix("-cli").unwrap_or(name);
        Gateway::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The gateway's name for people.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Gateway::ClaudeCode => "Claude Code",
            Gateway::Gemini => "Gemini CLI",
            Gateway::Codex => "Codex CLI",
            Gateway::Copilot => "GitHub Copilot CLI",
            Gateway::Cursor => "Cursor",
            Gateway::Opencode => "opencode",
        }
    }

    /// The payload's event name, if it can be read at all; `given` (from the command line
    /// or the route) when the gateway does not put one in the payload. "" fails closed.
    pub(crate) fn event_name(self, payload: &[u8], given: Option<&str>) -> String {
        let key = match self {
            Gateway::Opencode => "event",
            _ => "hook_event_name",
        };
        let found = super::translate::event_name_at(payload, key);
        match (found.is_empty(), given) {
            (true, Some(given)) => given.to_owned(),
            _ => found,
        }
    }

    /// Reads one payload. `given` is the event name when the gateway does not send it
    /// (Copilot CLI: `--event preToolUse`).
    pub(crate) fn parse(self, payload: &[u8], given: Option<&str>) -> Result<Event, PayloadError> {
        match self {
            Gateway::ClaudeCode => claude_code::parse(payload),
            Gateway::Gemini => gemini::parse(payload),
            Gateway::Codex => codex::parse(payload),
            Gateway::Copilot => copilot::parse(payload, given),
            Gateway::Cursor => cursor::parse(payload),
            Gateway::Opencode => opencode::parse(payload),
        }
    }

    /// The gateway's answer for `decision` at `event`. `approvals_kept` says whether an
    /// `ask` was kept where a person can approve it (the daemon), for gateways that cannot
    /// ask and so must say where to approve.
    pub(crate) fn answer(self, event: &Event, decision: &Decision, approvals_kept: bool) -> Answer {
        let ask = AskAsDeny {
            gateway: self,
            kept: approvals_kept,
        };
        match self {
            Gateway::ClaudeCode => claude_code::answer(&event.name, decision),
            Gateway::Gemini => gemini::answer(&event.name, decision, &ask),
            Gateway::Codex => codex::answer(&event.name, decision, &ask),
            Gateway::Copilot => copilot::answer(&event.name, decision, &ask),
            Gateway::Cursor => cursor::answer(&event.name, decision, &ask),
            Gateway::Opencode => opencode::answer(&event.name, decision, &ask),
        }
    }

    /// Whether an event must be stopped when hookgate cannot decide it (a tool call, a
    /// prompt; "" is an unreadable payload, which might have been either).
    pub(crate) fn fails_closed(self, event_name: &str) -> bool {
        match self {
            Gateway::ClaudeCode => claude_code::fails_closed(event_name),
            Gateway::Gemini => gemini::fails_closed(event_name),
            Gateway::Codex => codex::fails_closed(event_name),
            Gateway::Copilot => copilot::fails_closed(event_name),
            Gateway::Cursor => cursor::fails_closed(event_name),
            Gateway::Opencode => opencode::fails_closed(event_name),
        }
    }

    /// The answer when hookgate cannot decide (no policy, bad input, an engine error):
    /// block where blocking is possible, and say why. Every gateway here blocks on exit 2
    /// with stderr as the reason; exit 1 is a non-blocking warning to all of them, used only
    /// for events that cannot be stopped. The JSON form of the block is printed too, for
    /// gateways whose command output is read whatever the exit code.
    pub(crate) fn failure(self, event_name: &str, reason: &str) -> Answer {
        let reason = format!("hookgate could not evaluate this event: {reason}");
        if !self.fails_closed(event_name) {
            return Answer {
                stdout: None,
                exit_code: 1,
                stderr: Some(reason),
            };
        }
        Answer {
            stdout: match self {
                // Copilot CLI reads the JSON answer; the exit code alone is not a documented
                // block there.
                Gateway::Copilot => self.deny_json(event_name, &reason),
                _ => None,
            },
            exit_code: 2,
            stderr: Some(reason),
        }
    }

    /// The JSON that blocks `event_name` with `reason`, for an HTTP answer (which has no
    /// exit code) and for gateways that read JSON only.
    pub(crate) fn deny_json(self, event_name: &str, reason: &str) -> Option<Value> {
        match self {
            Gateway::ClaudeCode => Some(claude_code::deny_json(event_name, reason)),
            Gateway::Gemini => gemini::deny_json(event_name, reason),
            Gateway::Codex => codex::deny_json(event_name, reason),
            Gateway::Copilot => copilot::deny_json(event_name, reason),
            Gateway::Cursor => cursor::deny_json(event_name, reason),
            Gateway::Opencode => opencode::deny_json(event_name, reason),
        }
    }

    /// The body of an HTTP hook answer: the JSON the command would print; a blocking exit
    /// becomes the event's blocking JSON (an HTTP caller reads only the body).
    pub(crate) fn http_body(self, event_name: &str, answer: &Answer) -> Value {
        if let Some(json) = &answer.stdout {
            return json.clone();
        }
        match answer.stderr.as_deref().filter(|_| answer.exit_code == 2) {
            Some(reason) => self
                .deny_json(event_name, reason)
                .or_else(|| self.deny_json("", reason))
                .unwrap_or_else(|| json!({})),
            None => json!({}),
        }
    }

    /// Evaluates one payload with `engine` (a one-shot command: nothing keeps an `ask`).
    /// `workspace` is the project's, for an event that names none. Never fails: an
    /// unreadable payload is answered per [`Gateway::failure`].
    pub(crate) async fn evaluate(
        self,
        engine: &Engine,
        payload: &[u8],
        given: Option<&str>,
        workspace: Option<String>,
    ) -> Answer {
        match self.parse(payload, given) {
            Ok(mut event) => {
                if event.context.workspace.is_none() {
                    event.context.workspace = workspace;
                }
                let decision = engine.evaluate(event.point, &event.context).await;
                self.answer(&event, &decision, false)
            }
            Err(e) => self.failure(&self.event_name(payload, given), &e.to_string()),
        }
    }
}

/// How a gateway that cannot ask says so: an `ask` becomes a deny whose reason says where
/// the call can be approved, so that the retry passes once it is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AskAsDeny {
    gateway: Gateway,
    kept: bool,
}

impl AskAsDeny {
    /// The deny reason for an `ask` decision.
    pub(crate) fn reason(&self, decision: &Decision) -> String {
        let message = decision
            .message
            .clone()
            .unwrap_or_else(|| "Approval required".to_owned());
        let id = decision
            .approval
            .as_ref()
            .and_then(|a| a.get("id"))
            .and_then(Value::as_str);
        let title = self.gateway.title();
        match (self.kept, id) {
            (true, Some(id)) => format!(
                "{message}. {title} cannot ask a person from a hook, so hookgate refused the call \
                 for now: it waits for approval as request {id}. Ask the user to approve it in \
                 the hookgate console or with `hookgate approvals approve {id}`, then run the \
                 same call again."
            ),
            _ => format!(
                "{message}. {title} cannot ask a person from a hook, and this hookgate runs \
                 without its daemon, so nothing keeps the request: the call is refused. Run the \
                 hook through the daemon (`hookgate hook --gateway {} --daemon URL`) to approve \
                 such calls.",
                self.gateway.name()
            ),
        }
    }

    /// The reason a decision stops the call with, `ask` included.
    pub(crate) fn stop_reason(&self, decision: &Decision) -> String {
        match decision.decision {
            Verdict::Ask => self.reason(decision),
            _ => block_reason(decision),
        }
    }
}

/// The message a block shows.
pub(crate) fn block_reason(decision: &Decision) -> String {
    decision
        .message
        .clone()
        .unwrap_or_else(|| "Blocked by hookgate policy".to_owned())
}

/// The reason for refusing a call the policy rewrote, for gateways whose hooks cannot
/// rewrite arguments: running the original would skip the rewrite.
pub(crate) fn rewrite_refused(gateway: Gateway, params: &Value) -> String {
    format!(
        "hookgate's policy rewrites this call's arguments (to {params}), which {} hooks cannot \
         do, so the call is refused. Make the call with those arguments instead.",
        gateway.title()
    )
}

/// Injected context, joined, when the decision lets the call through.
pub(crate) fn context_text(decision: &Decision) -> Option<String> {
    (decision.decision == Verdict::Allow && !decision.injected_context.is_empty())
        .then(|| decision.injected_context.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for g in Gateway::ALL {
            assert_eq!(Gateway::from_name(g.name()), Some(g));
        }
        assert_eq!(Gateway::from_name("gemini-cli"), Some(Gateway::Gemini));
        assert_eq!(Gateway::from_name("nope"), None);
    }

    #[test]
    fn failures_block_tool_calls_and_warn_otherwise() {
        for g in Gateway::ALL {
            let pre = match g {
                Gateway::ClaudeCode | Gateway::Codex => "PreToolUse",
                Gateway::Gemini => "BeforeTool",
                Gateway::Copilot => "preToolUse",
                Gateway::Cursor => "beforeShellExecution",
                Gateway::Opencode => "tool.execute.before",
            };
            let a = g.failure(pre, "x");
            assert_eq!(a.exit_code, 2, "{g:?}");
            let body = g.http_body(pre, &a);
            assert_ne!(body, json!({}), "{g:?}: the HTTP form must block too");
            assert_eq!(g.failure("", "x").exit_code, 2, "{g:?}");
        }
    }
}
