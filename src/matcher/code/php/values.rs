//! What an expression evaluates to, as far as the reader follows it (constant strings,
//! arrays, functions named by a string), and a call's arguments; what the functions that
//! compute strings return is in `computed.rs`.

use super::{by_field, kind};
use tree_sitter::Node;

use super::sinks::function_name;
use super::text::{dedent, double_escape, indent_of, int, single_quoted};
use super::{COMPUTED_NAME, Obj, Php};
use crate::matcher::code::Val;
use crate::matcher::code::scope::{Slot, join};
use crate::matcher::code::tree::MAX_NESTING;

/// A call's argument values; past the end they are not known.
pub(super) struct Args<'t> {
    pub(super) nodes: Vec<Node<'t>>,
    pub(super) vals: Vec<Obj>,
}

impl Args<'_> {
    pub(super) fn get(&self, n: usize) -> Obj {
        self.vals.get(n).cloned().unwrap_or(Obj::Val(Val::Unknown))
    }

    pub(super) fn val(&self, n: usize) -> Val {
        self.get(n).val()
    }

    pub(super) fn count(&self) -> usize {
        self.nodes.len().max(self.vals.len())
    }

    pub(super) fn values<'x>(vals: Vec<Val>) -> Args<'x> {
        Args {
            nodes: Vec::new(),
            vals: vals.into_iter().map(Obj::Val).collect(),
        }
    }

    /// Arguments none of which is known.
    fn with_unknown(mut self) -> Self {
        self.vals = vec![Obj::Val(Val::Unknown); 4];
        self
    }
}

/// An argument array spread into arguments (`call_user_func_array`).
pub(super) fn spread<'x>(arr: Obj) -> Args<'x> {
    match arr {
        Obj::Array(items) => Args::values(items),
        _ => Args::values(Vec::new()).with_unknown(),
    }
}

impl<'t> Php<'_, '_, 't> {
    pub(super) fn arg_nodes(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let mut c = call.walk();
        let list = by_field(call, "arguments")
            .or_else(|| call.named_children(&mut c).find(|n| kind(n) == "arguments"));
        let Some(list) = list else {
            return Vec::new();
        };
        let mut c = list.walk();
        list.named_children(&mut c)
            .filter(|a| kind(a) != "comment")
            .collect()
    }

