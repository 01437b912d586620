//! A file the line downloaded, handed to a program that is not known to take its files only
//! as data. Programs load code from files their options name in more ways than any list can
//! hold (`openssl engine -pre SO_PATH:lib.so`, `ssh-keygen -w lib.so`, `tcpdump -z script`,
//! `vim -u vimrc`, `make .SHELLFLAGS=file`, `sshd -o AuthorizedKeysFile=file`), so the
//! list kept is of the programs that only read, copy, check or unpack what they are given;
//! anything else given a download may run it.

use super::super::super::expand::Field;
use super::super::super::walk::Reader;
use super::super::table::{self, Program, Runs};

/// Programs that take the files named on their command line as data: they print, compare,
/// hash, copy, move, unpack or check them, and run nothing in them. Those that can run
/// something through their own options (`tar --to-command`, `find -exec`, `sed`'s `e`) are
/// read for that by their own readers, and are not listed unless that reader covers it.
#[rustfmt::skip]
const TAKES_FILES_AS_DATA: &[&str] = &[
    // Viewing and measuring.
    "cat", "tac", "head", "tail", "less", "more", "nl", "od", "xxd", "hexdump", "hd",
    "strings", "file", "stat", "wc", "du", "ls", "tree", "find", "echo", "printf", "test", "[",
    "realpath", "readlink", "basename", "dirname",
    // Moving files about.
    "cp", "mv", "rm", "ln", "mkdir", "rmdir", "touch", "chmod", "chown", "chgrp", "truncate",
    "shred", "dd", "tee", "split", "csplit",
    // Text.
    "grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "sort", "uniq", "cut", "tr", "paste",
    "join", "comm", "column", "fold", "fmt", "expand", "unexpand", "iconv", "dos2unix",
    "unix2dos", "rev", "diff", "diff3", "cmp", "sdiff", "colordiff", "jq", "yq", "gojq",
    "base64", "base32", "basenc",
    // Checking.
    "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
    "cksum", "sum", "shasum", "gpg", "gpgv", "minisign", "signify", "cosign", "shellcheck",
    "shfmt", "yamllint", "jsonlint", "xmllint", "hadolint",
    // Unpacking.
    "tar", "unzip", "zip", "gzip", "gunzip", "zcat", "bzip2", "bunzip2", "bzcat", "xz",
    "unxz", "xzcat", "zstd", "unzstd", "zstdcat", "lz4", "7z", "7za", "cpio", "ar",
    // Moving files between machines (what leaves is judged by the network rules).
    "curl", "wget", "scp", "rsync", "sftp",
    // Installing a package file: the policies judge that (`supply-chain.yaml` asks).
    "dpkg", "apt", "apt-get", "rpm", "dnf", "yum", "zypper",
];

/// Programs with their own reader whose operands are a command to run, read as one.
#[rustfmt::skip]
const RUN_THEIR_OPERANDS: &[&str] = &[
    "env", "sudo", "doas", "su", "runuser", "sg", "flock", "builtin", "command", "watch",
    "xargs", "parallel", "capsh", "tmux", "screen", "at", "batch", "trap", "source", ".",
    "valgrind", "gdb", "perf", "firejail",
];

/// `openssl` subcommands and options that load code: an engine or a provider module.
const OPENSSL_LOADS: &[&str] = &["engine", "-engine", "-provider", "-provider-path"];

/// Git options that name programs, hooks or more configuration (`-c KEY=VALUE` is read as
/// one too, whatever its key).
const GIT_LOADS: &[&str] = &["--exec-path", "--template", "--config-env"];

