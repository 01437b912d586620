//! Classes whose every method call can be told from the code: `r = Runner('/srv')` then
//! `r.run('pytest')` runs `Runner.run`'s body with `self` that instance, so `self.cwd` is
//! what `__init__` assigned from the constructor's arguments. A method called only so is
//! read at its calls, as a function is (see [`super::inline`]); read once with `self` not
//! known, its commands would be built at run time.
//!
//! A class is read so only when nothing else can call its methods or change its
//! attributes: no base class, decorator or dunder method but `__init__` (each of those runs
//! code the reader would not see called); its name only called, or its class attributes
//! read; each instance only assigned to a name bound once, or called a method of at once;
//! such names and `self` only used to call the class's methods or read attributes; and no
//! reflection in the code (`getattr`, `setattr`, `__dict__`, `globals()`, ...) that could
//! reach either by a string. An attribute is known when `__init__`'s body assigns it once,
//! as a statement of its own, and nothing else assigns it or changes it in place.

mod uses;

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::changes::Changes;
use super::inline::{Param, parameters};
use super::values::contains;
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::scope::{Slot, Val};
use crate::matcher::code::tree::{Visit, visit};

/// Classes read at their calls in one module, at most.
const MOST_CLASSES: usize = 16;
/// Attribute values evaluated one inside another, at most (an attribute's value may name
/// an instance whose constructor's arguments name attributes).
const MOST_ATTRIBUTE_DEPTH: usize = 4;

/// Words that reach a class, an instance or an attribute by a string, or run code the
/// reader does not see: with one in the code, no class is read at its calls.
const REFLECTION: &[&str] = &[
    "getattr",
    "setattr",
    "delattr",
    "__dict__",
    "__class__",
    "__getattribute__",
    "__setattr__",
    "globals",
    "locals",
    "vars",
    "exec",
    "eval",
    "modules",
    "__main__",
    "__import__",
    "inspect",
    "gc",
    "pickle",
    "copyreg",
];

/// A class read at its calls.
pub(super) struct Class<'t> {
    pub(super) name: String,
    /// `__init__`, with its parameters after `self`.
    pub(super) init: Option<Method<'t>>,
    /// The other methods, by name.
    pub(super) methods: HashMap<String, Method<'t>>,
    /// Instance attributes: the expression `__init__` assigns, or `None` when not known.
    attrs: HashMap<String, Option<Node<'t>>>,
    /// Class attributes (`TASKS = {...}` in the class's body): `None` when not known.
    class_attrs: HashMap<String, Option<Node<'t>>>,
    /// Attributes that may be changed in place: a list's items are not known.
    shared: HashSet<String>,
}

/// A method of a class read at its calls.
#[derive(Clone)]
pub(super) struct Method<'t> {
    pub(super) def: Node<'t>,
    /// The name its first parameter gives the instance.
    pub(super) this: String,
    pub(super) params: Vec<Param<'t>>,
    pub(super) changes: Changes,
}

/// The instance a method is being read for: inside `def`, `self` is the object made by
/// `made`, the constructor call, or one not known.
#[derive(Clone)]
pub(super) struct This<'t> {
    pub(super) def: Node<'t>,
    pub(super) made: Option<Node<'t>>,
}

