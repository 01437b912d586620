//! The index from a call to the hooks that could fire for it: by point, then by tool, then by
//! the pattern (or topic) a hook needs, so that hooks whose pattern missed are never visited.

use std::collections::HashMap;

use smallvec::SmallVec;

use crate::matcher::{PatternIds, Subject};

/// What a hook needs before its other filters are worth checking: the one of its filters the
/// index can look up. Only one per hook, so each hook sits in one list of its bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Gate {
    /// Its `commandPattern` (by id in the command pattern index) matched.
    Command(u32),
    /// Its `sessionPattern` matched.
    Session(u32),
    /// The context's topic is this one (by id in the topic table).
    Topic(u32),
}

/// The hooks of one point and one tool (or of no tool filter), as ranks (positions in
/// evaluation order), ascending.
#[derive(Debug, Clone, Default)]
pub(super) struct Bucket {
    /// Every hook, for calls the gates cannot decide (an unreadable command).
    all: Vec<u32>,
    /// Hooks with no gate: always candidates.
    open: Vec<u32>,
    gated: HashMap<Gate, Vec<u32>>,
    /// Whether some hook here is gated by a command pattern.
    has_command_gates: bool,
    has_session_gates: bool,
}

impl Bucket {
    pub(super) fn all(&self) -> &[u32] {
        &self.all
    }

    pub(super) fn push(&mut self, rank: u32, gate: Option<Gate>) {
        // A list naming a tool twice indexes the hook once.
        if self.all.last() == Some(&rank) {
            return;
        }
        self.all.push(rank);
        match gate {
            None => self.open.push(rank),
            Some(gate) => {
                self.has_command_gates |= matches!(gate, Gate::Command(_));
                self.has_session_gates |= matches!(gate, Gate::Session(_));
                self.gated.entry(gate).or_default().push(rank);
            }
        }
    }
}

/// Candidates of one point: hooks without a tool filter, and hooks by the tool they name.
#[derive(Debug, Clone, Default)]
pub(super) struct PointIndex {
    pub(super) any_tool: Bucket,
    pub(super) by_tool: HashMap<String, Bucket>,
}

/// Ranks of the gated hooks whose gate opened, for one call. Inline up to 16.
pub(super) type OpenedRanks = SmallVec<[u32; 16]>;

impl PointIndex {
    /// The buckets for a call of `tool`.
    pub(super) fn buckets(&self, tool: Option<&str>) -> [Option<&Bucket>; 2] {
        [Some(&self.any_tool), tool.and_then(|t| self.by_tool.get(t))]
    }
}

/// The ranks that could fire for this call, as three ascending lists to merge: the open
/// hooks of both buckets, and the gated hooks whose gate opened.
pub(super) fn select<'g>(
    buckets: [Option<&'g Bucket>; 2],
    subject: &Subject<'_>,
    topic: Option<u32>,
) -> (&'g [u32], &'g [u32], OpenedRanks) {
    let [any, tool] = buckets;
    let needs = |f: fn(&Bucket) -> bool| any.is_some_and(f) || tool.is_some_and(f);
    // Every command-gated hook matches an unreadable command when the policy says so (and
    // then says why), so the gates cannot decide: visit everything.
    if needs(|b| b.has_command_gates) && subject.unreadable_matches_all() {
        return (
            any.map_or(&[], |b| b.all.as_slice()),
            tool.map_or(&[], |b| b.all.as_slice()),
            OpenedRanks::new(),
        );
    }
    let mut opened = OpenedRanks::new();
    let mut open_gate = |gate: Gate| {
        for bucket in [any, tool].into_iter().flatten() {
            if let Some(ranks) = bucket.gated.get(&gate) {
                opened.extend_from_slice(ranks);
            }
        }
    };
    if needs(|b| b.has_command_gates) {
        for &id in subject.command_hits() {
            open_gate(Gate::Command(id));
        }
    }
    if needs(|b| b.has_session_gates) {
        for &id in subject.session_hits() {
            open_gate(Gate::Session(id));
        }
    }
    if let Some(topic) = topic {
        open_gate(Gate::Topic(topic));
    }
    // Each hook sits in one gate list per bucket and a call uses one tool bucket, so the
    // ranks are distinct; only their order needs restoring.
    opened.sort_unstable();
    (
        any.map_or(&[], |b| b.open.as_slice()),
        tool.map_or(&[], |b| b.open.as_slice()),
        opened,
    )
}

/// The gate of a hook with these pattern ids and topic: the command pattern first (the most
/// selective in practice), then the session pattern, then the topic.
pub(super) fn gate_of(ids: PatternIds, topic: Option<u32>) -> Option<Gate> {
    ids.command
        .map(Gate::Command)
        .or(ids.session.map(Gate::Session))
        .or(topic.map(Gate::Topic))
}

/// Merges ascending rank lists into evaluation order.
#[derive(Debug, Clone)]
pub(super) struct Merge<'g> {
    pub(super) a: &'g [u32],
    pub(super) b: &'g [u32],
    pub(super) opened: OpenedRanks,
    pub(super) next_opened: usize,
}

impl Iterator for Merge<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let c = self.opened.get(self.next_opened).copied();
        let smallest = [self.a.first().copied(), self.b.first().copied(), c]
            .into_iter()
            .flatten()
            .min()?;
        if self.a.first() == Some(&smallest) {
            self.a = &self.a[1..];
        } else if self.b.first() == Some(&smallest) {
            self.b = &self.b[1..];
        } else {
            self.next_opened += 1;
        }
        Some(smallest)
    }
}
