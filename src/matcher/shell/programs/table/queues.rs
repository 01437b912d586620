//! Queues, daemonisers, compiler caches, traffic shapers, containers, watchers and
//! multiplexers: the command runs later, elsewhere or again.

use super::super::super::options::Options;
use super::{AFTER_ONE, COMMAND, Program, Runs, Skip, gnu, row, sub};

/// The rows of this kind, in lookup order.
pub(super) const QUEUES: &[Program] = &[
    // Queues, daemonisers, compiler caches and traffic shapers that run their operands.
    row(&["tsp"], gnu("LDdWNE", &[]), COMMAND),
    row(&["nq"], gnu("", &[]), COMMAND),
    row(
        &["daemonize"],
        gnu("aceEloOpu", &[]),
        Runs::Command { skip: 0 },
    ),
    row(
        &["dbus-launch"],
        gnu(
            "",
            &[
                "exit-with-session",
                "exit-with-x11",
                "sh-syntax",
                "csh-syntax",
                "autolaunch=",
                "config-file=",
            ],
        ),
        COMMAND,
    ),
    row(
        &["ccache", "distcc", "colorgcc", "sccache"],
        Options::NONE,
        COMMAND,
    ),
    row(&["torify"], Options::NONE, COMMAND),
    row(&["trickle"], gnu("dulnwt", &[]), COMMAND),
    row(&["cgexec"], gnu("g", &["sticky"]), COMMAND),
    row(
        &["proot"],
        gnu(
            "rbmwqk",
            &[
                "rootfs=",
                "bind=",
                "mount=",
                "cwd=",
                "qemu=",
                "kernel-release=",
            ],
        ),
        COMMAND,
    ),
    row(
        &["machinectl"],
        gnu(
            "MEpsH",
            &["machine=", "setenv=", "property=", "uid=", "host="],
        ),
        Runs::Subcommand {
            names: &["shell"],
            options: gnu("E", &["setenv=", "uid="]),
            skip: Skip::Operands(1),
        },
    ),
    row(
        &["numactl"],
        gnu(
            "CNmipPw",
            &[
                "physcpubind=",
                "cpunodebind=",
                "membind=",
                "interleave=",
                "preferred=",
                "preferred-many=",
                "weighted-interleave=",
                "all",
                "localalloc",
                "balancing",
            ],
        ),
        COMMAND,
    ),
    row(&["faketime"], Options::short("fp"), AFTER_ONE),
    row(
        &["cpulimit"],
        gnu(
            "lpeP",
            &[
                "limit=",
                "pid=",
                "exe=",
                "path=",
                "lazy",
                "include-children",
                "kill",
                "restore",
            ],
        ),
        COMMAND,
    ),
    row(
        &["sem"],
        gnu(
            "j",
            &[
                "jobs=",
                "id=",
                "semaphoretimeout=",
                "st=",
                "fg",
                "bg",
                "wait",
            ],
        ),
        COMMAND,
    ),
    row(
        &["flatpak-spawn"],
        gnu(
            "",
            &[
                "host",
                "sandbox",
                "clear-env",
                "watch-bus",
                "no-network",
                "latest-version",
            ],
        ),
        COMMAND,
    ),
    row(
        &["toolbox"],
        gnu("c", &["container=", "distro=", "release="]),
        sub(&["run"], gnu("c", &["container=", "distro=", "release="])),
    ),
    row(
        &["distrobox"],
        Options::NONE,
        Runs::Subcommand {
            names: &["enter", "exec"],
            options: gnu(
                "n",
                &[
                    "name=",
                    "additional-flags=",
                    "no-tty",
                    "no-workdir",
                    "clean-path",
                ],
            ),
            skip: Skip::ToDashDash,
        },
    ),
    row(
        &["lxc", "incus"],
        Options::NONE,
        Runs::Subcommand {
            names: &["exec"],
            options: gnu(
                "",
                &["env=", "cwd=", "user=", "group=", "mode=", "project="],
            ),
            skip: Skip::ToDashDash,
        },
    ),
    // `sort --compress-program=PROG` runs PROG on its temporary files (see `runners`).
    row(
        &["sort"],
        gnu(
            "kotST",
            &[
                "key=",
                "output=",
                "buffer-size=",
                "field-separator=",
                "temporary-directory=",
                "compress-program=",
                "random-source=",
                "sort=",
                "batch-size=",
                "files0-from=",
                "parallel=",
            ],
        ),
        Runs::Own,
    ),
    row(
        &["nix-shell"],
        gnu(
            "pIA",
            &[
                "run=", "command=", "packages", "pure", "arg=", "argstr=", "attr=", "include=",
            ],
        ),
        Runs::ScriptOption('\0', "run|command"),
    ),
    row(
        &["nix"],
        Options::NONE,
        Runs::Subcommand {
            names: &["develop", "shell"],
            options: Options::NONE,
            skip: Skip::ToDashDash,
        },
    ),
    // Watchers and multiplexers run their operands as a shell script.
    row(
        &["watchexec"],
        gnu(
            "wefisdE",
            &[
                "watch=",
                "exts=",
                "filter=",
                "ignore=",
                "signal=",
                "debounce=",
                "shell=",
                "env=",
                "workdir=",
                "restart",
                "clear",
                "postpone",
            ],
        ),
        Runs::Script,
    ),
    row(&["entr"], Options::NONE, Runs::Script),
    // Multiplexers and schedulers: the command runs later or in another terminal.
    row(
        &["tmux", "screen", "at", "batch", "run-parts"],
        Options::NONE,
        Runs::Own,
    ),
];
