//! Programs that run a command given in an option or operand: `ssh`, `tar`, `make`,
//! package runners, containers, and vim's ex commands.

use crate::matcher::shell::SimpleCommand;
use crate::matcher::shell::env::file_key;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt, Options};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Io, Reader, is_stdin_path};

use super::shell_c;

/// `ssh -o ProxyCommand=...` and the other options whose value ssh runs as a command.
pub(super) fn ssh_options(r: &mut Reader, t: &[String]) {
    const COMMANDS: &[&str] = &[
        "proxycommand",
        "localcommand",
        "knownhostscommand",
        "remotecommand",
        "permitlocalcommand",
    ];
    for (k, a) in t.iter().enumerate() {
        let option = if a == "-o" {
            t.get(k + 1).map(String::as_str)
        } else {
            a.strip_prefix("-o").filter(|v| !v.is_empty())
        };
        let Some(option) = option else { continue };
        let (key, value) = match option.split_once(['=', ' ']) {
            Some((k, v)) => (k.trim().to_ascii_lowercase(), v.trim()),
            None => continue,
        };
        if COMMANDS.contains(&key.as_str()) && key != "permitlocalcommand" && value != "none" {
            // ssh runs a proxy command as `/bin/sh -c "exec CMD"`.
            if key == "proxycommand" {
                r.record(SimpleCommand {
                    program: "sh".to_owned(),
                    args: vec!["-c".to_owned(), format!("exec {value}")],
                    redirects: Vec::new(),
                    origin: None,
                    dir: None,
                });
            }
            r.script(value, Data::Nothing);
        }
        if key == "match" && value.to_ascii_lowercase().contains("exec") {
            r.opaque("an ssh Match exec option runs a command");
        }
    }
}

/// `tar`: options whose value is a command (`--checkpoint-action=exec=`, `--to-command`,
/// `--use-compress-program`/`-I`, `--rsh-command`, `--info-script`/`-F`,
/// `--new-volume-script`), abbreviations included.
pub(super) fn tar(r: &mut Reader, t: &[String]) -> Data {
    const COMMANDS: &[&str] = &[
        "checkpoint-action",
        "to-command",
        "use-compress-program",
        "rsh-command",
        "info-script",
        "new-volume-script",
    ];
    const ALL: &[&str] = &[
        "checkpoint-action=",
        "checkpoint=",
        "to-command=",
        "use-compress-program=",
        "rsh-command=",
        "info-script=",
        "new-volume-script=",
        "to-stdout",
        "totals",
        "touch",
        "transform=",
        "null",
        "numeric-owner",
        "newer=",
        "newer-mtime=",
        "no-recursion",
        "recursion",
        "remove-files",
        "record-size=",
        "restrict",
        "rmt-command=",
        "index-file=",
        "ignore-failed-read",
        "ignore-zeros",
        "ignore-case",
        "incremental",
        "info-script=",
        "interactive",
    ];
    let spec = Options {
        short_with_value: "",
        long: ALL,
        abbreviations: true,
    };
    for (k, a) in t.iter().enumerate() {
        if let Some(long) = a.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, t.get(k + 1).cloned()),
            };
            let Some((full, _)) = spec.resolve_long(name) else {
                continue;
            };
            if !COMMANDS.contains(&full) {
                continue;
            }
            let Some(value) = value else { continue };
            let code = if full == "checkpoint-action" {
                match value.strip_prefix("exec=") {
                    Some(code) => code.to_owned(),
                    None => continue,
                }
            } else {
                value
            };
            shell_c(r, &code);
        } else if a == "-I" || a == "-F" {
            if let Some(code) = t.get(k + 1) {
                shell_c(r, code);
            }
        } else if let Some(code) = a.strip_prefix("-I").filter(|c| !c.is_empty()) {
            shell_c(r, code);
        }
    }
    Data::Unknown
}

/// `make -f -` runs the recipes of a makefile read from standard input; `--eval`'s text is
/// makefile text too. A makefile of the workspace is its own (like `bash build.sh`).
pub(super) fn make(r: &mut Reader, row: &Program, args: &[Field], stdin: Data) -> Data {
    let t = texts(args);
    let (opts, _) = options::leading(&t, &row.options);
    for o in &opts {
        if let Some(dir) = option_value(o, 'C', "directory")
            && r.env.in_downloaded_dir(&file_key(&dir))
        {
            r.opaque("make runs the makefile of a directory the line downloaded");
        }
        if let Some(file) =
            option_value(o, 'f', "file").or_else(|| option_value(o, 'f', "makefile"))
        {
            let data = if is_stdin_path(&file) {
                stdin.clone()
            } else {
                r.file_data(&Field::literal(&file))
            };
            makefile(r, data);
        }
        if let Opt::Long(l, Some(text)) = o
            && l == "eval"
        {
            makefile(r, Data::Known(text.clone()));
        }
    }
    for a in &t {
        if let Some(shell) = a.strip_prefix("SHELL=") {
            r.run(
                vec![Field::literal(shell)],
                &Io::default(),
                Data::Nothing,
                &[],
            );
        }
    }
    Data::Unknown
}

