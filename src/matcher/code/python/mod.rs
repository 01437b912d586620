//! Python: the calls that run commands, delete, read, write, fetch or run code, with the
//! constant values of their arguments (string literals and f-strings of constants, `+`,
//! `%s`, `str.join`/`format`/`replace`, `chr`, `os.path.join`/`expanduser`, `os.environ`,
//! `pathlib.Path` and `/`), and names bound once.

mod args;
mod binds;
mod bombs;
mod calls;
mod changes;
mod choices;
mod classes;
mod computed;
mod constants;
mod files;
mod inline;
mod loops;
mod modes;
mod narrow;
mod operators;
mod passed;
mod rounds;
mod run;
mod sinks;
mod text;
mod values;

#[cfg(test)]
mod tests;

use std::borrow::Borrow;

use tree_sitter::{Node, Tree};

use super::Lang;
use super::scope::{Cx, Names, Slot, Val};
use super::tree::{Source, Visit};

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// A module, class or function, by qualified name (`os.path.join`).
    Ref(String),
    /// A list or tuple of values (an argument vector).
    List(Vec<Val>),
    /// A `pathlib.Path` of this value.
    Path(Val),
    /// A method of a path (`Path(p).unlink`).
    PathMethod(Val, String),
    /// A method of a known string (`' '.join`).
    StrMethod(Val, String),
    /// An attribute of something not followed (`x.system`): only its name is known.
    Attr(String),
    /// The response of a network request: what it reads was downloaded.
    Response,
    /// What a loop over this gets each time round (`glob.glob(p)`, `Path(d).iterdir()`).
    Each(Box<Obj>),
    /// What `os.walk` yields for the tree at this path: a directory at any depth in it,
    /// and the names of that directory's subdirectories and files.
    Walk(Val),
    /// A `tempfile.NamedTemporaryFile`, whose `name` is this path.
    TempFile(Val),
}

impl Obj {
    fn val(self) -> Val {
        match self {
            Obj::Val(v) | Obj::Path(v) => v,
            Obj::Response => Val::Fetched,
            _ => Val::Unknown,
        }
    }
}

/// Reads a Python module.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let mut py = Py {
        cx,
        src,
        names: Names::default(),
        loops: 0,
        narrowed: Vec::new(),
        over_literals: false,
        arguments: Vec::new(),
        bound: Vec::new(),
        returns: std::collections::HashMap::new(),
        returning: 0,
        looked_at_checks: 0,
        decoded: false,
        constant: Default::default(),
        classes: classes::Classes::default(),
        selves: Vec::new(),
        attributing: 0,
        has_conditionals: false,
        chosen: Default::default(),
        changed: changes::Changed::default(),
        lambdas: Vec::new(),
        environ: std::collections::HashMap::new(),
        root: tree.root_node(),
        code_only: std::cell::OnceCell::new(),
    };
    // Names are bound without regard to order (see `Names`), so every call is read once
    // the whole module has been walked.
    py.cx.inherit(&mut py.names);
    let walked = py.walk(tree.root_node());
    py.classes = classes::Classes::of(&py, tree.root_node());
    let mut functions = inline::Functions::of(&py, tree.root_node(), &walked.calls);
    py.settle_passed(|py, call, k| functions.keeps(py, call, k));
    py.close_changed();
    py.returns = functions.returns(&py);
    for &(call, loops, def) in &walked.calls {
        if !functions.owns(def) {
            py.call_reading_functions(&mut functions, call, loops, 0);
        }
    }
    for value in walked.values {
        py.passed(value);
    }
    for &[call, parent, grandparent] in &walked.collected {
        if py.collects_endless(call, parent, grandparent) {
            let line = py.line(call);
            py.cx.unreadable(
                "the code grows what it holds in a loop that never ends (a memory bomb)",
                line,
            );
        }
    }
    py.cx.publish(&py.names);
}

use crate::matcher::code::FEW_ROUNDS;

