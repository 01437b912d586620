//! Real sqlite3 as the oracle for the databases pack (`policies/databases.yaml`, included by
//! the default `HOOKS.yaml`): each generated command line runs with bash and the real
//! `sqlite3` against a fresh copy of a small database, and what it lost is measured by
//! comparing `.dump` before and after. Then:
//!
//! - every line that lost a whole table, view, index or trigger, or every row of a table
//!   (deleted or rewritten), must be stopped (ask or block) by the default policy;
//! - every line that lost nothing, or only the rows a `WHERE` on a column named, must be
//!   allowed.
//!
//! A `WHERE` on a column that every row passes (`WHERE id > 0`) is a gap the pack declares;
//! the generator does not write one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use hookgate::{Engine, HookContext, Point, RuleGraph, Verdict, config};
use serde_json::{Map, Value};

const FIXTURE: &str = "
CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, email TEXT);
INSERT INTO users VALUES (1, 'ada', 'ada@example.com'), (2, 'bob', 'bob@example.com'),
  (3, 'cy', 'cy@example.com');
CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER, total REAL);
INSERT INTO orders VALUES (1, 1, 9.5), (2, 2, 120.0), (3, 2, 33.0);
CREATE INDEX idx_orders_user ON orders(user_id);
CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 100;
CREATE TRIGGER stamp AFTER INSERT ON orders BEGIN SELECT 1; END;
";

/// Statements, each as the oracle will find it: `All` loses a whole object or every row,
/// `Some` only rows a `WHERE` names, `None` nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Loss {
    All,
    Some,
    None,
}

const STATEMENTS: &[(&str, Loss)] = &[
    ("DROP TABLE users", Loss::All),
    ("DROP TABLE IF EXISTS orders", Loss::All),
    ("DROP VIEW big_orders", Loss::All),
    ("DROP INDEX idx_orders_user", Loss::All),
    ("DROP TRIGGER stamp", Loss::All),
    ("DELETE FROM users", Loss::All),
    ("DELETE FROM orders WHERE 1=1", Loss::All),
    ("DELETE FROM orders WHERE 1", Loss::All),
    ("DELETE FROM users WHERE TRUE", Loss::All),
    ("DELETE FROM users WHERE id = 2 OR 1=1", Loss::All),
    ("UPDATE users SET email = 'x@example.com'", Loss::All),
    ("UPDATE orders SET total = 0 WHERE 2 > 1", Loss::All),
    ("ALTER TABLE users DROP COLUMN email", Loss::All),
    ("ALTER TABLE orders RENAME TO old_orders", Loss::All),
    ("DELETE FROM users WHERE id = 2", Loss::Some),
    ("UPDATE users SET name = 'bo' WHERE id = 2", Loss::Some),
    ("DELETE FROM orders WHERE total < 10", Loss::Some),
    ("SELECT * FROM users", Loss::None),
    ("SELECT count(*) FROM orders WHERE total > 10", Loss::None),
    (
        "INSERT INTO users (name, email) VALUES ('di', 'di@example.com')",
        Loss::None,
    ),
    ("CREATE TABLE notes (id INTEGER, body TEXT)", Loss::None),
    ("CREATE INDEX idx_users_name ON users(name)", Loss::None),
    ("SELECT 'DROP TABLE users' AS advice", Loss::None),
    (
        "EXPLAIN QUERY PLAN SELECT * FROM orders WHERE user_id = 2",
        Loss::None,
    ),
    ("PRAGMA table_info(users)", Loss::None),
    ("BEGIN; SELECT 1; COMMIT", Loss::None),
];

/// A spelling of a statement: how an agent (or an attacker) might write it.
fn spellings(sql: &str, k: usize) -> Vec<String> {
    let lower = sql.to_lowercase();
    let quoted = sql
        .replace(" users", " \"users\"")
        .replace(" orders", " [orders]");
    let commented = match sql.split_once(' ') {
        Some((first, rest)) => format!("/* tidy up */ {first} /* really */ {rest}"),
        None => sql.to_owned(),
    };
    let after = format!("SELECT 1; {sql}");
    let line_comment = format!("-- {}\n{sql}", "DROP TABLE users");
    let all = [
        sql.to_owned(),
        lower,
        quoted,
        commented,
        after,
        line_comment,
    ];
    // Each statement in its own spelling and two rotating others, to keep the run short.
    vec![
        all[0].clone(),
        all[1 + k % 5].clone(),
        all[1 + (k + 2) % 5].clone(),
    ]
}

/// `text` as one single-quoted shell word.
fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The ways a command line hands SQL to sqlite3.
fn deliveries(sql: &str) -> Vec<String> {
    vec![
        format!("sqlite3 app.db {}", sh_quote(sql)),
        format!("sqlite3 app.db <<'EOF'\n{sql};\nEOF"),
        format!(
            "printf '%s\\n' {} | sqlite3 app.db",
            sh_quote(&format!("{sql};"))
        ),
        format!("sqlite3 -cmd {} app.db .quit", sh_quote(sql)),
    ]
}

