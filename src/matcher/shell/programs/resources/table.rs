//! The rows of the resource table: for each tool, its options that take a value, how its
//! subcommand path continues, the verbs its options or name imply, and the options that
//! make it change nothing. Read by `super` (the module comment says how).

use super::super::super::options::Options;

/// How a tool's subcommand path continues past its first word.
#[derive(Debug, Clone, Copy)]
pub(super) enum Groups {
    /// Past the words listed (`docker volume rm`: `volume`), up to the depth.
    Listed(&'static [&'static str]),
    /// Past every word up to the depth, stopping after a read-only verb (`gcloud compute
    /// instances describe vm`: the operand `vm` is not read). For the deep cloud CLIs,
    /// whose groups are too many to list.
    Deep,
}

/// When a row of [`Imply`] applies.
#[derive(Debug, Clone, Copy)]
pub(super) enum When {
    /// Always, on this path.
    Always,
    /// With the option `--long` (or `-long` for Go-style tools), or the short letter.
    Flag(&'static str, Option<char>),
    /// When the arguments pass this test (`kill -9 -1`).
    Check(fn(&[String]) -> bool),
}

/// A verb the tool's options or name imply on a subcommand path.
#[derive(Debug, Clone, Copy)]
pub(super) struct Imply {
    /// The path it applies on: a prefix of the command's path (empty: any path).
    pub(super) path: &'static [&'static str],
    pub(super) when: When,
    pub(super) verb: &'static str,
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub(super) struct Resource {
    pub(super) names: &'static [&'static str],
    /// Options before and between subcommand words: which take a value.
    pub(super) options: Options,
    /// Long options are written with one dash (`-auto-approve`), as Go's `flag` reads them.
    pub(super) go_style: bool,
    /// Most subcommand words read.
    pub(super) depth: usize,
    pub(super) groups: Groups,
    pub(super) implies: &'static [Imply],
    /// Options after which the command changes nothing (`--dry-run`, `--help`), as
    /// `(long, short)`; a value that reads as false (`--dry-run=none`) does not count.
    pub(super) inert: &'static [(&'static str, Option<char>)],
}

/// Words that end a [`Groups::Deep`] path: what follows them is an operand.
pub(super) const READ_ONLY: &[&str] = &[
    "cat", "describe", "diff", "explain", "get", "help", "history", "images", "info", "inspect",
    "list", "ls", "plan", "print", "ps", "read", "search", "show", "status", "tail", "top",
    "version", "view", "whoami",
];

const fn opts(
    short_with_value: &'static str,
    long: &'static [&'static str],
    abbreviations: bool,
) -> Options {
    Options {
        short_with_value,
        long,
        abbreviations,
    }
}

const fn flag(
    path: &'static [&'static str],
    long: &'static str,
    short: Option<char>,
    verb: &'static str,
) -> Imply {
    Imply {
        path,
        when: When::Flag(long, short),
        verb,
    }
}

const fn always(path: &'static [&'static str], verb: &'static str) -> Imply {
    Imply {
        path,
        when: When::Always,
        verb,
    }
}

const HELP: (&str, Option<char>) = ("help", None);
const HELP_H: (&str, Option<char>) = ("help", Some('h'));
const DRY_RUN: (&str, Option<char>) = ("dry-run", None);

// ------------------------------------------------------------------------------------------
// Option lists shared by several rows.

/// kubectl's and oc's global flags that take a value (`kubectl options`).
const KUBECTL_OPTIONS: Options = opts(
    "nsl",
    &[
        "namespace=",
        "context=",
        "cluster=",
        "user=",
        "kubeconfig=",
        "server=",
        "token=",
        "as=",
        "as-group=",
        "as-uid=",
        "certificate-authority=",
        "client-certificate=",
        "client-key=",
        "request-timeout=",
        "tls-server-name=",
        "cache-dir=",
        "profile=",
        "profile-output=",
        "log-file=",
        "log-dir=",
        "v=",
        "vmodule=",
        "selector=",
        "output=",
        "filename=",
        "all-namespaces",
        "insecure-skip-tls-verify",
        "match-server-version",
        // Options of the subcommands that guard or do deletes, so that a dry run after
        // them is read as one (see `has_flag`).
        "grace-period=",
        "timeout=",
        "field-manager=",
        "pod-selector=",
        "all",
        "force",
        "now",
        "wait",
        "ignore-not-found",
        "recursive",
        "cascade",
        "prune",
        "server-side",
        "force-conflicts",
        "overwrite",
        "ignore-daemonsets",
        "delete-emptydir-data",
        "disable-eviction",
    ],
    false,
);

