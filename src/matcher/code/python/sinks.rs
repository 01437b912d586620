//! The calls the Python reader follows, as reviewed data: each qualified name (after
//! [`canonical`]) and what the call does. A call not listed has no effect the reader
//! reports; a module's other functions are not read.

/// What a call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sink {
    /// Runs its first argument as a shell line (`os.system`).
    Shell,
    /// Runs the argument at this position (or named `command`) as a shell line
    /// (`pydoc.pipepager(text, cmd)`, python-crontab's `cron.new(command=...)`).
    ShellAt(usize),
    /// `subprocess.*`: an argument vector, or a shell line with `shell=True`.
    Process,
    /// Runs the program at argument `path` with the list at argument `argv`, whose first
    /// item is only the name it is shown as (`os.execv(path, argv)`).
    ExecList { path: usize, argv: usize },
    /// Runs the program at argument `path` with the arguments after the shown name at
    /// argument `path + 1` (`os.execl(path, name, arg...)`).
    ExecArgs { path: usize },
    /// Runs its arguments, the program first (`asyncio.create_subprocess_exec`).
    Argv,
    /// Runs an argument vector given as a list, or a program given alone (`pty.spawn`).
    ArgvList,
    /// Runs this program with the argument vector given as a list (`pip.main([...])`).
    Tool(&'static str),
    /// A virtual command: the program, its flags, then the arguments at these positions.
    Command(&'static str, &'static [&'static str], &'static [usize]),
    /// Reads the file its first argument (or this keyword) names, or this one when it
    /// names none (`dotenv_values('.env.example')`, `dotenv_values()`: `.env`).
    ReadsOr(&'static str, &'static str),
    /// `chmod MODE PATH` from `(path, mode)`.
    Chmod,
    /// `kill -SIG PID` from `(pid, signal)`.
    Kill,
    /// `truncate -s SIZE PATH` from `(path, size)`.
    Truncate,
    /// `shutil.make_archive(base, format, root_dir, base_dir)`: `cp -r ROOT/BASE BASE.*`.
    Archive,
    /// `open(file, mode)`: a read, a write, or both.
    Open,
    /// `shutil.copyfileobj(from, to)`: `cp` when `from` is opened from a known path.
    CopyObj,
    /// `dbm.open(file, flag)` (default flag given): reads the database, with `c` or `w` also
    /// adds to it, and with `n` empties it first.
    DbmOpen(&'static str),
    /// `zipfile.ZipFile(file, mode)`: reads the archive, or with `w`, `x` or `a` writes it.
    ZipFile,
    /// `fileinput.input(files, inplace=True)`: reads the files, and with `inplace` writes
    /// them too.
    FileInput,
    /// Python code (`exec`, `eval`, `compile`).
    Eval,
    /// timeit's statement and setup (`timeit.timeit(stmt, setup)`): code when strings,
    /// called when callables.
    Timeit,
    /// An import of the module its first argument names.
    Import,
    /// `getattr(object, name)`.
    Getattr,
    /// A fork: a fork bomb when it is in a loop.
    Fork,
    /// A process or a thread started by the library, with Python code of the program's
    /// own: a fork bomb in code that does not end, ordinary in a bounded loop.
    Spawn,
    /// A network request to the URL (or host) at this argument or keyword, with a scheme
    /// for calls that take only a host.
    Network(usize, &'static str, &'static str),
    /// An HTTP request of a client library: `requests.delete(url)` names its method,
    /// `requests.request(method, url)` takes it as its first argument.
    Request(Method),
    /// A name lookup of the host at argument 0 (`socket.gethostbyname(h)`): it sends the
    /// name to the resolver, as `curl dns://HOST`.
    Lookup,
    /// A server of the standard library listening on the `(host, port)` at argument 0
    /// (`http.server.ThreadingHTTPServer(("", 8000), handler)`), as `python3 -m
    /// http.server`: an empty host binds every interface. An HTTP server also looks up the
    /// name of the address it binds (a [`Sink::Lookup`]).
    Serve,
    /// A fetch of the URL at argument 0 into the file at argument 1 (`urlretrieve`), as
    /// `curl -o FILE URL`: a script the code then runs from that file is a download.
    Download,
    /// `logging.basicConfig(filename=...)`: appends to that file, if it names one.
    LogFile,
    /// `sqlite3.connect(db)`: reads the database file, also when named by a `file:` URI
    /// (`file:/x/Cookies?mode=ro`, the way to read a store its browser holds locked).
    Database,
    /// SQLite's SQL in the first argument, whose functions and `ATTACH` reach files (see
    /// [`crate::matcher::sql::read`]): a connection's or cursor's `execute`.
    Sql,
    /// Adds the directory or archive at this argument (or keyword) to where imports look,
    /// or each one of a list at it (`sys.path.extend([...])`).
    ModulePath(usize, &'static str),
    /// Writes the file at this argument or keyword, if one is given (`tee PATH`):
    /// `ElementTree.write(path)`, `zipapp.create_archive(src, target=path)`.
    WritesFile(usize, &'static str),
    /// Unpickles what it loads when this keyword is `True` (`numpy.load(f,
    /// allow_pickle=True)`), or, with `false`, unless it is `True` (`torch.load(f,
    /// weights_only=False)`).
    UnpicklesWhen(&'static str, bool),
    /// Cannot be read: why.
    Unreadable(&'static str),
    /// `doctest.testmod()`: given no module, it runs the examples in the docstrings of the
    /// code itself, which the reader does not read as code; a module's own are its tests.
    OwnDoctests,
    /// Builds objects from the data at argument 0 in a way that can run code
    /// (`yaml.unsafe_load`, `jsonpickle.decode`, `logging.config.fileConfig`): data
    /// downloaded or decoded is run, and so is data written out that names a Python
    /// callable (`!!python/object/apply:os.system`, `{"py/reduce": ...}`).
    Deserialize,
    /// Renders a template whose text (argument 0) can hold Python code: Mako's `<% %>` and
    /// `${}`, or, in a Jinja2 template, the `__globals__`-style attributes that reach it.
    Template,
    /// `logging.config.dictConfig(d)`: a `'()'` key names any callable to call.
    DictConfig,
    /// `webbrowser.get(using)`: a browser by its name, or a command line (`"sh -c %s"`)
    /// webbrowser then runs with the address it opens. Without one (`webbrowser.get()`),
    /// the system's browser.
    BrowserCommand,
    /// Unpacks the archive at argument `archive` (or the object's own) into the directory
    /// at argument `into` (the working directory when left out), as `tar -x`.
    Extract { archive: Option<usize>, into: usize },
}

/// Where a [`Sink::Request`] has its HTTP method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Method {
    /// In the function's name, lower case; the URL is argument 0 (`url=`).
    Named(&'static str),
    /// Argument 0 (`method=`); the URL is argument 1 (`url=`).
    Given,
}

mod table;

use Sink::*;
use table::SINKS;

const RM_RF: Sink = Command("rm", &["-r", "-f"], &[0]);
/// Why code that unpickles cannot be read.
pub(super) const UNPICKLES: &str = "the code unpickles data, which can run any code";
const NATIVE: Sink = Unreadable("the code calls native code directly");

/// HTTP client modules whose request functions are named by method.
const HTTP_CLIENTS: &[&str] = &["requests", "httpx", "aiohttp", "urllib3.PoolManager"];
const HTTP_METHODS: &[&str] = &["get", "post", "put", "patch", "delete", "head", "options"];

/// Modules with effects whose private helpers (`shutil._rmtree_safe_fd`,
/// `uuid._get_command_stdout`, `multiprocessing.util.spawnv_passfds`'s kin, pip's
/// internals) delete, run or write as their public functions do, under names no list
/// keeps up with: a call of one is not read.
const MODULES_WITH_EFFECTS: &[&str] = &[
    "os",
    "shutil",
    "subprocess",
    "uuid",
    "multiprocessing",
    "pip",
    "tempfile",
    "pathlib",
    "importlib",
    "socket",
    "pty",
    "posix",
    "ctypes",
    "distutils",
    "setuptools",
    "runpy",
    "pydoc",
    "platform",
    "webbrowser",
    "http",
    "urllib",
    "ftplib",
    "smtplib",
    "concurrent",
    "pkgutil",
    "site",
    "sysconfig",
    "venv",
    "ensurepip",
    "zipfile",
    "tarfile",
    "glob",
    "_posixsubprocess",
    "_io",
    "_pyio",
    "_socket",
    "_ctypes",
    "_thread",
];

/// Private helpers of those modules that are everyday and do nothing else.
const PRIVATE_EVERYDAY: &[&str] = &["os._exit"];

/// A private helper of a module with effects: `shutil._rmtree_safe_fd`, `pip._internal.
/// utils.temp_dir.TempDirectory`, `_posixsubprocess.fork_exec`.
fn private_helper(q: &str) -> Option<Sink> {
    let mut parts = q.split('.');
    let module = parts.next()?;
    let private = |p: &str| p.starts_with('_') && !(p.starts_with("__") && p.ends_with("__"));
    let listed = MODULES_WITH_EFFECTS.contains(&module);
    (listed && (private(module) || parts.any(private)) && !PRIVATE_EVERYDAY.contains(&q)).then_some(
        Unreadable(
            "the code calls a library's private helper, whose effects hookgate does not read",
        ),
    )
}

/// What the call named `q` does, if the reader follows it.
pub(super) fn sink(q: &str) -> Option<Sink> {
    if let Some((_, s)) = SINKS.iter().find(|(name, _)| *name == q) {
        return Some(*s);
    }
    // A method that runs commands whatever its object, of an object the reader knows
    // (`sqlite3.Connection.enable_load_extension`).
    if let Some((_, method)) = q.rsplit_once('.')
        && BY_NAME.contains(&method)
        && let Some((_, s)) = SINKS
            .iter()
            .find(|(name, _)| name.strip_prefix("?.") == Some(method))
    {
        return Some(*s);
    }
    if let Some(s) = private_helper(q) {
        // A function of a private module named as a public one is read as that one
        // (`pip._internal.utils.misc.rmtree` is `?.rmtree`).
        let last = q.rsplit_once('.').map(|(_, f)| format!("?.{f}"));
        let public = SINKS
            .iter()
            .find(|(name, _)| Some(*name) == last.as_deref());
        return Some(public.map_or(s, |(_, sink)| *sink));
    }
    // Functions of the interpreter itself and of native libraries (`ctypes.pythonapi.
    // PyRun_SimpleString`, `ctypes.cdll.LoadLibrary`, `ctypes.CDLL(...).f`).
    if [
        "ctypes.pythonapi.",
        "ctypes.cdll.",
        "ctypes.pydll.",
        "ctypes.CDLL.",
    ]
    .iter()
    .any(|p| q.starts_with(p))
    {
        return Some(NATIVE);
    }
    let (module, function) = q.rsplit_once('.')?;
    // A library's own helper that deletes a tree, under the names such helpers have
    // (`_pytest.pathlib.rm_rf`, `setuptools.dir_util.remove_tree`, a vendored `rimraf`):
    // what it removes is its first argument, as `shutil.rmtree`'s.
    if TREE_REMOVERS.contains(&function) {
        return Some(RM_RF);
    }
    if !HTTP_CLIENTS.contains(&module) {
        return None;
    }
    // `httpx.stream("DELETE", url)`, `aiohttp.request(method, url)`.
    if matches!(function, "request" | "stream") {
        return Some(Request(Method::Given));
    }
    let method = HTTP_METHODS.iter().find(|m| **m == function)?;
    Some(Request(Method::Named(method)))
}

/// Names of functions that delete a directory tree, in any library.
const TREE_REMOVERS: &[&str] = &[
    "rmtree",
    "rm_rf",
    "rm_r",
    "remove_tree",
    "rimraf",
    "delete_tree",
    "remove_dir_all",
    "rmtree_if_exists",
    "force_rmtree",
    "safe_rmtree",
];

/// Calls whose value the reader computes (`os.path.join`): a star import brings them too.
pub(super) const VALUE_FUNCTIONS: &[&str] = &[
    "os.path.expanduser",
    "shlex.quote",
    "os.path.join",
    "urllib.parse.urljoin",
    "unicodedata.normalize",
    "os.path.expandvars",
    "os.getenv",
    "os.environ",
    "pathlib.Path",
    "pathlib.PosixPath",
    "shutil.which",
    "tempfile.gettempdir",
    "tempfile.mkdtemp",
    "tempfile.mktemp",
    "tempfile.mkstemp",
];

/// Method names that run commands whatever object they belong to.
pub(super) const BY_NAME: &[&str] = &[
    "system",
    "popen",
    "getoutput",
    "getstatusoutput",
    "check_output",
    "check_call",
    "Popen",
    "rmtree",
    "urlopen",
    "urlretrieve",
    "runsource",
    "runcode",
    "extractall",
    "exec_module",
    "get_credentials",
    "get_frozen_credentials",
    "enable_load_extension",
    "load_extension",
];

/// Module names that are another name for the same module.
pub(super) fn canonical(name: &str) -> String {
    const ALIASES: &[(&str, &str)] = &[
        ("posix.", "os."),
        ("nt.", "os."),
        ("posixpath.", "os.path."),
        ("setuptools._distutils.", "distutils."),
        // The libraries pip carries are those libraries (`pip._vendor.requests`).
        ("pip._vendor.", ""),
        ("setuptools._vendor.", ""),
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
    ];
    for (alias, real) in ALIASES {
        if let Some(rest) = name.strip_prefix(alias) {
            return format!("{real}{rest}");
        }
    }
    name.to_owned()
}

/// Calls that decode data: running what they return runs what was hidden.
pub(super) fn is_decoder(q: &str) -> bool {
    ["base64.", "binascii.", "zlib.", "gzip.", "bz2.", "lzma."]
        .iter()
        .any(|m| q.starts_with(m))
        || matches!(
            q,
            "codecs.decode" | "bytes.fromhex" | "builtins.bytes.fromhex"
        )
}

#[cfg(test)]
mod tests;
