//! Match filters: does a hook's `match` section accept a context?
//!
//! [`check`] runs the built-in filters: synchronous, and allocation-free on the common path.
//! An external matcher (`match.custom`) is a program, run by [`custom::matches`] only after
//! the built-in filters passed.

pub mod custom;
pub mod shell;

use std::cell::OnceCell;

use crate::config::{MatchSpec, Pattern, Unparseable};
use crate::context::HookContext;

/// A filter of the `match` section, named when it rejects a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// `match.tool`
    Tool,
    /// `match.commandPattern`
    CommandPattern,
    /// `match.topicId`
    TopicId,
    /// `match.isSubAgent`
    IsSubAgent,
    /// `match.sessionPattern`
    SessionPattern,
    /// `match.custom`
    Custom,
}

impl Filter {
    /// The field name as written in HOOKS.yaml.
    pub fn as_str(self) -> &'static str {
        match self {
            Filter::Tool => "tool",
            Filter::CommandPattern => "commandPattern",
            Filter::TopicId => "topicId",
            Filter::IsSubAgent => "isSubAgent",
            Filter::SessionPattern => "sessionPattern",
            Filter::Custom => "custom",
        }
    }
}

/// The command subject of one evaluation, and (read once, on first need) the simple commands
/// of a shell command.
#[derive(Debug)]
pub struct Subject<'a> {
    raw: &'a str,
    /// The subject when it is a shell command (`toolArgs.command`).
    command: Option<&'a str>,
    commands: OnceCell<(Vec<String>, bool)>,
    on_unparseable: Unparseable,
}

