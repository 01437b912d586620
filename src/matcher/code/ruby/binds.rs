//! The names the code binds (see [`Names`](crate::matcher::code::scope::Names)), gathered
//! before any call is read, and what makes them not known: a value changed in place, a
//! name rebound by `eval`, a core class reopened.

use tree_sitter::Node;

use super::sinks::{CORE, listed, may_be_held, mutates};
use super::values::Args;
use super::{BlockScope, Rb, by_field, kind, rounds};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::MAX_NESTING;

impl<'t> Rb<'_, '_, 't> {
    /// Gathers the names the code binds (see [`Names`](crate::matcher::code::scope::Names))
    /// and what makes them unknown.
    pub(super) fn bind_all(&mut self, node: Node<'t>, depth: usize) {
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
        if matches!(kind(node), "block" | "do_block") {
            self.scope_block(node);
        }
        match kind(node) {
            "assignment" => match (field("left"), field("right")) {
                (Some(l), Some(r)) => self.bind_assignment(l, r),
                (l, _) => self.forget_in(l),
            },
            "operator_assignment" => match field("left") {
                Some(l) if field("operator").is_some_and(|o| self.text(o) == "+=") => {
                    if !self.grow(l, node) {
                        self.forget_in(Some(l));
                    }
                }
                l => self.forget_in(l),
            },
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
                    // `args << a << b` is one growth, read at its outermost `<<`.
                    (Some("<<"), Some(_)) if is_shovel_chain(node.parent(), node) => {}
                    (Some("<<"), Some(_)) => {
                        let target = chain_target(node);
                        if !self.grow(target, node) {
                            self.changed(target);
                        }
                    }
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
            && !(matches!(name, "push" | "append" | "concat") && self.grow(r, node))
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

    /// `growth` (`args << x`, `args += [...]`, `args.push(x)`) adds to the list `target`
    /// names, bound once before it (see [`growths`](crate::matcher::code::growths));
    /// false where it is not such a growth.
    fn grow(&mut self, target: Node<'t>, growth: Node<'t>) -> bool {
        if !matches!(kind(target), "identifier" | "instance_variable") {
            return false;
        }
        let key = self.key(target);
        let bound_once = matches!(
            self.names.get(&key),
            Some(Slot::Expr(v) | Slot::Grown(v, _)) if !may_be_held(*v, self.src)
        );
        if !bound_once {
            return false;
        }
        self.grown.push(key.clone());
        self.grows = true;
        self.names.grow(&key, growth)
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

    /// Records the block `node`'s parameter names as its own (see [`Rb::scoped`]); blocks
    /// come here in the order of the code.
    fn scope_block(&mut self, node: Node<'t>) {
        let Some(parameters) = by_field(node, "parameters") else {
            return;
        };
        let mut c = parameters.walk();
        let names: Vec<String> = parameters
            .named_children(&mut c)
            .filter(|n| kind(*n) == "identifier")
            .map(|n| self.text(n).to_owned())
            .collect();
        if names.is_empty() {
            return;
        }
        let (start, end) = (node.start_byte(), node.end_byte());
        let mut parent = self.scopes.len().checked_sub(1);
        while let Some(p) = parent.and_then(|i| self.scopes.get(i)) {
            if end <= p.end {
                break;
            }
            parent = p.parent;
        }
        self.scopes.push(BlockScope {
            start,
            end,
            parent,
            names,
        });
    }

    /// A block's parameters are not known, but for `RECEIVER.each { |f| ... }` (and `map`,
    /// `select`, ...) with that one parameter, which is each of what the receiver gives.
    fn bind_block_parameters(&mut self, parameters: Node<'t>) {
        if !self.bind_each(parameters) {
            self.forget_in(Some(parameters));
        }
    }

    /// Binds the parameters of `RECEIVER.each { |f| ... }` (or `{ |k, v| ... }`, over pairs)
    /// and of `RECEIVER.then { |x| ... }`; whether the block is one.
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
        // `ENV["HOME"].then { |h| ... }`: the one parameter is the receiver itself.
        if kind(call) == "call"
            && matches!(method, "then" | "yield_self" | "tap")
            && let [name] = names.as_slice()
            && kind(*name) == "identifier"
        {
            let name = self.key(*name);
            self.names.bind(&name, Slot::Expr(receiver));
            // `args.tap { |a| a << x }` changes `args`.
            if let Some(other) = self.root_name(receiver) {
                self.same.push((name, other));
            }
            return true;
        }
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

    /// Every name under `node` becomes not known.
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
    pub(super) fn settle(&mut self) {
        let (begins, bodies) = std::mem::take(&mut self.pending);
        for (b, body) in begins.into_iter().zip(bodies) {
            self.heredocs.insert(b.start_byte(), body);
        }
        let mut work = std::mem::take(&mut self.mutated);
        // A list grown under one name and held under another is changed under both.
        for name in std::mem::take(&mut self.grown) {
            if self.same.iter().any(|(a, b)| *a == name || *b == name) {
                work.push(name);
            }
        }
        let mut done: Vec<String> = Vec::new();
        while let Some(name) = work.pop() {
            if done.contains(&name) {
                continue;
            }
            match self.names.get(&name) {
                // `x = list[0]; x.reverse!` changes what `list` holds too.
                Some(Slot::Expr(value) | Slot::Grown(value, _))
                    if may_be_held(*value, self.src) =>
                {
                    self.untrusted = true
                }
                Some(Slot::Expr(_) | Slot::Grown(..)) => self.names.forget(&name),
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
}

/// Whether `node` is the left side of a `<<` (`parent`), so part of a chain read at its
/// outermost `<<`.
fn is_shovel_chain(parent: Option<Node<'_>>, node: Node<'_>) -> bool {
    parent.is_some_and(|p| kind(p) == "binary" && by_field(p, "left") == Some(node))
        && parent
            .and_then(|p| by_field(p, "operator"))
            .is_some_and(|o| o.kind() == "<<")
}

/// What a chain of `<<` (`args << a << b`) adds to: its leftmost operand.
fn chain_target(mut node: Node<'_>) -> Node<'_> {
    while kind(node) == "binary"
        && by_field(node, "operator").is_some_and(|o| o.kind() == "<<")
        && let Some(left) = by_field(node, "left")
    {
        node = left;
    }
    node
}
