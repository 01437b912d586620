//! Environment and secret runners: the command runs in a project's environment, with a
//! version manager's tools, or with secrets in its environment.

use super::super::super::options::Options;
use super::{AFTER_ONE, COMMAND, Program, Runs, Skip, gnu, row, sub};

/// The rows of this kind, in lookup order.
pub(super) const ENVIRONMENTS: &[Program] = &[
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
];
