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
mod trees;
mod wildcard;

pub(crate) use deadline::Deadline;
pub(crate) use filters::{ArgMatcher, CommandMatcher, Filters, PathMatcher};
pub(crate) use pattern::Pattern;
pub(crate) use prefilter::{Hits, PatternIndex};
pub(crate) use wildcard::matches as wildcard_matches;

use std::cell::OnceCell;
use std::sync::Arc;

use crate::config::{HostFiles, Place, Unparseable};
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

/// What the filters of one evaluation look at, each part computed once, on first need: the
/// command subject, the simple commands of a shell command, and the path-like arguments.
#[derive(Debug)]
pub struct Subject<'a> {
    ctx: &'a HookContext,
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
        self.command_line().and_then(|l| l.opaque)
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
    fn is_shell_line(&self) -> bool {
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

    /// Whether the line's `index`th simple command deletes, writes or changes the mode of
    /// something in the places `filter` names (true when it names none).
    fn touches_places(&self, filter: &CommandMatcher, index: usize) -> bool {
        use shell::effects::Touch;
        const DELETE: &[Touch] = &[Touch::Delete];
        const MODE: &[Touch] = &[Touch::Mode];
        let wanted = [
            (&filter.spec.deletes, DELETE, false),
            (&filter.spec.deletes_tree, DELETE, true),
            (&filter.spec.overwrites, &[Touch::Overwrite][..], false),
            (
                &filter.spec.writes,
                &[Touch::Overwrite, Touch::Append][..],
                false,
            ),
            (&filter.spec.changes_mode, MODE, false),
            (&filter.spec.changes_mode_tree, MODE, true),
        ];
        if let Some(want) = &filter.spec.reads {
            let read = self.placed_reads().get(index);
            if !read.is_some_and(|read| read.iter().any(|p| want.contains(p))) {
                return false;
            }
        }
        if wanted.iter().all(|(places, _, _)| places.is_none()) {
            return true;
        }
        let Some(placed) = self.placed().get(index) else {
            return false;
        };
        wanted.iter().all(|(want, touch, tree)| {
            want.as_ref().is_none_or(|want| {
                placed.iter().any(|p| {
                    touch.contains(&p.touch) && (p.recursive || !tree) && want.contains(&p.place)
                })
            })
        })
    }

    /// Where each simple command of the line may read (see [`paths::read_words`]); once
    /// per subject, and only when a filter asks.
    fn placed_reads(&self) -> &[Vec<Place>] {
        self.placed_reads.get_or_init(|| {
            let Some(line) = self.command_line() else {
                return Vec::new();
            };
            line.commands
                .iter()
                .map(|c| {
                    let words = paths::read_words(c);
                    if words.is_empty() {
                        return Vec::new();
                    }
                    let places = self.places();
                    let mut read: Vec<Place> = Vec::new();
                    for w in words {
                        let place = places.place(c.dir.as_deref(), w);
                        if !read.contains(&place) {
                            read.push(place);
                        }
                    }
                    read
                })
                .collect()
        })
    }

    /// What this subject's paths are placed against, looked up once.
    fn places(&self) -> &places::Where {
        self.places
            .get_or_init(|| places::Where::of(self.ctx).with_gate(self.gate.clone()))
    }

    /// What each simple command of the line deletes, writes or changes the mode of, placed;
    /// once per subject, however many hooks ask. Placing looks at the environment and the
    /// file system, so only when some command touches a path.
    fn placed(&self) -> &[Vec<places::Placed>] {
        self.placed.get_or_init(|| {
            let Some(line) = self.command_line() else {
                return Vec::new();
            };
            let mut touched: Vec<_> = line.commands.iter().map(shell::effects::touches).collect();
            if touched.iter().all(Vec::is_empty) {
                return Vec::new();
            }
            let places = self.places();
            let host = self.host_files == HostFiles::Read;
            trees::refine(places, line, &mut touched, host);
            line.commands
                .iter()
                .zip(&touched)
                .map(|(c, t)| places.place_touches(c.dir.as_deref(), t))
                .collect()
        })
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
        let (_, found) = line.commands.iter().enumerate().find(|(i, c)| {
            c.origin.is_some()
                && (filter.command.as_ref().is_some_and(|f| {
                    f.accepts(&c.program, &c.args, &c.args.join(" "))
                        && acts(f, c)
                        && self.touches_places(f, *i)
                }) || filter
                    .command_pattern
                    .as_ref()
                    .is_some_and(|p| p.is_match(&c.text())))
        })?;
        Some(found)
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

    /// Whether a path-like argument matches `glob`.
    pub(crate) fn matches_paths(&self, glob: &PathMatcher) -> Option<Matched> {
        let paths = self
            .paths
            .get_or_init(|| self.collect_paths(paths::of_command_line));
        self.paths_match(paths, glob)
    }

    /// Whether a path-like argument the call may read matches `glob`: for a shell command,
    /// not one it only writes (`echo X >> .env`, `cp .env.example .env`).
    pub(crate) fn matches_read_paths(&self, glob: &PathMatcher) -> Option<Matched> {
        let paths = self
            .read_paths
            .get_or_init(|| self.collect_paths(paths::read_of_command_line));
        self.paths_match(paths, glob)
    }

    /// Whether a path-like argument (only those it may read, with `reads_only`) of a
    /// simple command that `command` takes matches `glob`.
    pub(crate) fn matches_paths_of(
        &self,
        glob: &PathMatcher,
        reads_only: bool,
        command: &CommandMatcher,
    ) -> Option<Matched> {
        let Some(line) = self.command_line() else {
            return self.unreadable_matches();
        };
        let mut out = Vec::new();
        let takes = |c: &shell::SimpleCommand| {
            command.accepts(&c.program, &c.args, &c.args.join(" ")) && acts(command, c)
        };
        paths::collect_where(line, reads_only, takes, &mut out);
        out.extend(
            self.links()
                .iter()
                .filter(|(written, _)| out.contains(written))
                .map(|(_, real)| real.clone())
                .collect::<Vec<_>>(),
        );
        if let Some(host) = self.host() {
            paths::expand_on_host(&host, &mut out);
        }
        self.paths_match(&out, glob)
    }

    fn paths_match(&self, paths: &[String], glob: &PathMatcher) -> Option<Matched> {
        let cwd = self.ctx.cwd.as_deref().filter(|c| c.starts_with('/'));
        if Self::any_matches(paths, glob, cwd) {
            return Some(Matched::Read);
        }
        self.unreadable_matches()
    }

    /// The file tools' path fields, the command line's paths as `of_line` takes them, and
    /// where the host's symlinks among them lead: `Read notes.txt` of a link to
    /// `~/.ssh/id_rsa` reads the key.
    fn collect_paths(&self, of_line: fn(&shell::CommandLine, &mut Vec<String>)) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(args) = &self.ctx.tool_args {
            paths::of_tool_args(args, &mut out);
        }
        if let Some(line) = self.command_line() {
            of_line(line, &mut out);
        }
        out.extend(self.links().iter().map(|(_, real)| real.clone()));
        if let Some(host) = self.host() {
            paths::expand_on_host(&host, &mut out);
        }
        out
    }

    /// Wildcards the shell would expand are tested for what they could name, and so is a
    /// file name not known in a directory that is (`~/.ssh/$(ls ~/.ssh | head -1)`); past
    /// a bound, a command full of them is taken to name a match. A relative wildcard is
    /// below the working directory when that is known (`./**/*.d`, what `find . -name
    /// '*.d'` finds, names no `/etc/sudoers.d`).
    fn any_matches(paths: &[String], glob: &PathMatcher, cwd: Option<&str>) -> bool {
        let mut wildcards = 0;
        paths.iter().any(|p| {
            if glob.is_match(p) {
                return true;
            }
            if let Some((dir, name)) = p.rsplit_once('/')
                && name.contains(shell::SUBSTITUTION)
                && !dir.is_empty()
                && !dir.contains(shell::SUBSTITUTION)
            {
                wildcards += 1;
                return wildcards > paths::MAX_WILDCARD_PATHS
                    || glob.could_match_in(dir, &name.replace(shell::SUBSTITUTION, "*"));
            }
            if !p.contains(['*', '?', '[']) {
                return false;
            }
            wildcards += 1;
            wildcards > paths::MAX_WILDCARD_PATHS
                || match cwd {
                    Some(cwd) if !p.starts_with(['/', '~', '$']) => {
                        glob.could_match(&paths::normalize(&format!("{cwd}/{p}")))
                            || glob.could_match_anywhere(p)
                    }
                    _ => glob.could_match(p),
                }
        })
    }
}

impl Subject<'_> {
    /// The path-like arguments that are symlinks on this host, and the real path of each
    /// (its `~/` form when it is in the home directory), when this subject reads the host.
    pub fn links(&self) -> &[(String, String)] {
        self.links.get_or_init(|| {
            let Some(host) = self.host() else {
                return Vec::new();
            };
            let mut written = Vec::new();
            if let Some(args) = &self.ctx.tool_args {
                paths::of_tool_args(args, &mut written);
            }
            if let Some(line) = self.command_line() {
                paths::of_command_line(line, &mut written);
            }
            paths::real_paths(&host, &written)
        })
    }

    /// A symlink whose real path `glob` matches: `(as written, real)`.
    pub(crate) fn linked_match(&self, glob: &PathMatcher) -> Option<&(String, String)> {
        self.links().iter().find(|(_, real)| glob.is_match(real))
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
    Ok(matched)
}

#[cfg(test)]
mod tests;
