//! Hooks that cannot fire: `shadowed` (an earlier unconditional block ends the chain
//! first), `contradiction` (a `match` at odds with itself) and `tool-subject` (a filter that
//! cannot match what the hook's tools send).

use std::collections::HashMap;

use globset::Glob;
use serde_json::Value;

use super::analysis::{
    anchored_strings, can_match, hir, is_anchored_path, is_shell_command, requires_literal,
};
use super::{Code, Diagnostic, Lint, PatternKind, patterns};
use crate::config::{ActionName, FailureAction, HookSpec, MatchSpec, Mode};
use crate::point::Point;

pub(super) fn check(cx: &Lint<'_>, out: &mut Vec<Diagnostic>) {
    shadowed(cx, out);
    for hook in cx.hooks() {
        contradictions(cx, hook, out);
        tool_subject(cx, hook, out);
    }
}

// ---------------------------------------------------------------------------------------
// shadowed

/// Which calls an unconditional block stops: all of them at its points, or those of its
/// tools, or of its kind of session.
#[derive(Clone, Copy)]
struct Scope<'h> {
    tools: Option<&'h [String]>,
    sub_agent: Option<bool>,
}

/// The scope of `hook` when it blocks every call it is a candidate for: an enabled,
/// enforced `block` whose refusal `onFailure` keeps, with no filter but `tool` and
/// `isSubAgent`.
fn unconditional_block(hook: &HookSpec) -> Option<Scope<'_>> {
    let keeps_block = hook
        .on_failure
        .as_ref()
        .is_none_or(|f| f.action == FailureAction::Block);
    if !hook.enabled
        || hook.mode != Mode::Enforce
        || hook.action.name() != ActionName::Block
        || !keeps_block
    {
        return None;
    }
    let MatchSpec {
        tool,
        command_pattern: None,
        topic_id: None,
        is_sub_agent,
        session_pattern: None,
        unparseable: None,
        command: None,
        args: None,
        path_glob: None,
        read_glob: None,
        path_in: None,
        custom: None,
    } = &hook.filter
    else {
        return None;
    };
    Some(Scope {
        tools: tool.as_deref(),
        sub_agent: *is_sub_agent,
    })
}

impl Scope<'_> {
    /// Whether every call `hook` could fire for is one this scope stops.
    fn covers(&self, hook: &HookSpec) -> bool {
        let tools = match (self.tools, hook.filter.tool.as_deref()) {
            (None, _) => true,
            (Some(mine), Some(theirs)) => theirs.iter().all(|t| mine.contains(t)),
            (Some(_), None) => false,
        };
        let sessions = match self.sub_agent {
            None => true,
            Some(want) => hook.filter.is_sub_agent == Some(want),
        };
        tools && sessions
    }
}

