//! Programs with their own way of running commands or code: shells, `env`, `sudo`/`su`,
//! `xargs`, `find`, `git`, `sed`, `awk`, `tar`, `make`, `ssh`/`rsync`, package runners,
//! containers, editors and pagers, `trap`, `source`.

mod ansible;
mod as_another;
mod awk;
mod builds;
mod caches;
mod cmake;
mod compiled;
mod databases;
mod escapes;
mod git;
mod handoff;
mod interactive;
mod interpreters;
mod logrotate;
mod option_commands;
mod packages;
mod patches;
mod search;
mod sed;
mod sessions;
mod shell_code;
mod shells;
mod tools;
mod transfers;
mod unread;
mod variables;

use as_another::as_another;
pub(crate) use awk::assignments as awk_assignments;
use awk::awk;
pub(in crate::matcher::shell::programs) use builds::{
    BUILD_TOOLS, stdin_requirements, written_files,
};
pub(in crate::matcher::shell) use builds::{edited_in_place, planted};
pub(super) use caches::{CACHE_CLEANERS, cache_cleaners};
use cmake::{cmake_script, cmake_tool};
pub(super) use compiled::compiled_source;
pub(super) use databases::client as database_client;
pub(in crate::matcher::shell::programs) use escapes::dc;
use git::git;
pub(super) use handoff::downloaded_operands;
pub(in crate::matcher::shell::programs) use interpreters::takes_unknown_option;
pub(super) use interpreters::{
    DJANGO, RAILS, console, erb_templates, inspect_mode, interpreter, rails_credentials, rake_code,
};
pub(super) use option_commands::{OPTION_COMMAND_PROGRAMS, option_commands};
use packages::{is_git_dependency, package_scripts};
pub(crate) use search::FIND_PATTERN_TESTS;
use search::{cpio, find, xargs};
pub(in crate::matcher::shell::programs) use search::{grep, ls, rg};
use sed::sed;
use shell_code::{code_value, stdin_shell};
pub(super) use shell_code::{file_text, record_written, shell_c, shell_c_reading, shell_minus_c};
use shells::env_command;
pub(in crate::matcher::shell::programs) use shells::noexec;
pub(super) use shells::shell;
use tools::{container, ex_command, make, package_runner, ssh_options, tar};
use transfers::{sftp_batch, smbclient};
pub(super) use variables::line_variable;
pub(in crate::matcher::shell::programs) use variables::{
    browser, environment, perl_debugger_port, sysctl,
};

use super::super::SimpleCommand;
use super::super::env::Value;
use super::super::expand::Field;
use super::super::options::{self, Opt, Options};
use super::super::walk::{Data, Io, Reader, is_stdin_path};
use super::table::Program;
use super::{option_value, script_of, texts};

