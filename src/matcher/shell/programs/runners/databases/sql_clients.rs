//! The SQL clients' command lines (`psql`, `mysql`, `sqlite3`): where their SQL comes from.

use super::meta::meta_command;
use super::{Item, MYSQL, PSQL, SQLITE, file_text, scan, sql_text, value_of};
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Reader};
use crate::matcher::sql::Dialect;

pub(super) fn psql(r: &mut Reader, args: &[Field], stdin: Data) {
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

pub(super) fn mysql(r: &mut Reader, program: &str, args: &[Field], stdin: Data) {
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

pub(super) fn sqlite(r: &mut Reader, program: &str, args: &[Field], stdin: Data) {
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
