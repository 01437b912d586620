//! An array grown by `push` statements that may or may not have run (`if (process.env.CI)
//! args.push('--ci')`, see [`growths`](crate::matcher::code::growths)): a call is read
//! once with each set of them, where the array would otherwise not be known.

use tree_sitter::Node;

use super::{Js, Obj, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::growths::{Choosing, Chosen, JAVASCRIPT, Seen, each_way, extend_merging};
use crate::matcher::code::scope::Cx;
use crate::matcher::code::scope::Slot;

impl<'a, 't> Js<'a, '_, 't> {
    /// The growths that may have run of the arrays `call`'s arguments name, or what the
    /// names there are bound to, a few assignments deep; none when there are more than
    /// [`MOST_CHOICES`](crate::matcher::code::growths::MOST_CHOICES).
    pub(super) fn growth_choices(&self, call: Node<'t>) -> Vec<Node<'t>> {
        if !self.grows {
            return Vec::new();
        }
        let seen = |node: Node<'t>| match self.names.get(self.text(node)) {
            _ if kind(node) != "identifier" => Seen::Nothing,
            Some(Slot::Expr(value)) => Seen::Bound(*value),
            Some(Slot::Grown(value, growths)) => Seen::Grown(*value, growths),
            _ => Seen::Nothing,
        };
        let arguments = by_field(call, "arguments").into_iter().collect();
        JAVASCRIPT
            .search_choices(arguments, seen, |g| by_field(g, "arguments"))
            .unwrap_or_default()
    }

    /// Runs `f` once per set of `choices` that may have run.
    pub(super) fn each_choice(&mut self, choices: &[Node<'t>], f: impl FnMut(&mut Self)) {
        each_way(self, choices, f);
    }

    /// The array `name`, bound to `value` and grown by `growths`, as `read` reads it: with
    /// the growths that have run and those chosen to. One that may have run but is not
    /// chosen (past [`MOST_CHOICES`](crate::matcher::code::growths::MOST_CHOICES)) adds an item not known, which stands for any number
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
        let Some(applied) = JAVASCRIPT.applied(&self.chosen, (value, growths), read) else {
            return unknown;
        };
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
