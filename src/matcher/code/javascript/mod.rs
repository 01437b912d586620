//! JavaScript (`node -e`, Deno, Bun): the calls that run commands, delete, read, write,
//! fetch or run code, with the constant values of their arguments (string literals and
//! templates of constants, `+`, `String.fromCharCode`, `split`/`reverse`/`join`/`replace`,
//! `path.join`, `os.homedir()`, `process.env.HOME`), modules however they are bound
//! (`require`, destructuring, `import`, `await import`, the built-in modules `node -e`
//! exposes as globals), and names bound once.

mod calls;
mod inline;
mod modules;
mod narrow;
mod rounds;
mod sinks;
mod text;
mod values;

#[cfg(test)]
mod tests;

use std::borrow::Borrow;

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::scope::{Cx, Names, Slot, Val};
use super::tree::{MAX_NESTING, Source};
use modules::module_name;
use sinks::MUTATORS;

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
use text::{cat, num_text};

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// A number: `+` adds numbers and a mode is written in octal.
    Num(f64),
    Bool(bool),
    /// `null` or `undefined` (an argument left out).
    Null,
    /// A module, global or function, by qualified name (`child_process.execSync`).
    Ref(String),
    List(Vec<Obj>),
    /// An object literal; a key `...` stands for a spread whose keys are not known.
    Dict(Vec<(String, Obj)>),
    /// A method of a known string or list (`'a b'.split`, `[...].join`).
    StrMethod(String, String),
    ListMethod(Vec<Obj>, String),
    /// A property of something not followed: only its name is known.
    Attr(String),
    /// A network response, or something derived from one.
    Response,
    /// `Bun.file(path)` and one of its methods.
    File(Val),
    FileMethod(Val, String),
}

impl Obj {
    fn val(&self) -> Val {
        match self {
            Obj::Val(v) => v.clone(),
            Obj::Num(n) => Val::Known(num_text(*n)),
            Obj::Bool(b) => Val::Known(b.to_string()),
            Obj::Response => Val::Fetched,
            // An array becomes text with commas, as JavaScript converts it.
            Obj::List(items) => {
                let mut out = Val::known("");
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out = out.concat(Val::known(","));
                    }
                    out = cat(out, item.val());
                }
                out
            }
            _ => Val::Unknown,
        }
    }

    /// Whether the value is true in a condition, if known.
    fn truthy(&self) -> Option<bool> {
        match self {
            Obj::Bool(b) => Some(*b),
            Obj::Null => Some(false),
            Obj::Num(n) => Some(*n != 0.0 && !n.is_nan()),
            Obj::Val(Val::Known(s)) => Some(!s.is_empty()),
            Obj::Val(_) | Obj::Attr(_) | Obj::Response => None,
            _ => Some(true),
        }
    }

    /// The value of `key` in an object literal.
    fn key(&self, key: &str) -> Obj {
        match self {
            Obj::Dict(pairs) => match pairs.iter().rev().find(|(k, _)| k == key || k == "...") {
                Some((k, v)) if k == key => v.clone(),
                Some(_) => Obj::Val(Val::Unknown),
                None => Obj::Null,
            },
            Obj::Null => Obj::Null,
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn items(self) -> Vec<Val> {
        match self {
            Obj::List(items) => items.iter().map(Obj::val).collect(),
            other => vec![other.val()],
        }
    }
}

/// Reads a JavaScript program.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let root = tree.root_node();
    let mut js = Js {
        cx,
        src,
        names: Names::default(),
        alts: HashMap::new(),
        pin: None,
        items: Vec::new(),
        patterns: HashMap::new(),
        as_written: HashMap::new(),
        unaliased: HashMap::new(),
        scans: 0,
        root,
        loops: 0,
        endless: 0,
        functions: inline::Functions::default(),
        params: Vec::new(),
        pending: Vec::new(),
        narrows: Vec::new(),
    };
    js.bind_all(root, 0);
    js.functions = inline::Functions::of(src.text, root);
    js.walk(root);
}

