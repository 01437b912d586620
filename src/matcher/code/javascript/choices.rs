//! An array grown by `push` statements that may or may not have run (`if (process.env.CI)
//! args.push('--ci')`, see [`growths`](crate::matcher::code::growths)): a call is read
//! once with each set of them, where the array would otherwise not be known.

use tree_sitter::Node;

use super::{Js, Obj, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::growths::{Choosing, Chosen, JAVASCRIPT, each_way, extend_merging};
use crate::matcher::code::scope::Cx;
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};

/// Growths read both ways for one call, at most: past it, none is (the array is then not
/// known, as before), so a call is read at most 2^4 times.
const MOST_CHOICES: usize = 4;
/// Nodes looked at for one call, and assignments followed from it.
const MOST_NODES: usize = 512;
const MOST_ASSIGNMENTS: usize = 12;

impl<'a, 't> Js<'a, '_, 't> {
    /// The growths that may have run of the arrays `call`'s arguments name, or what the
    /// names there are bound to, a few assignments deep; none when there are more than
    /// [`MOST_CHOICES`].
    pub(super) fn growth_choices(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let mut found: Vec<Node<'t>> = Vec::new();
        if !self.grows {
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
                if kind(node) == "identifier" {
                    match self.names.get(self.text(node)) {
                        Some(Slot::Expr(value)) => assigned.push(*value),
                        Some(Slot::Grown(value, growths)) => JAVASCRIPT.choices_of(
                            (*value, growths, node),
                            &mut found,
                            &mut assigned,
                            |g| by_field(g, "arguments"),
                        ),
                        _ => {}
                    }
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

    /// Runs `f` once per set of `choices` that may have run.
    pub(super) fn each_choice(&mut self, choices: &[Node<'t>], f: impl FnMut(&mut Self)) {
        each_way(self, choices, f);
    }

    /// The array `name`, bound to `value` and grown by `growths`, as `read` reads it: with
    /// the growths that have run and those chosen to. One that may have run but is not
    /// chosen (past [`MOST_CHOICES`]) adds an item not known, which stands for any number
    /// of them, as a spread array's does.
    pub(super) fn grown(
        &mut self,
        name: &'a str,
        read: Node<'t>,
        value: Node<'t>,
        growths: &[Node<'t>],
        depth: usize,
    ) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        let Some(ran) = JAVASCRIPT.growths_ran(value, growths, read) else {
            return unknown;
        };
        let applied = self.chosen.applied(growths, ran);
        if !self.unaliased(name) || !self.names.enter(name) {
            return unknown;
        }
        let mut out = self.eval(value, depth + 1);
        for growth in applied {
            let more = match growth {
                Some(growth) => self.args(growth, depth + 1),
                None => super::values::Args {
                    items: vec![unknown.clone()],
                    open: false,
                },
            };
            out = match out {
                Obj::List(mut items) if !more.open => {
                    extend_merging(&mut items, more.items, |o| {
                        matches!(o, Obj::Val(Val::Unknown))
                    });
                    Obj::List(items)
                }
                _ => unknown.clone(),
            };
        }
        self.names.leave();
        match out {
            out @ Obj::List(_) => out,
            _ => unknown,
        }
    }
}

impl Choosing for Js<'_, '_, '_> {
    fn chosen_and_cx(&mut self) -> (&mut Chosen, &mut Cx) {
        (&mut self.chosen, self.cx)
    }
}
