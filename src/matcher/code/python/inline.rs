//! Functions read where they are called: `def run(*cmd): subprocess.run(cmd)` then
//! `run('git', 'status')` runs `git status`. A module-level function whose name is only
//! ever called (never passed, stored, rebound or decorated) has the calls of its body read
//! at each call, its parameters bound to that call's arguments; read once with parameters
//! not known, as before, it would run a command built at run time. Bounded: four calls
//! deep, and a budget of body calls read for the whole module, past which a body is read
//! once with its parameters not known. A function only called from itself, or from
//! functions that only it calls, is not reached from the module: the module's pass reads
//! it, as it reads any other function.

mod bind;
mod returns;

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::changes::Changes;
use super::classes::Receiver;
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::scope::Val;
use crate::matcher::code::tree::{Visit, visit};

pub(super) use returns::Returns;

/// Calls inside calls read this deep at most.
const MOST_DEPTH: usize = 4;
/// Body calls read at call sites in one module, at most.
const MOST_INLINED: usize = 256;

/// A parameter of a function read at its calls.
#[derive(Debug, Clone)]
pub(super) enum Param<'t> {
    /// A name, with its default value if it has one.
    Named(String, Option<Node<'t>>),
    /// `*args`: the positional arguments from this place on.
    Rest(String, usize),
    /// A name after `*args` or a bare `*`, given only by keyword, with its default.
    Keyword(String, Option<Node<'t>>),
    /// `**kwargs`: not known.
    Unknown(String),
}

/// A function whose body is read at its calls.
pub(super) struct Inlined<'t> {
    /// Its definition (a class's `__init__`'s): the parameters' names mean them inside it.
    def: Node<'t>,
    params: Vec<Param<'t>>,
    /// The parameters its body binds again or may change in place.
    changes: Changes,
    /// The calls of its body, with the loops around each.
    calls: Vec<(Node<'t>, usize)>,
    /// Whether it is called from code the module's pass reads, or from such a function's
    /// body (see [`Functions::of`]): only then are its calls enough to read its body.
    reached: bool,
    /// Whether it is a method of a class read at its calls (see [`super::classes`]).
    method: bool,
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
                // Read with its methods (below).
                "class_definition"
                    if by_field(def, "name")
                        .is_some_and(|n| py.classes.named(py.text(n)).is_some()) =>
                {
                    continue;
                }
                "class_definition" => match class_init(py, def) {
                    Some(init) => (by_field(def, "name"), init, true),
                    None => continue,
                },
                _ => continue,
            };
            let (Some(name), Some(params)) = (name, by_field(def, "parameters")) else {
                continue;
            };
            let Some(params) = parameters(py, params, is_class) else {
                continue;
            };
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
                    def,
                    changes: Changes::of(py, def, &params),
                    params,
                    calls: Vec::new(),
                    reached: false,
                    method: false,
                },
            );
        }
        out.by_name.retain(|_, id| *id != usize::MAX);
        let named: HashSet<usize> = out.by_name.values().copied().collect();
        out.by_def.retain(|id, _| named.contains(id));
        if !out.by_def.is_empty() {
            out.drop_names_used_otherwise(py, root);
        }
        // A class read at its calls: its name calls `__init__`, and each method is called
        // as its class's code says.
        for class in &py.classes.list {
            if let Some(init) = &class.init {
                out.by_name.insert(class.name.clone(), init.def.id());
            }
            for m in class.methods() {
                out.by_def.insert(
                    m.def.id(),
                    Inlined {
                        def: m.def,
                        params: m.params.clone(),
                        changes: m.changes.clone(),
                        calls: Vec::new(),
                        reached: false,
                        method: true,
                    },
                );
            }
        }
        if out.by_def.is_empty() {
            return out;
        }
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
            if let Some((callee, _)) = out.callee(py, *call) {
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

    /// The definition `call` calls, if it is a function read at its calls, called by name,
    /// or a method of a class read at its calls; and for a method, what it is called on.
    fn callee(&self, py: &Py<'_, '_, 't>, call: Node<'t>) -> Option<(usize, Option<Receiver<'t>>)> {
        if self.by_def.is_empty() {
            return None;
        }
        let function = by_field(call, "function")?;
        match kind(function) {
            "identifier" => {
                let id = self.by_name.get(py.text(function)).copied()?;
                let made = py.classes.made_by(py, call).map(|_| Receiver::Made(call));
                Some((id, made))
            }
            "attribute" => {
                let (method, _, receiver) = py.classes.method_called(py, call)?;
                Some((method.def.id(), Some(receiver)))
            }
            _ => None,
        }
    }

    /// Whether `call` calls a function read at its calls that leaves its argument at place
    /// `k` as it is: a plain parameter there that its body does not change in place nor
    /// hand on.
    pub(super) fn keeps(&self, py: &Py<'_, '_, 't>, call: Node<'t>, k: usize) -> bool {
        let Some((id, _)) = self.callee(py, call) else {
            return false;
        };
        match self
            .by_def
            .get(&id)
            .and_then(|f| Some((f, f.params.get(k)?)))
        {
            Some((f, Param::Named(name, _))) => !f.changes.shared.iter().any(|s| s == name),
            _ => false,
        }
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

/// The parameters of a function read at its calls, or `None` for a shape it is not; for
/// a method, those after the first (`self`), which must be a plain name.
pub(super) fn parameters<'t>(
    py: &Py<'_, '_, 't>,
    params: Node<'t>,
    method: bool,
) -> Option<Vec<Param<'t>>> {
    let mut out = Vec::new();
    let mut c = params.walk();
    let mut all = params.named_children(&mut c);
    if method && all.next().is_none_or(|this| kind(this) != "identifier") {
        return None;
    }
    // After `*args` or a bare `*`, parameters are given by keyword only.
    let mut keyword_only = false;
    for p in all {
        let (name, default) = match kind(p) {
            "identifier" => (py.text(p).to_owned(), None),
            "typed_parameter" if p.named_child(0).is_some_and(|n| kind(n) == "identifier") => {
                (py.text(p.named_child(0)?).to_owned(), None)
            }
            "default_parameter" | "typed_default_parameter" => {
                let name = by_field(p, "name")?;
                (py.text(name).to_owned(), by_field(p, "value"))
            }
            "list_splat_pattern" if !keyword_only => {
                keyword_only = true;
                out.push(Param::Rest(
                    py.text(p.named_child(0)?).to_owned(),
                    out.len(),
                ));
                continue;
            }
            "dictionary_splat_pattern" => {
                out.push(Param::Unknown(py.text(p.named_child(0)?).to_owned()));
                continue;
            }
            "keyword_separator" => {
                keyword_only = true;
                continue;
            }
            "positional_separator" => continue,
            _ => return None,
        };
        out.push(match keyword_only {
            true => Param::Keyword(name, default),
            false => Param::Named(name, default),
        });
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
        if let Some((id, receiver)) = functions.callee(self, call) {
            // Once per item when an argument names the variable of a loop over a literal
            // (`for d in ['build', 'dist']: wipe(d)`), as a library call is read.
            // And once each way the conditionals in its arguments can go.
            let conditionals = self.conditionals(call);
            let mut read = |py: &mut Self| {
                py.each_choice(&conditionals, |py| {
                    py.read_body(functions, (id, receiver), call, loops, depth);
                });
            };
            match self.loop_over_literal(call) {
                Some(rounds) => self.each_round(rounds, read),
                None => read(self),
            }
            self.loops = loops;
        }
        self.call(call);
    }

    /// Reads the body of the function defined by `id`, called by `call` (a method, on
    /// `receiver`).
    fn read_body(
        &mut self,
        functions: &mut Functions<'t>,
        (id, receiver): (usize, Option<Receiver<'t>>),
        call: Node<'t>,
        loops: usize,
        depth: usize,
    ) {
        let Some(f) = functions.by_def.get(&id) else {
            return;
        };
        let (def, params, body) = (f.def, f.params.clone(), f.calls.clone());
        let (changes, method) = (f.changes.clone(), f.method);
        let (outer, outer_selves) = (self.bound.len(), self.selves.len());
        if depth < MOST_DEPTH && functions.budget >= body.len() {
            functions.budget -= body.len();
            self.bind_arguments(def, &params, &changes, call);
            let made = match receiver {
                Some(Receiver::Made(made)) => Some(made),
                Some(Receiver::Same(around)) => self
                    .selves
                    .iter()
                    .rev()
                    .find(|t| t.def == around)
                    .and_then(|t| t.made),
                None => None,
            };
            self.bind_self(def, method, made);
            for (inner, inner_loops) in body {
                self.call_reading_functions(functions, inner, loops + inner_loops, depth + 1);
            }
        } else if functions.generic.insert(id) {
            // Too deep or too many: the body once, its parameters not known (the functions
            // it calls too, each once), not even to a call of it around.
            self.bind_unknown(def, &params);
            self.bind_self(def, method, None);
            for (inner, inner_loops) in body {
                self.call_reading_functions(functions, inner, loops + inner_loops, MOST_DEPTH);
            }
        }
        self.bound.truncate(outer);
        self.selves.truncate(outer_selves);
    }
}

/// A parameter of a function read at a call, and the value it has there.
pub(super) struct Bound<'t> {
    name: String,
    def: Node<'t>,
    value: Obj,
}

impl<'t> Bound<'t> {
    fn unknown(name: &str, def: Node<'t>) -> Bound<'t> {
        Bound {
            name: name.to_owned(),
            def,
            value: Obj::Val(Val::Unknown),
        }
    }
}

pub(super) fn param_name<'p>(param: &'p Param<'_>) -> &'p str {
    match param {
        Param::Named(name, _)
        | Param::Keyword(name, _)
        | Param::Rest(name, _)
        | Param::Unknown(name) => name,
    }
}
