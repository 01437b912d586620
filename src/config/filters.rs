//! The structured filters of `match` (`command`, `args`, `pathGlob`), parsed and checked at
//! load: plain data, with every syntax error reported then. `matcher::filters` compiles them.

use globset::{Glob, GlobBuilder};
use serde_json::Value;

use super::pattern::{PatternError, Regex};

/// `match.command`: a test on each simple command of a shell command.
#[derive(Debug, Clone, Default)]
pub struct CommandFilter {
    /// Program names, exact or glob (`mkfs*`); `None` accepts any program.
    pub programs: Option<NameSet>,
    /// Regex on the arguments joined by single spaces.
    pub args_pattern: Option<Regex>,
    /// Regex that one argument must match.
    pub any_arg: Option<Regex>,
    /// Places of which the command must delete something (`rm x`, `find -delete`, ...).
    pub deletes: Option<Vec<super::Place>>,
    /// Places of which the command must delete a directory with what is in it (`rm -r`).
    pub deletes_tree: Option<Vec<super::Place>>,
    /// Places of which the command must replace something (`> f`, `truncate`, `cp x f`,
    /// `mv x f`, `tee f`, `sed -i`, ...).
    pub overwrites: Option<Vec<super::Place>>,
    /// Places of which the command must write something, replacing it or adding to it
    /// (`overwrites` and `>> f`, `tee -a f`, `ln -s x f`).
    pub writes: Option<Vec<super::Place>>,
    /// Places of which the command must change a mode or owner (`chmod`, `chown`, ...).
    pub changes_mode: Option<Vec<super::Place>>,
    /// Places of which the command must change a mode or owner recursively (`chmod -R`).
    pub changes_mode_tree: Option<Vec<super::Place>>,
    /// Places of which the command may read something: a word that may name a file it
    /// reads, as `readGlob` takes them (`cat ~/notes.md`, `cp ~/x .`, `< /etc/passwd`).
    pub reads: Option<Vec<super::Place>>,
    /// Verbs of a resource tool, one of which the command must have (`kubectl delete`,
    /// `terraform apply -auto-approve`), lowercase; read by the resource table.
    pub verbs: Option<Vec<String>>,
    /// HTTP methods, one of which the command must send to a host off the machine (`curl
    /// -X DELETE https://...`), upper case.
    pub http_methods: Option<Vec<String>>,
}

/// A set of names, each exact or a glob; names written `!name` are left out, and a set of
/// only exclusions holds every other name.
#[derive(Debug, Clone, Default)]
pub struct NameSet {
    /// The names written without `!`.
    pub(crate) include: Names,
    /// The names written with `!`.
    pub(crate) exclude: Names,
}

/// Names, split into exact ones and globs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Names {
    pub(crate) exact: Vec<String>,
    pub(crate) globs: Vec<Glob>,
}

/// One entry of `match.args`.
#[derive(Debug, Clone)]
pub struct ArgFilter {
    /// The `toolArgs` field.
    pub field: String,
    /// The regex its value must match.
    pub pattern: Regex,
}

/// `match.pathGlob` (or `readGlob`): globs on path-like arguments, with `!` exclusions.
#[derive(Debug, Clone)]
pub struct PathGlob {
    /// The globs written without `!`.
    pub(crate) include: Vec<Glob>,
    /// The globs written with `!`, without it.
    pub(crate) exclude: Vec<Glob>,
    /// Every glob as written, `!` included.
    pub(crate) sources: Vec<String>,
}

/// The structured filters of one `match` section.
#[derive(Debug, Default)]
pub(super) struct Structured {
    pub(super) command: Option<CommandFilter>,
    pub(super) args: Option<Vec<ArgFilter>>,
    pub(super) path_glob: Option<PathGlob>,
    pub(super) read_glob: Option<PathGlob>,
    pub(super) path_in: Option<Vec<super::Place>>,
}

/// A problem at a JSON pointer below the `match` section: (pointer suffix, message, help).
pub(super) type Problem = (String, String, Option<String>);

