//! The host: services, schedules, the firewall, processes and power, with the checks of
//! arguments its rows need beyond a flag.

use super::super::super::super::options::Options;
use super::{DRY_RUN, Groups, HELP, HELP_H, Imply, NO_OPTIONS, Resource, When, always, flag, opts};

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
pub(super) fn prints_values(args: &[String]) -> bool {
    !args.iter().any(|a| a == "--only-names")
}

/// `iptables-restore`, unless `--noflush`/`-n`: the tables it loads are flushed first.
fn restore_flushes(args: &[String]) -> bool {
    !args
        .iter()
        .any(|a| a == "--noflush" || a.starts_with('-') && !a.starts_with("--") && a.contains('n'))
}

/// The rows of this kind.
pub(super) const HOST: &[Resource] = &[
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
