//! The paths git's subcommands touch or print: a checkout that restores files, object names
//! printed, pathspec patterns, and the directory a clone from afar fills.

use super::GitDir;
use crate::matcher::shell::SimpleCommand;
use crate::matcher::shell::programs::git_view;
use crate::matcher::shell::walk::{Data, Reader};

/// `git checkout NAME...` without `--` (see [`git_view::checkout_names`]): when its names
/// may be paths, it is also recorded as git would then read it, `git checkout -- NAME...`,
/// which restores them from the index over their uncommitted changes. One name may be a
/// path when the host holds it, the line wrote it, or that cannot be known here; several
/// always may (`checkout main src/` restores `src/`). A name that is nowhere on the host is
/// a branch or commit to switch to, which git refuses to do over uncommitted changes.
pub(super) fn checkout_of_paths(r: &mut Reader, view: &[String], place: &GitDir) {
    let Some((options, names)) = git_view::checkout_names(view) else {
        return;
    };
    let is_nowhere = |r: &Reader, name: &str| match place {
        GitDir::Here => !r.path_may_exist(".", name),
        GitDir::In(dir) => !r.path_may_exist(dir, name),
        GitDir::Unknown => false,
    };
    let paths = match names.as_slice() {
        [one] if !is_pathspec_pattern(one) && is_nowhere(r, one) => return,
        [_] => &names[..],
        [_, rest @ ..] => rest,
        [] => return,
    };
    let args = std::iter::once("checkout")
        .chain(options.iter().map(String::as_str))
        .chain(std::iter::once("--"))
        .chain(paths.iter().map(|p| p.as_str()))
        .map(str::to_owned)
        .collect();
    r.record(SimpleCommand {
        program: "git".to_owned(),
        args,
        redirects: Vec::new(),
        origin: Some("as git reads it if the name is a path".to_owned()),
        dir: None,
    });
}

/// What `git rev-parse [--short] [--verify] REV...` and `git log -1 --format=%h` print:
/// object names, hex digits (or a REV echoed back), which no quoting can be broken by, so
/// the line may put them in code or a script (`python3 -c "print('$(git rev-parse --short
/// HEAD)')"`). Written `*`, as `date` and `mktemp` output is. `None` for anything else
/// (`--abbrev-ref` prints a branch name, which may hold `;`, `$` and quotes).
pub(super) fn prints_object_names(sub: &str, rest: &[String]) -> Option<Data> {
    let safe_rev = |a: &str| {
        !a.is_empty()
            && !a.starts_with('-')
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./~^@{}-".contains(c))
    };
    let lines = match sub {
        "rev-parse" => {
            let mut revs = 0;
            for a in rest {
                match a.as_str() {
                    "--short" | "--verify" | "-q" | "--quiet" => {}
                    a if a.starts_with("--short=") => {}
                    a if safe_rev(a) => revs += 1,
                    _ => return None,
                }
            }
            revs
        }
        "log" | "show" => {
            let mut format = None;
            for a in rest {
                match a.as_str() {
                    "-s" | "--no-patch" | "--no-walk" => {}
                    a if a.starts_with("-n") || a.starts_with("--max-count=") => {}
                    a if a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()) => {}
                    a if a.starts_with("--format=") => format = a.strip_prefix("--format="),
                    a if a.starts_with("--pretty=format:") => {
                        format = a.strip_prefix("--pretty=format:");
                    }
                    a if safe_rev(a) => {}
                    _ => return None,
                }
            }
            // `git show` prints the patch after the format unless told not to.
            let no_patch = sub == "log" || rest.iter().any(|a| a == "-s" || a == "--no-patch");
            let names_only = format?
                .replace("%H", "")
                .replace("%h", "")
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || " _.-".contains(c));
            if !(names_only && no_patch) {
                return None;
            }
            1
        }
        _ => return None,
    };
    Some(Data::Known("*\n".repeat(lines.max(1))))
}

/// A pathspec that names files by pattern or magic (`*.rs`, `:/src`), not one path.
fn is_pathspec_pattern(name: &str) -> bool {
    name.starts_with(':') || name.contains(['*', '?', '['])
}

/// The directory `git clone` fills from a repository on another machine (its second
/// operand, else the repository's last path part without `.git`), whose files the line
/// then runs as downloads (`git clone URL /tmp/r && bash /tmp/r/install.sh`).
pub(super) fn cloned_from_afar(rest: &[String]) -> Option<String> {
    const WITH_VALUE: &[&str] = &[
        "-b",
        "--branch",
        "-o",
        "--origin",
        "-c",
        "--config",
        "--depth",
        "--reference",
        "--reference-if-able",
        "-u",
        "--upload-pack",
        "--template",
        "--separate-git-dir",
        "-j",
        "--jobs",
        "--filter",
        "--shallow-since",
        "--shallow-exclude",
        "--bundle-uri",
        "--server-option",
    ];
    let mut operands = Vec::new();
    let mut words = rest.iter();
    while let Some(w) = words.next() {
        if w == "--" {
            operands.extend(words.by_ref().cloned());
        } else if WITH_VALUE.contains(&w.as_str()) {
            words.next();
        } else if !w.starts_with('-') {
            operands.push(w.clone());
        }
    }
    let repo = operands.first()?;
    // A `file://` URL is a repository on this machine (`git clone file://$PWD /tmp/c`, a
    // clean copy of the project to test in).
    if !super::super::super::builtins::is_remote(repo) || repo.starts_with("file://") {
        return None;
    }
    match operands.get(1) {
        Some(dir) => Some(dir.clone()),
        None => {
            let last = repo.trim_end_matches('/').rsplit(['/', ':']).next()?;
            let name = last.strip_suffix(".git").unwrap_or(last);
            (!name.is_empty()).then(|| name.to_owned())
        }
    }
}