/// Parses `command`, `args` and `pathGlob` of a raw `match` value. Shapes were checked by
/// the schema; what only parsing can find is returned as problems.
pub(super) fn parse(raw: &Value) -> (Structured, Vec<Problem>) {
    let mut problems = Vec::new();
    let command = raw.get("command").and_then(Value::as_object).map(|c| {
        let programs = c
            .get("program")
            .map(|p| names_set(&strings(p), "/command/program", &mut problems));
        let mut pattern = |field: &str| {
            let source = c.get(field)?.as_str()?;
            regex(format!("/command/{field}"), source, &mut problems)
        };
        let places = |field: &str| {
            let names = strings(c.get(field)?);
            Some(
                names
                    .iter()
                    .filter_map(|(_, n)| super::Place::from_name(n))
                    .collect(),
            )
        };
        let words = |field: &str, upper: bool| {
            let names = strings(c.get(field)?);
            Some(
                names
                    .iter()
                    .map(|(_, n)| match upper {
                        true => n.to_ascii_uppercase(),
                        false => n.to_ascii_lowercase(),
                    })
                    .collect::<Vec<_>>(),
            )
        };
        let verbs = words("verbs", false);
        let http_methods = words("httpMethods", true);
        let args_pattern = pattern("argsPattern");
        let any_arg = pattern("anyArg");
        if let Some(p) = c.get("program") {
            programs_read_by(
                &strings(p),
                verbs.is_some(),
                http_methods.is_some(),
                &mut problems,
            );
        }
        CommandFilter {
            programs,
            args_pattern,
            any_arg,
            deletes: places("deletes"),
            deletes_tree: places("deletesTree"),
            overwrites: places("overwrites"),
            writes: places("writes"),
            changes_mode: places("changesMode"),
            changes_mode_tree: places("changesModeTree"),
            reads: places("reads"),
            verbs,
            http_methods,
        }
    });
    let args = raw.get("args").and_then(Value::as_object).map(|fields| {
        fields
            .iter()
            .filter_map(|(field, source)| {
                let pointer = format!("/args/{}", field.replace('~', "~0").replace('/', "~1"));
                Some(ArgFilter {
                    field: field.clone(),
                    pattern: regex(pointer, source.as_str()?, &mut problems)?,
                })
            })
            .collect()
    });
    let globs = raw
        .get("pathGlob")
        .and_then(|g| path_glob("pathGlob", g, &mut problems));
    let read_globs = raw
        .get("readGlob")
        .and_then(|g| path_glob("readGlob", g, &mut problems));
    let path_in = raw.get("pathIn").map(|p| {
        strings(p)
            .iter()
            .filter_map(|(_, n)| super::Place::from_name(n))
            .collect()
    });
    (
        Structured {
            command,
            args,
            path_glob: globs,
            read_glob: read_globs,
            path_in,
        },
        problems,
    )
}

/// `verbs` and `httpMethods` are read only for the programs of the resource table and the
/// HTTP clients: a program named next to them that is neither could never match, which is
/// a mistake worth a load error (a program the reader does not know, or a typo).
fn programs_read_by(
    programs: &[(String, &str)],
    verbs: bool,
    http_methods: bool,
    problems: &mut Vec<Problem>,
) {
    use crate::matcher::shell::{http, resources};
    for (place, name) in programs {
        if name.starts_with('!') || name.contains(['*', '?', '[', '{']) {
            continue;
        }
        let (verbs_read, http_read) = (resources::has_verbs(name), http::is_client(name));
        let unread = match (verbs, http_methods) {
            (true, true) => !verbs_read && !http_read,
            (true, false) => !verbs_read,
            (false, true) => !http_read,
            (false, false) => false,
        };
        if unread {
            let (field, help) = if verbs {
                (
                    "verbs",
                    "the programs with verbs are listed in docs/hooks-reference.md#verbs; for another program, test its arguments with `anyArg` or `argsPattern`",
                )
            } else {
                (
                    "httpMethods",
                    "the HTTP clients read are curl, wget, http, https, xh, xhs, gh api and glab api",
                )
            };
            problems.push((
                format!("/command/program{place}"),
                format!("`{name}` is not read for `{field}`, so this filter never matches it"),
                Some(help.to_owned()),
            ));
        }
    }
}

fn regex(pointer: String, source: &str, problems: &mut Vec<Problem>) -> Option<Regex> {
    Regex::new(source)
        .map_err(|PatternError { message, help }| problems.push((pointer, message, help)))
        .ok()
}

/// A string or a list of strings, each with the pointer suffix of its place.
fn strings(value: &Value) -> Vec<(String, &str)> {
    match value {
        Value::String(s) => vec![(String::new(), s.as_str())],
        Value::Array(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((format!("/{i}"), v.as_str()?)))
            .collect(),
        _ => Vec::new(),
    }
}

fn glob(source: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(source)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
}

