//! A call's effect: the method resolved to a qualified name (through `send`, method
//! objects, aliases, `include`d modules and constants), and for the calls the reader
//! follows, what it does with its arguments: commands run, files deleted, moved, changed,
//! read or written as virtual commands, network calls (their address is found in
//! `network.rs`), code run, and what cannot be read.

use tree_sitter::Node;

use super::sinks::{BY_NAME, KERNEL, canonical, is_module_call, is_network, listed};
use super::text::{erb_code, octal};
use super::values::Args;
use super::{Obj, Rb, by_field, kind};
use crate::matcher::code::tree::MAX_NESTING;
use crate::matcher::code::{Effect, Val};

impl<'t> Rb<'_, '_, 't> {
    /// The effect of one call.
    pub(super) fn call(&mut self, node: Node<'t>) {
        let line = self.line(node);
        // `m.()` calls `m`.
        let name = by_field(node, "method").map_or("call", |m| self.text(m));
        let receiver = by_field(node, "receiver").map(|r| self.eval(r, 0));
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
            self.cx
                .unreadable("the code nests too deeply to read", line);
            return;
        }
        match name {
            "send" | "__send__" | "public_send" => {
                match self.arg(args, 0).val() {
                    Val::Known(m) => {
                        self.invoke(receiver, &m, &args.skip(1), line, true, depth + 1)
                    }
                    _ => self.cx.unreadable(COMPUTED, line),
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
                    self.cx.unreadable(
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
            // A request of a `Net::HTTP.new(host, port)` object: to its address and the path.
            Some(Obj::Addr(a))
                if matches!(name, "get" | "post" | "put" | "patch" | "delete" | "head")
                    && a.text().is_some_and(|t| t.starts_with("http")) =>
            {
                let url = a.concat(self.arg(args, 0).val());
                let method = Val::Known(name.to_ascii_uppercase());
                self.cx
                    .command("curl", vec![Val::known("-X"), method, url], line);
            }
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

    /// The file whose text `node` reads whole: `File.read(PATH)` (`IO.read`, `binread`)
    /// or `Pathname(PATH).read`.
    fn file_read(&mut self, node: Node<'t>) -> Option<Val> {
        let method = by_field(node, "method").filter(|_| kind(node) == "call")?;
        if !matches!(self.text(method), "read" | "binread") {
            return None;
        }
        let args = Args::of(node);
        match by_field(node, "receiver").map(|r| self.eval(r, 0))? {
            Obj::Const(c) if matches!(c.as_str(), "File" | "IO") && args.pos.len() == 1 => {
                Some(self.arg(&args, 0).val())
            }
            Obj::Path(p) if args.pos.is_empty() => Some(p),
            _ => None,
        }
    }

    /// The qualified name of method `name` of `receiver` (`Kernel.system`, `FileUtils.rm_rf`,
    /// `?.popen` when the receiver is not followed).
    pub(super) fn qualify(&self, receiver: Option<&Obj>, name: &str, sent: bool) -> Option<String> {
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
            Some(_) if BY_NAME.contains(&name) => Some(format!("?.{name}")),
            Some(_) => None,
        }
    }

    /// The effect of calling `q`.
    pub(super) fn sink(&mut self, q: &str, args: &Args<'t>, line: usize) {
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
            // Rake's `sh` (with `-rrake`): one string is a shell line, more are an argument
            // vector, as `system` takes them.
            "Kernel.sh" | "FileUtils.sh" | "Rake.sh" => {
                let items = self.command_items(args);
                self.run(items, line);
            }
            "Kernel.`" => {
                let cmd = k(self, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            // A stream reopened onto a file (`$stderr.reopen(rc, "a")`): what it writes goes
            // there; a standard stream is opened to write when no mode is given.
            "?.reopen" if !args.pos.is_empty() => {
                let path = k(self, 0);
                let mode = match args.pos.get(1) {
                    Some(_) => k(self, 1),
                    None => Val::known("w"),
                };
                self.open(path, mode, line);
            }
            "Kernel.open" | "URI.open" | "IO.read" | "IO.readlines" | "IO.foreach"
            | "IO.binread" | "IO.write" | "IO.binwrite" | "OpenURI.open_uri" => {
                self.open_like(q, args, line)
            }
            // A local file sent to an FTP server (`ftp.putbinaryfile(local, remote)`).
            "?.putbinaryfile" | "?.puttextfile" => {
                let path = k(self, 0);
                self.cx.command("cat", vec![path], line);
            }
            "File.read" | "File.readlines" | "File.foreach" | "File.binread" | "File.open"
            | "File.new" | "IO.sysopen" => {
                let path = k(self, 0);
                // Read to its end when no length is given.
                if matches!(q, "File.read" | "File.binread" | "File.readlines")
                    && args.pos.len() < 2
                {
                    self.cx.ends(&path, line);
                }
                let mode = match args.pos.get(1) {
                    Some(_) => k(self, 1),
                    None => args.keyword(self, "mode").map_or(Val::known("r"), Obj::val),
                };
                self.open(path, mode, line);
            }
            // Parsers that open the file themselves.
            "YAML.load_file"
            | "YAML.safe_load_file"
            | "Psych.load_file"
            | "JSON.load_file"
            | "CSV.read"
            | "CSV.foreach" => {
                let path = k(self, 0);
                self.cx.command("cat", vec![path], line);
            }
            // The text written, as far as known: a script run from the file later is read.
            "File.write" | "File.binwrite" => {
                let path = k(self, 0);
                let text = k(self, 1);
                self.cx.write(vec![path], text, line)
            }
            // A logger given a path appends its messages to that file.
            // A logger given a path appends its messages to that file (not one given an
            // open stream, `Logger.new($stdout)`).
            "Logger.new" | "Logger::LogDevice.new" => {
                let stream = args
                    .pos
                    .first()
                    .is_some_and(|n| matches!(kind(*n), "global_variable" | "constant"));
                if !stream {
                    let path = k(self, 0);
                    self.cx.command("tee", vec![Val::known("-a"), path], line);
                }
            }
            "FileUtils.touch" => {
                let paths = self.list_arg(args, 0);
                self.each("touch", &[], paths, line)
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
            // Relative paths after it are in the new directory: read as the shell's `cd`.
            "Dir.chdir" | "FileUtils.cd" | "FileUtils.chdir" => {
                let dir = k(self, 0);
                self.cx.command("cd", vec![dir], line)
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
            // `eval(File.read("x.rb"))` runs that file's code, as `ruby x.rb` does, and an
            // ERB template read from a file runs the code in it, as `erb x.erb` does (a
            // file the line wrote is read there).
            _ if matches!(q, "Kernel.eval" | "ERB.new")
                && let Some(file) = args.pos.first().and_then(|a| self.file_read(*a)) =>
            {
                let program = if q == "ERB.new" { "erb" } else { "ruby" };
                self.cx.command(program, vec![file], line);
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
                .unreadable("the code forks in a loop (a fork bomb)", line),
            // A thread of the program's own: a bomb in code that does not end.
            "Thread.new" | "Thread.start" | "Thread.fork" => self.cx.forked(line),
            "Kernel.require" | "Kernel.require_relative" | "Kernel.load"
                if k(self, 0).text().is_none() =>
            {
                self.cx.unreadable(
                    "the code loads a library whose name is computed at run time",
                    line,
                )
            }
            // A file by its path is Ruby that runs: read as `ruby FILE` reads it. A bare
            // name (`require "json"`) is a library.
            "Kernel.require" | "Kernel.require_relative" | "Kernel.load" => {
                if let Some(path) = k(self, 0).text().map(str::to_owned) {
                    let relative = q.ends_with("require_relative");
                    if relative || path.starts_with(['.', '/', '~']) || q.ends_with("load") {
                        let file = match path.ends_with(".rb") || q.ends_with("load") {
                            true => path,
                            false => format!("{path}.rb"),
                        };
                        let run = vec![Val::known("ruby"), Val::Known(file)];
                        self.cx.found(Effect::Load(run), line);
                    }
                }
            }
            // `autoload :Name, PATH` loads the file the first time `Name` is used.
            "Kernel.autoload" | "Module.autoload" => match k(self, 1).text() {
                Some(path) => {
                    let run = vec![Val::known("ruby"), Val::known(path)];
                    self.cx.found(Effect::Load(run), line);
                }
                None => self.cx.unreadable(
                    "the code loads a library whose name is computed at run time",
                    line,
                ),
            },
            "Marshal.load"
            | "Marshal.restore"
            | "YAML.unsafe_load"
            | "Psych.unsafe_load"
            | "RubyVM::InstructionSequence.load_from_binary" => self.cx.unreadable(
                "the code loads serialised objects, which can run any code",
                line,
            ),
            "Kernel.syscall" => self
                .cx
                .unreadable("the code calls native code directly", line),
            _ if ["Fiddle", "FFI", "DL"]
                .iter()
                .any(|m| q.strip_prefix(m).is_some_and(|r| r.starts_with(['.', ':']))) =>
            {
                self.cx
                    .unreadable("the code calls native code directly", line)
            }
            "Kernel.extend" | "Kernel.include" if matches!(self.arg(args, 0), Obj::Const(c) if c.starts_with("FFI")) => {
                self.cx
                    .unreadable("the code calls native code directly", line)
            }
            _ if is_network(q) => {
                let url = self.url_of(q, args);
                self.cx.command("curl", vec![url], line);
            }
            _ => {}
        }
    }
}
