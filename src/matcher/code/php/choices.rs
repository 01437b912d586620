//! An array grown by statements that may or may not have run (`if (getenv('CI')) $args[] =
//! '--ci';`, `array_push($args, ...)`, see [`growths`](crate::matcher::code::growths)): a
//! call is read once with each set of them, where the array would otherwise not be known.
//! PHP copies an array on assignment, so only the variable itself grows it.

use tree_sitter::Node;

use super::{Obj, Php, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::growths::{Choosing, Chosen, PHP, Seen, with_growths};
use crate::matcher::code::scope::{Cx, Slot};

impl<'t> Php<'_, '_, 't> {
    /// The variable `$a[] = x;` or `array_push($a, x, ...);` (`node`, a statement of its
    /// own) appends to.
    pub(super) fn pushed_onto(&self, node: Node<'t>) -> Option<Node<'t>> {
        if node
            .parent()
            .is_none_or(|p| kind(p) != "expression_statement")
        {
            return None;
        }
        let target = match kind(node) {
            "assignment_expression" => {
                let left = by_field(node, "left").filter(|l| kind(*l) == "subscript_expression")?;
                // `$a[]`: a subscript without a key.
                (left.named_child_count() == 1).then(|| left.named_child(0))??
            }
            "function_call_expression" => {
                let f = by_field(node, "function")?;
                let args = self.arg_nodes(node);
                let plain = args.iter().all(|a| {
                    by_field(*a, "name").is_none()
                        && a.named_child(0)
                            .is_some_and(|i| kind(i) != "variadic_unpacking")
                });
                if !(super::sinks::function_name(self.text(f)) == "array_push" && plain) {
                    return None;
                }
                args.first()?.named_child(0)?
            }
            _ => return None,
        };
        self.var(target)
            .is_some_and(|v| v != "GLOBALS")
            .then_some(target)
    }

    /// `growth` appends to the array `target` names, bound once before it to an array
    /// literal; false where it is not such a growth.
    pub(super) fn grow(&mut self, target: Node<'t>, growth: Node<'t>) -> bool {
        let Some(var) = self.var(target) else {
            return false;
        };
        let key = format!("${var}");
        let literal = matches!(
            self.names.get(&key),
            Some(Slot::Expr(v) | Slot::Grown(v, _)) if kind(*v) == "array_creation_expression"
        );
        if !literal {
            return false;
        }
        self.grows = true;
        self.names.grow(&key, growth)
    }

    /// The growths that may have run of the arrays `call`'s arguments name, or what the
    /// names there are bound to, a few assignments deep; none when there are more than
    /// [`MOST_CHOICES`](crate::matcher::code::growths::MOST_CHOICES).
    pub(super) fn growth_choices(&self, call: Node<'t>) -> Vec<Node<'t>> {
        if !self.grows {
            return Vec::new();
        }
        let seen = |n: Node<'t>| match self.var(n).map(|v| self.names.get(&format!("${v}"))) {
            Some(Some(Slot::Expr(value))) => Seen::Bound(*value),
            Some(Some(Slot::Grown(value, growths))) => Seen::Grown(*value, growths),
            _ => Seen::Nothing,
        };
        let arguments = by_field(call, "arguments").into_iter().collect();
        PHP.search_choices(arguments, seen, Some)
            .unwrap_or_default()
    }

    /// The array `key` names, bound to `value` and grown by `growths`, as `read` reads it:
    /// with the growths that have run and those chosen to. One that may have run but is
    /// not chosen adds an item not known, which stands for any number of them.
    pub(super) fn grown(
        &mut self,
        key: &str,
        read: Node<'t>,
        (value, growths): (Node<'t>, &[Node<'t>]),
        depth: usize,
    ) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        if self.wild || self.jumps {
            return unknown;
        }
        let Some(applied) = PHP.applied(&self.chosen, (value, growths), read) else {
            return unknown;
        };
        if !self.names.enter(key) {
            return unknown;
        }
        let out = match self.eval(value, depth + 1) {
            Obj::Array(items) => with_growths(items, applied, |g| Some(self.added(g, depth + 1))),
            _ => None,
        };
        self.names.leave();
        out.map_or(unknown, Obj::Array)
    }

    /// The items a growth appends: the value of `$a[] = x`, the arguments of `array_push`
    /// after the array.
    fn added(&mut self, growth: Node<'t>, depth: usize) -> Vec<Val> {
        if kind(growth) == "assignment_expression" {
            let value = by_field(growth, "right");
            return vec![value.map_or(Val::Unknown, |v| self.eval(v, depth).val())];
        }
        let args = self.arg_nodes(growth);
        args.iter()
            .skip(1)
            .map(|a| match a.named_child(0) {
                Some(inner) => self.eval(inner, depth).val(),
                None => Val::Unknown,
            })
            .collect()
    }
}

impl Choosing for Php<'_, '_, '_> {
    fn chosen_and_cx(&mut self) -> (&mut Chosen, &mut Cx) {
        (&mut self.chosen, self.cx)
    }
}
