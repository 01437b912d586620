//! Match filters: does a hook's `match` section accept a context?
//!
//! [`check`] runs the built-in filters: synchronous, and allocation-free on the common path.
//! An external matcher (`match.custom`) is a program, run by [`custom::matches`] only after
//! the built-in filters passed.

pub(crate) mod code;
pub(crate) mod custom;
mod deadline;
mod filters;
pub(crate) mod paths;
mod pattern;
pub(crate) mod places;
mod prefilter;
mod sed_script;
pub(crate) mod shell;
mod sql;
mod subject;
mod trees;
mod wildcard;

pub(crate) use deadline::Deadline;
pub(crate) use filters::{ArgMatcher, CommandMatcher, Filters, PathMatcher};
pub(crate) use pattern::Pattern;
pub(crate) use prefilter::{Hits, PatternIndex};
pub(crate) use subject::Subject;
pub(crate) use wildcard::matches as wildcard_matches;

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
    /// `match.unparseable`
    Unparseable,
    /// `match.command`
    Command,
    /// `match.args`
    Args,
    /// `match.pathGlob`
    PathGlob,
    /// `match.readGlob`
    ReadGlob,
    /// `match.pathIn`
    PathIn,
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
            Filter::Unparseable => "unparseable",
            Filter::Command => "command",
            Filter::Args => "args",
            Filter::PathGlob => "pathGlob",
            Filter::ReadGlob => "readGlob",
            Filter::PathIn => "pathIn",
            Filter::Custom => "custom",
        }
    }
}

/// The distinct patterns of a policy, by the subject they are matched against.
#[derive(Debug, Clone, Default)]
pub struct PatternIndexes {
    /// `commandPattern`s, against the command subject and the simple commands.
    pub command: PatternIndex,
    /// `sessionPattern`s, against the session key.
    pub session: PatternIndex,
}

/// A hook's patterns, by id in the [`PatternIndexes`] of its graph.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PatternIds {
    /// Its `commandPattern`'s id.
    pub command: Option<u32>,
    /// Its `sessionPattern`'s id.
    pub session: Option<u32>,
}

/// How a hook's filters matched: by what the call says, or, for at least one of them,
/// only because its shell command could not be read (`defaults.onUnparseable: match`, or
/// `unparseable: true`); a block then says why it was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matched {
    /// Every filter matched what the call says.
    Read,
    /// A filter matched only because the command could not be read.
    Unread,
}

/// Checks every present filter (AND): the seed's in its order, then the structured ones;
/// `Err` names the first that fails. Allocation-free on the common path: a shell command is
/// read only when a filter needs its commands, and then once per evaluation.
pub(crate) fn check_subject(
    filter: &Filters,
    ids: PatternIds,
    subject: &Subject<'_>,
) -> Result<Matched, Filter> {
    let ctx = subject.ctx;
    let mut matched = Matched::Read;
    // A filter that matched, or the one that did not.
    let mut check = |hit: Option<Matched>, name: Filter| match hit {
        Some(Matched::Unread) => {
            matched = Matched::Unread;
            Ok(())
        }
        Some(Matched::Read) => Ok(()),
        None => Err(name),
    };
    let holds = |yes: bool| yes.then_some(Matched::Read);
    if let Some(tools) = &filter.tool {
        let named = ctx.tool_name.as_deref();
        check(
            holds(named.is_some_and(|name| tools.iter().any(|t| t == name))),
            Filter::Tool,
        )?;
    }
    if let Some(pattern) = &filter.command_pattern {
        check(
            subject.matches_command_pattern(pattern, ids.command),
            Filter::CommandPattern,
        )?;
    }
    if let Some(topic) = &filter.topic_id {
        let matches = match (&ctx.topic_id, topic.as_str()) {
            (None, _) => false,
            (Some(_), "*") => true,
            (Some(serde_json::Value::String(s)), t) => s == t,
            (Some(_), t) => ctx.topic_text().as_deref() == Some(t),
        };
        check(holds(matches), Filter::TopicId)?;
    }
    if let Some(want) = filter.is_sub_agent {
        check(holds(ctx.is_sub_agent() == want), Filter::IsSubAgent)?;
    }
    if let Some(pattern) = &filter.session_pattern {
        check(
            holds(subject.matches_session_pattern(pattern, ids.session)),
            Filter::SessionPattern,
        )?;
    }
    if let Some(want) = filter.unparseable {
        check(subject.matches_unreadable(want), Filter::Unparseable)?;
    }
    if let Some(args) = &filter.args {
        check(holds(subject.matches_args(args)), Filter::Args)?;
    }
    if let Some(command) = &filter.command {
        check(subject.matches_command(command), Filter::Command)?;
    }
    // With a `command` filter, the paths are those of the commands it takes: in
    // `ls .env && echo ok`, `echo` is not what names `.env`.
    if let Some(glob) = &filter.path_glob {
        let hit = match &filter.command {
            Some(command) if subject.is_shell_line() => {
                subject.matches_paths_of(glob, false, command)
            }
            _ => subject.matches_paths(glob),
        };
        check(hit, Filter::PathGlob)?;
    }
    if let Some(glob) = &filter.read_glob {
        let hit = match &filter.command {
            Some(command) if subject.is_shell_line() => {
                subject.matches_paths_of(glob, true, command)
            }
            _ => subject.matches_read_paths(glob),
        };
        check(hit, Filter::ReadGlob)?;
    }
    if let Some(places) = &filter.path_in {
        check(holds(subject.path_in(places)), Filter::PathIn)?;
    }
    Ok(matched)
}

#[cfg(test)]
mod tests;
