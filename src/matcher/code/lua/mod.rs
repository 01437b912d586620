//! Lua: the calls that run commands, delete, read, write, fetch or run code (the standard
//! library, LuaSocket, luaposix), with the constant values of their arguments (short and
//! long strings, `..`, `string.char`/`reverse`/`format`/`rep`/`gsub`, `table.concat`,
//! `os.getenv('HOME')`), aliases of modules and functions (`local e = os.execute`,
//! `_G['os']`), and names bound once.

mod calls;
mod choices;
mod compiled;
mod quoting;
mod rounds;
mod text;
mod values;

#[cfg(test)]
mod tests;

use std::borrow::Borrow;

use tree_sitter::{Node, Tree};

use super::scope::{Cx, Names, Slot, Val};
use super::tree::{MAX_NESTING, Source};

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// A global, module or function by qualified name (`os.execute`, `socket.http`).
    Ref(String),
    /// The positional items of a table constructor.
    Table(Vec<Val>),
    /// A function written in the code (its body is walked where it is written).
    Func,
    /// A LuaSocket socket (`socket.tcp()`).
    Socket,
    /// A file `io.open` opened (its path).
    File(Val),
}

impl Obj {
    fn val(self) -> Val {
        match self {
            Obj::Val(v) => v,
            _ => Val::Unknown,
        }
    }
}

/// Globals the reader follows: a name not bound in the code that is one of these is it.
const GLOBALS: &[&str] = &[
    "os",
    "io",
    "string",
    "table",
    "math",
    "utf8",
    "coroutine",
    "debug",
    "package",
    "_G",
    "_ENV",
    "require",
    "load",
    "loadstring",
    "dofile",
    "loadfile",
    "pcall",
    "xpcall",
    "rawget",
    "rawset",
    "setmetatable",
    "setfenv",
    "getfenv",
    "tostring",
    "socket",
    "posix",
    "ffi",
    "ssl",
];

/// Modules whose fields a computed name may reach harmlessly (`math[op]`).
const DATA_MODULES: &[&str] = &["string", "table", "math", "utf8", "coroutine"];

const COMPUTED_NAME: &str = "the code looks up a function by a name computed at run time";
const NATIVE: &str = "the code calls native code directly";

/// Reads Lua code.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let root = tree.root_node();
    let mut lua = Lua {
        cx,
        src,
        names: Names::default(),
        loops: 0,
        calls: 0,
        shared: Vec::new(),
        tables: rounds::Loops::default(),
        wild: false,
        jumps: false,
        grows: false,
        chosen: super::growths::Chosen::default(),
        root,
        quoters: Vec::new(),
    };
    lua.cx.inherit(&mut lua.names);
    lua.bind_all(root, 0);
    lua.quoters = lua.quoters();
    lua.forget_shared_tables();
    lua.walk(root);
    lua.cx.publish(&lua.names);
}

/// Functions that run code which can assign any global, or change another function's
/// locals.
const REBINDS: &[&str] = &["load", "loadstring", "dofile", "loadfile", "setfenv"];

/// Functions that only read the table they are given.
const READS_ONLY: &[&str] = &[
    "print",
    "table.concat",
    "table.unpack",
    "unpack",
    "ipairs",
    "pairs",
    "next",
    "select",
    "type",
    "tostring",
    "rawlen",
    "string.format",
    "io.write",
];

struct Lua<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    loops: usize,
    /// Calls followed through `pcall`, being read.
    calls: usize,
    /// Names used where the table they name may be changed out of sight: handed to a
    /// function that may change it (`table.insert(t, x)`, `grow(t)`), called a method of,
    /// made another name (`local q = t`), stored in a table or returned.
    shared: Vec<&'a str>,
    /// Loops over tables, read per item where the table is a literal.
    tables: rounds::Loops<'a, 't>,
    /// The code can rebind names out of sight (`load`ed code, `debug`, `_G` handed on): no
    /// name's value is known.
    wild: bool,
    /// The code has a `goto`, which may run a statement again: no growth is followed.
    jumps: bool,
    /// Whether a table is grown: until one is, no call's choices are searched for.
    grows: bool,
    /// The growths being read as run (`true`) or not, by node id.
    chosen: super::growths::Chosen,
    root: Node<'t>,
    /// The program's own functions that quote a value as one shell word (see `quoting`).
    quoters: Vec<&'a str>,
}

