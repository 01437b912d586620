//! Programs with a way out to the shell in an option or in the commands they read: gdb's
//! `-ex 'shell ...'`, ed's `!cmd`, `zip -TT`, `split --filter`, less's `+!cmd`, m4's
//! `syscmd`; and
//! programs whose code hookgate does not read (emacs Lisp, PowerShell, nushell, xonsh),
//! which make the line unreadable when they are given code.

use crate::matcher::code::Lang;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader};

use super::{shell_c, shell_c_reading};

/// gdb's commands given with `-ex` (`--eval-command`, `-iex`), and read from the files of
/// `-x` (`--command`, `-ix`): a file the line downloaded is commands not known.
pub(super) fn gdb(r: &mut Reader, args: &[Field], stdin: &Data) {
    let t: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
    for (k, a) in t.iter().enumerate() {
        let command = match *a {
            "-ex"
            | "--ex"
            | "-eval-command"
            | "--eval-command"
            | "-iex"
            | "--init-eval-command" => t.get(k + 1).copied(),
            _ => a
                .strip_prefix("--eval-command=")
                .or_else(|| a.strip_prefix("-eval-command=")),
        };
        if let Some(command) = command {
            gdb_command(r, command.trim());
        }
        let file = match *a {
            "-x" | "--x" | "-command" | "--command" | "-ix" | "--init-command" => args.get(k + 1),
            _ => None,
        };
        let file_text = match file {
            Some(f) => super::file_text(r, &f.text, f.unknown, stdin),
            None => a
                .strip_prefix("--command=")
                .and_then(|f| super::file_text(r, f, args[k].unknown, stdin)),
        };
        match file_text {
            Some(Data::Known(text)) => {
                for line in text.lines() {
                    gdb_command(r, line.trim());
                }
            }
            Some(Data::Unknown | Data::Listing(..)) => {
                r.unreadable("gdb runs a file of commands the line downloaded or does not know");
            }
            Some(Data::Nothing) | None => {}
        }
    }
}

