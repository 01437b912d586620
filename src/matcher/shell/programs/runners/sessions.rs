//! Programs that run a command later or in another terminal: `tmux`, `screen`, `at`.

use crate::matcher::shell::SimpleCommand;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Reader};

use super::{script_of, shell_minus_c, stdin_shell};
use crate::matcher::shell::walk::is_stdin_path;

/// tmux's commands that run a shell command (their last operands) or type text into a
/// pane's shell (`send-keys`), each with its options that take a value.
const TMUX: &[(&[&str], &str)] = &[
    (&["new", "new-session"], "cefFnstxy"),
    (&["new-window", "neww"], "cefFnt"),
    (&["split-window", "splitw"], "celFt"),
    (
        &["respawn-pane", "respawnp", "respawn-window", "respawnw"],
        "cet",
    ),
    (&["run-shell", "run"], "cdt"),
    (&["display-popup", "popup"], "bcdehsStTwxy"),
    (&["pipe-pane", "pipep", "if-shell", "if"], "t"),
    (&["send-keys", "send"], "Nt"),
    (&["set-buffer", "setb"], "bnt"),
    // A tmux command run later: when a hook fires, when a key is pressed.
    (&["set-hook"], "t"),
    (&["bind-key", "bind"], "NT"),
];

/// `tmux [opts] CMD [opts] [shell-command]`, several commands joined by `;`, and `tmux -c
/// CMD` (tmux runs CMD with the default shell).
pub(super) fn tmux(r: &mut Reader, args: &[Field]) {
    for command in args.split(|a| a.text == ";" || a.text == "\\;") {
        let mut i = 0;
        // The program's own options, then the command's name.
        while let Some(a) = command.get(i) {
            if !a.text.starts_with('-') || a.text == "-" {
                break;
            }
            if a.text == "-c" {
                shell_of(r, "bash", command.get(i + 1..i + 2).unwrap_or_default());
            }
            i += takes_value(&a.text, "cfLST");
        }
        let Some(name) = command.get(i) else { continue };
        i += 1;
        let Some((_, values)) = TMUX
            .iter()
            .find(|(names, _)| names.contains(&name.text.as_str()))
        else {
            continue;
        };
        while let Some(a) = command.get(i) {
            if !a.text.starts_with('-') || a.text == "-" {
                break;
            }
            if a.text == "--" {
                i += 1;
                break;
            }
            i += takes_value(&a.text, values);
        }
        // Key names typed after the text (`Enter`, `C-m`) are not shell words.
        let operands: Vec<Field> = command[i.min(command.len())..]
            .iter()
            .filter(|a| !matches!(a.text.as_str(), "Enter" | "C-m" | "KPEnter" | "C-j"))
            .cloned()
            .collect();
        match name.text.as_str() {
            // Text typed into a pane's shell.
            "send-keys" | "send" | "set-buffer" | "setb" => script_of(r, &operands),
            "run-shell" | "run" | "if-shell" | "if" | "pipe-pane" | "pipep" => {
                shell_of(r, "sh", &operands);
            }
            // `set-hook NAME COMMAND`, `bind-key KEY COMMAND`: COMMAND is tmux's own, run
            // later. Given as words, they are its words; given as one, tmux parses it.
            "set-hook" | "bind-key" | "bind" => match operands.get(1..).unwrap_or_default() {
                [] => {}
                later if later.iter().any(|a| a.unknown) => {
                    r.unreadable("tmux runs a command that is not known before it runs");
                }
                [one] => {
                    r.script(&format!("tmux {}", one.text), Data::Nothing);
                }
                later => tmux(r, later),
            },
            // A pane's program, run by the user's shell.
            _ => shell_of(r, "bash", &operands),
        }
    }
}

/// A command tmux hands to a shell (`new -d CMD` and `-c CMD` to the user's, `run-shell
/// CMD` to `/bin/sh`): `SHELL -c CMD`, the words joined by spaces.
fn shell_of(r: &mut Reader, shell: &str, words: &[Field]) {
    if words.is_empty() {
        return;
    }
    if words.iter().any(|w| w.unknown) {
        r.unreadable(crate::matcher::shell::walk::CODE_NOT_KNOWN);
        return;
    }
    let code = words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    shell_minus_c(r, shell, &code, Data::Nothing);
}

/// How many arguments an option (or a bundle, `-dmS`) uses: 2 when its first option that
/// takes a value ends it, so the value is the next argument.
fn takes_value(option: &str, values: &str) -> usize {
    let bundle = option.strip_prefix('-').unwrap_or_default();
    match bundle.char_indices().find(|(_, c)| values.contains(*c)) {
        Some((k, c)) if k + c.len_utf8() == bundle.len() => 2,
        _ => 1,
    }
}

/// `screen [opts] cmd args`, and `screen -X stuff TEXT` (text typed into a window).
pub(super) fn screen(r: &mut Reader, args: &[Field]) {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a.text == "-X" {
            let rest = args.get(i + 1..).unwrap_or_default();
            if rest
                .first()
                .is_some_and(|c| c.text == "stuff" || c.text == "exec")
            {
                script_of(r, &rest[1..]);
            }
            return;
        }
        if !a.text.starts_with('-') {
            break;
        }
        i += takes_value(&a.text, "cehpsTSX");
    }
    if let Some(rest) = args.get(i..).filter(|rest| !rest.is_empty()) {
        r.run(
            rest.to_vec(),
            &crate::matcher::shell::walk::Io::default(),
            Data::Nothing,
            &[],
        );
    }
}

/// `at TIME` and `batch` read the commands they run later from standard input or `-f FILE`.
pub(super) fn at(r: &mut Reader, args: &[Field], stdin: Data) {
    let file = args
        .iter()
        .position(|a| a.text == "-f")
        .and_then(|k| args.get(k + 1));
    match file {
        Some(f) if f.unknown => r.unreadable("the script comes from a substitution"),
        Some(f) if !is_stdin_path(&f.text) => {
            r.run_file(&f.text, Data::Nothing);
        }
        _ => stdin_shell(r, stdin),
    }
}

/// `run-parts DIR` runs every program in DIR: each one this line wrote there is read as
/// the script it is (`printf ... > /tmp/rp/x && run-parts /tmp/rp`). `--test` and `--list`
/// only print their names.
pub(super) fn run_parts(r: &mut Reader, args: &[Field]) {
    if args
        .iter()
        .any(|a| matches!(a.text.as_str(), "--test" | "--list"))
    {
        return;
    }
    let Some(dir) = args.iter().rev().find(|a| !a.text.starts_with('-')) else {
        return;
    };
    if dir.unknown {
        r.unreadable("run-parts runs every program of a directory not known before it runs");
        return;
    }
    let inside = format!("{}/", crate::matcher::shell::env::file_key(&dir.text));
    let mut written: Vec<String> = r
        .env
        .files
        .keys()
        .filter(|k| {
            k.strip_prefix(&inside)
                .is_some_and(|name| !name.contains('/'))
        })
        .cloned()
        .collect();
    // run-parts runs them in the order of their names, each as a program.
    written.sort();
    for file in written {
        // Named as the line names a program it runs by path (`/bin/rm` is `rm`).
        r.record(SimpleCommand {
            program: file.rsplit('/').next().unwrap_or(&file).to_owned(),
            args: Vec::new(),
            redirects: Vec::new(),
            origin: None,
            dir: None,
        });
        r.run_script_file(&file, &[]);
    }
}
