//! Functions read where they are called: `function run(cmd, args) { spawnSync(cmd, args) }`
//! then `run('make', ['lint'])` runs `make lint`, where reading the body once would run a
//! program named at run time. A function declared at the top of the program (`function f`,
//! or `const f =` an arrow or function expression) whose name is only ever called (never
//! passed, stored or rebound) has its body read at each call, its parameters bound to that
//! call's arguments, within the bounds of `code/inline.rs`.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::sinks::MUTATORS;
use super::{Js, Obj, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::inline::{Budget, Reading, defined_once, reached};
use crate::matcher::code::tree::{Visit, visit};

/// Parameters' names, each with its default value if it has one.
type Params<'t> = Vec<(&'t str, Option<Node<'t>>)>;

/// A function whose body is read at its calls.
struct Inlined<'t> {
    /// The node that defines it: its body is not read in the program's pass.
    def: Node<'t>,
    params: Params<'t>,
    /// A rest parameter (`...args`) after them: the arguments left.
    rest: Option<&'t str>,
    body: Node<'t>,
    /// Names the body assigns or declares again (`c = ...`, an inner function's parameter
    /// `c`): a parameter among them is not the call's argument throughout.
    assigned: HashSet<&'t str>,
    /// Names the body may change in place (`args.push(x)`, `grow(args)`): an array or
    /// object given for a parameter among them is not known.
    shared: HashSet<&'t str>,
}

/// The functions of a program read at their calls, by name.
#[derive(Default)]
pub(super) struct Functions<'t> {
    by_name: HashMap<&'t str, Inlined<'t>>,
    /// The ids of their definitions' nodes.
    defs: HashSet<usize>,
    budget: Budget,
}

impl<'t> Functions<'t> {
    /// The top-level functions of `root` whose names are only called.
    pub(super) fn of(text: &'t str, root: Node<'t>) -> Functions<'t> {
        let of = |n: Node<'t>| text.get(n.byte_range()).unwrap_or_default();
        let mut c = root.walk();
        let statements: Vec<Node<'t>> = root.named_children(&mut c).collect();
        // The program's own functions: one of them may change what it is given.
        let own: HashSet<&'t str> = statements
            .iter()
            .filter_map(|s| definition(*s).map(|(name, _)| of(name)))
            .collect();
        let mut by_name = defined_once(statements.iter().filter_map(|statement| {
            let (name, def) = definition(*statement)?;
            let (params, rest) = parameters(of, def)?;
            let body = by_field(def, "body")?;
            let f = Inlined {
                def: *statement,
                params,
                rest,
                body,
                assigned: assigned_names(of, body),
                shared: shared_names(of, body, &own),
            };
            Some((of(name), f))
        }));
        if by_name.is_empty() {
            return Functions::default();
        }
        // A name used other than by a call or its definition drops the function.
        let defs: HashSet<usize> = by_name.values().map(|f| f.def.id()).collect();
        let mut dropped = HashSet::new();
        let reached = reached(root, &defs, |node| {
            if kind(node) != "identifier" {
                return None;
            }
            let name = of(node);
            let f = by_name.get(name)?;
            let parent = node.parent();
            let called = parent.is_some_and(|p| {
                kind(p) == "call_expression" && by_field(p, "function") == Some(node)
            });
            let defined = parent.is_some_and(|p| {
                by_field(p, "name") == Some(node) && (f.def == p || f.def.named_child(0) == Some(p))
            });
            if !called && !defined {
                dropped.insert(name);
            }
            called.then(|| f.def.id())
        });
        by_name.retain(|name, f| !dropped.contains(name) && reached.contains(&f.def.id()));
        Functions {
            defs: by_name.values().map(|f| f.def.id()).collect(),
            by_name,
            budget: Budget::default(),
        }
    }

    /// Whether `name` is a function read at its calls that leaves its argument at place `k`
    /// as it is (its body changes no parameter there in place nor hands it on).
    pub(super) fn keeps(&self, name: &str, k: usize) -> bool {
        self.by_name
            .get(name)
            .is_some_and(|f| f.params.get(k).is_some_and(|(p, _)| !f.shared.contains(p)))
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

/// Names in `body` that may be changed in place: the object of a method that changes it
/// (`args.push(x)`), or an argument of a call of one of the program's `own` functions
/// (`grow(args)`, which may change it) or of `Object.assign` and its kin.
fn shared_names<'t>(
    of: impl Fn(Node<'t>) -> &'t str,
    body: Node<'t>,
    own: &HashSet<&'t str>,
) -> HashSet<&'t str> {
    let mut out = HashSet::new();
    visit(body, |node, _, at| {
        if at == Visit::Leave || kind(node) != "call_expression" {
            return at == Visit::Enter;
        }
        let Some(function) = by_field(node, "function") else {
            return true;
        };
        match kind(function) {
            "member_expression" => {
                let (object, property) =
                    (by_field(function, "object"), by_field(function, "property"));
                if let (Some(object), Some(property)) = (object, property) {
                    if kind(object) == "identifier" && MUTATORS.contains(&of(property)) {
                        out.insert(of(object));
                    }
                    let changes_first = matches!(of(object), "Object" | "Reflect")
                        && matches!(
                            of(property),
                            "assign"
                                | "defineProperty"
                                | "defineProperties"
                                | "set"
                                | "deleteProperty"
                                | "setPrototypeOf"
                        );
                    if changes_first
                        && let Some(first) =
                            by_field(node, "arguments").and_then(|a| a.named_child(0))
                        && kind(first) == "identifier"
                    {
                        out.insert(of(first));
                    }
                }
            }
            "identifier" if own.contains(of(function)) => {
                if let Some(arguments) = by_field(node, "arguments") {
                    let mut c = arguments.walk();
                    for a in arguments.named_children(&mut c) {
                        let a = match kind(a) {
                            "spread_element" => a.named_child(0).unwrap_or(a),
                            _ => a,
                        };
                        if kind(a) == "identifier" {
                            out.insert(of(a));
                        }
                    }
                }
            }
            _ => {}
        }
        true
    });
    out
}

