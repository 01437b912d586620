//! The program table, as reviewed data: for each program that runs other commands or code,
//! how it reads its options and which operand is the command; and the programs where an
//! argument the reader cannot know changes what the program does.
//!
//! Option lists follow each program's own manual (GNU coreutils, util-linux, sudo, ...).
//! A program not listed here runs nothing else, as far as the reader knows.

use super::super::options::Options;

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

/// Programs that run a command, a script or code.
pub(super) static PROGRAMS: &[Program] = &[
    row(
        &[
            "sh",
            "bash",
            "zsh",
            "dash",
            "ksh",
            "ash",
            "mksh",
            "yash",
            "rbash",
            "posh",
            "busybox-sh",
            "csh",
            "tcsh",
            "osh",
        ],
        gnu(
            "oO",
            &[
                "rcfile=",
                "init-file=",
                "norc",
                "noprofile",
                "login",
                "posix",
                "restricted",
                "verbose",
                "debugger",
                "dump-strings",
                "noediting",
                "pretty-print",
                "help",
                "version",
            ],
        ),
        Runs::Shell,
    ),
    row(
        &["fish"],
        gnu(
            "cC",
            &[
                "command=",
                "init-command=",
                "login",
                "interactive",
                "private",
                "no-config",
                "no-execute",
            ],
        ),
        Runs::Own,
    ),
    row(&["eval"], Options::NONE, Runs::Script),
    row(
        &["watch"],
        gnu(
            "nd",
            &[
                "interval=",
                "differences",
                "chgexit",
                "equexit=",
                "errexit",
                "beep",
                "color",
                "exec",
                "no-title",
                "precise",
                "no-wrap",
                "help",
                "version",
            ],
        ),
        Runs::Own,
    ),
    row(
        &["su"],
        gnu(
            "cgGs",
            &[
                "command=",
                "session-command=",
                "group=",
                "supp-group=",
                "shell=",
                "login",
                "preserve-environment",
                "pty",
                "whitelist-environment=",
            ],
        ),
        Runs::Own,
    ),
    row(
        &["runuser"],
        gnu(
            "cgGsu",
            &[
                "command=",
                "session-command=",
                "group=",
                "supp-group=",
                "shell=",
                "user=",
                "login",
                "preserve-environment",
                "pty",
                "whitelist-environment=",
            ],
        ),
        Runs::Own,
    ),
    row(
        &["script"],
        gnu(
            "cEIOBTm",
            &[
                "command=",
                "echo=",
                "log-in=",
                "log-out=",
                "log-io=",
                "log-timing=",
                "logging-format=",
                "append",
                "flush",
                "force",
                "quiet",
                "return",
                "timing",
            ],
        ),
        Runs::ScriptOption('c', "command"),
    ),
    row(&["sg"], Options::NONE, Runs::Own),
    row(
        &["sudo"],
        gnu(
            "uUgpCDhrtTR",
            &[
                "user=",
                "other-user=",
                "group=",
                "prompt=",
                "close-from=",
                "chdir=",
                "host=",
                "role=",
                "type=",
                "command-timeout=",
                "chroot=",
                "askpass",
                "background",
                "bell",
                "edit",
                "preserve-env",
                "login",
                "non-interactive",
                "preserve-groups",
                "remove-timestamp",
                "reset-timestamp",
                "shell",
                "stdin",
                "validate",
                "list",
            ],
        ),
        Runs::Own,
    ),
    row(&["doas"], Options::short("uC"), Runs::Own),
    row(
        &["pkexec"],
        gnu("", &["user=", "disable-internal-agent", "keep-cwd"]),
        COMMAND,
    ),
    row(
        &["run0"],
        gnu(
            "uDgp",
            &[
                "user=",
                "group=",
                "chdir=",
                "property=",
                "description=",
                "slice=",
                "nice=",
                "setenv=",
                "background=",
                "machine=",
                "unit=",
                "via-shell",
                "no-ask-password",
                "pty",
                "pipe",
            ],
        ),
        COMMAND,
    ),
    row(
        &["env"],
        gnu(
            "uCSPa",
            &[
                "unset=",
                "chdir=",
                "split-string=",
                "argv0=",
                "default-signal=",
                "ignore-signal=",
                "block-signal=",
                "ignore-environment",
                "null",
                "debug",
                "list-signal-handling",
            ],
        ),
        Runs::Own,
    ),
    row(
        &["timeout"],
        gnu(
            "sk",
            &[
                "signal=",
                "kill-after=",
                "foreground",
                "preserve-status",
                "verbose",
            ],
        ),
        AFTER_ONE,
    ),
    row(&["nice"], gnu("n", &["adjustment="]), COMMAND),
    row(
        &[
            "nohup",
            "coproc",
            "fakeroot",
            "unbuffer",
            "torsocks",
            "nocache",
            "rlwrap",
            "catchsegv",
            "tsocks",
            "caffeinate",
            "systemd-inhibit",
        ],
        Options::NONE,
        COMMAND,
    ),
    row(
        &["stdbuf"],
        gnu("ioe", &["input=", "output=", "error="]),
        COMMAND,
    ),
    row(&["setsid"], gnu("", &["ctty", "fork", "wait"]), COMMAND),
    // `systemd-cat -t TAG CMD`: the command's output goes to the journal.
    row(
        &["systemd-cat"],
        gnu(
            "tp",
            &[
                "identifier=",
                "priority=",
                "stderr-priority=",
                "level-prefix=",
                "namespace=",
            ],
        ),
        COMMAND,
    ),
    // `setpriv [--reuid=0 ...] CMD`: the command runs with other ids or capabilities.
    row(
        &["setpriv"],
        gnu(
            "",
            &[
                "reuid=",
                "regid=",
                "ruid=",
                "rgid=",
                "euid=",
                "egid=",
                "groups=",
                "inh-caps=",
                "ambient-caps=",
                "bounding-set=",
                "securebits=",
                "pdeathsig=",
                "selinux-label=",
                "apparmor-profile=",
                "landlock-access=",
                "landlock-rule=",
                "clear-groups",
                "keep-groups",
                "init-groups",
                "reset-env",
                "nnp",
                "no-new-privs",
                "dump",
            ],
        ),
        COMMAND,
    ),
    // `ssh-agent [-a SOCKET] [-t LIFE] ... COMMAND`: the agent runs the command as its child.
    row(
        &["ssh-agent"],
        Options {
            short_with_value: "aEOPt",
            long: &[],
            abbreviations: false,
        },
        COMMAND,
    ),
    // The dynamic loader run as a program runs the program named after its options
    // (`/lib64/ld-linux-x86-64.so.2 /usr/bin/rm -rf ~`).
    row(
        &[
            "ld-linux-x86-64.so.2",
            "ld-linux.so.2",
            "ld-linux-aarch64.so.1",
            "ld-linux-armhf.so.3",
            "ld-musl-x86_64.so.1",
            "ld-musl-aarch64.so.1",
            "ld.so",
        ],
        gnu(
            "",
            &[
                "library-path=",
                "preload=",
                "audit=",
                "argv0=",
                "inhibit-rpath=",
                "inhibit-cache",
            ],
        ),
        COMMAND,
    ),
    row(
        &["ionice"],
        gnu(
            "cnpPu",
            &["class=", "classdata=", "pid=", "pgid=", "uid=", "ignore"],
        ),
        COMMAND,
    ),
    row(
        &["chrt"],
        gnu(
            "T",
            &[
                "sched-runtime=",
                "sched-deadline=",
                "sched-period=",
                "all-tasks",
                "batch",
                "deadline",
                "fifo",
                "idle",
                "other",
                "rr",
                "reset-on-fork",
                "max",
                "pid",
                "verbose",
            ],
        ),
        AFTER_ONE,
    ),
    row(
        &["taskset"],
        gnu("", &["all-tasks", "pid", "cpu-list"]),
        AFTER_ONE,
    ),
    row(
        &["chroot"],
        gnu("", &["userspec=", "groups=", "skip-chdir"]),
        AFTER_ONE,
    ),
    row(
        &["flock"],
        gnu(
            "wEc",
            &[
                "wait=",
                "timeout=",
                "conflict-exit-code=",
                "command=",
                "shared",
                "exclusive",
                "unlock",
                "nonblock",
                "nb",
                "close",
                "no-fork",
                "verbose",
            ],
        ),
        Runs::Own,
    ),
    row(
        &["time"],
        gnu(
            "fo",
            &[
                "format=",
                "output=",
                "append",
                "portability",
                "verbose",
                "quiet",
            ],
        ),
        COMMAND,
    ),
    row(&["builtin", "command"], Options::NONE, Runs::Own),
    row(&["exec"], Options::short("a"), COMMAND),
    row(
        &["xargs"],
        gnu(
            "adEIiLlnPs",
            &[
                "arg-file=",
                "delimiter=",
                "eof=",
                "replace=",
                "max-lines=",
                "max-args=",
                "max-procs=",
                "max-chars=",
                "process-slot-var=",
                "null",
                "no-run-if-empty",
                "interactive",
                "verbose",
                "exit",
                "open-tty",
                "show-limits",
            ],
        ),
        Runs::Own,
    ),
    row(&["find"], Options::NONE, Runs::Own),
    row(&["busybox"], Options::NONE, COMMAND),
    row(
        &["strace"],
        gnu(
            "abeEIoOpPsSuUX",
            &[
                "output=",
                "expr=",
                "attach=",
                "string-limit=",
                "user=",
                "env=",
            ],
        ),
        COMMAND,
    ),
    row(
        &["ltrace"],
        gnu("aeEnopsuw", &["output=", "library="]),
        COMMAND,
    ),
    row(&["valgrind", "gdb", "perf"], Options::NONE, Runs::Own),
    row(
        &["unshare", "nsenter"],
        gnu(
            "tSGwC",
            &[
                "target=",
                "setuid=",
                "setgid=",
                "wd=",
                "root=",
                "mount=",
                "uts=",
                "ipc=",
                "net=",
                "pid=",
                "user=",
                "cgroup=",
                "time=",
                "map-user=",
                "map-group=",
                "propagation=",
                "setgroups=",
            ],
        ),
        COMMAND,
    ),
    row(&["firejail"], Options::NONE, Runs::Own),
    row(
        &["proxychains", "proxychains4"],
        Options::short("f"),
        COMMAND,
    ),
    // Environment and secret runners: the command runs in a project's environment, with a
    // version manager's tools, or with secrets in its environment.
    row(
        &["uv"],
        gnu(
            "",
            &[
                "directory=",
                "project=",
                "config-file=",
                "cache-dir=",
                "color=",
            ],
        ),
        sub(
            &["run"],
            gnu(
                "pw",
                &[
                    "with=",
                    "with-editable=",
                    "with-requirements=",
                    "python=",
                    "package=",
                    "extra=",
                    "group=",
                    "only-group=",
                    "no-group=",
                    "env-file=",
                    "directory=",
                    "project=",
                    "index=",
                    "index-url=",
                    "extra-index-url=",
                    "find-links=",
                    "script",
                    "module",
                ],
            ),
        ),
    ),
    row(
        &[
            "poetry", "pipenv", "pdm", "rye", "hatch", "pixi", "devbox", "bundle", "bundler",
        ],
        gnu(
            "CEP",
            &["directory=", "project=", "environment=", "config="],
        ),
        sub(
            &["run", "exec"],
            gnu("e", &["environment=", "env=", "manifest-path=", "config="]),
        ),
    ),
    row(
        &["conda", "mamba", "micromamba"],
        Options::NONE,
        sub(
            &["run"],
            gnu(
                "np",
                &[
                    "name=",
                    "prefix=",
                    "cwd=",
                    "live-stream",
                    "no-capture-output",
                ],
            ),
        ),
    ),
    row(
        &[
            "asdf", "rbenv", "pyenv", "nodenv", "goenv", "jenv", "fnm", "volta", "proto",
        ],
        Options::NONE,
        sub(
            &["exec", "run"],
            gnu("", &["using=", "node=", "npm=", "yarn=", "pnpm="]),
        ),
    ),
    row(
        &["mise", "rtx"],
        gnu("C", &["cd="]),
        Runs::Subcommand {
            names: &["exec", "x"],
            options: gnu("cj", &["command=", "jobs="]),
            skip: Skip::ToDashDash,
        },
    ),
    row(
        &["direnv"],
        Options::NONE,
        Runs::Subcommand {
            names: &["exec"],
            options: Options::NONE,
            skip: Skip::Operands(1),
        },
    ),
    row(
        &["aws-vault"],
        gnu("", &["backend=", "prompt=", "keychain="]),
        Runs::Subcommand {
            names: &["exec"],
            options: gnu(
                "d",
                &[
                    "duration=",
                    "region=",
                    "mfa-token=",
                    "json",
                    "server",
                    "ec2-server",
                    "ecs-server",
                    "lazy",
                    "no-session",
                    "stdout",
                ],
            ),
            skip: Skip::Operands(1),
        },
    ),
    row(
        &["chamber"],
        Options::NONE,
        Runs::Subcommand {
            names: &["exec"],
            options: gnu("", &["pristine", "strict", "strict-value="]),
            skip: Skip::ToDashDash,
        },
    ),
    row(
        &[
            "op",
            "doppler",
            "infisical",
            "teller",
            "envkey-source",
            "phase",
        ],
        gnu("", &["account=", "config=", "cache", "no-cache"]),
        sub(
            &["run"],
            gnu(
                "cpe",
                &[
                    "env-file=",
                    "environment=",
                    "env=",
                    "project=",
                    "config=",
                    "path=",
                    "token=",
                    "no-masking",
                    "preserve-env",
                    "mount=",
                    "fallback=",
                ],
            ),
        ),
    ),
    row(&["envdir", "envchain", "chpst"], Options::NONE, AFTER_ONE),
    row(&["dotenv"], Options::short("evpc"), COMMAND),
    row(
        &["xvfb-run"],
        gnu(
            "efnpsw",
            &[
                "auto-servernum",
                "error-file=",
                "auth-file=",
                "server-num=",
                "xauth-protocol=",
                "server-args=",
                "wait=",
            ],
        ),
        COMMAND,
    ),
    row(
        &[
            "eatmydata",
            "dbus-run-session",
            "with-contenv",
            "chronic",
            "ifne",
            "pv-run",
        ],
        Options::NONE,
        COMMAND,
    ),
    row(
        &["systemd-run"],
        gnu(
            "upEMH",
            &[
                "unit=",
                "property=",
                "setenv=",
                "machine=",
                "host=",
                "description=",
                "slice=",
                "uid=",
                "gid=",
                "nice=",
                "working-directory=",
                "service-type=",
                "on-active=",
                "on-boot=",
                "on-startup=",
                "on-unit-active=",
                "on-unit-inactive=",
                "on-calendar=",
                "timer-property=",
                "path-property=",
                "socket-property=",
                "user",
                "system",
                "scope",
                "pty",
                "pipe",
                "collect",
                "wait",
                "quiet",
                "same-dir",
                "remain-after-exit",
                "send-sighup",
                "no-block",
                "no-ask-password",
                "shell",
            ],
        ),
        COMMAND,
    ),
    row(&["prlimit"], gnu("po", &["pid=", "output="]), COMMAND),
    // `setarch ARCH [options] CMD`: options may also follow the architecture (see
    // `runners.rs`); its aliases take no architecture.
    row(
        &["setarch"],
        gnu("", &["uname-2.6", "verbose", "list", "help", "version"]),
        Runs::Own,
    ),
    row(
        &["linux32", "linux64", "i386", "x86_64", "uname26"],
        gnu("", &["uname-2.6", "verbose"]),
        COMMAND,
    ),
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

/// Programs where an argument the reader cannot know may change what happens: it could be
/// an option (`-rf`), a path the policy guards, or code. For these, an unknown argument
/// makes the line opaque; for others (`echo "$x"`, `cd "$DIR"`) it does not matter.
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
mod tests {
    use super::*;

    #[test]
    fn each_program_has_one_row_and_is_found_by_every_name() {
        let mut seen = std::collections::HashSet::new();
        for row in PROGRAMS {
            for name in row.names {
                assert!(seen.insert(*name), "`{name}` has two rows");
                assert!(std::ptr::eq(find(name).unwrap(), row), "{name}");
            }
        }
        assert!(find("no-such-program").is_none());
    }
}
