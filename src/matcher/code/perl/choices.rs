//! An array grown by statements that may or may not have run (`push @args, '-v' if
//! $ENV{VERBOSE};`, see [`growths`](crate::matcher::code::growths)): a call is read once
//! with each set of them, where the array would otherwise not be known.

use tree_sitter::Node;

use super::{Obj, Pl, kind};
use crate::matcher::code::Val;
use crate::matcher::code::growths::{Choosing, Chosen, PERL, Seen, with_growths};
use crate::matcher::code::scope::{Cx, Slot};
use crate::matcher::code::tree::MAX_NESTING;

impl<'t> Pl<'_, '_, 't> {
    /// The array `push @a, x, ...` (`call`) appends to, where the call is a statement of
    /// its own, or one with an `if` or `unless` after it, and every block around it is an
    /// `if`'s or `unless`'s (a `map`'s or a bare block may run any number of times).
    pub(super) fn pushed_onto(&self, call: Node<'t>) -> Option<Node<'t>> {
        if self.callee(call).as_deref() != Some("push") {
            return None;
        }
        let target = *self.arg_nodes(call).first()?;
        let plain = kind(target) == "array_variable" && !self.text(target).contains('{');
        let mut at = call.parent()?;
        // `push @a, x if $c;`: the grammar leaves nothing else in the statement (a list
        // after a second comma there is an error node).
        if kind(at) == "single_line_statement" {
            let mut c = at.walk();
            let parts: Vec<&str> = at.named_children(&mut c).map(|n| kind(n)).collect();
            if !matches!(
                parts.as_slice(),
                [_, "if_simple_statement" | "unless_simple_statement"]
            ) {
                return None;
            }
            at = at.parent()?;
        }
        for _ in 0..MAX_NESTING {
            match kind(at) {
                "source_file" | "function_definition" | "function_definition_without_sub" => {
                    return plain.then_some(target);
                }
                "block" => {
                    let parent = at.parent()?;
                    if !matches!(
                        kind(parent),
                        "if_statement"
                            | "unless_statement"
                            | "else_clause"
                            | "elsif_clause"
                            | "function_definition"
                            | "function_definition_without_sub"
                    ) {
                        return None;
                    }
                    at = parent;
                }
                "if_statement" | "unless_statement" | "else_clause" | "elsif_clause" => {
                    at = at.parent()?;
                }
                _ => return None,
            }
        }
        None
    }

    /// `growth` appends to the array `target` names, bound once before it; false where it
    /// is not such a growth.
    pub(super) fn grow(&mut self, target: Node<'t>, growth: Node<'t>) -> bool {
        let name = self.text(target).trim();
        if !matches!(self.names.get(name), Some(Slot::Expr(_) | Slot::Grown(..))) {
            return false;
        }
        self.grows = true;
        self.names.grow(name, growth)
    }

    /// The growths that may have run of the arrays `call`'s arguments name, or what the
    /// names there are bound to, a few assignments deep; none when there are more than
    /// [`MOST_CHOICES`](crate::matcher::code::growths::MOST_CHOICES).
    pub(super) fn growth_choices(&self, call: Node<'t>) -> Vec<Node<'t>> {
        if !self.grows {
            return Vec::new();
        }
        let seen = |n: Node<'t>| match kind(n) {
            "array_variable" | "scalar_variable" => match self.names.get(self.text(n).trim()) {
                Some(Slot::Expr(value)) => Seen::Bound(*value),
                Some(Slot::Grown(value, growths)) => Seen::Grown(*value, growths),
                _ => Seen::Nothing,
            },
            _ => Seen::Nothing,
        };
        PERL.search_choices(self.arg_nodes(call), seen, Some)
            .unwrap_or_default()
    }

    /// The array `name`, bound to `value` and grown by `growths`, as `read` reads it: with
    /// the growths that have run and those chosen to. One that may have run but is not
    /// chosen adds an item not known, which stands for any number of them.
    pub(super) fn grown(
        &mut self,
        name: &str,
        read: Node<'t>,
        (value, growths): (Node<'t>, &[Node<'t>]),
        depth: usize,
    ) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        if self.jumps || self.all_unknown {
            return unknown;
        }
        let Some(applied) = PERL.applied(&self.chosen, (value, growths), read) else {
            return unknown;
        };
        if !self.names.enter(name) {
            return unknown;
        }
        let items = self.eval(value, self.src.text, depth + 1).list();
        let code = self.src.text;
        let out = with_growths(items, applied, |growth| {
            let args = self.arg_nodes(growth).into_iter().skip(1);
            Some(
                args.flat_map(|a| self.eval(a, code, depth + 1).list())
                    .collect(),
            )
        });
        self.names.leave();
        out.map_or(unknown, Obj::List)
    }
}

impl Choosing for Pl<'_, '_, '_> {
    fn chosen_and_cx(&mut self) -> (&mut Chosen, &mut Cx) {
        (&mut self.chosen, self.cx)
    }
}
