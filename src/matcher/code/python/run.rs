//! What each kind of sink does when called: the one place a sink and its arguments become
//! the commands, writes and fetches the policy sees.

use tree_sitter::Node;

use super::args::Args;
use super::sinks::{Method, Sink};
use super::{Obj, Py, kind};
use crate::matcher::code::scope::{curl_request, join};
use crate::matcher::code::{Effect, Val};

/// Modules every attribute of which only computes (no files, processes or network):
/// `getattr(hashlib, name)` with a name given at run time picks a hash, nothing more.
const INERT_MODULES: &[&str] = &[
    "hashlib",
    "json",
    "math",
    "cmath",
    "string",
    "textwrap",
    "unicodedata",
    "statistics",
    "random",
    "datetime",
    "decimal",
    "fractions",
    "calendar",
    "colorsys",
];

/// Whether `name` is a function `code` defines and binds no other way: it is defined
/// (`def name(`), and every other place it stands as a word of its own is followed by a
/// call's or an argument list's bracket or comma (not `=`, `in`, `as` or a line's end).
fn only_a_function(code: &str, name: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    code.contains(&format!("def {name}("))
        && code.match_indices(name).all(|(k, _)| {
            let rest = &code[k + name.len()..];
            word(code[..k].chars().next_back())
                || word(rest.chars().next())
                || matches!(
                    rest.trim_start_matches([' ', '\t']).chars().next(),
                    Some('(' | ',' | ')')
                )
        })
}

