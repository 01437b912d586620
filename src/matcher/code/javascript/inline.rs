//! Functions read where they are called: `function run(cmd, args) { spawnSync(cmd, args) }`
//! then `run('make', ['lint'])` runs `make lint`, where reading the body once would run a
//! program named at run time. A function declared at the top of the program (`function f`,
//! or `const f =` an arrow or function expression) whose name is only ever called (never
//! passed, stored or rebound) has its body read at each call, its parameters bound to that
//! call's arguments. Bounded as Python's are (`python/inline.rs`): four calls deep, and a
//! budget of bodies read for the whole program, past which a body is read once with its
//! parameters not known. A function called only from itself, or from functions only it
//! calls, is read once in the program's pass, as any other function.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{Js, Obj, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::tree::{Visit, visit};

/// Calls inside calls read this deep at most.
const MOST_DEPTH: usize = 4;
/// Bodies read at call sites in one program, at most.
const MOST_INLINED: usize = 256;

/// A function whose body is read at its calls.
struct Inlined<'t> {
    /// The node that defines it: its body is not read in the program's pass.
    def: Node<'t>,
    /// Its parameters' names, each with its default value if it has one.
    params: Vec<(&'t str, Option<Node<'t>>)>,
    body: Node<'t>,
    /// Names the body assigns or declares again (`c = ...`, an inner function's parameter
    /// `c`): a parameter among them is not the call's argument throughout.
    assigned: HashSet<&'t str>,
    reached: bool,
}

/// The functions of a program read at their calls, by name.
#[derive(Default)]
pub(super) struct Functions<'t> {
    by_name: HashMap<&'t str, Inlined<'t>>,
    /// The ids of their definitions' nodes.
    defs: HashSet<usize>,
    /// Bodies left to read at call sites.
    budget: usize,
    /// Calls being read, deepest last.
    depth: usize,
    /// Functions whose body was read once with its parameters not known, past the depth or
    /// the budget: read at most once so.
    generic: HashSet<&'t str>,
}

impl<'t> Functions<'t> {
    /// The top-level functions of `root` whose names are only called.
    pub(super) fn of(text: &'t str, root: Node<'t>) -> Functions<'t> {
        let of = |n: Node<'t>| text.get(n.byte_range()).unwrap_or_default();
        let mut out = Functions {
            budget: MOST_INLINED,
            ..Functions::default()
        };
        let mut twice = HashSet::new();
        let mut c = root.walk();
        for statement in root.named_children(&mut c) {
            let Some((name, def)) = definition(statement) else {
                continue;
            };
            let Some(params) = parameters(of, def) else {
                continue;
            };
            let Some(body) = by_field(def, "body") else {
                continue;
            };
            let f = Inlined {
                def: statement,
                params,
                body,
                assigned: assigned_names(of, body),
                reached: false,
            };
            if out.by_name.insert(of(name), f).is_some() {
                twice.insert(of(name));
            }
        }
        out.by_name.retain(|name, _| !twice.contains(name));
        if out.by_name.is_empty() {
            return out;
        }
        let defs: HashMap<usize, &'t str> = out
            .by_name
            .iter()
            .map(|(name, f)| (f.def.id(), *name))
            .collect();
        // Each use of a name: a call by it, or anything else (which drops the function),
        // and which function's body each call is in.
        let mut dropped = HashSet::new();
        let mut calls_in: HashMap<&'t str, Vec<&'t str>> = HashMap::new();
        let mut reached = Vec::new();
        let mut around: Vec<(&'t str, usize)> = Vec::new();
        visit(root, |node, depth, at| {
            if at == Visit::Leave {
                if around.last().is_some_and(|(_, d)| *d == depth) {
                    around.pop();
                }
                return false;
            }
            if let Some(name) = defs.get(&node.id()) {
                around.push((name, depth));
            }
            if kind(node) != "identifier" {
                return true;
            }
            let name = of(node);
            if !out.by_name.contains_key(name) {
                return true;
            }
            let parent = node.parent();
            let called = parent.is_some_and(|p| {
                kind(p) == "call_expression" && by_field(p, "function") == Some(node)
            });
            let defined = parent.is_some_and(|p| {
                by_field(p, "name") == Some(node)
                    && out
                        .by_name
                        .get(name)
                        .is_some_and(|f| f.def == p || f.def.named_child(0) == Some(p))
            });
            match (called, around.last()) {
                (true, Some((inside, _))) => calls_in.entry(inside).or_default().push(name),
                (true, None) => reached.push(name),
                (false, _) if !defined => {
                    dropped.insert(name);
                }
                _ => {}
            }
            true
        });
        out.by_name.retain(|name, _| !dropped.contains(name));
        while let Some(name) = reached.pop() {
            if let Some(f) = out.by_name.get_mut(name)
                && !f.reached
            {
                f.reached = true;
                reached.extend(calls_in.get(name).into_iter().flatten());
            }
        }
        out.by_name.retain(|_, f| f.reached);
        out.defs = out.by_name.values().map(|f| f.def.id()).collect();
        out
    }

