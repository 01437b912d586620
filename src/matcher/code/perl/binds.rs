//! The names the code binds (see [`Names`](crate::matcher::code::scope::Names)), gathered
//! before any call is read, and what makes a name not known: a variable handed to a call
//! that may change it.

use tree_sitter::Node;

use super::values::operator;
use super::{Pl, by_field, kind};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::MAX_NESTING;

/// Built-ins that change none of their arguments: variables passed to any other call may
/// be changed through `@_` (or by `chomp`, `push`, `open`...) and are no longer known.
const PURE: &[&str] = &[
    "print",
    "printf",
    "say",
    "system",
    "exec",
    "join",
    "sprintf",
    "die",
    "warn",
    "lc",
    "uc",
    "lcfirst",
    "ucfirst",
    "length",
    "defined",
    "ref",
    "chr",
    "ord",
    "hex",
    "oct",
    "abs",
    "int",
    "reverse",
    "scalar",
    "exists",
    "unlink",
    "rmdir",
    "chmod",
    "kill",
    "rename",
    "symlink",
    "link",
    "mkdir",
    "readpipe",
    "eval",
    "glob",
    "keys",
    "values",
    "sort",
    "split",
    "index",
    "rindex",
    "decode_json",
    "encode_json",
    "decode_base64",
    "pack",
    "unpack",
    "rmtree",
    "remove_tree",
    "move",
    "copy",
    "get",
    "getstore",
    "getprint",
    "mirror",
    "exit",
    "sleep",
    "time",
    "localtime",
    "gmtime",
    "quotemeta",
];

impl<'a, 'c, 't> Pl<'a, 'c, 't> {
    /// Gathers the names the code binds (see [`Names`](crate::matcher::code::scope::Names)) and what makes them not known.
    pub(super) fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        match kind(node) {
            "binary_expression" => self.bind_binary(node),
            "unary_expression"
                if self.text(node).contains("++") || self.text(node).contains("--") =>
            {
                self.forget_in(Some(node))
            }
            "to_reference" => self.forget_in(by_field(node, "variable")),
            "for_statement_2" | "function_signature" => {
                let listing = self
                    .loop_over_glob(node)
                    .or_else(|| self.loop_over_literal(node));
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    if kind(child) != "block" && Some(child) != listing.map(|(var, _)| var) {
                        self.forget_in(Some(child));
                    }
                }
                if let Some((var, glob)) = listing {
                    let name = self.text(var).to_owned();
                    self.names.bind(&name, Slot::Each(glob));
                }
            }
            "function_definition" | "function_definition_without_sub" => {
                if let Some(name) = by_field(node, "name") {
                    let body = by_field(node, "body").unwrap_or(node);
                    self.subs.push((self.text(name).to_owned(), body));
                    self.returning_subs.clear();
                }
            }
            "scalar_dereference" | "array_dereference" | "hash_dereference" | "typeglob" => {
                self.all_unknown = true
            }
            "call_expression_with_spaced_args" | "call_expression_with_args_with_brackets" => {
                let name = self.callee(node).unwrap_or_default();
                if matches!(name.as_str(), "eval" | "do" | "require") && self.block(node).is_none()
                {
                    self.all_unknown = true;
                }
                if matches!(name.as_str(), "push" | "unshift" | "splice")
                    && let Some(first) = self.arg_nodes(node).first()
                    && self.text(*first).trim() == "@ARGV"
                {
                    self.argv_set.get_or_insert(self.line(node));
                }
                // `open`'s handle is the one argument it sets; `push @a, ...` only `@a`,
                // which it grows (see `choices`).
                let sets = match name.as_str() {
                    "open" | "opendir" | "sysopen" => 1,
                    "push" if self.pushed_onto(node).is_some_and(|a| self.grow(a, node)) => 0,
                    _ => usize::MAX,
                };
                if !PURE.contains(&name.as_str()) && !self.is_file_find(&name) {
                    for arg in self.arg_nodes(node).into_iter().take(sets) {
                        self.forget_in(Some(arg));
                    }
                }
            }
            // A method may change its arguments through `@_`; a class's from a module
            // (`File::Spec->catfile`), or one of an object made by one
            // (`HTTP::Tiny->new->post`), is trusted not to, unless the code defines packages.
            "method_invocation" => {
                let mut made = node;
                for _ in 0..MAX_NESTING {
                    match made.named_child(0) {
                        Some(inner) if kind(inner) == "method_invocation" => made = inner,
                        _ => break,
                    }
                }
                let named_class =
                    by_field(made, "package_name").is_some() && !self.src.text.contains("package");
                if !named_class {
                    self.forget_in(by_field(node, "args"));
                }
            }
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.bind_all(child, depth + 1);
        }
    }

    fn bind_binary(&mut self, node: Node<'t>) {
        let op = operator(node, self.src.text);
        let mut c = node.walk();
        let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
        let (Some(&left), Some(&right)) = (parts.first(), parts.last()) else {
            return;
        };
        if op == "=~" {
            if matches!(
                kind(right),
                "substitution_pattern_s" | "transliteration_tr_or_y"
            ) {
                self.forget_in(Some(left));
            }
            return;
        }
        if op != "=" {
            if op.ends_with('=') && !matches!(op, "==" | "!=" | "<=" | ">=" | "<=>") {
                self.forget_in(Some(left));
            }
            return;
        }
        // `my ($cmd, @args) = ...` declares those names: no other is changed.
        if kind(left) == "variable_declaration"
            && let Some(list) = left
                .named_children(&mut left.walk())
                .find(|n| kind(*n) == "array")
            && list.named_children(&mut list.walk()).all(|v| {
                matches!(
                    kind(v),
                    "scalar_variable" | "array_variable" | "hash_variable" | "normal_comma"
                )
            })
        {
            return self.forget_in(Some(list));
        }
        let target = if kind(left) == "variable_declaration" {
            by_field(left, "variable_name")
        } else {
            Some(left)
        };
        match target.map(|t| (t, kind(t))) {
            Some((t, "scalar_variable" | "array_variable" | "hash_variable")) => {
                let name = self.text(t).to_owned();
                if name == "@ARGV" {
                    self.argv_set.get_or_insert(self.line(t));
                }
                self.names.bind(&name, Slot::Expr(right));
            }
            Some((
                t,
                "array_access_variable" | "hash_access_variable" | "hash_access_variable_simple",
            )) if t
                .named_child(0)
                .is_some_and(|b| kind(b) == "scalar_variable") =>
            {
                self.forget_in(t.named_child(0));
            }
            Some((t, "array")) => self.forget_in(Some(t)),
            _ => {
                self.forget_in(Some(left));
                self.all_unknown = true;
            }
        }
    }

    /// Every variable under `node` becomes not known, in all its sigils (`$a[0]` is `@a`).
    fn forget_in(&mut self, node: Option<Node<'_>>) {
        let Some(node) = node else { return };
        if matches!(
            kind(node),
            "scalar_variable" | "array_variable" | "hash_variable"
        ) {
            let name = self
                .text(node)
                .get(1..)
                .unwrap_or_default()
                .trim_start_matches('{');
            let name = name.trim_end_matches('}').trim();
            for sigil in ['$', '@', '%'] {
                self.names.forget(&format!("{sigil}{name}"));
            }
            return;
        }
        // Interpolation reads a variable; it cannot change it.
        if kind(node).starts_with("string_") || kind(node) == "word_list_qw" {
            return;
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.forget_in(Some(child));
        }
    }
}
