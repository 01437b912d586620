//! What code may change in place: a function's parameters its body binds again or
//! changes, and names whose value (a list, dictionary or set) is changed by a method,
//! through an item, or shared where it may be (another name for it, a container, a
//! function of the code's own).

mod library;

use std::collections::HashSet;

use tree_sitter::Node;

use super::inline::{Param, param_name};
use super::{Py, by_field, kind};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};
use library::{library_or_reader, shares_nothing};

/// The parameters of a function whose values in its body may not be the arguments'.
#[derive(Debug, Clone, Default)]
pub(super) struct Changes {
    /// Bound again anywhere in the body (`c = c + x`, `c += x`, `for c in ...`, `del c`,
    /// a nested `def c` or `nonlocal c`): not known there.
    pub(super) rebound: Vec<String>,
    /// Changed in place by a method (`args.append(x)`) or handed to a function that is
    /// not a library's (which may change it): a list given for it is not known there.
    pub(super) shared: Vec<String>,
}

/// Methods that change a list, dictionary or set in place.
pub(super) const MUTATORS: &[&str] = &[
    "append",
    "extend",
    "insert",
    "remove",
    "pop",
    "popitem",
    "clear",
    "sort",
    "reverse",
    "update",
    "setdefault",
    "add",
    "discard",
    "__setitem__",
    "__delitem__",
    "__iadd__",
];

impl Changes {
    pub(super) fn of(py: &Py<'_, '_, '_>, def: Node<'_>, params: &[Param<'_>]) -> Changes {
        let names: Vec<&str> = params.iter().map(param_name).collect();
        let mut out = Changes::default();
        let Some(body) = by_field(def, "body") else {
            return out;
        };
        let mut ancestors: Vec<Node<'_>> = Vec::new();
        visit(body, |node, depth, at| {
            if at == Visit::Leave {
                return false;
            }
            ancestors.truncate(depth);
            ancestors.push(node);
            if kind(node) != "identifier" {
                return true;
            }
            let name = py.text(node);
            // `self.path`'s `path` and `f(path=x)`'s `path` name no variable.
            let a_variable = match depth.checked_sub(1).and_then(|d| ancestors.get(d)) {
                Some(p) if kind(*p) == "attribute" => by_field(*p, "attribute") != Some(node),
                Some(p) if kind(*p) == "keyword_argument" => by_field(*p, "name") != Some(node),
                _ => true,
            };
            if !a_variable || !names.contains(&name) {
                return true;
            }
            if rebinds(&ancestors) && !out.rebound.iter().any(|r| r == name) {
                out.rebound.push(name.to_owned());
            }
            if shares(py, &ancestors) && !out.shared.iter().any(|r| r == name) {
                out.shared.push(name.to_owned());
            }
            true
        });
        out
    }
}

/// Whether the identifier last in `path` (its ancestors before it) is in a place that binds
/// it: the target of an assignment (or an item or attribute of it), of a `for`, of `with
/// ... as`, `except ... as` or `:=`, a name `del`, `global`, `nonlocal` or `import` give,
/// a function or class defined under it, or a name a `case` pattern captures.
pub(super) fn rebinds(path: &[Node<'_>]) -> bool {
    path.windows(2).rev().any(|w| {
        let (a, child) = (w[0], w[1]);
        match kind(a) {
            "assignment" | "augmented_assignment" | "for_statement" | "for_in_clause" => {
                by_field(a, "left") == Some(child)
            }
            "named_expression" => by_field(a, "name") == Some(child),
            "as_pattern" => by_field(a, "alias") == Some(child),
            "function_definition" | "class_definition" => by_field(a, "name") == Some(child),
            "delete_statement"
            | "global_statement"
            | "nonlocal_statement"
            | "import_statement"
            | "import_from_statement"
            | "case_pattern" => true,
            _ => false,
        }
    })
}

/// Whether the identifier last in `path` is the object of a method that changes it in
/// place, or an argument of a call of something not a library's or a built-in that only
/// reads.
pub(super) fn shares(py: &Py<'_, '_, '_>, path: &[Node<'_>]) -> bool {
    let [.., _, parent, _] = path else {
        return false;
    };
    match kind(*parent) {
        "attribute" => mutated_by_method(py, path),
        // Handed over whole (`grow(args)`, `f(x=args)`), not spread (`f(*args)` hands over
        // its items).
        "argument_list" | "keyword_argument" => {
            let call = path
                .iter()
                .rev()
                .take(4)
                .find(|a| kind(**a) == "call")
                .and_then(|c| by_field(*c, "function"));
            !call.is_some_and(|f| library_or_reader(py, f))
        }
        _ => false,
    }
}

/// How a name's value may be changed where it is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Change {
    /// Changed in place: a method that changes it, or an item assigned or deleted, or an
    /// item of it changed so (`argv.append(x)`, `table[0].append(x)`, `del argv[0]`).
    Mutated,
    /// Shared where it may be changed: handed to a function that may change it, made
    /// another name (`x = argv`, `self.a = argv`), put in a container, returned, yielded
    /// or a default.
    Shared,
    /// An item of it shared so (`grow(table[0])`, `x = table[0]`): a list or dictionary
    /// among its items may be changed.
    ItemShared,
    /// Grown by `+=` (see [`growths`](super::growths)), which changes a list in place:
    /// what another name for it, or a list it is an item of, holds is changed.
    Grown,
}

