//! Actions: what a hook does when it matches. One file per action; [`run`] is the registry.
//!
//! The registry is an exhaustive `match` on [`Action`], so every action the config stage
//! accepts has an executor, and each executor is handed exactly its action's fields.

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

use crate::config::Action;
use crate::context::HookContext;
use crate::graph::{CompiledHook, RuleGraph, Template, Vars, iso_timestamp};
use crate::llm::LlmClient;
use crate::notify::{Dispatcher, Notice, Notifier};
use crate::point::Point;

pub(crate) use log_writer::LogWriter;

/// Long-lived services the actions share across evaluations and policy reloads.
#[derive(Debug, Clone)]
pub struct Services {
    pub(crate) log: LogWriter,
    pub(crate) notifier: Arc<dyn Notifier>,
    pub(crate) llm: LlmClient,
    pub(crate) approvals: Option<Arc<crate::approvals::Approvals>>,
    /// A dry run (`hookgate test`): `log` and `summarize_and_log` write nothing, no LLM is
    /// called and no notice is sent. Programs (`exec_script`, external actions, `custom`
    /// matchers) still run, since they decide verdicts.
    pub(crate) dry_run: bool,
}

impl Services {
    /// Services with the given notifier and a fresh log writer.
    pub fn new(notifier: Arc<dyn Notifier>) -> Services {
        Services {
            log: LogWriter::new(),
            notifier,
            llm: LlmClient::new(),
            approvals: None,
            dry_run: false,
        }
    }

    /// Services for a dry run, as `hookgate test` uses by default: decisions are the same as
    /// with [`Services::default`], but `log` and `summarize_and_log` pass without writing
    /// (and without asking the LLM), `notify_user` asks no LLM, and notices are listed in
    /// the decision but not sent. `exec_script`, external actions and `custom` matchers do
    /// run. There is no approval store, so `require_approval` answers `ask`.
    pub fn dry_run() -> Services {
        Services::default().with_dry_run(true)
    }

    /// These services with the dry run switched on or off (see [`Services::dry_run`]).
    pub fn with_dry_run(mut self, dry_run: bool) -> Services {
        self.dry_run = dry_run;
        self
    }

    /// Whether this is a dry run (see [`Services::dry_run`]).
    pub fn is_dry_run(&self) -> bool {
        self.dry_run
    }

