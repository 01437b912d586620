//! Walking the syntax tree the way bash would run it, with an environment of known values:
//! lists, pipelines (what flows on standard input), compound commands, functions inlined at
//! their calls, and simple commands expanded and handed to the program table.
//!
//! Every branch is read, since the reader cannot know which runs; a variable that branches
//! leave with different values is unknown after them. A subshell's assignments are dropped
//! when it ends, as bash drops them.

mod arithmetic;
mod assignments;
mod compound;
mod files;
mod lists;
mod redirects;
mod simple;

use brush_parser::ParserOptions;

use super::env::{Branches, Env, Mark};
use super::expand::Field;
use super::{CommandLine, MAX_COMMANDS, Redirect, SimpleCommand, syntax};

/// Work units allowed per input byte, and a floor: past them the line is unreadable. This keeps
/// the whole read linear in the input whatever the line makes the reader repeat (function
/// calls, loops, nested scripts).
const STEPS_PER_BYTE: usize = 24;
const MIN_STEPS: usize = 20_000;
/// Most definitions of one function or alias name kept.
pub(super) const MAX_DEFINITIONS: usize = 4;
/// Why a line is unreadable whose code to run is a value not known (`eval "$x"`).
pub(super) const CODE_NOT_KNOWN: &str =
    "the command runs code that comes from a value not known before it runs";

/// What a command writes to standard output, or what arrives on its standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Data {
    /// Nothing the reader knows of (the agent's own standard input; a command's silence).
    Nothing,
    /// Exactly this text.
    Known(String),
    /// Some text the reader cannot know: a download, a decoder's output, a pipe.
    Unknown,
    /// Paths: one of these lists of paths and patterns (in the form of `find`'s `{}`:
    /// `./**/*.tmp`), as far as the reader can tell (`find DIR -type f` finds DIR itself
    /// only if it is a file; a path with a newline in it may come out as other paths, a
    /// last list not known), and whether a name may be cut into other words by a reader
    /// that splits at blanks (see [`Reader::names_may_split`]). What `find DIR`, `ls` and
    /// `grep -rl` print. Anything but `xargs` and `cpio` reads it as [`Data::Unknown`].
    Listing(Vec<Vec<Field>>, bool),
}

impl Data {
    /// Output of two commands in sequence.
    fn then(self, next: Data) -> Data {
        match (self, next) {
            (Data::Unknown, _) | (_, Data::Unknown) => Data::Unknown,
            (Data::Nothing, d) | (d, Data::Nothing) => d,
            (Data::Listing(..), _) | (_, Data::Listing(..)) => Data::Unknown,
            (Data::Known(mut a), Data::Known(b)) => {
                a.push_str(&b);
                Data::Known(a)
            }
        }
    }
}

/// The redirections of one command, read.
#[derive(Debug, Default, Clone)]
pub(super) struct Io {
    pub(super) redirects: Vec<Redirect>,
    /// What standard input carries, when a redirection sets it.
    pub(super) stdin: Option<Data>,
    /// Standard input is a here-document or here-string with a substitution or a variable
    /// not known before the line runs (`python3 - <<EOF` around `$(git ...)`).
    pub(super) stdin_built: bool,
}

