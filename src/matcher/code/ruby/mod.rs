//! Ruby: the calls that run commands (backticks, `%x`, `system`/`exec`/`spawn`, `IO.popen`,
//! `Open3`, `open("|cmd")`), delete, read, write, move, fetch or run code, with the constant
//! values of their arguments (literals with escapes and `#{}` of constants, heredocs, `+`,
//! `%`, `*`, `join`/`reverse`/`chr`/`pack('c*')`/`sub`/`tr`, `File.join`/`expand_path`,
//! `Dir.home`, `ENV['HOME']`, `Pathname`), names bound once, and calls by a constant name
//! (`send(:system)`, `method(:system).call`, `Object.const_get('Kernel')`, `alias`).

mod calls;
mod files;
mod methods;
mod process;
mod rounds;
mod sinks;
mod text;
mod values;

pub(in crate::matcher::code) use text::erb_code;

#[cfg(test)]
mod tests;

use std::borrow::Borrow;

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::Effect;
use super::scope::{Cx, Names, Slot, Val};
use super::tree::{MAX_NESTING, Source};
use sinks::{CORE, listed, may_be_held, mutates};
use values::Args;

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// A module or class, by its full name (`FileUtils`, `Net::HTTP`).
    Const(String),
    /// An array of values.
    List(Vec<Val>),
    /// A method object (`method(:system)`), by the qualified name it calls.
    Method(String),
    /// A `Pathname` of this value.
    Path(Val),
    /// A `URI` of this value.
    Uri(Val),
    /// A socket address (`Addrinfo.tcp`), as `tcp://host:port`.
    Addr(Val),
    /// What a network request returned: what it reads was downloaded.
    Response,
    /// What a block over this gets each time round (`Dir.glob(pattern).each { |f| ... }`).
    Each(Box<Obj>),
}

impl Obj {
    fn val(self) -> Val {
        match self {
            Obj::Val(v) | Obj::Path(v) | Obj::Uri(v) => v,
            Obj::Response => Val::Fetched,
            // A listing handed whole to a function that takes paths (`FileUtils.rm_f(
            // Dir.glob("log/*.log"))`) is its pattern: what each of its elements is.
            Obj::Each(element) => element.val(),
            _ => Val::Unknown,
        }
    }
}

/// Reads a Ruby program.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let root = tree.root_node();
    let mut rb = Rb {
        cx,
        src,
        names: Names::default(),
        aliases: HashMap::new(),
        heredocs: HashMap::new(),
        pending: (Vec::new(), Vec::new()),
        mutated: Vec::new(),
        same: Vec::new(),
        evals: Vec::new(),
        values: HashMap::new(),
        defs: Vec::new(),
        blocks: HashMap::new(),
        searched: 0,
        rounds_read: 0,
        untrusted: false,
        patched: false,
        env_written: false,
        loops: 0,
        always_loops: false,
        nest: 0,
    };
    rb.bind_all(root, 0);
    rb.settle();
    rb.walk(root);
}

struct Rb<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    /// `alias new old`, `alias_method :new, :old`: new name to old.
    aliases: HashMap<String, String>,
    /// Heredoc bodies by the start of the `<<~EOS` that stands for them.
    heredocs: HashMap<usize, Node<'t>>,
    /// Heredoc beginnings and bodies in the order of the code, paired after the pre-pass.
    pending: (Vec<Node<'t>>, Vec<Node<'t>>),
    /// Names a method changes in place (`s << 'x'`, `s.gsub!`).
    mutated: Vec<String>,
    /// Names bound to another name (`b = a`): the same object, changed together.
    same: Vec<(String, String)>,
    /// The code `eval` runs: assigning in it makes no name known.
    evals: Vec<Node<'t>>,
    values: HashMap<String, Obj>,
    /// The byte ranges of the methods the code defines at the top (not inside another),
    /// in order: each has local variables of its own (see [`Rb::key`]).
    defs: Vec<(usize, usize)>,
    /// The parameters of each block over a receiver (by its node's id), for reading the
    /// block once per item when the receiver is a literal (see [`rounds`]).
    blocks: HashMap<usize, rounds::Params>,
    /// Nodes looked at for a block's parameters so far (see [`rounds`]).
    searched: usize,
    /// Calls read once per item so far (see [`rounds`]).
    rounds_read: usize,
    /// A value was changed in place through something other than a name bound once, or the
    /// code rebinds names at run time (`eval`, `local_variable_set`): no name's value is known.
    untrusted: bool,
    /// The code reopens a core class or defines methods at run time: no method is folded.
    patched: bool,
    /// The code changes `ENV`: `HOME` is not known.
    env_written: bool,
    loops: usize,
    /// `retry` or `redo` can repeat any part of the code.
    always_loops: bool,
    /// Evaluations under way.
    nest: usize,
}

