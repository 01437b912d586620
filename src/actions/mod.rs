//! Actions: what a hook does when it matches. One file per action; [`run`] is the registry.
//!
//! The registry is an exhaustive `match` on [`ActionName`], so every action the config stage
//! accepts has an executor: a name without one cannot load.

mod block;
mod exec_script;
mod external;
mod inject_context;
mod log;
mod log_writer;
mod notify_user;
mod require_approval;
mod summarize;

use std::path::PathBuf;
use std::sync::Arc;

use crate::config::ActionName;
use crate::context::HookContext;
use crate::graph::{CompiledHook, RuleGraph, Template, Vars, iso_timestamp};
use crate::llm::LlmClient;
use crate::notify::{Dispatcher, Notifier};
use crate::point::Point;

pub(crate) use log_writer::LogWriter;

/// Long-lived services the actions share across evaluations and policy reloads.
#[derive(Debug, Clone)]
pub struct Services {
    pub(crate) log: LogWriter,
    pub(crate) notifier: Arc<dyn Notifier>,
    pub(crate) llm: LlmClient,
    pub(crate) approvals: Option<Arc<crate::approvals::Approvals>>,
}

impl Services {
    /// Services with the given notifier and a fresh log writer.
    pub fn new(notifier: Arc<dyn Notifier>) -> Services {
        Services {
            log: LogWriter::spawn(),
            notifier,
            llm: LlmClient::spawn(),
            approvals: None,
        }
    }
}

impl Services {
    /// Reopens the log files after the lines queued so far (call it after a log rotation).
    pub async fn reopen_logs(&self) {
        self.log.reopen().await;
    }
}

impl Services {
    /// These services with approvals kept in `approvals` (the daemon's).
    pub fn with_approvals(mut self, approvals: Arc<crate::approvals::Approvals>) -> Services {
        self.approvals = Some(approvals);
        self
    }

    /// The approvals, when kept.
    pub fn approvals(&self) -> Option<&Arc<crate::approvals::Approvals>> {
        self.approvals.as_ref()
    }
}

impl Default for Services {
    /// The log writer, and notifications delivered per `defaults.notify` by a [`Dispatcher`].
    fn default() -> Self {
        Services::new(Arc::new(Dispatcher::spawn()))
    }
}

/// What an action returned (as opposed to an error it raised).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) passed: bool,
    pub(crate) message: Option<String>,
    /// Content for the gateway to prepend for the model (inject_context, exec_script).
    pub(crate) injected: Option<String>,
    /// A message for the session's user.
    pub(crate) notice: Option<String>,
    /// Replacement tool parameters (external actions' `modifiedParams`).
    pub(crate) params: Option<serde_json::Map<String, serde_json::Value>>,
    /// A pending approval: the call waits for a human (`decision: "ask"`).
    pub(crate) approval: Option<crate::approvals::ApprovalRequest>,
}

impl Outcome {
    pub(crate) fn pass(message: impl Into<String>) -> Outcome {
        Outcome {
            passed: true,
            message: Some(message.into()),
            injected: None,
            notice: None,
            params: None,
            approval: None,
        }
    }

    pub(crate) fn fail(message: impl Into<String>) -> Outcome {
        Outcome {
            passed: false,
            message: Some(message.into()),
            injected: None,
            notice: None,
            params: None,
            approval: None,
        }
    }

    pub(crate) fn with_injected(mut self, content: Option<String>) -> Outcome {
        self.injected = content;
        self
    }

    pub(crate) fn with_approval(mut self, request: crate::approvals::ApprovalRequest) -> Outcome {
        self.approval = Some(request);
        self
    }

    pub(crate) fn with_notice(mut self, message: Option<String>) -> Outcome {
        self.notice = message;
        self
    }
}

