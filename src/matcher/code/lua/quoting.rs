//! Functions the code defines to quote a value as one shell word, the way POSIX shells
//! quote (`local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end`): a value
//! they return is one word whatever it holds, as Python's `shlex.quote` is, and read as
//! [`Val::shell_quoted`](crate::matcher::code::Val::shell_quoted) reads it.

use tree_sitter::Node;

use super::{Lua, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::tree::{Visit, visit};

/// Quoting functions looked for, at most.
const MOST_QUOTERS: usize = 8;

impl<'a, 't> Lua<'a, '_, 't> {
    /// The names of the functions of the program that quote their one argument, each
    /// defined once (a `function` statement, local or not) and never assigned again.
    pub(super) fn quoters(&self) -> Vec<&'a str> {
        let mut defined: Vec<(&'a str, bool)> = Vec::new();
        let mut assigned: Vec<&'a str> = Vec::new();
        visit(self.root, |node, _, at| {
            if at == Visit::Leave {
                return false;
            }
            match kind(node) {
                "function_declaration" => {
                    if let Some(name) = by_field(node, "name").filter(|n| kind(*n) == "identifier")
                        && defined.len() < 64
                    {
                        defined.push((self.text(name), self.quotes(node)));
                    }
                }
                "variable_list" => {
                    let mut c = node.walk();
                    assigned.extend(node.named_children(&mut c).map(|t| self.text(t)));
                }
                _ => {}
            }
            true
        });
        let mut out: Vec<&'a str> = Vec::new();
        for (name, quotes) in &defined {
            let once = defined.iter().filter(|(n, _)| n == name).count() == 1;
            if *quotes && once && !assigned.contains(name) && out.len() < MOST_QUOTERS {
                out.push(name);
            }
        }
        out
    }

    /// Whether the function `def` is `function NAME(s) return "'" .. G .. "'" end`, where
    /// `G` replaces every `'` in `s` (or `tostring(s)`) with `'\''`.
    fn quotes(&self, def: Node<'t>) -> bool {
        let Some(params) = by_field(def, "parameters") else {
            return false;
        };
        let mut c = params.walk();
        let names: Vec<Node<'t>> = params.named_children(&mut c).collect();
        let [param] = names.as_slice() else {
            return false;
        };
        let param = self.text(*param);
        let Some(body) = by_field(def, "body") else {
            return false;
        };
        let mut c = body.walk();
        let statements: Vec<Node<'t>> = body.named_children(&mut c).collect();
        let [ret] = statements.as_slice() else {
            return false;
        };
        let Some(value) = (kind(*ret) == "return_statement")
            .then(|| ret.named_child(0))
            .flatten()
            .and_then(|list| (list.named_child_count() == 1).then(|| list.named_child(0)))
            .flatten()
        else {
            return false;
        };
        // `"'" .. (G .. "'")`, as `..` groups to the right.
        let Some((open, rest)) = self.concatenation(value) else {
            return false;
        };
        let Some((gsub, close)) = self.concatenation(rest) else {
            return false;
        };
        self.is_quote(open) && self.is_quote(close) && self.escapes_quotes(gsub, param)
    }

    fn concatenation(&self, node: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let node = match kind(node) {
            "parenthesized_expression" => node.named_child(0)?,
            _ => node,
        };
        (kind(node) == "binary_expression"
            && by_field(node, "operator").is_some_and(|o| self.text(o) == ".."))
        .then(|| Some((by_field(node, "left")?, by_field(node, "right")?)))
        .flatten()
    }

    fn is_quote(&self, node: Node<'t>) -> bool {
        kind(node) == "string" && self.string(node) == Val::known("'")
    }

    /// Whether `call` is `s:gsub("'", R)`, `tostring(s):gsub("'", R)` or
    /// `string.gsub(s, "'", R)` with `R` a `'\''`.
    fn escapes_quotes(&self, call: Node<'t>, param: &str) -> bool {
        let call = match kind(call) {
            "parenthesized_expression" => call.named_child(0),
            _ => Some(call),
        };
        let Some(call) = call.filter(|c| kind(*c) == "function_call") else {
            return false;
        };
        let (Some(callee), Some(arguments)) = (by_field(call, "name"), by_field(call, "arguments"))
        else {
            return false;
        };
        let mut c = arguments.walk();
        let args: Vec<Node<'t>> = arguments.named_children(&mut c).collect();
        let is_param = |n: Node<'t>| match kind(n) {
            "identifier" => self.text(n) == param,
            // `tostring(s)`
            "function_call" => {
                by_field(n, "name").is_some_and(|f| self.text(f) == "tostring")
                    && by_field(n, "arguments").is_some_and(|a| {
                        a.named_child_count() == 1
                            && a.named_child(0).is_some_and(|x| self.text(x) == param)
                    })
            }
            _ => false,
        };
        let (subject_ok, pattern, replacement) = match kind(callee) {
            "method_index_expression" => (
                by_field(callee, "method").is_some_and(|m| self.text(m) == "gsub")
                    && by_field(callee, "table").is_some_and(is_param),
                args.first(),
                args.get(1),
            ),
            _ if self.text(callee) == "string.gsub" => (
                args.first().is_some_and(|s| is_param(*s)),
                args.get(1),
                args.get(2),
            ),
            _ => return false,
        };
        let literal =
            |n: Option<&Node<'t>>| n.filter(|n| kind(**n) == "string").map(|n| self.string(*n));
        subject_ok
            && args.len()
                == if kind(callee) == "method_index_expression" {
                    2
                } else {
                    3
                }
            && literal(pattern) == Some(Val::known("'"))
            && matches!(literal(replacement), Some(Val::Known(r)) if r == "'\\''" || r == "'\"'\"'")
    }
}
