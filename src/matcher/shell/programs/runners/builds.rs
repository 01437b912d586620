//! Build, test and package tools run files of the project they start in: a Makefile,
//! package.json's scripts, `conftest.py`, `setup.py`, a tool's `*.config.js`. A file the
//! line itself wrote before such a tool runs is read as the code it is
//! (`printf 'all:\n\trm -rf ~\n' > Makefile && make`); one whose text is not known, or in
//! a language the reader does not read (`build.rs`, `CMakeLists.txt`), makes the line
//! unreadable. Files already on the host are the project's own, as `bash build.sh` is.
//!
//! Any code file the line wrote may be what the tool runs, whatever names it there: a
//! pytest plugin named in `pytest.ini`, a build backend named in `pyproject.toml`, jest's
//! `globalSetup`, a module found through `PYTHONPATH` or `perl -I`. So every one is read,
//! and a dependency list the line wrote (`requirements.txt`, a `git =` line of
//! `Cargo.toml`, `.yarnrc.yml`'s `yarnPath`) is read as the installs it asks for.

use crate::matcher::code::Lang;
use crate::matcher::shell::SimpleCommand;
use crate::matcher::shell::env::{DIR, FileText, Value, file_key};
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Reader, is_stdin_path};

use super::interpreters::read_code;
use super::shell_c;
use super::tools::makefile;

/// Programs that run files of the project they start in.
pub(in crate::matcher::shell::programs) const BUILD_TOOLS: &[&str] = &[
    "make",
    "gmake",
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "npx",
    "pnpx",
    "bunx",
    "pytest",
    "py.test",
    "tox",
    "nox",
    "pip",
    "pip3",
    "uv",
    "poetry",
    "cargo",
    "go",
    "rake",
    "bundle",
    "just",
    "task",
    "cmake",
    "gradle",
    "gradlew",
    "mvn",
    "composer",
    "pre-commit",
    "direnv",
    "jest",
    "vitest",
    "mocha",
    "eslint",
    "webpack",
    "babel",
    "vite",
    "python",
    "python3",
    "node",
    "perl",
    "ruby",
    "php",
    "lua",
    "deno",
    "gem",
];

/// How a tool runs a file of this name.
enum Runs {
    /// Make's recipes.
    Makefile,
    /// The shell lines of a JSON file's `scripts` (package.json, composer.json).
    Scripts,
    /// Code in this language.
    Code(Lang),
    /// The `import` lines of a Python `.pth` file, run at every interpreter start.
    Pth,
    /// A shell script (`.envrc`).
    Shell,
    /// Shell lines in a task file: a justfile's indented recipe lines, the items under
    /// `cmds:` of a Taskfile, tox's `commands =`, pre-commit's `entry:` of a local hook.
    Tasks { recipes: bool },
    /// Code in a language the reader does not read (`build.rs`, CMake, Gradle): screened
    /// for what runs programs, reaches the network or touches files outside the build.
    Screened,
    /// pip's requirements: each line is what `pip install` is given.
    Requirements,
    /// Cargo's manifest: a `git = "URL"` dependency is fetched and built (its `build.rs`
    /// runs).
    CargoManifest,
    /// Yarn's settings: `yarnPath` is the script node runs as yarn.
    YarnRc,
}

fn runs(name: &str) -> Option<Runs> {
    let js_config = [".js", ".cjs", ".mjs"].iter().any(|ext| {
        name.strip_suffix(ext).is_some_and(|stem| {
            stem.ends_with(".config") || stem.starts_with('.') && stem.ends_with("rc")
        })
    });
    Some(match name {
        "Makefile" | "makefile" | "GNUmakefile" => Runs::Makefile,
        _ if name.ends_with(".mk") => Runs::Makefile,
        "package.json" | "composer.json" => Runs::Scripts,
        "conftest.py" | "setup.py" | "noxfile.py" | "sitecustomize.py" | "usercustomize.py" => {
            Runs::Code(Lang::Python)
        }
        ".pnpmfile.cjs" => Runs::Code(Lang::JavaScript),
        _ if js_config => Runs::Code(Lang::JavaScript),
        "Rakefile" | "Gemfile" => Runs::Code(Lang::Ruby),
        ".envrc" => Runs::Shell,
        _ if name.ends_with(".pth") => Runs::Pth,
        "justfile" | "Justfile" => Runs::Tasks { recipes: true },
        "Taskfile.yml" | "Taskfile.yaml" | "tox.ini" | ".pre-commit-config.yaml" => {
            Runs::Tasks { recipes: false }
        }
        "build.rs" | "CMakeLists.txt" | "build.gradle" | "build.gradle.kts" => Runs::Screened,
        "Cargo.toml" => Runs::CargoManifest,
        ".yarnrc.yml" | ".yarnrc.yaml" => Runs::YarnRc,
        _ if (name.starts_with("requirements") || name.starts_with("constraints"))
            && name.ends_with(".txt") =>
        {
            Runs::Requirements
        }
        _ => return code_file(name).map(Runs::Code),
    })
}

