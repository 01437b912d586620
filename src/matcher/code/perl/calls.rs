//! A call's effect: a function (its name resolved through `CORE::` and the modules'
//! qualified names), and what it does with its arguments: commands run, files deleted,
//! moved, opened, addresses fetched, code run. Method calls are read in `methods.rs`.

use super::kind;
use tree_sitter::Node;

use super::values::is_separator;
use super::{Obj, Pl};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::{Effect, Val};

impl<'t> Pl<'_, '_, 't> {
    /// The effect of a function call; once per item when its arguments name the variable
    /// of a loop over a literal list (`for my $d (qw(build dist)) { rmtree $d }`), or a
    /// name assigned from it.
    pub(super) fn call(&mut self, node: Node<'t>) {
        let Some((name, items)) = self.loop_over_literal_in(node) else {
            return self.call_once(node);
        };
        for item in items {
            let outer = self.names.replace(&name, Some(Slot::Expr(item)));
            self.call_once(node);
            self.names.replace(&name, outer);
        }
    }

    /// A variable among `call`'s arguments (or in the value of one they name) bound to
    /// each item of a literal list, and those items.
    fn loop_over_literal_in(&self, call: Node<'t>) -> Option<(String, Vec<Node<'t>>)> {
        // A call's arguments are looked at once per call: bounded, not their square.
        const MOST_NODES: usize = 512;
        // Its arguments as the call reads them: without parentheses, those after the
        // first are siblings of the call in the tree (`system "rm", "-rf", $d`).
        let mut search = self.arg_nodes(call);
        let mut nodes = 0;
        let mut followed = 0;
        while let Some(root) = search.pop() {
            let mut found = None;
            let mut assigned = Vec::new();
            super::super::tree::visit(root, |node, _, at| {
                if found.is_some() || at == super::super::tree::Visit::Leave || nodes >= MOST_NODES
                {
                    return false;
                }
                nodes += 1;
                if kind(node) == "scalar_variable" {
                    let name = self.text(node).replace(['{', '}', ' '], "");
                    match self.names.get(&name) {
                        Some(Slot::Each(list)) => {
                            if let Some(items) = super::literal_items(*list) {
                                found = Some((name, items));
                            }
                        }
                        Some(Slot::Expr(value)) => assigned.push(*value),
                        _ => {}
                    }
                }
                true
            });
            if found.is_some() {
                return found;
            }
            if followed < 4 {
                followed += assigned.len();
                search.extend(assigned);
            }
        }
        None
    }

    /// The effect of one function call.
    fn call_once(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(name) = self.callee(node) else {
            return;
        };
        // A sub the code defines under a built-in's name is the code's own (its body is
        // walked like the rest).
        let name = match name.as_str() {
            n if self.is_sub(n) => return,
            "File::Path::rmtree" | "File::Path::remove_tree" => "rmtree",
            "File::Copy::move" | "File::Copy::mv" | "mv" => "move",
            "File::Copy::copy" | "File::Copy::cp" | "cp" => "copy",
            "LWP::Simple::get" | "LWP::Simple::head" | "LWP::Simple::getprint" => "get",
            "LWP::Simple::getstore" | "LWP::Simple::mirror" => "getstore",
            "IPC::Open3::open3" => "open3",
            "IPC::Open2::open2" => "open2",
            n => n.strip_prefix("Benchmark::").unwrap_or(n),
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
                // `system { $cmd[0] } @cmd`: the list's first item, run with the list as
                // its words (never through the shell).
                Some(prog)
                    if let ([list], Some(first)) = (args.as_slice(), prog.named_child(0))
                        && let Some(name) = self.text_in(*list, text).strip_prefix('@')
                        && self.text_in(first, text).replace(' ', "") == format!("${name}[0]") =>
                {
                    self.cx.found(Effect::Exec(flat(0)), line);
                }
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
            // IPC::Cmd's `run(command => CMD, ...)` (also imported by `-MIPC::Cmd=run`):
            // a string runs through the shell, an array reference as its words.
            "IPC::Cmd::run" | "IPC::Cmd::run_forked" | "run" | "run_forked"
                if args.first().is_some_and(|a| {
                    self.text_in(*a, text).trim_matches(['\'', '"']) == "command"
                }) =>
            {
                if let Some(cmd) = args.get(1) {
                    match self.array_ref(*cmd, text) {
                        Some(argv) => self.run(argv, line),
                        None => self.cx.found(Effect::Shell(k(1)), line),
                    }
                }
            }
            // IPC::Run's `run [...], ...`/`start`: the first array is the command.
            "IPC::Run::run" | "IPC::Run::start" | "IPC::Run::harness" => {
                let argv = args
                    .first()
                    .and_then(|cmd| self.array_ref(*cmd, text))
                    .unwrap_or_else(|| flat(0));
                self.run(argv, line)
            }
            // Every account with its password field, which for root is the shadow hash.
            "getpwent" => self
                .cx
                .command("cat", vec![Val::known("/etc/shadow")], line),
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
            // Relative paths after it are in the new directory: read as the shell's `cd`.
            "chdir" => self.cx.command("cd", vec![k(0)], line),
            "truncate" => self
                .cx
                .command("truncate", vec![Val::known("-s"), k(1), k(0)], line),
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
            // Benchmark compiles code given as a string (`timethis(1, $code)`).
            "timethis" | "timeit" | "countit" => match vals.get(1) {
                Some(Obj::Code) | None => {}
                Some(_) => self.cx.eval(k(1), line),
            },
            // `timethese(N, { name => CODE, ... })`: each string in the hash is code (the
            // names read as code run nothing).
            "timethese" | "cmpthese" if args.len() > 1 => {
                let mut items = vec![args[1]];
                while let Some(item) = items.pop() {
                    match kind(item) {
                        "hash_ref" | "list_expression" | "anonymous_hash_expression" => {
                            let mut c = item.walk();
                            items.extend(item.named_children(&mut c));
                        }
                        k if k.contains("bareword") || k.ends_with("comma") => {}
                        _ => match self.eval(item, text, 0) {
                            Obj::Code => {}
                            other => self.cx.eval(other.val(), line),
                        },
                    }
                }
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
                    .unreadable("the code runs a file whose name is computed", line),
            },
            "fork" if self.loops > 0 || self.jumps => self
                .cx
                .unreadable("the code forks in a loop (a fork bomb)", line),
            "fork" => self.cx.forked(line),
            "syscall" | "DynaLoader::dl_load_file" | "DynaLoader::dl_install_xsub" => self
                .cx
                .unreadable("the code calls native code directly", line),
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

    /// The items of an array reference written out (`[qw(sh -c), $x]`).
    fn array_ref(&mut self, node: Node<'t>, text: &str) -> Option<Vec<Val>> {
        if !self.text_in(node, text).trim_start().starts_with('[') {
            return None;
        }
        let mut c = node.walk();
        let items: Vec<Node<'t>> = node
            .named_children(&mut c)
            .filter(|n| !is_separator(*n))
            .collect();
        Some(
            items
                .into_iter()
                .flat_map(|n| self.eval(n, text, 0).list())
                .collect(),
        )
    }

    /// `rm FLAGS PATHS`.
    pub(super) fn rm(&mut self, flags: &[&'static str], paths: Vec<Val>, line: usize) {
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
}

/// `open`'s two-argument spec split into its mode and path (`>>log` is `>>` and `log`).
fn split_mode(spec: &str) -> (&str, &str) {
    let path = spec.trim_start_matches(['<', '>', '+', '&', '=']);
    let mode = spec.get(..spec.len() - path.len()).unwrap_or_default();
    (mode, path.trim())
}
