//! Functions read where they are called: `function run($cmd) { passthru($cmd, $rc);
//! return $rc; }` then `run('vendor/bin/phpunit')` runs `vendor/bin/phpunit`, where reading
//! the body once would run a command built at run time. A function defined at the top of
//! the program, or a closure assigned at the top to a variable (`$run = function ($cmd) {
//! ... }`, `$run = fn ($c) => ...`), whose name appears only where it is defined and where
//! it is called by that name (`run(...)`, `$run(...)`), has its body read at each call:
//! each parameter is the call's argument at its place, or its default, unless the body
//! assigns it again; a variadic parameter, and any parameter of a call with named or
//! unpacked arguments, is not known. A parameter taken by reference (`&$a`) makes no
//! variable known already (`wild`). Within the bounds of `code/inline.rs`.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{Obj, Php, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::inline::{Budget, Reading, defined_once, reached, whole_words};
use crate::matcher::code::tree::{Visit, visit};

/// Where a parameter takes its value.
#[derive(Debug, Clone, Copy)]
enum Param<'t> {
    /// The argument at this place, or this default when the call gives none.
    At(usize, Option<Node<'t>>),
    /// Not known (variadic, or assigned again in the body).
    Unknown,
}

/// A function whose body is read at its calls.
struct Inlined<'t> {
    def: Node<'t>,
    body: Node<'t>,
    params: Vec<(String, Param<'t>)>,
}

/// The functions of a program read at their calls, by the name they are called by
/// (lower case for a function, as PHP compares them; `$name` for a closure's variable).
#[derive(Default)]
pub(super) struct Functions<'t> {
    by_name: HashMap<String, Inlined<'t>>,
    defs: HashSet<usize>,
    budget: Budget,
}

impl<'t> Functions<'t> {
    /// The functions and closures at the top of `root` whose names are only defined and
    /// called.
    pub(super) fn of(text: &str, root: Node<'t>) -> Functions<'t> {
        let of = |n: Node<'_>| text.get(n.byte_range()).unwrap_or_default();
        let mut c = root.walk();
        let mut by_name = defined_once(root.named_children(&mut c).filter_map(|statement| {
            let (name, def) = match kind(statement) {
                "function_definition" => (
                    of(by_field(statement, "name")?).to_ascii_lowercase(),
                    statement,
                ),
                "expression_statement" => {
                    let assign = statement
                        .named_child(0)
                        .filter(|a| kind(*a) == "assignment_expression")?;
                    let (l, r) = (by_field(assign, "left")?, by_field(assign, "right")?);
                    let closure = matches!(kind(r), "anonymous_function" | "arrow_function");
                    (kind(l) == "variable_name" && closure).then(|| (of(l).to_owned(), r))?
                }
                _ => return None,
            };
            let (body, params) = (by_field(def, "body")?, parameters(text, def)?);
            Some((name, Inlined { def, body, params }))
        }));
        if by_name.is_empty() {
            return Functions::default();
        }
        // Each call by name; the name anywhere else (a callback string, `$run` passed on)
        // drops the function.
        let defs: HashSet<usize> = by_name.values().map(|f| f.def.id()).collect();
        let mut calls: HashMap<String, usize> = HashMap::new();
        let reached = reached(root, &defs, |node| {
            let name = called_name(text, node)?;
            let f = by_name.get(&name)?;
            *calls.entry(name).or_default() += 1;
            Some(f.def.id())
        });
        let lower = text.to_ascii_lowercase();
        by_name.retain(|name, f| {
            let called = calls.get(name).copied().unwrap_or(0);
            let seen = match name.strip_prefix('$') {
                // `$run` is also `${'run'}` or `$GLOBALS['run']`: those make code wild.
                Some(_) => whole_words(text, name),
                None => whole_words(&lower, name),
            };
            seen == 1 + called && reached.contains(&f.def.id())
        });
        Functions {
            defs: by_name.values().map(|f| f.def.id()).collect(),
            by_name,
            budget: Budget::default(),
        }
    }

    /// Whether `node` defines a function read at its calls: the program's pass skips it.
    pub(super) fn defines(&self, node: Node<'t>) -> bool {
        self.defs.contains(&node.id())
    }
}

/// The name `node` calls a function by, if it is a call by name (`run(...)`, `$run(...)`).
fn called_name(text: &str, node: Node<'_>) -> Option<String> {
    let of = |n: Node<'_>| text.get(n.byte_range()).unwrap_or_default();
    let f = by_field(node, "function").filter(|_| kind(node) == "function_call_expression")?;
    match kind(f) {
        "name" => Some(of(f).to_ascii_lowercase()),
        "variable_name" => Some(of(f).to_owned()),
        _ => None,
    }
}

/// The parameters of `def`, each with where it takes its value; `None` when one is taken
/// by reference.
fn parameters<'t>(text: &str, def: Node<'t>) -> Option<Vec<(String, Param<'t>)>> {
    let of = |n: Node<'_>| text.get(n.byte_range()).unwrap_or_default();
    let list = by_field(def, "parameters")?;
    let assigned = assignments(text, by_field(def, "body")?);
    let mut params = Vec::new();
    let mut c = list.walk();
    for (k, p) in list.named_children(&mut c).enumerate() {
        let name = of(by_field(p, "name")?).to_owned();
        if of(p).contains('&') {
            return None;
        }
        let param = match kind(p) {
            "simple_parameter" if !assigned.contains(&name) => {
                Param::At(k, by_field(p, "default_value"))
            }
            _ => Param::Unknown,
        };
        params.push((name, param));
    }
    Some(params)
}

