//! Shell escapes in options or commands, code in languages not read, and the programs
//! read by a reader of their own (`runners/`).

use super::super::super::options::Options;
use super::{Program, Runs, gnu, row};

/// The rows of this kind, in lookup order.
pub(super) const OWN: &[Program] = &[
    // Shell escapes in options or commands, and code in languages not read.
    row(
        &[
            "ed",
            "red",
            "zip",
            "split",
            "emacs",
            "emacsclient",
            "m4",
            "gm4",
            "pwsh",
            "powershell",
            "nu",
            "xonsh",
            "elvish",
            "murex",
        ],
        Options::NONE,
        Runs::Own,
    ),
    // Renamers by a Perl expression (`rename 's/a/b/' FILES`) or a string (util-linux's
    // `rename FROM TO FILES`).
    row(
        &[
            "rename",
            "prename",
            "file-rename",
            "perl-rename",
            "rename.ul",
        ],
        gnu("eE", &[]),
        Runs::Own,
    ),
    row(
        &["nodemon"],
        gnu(
            "xewi",
            &["exec=", "ext=", "watch=", "ignore=", "delay=", "signal="],
        ),
        Runs::ScriptOption('x', "exec"),
    ),
    row(
        &["parallel"],
        gnu("jSI", &["jobs=", "sshlogin=", "arg-file="]),
        Runs::Own,
    ),
    row(
        &["ssh"],
        Options::short("BbcDEeFIiJLlmOoPpQRSWw"),
        Runs::Own,
    ),
    row(&["scp", "sftp"], Options::short("cDFiJloPSX"), Runs::Own),
    row(&["smbclient"], Options::NONE, Runs::Own),
    row(&["ansible"], Options::NONE, Runs::Own),
    row(
        &["rsync"],
        gnu(
            "eBfT",
            &[
                "rsh=",
                "rsync-path=",
                "filter=",
                "exclude=",
                "include=",
                "block-size=",
                "temp-dir=",
                "compare-dest=",
                "link-dest=",
                "files-from=",
            ],
        ),
        Runs::Own,
    ),
    row(&["git"], Options::short("Cc"), Runs::Own),
    row(
        &["patch", "gpatch"],
        Options::short("pidorBDFVzYg"),
        Runs::Own,
    ),
    row(
        &["sed", "gsed"],
        gnu(
            "efl",
            &[
                "expression=",
                "file=",
                "line-length=",
                "in-place",
                "quiet",
                "silent",
                "regexp-extended",
                "separate",
                "null-data",
                "sandbox",
                "debug",
                "posix",
                "unbuffered",
                "zero-terminated",
                "follow-symlinks",
            ],
        ),
        Runs::Own,
    ),
    row(
        &["awk", "gawk", "mawk", "nawk", "busybox-awk"],
        gnu(
            // gawk's `-i FILE` (include), `-l EXT` (load) and `-E FILE` (exec).
            "fvFilE",
            &[
                "file=",
                "assign=",
                "field-separator=",
                "source=",
                "include=",
                "load=",
                "exec=",
            ],
        ),
        Runs::Own,
    ),
    row(&["tar", "gtar", "bsdtar"], Options::NONE, Runs::Own),
    row(&["cpio"], Options::NONE, Runs::Own),
    row(
        &["make", "gmake"],
        gnu(
            "fCIjloWE",
            &[
                "file=",
                "makefile=",
                "directory=",
                "include-dir=",
                "jobs=",
                "load-average=",
                "old-file=",
                "what-if=",
                "eval=",
            ],
        ),
        Runs::Own,
    ),
    row(
        &["npx", "bunx", "pnpx"],
        gnu("pc", &["package=", "call="]),
        Runs::Own,
    ),
    row(&["npm", "pnpm", "yarn"], Options::NONE, Runs::Own),
    row(&["docker", "podman", "nerdctl"], Options::NONE, Runs::Own),
    row(&["capsh"], Options::NONE, Runs::Own),
    row(&["logrotate"], Options::NONE, Runs::Own),
    row(&["cmake"], Options::NONE, Runs::Own),
    row(&["mix"], Options::NONE, Runs::Own),
    row(&["kubectl", "oc"], Options::NONE, Runs::Own),
    row(
        &["vim", "vi", "nvim", "view", "ex", "gvim"],
        Options::short("cSTuUiwWsrt"),
        Runs::Own,
    ),
    row(&["less", "more", "man"], Options::NONE, Runs::Own),
    row(&["trap"], Options::NONE, Runs::Own),
    row(
        &["compgen", "fc", "history", "enable"],
        Options::NONE,
        Runs::Own,
    ),
    row(&["source", "."], Options::NONE, Runs::Own),
];