impl<'a, 't> Py<'a, '_, 't> {
    /// What calling the sink with `args` does; `node` is the call, for its line and the
    /// code around it.
    pub(super) fn run_sink(&mut self, sink: Sink, args: &Args<'t>, node: Node<'t>, line: usize) {
        let k = |py: &mut Self, n: usize| args.pos(py, n).val();
        match sink {
            Sink::Shell => {
                let cmd = self.undecoded(|py| k(py, 0));
                self.cx.found(Effect::Shell(cmd), line);
            }
            Sink::ShellAt(n) => match self.undecoded(|py| args.pos_or_kw(py, n, "command").val()) {
                Val::Known(cmd) if cmd.is_empty() => {}
                cmd => self.cx.found(Effect::Shell(cmd), line),
            },
            Sink::Process => self.process(args, line),
            Sink::ExecList { path, argv } => {
                let program = k(self, path);
                let argv = match args.pos(self, argv) {
                    Obj::List(items) => items.into_iter().skip(1).collect(),
                    _ => vec![Val::Unknown],
                };
                self.exec(program, argv, line);
            }
            Sink::ExecArgs { path } => {
                let program = k(self, path);
                let argv = args.positional_from(self, path + 2);
                self.exec(program, argv, line);
            }
            Sink::Argv => {
                let argv = args.positional_from(self, 0);
                self.cx.found(Effect::Exec(argv), line);
            }
            Sink::ArgvList => {
                let argv = match args.pos(self, 0) {
                    Obj::List(items) => items,
                    other => vec![other.val()],
                };
                self.cx.found(Effect::Exec(argv), line);
            }
            Sink::Archive => {
                // Either left out (or `None`) is the working directory.
                let given = |v: Val| match v {
                    Val::Known(d) if d.is_empty() || d == "None" => None,
                    v => Some(v),
                };
                let root = given(args.pos_or_kw(self, 2, "root_dir").val());
                let base = given(args.pos_or_kw(self, 3, "base_dir").val());
                let from = match (root, base) {
                    (Some(r), Some(b)) => join(&[r, b]),
                    (Some(d), None) | (None, Some(d)) => d,
                    (None, None) => Val::known("."),
                };
                let base = k(self, 0);
                self.cx
                    .command("cp", vec![Val::known("-r"), from, base], line);
            }
            Sink::Tool(program) => {
                let argv = match args.pos(self, 0) {
                    Obj::List(items) => items,
                    other => vec![other.val()],
                };
                self.cx.command(program, argv, line);
            }
            Sink::Command(program, flags, operands) => {
                let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
                for n in operands {
                    argv.push(k(self, *n));
                }
                self.cx.command(program, argv, line);
            }
            Sink::Chmod => {
                let path = k(self, 0);
                let mode = self.chmod_mode(args.node(1, "mode"), &path);
                self.cx.command("chmod", vec![mode, path], line);
            }
            Sink::Kill => {
                let signal = match args.pos(self, 1) {
                    Obj::Val(Val::Known(s)) => {
                        Val::Known(format!("-{}", s.trim_start_matches("signal.")))
                    }
                    // `signal.SIGKILL`, `signal.Signals.SIGKILL`
                    Obj::Ref(q) if q.starts_with("signal.") => {
                        Val::Known(format!("-{}", q.rsplit('.').next().unwrap_or_default()))
                    }
                    other => other.val(),
                };
                let pid = k(self, 0);
                self.cx.command("kill", vec![signal, pid], line);
            }
            Sink::Truncate => {
                let (path, size) = (k(self, 0), k(self, 1));
                self.cx
                    .command("truncate", vec![Val::known("-s"), size, path], line);
            }
            // Copied to the end of the first: from a device that never ends, it is `cp
            // /dev/zero FILE`, which fills the disk.
            Sink::CopyObj => {
                if args.count() < 3
                    && let Some(from) = args.node(0, "fsrc").and_then(|n| self.opened(n))
                    && from.is_endless_device()
                {
                    let to = args.node(1, "fdst").and_then(|n| self.opened(n));
                    self.cx
                        .command("cp", vec![from, to.unwrap_or(Val::Unknown)], line);
                }
            }
            Sink::ZipFile => {
                let path = args.pos_or_kw(self, 0, "file").val();
                let mode = match args.node(1, "mode") {
                    Some(_) => args.pos_or_kw(self, 1, "mode").val(),
                    None => Val::known("r"),
                };
                match mode.text() {
                    Some("r") => self.cx.command("cat", vec![path], line),
                    Some("a") => self.cx.command("tee", vec![Val::known("-a"), path], line),
                    _ => self.cx.command("tee", vec![path], line),
                }
            }
            Sink::DbmOpen(default) => {
                let path = args.pos_or_kw(self, 0, "file").val();
                let flag = match args.node(1, "flag") {
                    Some(_) => args.pos_or_kw(self, 1, "flag").val(),
                    None => Val::known(default),
                };
                // The flag may carry backend letters after the first (`"nf"`).
                match flag.text().and_then(|f| f.chars().next()) {
                    Some('r') => self.cx.command("cat", vec![path], line),
                    Some('n') => self.cx.command("tee", vec![path], line),
                    Some('c' | 'w') => {
                        self.cx.command("cat", vec![path.clone()], line);
                        self.cx.command("tee", vec![Val::known("-a"), path], line);
                    }
                    _ => self.cx.command("tee", vec![path], line),
                }
            }
            Sink::FileInput => {
                let files = match args.pos_or_kw(self, 0, "files") {
                    Obj::List(items) => items,
                    // What a listing names (`glob.glob('policies/*.yaml')`).
                    Obj::Each(element) => vec![element.val()],
                    other => vec![other.val()],
                };
                let in_place = args
                    .keyword(self, "inplace")
                    .is_some_and(|v| v.val() != Val::known("False"));
                for program in std::iter::once("cat").chain(in_place.then_some("tee")) {
                    self.cx.command(program, files.clone(), line);
                }
            }
            Sink::Open => {
                let path = args.pos_or_kw(self, 0, "file").val();
                let mode = args.pos_or_kw(self, 1, "mode").val();
                // Opened to write and never written (`with open(f, 'w'): pass`,
                // `open(f, 'w').close()`): the file is emptied.
                if mode.text().is_some_and(|m| m.contains('w')) && self.result_unused(node) {
                    self.cx.command(
                        "truncate",
                        vec![Val::known("-s"), Val::known("0"), path],
                        line,
                    );
                } else if mode.text().is_some_and(|m| m.contains(['w', 'a']))
                    && let Some(text) = self.written_text(node)
                {
                    let mut file = vec![path];
                    if mode.text().is_some_and(|m| m.contains('a')) {
                        file.insert(0, Val::known("-a"));
                    }
                    self.cx.write(file, text, line);
                } else {
                    self.open(path, mode, line);
                }
            }
            Sink::ModulePath(n, keyword) => {
                let paths = match args.pos_or_kw(self, n, keyword) {
                    Obj::List(items) => items,
                    Obj::Each(element) => vec![element.val()],
                    other => vec![other.val()],
                };
                for path in paths {
                    self.cx.found(Effect::ModulePath(path), line);
                }
            }
            // What the statements do to the database is the project's business; what they
            // do to files outside it is the gate's.
            Sink::Sql => {
                if let Val::Known(text) = k(self, 0) {
                    let reading =
                        crate::matcher::sql::read(crate::matcher::sql::Dialect::Sqlite, &text);
                    if let Some(why) = reading.unreadable {
                        self.cx.unreadable(why, line);
                    }
                    for program in reading.programs {
                        self.cx.found(Effect::Shell(Val::Known(program)), line);
                    }
                }
            }
            Sink::Eval => {
                // `exec(open('config/settings.py').read())` runs that file's code, as
                // `python3 config/settings.py` does (a file the line wrote is read there).
                let source = args.node(0, "source").map(|n| self.compiled(n));
                if let Some(file) = source.and_then(|n| self.file_read(n)) {
                    self.cx.command("python3", vec![file], line);
                } else {
                    let code = self.undecoded(|py| k(py, 0));
                    self.cx.eval(code, line);
                }
            }
            Sink::Timeit => {
                for (n, name) in [(0, "stmt"), (1, "setup")] {
                    match args.node(n, name) {
                        // A callable is called, and a lambda's or a function's body is read
                        // by the walk.
                        Some(arg) if kind(arg) == "lambda" => {}
                        Some(arg)
                            if kind(arg) == "identifier"
                                && only_a_function(self.src.text, self.text(arg)) => {}
                        Some(arg) => match self.eval(arg, 0) {
                            Obj::Ref(_) => {}
                            code => self.cx.eval(code.val(), line),
                        },
                        None if args.is_splat() => self.cx.eval(Val::Unknown, line),
                        // Not given: `pass`.
                        None => {}
                    }
                }
            }
            Sink::Import => {
                // A name decoded (`codecs.decode('fuhgvy', 'rot13')`) is computed too.
                if k(self, 0).text().is_none() {
                    self.cx
                        .unreadable("the code imports a module whose name is computed", line);
                }
            }
            Sink::Getattr => {
                let computes_only = |q: &str| INERT_MODULES.contains(&q);
                if matches!(args.pos(self, 0), Obj::Ref(q) if !computes_only(&q))
                    && k(self, 1).text().is_none()
                    && !self.only_looked_at(node)
                {
                    self.cx.unreadable(
                        "the code calls a function whose name is computed at run time",
                        line,
                    );
                }
            }
            Sink::LogFile => {
                if let Some(file) = args.keyword(self, "filename") {
                    let file = file.val();
                    self.cx.command("tee", vec![Val::known("-a"), file], line);
                }
            }
            Sink::ReadsOr(default, keyword) => {
                let file = match args.pos_or_kw(self, 0, keyword).val() {
                    Val::Known(f) if f.is_empty() || f == "None" => Val::known(default),
                    file => file,
                };
                self.cx.command("cat", vec![file], line);
            }
            Sink::Database => {
                let file = match k(self, 0) {
                    Val::Known(f) => Val::Known(database_path(&f).to_owned()),
                    other => other,
                };
                self.cx.command("cat", vec![file], line);
            }
            Sink::WritesFile(n, keyword) => match args.pos_or_kw(self, n, keyword).val() {
                Val::Known(f) if f.is_empty() || f == "None" => {}
                file => self.cx.command("tee", vec![file], line),
            },
            Sink::UnpicklesWhen(keyword, when) => {
                let set = args
                    .keyword(self, keyword)
                    .map(|v| v.val().text() == Some("True"));
                // Left out: numpy's `allow_pickle` is off, torch's `weights_only` on.
                if set.unwrap_or(!when) == when {
                    self.cx.unreadable(super::sinks::UNPICKLES, line);
                }
            }
            Sink::Fork if self.loops > 0 => self
                .cx
                .unreadable("the code forks in a loop (a fork bomb)", line),
            Sink::Fork | Sink::Spawn => self.cx.forked(line),
            Sink::Network(n, keyword, scheme) => {
                let target = args.pos_or_kw(self, n, keyword);
                let url = url(target, scheme);
                // `HTTPConnection(host, port)`: the port too, and the connection, which the
                // code then sends anything on, as the raw connection it is (`nc HOST PORT`).
                let port = (keyword == "host")
                    .then(|| args.pos_or_kw(self, n + 1, "port").val())
                    .and_then(|p| p.text().map(str::to_owned));
                match (url, port) {
                    (Val::Known(u), Some(p)) => {
                        let host = u.split_once("://").map_or(u.as_str(), |(_, h)| h);
                        let tcp = Val::Known(format!("tcp://{host}:{p}"));
                        self.cx
                            .command("curl", vec![Val::Known(format!("{u}:{p}"))], line);
                        self.cx.command("curl", vec![tcp], line);
                    }
                    (url, _) => self.cx.command("curl", vec![url], line),
                }
            }
            Sink::Request(method) => {
                let (method, at) = match method {
                    Method::Named(m) => (Val::known(m), 0),
                    Method::Given => (args.pos_or_kw(self, 0, "method").val(), 1),
                };
                let target = url(args.pos_or_kw(self, at, "url"), "");
                self.cx
                    .command("curl", curl_request(Some(method), target), line);
            }
            Sink::Lookup => {
                let host = k(self, 0);
                // A name put together from parts not all known (`chunk + '.x.example'`,
                // f'{data}.example'): what a lookup sends is the name, so data can leave
                // in it.
                let built = args.node(0, "host").is_some_and(|n| {
                    matches!(kind(n), "binary_operator" | "concatenated_string")
                        || kind(n) == "string" && self.text(n).starts_with(['f', 'F'])
                        || kind(n) == "call"
                });
                if built && !matches!(host, Val::Known(_)) {
                    self.cx.unreadable(
                        "the code looks up a host name it builds at run time (what it holds is sent in the name)",
                        line,
                    );
                }
                self.lookup(host, line);
            }
            Sink::Serve => {
                let mut argv = vec![Val::known("-m"), Val::known("http.server")];
                let (host, port) = match args.pos_or_kw(self, 0, "server_address") {
                    Obj::List(parts) => (
                        parts.first().cloned().unwrap_or(Val::Unknown),
                        parts.get(1).cloned().unwrap_or(Val::Unknown),
                    ),
                    _ => (Val::Unknown, Val::Unknown),
                };
                let host_looked_up = host.clone();
                // A host not known may be every interface: no `--bind`, as the module's
                // own default.
                match host {
                    Val::Known(h) if h.is_empty() => {
                        argv.extend([Val::known("--bind"), Val::known("0.0.0.0")])
                    }
                    Val::Known(h) => argv.extend([Val::known("--bind"), Val::Known(h)]),
                    _ => {}
                }
                argv.push(port);
                self.cx.command("python3", argv, line);
                self.lookup(host_looked_up, line);
            }
            Sink::Download => {
                let url = url(args.pos_or_kw(self, 0, "url"), "");
                // Without a file name, the download goes to a temporary file.
                let argv = match args.pos_or_kw(self, 1, "filename") {
                    Obj::Val(Val::Known(f)) if f.is_empty() || f == "None" => vec![url],
                    file => vec![Val::known("-o"), file.val(), url],
                };
                self.cx.command("curl", argv, line);
            }
            Sink::Unreadable(reason) => self.cx.unreadable(reason, line),
            Sink::OwnDoctests if args.node(0, "m").is_none() => self
                .cx
                .unreadable("the code runs the examples of its own docstrings", line),
            Sink::OwnDoctests => {}
            // A name of one word is a browser webbrowser knows; anything else may be a
            // command (`webbrowser.get("rm -rf %s")`).
            Sink::BrowserCommand => {
                let using = args.pos_or_kw(self, 0, "using").val();
                let named = using.text().is_some_and(|t| {
                    t.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                });
                if !named {
                    self.cx.unreadable(
                        "the code names the command a browser is opened with, and the address it gets",
                        line,
                    );
                }
            }
            Sink::Deserialize => {
                let safe = args
                    .keyword(self, "Loader")
                    .is_some_and(|l| matches!(l, Obj::Ref(q) if q.contains("Safe")));
                match k(self, 0) {
                    _ if safe => {}
                    Val::Fetched => self.cx.eval(Val::Fetched, line),
                    Val::Known(data) if names_a_callable(&data) => self.cx.unreadable(
                        "the data names a Python callable for the loader to call, which can \
                         run any code",
                        line,
                    ),
                    _ => {}
                }
            }
            Sink::Template => {
                if let Val::Known(text) = k(self, 0)
                    && (text.contains("<%") || text.contains("${") || text.contains("__"))
                {
                    self.cx.unreadable(
                        "the code renders a template that holds Python code, or reaches it \
                         through `__` attributes",
                        line,
                    );
                }
            }
            Sink::DictConfig => {
                if args.node(0, "config").is_some_and(|d| {
                    self.text(d).contains("\"()\"") || self.text(d).contains("'()'")
                }) {
                    self.cx.unreadable(
                        "the logging configuration names a factory to call (its '()' key)",
                        line,
                    );
                }
            }
            Sink::Extract { archive, into } => {
                let mut argv = vec![Val::known("-x")];
                if let Some(n) = archive {
                    argv.extend([Val::known("-f"), k(self, n)]);
                }
                let dir = match args.pos_or_kw(self, into, "path").val() {
                    Val::Known(d) if d.is_empty() || d == "None" => Val::known("."),
                    d => d,
                };
                argv.extend([Val::known("-C"), dir]);
                self.cx.command("tar", argv, line);
            }
        }
    }
}

/// The URL a network call reaches: a `(host, port)` address is written `host:port`, a
/// host alone gets the call's scheme.
fn url(target: Obj, scheme: &str) -> Val {
    match target {
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

/// The file a SQLite database name opens: a `file:` URI's path, without its query.
fn database_path(name: &str) -> &str {
    let Some(uri) = name.strip_prefix("file:") else {
        return name;
    };
    let uri = uri
        .strip_prefix("//localhost")
        .or(uri.strip_prefix("//"))
        .unwrap_or(uri);
    &uri[..uri.find(['?', '#']).unwrap_or(uri.len())]
}

/// Whether YAML or JSON data names a Python callable or class for its loader to build
/// (PyYAML's `!!python/...` tags, jsonpickle's `py/...` keys).
fn names_a_callable(data: &str) -> bool {
    ["!!python/", "tag:yaml.org,2002:python/", "\"py/"]
        .iter()
        .any(|tag| data.contains(tag))
}
