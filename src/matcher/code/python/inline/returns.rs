//! What a function read at its calls returns: its `return`s (or `yield`s), evaluated where
//! the call is, and what two of them give together.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{Functions, MOST_DEPTH, Param};
use crate::matcher::code::python::changes::Changes;
use crate::matcher::code::python::{Obj, Py, by_field, kind};
use crate::matcher::code::scope::Val;
use crate::matcher::code::tree::{Visit, visit};

impl<'t> Functions<'t> {
    /// What the functions read at their calls return, by name (see [`Returns`]).
    pub(in crate::matcher::code::python) fn returns(
        &self,
        py: &Py<'_, '_, 't>,
    ) -> HashMap<String, Returns<'t>> {
        self.by_name
            .iter()
            .filter_map(|(name, id)| {
                let f = self.by_def.get(id)?;
                if kind(f.def) != "function_definition"
                    || by_field(f.def, "name").is_none_or(|n| py.text(n) == "__init__")
                {
                    return None;
                }
                let (values, generator) = returned(f.def)?;
                Some((
                    name.clone(),
                    Returns {
                        def: f.def,
                        params: f.params.clone(),
                        changes: f.changes.clone(),
                        values,
                        generator,
                    },
                ))
            })
            .collect()
    }
}

/// What a function read at its calls returns: the expressions of its `return`s, or of its
/// `yield`s for a generator, whose value at a call is what each round of a loop over it
/// gets.
pub(in crate::matcher::code::python) struct Returns<'t> {
    def: Node<'t>,
    params: Vec<Param<'t>>,
    changes: Changes,
    /// Each returned or yielded expression, and whether it is a `yield from`'s (whose
    /// items are what is yielded).
    values: Vec<(Node<'t>, bool)>,
    generator: bool,
}

/// Returns after this many are not followed.
const MOST_RETURNS: usize = 4;

/// The expressions `def` returns (or yields, each with whether it is a `yield from`'s),
/// outside the functions and classes defined in it, and whether it yields; `None` when it
/// has more than [`MOST_RETURNS`] or a `return` without a value.
fn returned(def: Node<'_>) -> Option<(Vec<(Node<'_>, bool)>, bool)> {
    let body = by_field(def, "body")?;
    let (mut returns, mut yields, mut other) = (Vec::new(), Vec::new(), false);
    visit(body, |node, _, at| {
        if at == Visit::Leave || other {
            return false;
        }
        match kind(node) {
            "function_definition" | "class_definition" | "lambda" => return false,
            "return_statement" => match node.named_child(0) {
                Some(value) => returns.push((value, false)),
                None => other = true,
            },
            "yield" => match node.named_child(0) {
                Some(value) => yields.push((value, py_yield_from(node))),
                None => other = true,
            },
            _ => {}
        }
        true
    });
    let generator = !yields.is_empty();
    let values = if generator { yields } else { returns };
    (!other && !values.is_empty() && values.len() <= MOST_RETURNS).then_some((values, generator))
}

/// Whether a `yield` node is a `yield from`.
fn py_yield_from(node: Node<'_>) -> bool {
    let mut c = node.walk();
    node.children(&mut c).any(|t| t.kind() == "from")
}

impl<'t> Py<'_, '_, 't> {
    /// The value `call` returns when it calls a function read at its calls by name: its
    /// returned expressions with its parameters bound to the call's arguments, when they
    /// all have the same value; for a generator, what each round of a loop over it gets.
    pub(in crate::matcher::code::python) fn returned_value(
        &mut self,
        call: Node<'t>,
        depth: usize,
    ) -> Option<Obj> {
        let function = by_field(call, "function").filter(|f| kind(*f) == "identifier")?;
        let f = self.returns.get(self.text(function))?;
        let (def, params, values, generator) =
            (f.def, f.params.clone(), f.values.clone(), f.generator);
        let changes = f.changes.clone();
        if self.returning >= MOST_DEPTH || self.bound_value(self.text(function), call).is_some() {
            return Some(Obj::Val(Val::Unknown));
        }
        self.returning += 1;
        let outer = self.bound.len();
        self.bind_arguments(def, &params, &changes, call);
        let mut out: Option<Obj> = None;
        for (value, from) in values {
            let v = match (self.eval(value, depth + 1), from) {
                (Obj::Each(item), true) => *item,
                (_, true) => Obj::Val(Val::Unknown),
                (v, false) => v,
            };
            out = Some(match out {
                None => v,
                Some(o) => same(o, v),
            });
        }
        self.bound.truncate(outer);
        self.returning -= 1;
        let out = out?;
        Some(match generator {
            true => Obj::Each(Box::new(out)),
            false => out,
        })
    }
}

/// What two `return`s (or `yield`s) of one function give: the value when both give it,
/// the directory two paths share with all below it (`/**`) when they differ; else not
/// known.
fn same(a: Obj, b: Obj) -> Obj {
    match (&a, &b) {
        (Obj::Val(x), Obj::Val(y)) | (Obj::Path(x), Obj::Path(y)) if x == y => a,
        (Obj::Ref(x), Obj::Ref(y)) if x == y => a,
        (Obj::Val(x), Obj::Val(y)) => {
            super::super::values::covering(x, y).map_or(Obj::Val(Val::Unknown), Obj::Val)
        }
        (Obj::Path(x), Obj::Path(y)) => {
            super::super::values::covering(x, y).map_or(Obj::Val(Val::Unknown), Obj::Path)
        }
        _ => Obj::Val(Val::Unknown),
    }
}