/// What a method is called on.
#[derive(Clone, Copy)]
pub(super) enum Receiver<'t> {
    /// The instance this constructor call makes (`Runner(p).run()`, `r.run()` with `r =
    /// Runner(p)`).
    Made(Node<'t>),
    /// `self` inside this method: the instance that method is being read for.
    Same(Node<'t>),
}

/// Attributes assigned, as `(class, name, the value when the assignment is a statement of
/// `__init__`'s body)`, and attributes that may be changed in place, as `(class, name)`.
#[derive(Default)]
struct Changed<'a, 't> {
    assigned: Vec<(usize, &'a str, Option<Node<'t>>)>,
    shared: Vec<(usize, &'a str)>,
}

/// The classes of a module read at their calls.
#[derive(Default)]
pub(super) struct Classes<'t> {
    pub(super) list: Vec<Class<'t>>,
    /// Names bound once to an instance: the class and the constructor call.
    instances: HashMap<String, (usize, Node<'t>)>,
    /// Each method's first byte, class and definition, in order.
    spans: Vec<(usize, usize, Node<'t>)>,
}

impl<'t> Classes<'t> {
    pub(super) fn of(py: &Py<'_, '_, 't>, root: Node<'t>) -> Classes<'t> {
        let mut out = Classes::default();
        if !py.src.text.contains("class") || mentions_reflection(py.src.text) {
            return out;
        }
        let mut c = root.walk();
        let mut nodes = Vec::new();
        for node in root.named_children(&mut c) {
            if kind(node) == "class_definition"
                && out.list.len() < MOST_CLASSES
                && let Some(class) = candidate(py, node)
            {
                out.list.push(class);
                nodes.push(node);
            }
        }
        if out.list.is_empty() {
            return out;
        }
        // A name defined twice (two classes, or a class and a function) is neither.
        let mut defined: HashMap<&str, usize> = HashMap::new();
        for node in root.named_children(&mut c) {
            let def = match kind(node) {
                "decorated_definition" => by_field(node, "definition"),
                "class_definition" | "function_definition" => Some(node),
                _ => None,
            };
            if let Some(name) = def.and_then(|d| by_field(d, "name")) {
                *defined.entry(py.text(name)).or_default() += 1;
            }
        }
        let mut closed: Vec<bool> = out
            .list
            .iter()
            .map(|class| defined.get(class.name.as_str()) == Some(&1))
            .collect();
        out.find_instances(py, root, &mut closed);
        out.check_uses(py, root, &nodes, &mut closed);
        // Drop the classes found open; instances' class numbers follow.
        let mut renumber = HashMap::new();
        let mut kept = Vec::new();
        for (k, (class, keep)) in std::mem::take(&mut out.list)
            .into_iter()
            .zip(closed)
            .enumerate()
        {
            if keep {
                renumber.insert(k, kept.len());
                kept.push(class);
            }
        }
        out.list = kept;
        out.instances = std::mem::take(&mut out.instances)
            .into_iter()
            .filter_map(|(name, (k, made))| Some((name, (*renumber.get(&k)?, made))))
            .collect();
        for (k, class) in out.list.iter().enumerate() {
            out.spans
                .extend(class.methods().map(|m| (m.def.start_byte(), k, m.def)));
        }
        out.spans.sort_by_key(|(start, ..)| *start);
        out
    }

    /// The class `name` names.
    pub(super) fn named(&self, name: &str) -> Option<usize> {
        self.list.iter().position(|c| c.name == name)
    }

    /// Names assigned an instance (`r = Runner(p)`): each must be bound only so.
    fn find_instances(&mut self, py: &Py<'_, '_, 't>, root: Node<'t>, closed: &mut [bool]) {
        visit(root, |node, _, at| {
            if at == Visit::Leave {
                return false;
            }
            if kind(node) == "assignment"
                && let (Some(left), Some(right)) = (by_field(node, "left"), by_field(node, "right"))
                && kind(right) == "call"
                && let Some(class) = by_field(right, "function")
                    .filter(|f| kind(*f) == "identifier")
                    .and_then(|f| self.named(py.text(f)))
            {
                let name = py.text(left);
                let once = kind(left) == "identifier"
                    && matches!(py.names.get(name), Some(Slot::Expr(v)) if *v == right);
                match once {
                    true => drop(self.instances.insert(name.to_owned(), (class, right))),
                    // Kept where the reader cannot follow it: any method may be called.
                    false => closed[class] = false,
                }
            }
            // Only a call holds a name's binding below a string (an f-string's braces).
            kind(node) != "string" || py.is_f_string(node)
        });
    }

    /// The method called by `call`, its class, and what it is called on.
    pub(super) fn method_called(
        &self,
        py: &Py<'_, '_, 't>,
        call: Node<'t>,
    ) -> Option<(&Method<'t>, usize, Receiver<'t>)> {
        let function = by_field(call, "function").filter(|f| kind(*f) == "attribute")?;
        let (object, name) = (
            by_field(function, "object")?,
            by_field(function, "attribute")?,
        );
        let (class, receiver) = self.receiver(py, object)?;
        let method = self.list[class].methods.get(py.text(name))?;
        Some((method, class, receiver))
    }

    /// The class of the instance `object` is, and where it comes from.
    fn receiver(&self, py: &Py<'_, '_, 't>, object: Node<'t>) -> Option<(usize, Receiver<'t>)> {
        match kind(object) {
            "call" => {
                let f = by_field(object, "function").filter(|f| kind(*f) == "identifier")?;
                Some((self.named(py.text(f))?, Receiver::Made(object)))
            }
            "identifier" => {
                let name = py.text(object);
                if let Some(&(class, made)) = self.instances.get(name) {
                    return Some((class, Receiver::Made(made)));
                }
                // The method around `object`, found among the methods' spans, which do not
                // overlap.
                let at = object.start_byte();
                let k = self.spans.partition_point(|(start, ..)| *start <= at);
                let (_, class, def) = *self.spans.get(k.checked_sub(1)?)?;
                let m = self.list[class].method_of(py, def)?;
                (m.this == name && contains(def, object)).then_some((class, Receiver::Same(def)))
            }
            _ => None,
        }
    }

    /// The class made by calling `call` as a constructor.
    pub(super) fn made_by(&self, py: &Py<'_, '_, 't>, call: Node<'t>) -> Option<usize> {
        let f = by_field(call, "function").filter(|f| kind(*f) == "identifier")?;
        self.named(py.text(f))
    }
}

impl<'t> Class<'t> {
    /// `__init__` and the other methods.
    pub(super) fn methods(&self) -> impl Iterator<Item = &Method<'t>> {
        self.init.iter().chain(self.methods.values())
    }

    /// The method `def` defines: found by its name, as `def` may be any node.
    fn method_of(&self, py: &Py<'_, '_, 't>, def: Node<'t>) -> Option<&Method<'t>> {
        let name = by_field(def, "name").filter(|_| kind(def) == "function_definition")?;
        let method = match py.text(name) {
            "__init__" => self.init.as_ref(),
            name => self.methods.get(name),
        };
        method.filter(|m| m.def == def)
    }
}

