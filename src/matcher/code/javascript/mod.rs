//! JavaScript (`node -e`, Deno, Bun): the calls that run commands, delete, read, write,
//! fetch or run code, with the constant values of their arguments (string literals and
//! templates of constants, `+`, `String.fromCharCode`, `split`/`reverse`/`join`/`replace`,
//! `path.join`, `os.homedir()`, `process.env.HOME`), modules however they are bound
//! (`require`, destructuring, `import`, `await import`, the built-in modules `node -e`
//! exposes as globals), and names bound once.

mod binds;
mod calls;
mod choices;
mod computed;
mod inline;
mod modules;
mod narrow;
mod network;
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
use super::tree::Source;
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
        grows: false,
        chosen: Default::default(),
    };
    js.cx.inherit(&mut js.names);
    js.bind_all(root, 0);
    js.functions = inline::Functions::of(src.text, root);
    js.walk(root);
    js.cx.publish(&js.names);
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
    /// Whether an array is grown by `push` (see [`choices`]): until one is, no call's
    /// arguments are searched for one.
    grows: bool,
    /// The growths being read as run (`true`) or not, by node id.
    chosen: crate::matcher::code::growths::Chosen,
}

impl<'a, 'c, 't> Js<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
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
            "with_statement" => self.cx.unreadable(
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
pub(super) fn by_field<'t>(node: impl Borrow<Node<'t>>, name: &str) -> Option<Node<'t>> {
    super::tree::field(super::Lang::JavaScript, *node.borrow(), name)
}

/// The kind of a node (see [`super::tree::kind`]).
pub(super) fn kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    super::tree::kind(super::Lang::JavaScript, *node.borrow())
}
