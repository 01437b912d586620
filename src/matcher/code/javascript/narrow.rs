//! What an `if` says of a listing's name in its body: `for (const f of
//! fs.readdirSync('logs')) { if (f.endsWith('.log')) fs.unlinkSync(path.join('logs', f)) }`
//! removes `logs/*.log`, not every file there (which may be the gate's audit log, or a
//! `.env`). Only `NAME.endsWith('...')` alone or joined by `&&` narrows, and only in the
//! `if`'s own branch: its `else` gets every other name.

use tree_sitter::Node;

use super::{Js, by_field, kind};
use crate::matcher::code::Val;

impl<'a, 't> Js<'a, '_, 't> {
    /// On entering an `if`, what its condition says, for its branch; on entering that
    /// branch, those names narrowed until it is left (see [`Js::narrowed`]).
    pub(super) fn narrow_enter(&mut self, node: Node<'t>) {
        if kind(node) == "if_statement"
            && let (Some(test), Some(branch)) =
                (by_field(node, "condition"), by_field(node, "consequence"))
        {
            let mut suffixes = Vec::new();
            self.suffix_tests(test, &mut suffixes);
            if !suffixes.is_empty() {
                self.pending.push((branch.id(), suffixes));
            }
        }
        if let Some(k) = self.pending.iter().position(|(id, _)| *id == node.id()) {
            let (id, suffixes) = self.pending.remove(k);
            self.narrows.push((id, suffixes));
        }
    }

    /// On leaving a node: the narrowing of the branch it is, if any, ends.
    pub(super) fn narrow_leave(&mut self, node: Node<'t>) {
        if self.narrows.last().is_some_and(|(id, _)| *id == node.id()) {
            self.narrows.pop();
        }
    }

    /// The `NAME.endsWith('S')` tests of a condition joined by `&&`.
    fn suffix_tests(&self, test: Node<'t>, out: &mut Vec<(&'a str, String)>) {
        match kind(test) {
            "parenthesized_expression" => {
                if let Some(inner) = test.named_child(0) {
                    self.suffix_tests(inner, out);
                }
            }
            "binary_expression"
                if by_field(test, "operator").is_some_and(|o| self.text(o) == "&&") =>
            {
                for side in [by_field(test, "left"), by_field(test, "right")]
                    .into_iter()
                    .flatten()
                {
                    self.suffix_tests(side, out);
                }
            }
            "call_expression" => {
                let (Some(function), Some(arguments)) =
                    (by_field(test, "function"), by_field(test, "arguments"))
                else {
                    return;
                };
                let (Some(object), Some(property)) =
                    (by_field(function, "object"), by_field(function, "property"))
                else {
                    return;
                };
                let argument = arguments
                    .named_child(0)
                    .filter(|_| arguments.named_child_count() == 1);
                let suffix = argument
                    .filter(|a| kind(*a) == "string")
                    .map(|a| self.text(a).trim_matches(['"', '\'']));
                if kind(object) == "identifier"
                    && self.text(property) == "endsWith"
                    && let Some(suffix) = suffix.filter(|s| !s.contains(['\\', '*', '?', '[', '/']))
                {
                    out.push((self.text(object), suffix.to_owned()));
                }
            }
            _ => {}
        }
    }

    /// A listing's element bound to `name` (`*`, `dir/*`), narrowed by the `if`s around
    /// the node being read.
    pub(super) fn narrowed(&self, name: &str, element: Val) -> Val {
        let Val::Known(pattern) = &element else {
            return element;
        };
        let suffix = self
            .narrows
            .iter()
            .rev()
            .flat_map(|(_, s)| s.iter())
            .find(|(n, _)| *n == name)
            .map(|(_, s)| s.as_str());
        match (suffix, pattern.strip_suffix('*')) {
            (Some(suffix), Some(dir)) if dir.is_empty() || dir.ends_with('/') => {
                Val::Known(format!("{dir}*{suffix}"))
            }
            _ => element,
        }
    }
}
