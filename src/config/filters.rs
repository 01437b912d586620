//! The structured filters of `match` (`command`, `args`, `pathGlob`), compiled at load.

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use serde_json::Value;

use super::pattern::{Pattern, PatternError};

/// `match.command`: a test on each simple command of a shell command.
#[derive(Debug, Clone, Default)]
pub struct CommandFilter {
    /// Program names, exact or glob (`mkfs*`); `None` accepts any program.
    pub programs: Option<NameSet>,
    /// Regex on the arguments joined by single spaces.
    pub args_pattern: Option<Pattern>,
    /// Regex that one argument must match.
    pub any_arg: Option<Pattern>,
}

impl CommandFilter {
    /// Whether one simple command satisfies every field.
    pub fn accepts(&self, program: &str, args: &[String]) -> bool {
        self.programs.as_ref().is_none_or(|p| p.contains(program))
            && self
                .args_pattern
                .as_ref()
                .is_none_or(|p| p.is_match(&args.join(" ")))
            && self
                .any_arg
                .as_ref()
                .is_none_or(|p| args.iter().any(|a| p.is_match(a)))
    }
}

/// A set of names, each exact or a glob.
#[derive(Debug, Clone)]
pub struct NameSet {
    exact: Vec<String>,
    globs: Option<GlobSet>,
    /// As written, for explanations.
    pub sources: Vec<String>,
}

impl NameSet {
    /// Whether `name` is one of the names or matches one of the globs.
    pub fn contains(&self, name: &str) -> bool {
        self.exact.iter().any(|e| e == name)
            || self.globs.as_ref().is_some_and(|g| g.is_match(name))
    }
}

/// One entry of `match.args`.
#[derive(Debug, Clone)]
pub struct ArgFilter {
    /// The `toolArgs` field.
    pub field: String,
    /// The regex its value must match.
    pub pattern: Pattern,
}

/// `match.pathGlob`: globs on path-like arguments, with `!` exclusions.
#[derive(Debug, Clone)]
pub struct PathGlob {
    include: GlobSet,
    exclude: GlobSet,
    /// As written, for explanations.
    pub sources: Vec<String>,
}

impl PathGlob {
    /// Whether `path` (already normalised) matches an include glob and no exclude glob.
    pub fn is_match(&self, path: &str) -> bool {
        self.include.is_match(path) && !self.exclude.is_match(path)
    }
}

/// The structured filters of one `match` section.
#[derive(Debug, Default)]
pub(super) struct Structured {
    pub(super) command: Option<CommandFilter>,
    pub(super) args: Option<Vec<ArgFilter>>,
    pub(super) path_glob: Option<PathGlob>,
}

/// A problem at a JSON pointer below the `match` section: (pointer suffix, message, help).
pub(super) type Problem = (String, String, Option<String>);

/// Compiles `command`, `args` and `pathGlob` of a raw `match` value. Shapes were checked by
/// the schema; what only compiling can find is returned as problems.
pub(super) fn compile(raw: &Value) -> (Structured, Vec<Problem>) {
    let mut problems = Vec::new();
    let command = raw.get("command").and_then(Value::as_object).map(|c| {
        let programs = c.get("program").and_then(|p| {
            let names = strings(p);
            names_set(&names, "/command/program", &mut problems)
        });
        let mut pattern = |field: &str| {
            let source = c.get(field)?.as_str()?;
            regex(format!("/command/{field}"), source, &mut problems)
        };
        CommandFilter {
            programs,
            args_pattern: pattern("argsPattern"),
            any_arg: pattern("anyArg"),
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
    let path_glob = raw
        .get("pathGlob")
        .and_then(|g| path_glob(g, &mut problems));
    (
        Structured {
            command,
            args,
            path_glob,
        },
        problems,
    )
}

fn regex(pointer: String, source: &str, problems: &mut Vec<Problem>) -> Option<Pattern> {
    Pattern::new(source)
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

fn names_set(names: &[(String, &str)], at: &str, problems: &mut Vec<Problem>) -> Option<NameSet> {
    let mut exact = Vec::new();
    let mut globs = GlobSetBuilder::new();
    let mut any_glob = false;
    for (place, name) in names {
        if name.contains(['*', '?', '[', '{']) {
            match glob(name) {
                Ok(g) => {
                    globs.add(g);
                    any_glob = true;
                }
                Err(e) => problems.push((format!("{at}{place}"), glob_message(&e), None)),
            }
        } else {
            exact.push((*name).to_owned());
        }
    }
    let globs = if any_glob { globs.build().ok() } else { None };
    Some(NameSet {
        exact,
        globs,
        sources: names.iter().map(|(_, n)| (*n).to_owned()).collect(),
    })
}

fn path_glob(value: &Value, problems: &mut Vec<Problem>) -> Option<PathGlob> {
    let globs = strings(value);
    let mut include = GlobSetBuilder::new();
    let mut exclude = GlobSetBuilder::new();
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
            Ok(g) => {
                set.add(g);
            }
            Err(e) => problems.push((format!("/pathGlob{place}"), glob_message(&e), None)),
        }
    }
    if includes == 0 {
        problems.push((
            "/pathGlob".to_owned(),
            "pathGlob has only exclusions (`!...`), so it matches nothing".to_owned(),
            Some("add the globs to match, e.g. `[\"**/.env*\", \"!**/.env.example\"]`".to_owned()),
        ));
    }
    if problems.len() > before {
        return None;
    }
    Some(PathGlob {
        include: include.build().ok()?,
        exclude: exclude.build().ok()?,
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
    fn command_filter_needs_every_field_on_one_command() {
        let (s, problems) = compile(&json!({"command": {
            "program": ["rm", "mkfs*"], "anyArg": "^-[a-z]*r", "argsPattern": "/$"}}));
        assert!(problems.is_empty(), "{problems:?}");
        let c = s.command.expect("command");
        let args = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(c.accepts("rm", &args(&["-rf", "/"])));
        assert!(!c.accepts("rm", &args(&["-f", "/"])));
        assert!(!c.accepts("ls", &args(&["-rf", "/"])));
        assert!(c.accepts("mkfs.ext4", &args(&["-r", "/"])));
    }

    #[test]
    fn path_globs_respect_separators_and_exclusions() {
        let (s, problems) =
            compile(&json!({"pathGlob": ["**/.env*", "!**/.env.example", "/etc/*"]}));
        assert!(problems.is_empty(), "{problems:?}");
        let g = s.path_glob.expect("pathGlob");
        for yes in [".env", "app/.env.local", "/home/u/.env", "/etc/shadow"] {
            assert!(g.is_match(yes), "{yes}");
        }
        for no in [
            ".env.example",
            "a/.env.example",
            "/etc/ssh/sshd_config",
            "env",
        ] {
            assert!(!g.is_match(no), "{no}");
        }
    }

    #[test]
    fn bad_regexes_and_globs_name_their_place() {
        let (_, problems) = compile(&json!({
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
        let (_, problems) = compile(&json!({"pathGlob": "!x"}));
        assert!(problems[0].1.contains("only exclusions"), "{problems:?}");
    }
}
