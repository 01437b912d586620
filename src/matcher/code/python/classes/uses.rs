//! How a class, its instances and `self` are used: the uses that keep its methods and
//! attributes followed, and those that could call or change them out of the reader's view.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{Changed, Classes, assigned_in};
use crate::matcher::code::python::changes::{rebinds, shares};
use crate::matcher::code::python::{Py, by_field, kind};
use crate::matcher::code::tree::{Visit, visit};

impl<'t> Classes<'t> {
    /// Closes out each class whose name, instances or `self` is used in a way that could
    /// call a method, or change an attribute, where the reader does not see it.
    pub(super) fn check_uses<'a>(
        &mut self,
        py: &Py<'a, '_, 't>,
        root: Node<'t>,
        nodes: &[Node<'t>],
        closed: &mut [bool],
    ) {
        let mut path: Vec<Node<'t>> = Vec::new();
        let class_of: HashMap<usize, usize> =
            nodes.iter().enumerate().map(|(k, n)| (n.id(), k)).collect();
        let mut changed = Changed::default();
        visit(root, |node, depth, at| {
            if at == Visit::Leave {
                return false;
            }
            path.truncate(depth);
            path.push(node);
            if kind(node) == "string" && !py.is_f_string(node) {
                return false;
            }
            if kind(node) != "identifier" {
                return true;
            }
            let [.., parent, _] = path.as_slice() else {
                return true;
            };
            let parent = *parent;
            // `x.run`'s `run` and `f(run=1)`'s `run` name no variable.
            if (kind(parent) == "attribute" && by_field(parent, "attribute") == Some(node))
                || (kind(parent) == "keyword_argument" && by_field(parent, "name") == Some(node))
            {
                return true;
            }
            let name = py.text(node);
            if let Some(class) = self.named(name) {
                if !self.class_name_use(py, class, node, parent, nodes, &path) {
                    closed[class] = false;
                }
                return true;
            }
            if let Some(&(class, made)) = self.instances.get(name) {
                let ok = match kind(parent) {
                    "assignment" => {
                        by_field(parent, "left") == Some(node)
                            && by_field(parent, "right") == Some(made)
                    }
                    "attribute" => self.member_use(py, class, &path, false, &mut changed),
                    _ => false,
                };
                if !ok {
                    closed[class] = false;
                }
                return true;
            }
            // `self` in a method of a class (its body is the fourth node down from the
            // module): the method must be its innermost definition.
            let method = path
                .get(1)
                .and_then(|c| class_of.get(&c.id()))
                .and_then(|&class| Some((class, self.list[class].method_of(py, *path.get(3)?)?)));
            let Some((class, method)) = method.filter(|(_, m)| m.this == name) else {
                return true;
            };
            let innermost = path
                .iter()
                .rev()
                .skip(1)
                .find(|n| matches!(kind(**n), "function_definition" | "class_definition"));
            let ok = innermost == Some(&method.def)
                && match kind(parent) {
                    "parameters" => parent.named_child(0) == Some(node),
                    "attribute" => self.member_use(py, class, &path, true, &mut changed),
                    _ => false,
                };
            if !ok {
                closed[class] = false;
            }
            true
        });
        let Changed { assigned, shared } = changed;
        for (class, attr) in shared {
            self.list[class].shared.insert(attr.to_owned());
        }
        // An attribute is known when assigned once, by a statement of `__init__`'s body.
        let mut counts: HashMap<(usize, &str), (usize, Option<Node<'t>>)> = HashMap::new();
        for (class, attr, statement) in assigned {
            let entry = counts.entry((class, attr)).or_insert((0, statement));
            entry.0 += 1;
        }
        for ((class, attr), (count, statement)) in counts {
            let value = statement.filter(|_| count == 1);
            let class = &mut self.list[class];
            // A class attribute of the same name stands in until `__init__` assigns it, and
            // may be what a change in place through an instance changed.
            let shadowed = class.class_attrs.contains_key(attr);
            if shadowed {
                class.class_attrs.insert(attr.to_owned(), None);
            }
            class
                .attrs
                .insert(attr.to_owned(), value.filter(|_| !shadowed));
        }
    }

    /// Whether the class name at `node` is used only to make an instance whose methods are
    /// told from the code, or to read a class attribute.
    fn class_name_use(
        &self,
        py: &Py<'_, '_, 't>,
        class: usize,
        node: Node<'t>,
        parent: Node<'t>,
        nodes: &[Node<'t>],
        path: &[Node<'t>],
    ) -> bool {
        match kind(parent) {
            "class_definition" => nodes.get(class) == Some(&parent),
            "call" if by_field(parent, "function") == Some(node) => {
                let Some(user) = parent.parent() else {
                    return false;
                };
                match kind(user) {
                    "expression_statement" => true,
                    "assignment" => by_field(user, "left")
                        .is_some_and(|l| self.instances.get(py.text(l)) == Some(&(class, parent))),
                    "attribute" => by_field(user, "attribute").is_some_and(|m| {
                        self.list[class].methods.contains_key(py.text(m))
                            && user
                                .parent()
                                .is_some_and(|c| by_field(c, "function") == Some(user))
                    }),
                    _ => false,
                }
            }
            "attribute" => {
                let Some(attr) = by_field(parent, "attribute") else {
                    return false;
                };
                let grand = &path[..path.len() - 1];
                self.list[class].class_attrs.contains_key(py.text(attr))
                    && !rebinds(grand)
                    && !shares(py, grand)
            }
            _ => false,
        }
    }

    /// Whether `instance.name` (the attribute last but one in `path`) calls a method of
    /// `class` or is any other attribute but a dunder (a method not called is handed on);
    /// if so, an assignment or change in place of the attribute there is noted, `this`
    /// when `instance` is the `self` of the method around it.
    fn member_use<'a>(
        &self,
        py: &Py<'a, '_, 't>,
        class: usize,
        path: &[Node<'t>],
        this: bool,
        changed: &mut Changed<'a, 't>,
    ) -> bool {
        let [.., grand, attribute, _] = path else {
            return false;
        };
        let Some(name) = by_field(*attribute, "attribute").map(|a| py.text(a)) else {
            return false;
        };
        if name.starts_with("__") {
            return false;
        }
        if self.list[class].methods.contains_key(name) {
            return kind(*grand) == "call" && by_field(*grand, "function") == Some(*attribute);
        }
        let attribute = &path[..path.len() - 1];
        if rebinds(attribute) {
            let init = self.list[class].init.as_ref().map(|i| i.def);
            let value = assigned_in(attribute, init.filter(|_| this));
            changed.assigned.push((class, name, value));
        } else if shares(py, attribute) {
            changed.shared.push((class, name));
        }
        true
    }
}
