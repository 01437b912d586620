//! Scripts, lists and pipelines: what runs in sequence or side by side, and what flows on
//! standard input from one command to the next.

use super::super::{MAX_DEPTH, streams, syntax};
use super::{Data, Io, MAX_DEFINITIONS, Reader};
use brush_parser::ast;

/// The most `&&` steps whose "may not have run" is joined only when their chain ends.
const MAX_PENDING_JOINS: usize = 16;

impl Reader {
    /// Reads `text` as a script with `stdin` on its standard input; returns what it prints.
    pub(in crate::matcher::shell) fn script(&mut self, text: &str, stdin: Data) -> Data {
        if self.depth >= MAX_DEPTH {
            self.unreadable_line("the command nests too deeply");
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
                self.unreadable(reason);
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

    pub(super) fn list(&mut self, list: &ast::CompoundList, stdin: Data) -> Data {
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
        use super::super::env::{DIR, DIR_IF_CD_FAILED, Value};
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
    fn is_host_dir(&self, dir: &super::super::env::Value) -> bool {
        match (dir, &self.host) {
            (super::super::env::Value::Known(d), Some(host)) => host.is_dir(d),
            _ => false,
        }
    }

    fn and_or_items(&mut self, list: &ast::AndOrList, stdin: Data) -> Data {
        let mut out = self.pipeline(&list.first, stdin.clone());
        let mut pending = Vec::new();
        for next in &list.additional {
            // As in a list: past a bound the line is unreadable and nothing more is read.
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
    /// bomb makes the line unreadable.
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
    pub(in crate::matcher::shell) fn recorded(&self) -> usize {
        self.line.commands.len()
    }

    /// [`judge_stream`](Self::judge_stream) for the command recorded from `first` on,
    /// however it was found (a virtual command of interpreter code: `IO.copy_stream(
    /// "/dev/zero", f)` is `cp /dev/zero f`). Whether what it prints is endless.
    pub(in crate::matcher::shell) fn judge_recorded(
        &mut self,
        first: usize,
        endless_in: bool,
    ) -> bool {
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
            self.unreadable_line(reason);
        }
        outcome == streams::Outcome::Endless
    }

    pub(super) fn command(&mut self, command: &ast::Command, stdin: Data) -> Data {
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
                    self.unreadable_line("a function is defined too many times");
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
