//! Archivers: what `tar`, `cpio`, `unzip` and `7z` delete when they archive, and what they
//! write when they unpack into a directory.

use super::{PathTouch, Touch, operands};

/// What `tar` writes and deletes. Extracting (`x` in the old style, `-x`, `--extract`,
/// `--get`) writes over what the archive holds inside the `-C DIR` in force (the command's
/// directory without one); with `-P` (`--absolute-names`) a member may be anywhere below
/// `/`; `-O` (`--to-stdout`) and `--to-command` write no file. `--remove-files` deletes the files it
/// archives, each relative to the `-C DIR` before it; files listed in a file (`-T`,
/// `--files-from`) are not known: a delete in an unknown place. Creating (`-c`) writes the
/// archive `-f FILE` over what it held; adding to it (`-r`, `-u`, `-A`) appends;
/// `--index-file=F` writes its listing over F.
pub(super) fn tar(args: &[String]) -> Vec<PathTouch<'_>> {
    tar_args(args).touches
}

/// What `tar` reads by name: the members a `-C DIR` before them places elsewhere than they
/// are written, as the paths tar opens (`tar czf - -C ~/.config gcloud` archives
/// `~/.config/gcloud`), and whether it reads a list of members from standard input (`-T -`).
pub(in crate::matcher::shell) fn tar_reads(args: &[String]) -> (Vec<String>, bool) {
    let parts = tar_args(args);
    let moved = parts
        .members
        .into_iter()
        .filter_map(|t| {
            let base = t.base?;
            (!t.path.starts_with(['/', '~']) && t.path != super::super::SUBSTITUTION)
                .then(|| format!("{}/{}", base.trim_end_matches('/'), t.path))
        })
        .collect();
    (
        moved,
        parts
            .lists
            .iter()
            .any(|l| super::super::walk::is_stdin_path(l)),
    )
}

/// What `tar`'s arguments say.
struct TarArgs<'a> {
    /// What it deletes and writes.
    touches: Vec<PathTouch<'a>>,
    /// The members it names, each with the `-C DIR` before it (deleted with
    /// `--remove-files`).
    members: Vec<PathTouch<'a>>,
    /// The files it reads lists of members from (`-T FILE`, `--files-from FILE`).
    lists: Vec<&'a str>,
}

fn tar_args(args: &[String]) -> TarArgs<'_> {
    // Short options that take a value, in a bundle or in the old style (`tar cfC a.tar d`).
    const WITH_VALUE: &str = "fCbLgKNTVXH";
    let unknown = |touch| PathTouch::new(touch, super::super::SUBSTITUTION);
    let (mut extract, mut absolute, mut to_stdout, mut remove) = (false, false, false, false);
    let (mut create, mut add) = (false, false);
    // The archive, `-f FILE`: written when creating or adding to it.
    let mut archive: Option<&str> = None;
    let mut index: Option<&str> = None;
    // Short flags, from bundles and the old style.
    let mut letters = String::new();
    let mut named = Vec::new();
    let mut lists = Vec::new();
    let mut base: Option<&str> = None;
    let mut values: Vec<char> = Vec::new();
    let mut iter = args.iter().enumerate();
    while let Some((k, a)) = iter.next() {
        if let Some(letter) = values.pop() {
            match letter {
                'C' => base = change_dir(base, Some(a.as_str())),
                'T' => {
                    named.push(unknown(Touch::Delete));
                    lists.push(a.as_str());
                }
                'f' => archive = Some(a.as_str()),
                _ => {}
            }
            continue;
        }
        if k == 0 && !a.starts_with('-') && a.chars().all(|c| c.is_ascii_alphabetic()) {
            // The old style: each letter that takes a value takes the next argument.
            letters.push_str(a);
            values = a
                .chars()
                .filter(|c| WITH_VALUE.contains(*c))
                .rev()
                .collect();
        } else if let Some(long) = a.strip_prefix("--") {
            let (name, value) = long
                .split_once('=')
                .map_or((long, None), |(n, v)| (n, Some(v)));
            let is = |full: &str| name.len() >= 3 && full.starts_with(name);
            extract |= is("extract") || is("get");
            absolute |= is("absolute-names");
            // `--to-command` pipes each member to a command instead of writing it.
            to_stdout |= is("to-stdout") || is("to-command");
            remove |= is("remove-files");
            create |= is("create");
            add |= is("append") || is("update") || is("catenate") || is("concatenate");
            // `--fil` would be ambiguous with `--files-from`: only the whole name.
            if name == "file" {
                archive = value.or_else(|| args.get(k + 1).map(String::as_str));
            }
            // `--index-file=F`: the verbose listing goes to F, written over.
            if is("index-file") {
                index = value.or_else(|| args.get(k + 1).map(String::as_str));
            }
            if is("directory") {
                base = change_dir(base, value.or_else(|| iter.next().map(|(_, v)| v.as_str())));
            } else if is("files-from") && name != "file" {
                named.push(unknown(Touch::Delete));
                lists.extend(value.or_else(|| args.get(k + 1).map(String::as_str)));
            }
            if value.is_none() && (is("files-from") || is("file") || is("exclude")) {
                iter.next();
            }
        } else if let Some(bundle) = a.strip_prefix('-').filter(|b| !b.is_empty()) {
            // Letters up to the first that takes a value are flags; the rest is its value.
            let valued = bundle.char_indices().find(|(_, c)| WITH_VALUE.contains(*c));
            letters.push_str(valued.map_or(bundle, |(i, _)| &bundle[..i]));
            if let Some((i, c)) = valued {
                let glued = &bundle[i + c.len_utf8()..];
                let value = match glued.is_empty() {
                    true => iter.next().map(|(_, v)| v.as_str()),
                    false => Some(glued),
                };
                match c {
                    'C' => base = change_dir(base, value),
                    'T' => {
                        named.push(unknown(Touch::Delete));
                        lists.extend(value);
                    }
                    'f' => archive = value,
                    _ => {}
                }
            }
        } else {
            named.push(PathTouch {
                recursive: true,
                base,
                ..PathTouch::new(Touch::Delete, a)
            });
        }
    }
    extract |= letters.contains('x');
    absolute |= letters.contains('P');
    to_stdout |= letters.contains('O');
    create |= letters.contains('c');
    add |= letters.contains(['r', 'u', 'A']);
    let mut out = Vec::new();
    if remove {
        out.extend(named.iter().cloned());
    }
    if extract && !to_stdout {
        // With `-P` a member named `/root/.ssh/authorized_keys` is written there: the archive
        // may write anywhere below `/`.
        out.push(unpacked_into(match absolute {
            true => "/",
            false => base.unwrap_or("."),
        }));
    }
    if let Some(file) = archive.filter(|_| create || add) {
        let touch = if create {
            Touch::Overwrite
        } else {
            Touch::Append
        };
        out.push(PathTouch::new(touch, file));
    }
    out.extend(index.map(|file| PathTouch::new(Touch::Overwrite, file)));
    TarArgs {
        touches: out,
        members: named,
        lists,
    }
}

