//! A table grown by statements that may or may not have run (`if os.getenv("CI") then
//! table.insert(args, "--ci") end`, `args[#args + 1] = "src"`, see
//! [`growths`](crate::matcher::code::growths)): a call is read once with each set of them,
//! where the table would otherwise not be known.

use tree_sitter::Node;

use super::{Lua, Obj, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::growths::{Choosing, Chosen, LUA, Seen, extend_merging};
use crate::matcher::code::scope::{Cx, Slot};

impl<'a, 't> Lua<'a, '_, 't> {
    /// The table `table.insert(t, x)` or `table.insert(t, pos, x)` grows, where the call
    /// is a statement of its own.
    pub(super) fn inserted_into(&self, call: Node<'t>) -> Option<Node<'t>> {
        let statement = call
            .parent()
            .is_some_and(|p| matches!(kind(p), "block" | "chunk"));
        let callee = by_field(call, "name").map(|c| self.text(c).replace(' ', ""));
        let args = Self::arg_nodes(call);
        match (statement, callee.as_deref(), args.as_slice()) {
            (true, Some("table.insert"), [t, _] | [t, _, _]) if kind(*t) == "identifier" => {
                Some(*t)
            }
            _ => None,
        }
    }

    /// The table `t[#t + 1] = x` (the assignment `statement`, into `target`) appends to.
    pub(super) fn appended_to(&self, statement: Node<'t>, target: Node<'t>) -> Option<Node<'t>> {
        let table = by_field(target, "table").filter(|t| kind(*t) == "identifier")?;
        let index = by_field(target, "field")?;
        let alone = statement
            .parent()
            .is_some_and(|p| matches!(kind(p), "block" | "chunk"));
        let next = format!("#{}+1", self.text(table));
        (kind(target) == "bracket_index_expression"
            && alone
            && self.text(index).split_whitespace().collect::<String>() == next)
            .then_some(table)
    }

    /// `growth` adds to the table `target` names, bound once before it to a table
    /// constructor; false where it is not such a growth.
    pub(super) fn grow(&mut self, target: Node<'t>, growth: Node<'t>) -> bool {
        let name = self.text(target);
        let constructor = matches!(
            self.names.get(name),
            Some(Slot::Expr(v) | Slot::Grown(v, _)) if kind(*v) == "table_constructor"
        );
        if !constructor {
            return false;
        }
        self.grows = true;
        self.names.grow(name, growth)
    }

    /// The growths that may have run of the tables `call`'s arguments name, or what the
    /// names there are bound to, a few assignments deep; none when there are more than
    /// [`MOST_CHOICES`](crate::matcher::code::growths::MOST_CHOICES).
    pub(super) fn growth_choices(&self, call: Node<'t>) -> Vec<Node<'t>> {
        if !self.grows {
            return Vec::new();
        }
        let seen = |n: Node<'t>| match self.names.get(self.text(n)) {
            _ if kind(n) != "identifier" => Seen::Nothing,
            Some(Slot::Expr(value)) => Seen::Bound(*value),
            Some(Slot::Grown(value, growths)) => Seen::Grown(*value, growths),
            _ => Seen::Nothing,
        };
        let arguments = by_field(call, "arguments").into_iter().collect();
        LUA.search_choices(arguments, seen, Some)
            .unwrap_or_default()
    }

    /// The table bound to `value` and grown by `growths`, as `read` reads it: with the
    /// growths that have run and those chosen to. One that may have run but is not chosen
    /// adds an item not known, which stands for any number of them.
    pub(super) fn grown(
        &mut self,
        name: &str,
        read: Node<'t>,
        (value, growths): (Node<'t>, &[Node<'t>]),
        depth: usize,
    ) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        // `table` rebound is not the standard one.
        if self.jumps || self.names.get("table").is_some() {
            return unknown;
        }
        let Some(applied) = LUA.applied(&self.chosen, (value, growths), read) else {
            return unknown;
        };
        if !self.names.enter(name) {
            return unknown;
        }
        let mut out = match self.eval(value, depth + 1) {
            Obj::Table(items) => Some(items),
            _ => None,
        };
        for growth in applied {
            out = match (out, growth) {
                (Some(items), Some(growth)) => self.added(items, growth, depth + 1),
                (Some(mut items), None) => {
                    extend_merging(&mut items, vec![Val::Unknown], |v| *v == Val::Unknown);
                    Some(items)
                }
                (None, _) => None,
            };
        }
        self.names.leave();
        out.map_or(unknown, Obj::Table)
    }

    /// `items` with what `growth` adds: the value `t[#t + 1] = x` or `table.insert(t, x)`
    /// appends, or `table.insert(t, pos, x)` puts at a place known (no item before it
    /// stands for any number of them). `None` where that is not known.
    fn added(&mut self, mut items: Vec<Val>, growth: Node<'t>, depth: usize) -> Option<Vec<Val>> {
        let (at, value) = if kind(growth) == "function_call" {
            match Self::arg_nodes(growth).as_slice() {
                [_, value] => (None, *value),
                [_, at, value] => (Some(*at), *value),
                _ => return None,
            }
        } else {
            let values = Self::named(growth)
                .into_iter()
                .find(|p| kind(*p) == "expression_list")?;
            (None, *Self::named(values).first()?)
        };
        let value = self.eval(value, depth).val();
        let Some(at) = at else {
            extend_merging(&mut items, vec![value], |v| *v == Val::Unknown);
            return Some(items);
        };
        let place = self.eval(at, depth).val().text()?.parse::<usize>().ok()?;
        if place == 0 || place > items.len() + 1 || items[..place - 1].contains(&Val::Unknown) {
            return None;
        }
        items.insert(place - 1, value);
        Some(items)
    }
}

impl Choosing for Lua<'_, '_, '_> {
    fn chosen_and_cx(&mut self) -> (&mut Chosen, &mut Cx) {
        (&mut self.chosen, self.cx)
    }
}
