//! Simple commands: expanded once per way their variables may hold, run through the program
//! table or inlined as a call of a function the line defined, and recorded.

use super::super::env::{Branches, FileText, Value};
use super::super::expand::Field;
use super::super::{MAX_COMMANDS, MAX_DEPTH, Redirect, SimpleCommand, programs};
use super::{Data, Io, Reader};
use brush_parser::ast;

/// Deepest function-call inlining.
const MAX_CALLS: usize = 8;

impl Reader {
    /// Reads a simple command once for each text of the variables it names that hold one
    /// of a few (`x=build; [ -n "$CI" ] && x=dist; rm -rf "$x"` runs `rm -rf build` or
    /// `rm -rf dist`), a few readings at most; past that, or without such variables, once
    /// with them unknown. Where each reading's own command was recorded is kept for
    /// [`judge_stream`](Self::judge_stream).
    pub(super) fn simple_each_way(&mut self, command: &ast::SimpleCommand, stdin: Data) -> Data {
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
            .try_fold(1usize, |n, (_, values)| n.checked_mul(values.len()))
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
            // The k-th combination: one value of each variable, counted in mixed radix.
            let mut rest = k;
            let mut given = Vec::new();
            for (name, values) in &ways {
                let value = values[rest % values.len()].clone();
                self.env.set_way(name, value.clone());
                given.push(value);
                rest /= values.len();
            }
            let read = self.simple(command, stdin.clone());
            starts.push(self.stage_start);
            // A variable the command did not set itself holds all its values again.
            for ((name, values), value) in ways.iter().zip(given) {
                if self.env.holds(name, &value) {
                    self.env.set_ways(name, values.clone());
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
    pub(super) fn simple(&mut self, command: &ast::SimpleCommand, stdin: Data) -> Data {
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
    pub(in crate::matcher::shell) fn run(
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
            self.unreadable("the program comes from a variable or a substitution");
        } else if first.glob {
            self.unreadable("the program name is a glob pattern");
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
                    true => super::super::expand::any_case(&f.text),
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
            && !self
                .env
                .files
                .contains_key(&super::super::env::file_key(&name));
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
            self.unreadable(why);
            return false;
        }
        let key = super::super::env::file_key(name);
        let interpreter = match self.env.files.get(&key) {
            Some(FileText::Known(text)) if text.contains('\0') => {
                self.env.files.remove(&key);
                return false;
            }
            Some(FileText::Known(text)) => super::super::host::shebang(text),
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
    pub(in crate::matcher::shell) fn record(&mut self, mut command: SimpleCommand) {
        if command.origin.is_none() {
            command.origin.clone_from(&self.origin);
        }
        command.dir = match self.env.get(super::super::env::DIR) {
            super::super::env::Value::Known(dir) => Some(dir),
            super::super::env::Value::Unknown => None,
        };
        if self.line.commands.len() >= MAX_COMMANDS {
            self.unreadable_line("the command holds too many commands");
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
        let as_sent = match super::super::programs::urls::as_sent(&command.program, &command.args) {
            Ok(urls) => urls.map(|args| SimpleCommand {
                args,
                ..command.clone()
            }),
            Err(super::super::programs::urls::TooMany) => {
                self.unreadable_line("curl's URL globs expand to too many requests");
                None
            }
        };
        // And as the processes its pattern picks: `pkill -f 'hook[g]ate'` stops hookgate.
        let picked =
            super::super::programs::signals::picks_gate_by_pattern(&command.program, &command.args)
                .then(|| SimpleCommand {
                    args: vec!["hookgate".to_owned()],
                    origin: Some("the processes its pattern picks".to_owned()),
                    ..command.clone()
                });
        let if_cd_failed = self
            .env
            .assigned(super::super::env::DIR_IF_CD_FAILED)
            .then(|| match self.env.get(super::super::env::DIR_IF_CD_FAILED) {
                super::super::env::Value::Known(dir) => Some(dir),
                super::super::env::Value::Unknown => None,
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

    pub(super) fn call(
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
            self.unreadable_line("the command nests too deeply");
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
            self.unreadable_line(
                "a function starts copies of itself in new processes (a fork bomb)",
            );
        }
        if self.calls.is_empty() {
            self.recursions.clear();
        }
        out
    }
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
