//! The structured filters of `match` compiled for checking: each built from the plain,
//! checked data of `config::filters`.
//!
//! Globs are compiled into one matcher on first use: compiling them was 60% of a one-shot
//! `hookgate check` on the default policy, and most calls never reach a glob (the hook's
//! other filters fail first).

use std::sync::{Arc, OnceLock};

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::pattern::Pattern;
use super::wildcard_matches;
use crate::config::filters::Names as NamesSpec;
use crate::config::{ArgFilter, CommandFilter, MatchSpec, NameSet, PathGlob, Place};

/// A hook's `match` section compiled: the plain fields as written, the patterns and globs
/// as matchers.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filters {
    /// Exact tool names (one of them must be the context's tool).
    pub(crate) tool: Option<Vec<String>>,
    /// Regex on the command subject.
    pub(crate) command_pattern: Option<Pattern>,
    /// Topic id as a string; `*` = any present topic.
    pub(crate) topic_id: Option<String>,
    /// Whether the session must (or must not) be a sub-agent's.
    pub(crate) is_sub_agent: Option<bool>,
    /// Regex on the session key.
    pub(crate) session_pattern: Option<Pattern>,
    /// Whether the shell command must (or must not) be one the reader cannot understand.
    pub(crate) unparseable: Option<bool>,
    /// Test on the simple commands of a shell command.
    pub(crate) command: Option<CommandMatcher>,
    /// Regexes on named tool arguments (all must match).
    pub(crate) args: Option<Vec<ArgMatcher>>,
    /// Globs on path-like arguments.
    pub(crate) path_glob: Option<PathMatcher>,
    /// Globs on the paths a shell command may read.
    pub(crate) read_glob: Option<PathMatcher>,
    /// Places one of the file tools' path fields must lie in.
    pub(crate) path_in: Option<Vec<Place>>,
}

impl Filters {
    /// The matchers of `spec`, none built yet.
    pub(crate) fn compile(spec: &MatchSpec) -> Filters {
        Filters {
            tool: spec.tool.clone(),
            command_pattern: spec.command_pattern.as_ref().map(Pattern::compile),
            topic_id: spec.topic_id.clone(),
            is_sub_agent: spec.is_sub_agent,
            session_pattern: spec.session_pattern.as_ref().map(Pattern::compile),
            unparseable: spec.unparseable,
            command: spec.command.as_ref().map(CommandMatcher::compile),
            args: spec
                .args
                .as_ref()
                .map(|args| args.iter().map(ArgMatcher::compile).collect()),
            path_glob: spec.path_glob.as_ref().map(PathMatcher::compile),
            read_glob: spec.read_glob.as_ref().map(PathMatcher::compile),
            path_in: spec.path_in.clone(),
        }
    }
}

/// `match.command` compiled.
#[derive(Debug, Clone)]
pub(crate) struct CommandMatcher {
    /// The filter as written: its places, verbs and methods are read as they are.
    pub(crate) spec: CommandFilter,
    programs: Option<NameMatcher>,
    /// `argsPattern`.
    pub(crate) args_pattern: Option<Pattern>,
    /// `anyArg`.
    pub(crate) any_arg: Option<Pattern>,
}

impl CommandMatcher {
    fn compile(spec: &CommandFilter) -> CommandMatcher {
        CommandMatcher {
            spec: spec.clone(),
            programs: spec.programs.as_ref().map(NameMatcher::compile),
            args_pattern: spec.args_pattern.as_ref().map(Pattern::compile),
            any_arg: spec.any_arg.as_ref().map(Pattern::compile),
        }
    }

