//! Tools whose writes need a reading of their own: npm pruning `node_modules`, `patchelf`,
//! `git worktree`.

use super::{PathTouch, Touch, each, operands, options};

/// npm's installing subcommands replace and remove packages inside the project's
/// `node_modules` (or that of `--prefix DIR`). A global install (`-g`) works in npm's own
/// prefix and is left unread.
pub(super) fn npm_prunes(args: &[String]) -> Vec<PathTouch<'_>> {
    const PRUNING: &[&str] = &[
        "install",
        "i",
        "in",
        "add",
        "ci",
        "clean-install",
        "ic",
        "install-clean",
        "uninstall",
        "un",
        "remove",
        "rm",
        "r",
        "unlink",
        "update",
        "up",
        "upgrade",
        "prune",
        "dedupe",
        "ddp",
        "rebuild",
        "rb",
        "install-test",
        "it",
        "install-ci-test",
        "cit",
    ];
    const WITH_VALUE: &[&str] = &[
        "--prefix",
        "-C",
        "--workspace",
        "-w",
        "--registry",
        "--cache",
    ];
    let global = options(args).any(|o| o == "-g" || o == "--global" || o.starts_with("--location"));
    let mut base = None;
    let mut subcommand = None;
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        if WITH_VALUE.contains(&a) {
            if a == "--prefix" || a == "-C" {
                base = args.get(k + 1).map(String::as_str);
            }
            k += 2;
            continue;
        }
        if let Some(dir) = a.strip_prefix("--prefix=") {
            base = Some(dir);
        } else if !a.starts_with('-') && subcommand.is_none() {
            subcommand = Some(a);
        }
        k += 1;
    }
    if global || !subcommand.is_some_and(|s| PRUNING.contains(&s)) {
        return Vec::new();
    }
    vec![PathTouch {
        recursive: true,
        inside: true,
        base,
        ..PathTouch::new(Touch::Delete, "node_modules")
    }]
}

/// `patchelf [OPTIONS] FILE...` rewrites each ELF file in place (a new interpreter, an
/// added library: code that runs when the program next starts), or writes `--output F`.
/// `--replace-needed` takes two values; the `--print-*` options alone change nothing.
pub(super) fn patchelf(args: &[String]) -> Vec<PathTouch<'_>> {
    let mut files = Vec::new();
    let mut output = None;
    let mut changes = false;
    let mut k = 0;
    while let Some(a) = args.get(k) {
        k += 1;
        let takes = match a.as_str() {
            "--replace-needed" | "--rename-dynamic-symbols-pair" => 2,
            "--set-interpreter"
            | "--interpreter"
            | "--set-rpath"
            | "--add-rpath"
            | "--add-needed"
            | "--remove-needed"
            | "--set-soname"
            | "--page-size"
            | "--set-os-abi"
            | "--rename-dynamic-symbols"
            | "--clear-symbol-version"
            | "--allowed-rpath-prefixes"
            | "--output" => 1,
            _ => 0,
        };
        if a == "--output" {
            output = args.get(k).map(String::as_str);
        }
        if a.starts_with("--") {
            changes |= !a.starts_with("--print")
                && !matches!(a.as_str(), "--version" | "--help" | "--debug");
            k += takes;
        } else {
            files.push(a.as_str());
        }
    }
    if !changes {
        return Vec::new();
    }
    each(
        Touch::Overwrite,
        false,
        output.map_or(files, |o| vec![o]).into_iter(),
    )
}

/// One touch of each path.
/// `git rm` and `git mv`: what they delete or move in the working tree, as `rm` and `mv`
/// would (`git rm -r policies/`, `git mv HOOKS.yaml old.yaml`); `git -C DIR` puts the
/// paths below `DIR`. `git rm --cached` and `--dry-run` change only the index or nothing.
/// A pathspec with magic (`:/`, `:(glob)...`) or read from a file may name anything in the
/// tree: it is read as the whole working directory.
pub(super) fn git_worktree(args: &[String]) -> Vec<PathTouch<'_>> {
    let mut base = None;
    let mut k = 0;
    while let Some(a) = args.get(k) {
        match a.as_str() {
            "-C" => {
                base = args.get(k + 1).map(String::as_str);
                k += 2;
            }
            "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env" => k += 2,
            _ if a.starts_with('-') => k += 1,
            _ => break,
        }
    }
    let Some((sub, rest)) = args.get(k..).and_then(<[String]>::split_first) else {
        return Vec::new();
    };
    let flag = |long: &str, short: char| {
        options(rest).any(|o| o == long || (!o.starts_with("--") && o[1..].contains(short)))
    };
    let whole = rest.iter().any(|a| a.starts_with("--pathspec-from-file"));
    let paths = operands(rest).map(|p| if p.starts_with(':') { "." } else { p });
    let paths: Vec<&str> = paths.chain(whole.then_some(".")).collect();
    let mut out = match sub.as_str() {
        "rm" if !flag("--cached", '\0') && !flag("--dry-run", 'n') => {
            let recursive = flag("-r", 'r') || whole;
            each(Touch::Delete, recursive, paths.into_iter())
        }
        "mv" if !flag("--dry-run", 'n') => match paths.split_last() {
            // As `mv` is read (see `copies`).
            Some((dest, sources)) if !sources.is_empty() => {
                let mut out = vec![PathTouch {
                    inside: dest.ends_with('/'),
                    ..PathTouch::new(Touch::Overwrite, dest)
                }];
                out.extend(each(Touch::Delete, false, sources.iter().copied()));
                out
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    for touch in &mut out {
        touch.base = base;
    }
    out
}