/// A hook that can never fire at some of its points, because an earlier hook in evaluation
/// order blocks every call there first.
fn shadowed(cx: &Lint<'_>, out: &mut Vec<Diagnostic>) {
    let hooks = cx.hooks();
    // The unconditional blocks met so far at each point, in evaluation order.
    let mut blockers: HashMap<Point, Vec<(usize, Scope<'_>)>> = HashMap::new();
    for &i in cx.order() {
        let hook = &hooks[i];
        if !hook.enabled {
            continue;
        }
        // The first blocker of each point, with the points it shadows the hook at.
        let mut by_blocker: Vec<(usize, Vec<Point>)> = Vec::new();
        for point in &hook.points {
            let first = blockers
                .get(point)
                .and_then(|list| list.iter().find(|(_, scope)| scope.covers(hook)))
                .map(|(b, _)| *b);
            if let Some(b) = first {
                match by_blocker.iter_mut().find(|(x, _)| *x == b) {
                    Some((_, points)) => points.push(*point),
                    None => by_blocker.push((b, vec![*point])),
                }
            }
        }
        for (b, points) in by_blocker {
            let blocker = &hooks[b];
            let at = if points.len() == hook.points.len() {
                String::new()
            } else {
                let names: Vec<&str> = points.iter().map(|p| p.as_str()).collect();
                format!(" at {}", names.join(", "))
            };
            let of_tools = blocker
                .filter
                .tool
                .as_deref()
                .map_or_else(String::new, |tools| format!(" of {}", list(tools)));
            let in_sessions = match blocker.filter.is_sub_agent {
                None => "",
                Some(true) => " in sub-agent sessions",
                Some(false) => " outside sub-agent sessions",
            };
            let why = format!("blocks every call{of_tools}{in_sessions}");
            let order = if blocker.priority > hook.priority {
                format!("priority {} > {}", blocker.priority, hook.priority)
            } else {
                format!("same priority {}, earlier in the policy", blocker.priority)
            };
            let finding = cx.at_hook(
                Code::Shadowed,
                hook,
                "",
                format!(
                    "hook `{}` can never fire{at}: {} {why} before it ({order})",
                    hook.id,
                    cx.describe(blocker, &hook.file),
                ),
                Some(format!(
                    "the first block ends the chain; give `{}` a higher priority than `{}`, narrow `{}`'s `match`, or remove one of them",
                    hook.id, blocker.id, blocker.id
                )),
            );
            out.push(cx.relate(finding, blocker, "the hook that blocks first"));
        }
        if let Some(scope) = unconditional_block(hook) {
            for point in &hook.points {
                blockers.entry(*point).or_default().push((i, scope));
            }
        }
    }
}

fn list(tools: &[String]) -> String {
    let names: Vec<String> = tools.iter().map(|t| format!("`{t}`")).collect();
    names.join(", ")
}

// ---------------------------------------------------------------------------------------
// contradiction

/// The text that marks a sub-agent's session key.
const SUBAGENT_MARK: &str = ":subagent:";

fn contradictions(cx: &Lint<'_>, hook: &HookSpec, out: &mut Vec<Diagnostic>) {
    let f = &hook.filter;
    // A regex that can match nothing.
    for field in patterns(hook) {
        let Some(parsed) = hir(field.pattern.as_str()) else {
            continue;
        };
        if !can_match(&parsed) {
            out.push(cx.at_hook(
                Code::Contradiction,
                hook,
                &field.suffix,
                format!(
                    "regex `{}` can never match: it contradicts itself",
                    field.pattern.as_str()
                ),
                Some("`^` after text, `$` before text, `\\b` between two letters or an empty class `[^\\s\\S]` match nothing; fix the pattern or remove the hook".to_owned()),
            ));
            continue;
        }
        if field.kind != PatternKind::Session {
            continue;
        }
        if f.is_sub_agent == Some(true)
            && let Some(keys) = anchored_strings(&parsed)
            && !keys.iter().any(|k| k.contains(SUBAGENT_MARK))
        {
            out.push(cx.at_hook(
                Code::Contradiction,
                hook,
                &field.suffix,
                format!(
                    "`isSubAgent: true` needs a session key with `{SUBAGENT_MARK}`, and sessionPattern `{}` matches only keys without it",
                    field.pattern.as_str()
                ),
                Some("drop `isSubAgent`, or write a sessionPattern for sub-agent keys (`^agent:main:subagent:`)".to_owned()),
            ));
        }
        if f.is_sub_agent == Some(false) && requires_literal(&parsed, SUBAGENT_MARK) {
            out.push(cx.at_hook(
                Code::Contradiction,
                hook,
                &field.suffix,
                format!(
                    "`isSubAgent: false` excludes session keys with `{SUBAGENT_MARK}`, and sessionPattern `{}` matches only keys with it",
                    field.pattern.as_str()
                ),
                Some("use `isSubAgent: true`, or drop one of the two filters".to_owned()),
            ));
        }
    }
    // `command.program` whose every name is also excluded.
    if let Some(names) = cx
        .raw_hook(hook)
        .and_then(|r| r.pointer("/match/command/program"))
        && let Some(excluded) = all_programs_excluded(names)
    {
        out.push(cx.at_hook(
            Code::Contradiction,
            hook,
            "/match/command/program",
            format!(
                "every program `command.program` names is also excluded ({excluded}), so it matches no program"
            ),
            Some("remove the `!name` entries that exclude the programs you list".to_owned()),
        ));
    }
}

/// The exclusions that leave nothing, when every program a `command.program` value names
/// is also excluded by one of its `!` entries (a list of only exclusions means "any other
/// program", and is fine).
fn all_programs_excluded(value: &Value) -> Option<String> {
    let names: Vec<&str> = match value {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    let (excluded, included): (Vec<&str>, Vec<&str>) =
        names.iter().partition(|n| n.starts_with('!'));
    let excluded: Vec<&str> = excluded.iter().map(|n| &n[1..]).collect();
    if included.is_empty() || excluded.is_empty() {
        return None;
    }
    let is_glob = |n: &str| n.contains(['*', '?', '[', '{']);
    let matchers: Vec<(&str, Option<globset::GlobMatcher>)> = excluded
        .iter()
        .map(|e| {
            let m = is_glob(e)
                .then(|| Glob::new(e).ok().map(|g| g.compile_matcher()))
                .flatten();
            (*e, m)
        })
        .collect();
    let covered = included.iter().all(|name| {
        matchers.iter().any(|(e, m)| {
            e == name || (!is_glob(name) && m.as_ref().is_some_and(|m| m.is_match(name)))
        })
    });
    covered.then(|| {
        let shown: Vec<String> = excluded.iter().map(|e| format!("`!{e}`")).collect();
        shown.join(", ")
    })
}

// ---------------------------------------------------------------------------------------
// tool-subject

/// The kind of command subject a known tool has (docs/hooks-reference.md, "Command subject").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SubjectKind {
    /// `toolArgs.command`: a shell command line.
    Shell,
    /// A file path.
    Path,
    /// A URL.
    Url,
    /// A message's text.
    Message,
}

pub(super) fn subject_of(tool: &str) -> Option<SubjectKind> {
    match tool {
        "exec" | "Bash" | "bash" | "shell" => Some(SubjectKind::Shell),
        "Read" | "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "read" | "write" | "edit"
        | "Glob" | "Grep" => Some(SubjectKind::Path),
        "web_fetch" | "WebFetch" | "browser" => Some(SubjectKind::Url),
        "message" | "sessions_send" => Some(SubjectKind::Message),
        _ => None,
    }
}

fn tool_subject(cx: &Lint<'_>, hook: &HookSpec, out: &mut Vec<Diagnostic>) {
    let Some(tools) = hook.filter.tool.as_deref() else {
        return;
    };
    let Some(subjects) = tools
        .iter()
        .map(|t| subject_of(t))
        .collect::<Option<Vec<SubjectKind>>>()
    else {
        // A tool this check does not know might send anything.
        return;
    };
    if subjects.is_empty() {
        return;
    }
    let no_shell = !subjects.contains(&SubjectKind::Shell);
    let named = list(tools);
    if let Some(pattern) = &hook.filter.command_pattern
        && let Some(parsed) = hir(pattern.as_str())
    {
        let shell = is_shell_command(&parsed);
        let path = is_anchored_path(&parsed);
        let misses = |s: &SubjectKind| match s {
            SubjectKind::Path => shell,
            SubjectKind::Url => shell || path,
            SubjectKind::Shell | SubjectKind::Message => false,
        };
        if subjects.iter().all(misses) {
            let (what, subject) = if shell {
                ("a shell command", describe_subjects(&subjects))
            } else {
                ("a path", "a URL".to_owned())
            };
            out.push(cx.at_hook(
                Code::ToolSubject,
                hook,
                "/match/commandPattern",
                format!(
                    "commandPattern `{}` describes {what}, but the subject of {named} is {subject}: it can never match",
                    pattern.as_str()
                ),
                Some(tool_help(what)),
            ));
        }
    }
    if no_shell {
        let shell_only = [
            (
                hook.filter.command.is_some(),
                "/match/command",
                "`match.command` tests the simple commands of `toolArgs.command`",
            ),
            (
                hook.filter.unparseable == Some(true),
                "/match/unparseable",
                "`unparseable: true` matches only a shell command hookgate cannot read",
            ),
        ];
        for (present, suffix, what) in shell_only {
            if present {
                out.push(cx.at_hook(
                    Code::ToolSubject,
                    hook,
                    suffix,
                    format!("{what}, and {named} send no shell command: it can never match"),
                    Some("add the shell tools (`exec`, `Bash`) to `tool`, or use `commandPattern`, `args` or `pathGlob` for these tools".to_owned()),
                ));
            }
        }
    }
}

fn describe_subjects(subjects: &[SubjectKind]) -> String {
    let has = |s| subjects.contains(&s);
    match (has(SubjectKind::Path), has(SubjectKind::Url)) {
        (true, true) => "a path or a URL".to_owned(),
        (false, true) => "a URL".to_owned(),
        _ => "a file path".to_owned(),
    }
}

fn tool_help(what: &str) -> String {
    if what == "a path" {
        "a URL starts with its scheme: match it with `^https?://`, or use `args: { url: ... }`"
            .to_owned()
    } else {
        "match the shell tools (`tool: [exec, Bash]`) for commands; for file tools use `pathGlob` or a pattern on the path".to_owned()
    }
}

#[cfg(test)]
mod tests;
