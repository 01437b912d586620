//! Loops over a literal table, read once per item: `for _, cmd in ipairs({"make",
//! "make test"}) do os.execute(cmd) end`, or `pairs(TASKS)` over `local TASKS = {lint =
//! "luacheck .", test = "busted"}`, runs each item's command, where reading the call once
//! would run a command named at run time.
//!
//! The loop's value variable is bound to each item in turn (its index or key is not
//! known). That holds only while the table is what the loop goes over: the constructor
//! itself, or a name bound once to one and never shared where it may change (see
//! `Lua::forget_shared_tables`); while the loop's variables are not assigned in its body;
//! while no item is changed through them (a variable assigned into, or handed to a
//! function, drops its loop from being read per item); and while no code can rebind names
//! out of sight (`wild`).

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
/// Names whose values are looked into for a loop's variable, from one call.
const MOST_FOLLOWED: usize = 4;

/// The loops over a table that may be read per item.
#[derive(Default)]
pub(super) struct Loops<'a, 't> {
    /// Each loop's variables, and whether it is an `ipairs`, by the id of the table
    /// expression it goes over.
    vars: HashMap<usize, (bool, Vec<&'a str>)>,
    /// The table expressions each variable name goes over.
    over: HashMap<&'a str, Vec<Node<'t>>>,
    /// Nodes looked at so far.
    searched: usize,
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
        let ("function_call", Some(f @ ("ipairs" | "pairs")), [table]) =
            (kind(*call), callee, args.as_slice())
        else {
            return false;
        };
        if self.names.get(f).is_some() || vars.iter().any(|v| kind(*v) != "identifier") {
            return false;
        }
        let mut names = Vec::new();
        for (place, var) in vars.iter().enumerate() {
            let name = self.text(*var);
            self.names.bind(name, Slot::Part(*table, place));
            self.tables.over.entry(name).or_default().push(*table);
            names.push(name);
        }
        self.tables.vars.insert(table.id(), (f == "ipairs", names));
        true
    }

    /// A loop variable named `name` is assigned into, or handed on: the loops it is the
    /// variable of are not read per item, and the tables they go over are not known,
    /// unless their items are strings and numbers, which cannot be changed in place.
    pub(super) fn drop_loops_of(&mut self, name: &str) {
        for table in self.tables.over.remove(name).unwrap_or_default() {
            let constant = self.literal_values(table, false).is_some_and(|values| {
                values
                    .iter()
                    .all(|v| matches!(kind(*v), "string" | "number"))
            });
            if constant {
                continue;
            }
            self.tables.vars.remove(&table.id());
            if kind(table) == "identifier" {
                self.names.forget(self.text(table));
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

    /// The value variable of the loop whose variable `node`'s arguments name (or the
    /// value of a name they name does), and the values of its table's items.
    fn rounds(&mut self, node: Node<'t>) -> Option<(&'a str, Vec<Node<'t>>)> {
        if self.tables.vars.is_empty() || self.wild {
            return None;
        }
        let table = self.loop_named_in(node)?;
        let (ipairs, vars) = self.tables.vars.get(&table.id())?.clone();
        // Each variable is still the loop's (not assigned in its body).
        let own = vars.iter().enumerate().all(|(place, v)| {
            matches!(self.names.get(v), Some(Slot::Part(t, p)) if *t == table && *p == place)
        });
        let value_var = *vars.get(1).filter(|_| own)?;
        Some((value_var, self.literal_values(table, ipairs)?))
    }

    /// The table of the loop whose variable is named in `node`'s arguments.
    fn loop_named_in(&mut self, node: Node<'t>) -> Option<Node<'t>> {
        let mut search: Vec<Node<'t>> = by_field(node, "arguments").into_iter().collect();
        let (mut nodes, mut followed) = (0, 0);
        let mut found = None;
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
                    match self.names.get(self.text(n)) {
                        Some(Slot::Part(t, _)) if self.tables.vars.contains_key(&t.id()) => {
                            found = Some(*t)
                        }
                        Some(Slot::Expr(value)) => assigned.push(*value),
                        _ => {}
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
