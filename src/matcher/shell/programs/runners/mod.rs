//! Programs with their own way of running commands or code: shells, `env`, `sudo`/`su`,
//! `xargs`, `find`, `git`, `sed`, `awk`, `tar`, `make`, `ssh`/`rsync`, package runners,
//! containers, editors and pagers, `trap`, `source`.

mod ansible;
mod awk;
mod builds;
mod caches;
mod compiled;
mod databases;
mod escapes;
mod git;
mod handoff;
mod interactive;
mod interpreters;
mod logrotate;
mod option_commands;
mod patches;
mod search;
mod sed;
mod sessions;
mod shells;
mod tools;
mod unread;

use awk::awk;
pub(in crate::matcher::shell::programs) use builds::{
    BUILD_TOOLS, stdin_requirements, written_files,
};
pub(in crate::matcher::shell) use builds::{edited_in_place, planted};
pub(super) use caches::{CACHE_CLEANERS, cache_cleaners};
pub(super) use compiled::compiled_source;
pub(super) use databases::client as database_client;
use git::git;
pub(super) use handoff::downloaded_operands;
pub(in crate::matcher::shell::programs) use interpreters::takes_unknown_option;
pub(super) use interpreters::{
    DJANGO, RAILS, console, erb_templates, inspect_mode, interpreter, rails_credentials, rake_code,
};
pub(super) use option_commands::{OPTION_COMMAND_PROGRAMS, option_commands};
pub(crate) use search::FIND_PATTERN_TESTS;
use search::{cpio, find, xargs};
pub(in crate::matcher::shell::programs) use search::{grep, ls, rg};
use sed::sed;
use shells::env_command;
pub(in crate::matcher::shell::programs) use shells::noexec;
pub(super) use shells::shell;
use tools::{container, ex_command, make, package_runner, ssh_options, tar};

use super::super::SimpleCommand;
use super::super::env::{FileText, Value, file_key};
use super::super::expand::Field;
use super::super::options::{self, Opt, Options};
use super::super::walk::{Data, Io, Reader, is_stdin_path};
use super::table::Program;
use super::{option_value, script_of, texts};