/// docker's, podman's and nerdctl's global flags, and `docker compose`'s.
const DOCKER_OPTIONS: Options = opts(
    "cHlfp",
    &[
        "config=",
        "context=",
        "host=",
        "log-level=",
        "tlscacert=",
        "tlscert=",
        "tlskey=",
        "file=",
        "project-name=",
        "project-directory=",
        "profile=",
        "env-file=",
        "ansi=",
        "parallel=",
        "progress=",
        "namespace=",
        "address=",
        "connection=",
        "identity=",
        "url=",
        "root=",
        "runroot=",
        "storage-driver=",
        "cgroup-manager=",
        "tls",
        "tlsverify",
        "debug",
        "remote",
    ],
    false,
);

const DOCKER_GROUPS: &[&str] = &[
    "builder",
    "buildx",
    "checkpoint",
    "compose",
    "config",
    "container",
    "context",
    "image",
    "manifest",
    "network",
    "node",
    "plugin",
    "pod",
    "secret",
    "service",
    "stack",
    "swarm",
    "system",
    "trust",
    "volume",
    "machine",
];

const DOCKER_IMPLIES: &[Imply] = &[
    // Volumes hold the data no image has.
    always(&["volume", "rm"], "delete"),
    always(&["volume", "remove"], "delete"),
    always(&["volume", "prune"], "delete"),
    flag(&["rm"], "force", Some('f'), "force"),
    flag(&["rmi"], "force", Some('f'), "force"),
    flag(&["container", "rm"], "force", Some('f'), "force"),
    flag(&["container", "remove"], "force", Some('f'), "force"),
    flag(&["image", "rm"], "force", Some('f'), "force"),
    flag(&["image", "remove"], "force", Some('f'), "force"),
    flag(&["volume", "rm"], "force", Some('f'), "force"),
    flag(&["volume", "remove"], "force", Some('f'), "force"),
    flag(&["pod", "rm"], "force", Some('f'), "force"),
    flag(&["compose", "down"], "volumes", Some('v'), "delete"),
    flag(&["compose", "rm"], "volumes", Some('v'), "delete"),
    flag(&["system", "prune"], "volumes", None, "delete"),
    flag(&["system", "prune"], "all", Some('a'), "all"),
    flag(&["image", "prune"], "all", Some('a'), "all"),
    flag(&["volume", "prune"], "all", Some('a'), "all"),
];

/// The leading options of `aws` (`aws help topics`); any may also come later.
const AWS_OPTIONS: Options = opts(
    "",
    &[
        "profile=",
        "region=",
        "output=",
        "query=",
        "endpoint-url=",
        "ca-bundle=",
        "cli-read-timeout=",
        "cli-connect-timeout=",
        "cli-binary-format=",
        "color=",
        "debug",
        "no-verify-ssl",
        "no-paginate",
        "no-sign-request",
        "no-cli-pager",
        "cli-auto-prompt",
        "no-cli-auto-prompt",
        // `aws s3` options, so that a dry run after them is read as one.
        "recursive",
        "dryrun",
        "quiet",
        "exclude=",
        "include=",
        "delete",
        "exact-timestamps",
        "size-only",
        "human-readable",
        "summarize",
        "force",
        "only-show-errors",
        "no-progress",
        "acl=",
        "storage-class=",
        "dry-run",
    ],
    true,
);

const GCLOUD_OPTIONS: Options = opts(
    "",
    &[
        "project=",
        "account=",
        "configuration=",
        "billing-project=",
        "impersonate-service-account=",
        "access-token-file=",
        "flatten=",
        "format=",
        "verbosity=",
        "trace-token=",
        "region=",
        "zone=",
        "quiet",
        "log-http",
        "user-output-enabled",
        "help",
    ],
    false,
);