/// Whether `code` names one of [`REFLECTION`]'s words as a word of its own.
fn mentions_reflection(code: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    REFLECTION.iter().any(|w| {
        code.match_indices(w).any(|(k, _)| {
            !word(code[..k].chars().next_back()) && !word(code[k + w.len()..].chars().next())
        })
    })
}

/// The value assigned to the attribute last in `path` (its ancestors before it), when the
/// assignment is a statement of its own in the body of `init`: `self.a = v`, or `self.a,
/// self.b = v, w` with as many values as targets.
fn assigned_in<'t>(path: &[Node<'t>], init: Option<Node<'t>>) -> Option<Node<'t>> {
    let init_body = init.and_then(|i| by_field(i, "body"))?;
    let (target, rest) = path.split_last()?;
    let (mut place, mut rest) = (*target, rest);
    // In a tuple of targets: its place there.
    let mut k = None;
    if let [before @ .., pattern] = rest
        && matches!(kind(*pattern), "pattern_list" | "tuple_pattern")
    {
        let mut c = pattern.walk();
        k = Some(pattern.named_children(&mut c).position(|t| t == place)?);
        (place, rest) = (*pattern, before);
    }
    let [.., body, statement, assignment] = rest else {
        return None;
    };
    let ok = kind(*assignment) == "assignment"
        && by_field(*assignment, "left") == Some(place)
        && kind(*statement) == "expression_statement"
        && statement.named_child_count() == 1
        && *body == init_body;
    let right = by_field(*assignment, "right").filter(|_| ok)?;
    match k {
        None => Some(right),
        Some(k) => {
            let (mut c, mut p) = (right.walk(), place.walk());
            let values: Vec<Node<'t>> = match kind(right) {
                "expression_list" | "tuple" => right.named_children(&mut c).collect(),
                _ => return None,
            };
            let targets = place.named_children(&mut p).count();
            let plain = values.iter().all(|v| kind(*v) != "list_splat");
            (values.len() == targets && plain)
                .then(|| values.get(k).copied())
                .flatten()
        }
    }
}

