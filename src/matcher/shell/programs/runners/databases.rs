//! Database clients: where their SQL (or commands) come from and what their own
//! meta-commands run. Each SQL statement becomes a virtual `sql` command (`psql -c 'DROP
//! TABLE t'` reads as `sql drop table t`, see `matcher::sql`); `redis-cli` and `mongosh`
//! get a view "as the client reads it" (`redis-cli -h db -n 2 FLUSHALL` is `redis-cli
//! flushall`); the shell escapes of each client (`\!` in psql and mysql, `.shell` in
//! sqlite3, `COPY ... PROGRAM`, a pager) are read as the shell commands they are.
//!
//! SQL or code whose text is not known before it runs (`psql -c "$Q"`, a pipe from a
//! command, psql's `\gexec`) reads as `sql --unreadable`, which the databases pack asks about.

use crate::matcher::shell::SimpleCommand;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::Options;
use crate::matcher::shell::walk::{Data, Io, Reader};
use crate::matcher::sql::{self, Dialect, UNREADABLE};

/// An option's value or an operand, with whether the reader knows it.
struct Arg {
    text: String,
    unknown: bool,
}

/// One option (its full name: `c`, `command`) or operand.
enum Item {
    Opt(String, Option<Arg>),
    Operand(Arg),
}

/// How a client spells its options.
struct Spec {
    options: Options,
    /// `-cmd`: long options take one dash, as sqlite3 and duckdb read them.
    single_dash_long: bool,
}

/// Every option and operand of `args`, options anywhere (these clients permute), each
/// long option resolved as the client resolves it.
fn scan(args: &[Field], spec: &Spec) -> Vec<Item> {
    let mut items = Vec::new();
    let mut i = 0;
    let arg = |f: &Field, text: &str| Arg {
        text: text.to_owned(),
        unknown: f.unknown,
    };
    while let Some(field) = args.get(i) {
        i += 1;
        let a = field.text.as_str();
        if a == "--" {
            items.extend(args[i..].iter().map(|f| Item::Operand(arg(f, &f.text))));
            break;
        }
        let long = a.strip_prefix("--").or_else(|| {
            a.strip_prefix('-')
                .filter(|rest| spec.single_dash_long && rest.len() > 1)
        });
        if let Some(long) = long.filter(|l| !l.is_empty()) {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(arg(field, v))),
                None => (long, None),
            };
            let (full, takes_value) = spec.options.resolve_long(name).unwrap_or((name, false));
            let value = if takes_value && attached.is_none() {
                i += 1;
                args.get(i - 1).map(|f| arg(f, &f.text))
            } else {
                attached
            };
            items.push(Item::Opt(full.to_owned(), value));
            continue;
        }
        match a.strip_prefix('-').filter(|b| !b.is_empty()) {
            Some(bundle) => {
                for (k, c) in bundle.char_indices() {
                    if spec.options.short_with_value.contains(c) {
                        let rest = &bundle[k + c.len_utf8()..];
                        let value = if rest.is_empty() {
                            i += 1;
                            args.get(i - 1).map(|f| arg(f, &f.text))
                        } else {
                            Some(arg(field, rest))
                        };
                        items.push(Item::Opt(c.to_string(), value));
                        break;
                    }
                    items.push(Item::Opt(c.to_string(), None));
                }
            }
            None => items.push(Item::Operand(arg(field, a))),
        }
    }
    items
}

/// The value of the option named `short` or `long`, if `item` is that option.
fn value_of<'a>(item: &'a Item, names: &[&str]) -> Option<&'a Arg> {
    match item {
        Item::Opt(name, Some(value)) if names.contains(&name.as_str()) => Some(value),
        _ => None,
    }
}

