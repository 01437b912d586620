//! `ansible HOSTS -m MODULE -a ARGS`: an ad-hoc task, read as the commands it amounts to.
//! They run on the hosts the pattern names; they are read as if run here, since the hosts
//! an agent reaches are this machine (`localhost -c local`) or ones it must not harm
//! either. `shell`, `command` and `raw` run their arguments; `script` runs a local script;
//! `file state=absent` deletes its path; `copy`, `template`, `lineinfile`, `blockinfile`,
//! `replace` and `ini_file` write theirs; `authorized_key` adds to `authorized_keys`;
//! `cron` installs a crontab; `get_url` downloads; `git` clones; `service`/`systemd` with a
//! state stops or restarts a unit. Other modules are not read.

use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader};

/// Reads the task of an `ansible` ad-hoc command.
pub(super) fn ansible(r: &mut Reader, args: &[Field]) {
    let value = |names: &[&str]| {
        args.iter().enumerate().find_map(|(k, a)| {
            names
                .iter()
                .find_map(|n| if a.text == *n { args.get(k + 1) } else { None })
        })
    };
    let Some(module) = value(&["-m", "--module-name"]) else {
        return;
    };
    let arguments = value(&["-a", "--args"]);
    if module.unknown || arguments.is_some_and(|a| a.unknown) {
        r.unreadable("ansible runs a task not known before the line runs");
        return;
    }
    let module = module.text.rsplit('.').next().unwrap_or_default();
    let text = arguments.map_or("", |a| a.text.as_str());
    let pairs = key_values(text);
    let get = |key: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let path = get("path").or_else(|| get("dest")).or_else(|| get("name"));
    let run = |r: &mut Reader, words: &[&str]| {
        let fields = words.iter().map(|w| Field::literal(w)).collect();
        r.run(fields, &Io::default(), Data::Nothing, &[]);
    };
    match module {
        "shell" | "command" | "raw" | "win_shell" | "win_command" => {
            super::shell_c(r, text);
        }
        "script" => {
            if let Some(script) = text.split_whitespace().next() {
                run(r, &["sh", script]);
            }
        }
        "file" => match (path, get("state")) {
            (Some(p), Some("absent")) => run(r, &["rm", "-r", "-f", "--", p]),
            (Some(p), Some("directory")) => run(r, &["mkdir", "-p", "--", p]),
            (Some(p), Some("touch")) => run(r, &["touch", "--", p]),
            _ => {}
        },
        "copy" | "template" => {
            if let Some(src) = get("src") {
                run(r, &["cat", "--", src]);
            }
            if let Some(dest) = get("dest") {
                run(r, &["tee", "--", dest]);
            }
        }
        "lineinfile" | "blockinfile" | "replace" | "ini_file" => {
            if let Some(p) = path {
                run(r, &["tee", "-a", "--", p]);
            }
        }
        "authorized_key" => run(r, &["tee", "-a", "--", "~/.ssh/authorized_keys"]),
        "cron" => run(r, &["crontab", "-"]),
        "get_url" => {
            if let (Some(url), Some(dest)) = (get("url"), get("dest")) {
                run(r, &["curl", "-o", dest, url]);
            }
        }
        "git" => {
            if let (Some(repo), Some(dest)) = (get("repo"), get("dest")) {
                run(r, &["git", "clone", repo, dest]);
            }
        }
        "service" | "systemd" | "systemd_service" => {
            let verb = match get("state") {
                Some("stopped") => Some("stop"),
                Some("restarted") => Some("restart"),
                Some("reloaded") => Some("reload"),
                _ => None,
            };
            if let (Some(verb), Some(name)) = (verb, get("name")) {
                run(r, &["systemctl", verb, name]);
            }
        }
        _ => {}
    }
}

/// `key=value` pairs of a task's arguments, with values in single or double quotes.
fn key_values(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let key: String =
            std::iter::from_fn(|| chars.next_if(|c| *c != '=' && !c.is_whitespace())).collect();
        if key.is_empty() {
            // Nothing, or a word with no `=`: skip to the next space.
            if chars.next().is_none() {
                break;
            }
            continue;
        }
        if chars.next_if_eq(&'=').is_none() {
            continue;
        }
        let mut value = String::new();
        let quote = chars.next_if(|c| *c == '\'' || *c == '"');
        for c in chars.by_ref() {
            match quote {
                Some(q) if c == q => break,
                None if c.is_whitespace() => break,
                _ => value.push(c),
            }
        }
        out.push((key, value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::key_values;

    #[test]
    fn arguments_are_key_value_pairs_with_quoted_values() {
        assert_eq!(
            key_values("user=root state=present key='ssh-ed25519 AAAA x@y' path=\"/a b\""),
            [
                ("user".into(), "root".into()),
                ("state".into(), "present".into()),
                ("key".into(), "ssh-ed25519 AAAA x@y".into()),
                ("path".into(), "/a b".into())
            ]
        );
        assert!(key_values("free form =x '").len() <= 1);
    }
}
