//! The program table, as reviewed data: for each program that runs other commands or code,
//! how it reads its options and which operand is the command; and the programs where an
//! argument the reader cannot know changes what the program does.
//!
//! Option lists follow each program's own manual (GNU coreutils, util-linux, sudo, ...).
//! A program not listed here runs nothing else, as far as the reader knows.

mod environments;
mod own;
mod queues;
mod shells;
mod wrappers;

use super::super::options::Options;
use super::rows::{concat, count};

/// How a program runs another command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Runs {
    /// The operands after its options, minus `skip` leading ones (`timeout 5 cmd`), are a
    /// command.
    Command { skip: usize },
    /// A shell: `-c script`, a script file, or standard input.
    Shell,
    /// Its operands, joined by spaces, are a shell script (`eval`, `watch`).
    Script,
    /// The value of one option is a shell script (`su -c`, `script -c`); several long
    /// names are separated by `|`.
    ScriptOption(char, &'static str),
    /// After one of these subcommands and its options, and `skip` operands (a profile, a
    /// directory), the rest is a command: `uv run CMD`, `aws-vault exec PROFILE -- CMD`.
    Subcommand {
        names: &'static [&'static str],
        options: Options,
        skip: Skip,
    },
    /// Handled by its own reader in `runners.rs`.
    Own,
}

/// Operands between a subcommand's options and the command it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Skip {
    /// This many, then an optional `--`.
    Operands(usize),
    /// Everything up to the first `--` (`mise exec node@20 python@3 -- CMD`); without one,
    /// none.
    ToDashDash,
}

const fn sub(names: &'static [&'static str], options: Options) -> Runs {
    Runs::Subcommand {
        names,
        options,
        skip: Skip::Operands(0),
    }
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub(super) struct Program {
    pub(super) names: &'static [&'static str],
    pub(super) options: Options,
    pub(super) runs: Runs,
}

const fn gnu(short_with_value: &'static str, long: &'static [&'static str]) -> Options {
    Options {
        short_with_value,
        long,
        abbreviations: true,
    }
}

const fn row(names: &'static [&'static str], options: Options, runs: Runs) -> Program {
    Program {
        names,
        options,
        runs,
    }
}

const COMMAND: Runs = Runs::Command { skip: 0 };
const AFTER_ONE: Runs = Runs::Command { skip: 1 };

/// Programs that run a command, a script or code, in the order they are looked up (the
/// first row naming a program is its row).
pub(super) static PROGRAMS: &[Program] = &concat::<_, { count(GROUPS) }>(GROUPS);

/// The table's rows by kind of program, each kind in a file of its own.
const GROUPS: &[&[Program]] = &[
    shells::SHELLS,
    wrappers::WRAPPERS,
    environments::ENVIRONMENTS,
    queues::QUEUES,
    own::OWN,
];

/// Programs where an argument the reader cannot know may change what happens: it could be
/// an option (`-rf`), a path the policy guards, or code. For these, an unknown argument
/// makes the line unreadable; for others (`echo "$x"`, `cd "$DIR"`) it does not matter.
pub(super) const SENSITIVE: &[&str] = &[
    "rm",
    "rmdir",
    "unlink",
    "shred",
    "srm",
    "wipe",
    "dd",
    "truncate",
    "fallocate",
    "mv",
    "cp",
    "ln",
    "install",
    "chmod",
    "chown",
    "chgrp",
    "chattr",
    "setfacl",
    "mkfs",
    "mke2fs",
    "mkswap",
    "wipefs",
    "blkdiscard",
    "fdisk",
    "sfdisk",
    "sgdisk",
    "gdisk",
    "parted",
    "cryptsetup",
    "hdparm",
    "nvme",
    "mdadm",
    "zpool",
    "lvremove",
    "vgremove",
    "pvremove",
    "find",
    "xargs",
    "sed",
    "awk",
    "gawk",
    "tar",
    "zip",
    "unzip",
    "make",
    "ssh",
    "scp",
    "sftp",
    "rsync",
    "nc",
    "ncat",
    "socat",
    "crontab",
    "sudo",
    "su",
    "doas",
    "eval",
    "source",
    ".",
    "exec",
    "env",
    "timeout",
    "nice",
    "nohup",
    "stdbuf",
    "setsid",
    "ionice",
    "chrt",
    "taskset",
    "flock",
    "watch",
    "parallel",
    "script",
    "busybox",
    "command",
    "builtin",
    "trap",
    "alias",
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "php",
    "lua",
    "deno",
    "bun",
    "tsx",
    "ts-node",
    "ts-node-esm",
    "esno",
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "ash",
    "mksh",
    "fish",
];

/// Interpreters of other languages: the code reader reads the code of the languages it
/// knows (`code::Lang::of_program`, which also names versioned programs like `lua5.4`);
/// for the others, the code must at least not come from somewhere unknown.
pub(super) const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "php",
    "lua",
    "luajit",
    "deno",
    "bun",
    "Rscript",
    "tclsh",
    "wish",
    "pwsh",
    "osascript",
    "jshell",
    "irb",
    "ghci",
    "julia",
    "elixir",
    "expect",
];