    /// The argument values of `call`; from a named (`f(x: 1)`) or spread (`...$a`)
    /// argument on, values are not known.
    pub(super) fn args(&mut self, call: Node<'t>) -> Args<'t> {
        let nodes = self.arg_nodes(call);
        let mut vals = Vec::new();
        for a in &nodes {
            let inner = a.named_child(0);
            if by_field(a, "name").is_some()
                || inner.is_some_and(|i| kind(i) == "variadic_unpacking")
            {
                break;
            }
            vals.push(match inner {
                Some(i) => self.eval(i, 0),
                None => Obj::Val(Val::Unknown),
            });
        }
        Args { nodes, vals }
    }
    /// What `node` evaluates to.
    pub(super) fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        let known = |s: &str| Obj::Val(Val::known(s));
        match kind(node) {
            "string" => Obj::Val(Val::Known(single_quoted(self, node))),
            "encapsed_string" | "heredoc" | "shell_command_expression" => {
                Obj::Val(self.interpolated(node, depth))
            }
            "nowdoc" => {
                let body = by_field(node, "value");
                let at_start = body.is_some_and(|b| b.start_position().column == 0);
                let text = body.map_or("", |b| self.text(b));
                Obj::Val(Val::Known(dedent(text, indent_of(node), at_start)))
            }
            "integer" => {
                Obj::Val(int(self.text(node)).map_or(Val::Unknown, |n| Val::Known(n.to_string())))
            }
            "float" => known(self.text(node)),
            "boolean" => known(if self.text(node).eq_ignore_ascii_case("true") {
                "1"
            } else {
                ""
            }),
            "null" => known(""),
            "parenthesized_expression" | "error_suppression_expression" => {
                match node.named_child(0) {
                    Some(inner) => self.eval(inner, depth + 1),
                    None => Obj::Val(Val::Unknown),
                }
            }
            "assignment_expression" => match by_field(node, "right") {
                Some(r) => self.eval(r, depth + 1),
                None => Obj::Val(Val::Unknown),
            },
            "cast_expression" => match (by_field(node, "type"), by_field(node, "value")) {
                (Some(t), Some(v)) if self.text(t).eq_ignore_ascii_case("string") => {
                    Obj::Val(self.eval(v, depth + 1).val())
                }
                _ => Obj::Val(Val::Unknown),
            },
            "variable_name" => {
                let name = self.text(node).trim_start_matches('$').to_owned();
                self.name(&format!("${name}"), node, depth)
            }
            "name" => match self.text(node) {
                "__DIR__" => Obj::Val(self.cx.script_dir()),
                "PHP_EOL" => known("\n"),
                "DIRECTORY_SEPARATOR" => known("/"),
                c => self.name(&format!("::{c}"), node, depth),
            },
            "subscript_expression" => self.subscript(node, depth),
            "binary_expression" => {
                let (Some(l), Some(op), Some(r)) = (
                    by_field(node, "left"),
                    by_field(node, "operator"),
                    by_field(node, "right"),
                ) else {
                    return Obj::Val(Val::Unknown);
                };
                match self.text(op) {
                    "." => {
                        let l = self.eval(l, depth + 1).val();
                        Obj::Val(l.concat(self.eval(r, depth + 1).val()))
                    }
                    // `$_SERVER['HOME'] ?? '/root'`: a known text is not null.
                    "??" | "||" | "or" => {
                        let left = self.eval(l, depth + 1);
                        let truth = match (&left, self.text(op)) {
                            (Obj::Val(v), "??") => v.truth(&[], &[""]),
                            (Obj::Val(v), _) => v.truth(&["", "0"], &[]),
                            _ => None,
                        };
                        match truth {
                            Some(true) => left,
                            Some(false) => self.eval(r, depth + 1),
                            None => Obj::Val(Val::Unknown),
                        }
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "conditional_expression" => {
                let short = by_field(node, "body").is_none();
                let body = by_field(node, "body").or(by_field(node, "condition"));
                match (body, by_field(node, "alternative")) {
                    (Some(a), Some(b)) => {
                        let a = self.eval(a, depth + 1);
                        // `getenv('HOME') ?: '/root'`: the condition is the value when it
                        // is true.
                        if short
                            && let Obj::Val(v) = &a
                            && let Some(truth) = v.truth(&["", "0"], &[])
                        {
                            return if truth { a } else { self.eval(b, depth + 1) };
                        }
                        let b = self.eval(b, depth + 1);
                        // `glob(p) ?: []`: an empty array adds nothing to what the other
                        // side may be.
                        match (a, b) {
                            (Obj::Array(none), other) | (other, Obj::Array(none))
                                if none.is_empty() =>
                            {
                                other
                            }
                            (a, b) => {
                                let (a, b) = (a.val(), b.val());
                                Obj::Val(if a == b { a } else { Val::Unknown })
                            }
                        }
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "anonymous_function" | "arrow_function" => Obj::Closure,
            "array_creation_expression" => {
                let mut items = Vec::new();
                let mut c = node.walk();
                let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                for item in children {
                    let parts = item.named_child_count();
                    let first = item.named_child(0);
                    if parts != 1 || first.is_some_and(|f| kind(f) == "variadic_unpacking") {
                        return Obj::Val(Val::Unknown);
                    }
                    items.push(first.map_or(Val::Unknown, |f| self.eval(f, depth + 1).val()));
                }
                Obj::Array(items)
            }
            "function_call_expression" => self.value_of_call(node, depth),
            "object_creation_expression" | "scoped_call_expression" => {
                let class = by_field(node, "scope")
                    .or(node.named_child(0))
                    .map(|c| function_name(self.text(c)))
                    .unwrap_or_default();
                let method = by_field(node, "name").map(|n| self.text(n).to_ascii_lowercase());
                if kind(node) == "object_creation_expression"
                    && let Some(listing) = self.listing(&class, node)
                {
                    return listing;
                }
                let reflects = match kind(node) {
                    "object_creation_expression" => class == "reflectionfunction",
                    _ => class == "closure" && method.as_deref() == Some("fromcallable"),
                };
                if !reflects {
                    return Obj::Val(Val::Unknown);
                }
                let args = self.args(node);
                match args.get(0) {
                    Obj::Val(Val::Known(f)) => Obj::Func(function_name(&f)),
                    Obj::Closure => Obj::Closure,
                    _ => {
                        self.cx.unreadable(COMPUTED_NAME, self.line(node));
                        Obj::Val(Val::Unknown)
                    }
                }
            }
            // A file's information (`SplFileInfo`) is its path as a string.
            "member_call_expression" | "nullsafe_member_call_expression"
                if by_field(node, "name").is_some_and(|n| {
                    matches!(
                        self.text(n).to_ascii_lowercase().as_str(),
                        "getpathname" | "getrealpath" | "__tostring"
                    )
                }) =>
            {
                match by_field(node, "object") {
                    Some(object) => Obj::Val(self.eval(object, depth + 1).val()),
                    None => Obj::Val(Val::Unknown),
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// `new RecursiveDirectoryIterator($dir)` (and `FilesystemIterator`,
    /// `DirectoryIterator`): a loop over it gets each entry of `$dir`, as `$dir/*`;
    /// wrapped in `new RecursiveIteratorIterator(...)`, each entry below it at any depth,
    /// as `$dir/**/*`.
    fn listing(&mut self, class: &str, node: Node<'t>) -> Option<Obj> {
        let each = |v: Val| Obj::Each(Box::new(Obj::Val(v)));
        match class {
            "recursivedirectoryiterator" | "filesystemiterator" | "directoryiterator" => {
                let dir = self.args(node).get(0).val();
                Some(each(join(&[dir, Val::known("*")])))
            }
            "recursiveiteratoriterator" => Some(match self.args(node).get(0) {
                Obj::Each(entry) => match entry.val() {
                    Val::Known(p) if p.ends_with("/*") => {
                        each(Val::Known(format!("{}**/*", &p[..p.len() - 1])))
                    }
                    _ => each(Val::Unknown),
                },
                _ => Obj::Val(Val::Unknown),
            }),
            _ => None,
        }
    }

    fn name(&mut self, key: &str, node: Node<'t>, depth: usize) -> Obj {
        if self.wild && key.starts_with('$') {
            return Obj::Val(Val::Unknown);
        }
        if let Some(value) = self.param(key) {
            return value;
        }
        match self.names.get(key).cloned() {
            Some(Slot::Expr(value)) if self.names.enter(key) => {
                let out = self.eval(value, depth + 1);
                self.names.leave();
                out
            }
            Some(Slot::Grown(value, growths)) => self.grown(key, node, (value, &growths), depth),
            Some(Slot::Each(iterable)) if self.names.enter(key) => {
                let out = match self.eval(iterable, depth + 1) {
                    Obj::Each(element) => *element,
                    _ => Obj::Val(Val::Unknown),
                };
                self.names.leave();
                out
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn subscript(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let (Some(base), Some(key)) = (node.named_child(0), node.named_child(1)) else {
            return Obj::Val(Val::Unknown);
        };
        let key = self.eval(key, depth + 1).val();
        match (self.var(base), key) {
            (Some("_SERVER" | "_ENV"), Val::Known(k)) => return Obj::Val(self.cx.env(&k)),
            (Some("GLOBALS"), Val::Known(k)) => return self.name(&format!("${k}"), node, depth),
            // `php -r CODE a b`: `$argv` is `['Standard input code', 'a', 'b']`.
            (Some("argv"), Val::Known(k)) if self.names.get("$argv").is_none() => {
                return Obj::Val(match k.parse::<usize>() {
                    Ok(0) => Val::known("Standard input code"),
                    Ok(n) => self.cx.arg(n - 1),
                    Err(_) => Val::Unknown,
                });
            }
            (_, Val::Known(k)) => {
                if let (Obj::Array(items), Ok(n)) = (self.eval(base, depth + 1), k.parse::<usize>())
                {
                    return Obj::Val(items.get(n).cloned().unwrap_or(Val::Unknown));
                }
            }
            _ => {}
        }
        Obj::Val(Val::Unknown)
    }

    /// A string with `$var` and `{$expr}` parts, escapes decoded; a heredoc's indentation
    /// removed.
    pub(super) fn interpolated(&mut self, node: Node<'t>, depth: usize) -> Val {
        let (parts, indent) = match by_field(node, "value") {
            Some(body) if kind(node) == "heredoc" => (body, indent_of(node)),
            _ => (node, 0),
        };
        let mut out = Val::known("");
        let mut c = parts.walk();
        let children: Vec<Node<'t>> = parts.named_children(&mut c).collect();
        for part in children {
            let v = match kind(part) {
                "string_content" => {
                    let at_start = part.start_position().column == 0;
                    Val::Known(dedent(self.text(part), indent, at_start))
                }
                "escape_sequence" => Val::Known(double_escape(self.text(part))),
                _ => self.eval(part, depth + 1).val(),
            };
            out = out.concat(v);
        }
        out
    }
}
