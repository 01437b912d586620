//! A call's effect: the callee resolved to a qualified name, looked up in the table of
//! [`sinks`](super::sinks), and its arguments turned into the effect's values.

use tree_sitter::Node;

use super::sinks::{BY_NAME, Method, Sink, canonical, sink};
use super::values::{Args, enclosing_loop};
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::scope::{Slot, curl_request, join};
use crate::matcher::code::tree::{Visit, visit};

/// Methods that only `pathlib` paths have among the objects code commonly handles: called on
/// an object the reader does not follow, it is a path not known (`for f in self.files:
/// f.write_text(x)`).
pub(super) const PATH_ONLY_METHODS: &[&str] = &[
    "write_text",
    "write_bytes",
    "read_text",
    "read_bytes",
    "unlink",
    "rmdir",
    "touch",
    "symlink_to",
    "hardlink_to",
    "lchmod",
    "rename",
    "chmod",
    "mkdir",
];

/// A literal dictionary's key and value nodes; no value when it may have changed.
type Pair<'t> = (Node<'t>, Option<Node<'t>>);
use crate::matcher::code::{Effect, Val};

/// Modules every attribute of which only computes (no files, processes or network):
/// `getattr(hashlib, name)` with a name given at run time picks a hash, nothing more.
const INERT_MODULES: &[&str] = &[
    "hashlib",
    "json",
    "math",
    "cmath",
    "string",
    "textwrap",
    "unicodedata",
    "statistics",
    "random",
    "datetime",
    "decimal",
    "fractions",
    "calendar",
    "colorsys",
];

/// Whether `name` is a function `code` defines and binds no other way: it is defined
/// (`def name(`), and every other place it stands as a word of its own is followed by a
/// call's or an argument list's bracket or comma (not `=`, `in`, `as` or a line's end).
fn only_a_function(code: &str, name: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    code.contains(&format!("def {name}("))
        && code.match_indices(name).all(|(k, _)| {
            let rest = &code[k + name.len()..];
            word(code[..k].chars().next_back())
                || word(rest.chars().next())
                || matches!(
                    rest.trim_start_matches([' ', '\t']).chars().next(),
                    Some('(' | ',' | ')')
                )
        })
}

/// One round of a loop over a literal: each of the loop's names with its item.
pub(super) type Round<'t> = Vec<(String, Slot<'t>)>;