fn names_set(names: &[(String, &str)], at: &str, problems: &mut Vec<Problem>) -> NameSet {
    let mut names_of = |excluded: bool| {
        let mut set = Names::default();
        let mut globs = Vec::new();
        for (place, written) in names {
            let name = match written.strip_prefix('!') {
                Some(rest) if excluded => rest,
                None if !excluded => written,
                _ => continue,
            };
            if !name.contains(['*', '?', '[', '{']) {
                set.exact.push(name.to_owned());
                continue;
            }
            match glob(name) {
                Ok(g) => globs.push(g),
                Err(e) => problems.push((format!("{at}{place}"), glob_message(&e), None)),
            }
        }
        set.globs = globs;
        set
    };
    NameSet {
        include: names_of(false),
        exclude: names_of(true),
    }
}

/// The globs of the field `key` (`pathGlob`, `readGlob`).
fn path_glob(key: &str, value: &Value, problems: &mut Vec<Problem>) -> Option<PathGlob> {
    let globs = strings(value);
    let mut include = Vec::new();
    let mut exclude = Vec::new();
    let mut includes = 0;
    let before = problems.len();
    for (place, source) in &globs {
        let (set, text) = match source.strip_prefix('!') {
            Some(rest) => (&mut exclude, rest),
            None => {
                includes += 1;
                (&mut include, *source)
            }
        };
        match glob(text) {
            Ok(g) => set.push(g),
            Err(e) => problems.push((format!("/{key}{place}"), glob_message(&e), None)),
        }
    }
    if includes == 0 {
        problems.push((
            format!("/{key}"),
            format!("{key} has only exclusions (`!...`), so it matches nothing"),
            Some("add the globs to match, e.g. `[\"**/.env*\", \"!**/.env.example\"]`".to_owned()),
        ));
    }
    if problems.len() > before {
        return None;
    }
    Some(PathGlob {
        include,
        exclude,
        sources: globs.iter().map(|(_, g)| (*g).to_owned()).collect(),
    })
}

fn glob_message(e: &globset::Error) -> String {
    format!("invalid glob: {}", e.kind())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bad_regexes_and_globs_name_their_place() {
        let (_, problems) = parse(&json!({
            "command": {"program": ["rm", "a[b"], "anyArg": "("},
            "args": {"url": "x(?=y)"},
            "pathGlob": ["ok/**", "{a"],
        }));
        let places: Vec<&str> = problems.iter().map(|(p, _, _)| p.as_str()).collect();
        assert_eq!(
            places,
            [
                "/command/program/1",
                "/command/anyArg",
                "/args/url",
                "/pathGlob/1"
            ]
        );
        let (_, problems) = parse(&json!({"pathGlob": "!x"}));
        assert!(problems[0].1.contains("only exclusions"), "{problems:?}");
        // `readGlob` is read as `pathGlob` is, and its problems name it.
        let (s, problems) = parse(&json!({"readGlob": ["**/.env", "{a"]}));
        assert!(s.read_glob.is_none() && s.path_glob.is_none());
        assert_eq!(problems[0].0, "/readGlob/1");
        let (s, problems) = parse(&json!({"readGlob": "**/.env"}));
        assert!(problems.is_empty() && s.read_glob.is_some_and(|g| g.sources == ["**/.env"]));
    }

    #[test]
    fn verbs_and_http_methods_name_programs_they_can_read() {
        let (s, problems) = parse(&json!({"command": {
            "program": ["kubectl", "helm", "!oc", "gcloud*"], "verbs": ["Delete", "uninstall"]}}));
        assert!(problems.is_empty(), "{problems:?}");
        let c = s.command.expect("command");
        assert_eq!(
            c.verbs.as_deref(),
            Some(&["delete".to_owned(), "uninstall".to_owned()][..])
        );
        let (_, problems) = parse(&json!({"command": {
            "program": ["kubectl", "ls"], "verbs": "delete"}}));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, "/command/program/1");
        assert!(
            problems[0].1.contains("`ls` is not read for `verbs`"),
            "{problems:?}"
        );
        let (s, problems) = parse(&json!({"command": {
            "program": ["curl", "http"], "httpMethods": ["delete"]}}));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            s.command.expect("command").http_methods.as_deref(),
            Some(&["DELETE".to_owned()][..])
        );
        let (_, problems) =
            parse(&json!({"command": {"program": "kubectl", "httpMethods": "DELETE"}}));
        assert_eq!(problems[0].0, "/command/program");
        assert!(problems[0].1.contains("`httpMethods`"), "{problems:?}");
        // `gh api` is both: a resource tool and an HTTP client.
        let (_, problems) = parse(&json!({"command": {
            "program": "gh", "verbs": "delete", "httpMethods": "DELETE"}}));
        assert!(problems.is_empty(), "{problems:?}");
    }
}