/// `cpio -i` (`--extract`) unpacks into the `-D DIR` (`--directory`) given, else the
/// command's directory; `cpio -p DIR` (`--pass-through`) copies into DIR. Members may be
/// absolute with `--absolute-filenames`.
pub(super) fn cpio(args: &[String]) -> Vec<PathTouch<'_>> {
    if let Some(dir) = cpio_extracts_into(args) {
        let absolute = args.iter().any(|a| a == "--absolute-filenames");
        return vec![unpacked_into(if absolute { "/" } else { dir })];
    }
    let short = |c: char| {
        args.iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a[1..].contains(c))
    };
    if short('p') || args.iter().any(|a| a == "--pass-through") {
        return operands(args)
            .last()
            .map(unpacked_into)
            .into_iter()
            .collect();
    }
    Vec::new()
}

/// Where `cpio -i` (`--extract`) unpacks: its `-D DIR` (`--directory`), else the command's
/// directory; `None` when it does not extract.
pub(in crate::matcher::shell) fn cpio_extracts_into(args: &[String]) -> Option<&str> {
    let extracts = args.iter().any(|a| {
        a == "--extract" || a.starts_with('-') && !a.starts_with("--") && a[1..].contains('i')
    });
    if !extracts {
        return None;
    }
    let dir = args
        .iter()
        .position(|a| a == "-D" || a == "--directory")
        .and_then(|k| args.get(k + 1))
        .map(String::as_str)
        .or_else(|| args.iter().find_map(|a| a.strip_prefix("--directory=")));
    Some(dir.unwrap_or("."))
}

/// What an archiver unpacks into `dir`: whatever is below it may be written over.
fn unpacked_into(dir: &str) -> PathTouch<'_> {
    PathTouch {
        recursive: true,
        inside: true,
        ..PathTouch::new(Touch::Overwrite, dir)
    }
}

/// `unzip ARCHIVE [MEMBER...] [-x MEMBER...] [-d DIR]`: writes what it unpacks into DIR (the
/// command's directory without one), unless it only lists, tests or prints (`-l`, `-t`,
/// `-v`, `-z`, `-Z`, `-p`, `-c`).
pub(super) fn unzip(args: &[String]) -> Vec<PathTouch<'_>> {
    let mut dir = None;
    let mut keep = false;
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        let Some(bundle) = a.strip_prefix('-').filter(|b| !b.is_empty()) else {
            continue;
        };
        // `-d DIR` ends a bundle: what follows the `d` is the directory.
        let (flags, dir_given) = bundle
            .split_once('d')
            .map_or((bundle, None), |(f, d)| (f, Some(d)));
        if flags.starts_with('Z') || flags.contains(['l', 't', 'v', 'z', 'p', 'c']) {
            return Vec::new();
        }
        keep |= flags.contains('n');
        if let Some(glued) = dir_given {
            dir = match glued.is_empty() {
                true => iter.next().map(String::as_str),
                false => Some(glued),
            };
        }
    }
    // `-n` never replaces a file that is there: it only adds.
    let touch = if keep {
        Touch::Append
    } else {
        Touch::Overwrite
    };
    vec![PathTouch {
        touch,
        ..unpacked_into(dir.unwrap_or("."))
    }]
}

/// `7z x|e ARCHIVE [-oDIR]`: writes what it unpacks into DIR (the command's directory
/// without one), unless it writes to standard output (`-so`).
pub(super) fn seven_zip_extracts(args: &[String]) -> Vec<PathTouch<'_>> {
    if args.iter().any(|a| a == "-so") {
        return Vec::new();
    }
    let dir = args.iter().rev().find_map(|a| a.strip_prefix("-o"));
    vec![unpacked_into(dir.filter(|d| !d.is_empty()).unwrap_or("."))]
}

/// tar's directory after `-C DIR`: a relative DIR after another `-C` is relative to that one
/// (`-C src -C ..`), a path this reader does not build: unknown.
fn change_dir<'a>(base: Option<&'a str>, dir: Option<&'a str>) -> Option<&'a str> {
    match (base, dir) {
        (Some(_), Some(d)) if !d.starts_with(['/', '~']) => Some(super::super::SUBSTITUTION),
        (_, dir) => dir,
    }
}