/// Whether `range` in `code` can only be the built-in: each `range` is called and is not
/// defined, imported or reached through the built-ins' namespace. A text scan, once per
/// read; anything it is unsure of says no.
fn range_is_builtin(code: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    // Each place `name` stands as a name of its own, with the text after it.
    let uses = |name: &'static str| {
        code.match_indices(name).filter_map(move |(k, _)| {
            let rest = &code[k + name.len()..];
            (!word(code[..k].chars().next_back()) && !word(rest.chars().next()))
                .then_some((k, rest))
        })
    };
    let reaches_builtins = [
        "builtins",
        "__builtins__",
        "__dict__",
        "__import__",
        "setattr",
        "globals",
        "locals",
        "vars",
        "exec",
        "eval",
    ]
    .iter()
    .any(|w| uses(w).next().is_some());
    !reaches_builtins
        && uses("range").all(|(k, rest)| {
            rest.trim_start_matches([' ', '\t']).starts_with('(')
                && !code[..k].trim_end_matches([' ', '\t']).ends_with("def")
        })
}

/// What a walk gathers: the calls, each with the number of loops around it and the
/// innermost function definition holding it, and the names and attributes used as values
/// (passed, stored, returned) rather than called.
struct Walked<'t> {
    calls: Vec<(Node<'t>, usize, Option<Node<'t>>)>,
    values: Vec<Node<'t>>,
    /// Calls whose parent could build a collection of what they return, with that parent
    /// and its parent (see `collects_endless`): the walk has them at hand, and
    /// tree-sitter finds a node's parent only by walking down from the root.
    collected: Vec<[Node<'t>; 3]>,
}

/// Where a name or an attribute is a value that may be called later, elsewhere: passed
/// (`map(os.system, cmds)`, `Thread(target=os.system)`), stored (`{'x': os.system}`,
/// `[os.remove]`, `d['x'] = os.system`), returned, or a default.
const VALUE_PLACES: &[&str] = &[
    "argument_list",
    "keyword_argument",
    "list",
    "tuple",
    "set",
    "pair",
    "expression_list",
    "assignment",
    "return_statement",
    "conditional_expression",
    "boolean_operator",
    "lambda",
    "default_parameter",
    "typed_default_parameter",
];

/// The child of a Python node in a field.
pub(super) fn by_field<'t>(node: impl Borrow<Node<'t>>, name: &str) -> Option<Node<'t>> {
    super::tree::field(Lang::Python, *node.borrow(), name)
}

fn fields<'t>(node: Node<'t>, name: &str) -> Vec<Node<'t>> {
    super::tree::fields(Lang::Python, node, name)
}

/// The kind of a Python node.
pub(super) fn kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    super::tree::kind(Lang::Python, *node.borrow())
}

