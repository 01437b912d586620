//! Functions read where they are called: `def run(*cmd): subprocess.run(cmd)` then
//! `run('git', 'status')` runs `git status`. A module-level function whose name is only
//! ever called (never passed, stored, rebound or decorated) has the calls of its body read
//! at each call, its parameters bound to that call's arguments; read once with parameters
//! not known, as before, it would run a command built at run time. Bounded: four calls
//! deep, and a budget of body calls read for the whole module, past which a body is read
//! once with its parameters not known. A function only called from itself, or from
//! functions that only it calls, is not reached from the module: the module's pass reads
//! it, as it reads any other function.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{Py, by_field, kind};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};

/// Calls inside calls read this deep at most.
const MOST_DEPTH: usize = 4;
/// Body calls read at call sites in one module, at most.
const MOST_INLINED: usize = 256;

/// A parameter of a function read at its calls.
#[derive(Debug, Clone)]
enum Param<'t> {
    /// A name, with its default value if it has one.
    Named(String, Option<Node<'t>>),
    /// `*args` as the first parameter: every positional argument.
    Rest(String),
    /// `**kwargs`, or `*args` after other parameters: not known.
    Unknown(String),
}

/// A function whose body is read at its calls.
pub(super) struct Inlined<'t> {
    params: Vec<Param<'t>>,
    /// The calls of its body, with the loops around each.
    calls: Vec<(Node<'t>, usize)>,
    /// Whether it is called from code the module's pass reads, or from such a function's
    /// body (see [`Functions::of`]): only then are its calls enough to read its body.
    reached: bool,
}

/// The functions of a module read at their calls, by their definitions' ids, and by name.
#[derive(Default)]
pub(super) struct Functions<'t> {
    by_def: HashMap<usize, Inlined<'t>>,
    by_name: HashMap<String, usize>,
    /// Body calls left to read at call sites.
    budget: usize,
    /// Functions whose body was read once with its parameters not known, past the depth or
    /// the budget: read at most once so.
    generic: HashSet<usize>,
}

