//! A call's effect: the callee resolved to a qualified name (through every binding of a
//! name bound more than once, `.call`, `.apply` and `Reflect.apply`), and for the calls
//! the reader follows, what it does with its arguments: commands and argument vectors,
//! file calls as virtual commands; network calls are read in `network.rs`.

use super::{by_field, kind};
use tree_sitter::Node;

use super::modules::canonical;
use super::sinks::{BY_NAME, changes_files, runs_code};
use super::text::octal;
use super::values::Args;
use super::{Js, Obj};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::{Effect, Val};

impl<'a, 't> Js<'a, '_, 't> {
    /// The callee and arguments of a call or `new`, with `f.call(t, ...)`,
    /// `f.apply(t, [...])` and `Reflect.apply(f, t, [...])` seen through.
    pub(super) fn callee_and_args(&mut self, node: Node<'t>, depth: usize) -> Option<(Obj, Args)> {
        let function = by_field(node, "function").or_else(|| by_field(node, "constructor"))?;
        let mut callee = match kind(function) {
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
    /// The effect of one call or `new`, with the body of a function read at its calls;
    /// once per item when its arguments name a variable of a loop over a literal (`for
    /// (const d of ['dist', 'build']) fs.rmSync(d, {recursive: true})`, see [`rounds`]).
    ///
    /// [`rounds`]: super::rounds
    /// And once per set of growths of an array it names that may have run (see
    /// [`choices`](super::choices)).
    pub(super) fn call(&mut self, node: Node<'t>) {
        let outer_call = self.cx.enter_call(node.byte_range());
        let choices = self.growth_choices(node);
        self.each_choice(&choices, |js| match js.loop_over_literal(node) {
            None => {
                js.read_called_function(node);
                js.call_bound(node);
            }
            Some(rounds) => {
                for round in rounds {
                    let outer = js.items.len();
                    js.items.extend(round);
                    js.read_called_function(node);
                    js.call_bound(node);
                    js.items.truncate(outer);
                }
            }
        });
        self.cx.leave_call(outer_call);
    }

    /// [`Js::call`] with the loop variables as they are bound. When the callee is reached
    /// from a name bound more than once (`function f(cp) {}` beside `const cp =
    /// require(...)`), each binding is tried: a parameter or a second assignment must not
    /// hide the module.
    fn call_bound(&mut self, node: Node<'t>) {
        let mut root = by_field(node, "function").or_else(|| by_field(node, "constructor"));
        while let Some(n) = root {
            root = match kind(n) {
                "member_expression" | "subscript_expression" => by_field(n, "object"),
                "call_expression" => by_field(n, "function"),
                "parenthesized_expression" | "await_expression" => n.named_child(0),
                _ => break,
            };
        }
        let name = root
            .filter(|r| kind(r) == "identifier")
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
                .any(|a| matches!(a, Obj::Ref(q) if runs_code(&canonical(q)) || changes_files(&canonical(q))))
        {
            self.cx.unreadable(
                "the code passes a function that runs code or commands as a value",
                line,
            );
        }
        // `cp.execSync.bind(cp, 'rm -rf ~')`: the function is called later with these
        // arguments first, where the reader does not follow it.
        if let Obj::Ref(q) = &callee
            && let Some(f) = canonical(q).strip_suffix(".bind")
            && (args.items.len() > 1 || args.open)
            && (runs_code(f) || changes_files(f))
        {
            self.cx.unreadable(
                "the code binds arguments to a function that runs code or commands",
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
            // Starting processes without waiting for them, in a loop that never ends.
            ("child_process" | "?", "spawn" | "exec" | "execFile") if self.endless > 0 => {
                self.cx.unreadable(
                    "the code starts processes in an endless loop (a fork bomb)",
                    line,
                )
            }
            ("child_process", "exec" | "execSync") | ("?", "execSync") => {
                self.cx.found(Effect::Shell(args.val(0)), line)
            }
            ("child_process" | "?", "spawn" | "spawnSync" | "execFile" | "execFileSync") => {
                self.spawn(&args, line)
            }
            ("child_process" | "cluster", "fork") if self.loops > 0 => self
                .cx
                .unreadable("the code forks in a loop (a fork bomb)", line),
            ("cluster", "fork") => self.cx.forked(line),
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
            // `process.execve(file, [argv0, ...args], env)` replaces node with the program.
            ("process", "execve") => {
                let mut argv = vec![args.val(0)];
                argv.extend(a(1).items().into_iter().skip(1));
                self.cx.found(Effect::Exec(argv), line)
            }
            // A diagnostic report written to the file named (the report holds the
            // environment too).
            ("process.report", "writeReport") => match a(0) {
                Obj::Null => {}
                _ => self.cx.command("tee", vec![args.val(0)], line),
            },
            // Relative paths after it are in the new directory: read as the shell's `cd`.
            ("process", "chdir") | ("Deno", "chdir") => {
                self.cx.command("cd", vec![args.val(0)], line)
            }
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
            // A read-eval loop runs whatever its input brings (`input: res` of a download).
            ("repl", "start") => self
                .cx
                .unreadable("the code starts a REPL, which runs the code it reads", line),
            ("" | "?", "eval")
            // `Module.prototype._compile`, reached from any module object
            // (`new module.constructor()._compile(code)`).
            | (_, "_compile")
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
                self.cx.unreadable("the code calls native code directly", line)
            }
            ("ffi-napi" | "ffi" | "bun:ffi" | "koffi", _) => {
                self.cx.unreadable("the code calls native code directly", line)
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
            _ => self.request(&module, &f, &args, line),
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
            return self.request(module, f, args, line);
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
            "readFile" | "readTextFile" => self.cx.read_whole(path, line),
            "createReadStream" | "openAsBlob" => self.cx.command("cat", vec![path], line),
            // The text written, as far as known: a script run from the file later is read.
            "writeFile" | "writeTextFile" => {
                let text = args.val(1);
                self.cx.write(vec![path], text, line)
            }
            "appendFile" => {
                let text = args.val(1);
                self.cx.write(vec![Val::known("-a"), path], text, line)
            }
            "createWriteStream" | "create" => self.cx.command("tee", vec![path], line),
            "open" => {
                let flags = match args.get(1) {
                    Obj::Null => "r".to_owned(),
                    Obj::Dict(_) => "w".to_owned(),
                    other => other.val().text().map_or("r+".to_owned(), str::to_owned),
                };
                // Numeric flags (`1 | 64 | 512`, O_WRONLY|O_CREAT|O_TRUNC): the access mode is
                // the low two bits.
                let flags = match flags.parse::<u32>() {
                    Ok(n) => ["r", "w", "r+"]
                        .get((n & 3) as usize)
                        .unwrap_or(&"r+")
                        .to_string(),
                    Err(_) => flags,
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
            _ => self.request(module, f, args, line),
        }
    }

    fn file_method(&mut self, path: Val, method: &str, line: usize) {
        match method {
            "text" | "json" | "arrayBuffer" | "bytes" | "stream" => {
                self.cx.command("cat", vec![path], line)
            }
            "delete" | "unlink" => self.rm(&[], path, line),
            "write" | "writer" | "end" => self.cx.command("tee", vec![path], line),
            _ => {}
        }
    }

    /// `rm FLAGS PATH`.
    fn rm(&mut self, flags: &[&'static str], path: Val, line: usize) {
        let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
        argv.push(path);
        self.cx.command("rm", argv, line);
    }
}