impl<'a> Subject<'a> {
    /// The subject of `ctx`; `on_unparseable` decides for shell commands that cannot be read.
    pub fn of(ctx: &'a HookContext, on_unparseable: Unparseable) -> Subject<'a> {
        let command = match ctx.tool_args.as_ref().and_then(|a| a.get("command")) {
            Some(serde_json::Value::String(c)) => Some(c.as_str()),
            _ => None,
        };
        Subject {
            raw: ctx.command_subject(),
            command,
            commands: OnceCell::new(),
            on_unparseable,
        }
    }

    /// Whether `pattern` matches the raw subject (the seed's rule) or any simple command the
    /// shell would run; an unreadable command matches per `defaults.onUnparseable`.
    pub fn matches(&self, pattern: &Pattern) -> bool {
        if pattern.is_match(self.raw) {
            return true;
        }
        let Some(command) = self.command else {
            return false;
        };
        let (texts, opaque) = self.commands.get_or_init(|| {
            if shell::is_plain(command) {
                // It reads as itself, which the pattern has just missed.
                return (Vec::new(), false);
            }
            let line = shell::parse(command);
            let texts = line
                .commands
                .iter()
                .map(shell::SimpleCommand::text)
                .collect();
            (texts, line.opaque.is_some())
        });
        texts.iter().any(|t| pattern.is_match(t))
            || (*opaque && self.on_unparseable == Unparseable::Match)
    }
}

/// [`check_subject`] with a subject of its own (unreadable commands match).
pub fn check(filter: &MatchSpec, ctx: &HookContext) -> Result<(), Filter> {
    check_subject(filter, ctx, &Subject::of(ctx, Unparseable::Match))
}

/// Checks every present filter (AND), in the seed's order; `Err` names the first that fails.
/// Allocation-free on the common path: a shell command is read only when a `commandPattern`
/// misses its raw text, and then once per evaluation.
pub fn check_subject(
    filter: &MatchSpec,
    ctx: &HookContext,
    subject: &Subject<'_>,
) -> Result<(), Filter> {
    if let Some(tools) = &filter.tool
        && !ctx
            .tool_name
            .as_deref()
            .is_some_and(|name| tools.iter().any(|t| t == name))
    {
        return Err(Filter::Tool);
    }
    if let Some(pattern) = &filter.command_pattern
        && !subject.matches(pattern)
    {
        return Err(Filter::CommandPattern);
    }
    if let Some(topic) = &filter.topic_id {
        let matches = match (&ctx.topic_id, topic.as_str()) {
            (None, _) => false,
            (Some(_), "*") => true,
            (Some(serde_json::Value::String(s)), t) => s == t,
            (Some(_), t) => ctx.topic_text().as_deref() == Some(t),
        };
        if !matches {
            return Err(Filter::TopicId);
        }
    }
    if let Some(want) = filter.is_sub_agent
        && ctx.is_sub_agent() != want
    {
        return Err(Filter::IsSubAgent);
    }
    if let Some(pattern) = &filter.session_pattern
        && !pattern.is_match(&ctx.session_key)
    {
        return Err(Filter::SessionPattern);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Pattern;
    use serde_json::json;

    fn pattern(p: &str) -> Option<Pattern> {
        Some(Pattern::new(p).expect("pattern"))
    }

    fn ctx(v: serde_json::Value) -> HookContext {
        serde_json::from_value(v).expect("context")
    }

    #[test]
    fn empty_filter_matches_everything() {
        assert_eq!(
            check(&MatchSpec::default(), &ctx(json!({"sessionKey": ""}))),
            Ok(())
        );
    }

    #[test]
    fn tool_is_exact_and_case_sensitive() {
        let f = MatchSpec {
            tool: Some(vec!["exec".into()]),
            ..MatchSpec::default()
        };
        assert_eq!(
            check(&f, &ctx(json!({"sessionKey": "s", "toolName": "exec"}))),
            Ok(())
        );
        assert_eq!(
            check(&f, &ctx(json!({"sessionKey": "s", "toolName": "Exec"}))),
            Err(Filter::Tool)
        );
        assert_eq!(
            check(&f, &ctx(json!({"sessionKey": "s"}))),
            Err(Filter::Tool)
        );
    }

    #[test]
    fn command_pattern_uses_the_subject_and_is_unanchored() {
        let f = MatchSpec {
            command_pattern: pattern("rm\\s+-rf"),
            ..MatchSpec::default()
        };
        assert_eq!(
            check(
                &f,
                &ctx(json!({"sessionKey": "s", "toolArgs": {"command": "cd /; rm -rf x"}}))
            ),
            Ok(())
        );
        assert_eq!(
            check(
                &f,
                &ctx(json!({"sessionKey": "s", "prompt": "please rm -rf it"}))
            ),
            Ok(())
        );
        assert_eq!(
            check(&f, &ctx(json!({"sessionKey": "s"}))),
            Err(Filter::CommandPattern)
        );
        // An empty subject still matches a pattern that accepts "".
        let empty = MatchSpec {
            command_pattern: pattern("^$"),
            ..MatchSpec::default()
        };
        assert_eq!(check(&empty, &ctx(json!({"sessionKey": "s"}))), Ok(()));
    }

    #[test]
    fn topic_id_compares_as_strings_and_star_needs_a_topic() {
        let f = |t: &str| MatchSpec {
            topic_id: Some(t.into()),
            ..MatchSpec::default()
        };
        assert_eq!(
            check(&f("42"), &ctx(json!({"sessionKey": "s", "topicId": 42}))),
            Ok(())
        );
        assert_eq!(
            check(&f("42"), &ctx(json!({"sessionKey": "s", "topicId": "42"}))),
            Ok(())
        );
        assert_eq!(
            check(&f("42"), &ctx(json!({"sessionKey": "s", "topicId": 420}))),
            Err(Filter::TopicId)
        );
        assert_eq!(
            check(&f("*"), &ctx(json!({"sessionKey": "s", "topicId": 1}))),
            Ok(())
        );
        assert_eq!(
            check(&f("*"), &ctx(json!({"sessionKey": "s"}))),
            Err(Filter::TopicId)
        );
        assert_eq!(
            check(&f("42"), &ctx(json!({"sessionKey": "s"}))),
            Err(Filter::TopicId)
        );
    }

    #[test]
    fn sub_agent_and_session_pattern() {
        let sub = MatchSpec {
            is_sub_agent: Some(true),
            ..MatchSpec::default()
        };
        let main = MatchSpec {
            is_sub_agent: Some(false),
            ..MatchSpec::default()
        };
        let s = ctx(json!({"sessionKey": "agent:main:subagent:abc"}));
        let m = ctx(json!({"sessionKey": "agent:main:telegram:1"}));
        assert_eq!(check(&sub, &s), Ok(()));
        assert_eq!(check(&sub, &m), Err(Filter::IsSubAgent));
        assert_eq!(check(&main, &m), Ok(()));
        assert_eq!(check(&main, &s), Err(Filter::IsSubAgent));
        let sp = MatchSpec {
            session_pattern: pattern("^agent:main:telegram"),
            ..MatchSpec::default()
        };
        assert_eq!(check(&sp, &m), Ok(()));
        assert_eq!(check(&sp, &s), Err(Filter::SessionPattern));
    }

    #[test]
    fn filters_and_together_and_report_the_first_failure() {
        let f = MatchSpec {
            tool: Some(vec!["exec".into()]),
            command_pattern: pattern("^rm"),
            is_sub_agent: Some(true),
            ..MatchSpec::default()
        };
        let c =
            ctx(json!({"sessionKey": "main", "toolName": "exec", "toolArgs": {"command": "rm x"}}));
        assert_eq!(check(&f, &c), Err(Filter::IsSubAgent));
    }
}