/// Options of interpreters that take the code (or a module) in the next argument.
pub(super) const CODE_FLAGS: &[&str] = &[
    "-c",
    "-e",
    "-E",
    "-p",
    "-r",
    "-m",
    "--eval",
    "--print",
    "-x",
    "--command",
];

/// The table row for `program`.
pub(super) fn find(program: &str) -> Option<&'static Program> {
    // Every simple command looks its program up: a hash, not a scan of ~300 names.
    static BY_NAME: std::sync::LazyLock<std::collections::HashMap<&str, &Program>> =
        std::sync::LazyLock::new(|| {
            let mut map = std::collections::HashMap::new();
            for row in PROGRAMS {
                for name in row.names {
                    // The first row naming a program is its row.
                    map.entry(*name).or_insert(row);
                }
            }
            map
        });
    BY_NAME.get(program).copied()
}

/// Whether `program` is an interpreter of another language.
pub(super) fn is_interpreter(program: &str) -> bool {
    INTERPRETERS.contains(&program) || crate::matcher::code::Lang::of_program(program).is_some()
}

/// Database clients, whose SQL or commands `runners/databases.rs` reads.
pub(super) const DATABASE_CLIENTS: &[&str] = &[
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "sqlite",
    "duckdb",
    "redis-cli",
    "valkey-cli",
    "keydb-cli",
    "mongosh",
    "mongo",
];

/// Whether `program` is in the table or is an interpreter: reading it may find more.
pub(in crate::matcher::shell) fn is_special(program: &str) -> bool {
    find(program).is_some()
        || is_interpreter(program)
        || DATABASE_CLIENTS.contains(&program)
        || matches!(
            program,
            "alias"
                | "declare"
                | "typeset"
                | "local"
                | "export"
                | "readonly"
                | "read"
                | "printf"
                | "mapfile"
                | "readarray"
                | "set"
                | "let"
                | "unset"
                | "shift"
                | "shopt"
                | "ln"
                | "curl"
                | "wget"
                // URLs are also read as sent (`urls.rs`), patterns as what they pick
                // (`signals.rs`).
                | "http"
                | "https"
                | "xh"
                | "xhs"
                | "aria2c"
                | "pkill"
                | "pgrep"
                | "killall"
                | "echo"
                | "cat"
                | "tee"
                // They install through dpkg (`builtins.rs`).
                | "apt"
                | "apt-get"
                | "aptitude"
                // It writes the kernel's settings (`runners::sysctl`).
                | "sysctl"
                // `!` runs a shell command (`runners::dc`).
                | "dc"
                // They load a PKCS#11 provider they are given (`programs::run`).
                | "ssh-keygen"
                | "ssh-add"
                // Their consoles run code, and Rails decrypts its credentials
                // (`runners::console`, `runners::rails_credentials`).
                | "rails"
                | "django-admin"
                | "django-admin.py"
                // Its templates hold Ruby code (`runners::erb_templates`).
                | "erb"
        )
        || program.starts_with("mkfs")
        // Their options hold commands (`runners::option_commands`).
        || super::runners::OPTION_COMMAND_PROGRAMS.contains(&program)
}

/// GNU long options of everyday programs whose abbreviations a policy must see spelled out
/// (`rm --rec --fo`).
pub(super) fn long_options(program: &str) -> Option<Options> {
    const RM: &[&str] = &[
        "recursive",
        "force",
        "interactive=",
        "one-file-system",
        "no-preserve-root",
        "preserve-root=",
        "dir",
        "verbose",
        "help",
        "version",
    ];
    const CHMOD: &[&str] = &[
        "recursive",
        "changes",
        "silent",
        "quiet",
        "verbose",
        "reference=",
        "no-preserve-root",
        "preserve-root",
        "help",
        "version",
    ];
    const SHRED: &[&str] = &[
        "force",
        "iterations=",
        "random-source=",
        "size=",
        "remove=",
        "verbose",
        "exact",
        "zero",
    ];
    const CP: &[&str] = &[
        "archive",
        "recursive",
        "force",
        "no-dereference",
        "dereference",
        "link",
        "symbolic-link",
        "target-directory=",
        "no-target-directory",
        "remove-destination",
        "update=",
        "verbose",
        "interactive",
        "no-clobber",
        "parents",
        "preserve=",
        "backup=",
        "suffix=",
        "reflink=",
        "sparse=",
    ];
    const NONE: &[&str] = &[];
    let long: &'static [&'static str] = match program {
        "rm" => RM,
        "chmod" | "chown" | "chgrp" => CHMOD,
        "shred" => SHRED,
        "cp" | "mv" => CP,
        _ => NONE,
    };
    (!long.is_empty()).then_some(Options {
        short_with_value: "",
        long,
        abbreviations: true,
    })
}

#[cfg(test)]
mod tests;