const PSQL: Spec = Spec {
    options: Options {
        short_with_value: "cdfvLoFPRThpU",
        long: &[
            "command=",
            "dbname=",
            "file=",
            "list",
            "set=",
            "variable=",
            "version",
            "no-psqlrc",
            "single-transaction",
            "help",
            "echo-all",
            "echo-errors",
            "echo-queries",
            "echo-hidden",
            "log-file=",
            "no-readline",
            "output=",
            "quiet",
            "single-step",
            "single-line",
            "no-align",
            "csv",
            "field-separator=",
            "html",
            "pset=",
            "record-separator=",
            "tuples-only",
            "table-attr=",
            "expanded",
            "field-separator-zero",
            "record-separator-zero",
            "host=",
            "port=",
            "username=",
            "no-password",
            "password",
        ],
        abbreviations: true,
    },
    single_dash_long: false,
};

const MYSQL: Spec = Spec {
    options: Options {
        short_with_value: "DehPSuOC",
        long: &[
            "execute=",
            "database=",
            "host=",
            "port=",
            "socket=",
            "user=",
            "pager=",
            "tee=",
            "init-command=",
            "default-character-set=",
            "defaults-file=",
            "defaults-extra-file=",
            "login-path=",
            "prompt=",
            "protocol=",
            "batch",
            "force",
            "table",
            "verbose",
            "silent",
            "skip-column-names",
            "help",
            "version",
        ],
        abbreviations: true,
    },
    single_dash_long: false,
};

const SQLITE: Spec = Spec {
    options: Options {
        short_with_value: "cs",
        long: &[
            "cmd=",
            "init=",
            "separator=",
            "newline=",
            "nullvalue=",
            "mmap=",
            "vfs=",
            "maxsize=",
            "nonce=",
            "escape=",
            "lookaside=",
            "pagecache=",
            "heap=",
        ],
        abbreviations: false,
    },
    single_dash_long: true,
};

const REDIS: Spec = Spec {
    options: Options {
        short_with_value: "hpsauirndt",
        long: &[
            "user=",
            "pass=",
            "rdb=",
            "functions-rdb=",
            "pipe-timeout=",
            "pattern=",
            "count=",
            "quoted-pattern=",
            "intrinsic-latency=",
            "eval=",
            "cacert=",
            "cacertdir=",
            "cert=",
            "key=",
            "sni=",
            "tls-ciphers=",
            "tls-ciphersuites=",
            "memkeys-samples=",
            "lru-test=",
        ],
        abbreviations: false,
    },
    single_dash_long: false,
};

const MONGOSH: Spec = Spec {
    options: Options {
        short_with_value: "upf",
        long: &[
            "eval=",
            "file=",
            "host=",
            "port=",
            "username=",
            "password=",
            "authenticationDatabase=",
            "authenticationMechanism=",
            "tlsCAFile=",
            "tlsCertificateKeyFile=",
            "apiVersion=",
        ],
        abbreviations: false,
    },
    single_dash_long: false,
};

/// Reads a database client's command line.
pub(in crate::matcher::shell::programs) fn client(
    r: &mut Reader,
    program: &str,
    args: &[Field],
    stdin: Data,
) {
    match program {
        "psql" => psql(r, args, stdin),
        "mysql" | "mariadb" => mysql(r, program, args, stdin),
        "sqlite3" | "sqlite" | "duckdb" => sqlite(r, program, args, stdin),
        "redis-cli" | "valkey-cli" | "keydb-cli" => redis(r, program, args, stdin),
        _ => mongosh(r, program, args, stdin),
    }
}

/// The text of a script file named on the line (see [`super::file_text`]).
fn file_text(r: &mut Reader, file: &Arg, stdin: &Data) -> Option<Data> {
    super::file_text(r, &file.text, file.unknown, stdin)
}