impl<'t> Functions<'t> {
    /// The module-level functions of `root` whose names are only called, given the calls
    /// of the module with the loops around each and the innermost definition holding each.
    pub(super) fn of(
        py: &Py<'_, '_, 't>,
        root: Node<'t>,
        calls: &[(Node<'t>, usize, Option<Node<'t>>)],
    ) -> Functions<'t> {
        let mut out = Functions {
            budget: MOST_INLINED,
            ..Functions::default()
        };
        let mut c = root.walk();
        for def in root.named_children(&mut c) {
            // A class is called as its `__init__` is, `self` aside.
            let (name, def, is_class) = match kind(def) {
                "function_definition" => (by_field(def, "name"), def, false),
                "class_definition" => match class_init(py, def) {
                    Some(init) => (by_field(def, "name"), init, true),
                    None => continue,
                },
                _ => continue,
            };
            let (Some(name), Some(params)) = (name, by_field(def, "parameters")) else {
                continue;
            };
            let Some(mut params) = parameters(py, params) else {
                continue;
            };
            if is_class {
                match params.first() {
                    Some(Param::Named(_, None)) => drop(params.remove(0)),
                    _ => continue,
                }
            }
            // A name defined twice is not known to be either function.
            if out
                .by_name
                .insert(py.text(name).to_owned(), def.id())
                .is_some()
            {
                out.by_name.insert(py.text(name).to_owned(), usize::MAX);
            }
            out.by_def.insert(
                def.id(),
                Inlined {
                    params,
                    calls: Vec::new(),
                    reached: false,
                },
            );
        }
        out.by_name.retain(|_, id| *id != usize::MAX);
        let named: HashSet<usize> = out.by_name.values().copied().collect();
        out.by_def.retain(|id, _| named.contains(id));
        if out.by_def.is_empty() {
            return out;
        }
        out.drop_names_used_otherwise(py, root);
        // Which functions are reached: called from the module's own code (or a function not
        // read at its calls), or from the body of one reached. One called only from itself,
        // or from functions only they call, is read once in the module's pass instead.
        let mut calls_in: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut reached: Vec<usize> = Vec::new();
        for (call, loops, def) in calls {
            let inside = def.map(|d| d.id()).filter(|d| out.by_def.contains_key(d));
            if let Some(f) = inside.and_then(|d| out.by_def.get_mut(&d)) {
                f.calls.push((*call, *loops));
            }
            if let Some(callee) = out.callee(py, *call) {
                match inside {
                    Some(d) => calls_in.entry(d).or_default().push(callee),
                    None => reached.push(callee),
                }
            }
        }
        while let Some(id) = reached.pop() {
            if let Some(f) = out.by_def.get_mut(&id)
                && !f.reached
            {
                f.reached = true;
                reached.extend(calls_in.get(&id).into_iter().flatten());
            }
        }
        out
    }

    /// Keeps the functions whose name appears only as a called name or its definition's.
    fn drop_names_used_otherwise(&mut self, py: &Py<'_, '_, 't>, root: Node<'t>) {
        let mut ancestors: Vec<Node<'t>> = Vec::new();
        let mut other = Vec::new();
        visit(root, |node, depth, at| {
            if at == Visit::Leave {
                return false;
            }
            ancestors.truncate(depth);
            ancestors.push(node);
            if kind(node) == "identifier" && self.by_name.contains_key(py.text(node)) {
                let parent = depth.checked_sub(1).and_then(|d| ancestors.get(d));
                // `subprocess.run` and `f(run=1)` name something else.
                let called_or_defined = parent.is_some_and(|p| match kind(*p) {
                    "call" => by_field(*p, "function") == Some(node),
                    "attribute" => by_field(*p, "attribute") == Some(node),
                    "keyword_argument" => by_field(*p, "name") == Some(node),
                    "function_definition" => {
                        by_field(*p, "name") == Some(node)
                            && depth == 2
                            && self.by_def.contains_key(&p.id())
                    }
                    "class_definition" => by_field(*p, "name") == Some(node) && depth == 2,
                    _ => false,
                });
                if !called_or_defined {
                    other.push(py.text(node).to_owned());
                }
            }
            true
        });
        for name in other {
            if let Some(id) = self.by_name.remove(&name) {
                self.by_def.remove(&id);
            }
        }
    }

    /// The definition `call` calls by name, if it is a function read at its calls.
    fn callee(&self, py: &Py<'_, '_, 't>, call: Node<'t>) -> Option<usize> {
        if self.by_name.is_empty() {
            return None;
        }
        let function = by_field(call, "function")?;
        (kind(function) == "identifier")
            .then(|| self.by_name.get(py.text(function)).copied())
            .flatten()
    }

    /// Whether `def` (the innermost definition around a call) is read at its calls: the
    /// module's pass skips its body's calls. A function never called by name is read in
    /// that pass, once, its parameters not known.
    pub(super) fn owns(&self, def: Option<Node<'t>>) -> bool {
        def.is_some_and(|d| self.by_def.get(&d.id()).is_some_and(|f| f.reached))
    }
}

/// The one `__init__` defined in the body of `class`, when nothing else can stand in for
/// it: no base class but `object` (one would bring its own `__init__` or `__new__`), no
/// `__new__`, no decorator around it.
fn class_init<'t>(py: &Py<'_, '_, 't>, class: Node<'t>) -> Option<Node<'t>> {
    if by_field(class, "superclasses").is_some_and(|b| !matches!(py.text(b), "()" | "(object)")) {
        return None;
    }
    let body = by_field(class, "body")?;
    let mut c = body.walk();
    let mut init = None;
    for member in body.named_children(&mut c) {
        let def = match kind(member) {
            "function_definition" => member,
            "decorated_definition" => by_field(member, "definition")?,
            _ => continue,
        };
        match by_field(def, "name").map(|n| py.text(n)) {
            Some("__init__") if init.is_none() && def == member => init = Some(def),
            Some("__init__" | "__new__") => return None,
            _ => {}
        }
    }
    init
}

