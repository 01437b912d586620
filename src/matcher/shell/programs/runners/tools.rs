//! Programs that run a command given in an option or operand: `ssh`, `tar`, `make`,
//! package runners, containers, and vim's ex commands.

mod make;

use super::{shell_c, shell_c_reading};
use crate::matcher::code::Lang;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::options::{self, Opt, Options};
use crate::matcher::shell::programs::table::Program;
use crate::matcher::shell::programs::{option_value, texts};
use crate::matcher::shell::walk::{Data, Io, Reader};
use crate::matcher::shell::{SUBSTITUTION, SimpleCommand};
pub(super) use make::{make, makefile};

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
            r.unreadable("an ssh Match exec option runs a command");
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
            // `--to-command` gets each member's text on its input, which the reader cannot
            // know (`curl URL | tar -x --to-command=sh` runs what was downloaded).
            if full == "to-command" {
                shell_c_reading(r, &code, Data::Unknown);
            } else {
                shell_c(r, &code);
            }
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

/// `npx pkg args`, `npm exec -- pkg args`: a package's program runs (downloaded if not
/// installed); it is read as a command named by the package. `-c 'script'` is a script.
pub(super) fn package_runner(r: &mut Reader, row: &Program, args: &[Field], _: usize) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    for o in &opts {
        // npm runs it with `sh -c`.
        if let Some(code) = option_value(o, 'c', "call") {
            shell_c(r, &code);
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
            r.unreadable("the container's entry point is set on the command line");
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
    // neovim's `lua CODE` is Lua, read as such when it leaves the editor's own API alone
    // (`lua print(vim.version().minor)`); `vim.fn`, `vim.cmd`, `vim.system`, `vim.uv` and
    // the rest reach every function the editor has.
    if let Some(code) = c
        .strip_prefix("lua")
        .filter(|code| code.starts_with([' ', '=']))
    {
        let code = code.trim_start_matches('=');
        if VIM_LUA_API.iter().any(|api| code.contains(api)) {
            r.unreadable("the editor runs code given on its command line");
        } else {
            super::interpreters::read_code(r, Some(Lang::Lua), code, None);
        }
        return;
    }
    // Vim script's functions that run programs, delete, rename or write files, or run
    // text as commands (`call delete(expand("~/.ssh"), "rf")`).
    const ACTS: &[&str] = &[
        "system(",
        "systemlist(",
        "delete(",
        "rename(",
        "writefile(",
        "job_start(",
        "jobstart(",
        "term_start(",
        "termopen(",
        "libcall",
        "execute(",
        "exe ",
        "exec ",
        "execute ",
        "luaeval(",
        "py3eval(",
        "pyeval(",
        "perleval(",
        "rubyeval(",
    ];
    // The ex command's name, whole (`:sort` is not `:so`).
    let name: String = c.chars().take_while(char::is_ascii_alphabetic).collect();
    let runs_code = ["py", "lua", "perl", "rub", "term"]
        .iter()
        .any(|p| name.starts_with(p))
        || matches!(name.as_str(), "sh" | "she" | "shel" | "shell")
        || "source".starts_with(name.as_str()) && name.len() >= 2
        || "runtime".starts_with(name.as_str()) && name.len() >= 2;
    if runs_code || ACTS.iter().any(|word| c.contains(word)) {
        r.unreadable("the editor runs code given on its command line");
    }
}

/// The parts of neovim's Lua API that reach beyond Lua's own library.
const VIM_LUA_API: &[&str] = &[
    "vim.fn",
    "vim.cmd",
    "vim.system",
    "vim.uv",
    "vim.loop",
    "vim.api",
    "vim.call",
    "vim.secure",
    "vim.ui",
    "vim.lsp",
    "vim.treesitter",
    "vim.diagnostic",
    "require",
];

/// `rename EXPR FILES...` (Perl's, the one Debian installs as `rename`) and util-linux's
/// `rename FROM TO FILES...`: each file moves to a name the expression makes, read as `mv
/// FILE NEWNAME` with the new name not known; the expression is Perl code (`s/x/y/e` runs
/// what it holds). A dry run (`-n`) moves nothing.
pub(super) fn rename(r: &mut Reader, program: &str, row: &Program, args: &[Field]) {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let dry = opts.iter().any(|o| {
        matches!(o, Opt::Short('n', _))
            || matches!(o, Opt::Long(l, _) if matches!(l.as_str(), "nono" | "no-act" | "dry-run"))
    });
    let mut operands = &args[at.min(args.len())..];
    let perl = program != "rename.ul";
    let mut code: Vec<&str> = opts
        .iter()
        .filter_map(|o| match o {
            Opt::Short('e' | 'E', Some(code)) => Some(code.as_str()),
            _ => None,
        })
        .collect();
    // Without `-e`, the first operand is the expression (util-linux: FROM and TO).
    let skip = match (perl, code.is_empty()) {
        (true, true) => 1,
        (true, false) => 0,
        (false, _) => 2,
    };
    if perl && code.is_empty() {
        code.extend(operands.first().map(|f| f.text.as_str()));
    }
    if perl {
        if operands.iter().take(skip).any(|f| f.unknown) {
            r.unreadable("rename runs a Perl expression not known before the line runs");
        }
        for text in code {
            super::interpreters::read_code(r, Some(Lang::Perl), text, None);
        }
    }
    operands = operands.get(skip..).unwrap_or_default();
    if dry {
        return;
    }
    for file in operands {
        let words = vec![
            Field::literal("mv"),
            Field::literal("--"),
            file.clone(),
            Field::unknown(),
        ];
        r.run(words, &Io::default(), Data::Nothing, &[]);
    }
}

/// Whether tar's word `k`, not all known, can only be a path: a member, or the archive
/// after `-f` (`tar -czf "dist/app-$V.tgz"`). What is unknown in it is quoted (so it stays
/// one word), its start is known and not a `-`, it is not the first word (old-style
/// options, `czf`), and a `/` comes before anything unknown: GNU tar takes `HOST:FILE` for
/// an archive on another host, run through rsh, only when no `/` comes before the colon.
/// Nor may it be an option's value other than `-f`'s: the word before it is no option but
/// a bundle of flags ending in `f`, and old-style options (whose letters take the words
/// after them in turn) hold no letter that takes a value but `f`.
pub(super) fn tar_path(args: &[Field], k: usize) -> bool {
    // Letters that take no value (operations, compressions, verbosity, ...), and `f`.
    let plain = |letters: &str| letters.chars().all(|c| "cxtruzjJvpkOShPWwaf".contains(c));
    let (Some(word), Some(before), Some(first)) = (
        args.get(k),
        k.checked_sub(1).and_then(|b| args.get(b)),
        args.first(),
    ) else {
        return false;
    };
    let old_style = !first.text.starts_with('-');
    let after_option = match before.text.strip_prefix('-') {
        Some(flags) => flags.starts_with('-') || !flags.ends_with('f') || !plain(flags),
        None => k == 1 && old_style && !first.text.ends_with('f'),
    };
    let known = word.text.split(SUBSTITUTION).next().unwrap_or_default();
    !word.splits
        && !after_option
        && (!old_style || plain(&first.text))
        && !known.starts_with('-')
        && known.contains('/')
}
