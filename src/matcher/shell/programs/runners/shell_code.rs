//! Code and files that programs hand on: to `sh -c`, to a shell's standard input, or to
//! files they write without naming them as files. Shared by the runners.

use super::super::super::SimpleCommand;
use super::super::super::env::{FileText, Value, file_key};
use super::super::super::walk::{Data, Reader, is_stdin_path};

/// A value that a program runs as a shell command.
pub(super) fn code_value(r: &mut Reader, v: Value) {
    match v {
        Value::Known(code) => {
            r.script(
                code.trim_start_matches('|').trim_start_matches('!'),
                Data::Nothing,
            );
        }
        Value::Unknown => r.unreadable(crate::matcher::shell::walk::CODE_NOT_KNOWN),
    }
}

/// The text of a file a program reads, named on the line (`text`; `unknown`: not known
/// before the line runs): what the line wrote there, the host's file (`hostFiles: read`),
/// or standard input for `-` and `/dev/stdin`; `None` when there is no such file.
pub(in crate::matcher::shell::programs) fn file_text(
    r: &mut Reader,
    text: &str,
    unknown: bool,
    stdin: &Data,
) -> Option<Data> {
    if unknown {
        return Some(Data::Unknown);
    }
    if is_stdin_path(text) || text == "-" {
        return Some(stdin.clone());
    }
    if r.load_host_file(text).is_err() {
        return Some(Data::Unknown);
    }
    match r.env.files.get(&file_key(text)) {
        Some(FileText::Known(t)) => Some(Data::Known(t.clone())),
        Some(FileText::Unknown) => Some(Data::Unknown),
        None => None,
    }
}

/// Code a program hands to `/bin/sh -c` (awk's `system`, sed's `e`, tar's checkpoint
/// actions, make's recipes): the shell runs too, and then the code.
pub(in crate::matcher::shell::programs) fn shell_c(r: &mut Reader, code: &str) {
    shell_c_reading(r, code, Data::Nothing);
}

/// As [`shell_c`], for a shell whose standard input is `stdin`.
pub(in crate::matcher::shell::programs) fn shell_c_reading(
    r: &mut Reader,
    code: &str,
    stdin: Data,
) {
    // A value the code quoted for the shell and the reader does not know is shown as the
    // placeholder: `sh -c 'phpunit --filter $(...)'`.
    let shown = code.replace(
        crate::matcher::code::QUOTED_NOT_KNOWN,
        crate::matcher::shell::SUBSTITUTION,
    );
    run_shell_code(r, "sh", &shown, code, stdin);
}

/// `shell -c code` run by a program (`sh`, or the user's shell: tmux's panes).
pub(in crate::matcher::shell::programs) fn shell_minus_c(
    r: &mut Reader,
    shell: &str,
    code: &str,
    stdin: Data,
) {
    run_shell_code(r, shell, code, code, stdin);
}

/// Records `shell -c shown` and reads `code`, what it runs.
fn run_shell_code(r: &mut Reader, shell: &str, shown: &str, code: &str, stdin: Data) {
    r.record(SimpleCommand {
        program: shell.to_owned(),
        args: vec!["-c".to_owned(), shown.to_owned()],
        redirects: Vec::new(),
        origin: None,
        dir: None,
    });
    r.script(code, stdin);
}

/// What a shell reads on standard input runs as its script.
pub(super) fn stdin_shell(r: &mut Reader, stdin: Data) {
    match stdin {
        Data::Known(script) => {
            r.script(&script, Data::Nothing);
        }
        Data::Unknown | Data::Listing(..) => r.unreadable("a script is piped into a shell"),
        Data::Nothing => {}
    }
}

/// Files a program writes that its arguments do not name as files (sed's `w`, awk's
/// `print > FILE`, `find -fprint`), recorded as `tee FILE...` (`tee -a` for `append`), the
/// command whose effect on paths the filters know.
pub(in crate::matcher::shell::programs) fn record_written(
    r: &mut Reader,
    paths: Vec<String>,
    append: bool,
    origin: &str,
) {
    let mut args = Vec::with_capacity(paths.len() + 1);
    if append {
        args.push("-a".to_owned());
    }
    args.extend(paths);
    r.record(SimpleCommand {
        program: "tee".to_owned(),
        args,
        redirects: Vec::new(),
        origin: Some(origin.to_owned()),
        dir: None,
    });
}
