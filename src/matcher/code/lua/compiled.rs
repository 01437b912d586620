//! `loadfile` compiles a file and returns it as a function, or `nil` and the error: what
//! it compiled runs only when that function is called. Code that only tests the result
//! (`local ok, err = loadfile(f)` then `if not ok then print(err) end`, a syntax check of
//! every file found) reads the file and runs none of it; so does code that runs it with an
//! environment of its own holding only constants (`loadfile(spec, "t", env)` of a
//! rockspec, then reading `env.version`): the chunk's globals are that table, and through
//! it no library (`os`, `io`, `require`, `load`) is reached.

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

    /// Whether the `loadfile` call `call` gives the chunk an environment (its third
    /// argument) of constants only: a table written in place, or a name a `local` binds
    /// once to one, and otherwise only reads (`env.version`), never changes, passes on or
    /// calls.
    pub(super) fn sandboxed(&self, call: Node<'t>) -> bool {
        let args = Self::arg_nodes(call);
        let Some(&env) = args.get(2) else {
            return false;
        };
        match kind(env) {
            "table_constructor" => constant_table(env, 0),
            "identifier" => self.constant_environment(env),
            _ => false,
        }
    }

    /// Whether the name `env` (a `loadfile` argument) is bound once to a table of
    /// constants, and every other use of it reads a field.
    fn constant_environment(&self, env: Node<'t>) -> bool {
        let name = self.text(env);
        let (mut uses, mut bindings, mut ok) = (0, 0, true);
        visit(self.root, |node, _, at| {
            if !ok || at == Visit::Leave {
                return false;
            }
            if kind(node) == "identifier" && node != env && self.text(node) == name {
                uses += 1;
                let bound = constant_binding(node);
                bindings += usize::from(bound);
                ok = uses <= MOST_USES && (bound || read_field(node));
            }
            true
        });
        ok && bindings == 1
    }
}

/// Whether `name` is what a `local NAME = {constants}` declares.
fn constant_binding(name: Node<'_>) -> bool {
    let Some(targets) = name.parent().filter(|p| kind(*p) == "variable_list") else {
        return false;
    };
    let Some(assignment) = targets
        .parent()
        .filter(|a| kind(*a) == "assignment_statement")
    else {
        return false;
    };
    let local = assignment
        .parent()
        .is_some_and(|d| kind(d) == "variable_declaration");
    let mut c = targets.walk();
    let at = targets.named_children(&mut c).position(|t| t == name);
    let value = assignment
        .named_children(&mut assignment.walk())
        .find(|p| kind(*p) == "expression_list")
        .and_then(|list| at.and_then(|k| list.named_child(k as u32)));
    local && value.is_some_and(|v| kind(v) == "table_constructor" && constant_table(v, 0))
}

/// Whether `name` is the table of a field read (`env.version`, `env["name"]`), not one
/// assigned or called.
fn read_field(name: Node<'_>) -> bool {
    let Some(index) = name.parent().filter(|p| {
        matches!(
            kind(*p),
            "dot_index_expression" | "bracket_index_expression"
        )
    }) else {
        return false;
    };
    by_field(index, "table") == Some(name)
        && index.parent().is_some_and(|p| {
            !matches!(
                kind(p),
                "variable_list" | "function_call" | "method_index_expression"
            )
        })
}

/// Whether `table` holds only strings, numbers, booleans, `nil` and such tables, under
/// names or string and number keys.
fn constant_table(table: Node<'_>, depth: usize) -> bool {
    const CONSTANTS: &[&str] = &["string", "number", "true", "false", "nil"];
    if depth > 8 {
        return false;
    }
    let mut c = table.walk();
    table.named_children(&mut c).all(|field| {
        if kind(field) == "comment" {
            return true;
        }
        if kind(field) != "field" {
            return false;
        }
        let key_ok = by_field(field, "name")
            .is_none_or(|k| matches!(kind(k), "identifier" | "string" | "number"));
        let value_ok = by_field(field, "value").is_some_and(|v| {
            CONSTANTS.contains(&kind(v))
                || kind(v) == "table_constructor" && constant_table(v, depth + 1)
        });
        key_ok && value_ok
    })
}