    /// Whether `node` defines a function read at its calls: the program's pass skips it.
    pub(super) fn defines(&self, node: Node<'t>) -> bool {
        self.defs.contains(&node.id())
    }
}

/// The name and the function node of a top-level definition: `function f() {}`, or
/// `const f = () => ...` / `= function () {}` alone in its declaration.
fn definition(statement: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    match kind(statement) {
        "function_declaration" => Some((by_field(statement, "name")?, statement)),
        "lexical_declaration" | "variable_declaration" if statement.named_child_count() == 1 => {
            let declarator = statement.named_child(0)?;
            let name = by_field(declarator, "name").filter(|n| kind(*n) == "identifier")?;
            let value = by_field(declarator, "value")?;
            matches!(kind(value), "arrow_function" | "function_expression").then_some((name, value))
        }
        _ => None,
    }
}

/// The names `body` assigns, changes or binds anew: targets of `=`, `+=`, `++`,
/// declarations, loop variables, and the parameters of the functions inside it.
fn assigned_names<'t>(of: impl Fn(Node<'t>) -> &'t str, body: Node<'t>) -> HashSet<&'t str> {
    let mut out = HashSet::new();
    visit(body, |node, _, at| {
        if at == Visit::Leave {
            return false;
        }
        let target = match kind(node) {
            "assignment_expression" | "augmented_assignment_expression" => by_field(node, "left"),
            "update_expression" => by_field(node, "argument"),
            "variable_declarator" => by_field(node, "name"),
            "for_in_statement" => by_field(node, "left"),
            "catch_clause" => by_field(node, "parameter"),
            "formal_parameters" => Some(node),
            "arrow_function" => by_field(node, "parameter"),
            _ => None,
        };
        if let Some(target) = target {
            visit(target, |n, _, at| {
                if at == Visit::Enter && kind(n) == "identifier" {
                    out.insert(of(n));
                }
                at == Visit::Enter
            });
        }
        true
    });
    out
}

/// A function's parameters when each is a plain name, with or without a default value;
/// `None` for any other shape (a pattern or a rest parameter).
fn parameters<'t>(
    of: impl Fn(Node<'t>) -> &'t str,
    def: Node<'t>,
) -> Option<Vec<(&'t str, Option<Node<'t>>)>> {
    if let Some(one) = by_field(def, "parameter") {
        return (kind(one) == "identifier").then(|| vec![(of(one), None)]);
    }
    let list = by_field(def, "parameters")?;
    let mut out = Vec::new();
    let mut c = list.walk();
    for p in list.named_children(&mut c) {
        match kind(p) {
            "identifier" => out.push((of(p), None)),
            "assignment_pattern" => {
                let name = by_field(p, "left").filter(|n| kind(*n) == "identifier")?;
                out.push((of(name), by_field(p, "right")));
            }
            "comment" => {}
            _ => return None,
        }
    }
    Some(out)
}

impl<'t> Js<'_, '_, 't> {
    /// When `call` calls a function read at its calls, reads that function's body with its
    /// parameters bound to the call's arguments.
    pub(super) fn read_called_function(&mut self, call: Node<'t>) {
        let Some(function) = by_field(call, "function").filter(|f| kind(*f) == "identifier") else {
            return;
        };
        let Some((&name, f)) = self.functions.by_name.get_key_value(self.text(function)) else {
            return;
        };
        let (params, body) = (f.params.clone(), f.body);
        let assigned = f.assigned.clone();
        let functions = &mut self.functions;
        if functions.depth >= MOST_DEPTH || functions.budget == 0 {
            // Too deep or too many: the body once, its parameters not known.
            if functions.generic.insert(name) {
                let unknown = params
                    .iter()
                    .map(|(p, _)| (*p, Obj::Val(Val::Unknown)))
                    .collect();
                let outer = std::mem::replace(&mut self.params, unknown);
                self.walk(body);
                self.params = outer;
            }
            return;
        }
        functions.budget -= 1;
        functions.depth += 1;
        // The arguments, evaluated where the call is; a spread leaves them not known.
        let mut args = Vec::new();
        let mut spread = false;
        if let Some(list) = by_field(call, "arguments") {
            let mut c = list.walk();
            for a in list.named_children(&mut c) {
                match kind(a) {
                    "comment" => {}
                    "spread_element" => spread = true,
                    _ => args.push(a),
                }
            }
        }
        let mut bound = Vec::new();
        for (k, (param, default)) in params.iter().enumerate() {
            let value = match (spread, args.get(k).copied().or(*default)) {
                (false, Some(value)) if !assigned.contains(param) => self.eval(value, 1),
                _ => Obj::Val(Val::Unknown),
            };
            bound.push((*param, value));
        }
        // The function sees its own parameters, not its caller's.
        let outer = std::mem::replace(&mut self.params, bound);
        self.walk(body);
        self.params = outer;
        self.functions.depth -= 1;
    }
}
