use super::meta::sqlite_unquoted;
use super::stores::{lua_calls, mongo_calls};
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
        (commands, read.unreadable)
    };
    // The rows a query gives go into the command: a shell reading them is not read.
    let (_, unreadable) = texts(r#"sqlite3 :memory: ".once '|sh'" "select 'id'""#);
    assert!(unreadable.is_some());
    let (commands, unreadable) = texts(r#"sqlite3 :memory: ".once '|less'" "select 1""#);
    assert_eq!(unreadable, None, "{commands:?}");
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