/// The `.dump` of `db`, as a set of lines.
fn dump(db: &Path) -> BTreeSet<String> {
    let out = Command::new("sqlite3")
        .arg(db)
        .arg(".dump")
        .output()
        .expect("run sqlite3");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// What a line lost: `All` when a schema line went or a table lost every row line.
fn loss(before: &BTreeSet<String>, after: &BTreeSet<String>) -> Loss {
    let lost: Vec<&String> = before.difference(after).collect();
    if lost.is_empty() {
        return Loss::None;
    }
    if lost.iter().any(|l| l.starts_with("CREATE ")) {
        return Loss::All;
    }
    let rows = |lines: &mut dyn Iterator<Item = &String>| {
        let mut per: BTreeMap<String, usize> = BTreeMap::new();
        for l in lines {
            if let Some(rest) = l.strip_prefix("INSERT INTO ") {
                let table = rest.split([' ', '(']).next().unwrap_or_default();
                *per.entry(table.trim_matches('"').to_owned()).or_default() += 1;
            }
        }
        per
    };
    let held = rows(&mut before.iter());
    let gone = rows(&mut lost.iter().copied());
    if gone.iter().any(|(t, n)| held.get(t) == Some(n)) {
        Loss::All
    } else {
        Loss::Some
    }
}

#[test]
fn every_sql_line_that_loses_a_table_or_all_rows_is_stopped_and_no_other() {
    if Command::new("sqlite3").arg("-version").output().is_err() {
        panic!("sqlite3 is not installed: scripts/test installs Debian's sqlite3");
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let policy_dir = crate::util::Dir::new();
    let policy = config::load_file(&policy_dir.copy_default_policy()).expect("HOOKS.yaml loads");
    let engine = Engine::new(Arc::new(RuleGraph::from_policy(&policy)));

    let scratch = crate::util::Dir::new();
    let project = scratch.path().join("proj");
    std::fs::create_dir_all(project.join(".git")).expect("project");
    let pristine = scratch.path().join("pristine.db");
    let made = Command::new("sqlite3")
        .arg(&pristine)
        .arg(FIXTURE)
        .status()
        .expect("sqlite3");
    assert!(made.success());
    let before = dump(&pristine);
    let db = project.join("app.db");

    let mut findings = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (k, (sql, expected)) in STATEMENTS.iter().enumerate() {
        for (s, spelled) in spellings(sql, k).into_iter().enumerate() {
            for (w, line) in deliveries(&spelled).into_iter().enumerate() {
                std::fs::copy(&pristine, &db).expect("fresh copy");
                let ran = Command::new("bash")
                    .arg("-c")
                    .arg(&line)
                    .current_dir(&project)
                    .output()
                    .expect("bash");
                let found = loss(&before, &dump(&db));
                // The statement as written, handed over as an operand: the fixture's own
                // check. Other spellings are judged by what sqlite3 did with them (an
                // operand starting with `-` is an option to sqlite3, and runs nothing).
                if s == 0 && w == 0 && found != *expected {
                    findings.push(format!(
                        "the fixture no longer tests {sql:?}: expected {expected:?}, sqlite3 lost {found:?} ({})",
                        String::from_utf8_lossy(&ran.stderr).trim()
                    ));
                    continue;
                }
                let mut args = Map::new();
                args.insert("command".to_owned(), Value::String(line.clone()));
                let mut ctx = HookContext::new("agent:main:main").with_tool("Bash", args);
                ctx.cwd = Some(project.to_str().expect("utf-8").to_owned());
                let d = rt.block_on(engine.evaluate(Point::TurnToolPre, &ctx));
                let stopped = d.decision != Verdict::Allow;
                *counts
                    .entry(match (found, stopped) {
                        (Loss::All, true) => "lost all, stopped",
                        (Loss::All, false) => "lost all, ALLOWED",
                        (_, false) => "lost none or some, allowed",
                        (_, true) => "lost none or some, STOPPED",
                    })
                    .or_default() += 1;
                match (found, stopped) {
                    (Loss::All, false) => {
                        findings.push(format!("lost everything, allowed: {line:?}"))
                    }
                    (Loss::Some | Loss::None, true) => {
                        findings.push(format!("lost {found:?}, stopped by {:?}: {line:?}", d.hook))
                    }
                    _ => {}
                }
            }
        }
    }
    eprintln!("sql oracle: {counts:?}");
    assert!(counts.values().sum::<usize>() >= 250, "{counts:?}");
    assert!(
        findings.is_empty(),
        "{} findings:\n{}",
        findings.len(),
        findings.join("\n")
    );
}