    /// Hands `notice` to the notifier, except in a dry run.
    pub(crate) fn notify(&self, notice: Notice) {
        if self.dry_run {
            tracing::debug!(hook = %notice.hook, session_key = %notice.session_key, "dry run: notification not sent");
            return;
        }
        self.notifier.notify(notice);
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

/// What an action did. Whatever went wrong inside it (a script that could not start, a
/// program's bad reply) is a [`Fail`](Outcome::Fail) with the reason, which the hook's
/// `onFailure` then routes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// The call may go on.
    Pass(Report),
    /// The action stops the call: `block`, a script's non-zero exit, a denial.
    Fail(Report),
    /// A person must decide: the call is held (`decision: "ask"`), which is not a failure.
    Held(Report, Box<crate::approvals::ApprovalRequest>),
}

/// What an action says and produces besides its verdict.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Report {
    pub(crate) message: Option<String>,
    /// Content for the gateway to prepend for the model (inject_context, exec_script).
    pub(crate) injected: Option<String>,
    /// A message for the session's user.
    pub(crate) notice: Option<String>,
    /// Replacement tool parameters (external actions' `modifiedParams`).
    pub(crate) params: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Outcome {
    pub(crate) fn pass(message: impl Into<String>) -> Outcome {
        Outcome::Pass(Report::saying(message))
    }

    pub(crate) fn fail(message: impl Into<String>) -> Outcome {
        Outcome::Fail(Report::saying(message))
    }

    /// A failure that waits for `request` to be decided.
    pub(crate) fn held(
        message: impl Into<String>,
        request: crate::approvals::ApprovalRequest,
    ) -> Outcome {
        Outcome::Held(Report::saying(message), Box::new(request))
    }

    pub(crate) fn with_injected(mut self, content: Option<String>) -> Outcome {
        self.report_mut().injected = content;
        self
    }

    pub(crate) fn with_notice(mut self, message: Option<String>) -> Outcome {
        self.report_mut().notice = message;
        self
    }

    pub(crate) fn is_pass(&self) -> bool {
        matches!(self, Outcome::Pass(_))
    }

    fn report_mut(&mut self) -> &mut Report {
        match self {
            Outcome::Pass(report) | Outcome::Fail(report) | Outcome::Held(report, _) => report,
        }
    }
}

impl Report {
    fn saying(message: impl Into<String>) -> Report {
        Report {
            message: Some(message.into()),
            ..Report::default()
        }
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

/// Runs the hook's action.
pub(crate) async fn run(inv: &Invocation<'_>) -> Outcome {
    // A template the action reads or writes is the hook's compiled `path`, not the field.
    match &inv.hook.spec().action {
        Action::Block { notify_user } => block::run(inv, *notify_user),
        Action::Log { .. } => log::run(inv).await,
        Action::ExecScript {
            script,
            inject_output,
        } => exec_script::run(inv, script, *inject_output).await,
        Action::InjectContext { last_n, .. } => inject_context::run(inv, *last_n).await,
        Action::SummarizeAndLog { model, llm, .. } => {
            summarize::run(inv, model.as_deref(), llm.as_ref()).await
        }
        Action::NotifyUser { model, llm } => {
            notify_user::run(inv, model.as_deref(), llm.as_ref()).await
        }
        Action::RequireApproval(approval) => require_approval::run(inv, approval).await,
        Action::External { program } => external::run(inv, program).await,
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
        let target = graph.hooks()[0].path().expect("target");
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

    /// Records the notices handed to it.
    #[derive(Debug, Default)]
    struct Recorder(std::sync::Mutex<Vec<Notice>>);

    impl Notifier for Recorder {
        fn notify(&self, notice: Notice) {
            if let Ok(mut sent) = self.0.lock() {
                sent.push(notice);
            }
        }
    }

    impl Recorder {
        fn count(&self) -> usize {
            self.0.lock().map_or(0, |sent| sent.len())
        }
    }

    /// An engine over `yaml` (as if loaded from `dir/HOOKS.yaml`) with `services`.
    fn engine(yaml: &str, dir: &Path, services: Services) -> crate::Engine {
        let policy = load_str(yaml, &dir.join("HOOKS.yaml")).expect("policy");
        crate::Engine::with_services(
            Arc::new(RuleGraph::from_policy(&policy)),
            Arc::new(services),
        )
    }

    /// A local port that accepts connections and never answers, and whether one came.
    fn silent_endpoint() -> (std::net::TcpListener, String) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let url = format!("http://{}/v1", listener.local_addr().expect("addr"));
        (listener, url)
    }

    fn was_called(listener: &std::net::TcpListener) -> bool {
        listener.accept().is_ok()
    }

    #[test]
    fn services_are_live_unless_asked() {
        assert!(!Services::default().is_dry_run());
        assert!(Services::dry_run().is_dry_run());
        assert!(Services::dry_run().approvals().is_none());
        assert!(!Services::dry_run().with_dry_run(false).is_dry_run());
    }

    #[tokio::test]
    async fn a_dry_run_logs_nothing_and_a_live_run_does() {
        let dir = tempfile::tempdir().expect("tempdir");
        let yaml = "version: 1\nhooks: [{ name: audit, point: turn:pre, action: log, target: logs/audit.jsonl }]\n";
        let log = dir.path().join("logs/audit.jsonl");
        let ctx = HookContext::new("agent:main:main");

        let dry = engine(yaml, dir.path(), Services::dry_run());
        let decision = dry.evaluate(Point::TurnPre, &ctx).await;
        dry.flush().await;
        assert_eq!(decision.results.len(), 1);
        assert!(decision.passed);
        assert_eq!(
            decision.results[0].message.as_deref(),
            Some("Logged event at turn:pre")
        );
        assert!(!log.exists(), "a dry run wrote the log");

        let live = engine(yaml, dir.path(), Services::default());
        let live_decision = live.evaluate(Point::TurnPre, &ctx).await;
        live.flush().await;
        assert_eq!(
            live_decision.results[0].message,
            decision.results[0].message
        );
        assert!(log.exists(), "a live run did not write the log");
    }

    #[tokio::test]
    async fn a_dry_run_summarizes_without_the_llm_or_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (listener, url) = silent_endpoint();
        // Long enough for the live run to connect on a loaded machine; the endpoint never
        // answers, so the live run waits it out.
        let yaml = format!(
            "version: 1\ndefaults: {{ model: m, llm: {{ baseUrl: \"{url}\", timeoutMs: 3000 }} }}\nhooks: [{{ point: turn:pre, action: summarize_and_log, target: summary.jsonl }}]\n"
        );
        let dry = engine(&yaml, dir.path(), Services::dry_run());
        let decision = dry.evaluate(Point::TurnPre, &HookContext::new("s")).await;
        dry.flush().await;
        assert_eq!(
            decision.results[0].message.as_deref(),
            Some("Summarized and logged event at turn:pre")
        );
        assert!(!dir.path().join("summary.jsonl").exists());
        assert!(!was_called(&listener), "a dry run called the LLM");

        // The same policy, live: the LLM is asked (it never answers) and the line written.
        let live = engine(&yaml, dir.path(), Services::default());
        live.evaluate(Point::TurnPre, &HookContext::new("s")).await;
        live.flush().await;
        assert!(dir.path().join("summary.jsonl").exists());
        // Built without the `llm` feature, there is no client to ask: the line is written
        // all the same, without a summary.
        assert_eq!(
            was_called(&listener),
            cfg!(feature = "llm"),
            "whether the live run called the LLM"
        );
    }

    #[tokio::test]
    async fn a_dry_run_sends_no_notice_and_asks_no_llm() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (listener, url) = silent_endpoint();
        let yaml = format!(
            "version: 1\ndefaults: {{ model: m, llm: {{ baseUrl: \"{url}\", timeoutMs: 300 }} }}\nhooks:\n  - {{ point: subagent:post, action: notify_user }}\n  - {{ point: turn:tool:pre, action: block, notifyUser: true }}\n"
        );
        let ctx = HookContext::new("agent:main:main");

        let recorder = Arc::new(Recorder::default());
        let dry = engine(
            &yaml,
            dir.path(),
            Services::new(recorder.clone()).with_dry_run(true),
        );
        let notified = dry.evaluate(Point::SubagentPost, &ctx).await;
        let blocked = dry.evaluate(Point::TurnToolPre, &ctx).await;
        // The decisions still list what would have been sent.
        assert_eq!(notified.notifications.len(), 1);
        assert_eq!(blocked.notifications.len(), 1);
        assert!(!blocked.passed);
        assert_eq!(recorder.count(), 0, "a dry run sent a notice");
        assert!(!was_called(&listener), "a dry run called the LLM");

        let live = engine(&yaml, dir.path(), Services::new(recorder.clone()));
        live.evaluate(Point::TurnToolPre, &ctx).await;
        assert_eq!(recorder.count(), 1);
    }

    #[tokio::test]
    async fn a_dry_run_asks_for_approval_without_a_store() {
        let dir = tempfile::tempdir().expect("tempdir");
        let yaml =
            "version: 1\nhooks: [{ name: ask, point: turn:tool:pre, action: require_approval }]\n";
        let dry = engine(yaml, dir.path(), Services::dry_run());
        let decision = dry
            .evaluate(Point::TurnToolPre, &HookContext::new("s"))
            .await;
        assert_eq!(decision.decision, crate::Verdict::Ask);
        assert_eq!(decision.hook.as_deref(), Some("ask"));
    }
}
