//! Python: the calls that run commands, delete, read, write, fetch or run code, with the
//! constant values of their arguments (string literals and f-strings of constants, `+`,
//! `%s`, `str.join`/`format`/`replace`, `chr`, `os.path.join`/`expanduser`, `os.environ`,
//! `pathlib.Path` and `/`), and names bound once.

mod calls;
mod sinks;
mod text;
mod values;

#[cfg(test)]
mod tests;

use tree_sitter::{Node, Tree};

use super::scope::{Cx, Names, Slot, Val};
use super::tree::{MAX_NESTING, Source, Visit};

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
    let root = tree.root_node();
    let mut py = Py {
        cx,
        src,
        names: Names::default(),
        loops: 0,
    };
    super::tree::visit(root, |node, depth, at| {
        at == Visit::Enter && py.bind(node, depth)
    });
    py.walk(root);
}

pub(super) struct Py<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    loops: usize,
}

impl<'a, 'c, 't> Py<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// Gathers the names `node` binds (see [`Names`]); whether to look below it.
    fn bind(&mut self, node: Node<'t>, depth: usize) -> bool {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return false;
        }
        match node.kind() {
            "import_statement" => {
                let mut c = node.walk();
                for name in node.children_by_field_name("name", &mut c) {
                    match name.kind() {
                        "aliased_import" => {
                            if let (Some(n), Some(a)) = (
                                name.child_by_field_name("name"),
                                name.child_by_field_name("alias"),
                            ) {
                                self.names
                                    .bind(self.text(a), Slot::Ref(self.text(n).into()));
                            }
                        }
                        _ => {
                            let full = self.text(name);
                            let first = full.split('.').next().unwrap_or(full);
                            self.names.bind(first, Slot::Ref(first.into()));
                        }
                    }
                }
            }
            "import_from_statement" => {
                let module = node
                    .child_by_field_name("module_name")
                    .map(|m| self.text(m))
                    .unwrap_or_default();
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    if child.kind() == "wildcard_import" {
                        self.names.star.push(module.to_owned());
                    }
                }
                let mut c = node.walk();
                for name in node.children_by_field_name("name", &mut c) {
                    let (n, alias) = match name.kind() {
                        "aliased_import" => (
                            name.child_by_field_name("name"),
                            name.child_by_field_name("alias"),
                        ),
                        _ => (Some(name), Some(name)),
                    };
                    if let (Some(n), Some(a)) = (n, alias) {
                        let q = format!("{module}.{}", self.text(n));
                        self.names.bind(self.text(a), Slot::Ref(q));
                    }
                }
            }
            "assignment" => self.bind_assignment(node),
            "named_expression" => {
                if let (Some(n), Some(v)) = (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("value"),
                ) {
                    self.names.bind(self.text(n), Slot::Expr(v));
                }
            }
            "augmented_assignment" => self.forget_in(node.child_by_field_name("left")),
            "for_statement" | "for_in_clause" => self.forget_in(node.child_by_field_name("left")),
            "function_definition" | "class_definition" => {
                self.forget_in(node.child_by_field_name("name"));
                self.forget_in(node.child_by_field_name("parameters"));
            }
            "lambda" => self.forget_in(node.child_by_field_name("parameters")),
            "as_pattern" | "with_item" | "except_clause" => {
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    if child.kind() == "as_pattern_target" {
                        self.forget_in(Some(child));
                    }
                }
                self.forget_in(node.child_by_field_name("alias"));
            }
            "global_statement" | "nonlocal_statement" | "delete_statement" => {
                self.forget_in(Some(node))
            }
            _ => {}
        }
        true
    }

    fn bind_assignment(&mut self, node: Node<'t>) {
        let (Some(left), Some(right)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
        ) else {
            self.forget_in(node.child_by_field_name("left"));
            return;
        };
        // `a = b = value`: the inner assignment is bound when the walk reaches it.
        let value = if right.kind() == "assignment" {
            right.child_by_field_name("right").unwrap_or(right)
        } else {
            right
        };
        if left.kind() == "identifier" {
            self.names.bind(self.text(left), Slot::Expr(value));
        } else {
            self.forget_in(Some(left));
        }
    }

    /// Every identifier under `node` becomes not known.
    fn forget_in(&mut self, node: Option<Node<'_>>) {
        let Some(node) = node else { return };
        if node.kind() == "identifier" {
            let name = self.text(node);
            self.names.forget(name);
            return;
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            if matches!(
                child.kind(),
                "identifier"
                    | "pattern_list"
                    | "tuple_pattern"
                    | "list_pattern"
                    | "parameters"
                    | "typed_parameter"
                    | "default_parameter"
                    | "typed_default_parameter"
                    | "list_splat_pattern"
                    | "dictionary_splat_pattern"
                    | "as_pattern_target"
                    | "tuple"
                    | "list"
                    | "pattern"
                    | "expression_list"
            ) {
                self.forget_in(Some(child));
            }
        }
    }

    /// Visits every node, reading the calls' effects.
    fn walk(&mut self, root: Node<'t>) {
        super::tree::visit(root, |node, depth, at| {
            let is_loop = matches!(
                node.kind(),
                "for_statement"
                    | "while_statement"
                    | "list_comprehension"
                    | "generator_expression"
                    | "set_comprehension"
                    | "dictionary_comprehension"
            );
            if at == Visit::Leave {
                self.loops -= usize::from(is_loop);
                return false;
            }
            self.loops += usize::from(is_loop);
            if !self.cx.enter(depth, self.line(node)) {
                return false;
            }
            if node.kind() == "call" {
                self.call(node);
            }
            true
        });
    }
}

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
    "help",
    "breakpoint",
];
