//! Database clients: where their SQL (or commands) come from and what their own
//! meta-commands run. Each SQL statement becomes a virtual `sql` command (`psql -c 'DROP
//! TABLE t'` reads as `sql drop table t`, see `matcher::sql`); `redis-cli` and `mongosh`
//! get a view "as the client reads it" (`redis-cli -h db -n 2 FLUSHALL` is `redis-cli
//! flushall`); the shell escapes of each client (`\!` in psql and mysql, `.shell` in
//! sqlite3, `COPY ... PROGRAM`, a pager) are read as the shell commands they are.
//!
//! SQL or code whose text is not known before it runs (`psql -c "$Q"`, a pipe from a
//! command, psql's `\gexec`) reads as `sql --unreadable`, which the databases pack asks about.

mod meta;
mod sql_clients;
mod stores;

use crate::matcher::shell::SimpleCommand;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::Options;
use crate::matcher::shell::walk::{Data, Reader};
use crate::matcher::sql::{self, Dialect, UNREADABLE};
use meta::meta_commands;
use sql_clients::{mysql, psql, sqlite};
use stores::{mongosh, redis};

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
            if let Some(why) = reading.unreadable {
                r.unreadable(why);
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

#[cfg(test)]
mod tests;
