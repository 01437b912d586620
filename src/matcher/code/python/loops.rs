//! What a loop's name holds each time round: an item of a literal list in a comprehension,
//! an element of a listing (narrowed by its `if`), or the paths a list names.

use tree_sitter::Node;

use super::values::{contains, covering};
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::Slot;

impl<'t> Py<'_, '_, 't> {
    /// `[chr(c) for c in [46, 103]]` (or a generator): the body's value for each item of a
    /// literal list of a few items, the loop's one name bound to it in turn (`''.join(...)`
    /// of it is then known). Anything else, `if` clauses included, is not known.
    pub(super) fn over_literal(&mut self, node: Node<'t>, depth: usize) -> Obj {
        const MOST_ITEMS: usize = 256;
        let mut c = node.walk();
        let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
        let [body, clause] = parts.as_slice() else {
            return Obj::Val(Val::Unknown);
        };
        let (Some(left), Some(right)) = (by_field(*clause, "left"), by_field(*clause, "right"))
        else {
            return Obj::Val(Val::Unknown);
        };
        if kind(*clause) != "for_in_clause" || kind(left) != "identifier" {
            return Obj::Val(Val::Unknown);
        }
        // Over a listing (`(os.path.join(d, f) for f in files)`): each item is what the
        // body gives for an element of it, when the name is bound to that listing alone.
        if !matches!(kind(right), "list" | "tuple") {
            return match self.names.get(self.text(left)) {
                Some(Slot::Each(iterable)) if *iterable == right => {
                    Obj::Each(Box::new(self.eval(*body, depth + 1)))
                }
                _ => Obj::Val(Val::Unknown),
            };
        }
        if right.named_child_count() > MOST_ITEMS {
            return Obj::Val(Val::Unknown);
        }
        let name = self.text(left);
        let mut c = right.walk();
        let items: Vec<Node<'t>> = right.named_children(&mut c).collect();
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            let outer = self.names.replace(name, Some(Slot::Expr(item)));
            values.push(self.eval(*body, depth + 1).val());
            self.names.replace(name, outer);
        }
        Obj::List(values)
    }

    /// An element of a listing bound to `name`, narrowed by its comprehension's `if`.
    fn narrowed_element(&self, name: &str, element: Obj) -> Obj {
        let mut narrows = self.narrowed.iter().filter(|(n, _)| *n == name);
        // A name narrowed by two comprehensions is bound twice, so not read: be sure.
        let (Some((_, narrow)), None) = (narrows.next(), narrows.next()) else {
            return element;
        };
        match element {
            Obj::Val(Val::Known(p)) => match narrow.apply(&p) {
                Some(q) => Obj::Val(Val::Known(q)),
                None => Obj::Val(Val::Known(p)),
            },
            // A `pathlib` listing, narrowed by `p.suffix`.
            Obj::Path(Val::Known(p)) => match narrow.apply(&p) {
                Some(q) => Obj::Path(Val::Known(q)),
                None => Obj::Path(Val::Known(p)),
            },
            other => other,
        }
    }

    /// The loop variable `name`'s value in the body of a `for` over `iterable`.
    pub(super) fn element_of(&mut self, name: &str, iterable: Node<'t>, depth: usize) -> Obj {
        if !self.names.enter(name) {
            return Obj::Val(Val::Unknown);
        }
        let out = match self.eval(iterable, depth + 1) {
            Obj::Each(element) => self.narrowed_element(name, *element),
            // A list of paths (not read per item here): each of them, as the directory they
            // share with everything below it.
            Obj::List(items) => match items.split_first() {
                Some((first, rest)) => Obj::Val(
                    rest.iter()
                        .try_fold(first.clone(), |a, b| match a == *b {
                            true => Some(a),
                            false => covering(&a, b),
                        })
                        .unwrap_or(Val::Unknown),
                ),
                None => Obj::Val(Val::Unknown),
            },
            _ => Obj::Val(Val::Unknown),
        };
        self.names.leave();
        out
    }
}

/// Of the loops over `iterables`, the innermost whose body holds `node`: a `for`
/// statement's body, or what a comprehension makes of each element. Found by walking up
/// from `node`, at most [`LOOP_SEARCH_DEPTH`] levels (tree-sitter finds each parent by
/// walking down from the root, so the walk is bounded and done only for such names).
pub(super) fn enclosing_loop<'t>(node: Node<'t>, iterables: &[Node<'t>]) -> Option<Node<'t>> {
    let loops: Vec<(Node<'t>, Node<'t>)> = iterables
        .iter()
        .filter_map(|it| {
            let header = it.parent()?;
            // A comprehension's `for ... in` clause is beside what it makes, not around it.
            let scope = match kind(header) {
                "for_in_clause" => header.parent()?,
                _ => header,
            };
            Some((scope, *it))
        })
        .collect();
    let mut at = node;
    for _ in 0..LOOP_SEARCH_DEPTH {
        let parent = at.parent()?;
        if let Some((_, iterable)) = loops
            .iter()
            .find(|(scope, it)| *scope == parent && !contains(at, *it) && !contains(*it, at))
        {
            return Some(*iterable);
        }
        at = parent;
    }
    None
}

/// Levels walked up from a name to the loop around it.
const LOOP_SEARCH_DEPTH: usize = 48;
