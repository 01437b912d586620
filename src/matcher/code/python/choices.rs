//! Either side of a conditional expression: `argv = ['black', '--check'] if ci else
//! ['black']` then `subprocess.run(argv)` runs one of two commands, so the call is read
//! once with each (both are then judged), where a value not known would make it unreadable.

use tree_sitter::Node;

use super::{Py, by_field, kind};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};

/// Conditionals read both ways for one call, at most: past it, none is (the call's value
/// is then not known, as before), so a call is read at most 2^3 times.
const MOST_CHOICES: usize = 3;
/// Nodes looked at for one call, and assignments followed from it.
const MOST_NODES: usize = 512;
const MOST_ASSIGNMENTS: usize = 4;

impl<'t> Py<'_, '_, 't> {
    /// The conditional expressions (`a if c else b`) in `call`'s arguments, or in what the
    /// names there are bound to, a few assignments deep; none when there are more than
    /// [`MOST_CHOICES`].
    pub(super) fn conditionals(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let mut found: Vec<Node<'t>> = Vec::new();
        if !self.has_conditionals {
            return found;
        }
        let mut search: Vec<Node<'t>> = by_field(call, "arguments").into_iter().collect();
        let (mut nodes, mut followed) = (0, 0);
        while let Some(root) = search.pop() {
            let mut assigned = Vec::new();
            visit(root, |node, _, at| {
                if at == Visit::Leave || nodes >= MOST_NODES {
                    return false;
                }
                nodes += 1;
                match kind(node) {
                    "conditional_expression" if !found.contains(&node) => found.push(node),
                    "identifier" => {
                        if let Some(Slot::Expr(value)) = self.names.get(self.text(node)) {
                            assigned.push(*value);
                        }
                    }
                    _ => {}
                }
                true
            });
            for value in assigned {
                if followed < MOST_ASSIGNMENTS {
                    followed += 1;
                    search.push(value);
                }
            }
        }
        if found.len() > MOST_CHOICES || nodes >= MOST_NODES {
            found.clear();
        }
        found
    }

    /// Runs `f` once per way `conditionals` can go, each read as the side it takes.
    pub(super) fn each_choice(&mut self, conditionals: &[Node<'t>], mut f: impl FnMut(&mut Self)) {
        if conditionals.is_empty() {
            return f(self);
        }
        let outer = self.chosen.len();
        for ways in 0..1usize << conditionals.len() {
            for (k, c) in conditionals.iter().enumerate() {
                self.chosen.push((c.id(), ways & (1 << k) == 0));
            }
            f(self);
            self.chosen.truncate(outer);
        }
    }

    /// The side of the conditional `node` being read, when it is one of those read both
    /// ways.
    pub(super) fn chosen_side(&self, node: Node<'t>) -> Option<Node<'t>> {
        let &(_, first) = self.chosen.iter().rev().find(|(id, _)| *id == node.id())?;
        // `a if c else b`: the named children are a, c and b.
        node.named_child(if first { 0 } else { 2 })
    }
}
