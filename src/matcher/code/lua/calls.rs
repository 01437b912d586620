//! A call's effect: the callee resolved to a qualified name (through aliases, `_G`,
//! `require` and `pcall`) and, for the calls the reader follows, what it does with its
//! arguments.

use super::{by_field, kind};
use tree_sitter::Node;

use super::values::{canonical, get};
use super::{Lua, NATIVE, Obj};
use crate::matcher::code::{Effect, Val};

impl<'t> Lua<'_, '_, 't> {
    pub(super) fn call(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(callee) = by_field(node, "name") else {
            return;
        };
        if kind(callee) == "method_index_expression" {
            let (Some(object), Some(method)) =
                (by_field(callee, "table"), by_field(callee, "method"))
            else {
                return;
            };
            let method = self.text(method);
            let receiver = self.eval(object, 0);
            let args = Self::arg_nodes(node);
            // `sock:connect(host, port)` on a socket, or on a receiver not followed.
            if matches!(
                receiver,
                Obj::Socket | Obj::Val(Val::Unknown | Val::Prefix(_) | Val::NameIn(_))
            ) && matches!(method, "connect" | "setpeername")
                && args.len() == 2
            {
                let args = self.args(node);
                let url = tcp(get(&args, 0), get(&args, 1));
                self.cx.command("curl", vec![url], line);
            }
            // `f:read("a")` reads the file to its end (`"*a"` before Lua 5.3).
            if let Obj::File(path) = receiver
                && method == "read"
                && args.len() == 1
                && self
                    .eval(args[0], 0)
                    .val()
                    .text()
                    .is_some_and(|f| f.trim_start_matches('*').starts_with('a'))
            {
                self.cx.ends(&path, line);
            }
            return;
        }
        let callee = self.eval(callee, 0);
        // A function with effects passed as an argument is called where the reader does
        // not follow (`string.gsub(s, p, os.execute)`, `xpcall(error, os.execute, cmd)`),
        // but for the function `pcall` and `xpcall` call, read below.
        let protected =
            matches!(&callee, Obj::Ref(q) if matches!(canonical(q).as_str(), "pcall" | "xpcall"));
        for (n, arg) in Self::arg_nodes(node).into_iter().enumerate() {
            if !(protected && n == 0) {
                self.passed(arg);
            }
        }
        if let Obj::Ref(q) = callee {
            let q = canonical(&q);
            if is_sink(&q) {
                let args = self.args(node);
                let count = Self::arg_nodes(node).len();
                // A file compiled and not run is only read (see `compiled`).
                let q = match q.as_str() {
                    "loadfile" if self.compiled_only(node) => "io.lines",
                    // Run in an environment of constants, a file not known runs nothing
                    // the reader could see. Lua 5.1 and LuaJIT ignore the environment and
                    // run it as `lua FILE` would; a file the line names is still read as
                    // code, as it is run there.
                    "loadfile"
                        if self.sandboxed(node)
                            && !matches!(args.first(), Some(Obj::Val(Val::Known(_)))) =>
                    {
                        "io.lines"
                    }
                    q => q,
                };
                self.apply(q, &args, count, line);
            }
        }
    }

    /// A table field holding a function with effects (`{os.execute}`): it is called where
    /// the reader does not follow, with arguments it does not know.
    pub(super) fn stored(&mut self, field: Node<'t>) {
        if let Some(value) = by_field(field, "value") {
            self.passed(value);
        }
    }

    /// `value`, a function with effects given as a value, is unreadable.
    fn passed(&mut self, value: Node<'t>) {
        if matches!(kind(value), "dot_index_expression" | "identifier")
            && let Obj::Ref(q) = self.eval(value, 0)
            && has_effects(&canonical(&q))
        {
            self.cx.unreadable(
                "the code passes a function that runs commands or changes files as a value, to be called where it cannot be followed",
                self.line(value),
            );
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
                Some(Obj::Val(Val::Known(p))) => {
                    self.cx.command("cat", vec![Val::known(p)], line);
                    // `dofile` runs the file's Lua (`loadfile` returns it to be run).
                    if q == "dofile" || q == "loadfile" {
                        let run = vec![Val::known("lua"), Val::known(p)];
                        self.cx.found(Effect::Load(run), line);
                    }
                }
                Some(Obj::Val(_)) if q == "dofile" || q == "loadfile" => self.cx.unreadable(
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
            "require" if matches!(arg(0), Val::Unknown | Val::Prefix(_) | Val::NameIn(_)) => {
                self.cx.unreadable(
                    "the code loads a module whose name is computed at run time",
                    line,
                );
            }
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
                if q == "setfenv"
                    || (globals
                        && (q == "setmetatable"
                            || matches!(arg(1), Val::Unknown | Val::Prefix(_) | Val::NameIn(_))))
                {
                    self.cx
                        .unreadable("the code changes how globals are looked up", line);
                }
            }
            "package.loadlib" | "ffi.load" | "ffi.cdef" => self.cx.unreadable(NATIVE, line),
            // A function's variables, hooks or metatables changed behind its back
            // (`debug.setupvalue(f, 1, os.execute)`).
            _ if q.starts_with("debug.set") || q == "debug.upvaluejoin" => self.cx.unreadable(
                "the code changes a function's variables or hooks through the debug library",
                line,
            ),
            _ if q.starts_with("ffi.C.") => self.cx.unreadable(NATIVE, line),
            "posix.fork" | "posix.unistd.fork" if self.loops > 0 => self
                .cx
                .unreadable("the code forks in a loop (a fork bomb)", line),
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
}

/// The functions [`is_sink`] lists that act themselves, rather than call or load others.
fn has_effects(q: &str) -> bool {
    is_sink(q)
        && !matches!(
            q,
            "pcall" | "xpcall" | "require" | "rawset" | "setmetatable" | "setfenv"
        )
}

/// The calls [`Lua::apply`] reads.
pub(super) fn is_sink(q: &str) -> bool {
    q.starts_with("ffi.")
        || q.starts_with("debug.set")
        || q == "debug.upvaluejoin"
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