/// Records the virtual commands of a text of SQL (with the client's own meta-commands in
/// it) that `program` runs.
fn sql_text(r: &mut Reader, program: &str, dialect: Dialect, text: &Data) {
    let origin = format!("SQL run by {program}");
    match text {
        Data::Nothing => {}
        Data::Unknown | Data::Listing(..) => r.reached(origin, |r| unreadable(r, "sql")),
        Data::Known(text) => {
            let sql = r.reached(origin.clone(), |r| meta_commands(r, program, text));
            let reading = sql::read(dialect, &sql);
            if let Some(why) = reading.opaque {
                r.opaque(why);
            }
            r.reached(origin, |r| {
                for words in reading.statements {
                    r.record(virtual_command("sql", words));
                }
                for command in reading.programs {
                    r.reached(format!("run by the SQL of {program}"), |r| {
                        r.script(&command, Data::Nothing);
                    });
                }
            });
        }
    }
}

fn virtual_command(program: &str, args: Vec<String>) -> SimpleCommand {
    SimpleCommand {
        program: program.to_owned(),
        args,
        redirects: Vec::new(),
        origin: None,
        dir: None,
    }
}

fn unreadable(r: &mut Reader, program: &str) {
    r.record(virtual_command(program, vec![UNREADABLE.to_owned()]));
}

/// Takes a client's meta-commands out of `text`, reading the ones that run shell commands
/// or unknown SQL, and returns the SQL left.
fn meta_commands(r: &mut Reader, program: &str, text: &str) -> String {
    let mut sql = String::with_capacity(text.len());
    for line in text.lines() {
        let trimmed = line.trim_start();
        // Where the line's meta-commands start, and the SQL before them.
        let meta = match program {
            // sqlite3 and duckdb: a dot-command fills its line.
            "sqlite3" | "sqlite" | "duckdb" => trimmed.strip_prefix('.').map(|m| (0, m)),
            // mysql: `\!`-style commands anywhere, long forms at the start of a line.
            "mysql" | "mariadb" => backslash(line)
                .map(|k| (k, &line[k + 1..]))
                .or_else(|| mysql_long_form(trimmed).map(|m| (0, m))),
            // psql: a backslash outside quotes starts the line's meta-commands.
            _ => backslash(line).map(|k| (k, &line[k + 1..])),
        };
        if let Some((k, command)) = meta {
            sql.push_str(&line[..k]);
            meta_command(r, program, command);
        } else {
            sql.push_str(line);
        }
        sql.push('\n');
    }
    sql
}

/// The byte offset of the first backslash of `line` outside SQL quotes.
fn backslash(line: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (k, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"' | '`') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '\\') => return Some(k),
            _ => {}
        }
    }
    None
}

/// mysql's long-form client commands at the start of a line, as their `\` forms.
fn mysql_long_form(line: &str) -> Option<&str> {
    let (word, _) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    match word.to_ascii_lowercase().as_str() {
        "system" | "pager" | "source" => Some(line),
        _ => None,
    }
}

