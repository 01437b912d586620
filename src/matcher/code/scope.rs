//! What a read keeps: the effects found so far, the first reason the code is unreadable, the
//! code that code runs (read next), a work budget; and the names a piece of code binds.

use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use tree_sitter::Node;

use super::{ENDLESS_DEVICES, Effect, Found, MAX_EFFECTS, Reading, Unread};

mod paths;

pub(super) use paths::{
    TEMP_DIR, any_of, curl_request, home, join, normalized, program_lookup, stays_a_name,
};

/// Why code that reads a device that never ends whole is not let through.
pub(super) const READS_ENDLESS: &str =
    "the code reads a device that never ends whole (a memory bomb)";

/// A value not known, quoted for the shell as one word (see [`Val::shell_quoted`]): the
/// shell reader never knows `$RANDOM`; a `sh -c` line holding it is shown, and predicted,
/// with the reader's placeholder in its place.
pub(crate) const QUOTED_NOT_KNOWN: &str = "\"$RANDOM\"";

/// A value in code, as far as it is known before the code runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Val {
    /// Exactly this text. A home directory is written `~` at the start of a path, as the
    /// shell reader writes it.
    Known(String),
    /// Not known before the code runs.
    Unknown,
    /// Not known, but known to start with this text (`home + '/.ssh/' + name`): as a path,
    /// it names something that matches `TEXT*`.
    Prefix(String),
    /// Not known, but a name in this directory (the text, ending in `/`, or empty for the
    /// working directory): a name with no `/` in it (`path.with_name(name)`, which
    /// pathlib refuses otherwise). As a path, it names something that matches `TEXT*`.
    NameIn(String),
    /// Data the code received from the network or decoded (base64, hex, zlib): running it
    /// runs what was hidden.
    Fetched,
}

impl Val {
    /// A known text.
    pub fn known(text: impl Into<String>) -> Val {
        Val::Known(text.into())
    }

    /// The text, if known.
    pub fn text(&self) -> Option<&str> {
        match self {
            Val::Known(t) => Some(t),
            _ => None,
        }
    }

    /// Whether this is a device that never ends (`/dev/zero`): read or copied to its end, it
    /// fills memory or the disk.
    pub fn is_endless_device(&self) -> bool {
        self.text().is_some_and(|p| ENDLESS_DEVICES.contains(&p))
    }

    /// Whether this is true as a condition, where the known texts `falsy` are false and
    /// the texts `unsure` may be either (`0` is a number in one place, a string in
    /// another): `None` when that is not known.
    pub fn truth(&self, falsy: &[&str], unsure: &[&str]) -> Option<bool> {
        match self {
            Val::Known(t) if unsure.contains(&t.as_str()) => None,
            Val::Known(t) => Some(!falsy.contains(&t.as_str())),
            Val::Prefix(p) if !p.is_empty() => Some(true),
            _ => None,
        }
    }

    /// The value quoted as one shell word (PHP's `escapeshellarg`): a part not known is a
    /// quoted `$RANDOM`, which the shell reader never knows, so the word stays one word
    /// and nothing in it runs. Downloaded data stays [`Val::Fetched`].
    pub fn shell_quoted(self) -> Val {
        // The home directory, written `~` (see [`Val::Known`]), stays the shell's `~`.
        // A tilde is the home only up to the first slash not quoted.
        let quote = |s: &str| {
            let (home, rest) = match s.strip_prefix("~/") {
                Some(rest) => ("~/", rest),
                None if s == "~" => return s.to_owned(),
                None => ("", s),
            };
            if rest.is_empty() {
                return home.to_owned();
            }
            format!("{home}'{}'", rest.replace('\'', "'\\''"))
        };
        match self {
            Val::Known(s) => Val::Known(quote(&s)),
            Val::Prefix(s) | Val::NameIn(s) if !s.is_empty() => {
                Val::Known(format!("{}{QUOTED_NOT_KNOWN}", quote(&s)))
            }
            Val::Unknown | Val::Prefix(_) | Val::NameIn(_) => Val::known(QUOTED_NOT_KNOWN),
            Val::Fetched => Val::Fetched,
        }
    }

