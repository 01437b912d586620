//! What git runs because of its configuration or environment: keys whose value is a
//! command (`-c core.pager=...`, `GIT_CONFIG_KEY_<n>` pairs, `GIT_SSH_COMMAND`), and the
//! programs a transfer runs on the other side.

use super::super::code_value;
use crate::matcher::shell::env::Value;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader};

/// Configuration keys whose value git runs as a shell command.
pub(super) fn git_runs(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key.starts_with("alias.")
        || key.starts_with("filter.")
        || key.starts_with("diff.") && (key.ends_with(".command") || key.ends_with(".textconv"))
        || key.starts_with("merge.") && key.ends_with(".driver")
        || key.starts_with("credential") && key.ends_with("helper")
        || key.ends_with(".cmd")
        || key.ends_with("cmd") && key.starts_with("sendemail.")
        || key.ends_with(".command") && key.starts_with("trailer.")
        || key.ends_with(".path") && key.starts_with("difftool.")
        || matches!(
            key.as_str(),
            "core.fsmonitor"
                | "core.sshcommand"
                | "core.pager"
                | "core.editor"
                | "core.askpass"
                | "core.gitproxy"
                | "core.hookspath"
                | "sequence.editor"
                | "gpg.program"
                | "gpg.ssh.program"
                | "gpg.x509.program"
                | "diff.external"
                | "pager.log"
                | "pager.diff"
                | "pager.show"
                | "uploadpack.packobjectshook"
                | "gpg.ssh.defaultkeycommand"
                | "core.alternaterefscommand"
                | "imap.tunnel"
                | "sendemail.smtpserver"
                | "web.browser"
                | "ssh.variant"
                | "protocol.ext.allow"
                | "remote.origin.uploadpack"
                | "remote.origin.receivepack"
        )
        || key.starts_with("pager.")
        || key.starts_with("remote.")
            && (key.ends_with(".uploadpack")
                || key.ends_with(".receivepack")
                || key.ends_with(".proxy"))
}

/// The programs a transfer runs on the other side (`--upload-pack`, `--receive-pack`,
/// `--exec`, clone's `-u`), which for a local or `ext::` remote run here, by the shell:
/// `git clone --upload-pack='rm -rf ~;git-upload-pack' . x`.
pub(super) fn remote_programs(r: &mut Reader, sub: &str, rest: &[String]) {
    const OPTIONS: [&str; 3] = ["--upload-pack", "--receive-pack", "--exec"];
    let mut j = 0;
    while let Some(a) = rest.get(j) {
        if OPTIONS.contains(&a.as_str()) || (a == "-u" && sub == "clone") {
            j += 1;
            if let Some(program) = rest.get(j) {
                code_value(r, Value::Known(program.clone()));
            }
        } else if let Some(program) = a
            .split_once('=')
            .filter(|(o, _)| OPTIONS.contains(o))
            .map(|(_, v)| v)
        {
            code_value(r, Value::Known(program.to_owned()));
        }
        j += 1;
    }
}

/// git with configuration given by `GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>` pairs, read
/// as the same git given `-c KEY=VALUE` for each pair.
pub(super) fn git_with_environment_config(
    r: &mut Reader,
    args: &[Field],
    env: &[(String, Value)],
    stdin: &Data,
) -> Data {
    let mut fields = vec![Field::literal("git")];
    let mut rest = Vec::new();
    for (name, value) in env {
        if let Some(n) = name.strip_prefix("GIT_CONFIG_KEY_") {
            let paired = format!("GIT_CONFIG_VALUE_{n}");
            let pair = env.iter().find(|(other, _)| *other == paired);
            match (value, pair) {
                (Value::Known(key), Some((_, Value::Known(value)))) => {
                    fields.push(Field::literal("-c"));
                    fields.push(Field::literal(&format!("{key}={value}")));
                }
                _ => r.unreadable("git's configuration comes from the environment"),
            }
        } else if !name.starts_with("GIT_CONFIG_VALUE_") && name != "GIT_CONFIG_COUNT" {
            rest.push((name.clone(), value.clone()));
        }
    }
    fields.extend(args.iter().cloned());
    r.run(fields, &Io::default(), stdin.clone(), &rest)
}

/// Whether git reads `value` as boolean false.
pub(super) fn git_false(value: &str) -> bool {
    matches!(
        value.to_ascii_lowercase().as_str(),
        "" | "false" | "no" | "off" | "0" | "never"
    )
}

/// Environment variables whose value git runs as a command (`SSH_ASKPASS`, which any
/// program may run, is read for every program: `runners::environment`).
pub(super) const GIT_ENV: &[&str] = &[
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_ASKPASS",
    "GIT_PROXY_COMMAND",
    "GIT_SEQUENCE_EDITOR",
    "PAGER",
    "EDITOR",
    "VISUAL",
];
