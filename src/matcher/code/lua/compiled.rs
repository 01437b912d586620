//! `loadfile` compiles a file and returns it as a function, or `nil` and the error: what
//! it compiled runs only when that function is called. Code that only tests the result
//! (`local ok, err = loadfile(f)` then `if not ok then print(err) end`, a syntax check of
//! every file found) reads the file and runs none of it.

use tree_sitter::Node;

use super::{Lua, by_field, kind};
use crate::matcher::code::tree::{Visit, visit};

/// Uses of the name a compiled chunk is bound to looked at; past them, it may be run.
const MOST_USES: usize = 16;

impl<'t> Lua<'_, '_, 't> {
    /// Whether what the `loadfile` call `call` returns is only tested, never run: the call
    /// is itself tested, or it is the first value of a `local` declaration whose first
    /// name is only ever tested.
    pub(super) fn compiled_only(&self, call: Node<'t>) -> bool {
        if self.tested(call) {
            return true;
        }
        let Some(list) = call.parent().filter(|p| kind(*p) == "expression_list") else {
            return false;
        };
        let Some(assignment) = list.parent().filter(|a| kind(*a) == "assignment_statement") else {
            return false;
        };
        let local = assignment
            .parent()
            .is_some_and(|d| kind(d) == "variable_declaration");
        let first_name = Self::named(assignment)
            .into_iter()
            .find(|p| kind(*p) == "variable_list")
            .and_then(|targets| Self::named(targets).first().copied())
            .filter(|t| kind(*t) == "identifier");
        let Some(first_name) = first_name else {
            return false;
        };
        if !local || Self::named(list).first() != Some(&call) {
            return false;
        }
        let name = self.text(first_name);
        let (mut uses, mut only_tested) = (0, true);
        visit(self.root, |node, _, at| {
            if !only_tested || at == Visit::Leave {
                return false;
            }
            if kind(node) == "identifier" && node != first_name && self.text(node) == name {
                uses += 1;
                only_tested = uses <= MOST_USES && self.tested(node);
            }
            true
        });
        only_tested
    }

    /// Whether `node`'s value is only tested for truth: the operand of `not`, the
    /// condition of an `if`, `elseif`, `while` or `repeat`, or a side of `==` or `~=`.
    fn tested(&self, node: Node<'t>) -> bool {
        let Some(parent) = node.parent() else {
            return false;
        };
        match kind(parent) {
            "unary_expression" => self.text(parent).trim_start().starts_with("not"),
            "if_statement" | "elseif_statement" | "while_statement" | "repeat_statement" => {
                by_field(parent, "condition") == Some(node)
            }
            "binary_expression" => {
                by_field(parent, "operator").is_some_and(|o| matches!(self.text(o), "==" | "~="))
            }
            _ => false,
        }
    }
}