    /// `items` joined with `sep`: known when every item is, downloaded when one was.
    pub(crate) fn joined(items: &[Val], sep: &str) -> Val {
        let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
        match texts {
            Some(t) => Val::Known(t.join(sep)),
            None if items.contains(&Val::Fetched) => Val::Fetched,
            None => Val::Unknown,
        }
    }

    /// Items each quoted for the shell ([`Val::shell_quoted`]) and joined with `sep`, of a
    /// list that is `None` when not known (`shlex.join(files)`, `' '.join(map(shlex.quote,
    /// files))`): then, joined with spaces, words not known that run nothing, the quoted
    /// `"$RANDOM"`; with any other separator, not known.
    pub(crate) fn shell_joined(items: Option<Vec<Val>>, sep: &str) -> Val {
        match items {
            Some(items) => Val::joined(
                &items.into_iter().map(Val::shell_quoted).collect::<Vec<_>>(),
                sep,
            ),
            None if !sep.is_empty() && sep.bytes().all(|b| b == b' ') => {
                Val::known(QUOTED_NOT_KNOWN)
            }
            None => Val::Unknown,
        }
    }

    /// `self` followed by `next`.
    pub fn concat(self, next: Val) -> Val {
        match (self, next) {
            (Val::Known(mut a), Val::Known(b)) => {
                a.push_str(&b);
                Val::Known(a)
            }
            (Val::Fetched, _) | (_, Val::Fetched) => Val::Fetched,
            (Val::Known(a), Val::Prefix(b)) => Val::Prefix(a + &b),
            (Val::Known(a), Val::NameIn(b)) => Val::Prefix(a + &b),
            (Val::Known(a) | Val::Prefix(a) | Val::NameIn(a), _) if !a.is_empty() => Val::Prefix(a),
            _ => Val::Unknown,
        }
    }
}

/// Programs that send what they are given over the network, named in a shell line.
const NETWORK_PROGRAMS: &[&str] = &[
    "curl", "wget", "nc", "ncat", "netcat", "socat", "ssh", "scp", "sftp", "rsync", "telnet", "ftp",
];

/// Work allowed per byte of code, and on top: bounds the walk whatever the code repeats.
const STEPS_PER_BYTE: usize = 16;
const STEPS_BASE: usize = 10_000;

/// The state of one read, shared by the code it reads and the code that code runs.
pub(super) struct Cx {
    found: Vec<Found>,
    unreadable: Option<Unread>,
    nested: Vec<(String, usize)>,
    /// The names of the code just read, as the code it runs sees them (see [`Outer`]).
    outer: Rc<Outer>,
    /// The names of the code that ran the code being read.
    inherited: Rc<Outer>,
    steps: usize,
    budget: usize,
    /// Parse work left (see [`PARSE_WORK`](super::PARSE_WORK)).
    pub(super) parse_work: usize,
    /// The script arguments the code runs with (`sys.argv[1:]`, `@ARGV`), and where the
    /// code came from (see [`Origin`](super::Origin)).
    args: Vec<Val>,
    origin: super::Origin,
    /// The lines of forks and of processes or threads started, which no virtual command
    /// stands for.
    forks: Vec<usize>,
    /// The directory of the script file being read (`__DIR__`, `__dirname`), relative to
    /// the line's directory; `.` for inline code.
    script_dir: String,
    /// Environment variables the command line gives the program (`DEV=/dev/sda python3
    /// -c ...`).
    env: Vec<(String, Val)>,
    /// The bytes of the call being read, where a reader says (see [`Cx::enter_call`]).
    call: Option<Range<usize>>,
    /// The bytes of the call each of `found` came from, when known.
    calls: Vec<Option<Range<usize>>>,
}