/// The variables `body` assigns: targets of `=` and the operators that assign (`.=`,
/// `??=`, `++`), a `foreach`'s variables, and what a `list()` or `[...] =` takes.
fn assignments(text: &str, body: Node<'_>) -> HashSet<String> {
    let of = |n: Node<'_>| text.get(n.byte_range()).unwrap_or_default();
    let mut out = HashSet::new();
    let mut targets = Vec::new();
    visit(body, |node, _, at| {
        if at == Visit::Leave {
            return false;
        }
        match kind(node) {
            "assignment_expression"
            | "augmented_assignment_expression"
            | "reference_assignment_expression" => targets.extend(by_field(node, "left")),
            "update_expression" => targets.extend(by_field(node, "argument")),
            "foreach_statement" => {
                let mut c = node.walk();
                targets.extend(node.named_children(&mut c).skip(1));
            }
            _ => {}
        }
        true
    });
    for target in targets {
        visit(target, |n, _, at| {
            if at == Visit::Enter && kind(n) == "variable_name" {
                out.insert(of(n).to_owned());
            }
            at == Visit::Enter
        });
    }
    out
}

impl<'t> Php<'_, '_, 't> {
    /// When `call` calls a function read at its calls, reads its body with its
    /// parameters bound to the call's arguments.
    pub(super) fn read_called_function(&mut self, call: Node<'t>) {
        if self.functions.by_name.is_empty() {
            return;
        }
        let Some(f) = called_name(self.src.text, call).and_then(|n| self.functions.by_name.get(&n))
        else {
            return;
        };
        let (def, body, params) = (f.def, f.body, f.params.clone());
        let reading = self.functions.budget.reading(def.id());
        if reading == Reading::Skip {
            return;
        }
        let args = self.args(call);
        // Named or unpacked arguments stop the places (see `Php::args`).
        let placed = args.vals.len() == args.nodes.len();
        let mut bound = Vec::new();
        for (name, param) in params {
            let value = match (param, reading) {
                (Param::At(k, default), Reading::AtCall) if placed => match args.vals.get(k) {
                    Some(v) => v.clone(),
                    None => default.map_or(Obj::Val(Val::Unknown), |d| self.eval(d, 0)),
                },
                _ => Obj::Val(Val::Unknown),
            };
            bound.push((name, value));
        }
        // The function sees its own parameters, not its caller's.
        let outer = std::mem::replace(&mut self.params, bound);
        self.walk(body);
        self.params = outer;
        if reading == Reading::AtCall {
            self.functions.budget.done();
        }
    }

    /// The value a function being read at its call gives its parameter `name` (`$cmd`).
    pub(super) fn param(&self, name: &str) -> Option<Obj> {
        self.params
            .iter()
            .find(|(p, _)| p == name)
            .map(|(_, v)| v.clone())
    }
}
