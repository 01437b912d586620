//! The subject of one evaluation: what the filters look at in a call (its command, the
//! simple commands the shell would run, its paths), each part computed once, on first need.

mod path_args;
mod placing;

use std::cell::OnceCell;
use std::sync::Arc;

use super::{
    ArgMatcher, CommandMatcher, Deadline, Filters, Hits, Matched, Pattern, PatternIndexes, places,
    shell,
};
use crate::config::{HostFiles, Place, Unparseable};
use crate::context::HookContext;

/// What the filters of one evaluation look at, each part computed once, on first need: the
/// command subject, the simple commands of a shell command, and the path-like arguments.
#[derive(Debug)]
pub struct Subject<'a> {
    pub(super) ctx: &'a HookContext,
    raw: &'a str,
    /// The shell command (`toolArgs.command`), if the tool has one.
    command: Option<&'a str>,
    line: OnceCell<shell::CommandLine>,
    /// Whether the command does not read as itself (it quotes, chains, wraps...).
    shell_line: OnceCell<bool>,
    texts: OnceCell<Vec<String>>,
    /// Each simple command's arguments joined by spaces, for `argsPattern`.
    joined_args: OnceCell<Vec<String>>,
    paths: OnceCell<Vec<String>>,
    /// `paths` without what a shell command only writes, for `readGlob`.
    read_paths: OnceCell<Vec<String>>,
    indexes: Option<&'a PatternIndexes>,
    /// The hits, and whether the pattern pass ended before the deadline.
    command_hits: OnceCell<(Hits, bool)>,
    session_hits: OnceCell<(Hits, bool)>,
    /// What each simple command deletes, writes or changes the mode of, and where.
    placed: OnceCell<Vec<Vec<places::Placed>>>,
    /// Where each simple command may read, for `reads`.
    placed_reads: OnceCell<Vec<Vec<Place>>>,
    /// Where the file tools' path fields are, for `pathIn`.
    placed_tool_paths: OnceCell<Vec<Place>>,
    /// What paths are placed against: the context's directories and this host's.
    places: OnceCell<places::Where>,
    on_unparseable: Unparseable,
    /// Whether this host's files are read: symlinks of paths, script files a command runs.
    host_files: HostFiles,
    /// Paths that are symlinks on this host, and where they lead: `(as written, real)`.
    links: OnceCell<Vec<(String, String)>>,
    /// The gate's own files, for [`Place::Gate`].
    gate: Option<Arc<[String]>>,
    /// When the pattern passes must stop.
    deadline: Deadline,
}

impl<'a> Subject<'a> {
    /// The subject of `ctx`; `on_unparseable` decides for shell commands that cannot be read.
    pub fn of(ctx: &'a HookContext, on_unparseable: Unparseable) -> Subject<'a> {
        Subject::indexed(ctx, on_unparseable, None)
    }

    /// [`Subject::of`], matching patterns through `indexes`: one pass per subject for all
    /// the patterns, the first time a pattern is asked about.
    pub fn indexed(
        ctx: &'a HookContext,
        on_unparseable: Unparseable,
        indexes: Option<&'a PatternIndexes>,
    ) -> Subject<'a> {
        let command = match ctx.tool_args.as_ref().and_then(|a| a.get("command")) {
            Some(serde_json::Value::String(c)) => Some(c.as_str()),
            _ => None,
        };
        Subject {
            ctx,
            raw: ctx.command_subject(),
            command,
            line: OnceCell::new(),
            shell_line: OnceCell::new(),
            texts: OnceCell::new(),
            joined_args: OnceCell::new(),
            paths: OnceCell::new(),
            read_paths: OnceCell::new(),
            indexes,
            command_hits: OnceCell::new(),
            session_hits: OnceCell::new(),
            placed: OnceCell::new(),
            placed_reads: OnceCell::new(),
            placed_tool_paths: OnceCell::new(),
            places: OnceCell::new(),
            on_unparseable,
            host_files: HostFiles::Ignore,
            links: OnceCell::new(),
            gate: None,
            deadline: Deadline::none(),
        }
    }

