//! The table of calls the reader follows, by qualified name: one list, reviewed as data,
//! in groups by what the calls do. [`sink`](super::sink) looks names up here first.

use super::Sink::{self, *};
use super::{Method, NATIVE, RM_RF, UNPICKLES};

const HELP: Sink = Unreadable("the code starts help or the debugger, which run other commands");
const UNPICKLE: Sink = Unreadable(UNPICKLES);
const URL: Sink = Network(0, "url", "");
const DOCTEST: Sink = Unreadable("the code runs the examples of a text as Python");
const BROWSER: Sink =
    Unreadable("the code names the command a browser is opened with, and the address it gets");
const INTERPRETER: Sink =
    Unreadable("the code starts a Python interpreter of its own, which runs any code");

/// The calls, by qualified name. `?.name` is a method of an object the reader does not
/// follow, recognised by its name alone.
pub(super) const SINKS: &[(&str, Sink)] = &[
    ("os.system", Shell),
    ("os.popen", Shell),
    ("subprocess.getoutput", Shell),
    ("subprocess.getstatusoutput", Shell),
    ("commands.getoutput", Shell),
    ("commands.getstatusoutput", Shell),
    ("platform.popen", Shell),
    ("asyncio.create_subprocess_shell", Shell),
    ("?.system", Shell),
    ("?.popen", Shell),
    ("?.getoutput", Shell),
    ("?.getstatusoutput", Shell),
    ("subprocess.run", Process),
    ("subprocess.call", Process),
    ("subprocess.check_call", Process),
    ("subprocess.check_output", Process),
    ("subprocess.Popen", Process),
    ("?.check_output", Process),
    ("?.check_call", Process),
    ("?.Popen", Process),
    ("os.execv", ExecList { path: 0, argv: 1 }),
    ("os.execve", ExecList { path: 0, argv: 1 }),
    ("os.execvp", ExecList { path: 0, argv: 1 }),
    ("os.execvpe", ExecList { path: 0, argv: 1 }),
    ("os.posix_spawn", ExecList { path: 0, argv: 1 }),
    ("os.posix_spawnp", ExecList { path: 0, argv: 1 }),
    ("os.spawnv", ExecList { path: 1, argv: 2 }),
    ("os.spawnve", ExecList { path: 1, argv: 2 }),
    ("os.spawnvp", ExecList { path: 1, argv: 2 }),
    ("os.spawnvpe", ExecList { path: 1, argv: 2 }),
    ("os.execl", ExecArgs { path: 0 }),
    ("os.execle", ExecArgs { path: 0 }),
    ("os.execlp", ExecArgs { path: 0 }),
    ("os.execlpe", ExecArgs { path: 0 }),
    ("os.spawnl", ExecArgs { path: 1 }),
    ("os.spawnle", ExecArgs { path: 1 }),
    ("os.spawnlp", ExecArgs { path: 1 }),
    ("os.spawnlpe", ExecArgs { path: 1 }),
    ("asyncio.create_subprocess_exec", Argv),
    ("pty.spawn", ArgvList),
    (
        "multiprocessing.util.spawnv_passfds",
        ExecList { path: 0, argv: 1 },
    ),
    ("shutil.rmtree", RM_RF),
    ("?.rmtree", RM_RF),
    // The cleanup helper of `tempfile.TemporaryDirectory`, called on any path.
    ("tempfile.TemporaryDirectory._rmtree", RM_RF),
    ("?._rmtree", RM_RF),
    // Library calls that hand a string to `sh -c`: a pager (`pydoc.pipepager(text,
    // cmd)`), an IMAP tunnel (`imaplib.IMAP4_stream(cmd)`).
    ("pydoc.pipepager", ShellAt(1)),
    ("imaplib.IMAP4_stream", Shell),
    (
        "pipes.Template",
        Unreadable("the code builds a shell pipeline (pipes.Template), which runs commands"),
    ),
    ("webbrowser.get", BrowserCommand),
    ("webbrowser.GenericBrowser", BROWSER),
    ("webbrowser.BackgroundBrowser", BROWSER),
    ("os.remove", Command("rm", &[], &[0])),
    ("os.unlink", Command("rm", &[], &[0])),
    ("os.rmdir", Command("rmdir", &[], &[0])),
    ("os.mkdir", Command("mkdir", &[], &[0])),
    ("os.makedirs", Command("mkdir", &["-p"], &[0])),
    // A log file the code appends to (`logging.basicConfig(filename=...)` is below).
    ("logging.basicConfig", LogFile),
    ("logging.FileHandler", Command("tee", &["-a"], &[0])),
    (
        "logging.handlers.RotatingFileHandler",
        Command("tee", &["-a"], &[0]),
    ),
    (
        "logging.handlers.TimedRotatingFileHandler",
        Command("tee", &["-a"], &[0]),
    ),
    (
        "logging.handlers.WatchedFileHandler",
        Command("tee", &["-a"], &[0]),
    ),
    // Relative paths after it are in the new directory: read as the shell's `cd`.
    ("os.chdir", Command("cd", &[], &[0])),
    ("os.removedirs", Command("rmdir", &[], &[0])),
    ("os.truncate", Truncate),
    ("shutil.move", Command("mv", &[], &[0, 1])),
    ("os.rename", Command("mv", &[], &[0, 1])),
    ("os.replace", Command("mv", &[], &[0, 1])),
    ("os.renames", Command("mv", &[], &[0, 1])),
    ("shutil.copy", Command("cp", &[], &[0, 1])),
    ("shutil.copy2", Command("cp", &[], &[0, 1])),
    ("shutil.copyfile", Command("cp", &[], &[0, 1])),
    ("shutil.copyfileobj", CopyObj),
    ("shutil.copytree", Command("cp", &["-r"], &[0, 1])),
    ("os.chmod", Chmod),
    ("os.lchmod", Chmod),
    ("os.chown", Command("chown", &[], &[0])),
    ("os.lchown", Command("chown", &[], &[0])),
    ("shutil.chown", Command("chown", &[], &[0])),
    ("os.symlink", Command("ln", &["-s"], &[0, 1])),
    ("os.link", Command("ln", &[], &[0, 1])),
    // Raw extended attributes (a file capability, an ACL) and device nodes, as the shell
    // tools that make them.
    ("os.setxattr", Command("setfattr", &["-n"], &[1, 0])),
    ("os.lsetxattr", Command("setfattr", &["-h", "-n"], &[1, 0])),
    ("os.mknod", Command("mknod", &[], &[0])),
    ("os.kill", Kill),
    ("signal.pidfd_send_signal", Kill),
    // Limits set on another process (`resource.prlimit(pid, RLIMIT_NOFILE, (0, 0))`).
    ("resource.prlimit", Command("prlimit", &["--pid"], &[0])),
    // Another process's priority, scheduling or processors, as the tools that set them
    // (`os.setpriority(os.PRIO_PROCESS, pid, 19)` is `renice 19 PID`).
    ("os.setpriority", Command("renice", &[], &[2, 1])),
    ("os.sched_setscheduler", Command("chrt", &["-p"], &[0])),
    ("os.sched_setaffinity", Command("taskset", &["-p"], &[0])),
    // The interpreter multiprocessing starts its workers with.
    ("multiprocessing.set_executable", Argv),
    ("multiprocessing.spawn.set_executable", Argv),
    ("os.killpg", Kill),
    ("builtins.open", Open),
    ("io.open", Open),
    ("codecs.open", Open),
    ("os.open", Open),
    ("fileinput.input", FileInput),
    ("fileinput.FileInput", FileInput),
    ("io.FileIO", Open),
    // Libraries that open a credential file themselves and return what it holds: read as
    // `cat` of that file. (`load_dotenv()` only sets the environment, as apps do.)
    ("netrc.netrc", ReadsOr("~/.netrc", "file")),
    ("spwd.getspall", Command("cat", &["/etc/shadow"], &[])),
    ("spwd.getspnam", Command("cat", &["/etc/shadow"], &[])),
    ("dotenv.dotenv_values", ReadsOr(".env", "dotenv_path")),
    ("dotenv.main.dotenv_values", ReadsOr(".env", "dotenv_path")),
    (
        "?.get_credentials",
        Command("cat", &["~/.aws/credentials"], &[]),
    ),
    (
        "?.get_frozen_credentials",
        Command("cat", &["~/.aws/credentials"], &[]),
    ),
    // The desktop keyring's secrets, as `secret-tool lookup` prints them.
    (
        "keyring.get_password",
        Command("secret-tool", &["lookup"], &[]),
    ),
    (
        "keyring.get_credential",
        Command("secret-tool", &["lookup"], &[]),
    ),
    // The same store over D-Bus: each collection and search leads to every secret in it.
    (
        "secretstorage.get_default_collection",
        Command("secret-tool", &["search", "--all"], &[]),
    ),
    (
        "secretstorage.get_all_collections",
        Command("secret-tool", &["search", "--all"], &[]),
    ),
    (
        "secretstorage.get_any_collection",
        Command("secret-tool", &["search", "--all"], &[]),
    ),
    (
        "secretstorage.get_collection_by_alias",
        Command("secret-tool", &["search", "--all"], &[]),
    ),
    (
        "secretstorage.search_items",
        Command("secret-tool", &["search", "--all"], &[]),
    ),
    ("io.open_code", Command("cat", &[], &[0])),
    ("linecache.getlines", Command("cat", &[], &[0])),
    ("linecache.getline", Command("cat", &[], &[0])),
    ("configparser.ConfigParser.read", Command("cat", &[], &[0])),
    // `make_archive(base, format, root_dir, base_dir)` copies what `root_dir/base_dir`
    // holds into the archive (see `call`).
    ("shutil.make_archive", Archive),
    // A database file is read whole by whoever opens it (a browser's cookie store).
    ("sqlite3.connect", Database),
    ("sqlite3.Connection.execute", Sql),
    ("sqlite3.Connection.executemany", Sql),
    ("sqlite3.Connection.executescript", Sql),
    // Parsers and stores that open the file they are given.
    ("xml.etree.ElementTree.parse", Command("cat", &[], &[0])),
    ("xml.etree.ElementTree.iterparse", Command("cat", &[], &[0])),
    ("xml.dom.minidom.parse", Command("cat", &[], &[0])),
    ("xml.sax.parse", Command("cat", &[], &[0])),
    ("shelve.open", DbmOpen("c")),
    ("dbm.open", DbmOpen("r")),
    ("readline.read_history_file", Command("cat", &[], &[0])),
    ("readline.read_init_file", Command("cat", &[], &[0])),
    ("mimetypes.read_mime_types", Command("cat", &[], &[0])),
    // An import loader used as a file reader (`SourceFileLoader(name, p).get_data(p)`), or
    // to run the module it loads.
    (
        "importlib.machinery.SourceFileLoader.get_data",
        Command("cat", &[], &[0]),
    ),
    (
        "importlib.machinery.SourceFileLoader.exec_module",
        Unreadable("the code runs a module it loads itself"),
    ),
    (
        "importlib.machinery.SourceFileLoader.load_module",
        Unreadable("the code runs a module it loads itself"),
    ),
    // Writers of the file they are given.
    (
        "xml.etree.ElementTree.ElementTree.write",
        WritesFile(0, "file_or_filename"),
    ),
    ("zipapp.create_archive", WritesFile(1, "target")),
    ("py_compile.compile", WritesFile(1, "cfile")),
    // Writers of a file they are given: a cookie jar saves over it, an audio file opens
    // as `open` does.
    ("http.cookiejar.MozillaCookieJar", Command("tee", &[], &[0])),
    ("http.cookiejar.LWPCookieJar", Command("tee", &[], &[0])),
    ("wave.open", Open),
    // What an archive takes in is read, as `cp -r` of it would (`tar -czf x ~/.ssh`).
    ("tarfile.TarFile.add", Command("cp", &["-r"], &[0])),
    ("zipfile.ZipFile.write", Command("cp", &["-r"], &[0])),
    ("zipfile.ZipFile", ZipFile),
    // Path's methods called on the class, the path first (`map(Path.unlink, paths)`).
    ("pathlib.Path.unlink", Command("rm", &[], &[0])),
    ("pathlib.Path.rmdir", Command("rmdir", &[], &[0])),
    ("pathlib.Path.read_text", Command("cat", &[], &[0])),
    ("pathlib.Path.read_bytes", Command("cat", &[], &[0])),
    ("pathlib.Path.write_text", Command("tee", &[], &[0])),
    ("pathlib.Path.write_bytes", Command("tee", &[], &[0])),
    // pip run from code, as `pip ARGS` in the shell.
    ("pip.main", Tool("pip")),
    ("pip._internal.main", Tool("pip")),
    ("pip._internal.cli.main.main", Tool("pip")),
    (
        "operator.methodcaller",
        Unreadable("the code calls a method by a name given as data"),
    ),
    ("builtins.exec", Eval),
    ("builtins.eval", Eval),
    ("builtins.__import__", Import),
    ("importlib.import_module", Import),
    ("importlib.__import__", Import),
    ("builtins.getattr", Getattr),
    ("os.fork", Fork),
    ("os.forkpty", Fork),
    // A function run in every child a fork makes: one that forks again never stops.
    (
        "os.register_at_fork",
        Unreadable("the code runs a function in every process it forks (os.register_at_fork)"),
    ),
    ("pty.fork", Fork),
    ("multiprocessing.Process", Spawn),
    ("threading.Thread", Spawn),
    ("builtins.help", HELP),
    ("builtins.breakpoint", HELP),
    ("pdb.set_trace", HELP),
    ("pydoc.pager", HELP),
    ("code.interact", HELP),
    // An interpreter of its own runs whatever source it is given, line by line.
    ("code.InteractiveInterpreter", INTERPRETER),
    ("code.InteractiveConsole", INTERPRETER),
    ("code.compile_command", Eval),
    ("?.runsource", Eval),
    ("?.runcode", Eval),
    (
        "?.exec_module",
        Unreadable("the code runs a module it loads itself"),
    ),
    // `runpy` runs a script or a module as `python3 FILE` and `python3 -m NAME` would.
    ("runpy.run_path", Command("python3", &[], &[0])),
    // Where imports look: a module the code downloaded there runs when it is imported.
    ("sys.path.insert", ModulePath(1, "")),
    ("sys.path.append", ModulePath(0, "")),
    ("sys.path.extend", ModulePath(0, "")),
    ("site.addsitedir", ModulePath(0, "sitedir")),
    ("zipimport.zipimporter", ModulePath(0, "path")),
    (
        "importlib.util.spec_from_file_location",
        ModulePath(1, "location"),
    ),
    (
        "importlib.machinery.SourceFileLoader",
        ModulePath(1, "path"),
    ),
    // A setup script run in the interpreter, as `python3 setup.py` runs it; a source file
    // loaded as a module (`imp.load_source(name, path)`).
    ("distutils.core.run_setup", Command("python3", &[], &[0])),
    ("imp.load_source", Command("python3", &[], &[1])),
    // distutils' file helpers (also setuptools' vendored copy): what each does to files.
    (
        "distutils.dir_util.remove_tree",
        Command("rm", &["-r", "-f"], &[0]),
    ),
    (
        "distutils.dir_util.copy_tree",
        Command("cp", &["-r"], &[0, 1]),
    ),
    ("distutils.dir_util.mkpath", Command("mkdir", &["-p"], &[0])),
    ("distutils.file_util.copy_file", Command("cp", &[], &[0, 1])),
    ("distutils.file_util.move_file", Command("mv", &[], &[0, 1])),
    ("distutils.file_util.write_file", Command("tee", &[], &[0])),
    ("distutils.spawn.spawn", ArgvList),
    (
        "distutils.ccompiler.new_compiler",
        Unreadable("the code compiles and links native code"),
    ),
    // Code run in a sub-interpreter.
    (
        "_xxsubinterpreters.run_string",
        Unreadable("the code runs code in a sub-interpreter"),
    ),
    (
        "_interpreters.run_string",
        Unreadable("the code runs code in a sub-interpreter"),
    ),
    (
        "_interpreters.exec",
        Unreadable("the code runs code in a sub-interpreter"),
    ),
    // Writers of the file they are given: a mailbox rewrites it.
    ("mailbox.mbox", Command("tee", &[], &[0])),
    ("mailbox.MH", Command("tee", &[], &[0])),
    ("mailbox.Maildir", Command("tee", &[], &[0])),
    // An XML-RPC proxy posts each method call to its URL.
    (
        "xmlrpc.client.ServerProxy",
        Command("curl", &["-X", "POST"], &[0]),
    ),
    // A socket that takes logging configurations, which may name any callable to build.
    (
        "logging.config.listen",
        Unreadable("the code takes logging configurations from a socket, which can run any code"),
    ),
    // SQLite extensions are native libraries.
    (
        "?.enable_load_extension",
        Unreadable("the code lets SQLite load native extensions"),
    ),
    (
        "?.load_extension",
        Unreadable("the code loads a native SQLite extension"),
    ),
    ("runpy.run_module", Command("python3", &["-m"], &[0])),
    // GitPython's `git.execute([...])` runs any command it is given, not only git.
    ("git.Repo.git.execute", ArgvList),
    ("git.Git.execute", ArgvList),
    ("git.cmd.Git.execute", ArgvList),
    // python-crontab: a job's command runs later, from the crontab `write` installs.
    ("crontab.CronTab.new", ShellAt(0)),
    ("crontab.CronTab.write", Command("crontab", &["-"], &[])),
    // Libraries that run the Python source they are given: timing, profiling, doctests.
    ("timeit.timeit", Timeit),
    ("timeit.repeat", Timeit),
    ("timeit.Timer", Timeit),
    ("cProfile.run", Eval),
    ("cProfile.runctx", Eval),
    ("profile.run", Eval),
    ("profile.runctx", Eval),
    ("pdb.run", Eval),
    ("pdb.runctx", Eval),
    ("pdb.runeval", Eval),
    ("bdb.Bdb.run", Eval),
    ("bdb.Bdb.runctx", Eval),
    ("bdb.Bdb.runeval", Eval),
    ("trace.Trace.run", Eval),
    ("trace.Trace.runctx", Eval),
    ("cProfile.Profile.run", Eval),
    ("cProfile.Profile.runctx", Eval),
    ("doctest.run_docstring_examples", DOCTEST),
    // The examples in the docstrings of a module, its own when none is given.
    ("doctest.testmod", OwnDoctests),
    ("doctest.DocTestSuite", DOCTEST),
    ("doctest.DocFileSuite", DOCTEST),
    ("?.get_doctest", DOCTEST),
    (
        "doctest.testfile",
        Command("python3", &["-m", "doctest"], &[0]),
    ),
    // An object found by its dotted name (`pydoc.locate('shutil.rmtree')`), as an import.
    ("pydoc.locate", Import),
    ("pkgutil.resolve_name", Import),
    // Loaders that build any object the data names: what is downloaded is run.
    ("yaml.unsafe_load", Deserialize),
    ("yaml.unsafe_load_all", Deserialize),
    ("yaml.load", Deserialize),
    ("yaml.load_all", Deserialize),
    ("logging.config.fileConfig", Deserialize),
    ("jsonpickle.decode", Deserialize),
    ("jsonpickle.loads", Deserialize),
    ("jsonpickle.unpickler.decode", Deserialize),
    // Parsers of expressions that `eval` the text they are given.
    ("sympy.sympify", Eval),
    ("sympy.parse_expr", Eval),
    ("sympy.parsing.sympy_parser.parse_expr", Eval),
    ("sympy.core.sympify.sympify", Eval),
    ("jinja2.Template", Template),
    ("mako.template.Template", Template),
    ("logging.config.dictConfig", DictConfig),
    // Unpacking writes every file the archive holds, where it says.
    (
        "shutil.unpack_archive",
        Extract {
            archive: Some(0),
            into: 1,
        },
    ),
    (
        "tarfile.TarFile.extractall",
        Extract {
            archive: None,
            into: 0,
        },
    ),
    (
        "zipfile.ZipFile.extractall",
        Extract {
            archive: None,
            into: 0,
        },
    ),
    (
        "?.extractall",
        Extract {
            archive: None,
            into: 0,
        },
    ),
    // A function made of a code object (`compile` gives one) runs it when called.
    (
        "types.FunctionType",
        Unreadable(
            "the code makes a function of a code object, to be called where it cannot be followed",
        ),
    ),
    (
        "types.CodeType",
        Unreadable(
            "the code makes a function of a code object, to be called where it cannot be followed",
        ),
    ),
    ("pickle.loads", UNPICKLE),
    ("pickle.load", UNPICKLE),
    ("marshal.loads", UNPICKLE),
    ("dill.loads", UNPICKLE),
    // Libraries that unpickle what they read.
    ("pandas.read_pickle", UNPICKLE),
    ("joblib.load", UNPICKLE),
    ("dill.load", UNPICKLE),
    ("cloudpickle.load", UNPICKLE),
    ("cloudpickle.loads", UNPICKLE),
    ("numpy.load", UnpicklesWhen("allow_pickle", true)),
    ("torch.load", UnpicklesWhen("weights_only", false)),
    ("ctypes.CDLL", NATIVE),
    ("ctypes.CFUNCTYPE", NATIVE),
    ("ctypes.PYFUNCTYPE", NATIVE),
    ("ctypes.cdll.LoadLibrary", NATIVE),
    ("cffi.FFI", NATIVE),
    ("urllib.request.urlopen", URL),
    ("urllib.request.urlretrieve", Download),
    ("?.urlopen", URL),
    ("?.urlretrieve", Download),
    ("webbrowser.open", URL),
    ("webbrowser.open_new", URL),
    ("webbrowser.open_new_tab", URL),
    ("socket.gethostbyname", Lookup),
    ("socket.gethostbyname_ex", Lookup),
    ("socket.gethostbyaddr", Lookup),
    ("socket.getaddrinfo", Lookup),
    ("socket.getfqdn", Lookup),
    ("http.server.HTTPServer", Serve),
    ("http.server.ThreadingHTTPServer", Serve),
    ("socketserver.TCPServer", Serve),
    ("socketserver.ThreadingTCPServer", Serve),
    ("socketserver.ForkingTCPServer", Serve),
    ("urllib3.request", Request(Method::Given)),
    ("requests.request", Request(Method::Given)),
    ("httpx.request", Request(Method::Given)),
    ("http.client.HTTPConnection", Network(0, "host", "http://")),
    (
        "http.client.HTTPSConnection",
        Network(0, "host", "https://"),
    ),
    ("ftplib.FTP", Network(0, "host", "ftp://")),
    ("ftplib.FTP_TLS", Network(0, "host", "ftp://")),
    ("smtplib.SMTP", Network(0, "host", "smtp://")),
    ("smtplib.SMTP_SSL", Network(0, "host", "smtp://")),
    ("telnetlib.Telnet", Network(0, "host", "telnet://")),
    ("socket.create_connection", Network(0, "address", "tcp://")),
    ("asyncio.open_connection", Network(0, "host", "tcp://")),
    (
        "multiprocessing.connection.Client",
        Network(0, "address", "tcp://"),
    ),
    // Log records sent over the network.
    ("logging.handlers.HTTPHandler", Network(0, "url", "http://")),
    (
        "logging.handlers.SocketHandler",
        Network(0, "host", "tcp://"),
    ),
    (
        "logging.handlers.DatagramHandler",
        Network(0, "host", "udp://"),
    ),
    (
        "logging.handlers.SMTPHandler",
        Network(0, "mailhost", "smtp://"),
    ),
    // A socket made by `socket.socket()`, whatever its address is given as.
    ("socket.socket.connect", Network(0, "address", "tcp://")),
    ("socket.socket.connect_ex", Network(0, "address", "tcp://")),
    ("socket.socket.sendto", Network(1, "address", "udp://")),
    // Any other object's `connect((host, port))`: only with an address tuple (see
    // `call`), since many objects have a `connect` that is no network (a Qt signal's).
    ("?.connect", Network(0, "address", "tcp://")),
];
