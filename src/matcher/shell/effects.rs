//! What a simple command does to the paths it names: deletes them (and whether what is
//! below them goes too), writes over them or into them, or changes their mode or owner.
//! The code reader's effects (`shutil.rmtree(p)`, `open(p, "w")`) and `find -delete` reach
//! here as the commands they mean (`rm -r -f p`, `tee p`; `find . -name '*.o' -delete` as
//! `rm -- ./*.o`).

mod archives;
mod copies;
mod downloads;
mod in_place;
mod tools;

use super::SimpleCommand;
use archives::{cpio, seven_zip_extracts, tar, unzip};
pub(super) use archives::{cpio_extracts_into, tar_reads};
use copies::copies;
use downloads::{curl_remote_names, curl_side_files, output_of};
pub(super) use downloads::{download_output, is_local};
use in_place::{gawk_in_place, interpreter_in_place, sed_in_place};
use tools::{git_worktree, npm_prunes, patchelf};

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
mod tests;