struct Js<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    /// Every binding of each name, with the keys destructuring takes from the value.
    alts: HashMap<String, Vec<(Slot<'t>, Vec<String>)>>,
    /// A name bound more than once, evaluated as one of its bindings (see [`Js::call`]).
    pin: Option<(&'a str, Obj)>,
    /// The names of a loop over a literal, as one of its items (see [`rounds`]).
    items: Vec<(&'a str, Obj)>,
    /// The pattern (or name) of each loop or callback over a list, by the list's node id.
    patterns: HashMap<usize, Node<'t>>,
    /// Whether each name bound to a literal is only looped over, and whether each loop
    /// name's value is never shared (see [`rounds`]): scans of the program, once per name.
    as_written: HashMap<&'a str, bool>,
    unaliased: HashMap<&'a str, bool>,
    /// Such scans made.
    scans: usize,
    root: Node<'t>,
    loops: usize,
    /// Loops around the node being read that never end by their condition (`for (;;)`,
    /// `while (true)`).
    endless: usize,
    /// Functions read at their calls (see `inline.rs`).
    functions: inline::Functions<'t>,
    /// The parameters of the function being read at a call, with the call's arguments.
    params: Vec<(&'t str, Obj)>,
    /// The branches of the `if`s being read, by node id, with the suffixes their
    /// conditions test names for (see `narrow.rs`): not yet entered, and entered.
    pending: Vec<(usize, Vec<(&'a str, String)>)>,
    narrows: Vec<(usize, Vec<(&'a str, String)>)>,
}

impl<'a, 'c, 't> Js<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// Gathers the names the code binds (see [`Names`]).
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
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
                if method.is_some_and(|m| MUTATORS.contains(&m)) {
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
    fn bind_pattern_as(&mut self, pattern: Node<'t>, slot: Slot<'t>, path: Vec<String>) {
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

    /// Whether a loop's condition is missing or always true: `for (;;)`, `while (true)`,
    /// `while (1)`, `do ... while (!0)`.
    fn is_endless(&self, node: Node<'t>) -> bool {
        let condition = match by_field(node, "condition") {
            Some(c) => self.text(c),
            None => return kind(node) == "for_statement",
        };
        let bare: String = condition
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '(' | ')' | ';'))
            .collect();
        matches!(bare.as_str(), "" | "true" | "1" | "!0" | "!false" | "!!1")
    }

    /// Whether `node` is a `for ... of` over a literal array of at most
    /// [`FEW_ROUNDS`](crate::matcher::code::FEW_ROUNDS) items (`for (const s of ["1/2",
    /// "2/2"]) fork(...)`): what it starts is that many processes, not a fork bomb.
    fn few_rounds(&self, node: Node<'t>) -> bool {
        if kind(node) != "for_in_statement" {
            return false;
        }
        let Some(list) = by_field(node, "right").filter(|r| kind(*r) == "array") else {
            return false;
        };
        let mut c = list.walk();
        let items: Vec<Node<'t>> = list.named_children(&mut c).collect();
        items.len() <= crate::matcher::code::FEW_ROUNDS
            && items.iter().all(|i| kind(*i) != "spread_element")
    }

    /// Visits every node, reading the calls' effects.
    fn walk(&mut self, root: Node<'t>) {
        super::tree::visit(root, |node, depth, at| self.visit(node, depth, at));
    }

    /// One node of the walk: its loop count kept, and its effect read on entering.
    fn visit(&mut self, node: Node<'t>, depth: usize, at: super::tree::Visit) -> bool {
        let is_loop = matches!(
            kind(node),
            "for_statement" | "for_in_statement" | "while_statement" | "do_statement"
        ) && !self.few_rounds(node);
        let endless = is_loop && self.is_endless(node);
        if at == super::tree::Visit::Leave {
            self.loops -= usize::from(is_loop);
            self.endless -= usize::from(endless);
            self.narrow_leave(node);
            return false;
        }
        if self.functions.defines(node) {
            return false;
        }
        self.loops += usize::from(is_loop);
        self.endless += usize::from(endless);
        if !self.cx.enter(depth, self.line(node)) {
            return false;
        }
        self.narrow_enter(node);
        match kind(node) {
            "call_expression" => self.call(node),
            "new_expression" => self.call(node),
            "with_statement" => self.cx.opaque(
                "the code uses `with`, which makes its names dynamic",
                self.line(node),
            ),
            _ => {}
        }
        true
    }
}

/// Bindings of one name kept to be tried as callees.
pub(super) const MAX_ALTS: usize = 8;

/// The child of a node in a field (see [`super::tree::field`]).
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

pub(super) fn by_field<'t>(node: impl Borrow<Node<'t>>, name: &str) -> Option<Node<'t>> {
    super::tree::field(super::Lang::JavaScript, *node.borrow(), name)
}

/// The kind of a node (see [`super::tree::kind`]).
pub(super) fn kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    super::tree::kind(super::Lang::JavaScript, *node.borrow())
}