const AZ_OPTIONS: Options = opts(
    "ogn",
    &[
        "subscription=",
        "output=",
        "query=",
        "resource-group=",
        "name=",
        "debug",
        "verbose",
        "only-show-errors",
        "yes",
    ],
    false,
);

/// Cobra-style tools with no global option that takes a value worth listing: their
/// unlisted options are read as possibly taking one (see the module comment).
const NO_OPTIONS: Options = opts("", &[], false);

/// Options of GNU-style tools with abbreviations (systemctl, iptables), per row.
const SYSTEMCTL_OPTIONS: Options = opts(
    "tspHMnoP",
    &[
        "type=",
        "state=",
        "property=",
        "signal=",
        "kill-whom=",
        "kill-value=",
        "what=",
        "host=",
        "machine=",
        "lines=",
        "output=",
        "root=",
        "image=",
        "image-policy=",
        "job-mode=",
        "preset-mode=",
        "boot-loader-entry=",
        "boot-loader-menu=",
        "reboot-argument=",
        "timestamp=",
        "message=",
        "when=",
        "drop-in=",
        "user",
        "system",
        "global",
        "now",
        "force",
        "no-pager",
        "no-legend",
        "no-block",
        "no-wall",
        "quiet",
        "all",
        "full",
        "runtime",
        "dry-run",
        "help",
        "version",
    ],
    true,
);

const IPTABLES_OPTIONS: Options = opts(
    "tADIRNEPjgiosdpmwcW",
    &[
        "table=",
        "append=",
        "check=",
        "delete=",
        "insert=",
        "replace=",
        "list",
        "list-rules",
        "flush",
        "zero",
        "new-chain=",
        "delete-chain",
        "policy=",
        "rename-chain=",
        "jump=",
        "goto=",
        "in-interface=",
        "out-interface=",
        "source=",
        "destination=",
        "protocol=",
        "match=",
        "wait=",
        "numeric",
        "verbose",
        "line-numbers",
        "exact",
        "help",
    ],
    true,
);

// ------------------------------------------------------------------------------------------
// Checks of arguments for rows that need more than a flag.

/// `kill` with the process id `-1`: every process the user may signal. The first argument
/// that starts with `-` is the signal (`kill -1 123` sends SIGHUP to 123), unless it is `-s`
/// or `-n` with the signal in the next word, or `--`.
fn kills_all(args: &[String]) -> bool {
    let rest = match args.first().map(String::as_str) {
        Some("-s" | "-n" | "--signal") => args.get(2..).unwrap_or_default(),
        Some(a) if a.starts_with('-') => &args[1..],
        _ => args,
    };
    rest.iter().any(|a| a == "-1")
}

/// `pkill`/`killall` with a pattern that names every process (`.`, `.*`, `''`).
fn kills_every_name(args: &[String]) -> bool {
    args.iter()
        .filter(|a| !a.starts_with('-'))
        .any(|a| matches!(a.as_str(), "." | ".*" | "" | "^" | ".+"))
}

/// `dd` from an endless source (`if=/dev/zero`, `/dev/urandom`, `/dev/random`) with no
/// `count=`: it writes until what it writes to is full. Onto `/dev/null` it only burns time.
fn fills_until_full(args: &[String]) -> bool {
    /// What fills a disk as surely as no end: 100 GiB (as `fallocate -l 100G` is read).
    const FILLS: u128 = 100 << 30;
    let endless = ["if=/dev/zero", "if=/dev/urandom", "if=/dev/random"];
    let value = |key: &str| args.iter().rev().find_map(|a| a.strip_prefix(key));
    let block = value("obs=").or(value("bs=")).map_or(Some(512), dd_size);
    // `iflag=count_bytes` counts bytes, not blocks.
    let bytes = args
        .iter()
        .any(|a| a.starts_with("iflag=") && a.contains("count_bytes"));
    let written = match value("count=").map(dd_size) {
        None => None,
        Some(Some(count)) if bytes => Some(count),
        Some(Some(count)) => block.map(|b| b.saturating_mul(count)),
        Some(None) => Some(0),
    };
    args.iter().any(|a| endless.contains(&a.as_str()))
        && !args.iter().any(|a| a == "of=/dev/null")
        && written.is_none_or(|w| w >= FILLS)
}