    /// Whether one simple command satisfies the program and argument fields; `joined_args`
    /// is its arguments joined by single spaces (only read when there is an `argsPattern`).
    pub(crate) fn accepts(&self, program: &str, args: &[String], joined_args: &str) -> bool {
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

/// A [`NameSet`] compiled.
#[derive(Debug, Clone)]
struct NameMatcher {
    include: Names,
    exclude: Names,
}

impl NameMatcher {
    fn compile(set: &NameSet) -> NameMatcher {
        NameMatcher {
            include: Names::compile(&set.include),
            exclude: Names::compile(&set.exclude),
        }
    }

    /// Whether `name` is in the set.
    fn contains(&self, name: &str) -> bool {
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
    fn compile(names: &NamesSpec) -> Names {
        Names {
            exact: names.exact.clone(),
            globs: Globs::new(&names.globs),
        }
    }

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
    fn new(parsed: &[Glob]) -> Globs {
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

/// One entry of `match.args` compiled.
#[derive(Debug, Clone)]
pub(crate) struct ArgMatcher {
    /// The `toolArgs` field.
    pub(crate) field: String,
    /// The regex its value must match.
    pub(crate) pattern: Pattern,
}

impl ArgMatcher {
    fn compile(arg: &ArgFilter) -> ArgMatcher {
        ArgMatcher {
            field: arg.field.clone(),
            pattern: Pattern::compile(&arg.pattern),
        }
    }
}

/// A [`PathGlob`] compiled.
#[derive(Debug, Clone)]
pub(crate) struct PathMatcher {
    include: Globs,
    exclude: Globs,
    /// The globs as written, for [`PathMatcher::could_match`]'s examples.
    sources: Arc<[String]>,
    /// Example paths of the globs, each with whether its glob matches anywhere (`**/.env`)
    /// rather than below a fixed directory (`/etc/sudoers.d`).
    examples: Arc<OnceLock<Vec<(String, bool)>>>,
}

impl PathMatcher {
    fn compile(globs: &PathGlob) -> PathMatcher {
        PathMatcher {
            include: Globs::new(&globs.include),
            exclude: Globs::new(&globs.exclude),
            sources: globs.sources.as_slice().into(),
            examples: Arc::default(),
        }
    }
}

impl PathMatcher {
    /// Whether `path` (already normalised) matches an include glob and no exclude glob.
    pub(crate) fn is_match(&self, path: &str) -> bool {
        self.include.is_match(path, true) && !self.exclude.is_match(path, false)
    }

    /// Whether a path written with wildcards (`~/.ssh/*`, which the shell expands) could
    /// name a file this filter matches: it is tested against example paths of each glob.
    /// No compile: the path comes from the call, and this runs per evaluation.
    pub(crate) fn could_match(&self, wildcard_path: &str) -> bool {
        self.could_match_where(wildcard_path, true)
    }

    /// [`PathMatcher::could_match`] of the globs that match anywhere (`**/.env`), for a path
    /// relative to a directory placed elsewhere: `**/*` below a project may be a `.env`
    /// of it, and no `/etc/sudoers.d`.
    pub(crate) fn could_match_anywhere(&self, wildcard_path: &str) -> bool {
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
                true => wildcard_matches(&format!("x/{suffix}"), &format!("x/{e}")),
                false => wildcard_matches(suffix, e),
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
    pub(crate) fn could_match_in(&self, dir: &str, name: &str) -> bool {
        let dotted = format!(".{name}");
        self.sources.iter().any(|source| {
            if source.starts_with('!') || source.contains(['[', '{', '\\']) {
                return false;
            }
            let last = source.rsplit('/').next().unwrap_or_default();
            let candidate = last.replace(['*', '?'], "x");
            (wildcard_matches(name, &candidate)
                || (name.starts_with('*') && wildcard_matches(&dotted, &candidate)))
                && self.is_match(&format!("{dir}/{candidate}"))
        })
    }
}

/// Example paths each include glob matches (`**/.ssh/id_*` gives `.ssh/id_x`,
/// `/.ssh/id_x` and `~/.ssh/id_x`), for [`PathMatcher::could_match`].
fn examples(sources: &[String], filter: &PathMatcher) -> Vec<(String, bool)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The structured filters of a raw `match` value, checked as the loader checks them,
    /// then compiled.
    struct Compiled {
        command: Option<CommandMatcher>,
        path_glob: Option<PathMatcher>,
    }

    fn compile(raw: &serde_json::Value) -> (Compiled, Vec<String>) {
        let policy = serde_json::json!({
            "version": "1",
            "hooks": [{ "name": "h", "point": "turn:tool:pre", "match": raw, "action": "block" }],
        });
        let text = serde_json::to_string(&policy).expect("json");
        match crate::config::load_str(&text, std::path::Path::new("HOOKS.yaml")) {
            Ok(policy) => {
                let filters = Filters::compile(&policy.document.hooks[0].filter);
                let compiled = Compiled {
                    command: filters.command,
                    path_glob: filters.path_glob,
                };
                (compiled, Vec::new())
            }
            Err(e) => {
                let problems = e.diagnostics().iter().map(|d| d.to_string()).collect();
                let none = Compiled {
                    command: None,
                    path_glob: None,
                };
                (none, problems)
            }
        }
    }

    #[test]
    fn command_filter_needs_every_field_on_one_command() {
        let (s, problems) = compile(&json!({"command": {
            "program": ["rm", "mkfs*"], "anyArg": "^-[a-z]*r", "argsPattern": "/$"}}));
        assert!(problems.is_empty(), "{problems:?}");
        let c = s.command.expect("command");
        let accepts = |c: &CommandMatcher, program: &str, a: &[&str]| {
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
}
