//! What SQL does, for the database clients' readers (`psql -c`, `mysql -e`, `sqlite3 db
//! SQL`, SQL on their standard input): each statement becomes the arguments of a virtual
//! `sql` command that filters see like any other (`DROP TABLE users` is `sql drop table
//! users`, `DELETE FROM t` without a `WHERE` is `sql delete t --all-rows`).
//!
//! Statements are split with the dialect's own tokenizer (quotes, dollar quoting and
//! comments are its business) and each is parsed on its own with `sqlparser`, so one
//! statement the grammar does not know does not hide the others. A statement that does not
//! parse keeps its leading keyword and is marked `--unreadable`, unless it starts with a
//! read-only keyword and names nothing that changes data.

use sqlparser::ast::{
    AlterTableOperation, BinaryOperator, CopySource, CopyTarget, Expr, FromTable, ObjectType,
    Statement, TableFactor, TableWithJoins,
};
use sqlparser::dialect::{
    Dialect as Grammar, DuckDbDialect, GenericDialect, MySqlDialect, PostgreSqlDialect,
    SQLiteDialect,
};
use sqlparser::keywords::Keyword;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, Tokenizer};

/// Longest SQL read, in bytes; longer text is one unreadable statement.
pub(crate) const MAX_SQL: usize = 64 * 1024;
/// Most statements read from one text; the rest is one unreadable statement.
const MAX_STATEMENTS: usize = 256;
/// How deeply the parser may recurse into one statement (sqlparser's default is 50).
const RECURSION_LIMIT: usize = 48;

/// The SQL dialect a client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Postgres,
    MySql,
    Sqlite,
    DuckDb,
}

impl Dialect {
    fn grammar(self) -> Box<dyn Grammar> {
        match self {
            Dialect::Postgres => Box::new(PostgreSqlDialect {}),
            Dialect::MySql => Box::new(MySqlDialect {}),
            Dialect::Sqlite => Box::new(SQLiteDialect {}),
            Dialect::DuckDb => Box::new(DuckDbDialect {}),
        }
    }
}

/// What a text of SQL does.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Reading {
    /// The arguments of one virtual `sql` command per statement, in order.
    pub(crate) statements: Vec<Vec<String>>,
    /// Shell commands the statements run (`COPY ... FROM PROGRAM 'cmd'`), and the files
    /// SQLite's own functions read and write, as commands (`readfile('x')` is `cat 'x'`).
    pub(crate) programs: Vec<String>,
    /// Why a statement cannot be read as commands (SQLite's `load_extension`).
    pub(crate) unreadable: Option<&'static str>,
}

/// The marker on a statement hookgate could not read.
pub(crate) const UNREADABLE: &str = "--unreadable";
/// The marker on a `DELETE` or `UPDATE` that reaches every row.
pub(crate) const ALL_ROWS: &str = "--all-rows";

/// Reads `text` as SQL of `dialect`.
pub(crate) fn read(dialect: Dialect, text: &str) -> Reading {
    let mut reading = Reading::default();
    if text.len() > MAX_SQL || text.contains('\0') {
        reading.statements.push(vec![UNREADABLE.to_owned()]);
        return reading;
    }
    let grammar = dialect.grammar();
    let Ok(tokens) = Tokenizer::new(grammar.as_ref(), text).tokenize() else {
        reading.statements.push(vec![UNREADABLE.to_owned()]);
        return reading;
    };
    for group in tokens.split(|t| *t == Token::SemiColon) {
        if !group.iter().any(|t| !matches!(t, Token::Whitespace(_))) {
            continue;
        }
        if reading.statements.len() >= MAX_STATEMENTS {
            reading.statements.push(vec![UNREADABLE.to_owned()]);
            break;
        }
        if dialect == Dialect::Sqlite {
            sqlite_functions(group, &mut reading);
        }
        let parsed = Parser::new(grammar.as_ref())
            .with_recursion_limit(RECURSION_LIMIT)
            .with_tokens(group.to_vec())
            .parse_statement();
        match parsed {
            Ok(statement) => statement_words(&statement, group, &mut reading),
            Err(_) => {
                if let Some(words) = unparsed_words(group) {
                    reading.statements.push(words);
                }
            }
        }
    }
    reading
}

