//! Walking the syntax tree the way bash would run it, with an environment of known values:
//! lists, pipelines (what flows on standard input), compound commands, functions inlined at
//! their calls, and simple commands expanded and handed to the program table.
//!
//! Every branch is read, since the reader cannot know which runs; a variable that branches
//! leave with different values is unknown after them. A subshell's assignments are dropped
//! when it ends, as bash drops them.

use std::collections::HashSet;

use brush_parser::ParserOptions;
use brush_parser::ast;

use super::env::{Branches, Env, FileText, Mark, Value};
use super::expand::Field;
use super::{
    CommandLine, MAX_COMMANDS, MAX_DEPTH, Redirect, SimpleCommand, programs, streams, syntax,
};

/// Work units allowed per input byte, and a floor: past them the line is opaque. This keeps
/// the whole read linear in the input whatever the line makes the reader repeat (function
/// calls, loops, nested scripts).
const STEPS_PER_BYTE: usize = 24;
const MIN_STEPS: usize = 20_000;
/// The most `&&` steps whose "may not have run" is joined only when their chain ends.
const MAX_PENDING_JOINS: usize = 16;
/// Times one script file the line wrote is read when the line runs it again and again;
/// past them the line is unreadable.
const MAX_FILE_RUNS: usize = 8;
/// Deepest function-call inlining.
const MAX_CALLS: usize = 8;
/// The file descriptor bash gives the first process substitution of a command (`<(cmd)` is
/// `/dev/fd/63`), and the next one below it.
const PROCESS_FD: usize = 63;
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
    pub(super) fn opaque(&mut self, reason: &'static str) {
        let Some(path) = self.host_scripts.last().cloned() else {
            return self.opaque_line(reason);
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

    /// Spends `units` of the parse budget before a parse; past it the line is opaque and
    /// the parse is not to be made.
    pub(super) fn spend_parse(&mut self, units: usize) -> bool {
        match self.parse_left.checked_sub(units) {
            Some(left) => {
                self.parse_left = left;
                true
            }
            None => {
                self.parse_left = 0;
                self.opaque_line(syntax::TOO_MUCH_TO_PARSE);
                false
            }
        }
    }

    /// Records why the line is not understood, wherever the reader is.
    pub(super) fn opaque_line(&mut self, reason: &'static str) {
        self.line.opaque.get_or_insert(reason);
    }

    /// Runs `read` on the file `path`: as a script file of the host's when that is where its
    /// text came from (see [`Reader::opaque`]).
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

    /// Whether reading must stop: a bound was hit (the line is then opaque).
    fn exhausted(&mut self) -> bool {
        if self.steps > self.budget {
            self.opaque_line("the command is too complex to read in time");
            return true;
        }
        if self.line.commands.len() >= MAX_COMMANDS {
            self.opaque_line("the command holds too many commands");
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

    /// Reads `text` as a script with `stdin` on its standard input; returns what it prints.
    pub(super) fn script(&mut self, text: &str, stdin: Data) -> Data {
        if self.depth >= MAX_DEPTH {
            self.opaque_line("the command nests too deeply");
            return Data::Unknown;
        }
        self.steps += text.len() / 4 + 1;
        if self.exhausted() {
            return Data::Unknown;
        }
        // A parse costs a unit even for no tokens (`$()`).
        if !self.spend_parse(1) {
            return Data::Unknown;
        }
        let program = match syntax::parse(text, &self.options, self.parse_left) {
            Ok((program, tokens)) => {
                self.parse_left = self.parse_left.saturating_sub(tokens);
                program
            }
            Err(syntax::TOO_MUCH_TO_PARSE) => {
                self.spend_parse(usize::MAX);
                return Data::Unknown;
            }
            Err(reason) => {
                self.opaque(reason);
                return Data::Unknown;
            }
        };
        self.depth += 1;
        self.sources.push(text.to_owned());
        let mut out = Data::Nothing;
        for list in &program.complete_commands {
            out = out.then(self.list(list, stdin.clone()));
        }
        self.sources.pop();
        self.depth -= 1;
        out
    }

    fn list(&mut self, list: &ast::CompoundList, stdin: Data) -> Data {
        let mut out = Data::Nothing;
        for ast::CompoundListItem(and_or, separator) in &list.0 {
            if self.exhausted() {
                return Data::Unknown;
            }
            let background = matches!(separator, ast::SeparatorOperator::Async);
            self.forked += usize::from(background);
            out = out.then(self.and_or(and_or, stdin.clone()));
            self.forked -= usize::from(background);
        }
        out
    }

    fn and_or(&mut self, list: &ast::AndOrList, stdin: Data) -> Data {
        use super::env::{DIR, DIR_IF_CD_FAILED, Value};
        let dir_before = self.env.get(DIR);
        let out = self.and_or_items(list, stdin);
        // A `cd` that fails leaves the shell where it was: what follows the list (after
        // `;`) then runs there (`cd biuld; rm -rf *`). Unless the directory is on the host,
        // or the list exits when a command of it fails (`cd x || exit`), what follows is
        // read both where the `cd` went and where it would have left the shell.
        let dir_after = self.env.get(DIR);
        if dir_after == dir_before {
            return out;
        }
        let certain = exits_on_failure(list) || self.is_host_dir(&dir_after);
        if !self.env.assigned(DIR_IF_CD_FAILED) {
            if !certain {
                self.env.set(DIR_IF_CD_FAILED, dir_before);
            }
        } else if certain && matches!(&dir_after, Value::Known(d) if d.starts_with(['/', '~'])) {
            self.env.unset(DIR_IF_CD_FAILED);
        } else {
            // Where a second `cd` went from a directory the first may not have reached.
            self.env.set(DIR_IF_CD_FAILED, Value::Unknown);
        }
        out
    }

    /// Whether `dir` (a value of the line's directory) is a directory on the host.
    fn is_host_dir(&self, dir: &super::env::Value) -> bool {
        match (dir, &self.host) {
            (super::env::Value::Known(d), Some(host)) => host.is_dir(d),
            _ => false,
        }
    }

    fn and_or_items(&mut self, list: &ast::AndOrList, stdin: Data) -> Data {
        let mut out = self.pipeline(&list.first, stdin.clone());
        let mut pending = Vec::new();
        for next in &list.additional {
            // As in a list: past a bound the line is opaque and nothing more is read.
            if self.exhausted() {
                return Data::Unknown;
            }
            // The right side may not run. After `&&` it runs only where all before it did
            // (`x=1 && cd "$d" && npm ci` runs `npm ci` in `$d`), so the ways are joined
            // when the chain of `&&` ends; after `||` it runs where one before it failed,
            // and what follows it may or may not have seen it.
            let (p, and) = match next {
                ast::AndOr::And(p) => (p, true),
                ast::AndOr::Or(p) => (p, false),
            };
            // Each join walks the changes since its mark: past a few pending ones the chain
            // is joined as it goes, so that a long chain stays linear.
            if !and || pending.len() >= MAX_PENDING_JOINS {
                while let Some(mark) = pending.pop() {
                    self.join_ways(mark);
                }
            }
            let before = self.mark();
            out = out.then(self.pipeline(p, stdin.clone()));
            if and {
                pending.push(before);
            } else {
                self.join_ways(before);
            }
        }
        while let Some(mark) = pending.pop() {
            self.join_ways(mark);
        }
        out
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline, stdin: Data) -> Data {
        if pipeline.seq.len() == 1 {
            let first = self.line.commands.len();
            let out = self.command(&pipeline.seq[0], stdin);
            self.last_endless = self.judge_stream(&pipeline.seq[0], first, false);
            return out;
        }
        // Each part of a pipeline runs in a subshell.
        let mut data = stdin;
        let mut endless = false;
        self.forked += 1;
        for command in &pipeline.seq {
            if self.exhausted() {
                break;
            }
            let saved = self.mark();
            let first = self.line.commands.len();
            data = self.command(command, data);
            endless = self.judge_stream(command, first, endless);
            self.restore(saved);
        }
        self.forked -= 1;
        self.last_endless = endless;
        if self.exhausted() {
            return Data::Unknown;
        }
        data
    }

    /// What the simple command `command` (recorded first at `first`) does with an endless
    /// stream (see [`streams`]): whether what it prints is endless, given whether what it
    /// reads is (`endless_in`). A disk filler is recorded as what it amounts to, a process
    /// bomb makes the line opaque.
    fn judge_stream(&mut self, command: &ast::Command, first: usize, endless_in: bool) -> bool {
        let ast::Command::Simple(_) = command else {
            return false;
        };
        // Not a command a substitution in its words ran (`mapfile < <(yes)`); each of its
        // readings when it was read once per value of a variable.
        if self.readings.is_empty() {
            return self.judge_recorded(first.max(self.stage_start), endless_in);
        }
        let mut endless = false;
        for start in std::mem::take(&mut self.readings) {
            endless |= self.judge_recorded(first.max(start), endless_in);
        }
        endless
    }

    /// How many simple commands the line has recorded so far.
    pub(super) fn recorded(&self) -> usize {
        self.line.commands.len()
    }

    /// [`judge_stream`](Self::judge_stream) for the command recorded from `first` on,
    /// however it was found (a virtual command of interpreter code: `IO.copy_stream(
    /// "/dev/zero", f)` is `cp /dev/zero f`). Whether what it prints is endless.
    pub(super) fn judge_recorded(&mut self, first: usize, endless_in: bool) -> bool {
        let Some(doer) = streams::doer(self.line.commands.get(first..).unwrap_or_default()) else {
            return false;
        };
        let outcome = streams::judge(&doer, endless_in);
        let fills = match outcome {
            streams::Outcome::FillsDisk => streams::fills(&doer),
            _ => Vec::new(),
        };
        for fill in fills {
            self.record(fill);
        }
        if let Some(reason) = outcome.reason() {
            self.opaque_line(reason);
        }
        outcome == streams::Outcome::Endless
    }

    fn command(&mut self, command: &ast::Command, stdin: Data) -> Data {
        self.steps += 1;
        let out = match command {
            ast::Command::Simple(simple) => self.simple_each_way(simple, stdin),
            ast::Command::Compound(compound, redirects) => {
                let io = self.redirects(redirects.iter().flat_map(|r| r.0.iter()));
                self.record_redirects(&io);
                let stdin = io.stdin.clone().unwrap_or(stdin);
                let out = self.compound(compound, stdin);
                self.write_files(&io, &out);
                out
            }
            ast::Command::Function(f) => {
                let name = f.fname.value.clone();
                let bodies = self.env.functions.entry(name.clone()).or_default();
                if bodies.len() < MAX_DEFINITIONS {
                    bodies.push(f.body.clone());
                } else {
                    self.opaque_line("a function is defined too many times");
                }
                // bash runs it for any command name it does not find (a typo is enough):
                // read as run where it is defined.
                if name == "command_not_found_handle" {
                    let stdin = stdin.clone();
                    self.reached(
                        "run by bash for a command it does not find".to_owned(),
                        |r| r.call(&name, &f.body, &[], &Io::default(), stdin),
                    );
                }
                Data::Nothing
            }
            ast::Command::ExtendedTest(test, _) => {
                self.extended_test(&test.expr);
                Data::Nothing
            }
        };
        if self.env.watched_changed {
            self.read_traps_again();
        }
        out
    }

    /// A loop whose condition never ends it (`condition`, written, is one of `endless`) and
    /// whose body starts a command in the background (or detached) each time round, with no
    /// `break`, `exit` or `return`: processes pile up without bound (`while :; do sh &
    /// done`). Or whose body writes files with no pause: the disk fills. Or that has no
    /// pause at all: a busy loop.
    fn endless_spawner(&mut self, condition: &str, endless: &[&str], body: &ast::CompoundList) {
        let condition = condition.trim().trim_end_matches(';').trim();
        if !endless.contains(&condition) {
            return;
        }
        let text = body.to_string();
        let has_word = |words: &[&str]| {
            text.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|word| words.contains(&word))
        };
        // In the background, or detached to outlive the loop (`nohup`, `setsid`, a
        // container started with `-d`).
        let spawns = body
            .0
            .iter()
            .any(|item| matches!(item.1, ast::SeparatorOperator::Async))
            || has_word(&["nohup", "setsid", "daemonize", "disown"])
            || text.contains("systemd-run")
            || [" run -d", " run --detach", " -dm"]
                .iter()
                .any(|d| text.contains(d));
        let leaves = has_word(&["break", "exit", "return"]);
        if spawns && !leaves {
            self.opaque_line(
                "a loop that never ends starts a process in the background each time round (a fork bomb)",
            );
        }
        // Files written each time round with no pause fill the disk (`while :; do cat f f
        // > g && mv g f; done`); a poller that sleeps or waits for input is ordinary.
        let writes = ["> /dev/null", ">/dev/null", ">&"]
            .iter()
            .fold(text.clone(), |t, quiet| t.replace(quiet, ""))
            .contains('>')
            || has_word(&["tee", "dd", "cp", "fallocate", "truncate"]);
        let pauses = has_word(&["sleep", "read", "wait", "inotifywait", "timeout"]);
        if writes && !leaves && !pauses {
            self.opaque_line("a loop that never ends writes files each time round (a disk filler)");
        }
        if grows(&text) && !leaves && !pauses {
            self.opaque_line(
                "a loop that never ends makes a variable longer each time round (a memory bomb)",
            );
        }
        // Anything else run with no pause and no way out holds a core for good, and floods
        // whatever the command feeds (`while :; do logger ...; done`).
        if !leaves && !pauses {
            self.opaque_line(
                "a loop that never ends runs its commands with no pause and no way out (it \
                 holds a core until killed)",
            );
        }
    }

    fn extended_test(&mut self, expr: &ast::ExtendedTestExpr) {
        use ast::ExtendedTestExpr as E;
        match expr {
            E::And(a, b) | E::Or(a, b) => {
                self.extended_test(a);
                self.extended_test(b);
            }
            E::Not(a) | E::Parenthesized(a) => self.extended_test(a),
            E::UnaryTest(op, w) => {
                let fields = self.expand(&w.value);
                if matches!(op, ast::UnaryPredicate::ShellVariableIsSetAndAssigned)
                    && let Some(name) = unsplit(&fields)
                {
                    self.subscript_of(&name);
                }
            }
            // `-eq`, `-gt`...: each side is an arithmetic expression, and a value that is not
            // a number is evaluated as one (`[[ $n -gt 3 ]]` with `n='a[$(cmd)]'` runs cmd).
            E::BinaryTest(op, a, b) => {
                use ast::BinaryPredicate as B;
                let arithmetic = matches!(
                    op,
                    B::ArithmeticEqualTo
                        | B::ArithmeticNotEqualTo
                        | B::ArithmeticLessThan
                        | B::ArithmeticLessThanOrEqualTo
                        | B::ArithmeticGreaterThan
                        | B::ArithmeticGreaterThanOrEqualTo
                );
                for side in [a, b] {
                    let fields = self.expand(&side.value);
                    if arithmetic && let Some(expression) = unsplit(&fields) {
                        self.arithmetic_command(&expression);
                    }
                }
            }
        }
    }

    fn compound(&mut self, compound: &ast::CompoundCommand, stdin: Data) -> Data {
        use ast::CompoundCommand as C;
        match compound {
            C::BraceGroup(g) => self.list(&g.list, stdin),
            C::Subshell(s) => {
                let saved = self.mark();
                self.forked += 1;
                let out = self.list(&s.list, stdin);
                self.forked -= 1;
                self.restore(saved);
                out
            }
            C::Arithmetic(a) => {
                // brush-parser reads `( (cmd) )` and `((cmd) )`, two subshells to bash, as
                // the arithmetic command `((cmd))`: only `((` ... `))` written together is.
                let written = self.sources.last().and_then(|s| {
                    s.get(a.loc.start.index..a.loc.end.index)
                        .map(|t| t.starts_with("((") && t.ends_with("))"))
                });
                if written != Some(true) {
                    self.opaque("nested subshells written like arithmetic are not read");
                }
                self.arithmetic_command(&a.expr.value);
                Data::Nothing
            }
            C::ArithmeticForClause(f) => {
                let condition = f
                    .condition
                    .as_ref()
                    .map_or(String::new(), |c| c.value.clone());
                self.endless_spawner(&condition, &["", "1"], &f.body.list);
                for e in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.arithmetic_command(&e.value);
                }
                // Twice, as a `while` body: a second pass sees the values the first leaves
                // behind, and a function the body calls back into is called again
                // (`f() { for ((i = 0; i < 2; i++)); do f & done; }`).
                let before = self.mark();
                let mut out = self.list(&f.body.list, stdin.clone());
                self.join(before);
                out = out.then(self.list(&f.body.list, stdin));
                self.join(before);
                out
            }
            C::ForClause(f) => self.for_loop(f, stdin),
            C::CaseClause(c) => {
                self.expand(&c.value.value);
                // No pattern may match: the values before the `case` are one of its ways.
                let mut branches = Branches::from(self.mark());
                let mut out = Data::Nothing;
                for item in &c.cases {
                    for p in &item.patterns {
                        self.expand(&p.value);
                    }
                    if let Some(body) = &item.cmd {
                        out = out.then(self.list(body, stdin.clone()));
                    }
                    self.end_branch(&mut branches);
                }
                self.env.join_branches(branches);
                out
            }
            C::IfClause(i) => {
                let mut out = self.list(&i.condition, stdin.clone());
                // Each way starts from the values after the condition. A variable the
                // ways leave different is one of their values after the `if`, or of the
                // value it had too when no `else` makes one way always run.
                let has_else = i.elses.iter().flatten().any(|e| e.condition.is_none());
                let mut branches = if has_else {
                    Branches::every_way(self.mark())
                } else {
                    Branches::from(self.mark())
                };
                let ways = std::iter::once((None, &i.then)).chain(
                    i.elses
                        .iter()
                        .flatten()
                        .map(|e| (e.condition.as_ref(), &e.body)),
                );
                for (condition, body) in ways {
                    if let Some(c) = condition {
                        out = out.then(self.list(c, stdin.clone()));
                    }
                    out = out.then(self.list(body, stdin.clone()));
                    self.end_branch(&mut branches);
                }
                self.env.join_branches(branches);
                out
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                let endless = match compound {
                    C::UntilClause(_) => ["false"].as_slice(),
                    _ => [":", "true", "[ 1 ]", "((1))", "(( 1 ))"].as_slice(),
                };
                self.endless_spawner(&w.0.to_string(), endless, &w.1.list);
                let before = self.mark();
                let mut out = self.list(&w.0, stdin.clone());
                out = out.then(self.list(&w.1.list, stdin.clone()));
                // A second pass sees the values the first leaves behind.
                self.join(before);
                out = out.then(self.list(&w.0, stdin.clone()));
                out = out.then(self.list(&w.1.list, stdin));
                self.join(before);
                out
            }
            C::Coprocess(c) => {
                let saved = self.mark();
                let out = self.command(&c.body, Data::Unknown);
                self.restore(saved);
                out
            }
        }
    }

    fn for_loop(&mut self, f: &ast::ForClauseCommand, stdin: Data) -> Data {
        let fields = match &f.values {
            Some(words) => self.expand_words(words.iter().map(|w| w.value.as_str())),
            // `for x; do`: the positional parameters.
            None => match self.env.positional.clone() {
                Some(args) => args
                    .into_iter()
                    .map(|v| match v {
                        Value::Known(t) => Field::literal(&t),
                        Value::Unknown => Field {
                            text: super::SUBSTITUTION.to_owned(),
                            unknown: true,
                            ..Field::default()
                        },
                    })
                    .collect(),
                None => vec![Field {
                    text: super::SUBSTITUTION.to_owned(),
                    unknown: true,
                    ..Field::default()
                }],
            },
        };
        let before = self.mark();
        let mut out = Data::Nothing;
        if fields.is_empty() {
            return out;
        }
        // `declare -n ref; for ref in a b`: `$ref` is `$a`, then `$b`, and what the body
        // assigns to `ref` it assigns to them, which are not known after the loop.
        let nameref = self.env.namerefs.contains(&f.variable_name);
        let targets: Vec<String> = match nameref {
            true => fields.iter().map(|w| w.text.clone()).collect(),
            false => Vec::new(),
        };
        for field in fields {
            if self.exhausted() {
                return Data::Unknown;
            }
            let value = match nameref {
                true if !field.unknown => self.env.get(&field.text),
                true => Value::Unknown,
                false => field.value(),
            };
            self.env.set(&f.variable_name, value);
            let body = self.reached("from a for loop".to_owned(), |r| {
                r.list(&f.body.list, stdin.clone())
            });
            out = out.then(body);
        }
        // `break` may end the loop early.
        self.join(before);
        for target in &targets {
            self.env.set(target, Value::Unknown);
        }
        out
    }

    /// `(( ... ))` and `let`: substitutions inside are read; assigned names become unknown
    /// unless the whole expression is `name=constant`.
    pub(super) fn arithmetic_command(&mut self, expr: &str) {
        self.arithmetic_at(expr, 0, &mut HashSet::new());
    }

    /// Bash evaluates a variable's value that is not a number as an expression of its own,
    /// so a value the line set (`x='a[$(rm -rf ~)]'`) runs what it holds: read it, to the
    /// depth `depth` is at (bash stops at 1024; the reader at 8).
    fn arithmetic_at(&mut self, expr: &str, depth: usize, read: &mut HashSet<String>) {
        // Values that name each other many times over would be read again and again.
        self.steps += expr.len() / 4 + 1;
        if self.exhausted() {
            return;
        }
        if expr.contains(['$', '`']) {
            let _ = self.expand_string(&format!("\"{expr}\""));
        }
        let bytes = expr.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_alphabetic() || bytes[i] == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                self.arithmetic_value(&expr[start..i], depth, read);
                let rest = expr[i..].trim_start();
                let assigns = (rest.starts_with('=') && !rest.starts_with("=="))
                    || [
                        "+=", "-=", "*=", "/=", "%=", "++", "--", "<<=", ">>=", "&=", "|=", "^=",
                    ]
                    .iter()
                    .any(|op| rest.starts_with(op))
                    || expr[..start].trim_end().ends_with("++")
                    || expr[..start].trim_end().ends_with("--");
                if assigns {
                    let name = expr[start..i].to_owned();
                    let value = rest
                        .strip_prefix('=')
                        .filter(|v| !v.contains([',', '=']))
                        .and_then(|v| super::arith::eval(v, &self.env));
                    self.env.set(
                        &name,
                        value.map_or(Value::Unknown, |n| Value::Known(n.to_string())),
                    );
                }
            } else {
                i += 1;
            }
        }
    }

    /// An array element's name (`a[i]`) given to a builtin that sets or unsets it, or to
    /// `[[ -v ]]`: bash evaluates its subscript as arithmetic, running the substitutions in
    /// it (`unset 'a[$(rm -rf ~)]'`).
    pub(super) fn subscript_of(&mut self, name: &str) {
        if let Some((_, rest)) = name.split_once('[') {
            self.arithmetic_command(rest.strip_suffix(']').unwrap_or(rest));
        }
    }

    /// The values of the variables `expr` names, read as [`Reader::arithmetic_at`] reads
    /// them, for an expression whose assignments are not followed (`$((x + 1))`).
    pub(super) fn arithmetic_values(&mut self, expr: &str) {
        let mut read = HashSet::new();
        let names = expr
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'));
        for name in names {
            self.arithmetic_value(name, 0, &mut read);
        }
    }

    /// The value of variable `name` read as the expression bash evaluates it as, when it is
    /// not a number (see [`Reader::arithmetic_at`]). Each name is read once per expression
    /// (`read`): what it runs is the same each time, and names that name each other many
    /// times over cost no more than their text.
    fn arithmetic_value(&mut self, name: &str, depth: usize, read: &mut HashSet<String>) {
        self.steps += 1;
        if depth >= 8 || self.exhausted() || read.contains(name) {
            return;
        }
        read.insert(name.to_owned());
        let expression = |c: char| c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '`');
        if let Value::Known(value) = self.env.get(name)
            && value.contains(expression)
        {
            self.arithmetic_at(&value, depth + 1, read);
        }
    }

    /// Reads a simple command once for each text of the variables it names that hold one
    /// of a few (`x=build; [ -n "$CI" ] && x=dist; rm -rf "$x"` runs `rm -rf build` or
    /// `rm -rf dist`), a few readings at most; past that, or without such variables, once
    /// with them unknown. Where each reading's own command was recorded is kept for
    /// [`judge_stream`](Self::judge_stream).
    fn simple_each_way(&mut self, command: &ast::SimpleCommand, stdin: Data) -> Data {
        /// Most readings of one command.
        const MOST_READINGS: usize = 8;
        let ways = if self.env.has_ways() {
            let text = command.to_string();
            self.env.ways_of(|name| names_variable(&text, name))
        } else {
            Vec::new()
        };
        let readings = ways
            .iter()
            .try_fold(1usize, |n, (_, texts)| n.checked_mul(texts.len()))
            .filter(|n| *n <= MOST_READINGS);
        let Some(readings) = readings.filter(|_| !ways.is_empty()) else {
            let out = self.simple(command, stdin);
            self.readings.clear();
            return out;
        };
        let mut branches = Branches::every_way(self.mark());
        let mut out: Option<Data> = None;
        let mut starts = Vec::new();
        for k in 0..readings {
            // The k-th combination: one text of each variable, counted in mixed radix.
            let mut rest = k;
            let mut given = Vec::new();
            for (name, texts) in &ways {
                let text = Value::known(texts[rest % texts.len()].clone());
                self.env.set(name, text.clone());
                given.push(text);
                rest /= texts.len();
            }
            let read = self.simple(command, stdin.clone());
            starts.push(self.stage_start);
            // A variable the command did not set itself holds all its texts again.
            for ((name, texts), text) in ways.iter().zip(given) {
                if self.env.get(name) == text {
                    self.env.set_ways(name, texts.clone());
                }
            }
            self.end_branch(&mut branches);
            out = Some(match out {
                Some(o) if o != read => Data::Unknown,
                Some(o) => o,
                None => read,
            });
        }
        self.env.join_branches(branches);
        self.readings = starts;
        out.unwrap_or(Data::Unknown)
    }

    /// Reads a simple command: its assignments, redirections and words, then what it runs.
    fn simple(&mut self, command: &ast::SimpleCommand, stdin: Data) -> Data {
        self.process_fds = self.process_fds_open;
        let mut assignments = Vec::new();
        let mut words: Vec<&str> = Vec::new();
        let mut redirects = Vec::new();
        let mut declared = Vec::new();
        let mut substitutions: Vec<Field> = Vec::new();
        for item in command.prefix.iter().flat_map(|p| p.0.iter()) {
            match item {
                ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _) => assignments.push(a),
                ast::CommandPrefixOrSuffixItem::IoRedirect(r) => redirects.push(r),
                ast::CommandPrefixOrSuffixItem::Word(w) => words.push(&w.value),
                ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, s) => {
                    substitutions.push(self.process_substitution(kind, s));
                }
            }
        }
        if let Some(w) = &command.word_or_name {
            words.push(&w.value);
        }
        let mut suffix_fields: Vec<(usize, Field)> = Vec::new();
        for item in command.suffix.iter().flat_map(|s| s.0.iter()) {
            match item {
                ast::CommandPrefixOrSuffixItem::AssignmentWord(a, w) => {
                    declared.push(a);
                    words.push(&w.value);
                }
                ast::CommandPrefixOrSuffixItem::IoRedirect(r) => redirects.push(r),
                ast::CommandPrefixOrSuffixItem::Word(w) => words.push(&w.value),
                ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, s) => {
                    let field = self.process_substitution(kind, s);
                    suffix_fields.push((words.len(), field));
                }
            }
        }
        let io = self.redirects(redirects.into_iter());
        let stdin = io.stdin.clone().unwrap_or(stdin);

        // An alias: its text stands in for the first word. `bash -c` expands aliases only
        // under `shopt -s expand_aliases`, and a definition may be in a branch that did not
        // run, so the command is also read as written below.
        let mut aliased = Data::Nothing;
        if let Some(first) = words.first()
            && let Some(texts) = self.env.aliases.get(*first).cloned()
            && self.calls.len() < MAX_CALLS
        {
            for text in texts {
                let mut script = text;
                for w in &words[1..] {
                    script.push(' ');
                    script.push_str(w);
                }
                self.calls.push(String::new());
                let origin = format!("from alias {first}");
                let read = self.reached(origin, |r| r.script(&script, stdin.clone()));
                aliased = aliased.then(read);
                self.calls.pop();
            }
        }

        let mut fields = Vec::new();
        for (k, w) in words.iter().enumerate() {
            for (at, f) in &suffix_fields {
                if *at == k {
                    fields.push(f.clone());
                }
            }
            fields.extend(self.expand(w));
        }
        for (at, f) in &suffix_fields {
            if *at >= words.len() {
                fields.push(f.clone());
            }
        }
        fields.splice(0..0, substitutions);

        let values: Vec<(String, Value)> = assignments
            .iter()
            .filter_map(|a| self.assignment(a, fields.is_empty()))
            .collect();
        if fields.is_empty() {
            // `> f` alone still opens (and truncates) f.
            self.record_redirects(&io);
            self.write_files(&io, &Data::Nothing);
            return Data::Nothing;
        }
        for a in &declared {
            self.assignment(a, true);
        }
        // What the words' substitutions ran is recorded by now: the stage's own command
        // starts here (see `judge_stream`).
        self.stage_start = self.recorded();
        let out = aliased.then(self.run(fields, &io, stdin, &values));
        self.write_files(&io, &out);
        out
    }

    /// Runs the command `fields` (program first) with `io`: records it, inlines a function,
    /// and reads what the program runs in turn. Returns what it prints.
    pub(super) fn run(
        &mut self,
        fields: Vec<Field>,
        io: &Io,
        stdin: Data,
        env: &[(String, Value)],
    ) -> Data {
        let Some(first) = fields.first() else {
            return Data::Nothing;
        };
        if self.exhausted() {
            return Data::Unknown;
        }
        self.stdin_built = io.stdin_built;
        if first.unknown {
            self.opaque("the program comes from a variable or a substitution");
        } else if first.glob {
            self.opaque("the program name is a glob pattern");
        }
        let name = first.text.clone();
        // A listing is only read by `xargs`, `cpio` and `tar -T -`, and passed on by the
        // line filters that keep some of its lines (`programs::run`); any other program
        // gets text not known.
        let stdin = match stdin {
            Data::Listing(..) if !programs::reads_listings(&name) => Data::Unknown,
            other => other,
        };
        // A function runs instead of the program of its name, but its definition may be in
        // a branch that did not run: each body is read, and so is the program.
        let mut called = Data::Nothing;
        if let Some(bodies) = self.env.functions.get(&name).cloned() {
            for body in &bodies {
                called = called.then(self.call(&name, body, &fields[1..], io, stdin.clone()));
            }
        }
        // A program run through a link (or a copy of a system program) the line made is the
        // program it leads to: `ln -s /bin/rm x && ./x -rf ~`.
        let linked = name
            .contains('/')
            .then(|| self.env.resolve_link(&name))
            .flatten();
        if linked.is_some() {
            // What runs is also the name it was run by, as the process table shows it.
            self.record(SimpleCommand {
                program: name.rsplit('/').next().unwrap_or_default().to_owned(),
                args: fields[1..].iter().map(|f| f.text.clone()).collect(),
                redirects: Vec::new(),
                origin: None,
                dir: None,
            });
        }
        let path = linked.as_deref().unwrap_or(&name);
        let program = path.rsplit('/').next().unwrap_or_default().to_owned();
        if program.is_empty() {
            return Data::Nothing;
        }
        self.steps += fields.len();
        let args: Vec<String> = fields[1..].iter().map(|f| f.text.clone()).collect();
        let args = programs::canonical_args(&program, &args);
        let origin = self.origin.clone().or_else(|| {
            fields
                .iter()
                .any(|f| f.expanded)
                .then(|| "with values from variables".to_owned())
        });
        // Under `nocaseglob` a pattern names files in any case: the command is also
        // recorded with each pattern so (bash passes one that matches nothing as written).
        let any_case = (self.env.nocaseglob && fields[1..].iter().any(|f| f.glob)).then(|| {
            let args = fields[1..]
                .iter()
                .map(|f| match f.glob {
                    true => super::expand::any_case(&f.text),
                    false => f.text.clone(),
                })
                .collect();
            SimpleCommand {
                program: program.clone(),
                args,
                redirects: io.redirects.clone(),
                origin: Some("its patterns matching names in any case (nocaseglob)".to_owned()),
                dir: None,
            }
        });
        let command = SimpleCommand {
            program: program.clone(),
            args,
            redirects: io.redirects.clone(),
            origin,
            dir: None,
        };
        // Marked after the program ran: `perl -pi` is itself a tool that runs project files.
        let edited = command.clone();
        self.record(command);
        if let Some(command) = any_case {
            self.record(command);
        }
        // `./x.sh` that this line wrote, or that the host holds: its text runs, by the
        // interpreter its `#!` line names.
        let by_name = self.env.on_path.contains(&name)
            && !self.env.files.contains_key(&super::env::file_key(&name));
        if name.contains('/') && !by_name && self.executable_file(&name, &fields[1..]) {
            return Data::Unknown;
        }
        let out = called.then(programs::run(self, &program, &fields[1..], io, stdin, env));
        programs::edited_in_place(self, &edited);
        out
    }

    /// Reads the file `./x` that a command runs by its path: a script by its `#!` line's
    /// interpreter (a shell's by this reader), a text file without one as a shell script, a
    /// binary not at all. Whether it was read by another program than a shell.
    fn executable_file(&mut self, name: &str, args: &[Field]) -> bool {
        if let Err(why) = self.load_host_file(name) {
            self.opaque(why);
            return false;
        }
        let key = super::env::file_key(name);
        let interpreter = match self.env.files.get(&key) {
            Some(FileText::Known(text)) if text.contains('\0') => {
                self.env.files.remove(&key);
                return false;
            }
            Some(FileText::Known(text)) => super::host::shebang(text),
            _ => None,
        };
        match interpreter {
            Some(program) if !programs::is_shell(&program) => {
                let mut fields = vec![Field::literal(&program), Field::literal(name)];
                fields.extend(args.iter().cloned());
                self.reached(format!("the script {name}"), |r| {
                    r.run(fields, &Io::default(), Data::Nothing, &[])
                });
                true
            }
            _ => {
                self.reached(format!("the script {name}"), |r| {
                    r.run_script_file(name, args)
                });
                false
            }
        }
    }

    /// Records a simple command, and the same command with a link the line made replaced
    /// by its target.
    pub(super) fn record(&mut self, mut command: SimpleCommand) {
        if command.origin.is_none() {
            command.origin.clone_from(&self.origin);
        }
        command.dir = match self.env.get(super::env::DIR) {
            super::env::Value::Known(dir) => Some(dir),
            super::env::Value::Unknown => None,
        };
        if self.line.commands.len() >= MAX_COMMANDS {
            self.opaque_line("the command holds too many commands");
            return;
        }
        let through_link = (!self.env.links.is_empty())
            .then(|| {
                let resolve = |p: &String| self.env.resolve_link(p).unwrap_or_else(|| p.clone());
                let args: Vec<String> = command.args.iter().map(resolve).collect();
                let redirects: Vec<Redirect> = command
                    .redirects
                    .iter()
                    .map(|x| Redirect {
                        op: x.op,
                        target: resolve(&x.target),
                    })
                    .collect();
                (args != command.args || redirects != command.redirects).then(|| SimpleCommand {
                    args,
                    redirects,
                    ..command.clone()
                })
            })
            .flatten();
        // And as its URLs reach the server: `/v1/x/../approvals` is `/v1/approvals`.
        let as_sent = match super::programs::urls::as_sent(&command.program, &command.args) {
            Ok(urls) => urls.map(|args| SimpleCommand {
                args,
                ..command.clone()
            }),
            Err(super::programs::urls::TooMany) => {
                self.opaque_line("curl's URL globs expand to too many requests");
                None
            }
        };
        // And as the processes its pattern picks: `pkill -f 'hook[g]ate'` stops hookgate.
        let picked =
            super::programs::signals::picks_gate_by_pattern(&command.program, &command.args).then(
                || SimpleCommand {
                    args: vec!["hookgate".to_owned()],
                    origin: Some("the processes its pattern picks".to_owned()),
                    ..command.clone()
                },
            );
        let if_cd_failed = self
            .env
            .assigned(super::env::DIR_IF_CD_FAILED)
            .then(|| match self.env.get(super::env::DIR_IF_CD_FAILED) {
                super::env::Value::Known(dir) => Some(dir),
                super::env::Value::Unknown => None,
            })
            .filter(|dir| *dir != command.dir)
            .map(|dir| SimpleCommand {
                dir,
                origin: Some(match &command.origin {
                    Some(o) => format!("{o}, where the line was if a `cd` failed"),
                    None => "where the line was if a `cd` failed".to_owned(),
                }),
                ..command.clone()
            });
        self.line.commands.push(command);
        self.line.commands.extend(if_cd_failed);
        self.line.commands.extend(through_link);
        self.line.commands.extend(as_sent);
        self.line.commands.extend(picked);
    }

    fn call(
        &mut self,
        name: &str,
        body: &ast::FunctionBody,
        args: &[Field],
        io: &Io,
        stdin: Data,
    ) -> Data {
        if self.calls.len() >= MAX_CALLS || self.calls.iter().any(|c| c == name) {
            if self.recursions.len() < MAX_CALLS {
                self.recursions.push((name.to_owned(), self.forked > 0));
            }
            // Recursion: the body has been read once already.
            self.record(SimpleCommand {
                program: name.to_owned(),
                args: args.iter().map(|f| f.text.clone()).collect(),
                redirects: io.redirects.clone(),
                origin: None,
                dir: None,
            });
            return Data::Unknown;
        }
        let positional = args.iter().map(Field::value).collect();
        let saved = self.env.positional.replace(positional);
        self.calls.push(name.to_owned());
        self.depth += 1;
        let body_io = self.redirects(body.1.iter().flat_map(|r| r.0.iter()));
        self.record_redirects(&body_io);
        let stdin = body_io.stdin.clone().unwrap_or(stdin);
        let out = if self.depth >= MAX_DEPTH {
            self.opaque_line("the command nests too deeply");
            Data::Unknown
        } else {
            self.reached(format!("from function {name}"), |r| {
                r.compound(&body.0, stdin)
            })
        };
        self.depth -= 1;
        self.calls.pop();
        self.env.positional = saved;
        // Two calls back into the function, one in a process of its own, double the
        // processes at every level: `:(){ :|:& };:`, `f(){ f & f; }; f`.
        let (again, forked) = self
            .recursions
            .iter()
            .filter(|(called, _)| called == name)
            .fold((0, false), |(n, f), (_, forks)| (n + 1, f || *forks));
        if again >= 2 && forked {
            self.opaque_line("a function starts copies of itself in new processes (a fork bomb)");
        }
        if self.calls.is_empty() {
            self.recursions.clear();
        }
        out
    }

    /// Applies an assignment; returns it as an environment entry for the command it
    /// prefixes. `persist`: it stays set after the command (no command, or a declaration).
    fn assignment(&mut self, a: &ast::Assignment, persist: bool) -> Option<(String, Value)> {
        // bash's table of command names (`BASH_CMDS[ls]=/bin/rm`) and of aliases, and a
        // function a child bash imports from the environment (`BASH_FUNC_make%%`): a
        // command name then runs something else than it says.
        let target = match &a.name {
            ast::AssignmentName::VariableName(n) | ast::AssignmentName::ArrayElementName(n, _) => n,
        };
        if matches!(target.as_str(), "BASH_CMDS" | "BASH_ALIASES")
            || target.starts_with("BASH_FUNC_")
        {
            self.opaque(
                "the line changes what a command name runs (BASH_CMDS, BASH_ALIASES, BASH_FUNC_)",
            );
        }
        let (name, value) = match (&a.name, &a.value) {
            (ast::AssignmentName::VariableName(n), ast::AssignmentValue::Scalar(w)) => {
                let mut value = self.expand_string(&w.value);
                if a.append {
                    value = match (self.env.get(n), value) {
                        (Value::Known(old), Value::Known(new)) => Value::Known(old + &new),
                        _ => Value::Unknown,
                    };
                }
                (n.clone(), value)
            }
            (ast::AssignmentName::VariableName(n), ast::AssignmentValue::Array(items)) => {
                let mut values = Vec::new();
                for (_, w) in items {
                    for f in self.expand(&w.value) {
                        values.push(if f.unknown {
                            Value::Unknown
                        } else {
                            Value::Known(f.text)
                        });
                    }
                }
                if persist {
                    self.env.set_array(n, values);
                }
                return None;
            }
            (ast::AssignmentName::ArrayElementName(n, index), value) => {
                let value = match value {
                    ast::AssignmentValue::Scalar(w) => self.expand_string(&w.value),
                    ast::AssignmentValue::Array(_) => Value::Unknown,
                };
                let index = match self.expand_string(index) {
                    Value::Known(i) => {
                        super::arith::eval(&i, &self.env).map_or(i, |k| k.to_string())
                    }
                    Value::Unknown => {
                        self.env.set(n, Value::Unknown);
                        return None;
                    }
                };
                if persist {
                    self.steps += self.env.set_element(n, index, value);
                }
                return None;
            }
        };
        self.special_variable(&name, &value);
        // bash evaluates a variable named in arithmetic (`$((x))`, `[[ $x -eq 0 ]]`, `let`)
        // as an expression, and expands an array subscript inside it: a value such as
        // `a[$(rm -rf ~)]` runs its command then.
        if let Value::Known(text) = &value
            && (text.contains("[$(") || text.contains("[`") || text.contains("[${"))
        {
            self.opaque(
                "a value holds a command that bash runs when it evaluates the value as arithmetic",
            );
        }
        if persist {
            self.env.set(&name, value.clone());
        }
        Some((name, value))
    }

    /// Variables whose value bash runs as code later: read that code now.
    pub(super) fn special_variable(&mut self, name: &str, value: &Value) {
        match (name, value) {
            ("PROMPT_COMMAND", Value::Known(code)) => {
                self.script(code, Data::Nothing);
            }
            ("PS0" | "PS1" | "PS2" | "PS4", Value::Known(prompt)) => {
                // Prompts expand their substitutions each time they are shown.
                self.expand_string(&format!("\"{}\"", prompt.replace('"', "\\\"")));
            }
            // PS0, PS1 and PS2 are shown only by an interactive shell: a value not known
            // (`PS1="(.venv) ${PS1-}"` in a virtualenv's activate script) runs nothing in
            // the shell a tool runs. PS4 is expanded by `set -x` in any shell.
            ("PROMPT_COMMAND" | "PS4", Value::Unknown) => {
                self.opaque("a prompt or PROMPT_COMMAND comes from an unknown value");
            }
            // Options and code every later interpreter of the line takes from its
            // environment (`NODE_OPTIONS='-r ./x.js' npm test`): read as that interpreter
            // would read them on its command line, before a program of its own.
            ("NODE_OPTIONS" | "PERL5OPT" | "RUBYOPT", Value::Known(options)) => {
                let program = match name {
                    "NODE_OPTIONS" => "node",
                    "PERL5OPT" => "perl",
                    _ => "ruby",
                };
                let mut fields = vec![Field::literal(program)];
                fields.extend(options.split_whitespace().map(|o| {
                    match o.starts_with('-') || program == "node" {
                        true => Field::literal(o),
                        // perl and ruby take their switches without the dash too.
                        false => Field::literal(&format!("-{o}")),
                    }
                }));
                fields.extend(["-e", ""].map(Field::literal));
                self.reached(format!("from {name}"), |r| {
                    r.run(fields, &Io::default(), Data::Nothing, &[])
                });
            }
            // `perl -d` runs `PERL5DB` as the debugger's code, in place of perl5db.pl. No
            // routine line sets it, so it is read whether or not a later perl takes `-d`.
            ("PERL5DB", Value::Known(code)) => {
                let fields = ["perl", "-e", code.as_str()].map(Field::literal).to_vec();
                self.reached(format!("from {name}"), |r| {
                    r.run(fields, &Io::default(), Data::Nothing, &[])
                });
            }
            ("PERL5DB", Value::Unknown) => {
                self.opaque("PERL5DB, the code perl -d runs, comes from an unknown value");
            }
            // Lua runs `LUA_INIT` (or the file after its `@`) before anything else.
            (lua, Value::Known(init)) if lua == "LUA_INIT" || lua.starts_with("LUA_INIT_5_") => {
                let fields = match init.strip_prefix('@') {
                    Some(file) => vec![Field::literal("lua"), Field::literal(file)],
                    None => ["lua", "-e", init.as_str()].map(Field::literal).to_vec(),
                };
                self.reached(format!("from {name}"), |r| {
                    r.run(fields, &Io::default(), Data::Nothing, &[])
                });
            }
            _ => {}
        }
    }

    fn process_substitution(
        &mut self,
        kind: &ast::ProcessSubstitutionKind,
        s: &ast::SubshellCommand,
    ) -> Field {
        let saved = self.mark();
        self.depth += 1;
        self.last_endless = false;
        // `>(cmd)` reads what the command writes to it: a download (`curl -o >(bash)`),
        // anything.
        let stdin = match kind {
            ast::ProcessSubstitutionKind::Write => Data::Unknown,
            ast::ProcessSubstitutionKind::Read => Data::Nothing,
        };
        // It runs in a process of its own, as a subshell does.
        self.forked += 1;
        let fetched_before = std::mem::take(&mut self.env.fetches);
        let before = self.process_fds;
        let fd = PROCESS_FD - before.min(PROCESS_FD - 3);
        // Its command runs in a child that holds the ones opened before it.
        let outer_open = std::mem::replace(&mut self.process_fds_open, before);
        if self.depth < MAX_DEPTH {
            self.list(&s.list, stdin);
        } else {
            self.opaque_line("the command nests too deeply");
        }
        self.process_fds_open = outer_open;
        self.process_fds = before + 1;
        let fetches = std::mem::replace(&mut self.env.fetches, fetched_before);
        self.env.fetches |= fetches;
        self.forked -= 1;
        self.depth -= 1;
        self.restore(saved);
        // What never ends (`<(yes)`) is read as the device that never ends, so what takes
        // it whole is judged as it would be on `/dev/zero` (`mapfile -t a < <(yes)`).
        if std::mem::take(&mut self.last_endless) {
            return Field::literal("/dev/zero");
        }
        // `<(cmd)` is a file, named as bash names it, of what the command prints: an
        // operand, never an option (`perl -ne CODE <(git log)`), and a script made from a
        // command's output or a download to a program that runs it (`vim -u <(curl
        // URL)`, `bash <(cat x)`).
        if matches!(kind, ast::ProcessSubstitutionKind::Read) {
            let path = format!("/dev/fd/{fd}");
            self.env.write_file(&path, FileText::Unknown, false);
            return Field::literal(&path);
        }
        Field {
            text: super::SUBSTITUTION.to_owned(),
            unknown: true,
            ..Field::default()
        }
    }

    /// Reads redirections: file targets, here-documents and here-strings (what standard
    /// input carries), process substitutions.
    fn redirects<'a>(&mut self, redirects: impl Iterator<Item = &'a ast::IoRedirect>) -> Io {
        let mut io = Io::default();
        for r in redirects {
            match r {
                ast::IoRedirect::File(fd, kind, target) => {
                    use ast::IoFileRedirectKind as K;
                    let op = match kind {
                        K::Read => "<",
                        K::Write | K::Clobber => ">",
                        K::Append => ">>",
                        K::ReadAndWrite => "<>",
                        K::DuplicateInput | K::DuplicateOutput => {
                            if let ast::IoFileRedirectTarget::Duplicate(w) = target {
                                let fields = self.expand(&w.value);
                                // `>&word` and `1>&word` where the word is no descriptor
                                // write the file `word`, as `&>word` does (bash).
                                if let [field] = fields.as_slice()
                                    && matches!(kind, K::DuplicateOutput)
                                    && fd.is_none_or(|f| f == 1)
                                    && (field.unknown || !is_descriptor(&field.text))
                                {
                                    io.redirects.push(Redirect {
                                        op: ">",
                                        target: field.text.clone(),
                                    });
                                }
                                // `<&5`, `<&"${COPROC[0]}"`: standard input is what another
                                // descriptor holds (a coprocess, a connection), not known.
                                if matches!(kind, K::DuplicateInput)
                                    && fd.is_none_or(|f| f == 0)
                                    && !matches!(fields.as_slice(), [f] if f.text == "0" && !f.unknown)
                                {
                                    io.stdin = Some(Data::Unknown);
                                }
                            }
                            continue;
                        }
                    };
                    let field = match target {
                        ast::IoFileRedirectTarget::Filename(w) => {
                            let mut fields = self.expand(&w.value);
                            if fields.len() != 1 {
                                self.opaque("a redirection's file name is not one word");
                            }
                            fields.pop().unwrap_or_default()
                        }
                        ast::IoFileRedirectTarget::ProcessSubstitution(kind, s) => {
                            self.process_substitution(kind, s)
                        }
                        ast::IoFileRedirectTarget::Fd(_)
                        | ast::IoFileRedirectTarget::Duplicate(_) => {
                            continue;
                        }
                    };
                    if op == "<" && fd.is_none_or(|f| f == 0) {
                        io.stdin = Some(self.file_data(&field));
                        io.stdin_built = false;
                    }
                    io.redirects.push(Redirect {
                        op,
                        target: field.text,
                    });
                }
                ast::IoRedirect::HereDocument(fd, doc) => {
                    let value = self.expand_heredoc(&doc.doc.value, doc.requires_expansion);
                    if fd.is_none_or(|f| f == 0) {
                        io.stdin_built = value == Value::Unknown;
                        io.stdin = Some(match value {
                            Value::Known(t) => Data::Known(t),
                            Value::Unknown => Data::Unknown,
                        });
                    }
                }
                ast::IoRedirect::HereString(fd, w) => {
                    let value = self.expand_string(&w.value);
                    if fd.is_none_or(|f| f == 0) {
                        io.stdin_built = value == Value::Unknown;
                        io.stdin = Some(match value {
                            Value::Known(t) => Data::Known(t + "\n"),
                            Value::Unknown => Data::Unknown,
                        });
                    }
                }
                ast::IoRedirect::OutputAndError(w, append) => {
                    let mut fields = self.expand(&w.value);
                    if let Some(f) = fields.pop() {
                        io.redirects.push(Redirect {
                            op: if *append { ">>" } else { ">" },
                            target: f.text,
                        });
                    }
                }
            }
        }
        io
    }

    /// What reading the file `field` gives: what the line wrote there, else the file's own
    /// content (a file of the workspace, not data from elsewhere).
    pub(super) fn file_data(&mut self, field: &Field) -> Data {
        if field.unknown || self.load_host_file(&field.text).is_err() {
            return Data::Unknown;
        }
        match self.env.files.get(&super::env::file_key(&field.text)) {
            Some(FileText::Known(t)) => Data::Known(t.clone()),
            Some(FileText::Unknown) => Data::Unknown,
            None if is_stdin_path(&field.text) => Data::Unknown,
            None => Data::Nothing,
        }
    }

    /// What `which NAME` prints: the program's path on the host, when the line has not
    /// changed `PATH`, made `NAME` a function or an alias (whose name `command -v` prints)
    /// nor written a file of that name; otherwise not known.
    pub(super) fn program_path(&mut self, name: &Field) -> Data {
        let known = !name.unknown
            && !self.env.assigned("PATH")
            && !self.env.functions.contains_key(&name.text)
            && !self.env.aliases.contains_key(&name.text)
            // A file of that name the line wrote may come first on the agent's `PATH`.
            && !self.env.files.keys().any(|k| k.rsplit('/').next() == Some(&name.text));
        match self
            .host
            .as_ref()
            .filter(|_| known)
            .and_then(|h| h.on_path(&name.text))
        {
            Some(path) => {
                let out = Data::Known(format!("{path}\n"));
                self.env.on_path.push(path);
                out
            }
            None => Data::Unknown,
        }
    }

    /// Whether a name listed for `paths` (what `find` finds below them with `recursive`,
    /// what `ls` lists of them) may be cut into other words by `xargs`: always without a
    /// view of the host, or when the line itself wrote such a name there; else as the
    /// host's files are now ([`Host::names_may_split`](super::host::Host::names_may_split)).
    pub(super) fn names_may_split(&self, paths: &[&str], recursive: bool) -> bool {
        let Some(host) = &self.host else {
            return true;
        };
        let dir = match self.env.get(super::env::DIR) {
            super::env::Value::Known(dir) => Some(dir),
            super::env::Value::Unknown => return true,
        };
        paths.iter().any(|path| {
            let key = super::env::file_key(path);
            // What the line wrote below `path` (anything relative, below `.`).
            let written = self.env.files.keys().any(|f| {
                let below = match key.as_str() {
                    "." | "" => (!f.starts_with('/')).then_some(f.as_str()),
                    _ => f
                        .strip_prefix(key.as_str())
                        .and_then(|r| r.strip_prefix('/')),
                };
                below.is_some_and(super::host::splits)
            });
            // A pattern lists names of the directory it is in (`~/.ssh/id_*`).
            let (at, recursive) = match path.rsplit_once('/') {
                _ if !path.contains(['*', '?', '[']) => (*path, recursive),
                Some((parent, _)) if !parent.contains(['*', '?', '[']) => {
                    (if parent.is_empty() { "/" } else { parent }, false)
                }
                Some(_) => return true,
                None => (".", false),
            };
            written || host.names_may_split(dir.as_deref(), at, recursive)
        })
    }

    /// Whether the file at normalised `key` was read from the host rather than written by
    /// the line.
    pub(super) fn is_host_file(&self, key: &str) -> bool {
        // Read from the host and then written over by the line (`cat package.json; python3
        // -c '...write...'`): the line's own text, which a build tool then runs.
        self.host_loaded.contains(key) && !self.env.written.contains(key)
    }

    /// Makes the host's file `path` known to the line (as if the line had written it), when
    /// the line did not write it and decisions read host files. `Err` says why a file that
    /// is there cannot be read.
    pub(super) fn load_host_file(&mut self, path: &str) -> Result<(), &'static str> {
        let key = super::env::file_key(path);
        if !self.env.files.contains_key(&key) && self.env.in_downloaded_dir(&key) {
            self.env.files.insert(key, FileText::Unknown);
            return Ok(());
        }
        let Some(host) = &self.host else {
            return Ok(());
        };
        if self.env.files.contains_key(&key) || is_stdin_path(path) {
            return Ok(());
        }
        let dir = match self.env.get(super::env::DIR) {
            super::env::Value::Known(dir) => Some(dir),
            super::env::Value::Unknown => None,
        };
        // A pattern (`bash tests/*.sh`) runs the files it names on the host: each is read,
        // the texts one after the other, under the pattern's name.
        let names = if path.contains(['*', '?', '[']) {
            host.expand(dir.as_deref(), path)
                .ok_or("the script's name is a pattern hookgate cannot expand here")?
        } else {
            vec![path.to_owned()]
        };
        if self.host_reads + names.len() > super::host::MAX_FILES {
            return Err("the line runs more script files than hookgate reads");
        }
        self.host_reads += names.len();
        let files: Vec<(String, super::host::HostFile)> = names
            .into_iter()
            .map(|name| {
                let file = host.read(dir.as_deref(), &name);
                (name, file)
            })
            .collect();
        let mut texts = Vec::new();
        for (name, file) in files {
            match file {
                super::host::HostFile::Text(text) => texts.push(text),
                super::host::HostFile::Missing | super::host::HostFile::Compiled => {}
                // A project's generated build script (`./configure`, hundreds of KiB) is
                // more than is read: nothing of it is, and the policy weighs it as one it
                // cannot follow, as it weighs `./gradlew`.
                super::host::HostFile::TooLarge(why) => self.unreadable_script(name, why),
                super::host::HostFile::Unreadable(why) => return Err(why),
            }
        }
        if !texts.is_empty() {
            // The files' text is read as the line's own is, with its own budgets.
            let text = texts.join("\n");
            self.budget += STEPS_PER_BYTE * text.len();
            self.parse_left += syntax::PARSE_BUDGET * texts.len();
            self.host_loaded.insert(key.clone());
            self.env.files.insert(key, FileText::Known(text));
        }
        Ok(())
    }

    /// Whether `name` inside the directory `base` (`.`, or relative to the command's
    /// directory unless absolute) may name something where the command runs: the line wrote
    /// it, the host holds it, or that cannot be known (no host, an unknown directory).
    pub(super) fn path_may_exist(&self, base: &str, name: &str) -> bool {
        if self
            .env
            .files
            .contains_key(&super::env::file_key(&format!("{base}/{name}")))
        {
            return true;
        }
        let Some(host) = &self.host else {
            return true;
        };
        let dir = match self.env.get(super::env::DIR) {
            super::env::Value::Known(dir) => Some(dir),
            super::env::Value::Unknown => None,
        };
        host.holds(dir.as_deref(), base, name) != Some(false)
    }

    /// Reads the script file `path` if the line wrote it, or the host holds it (see
    /// [`Reader::load_host_file`]); a script the line downloaded or produced from a
    /// command's output, or one on the host that cannot be read, makes the line opaque.
    pub(super) fn run_file(&mut self, path: &str, stdin: Data) -> Data {
        // `exec 5< <(curl ...); bash /dev/fd/5`: a descriptor holds what another command
        // wrote.
        if !is_stdin_path(path)
            && ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"]
                .iter()
                .any(|d| path.starts_with(d))
        {
            self.opaque("the line runs a script from a file descriptor");
            return Data::Unknown;
        }
        if let Err(why) = self.load_host_file(path) {
            self.opaque(why);
            return Data::Unknown;
        }
        // A script run again (with other arguments: `sort` runs its compressor as `PROG`
        // and `PROG -d`) is read again, a few times; while it is read, it is not there
        // to run, so a script that runs itself is read once.
        let key = super::env::file_key(path);
        self.built.insert(key.clone());
        let runs = self.file_runs.entry(key.clone()).or_default();
        *runs += 1;
        if *runs > MAX_FILE_RUNS {
            self.opaque("the line runs one script it wrote more often than it is read");
            return Data::Unknown;
        }
        match self.env.files.remove(&key) {
            Some(FileText::Known(text)) => {
                let out = self.in_file(path, |r| r.script(&text, stdin));
                self.env.files.entry(key).or_insert(FileText::Known(text));
                out
            }
            Some(FileText::Unknown) => {
                self.opaque("the line runs a script it downloaded or made from a command's output");
                Data::Unknown
            }
            None => Data::Unknown,
        }
    }

    /// Runs the shell script file at `path` with `args` as its positional parameters
    /// (`./x.sh -q`, `bash x.sh -q`: `"$@"` in it is `-q`).
    pub(super) fn run_script_file(&mut self, path: &str, args: &[Field]) -> Data {
        let positional = args.iter().map(Field::value).collect();
        let saved = self.env.positional.replace(positional);
        let out = self.run_file(path, Data::Nothing);
        self.env.positional = saved;
        out
    }

    /// The file redirections of a compound command, a function body or a command with no
    /// words (`{ ...; } > f`, `for ...; done > f`, `> f`), which the shell opens even if
    /// nothing runs: recorded
    /// as `:` with them, the command that does only that, so that filters see the files.
    fn record_redirects(&mut self, io: &Io) {
        if io.redirects.is_empty() {
            return;
        }
        self.record(SimpleCommand {
            program: ":".to_owned(),
            args: Vec::new(),
            redirects: io.redirects.clone(),
            origin: Some("redirections with no command of their own".to_owned()),
            dir: None,
        });
    }

    /// Files the redirections write: their text is `out` when known.
    fn write_files(&mut self, io: &Io, out: &Data) {
        for r in &io.redirects {
            if r.op == "<" {
                continue;
            }
            let text = match out {
                Data::Known(t) => FileText::Known(t.clone()),
                Data::Unknown | Data::Listing(..) => FileText::Unknown,
                Data::Nothing => FileText::Known(String::new()),
            };
            self.env.write_file(&r.target, text, r.op == ">>");
        }
    }
}

