//! The names git's listing commands print (`git ls-files`, `git grep -l`, `git diff
//! --name-only`), for what reads them from a pipe.

use super::find::under;
use super::newline_listing;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Reader};

/// What `git ls-files` prints (its arguments after the subcommand): files of the work
/// tree below the line's directory, by each pathspec, for `xargs` to take. git's `*`
/// crosses `/` (`src/*.py` names `src/a/b.py`), so a pattern stands for its directory and
/// everything below it; a plain pathspec is a file or a directory. Anything else it may
/// print (`--stage`, `--format`, paths from the top with `--full-name`, pathspecs with
/// magic or outside the directory) is text not known.
pub(in crate::matcher::shell::programs::runners) fn git_ls_files(
    r: &Reader,
    rest: &[String],
) -> Data {
    let mut nul = false;
    let mut specs: Vec<&str> = Vec::new();
    let mut options_done = false;
    for a in rest {
        if !options_done && a.starts_with('-') {
            match a.as_str() {
                "--" => options_done = true,
                "-z" => nul = true,
                "-c"
                | "--cached"
                | "-o"
                | "--others"
                | "-m"
                | "--modified"
                | "-d"
                | "--deleted"
                | "-i"
                | "--ignored"
                | "--exclude-standard"
                | "--directory"
                | "--no-empty-directory"
                | "--recurse-submodules"
                | "--error-unmatch" => {}
                a if a.starts_with("--exclude=") || a.starts_with("--exclude-from=") => {}
                _ => return Data::Unknown,
            }
            continue;
        }
        specs.push(a);
    }
    let mut paths = Vec::new();
    for spec in &specs {
        if spec.is_empty()
            || spec.starts_with([':', '/', '~'])
            || spec.split('/').any(|c| c == "..")
        {
            return Data::Unknown;
        }
        let spec = spec.trim_end_matches('/');
        let (dir, name) = spec.rsplit_once('/').unwrap_or((".", spec));
        if !spec.contains(['*', '?', '[']) {
            paths.push(Field::literal(spec));
            paths.push(Field {
                glob: true,
                ..Field::literal(&under(spec, None))
            });
        } else {
            let name = (!dir.contains(['*', '?', '['])).then_some(name);
            let dir = if name.is_some() { dir } else { "." };
            paths.push(Field {
                glob: true,
                ..Field::literal(&under(dir, name))
            });
        }
    }
    if specs.is_empty() {
        paths.push(Field {
            glob: true,
            ..Field::literal(&under(".", None))
        });
    }
    let may_split = r.names_may_split(&["."], true);
    if nul {
        return Data::Listing(vec![paths], may_split);
    }
    newline_listing(vec![paths], may_split)
}

/// What `git grep -l` (`-L`, `--name-only`) and `git diff --name-only` print: paths of
/// the work tree below the line's directory, as [`git_ls_files`] lists those of the same
/// pathspecs (the files a pathspec names are a subset of what `git ls-files` of it
/// prints). Only options that change neither what is printed nor what runs are taken; a
/// revision to `git grep` (its paths then come out as `REV:path`), a pager, an external
/// diff or anything else is `None`, left to the rest of git's reading.
pub(in crate::matcher::shell::programs::runners) fn git_names(
    r: &Reader,
    sub: &str,
    rest: &[String],
) -> Option<Data> {
    let (specs, nul) = match sub {
        "grep" => git_grep_names(rest)?,
        "diff" => git_diff_names(rest)?,
        _ => return None,
    };
    let mut args: Vec<String> = Vec::new();
    if nul {
        args.push("-z".to_owned());
    }
    args.push("--".to_owned());
    args.extend(specs.iter().cloned());
    Some(git_ls_files(r, &args))
}

/// The pathspecs of a `git grep` that prints file names, and whether it ends them with
/// NUL.
fn git_grep_names(rest: &[String]) -> Option<(Vec<String>, bool)> {
    const FLAGS: &[&str] = &[
        "-i",
        "--ignore-case",
        "-w",
        "--word-regexp",
        "-v",
        "--invert-match",
        "-E",
        "--extended-regexp",
        "-F",
        "--fixed-strings",
        "-G",
        "--basic-regexp",
        "-P",
        "--perl-regexp",
        "-I",
        "--cached",
        "--untracked",
        "-a",
        "--text",
        "-r",
        "--recursive",
        "--no-recursive",
        "--and",
        "--or",
        "--not",
        "--all-match",
        "-q",
        "--quiet",
        "--no-color",
        "--color=never",
    ];
    const NAMES: &[&str] = &[
        "-l",
        "-L",
        "--name-only",
        "--files-with-matches",
        "--files-without-match",
    ];
    let (mut names, mut nul, mut pattern_given) = (false, false, false);
    let mut operands = Vec::new();
    let mut k = 0;
    while let Some(a) = rest.get(k) {
        k += 1;
        match a.as_str() {
            "--" => break,
            "-z" | "--null" => nul = true,
            "-e" => {
                pattern_given = true;
                k += 1;
            }
            a if NAMES.contains(&a) => names = true,
            a if FLAGS.contains(&a) || a.starts_with("--max-depth=") => {}
            // Short flags bundled (`-lz`, `-il`), none taking a value.
            a if a.len() > 2
                && a.starts_with('-')
                && !a.starts_with("--")
                && a[1..].chars().all(|c| "lLzivwEFGPIarq".contains(c)) =>
            {
                names |= a.contains(['l', 'L']);
                nul |= a.contains('z');
            }
            a if a.starts_with('-') => return None,
            _ => operands.push(a.clone()),
        }
    }
    // The pattern, unless `-e` gave it; any other word before `--` may be a revision.
    if !pattern_given && !operands.is_empty() {
        operands.remove(0);
    }
    if !names || !operands.is_empty() {
        return None;
    }
    Some((rest.get(k..).unwrap_or_default().to_vec(), nul))
}

/// The pathspecs of a `git diff --name-only`, and whether it ends the names with NUL. Its
/// words before `--` are revisions (`origin/main...HEAD`): a path among them only narrows
/// what is printed, which the listing of every file covers.
fn git_diff_names(rest: &[String]) -> Option<(Vec<String>, bool)> {
    const FLAGS: &[&str] = &[
        "--cached",
        "--staged",
        "--merge-base",
        "--no-renames",
        "--relative",
        "-R",
        "--no-ext-diff",
        "--no-textconv",
        "--no-color",
        "--color=never",
        "--find-renames",
        "-M",
        "--ignore-submodules",
    ];
    let revision = |a: &str| {
        a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./~^@{}-".contains(c))
    };
    let (mut names, mut nul) = (false, false);
    let mut k = 0;
    while let Some(a) = rest.get(k) {
        k += 1;
        match a.as_str() {
            "--" => return names.then(|| (rest[k..].to_vec(), nul)),
            "--name-only" => names = true,
            "-z" => nul = true,
            a if FLAGS.contains(&a) || a.starts_with("--diff-filter=") => {}
            a if a.starts_with('-') => return None,
            a if revision(a) => {}
            _ => return None,
        }
    }
    names.then(|| (Vec::new(), nul))
}