/// Where an effect was found: its line, and the bytes of the call it came from when the
/// reader knows them (a function on one line with other code is told apart by its bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Site {
    pub(super) line: usize,
    pub(super) bytes: Option<Range<usize>>,
}

impl Cx {
    pub(super) fn new(parse_work: usize) -> Cx {
        Cx {
            found: Vec::new(),
            unreadable: None,
            nested: Vec::new(),
            outer: Rc::default(),
            inherited: Rc::default(),
            steps: 0,
            budget: STEPS_BASE,
            parse_work,
            args: Vec::new(),
            origin: super::Origin::Elsewhere,
            forks: Vec::new(),
            script_dir: ".".to_owned(),
            env: Vec::new(),
            call: None,
            calls: Vec::new(),
        }
    }

    /// The code is the script file at `path`: its directory is `__DIR__`.
    pub(super) fn in_script(mut self, path: Option<&str>) -> Cx {
        if let Some((dir, _)) = path.and_then(|p| p.rsplit_once('/')) {
            self.script_dir = if dir.is_empty() { "/" } else { dir }.to_owned();
        }
        self
    }

    /// The directory of the script file being read (see [`Cx::in_script`]).
    pub(super) fn script_dir(&self) -> Val {
        Val::Known(self.script_dir.clone())
    }

    /// This context, for code from `origin` run with the script arguments `args`.
    pub(super) fn with_args(mut self, args: &[Val], origin: super::Origin) -> Cx {
        self.args = args.to_vec();
        self.origin = origin;
        self
    }

    /// Where the code came from (see [`Origin`](super::Origin)).
    pub(super) fn origin(&self) -> super::Origin {
        self.origin
    }

    pub(super) fn with_env(mut self, env: &[(String, Val)]) -> Cx {
        self.env = env.to_vec();
        self
    }

    /// The value of environment variable `name`: what the command line gives it, else
    /// the home directory for `HOME`; any other is not known.
    pub(super) fn env(&self, name: &str) -> Val {
        match self.env.iter().rev().find(|(n, _)| n == name) {
            Some((_, value)) => value.clone(),
            None if name == "HOME" => Val::known("~"),
            None => Val::Unknown,
        }
    }

    /// Script argument `n` (from 0, the first after the code), not known past the last.
    pub(super) fn arg(&self, n: usize) -> Val {
        self.args.get(n).cloned().unwrap_or(Val::Unknown)
    }

    /// The script arguments, all of them; `None` where they are not given (see
    /// [`Origin::Elsewhere`](super::Origin::Elsewhere)).
    pub(super) fn args(&self) -> Option<&[Val]> {
        (self.origin != super::Origin::Elsewhere).then_some(&self.args[..])
    }

    /// Allows work in proportion to `bytes` more of code.
    pub(super) fn allow(&mut self, bytes: usize) {
        self.budget = self
            .budget
            .saturating_add(bytes.saturating_mul(STEPS_PER_BYTE));
    }

    /// Spends one step; false (and the read is unreadable) once the budget is gone.
    pub(super) fn step(&mut self, line: usize) -> bool {
        self.steps += 1;
        if self.steps > self.budget {
            self.unreadable("the code is too complex to read in time", line);
            return false;
        }
        true
    }

    /// Enters a node at `depth` of a walk: false (and the read is unreadable) past the nesting
    /// bound or the work budget.
    pub(super) fn enter(&mut self, depth: usize, line: usize) -> bool {
        if depth > 2 * super::tree::MAX_NESTING {
            self.unreadable("the code nests too deeply to read", line);
            return false;
        }
        self.step(line)
    }

    /// Records an effect at `line`.
    pub(super) fn found(&mut self, effect: Effect, line: usize) {
        if self.found.len() >= MAX_EFFECTS {
            self.unreadable("the code does too many things to list", line);
            return;
        }
        self.found.push(Found { effect, line });
        self.calls.push(self.call.clone());
    }

