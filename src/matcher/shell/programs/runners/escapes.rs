//! Programs with a way out to the shell in an option or in the commands they read: gdb's
//! `-ex 'shell ...'`, ed's `!cmd`, `zip -TT`, `split --filter`, less's `+!cmd`; and
//! programs whose code hookgate does not read (emacs Lisp, PowerShell, nushell, xonsh),
//! which make the line unreadable when they are given code.

use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Reader};

use super::shell_c;

/// A gdb command (`-ex`, `--eval-command`): `shell CMD`, `!CMD` and `pipe ... | CMD` run
/// the shell; `python ...` runs Python code this reader does not take from gdb.
pub(super) fn gdb(r: &mut Reader, t: &[String]) {
    for (k, a) in t.iter().enumerate() {
        let command = match a.as_str() {
            "-ex"
            | "--ex"
            | "-eval-command"
            | "--eval-command"
            | "-iex"
            | "--init-eval-command" => t.get(k + 1).map(String::as_str),
            _ => a
                .strip_prefix("--eval-command=")
                .or_else(|| a.strip_prefix("-eval-command=")),
        };
        let Some(command) = command.map(str::trim_start) else {
            continue;
        };
        // gdb hands these to `/bin/sh -c`.
        if let Some(shell) = command
            .strip_prefix("shell ")
            .or_else(|| command.strip_prefix('!'))
        {
            shell_c(r, shell);
        } else if let Some((_, shell)) = command
            .strip_prefix("pipe ")
            .or_else(|| command.strip_prefix('|'))
            .and_then(|p| p.split_once('|'))
        {
            shell_c(r, shell);
        } else if ["python", "py ", "pi ", "python-interactive", "guile"]
            .iter()
            .any(|p| command.starts_with(p))
        {
            r.opaque("gdb runs Python or Guile code that hookgate does not read");
        }
    }
}

/// ed (and `red`): commands on standard input; `!CMD`, and `r !CMD`/`w !CMD`/`e !CMD`, run
/// the shell.
pub(super) fn ed(r: &mut Reader, stdin: &Data) {
    match stdin {
        Data::Known(text) => {
            for line in text.lines().map(str::trim_start) {
                let shell = line.strip_prefix('!').or_else(|| {
                    let rest =
                        line.trim_start_matches(|c: char| c.is_ascii_digit() || ",.$;".contains(c));
                    ["r", "w", "e", "E", "W"]
                        .iter()
                        .find_map(|c| rest.strip_prefix(c))
                        .and_then(|rest| rest.trim_start().strip_prefix('!'))
                });
                if let Some(shell) = shell {
                    shell_c(r, shell);
                }
            }
        }
        Data::Unknown | Data::Listing(..) => {
            r.opaque("an editor reads commands from standard input")
        }
        Data::Nothing => {}
    }
}

/// `zip -TT CMD` / `--unzip-command CMD`: the test command runs through the shell.
pub(super) fn zip(r: &mut Reader, args: &[Field]) {
    for (k, a) in args.iter().enumerate() {
        if a.text == "-TT" || a.text == "--unzip-command" {
            sh_c_of(r, args.get(k + 1));
        } else if let Some(code) = a.text.strip_prefix("--unzip-command=") {
            shell_c(r, code);
        }
    }
}

/// `split --filter=CMD`: each piece is piped into CMD run by `$SHELL -c`.
pub(super) fn split(r: &mut Reader, args: &[Field]) {
    for (k, a) in args.iter().enumerate() {
        if a.text == "--filter" {
            sh_c_of(r, args.get(k + 1));
        } else if let Some(code) = a.text.strip_prefix("--filter=") {
            shell_c(r, code);
        }
    }
}

/// The command in `field`, which the program hands to `/bin/sh -c`.
fn sh_c_of(r: &mut Reader, field: Option<&Field>) {
    match field {
        Some(f) if f.unknown => {
            r.opaque("the command runs code that comes from a value not known before it runs");
        }
        Some(f) => shell_c(r, &f.text),
        None => {}
    }
}

/// less's initial commands (`+cmd`, `++cmd`): `!CMD` and `|mCMD` run the shell.
pub(super) fn less_commands(r: &mut Reader, t: &[String]) {
    for a in t {
        let Some(command) = a.strip_prefix('+').map(|c| c.trim_start_matches('+')) else {
            continue;
        };
        if let Some(shell) = command.strip_prefix('!') {
            shell_c(r, shell);
        } else if let Some(rest) = command.strip_prefix('|') {
            // `|m cmd`: pipe up to mark m into cmd.
            shell_c(r, rest.get(1..).unwrap_or_default());
        }
    }
}

/// emacs runs Lisp given by `--eval`, `-l`/`--load`, `--script`, `-f`/`--funcall`, `-x`.
pub(super) fn emacs(r: &mut Reader, t: &[String]) {
    let code = t.iter().any(|a| {
        let name = a.split('=').next().unwrap_or_default();
        matches!(
            name,
            "--eval"
                | "-eval"
                | "--execute"
                | "-execute"
                | "-l"
                | "--load"
                | "-load"
                | "--script"
                | "-script"
                | "-f"
                | "--funcall"
                | "-funcall"
                | "-x"
        )
    });
    if code {
        r.opaque("emacs runs Lisp code that hookgate does not read");
    }
}

/// Shells of other languages (PowerShell, nushell, xonsh, elvish): any code they are given,
/// inline, in a file or on standard input, is not read.
pub(super) fn foreign_shell(r: &mut Reader, t: &[String], stdin: &Data) {
    let informational = t.iter().all(|a| {
        matches!(
            a.to_ascii_lowercase().as_str(),
            "-v" | "--version" | "-version" | "-h" | "--help" | "-help" | "-?"
        )
    });
    if t.is_empty() && matches!(stdin, Data::Nothing) || !t.is_empty() && informational {
        return;
    }
    r.opaque("the command runs code of a shell language hookgate does not read");
}