/// `pip install -r /dev/stdin <<EOF`: the requirements are the text on standard input,
/// read as a requirements file the line wrote is; text not known may name any source.
pub(in crate::matcher::shell::programs) fn stdin_requirements(
    r: &mut Reader,
    args: &[Field],
    stdin: &Data,
) {
    let from_stdin = args.iter().enumerate().any(|(k, a)| {
        let value = match a.text.as_str() {
            "-r" | "--requirement" | "-c" | "--constraint" => {
                args.get(k + 1).map(|v| v.text.as_str())
            }
            t => t
                .strip_prefix("--requirement=")
                .or_else(|| t.strip_prefix("--constraint=")),
        };
        value.is_some_and(is_stdin_path)
    });
    if !from_stdin {
        return;
    }
    match stdin {
        Data::Known(text) => read(
            r,
            Runs::Requirements,
            FileText::Known(text.clone()),
            "/dev/stdin",
            &[],
        ),
        Data::Nothing => {}
        _ => r.unreadable("pip installs requirements read from input not known before it runs"),
    }
}

/// The language of a code file by its extension.
fn code_file(name: &str) -> Option<Lang> {
    let (_, ext) = name.rsplit_once('.')?;
    Some(match ext {
        "py" => Lang::Python,
        "js" | "cjs" | "mjs" => Lang::JavaScript,
        "rb" => Lang::Ruby,
        "pl" | "pm" => Lang::Perl,
        "php" => Lang::Php,
        "lua" => Lang::Lua,
        _ => return None,
    })
}

/// Subcommands of the package managers that read their manifest and run none of its
/// scripts (`composer validate` after an edit of composer.json).
fn only_inspects(tool: &str, args: &[Field]) -> bool {
    const COMPOSER: &[&str] = &[
        "validate",
        "show",
        "info",
        "outdated",
        "licenses",
        "depends",
        "why",
        "prohibits",
        "why-not",
        "check-platform-reqs",
        "fund",
        "suggests",
    ];
    const NPM: &[&str] = &["ls", "list", "view", "info", "outdated", "explain", "why"];
    let Some(sub) = args.iter().find(|a| !a.text.starts_with('-')) else {
        return false;
    };
    !sub.unknown
        && match tool {
            "composer" => COMPOSER.contains(&sub.text.as_str()),
            "npm" | "pnpm" | "yarn" => NPM.contains(&sub.text.as_str()),
            _ => false,
        }
}

/// Reads, once each, the files of [`runs`]'s names that the line wrote before `tool` runs,
/// except code files named in `args`, which the tool's own reading reads (`python3 x.py`).
pub(in crate::matcher::shell::programs) fn written_files(
    r: &mut Reader,
    tool: &str,
    args: &[Field],
) {
    if only_inspects(tool, args) {
        return;
    }
    // In a directory the line downloaded (`git clone URL d && cd d && make`), every file
    // the tool runs is a download. After `a && cd d` the directory is one of two, which
    // the reader does not keep apart: any directory not known counts.
    let here = match r.env.get(DIR) {
        Value::Known(dir) => dir != "." && r.env.in_downloaded_dir(&file_key(&dir)),
        Value::Unknown => r.env.downloads_any(),
    };
    if here {
        r.unreadable("a build tool runs in a directory the line downloaded");
    }
    let named: Vec<String> = args.iter().map(|a| file_key(&a.text)).collect();
    let mut written: Vec<(String, FileText)> = r
        .env
        .files
        .iter()
        .filter(|(path, _)| !r.is_host_file(path) && !r.built.contains(*path))
        .map(|(path, text)| (path.clone(), text.clone()))
        .collect();
    written.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, text) in written {
        let name = path.rsplit('/').next().unwrap_or_default();
        let Some(how) = runs(name) else { continue };
        if matches!(how, Runs::Code(_)) && named.contains(&path) {
            continue;
        }
        r.built.insert(path.clone());
        r.reached(format!("from {path} the line wrote, run by {tool}"), |r| {
            read(r, how, text, &path, args)
        });
    }
}

/// Programs that edit a file where it is (`sed -i`, `perl -pi`, `ed`): what they leave is
/// not known before the line runs.
const IN_PLACE_EDITORS: &[&str] = &["sed", "perl", "ruby", "ed", "red", "gawk", "ex"];