/// One gdb command: `shell CMD` and `!CMD` run the shell, `pipe GDBCMD | CMD` runs it on
/// what the gdb command prints; `python CODE` runs Python; `set logging file F`, `dump` and
/// `append` write files.
fn gdb_command(r: &mut Reader, command: &str) {
    let mut words = command.split_whitespace();
    let first = words.next().unwrap_or_default();
    let rest = command[first.len()..].trim_start();
    match first {
        // gdb hands these to `/bin/sh -c`.
        "shell" => shell_c(r, rest),
        _ if first.starts_with('!') => shell_c(r, &command[1..]),
        "pipe" | "|" => {
            if let Some((_, shell)) = rest.split_once('|') {
                shell_c_reading(r, shell, Data::Unknown);
            }
        }
        _ if first.starts_with('|') => {
            if let Some((_, shell)) = command[1..].split_once('|') {
                shell_c_reading(r, shell, Data::Unknown);
            }
        }
        "python" | "py" | "pi" | "python-interactive" if !rest.is_empty() => {
            super::interpreters::read_code(r, Some(Lang::Python), rest, None);
        }
        // Without code on the line, the code comes from the commands that follow.
        "python" | "py" | "pi" | "python-interactive" | "guile" | "gu" => {
            r.unreadable("gdb runs Python or Guile code that hookgate does not read");
        }
        "set" if words.next() == Some("logging") && words.next() == Some("file") => {
            if let Some(file) = words.next() {
                super::record_written(r, vec![file.to_owned()], false, "gdb's log");
            }
        }
        // `dump [FORMAT] memory|value FILE ...`, `append [binary] memory|value FILE ...`.
        "dump" | "append" => {
            let file = words.skip_while(|w| *w != "memory" && *w != "value").nth(1);
            if let Some(file) = file {
                super::record_written(r, vec![file.to_owned()], first == "append", "gdb");
            }
        }
        _ => {}
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
            r.unreadable("an editor reads commands from standard input")
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
pub(super) fn split(r: &mut Reader, args: &[Field], stdin: &Data) {
    // Each chunk of what split reads is the filter's input (`curl ... | split
    // --filter=sh` runs the download): its input, or a file it is given (not known here).
    const VALUED: &[&str] = &["-l", "-b", "-C", "-n", "-a", "-t", "--filter"];
    let mut input = None;
    let mut k = 0;
    while let Some(a) = args.get(k) {
        if VALUED.contains(&a.text.as_str()) {
            k += 1;
        } else if !a.text.starts_with('-') || a.text == "-" {
            input = Some(a.text.as_str());
            break;
        }
        k += 1;
    }
    let chunks = match input {
        None | Some("-") => stdin.clone(),
        Some(_) => Data::Unknown,
    };
    for (k, a) in args.iter().enumerate() {
        let code = match a.text.strip_prefix("--filter=") {
            Some(code) => Some(Field::literal(code)),
            None if a.text == "--filter" => args.get(k + 1).cloned(),
            None => None,
        };
        match code {
            Some(f) if f.unknown => r.unreadable(crate::matcher::shell::walk::CODE_NOT_KNOWN),
            Some(f) => shell_c_reading(r, &f.text, chunks.clone()),
            None => {}
        }
    }
}

/// m4 runs `syscmd(CMD)` and `esyscmd(CMD)` with `/bin/sh -c`. What it reads (its file
/// operands, else standard input) is scanned when known: each such call whose argument is
/// plain text is read as a shell command; one that is not, or text that can build or
/// rename a macro (`indir`, `builtin`, `defn`, `changequote`, `changeword`, a name cut by
/// quotes as `sys`'`cmd`), makes the line unreadable. Input not known is too, when it
/// could hold such calls.
pub(super) fn m4(r: &mut Reader, args: &[Field], stdin: &Data) {
    // Options that take the next word as their value (`-I DIR`, `-D NAME=VALUE`).
    const VALUED: &[&str] = &[
        "-I",
        "-D",
        "-U",
        "-o",
        "-F",
        "-R",
        "-l",
        "-L",
        "-t",
        "--include",
        "--define",
        "--undefine",
        "--error-output",
        "--freeze-state",
        "--reload-state",
        "--arglength",
        "--nesting-limit",
        "--trace",
    ];
    let mut files: Vec<&Field> = Vec::new();
    let mut value_next = false;
    for a in args {
        if std::mem::take(&mut value_next) {
            continue;
        }
        if a.text == "-" || !a.text.starts_with('-') {
            files.push(a);
        }
        value_next = VALUED.contains(&a.text.as_str());
    }
    let inputs: Vec<Data> = if files.is_empty() {
        vec![stdin.clone()]
    } else {
        files
            .iter()
            .map(|f| match f.text.as_str() {
                "-" => stdin.clone(),
                _ => r.file_data(f),
            })
            .collect()
    };
    for input in inputs {
        match input {
            Data::Known(text) => m4_text(r, &text),
            // A file of the project that neither the line nor the host shows.
            Data::Nothing => {}
            Data::Unknown | Data::Listing(..) => {
                r.unreadable("m4 reads input not known before it runs, which may run commands");
            }
        }
    }
}

fn m4_text(r: &mut Reader, text: &str) {
    const BUILDERS: &[&str] = &["indir", "builtin", "defn", "changequote", "changeword"];
    let cut_name = text.contains("sys") && text.contains("cmd") && !text.contains("syscmd");
    if BUILDERS.iter().any(|b| text.contains(b)) || text.contains("sys`") || cut_name {
        r.unreadable("m4 input that builds or renames macros may run commands");
        return;
    }
    for (at, _) in text.match_indices("syscmd") {
        let rest = &text[at + "syscmd".len()..];
        match m4_argument(rest) {
            Some(command) => shell_c(r, command),
            None => r.unreadable("m4 runs a command (syscmd) that is not plain text"),
        }
    }
    // `include(FILE)`, `sinclude(FILE)` and GNU's `undivert(FILE)` copy the file into the
    // output (`include(/root/.aws/credentials)`); `undivert(1)` is a diversion.
    for word in ["include", "undivert"] {
        for (at, _) in text.match_indices(word) {
            let rest = &text[at + word.len()..];
            if !rest.trim_start().starts_with('(') {
                continue;
            }
            match m4_argument(rest) {
                Some(file) if file.bytes().all(|b| b.is_ascii_digit()) => {}
                Some(file) => {
                    let words = ["cat", "--", file].map(Field::literal).to_vec();
                    r.run(words, &Io::default(), Data::Nothing, &[]);
                }
                None => r.unreadable("m4 includes a file that is not named in plain text"),
            }
        }
    }
}

/// The text of a macro call's one argument (`(rm -rf x)`, or quoted: `(`rm -rf x')`), when
/// it holds no other call, comma or quote.
fn m4_argument(rest: &str) -> Option<&str> {
    let inner = rest.strip_prefix('(')?;
    let end = inner.find(')')?;
    let argument = inner[..end].trim();
    let argument = argument
        .strip_prefix('`')
        .and_then(|a| a.strip_suffix('\''))
        .unwrap_or(argument);
    (!argument.contains(['(', ',', '`', '\'', '$'])).then_some(argument)
}

/// The command in `field`, which the program hands to `/bin/sh -c`.
fn sh_c_of(r: &mut Reader, field: Option<&Field>) {
    match field {
        Some(f) if f.unknown => {
            r.unreadable(crate::matcher::shell::walk::CODE_NOT_KNOWN);
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

/// emacs runs Lisp: inline (`--eval`), from files (`-l`/`--load`, `--script`, `-x`) and
/// from libraries on its load path (`-l ert`, with `-L DIR` adding to that path). Inline
/// code is looked at as code of a language hookgate does not read; a file is judged as
/// any interpreter's script file is (what the line wrote is looked at, what it downloaded
/// is unknown); `-f` calls a function already loaded.
pub(super) fn emacs(r: &mut Reader, args: &[Field]) {
    let mut k = 0;
    while k < args.len() {
        let word = &args[k].text;
        let (name, attached) = match word.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_owned())),
            _ => (word.as_str(), None),
        };
        let kind = match name.trim_start_matches('-') {
            "eval" | "execute" => Lisp::Inline,
            "l" | "load" | "script" | "x" => Lisp::File,
            "L" | "directory" => Lisp::Directory,
            _ => {
                k += 1;
                continue;
            }
        };
        let (value, unknown) = match attached {
            Some(value) => (value, args[k].unknown),
            None => {
                k += 1;
                match args.get(k) {
                    Some(next) => (next.text.clone(), next.unknown),
                    None => break,
                }
            }
        };
        k += 1;
        match kind {
            _ if unknown => r.unreadable("emacs runs Lisp that comes from a substitution"),
            Lisp::Inline => super::unread::read(r, "emacs", &value),
            // A library name (`-l ert`) is found on the load path.
            Lisp::File if value.contains('/') || value.ends_with(".el") => {
                if let Some((text, false)) = super::interpreters::script_file(r, &value, false) {
                    super::unread::read(r, "emacs", &text);
                }
            }
            Lisp::File => {}
            Lisp::Directory => {
                if r.env.holds_unknown_below(value.trim_end_matches('/')) {
                    r.unreadable("emacs loads libraries from a directory the line downloaded into");
                }
            }
        }
    }
}

/// What an emacs option gives it.
enum Lisp {
    Inline,
    File,
    Directory,
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
    r.unreadable("the command runs code of a shell language hookgate does not read");
}

/// `dc`: a `!` runs the rest of its line as a shell command (`printf '!rm -rf ~' | dc`).
/// Its program is the `-e`/`--expression` values, the files named (`-f FILE` and
/// operands), then standard input: known text is read for its `!` lines; a file or input
/// not known may hold them.
pub(in crate::matcher::shell::programs) fn dc(r: &mut Reader, args: &[Field], stdin: &Data) {
    let mut programs: Vec<Option<String>> = Vec::new();
    let mut expression_next = false;
    let mut reads_input = true;
    for a in args {
        let t = a.text.as_str();
        let value = |v: &str| (!a.unknown).then(|| v.to_owned());
        if std::mem::take(&mut expression_next) {
            programs.push(value(t));
        } else if t == "-e" || t == "--expression" {
            expression_next = true;
            reads_input = false;
        } else if let Some(e) = t
            .strip_prefix("--expression=")
            .or_else(|| t.strip_prefix("-e"))
        {
            programs.push(value(e));
            reads_input = false;
        } else if t.starts_with('-') && t.len() > 1 && !a.unknown {
            // `-f FILE`, `--file=FILE`, `-V`, `-h`: a file's text is not known here.
            if t.starts_with("-f") || t.starts_with("--file") {
                programs.push(None);
                reads_input = false;
            }
        } else {
            // An operand is a file of commands.
            programs.push(None);
            reads_input = false;
        }
    }
    if reads_input {
        programs.push(match stdin {
            Data::Known(text) => Some(text.clone()),
            Data::Nothing => Some(String::new()),
            Data::Unknown | Data::Listing(..) => None,
        });
    }
    for program in programs {
        let Some(text) = program else {
            r.unreadable("dc runs the commands after a '!' in a program not known here");
            continue;
        };
        for line in text.lines() {
            if let Some((_, command)) = line.split_once('!') {
                shell_c(r, command);
            }
        }
    }
}
