//! What a simple command does to the paths it names: deletes them (and whether what is
//! below them goes too), writes over them or into them, or changes their mode or owner.
//! The code reader's effects (`shutil.rmtree(p)`, `open(p, "w")`) and `find -delete` reach
//! here as the commands they mean (`rm -r -f p`, `tee p`; `find . -name '*.o' -delete` as
//! `rm -- ./*.o`).

use super::SimpleCommand;

/// What a command does to a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    /// Deletes it, or moves it away (`mv`'s sources: the path no longer holds what it held).
    Delete,
    /// Replaces what it holds: `>`, `truncate`, `tee`, `dd of=`, `sed -i`, `shred`, the
    /// destination of `cp`, `mv`, `install`, `ln -f`, `curl -o`, `rsync`.
    Overwrite,
    /// Adds to it without replacing what is there: `>>`, `tee -a`, `cp -n`, `ln` without
    /// `-f` (which fails rather than replace).
    Append,
    /// Changes its mode, owner, group, attributes or ACL.
    Mode,
}

/// A path a command deletes, writes or changes the mode of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathTouch<'a> {
    /// What the command does to it.
    pub touch: Touch,
    /// The path as the command names it (relative to the command's directory).
    pub path: &'a str,
    /// Whether everything below it goes too (`rm -r`, `rsync --delete`).
    pub recursive: bool,
    /// Whether what is touched is inside the path rather than the path itself (`rsync
    /// --delete SRC DIR`, `rsync SRC DIR`).
    pub inside: bool,
    /// The directory a relative `path` is relative to, when the command changes it (`tar
    /// -C DIR`); itself relative to the command's directory unless absolute.
    pub base: Option<&'a str>,
}

impl<'a> PathTouch<'a> {
    fn new(touch: Touch, path: &'a str) -> Self {
        PathTouch {
            touch,
            path,
            recursive: false,
            inside: false,
            base: None,
        }
    }
}

/// The paths `command` deletes, writes or changes the mode of: by its program, then by its
/// redirections. Empty for a program that does none of these to what it names.
pub fn touches(command: &SimpleCommand) -> Vec<PathTouch<'_>> {
    let mut out = by_program(command);
    for r in &command.redirects {
        let touch = match r.op {
            ">" => Touch::Overwrite,
            ">>" | "<>" => Touch::Append,
            _ => continue,
        };
        out.push(PathTouch::new(touch, &r.target));
    }
    // Writing to the null device, a terminal or a descriptor writes no file.
    out.retain(|t| t.touch == Touch::Delete || t.touch == Touch::Mode || !is_stream(t.path));
    out
}

/// The paths `command` writes without reading what they hold: its overwrites and appends,
/// except those of `sed -i` and `ed`, which read the file they rewrite. A `<>` redirection opens its
/// file for reading too, so it is left out. Each path borrows from the command's arguments
/// or redirections.
pub(crate) fn written_unread(command: &SimpleCommand) -> Vec<&str> {
    if matches!(command.program.as_str(), "sed" | "ed" | "red") {
        return Vec::new();
    }
    let unread_redirect = |path: &str| {
        command
            .redirects
            .iter()
            .any(|r| r.op == "<>" && std::ptr::eq(r.target.as_str(), path))
    };
    touches(command)
        .into_iter()
        .filter(|t| matches!(t.touch, Touch::Overwrite | Touch::Append))
        .map(|t| t.path)
        .filter(|path| !unread_redirect(path))
        .collect()
}

/// Whether `path` names a stream rather than a file: `/dev/null`, a terminal, a descriptor,
/// bash's connection to a port of this machine (`/dev/tcp/127.0.0.1/8000`). A connection
/// to another machine stays a path outside the workspace: what is sent there is gone.
pub(crate) fn is_stream(path: &str) -> bool {
    let loopback = ["/dev/tcp/", "/dev/udp/"].iter().any(|p| {
        path.strip_prefix(p).is_some_and(|rest| {
            let host = rest.split('/').next().unwrap_or_default();
            matches!(host, "localhost" | "127.0.0.1" | "::1")
        })
    });
    matches!(
        path,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/stdin" | "/dev/tty" | "-"
    ) || loopback
        || path.starts_with("/dev/fd/")
        || path.starts_with("/dev/pts/")
        || path.starts_with("/proc/self/fd/")
}