/// A file whose text is commands a build tool runs (package.json's scripts, a Makefile, a
/// justfile, tox.ini, an `.envrc`, `.yarnrc.yml`'s `yarnPath`) edited in place by `command`
/// (`sed -i 's/"test": .*/.../' package.json`): its text is no longer the host's, and not
/// known, so a tool that then runs it is read as running a file the line wrote with text
/// not known (unreadable). Code files and manifests so edited (`sed -i 's/2018/2021/'
/// Cargo.toml`) stay the project's own, as when the agent edits them with its file tools.
pub(in crate::matcher::shell) fn edited_in_place(r: &mut Reader, command: &SimpleCommand) {
    if !IN_PLACE_EDITORS.contains(&command.program.as_str()) {
        return;
    }
    for touch in crate::matcher::shell::effects::touches(command) {
        let name = touch.path.rsplit('/').next().unwrap_or_default();
        let directs = runs(name).is_some_and(|how| {
            matches!(
                how,
                Runs::Makefile | Runs::Scripts | Runs::Shell | Runs::Tasks { .. } | Runs::YarnRc
            )
        });
        if directs
            && touch.base.is_none()
            && touch.touch != crate::matcher::shell::effects::Touch::Delete
        {
            r.env.write_file(touch.path, FileText::Unknown, false);
        }
    }
}

/// At the end of the line: the code files it wrote that nothing ran (`conftest.py`, a
/// `json.py` that shadows the module, a `.pth`, a script with a `#!` line, what it added to
/// `~/.bashrc`). What such a file plainly does is read as if it ran later: a payload
/// planted for a later run (`os.system('curl … | sh')`) is what it is now. What cannot be
/// read in it is left alone, since nothing runs it yet; the work it costs is the line's.
pub(in crate::matcher::shell) fn planted(r: &mut Reader) {
    let mut written: Vec<(String, String)> = r
        .env
        .files
        .iter()
        .filter(|(path, _)| !r.is_host_file(path) && !r.built.contains(*path))
        .filter_map(|(path, text)| match text {
            FileText::Known(text) => Some((path.clone(), text.clone())),
            FileText::Unknown => None,
        })
        .collect();
    written.sort_by(|a, b| a.0.cmp(&b.0));
    let mut unreadable = r.line.unreadable.take();
    for (path, text) in written {
        let name = path.rsplit('/').next().unwrap_or_default();
        let how = match runs(name) {
            Some(how @ (Runs::Code(_) | Runs::Pth)) => how,
            _ if SHELL_STARTUP.contains(&name) => Runs::Shell,
            _ => match shebang(&text) {
                Some(how) => how,
                None => continue,
            },
        };
        r.built.insert(path.clone());
        r.reached(format!("from {path} the line wrote, when it runs"), |r| {
            read(r, how, FileText::Known(text), &path, &[])
        });
        // What the reader cannot follow is no harm in itself, but code that plainly runs
        // what it downloads or never ends is.
        if let Some(why) = r.line.unreadable.take()
            && HARM_UNREAD.iter().any(|word| why.contains(word))
        {
            unreadable.get_or_insert(why);
        }
    }
    r.line.unreadable = unreadable;
}

/// How a script that names its interpreter on its first line (`#!/bin/sh`, `#!/usr/bin/env
/// python3`) is run: a wrapper planted where a program is looked for runs when it is.
fn shebang(text: &str) -> Option<Runs> {
    let line = text.strip_prefix("#!")?.lines().next()?;
    let mut words = line.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|w| !w.starts_with('-'))?;
    }
    match program {
        "sh" | "bash" | "dash" | "zsh" | "ksh" => Some(Runs::Shell),
        other => Lang::of_program(other).map(Runs::Code),
    }
}

/// The files a shell runs when it starts (for a login or an interactive shell).
const SHELL_STARTUP: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
];

/// Words of the reasons code is unreadable for that say it does harm, whatever runs it.
const HARM_UNREAD: &[&str] = &[
    "download",
    "piped into an interpreter",
    "piped into a shell",
    "fork bomb",
    "memory bomb",
    "never ends",
];

