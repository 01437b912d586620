use super::*;

fn words(dialect: Dialect, sql: &str) -> Vec<String> {
    read(dialect, sql)
        .statements
        .into_iter()
        .map(|w| w.join(" "))
        .collect()
}

#[test]
fn destructive_statements_become_sql_commands() {
    assert_eq!(
        words(
            Dialect::Postgres,
            "DROP DATABASE prod; drop table if exists a, b CASCADE"
        ),
        ["drop database prod", "drop table a b"]
    );
    assert_eq!(
        words(Dialect::MySql, "TRUNCATE TABLE users"),
        ["truncate users"]
    );
    assert_eq!(
        words(
            Dialect::Sqlite,
            "DELETE FROM users; delete from users where id = 3"
        ),
        ["delete users --all-rows", "delete users"]
    );
    assert_eq!(
        words(Dialect::Postgres, "UPDATE users SET admin = true WHERE 1=1"),
        ["update users --all-rows"]
    );
    assert_eq!(
        words(
            Dialect::Postgres,
            "update users set a = 1 where id = 2 or true"
        ),
        ["update users --all-rows"]
    );
    assert_eq!(
        words(Dialect::Postgres, "ALTER TABLE users DROP COLUMN email"),
        ["alter table users drop-column"]
    );
}

#[test]
fn reading_statements_and_comments() {
    assert_eq!(
        words(
            Dialect::Postgres,
            "SELECT count(*) FROM users -- ; DROP TABLE users\n; /* DROP */ SELECT 'DROP TABLE x'"
        ),
        ["select", "select"]
    );
    assert_eq!(
        words(
            Dialect::Postgres,
            "INSERT INTO t VALUES (1); CREATE TABLE u (id int)"
        ),
        ["insert into", "create table"]
    );
}

#[test]
fn sqlite_functions_read_and_write_files() {
    let reading = read(
        Dialect::Sqlite,
        "SELECT readfile('/home/u/.ssh/id_rsa'), writefile('it''s', x); \
             ATTACH DATABASE '/etc/cron.d/x' AS c; ATTACH ':memory:' AS m; VACUUM INTO 'b.db'; \
             ATTACH \"/etc/y\" AS y; SELECT name, data FROM fsdir('/home/u/.ssh')",
    );
    assert_eq!(
        reading.programs,
        [
            "cat '/home/u/.ssh/id_rsa'",
            r"tee 'it'\''s'",
            "tee '/etc/cron.d/x'",
            "tee 'b.db'",
            "tee '/etc/y'",
            "cat '/home/u/.ssh'/*"
        ]
    );
    assert_eq!(reading.unreadable, None);
    // A computed name is not read; an editor's command line and native code are not.
    assert_eq!(
        words(Dialect::Sqlite, "SELECT writefile(name, x) FROM t"),
        ["writefile --unreadable", "select"]
    );
    assert!(
        read(Dialect::Sqlite, "SELECT edit('', 'vi')")
            .unreadable
            .is_some()
    );
    assert!(
        read(Dialect::Sqlite, "SELECT load_extension('x.so')")
            .unreadable
            .is_some()
    );
    // Other dialects have no such functions.
    assert!(
        read(Dialect::Postgres, "SELECT readfile('x')")
            .programs
            .is_empty()
    );
}

#[test]
fn copy_to_a_program_runs_it() {
    let reading = read(Dialect::Postgres, "COPY users TO PROGRAM 'rm -rf ~'");
    assert_eq!(reading.programs, ["rm -rf ~"]);
}

#[test]
fn what_does_not_parse_is_marked_unless_it_only_reads() {
    assert_eq!(
        words(Dialect::Postgres, "DROP FROBNICATE x y z"),
        ["drop --unreadable"]
    );
    assert_eq!(
        words(Dialect::Postgres, "SELECT FROM WHERE ((("),
        Vec::<String>::new()
    );
    assert_eq!(words(Dialect::Postgres, "'unterminated"), ["--unreadable"]);
    assert_eq!(
        words(
            Dialect::Postgres,
            "WITH gone AS (DELETE FROM t RETURNING *) SELECT * FROM gone"
        ),
        ["with --unreadable"]
    );
}

#[test]
fn bounded() {
    let deep = format!("SELECT {}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert_eq!(words(Dialect::Postgres, &deep), Vec::<String>::new());
    let many = "DELETE FROM t;".repeat(1000);
    let read = read(Dialect::Sqlite, &many);
    assert_eq!(read.statements.len(), MAX_STATEMENTS + 1);
    assert_eq!(
        read.statements.last().map(|w| w.join(" ")),
        Some("--unreadable".into())
    );
    assert_eq!(
        words(Dialect::Sqlite, &"x".repeat(MAX_SQL + 1)),
        ["--unreadable"]
    );
}
