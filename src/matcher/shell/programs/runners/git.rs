//! `git`: what its configuration, aliases, environment and command-running subcommands run.

mod config;
mod paths;

use super::code_value;
use crate::matcher::shell::env::Value;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::programs::{git_view, script_of, texts};
use crate::matcher::shell::walk::{Data, Io, Reader};
use crate::matcher::shell::{SUBSTITUTION, SimpleCommand};
use config::{GIT_ENV, git_false, git_runs, git_with_environment_config, remote_programs};
use paths::{checkout_of_paths, cloned_from_afar, prints_object_names};

/// The directory git's paths are relative to, from its `-C` options.
enum GitDir {
    /// The line's own directory.
    Here,
    /// This one, relative to the line's directory unless absolute.
    In(String),
    /// Not known.
    Unknown,
}

impl GitDir {
    /// After `-C dir` (`None`: a directory not known before the line runs).
    fn then(self, dir: Option<&str>) -> GitDir {
        match (self, dir) {
            (GitDir::Unknown, _) | (_, None) => GitDir::Unknown,
            (GitDir::In(base), Some(d)) if !d.starts_with(['/', '~']) => {
                GitDir::In(format!("{base}/{d}"))
            }
            (_, Some(d)) => GitDir::In(d.to_owned()),
        }
    }
}

