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
        // The rest of the statement, which the grammar may have cut into siblings: an
        // error there may hide a modifier (`push @a, 'x', 'y' x 2 if $c` swallows the
        // `if`).
        let modified = call
            .parent()
            .is_some_and(|p| kind(p) == "single_line_statement");
        let mut next = call.next_sibling().filter(|_| !modified);
        while let Some(n) = next.filter(|n| n.kind() != ";") {
            if n.is_error() || n.has_error() {
                return None;
            }
            next = n.next_sibling();
        }
        let mut at = call.parent()?;
        // `push @a, x if $c;`, and `push @a, x, y if $c;`, where the grammar leaves the
        // list after the second comma in an error node (see `trailing_items`).
        if kind(at) == "single_line_statement" {
            let mut c = at.walk();
            let parts: Vec<&str> = at.named_children(&mut c).map(|n| kind(n)).collect();
            let modifier = |k: &str| matches!(k, "if_simple_statement" | "unless_simple_statement");
            match parts.as_slice() {
                [_, m] if modifier(m) => {}
                [_, "ERROR", m] if modifier(m) && trailing_items(at).is_some() => {}
                _ => return None,
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
            let mut args = self.arg_nodes(growth);
            args.extend(growth.parent().and_then(trailing_items).unwrap_or_default());
            Some(
                args.into_iter()
                    .skip(1)
                    .flat_map(|a| self.eval(a, code, depth + 1).list())
                    .collect(),
            )
        });
        self.names.leave();
        out.map_or(unknown, Obj::List)
    }
}

/// The items the grammar leaves in an error node after a call under a statement modifier
/// (`push @a, 'x', 'y' if $c`: `, 'y'`), when the node holds a comma before each of them
/// and nothing else.
fn trailing_items(statement: Node<'_>) -> Option<Vec<Node<'_>>> {
    let mut c = statement.walk();
    let error = statement
        .named_children(&mut c)
        .find(|n| kind(*n) == "ERROR")?;
    // Nothing but them: an operator the grammar left out of an item would change it.
    let mut c = error.walk();
    if error
        .children(&mut c)
        .any(|n| !n.is_named() && !matches!(n.kind(), "(" | ")"))
    {
        return None;
    }
    let mut c = error.walk();
    let parts: Vec<Node<'_>> = error.named_children(&mut c).collect();
    let mut items = Vec::new();
    for pair in parts.chunks(2) {
        match pair {
            [comma, item]
                if kind(*comma) == "normal_comma"
                    && !matches!(kind(*item), "ERROR" | "normal_comma")
                    && !item.has_error() =>
            {
                items.push(*item)
            }
            _ => return None,
        }
    }
    (!items.is_empty()).then_some(items)
}

impl Choosing for Pl<'_, '_, '_> {
    fn chosen_and_cx(&mut self) -> (&mut Chosen, &mut Cx) {
        (&mut self.chosen, self.cx)
    }
}
