//! What a hook does: its `action` and exactly the fields that action reads.
//!
//! A hook's YAML is flat (`action: exec_script` beside `script:`, `injectOutput:`), but
//! [`Action`] has one variant per action carrying only its own fields, so a combination the
//! action cannot use is not representable past the config stage.

use serde::Deserialize;

use super::model::LlmSettings;

/// What a hook does, with the fields its action reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Stop the agent at this point.
    Block {
        /// Also notify the session's user of an enforced block (`notifyUser`).
        notify_user: bool,
    },
    /// Append a JSONL line describing the event.
    Log {
        /// The file to append to, a path template; stderr without one.
        target: Option<String>,
    },
    /// Run a script with the context in its environment; exit 0 passes.
    ExecScript {
        /// The script: a file (`target`) or inline text (`script`).
        script: Script,
        /// On success, the script's stdout is also injected context (`injectOutput`).
        inject_output: bool,
    },
    /// Read a file and hand its content to the gateway to prepend for the model.
    InjectContext {
        /// The file, a path template (`source`, else `target`); nothing is injected without
        /// one.
        source: Option<String>,
        /// Entries taken from a `.jsonl` source (`lastN`).
        last_n: Option<u32>,
    },
    /// Summarise the event with an LLM and append the summary to a JSONL file.
    SummarizeAndLog {
        /// The file to append to, a path template; stderr without one.
        target: Option<String>,
        /// The model, else `defaults.model`.
        model: Option<String>,
        /// The endpoint, else `defaults.llm`.
        llm: Option<LlmSettings>,
    },
    /// Send the session's user a message about the event.
    NotifyUser {
        /// The model, else `defaults.model`.
        model: Option<String>,
        /// The endpoint, else `defaults.llm`.
        llm: Option<LlmSettings>,
    },
    /// Pause the call until a human approves or denies it (`decision: "ask"`).
    RequireApproval(ApprovalSpec),
    /// Run an external action program (`action: ./path`).
    External {
        /// The program, as written (relative to the policy's directory).
        program: String,
    },
}

/// The script of an `exec_script` hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Script {
    /// `target`: a script file, a path template (it wins over `script`).
    File(String),
    /// `script`: inline text, run as written under its `#!` line, else `/bin/sh`.
    Inline(String),
}

impl Action {
    /// Which built-in action this is.
    pub fn name(&self) -> ActionName {
        match self {
            Action::Block { .. } => ActionName::Block,
            Action::Log { .. } => ActionName::Log,
            Action::ExecScript { .. } => ActionName::ExecScript,
            Action::InjectContext { .. } => ActionName::InjectContext,
            Action::SummarizeAndLog { .. } => ActionName::SummarizeAndLog,
            Action::NotifyUser { .. } => ActionName::NotifyUser,
            Action::RequireApproval(_) => ActionName::RequireApproval,
            Action::External { .. } => ActionName::External,
        }
    }

    /// The action as the policy wrote it: an external action's program, else the name. It
    /// names the action in decisions and messages.
    pub fn label(&self) -> &str {
        match self {
            Action::External { program } => program,
            other => other.name().as_str(),
        }
    }

    /// The path template the action reads or writes, if any: a log's file, a script file,
    /// an injected source.
    pub fn path_template(&self) -> Option<&str> {
        match self {
            Action::Log { target }
            | Action::SummarizeAndLog { target, .. }
            | Action::InjectContext { source: target, .. } => target.as_deref(),
            Action::ExecScript {
                script: Script::File(file),
                ..
            } => Some(file),
            _ => None,
        }
    }
}

/// The built-in actions this build of hookgate runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ActionName {
    /// Stop the agent at this point.
    Block,
    /// Append a JSONL line describing the event.
    Log,
    /// Run a script with the context in its environment; exit 0 passes.
    ExecScript,
    /// Read a file and hand its content to the gateway to prepend for the model.
    InjectContext,
    /// Summarise the event with an LLM and append the summary to a JSONL file.
    SummarizeAndLog,
    /// Send the session's user a message about the event.
    NotifyUser,
    /// Pause the call until a human approves or denies it (`decision: "ask"`).
    RequireApproval,
    /// Run an external action program (`action: ./path`); the hook's `program`.
    External,
}

impl ActionName {
    /// Every action this build runs.
    pub const ALL: &'static [ActionName] = &[
        ActionName::Block,
        ActionName::Log,
        ActionName::ExecScript,
        ActionName::InjectContext,
        ActionName::SummarizeAndLog,
        ActionName::NotifyUser,
        ActionName::RequireApproval,
    ];

    /// The name as written in HOOKS.yaml.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionName::Block => "block",
            ActionName::Log => "log",
            ActionName::ExecScript => "exec_script",
            ActionName::InjectContext => "inject_context",
            ActionName::SummarizeAndLog => "summarize_and_log",
            ActionName::NotifyUser => "notify_user",
            ActionName::RequireApproval => "require_approval",
            ActionName::External => "external",
        }
    }

    pub(super) fn from_name(name: &str) -> Option<ActionName> {
        ActionName::ALL.iter().copied().find(|a| a.as_str() == name)
    }
}

/// How risky a call that needs approval is (shown to the approver).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    /// Low.
    Low,
    /// Medium (the default).
    #[default]
    Medium,
    /// High.
    High,
    /// Critical.
    Critical,
}

impl Risk {
    /// The name as written in HOOKS.yaml.
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
            Risk::Critical => "critical",
        }
    }
}

/// What happens when nobody decides in time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeoutAction {
    /// Refuse the call (the default).
    #[default]
    Deny,
    /// Let the call through.
    Allow,
}

/// A decision a human can take on an approval request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    /// This request only.
    Approve,
    /// Refuse this request.
    Deny,
    /// This tool and subject, for the rest of the session.
    ApproveSession,
    /// A persistent pattern (`tool:glob`).
    ApproveAlways,
}

impl ApprovalDecision {
    /// The name as written in requests and files.
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalDecision::Approve => "approve",
            ApprovalDecision::Deny => "deny",
            ApprovalDecision::ApproveSession => "approve_session",
            ApprovalDecision::ApproveAlways => "approve_always",
        }
    }

    /// Every decision.
    pub const ALL: &'static [ApprovalDecision] = &[
        ApprovalDecision::Approve,
        ApprovalDecision::Deny,
        ApprovalDecision::ApproveSession,
        ApprovalDecision::ApproveAlways,
    ];
}

/// A hook's `require_approval` settings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ApprovalSpec {
    /// Shown to the approver.
    pub risk: Risk,
    /// When nobody decides in time.
    pub timeout_action: TimeoutAction,
    /// What the approver may choose.
    pub allowed_decisions: Vec<ApprovalDecision>,
    /// Shown to the approver.
    pub description: Option<String>,
}