impl<'a, 't> Py<'a, '_, 't> {
    /// A name or an attribute used as a value: a function with effects passed, stored or
    /// returned is called where the reader does not follow, with arguments it does not
    /// know (`list(map(os.system, cmds))`, `{'x': os.system}['x'](c)`).
    pub(super) fn passed(&mut self, node: Node<'t>) {
        if kind(node) == "identifier" {
            let may_be_function = match self.names.get(self.text(node)).cloned() {
                // An item of a tuple may be a function (`f, g = os.remove, print`).
                Some(Slot::Ref(_) | Slot::Item(..)) | None => true,
                Some(Slot::Expr(value)) => {
                    matches!(kind(value), "attribute" | "identifier") || self.is_partial(value)
                }
                Some(Slot::Each(_) | Slot::Loops(_) | Slot::Part(..) | Slot::Many) => false,
            };
            if !may_be_function {
                return;
            }
        }
        let Obj::Ref(q) = self.eval(node, 0) else {
            return;
        };
        if sink(&canonical(&q)).is_none() {
            return;
        }
        if let Some(parent) = node.parent() {
            // A keyword's name (`f(system=1)`) and an assignment's target are not values.
            if matches!(kind(parent), "keyword_argument" | "assignment")
                && [by_field(parent, "name"), by_field(parent, "left")].contains(&Some(node))
            {
                return;
            }
            // `run = os.system`: a name bound once is followed where it is called; so is
            // `wipe = functools.partial(shutil.rmtree, ...)`.
            if self.bound_once(parent) {
                return;
            }
            if kind(parent) == "argument_list"
                && let Some(call) = parent.parent()
                && self.is_partial(call)
                && Args::of(self, call).first_is(node)
                && call.parent().is_some_and(|a| self.bound_once(a))
            {
                return;
            }
        }
        if self.called_by_library(node, &q) {
            return;
        }
        self.cx.opaque(
            "the code passes a function that runs commands or changes files as a value, to be called where it cannot be followed",
            self.line(node),
        );
    }

    /// A function with effects (`q`, passed as `node`) given to a library that calls it with
    /// arguments the reader knows, read as that call: `map(os.remove, glob.glob(p))` on
    /// each item (as `filter`), `stack.callback(os.remove, path)`, `atexit.register(f, *args)` and
    /// `weakref.finalize(obj, f, *args)` with the arguments after it. Whether it was.
    fn called_by_library(&mut self, node: Node<'t>, q: &str) -> bool {
        let Some(sink) = sink(&canonical(q)) else {
            return false;
        };
        // A partial function holds arguments of its own, which the library's call does not
        // show.
        if kind(node) == "identifier"
            && let Some(Slot::Expr(value)) = self.names.get(self.text(node)).cloned()
            && self.is_partial(value)
        {
            return false;
        }
        // `threading.Thread(target=f, args=(...), kwargs={...})`: `f` with those.
        if let Some(keyword) = node.parent().filter(|p| kind(*p) == "keyword_argument")
            && by_field(keyword, "name").is_some_and(|n| self.text(n) == "target")
            && let Some(call) = keyword
                .parent()
                .filter(|p| kind(*p) == "argument_list")
                .and_then(|p| p.parent())
            && let Some(function) = by_field(call, "function")
            && let Obj::Ref(class) = self.eval(function, 0)
            && matches!(
                canonical(&class).as_str(),
                "threading.Thread" | "multiprocessing.Process"
            )
        {
            let given = Args::of(self, call);
            let Some(args) = Args::literal(
                self,
                given.node(usize::MAX, "args"),
                given.node(usize::MAX, "kwargs"),
            ) else {
                return false;
            };
            let line = self.line(call);
            // Made in a loop over a literal list, once per item (`[Thread(target=f,
            // args=(d,)) for d in ('build', 'dist')]`).
            match self.loop_over_literal(call) {
                Some(rounds) => self.each_round(rounds, |py| py.run_sink(sink, &args, call, line)),
                None => self.run_sink(sink, &args, call, line),
            }
            return true;
        }
        let Some(call) = node
            .parent()
            .filter(|p| kind(*p) == "argument_list")
            .and_then(|p| p.parent())
        else {
            return false;
        };
        let Some(function) = by_field(call, "function") else {
            return false;
        };
        let library = match self.eval(function, 0) {
            Obj::Ref(c) => canonical(&c),
            Obj::Attr(a) => format!("?.{a}"),
            _ => return false,
        };
        let args = Args::of(self, call);
        let line = self.line(call);
        let at = match library.as_str() {
            "builtins.map" | "builtins.filter" => 0,
            "?.callback" | "atexit.register" => 0,
            "weakref.finalize" => 1,
            _ => return false,
        };
        if !args.is_positional(at, node) {
            return false;
        }
        // `map` and `filter` call the function on each item.
        if !matches!(library.as_str(), "builtins.map" | "builtins.filter") {
            self.run_sink(sink, &args.after(at + 1), call, line);
            return true;
        }
        let items = match args.pos(self, 1) {
            Obj::Each(element) => vec![element.val()],
            Obj::List(items) => items,
            other => vec![other.val()],
        };
        match sink {
            Sink::Command(program, flags, [0]) => {
                for item in items {
                    let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
                    argv.push(item);
                    self.cx.command(program, argv, line);
                }
            }
            Sink::Shell => {
                for item in items {
                    self.cx.found(Effect::Shell(item), line);
                }
            }
            _ => return false,
        }
        true
    }

    /// The effect of one call; once per item when its arguments name the variable of a
    /// loop over a literal list (`for d in ('build', 'dist'): shutil.rmtree(d)`).
    pub(super) fn call(&mut self, node: Node<'t>) {
        if let Some((name, arguments)) = self.loop_over_arguments(node) {
            for argument in arguments {
                self.arguments.push((name, argument));
                self.call_once(node);
                self.arguments.pop();
            }
            return;
        }
        let Some(rounds) = self.loop_over_literal(node) else {
            return self.call_once(node);
        };
        self.each_round(rounds, |py| py.call_once(node));
    }

    /// The value `f` evaluates, or [`Val::Fetched`] when a decoder made it: decoded bytes
    /// run as code or as a command are opaque, whatever they say.
    fn undecoded(&mut self, f: impl FnOnce(&mut Self) -> Val) -> Val {
        let before = std::mem::replace(&mut self.decoded, false);
        let value = f(self);
        match std::mem::replace(&mut self.decoded, before) {
            true if !matches!(value, Val::Unknown) => Val::Fetched,
            _ => value,
        }
    }

    /// Runs `f` once per round of a loop over a literal, with the loop's names bound to
    /// that round's items.
    pub(super) fn each_round(&mut self, rounds: Vec<Round<'t>>, mut f: impl FnMut(&mut Self)) {
        for round in rounds {
            let outer: Vec<_> = round
                .into_iter()
                .map(|(name, item)| {
                    let before = self.names.replace(&name, Some(item));
                    (name, before)
                })
                .collect();
            f(self);
            for (name, before) in outer.into_iter().rev() {
                self.names.replace(&name, before);
            }
        }
    }

    /// A name among `call`'s arguments that a loop binds to each of the script's arguments
    /// (`for t in sys.argv[1:]: shutil.rmtree(t)`), and those arguments, when the line
    /// gives a few and each is known.
    fn loop_over_arguments(&mut self, call: Node<'t>) -> Option<(&'a str, Vec<Val>)> {
        let arguments = by_field(call, "arguments")?;
        let mut c = arguments.walk();
        let names: Vec<Node<'t>> = arguments
            .named_children(&mut c)
            .filter(|a| kind(*a) == "identifier")
            .collect();
        for name in names {
            let Some(Slot::Each(iterable)) = self.names.get(self.text(name)).cloned() else {
                continue;
            };
            let (Some(value), Some(slice)) =
                (by_field(iterable, "value"), by_field(iterable, "subscript"))
            else {
                continue;
            };
            if kind(slice) != "slice"
                || !matches!(self.eval(value, 0), Obj::Ref(q) if q == "sys.argv")
            {
                continue;
            }
            let text = self.text(slice).replace(' ', "");
            let Some(from) = text.strip_suffix(':').and_then(|n| n.parse::<usize>().ok()) else {
                continue;
            };
            let given = self.cx.args().get(from.saturating_sub(1)..)?.to_vec();
            if from > 0
                && !given.is_empty()
                && given.len() <= 16
                && given.iter().all(|v| matches!(v, Val::Known(_)))
            {
                return Some((self.text(name), given));
            }
        }
        None
    }

    /// The first name in `call` (its arguments, or the object of a method it calls, and
    /// what the names there were assigned, a few assignments deep: `p = home / name;
    /// p.read_text()`) that a loop binds to each item of a literal list, tuple or set of a
    /// few items, and the rounds of that loop: each item, or for a loop that unpacks
    /// literal tuples (`for tool, args in [('git', ['--version']), ...]`), each tuple's
    /// parts, bound together.
    pub(super) fn loop_over_literal(&self, call: Node<'t>) -> Option<Vec<Round<'t>>> {
        const MOST_ITEMS: usize = 16;
        const MOST_ASSIGNMENTS: usize = 4;
        // Nodes looked at for one call: a call's arguments are read once per call, and a
        // chain of calls (`x.a().a()...`) must not make that the square of its length.
        const MOST_NODES: usize = 512;
        if !self.over_literals {
            return None;
        }
        // Its arguments, and the name a method is called on (not the calls before it).
        let function = by_field(call, "function");
        let object = function.and_then(|f| match kind(f) {
            "attribute" => by_field(f, "object"),
            _ => Some(f),
        });
        // The object may be a call (`Path('/proc/sys', k).write_text(v)`); a chain of calls
        // is searched only as far as `MOST_NODES` goes.
        let mut search: Vec<Node<'t>> = by_field(call, "arguments")
            .into_iter()
            .chain(object.filter(|o| matches!(kind(*o), "identifier" | "call")))
            .collect();
        let mut followed = 0;
        let mut nodes = 0;
        while let Some(root) = search.pop() {
            let mut found = None;
            let mut assigned = Vec::new();
            visit(root, |node, _, at| {
                if found.is_some() || at == Visit::Leave || nodes >= MOST_NODES {
                    return false;
                }
                nodes += 1;
                // A comprehension's own variable is read by its value (`over_literal`).
                if matches!(
                    kind(node),
                    "generator_expression"
                        | "list_comprehension"
                        | "set_comprehension"
                        | "dictionary_comprehension"
                ) {
                    return false;
                }
                if kind(node) == "identifier" {
                    let looped = match self.names.get(self.text(node)) {
                        Some(Slot::Each(iterable)) => Some(*iterable),
                        Some(Slot::Loops(iterables)) => enclosing_loop(node, iterables),
                        _ => None,
                    };
                    match self.names.get(self.text(node)) {
                        // The first name of `for k, v in D.items()`: both names, together.
                        Some(Slot::Each(iterable))
                            if let Some(rounds) = self.unpacked_literal(*iterable, MOST_ITEMS) =>
                        {
                            found = Some(rounds);
                        }
                        Some(Slot::Each(_) | Slot::Loops(_))
                            if let Some(items) = looped.and_then(|i| self.literal_items(i, 0))
                                && !items.is_empty()
                                && items.len() <= MOST_ITEMS =>
                        {
                            let name = self.text(node);
                            found = Some(
                                items
                                    .into_iter()
                                    .map(|item| vec![(name.to_owned(), item)])
                                    .collect(),
                            );
                        }
                        Some(Slot::Part(iterable, _))
                            if let Some(rounds) = self.unpacked_literal(*iterable, MOST_ITEMS) =>
                        {
                            found = Some(rounds);
                        }
                        Some(Slot::Expr(value)) => assigned.push(*value),
                        _ => {}
                    }
                }
                true
            });
            if found.is_some() {
                return found;
            }
            for value in assigned {
                if followed < MOST_ASSIGNMENTS {
                    followed += 1;
                    search.push(value);
                }
            }
        }
        None
    }

    /// The rounds of a `for` that unpacks each item of `iterable`, a literal of at most
    /// `most` literal tuples (or lists) as long as its names: each name bound to its part.
    fn unpacked_literal(&self, iterable: Node<'t>, most: usize) -> Option<Vec<Round<'t>>> {
        let pattern = iterable
            .parent()
            .filter(|f| matches!(kind(*f), "for_statement" | "for_in_clause"))
            .and_then(|f| by_field(f, "left"))?;
        let mut c = pattern.walk();
        let names: Vec<&'a str> = pattern
            .named_children(&mut c)
            .map(|n| (kind(n) == "identifier").then(|| self.text(n)))
            .collect::<Option<_>>()?;
        // `for k, v in D.items()` of a dictionary that stays as written: its pairs.
        if let Some(pairs) = self.constant_dict_items(iterable)
            && names.len() == 2
        {
            if pairs.is_empty() || pairs.len() > most {
                return None;
            }
            return Some(
                pairs
                    .into_iter()
                    .map(|(k, v)| {
                        vec![
                            (names[0].to_owned(), Slot::Expr(k)),
                            (names[1].to_owned(), v.map_or(Slot::Many, Slot::Expr)),
                        ]
                    })
                    .collect(),
            );
        }
        let items = self.literal_items(iterable, 0)?;
        if items.is_empty() || items.len() > most {
            return None;
        }
        items
            .into_iter()
            .map(|item| {
                let Slot::Expr(tuple) = item else { return None };
                if !matches!(kind(tuple), "tuple" | "list") {
                    return None;
                }
                let mut c = tuple.walk();
                let parts: Vec<Node<'t>> = tuple.named_children(&mut c).collect();
                if parts.len() != names.len() || parts.iter().any(|p| kind(*p) == "list_splat") {
                    return None;
                }
                Some(
                    names
                        .iter()
                        .zip(parts)
                        .map(|(name, part)| ((*name).to_owned(), Slot::Expr(part)))
                        .collect(),
                )
            })
            .collect()
    }

    /// The key and value nodes of `D.items()`, when `D` is a literal dictionary, or a name
    /// bound once to one that stays as written (see `values::stays_as_written`).
    ///
    /// A value is `None` when the items may have been changed in place since (the keys are
    /// still the literal's).
    fn constant_dict_items(&self, iterable: Node<'t>) -> Option<Vec<Pair<'t>>> {
        if super::dict_view(self, iterable)? != "items" {
            return None;
        }
        let object = by_field(iterable, "function").and_then(|f| by_field(f, "object"))?;
        let (dict, changed) = match kind(object) {
            "dictionary" => (object, false),
            "identifier" => {
                let dict = self.constant_shape(object, &["dictionary"])?;
                (dict, self.items_may_change(object, dict))
            }
            _ => return None,
        };
        let mut c = dict.walk();
        dict.named_children(&mut c)
            .filter(|e| kind(*e) != "comment")
            .map(|pair| match kind(pair) {
                "pair" => Some((
                    by_field(pair, "key")?,
                    Some(by_field(pair, "value")?).filter(|_| !changed),
                )),
                _ => None,
            })
            .collect()
    }

    /// The items a loop over `iterable` takes in turn, when it is a literal list, tuple or
    /// set, or such a literal joined by `+` to other iterables (`['build'] +
    /// glob.glob('src/*.egg-info')`): each literal item as itself, each other part as its
    /// elements.
    fn literal_items(&self, iterable: Node<'t>, depth: usize) -> Option<Vec<Slot<'t>>> {
        match kind(iterable) {
            "list" | "tuple" | "set" => {
                let mut c = iterable.walk();
                Some(iterable.named_children(&mut c).map(Slot::Expr).collect())
            }
            // A dictionary's keys: the literal's own (`for p in {'a': 1}`), or those of its
            // `.items()`/`.keys()`, of a literal or a name bound once to one.
            "dictionary" => dict_keys(iterable),
            "call" => {
                let object = by_field(iterable, "function").and_then(|f| by_field(f, "object"))?;
                super::dict_view(self, iterable)?;
                match kind(object) {
                    "dictionary" => dict_keys(object),
                    _ => dict_keys(self.constant_shape(object, &["dictionary"])?),
                }
            }
            // A name bound once to a literal that stays as written (`DIRS = ['build',
            // 'dist']`, then `for d in DIRS`).
            "identifier" if depth < 4 => {
                let literal =
                    self.constant_literal(iterable, &["list", "tuple", "set", "dictionary"])?;
                self.literal_items(literal, depth + 1)
            }
            "binary_operator"
                if depth < 4
                    && by_field(iterable, "operator").is_some_and(|o| self.text(o) == "+") =>
            {
                let (left, right) = (by_field(iterable, "left")?, by_field(iterable, "right")?);
                let part = |side: Node<'t>| self.literal_items(side, depth + 1).ok_or(side);
                match (part(left), part(right)) {
                    (Err(_), Err(_)) => None,
                    (l, r) => {
                        let mut items = Vec::new();
                        for side in [l, r] {
                            match side {
                                Ok(literal) => items.extend(literal),
                                Err(other) => items.push(Slot::Each(other)),
                            }
                        }
                        Some(items)
                    }
                }
            }
            _ => None,
        }
    }

    fn call_once(&mut self, node: Node<'t>) {
        let outer = self.narrowed.len();
        let outer_call = self.cx.enter_call(node.byte_range());
        self.call_effect(node);
        self.cx.leave_call(outer_call);
        self.narrowed.truncate(outer);
    }

    /// Narrows the loop variables the `if`s around `call` test, for the arguments read next
    /// (`call_once` drops them after the call). Only a call with effects looks: tree-sitter
    /// finds a parent by walking down from the root, so every call looking would cost the
    /// square of the depth.
    fn enter_guards(&mut self, call: Node<'t>) {
        let guards = self.guards(call);
        self.narrowed.extend(guards);
    }

    /// Whether `node` is an assignment to a name bound once.
    fn bound_once(&self, node: Node<'t>) -> bool {
        kind(node) == "assignment"
            && by_field(node, "left").is_some_and(|left| {
                kind(left) == "identifier"
                    && matches!(self.names.get(self.text(left)), Some(Slot::Expr(_)))
            })
    }

    /// Whether `call` is `functools.partial(f, ...)`.
    fn is_partial(&mut self, call: Node<'t>) -> bool {
        kind(call) == "call"
            && by_field(call, "function").is_some_and(
                |f| matches!(self.eval(f, 0), Obj::Ref(q) if canonical(&q) == "functools.partial"),
            )
    }

    /// The arguments of `call`: for a name bound to `functools.partial(f, a, k=v)`, the
    /// partial's own (after `f`) first, the call's after them, its keywords over the
    /// partial's.
    fn arguments(&mut self, call: Node<'t>) -> Args<'t> {
        let args = Args::of(self, call);
        let partial = by_field(call, "function")
            .filter(|f| kind(*f) == "identifier")
            .and_then(|f| match self.names.get(self.text(f)) {
                Some(Slot::Expr(value)) => Some(*value),
                _ => None,
            })
            .filter(|value| self.is_partial(*value));
        match partial {
            Some(partial) => Args::of(self, partial).then(args),
            None => args,
        }
    }

    /// The file whose text `node` reads whole, when it is `open(PATH).read()` or
    /// `Path(PATH).read_text()` (or `read_bytes`) with a known path.
    /// The source `node` compiles, when it is `compile(SOURCE, name, mode)`; else `node`.
    fn compiled(&mut self, node: Node<'t>) -> Node<'t> {
        let compiles = kind(node) == "call"
            && by_field(node, "function").is_some_and(
                |f| matches!(self.eval(f, 0), Obj::Ref(q) if canonical(&q) == "builtins.compile"),
            );
        match compiles {
            true => Args::of(self, node).node(0, "source").unwrap_or(node),
            false => node,
        }
    }

    pub(super) fn file_read(&mut self, node: Node<'t>) -> Option<Val> {
        let function = by_field(node, "function").filter(|_| kind(node) == "call")?;
        let method = by_field(function, "attribute").filter(|_| kind(function) == "attribute")?;
        if !matches!(self.text(method), "read" | "read_text" | "read_bytes")
            || Args::of(self, node).count() != 0
        {
            return None;
        }
        let object = by_field(function, "object")?;
        self.opened(object)
    }

    /// The path of the file `node` opens (`open(p)`, `Path(p)`), if it is known.
    fn opened(&mut self, node: Node<'t>) -> Option<Val> {
        // A name bound once to what opened it (`f = open(p)`, `with open(p) as f`).
        if kind(node) == "identifier"
            && let Some(Slot::Expr(value)) = self.names.get(self.text(node)).cloned()
            && kind(value) == "call"
            && self.names.enter(self.text(node))
        {
            let path = self.opened(value);
            self.names.leave();
            return path;
        }
        let path = match self.eval(node, 0) {
            Obj::Path(p) => p,
            _ if kind(node) == "call" => {
                let opener = by_field(node, "function")?;
                match self.eval(opener, 0) {
                    Obj::Ref(q)
                        if matches!(canonical(&q).as_str(), "builtins.open" | "io.open") =>
                    {
                        Args::of(self, node).pos(self, 0).val()
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        matches!(path, Val::Known(_)).then_some(path)
    }

    /// Whether what `call` returns is dropped: a statement of its own, a `with` that binds
    /// no name, or closed at once (`f().close()`).
    fn result_unused(&self, call: Node<'t>) -> bool {
        let Some(parent) = call.parent() else {
            return false;
        };
        match kind(parent) {
            "expression_statement" | "with_item" => true,
            "attribute" => {
                by_field(parent, "attribute").is_some_and(|a| self.text(a) == "close")
                    && parent.parent().is_some_and(|p| kind(p) == "call")
            }
            _ => false,
        }
    }

    /// What is written to the file `open` (the call `opened`) opened, when that is all
    /// that is done with it: `open(p, 'w').write(TEXT)`, or the `write` calls of a `with
    /// open(p, 'w') as f:` that uses `f` for nothing else, their texts joined in order.
    fn written_text(&mut self, opened: Node<'t>) -> Option<Val> {
        let parent = opened.parent()?;
        let is_write = |py: &Self, attribute: Node<'t>| {
            by_field(attribute, "attribute").is_some_and(|a| py.text(a) == "write")
        };
        if kind(parent) == "attribute" {
            let call = parent.parent().filter(|c| kind(*c) == "call")?;
            return is_write(self, parent).then(|| Args::of(self, call).pos(self, 0).val());
        }
        // as_pattern > with_item > with_clause > with_statement
        let alias = by_field(parent, "alias").filter(|_| kind(parent) == "as_pattern")?;
        let name = self.text(alias.named_child(0).filter(|n| kind(*n) == "identifier")?);
        let statement = parent.parent()?.parent()?.parent()?;
        let body = by_field(statement, "body").filter(|_| kind(statement) == "with_statement")?;
        let mut writes = Vec::new();
        let mut other_use = false;
        let mut seen = 0;
        visit(body, |node, _, at| {
            if !matches!(at, Visit::Enter) {
                return false;
            }
            seen += 1;
            if seen > 512 || other_use {
                return false;
            }
            if kind(node) == "identifier" && self.text(node) == name {
                let write_call = node
                    .parent()
                    .filter(|a| kind(*a) == "attribute" && is_write(self, *a))
                    .and_then(|a| a.parent())
                    .filter(|c| kind(*c) == "call");
                match write_call {
                    Some(call) => writes.push(call),
                    None => other_use = true,
                }
            }
            true
        });
        if other_use || seen > 512 || writes.is_empty() {
            return None;
        }
        let mut text = Val::known("");
        for call in writes {
            let part = Args::of(self, call).pos(self, 0).val();
            text = text.concat(part);
        }
        Some(text)
    }

    fn call_effect(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(function) = by_field(node, "function") else {
            return;
        };
        // Libraries that fetch code from a model hub and run it when told to trust it
        // (`from_pretrained(name, trust_remote_code=True)`, `torch.hub.load(repo, m,
        // trust_repo=True)`), whatever the library.
        if trusts_remote_code(self.src.text, node) {
            self.cx.eval(Val::Fetched, line);
        }
        let callee = self.eval(function, 0);
        // Most calls (`print`, `json.load`) are not sinks: their arguments are not gathered.
        let name = match &callee {
            Obj::Ref(q) => canonical(q),
            Obj::PathMethod(..) => {
                self.enter_guards(node);
                // The path again, now that the `if`s around the call narrow the loop
                // variable it may be (`if p.suffix == '.md': p.read_text()`).
                if let Obj::PathMethod(path, method) = self.eval(function, 0) {
                    let args = self.arguments(node);
                    self.path_method(path, &method, &args, line);
                }
                return;
            }
            // A method only a path has, on an object not followed (a loop variable over
            // something not known, an attribute): a path not known, as `Path(?)` would be.
            Obj::Attr(attr) if PATH_ONLY_METHODS.contains(&attr.as_str()) => {
                self.enter_guards(node);
                let args = self.arguments(node);
                self.path_method(Val::Unknown, attr, &args, line);
                return;
            }
            // `x.replace(dst)`: a string's `replace` takes two arguments, a path's one (it
            // moves the file).
            Obj::Attr(attr) | Obj::StrMethod(_, attr)
                if attr == "replace" && Args::of(self, node).count() == 1 =>
            {
                let path = match &callee {
                    Obj::StrMethod(v, _) => v.clone(),
                    _ => Val::Unknown,
                };
                self.enter_guards(node);
                let args = self.arguments(node);
                self.path_method(path, "replace", &args, line);
                return;
            }
            // Only the name is known (`ctypes.CDLL(None).system`): the calls that run
            // commands are recognised by name alone.
            Obj::Attr(attr) if BY_NAME.contains(&attr.as_str()) => format!("?.{attr}"),
            Obj::Attr(attr) if attr == "connect" => "?.connect".to_owned(),
            _ => return,
        };
        if let Some(words) = gitpython(&name) {
            self.enter_guards(node);
            let args = self.arguments(node);
            let mut argv: Vec<Val> = words.into_iter().map(Val::Known).collect();
            argv.extend(args.positional_from(self, 0));
            argv.extend(args.as_options(self));
            self.cx.command("git", argv, line);
            return;
        }
        let Some(sink) = sink(&name) else { return };
        self.enter_guards(node);
        let args = self.arguments(node);
        if name == "?.connect" && !matches!(args.pos(self, 0), Obj::List(_)) {
            return;
        }
        // Once each way the conditionals in its arguments can go.
        let conditionals = self.conditionals(node);
        self.each_choice(&conditionals, |py| py.run_sink(sink, &args, node, line));
    }

    /// Whether the value of `call` is only looked at, never called nor handed on: it is
    /// assigned to names (alone or in a tuple) each of which is only compared, tested,
    /// formatted into a string or printed (`a = getattr(settings, k, None); if a != b:
    /// print(f'{k}: {a!r}')`).
    fn only_looked_at(&mut self, call: Node<'t>) -> bool {
        /// Built-ins that read a value and call nothing of it.
        const READERS: &[&str] = &["print", "repr", "str", "len", "type", "isinstance", "bool"];
        /// Each check walks the whole module: past a few, such a lookup is a call again,
        /// so a module of thousands of them is not read in the square of its size.
        const MOST_CHECKS: usize = 16;
        if self.looked_at_checks >= MOST_CHECKS {
            return false;
        }
        self.looked_at_checks += 1;
        let Some(mut parent) = call.parent() else {
            return false;
        };
        let mut at = call;
        if kind(parent) == "expression_list" {
            (at, parent) = (parent, parent.parent().unwrap_or(parent));
        }
        if kind(parent) != "assignment" || by_field(parent, "right") != Some(at) {
            return false;
        }
        let Some(left) = by_field(parent, "left") else {
            return false;
        };
        let names: Vec<&str> = match kind(left) {
            "identifier" => vec![self.text(left)],
            "pattern_list" | "tuple_pattern" => {
                let mut c = left.walk();
                left.named_children(&mut c).map(|n| self.text(n)).collect()
            }
            _ => return false,
        };
        let mut root = parent;
        while let Some(p) = root.parent() {
            root = p;
        }
        let mut looked_at = true;
        let mut ancestors: Vec<Node<'t>> = Vec::new();
        visit(root, |node, depth, at| {
            if at == Visit::Leave || !looked_at {
                return false;
            }
            ancestors.truncate(depth);
            ancestors.push(node);
            if kind(node) != "identifier" || !names.contains(&self.text(node)) {
                return true;
            }
            let parent = depth.checked_sub(1).and_then(|d| ancestors.get(d)).copied();
            looked_at = parent.is_some_and(|p| match kind(p) {
                "comparison_operator"
                | "boolean_operator"
                | "not_operator"
                | "interpolation"
                | "pattern_list" => true,
                "assignment" => by_field(p, "left") == Some(node),
                "argument_list" => depth
                    .checked_sub(2)
                    .and_then(|d| ancestors.get(d))
                    .is_some_and(|c| {
                        by_field(*c, "function").is_some_and(|f| {
                            READERS.contains(&self.text(f))
                                && self.names.get(self.text(f)).is_none()
                        })
                    }),
                _ => false,
            });
            true
        });
        looked_at
    }

    /// A name lookup of `host`: the name goes to the resolver.
    fn lookup(&mut self, host: Val, line: usize) {
        self.cx
            .command("curl", vec![Val::known("dns://").concat(host)], line);
    }

    /// What calling the sink with `args` does; `node` is the call, for its line and the
    /// code around it.
    fn run_sink(&mut self, sink: Sink, args: &Args<'t>, node: Node<'t>, line: usize) {
        let k = |py: &mut Self, n: usize| args.pos(py, n).val();
        match sink {
            Sink::Shell => {
                let cmd = self.undecoded(|py| k(py, 0));
                self.cx.found(Effect::Shell(cmd), line);
            }
            Sink::ShellAt(n) => match self.undecoded(|py| args.pos_or_kw(py, n, "command").val()) {
                Val::Known(cmd) if cmd.is_empty() => {}
                cmd => self.cx.found(Effect::Shell(cmd), line),
            },
            Sink::Process => self.process(args, line),
            Sink::ExecList { path, argv } => {
                let program = k(self, path);
                let argv = match args.pos(self, argv) {
                    Obj::List(items) => items.into_iter().skip(1).collect(),
                    _ => vec![Val::Unknown],
                };
                self.exec(program, argv, line);
            }
            Sink::ExecArgs { path } => {
                let program = k(self, path);
                let argv = args.positional_from(self, path + 2);
                self.exec(program, argv, line);
            }
            Sink::Argv => {
                let argv = args.positional_from(self, 0);
                self.cx.found(Effect::Exec(argv), line);
            }
            Sink::ArgvList => {
                let argv = match args.pos(self, 0) {
                    Obj::List(items) => items,
                    other => vec![other.val()],
                };
                self.cx.found(Effect::Exec(argv), line);
            }
            Sink::Archive => {
                // Either left out (or `None`) is the working directory.
                let given = |v: Val| match v {
                    Val::Known(d) if d.is_empty() || d == "None" => None,
                    v => Some(v),
                };
                let root = given(args.pos_or_kw(self, 2, "root_dir").val());
                let base = given(args.pos_or_kw(self, 3, "base_dir").val());
                let from = match (root, base) {
                    (Some(r), Some(b)) => join(&[r, b]),
                    (Some(d), None) | (None, Some(d)) => d,
                    (None, None) => Val::known("."),
                };
                let base = k(self, 0);
                self.cx
                    .command("cp", vec![Val::known("-r"), from, base], line);
            }
            Sink::Tool(program) => {
                let argv = match args.pos(self, 0) {
                    Obj::List(items) => items,
                    other => vec![other.val()],
                };
                self.cx.command(program, argv, line);
            }
            Sink::Command(program, flags, operands) => {
                let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
                for n in operands {
                    argv.push(k(self, *n));
                }
                self.cx.command(program, argv, line);
            }
            Sink::Chmod => {
                let path = k(self, 0);
                let mode = self.chmod_mode(args.node(1, "mode"), &path);
                self.cx.command("chmod", vec![mode, path], line);
            }
            Sink::Kill => {
                let signal = match args.pos(self, 1) {
                    Obj::Val(Val::Known(s)) => {
                        Val::Known(format!("-{}", s.trim_start_matches("signal.")))
                    }
                    // `signal.SIGKILL`, `signal.Signals.SIGKILL`
                    Obj::Ref(q) if q.starts_with("signal.") => {
                        Val::Known(format!("-{}", q.rsplit('.').next().unwrap_or_default()))
                    }
                    other => other.val(),
                };
                let pid = k(self, 0);
                self.cx.command("kill", vec![signal, pid], line);
            }
            Sink::Truncate => {
                let (path, size) = (k(self, 0), k(self, 1));
                self.cx
                    .command("truncate", vec![Val::known("-s"), size, path], line);
            }
            // Copied to the end of the first: from a device that never ends, it is `cp
            // /dev/zero FILE`, which fills the disk.
            Sink::CopyObj => {
                if args.count() < 3
                    && let Some(from) = args.node(0, "fsrc").and_then(|n| self.opened(n))
                    && from.is_endless_device()
                {
                    let to = args.node(1, "fdst").and_then(|n| self.opened(n));
                    self.cx
                        .command("cp", vec![from, to.unwrap_or(Val::Unknown)], line);
                }
            }
            Sink::ZipFile => {
                let path = args.pos_or_kw(self, 0, "file").val();
                let mode = match args.node(1, "mode") {
                    Some(_) => args.pos_or_kw(self, 1, "mode").val(),
                    None => Val::known("r"),
                };
                match mode.text() {
                    Some("r") => self.cx.command("cat", vec![path], line),
                    Some("a") => self.cx.command("tee", vec![Val::known("-a"), path], line),
                    _ => self.cx.command("tee", vec![path], line),
                }
            }
            Sink::DbmOpen(default) => {
                let path = args.pos_or_kw(self, 0, "file").val();
                let flag = match args.node(1, "flag") {
                    Some(_) => args.pos_or_kw(self, 1, "flag").val(),
                    None => Val::known(default),
                };
                // The flag may carry backend letters after the first (`"nf"`).
                match flag.text().and_then(|f| f.chars().next()) {
                    Some('r') => self.cx.command("cat", vec![path], line),
                    Some('n') => self.cx.command("tee", vec![path], line),
                    Some('c' | 'w') => {
                        self.cx.command("cat", vec![path.clone()], line);
                        self.cx.command("tee", vec![Val::known("-a"), path], line);
                    }
                    _ => self.cx.command("tee", vec![path], line),
                }
            }
            Sink::FileInput => {
                let files = match args.pos_or_kw(self, 0, "files") {
                    Obj::List(items) => items,
                    // What a listing names (`glob.glob('policies/*.yaml')`).
                    Obj::Each(element) => vec![element.val()],
                    other => vec![other.val()],
                };
                let in_place = args
                    .keyword(self, "inplace")
                    .is_some_and(|v| v.val() != Val::known("False"));
                for program in std::iter::once("cat").chain(in_place.then_some("tee")) {
                    self.cx.command(program, files.clone(), line);
                }
            }
            Sink::Open => {
                let path = args.pos_or_kw(self, 0, "file").val();
                let mode = args.pos_or_kw(self, 1, "mode").val();
                // Opened to write and never written (`with open(f, 'w'): pass`,
                // `open(f, 'w').close()`): the file is emptied.
                if mode.text().is_some_and(|m| m.contains('w')) && self.result_unused(node) {
                    self.cx.command(
                        "truncate",
                        vec![Val::known("-s"), Val::known("0"), path],
                        line,
                    );
                } else if mode.text().is_some_and(|m| m.contains(['w', 'a']))
                    && let Some(text) = self.written_text(node)
                {
                    let mut file = vec![path];
                    if mode.text().is_some_and(|m| m.contains('a')) {
                        file.insert(0, Val::known("-a"));
                    }
                    self.cx.write(file, text, line);
                } else {
                    self.open(path, mode, line);
                }
            }
            Sink::ModulePath(n, keyword) => {
                let paths = match args.pos_or_kw(self, n, keyword) {
                    Obj::List(items) => items,
                    Obj::Each(element) => vec![element.val()],
                    other => vec![other.val()],
                };
                for path in paths {
                    self.cx.found(Effect::ModulePath(path), line);
                }
            }
            // What the statements do to the database is the project's business; what they
            // do to files outside it is the gate's.
            Sink::Sql => {
                if let Val::Known(text) = k(self, 0) {
                    let reading =
                        crate::matcher::sql::read(crate::matcher::sql::Dialect::Sqlite, &text);
                    if let Some(why) = reading.opaque {
                        self.cx.opaque(why, line);
                    }
                    for program in reading.programs {
                        self.cx.found(Effect::Shell(Val::Known(program)), line);
                    }
                }
            }
            Sink::Eval => {
                // `exec(open('config/settings.py').read())` runs that file's code, as
                // `python3 config/settings.py` does (a file the line wrote is read there).
                let source = args.node(0, "source").map(|n| self.compiled(n));
                if let Some(file) = source.and_then(|n| self.file_read(n)) {
                    self.cx.command("python3", vec![file], line);
                } else {
                    let code = self.undecoded(|py| k(py, 0));
                    self.cx.eval(code, line);
                }
            }
            Sink::Timeit => {
                for (n, name) in [(0, "stmt"), (1, "setup")] {
                    match args.node(n, name) {
                        // A callable is called, and a lambda's or a function's body is read
                        // by the walk.
                        Some(arg) if kind(arg) == "lambda" => {}
                        Some(arg)
                            if kind(arg) == "identifier"
                                && only_a_function(self.src.text, self.text(arg)) => {}
                        Some(arg) => match self.eval(arg, 0) {
                            Obj::Ref(_) => {}
                            code => self.cx.eval(code.val(), line),
                        },
                        None if args.is_splat() => self.cx.eval(Val::Unknown, line),
                        // Not given: `pass`.
                        None => {}
                    }
                }
            }
            Sink::Import => {
                // A name decoded (`codecs.decode('fuhgvy', 'rot13')`) is computed too.
                if k(self, 0).text().is_none() {
                    self.cx
                        .opaque("the code imports a module whose name is computed", line);
                }
            }
            Sink::Getattr => {
                let computes_only = |q: &str| INERT_MODULES.contains(&q);
                if matches!(args.pos(self, 0), Obj::Ref(q) if !computes_only(&q))
                    && k(self, 1).text().is_none()
                    && !self.only_looked_at(node)
                {
                    self.cx.opaque(
                        "the code calls a function whose name is computed at run time",
                        line,
                    );
                }
            }
            Sink::LogFile => {
                if let Some(file) = args.keyword(self, "filename") {
                    let file = file.val();
                    self.cx.command("tee", vec![Val::known("-a"), file], line);
                }
            }
            Sink::ReadsOr(default, keyword) => {
                let file = match args.pos_or_kw(self, 0, keyword).val() {
                    Val::Known(f) if f.is_empty() || f == "None" => Val::known(default),
                    file => file,
                };
                self.cx.command("cat", vec![file], line);
            }
            Sink::Database => {
                let file = match k(self, 0) {
                    Val::Known(f) => Val::Known(database_path(&f).to_owned()),
                    other => other,
                };
                self.cx.command("cat", vec![file], line);
            }
            Sink::WritesFile(n, keyword) => match args.pos_or_kw(self, n, keyword).val() {
                Val::Known(f) if f.is_empty() || f == "None" => {}
                file => self.cx.command("tee", vec![file], line),
            },
            Sink::UnpicklesWhen(keyword, when) => {
                let set = args
                    .keyword(self, keyword)
                    .map(|v| v.val().text() == Some("True"));
                // Left out: numpy's `allow_pickle` is off, torch's `weights_only` on.
                if set.unwrap_or(!when) == when {
                    self.cx.opaque(super::sinks::UNPICKLES, line);
                }
            }
            Sink::Fork if self.loops > 0 => self
                .cx
                .opaque("the code forks in a loop (a fork bomb)", line),
            Sink::Fork | Sink::Spawn => self.cx.forked(line),
            Sink::Network(n, keyword, scheme) => {
                let target = args.pos_or_kw(self, n, keyword);
                let url = url(target, scheme);
                // `HTTPConnection(host, port)`: the port too, and the connection, which the
                // code then sends anything on, as the raw connection it is (`nc HOST PORT`).
                let port = (keyword == "host")
                    .then(|| args.pos_or_kw(self, n + 1, "port").val())
                    .and_then(|p| p.text().map(str::to_owned));
                match (url, port) {
                    (Val::Known(u), Some(p)) => {
                        let host = u.split_once("://").map_or(u.as_str(), |(_, h)| h);
                        let tcp = Val::Known(format!("tcp://{host}:{p}"));
                        self.cx
                            .command("curl", vec![Val::Known(format!("{u}:{p}"))], line);
                        self.cx.command("curl", vec![tcp], line);
                    }
                    (url, _) => self.cx.command("curl", vec![url], line),
                }
            }
            Sink::Request(method) => {
                let (method, at) = match method {
                    Method::Named(m) => (Val::known(m), 0),
                    Method::Given => (args.pos_or_kw(self, 0, "method").val(), 1),
                };
                let target = url(args.pos_or_kw(self, at, "url"), "");
                self.cx
                    .command("curl", curl_request(Some(method), target), line);
            }
            Sink::Lookup => {
                let host = k(self, 0);
                // A name put together from parts not all known (`chunk + '.x.example'`,
                // f'{data}.example'): what a lookup sends is the name, so data can leave
                // in it.
                let built = args.node(0, "host").is_some_and(|n| {
                    matches!(kind(n), "binary_operator" | "concatenated_string")
                        || kind(n) == "string" && self.text(n).starts_with(['f', 'F'])
                        || kind(n) == "call"
                });
                if built && !matches!(host, Val::Known(_)) {
                    self.cx.opaque(
                        "the code looks up a host name it builds at run time (what it holds is sent in the name)",
                        line,
                    );
                }
                self.lookup(host, line);
            }
            Sink::Serve => {
                let mut argv = vec![Val::known("-m"), Val::known("http.server")];
                let (host, port) = match args.pos_or_kw(self, 0, "server_address") {
                    Obj::List(parts) => (
                        parts.first().cloned().unwrap_or(Val::Unknown),
                        parts.get(1).cloned().unwrap_or(Val::Unknown),
                    ),
                    _ => (Val::Unknown, Val::Unknown),
                };
                let host_looked_up = host.clone();
                // A host not known may be every interface: no `--bind`, as the module's
                // own default.
                match host {
                    Val::Known(h) if h.is_empty() => {
                        argv.extend([Val::known("--bind"), Val::known("0.0.0.0")])
                    }
                    Val::Known(h) => argv.extend([Val::known("--bind"), Val::Known(h)]),
                    _ => {}
                }
                argv.push(port);
                self.cx.command("python3", argv, line);
                self.lookup(host_looked_up, line);
            }
            Sink::Download => {
                let url = url(args.pos_or_kw(self, 0, "url"), "");
                // Without a file name, the download goes to a temporary file.
                let argv = match args.pos_or_kw(self, 1, "filename") {
                    Obj::Val(Val::Known(f)) if f.is_empty() || f == "None" => vec![url],
                    file => vec![Val::known("-o"), file.val(), url],
                };
                self.cx.command("curl", argv, line);
            }
            Sink::Opaque(reason) => self.cx.opaque(reason, line),
            Sink::OwnDoctests if args.node(0, "m").is_none() => self
                .cx
                .opaque("the code runs the examples of its own docstrings", line),
            Sink::OwnDoctests => {}
            // A name of one word is a browser webbrowser knows; anything else may be a
            // command (`webbrowser.get("rm -rf %s")`).
            Sink::BrowserCommand => {
                let using = args.pos_or_kw(self, 0, "using").val();
                let named = using.text().is_some_and(|t| {
                    t.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                });
                if !named {
                    self.cx.opaque(
                        "the code names the command a browser is opened with, and the address it gets",
                        line,
                    );
                }
            }
            Sink::Deserialize => {
                let safe = args
                    .keyword(self, "Loader")
                    .is_some_and(|l| matches!(l, Obj::Ref(q) if q.contains("Safe")));
                match k(self, 0) {
                    _ if safe => {}
                    Val::Fetched => self.cx.eval(Val::Fetched, line),
                    Val::Known(data) if names_a_callable(&data) => self.cx.opaque(
                        "the data names a Python callable for the loader to call, which can \
                         run any code",
                        line,
                    ),
                    _ => {}
                }
            }
            Sink::Template => {
                if let Val::Known(text) = k(self, 0)
                    && (text.contains("<%") || text.contains("${") || text.contains("__"))
                {
                    self.cx.opaque(
                        "the code renders a template that holds Python code, or reaches it \
                         through `__` attributes",
                        line,
                    );
                }
            }
            Sink::DictConfig => {
                if args.node(0, "config").is_some_and(|d| {
                    self.text(d).contains("\"()\"") || self.text(d).contains("'()'")
                }) {
                    self.cx.opaque(
                        "the logging configuration names a factory to call (its '()' key)",
                        line,
                    );
                }
            }
            Sink::Extract { archive, into } => {
                let mut argv = vec![Val::known("-x")];
                if let Some(n) = archive {
                    argv.extend([Val::known("-f"), k(self, n)]);
                }
                let dir = match args.pos_or_kw(self, into, "path").val() {
                    Val::Known(d) if d.is_empty() || d == "None" => Val::known("."),
                    d => d,
                };
                argv.extend([Val::known("-C"), dir]);
                self.cx.command("tar", argv, line);
            }
        }
    }

    /// `subprocess.run(args, shell=...)`: a list is an argument vector (with `shell=True`
    /// its first item is the script); a string is a program, or the script with `shell`.
    fn process(&mut self, args: &Args<'t>, line: usize) {
        let shell = match args.keyword(self, "shell").map(Obj::val) {
            None => false,
            Some(Val::Known(s)) => !matches!(s.as_str(), "False" | "0" | "None" | ""),
            Some(_) => true,
        };
        // `executable=` is the program run; the list's first item is only the name it is
        // shown as (`subprocess.run(['ls', 'approve'], executable='hookgate')`).
        let executable = args
            .keyword(self, "executable")
            .map(Obj::val)
            .filter(|e| e.text() != Some("None"));
        let effect = match (args.pos_or_kw(self, 0, "args"), shell) {
            (Obj::List(mut argv), false) => {
                if let (Some(program), Some(first)) = (executable, argv.first_mut()) {
                    *first = program;
                }
                Effect::Exec(argv)
            }
            (Obj::List(argv), true) => {
                Effect::Shell(argv.into_iter().next().unwrap_or(Val::Unknown))
            }
            (Obj::Val(Val::Known(program)), false) => Effect::Exec(vec![Val::Known(program)]),
            (other, _) => Effect::Shell(other.val()),
        };
        self.cx.found(effect, line);
    }

    /// Runs `program` with `argv`.
    fn exec(&mut self, program: Val, argv: Vec<Val>, line: usize) {
        let mut run = vec![program];
        run.extend(argv);
        self.cx.found(Effect::Exec(run), line);
    }

    /// `open(path, mode)`: a read (`cat`), a write (`tee`), or both; a mode not known is
    /// both.
    pub(super) fn open(&mut self, path: Val, mode: Val, line: usize) {
        let mode = match mode {
            Val::Known(m) => m,
            _ => "r+".to_owned(),
        };
        let writes = mode.contains(['w', 'a', 'x', '+'])
            || mode.contains("WRONLY")
            || mode.contains("RDWR")
            || mode.contains("CREAT");
        if !writes || mode.contains(['r', '+']) || mode.contains("RDWR") {
            self.cx.command("cat", vec![path.clone()], line);
        }
        if writes {
            self.cx.command("tee", vec![path], line);
        }
    }

    /// A method of a `pathlib.Path`.
    fn path_method(&mut self, path: Val, method: &str, args: &Args<'t>, line: usize) {
        let first = |py: &mut Self| args.pos(py, 0).val();
        match method {
            "unlink" => self.cx.command("rm", vec![path], line),
            "rmdir" => self.cx.command("rmdir", vec![path], line),
            "read_text" | "read_bytes" => self.cx.command("cat", vec![path], line),
            "open" => {
                let mode = args.pos_or_kw(self, 0, "mode").val();
                self.open(path, mode, line);
            }
            "write_text" | "write_bytes" => {
                let text = first(self);
                self.cx.write(vec![path], text, line);
            }
            "touch" => self.cx.command("tee", vec![path], line),
            "mkdir" => self.cx.command("mkdir", vec![path], line),
            "rename" | "replace" | "move" => {
                let to = first(self);
                self.cx.command("mv", vec![path, to], line);
            }
            "chmod" | "lchmod" => {
                let mode = self.chmod_mode(args.node(0, "mode"), &path);
                self.cx.command("chmod", vec![mode, path], line);
            }
            "symlink_to" | "hardlink_to" => {
                let to = first(self);
                self.cx
                    .command("ln", vec![Val::known("-s"), to, path], line);
            }
            _ => {}
        }
    }
}

/// The URL a network call reaches: a `(host, port)` address is written `host:port`, a
/// host alone gets the call's scheme.
fn url(target: Obj, scheme: &str) -> Val {
    match target {
        Obj::List(parts) => match parts.as_slice() {
            [Val::Known(h), Val::Known(p), ..] => Val::Known(format!("{scheme}{h}:{p}")),
            [Val::Known(h)] => Val::Known(format!("{scheme}{h}")),
            _ => Val::Unknown,
        },
        other => match other.val() {
            Val::Known(t) if !scheme.is_empty() && !t.contains("://") => {
                Val::Known(format!("{scheme}{t}"))
            }
            v => v,
        },
    }
}

/// The file a SQLite database name opens: a `file:` URI's path, without its query.
fn database_path(name: &str) -> &str {
    let Some(uri) = name.strip_prefix("file:") else {
        return name;
    };
    let uri = uri
        .strip_prefix("//localhost")
        .or(uri.strip_prefix("//"))
        .unwrap_or(uri);
    &uri[..uri.find(['?', '#']).unwrap_or(uri.len())]
}

/// Whether YAML or JSON data names a Python callable or class for its loader to build
/// (PyYAML's `!!python/...` tags, jsonpickle's `py/...` keys).
fn names_a_callable(data: &str) -> bool {
    ["!!python/", "tag:yaml.org,2002:python/", "\"py/"]
        .iter()
        .any(|tag| data.contains(tag))
}

/// Whether a call passes `trust_remote_code` or `trust_repo` other than `False`/`None`.
fn trusts_remote_code(src: &str, call: Node<'_>) -> bool {
    let Some(arguments) = by_field(call, "arguments") else {
        return false;
    };
    let mut cursor = arguments.walk();
    arguments.named_children(&mut cursor).any(|arg| {
        let text = |field| by_field(arg, field).and_then(|n| src.get(n.byte_range()));
        arg.kind() == "keyword_argument"
            && matches!(text("name"), Some("trust_remote_code" | "trust_repo"))
            && !matches!(text("value"), Some("False" | "None" | "0"))
    })
}

/// GitPython's calls that run git, as git's words before the call's own arguments:
/// `repo.git.reset("--hard")` runs `git reset --hard` (a method's `_` is git's `-`),
/// `repo.remote("origin").push(force=True)` `git push --force`,
/// `repo.create_remote(name, url)` `git remote add name url`.
fn gitpython(q: &str) -> Option<Vec<String>> {
    for prefix in ["git.Repo.git.", "git.Git.", "git.cmd.Git."] {
        if let Some(command) = q.strip_prefix(prefix)
            && !command.contains('.')
            && !matches!(
                command,
                "execute" | "clear_cache" | "version_info" | "refresh"
            )
        {
            return Some(vec![command.replace('_', "-")]);
        }
    }
    let words: &[&str] = match q {
        "git.Remote.push" => &["push"],
        "git.Remote.fetch" => &["fetch"],
        "git.Repo.create_remote" | "git.Remote.create" => &["remote", "add"],
        "git.Repo.delete_remote" | "git.Remote.remove" => &["remote", "remove"],
        "git.Repo.clone_from" => &["clone"],
        "git.Repo.head.reset" | "git.HEAD.reset" => &["reset", "--hard"],
        _ => return None,
    };
    Some(words.iter().map(|w| (*w).to_owned()).collect())
}

/// The keys of a dictionary literal, unless one is spread into it (`{**other}`), which
/// brings keys not written here.
fn dict_keys(dict: Node<'_>) -> Option<Vec<Slot<'_>>> {
    let mut c = dict.walk();
    let mut keys = Vec::new();
    for entry in dict.named_children(&mut c) {
        match kind(entry) {
            "pair" => keys.push(Slot::Expr(by_field(entry, "key")?)),
            "comment" => {}
            _ => return None,
        }
    }
    Some(keys)
}