pub(super) struct Py<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    loops: usize,
    /// What comprehensions' `if` clauses say of their variables (see [`narrow`]); read only
    /// while a name is bound once, as the variable of a `for`.
    narrowed: Vec<(&'a str, narrow::Narrow)>,
    /// Whether a loop variable is bound to the items of a literal list: until one is,
    /// no call needs its arguments searched for one (that search visits every argument).
    over_literals: bool,
    /// The variable of a loop over the script's arguments, bound to one of them while a
    /// call in the loop is read (see [`Py::call`]).
    arguments: Vec<(&'a str, Val)>,
    /// The parameters of the functions being read at their calls (see [`inline`]).
    bound: Vec<inline::Bound<'t>>,
    /// What the functions read at their calls return (see [`inline::Returns`]).
    returns: std::collections::HashMap<String, inline::Returns<'t>>,
    /// Returned values being evaluated, one inside another.
    returning: usize,
    /// `getattr` lookups checked for being only looked at (see `Py::only_looked_at`).
    looked_at_checks: usize,
    /// Whether a decoder was evaluated since this was last cleared: a base64 constant is
    /// read as its text, but code or a command decoded before it runs stays unreadable.
    decoded: bool,
    /// Whether each name bound to a literal dictionary keeps it as written (see
    /// `stays_as_written`): a scan of the whole code, made once per name, not per use.
    constant: std::cell::RefCell<std::collections::HashMap<&'a str, bool>>,
    /// The classes read at their calls (see [`classes`]).
    classes: classes::Classes<'t>,
    /// The instances the methods being read at their calls are read for.
    selves: Vec<classes::This<'t>>,
    /// Attribute values being evaluated, one inside another.
    attributing: usize,
    /// Whether the code has a conditional expression, `or`, `and` or a growth of a list
    /// (see [`choices`]): until it has, no call's arguments are searched for one.
    has_conditionals: bool,
    /// The conditionals being read one way, by node id: `true` for the side before `if`.
    chosen: crate::matcher::code::growths::Chosen,
    /// Names whose value may be changed in place, or shared where it may be (see
    /// [`changes::Change`]): a list bound to one is not the literal it was bound to.
    changed: changes::Changed<'a, 't>,
    /// Each lambda with its parameters' names (at most [`MOST_LAMBDAS`]): inside it, they
    /// are not known.
    lambdas: Vec<(Node<'t>, Vec<&'a str>)>,
    /// The assignment and value by which code gives an environment variable a value
    /// (`os.environ['K'] = v`), `None` where it gives more than one.
    environ: std::collections::HashMap<&'a str, Option<(Node<'t>, Node<'t>)>>,
    root: Node<'t>,
    /// The code with the text of its strings and comments blanked (see
    /// [`Py::code_only`]).
    code_only: std::cell::OnceCell<String>,
}

/// Lambdas whose parameters are scoped to them; past these, their names are forgotten
/// everywhere (a name's every use then checks at most this many).
const MOST_LAMBDAS: usize = 64;

impl<'a, 'c, 't> Py<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// Visits every node once, binding names and gathering what is read after.
    /// Whether the string literal `node` is an f-string (`f"..."`, `rf'...'`, `Fr"..."`).
    fn is_f_string(&self, node: Node<'_>) -> bool {
        self.text(node)
            .bytes()
            .take_while(|b| !matches!(b, b'"' | b'\''))
            .any(|b| b == b'f' || b == b'F')
    }

    /// Whether `node` is a `for` loop of at most [`FEW_ROUNDS`] rounds, over `range(N)` or
    /// a literal list: a `fork()` in it makes at most 2^N processes, not a fork bomb. Only
    /// the outermost such loop counts so; one inside it is a loop.
    fn few_rounds(&self, node: Node<'t>, range_is_builtin: bool) -> bool {
        if kind(node) != "for_statement" {
            return false;
        }
        let Some(over) = by_field(node, "right") else {
            return false;
        };
        let literal = |n: Node<'t>| self.text(n).parse::<i64>().ok();
        match kind(over) {
            "list" | "tuple" | "set" => {
                let mut c = over.walk();
                let items: Vec<Node<'t>> = over.named_children(&mut c).collect();
                items.len() <= FEW_ROUNDS
                    && items
                        .iter()
                        .all(|i| !matches!(kind(*i), "list_splat" | "comment"))
            }
            "call"
                if range_is_builtin
                    && by_field(over, "function").is_some_and(|f| self.text(f) == "range") =>
            {
                let Some(args) = by_field(over, "arguments") else {
                    return false;
                };
                let mut c = args.walk();
                let bounds: Option<Vec<i64>> = args.named_children(&mut c).map(literal).collect();
                match bounds.as_deref() {
                    Some([n]) => *n <= FEW_ROUNDS as i64,
                    Some([a, b]) => b - a <= FEW_ROUNDS as i64,
                    _ => false,
                }
            }
            _ => false,
        }
    }

    fn walk(&mut self, root: Node<'t>) -> Walked<'t> {
        let mut walked = Walked {
            calls: Vec::new(),
            values: Vec::new(),
            collected: Vec::new(),
        };
        let mut loops = 0usize;
        // Loops of a few rounds around the node: the first adds no loop (see `few_rounds`).
        let mut few = 0usize;
        let range_is_builtin = range_is_builtin(self.src.text);
        let mut kinds: Vec<&'static str> = Vec::new();
        let mut path: Vec<Node<'t>> = Vec::new();
        let mut defs: Vec<Node<'t>> = Vec::new();
        super::tree::visit(root, |node, depth, at| {
            let is_loop = matches!(
                kind(node),
                "for_statement"
                    | "while_statement"
                    | "list_comprehension"
                    | "generator_expression"
                    | "set_comprehension"
                    | "dictionary_comprehension"
            );
            let is_few = is_loop && self.few_rounds(node, range_is_builtin);
            if is_few && at == Visit::Leave {
                few -= 1;
            }
            let is_loop = is_loop && (!is_few || few > 0);
            if is_few && at == Visit::Enter {
                few += 1;
            }
            if at == Visit::Leave {
                loops -= usize::from(is_loop);
                kinds.pop();
                if defs.last() == Some(&node) {
                    defs.pop();
                }
                return false;
            }
            let parent = kinds.last().copied().unwrap_or_default();
            kinds.push(kind(node));
            path.truncate(depth);
            path.push(node);
            loops += usize::from(is_loop);
            if !self.cx.enter(depth, self.line(node)) {
                return false;
            }
            self.bind(node);
            if kind(node) == "attribute"
                && by_field(node, "attribute").is_some_and(|a| INTERNALS.contains(&self.text(a)))
            {
                self.cx.unreadable(
                    "the code reaches objects through Python's internals (`__subclasses__`, `__globals__`, frames), where any function can be found",
                    self.line(node),
                );
            }
            if matches!(kind(node), "binary_operator" | "call") && self.builds_too_much(node) {
                self.cx.unreadable(
                    "the code builds a value too large for memory (a memory bomb)",
                    self.line(node),
                );
            }
            if kind(node) == "identifier" {
                self.note_change(&path);
            }
            match kind(node) {
                "conditional_expression" | "boolean_operator" | "augmented_assignment" => {
                    self.has_conditionals = true;
                }
                "call" => {
                    walked.calls.push((node, loops, defs.last().copied()));
                    if matches!(parent, "for_in_clause" | "argument_list")
                        && let [.., grandparent, up, _] = path.as_slice()
                    {
                        walked.collected.push([node, *up, *grandparent]);
                    }
                }
                "function_definition" => defs.push(node),
                "attribute" | "identifier" if VALUE_PLACES.contains(&parent) => {
                    walked.values.push(node);
                }
                // Only an f-string holds code (its `{...}`); below any other string are its
                // quotes and text, which bind and call nothing.
                "string" => return self.is_f_string(node),
                _ => {}
            }
            true
        });
        walked
    }
}

/// Attributes that lead from any object to every class, module or frame of the process
/// (`().__class__.__base__.__subclasses__()` finds `Popen`): what is called through them
/// cannot be told from the code.
const INTERNALS: &[&str] = &[
    "__subclasses__",
    "__globals__",
    "__mro__",
    "__bases__",
    "__base__",
    "__code__",
    "__closure__",
    "__getattribute__",
    "__reduce__",
    "__reduce_ex__",
    "f_globals",
    "f_locals",
    "f_builtins",
    "f_back",
    "gi_frame",
    "cr_frame",
    "tb_frame",
];

/// Names the built-in module holds that the reader follows.
pub(super) const BUILTINS: &[&str] = &[
    "open",
    "exec",
    "eval",
    "compile",
    "__import__",
    "getattr",
    "chr",
    "str",
    "bytes",
    "globals",
    "locals",
    "vars",
    "list",
    "tuple",
    "sorted",
    "set",
    "frozenset",
    "reversed",
    "help",
    "breakpoint",
    "map",
    "filter",
    "bytearray",
];

/// The one argument of a call of the builtin `sorted`, `reversed`, `list` or `tuple`.
fn reordered<'t>(py: &Py<'_, '_, 't>, node: Node<'t>) -> Option<Node<'t>> {
    let f =
        by_field(node, "function").filter(|f| kind(node) == "call" && kind(*f) == "identifier")?;
    let builtin = matches!(py.text(f), "sorted" | "reversed" | "list" | "tuple")
        && py.names.get(py.text(f)).is_none();
    let args = by_field(node, "arguments").filter(|a| builtin && a.named_child_count() == 1)?;
    args.named_child(0)
}

/// `items` or `keys` when `node` is a call of that method with no arguments
/// (`files.items()`), whatever its object.
pub(super) fn dict_view<'t>(py: &Py<'_, '_, 't>, mut node: Node<'t>) -> Option<&'static str> {
    // `sorted(d.items())`, `list(d.keys())`: the same pairs or keys, in another order.
    for _ in 0..8 {
        let Some(inner) = reordered(py, node) else {
            break;
        };
        node = inner;
    }
    let function =
        by_field(node, "function").filter(|f| kind(node) == "call" && kind(*f) == "attribute")?;
    let method = by_field(function, "attribute").map(|a| py.text(a))?;
    let no_args = by_field(node, "arguments").is_some_and(|a| a.named_child_count() == 0);
    match method {
        "items" if no_args => Some("items"),
        "keys" if no_args => Some("keys"),
        _ => None,
    }
}
