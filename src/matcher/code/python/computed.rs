//! The values of the calls that compute strings and paths (`os.path.join`, `str.format`,
//! `base64.b64decode`, `tempfile.mkdtemp`, ...), apart from the expressions that hold them.

use tree_sitter::Node;

use super::args::Args;
use super::sinks::{Sink, canonical, is_decoder, sink};
use super::text::{dedent, format_braces, parse_int};
use super::values::{SITE_PACKAGES, install_path};
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::{TEMP_DIR, home, join, normalized, stays_a_name};

/// The archive object the call `constructor` makes (`tarfile.open(...)` is a
/// `tarfile.TarFile`), whose methods the sinks name.
pub(super) fn archive(constructor: &str) -> Option<&'static str> {
    match constructor {
        "tarfile.open" | "tarfile.TarFile" | "tarfile.TarFile.open" => Some("tarfile.TarFile"),
        "zipfile.ZipFile" => Some("zipfile.ZipFile"),
        _ => None,
    }
}

impl<'t> Py<'_, '_, 't> {
    /// The name `mkdtemp(suffix, prefix, dir)` gives: the prefix (`tmp` when not given),
    /// random characters, the suffix; a pattern, as the random part is not known. `first`:
    /// the place of `suffix` among the positional arguments (`NamedTemporaryFile` has four
    /// before it).
    fn temp_name(&mut self, args: &Args<'t>, first: usize) -> String {
        let mut part = |n: usize, name: &str, default: &str| match args.node(first + n, name) {
            None => Some(default.to_owned()),
            Some(_) => match args.pos_or_kw(self, first + n, name).val() {
                Val::Known(t) if t == "None" => Some(default.to_owned()),
                Val::Known(t) if !t.contains(['/', '*', '?', '[']) => Some(t),
                _ => None,
            },
        };
        match (part(1, "prefix", "tmp"), part(0, "suffix", "")) {
            (Some(prefix), Some(suffix)) => format!("{prefix}*{suffix}"),
            _ => "*".to_owned(),
        }
    }

