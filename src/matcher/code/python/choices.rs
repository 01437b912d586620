//! Either side of a conditional expression: `argv = ['black', '--check'] if ci else
//! ['black']` then `subprocess.run(argv)` runs one of two commands, so the call is read
//! once with each (both are then judged), where a value not known would make it unreadable.
//! So too a growth of a list that may or may not have run (see [`growths`](super::growths)),
//! and, where there is room left, either side of an `or` or `and` whose left side's truth
//! is not known (`args += sys.argv[1:] or ['tests']`).

use tree_sitter::Node;

use super::{Py, by_field, kind};
use crate::matcher::code::growths::{Choosing, Chosen, MOST_CHOICES, PYTHON, Seen, each_way};
use crate::matcher::code::scope::Cx;
use crate::matcher::code::scope::Slot;

impl<'t> Py<'_, '_, 't> {
    /// The choices in `call`'s arguments, or in what the names there are bound to, a few
    /// assignments deep: conditional expressions (`a if c else b`) and growths that may
    /// have run, none when there are more than [`MOST_CHOICES`]; then `or` and `and`, as
    /// many as there is room for.
    pub(super) fn conditionals(&self, call: Node<'t>) -> Vec<Node<'t>> {
        if !self.has_conditionals {
            return Vec::new();
        }
        // `or` and `and`, read both ways only where there is room once the rest are.
        let mut either: Vec<Node<'t>> = Vec::new();
        let seen = |node: Node<'t>| match kind(node) {
            "conditional_expression" => Seen::Choice(node),
            "boolean_operator" => {
                if !either.contains(&node) {
                    either.push(node);
                }
                Seen::Nothing
            }
            "identifier" => match self.names.get(self.text(node)) {
                Some(Slot::Expr(value)) => Seen::Bound(*value),
                Some(Slot::Grown(value, growths)) => Seen::Grown(*value, growths),
                _ => Seen::Nothing,
            },
            _ => Seen::Nothing,
        };
        let arguments = by_field(call, "arguments").into_iter().collect();
        let added = |g| by_field(g, "right").or_else(|| by_field(g, "arguments"));
        let Some(mut found) = PYTHON.search_choices(arguments, seen, added) else {
            return Vec::new();
        };
        let room = MOST_CHOICES - found.len();
        found.extend(either.into_iter().take(room));
        found
    }

    /// Runs `f` once per way `conditionals` can go, each read as the side it takes.
    pub(super) fn each_choice(&mut self, conditionals: &[Node<'t>], f: impl FnMut(&mut Self)) {
        each_way(self, conditionals, f);
    }

    /// The side of the conditional, `or` or `and` `node` being read, when it is one of
    /// those read both ways.
    pub(super) fn chosen_side(&self, node: Node<'t>) -> Option<Node<'t>> {
        let first = self.chosen_way(node)?;
        match kind(node) {
            "boolean_operator" => by_field(node, if first { "left" } else { "right" }),
            // `a if c else b`: the named children are a, c and b.
            _ => node.named_child(if first { 0 } else { 2 }),
        }
    }

    /// Whether the growth `node` ran (or the first side of a conditional is taken), when it
    /// is one of those read both ways.
    pub(super) fn chosen_way(&self, node: Node<'t>) -> Option<bool> {
        self.chosen.way(node)
    }
}

impl Choosing for Py<'_, '_, '_> {
    fn chosen_and_cx(&mut self) -> (&mut Chosen, &mut Cx) {
        (&mut self.chosen, self.cx)
    }
}