impl<'a, 'c, 't> Lua<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    fn named(node: Node<'t>) -> Vec<Node<'t>> {
        let mut c = node.walk();
        node.named_children(&mut c)
            .filter(|n| kind(n) != "comment")
            .collect()
    }

    /// Gathers the names the code binds (see [`Names`]).
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        match kind(node) {
            "assignment_statement" => self.bind_assignment(node),
            "for_generic_clause" if self.bind_loop(node) => {}
            // `local x` without a value, parameters, loop variables.
            "variable_declaration" | "parameters" | "for_numeric_clause" | "for_generic_clause"
                if kind(node) != "variable_declaration"
                    || !Self::named(node)
                        .iter()
                        .any(|n| kind(n) == "assignment_statement") =>
            {
                self.forget_names(node);
            }
            "function_declaration" => {
                if let Some(n) = by_field(node, "name") {
                    self.forget_target(n);
                }
            }
            "goto_statement" => self.jumps = true,
            "function_call" => {
                let callee = by_field(node, "name");
                // `load(code, name, mode, {math = math})` runs the code with a table of
                // its own for globals: it rebinds none of the program's.
                let own_env = by_field(node, "arguments")
                    .map(Self::named)
                    .and_then(|args| args.get(3).copied())
                    .is_some_and(|env| kind(env) == "table_constructor");
                // A file compiled and not run rebinds nothing either (see `compiled`).
                if callee.is_some_and(|c| {
                    let c = self.text(c);
                    (REBINDS.contains(&c)
                        && !(c == "load" && own_env)
                        && !(c == "loadfile" && self.compiled_only(node)))
                        || c.starts_with("debug.")
                }) {
                    self.wild = true;
                }
                if let Some(object) = callee
                    .filter(|c| kind(c) == "method_index_expression")
                    .and_then(|c| by_field(c, "table"))
                {
                    self.share(object);
                }
                if !callee.is_some_and(|c| READS_ONLY.contains(&self.text(c))) {
                    let grown = self.inserted_into(node);
                    for a in by_field(node, "arguments")
                        .map(Self::named)
                        .unwrap_or_default()
                    {
                        if Some(a) != grown || !self.grow(a, node) {
                            self.share(a);
                        }
                    }
                }
            }
            "field" => {
                if let Some(v) = by_field(node, "value") {
                    self.share(v);
                }
            }
            // `_G` or `_ENV` other than indexed (`local G = _G`, `rawset(_G, ...)`).
            "identifier" if matches!(self.text(node), "_G" | "_ENV") => {
                let indexed = node.parent().is_some_and(|p| {
                    kind(p).ends_with("index_expression") && by_field(p, "table") == Some(node)
                });
                self.wild |= !indexed;
            }
            "return_statement" | "expression_list" => {
                for v in Self::named(node) {
                    self.share(v);
                }
            }
            _ => {}
        }
        for child in Self::named(node) {
            self.bind_all(child, depth + 1);
        }
    }

    fn bind_assignment(&mut self, node: Node<'t>) {
        let parts = Self::named(node);
        let (Some(targets), Some(values)) = (
            parts.iter().find(|p| kind(*p) == "variable_list"),
            parts.iter().find(|p| kind(*p) == "expression_list"),
        ) else {
            return;
        };
        let targets: Vec<Node<'t>> = Self::named(*targets)
            .into_iter()
            .filter(|t| kind(t) != "attribute")
            .collect();
        let values = Self::named(*values);
        if let ([target], [_]) = (targets.as_slice(), values.as_slice())
            && let Some(table) = self.appended_to(node, *target)
            && self.grow(table, node)
        {
            return;
        }
        // Where `require` finds native modules, or how it finds any: a module it then
        // loads may be one the code downloaded.
        if let Some(t) = targets.iter().find(|t| {
            let text = self.text(**t).replace(' ', "");
            text == "package.cpath"
                || text.starts_with("package.searchers")
                || text.starts_with("package.loaders")
        }) {
            let line = self.line(*t);
            self.cx.unreadable(
                "the code changes where or how `require` loads modules",
                line,
            );
        }
        for (n, target) in targets.iter().enumerate() {
            // A value past the list, or from a call returning several, is not followed.
            let value = values
                .get(n)
                .filter(|_| n + 1 < values.len() || targets.len() <= values.len());
            if kind(*target) == "identifier" {
                self.tables.assigned.insert(self.text(*target));
            }
            match (self.global_name(*target), value) {
                (Some(name), Some(v)) => self.names.bind(&name, Slot::Expr(*v)),
                _ => self.forget_target(*target),
            }
        }
    }

    /// The name an assignment target binds: `x`, or `_G.x`, `_G['x']`.
    fn global_name(&mut self, target: Node<'t>) -> Option<String> {
        if kind(target) == "identifier" {
            return Some(self.text(target).to_owned());
        }
        let base = by_field(target, "table")?;
        let key = by_field(target, "field")?;
        if !matches!(self.text(base), "_G" | "_ENV") {
            return None;
        }
        if kind(target) == "dot_index_expression" {
            return Some(self.text(key).to_owned());
        }
        match self.eval(key, 0).val() {
            Val::Known(k) => Some(k),
            _ => {
                self.cx.unreadable(
                    "the code sets a global whose name is computed at run time",
                    self.line(target),
                );
                None
            }
        }
    }

    /// Notes `node` when it is a name (see `Lua::shared`).
    fn share(&mut self, node: Node<'t>) {
        if kind(node) == "identifier" {
            self.shared.push(self.text(node));
        }
    }

    /// Forgets the names bound to a table constructor that are shared where the table may
    /// change: it is then not the table it was built as.
    fn forget_shared_tables(&mut self) {
        for name in std::mem::take(&mut self.shared) {
            self.drop_loops_of(name);
            if matches!(self.names.get(name), Some(Slot::Expr(v)) if kind(*v) == "table_constructor")
                || matches!(self.names.get(name), Some(Slot::Grown(..)))
            {
                self.names.forget(name);
            }
        }
    }

    /// An assignment not followed: the name, or the table assigned into, changes.
    fn forget_target(&mut self, target: Node<'t>) {
        if let Some(name) = self.global_name(target) {
            return self.names.forget(&name);
        }
        if let Some(base) = by_field(target, "table") {
            // What is assigned into may be an item of a table a loop goes over.
            self.share(base);
            self.forget_target(base);
        }
    }

    fn forget_names(&mut self, node: Node<'t>) {
        for child in Self::named(node) {
            match kind(child) {
                "identifier" => {
                    let name = self.text(child);
                    self.tables.assigned.insert(name);
                    self.names.forget(name);
                }
                "variable_list" => self.forget_names(child),
                _ => {}
            }
        }
    }

    /// Visits every node, reading the calls' effects.
    fn walk(&mut self, root: Node<'t>) {
        super::tree::visit(root, |node, depth, at| self.visit(node, depth, at));
    }

    /// One node of the walk: its loop count kept, and its effect read on entering.
    fn visit(&mut self, node: Node<'t>, depth: usize, at: super::tree::Visit) -> bool {
        let is_loop = matches!(
            kind(node),
            "for_statement" | "while_statement" | "repeat_statement"
        );
        if at == super::tree::Visit::Leave {
            self.loops -= usize::from(is_loop);
            return false;
        }
        self.loops += usize::from(is_loop);
        if !self.cx.enter(depth, self.line(node)) {
            return false;
        }
        match kind(node) {
            "function_call" => {
                let choices = self.growth_choices(node);
                super::growths::each_way(self, &choices, |lua| lua.each_item(node, Self::call));
            }
            "field" => self.stored(node),
            // A module's function taken by a computed name, even where it is not called
            // (`__index = function(_, k) return os[k] end`), is unreadable (see `eval`).
            "bracket_index_expression"
                if by_field(node, "table")
                    .is_some_and(|t| matches!(kind(t), "identifier" | "dot_index_expression")) =>
            {
                self.eval(node, 0);
            }
            _ => {}
        }
        true
    }
}

/// The child of a node in a field (see [`super::tree::field`]).
pub(super) fn by_field<'t>(node: impl Borrow<Node<'t>>, name: &str) -> Option<Node<'t>> {
    super::tree::field(super::Lang::Lua, *node.borrow(), name)
}

/// The kind of a node (see [`super::tree::kind`]).
pub(super) fn kind<'t>(node: impl Borrow<Node<'t>>) -> &'static str {
    super::tree::kind(super::Lang::Lua, *node.borrow())
}