pub(super) fn makefile(r: &mut Reader, data: Data) {
    match data {
        Data::Known(text) => {
            // Make passes `$$` to the shell as `$`.
            for line in text.lines() {
                if let Some(recipe) = line.strip_prefix('\t') {
                    shell_c(
                        r,
                        &recipe
                            .trim_start_matches(['@', '-', '+'])
                            .replace("$$", "$"),
                    );
                } else if let Some((_, recipe)) = line
                    .split_once(';')
                    .filter(|(target, _)| target.contains(':'))
                {
                    shell_c(r, &recipe.replace("$$", "$"));
                }
            }
            if text.contains("$(shell") {
                r.opaque("a makefile runs $(shell ...)");
            }
        }
        Data::Unknown | Data::Listing(..) => {
            r.opaque("make reads a makefile that is not known before it runs")
        }
        Data::Nothing => {}
    }
}

/// `npx pkg args`, `npm exec -- pkg args`: a package's program runs (downloaded if not
/// installed); it is read as a command named by the package. `-c 'script'` is a script.
pub(super) fn package_runner(r: &mut Reader, row: &Program, args: &[Field], _: usize) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    for o in &opts {
        if let Some(code) = option_value(o, 'c', "call") {
            r.script(&code, Data::Nothing);
            return Data::Unknown;
        }
    }
    let mut rest: Vec<Field> = args[at.min(args.len())..].to_vec();
    if let Some(first) = rest.first_mut() {
        // `rimraf@5` runs `rimraf`; `@scope/pkg` runs `pkg`.
        let name = first.text.rsplit('/').next().unwrap_or_default();
        let name = name
            .split('@')
            .find(|s| !s.is_empty())
            .unwrap_or_default()
            .to_owned();
        first.text = name;
    }
    r.run(rest, &Io::default(), Data::Nothing, &[])
}

/// `docker run [options] image [command]`, `docker exec [options] container command`.
pub(super) fn container(r: &mut Reader, args: &[Field]) -> Data {
    const WITH_VALUE: &[&str] = &[
        "-a",
        "--attach",
        "-c",
        "--cpu-shares",
        "--cidfile",
        "--cpus",
        "--cpuset-cpus",
        "-d",
        "--detach-keys",
        "--device",
        "--dns",
        "-e",
        "--env",
        "--env-file",
        "--entrypoint",
        "--expose",
        "--group-add",
        "-h",
        "--hostname",
        "--ip",
        "-l",
        "--label",
        "--label-file",
        "--log-driver",
        "--log-opt",
        "-m",
        "--memory",
        "--mount",
        "--name",
        "--network",
        "--net",
        "-p",
        "--publish",
        "--pid",
        "--platform",
        "--pull",
        "--restart",
        "--runtime",
        "--security-opt",
        "--shm-size",
        "--stop-signal",
        "--stop-timeout",
        "--tmpfs",
        "-u",
        "--user",
        "--ulimit",
        "-v",
        "--volume",
        "--volumes-from",
        "-w",
        "--workdir",
        "--gpus",
        "--health-cmd",
        "--ipc",
        "--uts",
        "--userns",
        "--cgroupns",
        "--add-host",
    ];
    let t = texts(args);
    // `docker cp SRC CONTAINER:DST` copies as `cp` does, into or out of the container.
    if t.first().is_some_and(|a| a == "cp") {
        let operands: Vec<String> = t[1..]
            .iter()
            .filter(|a| !a.starts_with('-'))
            .cloned()
            .collect();
        r.record(SimpleCommand::implied(
            "cp",
            operands,
            Some("a container's copy".to_owned()),
        ));
        return Data::Unknown;
    }
    let Some(sub) = t.iter().position(|a| a == "run" || a == "exec") else {
        return Data::Unknown;
    };
    let mut k = sub + 1;
    while let Some(a) = t.get(k) {
        if a == "--" {
            k += 1;
            break;
        }
        if !a.starts_with('-') {
            break;
        }
        if a == "--entrypoint" || a.starts_with("--entrypoint=") {
            r.opaque("the container's entry point is set on the command line");
        }
        if WITH_VALUE.contains(&a.as_str()) && (a != "-d" || t[sub] == "exec") {
            k += 1;
        }
        k += 1;
    }
    // The image (or container), then the command run inside it.
    r.run(
        args.get(k + 1..).unwrap_or_default().to_vec(),
        &Io::default(),
        Data::Nothing,
        &[],
    )
}

/// An ex command given to vim (`-c '!rm -rf ~'`, `+'call system("...")'`).
pub(super) fn ex_command(r: &mut Reader, command: &str) {
    let c = command.trim_start_matches(':').trim_start();
    if let Some(code) = c.strip_prefix('!') {
        r.script(code, Data::Nothing);
    } else if let Some((_, rest)) = c.split_once('!')
        && (c.starts_with('r') || c.starts_with('w') || c.contains("silent"))
    {
        r.script(rest, Data::Nothing);
    }
    if c.contains("system(")
        || c.contains("systemlist(")
        || c.starts_with("py")
        || c.starts_with("lua")
        || c.starts_with("perl")
        || c.starts_with("ruby")
        || c.starts_with("term")
        || c.starts_with("sh")
    {
        r.opaque("the editor runs code given on its command line");
    }
}