/// `git`: the commands its configuration (`-c`, `git config`) and environment make it
/// run, aliases, and the subcommands that run a command (`rebase --exec`, `bisect run`,
/// `submodule foreach`, `filter-branch --*-filter`, `difftool -x`).
pub(super) fn git(r: &mut Reader, args: &[Field], env: &[(String, Value)], stdin: &Data) -> Data {
    let t = texts(args);
    // A remote reached through a command git runs (`ext::sh -c ...`).
    if t.iter()
        .any(|a| a.starts_with("ext::") || a.contains("=ext::"))
    {
        r.unreadable("git runs a command as its transport (an ext:: remote)");
    }
    // `GIT_CONFIG_KEY_0=k GIT_CONFIG_VALUE_0=v git ...` is `git -c k=v ...`.
    if env
        .iter()
        .any(|(name, _)| name.starts_with("GIT_CONFIG_KEY_"))
    {
        return git_with_environment_config(r, args, env, stdin);
    }
    for (name, value) in env {
        if GIT_ENV.contains(&name.as_str()) {
            code_value(r, value.clone());
        }
        if name == "GIT_CONFIG_PARAMETERS"
            || name.starts_with("GIT_CONFIG_VALUE_")
            || name == "GIT_EXEC_PATH"
            || name == "GIT_TEMPLATE_DIR"
        {
            r.unreadable("git's configuration comes from the environment");
        }
        // `GIT_TRACE=/path`, `GIT_TRACE2_EVENT=/path`: git appends its trace to the file.
        if name.starts_with("GIT_TRACE") {
            let file = match value {
                Value::Known(v) if v.starts_with('/') => Some(v.clone()),
                Value::Known(_) => None,
                Value::Unknown => Some(SUBSTITUTION.to_owned()),
            };
            if let Some(file) = file {
                super::record_written(r, vec![file], true, "git's trace");
            }
        }
    }
    // `git log --output=FILE`: the diff options write to the file instead.
    for (k, a) in args.iter().enumerate() {
        let file = match a.text.strip_prefix("--output=") {
            Some(file) => Some(file),
            None if a.text == "--output" => args.get(k + 1).map(|f| f.text.as_str()),
            None => None,
        };
        if let Some(file) = file {
            super::record_written(r, vec![file.to_owned()], false, "git --output");
        }
    }
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut clean_forced = false;
    // Where git's paths are relative to: `-C DIR` (each relative to the one before), or
    // not known (`--git-dir`, `--work-tree`).
    let mut place = GitDir::Here;
    let mut k = 0;
    while let Some(a) = args.get(k) {
        let text = a.text.as_str();
        if !text.starts_with('-') {
            break;
        }
        if a.unknown {
            r.unreadable("an option of git is not known before it runs");
        }
        let config = if text == "-c" {
            k += 1;
            args.get(k).map(|f| (f.text.clone(), f.unknown))
        } else {
            text.strip_prefix("-c")
                .filter(|v| !v.is_empty() && !text.starts_with("--"))
                .map(|v| (v.to_owned(), a.unknown))
        };
        if let Some((kv, unknown)) = config {
            if unknown {
                r.unreadable("git's configuration comes from a value not known before it runs");
            }
            let (key, value) = kv.split_once('=').unwrap_or((kv.as_str(), "true"));
            let lower = key.to_ascii_lowercase();
            // With autocorrection on, git runs the subcommand it guesses a typo meant.
            if lower == "help.autocorrect" && !git_false(value) && value != "show" {
                r.unreadable(
                    "git may run another subcommand than the one written (help.autocorrect)",
                );
            }
            if lower == "clean.requireforce" {
                clean_forced = git_false(value);
            }
            if kv.contains('=') && git_runs(key) {
                if key.to_ascii_lowercase().starts_with("alias.") {
                    aliases.push((key[6..].to_owned(), value.to_owned()));
                } else {
                    code_value(r, Value::Known(value.to_owned()));
                }
            }
        } else if text == "--config-env" || text.starts_with("--config-env=") {
            r.unreadable("git's configuration comes from the environment");
        } else if text == "-C" {
            k += 1;
            place = place.then(args.get(k).filter(|d| !d.unknown).map(|d| d.text.as_str()));
        } else if text.starts_with("--git-dir") || text.starts_with("--work-tree") {
            place = GitDir::Unknown;
            k += usize::from(!text.contains('='));
        } else if matches!(
            text,
            "--namespace" | "--exec-path" | "--super-prefix" | "--list-cmds" | "--attr-source"
        ) {
            k += 1;
        }
        k += 1;
    }
    let Some(sub) = args.get(k) else {
        return Data::Unknown;
    };
    if sub.unknown {
        r.unreadable("git's subcommand is not known before it runs");
        return Data::Unknown;
    }
    let rest = &t[k + 1..];
    if sub.text == "ls-files" && matches!(place, GitDir::Here) {
        return super::search::git_ls_files(r, rest);
    }
    if matches!(place, GitDir::Here)
        && let Some(names) = super::search::git_names(r, &sub.text, rest)
    {
        return names;
    }
    // The work tree's top, when the host shows it (`top=$(git rev-parse --show-toplevel)`).
    if sub.text == "rev-parse" && rest.iter().any(|a| a == "--show-toplevel") {
        let line_dir = match r.env.get(crate::matcher::shell::env::DIR) {
            Value::Known(d) => Some(d),
            Value::Unknown => None,
        };
        let dir = match place {
            GitDir::Here => line_dir,
            GitDir::In(d) if d.starts_with(['/', '~']) => Some(d),
            GitDir::In(d) => line_dir.map(|l| format!("{l}/{d}")),
            GitDir::Unknown => None,
        };
        let top = dir.and_then(|d| r.host.as_ref().and_then(|h| h.git_toplevel(&d)));
        return top.map_or(Data::Unknown, |t| Data::Known(format!("{t}\n")));
    }
    if let Some(printed) = prints_object_names(&sub.text, rest) {
        return printed;
    }
    if let Some((_, value)) = aliases.iter().find(|(name, _)| *name == sub.text) {
        match value.strip_prefix('!') {
            // Through the configuration git passes to the git it runs, an alias that runs
            // itself runs again and again (`git -c alias.b='!git b & git b' b`).
            Some(code)
                if code
                    .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|'))
                    .collect::<Vec<_>>()
                    .windows(2)
                    .any(|w| w[0] == "git" && w[1] == sub.text) =>
            {
                r.unreadable("a git alias runs itself (a fork bomb)");
            }
            Some(code) => {
                // git runs `sh -c 'CODE "$@"' CODE ARGS...` (just `sh -c CODE CODE` without
                // arguments).
                let mut sh_args = vec!["-c".to_owned()];
                if rest.is_empty() {
                    sh_args.push(code.to_owned());
                } else {
                    sh_args.push(format!("{code} \"$@\""));
                }
                sh_args.push(code.to_owned());
                sh_args.extend(rest.iter().cloned());
                r.record(SimpleCommand {
                    program: "sh".to_owned(),
                    args: sh_args,
                    redirects: Vec::new(),
                    origin: None,
                    dir: None,
                });
                let script = std::iter::once(code.to_owned())
                    .chain(rest.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(" ");
                r.script(&script, Data::Nothing);
            }
            None => {
                // An alias for another git command.
                let mut fields: Vec<Field> = std::iter::once(Field::literal("git"))
                    .chain(value.split_whitespace().map(Field::literal))
                    .collect();
                fields.extend(args[k + 1..].iter().cloned());
                r.run(fields, &Io::default(), Data::Nothing, &[]);
            }
        }
        return Data::Unknown;
    }
    // `git push origin "$(git branch --show-current)"`: an agent's everyday push. What an
    // unknown refspec could be (`+main`, `:main`) is left to the rules, which read it as
    // `$(...)` and ask, rather than refusing the line as unreadable.
    // `git branch --merged | grep -v main | xargs git branch -d`, an everyday cleanup: git
    // deletes only merged branches. An unknown word could at worst be a force flag, losing
    // a branch's commits unasked; that is accepted rather than refusing the idiom.
    let merged_deletion = sub.text == "branch" && rest.iter().any(|a| a == "-d" || a == "--delete");
    if git_view::arguments_matter(&sub.text)
        && sub.text != "push"
        && !merged_deletion
        && args[k + 1..]
            .iter()
            .enumerate()
            .any(|(j, a)| a.unknown && !(j > 0 && names_or_says(&sub.text, &args[k + j], a)))
    {
        r.unreadable(
            "an argument of a git subcommand that can discard work is not known before it runs",
        );
    }
    // The subcommand as git reads it, when that is not how it is written: global options
    // dropped, abbreviations spelled out, bundles split (see `git_view`).
    let view = git_view::view(&t[k..], clean_forced);
    checkout_of_paths(r, &view, &place);
    if view != t {
        r.record(SimpleCommand {
            program: "git".to_owned(),
            args: view,
            redirects: Vec::new(),
            origin: Some("as git reads it".to_owned()),
            dir: None,
        });
    }
    match sub.text.as_str() {
        // `git show HEAD:.env`, `git cat-file -p main:secrets.yml`: a file as a commit or
        // the index holds it is read, as `cat` of the file would read it now.
        "show" | "cat-file" | "archive" => {
            remote_programs(r, &sub.text, rest);
            let paths: Vec<String> = rest
                .iter()
                .filter(|a| !a.starts_with('-') && !a.contains("://"))
                .filter_map(|a| a.split_once(':').map(|(_, path)| path))
                .filter(|path| !path.is_empty())
                .map(str::to_owned)
                .collect();
            if !paths.is_empty() {
                r.record(SimpleCommand {
                    program: "cat".to_owned(),
                    args: paths,
                    redirects: Vec::new(),
                    origin: Some("read from git's history".to_owned()),
                    dir: None,
                });
            }
        }
        "config" => {
            // `git config [--global] key value`: the value runs later.
            let operands: Vec<&String> = rest.iter().filter(|a| !a.starts_with('-')).collect();
            if let [key, value, ..] = operands.as_slice()
                && git_runs(key)
            {
                code_value(r, Value::Known(value.trim_start_matches('!').to_string()));
                // An alias for another git command is read when it is defined, as the
                // shell's aliases are: `git config alias.nuke 'reset --hard'` reads as
                // `git reset --hard`.
                if key.to_ascii_lowercase().starts_with("alias.") && !value.starts_with('!') {
                    let fields = std::iter::once("git")
                        .chain(value.split_whitespace())
                        .map(Field::literal)
                        .collect();
                    r.run(fields, &Io::default(), Data::Nothing, &[]);
                }
            }
        }
        "clone" | "fetch" | "pull" | "ls-remote" | "push" | "send-pack" | "fetch-pack" => {
            remote_programs(r, &sub.text, rest);
            if sub.text == "clone"
                && let Some(dir) = cloned_from_afar(rest)
            {
                r.env.fetches = true;
                r.env.downloaded_dir(&dir);
            }
        }
        "apply" | "am" => {
            let here = matches!(place, GitDir::Here);
            return super::patches::git_apply(r, &sub.text, &args[k + 1..], stdin, here);
        }
        "rebase" => {
            for (j, a) in rest.iter().enumerate() {
                if a == "--exec" || a == "-x" {
                    script_of(r, args.get(k + 2 + j..k + 3 + j).unwrap_or_default());
                } else if let Some(code) = a.strip_prefix("--exec=") {
                    r.script(code, Data::Nothing);
                }
            }
        }
        "bisect" if rest.first().is_some_and(|a| a == "run") => {
            r.run(args[k + 2..].to_vec(), &Io::default(), Data::Nothing, &[]);
        }
        // `git submodule add URL [PATH]` clones as `git clone URL [PATH]` does.
        "submodule" if rest.first().is_some_and(|a| a == "add") => {
            if let Some(dir) = cloned_from_afar(&rest[1..]) {
                r.env.fetches = true;
                r.env.downloaded_dir(&dir);
            }
        }
        "submodule" if rest.iter().any(|a| a == "foreach") => {
            // In a submodule the line added from afar, the code runs that repository's
            // files (`sh ./bootstrap.sh`).
            if r.env.downloads_any() {
                r.unreadable("git submodule foreach runs code in a repository the line downloaded");
            }
            if let Some(j) = rest.iter().position(|a| a == "foreach") {
                let code: Vec<Field> = args[k + 2 + j..]
                    .iter()
                    .filter(|a| !a.text.starts_with("--"))
                    .cloned()
                    .collect();
                script_of(r, &code);
            }
        }
        // `git grep -O'CMD'` runs CMD through the shell on the files that match: the
        // pathspecs after `--`, else any file of the work tree.
        "grep" => {
            let pager = args[k + 1..].iter().find(|a| {
                a.text.starts_with("--open-files-in-pager=")
                    || (a.text.starts_with("-O") && a.text.len() > 2)
            });
            if let Some(pager) = pager {
                if pager.unknown {
                    r.unreadable("git grep runs a command not known before it runs (-O)");
                    return Data::Unknown;
                }
                let cmd = pager
                    .text
                    .strip_prefix("--open-files-in-pager=")
                    .or_else(|| pager.text.strip_prefix("-O"))
                    .unwrap_or_default();
                let plain = |p: &String| {
                    p.chars()
                        .all(|c| c.is_alphanumeric() || "/._-*".contains(c))
                };
                let files = match rest.iter().position(|a| a == "--") {
                    Some(j) if rest.len() > j + 1 && rest[j + 1..].iter().all(plain) => {
                        rest[j + 1..].join(" ")
                    }
                    _ => "./**/*".to_owned(),
                };
                r.reached("run by git grep -O".to_owned(), |r| {
                    r.script(&format!("{cmd} {files}"), Data::Nothing)
                });
            }
        }
        "filter-branch" => {
            for (j, a) in rest.iter().enumerate() {
                if a.ends_with("-filter") && a.starts_with("--") {
                    script_of(r, args.get(k + 2 + j..k + 3 + j).unwrap_or_default());
                }
            }
        }
        "difftool" | "mergetool" => {
            for (j, a) in rest.iter().enumerate() {
                if a == "-x" || a == "--extcmd" {
                    script_of(r, args.get(k + 2 + j..k + 3 + j).unwrap_or_default());
                } else if let Some(code) = a.strip_prefix("--extcmd=") {
                    r.script(code, Data::Nothing);
                }
            }
        }
        _ => {}
    }
    Data::Unknown
}

/// Whether `value`, the word after `option` of git `sub`, is what that option takes as its
/// value, and that value only names a new branch or is a message (`git checkout -b
/// "$branch"`, `git switch -c "release/v$version"`, `git stash push -m "$msg"`): git's
/// parse-options takes the next word whole as the value, so no value is an option, and a
/// name or a message discards no work. Not a value the shell may split into more words.
fn names_or_says(sub: &str, option: &Field, value: &Field) -> bool {
    let takes = match sub {
        "checkout" => ["-b"].as_slice(),
        "switch" => ["-c", "--create"].as_slice(),
        "stash" => ["-m", "--message"].as_slice(),
        _ => &[],
    };
    !value.splits && !option.unknown && takes.contains(&option.text.as_str())
}