/// A function's parameters when each is a plain name, with or without a default value,
/// and a rest parameter (`...args`) after them if there is one; `None` for any other shape
/// (a pattern).
fn parameters<'t>(
    of: impl Fn(Node<'t>) -> &'t str,
    def: Node<'t>,
) -> Option<(Params<'t>, Option<&'t str>)> {
    if let Some(one) = by_field(def, "parameter") {
        return (kind(one) == "identifier").then(|| (vec![(of(one), None)], None));
    }
    let list = by_field(def, "parameters")?;
    let mut out = Vec::new();
    let mut rest = None;
    let mut c = list.walk();
    for p in list.named_children(&mut c) {
        if rest.is_some() {
            return None;
        }
        match kind(p) {
            "identifier" => out.push((of(p), None)),
            "assignment_pattern" => {
                let name = by_field(p, "left").filter(|n| kind(*n) == "identifier")?;
                out.push((of(name), by_field(p, "right")));
            }
            "rest_pattern" => {
                let name = p.named_child(0).filter(|n| kind(*n) == "identifier")?;
                rest = Some(of(name));
            }
            "comment" => {}
            _ => return None,
        }
    }
    Some((out, rest))
}

impl<'t> Js<'_, '_, 't> {
    /// When `call` calls a function read at its calls, reads that function's body with its
    /// parameters bound to the call's arguments.
    pub(super) fn read_called_function(&mut self, call: Node<'t>) {
        let Some(function) = by_field(call, "function").filter(|f| kind(*f) == "identifier") else {
            return;
        };
        let Some(f) = self.functions.by_name.get(self.text(function)) else {
            return;
        };
        let (params, rest, body) = (f.params.clone(), f.rest, f.body);
        let (assigned, shared) = (f.assigned.clone(), f.shared.clone());
        match self.functions.budget.reading(f.def.id()) {
            Reading::Skip => return,
            Reading::Once => {
                let unknown = params
                    .iter()
                    .map(|(p, _)| *p)
                    .chain(rest)
                    .map(|p| (p, Obj::Val(Val::Unknown)))
                    .collect();
                let outer = std::mem::replace(&mut self.params, unknown);
                self.walk(body);
                self.params = outer;
                return;
            }
            Reading::AtCall => {}
        }
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
            let value = match (spread, args.get(k).copied(), *default) {
                _ if spread || assigned.contains(param) => Obj::Val(Val::Unknown),
                (_, Some(argument), _) => self.eval(argument, 1),
                // A default is evaluated in the function, where the parameters before it
                // are bound and the caller's are not.
                (_, None, Some(default)) => {
                    let outer = std::mem::replace(&mut self.params, bound.clone());
                    let value = self.eval(default, 1);
                    self.params = outer;
                    value
                }
                (_, None, None) => Obj::Val(Val::Unknown),
            };
            // An array or object the body may change in place is not what it was given.
            let value = match value {
                Obj::List(_) | Obj::Dict(_) if shared.contains(param) => Obj::Val(Val::Unknown),
                v => v,
            };
            bound.push((*param, value));
        }
        if let Some(rest) = rest {
            let value = match spread || assigned.contains(rest) || shared.contains(rest) {
                true => Obj::Val(Val::Unknown),
                false => Obj::List(
                    args.iter()
                        .skip(params.len())
                        .map(|a| self.eval(*a, 1))
                        .collect(),
                ),
            };
            bound.push((rest, value));
        }
        // The function sees its own parameters, not its caller's.
        let outer = std::mem::replace(&mut self.params, bound);
        self.walk(body);
        self.params = outer;
        self.functions.budget.done();
    }
}