/// Reads a program marked [`table::Runs::Own`].
pub(super) fn run(
    r: &mut Reader,
    program: &str,
    row: &Program,
    args: &[Field],
    io: &Io,
    stdin: Data,
    env: &[(String, Value)],
) -> Data {
    let t = texts(args);
    match program {
        "env" => env_command(r, row, args, stdin, env),
        "setarch" | "sudo" | "doas" | "su" | "runuser" | "sg" => {
            as_another(r, program, row, args, stdin, env)
        }
        "flock" => {
            let (opts, at) = options::leading(&t, &row.options);
            for o in &opts {
                if let Some(code) = option_value(o, 'c', "command") {
                    r.script(&code, Data::Nothing);
                    return Data::Unknown;
                }
            }
            // `flock FILE -c cmd` or `flock FILE cmd args`
            let rest = &args[at.min(args.len())..];
            if rest
                .get(1)
                .is_some_and(|a| a.text == "-c" || a.text == "--command")
            {
                script_of(r, rest.get(2..3).unwrap_or_default());
                return Data::Unknown;
            }
            r.run(
                rest.get(1..).unwrap_or_default().to_vec(),
                &Io::default(),
                stdin,
                env,
            )
        }
        "builtin" | "command" => {
            let (opts, at) = options::leading(&t, &Options::NONE);
            // `command -v rm` prints how `rm` would run: its path as `PATH` finds it
            // (`/usr/bin/rm`), or a builtin's or function's name; `-V` a sentence.
            if opts.iter().any(|o| matches!(o, Opt::Short('V', _))) {
                return Data::Unknown;
            }
            if opts.iter().any(|o| matches!(o, Opt::Short('v', _))) {
                return match &args[at.min(args.len())..] {
                    [name] => r.program_path(name),
                    _ => Data::Unknown,
                };
            }
            r.run(
                args[at.min(args.len())..].to_vec(),
                &Io::default(),
                stdin,
                env,
            )
        }
        "fish" => {
            let (opts, at) = options::leading(&t, &row.options);
            let mut ran = false;
            for o in &opts {
                if let Some(code) =
                    option_value(o, 'c', "command").or_else(|| option_value(o, 'C', "init-command"))
                {
                    r.script(&code, Data::Nothing);
                    ran = true;
                }
            }
            if !ran {
                match args.get(at) {
                    Some(file) => {
                        r.run_file(&file.text, Data::Nothing);
                    }
                    None => stdin_shell(r, stdin),
                }
            }
            Data::Unknown
        }
        "watch" => {
            let (_, at) = options::leading(&t, &row.options);
            script_of(r, &args[at.min(args.len())..]);
            Data::Unknown
        }
        "xargs" => xargs(r, row, args, stdin, env),
        "find" => find(r, args),
        "cpio" => cpio(r, args, stdin, env),
        "parallel" => {
            let (_, at) = options::leading(&t, &row.options);
            let rest = &args[at.min(args.len())..];
            let end = rest
                .iter()
                .position(|a| a.text.starts_with(":::"))
                .unwrap_or(rest.len());
            let mut command = rest[..end].to_vec();
            if command.is_empty() {
                // Without a command, each input is a command line: `parallel ::: 'rm -rf ~'`.
                let inputs: Vec<&Field> = rest[end..]
                    .iter()
                    .filter(|a| !a.text.starts_with(":::"))
                    .collect();
                if inputs.is_empty() {
                    stdin_shell(r, stdin);
                }
                for input in inputs {
                    script_of(r, std::slice::from_ref(input));
                }
                return Data::Unknown;
            }
            // The inputs after `:::` are appended to the command.
            command.extend(
                rest[end..]
                    .iter()
                    .filter(|a| !a.text.starts_with(":::"))
                    .cloned(),
            );
            script_of(r, &command);
            Data::Unknown
        }
        "ssh" => {
            ssh_options(r, &t);
            let (_, at) = options::leading(&t, &row.options);
            let rest = &args[at.min(args.len())..];
            // The remote command is a script for the remote shell.
            if rest.len() > 1 {
                script_of(r, &rest[1..]);
            }
            Data::Unknown
        }
        "ansible" => {
            ansible::ansible(r, args);
            Data::Unknown
        }
        "smbclient" => {
            smbclient(r, args);
            Data::Unknown
        }
        "scp" | "sftp" => {
            ssh_options(r, &t);
            let (opts, at) = options::leading(&t, &row.options);
            for o in &opts {
                if let Opt::Short('S', Some(p)) = o {
                    r.run(vec![Field::literal(p)], &Io::default(), Data::Nothing, &[]);
                }
            }
            if program == "sftp" {
                sftp_batch(r, &t, &stdin);
            }
            if program == "scp" {
                let recursive = opts.iter().any(|o| matches!(o, Opt::Short('r', _)));
                let operands: Vec<&str> = t[at.min(t.len())..].iter().map(String::as_str).collect();
                super::builtins::copied_from_afar(r, &operands, recursive);
            }
            Data::Unknown
        }
        "rsync" => {
            for (k, a) in t.iter().enumerate() {
                let value = a
                    .strip_prefix("--rsh=")
                    .or_else(|| a.strip_prefix("--rsync-path="))
                    .map(str::to_owned)
                    .or_else(|| {
                        matches!(a.as_str(), "-e" | "--rsh" | "--rsync-path")
                            .then(|| t.get(k + 1).cloned())
                            .flatten()
                    })
                    .or_else(|| {
                        a.strip_prefix("-e")
                            .filter(|v| !v.is_empty() && !a.starts_with("--"))
                            .map(str::to_owned)
                    });
                if let Some(code) = value {
                    r.script(&code, Data::Nothing);
                }
            }
            let (_, operands) = options::permuted(&t, &row.options);
            let operands: Vec<&str> = operands.iter().map(|&k| t[k].as_str()).collect();
            super::builtins::copied_from_afar(r, &operands, true);
            Data::Unknown
        }
        "git" => git(r, args, env, &stdin),
        "patch" | "gpatch" => patches::patch(r, args, &stdin),
        "sed" | "gsed" => sed(r, row, args),
        p if awk::AWKS.contains(&p) => awk(r, row, args, &stdin),
        "tar" | "gtar" | "bsdtar" => {
            super::builtins::extracted(r, program, &t, &stdin);
            let (moved, listed) = crate::matcher::shell::effects::tar_reads(&t);
            if !moved.is_empty() {
                let origin = Some("the members in tar's -C directory".to_owned());
                r.record(SimpleCommand::implied(program, moved, origin));
            }
            // `find ... | tar -cf x.tar -T -`: the members are the listing.
            if listed {
                search::read_listing(r, stdin, false, &[]);
            }
            tar(r, &t)
        }
        "make" | "gmake" => make(r, row, args, stdin),
        "npx" | "bunx" | "pnpx" => package_runner(r, row, args, 0),
        "npm" | "pnpm" | "yarn" => match t.first().map(String::as_str) {
            // With npx's options (`npm exec -c 'script'`).
            Some("exec" | "x" | "dlx") => match super::table::find("npx") {
                Some(npx) => package_runner(r, npx, &args[1..], 0),
                None => Data::Unknown,
            },
            // A dependency from a git repository is fetched by running git (and ssh), with
            // the user's git configuration and hooks: what they run is not known here.
            Some(_) if t.iter().skip(1).any(|a| is_git_dependency(a)) => {
                r.unreadable("the package manager fetches a dependency from a git repository");
                Data::Unknown
            }
            Some("pkg" | "set-script") => {
                package_scripts(r, args);
                Data::Unknown
            }
            _ => Data::Unknown,
        },
        "docker" | "podman" | "nerdctl" => container(r, args),
        "logrotate" => logrotate::logrotate(r, args, &stdin),
        "cmake" if t.first().is_some_and(|a| a == "-E") => cmake_tool(r, &args[1..], stdin),
        // `mix run -e CODE` (`--eval`, as often as given): Elixir code, as `elixir -e`
        // runs it.
        "mix" if t.first().is_some_and(|a| a == "run") => {
            let codes = args
                .windows(2)
                .filter(|w| matches!(w[0].text.as_str(), "-e" | "--eval"));
            for code in codes.map(|w| &w[1]) {
                if code.unknown {
                    r.unreadable("the interpreter runs code that comes from a substitution");
                } else {
                    unread::read(r, "mix", &code.text);
                }
            }
            Data::Unknown
        }
        "cmake" if t.iter().any(|a| a == "-P") => {
            cmake_script(r, args, &stdin);
            Data::Unknown
        }
        // `capsh [options] -- ARGS`: `bash ARGS` (or the `--shell=` program), with the
        // capabilities and ids the options set.
        "capsh" => {
            if let Some(k) = t.iter().position(|a| a == "--") {
                let shell = t[..k]
                    .iter()
                    .rev()
                    .find_map(|a| a.strip_prefix("--shell="))
                    .unwrap_or("bash");
                let mut command = vec![Field::literal(shell)];
                command.extend(args[k + 1..].iter().cloned());
                r.run(command, &Io::default(), stdin, &[]);
            }
            Data::Unknown
        }
        "kubectl" | "oc" => {
            // `kubectl exec pod -- cmd args`, `kubectl run x --image=i -- cmd`
            if t.iter().any(|a| a == "exec" || a == "run" || a == "debug")
                && let Some(k) = t.iter().position(|a| a == "--")
            {
                r.run(args[k + 1..].to_vec(), &Io::default(), Data::Nothing, &[]);
            }
            Data::Unknown
        }
        "vim" | "vi" | "nvim" | "view" | "ex" | "gvim" => {
            for (k, a) in t.iter().enumerate() {
                let command = if a == "-c" || a == "--cmd" {
                    t.get(k + 1).map(String::as_str)
                } else {
                    a.strip_prefix('+')
                };
                if let Some(c) = command {
                    ex_command(r, c);
                }
            }
            if matches!(stdin, Data::Known(_) | Data::Unknown)
                && t.iter().any(|a| a == "-s" || a == "-es" || a == "-e")
            {
                r.unreadable("an editor reads commands from standard input");
            }
            Data::Unknown
        }
        "less" | "more" | "man" => {
            for name in [
                "LESSOPEN",
                "LESSCLOSE",
                "MANPAGER",
                "PAGER",
                "LESSKEY",
                "VISUAL",
                "EDITOR",
            ] {
                if let Some((_, v)) = env.iter().find(|(n, _)| n == name) {
                    code_value(r, v.clone());
                }
            }
            if let Some(k) = t.iter().position(|a| a == "-P" || a == "--pager") {
                script_of(r, args.get(k + 1..k + 2).unwrap_or_default());
            }
            escapes::less_commands(r, &t);
            let _ = io;
            Data::Unknown
        }
        "ed" | "red" => {
            escapes::ed(r, &stdin);
            Data::Unknown
        }
        "zip" => {
            escapes::zip(r, args);
            Data::Unknown
        }
        "split" => {
            escapes::split(r, args, &stdin);
            Data::Unknown
        }
        "m4" | "gm4" => {
            escapes::m4(r, args, &stdin);
            Data::Unknown
        }
        "rename" | "prename" | "file-rename" | "perl-rename" | "rename.ul" => {
            tools::rename(r, program, row, args);
            Data::Unknown
        }
        "emacs" | "emacsclient" => {
            escapes::emacs(r, args);
            Data::Unknown
        }
        "pwsh" | "powershell" | "nu" | "xonsh" | "elvish" | "murex" => {
            escapes::foreign_shell(r, &t, &stdin);
            Data::Unknown
        }
        "tmux" => {
            sessions::tmux(r, args);
            Data::Unknown
        }
        "screen" => {
            sessions::screen(r, args);
            Data::Unknown
        }
        "at" | "batch" => {
            sessions::at(r, args, stdin);
            Data::Unknown
        }
        "run-parts" => {
            sessions::run_parts(r, args);
            Data::Unknown
        }
        // `sort --compress-program=PROG` runs PROG to compress its temporary files, and
        // `PROG -d` to read them back.
        "sort" => {
            let (opts, _) = options::leading(&t, &row.options);
            for o in &opts {
                if let Some(program) = option_value(o, '\0', "compress-program") {
                    let quoted = format!("'{}'", program.replace('\'', r"'\''"));
                    shell_c(r, &quoted);
                    shell_c(r, &format!("{quoted} -d"));
                }
            }
            Data::Unknown
        }
        "compgen" | "fc" | "history" | "enable" => {
            interactive::run(r, program, args);
            Data::Unknown
        }
        "trap" => {
            let (_, at) = options::leading(&t, &Options::NONE);
            let rest = &args[at.min(args.len())..];
            if rest.len() > 1 {
                r.trap(&rest[0]);
            }
            Data::Nothing
        }
        "source" | "." => {
            match args.first() {
                Some(f) if f.unknown => {
                    r.unreadable("the sourced script comes from a substitution")
                }
                Some(f) if is_stdin_path(&f.text) => stdin_shell(r, stdin),
                Some(f) => {
                    let positional = args[1..].iter().map(Field::value).collect::<Vec<_>>();
                    let saved =
                        (!positional.is_empty()).then(|| r.env.positional.replace(positional));
                    r.run_file(&f.text, Data::Nothing);
                    if let Some(saved) = saved {
                        r.env.positional = saved;
                    }
                }
                None => {}
            }
            Data::Unknown
        }
        "valgrind" | "gdb" | "perf" | "firejail" => {
            // The command is the first operand that is not an option.
            let start = t
                .iter()
                .position(|a| !a.starts_with('-'))
                .unwrap_or(t.len());
            if program == "gdb" {
                escapes::gdb(r, args, &stdin);
            }
            let start = if program == "perf" || program == "gdb" {
                // `perf record -- cmd`, `gdb --args cmd`
                t.iter()
                    .position(|a| a == "--" || a == "--args")
                    .map_or(t.len(), |k| k + 1)
            } else {
                start
            };
            r.run(
                args[start.min(args.len())..].to_vec(),
                &Io::default(),
                stdin,
                env,
            )
        }
        _ => Data::Unknown,
    }
}
