//! What an expression evaluates to, as far as the reader follows it (constant strings,
//! numbers, lists and object literals, names through their bindings, modules and functions
//! by qualified name), and a call's arguments; what the calls that compute strings, paths
//! and modules return is in `computed.rs`.

use super::{by_field, kind};
use tree_sitter::Node;

use super::modules::canonical;
use super::sinks::{GLOBALS, MODULES};
use super::text::{cat, parse_num};
use super::{Js, Obj};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::MAX_NESTING;
use crate::matcher::code::{Origin, Val};

/// A call's arguments, evaluated; `open` when a spread's items are not known.
pub(super) struct Args {
    pub(super) items: Vec<Obj>,
    pub(super) open: bool,
}

impl Args {
    pub(super) fn get(&self, n: usize) -> Obj {
        match self.items.get(n) {
            Some(o) => o.clone(),
            None if self.open => Obj::Val(Val::Unknown),
            None => Obj::Null,
        }
    }

    pub(super) fn val(&self, n: usize) -> Val {
        self.get(n).val()
    }
}

impl<'t> Js<'_, '_, 't> {
    pub(super) fn args(&mut self, node: Node<'t>, depth: usize) -> Args {
        let mut args = Args {
            items: Vec::new(),
            open: false,
        };
        let Some(list) = by_field(node, "arguments") else {
            return args;
        };
        if kind(list) == "template_string" {
            args.items.push(Obj::Val(self.template(list, depth + 1)));
            return args;
        }
        let mut c = list.walk();
        let nodes: Vec<Node<'t>> = list.named_children(&mut c).collect();
        for a in nodes {
            match kind(a) {
                "comment" => {}
                "spread_element" => match a.named_child(0).map(|i| self.eval(i, depth + 1)) {
                    Some(Obj::List(items)) => args.items.extend(items),
                    _ => args.open = true,
                },
                _ => {
                    let v = self.eval(a, depth + 1);
                    args.items.push(v);
                }
            }
        }
        args
    }
    /// What `node` evaluates to.
    pub(super) fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        let unknown = Obj::Val(Val::Unknown);
        let first = node.named_child(0);
        match kind(node) {
            "string" => Obj::Val(self.template(node, depth)),
            "template_string" => Obj::Val(self.template(node, depth)),
            "number" => parse_num(self.text(node)).map_or(unknown, Obj::Num),
            "true" => Obj::Bool(true),
            "false" => Obj::Bool(false),
            "null" | "undefined" => Obj::Null,
            "parenthesized_expression" | "await_expression" => match first {
                Some(inner) => self.eval(inner, depth + 1),
                None => unknown,
            },
            // `(0, eval)`: the last expression.
            "sequence_expression" => {
                let mut c = node.walk();
                match node.named_children(&mut c).last() {
                    Some(last) => self.eval(last, depth + 1),
                    None => unknown,
                }
            }
            "assignment_expression" => match by_field(node, "right") {
                Some(r) => self.eval(r, depth + 1),
                None => unknown,
            },
            "array" => {
                let mut items = Vec::new();
                let mut c = node.walk();
                let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                for item in children {
                    if kind(item) == "spread_element" {
                        match item.named_child(0).map(|n| self.eval(n, depth + 1)) {
                            Some(Obj::List(more)) => items.extend(more),
                            Some(Obj::Val(Val::Known(s))) => {
                                items.extend(s.chars().map(|c| Obj::Val(Val::Known(c.into()))))
                            }
                            _ => items.push(unknown.clone()),
                        }
                    } else if kind(item) != "comment" {
                        items.push(self.eval(item, depth + 1));
                    }
                }
                Obj::List(items)
            }
            "object" => self.object(node, depth),
            "identifier" => self.name(node, depth),
            "member_expression" => {
                let (Some(object), Some(prop)) =
                    (by_field(node, "object"), by_field(node, "property"))
                else {
                    return unknown;
                };
                let base = self.eval(object, depth + 1);
                self.member(base, Val::known(self.text(prop)), node)
            }
            "subscript_expression" => {
                let (Some(object), Some(index)) =
                    (by_field(node, "object"), by_field(node, "index"))
                else {
                    return unknown;
                };
                let base = self.eval(object, depth + 1);
                let key = self.eval(index, depth + 1).val();
                self.member(base, key, node)
            }
            "binary_expression" => self.binary(node, depth),
            "unary_expression" => {
                let arg = by_field(node, "argument").map(|a| self.eval(a, depth + 1));
                let op = by_field(node, "operator").map(|o| self.text(o));
                match (op, arg) {
                    (Some("-"), Some(Obj::Num(n))) => Obj::Num(-n),
                    (Some("+"), Some(Obj::Num(n))) => Obj::Num(n),
                    (Some("!"), Some(a)) => a.truthy().map_or(unknown, |t| Obj::Bool(!t)),
                    (Some("void"), _) => Obj::Null,
                    _ => unknown,
                }
            }
            "ternary_expression" => {
                let a = by_field(node, "consequence").map(|n| self.eval(n, depth + 1));
                let b = by_field(node, "alternative").map(|n| self.eval(n, depth + 1));
                match (a.map(|o| o.val()), b.map(|o| o.val())) {
                    (Some(a), Some(b)) if a == b => Obj::Val(a),
                    _ => unknown,
                }
            }
            "call_expression" | "new_expression" => self.value_of_call(node, depth),
            _ => unknown,
        }
    }

    fn object(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let mut pairs = Vec::new();
        let mut c = node.walk();
        let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
        for part in children {
            match kind(part) {
                "pair" => {
                    let (Some(k), Some(v)) = (by_field(part, "key"), by_field(part, "value"))
                    else {
                        continue;
                    };
                    let key = match kind(k) {
                        "computed_property_name" => match k.named_child(0) {
                            Some(e) => self.eval(e, depth + 1).val(),
                            None => Val::Unknown,
                        },
                        "string" => self.template(k, depth + 1),
                        _ => Val::known(self.text(k)),
                    };
                    let value = self.eval(v, depth + 1);
                    pairs.push((key.text().unwrap_or("...").to_owned(), value));
                }
                "shorthand_property_identifier" => {
                    let value = self.name(part, depth + 1);
                    pairs.push((self.text(part).to_owned(), value));
                }
                "spread_element" => match part.named_child(0).map(|n| self.eval(n, depth + 1)) {
                    Some(Obj::Dict(more)) => pairs.extend(more),
                    _ => pairs.push(("...".to_owned(), Obj::Val(Val::Unknown))),
                },
                "method_definition" => {
                    let name = by_field(part, "name").map_or("...", |n| self.text(n));
                    pairs.push((name.to_owned(), Obj::Val(Val::Unknown)));
                }
                _ => {}
            }
        }
        Obj::Dict(pairs)
    }

    fn name(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let name = self.text(node);
        if let Some((_, obj)) = self.params.iter().find(|(p, _)| *p == name) {
            return obj.clone();
        }
        if let Some((_, obj)) = self.pin.as_ref().filter(|(p, _)| *p == name) {
            return obj.clone();
        }
        if let Some((_, obj)) = self.items.iter().rev().find(|(n, _)| *n == name) {
            return obj.clone();
        }
        match self.names.get(name).cloned() {
            Some(Slot::Expr(_)) => {
                let Some((slot, path)) = self.alts.get(name).and_then(|a| a.first()).cloned()
                else {
                    return Obj::Val(Val::Unknown);
                };
                // An array or object shared where it may be changed (another name for it,
                // a function of the program's own) is not the one it was bound to.
                match self.binding(name, slot, path, node, depth) {
                    Obj::List(_) | Obj::Dict(_) if !self.unaliased(name) => Obj::Val(Val::Unknown),
                    out => out,
                }
            }
            Some(Slot::Ref(q)) => Obj::Ref(q),
            // A name a pattern takes from each element is not the element.
            Some(Slot::Each(_))
                if self
                    .alts
                    .get(name)
                    .is_some_and(|a| a.iter().any(|(_, p)| !p.is_empty())) =>
            {
                Obj::Attr(name.to_owned())
            }
            Some(Slot::Each(list)) => match self.listed(list, depth) {
                Some(Obj::Val(element)) => Obj::Val(self.narrowed(name, element)),
                Some(other) => other,
                None => Obj::Attr(name.to_owned()),
            },
            // A name that several loops or callbacks take in turn (each scoped to its
            // own): known when every one of them is a listing with the same elements.
            Some(Slot::Many) => match self.listed_by_all(name, depth) {
                Some(Obj::Val(element)) => Obj::Val(self.narrowed(name, element)),
                Some(other) => other,
                None => Obj::Attr(name.to_owned()),
            },
            Some(Slot::Grown(value, growths)) => self.grown(name, node, value, &growths, depth),
            // Only the Python reader binds the variable of several loops this way.
            Some(Slot::Part(..) | Slot::Item(..) | Slot::Loops(_)) => Obj::Val(Val::Unknown),
            None if GLOBALS.contains(&name) || MODULES.contains(&name) => Obj::Ref(name.into()),
            None if name == "__dirname" => Obj::Val(self.cx.script_dir()),
            None if name == "undefined" => Obj::Null,
            None => Obj::Val(Val::Unknown),
        }
    }

    /// What each element of `list` is, when it is a directory listing: a name in the
    /// directory (`fs.readdirSync(d)` finds `*`: never `..`, never a `/`; `**/*` with
    /// `{recursive: true}`), or a path the
    /// pattern of `glob.sync(p)` matches; the same after `.filter(...)`, `.sort()`.
    fn listed(&mut self, list: Node<'t>, depth: usize) -> Option<Obj> {
        if depth > MAX_NESTING {
            return None;
        }
        let callee = by_field(list, "function")?;
        if kind(callee) == "member_expression"
            && let (Some(method), Some(object)) =
                (by_field(callee, "property"), by_field(callee, "object"))
            && matches!(
                self.text(method),
                "filter" | "sort" | "toSorted" | "reverse" | "slice"
            )
            && kind(object) == "call_expression"
        {
            return self.listed(object, depth + 1);
        }
        let Obj::Ref(q) = self.eval(callee, depth + 1) else {
            return None;
        };
        match canonical(&q).as_str() {
            // `{recursive: true}` lists the whole tree, as paths below the directory.
            "fs.readdirSync" | "fs.readdir" => {
                let options = by_field(list, "arguments").and_then(|a| a.named_child(1));
                let recursive = options.is_some_and(|o| self.text(o).contains("recursive"));
                Some(Obj::Val(Val::known(if recursive { "**/*" } else { "*" })))
            }
            "glob.sync" | "glob.globSync" | "glob.glob" | "fast-glob.sync" | "fs.globSync" => {
                let pattern = by_field(list, "arguments")?.named_child(0)?;
                Some(Obj::Val(self.eval(pattern, depth + 1).val()))
            }
            _ => None,
        }
    }

    /// The element every binding of `name` gives, when each is a loop or callback over a
    /// listing and all list the same (`ls.filter(f => ...).forEach(f => ...)`).
    fn listed_by_all(&mut self, name: &str, depth: usize) -> Option<Obj> {
        let alts = self.alts.get(name)?;
        // Past the bound, a binding may have gone unrecorded.
        if alts.len() >= super::MAX_ALTS {
            return None;
        }
        let lists: Vec<Node<'t>> = alts
            .iter()
            .map(|(slot, _)| match slot {
                Slot::Each(list) => Some(*list),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let mut element: Option<Val> = None;
        for list in lists {
            let Obj::Val(v) = self.listed(list, depth)? else {
                return None;
            };
            match &element {
                Some(e) if *e != v => return None,
                _ => element = Some(v),
            }
        }
        element.map(Obj::Val)
    }

    /// The value of one binding of `name`.
    pub(super) fn binding(
        &mut self,
        name: &str,
        slot: Slot<'t>,
        path: Vec<String>,
        node: Node<'_>,
        depth: usize,
    ) -> Obj {
        let Slot::Expr(value) = slot else {
            return match slot {
                Slot::Ref(q) => Obj::Ref(q),
                _ => Obj::Val(Val::Unknown),
            };
        };
        if !self.names.enter(name) {
            return Obj::Val(Val::Unknown);
        }
        let mut out = self.eval(value, depth + 1);
        for key in path {
            out = self.member(out, Val::Known(key), node);
        }
        self.names.leave();
        out
    }

    /// `base.key` and `base[key]`.
    pub(super) fn member(&mut self, base: Obj, key: Val, node: Node<'_>) -> Obj {
        let Val::Known(key) = key else {
            // `global[x]`, `require('child_process')[x]`: a function named at run time.
            if matches!(&base, Obj::Ref(q) if !q.contains('.')) {
                self.cx.unreadable(
                    "the code looks up a function by a name computed at run time",
                    self.line(node),
                );
            }
            return match base {
                Obj::Response => Obj::Response,
                _ => Obj::Val(Val::Unknown),
            };
        };
        match base {
            Obj::Ref(q) => {
                let q = canonical(&q);
                match q.as_str() {
                    "process.env" => Obj::Val(self.cx.env(&key)),
                    "os.userInfo()" if key == "homedir" => Obj::Val(Val::known("~")),
                    "process" if key == "execPath" => Obj::Val(Val::known("node")),
                    "path" | "path.posix" if key == "sep" => Obj::Val(Val::known("/")),
                    // `node -e CODE a b`: `process.argv` is `[node, 'a', 'b']`; `node - a b`
                    // (code from standard input): `[node, '-', 'a', 'b']`.
                    "process" if key == "argv" => match self.cx.args() {
                        Some(args) => {
                            let script =
                                (self.cx.origin() == Origin::Stdin).then(|| Val::known("-"));
                            Obj::List(
                                std::iter::once(Val::known("node"))
                                    .chain(script)
                                    .chain(args.iter().cloned())
                                    .map(Obj::Val)
                                    .collect(),
                            )
                        }
                        None => Obj::Val(Val::Unknown),
                    },
                    _ => Obj::Ref(format!("{q}.{key}")),
                }
            }
            Obj::Val(Val::Known(s)) => match key.parse::<usize>() {
                Ok(n) => Obj::Val(
                    s.chars()
                        .nth(n)
                        .map_or(Val::Unknown, |c| Val::Known(c.into())),
                ),
                Err(_) if key == "length" => Obj::Num(s.encode_utf16().count() as f64),
                Err(_) => Obj::StrMethod(s, key),
            },
            Obj::List(items) => match key.parse::<usize>() {
                Ok(n) => items.get(n).cloned().unwrap_or(Obj::Null),
                Err(_) if key == "length" => Obj::Num(items.len() as f64),
                Err(_) => Obj::ListMethod(items, key),
            },
            d @ Obj::Dict(_) => match d.key(&key) {
                Obj::Null => Obj::Attr(key),
                v => v,
            },
            Obj::Response | Obj::Val(Val::Fetched) => Obj::Response,
            Obj::File(p) => Obj::FileMethod(p, key),
            _ => Obj::Attr(key),
        }
    }

    fn binary(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let (Some(l), Some(op), Some(r)) = (
            by_field(node, "left"),
            by_field(node, "operator"),
            by_field(node, "right"),
        ) else {
            return Obj::Val(Val::Unknown);
        };
        let left = self.eval(l, depth + 1);
        let right = self.eval(r, depth + 1);
        match (self.text(op), left, right) {
            ("+", Obj::Num(a), Obj::Num(b)) => Obj::Num(a + b),
            ("-", Obj::Num(a), Obj::Num(b)) => Obj::Num(a - b),
            ("*", Obj::Num(a), Obj::Num(b)) => Obj::Num(a * b),
            ("+", a, b) => Obj::Val(cat(a.val(), b.val())),
            ("||", a, b) => match a.truthy() {
                Some(true) => a,
                Some(false) => b,
                None => Obj::Val(Val::Unknown),
            },
            ("&&", a, b) => match a.truthy() {
                Some(true) => b,
                Some(false) => a,
                None => Obj::Val(Val::Unknown),
            },
            ("??", Obj::Null, b) => b,
            ("??", a @ (Obj::Val(Val::Known(_)) | Obj::Num(_) | Obj::Ref(_)), _) => a,
            _ => Obj::Val(Val::Unknown),
        }
    }
}