/// setarch's personality flags (`-R`, `-3`, `--addr-no-randomize`, ...), none with a value.
const SETARCH_FLAGS: Options = Options {
    short_with_value: "",
    long: &[],
    abbreviations: true,
};

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
        // `setarch ARCH -R CMD`: options before and after the architecture.
        "setarch" => {
            let (_, at) = options::leading(&t, &row.options);
            let after = (at + 1).min(t.len());
            let (_, k) = options::leading(&t[after..], &SETARCH_FLAGS);
            r.run(args[after + k..].to_vec(), &Io::default(), stdin, env)
        }
        "sudo" | "doas" => {
            let (opts, at) = options::leading(&t, &row.options);
            let shell = opts.iter().any(|o| {
                matches!(o, Opt::Short('s' | 'i', None))
                    || matches!(o, Opt::Long(l, _) if l == "shell" || l == "login")
            });
            let rest = &args[at.min(args.len())..];
            if shell && !rest.is_empty() {
                script_of(r, rest);
                return Data::Unknown;
            }
            r.run(rest.to_vec(), &Io::default(), stdin, env)
        }
        "su" | "runuser" => {
            let (opts, at) = options::leading(&t, &row.options);
            for o in &opts {
                if let Some(code) = option_value(o, 'c', "command")
                    .or_else(|| option_value(o, 'c', "session-command"))
                {
                    r.script(&code, Data::Nothing);
                }
            }
            // `runuser -u user -- cmd`: a command; `su user`: a login shell on stdin.
            if program == "runuser"
                && opts.iter().any(|o| {
                    matches!(o, Opt::Short('u', _)) || matches!(o, Opt::Long(l, _) if l == "user")
                })
            {
                return r.run(
                    args[at.min(args.len())..].to_vec(),
                    &Io::default(),
                    stdin,
                    env,
                );
            }
            let rest = &t[at.min(t.len())..];
            // `su - root -c cmd`: options may follow the user.
            let (late, _) = options::leading(rest.get(1..).unwrap_or_default(), &row.options);
            for o in &late {
                if let Some(code) = option_value(o, 'c', "command") {
                    r.script(&code, Data::Nothing);
                }
            }
            stdin_shell(r, stdin);
            Data::Unknown
        }
        "sg" => {
            // `sg group -c cmd` or `sg group cmd`
            if let Some(k) = t.iter().position(|a| a == "-c") {
                script_of(r, args.get(k + 1..k + 2).unwrap_or_default());
            } else {
                script_of(r, args.get(1..).unwrap_or_default());
            }
            Data::Unknown
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
                r.opaque("the package manager fetches a dependency from a git repository");
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
                    r.opaque("the interpreter runs code that comes from a substitution");
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
                r.opaque("an editor reads commands from standard input");
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
                Some(f) if f.unknown => r.opaque("the sourced script comes from a substitution"),
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

/// A value that a program runs as a shell command.
fn code_value(r: &mut Reader, v: Value) {
    match v {
        Value::Known(code) => {
            r.script(
                code.trim_start_matches('|').trim_start_matches('!'),
                Data::Nothing,
            );
        }
        Value::Unknown => r.opaque(crate::matcher::shell::walk::CODE_NOT_KNOWN),
    }
}

/// `npm pkg set scripts.NAME=CODE` and `npm set-script NAME CODE` write a package script,
/// which `npm run NAME` (or `npm test`, or an install hook) hands to `sh -c`: the code is
/// read as what the line sets up to run.
fn package_scripts(r: &mut Reader, args: &[Field]) {
    let set_script = args.first().is_some_and(|a| a.text == "set-script");
    let script_key = |a: &Field| {
        a.text.starts_with("scripts")
            // A value not known could be a `scripts.` key, unless its key is known.
            || (a.unknown
                && a.text
                    .split_once('=')
                    .is_none_or(|(key, _)| key.contains(crate::matcher::shell::SUBSTITUTION)))
    };
    let codes: Vec<&Field> = if set_script {
        let operands = args.iter().skip(1).filter(|a| !a.text.starts_with('-'));
        operands.skip(1).take(1).collect()
    } else if args.get(1).is_some_and(|a| a.text == "set") {
        args.iter().skip(2).filter(|a| script_key(a)).collect()
    } else {
        Vec::new()
    };
    // A dependency set to a URL or a repository is installed from there by the next
    // `npm install`: read as that install.
    if args.get(1).is_some_and(|a| a.text == "set") {
        const KINDS: &[&str] = &[
            "dependencies.",
            "devDependencies.",
            "optionalDependencies.",
            "peerDependencies.",
        ];
        for a in args.iter().skip(2) {
            if let Some((key, source)) = a.text.split_once('=')
                && KINDS.iter().any(|k| key.starts_with(k))
            {
                r.record(SimpleCommand::implied(
                    "npm",
                    vec!["install".to_owned(), source.to_owned()],
                    Some("a dependency set by npm pkg".to_owned()),
                ));
            }
        }
    }
    for field in codes {
        if field.unknown {
            r.opaque("the command sets a package script from a value not known before it runs");
            continue;
        }
        let code = match set_script {
            true => Some(field.text.as_str()),
            false => field.text.split_once('=').map(|(_, code)| code),
        };
        if let Some(code) = code {
            r.reached("a package script set on the line".to_owned(), |r| {
                shell_c(r, code)
            });
        }
    }
}

/// `sftp -b FILE` (`-` for standard input): each `put`/`mput` sends a local file, read as
/// `scp FILE` is; `!command` runs a local shell command. A batch not known may send any.
fn sftp_batch(r: &mut Reader, t: &[String], stdin: &Data) {
    let batch = t.iter().enumerate().find_map(|(k, a)| match a.as_str() {
        "-b" => t.get(k + 1).cloned(),
        _ => a
            .strip_prefix("-b")
            .filter(|v| !v.is_empty())
            .map(str::to_owned),
    });
    let Some(batch) = batch else { return };
    let text = match file_text(r, &batch, false, stdin) {
        Some(Data::Known(text)) => text,
        None | Some(Data::Nothing) => return,
        Some(_) => return r.opaque("sftp runs a batch of commands not known before it runs"),
    };
    // Sent to the machine sftp connects to.
    let host = t
        .last()
        .filter(|h| !h.starts_with('-'))
        .map_or("", String::as_str);
    transfer_commands(r, text.lines(), host, "an sftp batch");
}

/// The commands of a file-transfer client (sftp's batch, smbclient's `-c`): `!CMD` runs the
/// shell here, `put`/`mput`/`reput LOCAL` sends LOCAL to `host`, read as `scp LOCAL HOST:`.
fn transfer_commands<'a>(
    r: &mut Reader,
    commands: impl Iterator<Item = &'a str>,
    host: &str,
    origin: &str,
) {
    for line in commands.map(str::trim_start) {
        if let Some(command) = line.strip_prefix('!') {
            shell_c(r, command);
            continue;
        }
        let mut words = line.trim_start_matches(['-', '@']).split_whitespace();
        if let Some("put" | "mput" | "reput") = words.next() {
            let mut files: Vec<String> = words
                .filter(|w| !w.starts_with('-'))
                .take(1)
                .map(str::to_owned)
                .collect();
            files.push(format!("{}:", host.trim_end_matches(':')));
            r.record(SimpleCommand::implied(
                "scp",
                files,
                Some(origin.to_owned()),
            ));
        }
    }
}

/// `smbclient //HOST/SHARE -c 'put .env x; ...'`: its commands, separated by `;`.
fn smbclient(r: &mut Reader, args: &[Field]) {
    let host = args
        .iter()
        .find(|a| a.text.starts_with("//"))
        .map_or("", |a| {
            a.text
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or("")
        });
    for (k, a) in args.iter().enumerate() {
        let commands = match a.text.as_str() {
            "-c" | "--command" => args.get(k + 1),
            _ => None,
        };
        if let Some(commands) = commands {
            if commands.unknown {
                r.opaque("smbclient runs commands not known before the line runs");
            } else {
                transfer_commands(r, commands.text.split(';'), host, "smbclient's commands");
            }
        }
    }
}

