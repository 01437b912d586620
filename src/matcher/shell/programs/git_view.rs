//! A `git` command as git itself reads it, for filters: the subcommand first (global options
//! such as `-C dir`, `-c k=v`, `--git-dir=...` gone), then the subcommand's arguments with
//! long options written in full (`--har` → `--hard`, as git's parse-options accepts any
//! unambiguous prefix), a required value joined (`--source X` → `--source=X`), short
//! bundles split (`-fdx` → `-f -d -x`), a short option's value attached (`-b new` →
//! `-bnew`), and the defaults git assumes written out (`git stash` → `git stash push`,
//! `git restore f` → `git restore --worktree f`). After `--`, an operand that looks like an
//! option is written `./-x`, the same path.
//!
//! So a rule can anchor on `^reset\b` and test `^--hard$` or `^-f$` as one argument. The
//! option lists are real git's (`git <cmd> --git-completion-helper-all`, git 2.47): a list
//! may miss an option (an abbreviation is then resolved where git would call it ambiguous,
//! and refuse to run: reading more than runs is allowed) but never holds one git lacks.

use super::options::Options;

/// The long options of a subcommand, as `Options` reads them (`=`: takes a value).
const fn spec(short_with_value: &'static str, long: &'static [&'static str]) -> Options {
    Options {
        short_with_value,
        long,
        abbreviations: true,
    }
}

const RESET: Options = spec(
    "",
    &[
        "quiet",
        "no-refresh",
        "mixed",
        "soft",
        "hard",
        "merge",
        "keep",
        "recurse-submodules",
        "patch",
        "intent-to-add",
        "pathspec-from-file=",
        "pathspec-file-nul",
        "refresh",
    ],
);

const CHECKOUT: Options = spec(
    "bB",
    &[
        "guess",
        "overlay",
        "quiet",
        "recurse-submodules",
        "progress",
        "merge",
        "conflict=",
        "detach",
        "track",
        "force",
        "orphan=",
        "overwrite-ignore",
        "ignore-other-worktrees",
        "ours",
        "theirs",
        "patch",
        "ignore-skip-worktree-bits",
        "pathspec-from-file=",
        "pathspec-file-nul",
    ],
);

const SWITCH: Options = spec(
    "cC",
    &[
        "create=",
        "force-create=",
        "guess",
        "discard-changes",
        "quiet",
        "recurse-submodules",
        "progress",
        "merge",
        "conflict=",
        "detach",
        "track",
        "force",
        "orphan=",
        "overwrite-ignore",
        "ignore-other-worktrees",
    ],
);

const RESTORE: Options = spec(
    "s",
    &[
        "source=",
        "staged",
        "worktree",
        "ignore-unmerged",
        "overlay",
        "quiet",
        "recurse-submodules",
        "progress",
        "merge",
        "conflict=",
        "ours",
        "theirs",
        "patch",
        "ignore-skip-worktree-bits",
        "pathspec-from-file=",
        "pathspec-file-nul",
    ],
);

const CLEAN: Options = spec(
    "e",
    &["quiet", "dry-run", "force", "interactive", "exclude="],
);

const BRANCH: Options = spec(
    "u",
    &[
        "verbose",
        "quiet",
        "track",
        "set-upstream",
        "set-upstream-to=",
        "unset-upstream",
        "color",
        "remotes",
        "contains",
        "no-contains",
        "with",
        "without",
        "abbrev",
        "all",
        "delete",
        "move",
        "omit-empty",
        "copy",
        "list",
        "show-current",
        "create-reflog",
        "edit-description",
        "force",
        "merged",
        "no-merged",
        "column",
        "sort=",
        "points-at=",
        "ignore-case",
        "recurse-submodules",
        "format=",
    ],
);

const PUSH: Options = spec(
    "o",
    &[
        "verbose",
        "quiet",
        "repo=",
        "all",
        "branches",
        "mirror",
        "delete",
        "tags",
        "dry-run",
        "porcelain",
        "force",
        "force-with-lease",
        "force-if-includes",
        "recurse-submodules=",
        "thin",
        "receive-pack=",
        "exec=",
        "set-upstream",
        "progress",
        "prune",
        "no-verify",
        "follow-tags",
        "signed",
        "atomic",
        "push-option=",
        "ipv4",
        "ipv6",
        "verify",
    ],
);

const RM: Options = spec(
    "",
    &[
        "dry-run",
        "quiet",
        "cached",
        "force",
        "ignore-unmatch",
        "sparse",
        "pathspec-from-file=",
        "pathspec-file-nul",
    ],
);

const GC: Options = spec(
    "",
    &[
        "quiet",
        "prune",
        "cruft",
        "max-cruft-size=",
        "aggressive",
        "auto",
        "detach",
        "force",
        "keep-largest-pack",
    ],
);

const UPDATE_REF: Options = spec("m", &["no-deref", "stdin", "create-reflog", "deref"]);

const STASH_PUSH: Options = spec(
    "m",
    &[
        "keep-index",
        "staged",
        "patch",
        "quiet",
        "include-untracked",
        "all",
        "message=",
        "pathspec-from-file=",
        "pathspec-file-nul",
    ],
);

const STASH_APPLY: Options = spec("", &["quiet", "index"]);

const WORKTREE_REMOVE: Options = spec("", &["force"]);

const REFLOG_EXPIRE: Options = spec(
    "",
    &[
        "dry-run",
        "rewrite",
        "updateref",
        "verbose",
        "expire=",
        "expire-unreachable=",
        "stale-fix",
        "all",
        "single-worktree",
    ],
);

/// `git stash`'s subcommands; anything else (or nothing) is `push`.
const STASH: &[&str] = &[
    "list", "show", "drop", "pop", "apply", "branch", "clear", "push", "save", "create", "store",
];

/// The options of a subcommand whose options filters look at.
fn options_of(sub: &str) -> Option<Options> {
    Some(match sub {
        "reset" => RESET,
        "checkout" => CHECKOUT,
        "switch" => SWITCH,
        "restore" => RESTORE,
        "clean" => CLEAN,
        "branch" => BRANCH,
        "push" => PUSH,
        "rm" => RM,
        "gc" => GC,
        "update-ref" => UPDATE_REF,
        _ => return None,
    })
}

/// Subcommands whose arguments decide whether work is lost: an argument of theirs that is
/// not known before the line runs makes the line unreadable.
pub(super) fn arguments_matter(sub: &str) -> bool {
    options_of(sub).is_some()
        || matches!(
            sub,
            "stash" | "worktree" | "reflog" | "filter-branch" | "prune"
        )
}

/// The arguments after git's global options (subcommand first) as git reads them.
/// `clean_forced`: `-c clean.requireForce=false` was given, so `clean` needs no `-f`.
pub(super) fn view(args: &[String], clean_forced: bool) -> Vec<String> {
    let Some((sub, rest)) = args.split_first() else {
        return Vec::new();
    };
    let mut out = vec![sub.clone()];
    match sub.as_str() {
        "stash" => {
            let (name, rest) = match rest.split_first() {
                Some((s, r)) if STASH.contains(&s.as_str()) => (s.as_str(), r),
                _ => ("push", rest),
            };
            out.push(name.to_owned());
            match name {
                "push" => out.extend(normalise(rest, &STASH_PUSH)),
                "pop" | "apply" | "drop" => out.extend(normalise(rest, &STASH_APPLY)),
                _ => out.extend(rest.iter().cloned()),
            }
        }
        "worktree" if rest.first().is_some_and(|s| s == "remove") => {
            out.push("remove".to_owned());
            out.extend(normalise(&rest[1..], &WORKTREE_REMOVE));
        }
        "reflog" if rest.first().is_some_and(|s| s == "expire" || s == "delete") => {
            out.push(rest[0].clone());
            out.extend(normalise(&rest[1..], &REFLOG_EXPIRE));
        }
        _ => match options_of(sub) {
            Some(spec) => out.extend(normalise(rest, &spec)),
            None => out.extend(rest.iter().cloned()),
        },
    }
    let before_dashes = |o: &[String], names: &[&str]| {
        o.iter()
            .take_while(|a| *a != "--")
            .any(|a| names.contains(&a.as_str()))
    };
    // Without `--staged` or `--worktree`, restore writes the working tree.
    if sub == "restore" && !before_dashes(&out, &["-S", "--staged", "-W", "--worktree"]) {
        out.insert(1, "--worktree".to_owned());
    }
    if sub == "clean" && clean_forced {
        out.push("--force".to_owned());
    }
    out
}

/// What `checkout`'s names may restore, for a `view` of it: without `--`, git takes a name
/// that is a commit as the branch or commit to switch to, and a name that is not as a path
/// to restore from the index (one name), or the first name as the commit and the rest as
/// paths (several). Which one is known only where it runs. Returns `checkout`'s options and
/// the names when there is a name and no `--`, and the checkout does not make a branch
/// (`-b`, `-B`, `--orphan`, `--detach`: their names are not paths).
pub(super) fn checkout_names(view: &[String]) -> Option<(&[String], Vec<&String>)> {
    let (sub, rest) = view.split_first()?;
    if sub != "checkout" || rest.iter().any(|a| a == "--") {
        return None;
    }
    let makes_branch = |a: &String| {
        a.starts_with("-b") || a.starts_with("-B") || a.starts_with("--orphan") || a == "--detach"
    };
    if rest.iter().any(makes_branch) {
        return None;
    }
    // `-` is the branch checked out before: not a path.
    let names: Vec<&String> = rest.iter().filter(|a| !a.starts_with('-')).collect();
    let options_end = rest
        .iter()
        .position(|a| !a.starts_with('-'))
        .unwrap_or(rest.len());
    (!names.is_empty()).then_some((&rest[..options_end], names))
}

/// `args` read with `spec`, written as described at the top of this file.
fn normalise(args: &[String], spec: &Options) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut i = 0;
    let mut ended = false;
    while let Some(a) = args.get(i) {
        i += 1;
        if ended {
            out.push(if a.starts_with('-') {
                format!("./{a}")
            } else {
                a.clone()
            });
        } else if a == "--" {
            ended = true;
            out.push(a.clone());
        } else if let Some(long) = a.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, None),
            };
            match spec.resolve_long(name) {
                Some((full, true)) => {
                    let value = attached.or_else(|| {
                        i += 1;
                        args.get(i - 1).cloned()
                    });
                    out.push(match value {
                        Some(v) => format!("--{full}={v}"),
                        None => format!("--{full}"),
                    });
                }
                Some((full, false)) => out.push(match attached {
                    Some(v) => format!("--{full}={v}"),
                    None => format!("--{full}"),
                }),
                None => out.push(a.clone()),
            }
        } else if let Some(bundle) = a.strip_prefix('-').filter(|b| !b.is_empty()) {
            for (k, c) in bundle.char_indices() {
                if spec.short_with_value.contains(c) {
                    let attached = &bundle[k + c.len_utf8()..];
                    let value = if attached.is_empty() {
                        i += 1;
                        args.get(i - 1).cloned().unwrap_or_default()
                    } else {
                        attached.to_owned()
                    };
                    out.push(format!("-{c}{value}"));
                    break;
                }
                out.push(format!("-{c}"));
            }
        } else {
            out.push(a.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(line: &str) -> String {
        let args: Vec<String> = line.split(' ').map(str::to_owned).collect();
        view(&args, false).join(" ")
    }

    #[test]
    fn options_as_git_reads_them() {
        assert_eq!(v("reset --har"), "reset --hard");
        assert_eq!(
            v("reset --h"),
            "reset --hard",
            "git has no other --h option"
        );
        assert_eq!(v("reset HEAD --ke"), "reset HEAD --keep");
        assert_eq!(v("clean -fdx"), "clean -f -d -x");
        assert_eq!(
            v("clean -ef -d"),
            "clean -ef -d",
            "-e takes f as its pattern"
        );
        assert_eq!(v("push --forc"), "push --forc", "ambiguous: git refuses");
        assert_eq!(v("push --force-w"), "push --force-with-lease");
        assert_eq!(v("push -uf origin +main"), "push -u -f origin +main");
        assert_eq!(v("push -o x --del origin t"), "push -ox --delete origin t");
        assert_eq!(v("branch -Df x"), "branch -D -f x");
        assert_eq!(v("checkout -b new main"), "checkout -bnew main");
        assert_eq!(v("checkout -- -f"), "checkout -- ./-f");
        assert_eq!(
            v("restore --sou HEAD f"),
            "restore --worktree --source=HEAD f"
        );
        assert_eq!(v("restore --stag f"), "restore --staged f");
        assert_eq!(v("restore -SW f"), "restore -S -W f");
        assert_eq!(v("stash"), "stash push");
        assert_eq!(v("stash -u"), "stash push -u");
        assert_eq!(v("stash drop"), "stash drop");
        assert_eq!(v("worktree remove --fo wt"), "worktree remove --force wt");
        assert_eq!(
            v("reflog expire --expire=now --al"),
            "reflog expire --expire=now --all"
        );
        assert_eq!(
            v("commit -m x"),
            "commit -m x",
            "options of other subcommands stay"
        );
    }

    #[test]
    fn reading_twice_changes_nothing() {
        for line in [
            "reset --har",
            "clean -fdx",
            "checkout -b new -- -x",
            "restore f",
            "stash -u",
            "push -o x --force-w",
        ] {
            let once = v(line);
            assert_eq!(v(&once), once, "{line}");
        }
        let args = vec!["clean".to_owned(), "-d".to_owned()];
        assert_eq!(view(&args, true), ["clean", "-d", "--force"]);
    }
}