/// The reading state of one command line.
pub(super) struct Reader {
    pub(super) line: CommandLine,
    /// Work done, for the linear bound.
    pub(super) steps: usize,
    budget: usize,
    /// Parsing left to spend (see [`syntax::PARSE_BUDGET`]).
    parse_left: usize,
    /// Parsing of interpreter code left to spend (see [`crate::matcher::code::PARSE_WORK`]).
    pub(super) code_work: usize,
    /// The command being run reads a built here-document ([`Io::stdin_built`]): for the
    /// message of code that cannot be read from it.
    pub(super) stdin_built: bool,
    pub(super) env: Env,
    pub(super) options: ParserOptions,
    /// Nesting of scripts: substitutions, `-c` scripts, `eval`, function bodies.
    depth: usize,
    /// Functions being inlined, innermost last.
    calls: Vec<String>,
    /// How many enclosing constructs run in a process of their own (`&`, a pipeline's
    /// parts, a subshell): a call made there starts a process.
    pub(super) forked: usize,
    /// Each call a function body made to a function being inlined (itself, or one that
    /// calls it): its name, and whether it started a process.
    recursions: Vec<(String, bool)>,
    /// The script is read by a POSIX shell (`sh -c`), not bash: bash's own builtins and
    /// options may not exist there.
    pub(super) posix: bool,
    /// How the commands being read are reached (`from a for loop`, `run by git`), innermost
    /// construct first: recorded with each command for messages.
    origin: Option<String>,
    /// The text of each script being read, innermost last (to check what the parser took
    /// for arithmetic).
    sources: Vec<String>,
    /// The host whose script files a command may run, when decisions read them.
    pub(super) host: Option<super::host::Host>,
    /// Script files read from the host so far.
    host_reads: usize,
    /// Script paths (with the directory they were looked for in) the host holds no text
    /// for: looked for again (a call read once per way its choices go), they cost no read.
    host_without: std::collections::HashSet<(Option<String>, String)>,
    /// The keys of the files whose text came from the host.
    host_loaded: std::collections::HashSet<String>,
    /// Files the line wrote that have been read as code: run by a build tool or an
    /// interpreter, or read at the end as planted (see `runners::builds`).
    pub(super) built: std::collections::HashSet<String>,
    /// How often each script file the line wrote has been run (see [`Reader::run_file`]).
    file_runs: std::collections::HashMap<String, usize>,
    /// The host's script files being read, innermost last.
    host_scripts: Vec<String>,
    /// The host's script files already reported unreadable.
    unread_scripts: std::collections::HashSet<String>,
    /// The code of each `trap` on the line (see `traps.rs`).
    pub(super) traps: Vec<super::traps::Trap>,
    /// A trap's code is being read: what it assigns does not read the traps again.
    pub(super) in_trap: bool,
    /// Whether what the last pipeline read prints never ends (`yes`, `cat /dev/zero`).
    pub(super) last_endless: bool,
    /// The paths `<(find ...)` prints, for a `< <(find ...)` that feeds them to a loop's
    /// `read`; taken by the redirection that named it.
    pub(super) substituted_listing: Option<Data>,
    /// The environment variables the command being read gives an interpreter, for the
    /// code it runs (see `programs::run`).
    pub(super) code_env: Vec<(String, crate::matcher::code::Val)>,
    /// Process substitutions of the simple command being read so far: bash names them
    /// `/dev/fd/63`, `/dev/fd/62`, ... in that order.
    process_fds: usize,
    /// Those the process a command runs in already holds open: inside a process
    /// substitution, the ones its command opened before it.
    process_fds_open: usize,
    /// Where the last simple command's own recorded commands start, after those of the
    /// substitutions in its words.
    stage_start: usize,
    /// Where each reading of the last simple command read once per value of a variable
    /// started its own command (as `stage_start`); empty after one read once.
    readings: Vec<usize>,
}

impl Reader {
    pub(super) fn new(input_len: usize) -> Reader {
        Reader {
            line: CommandLine::default(),
            steps: 0,
            budget: MIN_STEPS + STEPS_PER_BYTE * input_len,
            parse_left: syntax::PARSE_BUDGET,
            code_work: crate::matcher::code::PARSE_WORK,
            stdin_built: false,
            env: Env::default(),
            // `bash -c` starts with extglob off: `!(rm -rf /)` is a negated subshell there,
            // not a pattern.
            options: ParserOptions {
                enable_extended_globbing: false,
                ..ParserOptions::default()
            },
            sources: Vec::new(),
            host: None,
            host_reads: 0,
            host_without: std::collections::HashSet::new(),
            host_loaded: std::collections::HashSet::new(),
            built: std::collections::HashSet::new(),
            file_runs: std::collections::HashMap::new(),
            host_scripts: Vec::new(),
            unread_scripts: std::collections::HashSet::new(),
            posix: false,
            origin: None,
            depth: 0,
            calls: Vec::new(),
            forked: 0,
            recursions: Vec::new(),
            traps: Vec::new(),
            in_trap: false,
            last_endless: false,
            substituted_listing: None,
            code_env: Vec::new(),
            process_fds: 0,
            process_fds_open: 0,
            stage_start: 0,
            readings: Vec::new(),
        }
    }

