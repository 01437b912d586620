//! CMake run as a tool: scripts (`-P`) and its portable file commands (`-E`).

use super::super::super::expand::Field;
use super::super::super::walk::{Data, Io, Reader, is_stdin_path};
use super::{interpreters, unread};

/// `cmake [-D VAR=VALUE] -P FILE`: a CMake script, of a language hookgate does not read,
/// looked at as such when the line wrote it or gives it on standard input; the host's own
/// scripts run as the project's do.
pub(super) fn cmake_script(r: &mut Reader, args: &[Field], stdin: &Data) {
    let Some(script) = args
        .iter()
        .position(|a| a.text == "-P")
        .and_then(|k| args.get(k + 1))
    else {
        return;
    };
    if is_stdin_path(&script.text) || script.text == "-" {
        match stdin {
            Data::Known(text) => unread::read(r, "cmake", text),
            Data::Nothing => {}
            _ => r.unreadable("a script is piped into an interpreter"),
        }
        return;
    }
    if let Some((text, false)) = interpreters::script_file(r, &script.text, script.unknown) {
        unread::read(r, "cmake", &text);
    }
}

/// `cmake -E COMMAND ARGS`: CMake's portable file commands, as the programs they stand for
/// (`cmake -E rm -rf DIR` is `rm -rf DIR`), and the commands `chdir` and `env` run.
pub(super) fn cmake_tool(r: &mut Reader, args: &[Field], stdin: Data) -> Data {
    let Some((command, rest)) = args.split_first() else {
        return Data::Unknown;
    };
    let program: &[&str] = match command.text.as_str() {
        "rm" | "remove" => &["rm"],
        "remove_directory" => &["rm", "-r", "-f"],
        "copy" => &["cp"],
        "copy_directory" | "copy_directory_if_different" => &["cp", "-r"],
        "copy_if_different" => &["cp"],
        "rename" => &["mv"],
        "make_directory" => &["mkdir", "-p"],
        "touch" | "touch_nocreate" => &["touch"],
        "cat" => &["cat"],
        "create_symlink" => &["ln", "-s"],
        "create_hardlink" => &["ln"],
        "tar" => &["tar"],
        // `chdir DIR CMD...`: the command, in DIR.
        "chdir" => {
            let command = rest.get(1..).unwrap_or_default().to_vec();
            return r.run(command, &Io::default(), stdin, &[]);
        }
        // `env [--unset=NAME] [NAME=VALUE]... CMD...`.
        "env" => {
            let at = rest
                .iter()
                .position(|a| !a.text.starts_with("--unset=") && !a.text.contains('='));
            let command = at.map(|k| rest[k..].to_vec()).unwrap_or_default();
            return r.run(command, &Io::default(), stdin, &[]);
        }
        _ if command.unknown => {
            r.unreadable("cmake -E runs a command not known before the line runs");
            return Data::Unknown;
        }
        _ => return Data::Unknown,
    };
    let mut words: Vec<Field> = program.iter().map(|w| Field::literal(w)).collect();
    words.extend(rest.iter().cloned());
    r.run(words, &Io::default(), stdin, &[])
}