    /// This subject, placing the gate's own files (absolute, normalised) at
    /// [`Place::Gate`].
    pub fn gate_files(mut self, gate: Arc<[String]>) -> Subject<'a> {
        self.gate = Some(gate);
        self
    }

    /// This subject, reading this host's files or not (`defaults.hostFiles`).
    pub fn host_files(mut self, host_files: HostFiles) -> Subject<'a> {
        self.host_files = host_files;
        self
    }

    /// The host to read script files and symlinks on, when this subject reads it and the
    /// context says where the tools run.
    fn host(&self) -> Option<shell::Host> {
        if self.host_files != HostFiles::Read {
            return None;
        }
        shell::Host::at(self.ctx.cwd.as_deref()?)
    }

    /// This subject, with pattern passes that stop at `deadline` (see [`Subject::overran`]).
    pub fn until(mut self, deadline: Deadline) -> Subject<'a> {
        self.deadline = deadline;
        self
    }

    /// What the checks of this subject may still spend.
    pub fn deadline(&self) -> &Deadline {
        &self.deadline
    }

    /// Whether a pattern pass stopped at the deadline, so that what it found is incomplete
    /// and no decision may be drawn from it.
    pub fn overran(&self) -> bool {
        [&self.command_hits, &self.session_hits]
            .iter()
            .any(|hits| hits.get().is_some_and(|(_, complete)| !complete))
    }

    /// The context.
    pub fn context(&self) -> &'a HookContext {
        self.ctx
    }

    /// The shell command read as simple commands, if the tool has one.
    pub fn command_line(&self) -> Option<&shell::CommandLine> {
        let command = self.command?;
        Some(
            self.line
                .get_or_init(|| shell::parse_on(command, self.host())),
        )
    }

    /// Why the shell command could not be read, if it could not.
    pub fn unreadable(&self) -> Option<&'static str> {
        self.command_line().and_then(|l| l.unreadable)
    }

    /// Whether every shell-aware filter matches this call because its command is unreadable
    /// and `defaults.onUnparseable` is `match`.
    pub fn unreadable_matches_all(&self) -> bool {
        self.on_unparseable == Unparseable::Match
            && self.is_shell_line()
            && self.unreadable().is_some()
    }

    /// The command patterns (by id) that match the raw subject or a simple command's text;
    /// empty without indexes.
    pub fn command_hits(&self) -> &Hits {
        &self
            .command_hits
            .get_or_init(|| {
                let mut hits = Hits::new();
                let Some(index) = self.indexes.map(|i| &i.command) else {
                    return (hits, true);
                };
                let complete = index.add_hits_until(self.raw, &mut hits, &self.deadline)
                    && self
                        .command_texts()
                        .iter()
                        .all(|text| index.add_hits_until(text, &mut hits, &self.deadline));
                (hits, complete)
            })
            .0
    }

    /// The session patterns (by id) that match the session key; empty without indexes.
    pub fn session_hits(&self) -> &Hits {
        &self
            .session_hits
            .get_or_init(|| {
                let mut hits = Hits::new();
                let complete = self.indexes.is_none_or(|indexes| {
                    indexes
                        .session
                        .add_hits_until(&self.ctx.session_key, &mut hits, &self.deadline)
                });
                (hits, complete)
            })
            .0
    }

    /// Whether there is a shell command that does not read as itself: one with quoting,
    /// operators, substitutions or wrappers. A plain one (`ls -la`) is its own raw subject.
    pub(super) fn is_shell_line(&self) -> bool {
        *self
            .shell_line
            .get_or_init(|| self.command.is_some_and(|c| !shell::is_plain(c)))
    }

    /// Each simple command's text, when the command is a shell line.
    fn command_texts(&self) -> &[String] {
        if !self.is_shell_line() {
            return &[];
        }
        self.texts.get_or_init(|| {
            self.command_line()
                .map(|l| l.commands.iter().map(shell::SimpleCommand::text).collect())
                .unwrap_or_default()
        })
    }

    /// An unreadable shell command matches when `defaults.onUnparseable` says so.
    fn unreadable_matches(&self) -> Option<Matched> {
        (self.unreadable().is_some() && self.on_unparseable == Unparseable::Match)
            .then_some(Matched::Unread)
    }

    /// Whether `pattern` matches the raw subject (the seed's rule) or any simple command the
    /// shell would run; an unreadable command matches per `defaults.onUnparseable`.
    pub(crate) fn matches(&self, pattern: &Pattern) -> Option<Matched> {
        if pattern.is_match(self.raw) {
            return Some(Matched::Read);
        }
        // A plain command reads as itself, which the pattern has just missed.
        if !self.is_shell_line() {
            return None;
        }
        if self.command_texts().iter().any(|t| pattern.is_match(t)) {
            return Some(Matched::Read);
        }
        self.unreadable_matches()
    }

    /// [`Subject::matches`] for a command pattern with an id in the indexes: a lookup in
    /// this call's hits.
    pub(crate) fn matches_command_pattern(
        &self,
        pattern: &Pattern,
        id: Option<u32>,
    ) -> Option<Matched> {
        match (id, self.indexes) {
            (Some(id), Some(_)) if self.command_hits().binary_search(&id).is_ok() => {
                Some(Matched::Read)
            }
            (Some(_), Some(_)) if self.is_shell_line() => self.unreadable_matches(),
            (Some(_), Some(_)) => None,
            _ => self.matches(pattern),
        }
    }

    /// Whether the session pattern matches the session key, by lookup when it has an id.
    pub(crate) fn matches_session_pattern(&self, pattern: &Pattern, id: Option<u32>) -> bool {
        match (id, self.indexes) {
            (Some(id), Some(_)) => self.session_hits().binary_search(&id).is_ok(),
            _ => pattern.is_match(&self.ctx.session_key),
        }
    }

    /// Whether the shell command's readability is `want` (`true`: it cannot be read).
    pub fn matches_unreadable(&self, want: bool) -> Option<Matched> {
        match (self.unreadable().is_some(), want) {
            (true, true) => Some(Matched::Unread),
            (false, false) => Some(Matched::Read),
            _ => None,
        }
    }

    /// Whether one simple command of the shell command satisfies `filter`.
    pub(crate) fn matches_command(&self, filter: &CommandMatcher) -> Option<Matched> {
        let line = self.command_line()?;
        let joined = filter.args_pattern.as_ref().map(|_| {
            self.joined_args
                .get_or_init(|| line.commands.iter().map(|c| c.args.join(" ")).collect())
        });
        let matched = line.commands.iter().enumerate().any(|(i, c)| {
            let joined = joined.and_then(|j| j.get(i)).map_or("", String::as_str);
            filter.accepts(&c.program, &c.args, joined)
                && acts(filter, c)
                && self.touches_places(filter, i)
        });
        if matched {
            return Some(Matched::Read);
        }
        self.unreadable_matches()
    }

    /// The simple command that `filter`'s `command` or `commandPattern` matched, if the
    /// reader found it other than written out (through a loop, a variable, a program that
    /// runs it): what a block message names so the agent sees what was read. A
    /// `commandPattern` that matches the raw text matched as the seed plugin would, and
    /// its message stays the seed's.
    pub(crate) fn found_by(&self, filter: &Filters) -> Option<&shell::SimpleCommand> {
        if !self.is_shell_line()
            || filter.command.is_none()
                && filter
                    .command_pattern
                    .as_ref()
                    .is_none_or(|p| p.is_match(self.raw))
        {
            return None;
        }
        let line = self.command_line()?;
        let mut found = line.commands.iter().enumerate().filter(|(i, c)| {
            c.origin.is_some()
                && (filter.command.as_ref().is_some_and(|f| {
                    f.accepts(&c.program, &c.args, &c.args.join(" "))
                        && acts(f, c)
                        && self.touches_places(f, *i)
                }) || filter
                    .command_pattern
                    .as_ref()
                    .is_some_and(|p| p.is_match(&c.text())))
        });
        let first = found.next()?.1;
        // Of several commands the hook takes (`cat .env.example; cat .env`), the one that
        // named the path its glob is about.
        let glob = (filter.read_glob.as_ref().map(|g| (g, true)))
            .or_else(|| filter.path_glob.as_ref().map(|g| (g, false)));
        Some(match glob {
            Some((glob, reads_only)) if !self.names_path(first, glob, reads_only) => found
                .map(|(_, c)| c)
                .find(|c| self.names_path(c, glob, reads_only))
                .unwrap_or(first),
            _ => first,
        })
    }

    /// Whether every named tool argument matches its regex.
    pub(crate) fn matches_args(&self, filters: &[ArgMatcher]) -> bool {
        let Some(args) = &self.ctx.tool_args else {
            return false;
        };
        filters.iter().all(|f| {
            args.get(&f.field)
                .is_some_and(|v| value_matches(v, &f.pattern))
        })
    }
}

/// Whether `command` has one of the verbs `filter` names (read by the resource table) and
/// sends one of its HTTP methods off the machine; true for each of the two it does not name.
fn acts(filter: &CommandMatcher, command: &shell::SimpleCommand) -> bool {
    filter.spec.verbs.as_ref().is_none_or(|want| {
        shell::resources::verbs(&command.program, &command.args).is_some_and(|v| v.any_of(want))
    }) && filter.spec.http_methods.as_ref().is_none_or(|want| {
        shell::http::request(&command.program, &command.args).is_some_and(|r| r.sends(want))
    })
}

/// A string as it is, a list by any element, other values as JSON text; null never.
fn value_matches(value: &serde_json::Value, pattern: &Pattern) -> bool {
    match value {
        serde_json::Value::String(s) => pattern.is_match(s),
        serde_json::Value::Array(items) => items.iter().any(|v| value_matches(v, pattern)),
        serde_json::Value::Null => false,
        other => pattern.is_match(&other.to_string()),
    }
}