/// The sqlite3 shell's functions with effects outside the database, and `ATTACH` and
/// `VACUUM INTO`, which write the file they name, as the commands that would do the same:
/// `readfile(F)` is `cat F`, `writefile(F, x)` `tee F`; `edit(x, E)`, which runs `E` on a
/// file of a random name, and `load_extension` cannot be read. A name given by anything
/// but a string literal cannot be read either.
fn sqlite_functions(tokens: &[Token], reading: &mut Reading) {
    let words: Vec<&Token> = tokens
        .iter()
        .filter(|t| !matches!(t, Token::Whitespace(_)))
        .collect();
    let quoted = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    for (k, token) in words.iter().enumerate() {
        let Token::Word(word) = token else { continue };
        let name = word.value.to_ascii_lowercase();
        let after = |n: usize| words.get(k + n).copied();
        let literal = |t: Option<&Token>| match t {
            Some(Token::SingleQuotedString(s)) => Some(s.clone()),
            _ => None,
        };
        let called = matches!(after(1), Some(Token::LParen));
        let command = match name.as_str() {
            "load_extension" if called => {
                reading.unreadable = Some("the SQL loads a native extension");
                continue;
            }
            "readfile" | "writefile" if called => literal(after(2)).map(|f| {
                format!(
                    "{} {}",
                    if name == "readfile" { "cat" } else { "tee" },
                    quoted(&f)
                )
            }),
            // `fsdir(D)`: every file below D, with what it holds.
            "fsdir" if called => literal(after(2)).map(|d| format!("cat {}/*", quoted(&d))),
            // `edit(text, editor)`: sqlite3 runs `sh -c 'EDITOR "TEMPFILE"'`, the file's
            // name a random one of its own.
            "edit" if called => {
                reading.unreadable = Some("the SQL runs an editor's command line (`edit()`)");
                continue;
            }
            "attach" => {
                let file = match after(1) {
                    Some(Token::Word(w)) if w.value.eq_ignore_ascii_case("database") => after(2),
                    other => other,
                };
                // SQLite takes a name in double quotes for a string when no column has it.
                let file = match file {
                    Some(Token::SingleQuotedString(f) | Token::DoubleQuotedString(f)) => f,
                    Some(Token::Word(w)) if w.quote_style == Some('"') => &w.value,
                    _ => continue,
                };
                if file.is_empty() || file == ":memory:" {
                    continue;
                }
                Some(format!("tee {}", quoted(file)))
            }
            "into"
                if k > 0
                    && matches!(words[k - 1], Token::Word(w) if w.value.eq_ignore_ascii_case("vacuum")) =>
            {
                literal(after(1)).map(|f| format!("tee {}", quoted(&f)))
            }
            _ => continue,
        };
        match command {
            Some(command) if !command.is_empty() => reading.programs.push(command),
            // The file or the editor is computed by the SQL.
            _ => reading.statements.push(vec![name, UNREADABLE.to_owned()]),
        }
    }
}

/// The keywords that change or destroy data, found anywhere in a statement.
const CHANGES: &[Keyword] = &[
    Keyword::DELETE,
    Keyword::UPDATE,
    Keyword::TRUNCATE,
    Keyword::DROP,
    Keyword::ALTER,
    Keyword::INSERT,
    Keyword::REPLACE,
    Keyword::MERGE,
    Keyword::GRANT,
    Keyword::REVOKE,
    Keyword::EXECUTE,
    Keyword::CALL,
    Keyword::COPY,
    Keyword::PROGRAM,
];

/// Statements that read and change nothing, by their first keyword.
const READS: &[Keyword] = &[
    Keyword::SELECT,
    Keyword::SHOW,
    Keyword::EXPLAIN,
    Keyword::DESCRIBE,
    Keyword::DESC,
    Keyword::VALUES,
    Keyword::BEGIN,
    Keyword::START,
    Keyword::COMMIT,
    Keyword::ROLLBACK,
    Keyword::END,
    Keyword::USE,
    Keyword::SET,
    Keyword::PRAGMA,
    Keyword::VACUUM,
    Keyword::ANALYZE,
];

/// The unquoted keywords of a token list, in order.
fn keywords(tokens: &[Token]) -> impl Iterator<Item = Keyword> + '_ {
    tokens.iter().filter_map(|t| match t {
        Token::Word(w) if w.quote_style.is_none() && w.keyword != Keyword::NoKeyword => {
            Some(w.keyword)
        }
        _ => None,
    })
}

/// The first word of a token list, lowercased.
fn first_word(tokens: &[Token]) -> Option<String> {
    tokens.iter().find_map(|t| match t {
        Token::Word(w) => Some(w.value.to_ascii_lowercase()),
        _ => None,
    })
}

/// A statement the grammar could not parse: nothing when it only reads, else its first word
/// and the unreadable marker.
fn unparsed_words(group: &[Token]) -> Option<Vec<String>> {
    let first = keywords(group).next();
    let reads_only =
        first.is_some_and(|k| READS.contains(&k)) && !keywords(group).any(|k| CHANGES.contains(&k));
    if reads_only {
        return None;
    }
    let mut words: Vec<String> = first_word(group).into_iter().collect();
    words.push(UNREADABLE.to_owned());
    Some(words)
}