/// What the code may change, by name (see [`Change`]).
#[derive(Default)]
pub(super) struct Changed<'a, 't> {
    mutated: HashSet<&'a str>,
    shared: HashSet<&'a str>,
    items_shared: HashSet<&'a str>,
    grown: HashSet<&'a str>,
    /// Names made another name for a value or an item of it (`argv = TOOLS[name]`): what
    /// the other name's changes say holds for this one too (see [`Py::close_changed`]).
    aliases: Vec<(&'a str, &'a str, bool)>,
    /// Names (or items of them, `true`) handed to a call of a function of the code's own,
    /// at that place of its arguments: shared, unless the function is read at its calls and
    /// leaves that parameter as it is (see [`Py::settle_passed`]).
    passed: Vec<(&'a str, Node<'t>, usize, bool)>,
}

impl<'a> Changed<'a, '_> {
    fn note(&mut self, name: &'a str, change: Change) -> bool {
        match change {
            Change::Mutated => self.mutated.insert(name),
            Change::Shared => self.shared.insert(name),
            Change::ItemShared => self.items_shared.insert(name),
            Change::Grown => self.grown.insert(name),
        }
    }

    /// Whether the value of `name` (a list, dictionary or set) may not be the one it was
    /// bound to.
    pub(super) fn value(&self, name: &str) -> bool {
        self.mutated.contains(name) || self.shared.contains(name)
    }

    /// Whether a list, dictionary or set among the items of `name` may be changed.
    pub(super) fn items(&self, name: &str) -> bool {
        self.value(name) || self.items_shared.contains(name)
    }
}