    /// How many effects have been found: a mark for [`Cx::drop_repeats`].
    pub(super) fn found_so_far(&self) -> usize {
        self.found.len()
    }

    /// Drops each effect found since `mark` that repeats one found since it at the same
    /// line (a call read once each way its choices go finds what no choice changes once
    /// each way).
    pub(super) fn drop_repeats(&mut self, mark: usize) {
        let found = self.found.split_off(mark.min(self.found.len()));
        let calls = self.calls.split_off(mark.min(self.calls.len()));
        let mut seen = std::collections::HashSet::new();
        for (found, call) in found.into_iter().zip(calls) {
            if seen.insert(found.clone()) {
                self.found.push(found);
                self.calls.push(call);
            }
        }
    }

    /// What is found from here on comes from the call at `bytes` of the code, until
    /// [`Cx::leave_call`] with what this returns.
    pub(super) fn enter_call(&mut self, bytes: Range<usize>) -> Option<Range<usize>> {
        self.call.replace(bytes)
    }

    pub(super) fn leave_call(&mut self, outer: Option<Range<usize>>) {
        self.call = outer;
    }

    /// Records a fork, or a process or thread started by the language's own library
    /// (`os.fork()`, `multiprocessing.Process(...)`), at `line`: no command to check, but in
    /// code that does not end, a fork bomb.
    pub(super) fn forked(&mut self, line: usize) {
        self.forks.push(line);
    }

    /// Where the code has started programs, written files or forked since the first
    /// `found` effects and `forks` forks: `(found, forks)` is a [`Cx::mark`].
    pub(super) fn spawned_since(&self, (found, forks): (usize, usize)) -> Vec<Site> {
        let starts = self
            .found
            .iter()
            .zip(&self.calls)
            .skip(found)
            .filter(|(f, _)| match &f.effect {
                Effect::Shell(_) | Effect::Exec(_) | Effect::Load(_) => true,
                Effect::Command(program, _) => matches!(*program, "tee" | "cp" | "dd" | "mkdir"),
                Effect::Write(..) => true,
                Effect::ModulePath(_) => false,
            });
        // A program starts at its call; a file opened for writing is written wherever the
        // handle goes later (`w = createWriteStream(p)`, then `w.write(b)` in a function),
        // so a write is placed by its line only.
        starts
            .map(|(f, bytes)| Site {
                line: f.line,
                bytes: match f.effect {
                    Effect::Shell(_) | Effect::Exec(_) | Effect::Load(_) => bytes.clone(),
                    _ => None,
                },
            })
            .chain(
                self.forks
                    .iter()
                    .skip(forks)
                    .map(|&line| Site { line, bytes: None }),
            )
            .collect()
    }

    /// How much has been found so far, for [`Cx::spawned_since`].
    pub(super) fn mark(&self) -> (usize, usize) {
        (self.found.len(), self.forks.len())
    }

    /// Records a write of `text` to the file `args` name (see [`Effect::Write`]).
    pub(super) fn write(&mut self, args: Vec<Val>, text: Val, line: usize) {
        self.found(Effect::Write(args, text), line);
    }

    /// Records a virtual command.
    pub(super) fn command(&mut self, program: &'static str, args: Vec<Val>, line: usize) {
        self.found(Effect::Command(program, args), line);
    }

    /// Records a read of the whole file at `path` (`File.read(p)`, `readFileSync(p)`).
    pub(super) fn read_whole(&mut self, path: Val, line: usize) {
        self.ends(&path, line);
        self.command("cat", vec![path], line);
    }

    /// A file read to its end: a device that never ends (`/dev/zero`) fills memory, and
    /// the code is unreadable.
    pub(super) fn ends(&mut self, path: &Val, line: usize) {
        if path.is_endless_device() {
            self.unreadable(READS_ENDLESS, line);
        }
    }