    /// Runs `read` with `origin` as the way the commands it finds are reached.
    pub(super) fn reached<T>(&mut self, origin: String, read: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.origin.replace(origin);
        let out = read(self);
        self.origin = saved;
        out
    }

    /// Records why the line is not understood (the first reason is kept). Inside a script
    /// file read from the host, what cannot be read there is reported as a virtual
    /// `script-file --unreadable PATH REASON` command instead, for the policy to weigh (a
    /// project's own `./gradlew` holds `exec "$JAVACMD"`): what the file plainly runs is
    /// still read, and the bounds still make the whole line unreadable.
    pub(super) fn unreadable(&mut self, reason: &'static str) {
        let Some(path) = self.host_scripts.last().cloned() else {
            return self.unreadable_line(reason);
        };
        self.unreadable_script(path, reason);
    }

    /// Reports the host's script file `path` as one that cannot be fully read, once.
    fn unreadable_script(&mut self, path: String, reason: &'static str) {
        if self.unread_scripts.insert(path.clone()) {
            self.record(SimpleCommand {
                program: "script-file".to_owned(),
                args: vec!["--unreadable".to_owned(), path, reason.to_owned()],
                redirects: Vec::new(),
                origin: None,
                dir: None,
            });
        }
    }

    /// Spends `units` of the parse budget before a parse; past it the line is unreadable and
    /// the parse is not to be made.
    pub(super) fn spend_parse(&mut self, units: usize) -> bool {
        match self.parse_left.checked_sub(units) {
            Some(left) => {
                self.parse_left = left;
                true
            }
            None => {
                self.parse_left = 0;
                self.unreadable_line(syntax::TOO_MUCH_TO_PARSE);
                false
            }
        }
    }

    /// Records why the line is not understood, wherever the reader is.
    pub(super) fn unreadable_line(&mut self, reason: &'static str) {
        self.line.unreadable.get_or_insert(reason);
    }

    /// Runs `read` on the file `path`: as a script file of the host's when that is where its
    /// text came from (see [`Reader::unreadable`]).
    /// Whether what is being read comes from a file of the host (a script a command runs).
    pub(super) fn in_host_file(&self) -> bool {
        !self.host_scripts.is_empty()
    }

    pub(super) fn in_file<T>(&mut self, path: &str, read: impl FnOnce(&mut Self) -> T) -> T {
        let from_host = self.is_host_file(&super::env::file_key(path));
        if from_host {
            self.host_scripts.push(path.to_owned());
        }
        let out = read(self);
        if from_host {
            self.host_scripts.pop();
        }
        out
    }

    /// Whether reading must stop: a bound was hit (the line is then unreadable).
    fn exhausted(&mut self) -> bool {
        if self.steps > self.budget {
            self.unreadable_line("the command is too complex to read in time");
            return true;
        }
        if self.line.commands.len() >= MAX_COMMANDS {
            self.unreadable_line("the command holds too many commands");
            return true;
        }
        false
    }

    /// This point of the line, to restore or join the variables after code that may not
    /// run.
    fn mark(&mut self) -> Mark {
        self.steps += 1;
        self.env.mark()
    }

    /// Undoes the variables' changes since `mark`, counting them as work.
    fn restore(&mut self, mark: Mark) {
        self.steps += self.env.changes_since(mark);
        self.env.restore(mark);
    }

    /// Makes the variables changed since `mark` unknown where they differ, counting the
    /// changes as work (a change is walked again by each mark around it).
    fn join(&mut self, mark: Mark) {
        self.steps += 2 * self.env.changes_since(mark);
        self.env.join(mark);
    }

    /// After code since `mark` that may not have run: a variable it changed holds its
    /// value before or after (see [`Env::join_ways`]).
    fn join_ways(&mut self, mark: Mark) {
        self.steps += 2 * self.env.changes_since(mark);
        self.env.join_ways(mark);
    }

    /// Records the way code since the mark of `branches` ran, and undoes it.
    fn end_branch(&mut self, branches: &mut Branches) {
        self.steps += self.env.changes_since(branches.mark());
        self.env.end_branch(branches);
    }
}

/// Paths that name the process's own standard input.
pub(super) fn is_stdin_path(path: &str) -> bool {
    matches!(path, "/dev/stdin" | "-" | "/dev/fd/0" | "/proc/self/fd/0")
}
