//! A call's effect: the function resolved to its name (written, given as a string, reflected
//! or passed as a callback), looked up in the table of [`sinks`](super::sinks), and its
//! arguments turned into the effect's values.

use super::{by_field, kind};
use tree_sitter::Node;

use super::files::{Res, resource};
use super::sinks::{Sink, function_name, sink};
use super::text::octal;
use super::values::{Args, spread};
use super::{COMPUTED_NAME, Obj, Php};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};
use crate::matcher::code::{Effect, Val};

impl<'t> Php<'_, '_, 't> {
    /// Reads `call` with `read`; once per item when its arguments name the variable of a
    /// `foreach` over a literal array of a few items (`foreach ([$home . '/.ssh/id_rsa',
    /// ...] as $f) file_get_contents($f);`).
    pub(super) fn each_item(&mut self, call: Node<'t>, mut read: impl FnMut(&mut Self, Node<'t>)) {
        let Some((name, items)) = self.loop_over_literal(call) else {
            return read(self, call);
        };
        for item in items {
            let outer = self.names.replace(&name, Some(Slot::Expr(item)));
            read(self, call);
            self.names.replace(&name, outer);
        }
    }

    /// The first variable in `call`'s arguments that a `foreach` binds to each value of a
    /// literal array of at most 16 items, none unpacked, and the values.
    fn loop_over_literal(&self, call: Node<'t>) -> Option<(String, Vec<Node<'t>>)> {
        const MOST_ITEMS: usize = 16;
        let arguments = by_field(call, "arguments")?;
        let mut found = None;
        visit(arguments, |node, _, at| {
            if found.is_some() || at == Visit::Leave {
                return false;
            }
            if let Some(var) = self.var(node)
                && let name = format!("${var}")
                && let Some(Slot::Each(iterable)) = self.names.get(&name)
                && let Some(array) = self.array_literal(*iterable)
            {
                let mut c = array.walk();
                let items: Option<Vec<Node<'t>>> = array
                    .named_children(&mut c)
                    .map(|item| {
                        // `'k' => v` gives `v`; `...$more` is not known.
                        let last = item.named_child_count().checked_sub(1)?;
                        let value = item.named_child(u32::try_from(last).ok()?)?;
                        (kind(value) != "variadic_unpacking").then_some(value)
                    })
                    .collect();
                if let Some(items) = items.filter(|i| !i.is_empty() && i.len() <= MOST_ITEMS) {
                    found = Some((name, items));
                }
            }
            true
        });
        found
    }

    /// The array literal `node` is, or is the variable of: bound once, and never changed
    /// (PHP copies an array on assignment, so only the variable itself can change it, and
    /// the pre-pass forgets a variable assigned into, passed by reference or referenced).
    fn array_literal(&self, node: Node<'t>) -> Option<Node<'t>> {
        let array = match self.var(node) {
            Some(var) if !self.wild => match self.names.get(&format!("${var}")) {
                Some(Slot::Expr(value)) => *value,
                _ => return None,
            },
            _ => node,
        };
        (kind(array) == "array_creation_expression").then_some(array)
    }

    /// Whether `node` is `new C(...)` of a class `C` the code declares, or a variable
    /// bound once to one.
    fn own_object(&self, node: Node<'t>) -> bool {
        let mut node = node;
        while kind(node) == "parenthesized_expression" {
            match node.named_child(0) {
                Some(inner) => node = inner,
                None => return false,
            }
        }
        if let Some(var) = self.var(node) {
            return !self.wild
                && matches!(self.names.get(&format!("${var}")), Some(Slot::Expr(v)) if kind(*v) == "object_creation_expression" && self.own_object(*v));
        }
        kind(node) == "object_creation_expression"
            && node.named_child(0).is_some_and(|class| {
                matches!(kind(class), "name" | "qualified_name")
                    && self.classes.contains(
                        &self
                            .text(class)
                            .trim_start_matches('\\')
                            .to_ascii_lowercase(),
                    )
            })
    }

    pub(super) fn call(&mut self, node: Node<'t>) {
        self.read_called_function(node);
        let line = self.line(node);
        let Some(f) = by_field(node, "function") else {
            return;
        };
        // `(new Task)()` calls the `__invoke` of a class the code declares: its body is
        // read where it is written.
        if self.own_object(f) {
            return;
        }
        let name = match kind(f) {
            "name" | "qualified_name" => function_name(self.text(f)),
            _ => match self.eval(f, 0) {
                Obj::Val(Val::Known(s)) => function_name(&s),
                Obj::Func(n) => n,
                Obj::Closure | Obj::Array(_) | Obj::Handle(_) => return,
                Obj::Val(_) | Obj::Each(_) | Obj::Quoted => {
                    return self.cx.unreadable(COMPUTED_NAME, line);
                }
            },
        };
        if sink(&name).is_none() {
            return;
        }
        let args = self.args(node);
        self.apply(&name, &args, line);
    }

    /// `$o->m(...)`: a computed method name is not followed; a reflected function is.
    pub(super) fn method(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let method = match by_field(node, "name") {
            Some(n) if kind(n) == "name" => self.text(n).to_ascii_lowercase(),
            Some(n) => match self.eval(n, 0).val() {
                Val::Known(m) => m.to_ascii_lowercase(),
                _ => {
                    return self.cx.unreadable(
                        "the code calls a method whose name is computed at run time",
                        line,
                    );
                }
            },
            None => return,
        };
        let Some(object) = by_field(node, "object") else {
            return;
        };
        // `$zip->extractTo($dir)` (ZipArchive, PharData): what the archive holds lands in
        // the directory, as `tar -x -C DIR`.
        if method == "extractto" {
            let args = self.args(node);
            let argv = vec![Val::known("-x"), Val::known("-C"), args.val(0)];
            self.cx.command("tar", argv, line);
            return;
        }
        if let Obj::Func(f) = self.eval(object, 0) {
            let args = self.args(node);
            match method.as_str() {
                "invoke" | "__invoke" | "call" => self.apply(&f, &args, line),
                "invokeargs" => {
                    let args = spread(args.get(0));
                    self.apply(&f, &args, line);
                }
                _ => {}
            }
        }
    }

    pub(super) fn static_call(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let scope = by_field(node, "scope").map(|s| self.text(s));
        let name = by_field(node, "name");
        if name.is_some_and(|n| kind(n) != "name") {
            return self.cx.unreadable(
                "the code calls a method whose name is computed at run time",
                line,
            );
        }
        let name = name
            .map(|n| self.text(n).to_ascii_lowercase())
            .unwrap_or_default();
        if scope.is_some_and(|s| function_name(s) == "ffi") && name != "string" {
            self.cx
                .unreadable("the code calls native code directly", line);
        }
    }

    /// Calls the function a callback names, with `args`.
    fn callback(&mut self, cb: Obj, args: &Args<'t>, line: usize) {
        match cb {
            Obj::Val(Val::Known(s)) if s.is_empty() || s.contains("::") => {}
            Obj::Val(Val::Known(s)) => self.apply(&function_name(&s), args, line),
            Obj::Func(f) => self.apply(&f, args, line),
            Obj::Closure | Obj::Array(_) | Obj::Handle(_) => {}
            Obj::Val(_) | Obj::Each(_) | Obj::Quoted => self.cx.unreadable(COMPUTED_NAME, line),
        }
    }

    /// The effect of calling function `name` (lower case, no namespace).
    fn apply(&mut self, name: &str, a: &Args<'t>, line: usize) {
        if self.calls > 8 {
            return self.cx.unreadable(COMPUTED_NAME, line);
        }
        self.calls += 1;
        self.apply_inner(name, a, line);
        self.calls -= 1;
    }

    fn apply_inner(&mut self, name: &str, a: &Args<'t>, line: usize) {
        let rest = |from: usize| Args {
            nodes: Vec::new(),
            vals: a.vals.iter().skip(from).cloned().collect(),
        };
        let Some(sink) = sink(name) else { return };
        match sink {
            Sink::Shell => self.cx.found(Effect::Shell(a.val(0)), line),
            Sink::ProcOpen => match a.get(0) {
                Obj::Array(argv) => self.cx.found(Effect::Exec(argv), line),
                other => self.cx.found(Effect::Shell(other.val()), line),
            },
            Sink::PcntlExec => {
                let mut argv = vec![a.val(0)];
                match a.get(1) {
                    Obj::Array(items) => argv.extend(items),
                    _ if a.nodes.len() < 2 && a.vals.len() == a.nodes.len() => {}
                    _ => argv.push(Val::Unknown),
                }
                self.cx.found(Effect::Exec(argv), line);
            }
            Sink::Eval(n) => self.cx.eval(a.val(n), line),
            // PHP 7 ran a string given to `assert`; a condition is not code.
            Sink::Assert => match a.val(0) {
                v @ (Val::Known(_) | Val::Fetched) => self.cx.eval(expression(v), line),
                Val::Unknown | Val::Prefix(_) | Val::NameIn(_) => {}
            },
            Sink::PregReplace => {
                let patterns = match a.get(0) {
                    Obj::Array(p) => p,
                    other => vec![other.val()],
                };
                if patterns.iter().any(|p| p.text().is_some_and(evaluates)) {
                    self.cx.eval(expression(a.val(1)), line);
                }
            }
            Sink::Command(program, flags, operands) => {
                let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
                argv.extend(operands.iter().map(|n| a.val(*n)));
                self.cx.command(program, argv, line);
            }
            Sink::ErrorLog => match a.val(1) {
                Val::Known(t) if t != "3" => {}
                _ if a.count() < 3 => {}
                _ => self
                    .cx
                    .command("tee", vec![Val::known("-a"), a.val(2)], line),
            },
            Sink::CopyFile => match resource(a.val(0)) {
                Res::Path(from) => self.cx.command("cp", vec![from, a.val(1)], line),
                from => {
                    self.read(from, line);
                    self.write(resource(a.val(1)), line);
                }
            },
            Sink::Kill => {
                let signal = match a.val(1) {
                    Val::Known(s) => Val::Known(format!("-{s}")),
                    other => other,
                };
                self.cx.command("kill", vec![signal, a.val(0)], line);
            }
            Sink::Chmod => self
                .cx
                .command("chmod", vec![octal(a.val(1)), a.val(0)], line),
            Sink::Chown => self.cx.command("chown", vec![Val::Unknown, a.val(0)], line),
            Sink::Write => match resource(a.val(0)) {
                // `file_put_contents(PATH, TEXT)`; with `FILE_APPEND` it adds to the file.
                Res::Path(p) if a.count() == 2 => self.cx.write(vec![p], a.val(1), line),
                res => self.write(res, line),
            },
            Sink::Fopen => self.open(resource(a.val(0)), a.val(1), line),
            // A device that never ends read whole (`file_get_contents('/dev/urandom')`,
            // with no length): memory runs out.
            Sink::Read if matches!(name, "file_get_contents" | "file") && a.count() < 5 => {
                match resource(a.val(0)) {
                    Res::Path(p) => self.cx.read_whole(p, line),
                    res => self.read(res, line),
                }
            }
            Sink::Read => self.read(resource(a.val(0)), line),
            // A stream copied to another to its end (no length): from a device that never
            // ends it is `cp /dev/zero FILE`, which fills the disk.
            Sink::StreamCopy if a.count() < 3 => {
                if let Obj::Handle(from) = a.get(0)
                    && from.is_endless_device()
                {
                    let to = match a.get(1) {
                        Obj::Handle(to) => to,
                        _ => Val::Unknown,
                    };
                    self.cx.command("cp", vec![from, to], line);
                }
            }
            Sink::CurlInit if a.count() > 0 => self.cx.command("curl", vec![a.val(0)], line),
            Sink::CurlSetopt
                if a.nodes
                    .get(1)
                    .is_some_and(|o| self.text(*o).ends_with("CURLOPT_URL")) =>
            {
                self.cx.command("curl", vec![a.val(2)], line);
            }
            Sink::CurlSetoptArray => self.curl_options(a, line),
            Sink::Socket { host, port } => {
                let url = tcp(a.val(host), a.val(port));
                self.cx.command("curl", vec![url], line);
            }
            Sink::Connect => self.cx.command("curl", vec![a.val(0)], line),
            Sink::Fork if self.loops > 0 || self.jumps => self
                .cx
                .unreadable("the code forks in a loop (a fork bomb)", line),
            // A fork in a function that calls itself is a fork bomb too (see `endless`).
            Sink::Fork => self.cx.forked(line),
            Sink::Native => self
                .cx
                .unreadable("the code calls native code directly", line),
            // `LD_PRELOAD` loads a library into the next program run (`mail()`).
            Sink::Putenv if a.val(0).text().is_none_or(|v| v.starts_with("LD_")) => {
                self.cx
                    .unreadable("the code calls native code directly", line);
            }
            Sink::CallUserFunc => self.callback(a.get(0), &rest(1), line),
            Sink::CallUserFuncArray => self.callback(a.get(0), &spread(a.get(1)), line),
            Sink::ArrayMap => match a.get(1) {
                Obj::Array(items) if !items.is_empty() => {
                    for item in items {
                        self.callback(a.get(0), &Args::values(vec![item]), line);
                    }
                }
                // `array_map('unlink', glob('cache/*'))`: each path the pattern matches.
                Obj::Each(element) => {
                    self.callback(a.get(0), &Args::values(vec![element.val()]), line);
                }
                _ => self.callback(a.get(0), &Args::values(vec![Val::Unknown]), line),
            },
            Sink::Callback(n) if a.count() > n => {
                self.callback(a.get(n), &Args::values(vec![Val::Unknown]), line);
            }
            _ => {}
        }
    }

    /// `curl_setopt_array($c, [CURLOPT_URL => $url])`.
    fn curl_options(&mut self, a: &Args<'t>, line: usize) {
        let Some(array) = a.nodes.get(1).and_then(|n| n.named_child(0)) else {
            return;
        };
        if kind(array) != "array_creation_expression" {
            return;
        }
        let mut c = array.walk();
        let items: Vec<Node<'t>> = array.named_children(&mut c).collect();
        for item in items {
            if let (Some(k), Some(v)) = (item.named_child(0), item.named_child(1))
                && self.text(k).ends_with("CURLOPT_URL")
            {
                let url = self.eval(v, 0).val();
                self.cx.command("curl", vec![url], line);
            }
        }
    }
}

/// `tcp://host:port` for a socket opened to `host` (which may carry its own scheme).
fn tcp(host: Val, port: Val) -> Val {
    match (host, port) {
        (Val::Known(h), Val::Known(p)) if h.contains("://") => Val::Known(format!("{h}:{p}")),
        (Val::Known(h), Val::Known(p)) => Val::Known(format!("tcp://{h}:{p}")),
        (Val::Known(h), _) => Val::Known(format!("tcp://{h}")),
        _ => Val::Unknown,
    }
}

/// Code that `assert` and `preg_replace` run as an expression, as a statement.
fn expression(code: Val) -> Val {
    match code {
        Val::Known(c) => Val::Known(format!("return {c};")),
        other => other,
    }
}

/// A pattern whose `e` modifier makes `preg_replace` run the replacement as code.
fn evaluates(pattern: &str) -> bool {
    let p = pattern.trim_start();
    let Some(open) = p.chars().next() else {
        return false;
    };
    let close = match open {
        '(' => ')',
        '{' => '}',
        '[' => ']',
        '<' => '>',
        c => c,
    };
    p.get(open.len_utf8()..)
        .and_then(|body| body.rfind(close).map(|at| &body[at..]))
        .is_some_and(|modifiers| modifiers.contains('e'))
}