    /// Records why the code cannot be read (the first reason is kept).
    pub(super) fn unreadable(&mut self, reason: &'static str, line: usize) {
        self.unreadable.get_or_insert(Unread { reason, line });
    }

    /// Code the code runs in its own language (`exec(...)`, `eval(...)`): read after the
    /// code that runs it, or unreadable when it is not known.
    pub(super) fn eval(&mut self, code: Val, line: usize) {
        match code {
            Val::Known(text) => self.nested.push((text, line)),
            Val::Fetched => self.unreadable("the code runs code it downloaded or decoded", line),
            Val::Unknown | Val::Prefix(_) | Val::NameIn(_) => self.unreadable(
                "the code runs code built at run time (an eval of a value not known before it runs)",
                line,
            ),
        }
    }

    /// The code the code just read runs, with that code's names (see [`Cx::publish`]).
    pub(super) fn take_nested(&mut self) -> (Vec<(String, usize)>, Rc<Outer>) {
        let outer = std::mem::take(&mut self.outer);
        (std::mem::take(&mut self.nested), outer)
    }

    /// Notes the names the code just read binds, for the code it runs (see [`Outer`]):
    /// those it was given by the code that ran it count too. Only code that runs code
    /// has them gathered.
    pub(super) fn publish(&mut self, names: &Names<'_>) {
        if self.nested.is_empty() {
            return;
        }
        let mut outer = Outer::default();
        for (name, slot) in &names.slots {
            match slot {
                Slot::Ref(q) => outer.refs.push((name.clone(), q.clone())),
                _ => outer.others.push(name.clone()),
            }
        }
        outer.others.extend(self.inherited.others.iter().cloned());
        self.outer = Rc::new(outer);
    }

    /// Binds in `names` the modules and functions the code that ran this code has.
    pub(super) fn inherit(&self, names: &mut Names<'_>) {
        for (name, q) in &self.inherited.refs {
            names.bind(name, Slot::Ref(q.clone()));
        }
    }

    /// Reads code this code runs with `outer` as the names of the code that ran it.
    pub(super) fn with_inherited(&mut self, outer: Rc<Outer>, read: impl FnOnce(&mut Cx)) {
        let saved = std::mem::replace(&mut self.inherited, outer);
        read(self);
        self.inherited = saved;
    }

    /// Why the code is unreadable when it reads a file whose name is not known and also reaches
    /// the network: the name may be a secret's (decoded, joined in a loop, read from a
    /// list) and what was read is sent; neither is known, so the pair is not allowed.
    fn unknown_read_sent(&self) -> Option<Unread> {
        let is =
            |f: &&Found, program: &str| matches!(&f.effect, Effect::Command(p, _) if *p == program);
        let read = self.found.iter().find(|f| {
            is(f, "cat")
                && matches!(&f.effect, Effect::Command(_, args)
                    if args.iter().any(|a| !matches!(a, Val::Known(t) if !t.contains('*'))))
        })?;
        // A shell line the code runs that names a network program (`io.popen("curl -d @-
        // URL", "w")`) reaches the network too.
        let network_line = |f: &Found| {
            let names_network = |t: &str| {
                t.contains("/dev/tcp/")
                    || t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '/' || c == '.'))
                        .any(|w| NETWORK_PROGRAMS.contains(&w.rsplit('/').next().unwrap_or(w)))
            };
            match &f.effect {
                Effect::Shell(line) => line.text().is_some_and(names_network),
                Effect::Exec(argv) => argv.iter().any(|a| a.text().is_some_and(names_network)),
                _ => false,
            }
        };
        self.found.iter().any(|f| is(&f, "curl") || network_line(f)).then_some(Unread {
            reason: "the code reads a file whose name is not known before it runs and sends data over the network",
            line: read.line,
        })
    }

    /// Why the code is unreadable when a path it acts on was decoded or downloaded at run time
    /// (`open(bytes.fromhex('2f6574632f736861646f77').decode())`). A URL taken from a
    /// response (the next page of an API) is only fetched.
    fn decoded_operand(&self) -> Option<Unread> {
        let found = self.found.iter().find(|f| match &f.effect {
            Effect::Command(program, args) => *program != "curl" && args.contains(&Val::Fetched),
            Effect::Write(args, _) => args.contains(&Val::Fetched),
            _ => false,
        })?;
        Some(Unread {
            reason: "the code acts on a path it decoded or downloaded at run time",
            line: found.line,
        })
    }

    pub(super) fn finish(mut self) -> Reading {
        if self.unreadable.is_none() {
            self.unreadable = self.decoded_operand().or_else(|| self.unknown_read_sent());
        }
        Reading {
            found: self.found,
            unreadable: self.unreadable,
        }
    }
}