/// A size as dd reads it: a number with an optional multiplier (`c` 1, `w` 2, `b` 512,
/// `kB` 1000, `K` or `KiB` 1024, up to `E`), or a product of such (`1Mx1024`).
fn dd_size(text: &str) -> Option<u128> {
    text.split('x').try_fold(1u128, |product, part| {
        let digits = part
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(part.len());
        let number: u128 = part[..digits].parse().ok()?;
        let unit = &part[digits..];
        let power = |p: u32, base: u128| base.checked_pow(p);
        let multiplier = match unit {
            "" | "c" => Some(1),
            "w" => Some(2),
            "b" => Some(512),
            _ => {
                let letter = unit.chars().next()?;
                let exp = "KMGTPE".find(letter.to_ascii_uppercase())? as u32 + 1;
                match &unit[1..] {
                    "B" => power(exp, 1000),
                    "" | "iB" => power(exp, 1024),
                    _ => None,
                }
            }
        }?;
        product.checked_mul(number)?.checked_mul(multiplier)
    })
}

/// `crontab FILE` or `crontab -` (without `-l`, `-e`, `-r`): the file replaces the whole
/// crontab.
fn replaces_crontab(args: &[String]) -> bool {
    let mut i = 0;
    let mut operand = false;
    while let Some(a) = args.get(i) {
        match a.as_str() {
            "-u" => i += 1,
            "-l" | "-e" | "-r" | "-i" => return false,
            "-" => operand = true,
            a if a.starts_with('-') => {}
            _ => operand = true,
        }
        i += 1;
    }
    operand
}

/// `doppler secrets ...` without `--only-names`.
fn prints_values(args: &[String]) -> bool {
    !args.iter().any(|a| a == "--only-names")
}

/// `iptables-restore`, unless `--noflush`/`-n`: the tables it loads are flushed first.
fn restore_flushes(args: &[String]) -> bool {
    !args
        .iter()
        .any(|a| a == "--noflush" || a.starts_with('-') && !a.starts_with("--") && a.contains('n'))
}

// ------------------------------------------------------------------------------------------

