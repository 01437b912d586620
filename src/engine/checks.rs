//! The filter checks of one evaluation, apart from its actions.
//!
//! Checking filters is pure CPU work (reading the command, running regexes), and firing
//! actions is I/O. The library checks each candidate as the engine reaches it
//! ([`Checks::Lazy`]), which keeps the common path free of allocations. The daemon checks
//! every candidate first, within a deadline and, for a heavy call, on its evaluation pool
//! ([`check_all`]); the engine then only fires the hooks that passed ([`Checks::Done`]). The
//! checks have no side effects, so both orders decide alike, and checks cut short by the
//! deadline can be thrown away.

use crate::config::Unparseable;
use crate::context::HookContext;
use crate::graph::{Candidates, CompiledHook, RuleGraph};
use crate::matcher::{self, Deadline, Filter, Matched, Subject};
use crate::point::Point;

/// A candidate whose built-in filters passed, with the note its block message would carry.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Its position in [`RuleGraph::hooks`].
    rank: u32,
    note: Option<String>,
}

/// The checks of one evaluation that ran past their deadline: no decision can be drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Overrun;

/// Where the engine's loop gets each candidate's filter verdict.
// Boxing the subject would allocate on the library's allocation-free path; there is one of
// these per evaluation, on its stack.
#[allow(clippy::large_enum_variant)]
pub(super) enum Checks<'a> {
    /// Checked as the loop reaches it.
    Lazy {
        subject: Subject<'a>,
        candidates: Candidates<'a>,
        /// How the candidate last returned matched, if it did.
        matched: Matched,
    },
    /// Checked beforehand: only the candidates that passed.
    Done {
        graph: &'a RuleGraph,
        passed: std::vec::IntoIter<Checked>,
        note: Option<String>,
    },
}

impl<'a> Checks<'a> {
    /// The checks of `ctx` at `point`, made as the loop asks. An explanation visits every
    /// hook of the tool, to say which filter each one missed.
    pub(super) fn lazy(
        graph: &'a RuleGraph,
        point: Point,
        ctx: &'a HookContext,
        explain: bool,
    ) -> Checks<'a> {
        let subject = subject(graph, ctx, Deadline::none());
        let candidates = if explain {
            graph.candidates_for_tool(point, ctx.tool_name.as_deref())
        } else {
            graph.candidates(point, &subject)
        };
        Checks::Lazy {
            subject,
            candidates,
            matched: Matched::Read,
        }
    }

    /// Checks made beforehand by [`check_all`] on `graph`.
    pub(super) fn done(graph: &'a RuleGraph, passed: Vec<Checked>) -> Checks<'a> {
        Checks::Done {
            graph,
            passed: passed.into_iter(),
            note: None,
        }
    }

    /// The next candidate and whether its built-in filters passed (else the first that did
    /// not).
    pub(super) fn next(&mut self) -> Option<(&'a CompiledHook, Result<(), Filter>)> {
        match self {
            Checks::Lazy {
                subject,
                candidates,
                matched,
            } => {
                let hook = candidates.next()?;
                let accepted = matcher::check_subject(hook.filters(), hook.pattern_ids(), subject);
                *matched = accepted.unwrap_or(Matched::Read);
                Some((hook, accepted.map(|_| ())))
            }
            Checks::Done {
                graph,
                passed,
                note,
            } => {
                let checked = passed.next()?;
                *note = checked.note;
                let graph: &'a RuleGraph = graph;
                Some((graph.hooks().get(checked.rank as usize)?, Ok(())))
            }
        }
    }

    /// What a block by `hook`, the candidate last returned, adds to its message.
    pub(super) fn note(&mut self, hook: &CompiledHook) -> Option<String> {
        match self {
            Checks::Lazy {
                subject, matched, ..
            } => note(subject, hook, *matched),
            Checks::Done { note, .. } => note.take(),
        }
    }
}

/// Checks every candidate of `ctx` at `point`, stopping at `deadline`: the ones that passed,
/// in evaluation order. An explanation is not made this way (the daemon never explains).
pub(crate) fn check_all(
    graph: &RuleGraph,
    point: Point,
    ctx: &HookContext,
    deadline: Deadline,
) -> Result<Vec<Checked>, Overrun> {
    let subject = subject(graph, ctx, deadline);
    let mut candidates = graph.candidates(point, &subject);
    let mut passed = Vec::new();
    while let Some((rank, hook)) = candidates.next_ranked() {
        if subject.overran() || !subject.deadline().step() {
            return Err(Overrun);
        }
        if let Ok(matched) = matcher::check_subject(hook.filters(), hook.pattern_ids(), &subject) {
            passed.push(Checked {
                rank,
                note: note(&subject, hook, matched),
            });
        }
    }
    if subject.overran() {
        return Err(Overrun);
    }
    Ok(passed)
}

fn subject<'a>(graph: &'a RuleGraph, ctx: &'a HookContext, deadline: Deadline) -> Subject<'a> {
    let on_unparseable: Unparseable = graph.defaults().on_unparseable;
    Subject::indexed(ctx, on_unparseable, Some(graph.patterns()))
        .host_files(graph.defaults().host_files)
        .gate_files(std::sync::Arc::clone(graph.gate_files()))
        .until(deadline)
}

/// A block says what hookgate read when that is not the line as written: why it could not
/// read it (and a hook about something else stopped it), or the command it found through a
/// loop, a variable or a program that runs it.
fn note(subject: &Subject<'_>, hook: &CompiledHook, matched: Matched) -> Option<String> {
    if matched == Matched::Unread
        && let Some(reason) = subject.unreadable()
    {
        return Some(format!(
            "(hookgate could not read this shell command: {reason})"
        ));
    }
    // A path matched through a symlink: say which real path was checked.
    let filter = hook.filters();
    if let Some((written, real)) = (filter.path_glob.iter())
        .chain(filter.read_glob.iter())
        .find_map(|glob| subject.linked_match(glob))
    {
        return Some(format!(
            "(hookgate checked `{written}` as `{real}`, the file it links to)"
        ));
    }
    subject.found_by(hook.filters()).map(|found| {
        let origin = found.origin.as_deref().unwrap_or_default();
        format!(
            "(hookgate read `{}` {origin})",
            as_told(found, subject.context().command_subject())
        )
    })
}

/// `found` as a block message may show it to the agent: its program and the words the
/// call itself wrote, and short flags. Anything else came from a file on the host or a
/// value the line computed (`cat .env | xargs sudo` finds `sudo API_KEY=...`), and the
/// message must not hand it over: it is shown as `…`.
fn as_told(found: &crate::matcher::shell::SimpleCommand, raw: &str) -> String {
    let told = |word: &str| {
        raw.contains(word)
            || matches!(word, "~" | "/" | "." | "..")
            || word.len() <= 4
                && word.starts_with('-')
                && word[1..].chars().all(|c| c.is_ascii_alphabetic())
    };
    let mut redacted = found.clone();
    for arg in &mut redacted.args {
        if !told(arg) {
            "…".clone_into(arg);
        }
    }
    for r in &mut redacted.redirects {
        if !told(&r.target) {
            "…".clone_into(&mut r.target);
        }
    }
    redacted.text()
}