/// One meta-command (without its leading `\` or `.`).
fn meta_command(r: &mut Reader, program: &str, command: &str) {
    let (name, rest) = command
        .split_once(char::is_whitespace)
        .map_or((command, ""), |(n, rest)| (n, rest.trim()));
    let name = name.to_ascii_lowercase();
    let shell = |r: &mut Reader, script: &str| {
        // The clients run these with `system()`: `/bin/sh -c`.
        r.reached(format!("a shell escape of {program}"), |r| {
            super::shell_c(r, script);
        });
    };
    match name.as_str() {
        // psql `\! cmd`, mysql `\! cmd`/`system cmd`, sqlite `.shell cmd`/`.system cmd`.
        "!" | "system" | "shell" => shell(r, &sqlite_unquoted(rest)),
        // A pager or an output piped into a command runs it.
        "pager" | "p" => shell(r, rest),
        "o" | "out" | "g" | "gx" | "w" | "write" | "output" | "once" => {
            let unquoted = sqlite_unquoted(rest);
            let piped = rest
                .strip_prefix('|')
                .or_else(|| unquoted.strip_prefix('|'));
            if let Some(command) = piped {
                // The command reads the rows the queries give, which are not known here.
                r.reached(format!("a pipe from {program}"), |r| {
                    super::shell_c_reading(r, command, Data::Unknown);
                });
            } else if is_sqlite(program) && matches!(name.as_str(), "output" | "once") {
                // `.output FILE` writes the results to FILE (`-x`, `-e`: a spreadsheet or
                // an editor, with a file of their own).
                if let Some(file) = unquoted.split_whitespace().find(|w| !w.starts_with('-')) {
                    file_command(r, "tee", file);
                } else if unquoted.split_whitespace().any(|w| w == "-e") {
                    r.opaque("sqlite3 opens its output in the editor of the environment");
                }
            }
        }
        // sqlite3 writes a database into the file named last (`.backup ?DB? FILE`,
        // `.save FILE`), and reads one so (`.restore ?DB? FILE`); `.open --new FILE`
        // empties FILE first.
        "backup" | "save" | "clone" | "restore" if is_sqlite(program) => {
            let unquoted = sqlite_unquoted(rest);
            if let Some(file) = unquoted
                .split_whitespace()
                .rev()
                .find(|w| !w.starts_with('-'))
            {
                let reads = name == "restore";
                file_command(r, if reads { "cat" } else { "tee" }, file);
            }
        }
        "open" if is_sqlite(program) => {
            let unquoted = sqlite_unquoted(rest);
            if let Some(file) = unquoted.split_whitespace().find(|w| !w.starts_with('-')) {
                let writes = unquoted.split_whitespace().any(|w| w == "--new");
                file_command(r, if writes { "tee" } else { "cat" }, file);
            }
        }
        "import" | "read" => {
            let source = sqlite_unquoted(rest);
            if let Some(command) = source.strip_prefix('|') {
                shell(r, command);
                if name == "read" {
                    unreadable(r, "sql");
                }
            } else if is_sqlite(program)
                && let Some(file) = source.split_whitespace().find(|w| !w.starts_with('-'))
            {
                // `.import FILE TABLE` reads FILE, as `.read FILE` does its SQL.
                file_command(r, "cat", file);
            }
        }
        "copy" => {
            // `\copy t from program 'cmd'`: the client runs cmd.
            let lower = rest.to_ascii_lowercase();
            if let Some(k) = lower.find("program") {
                let quoted = rest[k + "program".len()..].trim_start();
                let command = quoted
                    .strip_prefix('\'')
                    .and_then(|q| q.split_once('\''))
                    .map_or(quoted, |(c, _)| c);
                shell(r, command);
            }
        }
        // The result rows run as SQL, or a setting runs a command later.
        "gexec" => unreadable(r, "sql"),
        "setenv" => {
            let (variable, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if matches!(
                variable,
                "PAGER" | "PSQL_PAGER" | "EDITOR" | "PSQL_EDITOR" | "VISUAL" | "SHELL"
            ) {
                shell(r, value.trim().trim_matches('\''));
            }
        }
        "load" => r.opaque("the database client loads a native extension"),
        _ => {}
    }
}

fn is_sqlite(program: &str) -> bool {
    matches!(program, "sqlite3" | "sqlite" | "duckdb")
}

/// A file a meta-command reads or writes, as the command that would (`cat FILE`, `tee
/// FILE`).
fn file_command(r: &mut Reader, program: &str, file: &str) {
    let words = vec![Field::literal(program), Field::literal(file)];
    r.run(words, &Io::default(), Data::Nothing, &[]);
}

/// A sqlite dot-command's arguments as sqlite reads them: quoted words unquoted, joined by
/// spaces (`.system "rm -rf x"` runs `rm -rf x`).
fn sqlite_unquoted(rest: &str) -> String {
    let mut words = Vec::new();
    let mut chars = rest.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '\'' || c == '"' {
            chars.next();
            for d in chars.by_ref() {
                if d == c {
                    break;
                }
                word.push(d);
            }
        } else {
            while let Some(&d) = chars.peek() {
                if d.is_whitespace() {
                    break;
                }
                word.push(d);
                chars.next();
            }
        }
        words.push(word);
    }
    words.join(" ")
}

