//! Loops over a literal table, read once per item: `for _, cmd in ipairs({"make",
//! "make test"}) do os.execute(cmd) end`, or `pairs(TASKS)` over `local TASKS = {lint =
//! "luacheck .", test = "busted"}`, runs each item's command, where reading the call once
//! would run a command named at run time.
//!
//! The value variable of the innermost such loop around a call is bound to each item in
//! turn (its index or key is not known); loops may reuse a variable's name. That holds only
//! while the table is what the loop goes over: the constructor itself, or a name bound
//! once to one and never shared where it may change (see `Lua::forget_shared_tables`);
//! while the value variable's name is never assigned but as a loop's; while no item is
//! changed through the loop's variables (one assigned into, or handed to a function, drops
//! its loops from being read per item); and while no code can rebind names out of sight
//! (`wild`).

use std::collections::HashMap;

use tree_sitter::Node;

use super::{Lua, by_field, kind};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};

/// Items of one table read in turn, at most.
const MOST_ITEMS: usize = 16;
/// Nodes of one call looked at for a loop's variable.
const MOST_NODES: usize = 512;
/// Nodes looked at for loops' variables in the whole program: past it, each call is read
/// once, with the variables not known.
const MOST_SEARCHED: usize = 1 << 16;
/// Calls read once per item, over the whole program: past it, a call is read once, with
/// the loop's variables not known, so that a program of many calls in one loop costs a
/// bounded multiple of its size.
const MOST_ROUNDS: usize = 512;
/// Names whose values are looked into for a loop's variable, from one call.
const MOST_FOLLOWED: usize = 4;

/// One loop over a table: `for k, v in ipairs(T) do ... end`.
#[derive(Clone, Copy)]
struct Loop<'a, 't> {
    /// The `for` statement: a call inside it is in the loop.
    at: Node<'t>,
    /// The table expression it goes over.
    table: Node<'t>,
    /// Whether it is an `ipairs`.
    ipairs: bool,
    /// Its value variable (the second), if it has one.
    value: Option<&'a str>,
}

/// The loops over a table that may be read per item.
#[derive(Default)]
pub(super) struct Loops<'a, 't> {
    /// The loops each variable name is a variable of.
    of: HashMap<&'a str, Vec<Loop<'a, 't>>>,
    /// Names assigned other than as a loop's variable (`local c = ...`, a parameter): a
    /// loop whose value variable is one of them is not read per item.
    pub(super) assigned: std::collections::HashSet<&'a str>,
    /// Nodes looked at so far.
    searched: usize,
    /// Calls read once per item so far.
    rounds: usize,
}

