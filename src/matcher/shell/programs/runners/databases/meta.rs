//! The clients' own meta-commands (psql's and mysql's `\!`, sqlite3's `.shell` and
//! `.system`, files they read or write), read as the commands they run.

use super::unreadable;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader};

/// Takes a client's meta-commands out of `text`, reading the ones that run shell commands
/// or unknown SQL, and returns the SQL left.
pub(super) fn meta_commands(r: &mut Reader, program: &str, text: &str) -> String {
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
pub(super) fn meta_command(r: &mut Reader, program: &str, command: &str) {
    let (name, rest) = command
        .split_once(char::is_whitespace)
        .map_or((command, ""), |(n, rest)| (n, rest.trim()));
    let name = name.to_ascii_lowercase();
    let shell = |r: &mut Reader, script: &str| {
        // The clients run these with `system()`: `/bin/sh -c`.
        r.reached(format!("a shell escape of {program}"), |r| {
            super::super::shell_c(r, script);
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
                    super::super::shell_c_reading(r, command, Data::Unknown);
                });
            } else if is_sqlite(program) && matches!(name.as_str(), "output" | "once") {
                // `.output FILE` writes the results to FILE (`-x`, `-e`: a spreadsheet or
                // an editor, with a file of their own).
                if let Some(file) = unquoted.split_whitespace().find(|w| !w.starts_with('-')) {
                    file_command(r, "tee", file);
                } else if unquoted.split_whitespace().any(|w| w == "-e") {
                    r.unreadable("sqlite3 opens its output in the editor of the environment");
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
        "load" => r.unreadable("the database client loads a native extension"),
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
pub(super) fn sqlite_unquoted(rest: &str) -> String {
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
