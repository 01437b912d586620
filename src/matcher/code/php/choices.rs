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
    /// The variable `$a[] = x;`, `array_push($a, x, ...);` or `$a = array_merge($a, [x],
    /// ...);` (`node`, a statement of its own) appends to.
    pub(super) fn pushed_onto(&self, node: Node<'t>) -> Option<Node<'t>> {
        if node
            .parent()
            .is_none_or(|p| kind(p) != "expression_statement")
        {
            return None;
        }
        let target = match (kind(node), by_field(node, "left")) {
            ("assignment_expression", Some(left)) if kind(left) == "variable_name" => {
                let merged =
                    by_field(node, "right").and_then(|r| self.first_of_call(r, "array_merge"))?;
                (self.var(merged) == self.var(left)).then_some(left)?
            }
            ("assignment_expression", Some(left)) if kind(left) == "subscript_expression" => {
                // `$a[]`: a subscript without a key.
                (left.named_child_count() == 1).then(|| left.named_child(0))??
            }
            ("function_call_expression", _) => self.first_of_call(node, "array_push")?,
            _ => return None,
        };
        self.var(target)
            .is_some_and(|v| v != "GLOBALS")
            .then_some(target)
    }

    /// The first argument of `call`, a call of `function` with plain arguments (none named
    /// or unpacked).
    fn first_of_call(&self, call: Node<'t>, function: &str) -> Option<Node<'t>> {
        let f = by_field(call, "function").filter(|_| kind(call) == "function_call_expression")?;
        let args = self.arg_nodes(call);
        let plain = args.iter().all(|a| {
            by_field(*a, "name").is_none()
                && a.named_child(0)
                    .is_some_and(|i| kind(i) != "variadic_unpacking")
        });
        if !(super::sinks::function_name(self.text(f)) == function && plain) {
            return None;
        }
        args.first()?.named_child(0)
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
    /// after the array, the items of the arrays `array_merge` adds (an item not known for
    /// one not known).
    fn added(&mut self, growth: Node<'t>, depth: usize) -> Vec<Val> {
        // `$a = array_merge($a, ...)`: a growth whose left side is the variable itself.
        let merged = by_field(growth, "right")
            .filter(|_| by_field(growth, "left").is_some_and(|l| kind(l) == "variable_name"));
        if kind(growth) == "assignment_expression" && merged.is_none() {
            let value = by_field(growth, "right");
            return vec![value.map_or(Val::Unknown, |v| self.eval(v, depth).val())];
        }
        let call = merged.unwrap_or(growth);
        let mut items = Vec::new();
        for arg in self.arg_nodes(call).iter().skip(1) {
            let value = arg.named_child(0).map(|inner| self.eval(inner, depth));
            match value {
                // `array_merge`'s arguments are arrays, spread.
                Some(Obj::Array(more)) if merged.is_some() => items.extend(more),
                Some(other) if merged.is_none() => items.push(other.val()),
                _ => items.push(Val::Unknown),
            }
        }
        items
    }
}

impl Choosing for Php<'_, '_, '_> {
    fn chosen_and_cx(&mut self) -> (&mut Chosen, &mut Cx) {
        (&mut self.chosen, self.cx)
    }
}