/// The text of a file a program reads, named on the line (`text`; `unknown`: not known
/// before the line runs): what the line wrote there, the host's file (`hostFiles: read`),
/// or standard input for `-` and `/dev/stdin`; `None` when there is no such file.
pub(super) fn file_text(r: &mut Reader, text: &str, unknown: bool, stdin: &Data) -> Option<Data> {
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
pub(super) fn shell_c(r: &mut Reader, code: &str) {
    shell_c_reading(r, code, Data::Nothing);
}

/// As [`shell_c`], for a shell whose standard input is `stdin`.
pub(super) fn shell_c_reading(r: &mut Reader, code: &str, stdin: Data) {
    shell_minus_c(r, "sh", code, stdin);
}

/// `shell -c code` run by a program (`sh`, or the user's shell: tmux's panes).
pub(super) fn shell_minus_c(r: &mut Reader, shell: &str, code: &str, stdin: Data) {
    r.record(SimpleCommand {
        program: shell.to_owned(),
        args: vec!["-c".to_owned(), code.to_owned()],
        redirects: Vec::new(),
        origin: None,
        dir: None,
    });
    r.script(code, stdin);
}

/// Whether an npm, pnpm or yarn argument names a dependency in a git repository
/// (`git+https://…`, `git://…`, `github:user/repo`, `git@host:repo`, `…/repo.git`).
fn is_git_dependency(arg: &str) -> bool {
    let spec = arg.split_once('@').map_or(arg, |(name, spec)| {
        // `name@git+https://…`; a scoped name (`@scope/x`) or `user@host:` is not a version.
        if name.is_empty() || name.contains(':') {
            arg
        } else {
            spec
        }
    });
    [
        "git+",
        "git://",
        "github:",
        "gitlab:",
        "bitbucket:",
        "gist:",
        "git@",
    ]
    .iter()
    .any(|p| spec.starts_with(p))
        || (spec.contains("://") && spec.trim_end_matches('/').ends_with(".git"))
}

/// What a shell reads on standard input runs as its script.
fn stdin_shell(r: &mut Reader, stdin: Data) {
    match stdin {
        Data::Known(script) => {
            r.script(&script, Data::Nothing);
        }
        Data::Unknown | Data::Listing(..) => r.opaque("a script is piped into a shell"),
        Data::Nothing => {}
    }
}

/// Files a program writes that its arguments do not name as files (sed's `w`, awk's
/// `print > FILE`, `find -fprint`), recorded as `tee FILE...` (`tee -a` for `append`), the
/// command whose effect on paths the filters know.
pub(super) fn record_written(r: &mut Reader, paths: Vec<String>, append: bool, origin: &str) {
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
            let name = if a.unknown && name.contains(super::super::SUBSTITUTION) {
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
            r.opaque("the program opens an address it chooses with a command from BROWSER");
        }
        Value::Known(commands) => {
            for command in commands.split(':').filter(|c| !c.trim().is_empty()) {
                r.script(command, Data::Nothing);
            }
        }
        Value::Unknown => r.opaque(crate::matcher::shell::walk::CODE_NOT_KNOWN),
    }
}

/// `cmake [-D VAR=VALUE] -P FILE`: a CMake script, of a language hookgate does not read,
/// looked at as such when the line wrote it or gives it on standard input; the host's own
/// scripts run as the project's do.
fn cmake_script(r: &mut Reader, args: &[Field], stdin: &Data) {
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
            _ => r.opaque("a script is piped into an interpreter"),
        }
        return;
    }
    if let Some((text, false)) = interpreters::script_file(r, &script.text, script.unknown) {
        unread::read(r, "cmake", &text);
    }
}

/// `cmake -E COMMAND ARGS`: CMake's portable file commands, as the programs they stand for
/// (`cmake -E rm -rf DIR` is `rm -rf DIR`), and the commands `chdir` and `env` run.
fn cmake_tool(r: &mut Reader, args: &[Field], stdin: Data) -> Data {
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
            r.opaque("cmake -E runs a command not known before the line runs");
            return Data::Unknown;
        }
        _ => return Data::Unknown,
    };
    let mut words: Vec<Field> = program.iter().map(|w| Field::literal(w)).collect();
    words.extend(rest.iter().cloned());
    r.run(words, &Io::default(), stdin, &[])
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
                r.opaque("the program loads native modules from a path its environment sets")
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
                    r.opaque(
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
                    r.opaque("the program loads modules from a directory the line downloaded into");
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
                    r.opaque(
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
pub(super) fn line_variable(r: &Reader, env: &[(String, Value)], name: &str) -> Option<Value> {
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
        r.opaque("the Perl debugger's options are not known before it runs");
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
            r.opaque("dc runs the commands after a '!' in a program not known here");
            continue;
        };
        for line in text.lines() {
            if let Some((_, command)) = line.split_once('!') {
                shell_c(r, command);
            }
        }
    }
}