fn psql(r: &mut Reader, args: &[Field], stdin: Data) {
    let mut ran = false;
    for item in scan(args, &PSQL) {
        if let Some(sql) = value_of(&item, &["c", "command"]) {
            ran = true;
            let text = if sql.unknown {
                Data::Unknown
            } else {
                Data::Known(sql.text.clone())
            };
            sql_text(r, "psql", Dialect::Postgres, &text);
        } else if let Some(file) = value_of(&item, &["f", "file"]) {
            ran = true;
            if let Some(text) = file_text(r, file, &stdin) {
                sql_text(r, "psql", Dialect::Postgres, &text);
            }
        } else if let Some(command) = value_of(&item, &["o", "output", "L", "log-file"])
            .and_then(|output| output.text.strip_prefix('|'))
        {
            r.reached("the output of psql piped into a command".to_owned(), |r| {
                r.script(command, Data::Nothing);
            });
        }
    }
    if !ran {
        sql_text(r, "psql", Dialect::Postgres, &stdin);
    }
}

fn mysql(r: &mut Reader, program: &str, args: &[Field], stdin: Data) {
    // `-pSECRET` is a password attached to `-p`, never a bundle of flags; `-p` alone asks
    // for one.
    let args: Vec<Field> = args
        .iter()
        .filter(|a| !(a.text.starts_with("-p") || a.text.starts_with("--password")))
        .cloned()
        .collect();
    let mut ran = false;
    for item in scan(&args, &MYSQL) {
        if let Some(sql) = value_of(&item, &["e", "execute"]) {
            ran = true;
            let text = if sql.unknown {
                Data::Unknown
            } else {
                Data::Known(sql.text.clone())
            };
            sql_text(r, program, Dialect::MySql, &text);
        } else if let Some(sql) = value_of(&item, &["init-command"]) {
            let text = Data::Known(sql.text.clone());
            sql_text(r, program, Dialect::MySql, &text);
        } else if let Some(pager) = value_of(&item, &["pager"]) {
            meta_command(r, program, &format!("pager {}", pager.text));
        }
    }
    if !ran {
        sql_text(r, program, Dialect::MySql, &stdin);
    }
}

fn sqlite(r: &mut Reader, program: &str, args: &[Field], stdin: Data) {
    let dialect = if program == "duckdb" {
        Dialect::DuckDb
    } else {
        Dialect::Sqlite
    };
    let mut ran = false;
    let mut database_named = false;
    for item in scan(args, &SQLITE) {
        let text = match &item {
            Item::Operand(_) if !database_named => {
                database_named = true;
                continue;
            }
            Item::Operand(sql) => Some(sql),
            // duckdb's `-c`/`-s` run a command and exit, as operands do.
            Item::Opt(name, Some(sql))
                if name == "cmd" || (program == "duckdb" && (name == "c" || name == "s")) =>
            {
                Some(sql)
            }
            Item::Opt(name, Some(file)) if name == "init" => {
                if let Some(text) = file_text(r, file, &stdin) {
                    sql_text(r, program, dialect, &text);
                }
                None
            }
            _ => None,
        };
        if let Some(sql) = text {
            ran = ran || !matches!(&item, Item::Opt(name, _) if name == "cmd");
            let text = if sql.unknown {
                Data::Unknown
            } else {
                Data::Known(sql.text.clone())
            };
            sql_text(r, program, dialect, &text);
        }
    }
    if !ran {
        sql_text(r, program, dialect, &stdin);
    }
}

