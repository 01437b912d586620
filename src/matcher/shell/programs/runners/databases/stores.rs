//! Redis and MongoDB clients: their commands and scripts, as each client reads them.

use super::meta::sqlite_unquoted;
use super::{Item, MONGOSH, REDIS, file_text, scan, unreadable, value_of, virtual_command};
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Reader};
use crate::matcher::sql::UNREADABLE;

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
pub(super) fn lua_calls(script: &str) -> Vec<String> {
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

pub(super) fn redis(r: &mut Reader, program: &str, args: &[Field], stdin: Data) {
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

pub(super) fn mongosh(r: &mut Reader, program: &str, args: &[Field], stdin: Data) {
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
pub(super) fn mongo_calls(code: &str) -> Vec<Vec<String>> {
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
