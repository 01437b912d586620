//! What a simple command does to the paths it names: deletes them (and whether what is
//! below them goes too), or changes their mode or owner. The code reader's deletes
//! (`shutil.rmtree(p)`) and `find -delete` reach here as the `rm` commands they mean (`find
//! . -name '*.o' -delete` as `rm -- ./*.o`).

use super::SimpleCommand;

/// What a command does to a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    /// Deletes it.
    Delete,
    /// Changes its mode, owner, group, attributes or ACL.
    Mode,
}

/// A path a command deletes or changes the mode of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathTouch<'a> {
    /// What the command does to it.
    pub touch: Touch,
    /// The path as the command names it (relative to the command's directory).
    pub path: &'a str,
    /// Whether everything below it goes too (`rm -r`, `rsync --delete`).
    pub recursive: bool,
    /// Whether what goes is inside the path rather than the path itself (`rsync --delete
    /// SRC DIR`).
    pub inside: bool,
}

/// The paths `command` deletes or changes the mode of; empty for a program that does
/// neither to what it names.
pub fn touches(command: &SimpleCommand) -> Vec<PathTouch<'_>> {
    let args = &command.args;
    match command.program.as_str() {
        // `chmod -R MODE PATH...`, `chown -R OWNER PATH...`: the first operand is the mode or
        // owner unless `--reference=FILE` gives it.
        "chmod" | "chown" | "chgrp" | "setfacl" | "chattr" => {
            let recursive = options(args)
                .any(|o| o == "--recursive" || (!o.starts_with("--") && o[1..].contains('R')));
            let given = !options(args).any(|o| o.starts_with("--reference"))
                && command.program != "setfacl";
            operands(args)
                .skip(usize::from(given))
                .map(|path| PathTouch {
                    touch: Touch::Mode,
                    path,
                    recursive,
                    inside: false,
                })
                .collect()
        }
        "rm" => {
            let recursive = options(args)
                .any(|o| o == "--recursive" || (!o.starts_with("--") && o.contains(['r', 'R'])));
            operands(args)
                .map(|path| PathTouch {
                    touch: Touch::Delete,
                    path,
                    recursive,
                    inside: false,
                })
                .collect()
        }
        // npm's `rimraf` and `del-cli` delete recursively, as `rm -rf`.
        "rimraf" | "del" | "del-cli" => operands(args)
            .map(|path| PathTouch {
                touch: Touch::Delete,
                path,
                recursive: true,
                inside: false,
            })
            .collect(),
        "rmdir" | "unlink" => operands(args)
            .map(|path| PathTouch {
                touch: Touch::Delete,
                path,
                recursive: false,
                inside: false,
            })
            .collect(),
        // Only `shred -u`/`--remove` deletes; without it the file is overwritten.
        "shred" if options(args).any(|o| o.starts_with("--remove") || is_short(o, 'u')) => {
            operands(args)
                .map(|path| PathTouch {
                    touch: Touch::Delete,
                    path,
                    recursive: false,
                    inside: false,
                })
                .collect()
        }
        // `rsync --delete... SRC DEST`: what DEST holds beyond SRC goes.
        "rsync" if args.iter().any(|a| a.starts_with("--delete")) => operands(args)
            .last()
            .map(|path| PathTouch {
                touch: Touch::Delete,
                path,
                recursive: true,
                inside: true,
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
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
        assert_eq!(deleted("shred -u key"), paths(&[("key", false)]));
        assert!(deleted("shred key").is_empty());
        assert_eq!(
            deleted("find -L . /tmp/x -delete"),
            paths(&[("./*", true), ("/tmp/x/*", true)])
        );
        assert_eq!(
            deleted("find . -type f -name '*.pyc' -delete"),
            paths(&[("./**.pyc", false)])
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

    #[test]
    fn code_deletes_arrive_as_rm() {
        assert_eq!(
            deleted("python3 -c 'import shutil; shutil.rmtree(\"build\")'"),
            paths(&[("build", true)])
        );
    }
}