/// The class defined by `node` with its methods and attributes, when its shape lets every
/// call of a method be told from the code.
fn candidate<'t>(py: &Py<'_, '_, 't>, node: Node<'t>) -> Option<Class<'t>> {
    if by_field(node, "superclasses").is_some_and(|b| !matches!(py.text(b), "()" | "(object)")) {
        return None;
    }
    let mut class = Class {
        name: py.text(by_field(node, "name")?).to_owned(),
        init: None,
        methods: HashMap::new(),
        attrs: HashMap::new(),
        class_attrs: HashMap::new(),
        shared: HashSet::new(),
    };
    let body = by_field(node, "body")?;
    let mut c = body.walk();
    for member in body.named_children(&mut c) {
        match kind(member) {
            "function_definition" => {
                let name = py.text(by_field(member, "name")?);
                let list = by_field(member, "parameters")?;
                let this = list.named_child(0).filter(|p| kind(*p) == "identifier")?;
                let params = parameters(py, list, true)?;
                let method = Method {
                    def: member,
                    this: py.text(this).to_owned(),
                    changes: Changes::of(py, member, &params),
                    params,
                };
                match name {
                    "__init__" if class.init.is_none() => class.init = Some(method),
                    _ if name.starts_with("__") => return None,
                    _ => {
                        if class.methods.insert(name.to_owned(), method).is_some() {
                            return None;
                        }
                    }
                }
            }
            "expression_statement" => {
                let inner = member.named_child(0)?;
                match kind(inner) {
                    "string" => {}
                    "assignment" => {
                        let left = by_field(inner, "left").filter(|l| kind(*l) == "identifier")?;
                        let value = by_field(inner, "right");
                        // Assigned twice in the body: not known.
                        let name = py.text(left).to_owned();
                        let again = class.class_attrs.contains_key(&name);
                        class.class_attrs.insert(name, value.filter(|_| !again));
                    }
                    _ => return None,
                }
            }
            "pass_statement" | "comment" => {}
            _ => return None,
        }
    }
    // A method and a class attribute of one name: which one is called is not told here.
    if class
        .methods
        .keys()
        .any(|m| class.class_attrs.contains_key(m))
    {
        return None;
    }
    Some(class)
}

impl<'t> Py<'_, '_, 't> {
    /// The literal list, tuple, set or dictionary `object.attr` is assigned, when `object`
    /// is the class or an instance of a class read at its calls and nothing changes the
    /// attribute's items in place.
    pub(super) fn member_literal(&self, object: Node<'t>, attr: &str) -> Option<Node<'t>> {
        let (class, of_class) = match self.classes.named(self.text(object)) {
            Some(class) if kind(object) == "identifier" => (class, true),
            _ => (self.classes.receiver(self, object)?.0, false),
        };
        let c = &self.classes.list[class];
        if c.shared.contains(attr) {
            return None;
        }
        let value = match (c.attrs.get(attr), c.class_attrs.get(attr)) {
            (Some(v), _) if !of_class => *v,
            (_, Some(v)) => *v,
            _ => None,
        }?;
        matches!(kind(value), "list" | "tuple" | "set" | "dictionary").then_some(value)
    }

    /// The value of `object.attr` when `object` is an instance of a class read at its
    /// calls, or the class itself: an attribute's assigned value, or not known; a method
    /// is not a value the reader follows.
    pub(super) fn member(&mut self, object: Node<'t>, attr: &str, depth: usize) -> Option<Obj> {
        if self.classes.list.is_empty() {
            return None;
        }
        // The class, the constructor call when `object` is an instance (`None` for one not
        // known), and whether it is the class itself.
        let (class, made, of_class) = match self.classes.named(self.text(object)) {
            Some(class) if kind(object) == "identifier" => (class, None, true),
            _ => {
                let (class, receiver) = self.classes.receiver(self, object)?;
                let made = match receiver {
                    Receiver::Made(made) => Some(made),
                    Receiver::Same(def) => self.selves.iter().rev().find(|t| t.def == def)?.made,
                };
                (class, made, false)
            }
        };
        let c = &self.classes.list[class];
        let (value, init) = match (c.attrs.get(attr), c.class_attrs.get(attr)) {
            (Some(v), _) if !of_class => (*v, c.init.clone()),
            (_, Some(v)) => (*v, None),
            _ => (None, None),
        };
        let shared = c.shared.contains(attr);
        let Some(value) = value.filter(|_| self.attributing < MOST_ATTRIBUTE_DEPTH) else {
            return Some(Obj::Val(Val::Unknown));
        };
        self.attributing += 1;
        let (outer_bound, outer_selves) = (self.bound.len(), self.selves.len());
        // An instance attribute is evaluated where `__init__` assigns it, with its
        // parameters bound to the constructor's arguments.
        if let Some(init) = init {
            match made {
                Some(call) => self.bind_arguments(init.def, &init.params, &init.changes, call),
                None => self.bind_unknown(init.def, &init.params),
            }
            self.selves.push(This {
                def: init.def,
                made,
            });
        }
        let out = self.eval(value, depth + 1);
        self.bound.truncate(outer_bound);
        self.selves.truncate(outer_selves);
        self.attributing -= 1;
        Some(match out {
            Obj::List(_) | Obj::Each(_) if shared => Obj::Val(Val::Unknown),
            out => out,
        })
    }
}
