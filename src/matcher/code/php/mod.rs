//! PHP (code without `<?php`, as `php -r` takes it): the calls that run commands, delete,
//! read, write, fetch or run code, with the constant values of their arguments (quoted
//! strings and their interpolation, heredocs, `.`, `implode`, `strrev`, `chr`,
//! `str_replace`, `sprintf`, `getenv('HOME')`, `$_SERVER['HOME']`), functions named by a
//! string (`$f(...)`, `call_user_func`, callbacks) and names bound once.

mod calls;
mod choices;
mod computed;
mod files;
mod inline;
mod sinks;
mod text;
mod values;

#[cfg(test)]
mod tests;

use std::borrow::Borrow;

use tree_sitter::{Node, Tree};

use super::Effect;
use super::scope::{Cx, Names, Slot, Val};
use super::tree::{MAX_NESTING, Source};
use sinks::{by_reference, function_name};
use text::single_quoted;

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// An array without keys (an argument vector, parts to implode).
    Array(Vec<Val>),
    /// A closure or arrow function: its body is walked where it is written.
    Closure,
    /// An object that calls a named function (`new ReflectionFunction('system')`).
    Func(String),
    /// What a `foreach` over this gets each time round (`glob($pattern)`).
    Each(Box<Obj>),
    /// A stream `fopen` opened on a local file (its path).
    Handle(Val),
    /// An array not known whose every item is quoted for the shell (`array_map(
    /// 'escapeshellarg', $files)`): imploded with spaces, words that run nothing.
    Quoted,
}

impl Obj {
    fn val(self) -> Val {
        match self {
            Obj::Val(v) => v,
            _ => Val::Unknown,
        }
    }
}

/// Reads PHP code.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let root = tree.root_node();
    let mut php = Php {
        cx,
        src,
        names: Names::default(),
        wild: false,
        loops: 0,
        calls: 0,
        classes: Vec::new(),
        functions: inline::Functions::default(),
        params: Vec::new(),
        jumps: false,
        grows: false,
        chosen: super::growths::Chosen::default(),
    };
    php.bind_all(root, 0);
    php.functions = inline::Functions::of(src.text, root);
    php.walk(root);
}

struct Php<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    /// The code sets variables by computed names (`extract`, `$$x = ...`): none is known.
    wild: bool,
    loops: usize,
    /// Calls made through callbacks, being followed (`call_user_func('call_user_func', ...)`).
    calls: usize,
    /// The classes the code declares with an `__invoke`, by name (lower case, as PHP
    /// compares them).
    classes: Vec<String>,
    /// The functions read at their calls (see [`inline`]).
    functions: inline::Functions<'t>,
    /// The parameters of the function being read at a call, with their values there.
    params: Vec<(String, Obj)>,
    /// The code has a `goto`, which may run a statement again: no growth is followed.
    jumps: bool,
    /// Whether an array is grown: until one is, no call's choices are searched for.
    grows: bool,
    /// The growths being read as run (`true`) or not, by node id.
    chosen: super::growths::Chosen,
}

const COMPUTED_NAME: &str = "the code calls a function whose name is computed at run time";