/// The names a piece of code binds, as code it runs sees them: Python's `exec(s)` runs `s`
/// with the module's names (`exec('r("/home")')` after `from shutil import rmtree as r`),
/// JavaScript's `eval` and Ruby's with the names in scope. Modules and functions known by
/// qualified name are bound so in the code run. Any other is not known there: used as a
/// value, it is a value not known (an ERB template's `<%= klass %>`); called or reached
/// into (`x(...)`, `cp.execSync`, `t[k]`), it may be a function of the code's own or a
/// module under another name, and the code run is unreadable.
#[derive(Debug, Default)]
pub(super) struct Outer {
    refs: Vec<(String, String)>,
    others: Vec<String>,
}

impl Outer {
    /// A name of `others` that `code` calls or reaches into, if any: a word followed by
    /// `(`, `.`, `[`, `:` or `-` (`->`), wherever it is (a string's words count too).
    pub(super) fn called_in(&self, code: &str) -> Option<&str> {
        if self.others.is_empty() {
            return None;
        }
        let in_word = |c: char| c.is_alphanumeric() || c == '_';
        let mut called = std::collections::HashSet::new();
        let mut rest = code;
        while let Some(start) = rest.find(in_word) {
            let after = &rest[start..];
            let end = after.find(|c: char| !in_word(c)).unwrap_or(after.len());
            let next = after[end..].trim_start().chars().next();
            if matches!(next, Some('(' | '.' | '[' | ':' | '-')) {
                called.insert(&after[..end]);
            }
            rest = &after[end..];
        }
        self.others
            .iter()
            .map(|n| n.trim_start_matches(['$', '@', '%', '&']))
            .find(|n| called.contains(n))
    }
}