impl<'a, 't> Lua<'a, '_, 't> {
    /// Binds the variables of `for k, v in ipairs(T)` (or `pairs`) to the parts of `T`'s
    /// items; whether the clause is one.
    pub(super) fn bind_loop(&mut self, clause: Node<'t>) -> bool {
        let parts = Self::named(clause);
        let [vars, exprs] = parts.as_slice() else {
            return false;
        };
        let vars = Self::named(*vars);
        let (exprs, n) = (Self::named(*exprs), vars.len());
        let ([call], 1..=2) = (exprs.as_slice(), n) else {
            return false;
        };
        let callee = by_field(*call, "name").map(|c| self.text(c));
        let args = by_field(*call, "arguments")
            .map(Self::named)
            .unwrap_or_default();
        let ("function_call", Some(f @ ("ipairs" | "pairs")), [table], Some(at)) =
            (kind(*call), callee, args.as_slice(), clause.parent())
        else {
            return false;
        };
        if self.names.get(f).is_some() || vars.iter().any(|v| kind(*v) != "identifier") {
            return false;
        }
        let this = Loop {
            at,
            table: *table,
            ipairs: f == "ipairs",
            value: vars.get(1).map(|v| self.text(*v)),
        };
        for (place, var) in vars.iter().enumerate() {
            let name = self.text(*var);
            self.names.bind(name, Slot::Part(*table, place));
            self.tables.of.entry(name).or_default().push(this);
        }
        true
    }

    /// A loop variable named `name` is assigned into, or handed on: the loops it is the
    /// variable of are not read per item, and the tables they go over are not known,
    /// unless their items are strings and numbers, which cannot be changed in place.
    pub(super) fn drop_loops_of(&mut self, name: &str) {
        let Some(loops) = self.tables.of.get(name).cloned() else {
            return;
        };
        for l in loops {
            let constant = self.literal_values(l.table, false).is_some_and(|values| {
                values
                    .iter()
                    .all(|v| matches!(kind(*v), "string" | "number"))
            });
            if constant {
                continue;
            }
            for loops in self.tables.of.values_mut() {
                loops.retain(|other| other.at != l.at);
            }
            if kind(l.table) == "identifier" {
                self.names.forget(self.text(l.table));
            }
        }
    }

    /// Reads `node` once for each item of the table that a loop variable named in its
    /// arguments goes over, with the value variable bound to that item; or once.
    pub(super) fn each_item(&mut self, node: Node<'t>, mut read: impl FnMut(&mut Self, Node<'t>)) {
        let Some((value_var, items)) = self.rounds(node) else {
            return read(self, node);
        };
        for item in items {
            let outer = self.names.replace(value_var, Some(Slot::Expr(item)));
            read(self, node);
            self.names.replace(value_var, outer);
        }
    }

    /// The value variable of the innermost loop around `node` whose variable `node`'s
    /// arguments name (or the value of a name they name does), and the values of its
    /// table's items.
    fn rounds(&mut self, node: Node<'t>) -> Option<(&'a str, Vec<Node<'t>>)> {
        if self.tables.of.is_empty() || self.wild {
            return None;
        }
        let l = self.loop_named_in(node)?;
        let value = l.value.filter(|v| !self.tables.assigned.contains(v))?;
        let values = self
            .literal_values(l.table, l.ipairs)
            .filter(|values| self.tables.rounds + values.len() <= MOST_ROUNDS)?;
        self.tables.rounds += values.len();
        Some((value, values))
    }

    /// The innermost loop around `node` whose variable is named in `node`'s arguments.
    fn loop_named_in(&mut self, node: Node<'t>) -> Option<Loop<'a, 't>> {
        let mut search: Vec<Node<'t>> = by_field(node, "arguments").into_iter().collect();
        let (mut nodes, mut followed) = (0, 0);
        let mut found = None;
        let around = |l: &&Loop<'a, 't>| {
            l.at.start_byte() <= node.start_byte() && node.end_byte() <= l.at.end_byte()
        };
        while let Some(root) = search.pop() {
            let mut assigned = Vec::new();
            visit(root, |n, _, at| {
                if found.is_some()
                    || at == Visit::Leave
                    || nodes >= MOST_NODES
                    || self.tables.searched + nodes >= MOST_SEARCHED
                {
                    return false;
                }
                nodes += 1;
                if kind(n) == "identifier" {
                    let name = self.text(n);
                    if let Some(loops) = self.tables.of.get(name) {
                        found = loops
                            .iter()
                            .filter(around)
                            .min_by_key(|l| l.at.end_byte() - l.at.start_byte())
                            .copied();
                    } else if let Some(Slot::Expr(value)) = self.names.get(name) {
                        assigned.push(*value);
                    }
                }
                true
            });
            if found.is_some() || followed >= MOST_FOLLOWED {
                break;
            }
            followed += assigned.len();
            search.extend(assigned);
        }
        self.tables.searched += nodes;
        found
    }

    /// The values of the items of the table constructor `table` is, or is the name of: all
    /// of them for `pairs`, which must then all be positional for `ipairs`; none may be
    /// `...` or a call last in the list (each spreads into several items).
    fn literal_values(&self, table: Node<'t>, ipairs: bool) -> Option<Vec<Node<'t>>> {
        let constructor = match kind(table) {
            "identifier" => match self.names.get(self.text(table)) {
                Some(Slot::Expr(v)) => *v,
                _ => return None,
            },
            _ => table,
        };
        if kind(constructor) != "table_constructor" {
            return None;
        }
        let fields = Self::named(constructor);
        let mut values = Vec::new();
        for (n, field) in fields.iter().enumerate() {
            let value = by_field(*field, "value")?;
            let positional = by_field(*field, "name").is_none();
            let spreads = matches!(kind(value), "vararg_expression" | "function_call");
            if (ipairs && !positional) || (positional && spreads && n + 1 == fields.len()) {
                return None;
            }
            values.push(value);
        }
        (!values.is_empty() && values.len() <= MOST_ITEMS).then_some(values)
    }
}
