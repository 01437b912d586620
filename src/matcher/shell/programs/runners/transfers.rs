//! File-transfer clients' own commands (`sftp -b`, `smbclient -c`): local files sent, and
//! local shell commands run.

use super::super::super::SimpleCommand;
use super::super::super::expand::Field;
use super::super::super::walk::{Data, Reader};
use super::{file_text, shell_c};

/// `sftp -b FILE` (`-` for standard input): each `put`/`mput` sends a local file, read as
/// `scp FILE` is; `!command` runs a local shell command. A batch not known may send any.
pub(super) fn sftp_batch(r: &mut Reader, t: &[String], stdin: &Data) {
    let batch = t.iter().enumerate().find_map(|(k, a)| match a.as_str() {
        "-b" => t.get(k + 1).cloned(),
        _ => a
            .strip_prefix("-b")
            .filter(|v| !v.is_empty())
            .map(str::to_owned),
    });
    let Some(batch) = batch else { return };
    let text = match file_text(r, &batch, false, stdin) {
        Some(Data::Known(text)) => text,
        None | Some(Data::Nothing) => return,
        Some(_) => return r.unreadable("sftp runs a batch of commands not known before it runs"),
    };
    // Sent to the machine sftp connects to.
    let host = t
        .last()
        .filter(|h| !h.starts_with('-'))
        .map_or("", String::as_str);
    transfer_commands(r, text.lines(), host, "an sftp batch");
}

/// The commands of a file-transfer client (sftp's batch, smbclient's `-c`): `!CMD` runs the
/// shell here, `put`/`mput`/`reput LOCAL` sends LOCAL to `host`, read as `scp LOCAL HOST:`.
fn transfer_commands<'a>(
    r: &mut Reader,
    commands: impl Iterator<Item = &'a str>,
    host: &str,
    origin: &str,
) {
    for line in commands.map(str::trim_start) {
        if let Some(command) = line.strip_prefix('!') {
            shell_c(r, command);
            continue;
        }
        let mut words = line.trim_start_matches(['-', '@']).split_whitespace();
        if let Some("put" | "mput" | "reput") = words.next() {
            let mut files: Vec<String> = words
                .filter(|w| !w.starts_with('-'))
                .take(1)
                .map(str::to_owned)
                .collect();
            files.push(format!("{}:", host.trim_end_matches(':')));
            r.record(SimpleCommand::implied(
                "scp",
                files,
                Some(origin.to_owned()),
            ));
        }
    }
}

/// `smbclient //HOST/SHARE -c 'put .env x; ...'`: its commands, separated by `;`.
pub(super) fn smbclient(r: &mut Reader, args: &[Field]) {
    let host = args
        .iter()
        .find(|a| a.text.starts_with("//"))
        .map_or("", |a| {
            a.text
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or("")
        });
    for (k, a) in args.iter().enumerate() {
        let commands = match a.text.as_str() {
            "-c" | "--command" => args.get(k + 1),
            _ => None,
        };
        if let Some(commands) = commands {
            if commands.unknown {
                r.unreadable("smbclient runs commands not known before the line runs");
            } else {
                transfer_commands(r, commands.text.split(';'), host, "smbclient's commands");
            }
        }
    }
}