fn read(r: &mut Reader, how: Runs, text: FileText, path: &str, args: &[Field]) {
    let FileText::Known(text) = text else {
        return r.unreadable(
            "a build tool runs a file the line wrote with text not known before it runs",
        );
    };
    match how {
        Runs::Makefile => makefile(r, Data::Known(text), args),
        Runs::Scripts => match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(json) => {
                let scripts = json.get("scripts").and_then(serde_json::Value::as_object);
                for script in scripts.into_iter().flat_map(|s| s.values()) {
                    match script.as_str() {
                        Some(line) => shell_c(r, line),
                        None => r.unreadable(
                            "a build tool runs scripts the line wrote that are not text",
                        ),
                    }
                }
            }
            Err(_) => {
                r.unreadable("a build tool reads a JSON file the line wrote that does not parse")
            }
        },
        // A PHP file opens with `<?php`; the reader reads the code inside.
        Runs::Code(Lang::Php) => {
            let code = text.trim_start();
            read_code(
                r,
                Some(Lang::Php),
                code.strip_prefix("<?php").unwrap_or(code),
                Some(path),
            )
        }
        Runs::Code(lang) => read_code(r, Some(lang), &text, Some(path)),
        Runs::Requirements => {
            for line in text.lines().map(str::trim) {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let mut args = vec!["install".to_owned()];
                args.extend(line.split_whitespace().map(str::to_owned));
                r.record(SimpleCommand::implied("pip", args, None));
            }
        }
        Runs::CargoManifest => {
            for url in text.lines().filter_map(toml_git_url) {
                let args = vec!["install".into(), "--git".into(), url.into()];
                r.record(SimpleCommand::implied("cargo", args, None));
            }
        }
        Runs::YarnRc => {
            for line in text.lines() {
                if let Some(path) = line.trim().strip_prefix("yarnPath:") {
                    let path = path.trim().trim_matches(['\'', '"']);
                    shell_c(r, &format!("node '{}'", path.replace('\'', r"'\''")));
                }
            }
        }
        Runs::Pth => {
            let imports: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with("import ") || l.starts_with("import\t"))
                .collect();
            read_code(r, Some(Lang::Python), &imports.join("\n"), None);
        }
        Runs::Shell => shell_c(r, &text),
        Runs::Tasks { recipes } => {
            for line in task_lines(&text, recipes) {
                shell_c(r, line);
            }
        }
        Runs::Screened => {
            const REACHES: &[&str] = &[
                "Command::new",
                "process::",
                "std::net",
                "TcpStream",
                "execute_process",
                "exec_program",
                "commandLine",
                "ProcessBuilder",
                "Runtime.getRuntime",
                "remove_dir",
                "remove_file",
                // Files written, moved or linked (the policy, a start-up file).
                "fs::write",
                "fs::copy",
                "fs::rename",
                "File::create",
                "OpenOptions",
                "set_permissions",
                "symlink",
                "file(WRITE",
                "file(APPEND",
                "file(REMOVE",
                "file(RENAME",
                "file(COPY",
                "writeText",
                "writeBytes",
                "Files.write",
                "FileWriter",
                "delete(",
                "curl",
                "wget",
                "/dev/",
                ".ssh",
                "HOME",
                "env::var",
                "include!",
                "ENV{",
            ];
            if REACHES.iter().any(|word| text.contains(word)) {
                r.unreadable("a build tool runs code the line wrote, in a language hookgate does not read, that may run programs or reach the network or files");
            }
        }
    }
}

/// The URL of a `git = "URL"` key on a line of a TOML manifest (`helper = { git = "…" }`).
fn toml_git_url(line: &str) -> Option<&str> {
    let at = line.find("git")?;
    let before = line[..at].chars().next_back();
    if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    let rest = line[at + 3..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    rest[1..].split(quote).next()
}

/// The shell lines of a task file, in the forms [`Runs::Tasks`] names: every indented line
/// of a justfile (`recipes`); elsewhere an indented list item (Task's `cmds:`), a line of
/// tox's `commands =` (continued by indentation), or an `entry:` value (pre-commit).
/// Reading too many lines as shell only costs false alarms.
fn task_lines(text: &str, recipes: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut in_commands = false;
    for line in text.lines() {
        let trimmed = line.trim();
        let indented = line.starts_with([' ', '\t']);
        if recipes {
            if indented {
                out.push(trimmed.trim_start_matches(['@', '-']));
            }
        } else if let Some(value) = trimmed.strip_prefix("entry:") {
            out.push(value.trim().trim_matches(['\'', '"']));
        } else if let Some(value) = trimmed
            .strip_prefix("commands")
            .and_then(|v| v.trim_start().strip_prefix('='))
        {
            in_commands = true;
            out.push(value.trim());
        } else if let Some(item) = trimmed.strip_prefix("- ").filter(|_| indented) {
            out.push(item.trim().trim_matches(['\'', '"']));
        } else if indented && in_commands {
            out.push(trimmed);
        } else if !indented {
            in_commands = false;
        }
    }
    out.retain(|l| !l.is_empty());
    out
}
