//! Environment variables and kernel settings that make a program run, load or write
//! something: `BROWSER`, askpass programs, module paths, `PERLDB_OPTS`, `sysctl -w`.

use super::super::super::env::Value;
use super::super::super::expand::Field;
use super::super::super::walk::{Data, Io, Reader};
use super::{code_value, record_written};

/// `sysctl -w kernel.threads-max=20` (`-w` may be left out): a kernel setting written, as
/// `tee /proc/sys/kernel/threads-max` writes it (`.` and `/` both separate the name's
/// parts). Settings loaded from files (`-p FILE`, `--system`, `--load`) may be any of
/// them: `/proc/sys/*`. Reading settings (`sysctl -a`, `sysctl vm.swappiness`) writes none.
pub(in crate::matcher::shell::programs) fn sysctl(r: &mut Reader, args: &[Field]) {
    let mut paths = Vec::new();
    for a in args {
        let t = a.text.as_str();
        let loads = matches!(t, "--system" | "--load")
            || t.starts_with("--load=")
            || (t.starts_with('-') && !t.starts_with("--") && t.contains('p'));
        if loads {
            paths.push("/proc/sys/*".to_owned());
        } else if let Some((name, _)) = t.split_once('=').filter(|_| !t.starts_with('-')) {
            let name = if a.unknown && name.contains(super::super::super::SUBSTITUTION) {
                "*".to_owned()
            } else {
                name.replace('.', "/")
            };
            paths.push(format!("/proc/sys/{}", name.trim_start_matches('/')));
        }
    }
    if !paths.is_empty() {
        record_written(r, paths, false, "written by sysctl");
    }
}

/// `BROWSER` in a program's environment: the commands, `:`-separated, that Python's
/// `webbrowser` (and `xdg-open`, `sensible-browser`) run to open a page, with the page's
/// address put for `%s`. That address comes from the program, not the line: such a command
/// is code not known (`BROWSER='bash -c %s' python3 ...`); one without it is read.
pub(in crate::matcher::shell::programs) fn browser(r: &mut Reader, env: &[(String, Value)]) {
    let Some((_, value)) = env.iter().find(|(name, _)| name == "BROWSER") else {
        return;
    };
    match value {
        Value::Known(commands) if commands.contains("%s") => {
            r.unreadable("the program opens an address it chooses with a command from BROWSER");
        }
        Value::Known(commands) => {
            for command in commands.split(':').filter(|c| !c.trim().is_empty()) {
                r.script(command, Data::Nothing);
            }
        }
        Value::Unknown => r.unreadable(crate::matcher::shell::walk::CODE_NOT_KNOWN),
    }
}

/// The variables [`environment`] reads.
const ENVIRONMENT_READ: &[&str] = &[
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "GCONV_PATH",
    "AWKLIBPATH",
    "TAR_OPTIONS",
    "KUBECONFIG",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG",
    "DOCKER_CONFIG",
    "AWS_CONFIG_FILE",
    "NPM_CONFIG_USERCONFIG",
    "AWKPATH",
    "LUA_PATH",
    "LUA_PATH_5_4",
    "LUA_CPATH",
    "LUA_CPATH_5_4",
    "PERL5LIB",
    "PERLLIB",
    "RUBYLIB",
    "NODE_PATH",
    "PYTHONPATH",
];

