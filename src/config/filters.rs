//! The structured filters of `match` (`command`, `args`, `pathGlob`), checked at load.
//!
//! Globs are parsed at load (every syntax error is reported then) and compiled into a
//! matcher on first use: compiling them was 60% of a one-shot `hookgate check` on the
//! default policy, and most calls never reach a glob (the hook's other filters fail first).

use std::sync::{Arc, OnceLock};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use serde_json::Value;

use super::pattern::{Pattern, PatternError};
use super::wildcard;

/// `match.command`: a test on each simple command of a shell command.
#[derive(Debug, Clone, Default)]
pub struct CommandFilter {
    /// Program names, exact or glob (`mkfs*`); `None` accepts any program.
    pub programs: Option<NameSet>,
    /// Regex on the arguments joined by single spaces.
    pub args_pattern: Option<Pattern>,
    /// Regex that one argument must match.
    pub any_arg: Option<Pattern>,
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

impl CommandFilter {
    /// Whether one simple command satisfies every field; `joined_args` is its arguments
    /// joined by single spaces (only read when there is an `argsPattern`).
    pub fn accepts(&self, program: &str, args: &[String], joined_args: &str) -> bool {
        self.programs.as_ref().is_none_or(|p| p.contains(program))
            && self
                .args_pattern
                .as_ref()
                .is_none_or(|p| p.is_match(joined_args))
            && self
                .any_arg
                .as_ref()
                .is_none_or(|p| args.iter().any(|a| p.is_match(a)))
    }
}

/// A set of names, each exact or a glob; names written `!name` are left out, and a set of
/// only exclusions holds every other name.
#[derive(Debug, Clone)]
pub struct NameSet {
    include: Names,
    exclude: Names,
}

impl NameSet {
    /// Whether `name` is in the set.
    pub fn contains(&self, name: &str) -> bool {
        (self.include.is_empty() || self.include.contains(name, true))
            && !self.exclude.contains(name, false)
    }
}

#[derive(Debug, Clone, Default)]
struct Names {
    exact: Vec<String>,
    globs: Globs,
}

impl Names {
    fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.globs.is_empty()
    }

    /// `widen`: the answer when the globs cannot be compiled (see [`Globs::is_match`]).
    fn contains(&self, name: &str, widen: bool) -> bool {
        self.exact.iter().any(|e| e == name) || self.globs.is_match(name, widen)
    }
}

/// Parsed globs, compiled into one matcher the first time one is asked about; clones share
/// the matcher.
#[derive(Debug, Clone, Default)]
struct Globs {
    parsed: Arc<[Glob]>,
    compiled: Arc<OnceLock<Option<GlobSet>>>,
}

impl Globs {
    fn new(parsed: Vec<Glob>) -> Globs {
        Globs {
            parsed: parsed.into(),
            compiled: Arc::default(),
        }
    }

    fn is_empty(&self) -> bool {
        self.parsed.is_empty()
    }

    /// Whether a glob matches `text`. Globs that parsed compile within the regex crate's
    /// limits; should that fail all the same, the answer is `fallback`, chosen by the
    /// caller so that the hook matches more (fails closed), and the error is logged once.
    fn is_match(&self, text: &str, fallback: bool) -> bool {
        if self.parsed.is_empty() {
            return false;
        }
        let compiled = self.compiled.get_or_init(|| {
            let mut builder = GlobSetBuilder::new();
            for glob in self.parsed.iter() {
                builder.add(glob.clone());
            }
            builder
                .build()
                .map_err(|error| {
                    tracing::error!(%error, "globs that parsed did not compile; the hook matches more")
                })
                .ok()
        });
        compiled.as_ref().map_or(fallback, |set| set.is_match(text))
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
    include: Globs,
    exclude: Globs,
    /// The globs as written, for [`PathGlob::could_match`]'s examples.
    sources: Arc<[String]>,
    /// Example paths of the globs, each with whether its glob matches anywhere (`**/.env`)
    /// rather than below a fixed directory (`/etc/sudoers.d`).
    examples: Arc<OnceLock<Vec<(String, bool)>>>,
}

impl PathGlob {
    /// Whether `path` (already normalised) matches an include glob and no exclude glob.
    pub fn is_match(&self, path: &str) -> bool {
        self.include.is_match(path, true) && !self.exclude.is_match(path, false)
    }

    /// Whether a path written with wildcards (`~/.ssh/*`, which the shell expands) could
    /// name a file this filter matches: it is tested against example paths of each glob.
    /// No compile: the path comes from the call, and this runs per evaluation.
    pub fn could_match(&self, wildcard_path: &str) -> bool {
        self.could_match_where(wildcard_path, true)
    }

    /// [`PathGlob::could_match`] of the globs that match anywhere (`**/.env`), for a path
    /// relative to a directory placed elsewhere: `**/*` below a project may be a `.env`
    /// of it, and no `/etc/sudoers.d`.
    pub fn could_match_anywhere(&self, wildcard_path: &str) -> bool {
        self.could_match_where(wildcard_path, false)
    }