/// The table. Names are the programs' file names; each appears in one row.
pub(super) static RESOURCES: &[Resource] = &[
    // --- cloud CLIs ---
    Resource {
        names: &["aws"],
        options: AWS_OPTIONS,
        go_style: false,
        depth: 2,
        groups: Groups::Deep,
        implies: &[
            flag(&["s3", "sync"], "delete", None, "delete"),
            flag(&["s3", "rm"], "recursive", None, "all"),
            flag(&["s3", "rb"], "force", None, "all"),
        ],
        inert: &[("dryrun", None), DRY_RUN, HELP],
    },
    Resource {
        names: &["gcloud"],
        options: GCLOUD_OPTIONS,
        go_style: false,
        depth: 5,
        groups: Groups::Deep,
        implies: &[
            flag(
                &["storage", "rsync"],
                "delete-unmatched-destination-objects",
                None,
                "delete",
            ),
            flag(&["storage", "rm"], "recursive", Some('r'), "all"),
        ],
        inert: &[HELP, DRY_RUN],
    },
    Resource {
        names: &["gsutil"],
        options: opts("ohu", &[], false),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&[
            "iam",
            "acl",
            "defacl",
            "notification",
            "retention",
            "label",
            "lifecycle",
            "versioning",
            "web",
            "cors",
            "logging",
            "kms",
        ]),
        implies: &[
            flag(&["rsync"], "delete", Some('d'), "delete"),
            flag(&["rm"], "recursive", Some('r'), "all"),
        ],
        inert: &[HELP],
    },
    Resource {
        names: &["az"],
        options: AZ_OPTIONS,
        go_style: false,
        depth: 4,
        groups: Groups::Deep,
        implies: &[],
        inert: &[HELP_H],
    },
    Resource {
        names: &["doctl"],
        options: opts(
            "tcuo",
            &[
                "access-token=",
                "context=",
                "config=",
                "api-url=",
                "output=",
                "format=",
                "trace",
                "verbose",
                "interactive",
            ],
            false,
        ),
        go_style: false,
        depth: 4,
        groups: Groups::Deep,
        implies: &[],
        inert: &[HELP_H],
    },
    Resource {
        names: &[
            "linode-cli",
            "hcloud",
            "vultr-cli",
            "scw",
            "exo",
            "ibmcloud",
            "oci",
        ],
        options: opts(
            "o",
            &[
                "context=",
                "config=",
                "output=",
                "profile=",
                "region=",
                "as-user=",
                "poll-interval=",
            ],
            false,
        ),
        go_style: false,
        depth: 4,
        groups: Groups::Deep,
        implies: &[],
        inert: &[HELP],
    },
    Resource {
        names: &["flyctl", "fly"],
        options: opts("act", &["app=", "config=", "access-token="], false),
        go_style: false,
        depth: 3,
        groups: Groups::Deep,
        implies: &[],
        inert: &[HELP_H],
    },
    Resource {
        names: &[
            "heroku", "vercel", "netlify", "firebase", "wrangler", "railway", "render", "supabase",
            "neonctl",
        ],
        options: opts(
            "atAPS",
            &[
                "app=", "remote=", "token=", "scope=", "project=", "config=", "team=", "env=",
                "cwd=", "account=",
            ],
            false,
        ),
        go_style: false,
        depth: 3,
        groups: Groups::Deep,
        implies: &[],
        inert: &[HELP_H, DRY_RUN],
    },
    // --- object storage and sync ---
    Resource {
        names: &["s3cmd"],
        options: opts(
            "c",
            &[
                "config=",
                "access_key=",
                "secret_key=",
                "host=",
                "host-bucket=",
                "region=",
                "bucket-location=",
            ],
            true,
        ),
        go_style: false,
        depth: 1,
        groups: Groups::Listed(&[]),
        implies: &[
            flag(&["sync"], "delete-removed", None, "delete"),
            flag(&["del"], "recursive", Some('r'), "all"),
            flag(&["rm"], "recursive", Some('r'), "all"),
        ],
        inert: &[("dry-run", Some('n')), HELP_H],
    },
    Resource {
        names: &["mc", "mcli"],
        options: opts(
            "C",
            &[
                "config-dir=",
                "custom-header=",
                "json",
                "debug",
                "insecure",
                "quiet",
            ],
            false,
        ),
        go_style: false,
        depth: 3,
        groups: Groups::Listed(&[
            "admin",
            "alias",
            "ilm",
            "event",
            "version",
            "retention",
            "legalhold",
            "tag",
            "anonymous",
            "policy",
            "user",
            "group",
            "bucket",
            "idp",
            "replicate",
        ]),
        implies: &[
            flag(&["mirror"], "remove", None, "delete"),
            flag(&["rm"], "recursive", Some('r'), "all"),
        ],
        inert: &[("dry-run", None), HELP_H],
    },
    Resource {
        names: &["rclone"],
        options: opts(
            "",
            &[
                "config=",
                "log-file=",
                "log-level=",
                "transfers=",
                "checkers=",
                "bwlimit=",
                "filter=",
                "include=",
                "exclude=",
                "filter-from=",
                "include-from=",
                "exclude-from=",
                "backup-dir=",
                "suffix=",
            ],
            false,
        ),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&["config", "backend"]),
        implies: &[always(&["sync"], "delete"), always(&["bisync"], "delete")],
        inert: &[("dry-run", Some('n')), HELP_H],
    },
    // --- Kubernetes and infrastructure as code ---
    Resource {
        names: &["kubectl", "oc", "kubecolor"],
        options: KUBECTL_OPTIONS,
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&[
            "config",
            "rollout",
            "set",
            "create",
            "auth",
            "certificate",
            "plugin",
            "apply",
            "top",
            "adm",
            "alpha",
        ]),
        implies: &[
            flag(&["delete"], "all", None, "all"),
            flag(&["apply"], "prune", None, "delete"),
            flag(&["replace"], "force", None, "delete"),
        ],
        inert: &[DRY_RUN, HELP_H],
    },
    Resource {
        names: &["helm"],
        options: opts(
            "n",
            &[
                "namespace=",
                "kube-context=",
                "kubeconfig=",
                "kube-apiserver=",
                "kube-as-user=",
                "kube-as-group=",
                "kube-ca-file=",
                "kube-token=",
                "registry-config=",
                "repository-cache=",
                "repository-config=",
                "burst-limit=",
                "qps=",
            ],
            false,
        ),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&[
            "repo",
            "plugin",
            "registry",
            "dependency",
            "dep",
            "get",
            "show",
            "inspect",
            "search",
        ]),
        implies: &[],
        inert: &[DRY_RUN, HELP_H],
    },
    Resource {
        names: &["terraform", "tofu", "terragrunt"],
        options: opts("", &["chdir="], false),
        go_style: true,
        depth: 2,
        groups: Groups::Listed(&["state", "workspace", "providers", "metadata", "run-all"]),
        implies: &[
            flag(&["apply"], "auto-approve", None, "auto-approve"),
            flag(&["destroy"], "auto-approve", None, "auto-approve"),
            flag(&["apply"], "destroy", None, "destroy"),
        ],
        inert: &[HELP_H],
    },
    Resource {
        names: &["pulumi"],
        options: opts(
            "Csv",
            &[
                "cwd=",
                "stack=",
                "color=",
                "logflow",
                "logtostderr",
                "profiling=",
                "tracing=",
                "verbose=",
                "non-interactive",
                "emoji",
                "disable-integrity-checking",
            ],
            false,
        ),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&["stack", "state", "config", "plugin", "policy", "org", "env"]),
        implies: &[
            flag(&["up"], "yes", Some('y'), "auto-approve"),
            flag(&["update"], "yes", Some('y'), "auto-approve"),
            flag(&["destroy"], "yes", Some('y'), "auto-approve"),
            flag(&["refresh"], "yes", Some('y'), "auto-approve"),
        ],
        inert: &[HELP_H],
    },
    // --- containers ---
    Resource {
        names: &["docker", "podman", "nerdctl"],
        options: DOCKER_OPTIONS,
        go_style: false,
        depth: 2,
        groups: Groups::Listed(DOCKER_GROUPS),
        implies: DOCKER_IMPLIES,
        inert: &[HELP],
    },
    Resource {
        names: &["docker-compose", "podman-compose"],
        options: DOCKER_OPTIONS,
        go_style: false,
        depth: 1,
        groups: Groups::Listed(&[]),
        implies: &[
            flag(&["down"], "volumes", Some('v'), "delete"),
            flag(&["rm"], "volumes", Some('v'), "delete"),
        ],
        inert: &[HELP],
    },
    // --- code hosting and package registries ---
    Resource {
        names: &["gh", "glab", "tea"],
        // `gh api -X METHOD`: the method is not a subcommand.
        options: opts("RX", &["repo=", "hostname=", "method="], false),
        go_style: false,
        depth: 2,
        groups: Groups::Deep,
        implies: &[],
        inert: &[HELP],
    },
    Resource {
        names: &["npm", "pnpm", "yarn", "bun"],
        options: opts(
            "wC",
            &[
                "registry=",
                "otp=",
                "tag=",
                "access=",
                "workspace=",
                "prefix=",
                "userconfig=",
                "cache=",
                "loglevel=",
                "dir=",
                "filter=",
                "cwd=",
                "force",
                "workspaces",
                "ignore-scripts",
                "provenance",
                "json",
                "silent",
                "quiet",
                "verbose",
            ],
            true,
        ),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&[
            "dist-tag",
            "dist-tags",
            "owner",
            "access",
            "team",
            "token",
            "profile",
            "org",
            "npm",
            "pm",
        ]),
        implies: &[],
        inert: &[DRY_RUN, HELP],
    },
    Resource {
        names: &["cargo"],
        options: opts(
            "Zpj",
            &[
                "config=",
                "color=",
                "manifest-path=",
                "registry=",
                "index=",
                "token=",
                "target-dir=",
                "package=",
                "features=",
                "jobs=",
                "allow-dirty",
                "no-verify",
                "locked",
                "frozen",
                "offline",
                "all-features",
                "no-default-features",
                "quiet",
                "verbose",
            ],
            false,
        ),
        go_style: false,
        depth: 1,
        groups: Groups::Listed(&[]),
        implies: &[flag(&["owner"], "remove", Some('r'), "remove-owner")],
        inert: &[("dry-run", Some('n')), HELP_H],
    },
    // `flutter pub publish`, `dart pub publish` (`--dry-run` changes nothing).
    Resource {
        names: &["flutter", "dart"],
        options: opts("", &["verbose", "suppress-analytics"], false),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&["pub"]),
        implies: &[],
        inert: &[("dry-run", Some('n')), HELP_H],
    },
    Resource {
        names: &["twine", "gem", "poetry", "flit", "hatch", "uv"],
        options: opts(
            "rup",
            &[
                "repository=",
                "repository-url=",
                "username=",
                "password=",
                "config-file=",
                "host=",
                "key=",
                "otp=",
                "directory=",
            ],
            false,
        ),
        go_style: false,
        depth: 1,
        groups: Groups::Listed(&[]),
        implies: &[flag(&["owner"], "remove", Some('r'), "remove-owner")],
        inert: &[HELP_H, DRY_RUN],
    },
    // --- secrets managers ---
    Resource {
        names: &["vault", "bao"],
        options: opts(
            "",
            &[
                "address=",
                "namespace=",
                "ns=",
                "format=",
                "field=",
                "mount=",
                "output-curl-string",
                "agent-address=",
                "ca-cert=",
                "client-cert=",
                "client-key=",
                "wrap-ttl=",
            ],
            false,
        ),
        go_style: true,
        depth: 3,
        groups: Groups::Listed(&[
            "kv",
            "secrets",
            "auth",
            "policy",
            "token",
            "lease",
            "operator",
            "audit",
            "plugin",
            "namespace",
            "metadata",
            "transit",
            "pki",
            "raft",
            "identity",
        ]),
        implies: &[
            always(&["kv", "get"], "reveal"),
            always(&["read"], "reveal"),
        ],
        inert: &[HELP_H],
    },
    Resource {
        names: &["op"],
        options: opts(
            "",
            &[
                "account=",
                "config=",
                "encoding=",
                "format=",
                "session=",
                "vault=",
            ],
            false,
        ),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&[
            "item",
            "vault",
            "document",
            "user",
            "group",
            "connect",
            "account",
            "service-account",
            "plugin",
            "events-api",
            "whoami",
        ]),
        implies: &[
            always(&["read"], "reveal"),
            always(&["inject"], "reveal"),
            flag(&["item", "get"], "reveal", None, "reveal"),
            flag(&["item", "get"], "fields", None, "reveal"),
            always(&["document", "get"], "reveal"),
        ],
        inert: &[HELP_H],
    },
    Resource {
        names: &["doppler"],
        options: opts(
            "pc",
            &[
                "project=",
                "config=",
                "token=",
                "scope=",
                "api-host=",
                "configuration=",
            ],
            false,
        ),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&[
            "secrets",
            "configs",
            "environments",
            "projects",
            "configure",
            "integrations",
            "activity",
            "me",
            "settings",
            "workplace",
        ]),
        // `doppler secrets` (and its `get`, `download`, `set`) prints values unless told
        // to print only the names.
        implies: &[Imply {
            path: &["secrets"],
            when: When::Check(prints_values),
            verb: "reveal",
        }],
        inert: &[HELP_H],
    },
    // --- backups ---
    Resource {
        names: &["restic"],
        options: opts(
            "r",
            &[
                "repo=",
                "repository-file=",
                "password-file=",
                "password-command=",
                "cache-dir=",
                "key-hint=",
                "limit-download=",
                "limit-upload=",
                "option=",
                "tls-client-cert=",
                "cacert=",
                "keep-last=",
                "keep-hourly=",
                "keep-daily=",
                "keep-weekly=",
                "keep-monthly=",
                "keep-yearly=",
                "keep-within=",
                "keep-tag=",
                "host=",
                "tag=",
                "path=",
                "group-by=",
                "max-unused=",
                "prune",
                "compact",
                "verbose",
                "quiet",
                "json",
                "no-lock",
            ],
            false,
        ),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&["key", "cache", "self-update"]),
        implies: &[flag(&["forget"], "prune", None, "prune")],
        inert: &[("dry-run", Some('n')), HELP_H],
    },
    Resource {
        names: &["borg", "borgmatic", "kopia", "duplicity"],
        options: opts(
            "",
            &[
                "remote-path=",
                "rsh=",
                "lock-wait=",
                "umask=",
                "upload-ratelimit=",
                "config=",
                "password=",
            ],
            false,
        ),
        go_style: false,
        depth: 2,
        groups: Groups::Listed(&[
            "key",
            "snapshot",
            "repository",
            "repo",
            "policy",
            "maintenance",
            "blob",
        ]),
        implies: &[],
        inert: &[("dry-run", Some('n')), HELP_H],
    },
    // --- the host: services, schedules, firewall, processes, power ---
    Resource {
        names: &["systemctl"],
        options: SYSTEMCTL_OPTIONS,
        go_style: false,
        depth: 1,
        groups: Groups::Listed(&[]),
        implies: &[],
        inert: &[HELP_H, DRY_RUN],
    },
    Resource {
        names: &["service"],
        options: NO_OPTIONS,
        go_style: false,
        depth: 2,
        groups: Groups::Deep,
        implies: &[],
        inert: &[HELP_H],
    },
    Resource {
        names: &["dd"],
        options: opts("", &[], false),
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[Imply {
            path: &[],
            when: When::Check(fills_until_full),
            verb: "fill",
        }],
        inert: &[],
    },
    Resource {
        names: &["crontab"],
        options: opts("u", &[], false),
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[
            flag(&[], "remove", Some('r'), "remove"),
            Imply {
                path: &[],
                when: When::Check(replaces_crontab),
                verb: "replace",
            },
        ],
        inert: &[],
    },
    Resource {
        names: &[
            "iptables",
            "ip6tables",
            "iptables-nft",
            "iptables-legacy",
            "ebtables",
            "arptables",
        ],
        options: IPTABLES_OPTIONS,
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[
            flag(&[], "flush", Some('F'), "flush"),
            flag(&[], "delete-chain", Some('X'), "delete"),
            flag(&[], "delete", Some('D'), "delete"),
            flag(&[], "policy", Some('P'), "policy"),
        ],
        inert: &[HELP_H],
    },
    Resource {
        names: &["iptables-restore", "ip6tables-restore"],
        options: opts(
            "MTW",
            &["modprobe=", "table=", "wait=", "wait-interval="],
            true,
        ),
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[Imply {
            path: &[],
            when: When::Check(restore_flushes),
            verb: "flush",
        }],
        inert: &[HELP_H, ("test", Some('t'))],
    },
    Resource {
        names: &["nft", "ufw", "firewall-cmd"],
        options: opts(
            "fIDT",
            &["file=", "includepath=", "define=", "table=", "zone="],
            true,
        ),
        go_style: false,
        depth: 2,
        groups: Groups::Deep,
        implies: &[],
        inert: &[("dry-run", None), HELP_H],
    },
    Resource {
        names: &["kill"],
        options: NO_OPTIONS,
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[Imply {
            path: &[],
            when: When::Check(kills_all),
            verb: "all",
        }],
        inert: &[],
    },
    Resource {
        names: &["pkill", "killall"],
        options: opts(
            "sugUGPtF",
            &[
                "signal=",
                "euid=",
                "uid=",
                "group=",
                "parent=",
                "terminal=",
                "pidfile=",
                "user=",
            ],
            false,
        ),
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[Imply {
            path: &[],
            when: When::Check(kills_every_name),
            verb: "all",
        }],
        inert: &[],
    },
    Resource {
        names: &["killall5"],
        options: NO_OPTIONS,
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[always(&[], "all")],
        inert: &[],
    },
    Resource {
        names: &["reboot"],
        options: NO_OPTIONS,
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[always(&[], "reboot")],
        inert: &[HELP],
    },
    Resource {
        names: &["shutdown"],
        options: NO_OPTIONS,
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[always(&[], "shutdown")],
        // `shutdown -c` cancels a pending shutdown.
        inert: &[HELP, ("cancel", Some('c'))],
    },
    Resource {
        names: &["halt", "poweroff"],
        options: NO_OPTIONS,
        go_style: false,
        depth: 0,
        groups: Groups::Listed(&[]),
        implies: &[always(&[], "halt"), always(&[], "poweroff")],
        inert: &[HELP],
    },
    Resource {
        names: &["init", "telinit"],
        options: NO_OPTIONS,
        go_style: false,
        depth: 1,
        groups: Groups::Listed(&[]),
        implies: &[always(&["0"], "poweroff"), always(&["6"], "reboot")],
        inert: &[HELP],
    },
];