impl<'a, 't> Py<'a, '_, 't> {
    /// Notes how the name last in `path` (its ancestors before it) may have its value
    /// changed there (see [`Change`]).
    pub(super) fn note_change(&mut self, path: &[Node<'t>]) {
        let [.., parent, node] = path else {
            return;
        };
        // `x.attr`'s `attr` and `f(x=1)`'s `x` name no variable.
        if (kind(*parent) == "attribute" && by_field(*parent, "attribute") == Some(*node))
            || (kind(*parent) == "keyword_argument" && by_field(*parent, "name") == Some(*node))
        {
            return;
        }
        let name = self.text(*node);
        if kind(*parent) == "augmented_assignment" && by_field(*parent, "left") == Some(*node) {
            self.changed.note(name, Change::Grown);
            return;
        }
        // The place the value is at: through its items, brackets and the sides of `if` and
        // `or`.
        let mut k = path.len() - 1;
        let mut item = false;
        while k >= 1 {
            let (up, at) = (path[k - 1], path[k]);
            match kind(up) {
                "subscript" if by_field(up, "value") == Some(at) => item = true,
                "parenthesized_expression" | "conditional_expression" | "boolean_operator" => {}
                _ => break,
            }
            k -= 1;
        }
        let place = &path[..=k];
        // `args.append(x)` as a statement, of a list grown so (see `growths`).
        if let [.., call, _, _] = place
            && mutated_by_method(self, place)
            && self.growth_of(*call) == Some(name)
            && matches!(self.names.get(name), Some(Slot::Grown(..)))
        {
            self.changed.note(name, Change::Grown);
            return;
        }
        if (item && rebinds(place)) || mutated_by_method(self, place) || self.library_changes(place)
        {
            self.changed.note(name, Change::Mutated);
            return;
        }
        let [.., grand, parent, at] = place else {
            return;
        };
        let shared = match kind(*parent) {
            // Another name for it: what is done with that name counts for this one.
            "assignment"
                if by_field(*parent, "right") == Some(*at)
                    && let Some(alias) =
                        by_field(*parent, "left").filter(|l| kind(*l) == "identifier") =>
            {
                self.changed.aliases.push((self.text(alias), name, item));
                false
            }
            // `map(f, xs)`, `filter(f, xs)`: the list is only read; `f` may change its items.
            "argument_list"
                if kind(*grand) == "call"
                    && by_field(*grand, "function").is_some_and(|f| {
                        matches!(self.text(f), "map" | "filter")
                            && self.names.get(self.text(f)).is_none()
                    }) =>
            {
                self.changed.note(name, Change::ItemShared);
                false
            }
            // Handed to a function of the code's own: settled once the functions are known.
            "argument_list"
                if kind(*grand) == "call"
                    && by_field(*grand, "function").is_some_and(|f| kind(f) == "identifier")
                    && !shares_nothing(self, *grand) =>
            {
                let mut c = parent.walk();
                match parent.named_children(&mut c).position(|a| a == *at) {
                    Some(k) => self.changed.passed.push((name, *grand, k, item)),
                    None => return,
                }
                false
            }
            "assignment" => by_field(*parent, "right") == Some(*at),
            "list"
            | "tuple"
            | "set"
            | "pair"
            | "dictionary"
            | "expression_list"
            | "return_statement"
            | "yield"
            | "default_parameter"
            | "typed_default_parameter"
            | "lambda" => true,
            _ => shares(self, place),
        };
        if shared {
            let change = if item {
                Change::ItemShared
            } else {
                Change::Shared
            };
            self.changed.note(name, change);
        }
    }

    /// Settles the names handed to functions of the code's own: shared unless `keeps` says
    /// the function (read at its calls) leaves that argument as it is.
    pub(super) fn settle_passed(&mut self, keeps: impl Fn(&Self, Node<'t>, usize) -> bool) {
        for (name, call, k, item) in std::mem::take(&mut self.changed.passed) {
            if !keeps(self, call, k) {
                let change = if item {
                    Change::ItemShared
                } else {
                    Change::Shared
                };
                self.changed.note(name, change);
            }
        }
    }

    /// Carries what a loop variable's changes say to what it loops over: an item changed
    /// in place changes the list (`for t in TOOLS: t.append(x)`), one shared may change
    /// it; a dictionary's keys (`for k in D`, `D.keys()`, the first name of `D.items()`)
    /// are never changed so. And what another name's say to the value it names. Until
    /// nothing more is added (at most 16 rounds; past them, what is left counts as changed).
    pub(super) fn close_changed(&mut self) {
        for _ in 0..16 {
            let mut more: Vec<(&'a str, Change)> = Vec::new();
            let sets = [
                (&self.changed.mutated, Change::Mutated),
                (&self.changed.grown, Change::Mutated),
                (&self.changed.shared, Change::ItemShared),
                (&self.changed.items_shared, Change::ItemShared),
            ];
            for (set, change) in sets {
                for name in set {
                    for root in self.iterated_by(name) {
                        more.push((root, change));
                    }
                }
            }
            // Another name for a value, or for an item of it.
            for &(alias, name, item) in &self.changed.aliases {
                if self.changed.mutated.contains(alias) || self.changed.grown.contains(alias) {
                    more.push((name, Change::Mutated));
                }
                if self.changed.shared.contains(alias) {
                    more.push((
                        name,
                        if item {
                            Change::ItemShared
                        } else {
                            Change::Shared
                        },
                    ));
                }
                if self.changed.items_shared.contains(alias) {
                    more.push((name, Change::ItemShared));
                }
            }
            let mut added = false;
            for (name, change) in more {
                added |= self.changed.note(name, change);
            }
            if !added {
                return;
            }
        }
        // Not settled in time: whatever a loop or another name could carry a change to
        // counts as changed.
        let names: Vec<&'a str> = self.changed.aliases.iter().map(|(_, n, _)| *n).collect();
        let looped: Vec<&'a str> = (self.changed.mutated.iter())
            .chain(&self.changed.grown)
            .chain(&self.changed.shared)
            .chain(&self.changed.items_shared)
            .flat_map(|n| self.iterated_by(n))
            .collect();
        for name in names.into_iter().chain(looped) {
            self.changed.note(name, Change::Mutated);
        }
    }

    /// The names of what the loop variable `name` takes items of (not a dictionary's keys).
    fn iterated_by(&self, name: &str) -> Vec<&'a str> {
        let iterables: Vec<Node<'t>> = match self.names.get(name) {
            Some(Slot::Each(i)) => vec![*i],
            Some(Slot::Part(i, k)) if *k > 0 || super::dict_view(self, *i) != Some("items") => {
                vec![*i]
            }
            Some(Slot::Loops(is)) => is.clone(),
            _ => return Vec::new(),
        };
        let mut out = Vec::new();
        for iterable in iterables {
            if matches!(super::dict_view(self, iterable), Some("keys" | "items"))
                && !matches!(self.names.get(name), Some(Slot::Part(..)))
            {
                continue;
            }
            let mut root = iterable;
            while let Some(inner) = match kind(root) {
                "subscript" => by_field(root, "value"),
                "call" => by_field(root, "function"),
                "attribute" => by_field(root, "object"),
                _ => None,
            } {
                root = inner;
            }
            if kind(root) != "identifier" {
                continue;
            }
            let looped = self.text(root);
            // A loop over a dictionary itself takes its keys.
            let dictionary =
                matches!(self.names.get(looped), Some(Slot::Expr(v)) if kind(*v) == "dictionary");
            if !(dictionary && root == iterable) {
                out.push(looped);
            }
        }
        out
    }
}

/// Whether the value last in `path` is the object of a method that changes it in place.
fn mutated_by_method(py: &Py<'_, '_, '_>, path: &[Node<'_>]) -> bool {
    let [.., grand, parent, node] = path else {
        return false;
    };
    kind(*parent) == "attribute"
        && by_field(*parent, "object") == Some(*node)
        && kind(*grand) == "call"
        && by_field(*parent, "attribute").is_some_and(|m| MUTATORS.contains(&py.text(m)))
}