/// Records a `redis-cli` command as the server reads it: its name lowercased first.
fn redis_command(r: &mut Reader, program: &str, words: Vec<(String, bool)>) {
    let Some(((name, unknown), rest)) = words.split_first() else {
        return;
    };
    if *unknown {
        unreadable(r, program);
        return;
    }
    let mut args = vec![name.to_ascii_lowercase()];
    args.extend(rest.iter().map(|(w, _)| w.clone()));
    // Scripts run on the server: the commands their `redis.call('...')` name.
    if matches!(args[0].as_str(), "eval" | "eval_ro" | "fcall" | "function")
        && let Some(script) = rest.first()
    {
        for called in lua_calls(&script.0) {
            r.record(virtual_command(program, vec![called]));
        }
    }
    r.record(virtual_command(program, args));
}

/// The command names of the `redis.call('NAME', ...)`/`pcall` in a Lua script.
fn lua_calls(script: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (k, _) in script.match_indices("call(") {
        let after = script[k + "call(".len()..].trim_start();
        let Some(quote) = after.chars().next().filter(|c| *c == '\'' || *c == '"') else {
            found.push(UNREADABLE.to_owned());
            continue;
        };
        if let Some((name, _)) = after[1..].split_once(quote) {
            found.push(name.to_ascii_lowercase());
        }
    }
    found
}

fn redis(r: &mut Reader, program: &str, args: &[Field], stdin: Data) {
    let origin = format!("as {program} reads it");
    let items = scan(args, &REDIS);
    let words: Vec<(String, bool)> = items
        .iter()
        .filter_map(|item| match item {
            Item::Operand(a) => Some((a.text.clone(), a.unknown)),
            Item::Opt(..) => None,
        })
        .collect();
    let eval_file = items.iter().find_map(|i| value_of(i, &["eval"]));
    r.reached(origin, |r| {
        if eval_file.is_some() {
            r.record(virtual_command(
                program,
                vec!["eval".to_owned(), UNREADABLE.to_owned()],
            ));
        }
        if !words.is_empty() {
            redis_command(r, program, words);
            return;
        }
        match stdin {
            Data::Known(text) => {
                for line in text.lines().filter(|l| !l.trim().is_empty()) {
                    let words = sqlite_unquoted(line)
                        .split_whitespace()
                        .map(|w| (w.to_owned(), false))
                        .collect();
                    redis_command(r, program, words);
                }
            }
            Data::Unknown | Data::Listing(..) => unreadable(r, program),
            Data::Nothing => {}
        }
    });
}

/// The collection and database methods of the mongo shell that lose data.
const MONGO_METHODS: &[&str] = &[
    "dropDatabase",
    "drop",
    "deleteMany",
    "deleteOne",
    "remove",
    "findOneAndDelete",
    "updateMany",
    "replaceOne",
    "dropIndex",
    "dropIndexes",
    "dropUser",
    "dropAllUsers",
    "dropRole",
    "dropAllRoles",
    "renameCollection",
    "shutdownServer",
];

fn mongosh(r: &mut Reader, program: &str, args: &[Field], stdin: Data) {
    let mut texts = Vec::new();
    let mut ran = false;
    for item in scan(args, &MONGOSH) {
        match &item {
            Item::Opt(name, Some(code)) if name == "eval" => {
                ran = true;
                texts.push(if code.unknown {
                    Data::Unknown
                } else {
                    Data::Known(code.text.clone())
                });
            }
            Item::Opt(name, Some(file)) if name == "f" || name == "file" => {
                ran = true;
                texts.extend(file_text(r, file, &stdin));
            }
            Item::Operand(file) if file.text.ends_with(".js") => {
                ran = true;
                texts.extend(file_text(r, file, &stdin));
            }
            _ => {}
        }
    }
    if !ran {
        texts.push(stdin);
    }
    r.reached(format!("as {program} reads it"), |r| {
        for text in texts {
            match text {
                Data::Known(code) => {
                    for words in mongo_calls(&code) {
                        r.record(virtual_command("mongosh", words));
                    }
                }
                Data::Unknown | Data::Listing(..) => unreadable(r, "mongosh"),
                Data::Nothing => {}
            }
        }
    });
}

