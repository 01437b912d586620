//! `logrotate [options] CONFIG...`: every log file a configuration names is rotated, its
//! text moved away or cut to nothing (`copytruncate`) and old copies deleted (`rotate 0`
//! keeps none), and the scripts the configuration holds (`postrotate` ... `endscript`)
//! run with `sh -c`. Read from a configuration the line wrote or the host holds; `-d`
//! (a dry run) changes nothing.

use crate::matcher::shell::SimpleCommand;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader};

use super::{file_text, shell_c};

/// The directives whose following lines, up to `endscript`, are a shell script.
const SCRIPTS: &[&str] = &[
    "postrotate",
    "prerotate",
    "firstaction",
    "lastaction",
    "preremove",
];

pub(super) fn logrotate(r: &mut Reader, args: &[Field], stdin: &Data) -> Data {
    if args.iter().any(|a| a.text == "-d" || a.text == "--debug") {
        return Data::Unknown;
    }
    let mut configs = Vec::new();
    let mut k = 0;
    while let Some(a) = args.get(k) {
        match a.text.as_str() {
            "-s" | "--state" | "-l" | "--log" => k += 1,
            // The program that mails rotated logs.
            "-m" | "--mail" => {
                if let Some(program) = args.get(k + 1) {
                    r.run(vec![program.clone()], &Io::default(), Data::Nothing, &[]);
                }
                k += 1;
            }
            t if t.starts_with('-') => {}
            _ => configs.push(a),
        }
        k += 1;
    }
    for config in configs {
        match file_text(r, &config.text, config.unknown, stdin) {
            Some(Data::Known(text)) => rotate(r, &text),
            Some(Data::Nothing) | None => {}
            Some(_) => r.unreadable("logrotate reads a configuration not known before it runs"),
        }
    }
    Data::Unknown
}

/// What one configuration does: each log file it names cut to nothing (as rotated away),
/// each script it holds run.
fn rotate(r: &mut Reader, text: &str) {
    let mut script: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(body) = script.as_mut() {
            if trimmed == "endscript" {
                let body = std::mem::take(body);
                script = None;
                shell_c(r, &body);
            } else {
                body.push_str(line);
                body.push('\n');
            }
            continue;
        }
        let first = trimmed.split_whitespace().next().unwrap_or_default();
        if SCRIPTS.contains(&first) {
            script = Some(String::new());
        } else if first == "include" {
            r.unreadable("logrotate includes configurations not read here");
        } else if first.starts_with(['/', '~', '"', '\'']) {
            let paths = trimmed
                .split_whitespace()
                .take_while(|w| *w != "{")
                .map(|w| w.trim_matches(['"', '\'']).trim_end_matches('{'))
                .filter(|w| !w.is_empty());
            for path in paths {
                r.record(SimpleCommand::implied(
                    "truncate",
                    vec!["-s".to_owned(), "0".to_owned(), path.to_owned()],
                    Some("rotated by logrotate".to_owned()),
                ));
            }
        }
    }
    if script.is_some() {
        r.unreadable("a logrotate script has no endscript");
    }
}