impl<'a, 'c, 't> Php<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// The name of a `$variable` (without the `$`), if it is one.
    fn var(&self, node: Node<'_>) -> Option<&'a str> {
        (kind(node) == "variable_name").then(|| self.text(node).trim_start_matches('$'))
    }

    /// Gathers the names the code binds (see [`Names`]).
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        match kind(node) {
            "assignment_expression" => {
                let left = by_field(node, "left");
                let mut value = by_field(node, "right");
                // `$a = $b = value`: the inner assignment is bound when the walk reaches it.
                while let Some(v) = value.filter(|v| kind(v) == "assignment_expression") {
                    value = by_field(v, "right");
                }
                // `$args[] = x`
                let grown = self.pushed_onto(node).is_some_and(|a| self.grow(a, node));
                match (left, value) {
                    _ if grown => {}
                    (Some(l), Some(v)) if kind(l) == "variable_name" => {
                        let name = format!("${}", self.text(l).trim_start_matches('$'));
                        self.names.bind(&name, Slot::Expr(v));
                    }
                    (Some(l), _) => self.forget_target(l),
                    _ => {}
                }
            }
            "reference_assignment_expression" | "augmented_assignment_expression" => {
                self.forget_target_field(node, "left");
                self.forget_target_field(node, "right");
            }
            "update_expression" => self.forget_target_field(node, "argument"),
            "foreach_statement" => {
                let mut c = node.walk();
                let header: Vec<Node<'t>> = node.named_children(&mut c).collect();
                let body = by_field(node, "body");
                // `foreach ($a as &$v)` changes `$a` too.
                let by_ref = header
                    .iter()
                    .any(|h| Some(*h) != body && self.text(*h).contains('&'));
                match header.as_slice() {
                    // `foreach (EXPR as $v)`: `$v` is each of what `EXPR` gives.
                    [iterable, value, ..]
                        if !by_ref && Some(*value) != body && kind(*value) == "variable_name" =>
                    {
                        let name = format!("${}", self.text(*value).trim_start_matches('$'));
                        self.names.bind(&name, Slot::Each(*iterable));
                    }
                    _ => {
                        for (n, part) in header.iter().enumerate() {
                            if Some(*part) != body && (n > 0 || by_ref) {
                                self.forget_vars(*part, 0);
                            }
                        }
                    }
                }
            }
            "formal_parameters"
            | "anonymous_function_use_clause"
            | "global_declaration"
            | "function_static_declaration"
            | "catch_clause"
            | "list_literal" => {
                if kind(node) == "formal_parameters" && self.text(node).contains('&') {
                    self.wild = true;
                }
                match self.recursive_closure(node) {
                    // `$rm = function ($d) use (&$rm) { ... $rm($p) ... }`: the closure
                    // calls itself through the name, which stays bound to it.
                    Some(own) => {
                        let mut c = node.walk();
                        let others: Vec<Node<'t>> =
                            node.named_children(&mut c).filter(|n| *n != own).collect();
                        for other in others {
                            self.forget_vars(other, 0);
                        }
                    }
                    None => self.forget_vars(node, 0),
                }
            }
            "const_element" => {
                let mut c = node.walk();
                let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
                if let [name, value] = parts.as_slice() {
                    let name = format!("::{}", self.text(*name));
                    self.names.bind(&name, Slot::Expr(*value));
                }
            }
            // `array_push($args, ...)`
            "function_call_expression"
                if !self.pushed_onto(node).is_some_and(|a| self.grow(a, node)) =>
            {
                self.bind_call(node);
            }
            "goto_statement" => self.jumps = true,
            // Only a class that writes its own `__invoke` (not one it inherits).
            "class_declaration" if self.text(node).contains("function __invoke") => {
                if let Some(name) = by_field(node, "name") {
                    self.classes.push(self.text(name).to_ascii_lowercase());
                }
            }
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.bind_all(child, depth + 1);
        }
    }

    /// `define('X', v)`, and the built-in calls that set variables passed to them.
    fn bind_call(&mut self, node: Node<'t>) {
        let Some(f) = by_field(node, "function") else {
            return;
        };
        let name = function_name(self.text(f));
        let args = self.arg_nodes(node);
        let inner = |n: usize| {
            args.get(n)
                .filter(|a| by_field(*a, "name").is_none())
                .and_then(|a| a.named_child(0))
        };
        match name.as_str() {
            "define" => match (inner(0), inner(1)) {
                (Some(n), Some(v)) if kind(n) == "string" => {
                    let n = format!("::{}", single_quoted(self, n));
                    self.names.bind(&n, Slot::Expr(v));
                }
                _ => {}
            },
            // Code run by `eval` can assign any variable.
            "extract" | "import_request_variables" | "eval" => self.wild = true,
            "parse_str" | "mb_parse_str" if args.len() < 2 => self.wild = true,
            _ => {
                if let Some(from) = by_reference(&name) {
                    for a in args.iter().skip(from) {
                        self.forget_vars(*a, 0);
                    }
                }
            }
        }
    }

    fn forget_target_field(&mut self, node: Node<'t>, field: &str) {
        if let Some(n) = by_field(node, field) {
            self.forget_target(n);
        }
    }

    /// An assignment to something other than a plain variable: the variable under it
    /// (`$a[0] = ...`, `$o->p = ...`) changes; a computed variable name changes any.
    fn forget_target(&mut self, node: Node<'t>) {
        // The variable a target is in: `$GLOBALS['t'][] = ...` changes `$t`.
        let mut root = node;
        for _ in 0..MAX_NESTING {
            match kind(root) {
                "subscript_expression" | "member_access_expression" => match root.named_child(0) {
                    Some(inner) => root = inner,
                    None => break,
                },
                _ => break,
            }
        }
        match kind(root) {
            "dynamic_variable_name" => self.wild = true,
            _ if self.var(root) == Some("GLOBALS") => self.wild = true,
            _ => self.forget_vars(node, 0),
        }
    }

    /// Every variable under `node` becomes not known.
    /// In `$f = function (...) use (&$f) { ... }`, the `&$f` of `use`, when the closure's
    /// body neither assigns `$f` nor takes another reference to it: `$f` then stays the
    /// closure.
    fn recursive_closure(&self, clause: Node<'t>) -> Option<Node<'t>> {
        if kind(clause) != "anonymous_function_use_clause" {
            return None;
        }
        let closure = clause
            .parent()
            .filter(|f| kind(*f) == "anonymous_function")?;
        let assignment = closure
            .parent()
            .filter(|a| kind(*a) == "assignment_expression")?;
        if by_field(assignment, "right") != Some(closure) {
            return None;
        }
        let assigned = self.var(by_field(assignment, "left")?)?;
        let mut c = clause.walk();
        let own = clause.named_children(&mut c).find(|n| {
            kind(*n) == "by_ref" && n.named_child(0).and_then(|v| self.var(v)) == Some(assigned)
        })?;
        let body = self.text(by_field(closure, "body")?);
        let name = format!("${assigned}");
        // Assigned, changed, indexed into or referenced again, as text: anything unsure
        // counts as a change.
        const CHANGES: [&str; 14] = [
            "=", ".=", "+=", "-=", "*=", "/=", "%=", "??=", "|=", "&=", "^=", "++", "--", "[",
        ];
        let changed = body.match_indices(&name).any(|(at, _)| {
            let after = body[at + name.len()..].trim_start();
            if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                return false;
            }
            body[..at].trim_end().ends_with('&')
                || CHANGES.iter().any(|op| after.starts_with(op))
                    && !after.starts_with("==")
                    && !after.starts_with("=>")
        });
        (!changed).then_some(own)
    }

    fn forget_vars(&mut self, node: Node<'_>, depth: usize) {
        if depth > MAX_NESTING {
            self.wild = true;
            return;
        }
        if let Some(name) = self.var(node) {
            self.names.forget(&format!("${name}"));
            return;
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.forget_vars(child, depth + 1);
        }
    }

    /// Visits every node, reading the effects.
    fn walk(&mut self, root: Node<'t>) {
        super::tree::visit(root, |node, depth, at| self.visit(node, depth, at));
    }

    /// One node of the walk: its loop count kept, and its effect read on entering.
    fn visit(&mut self, node: Node<'t>, depth: usize, at: super::tree::Visit) -> bool {
        let is_loop = matches!(
            kind(node),
            "for_statement" | "foreach_statement" | "while_statement" | "do_statement"
        );
        if at == super::tree::Visit::Leave {
            self.loops -= usize::from(is_loop);
            return false;
        }
        self.loops += usize::from(is_loop);
        if !self.cx.enter(depth, self.line(node)) {
            return false;
        }
        // A function read at its calls is not read where it is written.
        if self.functions.defines(node) {
            return false;
        }
        let line = self.line(node);
        match kind(node) {
            "function_call_expression" => {
                let choices = self.growth_choices(node);
                super::growths::each_way(self, &choices, |php| php.each_item(node, Self::call));
            }
            "member_call_expression" | "nullsafe_member_call_expression" => {
                self.each_item(node, Self::method)
            }
            "scoped_call_expression" => self.static_call(node),
            "object_creation_expression" => {
                // `new SplFileObject($path, 'a')` opens the file as `fopen` does.
                let class = node
                    .named_child(0)
                    .map(|c| sinks::function_name(self.text(c)))
                    .unwrap_or_default();
                if class == "splfileobject" {
                    let a = self.args(node);
                    let mode = if a.count() > 1 {
                        a.val(1)
                    } else {
                        Val::known("r")
                    };
                    self.open(files::resource(a.val(0)), mode, line);
                }
                // `new CURLFile($path)`: the file a request then uploads is read.
                if class == "curlfile" {
                    let path = self.args(node).val(0);
                    self.cx.command("cat", vec![path], line);
                }
                let _ = self.eval(node, 0);
            }
            "shell_command_expression" => {
                let cmd = self.interpolated(node, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            "include_expression"
            | "include_once_expression"
            | "require_expression"
            | "require_once_expression" => {
                let path = match node.named_child(0) {
                    Some(p) => self.eval(p, 0).val(),
                    None => Val::Unknown,
                };
                self.include(path, line);
            }
            _ => {}
        }
        true
    }
}

/// The child of a node in a field (see [`super::tree::field`]).
pub(super) fn by_field<'t>(node: impl Borrow<Node<'t>>, name: &str) -> Option<Node<'t>> {
    super::tree::field(super::Lang::Php, *node.borrow(), name)
}

/// The kind of a node (see [`super::tree::kind`]).
pub(super) fn kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    super::tree::kind(super::Lang::Php, *node.borrow())
}