/// Makes the line unreadable when `program` is given a file the line downloaded, as an
/// operand or inside an option's value, and is not known to take it as data.
pub(in crate::matcher::shell::programs) fn downloaded_operands(
    r: &mut Reader,
    program: &str,
    row: Option<&Program>,
    args: &[Field],
) {
    // An interpreter's own options load modules and extensions (`php -d
    // extension=/tmp/x.so`, `python3 -X importtime`): those before its code or script.
    if r.env.fetches && table::is_interpreter(program) {
        let own = args
            .iter()
            .take_while(|a| {
                let t = a.text.as_str();
                !table::CODE_FLAGS.contains(&t) && (t.starts_with('-') || t.contains('='))
            })
            .filter(|a| !a.unknown);
        if own
            .flat_map(|a| named_paths(&a.text))
            .any(|p| r.env.holds_unknown_text(p))
        {
            r.unreadable("the interpreter loads a file the line downloaded through its options");
        }
    }
    // Wrappers, interpreters and database clients are read for the files they run.
    let read_elsewhere = match row {
        Some(row) => row.runs != Runs::Own || RUN_THEIR_OPERANDS.contains(&program),
        None => table::is_interpreter(program) || table::DATABASE_CLIENTS.contains(&program),
    };
    if !r.env.fetches || read_elsewhere || takes_files_as_data(program, args) {
        return;
    }
    if args
        .iter()
        .filter(|a| !a.unknown)
        .any(|a| named_paths(&a.text).any(|p| r.env.holds_unknown_text(p)))
    {
        r.unreadable("the line hands a file it downloaded to a program that may load or run it");
    }
}

fn takes_files_as_data(program: &str, args: &[Field]) -> bool {
    match program {
        "openssl" => !args
            .iter()
            .any(|a| OPENSSL_LOADS.contains(&a.text.as_str())),
        // Git runs nothing from a clone or a patch; its configuration names programs.
        "git" => !args.iter().any(|a| {
            let t = a.text.as_str();
            t == "-c" || t.starts_with("--") && GIT_LOADS.iter().any(|w| t.contains(w))
        }),
        _ => TAKES_FILES_AS_DATA.contains(&program),
    }
}

/// The paths an argument may name: itself, an option's value after `=` or glued to a
/// short option (`-u/tmp/x`), and each part of a list (`SO_PATH:/tmp/x.so`, `a,b`).
fn named_paths(arg: &str) -> impl Iterator<Item = &str> {
    let value = arg.split_once('=').map(|(_, v)| v);
    let glued = arg
        .strip_prefix('-')
        .filter(|rest| !rest.starts_with('-'))
        .and_then(|rest| rest.get(1..));
    [Some(arg), value, glued]
        .into_iter()
        .flatten()
        .flat_map(|s| std::iter::once(s).chain(s.split([':', ','])))
        .filter(|p| !p.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_argument_names_paths_in_its_option_value_and_its_lists() {
        let paths = |arg| named_paths(arg).collect::<Vec<_>>();
        assert!(paths("SO_PATH:/tmp/x.so").contains(&"/tmp/x.so"));
        assert!(paths(".SHELLFLAGS=build/.mkenv").contains(&"build/.mkenv"));
        assert!(paths("-u/tmp/vimrc").contains(&"/tmp/vimrc"));
        assert!(paths("AuthorizedKeysFile=/var/tmp/.ak").contains(&"/var/tmp/.ak"));
        assert!(paths("--rcfile=a,b").contains(&"b"));
        assert_eq!(paths("plain"), ["plain", "plain"]);
    }

    #[test]
    fn openssl_takes_files_as_data_unless_it_loads_an_engine_or_provider() {
        let args = |words: &[&str]| words.iter().map(|w| Field::literal(w)).collect::<Vec<_>>();
        assert!(takes_files_as_data(
            "openssl",
            &args(&["dgst", "-sha256", "x"])
        ));
        assert!(!takes_files_as_data(
            "openssl",
            &args(&["engine", "-t", "dynamic"])
        ));
        assert!(!takes_files_as_data(
            "openssl",
            &args(&["req", "-provider-path", "d"])
        ));
        assert!(!takes_files_as_data("make", &args(&[".SHELLFLAGS=f"])));
    }
}