/// What a name is bound to in a piece of code, gathered before the walk: the code's
/// assignments are read without regard to order, so a name bound once is known everywhere
/// and a name bound more than once (or in a loop, or as a parameter) is not known.
#[derive(Clone)]
pub(super) enum Slot<'t> {
    /// Assigned once, to this expression.
    Expr(Node<'t>),
    /// Imported, or assigned a module or function: its qualified name (`os.path`,
    /// `subprocess.run`).
    Ref(String),
    /// The variable of a `for` over this expression, bound to each of its elements in turn
    /// (`for p in Path(d).glob('*')`).
    Each(Node<'t>),
    /// The variable at this place of a `for` that unpacks each element of this expression
    /// (`root`, `files` in `for root, dirs, files in os.walk(d)`).
    Part(Node<'t>, usize),
    /// Assigned the item at this place of this expression (`fd, path = mkstemp()`).
    Item(Node<'t>, usize),
    /// The variable of several `for`s, over these expressions (`for f in glob(a): ...`,
    /// later `for f in glob(b): ...`): in each loop's body, an element of its own.
    Loops(Vec<Node<'t>>),
    /// Assigned once, to this expression, then only grown by these statements (a list's
    /// `argv += ['-x']`): which of them ran before a read is for the language's reader to
    /// tell.
    Grown(Node<'t>, Vec<Node<'t>>),
    /// Assigned more than once, or in a way the reader does not follow.
    Many,
}

/// Most loops one variable is followed through (see [`Slot::Loops`]).
const MAX_LOOPS: usize = 8;
/// Most growths of one list followed (see [`Slot::Grown`]).
const MAX_GROWTHS: usize = 8;

/// The names of one piece of code.
#[derive(Default)]
pub(super) struct Names<'t> {
    slots: HashMap<String, Slot<'t>>,
    /// Modules imported with `*`: a bare name may be one of theirs.
    pub(super) star: Vec<String>,
    /// Names being evaluated: a name whose value depends on itself is not known.
    evaluating: Vec<String>,
}

impl<'t> Names<'t> {
    /// Binds `name`; a second binding makes it [`Slot::Many`].
    pub(super) fn bind(&mut self, name: &str, slot: Slot<'t>) {
        // The same module or function bound again (`import logging` and `import
        // logging.handlers` both bind `logging`) is still that one.
        let again = |s: &Slot<'t>| matches!((s, &slot), (Slot::Ref(a), Slot::Ref(b)) if a == b);
        match self.slots.get_mut(name) {
            Some(s) if again(s) => {}
            Some(s) => *s = Slot::Many,
            None => {
                self.slots.insert(name.to_owned(), slot);
            }
        }
    }

    /// Binds `name` as the variable of a `for` over `iterable`: the variable of several
    /// loops is each loop's own in its body (at most [`MAX_LOOPS`] of them).
    pub(super) fn bind_loop(&mut self, name: &str, iterable: Node<'t>) {
        match self.slots.get_mut(name) {
            Some(Slot::Each(first)) => {
                let first = *first;
                self.slots
                    .insert(name.to_owned(), Slot::Loops(vec![first, iterable]));
            }
            Some(Slot::Loops(loops)) if loops.len() < MAX_LOOPS => loops.push(iterable),
            _ => self.bind(name, Slot::Each(iterable)),
        }
    }

    /// Binds `name` to `slot` in place of what it was bound to (if anything), which is
    /// returned to be put back.
    pub(super) fn replace(&mut self, name: &str, slot: Option<Slot<'t>>) -> Option<Slot<'t>> {
        match slot {
            Some(slot) => self.slots.insert(name.to_owned(), slot),
            None => self.slots.remove(name),
        }
    }

    /// Notes that the statement `growth` adds to the value `name` is bound to (see
    /// [`Slot::Grown`]); a name not bound once before it, or grown past [`MAX_GROWTHS`],
    /// is not known. Whether it is still grown.
    pub(super) fn grow(&mut self, name: &str, growth: Node<'t>) -> bool {
        match self.slots.get_mut(name) {
            Some(Slot::Expr(first)) => {
                let first = *first;
                self.slots
                    .insert(name.to_owned(), Slot::Grown(first, vec![growth]));
            }
            Some(Slot::Grown(_, growths)) if growths.len() < MAX_GROWTHS => growths.push(growth),
            _ => {
                self.forget(name);
                return false;
            }
        }
        true
    }

    /// Marks `name` as not known (a parameter, a loop variable, `x += ...`).
    pub(super) fn forget(&mut self, name: &str) {
        self.slots.insert(name.to_owned(), Slot::Many);
    }

    pub(super) fn get(&self, name: &str) -> Option<&Slot<'t>> {
        self.slots.get(name)
    }

    /// Evaluates `name` with `eval`, unless it is already being evaluated (a cycle, or
    /// nesting past a bound), in which case it is not known.
    pub(super) fn enter(&mut self, name: &str) -> bool {
        if self.evaluating.len() >= 32 || self.evaluating.iter().any(|n| n == name) {
            return false;
        }
        self.evaluating.push(name.to_owned());
        true
    }

    pub(super) fn leave(&mut self) {
        self.evaluating.pop();
    }
}

#[cfg(test)]
mod tests;
