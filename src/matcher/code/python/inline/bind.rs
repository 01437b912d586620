//! A function's parameters bound where it is read at a call: to the call's arguments, each
//! evaluated where the call is, or to values not known; and the instance a method is read
//! for.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{Bound, Param, param_name};
use crate::matcher::code::python::changes::Changes;
use crate::matcher::code::python::classes::This;
use crate::matcher::code::python::values::contains;
use crate::matcher::code::python::{Obj, Py, by_field, kind};
use crate::matcher::code::scope::Val;

impl<'t> Py<'_, '_, 't> {
    /// Binds the instance a method of `def` is read for: the one `made` makes, or one not
    /// known.
    pub(super) fn bind_self(&mut self, def: Node<'t>, method: bool, made: Option<Node<'t>>) {
        if method {
            self.selves.push(This { def, made });
        }
    }

    /// Binds `params` of `def` to values not known.
    pub(in crate::matcher::code::python) fn bind_unknown(
        &mut self,
        def: Node<'t>,
        params: &[Param<'t>],
    ) {
        for param in params {
            self.bound.push(Bound::unknown(param_name(param), def));
        }
    }

    /// Binds `params` of `def` to the arguments of `call`, each evaluated here, where the
    /// call is, before any is bound: inside the function, its parameters' names hide the
    /// caller's (`def g(b, a)` called as `g(a, 'ls')` runs the caller's `a`).
    pub(in crate::matcher::code::python) fn bind_arguments(
        &mut self,
        def: Node<'t>,
        params: &[Param<'t>],
        changes: &Changes,
        call: Node<'t>,
    ) {
        let mut positional = Vec::new();
        let mut keywords = HashMap::new();
        let mut spread = false;
        let arguments = by_field(call, "arguments");
        if let Some(arguments) = arguments {
            let mut c = arguments.walk();
            for a in arguments.named_children(&mut c) {
                match kind(a) {
                    "keyword_argument" => {
                        if let (Some(n), Some(v)) = (by_field(a, "name"), by_field(a, "value")) {
                            keywords.insert(self.text(n), v);
                        }
                    }
                    "list_splat" | "dictionary_splat" => spread = true,
                    "comment" => {}
                    _ => positional.push(a),
                }
            }
        }
        let mut values = Vec::with_capacity(params.len());
        for (k, param) in params.iter().enumerate() {
            let value = match param {
                _ if spread => None,
                Param::Named(name, default) | Param::Keyword(name, default) => {
                    let given = match param {
                        Param::Named(..) => positional.get(k),
                        _ => None,
                    };
                    match given.or_else(|| keywords.get(name.as_str())).copied() {
                        Some(argument) => Some(self.eval(argument, 0)),
                        // A default is evaluated where the function is defined, with no
                        // parameter of any function bound.
                        None => default.map(|d| {
                            let bound = std::mem::take(&mut self.bound);
                            let value = self.eval(d, 0);
                            self.bound = bound;
                            value
                        }),
                    }
                }
                Param::Rest(_, from) => Some(Obj::List(
                    positional
                        .iter()
                        .skip(*from)
                        .map(|a| self.eval(*a, 0).val())
                        .collect(),
                )),
                Param::Unknown(_) => None,
            };
            let name = param_name(param);
            // Bound again in the body, or a list it may change in place: not the argument.
            let rebound = changes.rebound.iter().any(|r| r == name);
            let shared = changes.shared.iter().any(|r| r == name);
            let value =
                value.filter(|v| !(rebound || shared && matches!(v, Obj::List(_) | Obj::Each(_))));
            values.push(Bound {
                name: name.to_owned(),
                def,
                value: value.unwrap_or(Obj::Val(Val::Unknown)),
            });
        }
        self.bound.extend(values);
    }

    /// The value of the parameter `name` at `node`, when `node` is inside a function being
    /// read at its call that has such a parameter (the innermost such call's).
    pub(in crate::matcher::code::python) fn bound_value(
        &self,
        name: &str,
        node: Node<'t>,
    ) -> Option<Obj> {
        self.bound
            .iter()
            .rev()
            .find(|b| b.name == name && contains(b.def, node))
            .map(|b| b.value.clone())
    }
}