/// Environment variables that make a program run or load something: an askpass program
/// (`SSH_ASKPASS=/tmp/x ssh ...` runs it for a passphrase), native modules found on a path
/// (`GCONV_PATH`, gawk's `AWKLIBPATH`), tar's options that run commands (`TAR_OPTIONS=
/// --checkpoint-action=exec=sh`), and a configuration file that can name commands to
/// run (a kubeconfig's `exec` plugin, git's aliases and filters) when the line downloaded
/// it or its text is not known.
pub(in crate::matcher::shell::programs) fn environment(r: &mut Reader, env: &[(String, Value)]) {
    // The command's own assignments, and those the line made before it (`export
    // KUBECONFIG=...; kubectl ...`): reading one the shell did not export only reads more.
    let mut env: Vec<(String, Value)> = env.to_vec();
    for name in ENVIRONMENT_READ {
        if r.env.assigned(name) && !env.iter().any(|(n, _)| n == name) {
            env.push(((*name).to_owned(), r.env.get(name)));
        }
    }
    for (name, value) in &env {
        match name.as_str() {
            "SSH_ASKPASS" | "SUDO_ASKPASS" => code_value(r, value.clone()),
            "GCONV_PATH" | "AWKLIBPATH" => {
                r.unreadable("the program loads native modules from a path its environment sets")
            }
            // tar's options from the environment, which can run commands as tar's own do.
            "TAR_OPTIONS" => {
                let runs = match value {
                    Value::Known(options) => ["exec", "command", "program", "script", "-I"]
                        .iter()
                        .any(|w| options.contains(w)),
                    Value::Unknown => true,
                };
                if runs {
                    r.unreadable(
                        "tar takes options that run commands from its environment (TAR_OPTIONS)",
                    );
                }
            }
            // Where interpreters look for the modules code loads (`AWKPATH=/tmp/lib gawk
            // '@include "x"'`, `LUA_PATH='/tmp/lib/?.lua;;' lua -l json`): a directory of
            // downloads there is code the line runs.
            "AWKPATH" | "LUA_PATH" | "LUA_PATH_5_4" | "LUA_CPATH" | "LUA_CPATH_5_4"
            | "PERL5LIB" | "PERLLIB" | "RUBYLIB" | "NODE_PATH" | "PYTHONPATH" => {
                let downloaded = match value {
                    Value::Known(paths) => paths.split([':', ';']).any(|entry| {
                        // A Lua pattern (`dir/?.lua`) names its directory.
                        let dir = entry.split_once('?').map_or(entry, |(d, _)| d);
                        !dir.is_empty() && r.env.holds_unknown_below(dir.trim_end_matches('/'))
                    }),
                    Value::Unknown => false,
                };
                if downloaded {
                    r.unreadable(
                        "the program loads modules from a directory the line downloaded into",
                    );
                }
            }
            "KUBECONFIG"
            | "GIT_CONFIG_GLOBAL"
            | "GIT_CONFIG_SYSTEM"
            | "GIT_CONFIG"
            | "DOCKER_CONFIG"
            | "AWS_CONFIG_FILE"
            | "NPM_CONFIG_USERCONFIG" => {
                let downloaded = match value {
                    Value::Known(path) => path.split(':').any(|p| r.env.holds_unknown_text(p)),
                    Value::Unknown => true,
                };
                if downloaded {
                    r.unreadable(
                        "the program reads a configuration the line downloaded or does not know, which can name commands to run",
                    );
                }
            }
            _ => {}
        }
    }
}

/// The value the line gives variable `name` for a command: in the command's own
/// assignments (`X=1 cmd`), else set before it on the line; `None` when the line sets none.
pub(in crate::matcher::shell::programs) fn line_variable(
    r: &Reader,
    env: &[(String, Value)],
    name: &str,
) -> Option<Value> {
    match env.iter().find(|(n, _)| n == name) {
        Some((_, v)) => Some(v.clone()),
        None => r.env.assigned(name).then(|| r.env.get(name)),
    }
}

/// Perl's debugger given a `RemotePort=HOST:PORT` in `PERLDB_OPTS` (for the command, or
/// set before it) connects there: read as `nc HOST PORT`.
pub(in crate::matcher::shell::programs) fn perl_debugger_port(
    r: &mut Reader,
    env: &[(String, Value)],
) {
    let Some(value) = line_variable(r, env, "PERLDB_OPTS") else {
        return;
    };
    let Value::Known(options) = value else {
        r.unreadable("the Perl debugger's options are not known before it runs");
        return;
    };
    let Some((_, rest)) = options.split_once("RemotePort=") else {
        return;
    };
    let address = rest.split([' ', '\t', ':']).take(2).map(Field::literal);
    let argv = std::iter::once(Field::literal("nc"))
        .chain(address)
        .collect();
    r.run(argv, &Io::default(), Data::Nothing, &[]);
}