/// The data-losing method calls in mongo shell code: `db.users.deleteMany({})` is
/// `deleteMany --all-documents`; a method named at run time (`db[x]()`, `eval`) is
/// unreadable.
fn mongo_calls(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let computed = ["eval(", "Function(", "](", "getSiblingDB("]
        .iter()
        .any(|p| code.replace(' ', "").contains(p));
    if computed {
        found.push(vec![UNREADABLE.to_owned()]);
    }
    for (k, _) in code.match_indices('.') {
        let rest = &code[k + 1..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let after = rest[name.len()..].trim_start();
        if !MONGO_METHODS.contains(&name.as_str()) || !after.starts_with('(') {
            continue;
        }
        let argument = after[1..].trim_start();
        let mut words = vec![name.clone()];
        let all = argument.starts_with(')')
            || argument
                .strip_prefix('{')
                .is_some_and(|a| a.trim_start().starts_with('}'));
        if all && matches!(name.as_str(), "deleteMany" | "remove" | "updateMany") {
            words.push("--all-documents".to_owned());
        }
        found.push(words);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lua_and_mongo_calls() {
        assert_eq!(lua_calls("return redis.call('FLUSHALL')"), ["flushall"]);
        assert_eq!(lua_calls("redis.pcall(x)"), [UNREADABLE]);
        assert_eq!(
            mongo_calls("db.users.deleteMany( { } ); db.logs.find({})"),
            [vec!["deleteMany".to_owned(), "--all-documents".to_owned()]]
        );
        assert_eq!(mongo_calls("db['users'](1)")[0], [UNREADABLE]);
    }

    #[test]
    fn sqlite_dot_commands_that_pipe_read_and_write() {
        let texts = |line: &str| {
            let read = crate::matcher::shell::parse(line);
            let commands: Vec<String> = read.commands.iter().map(|c| c.text()).collect();
            (commands, read.opaque)
        };
        // The rows a query gives go into the command: a shell reading them is not read.
        let (_, opaque) = texts(r#"sqlite3 :memory: ".once '|sh'" "select 'id'""#);
        assert!(opaque.is_some());
        let (commands, opaque) = texts(r#"sqlite3 :memory: ".once '|less'" "select 1""#);
        assert_eq!(opaque, None, "{commands:?}");
        let (commands, _) = texts("sqlite3 db '.output' '.open' '.once'");
        assert!(
            !commands
                .iter()
                .any(|c| c.starts_with("tee") || c.starts_with("cat")),
            "{commands:?}"
        );
        for (line, command) in [
            (
                "sqlite3 :memory: '.backup main HOOKS.yaml'",
                "tee HOOKS.yaml",
            ),
            ("sqlite3 db '.save /tmp/x.db'", "tee /tmp/x.db"),
            (
                "sqlite3 :memory: '.open --new policies/a.yaml'",
                "tee policies/a.yaml",
            ),
            (
                "sqlite3 db '.output report.csv' 'select 1'",
                "tee report.csv",
            ),
            ("sqlite3 db '.import data.csv t'", "cat data.csv"),
            ("sqlite3 db '.restore backup.db'", "cat backup.db"),
            // `.output` alone goes back to standard output: no file.
            (
                "sqlite3 db '.output' 'select 1' '.output x.csv'",
                "tee x.csv",
            ),
            (
                r#"sqlite3 db "select writefile('a.txt', 'x')""#,
                "tee a.txt",
            ),
        ] {
            let (commands, _) = texts(line);
            assert!(
                commands.iter().any(|c| c == command),
                "{line}: {commands:?}"
            );
        }
    }

    #[test]
    fn sqlite_dot_command_arguments() {
        assert_eq!(sqlite_unquoted(r#""rm -rf ~"  'x y' z"#), "rm -rf ~ x y z");
    }
}
