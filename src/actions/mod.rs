//! Actions: what a hook does when it matches. One file per action; [`run`] is the registry.
//!
//! The registry is an exhaustive `match` on [`ActionName`], so every action the config stage
//! accepts has an executor: a name without one cannot load.

mod block;
mod log;
mod log_writer;

use std::sync::Arc;

use crate::config::ActionName;
use crate::context::HookContext;
use crate::graph::{CompiledHook, RuleGraph, Template, Vars, iso_timestamp};
use crate::notify::{LogNotifier, Notifier};
use crate::point::Point;

pub(crate) use log_writer::LogWriter;

/// Long-lived services the actions share across evaluations and policy reloads.
#[derive(Debug, Clone)]
pub struct Services {
    pub(crate) log: LogWriter,
    pub(crate) notifier: Arc<dyn Notifier>,
}

impl Services {
    /// Services with the given notifier and a fresh log writer.
    pub fn new(notifier: Arc<dyn Notifier>) -> Services {
        Services {
            log: LogWriter::spawn(),
            notifier,
        }
    }
}

impl Default for Services {
    fn default() -> Self {
        Services::new(Arc::new(LogNotifier))
    }
}

/// What an action returned (as opposed to an error it raised).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    pub(crate) passed: bool,
    pub(crate) message: Option<String>,
}

/// Everything an action may look at for one hook firing.
pub(crate) struct Invocation<'a> {
    pub(crate) hook: &'a CompiledHook,
    pub(crate) ctx: &'a HookContext,
    pub(crate) point: Point,
    pub(crate) timestamp_ms: f64,
    pub(crate) graph: &'a RuleGraph,
    pub(crate) services: &'a Services,
}

impl Invocation<'_> {
    /// Renders a template with this invocation's variables.
    pub(crate) fn render(&self, template: &Template) -> String {
        let topic = self.ctx.topic_text();
        let timestamp = iso_timestamp(self.timestamp_ms);
        template.render(&Vars {
            topic_id: topic.as_deref(),
            session_key: &self.ctx.session_key,
            point: self.point.as_str(),
            tool: self.ctx.tool_name.as_deref(),
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
    }
}