/// Whether a `>&` target names a descriptor (`2`, `-`, `3-`) rather than a file.
fn is_descriptor(word: &str) -> bool {
    let digits = word.strip_suffix('-').unwrap_or(word);
    word == "-" || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// Paths that name the process's own standard input.
pub(super) fn is_stdin_path(path: &str) -> bool {
    matches!(path, "/dev/stdin" | "-" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// Whether an and-or list leaves the shell when one of its commands fails: `... || exit 1`,
/// `... || return`, `... || { echo failed; exit 1; }`.
fn exits_on_failure(list: &ast::AndOrList) -> bool {
    let leaves = |text: &str| {
        let first = text.split_whitespace().next().unwrap_or_default();
        matches!(first.trim_end_matches(';'), "exit" | "return")
    };
    list.additional.iter().any(|next| {
        let ast::AndOr::Or(p) = next else {
            return false;
        };
        let text = p.to_string();
        let text = text.trim();
        match text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            Some(inner) => inner
                .trim()
                .trim_end_matches(';')
                .rsplit([';', '\n'])
                .next()
                .is_some_and(|last| leaves(last.trim())),
            None => leaves(text),
        }
    })
}

/// Whether the text of a loop's body appends to a variable (`s+=$s`, `a+=(x)`) or sets one
/// to a text holding itself (`s=$s$s`, `s="${s}x"`); arithmetic (`i=$((i + 1))`) is a
/// number, not a text that grows.
fn grows(body: &str) -> bool {
    let name_end = |at: usize| {
        body[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
            .last()
            .map(|(k, _)| k)
    };
    body.match_indices('=').any(|(at, _)| {
        let appends = at > 0 && body.as_bytes()[at - 1] == b'+';
        let name_at = if appends { at - 1 } else { at };
        let Some(start) = name_end(name_at) else {
            return false;
        };
        let name = &body[start..name_at];
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return false;
        }
        let value = body[at + 1..]
            .split(|c: char| c.is_whitespace() || c == ';')
            .next()
            .unwrap_or_default();
        // `i=$((i + 1))`, `((i+=1))`
        if value.starts_with("$((")
            || (appends && value.trim_end_matches(')').parse::<i64>().is_ok())
        {
            return false;
        }
        appends || value.contains(&format!("${name}")) || value.contains(&format!("${{{name}}}"))
    })
}

/// Whether `text` (a command as written) may use variable `name`: the name stands as a
/// word of its own in it (`$x`, `${x%/}`, `$((x + 1))`). More than `$name` is taken, as a
/// needless reading is only work.
fn names_variable(text: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// A word of `[[ ]]` as one value: it is not split there, so the fields the reader cut it
/// into are joined again; `None` when part of it is not known.
fn unsplit(fields: &[Field]) -> Option<String> {
    if fields.iter().any(|f| f.unknown) {
        return None;
    }
    let texts: Vec<&str> = fields.iter().map(|f| f.text.as_str()).collect();
    Some(texts.join(" "))
}