/// The parameters of a function read at its calls, or `None` for a shape it is not.
fn parameters<'t>(py: &Py<'_, '_, 't>, params: Node<'t>) -> Option<Vec<Param<'t>>> {
    let mut out = Vec::new();
    let mut c = params.walk();
    for p in params.named_children(&mut c) {
        let param = match kind(p) {
            "identifier" => Param::Named(py.text(p).to_owned(), None),
            "typed_parameter" => Param::Named(py.text(p.named_child(0)?).to_owned(), None),
            "default_parameter" | "typed_default_parameter" => {
                let name = by_field(p, "name")?;
                Param::Named(py.text(name).to_owned(), by_field(p, "value"))
            }
            "list_splat_pattern" if out.is_empty() => {
                Param::Rest(py.text(p.named_child(0)?).to_owned())
            }
            "list_splat_pattern" | "dictionary_splat_pattern" => {
                Param::Unknown(py.text(p.named_child(0)?).to_owned())
            }
            "keyword_separator" | "positional_separator" => continue,
            _ => return None,
        };
        out.push(param);
    }
    Some(out)
}

impl<'t> Py<'_, '_, 't> {
    /// Reads `call` (with `loops` around it): first, when it calls a function read at its
    /// calls, that function's body with its parameters bound to the arguments.
    pub(super) fn call_reading_functions(
        &mut self,
        functions: &mut Functions<'t>,
        call: Node<'t>,
        loops: usize,
        depth: usize,
    ) {
        self.loops = loops;
        if let Some(id) = functions.callee(self, call)
            && let Some(f) = functions.by_def.get(&id)
        {
            let params = f.params.clone();
            let body = f.calls.clone();
            if depth < MOST_DEPTH && functions.budget >= body.len() {
                functions.budget -= body.len();
                let outer = self.bind_arguments(&params, call);
                for (inner, inner_loops) in body {
                    self.call_reading_functions(functions, inner, loops + inner_loops, depth + 1);
                }
                for (name, slot) in outer {
                    self.names.replace(&name, slot);
                }
            } else if functions.generic.insert(id) {
                // Too deep or too many: the body once, its parameters not known (the
                // functions it calls too, each once).
                for (inner, inner_loops) in body {
                    self.call_reading_functions(functions, inner, loops + inner_loops, MOST_DEPTH);
                }
            }
            self.loops = loops;
        }
        self.call(call);
    }

    /// Binds `params` to the arguments of `call`; returns what each name was bound to.
    fn bind_arguments(
        &mut self,
        params: &[Param<'t>],
        call: Node<'t>,
    ) -> Vec<(String, Option<Slot<'t>>)> {
        let mut positional = Vec::new();
        let mut keywords = HashMap::new();
        let mut spread = false;
        let arguments = by_field(call, "arguments");
        if let Some(arguments) = arguments {
            let mut c = arguments.walk();
            for a in arguments.named_children(&mut c) {
                match kind(a) {
                    "keyword_argument" => {
                        if let (Some(n), Some(v)) = (by_field(a, "name"), by_field(a, "value")) {
                            keywords.insert(self.text(n), v);
                        }
                    }
                    "list_splat" | "dictionary_splat" => spread = true,
                    "comment" => {}
                    _ => positional.push(a),
                }
            }
        }
        let mut outer = Vec::new();
        for (k, param) in params.iter().enumerate() {
            let (name, slot) = match param {
                _ if spread => (param_name(param), Slot::Many),
                Param::Named(name, default) => {
                    let value = positional
                        .get(k)
                        .copied()
                        .or_else(|| keywords.get(name.as_str()).copied())
                        .or(*default);
                    (name.as_str(), value.map_or(Slot::Many, Slot::Expr))
                }
                Param::Rest(name) => (name.as_str(), arguments.map_or(Slot::Many, Slot::Expr)),
                Param::Unknown(name) => (name.as_str(), Slot::Many),
            };
            let outer_slot = self.names.replace(name, Some(slot));
            outer.push((name.to_owned(), outer_slot));
        }
        outer
    }
}

fn param_name<'p>(param: &'p Param<'_>) -> &'p str {
    match param {
        Param::Named(name, _) | Param::Rest(name) | Param::Unknown(name) => name,
    }
}