    fn could_match_where(&self, wildcard_path: &str, anchored: bool) -> bool {
        // `dir/.e*` may name `dir/.env`: drop leading directories too, since the globs'
        // `**/` accepts any. A glob below a fixed directory is matched by the whole path
        // only (`/root/proj/**/*.d` names no `/etc/sudoers.d`).
        let mut suffix = wildcard_path;
        loop {
            // A bare `*` after dropping directories would claim every file; `.ssh/*` (of
            // `/root/.ssh/*`) names the directory it lists.
            let literal = suffix
                .split('/')
                .any(|part| part.chars().any(|c| !"*?[]".contains(c)));
            let examples = self.examples.get_or_init(|| examples(&self.sources, self));
            let whole = suffix == wildcard_path;
            // A `**` that was below a relative start (`build/**/*.xml`) does not cross hidden
            // directories; left leading once the start is dropped, it would (`**/*.xml`
            // names `.m2/settings.xml`). Both sides below one plain directory keep it so.
            let relative =
                !whole && suffix.starts_with("**") && !wildcard_path.starts_with(['/', '~']);
            let matches = |e: &str| match relative {
                true => wildcard::matches(&format!("x/{suffix}"), &format!("x/{e}")),
                false => wildcard::matches(suffix, e),
            };
            if (whole || literal)
                && examples
                    .iter()
                    .any(|(e, anywhere)| (*anywhere || whole && anchored) && matches(e))
            {
                return true;
            }
            match suffix.split_once('/') {
                Some((_, rest)) if !rest.is_empty() => suffix = rest,
                _ => return false,
            }
        }
    }

    /// Whether a file in directory `dir` whose name is not known, but matches `name` (a
    /// pattern in which a leading `*` may also stand for a leading dot: the name was
    /// computed, not globbed), could match this filter. It is tested with the names the
    /// filter's own globs end in: `~/.ssh` and `*` could be `~/.ssh/id_x`.
    pub fn could_match_in(&self, dir: &str, name: &str) -> bool {
        let dotted = format!(".{name}");
        self.sources.iter().any(|source| {
            if source.starts_with('!') || source.contains(['[', '{', '\\']) {
                return false;
            }
            let last = source.rsplit('/').next().unwrap_or_default();
            let candidate = last.replace(['*', '?'], "x");
            (wildcard::matches(name, &candidate)
                || (name.starts_with('*') && wildcard::matches(&dotted, &candidate)))
                && self.is_match(&format!("{dir}/{candidate}"))
        })
    }
}

/// Example paths each include glob matches (`**/.ssh/id_*` gives `.ssh/id_x`,
/// `/.ssh/id_x` and `~/.ssh/id_x`), for [`PathGlob::could_match`].
fn examples(sources: &[String], filter: &PathGlob) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for source in sources {
        if source.starts_with('!') || source.contains(['[', '{', '\\']) {
            continue;
        }
        let stars = source.replace("**/", "x/");
        for fill in ["x", ""] {
            let concrete = stars.replace(['*', '?'], fill);
            let (variants, anywhere) = match concrete.strip_prefix("x/") {
                Some(rest) => (
                    vec![rest.to_owned(), format!("/{rest}"), format!("~/{rest}")],
                    true,
                ),
                None => (vec![concrete], false),
            };
            out.extend(
                variants
                    .into_iter()
                    .filter(|v| filter.is_match(v))
                    .map(|v| (v, anywhere)),
            );
        }
    }
    out
}

/// The structured filters of one `match` section.
#[derive(Debug, Default)]
pub(super) struct Structured {
    pub(super) command: Option<CommandFilter>,
    pub(super) args: Option<Vec<ArgFilter>>,
    pub(super) path_glob: Option<PathGlob>,
    pub(super) read_glob: Option<PathGlob>,
}

/// A problem at a JSON pointer below the `match` section: (pointer suffix, message, help).
pub(super) type Problem = (String, String, Option<String>);