fn by_program(command: &SimpleCommand) -> Vec<PathTouch<'_>> {
    let args = &command.args;
    match command.program.as_str() {
        // `chmod -R MODE PATH...`, `chown -R OWNER PATH...`: the first operand is the mode or
        // owner unless `--reference=FILE` gives it.
        "chmod" | "chown" | "chgrp" | "setfacl" | "chattr" => {
            let recursive = options(args)
                .any(|o| o == "--recursive" || (!o.starts_with("--") && o[1..].contains('R')));
            let given = !options(args).any(|o| o.starts_with("--reference"))
                && command.program != "setfacl";
            let paths = operands(args).skip(usize::from(given));
            each(Touch::Mode, recursive, paths)
        }
        "rm" => {
            let recursive = options(args)
                .any(|o| o == "--recursive" || (!o.starts_with("--") && o.contains(['r', 'R'])));
            each(Touch::Delete, recursive, operands(args))
        }
        // npm's `rimraf` and `del-cli` delete recursively, as `rm -rf`.
        "rimraf" | "del" | "del-cli" => each(Touch::Delete, true, operands(args)),
        "rmdir" | "unlink" => each(Touch::Delete, false, operands(args)),
        // `shred -u`/`--remove` deletes; without it the file is overwritten in place.
        "shred" => {
            let remove = options(args).any(|o| o.starts_with("--remove") || is_short(o, 'u'));
            let touch = if remove {
                Touch::Delete
            } else {
                Touch::Overwrite
            };
            each(touch, false, operands_after(args, "ns"))
        }
        // `rsync SRC... DEST`: DEST is written into, and with `--delete...` what it holds
        // beyond SRC goes; `--remove-source-files` deletes the files it sent. A remote
        // path (`host:dir`, `rsync://`) is not on this machine.
        "rsync" => {
            let all: Vec<&str> = operands(args).collect();
            let mut out = Vec::new();
            if args.iter().any(|a| a == "--remove-source-files")
                && let Some((_, sources)) = all.split_last()
            {
                let local = sources.iter().copied().filter(|s| is_local(s));
                out.extend(each(Touch::Delete, false, local));
            }
            if let Some(dest) = all.last().copied().filter(|d| is_local(d)) {
                let into = |touch| PathTouch {
                    recursive: true,
                    inside: true,
                    ..PathTouch::new(touch, dest)
                };
                out.push(into(Touch::Overwrite));
                if args.iter().any(|a| a.starts_with("--delete")) {
                    out.push(into(Touch::Delete));
                }
            }
            out
        }
        "scp" => operands_after(args, "cFiJlPoS")
            .last()
            .filter(|d| is_local(d))
            .map(|dest| PathTouch {
                inside: true,
                ..PathTouch::new(Touch::Overwrite, dest)
            })
            .into_iter()
            .collect(),
        "cp" | "mv" | "install" | "ln" => copies(command),
        // Archivers that write what they unpack (`tar -x`, `unzip`, `7z x`) into a
        // directory, or delete what they archived: `tar --remove-files` (GNU tar takes any
        // unambiguous abbreviation, down to `--rem`), `zip -m`, `7z a -sdel`.
        "tar" | "gtar" | "bsdtar" => tar(args),
        "unzip" => unzip(args),
        "cpio" => cpio(args),
        "7z" | "7za" | "7zz" | "7zr"
            if matches!(args.first().map(String::as_str), Some("x" | "e")) =>
        {
            seven_zip_extracts(args)
        }
        "zip" if options(args).any(|o| o == "--move" || is_short(o, 'm')) => {
            let recursive = options(args)
                .any(|o| o == "--recurse-paths" || is_short(o, 'r') || is_short(o, 'R'));
            each(
                Touch::Delete,
                recursive,
                operands_after(args, "bntxiPOZs").skip(1),
            )
        }
        "7z" | "7za" | "7zz" | "7zr" if args.iter().any(|a| a == "-sdel") => {
            each(Touch::Delete, true, operands(args).skip(2))
        }
        "npm" => npm_prunes(args),
        "git" => git_worktree(args),
        // `ddrescue INFILE OUTFILE [MAPFILE]`: copies over its output, a disk or a file.
        "ddrescue" => each(Touch::Overwrite, false, operands(args).skip(1).take(2)),
        // Allocating, punching holes, zeroing or collapsing ranges: the file changes in
        // place (`fallocate --punch-hole -l 1MiB approvals.json` zeroes its start).
        "fallocate" => {
            let mut value_next = false;
            let files = args.iter().filter(|a| {
                let value = std::mem::take(&mut value_next);
                value_next = matches!(a.as_str(), "-l" | "-o" | "--length" | "--offset");
                !value && !a.starts_with('-')
            });
            each(Touch::Overwrite, false, files.map(String::as_str))
        }
        // `update-alternatives --install LINK NAME PATH PRIORITY`: a link put at LINK.
        "update-alternatives" => {
            let links = args
                .iter()
                .position(|a| a == "--install")
                .and_then(|k| args.get(k + 1))
                .map(String::as_str);
            each(Touch::Overwrite, false, links.into_iter())
        }
        // Cut to nothing (`-s 0`), a file's contents are gone as if it were deleted.
        "truncate" => {
            let touch = if truncates_to_nothing(args) {
                Touch::Delete
            } else {
                Touch::Overwrite
            };
            each(touch, false, operands_after(args, "sr"))
        }
        "tee" => {
            let append = options(args).any(|o| o == "--append" || is_short(o, 'a'));
            let touch = if append {
                Touch::Append
            } else {
                Touch::Overwrite
            };
            each(touch, false, operands(args))
        }
        "dd" => args
            .iter()
            .filter_map(|a| a.strip_prefix("of="))
            .map(|path| PathTouch::new(Touch::Overwrite, path))
            .collect(),
        "sed" => sed_in_place(args),
        // ed edits the file it is given and writes it back with its `w` command (a script
        // on standard input: `ed -s ~/.bashrc <<< $'$a\n...\n.\nw'`). It reads the file
        // too, and may print it: see `written_unread`.
        "ed" | "red" => each(Touch::Overwrite, false, operands_after(args, "p")),
        "perl" | "ruby" => interpreter_in_place(args),
        // Compressing replaces each file with its `.gz` (and decompressing the other way),
        // unless told to keep it or to write to standard output.
        "gzip" | "gunzip" | "bzip2" | "bunzip2" | "xz" | "unxz" | "lzma"
            if !options(args).any(|o| {
                matches!(
                    o,
                    "--keep" | "--stdout" | "--to-stdout" | "--list" | "--test"
                ) || ['k', 'c', 'l', 't'].iter().any(|c| is_short(o, *c))
            }) =>
        {
            each(Touch::Delete, false, operands_after(args, "S"))
        }
        // `uniq [INPUT [OUTPUT]]`.
        "uniq" => operands_after(args, "fsw")
            .nth(1)
            .map(|out| PathTouch::new(Touch::Overwrite, out))
            .into_iter()
            .collect(),
        "openssl" => args
            .windows(2)
            .filter(|w| w[0] == "-out")
            .map(|w| PathTouch::new(Touch::Overwrite, &w[1]))
            .collect(),
        "gawk" => gawk_in_place(args),
        // `script [-a] FILE`: the session's typescript, appended with `-a`.
        "script" => {
            let append = args.iter().any(|a| {
                a == "--append" || a.starts_with('-') && !a.starts_with("--") && a.contains('a')
            });
            let touch = if append {
                Touch::Append
            } else {
                Touch::Overwrite
            };
            operands_after(args, "cEIOBTm")
                .take(1)
                .map(|path| PathTouch::new(touch, path))
                .collect()
        }
        "sort" => output_of(args, &["-o"], "--output=", "ktST")
            .map(|path| PathTouch::new(Touch::Overwrite, path))
            .into_iter()
            .collect(),
        "curl" => {
            let dir = output_of(args, &["--output-dir"], "--output-dir=", "");
            let mut out: Vec<PathTouch<'_>> = download_output("curl", args)
                .into_iter()
                .chain(curl_remote_names(args))
                .map(|path| PathTouch {
                    base: dir,
                    ..PathTouch::new(Touch::Overwrite, path)
                })
                .collect();
            // An absolute `-o` path is not under `--output-dir`.
            for t in &mut out {
                if t.path.starts_with('/') {
                    t.base = None;
                }
            }
            out.extend(curl_side_files(args));
            out
        }
        // `mount [--bind] SOURCE TARGET`: what TARGET shows is replaced, and for a
        // directory, everything below it.
        "mount" => operands_after(args, "otLUTN")
            .nth(1)
            .map(|target| {
                vec![
                    PathTouch::new(Touch::Overwrite, target),
                    PathTouch {
                        recursive: true,
                        inside: true,
                        ..PathTouch::new(Touch::Overwrite, target)
                    },
                ]
            })
            .unwrap_or_default(),
        "patchelf" => patchelf(args),
        // pytest empties `--basetemp DIR` before a run (its whole tree goes).
        "pytest" | "py.test" => output_of(args, &["--basetemp"], "--basetemp=", "")
            .map(|dir| PathTouch {
                recursive: true,
                ..PathTouch::new(Touch::Delete, dir)
            })
            .into_iter()
            .collect(),
        "wget" => download_output("wget", args)
            .map(|path| PathTouch::new(Touch::Overwrite, path))
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// `cp`, `mv`, `install` and `ln`: the destination (the last operand, or `-t DIR`) is
/// written, replaced unless the command refuses to (`-n`, `ln` without `-f`); `mv`'s
/// sources are moved away, which for the place they were in is a delete.
fn copies(command: &SimpleCommand) -> Vec<PathTouch<'_>> {
    let args = &command.args;
    let program = command.program.as_str();
    let with_value = match program {
        "install" => "mogStZ",
        _ => "St",
    };
    let mut target = None;
    let mut opts = args.iter().take_while(|a| *a != "--");
    while let Some(a) = opts.next() {
        if let Some(dir) = a.strip_prefix("--target-directory=") {
            target = Some(dir);
        } else if a == "--target-directory" {
            target = opts.next().map(String::as_str);
        } else if let Some(bundle) = a.strip_prefix('-').filter(|b| !b.starts_with('-'))
            && let Some(at) = bundle.find('t')
            && !bundle[..at].contains(|c| with_value.contains(c) && c != 't')
        {
            let glued = &bundle[at + 1..];
            target = if glued.is_empty() {
                opts.next().map(String::as_str)
            } else {
                Some(glued)
            };
        }
    }
    let operands: Vec<&str> = operands_after(args, with_value)
        .filter(|o| Some(*o) != target)
        .collect();
    if program == "install" && options(args).any(|o| o == "--directory" || is_short(o, 'd')) {
        return operands
            .into_iter()
            .map(|p| PathTouch::new(Touch::Append, p))
            .collect();
    }
    let (sources, dest, inside) = match (target, operands.split_last()) {
        (Some(dir), _) => (operands.as_slice(), Some(dir), true),
        // `cp -r src/. dir/`: what lands goes inside the destination, a directory.
        (None, Some((last, rest))) if !rest.is_empty() => {
            let into = last.ends_with('/') || rest.iter().any(|s| s.ends_with("/."));
            (rest, Some(*last), into)
        }
        // `ln -s /some/file`: the link is made in the working directory.
        (None, Some((only, _))) if program == "ln" => (std::slice::from_ref(only), Some("."), true),
        _ => (operands.as_slice(), None, false),
    };
    let keeps = options(args).any(|o| {
        o == "--no-clobber" || o == "--update=none" || (program != "ln" && is_short(o, 'n'))
    });
    let forced = options(args).any(|o| o == "--force" || is_short(o, 'f'));
    let touch = match program {
        "ln" if !forced => Touch::Append,
        _ if keeps => Touch::Append,
        _ => Touch::Overwrite,
    };
    let mut out: Vec<PathTouch<'_>> = dest
        .map(|d| PathTouch {
            inside,
            ..PathTouch::new(touch, d)
        })
        .into_iter()
        .collect();
    if program == "mv" && dest.is_some() {
        out.extend(sources.iter().map(|s| PathTouch::new(Touch::Delete, s)));
    }
    out
}