impl<'a, 'c, 't> Rb<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// The name a variable is bound under: a local variable inside a method is the
    /// method's own (`def median; m = ...` is not the `m` of a block outside it), so it is
    /// kept apart by the method's place. Instance, global and class variables and
    /// constants are not.
    fn key(&self, node: Node<'_>) -> String {
        match kind(node) {
            "identifier" => self.scoped(node, self.text(node)),
            _ => self.text(node).to_owned(),
        }
    }

    /// `name`, a local variable used at `at`, as it is bound there (see [`Rb::key`]).
    fn scoped(&self, at: Node<'_>, name: &str) -> String {
        let start = at.start_byte();
        let after = self.defs.partition_point(|(s, _)| *s <= start);
        match after.checked_sub(1).and_then(|k| self.defs.get(k)) {
            Some((s, e)) if at.end_byte() <= *e => format!("{s}#{name}"),
            _ => name.to_owned(),
        }
    }

    /// Gathers the names the code binds (see [`Names`]) and what makes them unknown.
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        let field = |f| by_field(node, f);
        if matches!(kind(node), "method" | "singleton_method")
            && self
                .defs
                .last()
                .is_none_or(|(_, end)| node.start_byte() >= *end)
        {
            self.defs.push((node.start_byte(), node.end_byte()));
        }
        match kind(node) {
            "assignment" => match (field("left"), field("right")) {
                (Some(l), Some(r)) => self.bind_assignment(l, r),
                (l, _) => self.forget_in(l),
            },
            "operator_assignment" => {
                self.forget_in(field("left"));
            }
            "block_parameters" => self.bind_block_parameters(node),
            "method_parameters"
            | "lambda_parameters"
            | "parameters"
            | "exception_variable"
            | "destructured_parameter" => self.forget_in(Some(node)),
            "for" => self.forget_in(field("pattern")),
            "test_pattern" | "match_pattern" | "in_clause" => self.forget_in(field("pattern")),
            "binary" => {
                let op = field("operator").map(|o| self.text(o));
                match (op, field("left")) {
                    (Some("<<"), Some(l)) => self.changed(l),
                    // `/(?<name>..)/ =~ s` binds `name`.
                    (Some("=~"), Some(l)) if kind(l) == "regex" => {
                        for part in self.text(l).split("(?<").skip(1) {
                            let name = part.split('>').next().unwrap_or_default();
                            let key = self.scoped(node, name);
                            self.names.forget(&key);
                        }
                    }
                    _ => {}
                }
            }
            "call" => self.bind_call(node),
            "alias" => {
                if let (Some(new), Some(old)) = (field("name"), field("alias")) {
                    let (new, old) = (self.text(new), self.text(old));
                    self.aliases.insert(
                        new.trim_start_matches(':').into(),
                        old.trim_start_matches(':').into(),
                    );
                }
            }
            "undef" => self.patched = true,
            "class" | "module" | "singleton_class" | "singleton_method" => {
                let name = field("name").or(field("value")).or(field("object"));
                let name = name
                    .map(|n| self.text(n).trim_start_matches("::"))
                    .unwrap_or("");
                if listed(CORE, name) || (name == "self" && kind(node) == "singleton_class") {
                    self.patched = true;
                }
            }
            "retry" | "redo" => self.always_loops = true,
            "heredoc_beginning" => self.pending.0.push(node),
            "heredoc_body" => self.pending.1.push(node),
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.bind_all(child, depth + 1);
        }
    }

    fn bind_assignment(&mut self, left: Node<'t>, right: Node<'t>) {
        // `a = b = value`: the inner assignment is bound when the pre-pass reaches it.
        let mut value = right;
        while kind(value) == "assignment" {
            match by_field(value, "right") {
                Some(r) => value = r,
                None => break,
            }
        }
        match kind(left) {
            "identifier" | "constant" | "instance_variable" | "global_variable"
            | "class_variable" => {
                let name = self.key(left);
                self.names.bind(&name, Slot::Expr(value));
                if let Some(other) = self.root_name(value) {
                    self.same.push((name, other));
                }
            }
            "left_assignment_list" if kind(value) == "right_assignment_list" => {
                let mut c = left.walk();
                let names: Vec<Node<'t>> = left.named_children(&mut c).collect();
                let mut c = value.walk();
                let values: Vec<Node<'t>> = value.named_children(&mut c).collect();
                let plain = |n: &Node<'_>| kind(n) == "identifier";
                if names.len() == values.len() && names.iter().all(plain) {
                    for (n, v) in names.into_iter().zip(values) {
                        let name = self.key(n);
                        self.names.bind(&name, Slot::Expr(v));
                    }
                } else {
                    self.forget_in(Some(left));
                }
            }
            "element_reference" | "call" => self.set_in(left),
            _ => self.forget_in(Some(left)),
        }
    }

    fn bind_call(&mut self, node: Node<'t>) {
        let mut name = by_field(node, "method").map_or("", |m| self.text(m));
        let receiver = by_field(node, "receiver");
        let mut args = Args::of(node);
        // `send(:alias_method, ...)` is `alias_method(...)`.
        if matches!(name, "send" | "__send__" | "public_send")
            && let Some(first) = args.pos.first()
        {
            name = self
                .text(*first)
                .trim_start_matches(':')
                .trim_matches(['"', '\'']);
            args = args.skip(1);
        }
        if let Some(r) = receiver
            && mutates(name)
        {
            self.changed(r);
        }
        // `c.method(:reverse!).call` and `c.instance_eval { reverse! }` change `c`;
        // `list.each(&:reverse!)` changes what `list` holds, which other names may hold too.
        let named = |n: usize| {
            args.pos
                .get(n)
                .map(|a| self.text(*a).trim_start_matches(':'))
        };
        match (name, receiver) {
            ("method" | "public_method", Some(r)) if named(0).is_some_and(mutates) => {
                self.changed(r)
            }
            ("instance_eval" | "instance_exec", Some(r))
                if args.block.is_some() || by_field(node, "block").is_some() =>
            {
                self.changed(r)
            }
            _ => {}
        }
        if let Some(b) = args.block
            && let Some(symbol) = b.named_child(0)
            && matches!(kind(symbol), "simple_symbol" | "delimited_symbol")
            && mutates(
                self.text(symbol)
                    .trim_start_matches(':')
                    .trim_matches(['"', '\'']),
            )
        {
            self.untrusted = true;
        }
        match name {
            "eval" | "instance_eval" | "class_eval" | "module_eval" => {
                // Code run by `eval` can assign the names of the code that runs it.
                match args.pos.first() {
                    Some(code) => self.evals.push(*code),
                    None => self.patched |= name != "instance_eval",
                }
            }
            "local_variable_set" | "instance_variable_set" | "class_variable_set" | "const_set" => {
                self.untrusted = true
            }
            "define_method"
            | "define_singleton_method"
            | "refine"
            | "prepend"
            | "class_exec"
            | "module_exec"
            | "remove_method"
            | "undef_method"
            | "alias_method" => {
                self.patched = true;
            }
            "include" | "extend" => {
                for a in &args.pos {
                    let module = self.text(*a).trim_start_matches("::").to_owned();
                    self.names.star.push(module);
                }
            }
            _ => {}
        }
        if name == "alias_method"
            && let [new, old] = args.pos.as_slice()
        {
            let bare = |s: &str| {
                s.trim_start_matches(':')
                    .trim_matches(['"', '\''])
                    .to_owned()
            };
            let (new, old) = (bare(self.text(*new)), bare(self.text(*old)));
            self.aliases.insert(new, old);
        }
    }

    /// `node` is changed in place: the name it is is not known; when it is not a name, it
    /// may be any value (`list.first << 'x'`), so no name is known.
    fn changed(&mut self, node: Node<'_>) {
        match kind(node) {
            "identifier" | "constant" | "instance_variable" | "global_variable"
            | "class_variable" => self.mutated.push(self.key(node)),
            _ => self.untrusted = true,
        }
    }

    /// `x[i] = ...` and `x.attr = ...` change `x`.
    fn set_in(&mut self, target: Node<'_>) {
        match by_field(target, "object").or(by_field(target, "receiver")) {
            Some(object) => self.changed(object),
            None => self.untrusted = true,
        }
    }

    /// The name an expression is the very object of (`a`, `a.to_s`, `(a)`).
    fn root_name(&self, node: Node<'_>) -> Option<String> {
        match kind(node) {
            "identifier" | "constant" | "instance_variable" | "global_variable" => {
                Some(self.key(node))
            }
            "parenthesized_statements" => node.named_child(0).and_then(|n| self.root_name(n)),
            "call" => {
                let m = by_field(node, "method").map(|m| self.text(m));
                match m {
                    Some("to_s" | "to_str" | "itself" | "freeze" | "tap" | "to_a" | "to_path") => {
                        by_field(node, "receiver").and_then(|r| self.root_name(r))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Every name under `node` becomes not known.
    /// A block's parameters are not known, but for `RECEIVER.each { |f| ... }` (and `map`,
    /// `select`, ...) with that one parameter, which is each of what the receiver gives.
    fn bind_block_parameters(&mut self, parameters: Node<'t>) {
        if !self.bind_each(parameters) {
            self.forget_in(Some(parameters));
        }
    }

    /// Binds the parameters of `RECEIVER.each { |f| ... }` (or `{ |k, v| ... }`, over pairs);
    /// whether the block is one.
    fn bind_each(&mut self, parameters: Node<'t>) -> bool {
        let mut c = parameters.walk();
        let names: Vec<Node<'t>> = parameters.named_children(&mut c).collect();
        let Some(call) = parameters.parent().and_then(|block| block.parent()) else {
            return false;
        };
        let (Some(receiver), Some(method)) = (by_field(call, "receiver"), by_field(call, "method"))
        else {
            return false;
        };
        let method = self.text(method);
        let fits = match names.len() {
            1 => rounds::ITERATORS.contains(&method),
            2 => rounds::PAIRED.contains(&method),
            _ => false,
        };
        if kind(call) != "call" || !fits || names.iter().any(|n| kind(*n) != "identifier") {
            return false;
        }
        let mut params = Vec::new();
        for (n, name) in names.iter().enumerate() {
            let part = (names.len() > 1).then_some(n);
            let slot = match part {
                None => Slot::Each(receiver),
                Some(n) => Slot::Part(receiver, n),
            };
            let name = self.key(*name);
            self.names.bind(&name, slot);
            params.push((name, part));
        }
        self.blocks.insert(receiver.id(), params);
        true
    }

    fn forget_in(&mut self, node: Option<Node<'_>>) {
        let Some(node) = node else { return };
        match kind(node) {
            "identifier" | "constant" | "instance_variable" | "global_variable"
            | "class_variable" => {
                let name = self.key(node);
                self.names.forget(&name);
            }
            "element_reference" | "call" => self.set_in(node),
            _ => {
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    self.forget_in(Some(child));
                }
            }
        }
    }

    /// After the pre-pass: pairs heredocs, and forgets the names changed in place.
    fn settle(&mut self) {
        let (begins, bodies) = std::mem::take(&mut self.pending);
        for (b, body) in begins.into_iter().zip(bodies) {
            self.heredocs.insert(b.start_byte(), body);
        }
        let mut work = std::mem::take(&mut self.mutated);
        let mut done: Vec<String> = Vec::new();
        while let Some(name) = work.pop() {
            if done.contains(&name) {
                continue;
            }
            match self.names.get(&name) {
                // `x = list[0]; x.reverse!` changes what `list` holds too.
                Some(Slot::Expr(value)) if may_be_held(*value, self.src) => self.untrusted = true,
                Some(Slot::Expr(_)) => self.names.forget(&name),
                Some(_) => self.untrusted = true,
                None if name == "ENV" => self.env_written = true,
                None => {}
            }
            for (a, b) in &self.same {
                if *a == name {
                    work.push(b.clone());
                } else if *b == name {
                    work.push(a.clone());
                }
            }
            done.push(name);
        }
        for code in std::mem::take(&mut self.evals) {
            let code = self.eval(code, 0).val();
            self.untrusted |= code.text().is_none_or(|t| t.contains('='));
        }
    }

    /// Visits every node, reading the calls' effects.
    fn walk(&mut self, root: Node<'t>) {
        super::tree::visit(root, |node, depth, at| self.visit(node, depth, at));
    }

    /// One node of the walk: its loop count kept, and its effect read on entering.
    fn visit(&mut self, node: Node<'t>, depth: usize, at: super::tree::Visit) -> bool {
        let is_loop = matches!(
            kind(node),
            "while"
                | "until"
                | "for"
                | "while_modifier"
                | "until_modifier"
                | "block"
                | "do_block"
                | "method"
                | "singleton_method"
                | "lambda"
        );
        if at == super::tree::Visit::Leave {
            self.loops -= usize::from(is_loop);
            return false;
        }
        self.loops += usize::from(is_loop);
        if !self.cx.enter(depth, self.line(node)) {
            return false;
        }
        match kind(node) {
            "call" | "subshell" => self.each_item(node, Self::effect),
            "identifier" | "heredoc_beginning" | "element_reference" => self.effect(node),
            _ => {}
        }
        true
    }

    /// The effect of one node, if it has one.
    fn effect(&mut self, node: Node<'t>) {
        let line = self.line(node);
        match kind(node) {
            "call" => self.call(node),
            "subshell" => {
                let cmd = self.string(node, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            // `` <<~`CMD` `` runs its body.
            "heredoc_beginning" if self.text(node).contains('`') => {
                let cmd = self.string(node, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            // A bare `fork` is a call without arguments.
            "identifier" if self.text(node) == "fork" && self.names.get("fork").is_none() => {
                let parent = node.parent();
                let named = parent.is_some_and(|p| {
                    by_field(p, "method") == Some(node)
                        || by_field(p, "name") == Some(node)
                        || kind(p).contains("parameter")
                });
                if !named {
                    self.sink("Kernel.fork", &Args::default(), line);
                }
            }
            "element_reference" => {
                if let Some(object) = by_field(node, "object")
                    && let Obj::Method(q) = self.eval(object, 0)
                {
                    let args = Args::of(node);
                    self.sink(&q, &args, line);
                }
            }
            _ => {}
        }
    }
}

/// The child of a node in a field (see [`super::tree::field`]).
pub(super) fn by_field<'t>(node: impl Borrow<Node<'t>>, name: &str) -> Option<Node<'t>> {
    super::tree::field(super::Lang::Ruby, *node.borrow(), name)
}

/// The kind of a node (see [`super::tree::kind`]).
pub(super) fn kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    super::tree::kind(super::Lang::Ruby, *node.borrow())
}