/// Compiles `command`, `args` and `pathGlob` of a raw `match` value. Shapes were checked by
/// the schema; what only compiling can find is returned as problems.
pub(super) fn compile(raw: &Value) -> (Structured, Vec<Problem>) {
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
    (
        Structured {
            command,
            args,
            path_glob: globs,
            read_glob: read_globs,
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
        set.globs = Globs::new(globs);
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
        include: Globs::new(include),
        exclude: Globs::new(exclude),
        sources: globs.iter().map(|(_, g)| (*g).to_owned()).collect(),
        examples: Arc::default(),
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
        let accepts = |c: &CommandFilter, program: &str, a: &[&str]| {
            let args: Vec<String> = a.iter().map(|s| (*s).to_owned()).collect();
            c.accepts(program, &args, &args.join(" "))
        };
        assert!(accepts(&c, "rm", &["-rf", "/"]));
        assert!(!accepts(&c, "rm", &["-f", "/"]));
        assert!(!accepts(&c, "ls", &["-rf", "/"]));
        assert!(accepts(&c, "mkfs.ext4", &["-r", "/"]));
        let (s, _) = compile(&json!({"command": {"program": ["!ssh", "!ssh-*"]}}));
        let c = s.command.expect("command");
        assert!(accepts(&c, "cat", &[]));
        assert!(!accepts(&c, "ssh", &[]));
        assert!(!accepts(&c, "ssh-keygen", &[]));
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
        for yes in ["~/.en*", "app/.e*", "/et?/*", "/home/*/.env"] {
            assert!(g.could_match(yes), "{yes}");
        }
        for no in ["*.txt", "/etc/ssh/*", "~/.bash*", "~/*", "logs/*"] {
            assert!(!g.could_match(no), "{no}");
        }
        // A name not known in a known directory: a leading `*` may be a dotfile here.
        let (s, _) = compile(&json!({"pathGlob": ["**/.ssh/id_*", "!**/*.pub", "**/.env"]}));
        let g = s.path_glob.expect("pathGlob");
        for (dir, name) in [("~/.ssh", "*"), ("~/.ssh", "id_*"), ("app", "*")] {
            assert!(g.could_match_in(dir, name), "{dir}/{name}");
        }
        // A listing of a directory the globs name, wherever it is.
        for yes in ["/root/.ssh/*", "/home/u/.ssh/i*", "~/.ssh/*"] {
            assert!(g.could_match(yes), "{yes}");
        }
        for no in ["/root/notes/*", "/home/u/*", "src/*"] {
            assert!(!g.could_match(no), "{no}");
        }
        // A `**` below a relative start crosses no hidden directory, however much of the
        // start is dropped; below the home or the root it does.
        let (s, _) = compile(&json!({"pathGlob": ["**/.m2/settings.xml", "**/*.pem"]}));
        let g = s.path_glob.expect("pathGlob");
        for no in [
            "build/test-results/**/*.xml",
            "./**/build/**/*.xml",
            "src/**/settings.xml",
        ] {
            assert!(!g.could_match(no), "{no}");
        }
        for yes in [
            "~/**/*.xml",
            "/**/settings.xml",
            "build/**/*.pem",
            "./**/.m2/*.xml",
        ] {
            assert!(g.could_match(yes), "{yes}");
        }
        for (dir, name) in [("~/.ssh", "*.pub"), ("logs", "*.log"), ("~/.aws", "*.json")] {
            assert!(!g.could_match_in(dir, name), "{dir}/{name}");
        }
        // A glob below a fixed directory is named by the whole pattern only.
        let (s, _) = compile(&json!({"pathGlob": ["/etc/sudoers.d", "/etc/sudoers.d/**"]}));
        let g = s.path_glob.expect("pathGlob");
        for yes in ["/etc/sudoers.*", "/e*/sudoers.d"] {
            assert!(g.could_match(yes), "{yes}");
        }
        for no in ["/root/proj/**/*.d", "build/*.d", "./**/sudoers.d"] {
            assert!(!g.could_match(no), "{no}");
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
        // `readGlob` is read as `pathGlob` is, and its problems name it.
        let (s, problems) = compile(&json!({"readGlob": ["**/.env", "{a"]}));
        assert!(s.read_glob.is_none() && s.path_glob.is_none());
        assert_eq!(problems[0].0, "/readGlob/1");
        let (s, problems) = compile(&json!({"readGlob": "**/.env"}));
        assert!(problems.is_empty() && s.read_glob.is_some_and(|g| g.is_match(".env")));
    }

    #[test]
    fn verbs_and_http_methods_name_programs_they_can_read() {
        let (s, problems) = compile(&json!({"command": {
            "program": ["kubectl", "helm", "!oc", "gcloud*"], "verbs": ["Delete", "uninstall"]}}));
        assert!(problems.is_empty(), "{problems:?}");
        let c = s.command.expect("command");
        assert_eq!(
            c.verbs.as_deref(),
            Some(&["delete".to_owned(), "uninstall".to_owned()][..])
        );
        let (_, problems) = compile(&json!({"command": {
            "program": ["kubectl", "ls"], "verbs": "delete"}}));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, "/command/program/1");
        assert!(
            problems[0].1.contains("`ls` is not read for `verbs`"),
            "{problems:?}"
        );
        let (s, problems) = compile(&json!({"command": {
            "program": ["curl", "http"], "httpMethods": ["delete"]}}));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            s.command.expect("command").http_methods.as_deref(),
            Some(&["DELETE".to_owned()][..])
        );
        let (_, problems) =
            compile(&json!({"command": {"program": "kubectl", "httpMethods": "DELETE"}}));
        assert_eq!(problems[0].0, "/command/program");
        assert!(problems[0].1.contains("`httpMethods`"), "{problems:?}");
        // `gh api` is both: a resource tool and an HTTP client.
        let (_, problems) = compile(&json!({"command": {
            "program": "gh", "verbs": "delete", "httpMethods": "DELETE"}}));
        assert!(problems.is_empty(), "{problems:?}");
    }
}
