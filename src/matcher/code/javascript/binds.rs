//! The names the code binds (see [`Names`](crate::matcher::code::scope::Names)), gathered
//! before any call is read, and what makes a name not known: a name bound again, or an
//! object changed in place.

use tree_sitter::Node;

use super::modules::module_name;
use super::sinks::MUTATORS;
use super::{Js, MAX_ALTS, by_field, kind, rounds};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::MAX_NESTING;

/// Methods whose result is a new value, not their object nor one of their arguments: what
/// is changed in place after them is that new value (`Object.keys(o).sort()`).
const RETURNS_NEW: &[&str] = &[
    "filter",
    "map",
    "slice",
    "concat",
    "flat",
    "flatMap",
    "toSorted",
    "toReversed",
    "split",
    "keys",
    "values",
    "entries",
    "from",
    "of",
    "readdirSync",
    "readFileSync",
    "parse",
    "match",
    "matchAll",
    "trim",
    "toString",
    "join",
];

impl<'t> Js<'_, '_, 't> {
    /// Gathers the names the code binds (see [`Names`](crate::matcher::code::scope::Names)).
    pub(super) fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        let field = |f| by_field(node, f);
        match kind(node) {
            "variable_declarator" => match (field("name"), field("value")) {
                (Some(name), Some(value)) => self.bind_pattern(name, value, Vec::new()),
                (name, _) => self.forget_in(name),
            },
            "assignment_expression" => match (field("left"), field("right")) {
                (Some(l), Some(r)) if kind(l) == "identifier" => {
                    self.bind(self.text(l), Slot::Expr(r), Vec::new())
                }
                (Some(l), Some(r)) if kind(l) == "parenthesized_expression" => {
                    match l.named_child(0) {
                        Some(p) => self.bind_pattern(p, r, Vec::new()),
                        None => self.forget_in(Some(l)),
                    }
                }
                // The exit status a script sets changes nothing the reader follows.
                (Some(l), _) if self.text(l).replace(' ', "") == "process.exitCode" => {}
                (l, _) => self.forget_root(l),
            },
            "augmented_assignment_expression" => self.forget_root(field("left")),
            "update_expression" => self.forget_root(field("argument")),
            "unary_expression" if self.text(node).starts_with("delete") => {
                self.forget_root(field("argument"))
            }
            // An object changed in place is no longer the literal it was bound to.
            "call_expression" => {
                let callee = field("function");
                let method = callee
                    .filter(|c| kind(c) == "member_expression")
                    .and_then(|c| by_field(c, "property"))
                    .map(|p| self.text(p));
                if method.is_some_and(|m| MUTATORS.contains(&m))
                    && !(method == Some("push") && self.grow(node, callee))
                {
                    self.forget_root(callee);
                }
                // `Object.assign(o, ...)` and its kin; `entries`, `values` and `keys` only read.
                let object = callee.and_then(|c| by_field(c, "object"));
                if object.is_some_and(|o| self.text(o) == "Object")
                    && !method.is_some_and(|m| matches!(m, "entries" | "values" | "keys"))
                {
                    let first = field("arguments").and_then(|a| a.named_child(0));
                    self.forget_root(first);
                }
            }
            // `for (const f of fs.readdirSync(d))`: `f` is each name the listing finds, or
            // each item of a literal array (see `Js::call`).
            "for_in_statement" => match (field("left"), field("right")) {
                (Some(left), Some(right))
                    if matches!(
                        kind(left),
                        "identifier" | "array_pattern" | "object_pattern"
                    ) && field("operator").is_some_and(|o| self.text(o) == "of")
                        && (is_listing_call(right)
                            || matches!(kind(right), "array" | "identifier")) =>
                {
                    self.bind_each(left, right)
                }
                (left, _) => self.forget_in(left),
            },
            "function_declaration"
            | "generator_function_declaration"
            | "class_declaration"
            | "function_expression"
            | "generator_function"
            | "class" => {
                self.forget_in(field("name"));
                self.forget_in(field("parameters"));
            }
            // `f => ...`, `(f, i) => ...` or `([name, cmd]) => ...`: the first parameter is
            // the item.
            "arrow_function" => match (
                field("parameter").or_else(|| {
                    field("parameters")
                        .and_then(|ps| ps.named_child(0))
                        .filter(|p| {
                            matches!(kind(p), "identifier" | "array_pattern" | "object_pattern")
                        })
                }),
                called_on(node),
            ) {
                // `fs.readdirSync(d).forEach(f => ...)`, `['dist', 'build'].forEach(d => ...)`,
                // `CHECKS.map(({ args }) => ...)`
                (Some(p), Some((method, list)))
                    if rounds::EACH_ITEM.contains(&self.text(method))
                        && (is_listing_call(list)
                            || matches!(kind(list), "array" | "identifier")) =>
                {
                    self.bind_each(p, list);
                    // The index and the array, after it.
                    if let Some(ps) = field("parameters") {
                        let mut c = ps.walk();
                        let rest: Vec<Node<'t>> = ps.named_children(&mut c).skip(1).collect();
                        for r in rest {
                            self.forget_in(Some(r));
                        }
                    }
                }
                (parameter, _) => {
                    self.forget_in(parameter);
                    self.forget_in(field("parameters"));
                }
            },
            "method_definition" => self.forget_in(field("parameters")),
            "catch_clause" => self.forget_in(field("parameter")),
            "import_statement" => self.bind_import(node),
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.bind_all(child, depth + 1);
        }
    }

    /// Binds `name` to `slot` and the keys `path` taken from it, keeping every binding.
    fn bind(&mut self, name: &str, slot: Slot<'t>, path: Vec<String>) {
        self.names.bind(name, slot.clone());
        let alts = self.alts.entry(name.to_owned()).or_default();
        if alts.len() < MAX_ALTS {
            alts.push((slot, path));
        }
    }

    /// `const {a, b: c} = value`, `[x, y] = value`: each name with its key path.
    fn bind_pattern(&mut self, pattern: Node<'t>, value: Node<'t>, path: Vec<String>) {
        self.bind_pattern_as(pattern, Slot::Expr(value), path);
    }

    /// Binds each name of `pattern` to `slot` with the keys it takes; the parts not
    /// followed are not known.
    pub(super) fn bind_pattern_as(&mut self, pattern: Node<'t>, slot: Slot<'t>, path: Vec<String>) {
        let (mut names, mut other) = (Vec::new(), Vec::new());
        self.pattern_names(pattern, path, &mut names, &mut other);
        for (name, path) in names {
            self.bind(self.text(name), slot.clone(), path);
        }
        for part in other {
            self.forget_in(Some(part));
        }
    }

    fn bind_import(&mut self, node: Node<'t>) {
        let Some(source) = by_field(node, "source") else {
            return;
        };
        let module = module_name(self.text(source).trim_matches(['"', '\'']));
        let mut c = node.walk();
        let Some(clause) = node
            .named_children(&mut c)
            .find(|n| kind(n) == "import_clause")
        else {
            return;
        };
        let mut c = clause.walk();
        for part in clause.named_children(&mut c) {
            match kind(part) {
                "identifier" => self.bind(self.text(part), Slot::Ref(module.clone()), Vec::new()),
                "namespace_import" => {
                    if let Some(id) = part.named_child(0) {
                        self.bind(self.text(id), Slot::Ref(module.clone()), Vec::new());
                    }
                }
                "named_imports" => {
                    let mut c = part.walk();
                    for spec in part.named_children(&mut c) {
                        let name = by_field(spec, "name");
                        let alias = by_field(spec, "alias").or(name);
                        if let (Some(n), Some(a)) = (name, alias) {
                            let q = format!("{module}.{}", self.text(n).trim_matches(['"', '\'']));
                            self.bind(self.text(a), Slot::Ref(q), Vec::new());
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Every name under `node` becomes not known.
    fn forget_in(&mut self, node: Option<Node<'_>>) {
        let Some(node) = node else { return };
        if matches!(
            kind(node),
            "identifier" | "shorthand_property_identifier_pattern"
        ) {
            let name = self.text(node);
            self.names.forget(name);
            // Kept among its bindings too, so that no reading of them all leaves it out.
            let alts = self.alts.entry(name.to_owned()).or_default();
            if alts.len() < MAX_ALTS {
                alts.push((Slot::Many, Vec::new()));
            }
            return;
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.forget_in(Some(child));
        }
    }

    /// `NAME.push(...)`, a statement of its own, grows the array `NAME` bound once (see
    /// [`growths`](crate::matcher::code::growths)); false where it does not.
    fn grow(&mut self, call: Node<'t>, callee: Option<Node<'t>>) -> bool {
        let Some(object) = callee
            .and_then(|c| by_field(c, "object"))
            .filter(|o| kind(*o) == "identifier")
        else {
            return false;
        };
        let name = self.text(object);
        let bound_once = matches!(self.names.get(name), Some(Slot::Expr(_) | Slot::Grown(..)));
        let a_statement = call
            .parent()
            .is_some_and(|p| kind(p) == "expression_statement");
        if !(bound_once && a_statement) {
            return false;
        }
        self.grows = true;
        self.names.grow(name, call)
    }

    /// The name an object changed in place is reached by (`o` in `o.a.b = 1`).
    fn forget_root(&mut self, mut node: Option<Node<'_>>) {
        while let Some(n) = node {
            match kind(n) {
                "identifier" => return self.forget_in(Some(n)),
                "member_expression" | "subscript_expression" => node = by_field(n, "object"),
                "parenthesized_expression" => node = n.named_child(0),
                // `fs.readdirSync(d).filter(f).sort()` sorts a new array: no name holds it.
                // `a.sort().push(x)` changes `a`, which `sort` returns.
                "call_expression" => {
                    let callee =
                        by_field(n, "function").filter(|c| kind(*c) == "member_expression");
                    let method = callee
                        .and_then(|c| by_field(c, "property"))
                        .map(|p| self.text(p));
                    match method {
                        Some("sort" | "reverse" | "fill" | "copyWithin") => {
                            node = callee.and_then(|c| by_field(c, "object"));
                        }
                        Some(m) if RETURNS_NEW.contains(&m) => return,
                        _ => return self.forget_in(Some(n)),
                    }
                }
                _ => return self.forget_in(Some(n)),
            }
        }
    }
}

/// Whether `node` is a call, which may list a directory (`fs.readdirSync(d)`, `glob.sync(p)`,
/// or such a listing filtered or sorted): a loop's variable over it is read as each name
/// found when the call turns out to be a listing (see [`Js::listed`]).
fn is_listing_call(node: Node<'_>) -> bool {
    kind(node) == "call_expression"
}

/// The method an arrow function is passed to and the object it is called on:
/// `LIST.forEach(f => ...)` gives `forEach` and `LIST`.
fn called_on(arrow: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let arguments = arrow.parent().filter(|p| kind(p) == "arguments")?;
    let call = arguments
        .parent()
        .filter(|c| kind(c) == "call_expression")?;
    let callee = by_field(call, "function").filter(|f| kind(f) == "member_expression")?;
    Some((by_field(callee, "property")?, by_field(callee, "object")?))
}