/// What `tar` writes and deletes. Extracting (`x` in the old style, `-x`, `--extract`,
/// `--get`) writes over what the archive holds inside the `-C DIR` in force (the command's
/// directory without one); with `-P` (`--absolute-names`) a member may be anywhere below
/// `/`; `-O` (`--to-stdout`) and `--to-command` write no file. `--remove-files` deletes the files it
/// archives, each relative to the `-C DIR` before it; files listed in a file (`-T`,
/// `--files-from`) are not known: a delete in an unknown place. Creating (`-c`) writes the
/// archive `-f FILE` over what it held; adding to it (`-r`, `-u`, `-A`) appends;
/// `--index-file=F` writes its listing over F.
fn tar(args: &[String]) -> Vec<PathTouch<'_>> {
    tar_args(args).touches
}

/// What `tar` reads by name: the members a `-C DIR` before them places elsewhere than they
/// are written, as the paths tar opens (`tar czf - -C ~/.config gcloud` archives
/// `~/.config/gcloud`), and whether it reads a list of members from standard input (`-T -`).
pub(super) fn tar_reads(args: &[String]) -> (Vec<String>, bool) {
    let parts = tar_args(args);
    let moved = parts
        .members
        .into_iter()
        .filter_map(|t| {
            let base = t.base?;
            (!t.path.starts_with(['/', '~']) && t.path != super::SUBSTITUTION)
                .then(|| format!("{}/{}", base.trim_end_matches('/'), t.path))
        })
        .collect();
    (
        moved,
        parts.lists.iter().any(|l| super::walk::is_stdin_path(l)),
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
    let unknown = |touch| PathTouch::new(touch, super::SUBSTITUTION);
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
fn cpio(args: &[String]) -> Vec<PathTouch<'_>> {
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
pub(super) fn cpio_extracts_into(args: &[String]) -> Option<&str> {
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
fn unzip(args: &[String]) -> Vec<PathTouch<'_>> {
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
fn seven_zip_extracts(args: &[String]) -> Vec<PathTouch<'_>> {
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
        (Some(_), Some(d)) if !d.starts_with(['/', '~']) => Some(super::SUBSTITUTION),
        (_, dir) => dir,
    }
}

/// `sed -i` (`--in-place`, `-i.bak`, `-ni`): the files it edits. The script is the first
/// operand unless `-e`/`-f` give it.
fn sed_in_place(args: &[String]) -> Vec<PathTouch<'_>> {
    let mut in_place = false;
    let mut script_given = false;
    let mut operands = Vec::new();
    let mut iter = args.iter();
    let mut after = false;
    while let Some(a) = iter.next() {
        if after || !a.starts_with('-') || a == "-" {
            operands.push(a.as_str());
        } else if a == "--" {
            after = true;
        } else if let Some(long) = a.strip_prefix("--") {
            // GNU sed takes any unambiguous prefix of a long option: `--in` is `--in-place`.
            let name = long.split('=').next().unwrap_or(long);
            let names = |full: &str| !name.is_empty() && full.starts_with(name);
            in_place |= name.len() >= 2 && names("in-place") || name == "i";
            let script = name.len() >= 2 && (names("expression") || names("file")) || name == "e";
            script_given |= script;
            if !long.contains('=') && (script || name.len() >= 2 && names("line-length")) {
                iter.next();
            }
        } else {
            // In a bundle, `i` takes the rest as its backup suffix (`-ie` is `-i` with
            // suffix `e`); `e`, `f` and `l` take the rest or the next argument.
            for (k, c) in a[1..].char_indices() {
                match c {
                    'i' => {
                        in_place = true;
                        break;
                    }
                    'e' | 'f' | 'l' => {
                        script_given |= c != 'l';
                        if a[1 + k + 1..].is_empty() {
                            iter.next();
                        }
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    edited_in_place(in_place, operands, script_given)
}

/// `perl -i`/`ruby -i` (`-pi -e CODE f`, `-i.bak`, `-0777pi`): the files it edits in place,
/// the operands after the code (the first operand is the script when no `-e` gave code).
/// In a bundle, `i` takes the rest of the word as its backup suffix (`-pie` is `-i` with
/// suffix `e`).
fn interpreter_in_place(args: &[String]) -> Vec<PathTouch<'_>> {
    let mut in_place = false;
    let mut code_given = false;
    let mut iter = args.iter();
    let mut operands = Vec::new();
    while let Some(a) = iter.next() {
        if a == "--" {
            operands.extend(iter.by_ref().map(String::as_str));
            break;
        }
        let Some(bundle) = a
            .strip_prefix('-')
            .filter(|b| !b.is_empty() && !b.starts_with('-'))
        else {
            // Options end at the first operand.
            operands.push(a.as_str());
            operands.extend(iter.by_ref().map(String::as_str));
            break;
        };
        for (k, c) in bundle.char_indices() {
            let rest = &bundle[k + 1..];
            match c {
                'i' => {
                    in_place = true;
                    break;
                }
                'e' | 'E' | 'M' | 'm' | 'I' | 'r' => {
                    code_given |= matches!(c, 'e' | 'E');
                    if rest.is_empty() {
                        iter.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    edited_in_place(in_place, operands, code_given)
}

/// The files an editor run in place rewrites: its operands, after the first when that is
/// the script (`sed -i SCRIPT f`, `perl -i script.pl f`, `gawk -i inplace PROGRAM f`).
fn edited_in_place<'a>(
    in_place: bool,
    operands: Vec<&'a str>,
    script_given: bool,
) -> Vec<PathTouch<'a>> {
    if !in_place {
        return Vec::new();
    }
    operands
        .into_iter()
        .skip(usize::from(!script_given))
        .map(|p| PathTouch::new(Touch::Overwrite, p))
        .collect()
}

/// gawk's `inplace` extension (`-i inplace`, `--include=inplace`, `@include "inplace"`):
/// the files after the program are edited in place.
fn gawk_in_place(args: &[String]) -> Vec<PathTouch<'_>> {
    let loads = |k: usize, a: &str| {
        a == "-iinplace"
            || a == "--include=inplace"
            || (a == "-i" || a == "--include") && args.get(k + 1).is_some_and(|n| n == "inplace")
            || a.contains("@include \"inplace\"")
    };
    if !args.iter().enumerate().any(|(k, a)| loads(k, a)) {
        return Vec::new();
    }
    let mut program_given = false;
    let mut operands = Vec::new();
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        match a.as_str() {
            "-f" | "-e" | "--file" | "--source" => {
                program_given = true;
                iter.next();
            }
            "-i" | "--include" | "-v" | "-F" => {
                iter.next();
            }
            o if o.starts_with('-') && o.len() > 1 => {}
            _ => operands.push(a.as_str()),
        }
    }
    // After the program, `var=value` operands are assignments, not files.
    let program = usize::from(!program_given);
    let operands = operands
        .into_iter()
        .enumerate()
        .filter(|(k, o)| *k < program || !o.contains('='))
        .map(|(_, o)| o)
        .collect();
    edited_in_place(true, operands, program_given)
}

/// curl's short options that take a value, so that `-sSLo FILE` is read as curl does.
const CURL_WITH_VALUE: &str = "dHXuAebcFTxwmrCKEUYyzQP";

/// The file `curl` or `wget` writes what it downloads to, as each reads its options (`-o`,
/// `-sSLo FILE`, `-qO-`, `--output-document=FILE`).
pub(super) fn download_output<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    match program {
        "curl" => output_of(args, &["-o", "--output"], "--output=", CURL_WITH_VALUE),
        "wget" => output_of(
            args,
            &["-O", "--output-document"],
            "--output-document=",
            "oaeiBtTwQPUYlADRIXHNE",
        ),
        _ => None,
    }
}

/// The other files curl writes besides what it downloads: its trace (`--trace-ascii F`),
/// the headers (`-D F`), the cookie jar (`-c F`), its errors (`--stderr F`), the
/// equivalent C program (`--libcurl F`), each written over.
fn curl_side_files(args: &[String]) -> Vec<PathTouch<'_>> {
    const OPTIONS: &[(&[&str], &str)] = &[
        (&["--trace"], "--trace="),
        (&["--trace-ascii"], "--trace-ascii="),
        (&["-D", "--dump-header"], "--dump-header="),
        (&["-c", "--cookie-jar"], "--cookie-jar="),
        (&["--stderr"], "--stderr="),
        (&["--libcurl"], "--libcurl="),
        (&["--etag-save"], "--etag-save="),
    ];
    OPTIONS
        .iter()
        .filter_map(|(flags, long)| output_of(args, flags, long, CURL_WITH_VALUE))
        .filter(|path| *path != "-" && !path.is_empty())
        .map(|path| PathTouch::new(Touch::Overwrite, path))
        .collect()
}

/// The files `curl -O` (`--remote-name`, `--remote-name-all`) writes: each URL's last path
/// segment, in the working directory or `--output-dir`.
fn curl_remote_names(args: &[String]) -> Vec<&str> {
    let remote = args.iter().take_while(|a| *a != "--").any(|a| {
        a == "--remote-name"
            || a == "--remote-name-all"
            || a.strip_prefix('-').is_some_and(|b| {
                // Letters up to the first that takes a value (`-XPOST` holds no `-O`).
                !b.starts_with('-')
                    && b.chars()
                        .take_while(|c| !CURL_WITH_VALUE.contains(*c))
                        .any(|c| c == 'O')
            })
    });
    if !remote {
        return Vec::new();
    }
    args.iter()
        .filter_map(|a| a.split_once("://").map(|(_, rest)| rest))
        .filter_map(|rest| {
            let path = rest.split(['?', '#']).next().unwrap_or_default();
            let (_, name) = path.split_once('/')?;
            let name = name.rsplit('/').next().unwrap_or_default();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// The value of an output option: `flags` spelled alone take the next argument (`-o FILE`),
/// `long` is the glued long form (`--output=FILE`), and a short bundle ending in the
/// flag's letter (`-sSLo FILE`) or holding it before a glued value (`-oFILE`) counts too,
/// unless a letter of `with_value` comes first and takes the rest.
fn output_of<'a>(
    args: &'a [String],
    flags: &[&str],
    long: &str,
    with_value: &str,
) -> Option<&'a str> {
    let letter = flags
        .iter()
        .find_map(|f| {
            f.strip_prefix('-')
                .filter(|l| l.len() == 1 && !l.starts_with('-'))
        })
        .and_then(|l| l.chars().next());
    let mut found = None;
    let mut iter = args.iter().take_while(|a| *a != "--");
    while let Some(a) = iter.next() {
        if flags.contains(&a.as_str()) {
            found = iter.next().map(String::as_str);
        } else if let Some(v) = a.strip_prefix(long).filter(|_| !long.is_empty()) {
            found = Some(v);
        } else if let (Some(letter), Some(bundle)) =
            (letter, a.strip_prefix('-').filter(|b| !b.starts_with('-')))
        {
            for (k, c) in bundle.char_indices() {
                if c == letter {
                    let glued = &bundle[k + 1..];
                    found = if glued.is_empty() {
                        iter.next().map(String::as_str)
                    } else {
                        Some(glued)
                    };
                    break;
                }
                if with_value.contains(c) {
                    if bundle[k + 1..].is_empty() {
                        iter.next();
                    }
                    break;
                }
            }
        }
    }
    found
}

/// Whether an `rsync`/`scp` path is on this machine (`host:path` and `rsync://` are not;
/// `./a:b` is).
pub(super) fn is_local(path: &str) -> bool {
    match path.find(':') {
        None => true,
        Some(colon) => colon == 0 || path[..colon].contains('/'),
    }
}

/// npm's installing subcommands replace and remove packages inside the project's
/// `node_modules` (or that of `--prefix DIR`). A global install (`-g`) works in npm's own
/// prefix and is left unread.
fn npm_prunes(args: &[String]) -> Vec<PathTouch<'_>> {
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
fn patchelf(args: &[String]) -> Vec<PathTouch<'_>> {
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
fn git_worktree(args: &[String]) -> Vec<PathTouch<'_>> {
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

fn each<'a>(
    touch: Touch,
    recursive: bool,
    paths: impl Iterator<Item = &'a str>,
) -> Vec<PathTouch<'a>> {
    paths
        .map(|path| PathTouch {
            recursive,
            ..PathTouch::new(touch, path)
        })
        .collect()
}

/// The options before `--` (the reader has spelled GNU long options out already).
fn options(args: &[String]) -> impl Iterator<Item = &str> {
    args.iter()
        .map(String::as_str)
        .take_while(|a| *a != "--")
        .filter(|a| a.starts_with('-') && a.len() > 1)
}

/// Whether `option` is a bundle of short options holding `letter`.
fn is_short(option: &str, letter: char) -> bool {
    !option.starts_with("--") && option[1..].contains(letter)
}

/// The operands, where a short option whose letter is in `with_value` takes the next
/// argument as its value when nothing is glued to it (`truncate -s 0 f`, `scp -P 22 a b`).
/// Whether `truncate ARGS` sets the size to zero (`-s 0`, `-s0`, `--size=0`, `-s +0` does
/// not).
fn truncates_to_nothing(args: &[String]) -> bool {
    let mut words = args.iter().map(String::as_str);
    let mut zero = false;
    while let Some(a) = words.next() {
        let size = match a {
            "--" => break,
            "-s" | "--size" => words.next(),
            _ => a.strip_prefix("--size=").or_else(|| a.strip_prefix("-s")),
        };
        if let Some(size) = size {
            zero = size.trim_start_matches(['=', '<', '/']).parse::<u64>() == Ok(0)
                && !size.starts_with(['+', '-', '>', '%']);
        }
    }
    zero
}

fn operands_after<'a>(args: &'a [String], with_value: &'a str) -> impl Iterator<Item = &'a str> {
    let mut after = false;
    let mut value_next = false;
    args.iter().filter_map(move |a| {
        if after {
            return Some(a.as_str());
        }
        if std::mem::take(&mut value_next) {
            return None;
        }
        if a == "--" {
            after = true;
            return None;
        }
        match a.strip_prefix('-') {
            Some(bundle) if !bundle.is_empty() => {
                if !bundle.starts_with('-')
                    && let Some(k) = bundle.find(|c| with_value.contains(c))
                {
                    value_next = k + 1 == bundle.len();
                }
                None
            }
            _ => Some(a.as_str()),
        }
    })
}

/// The operands: every argument that is not an option, and everything after `--`.
fn operands(args: &[String]) -> impl Iterator<Item = &str> {
    let mut after = false;
    args.iter().filter_map(move |a| {
        if after {
            return Some(a.as_str());
        }
        if a == "--" {
            after = true;
            return None;
        }
        (!a.starts_with('-') || a == "-").then_some(a.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deleted(line: &str) -> Vec<(String, bool)> {
        let read = crate::matcher::shell::parse(line);
        read.commands
            .iter()
            .flat_map(touches)
            .filter(|d| d.touch == Touch::Delete)
            .map(|d| (d.path.to_owned(), d.recursive))
            .collect()
    }

    fn paths(list: &[(&str, bool)]) -> Vec<(String, bool)> {
        list.iter().map(|(p, r)| ((*p).to_owned(), *r)).collect()
    }

    #[test]
    fn git_rm_and_mv_delete_and_move_in_the_working_tree() {
        assert_eq!(
            deleted("git rm -r -q policies/"),
            paths(&[("policies/", true)])
        );
        assert_eq!(deleted("git rm a b"), paths(&[("a", false), ("b", false)]));
        assert_eq!(
            deleted("git mv HOOKS.yaml old.yaml"),
            paths(&[("HOOKS.yaml", false)])
        );
        // Magic pathspecs and pathspecs from a file may name the whole tree.
        assert_eq!(deleted("git rm -r ':/'"), paths(&[(".", true)]));
        assert_eq!(
            deleted("git rm --pathspec-from-file=list"),
            paths(&[(".", true)])
        );
        // The index only, or nothing.
        for line in [
            "git rm -r --cached policies",
            "git rm -rn policies",
            "git status",
        ] {
            assert!(deleted(line).is_empty(), "{line}");
        }
        let read = crate::matcher::shell::parse("git -C /srv/app rm -r policies");
        let touched = read.commands.iter().flat_map(touches).collect::<Vec<_>>();
        assert!(!touched.is_empty());
        assert!(touched.iter().any(|t| t.base == Some("/srv/app")));
    }

    #[test]
    fn reads_what_each_program_deletes() {
        assert_eq!(
            deleted("rm -rf build dist"),
            paths(&[("build", true), ("dist", true)])
        );
        assert_eq!(deleted("rm -f a.txt"), paths(&[("a.txt", false)]));
        assert_eq!(deleted("rm --rec --fo x"), paths(&[("x", true)]));
        // The reader writes an operand after `--` that looks like an option as `./-rf`.
        assert_eq!(deleted("rm -- -rf"), paths(&[("./-rf", false)]));
        assert_eq!(
            deleted("rm -R -- -x y"),
            paths(&[("./-x", true), ("y", true)])
        );
        assert_eq!(deleted("rmdir empty"), paths(&[("empty", false)]));
        assert_eq!(
            deleted("pytest -q --basetemp=/srv/gate tests/"),
            paths(&[("/srv/gate", true)])
        );
        assert_eq!(
            deleted("pytest --basetemp build/pt -x"),
            paths(&[("build/pt", true)])
        );
        assert!(deleted("pytest -q tests/").is_empty());
        assert_eq!(deleted("shred -u key"), paths(&[("key", false)]));
        assert!(deleted("shred key").is_empty());
        assert_eq!(
            deleted("find -L . /tmp/x -delete"),
            paths(&[("./**/*", true), ("/tmp/x/**/*", true)])
        );
        assert_eq!(
            deleted("find . -type f -name '*.pyc' -delete"),
            paths(&[("./**/*.pyc", false)])
        );
        assert!(deleted("find . -name '*.o'").is_empty());
        assert_eq!(
            deleted("rsync -a --delete src/ /backup/"),
            paths(&[("/backup/", true)])
        );
        assert!(deleted("ls -la").is_empty());
    }

    #[test]
    fn reads_mode_and_owner_changes() {
        let changed = |line: &str| -> Vec<(String, bool)> {
            let read = crate::matcher::shell::parse(line);
            read.commands
                .iter()
                .flat_map(touches)
                .filter(|d| d.touch == Touch::Mode)
                .map(|d| (d.path.to_owned(), d.recursive))
                .collect()
        };
        assert_eq!(changed("chmod -R 777 ~"), paths(&[("~", true)]));
        assert_eq!(
            changed("chmod +x a.sh b.sh"),
            paths(&[("a.sh", false), ("b.sh", false)])
        );
        assert_eq!(changed("chown -R u:g /srv"), paths(&[("/srv", true)]));
        assert_eq!(changed("chmod --reference=a -R b"), paths(&[("b", true)]));
        assert!(changed("rm -rf x").is_empty());
    }

    fn written(line: &str) -> Vec<(String, Touch)> {
        let read = crate::matcher::shell::parse(line);
        read.commands
            .iter()
            .flat_map(touches)
            .filter(|d| matches!(d.touch, Touch::Overwrite | Touch::Append))
            .map(|d| (d.path.to_owned(), d.touch))
            .collect()
    }

    fn over(list: &[&str]) -> Vec<(String, Touch)> {
        list.iter()
            .map(|p| ((*p).to_owned(), Touch::Overwrite))
            .collect()
    }

    #[test]
    fn reads_what_each_program_writes_over() {
        assert_eq!(written("echo x > ~/.bashrc"), over(&["~/.bashrc"]));
        assert_eq!(written("cmd 2> err.log >| out"), over(&["err.log", "out"]));
        assert_eq!(written("truncate -s 10M a b"), over(&["a", "b"]));
        assert_eq!(written("truncate -r ref --size=+1K a"), over(&["a"]));
        assert_eq!(
            written("fallocate --punch-hole --offset 0 --length 1MiB store.json"),
            over(&["store.json"])
        );
        assert_eq!(
            written("fallocate -l 1G -o 4k disk.img"),
            over(&["disk.img"])
        );
        // Cut to nothing, a file is as good as deleted.
        for line in ["truncate -s 0 a", "truncate --size=0 a", "truncate -s0 a"] {
            assert!(written(line).is_empty(), "{line}");
            let read = crate::matcher::shell::parse(line);
            let touched: Vec<Touch> = touches(&read.commands[0]).iter().map(|t| t.touch).collect();
            assert_eq!(touched, [Touch::Delete], "{line}");
        }
        assert_eq!(written("cat k | tee x y"), over(&["x", "y"]));
        assert_eq!(
            written("patchelf --add-needed /tmp/l.so --replace-needed a.so b.so /bin/x /bin/y"),
            over(&["/bin/x", "/bin/y"])
        );
        assert_eq!(
            written("patchelf --set-interpreter /tmp/ld --output out /bin/x"),
            over(&["out"])
        );
        assert!(written("patchelf --print-needed /bin/x").is_empty());
        assert_eq!(
            written("curl -s --trace-ascii HOOKS.yaml -o /dev/null https://x.example/"),
            over(&["HOOKS.yaml"])
        );
        assert_eq!(
            written("curl -D h.txt -c jar --stderr=- https://x.example/"),
            over(&["h.txt", "jar"])
        );
        assert_eq!(
            written("curl -sD h.txt -sSc jar https://x.example/"),
            over(&["h.txt", "jar"])
        );
        assert_eq!(
            written("dd if=/dev/zero of=disk.img bs=1M"),
            over(&["disk.img"])
        );
        assert_eq!(written("cp -r src ~/backup"), over(&["~/backup"]));
        assert_eq!(written("cp -t /etc a b"), over(&["/etc"]));
        assert_eq!(written("cp --target-directory=/etc a"), over(&["/etc"]));
        assert_eq!(
            written("install -m 755 tool ~/bin/tool"),
            over(&["~/bin/tool"])
        );
        assert_eq!(written("ln -sf evil ~/.profile"), over(&["~/.profile"]));
        assert_eq!(written("sed -i s/a/b/ ~/.bashrc"), over(&["~/.bashrc"]));
        assert_eq!(written("sed -i.bak -e s/a/b/ f g"), over(&["f", "g"]));
        // `-ie` is `-i` with the backup suffix `e`: the script is still the first operand.
        assert_eq!(written("sed -ie s/a/b/ f"), over(&["f"]));
        assert_eq!(written("sed -n -i -f s.sed f"), over(&["f"]));
        assert!(written("sed -e s/a/b/ f").is_empty());
        assert_eq!(
            written("ed -s ~/.bashrc <<< $'$a\\nsource /tmp/r\\n.\\nw\\nq'"),
            over(&["~/.bashrc"])
        );
        assert_eq!(written("ed -p '*' -s notes.txt"), over(&["notes.txt"]));
        // GNU sed takes an unambiguous prefix of a long option.
        assert_eq!(written("sed --in s/a/b/ ~/.bashrc"), over(&["~/.bashrc"]));
        assert_eq!(written("sed --in-pl=.b --expr s/a/b/ f"), over(&["f"]));
        assert!(written("sed --expr s/a/b/ f").is_empty());
        assert_eq!(
            written("perl -pi -e s/a/b/ ~/.bashrc"),
            over(&["~/.bashrc"])
        );
        assert_eq!(
            written("perl -0777 -i.bak -pe s/a/b/ f g"),
            over(&["f", "g"])
        );
        assert_eq!(written("perl -i script.pl f"), over(&["f"]));
        assert!(written("perl -pe s/a/b/ f").is_empty());
        assert_eq!(written("ruby -i -pe 'sub(/a/,\"b\")' f"), over(&["f"]));
        assert_eq!(written("gawk -i inplace '{print}' f"), over(&["f"]));
        assert!(written("gawk '{print}' f").is_empty());
        assert_eq!(written("uniq -c in.txt out.txt"), over(&["out.txt"]));
        assert_eq!(
            written("openssl enc -in a -out HOOKS.yaml"),
            over(&["HOOKS.yaml"])
        );
        assert_eq!(
            deleted("gzip -9 HOOKS.yaml"),
            [("HOOKS.yaml".to_owned(), false)]
        );
        assert!(deleted("gzip -k build.log").is_empty());
        assert!(deleted("gzip -c build.log").is_empty());
        assert_eq!(written("shred -n 3 key"), over(&["key"]));
        assert_eq!(written("sort -k 2 -o out in"), over(&["out"]));
        assert_eq!(
            written("curl -sSLo ~/bin/x https://e.x/x"),
            over(&["~/bin/x"])
        );
        assert_eq!(
            written("curl -H 'a: b' --output o https://e.x"),
            over(&["o"])
        );
        assert_eq!(
            written("wget -qO- https://e.x"),
            over(&[]).into_iter().collect::<Vec<_>>()
        );
        assert_eq!(written("wget -O f https://e.x"), over(&["f"]));
        assert_eq!(written("rsync -a src/ /srv/www/"), over(&["/srv/www/"]));
        assert!(written("rsync -a src/ host:/srv/www/").is_empty());
        assert_eq!(written("scp -P 22 host:key ~/.ssh/"), over(&["~/.ssh/"]));
        // Streams are not files.
        assert!(written("make 2>/dev/null >/dev/stderr | tee /dev/tty").is_empty());
    }

    #[test]
    fn appends_and_refusals_to_replace_are_writes_not_overwrites() {
        let appended = |line: &str| {
            written(line)
                .into_iter()
                .filter(|(_, t)| *t == Touch::Append)
                .map(|(p, _)| p)
                .collect::<Vec<_>>()
        };
        assert_eq!(appended("echo x >> ~/.bashrc"), ["~/.bashrc"]);
        assert_eq!(appended("echo x | tee -a f"), ["f"]);
        assert_eq!(appended("cp -n a b"), ["b"]);
        assert_eq!(appended("ln -s target link"), ["link"]);
        assert_eq!(appended("ln -s /etc/passwd"), ["."]);
        assert_eq!(appended("install -d ~/x"), ["~/x"]);
    }

    #[test]
    fn npm_installs_replace_what_node_modules_holds() {
        let inside = |line: &str| -> Vec<(String, Option<String>)> {
            let read = crate::matcher::shell::parse(line);
            read.commands
                .iter()
                .flat_map(touches)
                .filter(|d| d.touch == Touch::Delete && d.inside && d.recursive)
                .map(|d| (d.path.to_owned(), d.base.map(str::to_owned)))
                .collect()
        };
        let here = vec![("node_modules".to_owned(), None)];
        for line in [
            "npm install",
            "npm ci",
            "npm i left-pad",
            "npm --silent uninstall x",
        ] {
            assert_eq!(inside(line), here, "{line}");
        }
        assert_eq!(
            inside("npm --prefix web install"),
            [("node_modules".to_owned(), Some("web".to_owned()))]
        );
        for line in [
            "npm test",
            "npm run build",
            "npm install -g typescript",
            "npm view x",
        ] {
            assert_eq!(inside(line), [], "{line}");
        }
    }

    #[test]
    fn a_move_takes_its_sources_away() {
        assert_eq!(
            deleted("mv ~/Documents /tmp/x"),
            paths(&[("~/Documents", false)])
        );
        assert_eq!(written("mv a ~/.bashrc"), over(&["~/.bashrc"]));
        assert_eq!(
            deleted("mv -t /tmp a b"),
            paths(&[("a", false), ("b", false)])
        );
        assert!(deleted("mv onlyone").is_empty());
        assert!(deleted("cp a b").is_empty());
    }

    #[test]
    fn archivers_that_delete_what_they_archive() {
        assert_eq!(
            deleted("tar -czf /tmp/a.tgz --remove-files ~/Documents notes"),
            paths(&[("~/Documents", true), ("notes", true)])
        );
        assert_eq!(
            deleted("tar cfz /tmp/a.tgz --rem src"),
            paths(&[("src", true)])
        );
        assert!(deleted("tar -czf /tmp/a.tgz ~/Documents").is_empty());
        let read = crate::matcher::shell::parse("tar -C ~ -cf /tmp/a.tar --remove-files Documents");
        let touched = touches(&read.commands[0]);
        assert_eq!(touched[0].path, "Documents");
        assert_eq!(touched[0].base, Some("~"));
        // `-C a -C ..` is `a/..`: a directory this reader does not build is unknown.
        let read = crate::matcher::shell::parse("tar -C src -C .. -cf a.tar --remove-files x");
        let touched = touches(&read.commands[0]);
        assert_eq!(touched[0].base, Some(crate::matcher::shell::SUBSTITUTION));
        // Files listed in a file are not known.
        assert_eq!(
            deleted("tar --files-from list.txt -cf a.tar --remove-files"),
            paths(&[(crate::matcher::shell::SUBSTITUTION, false)])
        );
        assert_eq!(
            deleted("zip -rm /tmp/x.zip ~/Documents"),
            paths(&[("~/Documents", true)])
        );
        assert!(deleted("zip -r /tmp/x.zip ~/Documents").is_empty());
        assert_eq!(
            deleted("7z a -sdel /tmp/x.7z ~/Pictures"),
            paths(&[("~/Pictures", true)])
        );
        assert_eq!(
            deleted("rsync -a --remove-source-files ~/Music/ host:/backup/"),
            paths(&[("~/Music/", false)])
        );
    }

    #[test]
    fn archivers_write_what_they_unpack_into_their_directory() {
        let into = |line: &str| -> Vec<(String, Touch, bool)> {
            let read = crate::matcher::shell::parse(line);
            touches(&read.commands[0])
                .into_iter()
                .map(|t| (t.path.to_owned(), t.touch, t.inside))
                .collect()
        };
        let over = |dir: &str| vec![(dir.to_owned(), Touch::Overwrite, true)];
        assert_eq!(into("tar -xzf a.tgz"), over("."));
        assert_eq!(into("tar xzf a.tgz -C ~/"), over("~/"));
        assert_eq!(into("tar -xf a.tar --directory=/etc"), over("/etc"));
        assert_eq!(into("tar --extract --file a.tar -C out"), over("out"));
        assert_eq!(into("bsdtar -x -f a.tar -C /tmp/x"), over("/tmp/x"));
        // `-P` keeps absolute member names: anywhere below `/`.
        assert_eq!(into("tar -xPf a.tar"), over("/"));
        assert_eq!(into("tar --absolute-names -xf a.tar -C out"), over("/"));
        // Listing, or extracting to standard output, writes no file.
        assert!(into("tar -tzf a.tgz").is_empty());
        assert!(into("tar -xOf a.tar etc/passwd").is_empty());
        // Creating writes the archive, adding to it appends; `-f -` is standard output.
        let archive = |touch| vec![("a.tgz".to_owned(), touch, false)];
        assert_eq!(into("tar -czf a.tgz src"), archive(Touch::Overwrite));
        assert_eq!(into("tar czf a.tgz src"), archive(Touch::Overwrite));
        assert_eq!(
            into("tar --create --file=a.tgz src"),
            archive(Touch::Overwrite)
        );
        assert_eq!(into("tar -c --file a.tgz src"), archive(Touch::Overwrite));
        assert_eq!(into("tar -rf a.tgz x"), archive(Touch::Append));
        assert!(into("tar -czf - src").is_empty());
        // A value glued to `-f` is not a flag: `-fx` names the archive `x`.
        assert_eq!(
            into("tar -cfx src"),
            vec![("x".to_owned(), Touch::Overwrite, false)]
        );

        assert_eq!(into("unzip a.zip"), over("."));
        assert_eq!(into("unzip -o a.zip -d ~/.ssh"), over("~/.ssh"));
        assert_eq!(into("unzip -qd/tmp/t a.zip"), over("/tmp/t"));
        assert_eq!(
            into("unzip -n a.zip"),
            vec![(".".to_owned(), Touch::Append, true)]
        );
        assert!(into("unzip -l a.zip").is_empty());
        assert!(
            into("unzip -p a.zip x > y")
                .iter()
                .all(|(p, _, _)| p == "y")
        );

        assert_eq!(into("7z x a.7z -o/root/.config"), over("/root/.config"));
        assert_eq!(into("7z e a.7z"), over("."));
        assert!(into("7z x a.7z -so").is_empty());
        assert!(into("7z l a.7z").is_empty());
    }

    #[test]
    fn downloads_mounts_and_copies_into_a_directory() {
        let touched = |line: &str| -> Vec<(String, Option<String>, bool)> {
            let read = crate::matcher::shell::parse(line);
            touches(&read.commands[0])
                .into_iter()
                .map(|t| (t.path.to_owned(), t.base.map(str::to_owned), t.inside))
                .collect()
        };
        let at = |path: &str, base: Option<&str>| {
            vec![(path.to_owned(), base.map(str::to_owned), false)]
        };
        assert_eq!(
            touched("curl -sSLO https://h/a/b.tgz?x=1"),
            at("b.tgz", None)
        );
        assert_eq!(
            touched("curl --output-dir /srv -O https://h/HOOKS.yaml"),
            at("HOOKS.yaml", Some("/srv"))
        );
        assert_eq!(
            touched("curl --output-dir d -o /abs https://h/x"),
            at("/abs", None)
        );
        // `-XPOST` holds an `O` that is the method's, not `-O`.
        assert!(touched("curl -XPOST https://h/v1/items").is_empty());
        assert_eq!(
            touched("mount --bind a.yaml /srv/HOOKS.yaml"),
            vec![
                ("/srv/HOOKS.yaml".to_owned(), None, false),
                ("/srv/HOOKS.yaml".to_owned(), None, true)
            ]
        );
        assert_eq!(
            touched("cp -r evil/. /srv"),
            vec![("/srv".to_owned(), None, true)]
        );
        assert_eq!(touched("cp a.txt b.txt"), at("b.txt", None));
    }

    #[test]
    fn code_writes_arrive_as_tee() {
        assert_eq!(
            written(
                "python3 -c 'import os; open(os.path.expanduser(\"~/.bashrc\"), \"w\").write(\"x\")'"
            ),
            over(&["~/.bashrc"])
        );
    }

    #[test]
    fn code_deletes_arrive_as_rm() {
        assert_eq!(
            deleted("python3 -c 'import shutil; shutil.rmtree(\"build\")'"),
            paths(&[("build", true)])
        );
    }
}