/// Everything an action may look at for one hook firing.
pub(crate) struct Invocation<'a> {
    pub(crate) hook: &'a CompiledHook,
    pub(crate) ctx: &'a HookContext,
    pub(crate) point: Point,
    pub(crate) timestamp_ms: f64,
    pub(crate) graph: &'a RuleGraph,
    pub(crate) services: &'a Services,
    /// require_approval waits for the decision instead of answering `ask`.
    pub(crate) wait_for_approval: bool,
}

impl Invocation<'_> {
    /// Renders a template with this invocation's variables.
    pub(crate) fn render(&self, template: &Template) -> String {
        self.render_with(template, |v| v.to_owned())
    }

    /// Renders a path template. Substituted values cannot climb or cross directories: `/`, `\`
    /// and NUL become `_`, and a value of `.` or `..` becomes `_`, so a hostile session key
    /// cannot send the audit log elsewhere.
    pub(crate) fn render_path(&self, template: &Template) -> PathBuf {
        let rendered = self.render_with(template, |v| {
            if v == "." || v == ".." {
                return "_".to_owned();
            }
            v.replace(['/', '\\', '\0'], "_")
        });
        self.hook.resolve_path(&rendered)
    }

    fn render_with(&self, template: &Template, escape: impl Fn(&str) -> String) -> String {
        let topic = self.ctx.topic_text().map(|t| escape(&t));
        let timestamp = iso_timestamp(self.timestamp_ms);
        let session_key = escape(&self.ctx.session_key);
        let tool = self.ctx.tool_name.as_deref().map(&escape);
        template.render(&Vars {
            topic_id: topic.as_deref(),
            session_key: &session_key,
            point: self.point.as_str(),
            tool: tool.as_deref(),
            timestamp: &timestamp,
        })
    }

    /// The hook's `onFailure.message`, rendered.
    pub(crate) fn failure_message(&self) -> Option<String> {
        self.hook.failure_message().map(|t| self.render(t))
    }
}

/// Runs the hook's action. `Err` is an action error, routed through `onFailure`.
pub(crate) async fn run(inv: &Invocation<'_>) -> Result<Outcome, String> {
    match inv.hook.spec().action {
        ActionName::Block => Ok(block::run(inv)),
        ActionName::Log => Ok(log::run(inv).await),
        ActionName::ExecScript => Ok(exec_script::run(inv).await),
        ActionName::InjectContext => Ok(inject_context::run(inv).await),
        ActionName::SummarizeAndLog => Ok(summarize::run(inv).await),
        ActionName::NotifyUser => Ok(notify_user::run(inv).await),
        ActionName::RequireApproval => Ok(require_approval::run(inv).await),
        ActionName::External => Ok(external::run(inv).await),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use super::*;
    use crate::config::load_str;

    #[test]
    fn path_templates_cannot_escape_their_directory() {
        let policy = load_str(
            "version: 1\nhooks: [{ point: turn:pre, action: log, target: \"logs/{sessionKey}/{topicId}.jsonl\" }]\n",
            Path::new("/srv/policy/HOOKS.yaml"),
        )
        .expect("policy");
        let graph = RuleGraph::from_policy(&policy);
        let mut ctx = HookContext::new("../../etc/cron.d/x");
        ctx.topic_id = Some(serde_json::json!(".."));
        let services = Services::new(Arc::new(crate::notify::LogNotifier));
        let inv = Invocation {
            hook: &graph.hooks()[0],
            ctx: &ctx,
            point: Point::TurnPre,
            timestamp_ms: 0.0,
            graph: &graph,
            services: &services,
            wait_for_approval: false,
        };
        let target = graph.hooks()[0].target().expect("target");
        assert_eq!(
            inv.render_path(target),
            Path::new("/srv/policy/logs/.._.._etc_cron.d_x/_.jsonl")
        );
        // Messages are not paths: they keep the values as given.
        assert_eq!(
            inv.render(&Template::parse("{sessionKey}")),
            "../../etc/cron.d/x"
        );
    }
}