/// Records the arguments of one parsed statement (and the programs it runs).
fn statement_words(statement: &Statement, group: &[Token], reading: &mut Reading) {
    let words = match statement {
        Statement::Drop {
            object_type, names, ..
        } => {
            let mut words = vec!["drop".to_owned(), object_kind(object_type)];
            words.extend(names.iter().map(ToString::to_string));
            words
        }
        Statement::Truncate(truncate) => std::iter::once("truncate".to_owned())
            .chain(truncate.table_names.iter().map(|t| t.name.to_string()))
            .collect(),
        Statement::Delete(delete) => {
            let tables = match &delete.from {
                FromTable::WithFromKeyword(t) | FromTable::WithoutKeyword(t) => t,
            };
            let mut words = vec!["delete".to_owned()];
            words.extend(delete.tables.iter().map(ToString::to_string));
            words.extend(tables.iter().map(table_name));
            if reaches_every_row(delete.selection.as_ref()) {
                words.push(ALL_ROWS.to_owned());
            }
            words
        }
        Statement::Update(update) => {
            let mut words = vec!["update".to_owned(), table_name(&update.table)];
            if reaches_every_row(update.selection.as_ref()) {
                words.push(ALL_ROWS.to_owned());
            }
            words
        }
        Statement::AlterTable(alter) => {
            let mut words = vec![
                "alter".to_owned(),
                "table".to_owned(),
                alter.name.to_string(),
            ];
            for operation in &alter.operations {
                words.extend(alter_words(operation));
            }
            words
        }
        Statement::Copy { source, target, .. } => {
            if let CopyTarget::Program { command } = target {
                reading.programs.push(command.clone());
            }
            let mut words = vec!["copy".to_owned()];
            if let CopySource::Table { table_name, .. } = source {
                words.push(table_name.to_string());
            }
            words
        }
        _ => {
            // Anything else: its leading keywords (`create table`, `insert into`,
            // `select`); unreadable when it holds a change this reader does not take
            // apart (a data-modifying `WITH`, a procedure body).
            let mut leading = keywords(group);
            let mut words: Vec<String> = leading.next().map(keyword_word).into_iter().collect();
            if let Some(object) = leading.next().filter(|k| OBJECTS.contains(k)) {
                words.push(keyword_word(object));
            }
            let first = keywords(group).next();
            let nested_change = keywords(group)
                .skip(1)
                .any(|k| CHANGES.contains(&k) && k != Keyword::INSERT && k != Keyword::REPLACE);
            if nested_change && !matches!(first, Some(Keyword::CREATE | Keyword::INSERT)) {
                words.push(UNREADABLE.to_owned());
            }
            words
        }
    };
    reading.statements.push(words);
}

/// Words that say what a statement acts on, kept after its first keyword.
const OBJECTS: &[Keyword] = &[
    Keyword::INTO,
    Keyword::TABLE,
    Keyword::DATABASE,
    Keyword::SCHEMA,
    Keyword::INDEX,
    Keyword::VIEW,
    Keyword::USER,
    Keyword::ROLE,
    Keyword::FUNCTION,
    Keyword::PROCEDURE,
    Keyword::TRIGGER,
    Keyword::EXTENSION,
    Keyword::SEQUENCE,
    Keyword::TYPE,
];

fn keyword_word(keyword: Keyword) -> String {
    format!("{keyword:?}").to_ascii_lowercase()
}

/// `table`, `database`, `materialized-view`: an object type as one lowercase word.
fn object_kind(object_type: &ObjectType) -> String {
    object_type
        .to_string()
        .to_ascii_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
}

fn table_name(table: &TableWithJoins) -> String {
    match &table.relation {
        TableFactor::Table { name, .. } => name.to_string(),
        other => other.to_string(),
    }
}

/// What an `ALTER TABLE` operation loses: `drop-column c`, `drop-constraint k`, `rename`.
fn alter_words(operation: &AlterTableOperation) -> Vec<String> {
    let text = operation.to_string().to_ascii_lowercase();
    let mut words = text.split_whitespace();
    match words.next() {
        Some("drop") => {
            let what = words.next().unwrap_or("column");
            vec![format!("drop-{what}")]
        }
        Some("rename") => vec!["rename".to_owned()],
        _ => Vec::new(),
    }
}

/// Whether a `WHERE` clause lets every row through: there is none, or one of its `OR`ed
/// parts names no column (`WHERE 1=1`, `WHERE true OR id = 3`).
fn reaches_every_row(selection: Option<&Expr>) -> bool {
    fn constant_branch(expr: &Expr) -> bool {
        match expr {
            Expr::BinaryOp {
                left,
                op: BinaryOperator::Or,
                right,
            } => constant_branch(left) || constant_branch(right),
            Expr::Nested(inner) => constant_branch(inner),
            other => names_no_column(other),
        }
    }
    selection.is_none_or(constant_branch)
}

/// Whether an expression names no column: its text holds no identifier.
fn names_no_column(expr: &Expr) -> bool {
    let text = expr.to_string();
    let Ok(tokens) = Tokenizer::new(&GenericDialect {}, &text).tokenize() else {
        return false;
    };
    !tokens.iter().any(|t| match t {
        Token::Word(w) => {
            w.quote_style.is_some()
                || !matches!(
                    w.keyword,
                    Keyword::TRUE
                        | Keyword::FALSE
                        | Keyword::NULL
                        | Keyword::AND
                        | Keyword::OR
                        | Keyword::NOT
                        | Keyword::IS
                )
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests;