    /// The value a call returns, for the calls that compute strings and paths.
    pub(super) fn value_of_call(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let Some(function) = by_field(node, "function") else {
            return Obj::Val(Val::Unknown);
        };
        if let Some(value) = self.returned_value(node, depth) {
            return value;
        }
        let callee = self.eval(function, depth + 1);
        let args = Args::of(self, node);
        let arg = |py: &mut Self, n: usize| args.pos(py, n).val();
        match callee {
            Obj::Ref(q) => {
                let q = canonical(&q);
                match q.as_str() {
                    "os.path.expanduser" | "os.path.abspath" | "os.path.realpath"
                    | "os.path.normpath" | "os.fspath" | "builtins.str" | "os.fsencode"
                    | "os.fsdecode" => Obj::Val(arg(self, 0)),
                    // `bytes([47, 101, 116, 99])`: the text of those code points.
                    "builtins.bytes" | "builtins.bytearray" => match args.pos(self, 0) {
                        Obj::List(items) => Obj::Val(
                            items
                                .iter()
                                .map(|v| v.text().and_then(parse_int).and_then(char::from_u32))
                                .collect::<Option<String>>()
                                .map_or(Val::Unknown, Val::Known),
                        ),
                        other => Obj::Val(other.val()),
                    },
                    // A partial function is its function, called with more arguments (see
                    // `Py::arguments`).
                    "functools.partial" => args.pos(self, 0),
                    // Objects whose methods the sinks name (`tarfile.TarFile.add`).
                    q if archive(q).is_some() => {
                        Obj::Ref(archive(q).unwrap_or_default().to_owned())
                    }
                    "xml.etree.ElementTree.ElementTree" | "xml.etree.ElementTree.parse" => {
                        Obj::Ref("xml.etree.ElementTree.ElementTree".to_owned())
                    }
                    "importlib.machinery.SourceFileLoader"
                    | "importlib.machinery.SourcelessFileLoader" => {
                        Obj::Ref("importlib.machinery.SourceFileLoader".to_owned())
                    }
                    // Debuggers, tracers and profilers, whose `run` runs Python source.
                    "bdb.Bdb" | "pdb.Pdb" => Obj::Ref("bdb.Bdb".to_owned()),
                    "trace.Trace" => Obj::Ref("trace.Trace".to_owned()),
                    "cProfile.Profile" | "profile.Profile" => {
                        Obj::Ref("cProfile.Profile".to_owned())
                    }
                    "configparser.ConfigParser" | "configparser.RawConfigParser" => {
                        Obj::Ref("configparser.ConfigParser".to_owned())
                    }
                    "crontab.CronTab" => Obj::Ref("crontab.CronTab".to_owned()),
                    // Where installed code lives, as a path in the system's Python.
                    "sysconfig.get_paths" => Obj::Ref("sysconfig.get_paths()".to_owned()),
                    "sysconfig.get_path" => match arg(self, 0) {
                        Val::Known(k) => {
                            Obj::Val(install_path(&k).map_or(Val::Unknown, Val::known))
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    "certifi.where" => {
                        Obj::Val(Val::Known(format!("{SITE_PACKAGES}/certifi/cacert.pem")))
                    }
                    // A socket, whose `connect` reaches the network.
                    "socket.socket" => Obj::Ref("socket.socket".to_owned()),
                    // A SQLite connection and its cursors, whose `execute` runs SQL.
                    "sqlite3.connect" | "sqlite3.Connection.cursor" => {
                        Obj::Ref("sqlite3.Connection".to_owned())
                    }
                    // GitPython's repository and its remotes, whose methods run git.
                    "git.Repo" | "git.repo.Repo" | "git.Repo.init" | "git.Repo.clone_from" => {
                        Obj::Ref("git.Repo".to_owned())
                    }
                    "git.Repo.remote" | "git.Repo.create_remote" => {
                        Obj::Ref("git.Remote".to_owned())
                    }
                    "os.path.expandvars" => match arg(self, 0) {
                        Val::Known(p) if !home(&p).contains('$') => Obj::Val(Val::Known(home(&p))),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "os.path.join" | "posixpath.join" => {
                        let parts = args.positional_from(self, 0);
                        Obj::Val(join(&parts))
                    }
                    // `reduce(os.path.join, parts)` joins the parts as one call does.
                    "functools.reduce" => match (args.pos(self, 0), args.pos(self, 1)) {
                        (Obj::Ref(f), Obj::List(parts))
                            if matches!(f.as_str(), "os.path.join" | "posixpath.join")
                                && args.count() == 2 =>
                        {
                            Obj::Val(join(&parts))
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    "unicodedata.normalize" => match (arg(self, 0), arg(self, 1)) {
                        (Val::Known(form), Val::Known(text)) => {
                            Obj::Val(normalized(&text, &form).map_or(Val::Unknown, Val::Known))
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    "urllib.parse.urljoin" => match (arg(self, 0), arg(self, 1)) {
                        (Val::Known(base), Val::Known(url)) => {
                            Obj::Val(match url_join(&base, &url) {
                                Some(joined) => Val::Known(joined),
                                None => Val::Unknown,
                            })
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    "os.getenv" | "os.environ.get" => match arg(self, 0) {
                        Val::Known(k) => self.environ_value(&k, node, depth),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "os.getcwd" => Obj::Val(Val::known(".")),
                    // One shell word, whatever it holds.
                    "shlex.quote" | "pipes.quote" => Obj::Val(arg(self, 0).shell_quoted()),
                    // Each item one shell word, joined with spaces.
                    "shlex.join" => Obj::Val(match args.pos(self, 0) {
                        Obj::List(items) => Val::shell_joined(Some(items), " "),
                        _ => Val::shell_joined(None, " "),
                    }),
                    // A number, as this machine has (`['make', f'-j{os.cpu_count()}']`).
                    "os.cpu_count" | "os.process_cpu_count" | "multiprocessing.cpu_count" => {
                        Obj::Val(Val::Known(
                            std::thread::available_parallelism()
                                .map_or(1, usize::from)
                                .to_string(),
                        ))
                    }
                    "textwrap.dedent" => Obj::Val(match arg(self, 0) {
                        Val::Known(text) => Val::Known(dedent(&text)),
                        Val::Fetched => Val::Fetched,
                        _ => Val::Unknown,
                    }),
                    // Where Python looks for `.pth` files and `usercustomize`: the version
                    // in the name is not known.
                    "site.getusersitepackages" => {
                        Obj::Val(Val::known("~/.local/lib/python3*/site-packages"))
                    }
                    "site.getsitepackages" => Obj::List(vec![
                        Val::known("/usr/local/lib/python3*/dist-packages"),
                        Val::known("/usr/lib/python3/dist-packages"),
                    ]),
                    // The program a name runs, found on `PATH`: somewhere below the root,
                    // so a write onto it (`shutil.copy(x, shutil.which('hookgate'))`)
                    // reaches that program wherever it is installed.
                    "shutil.which" => match arg(self, 0) {
                        Val::Known(name) if !name.is_empty() && !name.contains('/') => {
                            Obj::Val(Val::Known(format!("/**/{name}")))
                        }
                        Val::Known(path) => Obj::Val(Val::Known(path)),
                        _ => Obj::Val(Val::Unknown),
                    },
                    // A new directory or file of the temporary directory: its name is not
                    // known, where it is is (`shutil.rmtree(tempfile.mkdtemp())`).
                    "tempfile.gettempdir" => Obj::Val(Val::known(TEMP_DIR)),
                    // `mkdtemp(suffix, prefix, dir)`: in `dir`, else the temporary directory.
                    // `with TemporaryDirectory(suffix, prefix, dir) as d:` gives `d` such a
                    // name too.
                    // `mkstemp` gives `(fd, name)`.
                    // A `NamedTemporaryFile` is a file object whose `name` is such a path.
                    "tempfile.mkdtemp"
                    | "tempfile.mktemp"
                    | "tempfile.TemporaryDirectory"
                    | "tempfile.mkstemp"
                    | "tempfile.NamedTemporaryFile" => {
                        let first = match q.as_str() {
                            "tempfile.NamedTemporaryFile" => 4,
                            _ => 0,
                        };
                        let name = self.temp_name(&args, first);
                        let path = match args.pos_or_kw(self, first + 2, "dir").val() {
                            Val::Known(d) if d.is_empty() || d == "None" => {
                                Val::Known(format!("{TEMP_DIR}/{name}"))
                            }
                            Val::Known(d) => Val::Known(format!("{d}/{name}")),
                            _ => Val::Unknown,
                        };
                        match q.as_str() {
                            "tempfile.mkstemp" => Obj::List(vec![Val::Unknown, path]),
                            "tempfile.NamedTemporaryFile" => Obj::TempFile(path),
                            _ => Obj::Val(path),
                        }
                    }
                    "pathlib.Path"
                    | "pathlib.PosixPath"
                    | "pathlib.PurePath"
                    | "pathlib.PurePosixPath" => {
                        let parts = args.positional_from(self, 0);
                        Obj::Path(if parts.is_empty() {
                            Val::known(".")
                        } else {
                            join(&parts)
                        })
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
                    // The object a dotted name names (`pkgutil.resolve_name('shutil:rmtree')`).
                    "pydoc.locate" | "pkgutil.resolve_name" => match arg(self, 0) {
                        Val::Known(m) => Obj::Ref(canonical(&m.replace(':', "."))),
                        _ => Obj::Val(Val::Unknown),
                    },
                    // An address written as a number (`ip_address(2130706433)`: 127.0.0.1).
                    "ipaddress.ip_address" | "ipaddress.IPv4Address" => {
                        Obj::Val(match arg(self, 0) {
                            Val::Known(t) => Val::Known(match t.parse::<u32>() {
                                Ok(n) => std::net::Ipv4Addr::from(n).to_string(),
                                Err(_) => t,
                            }),
                            other => other,
                        })
                    }
                    // A file object over a string is the string, for what reads it.
                    "io.StringIO" | "io.BytesIO" => Obj::Val(arg(self, 0)),
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
                    "builtins.list" | "builtins.tuple" | "builtins.sorted" | "builtins.set"
                    | "builtins.frozenset" | "builtins.reversed" => args.pos(self, 0),
                    // Some of a listing's names are still names the pattern matches.
                    "builtins.filter" | "itertools.filterfalse" | "itertools.islice" => {
                        let listing = match q.as_str() {
                            "itertools.islice" => args.pos(self, 0),
                            _ => args.pos(self, 1),
                        };
                        match listing {
                            each @ Obj::Each(_) => each,
                            // Some of a list's items: each is one of the list's.
                            list @ Obj::List(_) if q != "itertools.islice" => list,
                            _ => Obj::Val(Val::Unknown),
                        }
                    }
                    // The names a listing finds, as the pattern they match: a loop over
                    // them acts on every file the pattern can name.
                    "glob.glob" | "glob.iglob" => Obj::Each(Box::new(Obj::Val(arg(self, 0)))),
                    "os.listdir" => Obj::Each(Box::new(Obj::Val(Val::known("*")))),
                    "os.walk" => Obj::Each(Box::new(Obj::Walk(arg(self, 0)))),
                    "urllib.request.Request" => Obj::Val(arg(self, 0)),
                    _ if matches!(sink(&q), Some(Sink::Network(..) | Sink::Request(_))) => {
                        Obj::Response
                    }
                    _ if is_decoder(&q) => {
                        self.decoded = true;
                        let given = (args.count() == 1).then(|| arg(self, 0));
                        match given.as_ref().and_then(|v| base64_constant(&q, v)) {
                            Some(text) => Obj::Val(Val::Known(text)),
                            None => Obj::Val(Val::Fetched),
                        }
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            Obj::PathMethod(p, m) => match m.as_str() {
                "expanduser" | "resolve" | "absolute" | "joinpath" => {
                    let mut parts = vec![p];
                    parts.extend(args.positional_from(self, 0));
                    Obj::Path(join(&parts))
                }
                "glob" => Obj::Each(Box::new(Obj::Path(join(&[p, arg(self, 0)])))),
                "rglob" => Obj::Each(Box::new(Obj::Path(join(&[
                    p,
                    Val::known("**"),
                    arg(self, 0),
                ])))),
                "iterdir" => Obj::Each(Box::new(Obj::Path(join(&[p, Val::known("*")])))),
                // The path as a `file://` address, which `urlopen` reads as the file.
                "as_uri" => Obj::Val(Val::known("file://").concat(p)),
                "with_name" | "with_stem" | "with_suffix" => {
                    Obj::Path(renamed(&p, m.as_str(), arg(self, 0)))
                }
                _ => Obj::Val(Val::Unknown),
            },
            Obj::StrMethod(p, m) => match m.as_str() {
                "join" => match args.pos(self, 0) {
                    Obj::List(items) => Obj::Val(Val::joined(&items, p.text().unwrap_or_default())),
                    Obj::Val(Val::Known(s)) => {
                        let sep = p.text().unwrap_or_default();
                        let chars: Vec<String> = s.chars().map(String::from).collect();
                        Obj::Val(Val::Known(chars.join(sep)))
                    }
                    // `' '.join(shlex.quote(f) for f in files)` of files not known: words
                    // not known that run nothing.
                    _ if args
                        .node(0, "iterable")
                        .is_some_and(|n| self.quotes_each(n)) =>
                    {
                        Obj::Val(Val::shell_joined(None, p.text().unwrap_or_default()))
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
                    // A listed name's pattern (`old_*.snap`): what the text replaced in a name
                    // that matches it may span its wildcard, so the new name is any name, when
                    // what is put in keeps it a name (see `stays_a_name`).
                    (Val::Known(s), _, Val::Known(b)) if s.contains(['*', '?', '[']) => {
                        Obj::Val(match !s.contains('/') && stays_a_name(&b) {
                            true => Val::known("*"),
                            false => Val::Unknown,
                        })
                    }
                    (Val::Known(s), Val::Known(a), Val::Known(b)) if !a.is_empty() => {
                        Obj::Val(Val::Known(s.replace(&a, &b)))
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                "format" => {
                    let items = args.positional_from(self, 0);
                    let named = self.named_args(&args);
                    Obj::Val(format_braces(p, &items, &named))
                }
                "strip" | "lstrip" | "rstrip" if args.count() == 0 => Obj::Val(match p {
                    Val::Known(s) => Val::Known(match m.as_str() {
                        "strip" => s.trim().to_owned(),
                        "lstrip" => s.trim_start().to_owned(),
                        _ => s.trim_end().to_owned(),
                    }),
                    other => other,
                }),
                "lower" => Obj::Val(
                    p.text()
                        .map_or(Val::Unknown, |s| Val::Known(s.to_lowercase())),
                ),
                "upper" => Obj::Val(
                    p.text()
                        .map_or(Val::Unknown, |s| Val::Known(s.to_uppercase())),
                ),
                "encode" | "decode" => Obj::Val(p),
                _ => Obj::Val(Val::Unknown),
            },
            Obj::Response => Obj::Response,
            _ => Obj::Val(Val::Unknown),
        }
    }
}

/// `path.with_name(new)` (`with_stem`, `with_suffix`): the same directory, another name.
/// pathlib refuses a name with a `/` in it, so a name not known still names something in
/// that directory ([`Val::NameIn`]).
fn renamed(path: &Val, method: &str, new: Val) -> Val {
    let Val::Known(path) = path else {
        return Val::Unknown;
    };
    let (dir, name) = match path.rsplit_once('/') {
        Some((d, n)) => (format!("{d}/"), n),
        None => (String::new(), path.as_str()),
    };
    if matches!(name, "" | "." | ".." | "~") || dir.is_empty() && path.starts_with('~') {
        return Val::Unknown;
    }
    let (stem, suffix) = match name.rfind('.') {
        Some(k) if k > 0 => name.split_at(k),
        _ => (name, ""),
    };
    let new = match new {
        Val::Known(n) if !n.contains('/') && (method == "with_suffix" || !n.is_empty()) => n,
        _ => return Val::NameIn(dir),
    };
    Val::Known(match method {
        "with_name" => dir + &new,
        "with_stem" => dir + &new + suffix,
        _ => dir + stem + &new,
    })
}

/// `urllib.parse.urljoin(base, url)` for the forms code builds addresses with: `url` whole
/// when it has a scheme, from the host when it starts with `/`, else beside the last `/`
/// of `base`'s path. Anything else (`..`, `//host`, a query alone) is not read.
fn url_join(base: &str, url: &str) -> Option<String> {
    if url.contains("://") {
        return Some(url.to_owned());
    }
    if url.starts_with("//") || url.contains("..") || url.starts_with(['?', '#']) {
        return None;
    }
    let (scheme, rest) = base.split_once("://")?;
    let host_end = rest.find('/').unwrap_or(rest.len());
    let origin = &base[..scheme.len() + 3 + host_end];
    if url.starts_with('/') {
        return Some(format!("{origin}{url}"));
    }
    let path = &rest[host_end..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    let dir = &path[..path.rfind('/').map_or(0, |k| k + 1)];
    let dir = if dir.is_empty() { "/" } else { dir };
    Some(format!("{origin}{dir}{url}"))
}

/// The text of base64 (`base64.b64decode('aHR0cDovLw==')`) of a known constant, when it
/// decodes to UTF-8. As Python does by default, characters outside the alphabet are
/// dropped.
fn base64_constant(function: &str, value: &Val) -> Option<String> {
    use base64::Engine;
    let urlsafe = match function {
        "base64.b64decode" | "base64.standard_b64decode" | "base64.decodebytes" => false,
        "base64.urlsafe_b64decode" => true,
        _ => return None,
    };
    let text = value.text()?;
    let alphabet: String = text
        .chars()
        .map(|c| match (urlsafe, c) {
            (true, '-') => '+',
            (true, '_') => '/',
            _ => c,
        })
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(alphabet)
        .ok()?;
    String::from_utf8(bytes).ok()
}

impl<'t> Py<'_, '_, 't> {
    /// Whether `node` gives each item of a list quoted for the shell and nothing else:
    /// `shlex.quote(f) for f in files` (or a list comprehension of it), `map(shlex.quote,
    /// files)`.
    fn quotes_each(&mut self, node: Node<'t>) -> bool {
        let is_quote = |py: &mut Self, f: Node<'t>| matches!(py.eval(f, 0), Obj::Ref(q) if matches!(q.as_str(), "shlex.quote" | "pipes.quote"));
        match kind(node) {
            "generator_expression" | "list_comprehension" => {
                let (Some(body), Some(clause)) = (by_field(node, "body"), node.named_child(1))
                else {
                    return false;
                };
                let Some(name) = by_field(clause, "left").filter(|l| kind(*l) == "identifier")
                else {
                    return false;
                };
                let args = Args::of(self, body);
                kind(body) == "call"
                    && args.count() == 1
                    && args
                        .node(0, "s")
                        .is_some_and(|a| kind(a) == "identifier" && self.text(a) == self.text(name))
                    && by_field(body, "function").is_some_and(|f| is_quote(self, f))
            }
            "call" => {
                let args = Args::of(self, node);
                args.count() == 2
                    && by_field(node, "function").is_some_and(
                        |f| matches!(self.eval(f, 0), Obj::Ref(q) if q == "builtins.map"),
                    )
                    && args.node(0, "function").is_some_and(|f| is_quote(self, f))
            }
            _ => false,
        }
    }
}
