//! Options of programs outside the program table whose value is a command, a program to
//! run, or a switch that lets the program's own language run commands: `dpkg
//! --pre-invoke=CMD`, `apt-get -o APT::Update::Pre-Invoke::=CMD`, `gcc -wrapper sh,-c,CMD`,
//! Ghostscript without its sandbox (`-dNOSAFER`, whose `%pipe%` files run commands), and
//! `fd -x`/`-X`, which runs a command on what it finds.

use super::super::super::expand::Field;
use super::super::super::walk::{Data, Io, Reader};
use super::shell_c;

/// The programs read here: a plain line naming one is not passed by the reader's fast path.
pub(in crate::matcher::shell::programs) const OPTION_COMMAND_PROGRAMS: &[&str] = &[
    "dpkg",
    "apt",
    "apt-get",
    "aptitude",
    "gcc",
    "g++",
    "cc",
    "c++",
    "clang",
    "clang++",
    "gs",
    "gsc",
    "ghostscript",
    "gsx",
    "fd",
    "fdfind",
    "helm",
    "cmake",
    "fastlane",
    "valgrind",
    "strace",
    "ltrace",
    "kubectl",
];

/// Reads the commands in `program`'s options.
pub(in crate::matcher::shell::programs) fn option_commands(
    r: &mut Reader,
    program: &str,
    args: &[Field],
) {
    match program {
        "dpkg" => {
            for code in values(args, &["--pre-invoke", "--post-invoke"]) {
                shell_c(r, &code);
            }
        }
        "apt" | "apt-get" | "aptitude" => {
            // `-o Key=Value`: the hooks apt runs through the shell.
            for setting in values(args, &["-o", "--option"]) {
                if let Some((key, code)) = setting.split_once('=') {
                    let key = key.to_ascii_lowercase();
                    if key.contains("invoke") || key.contains("pre-install-pkgs") {
                        shell_c(r, code);
                    }
                }
            }
        }
        "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++" => {
            // The wrapper runs each of gcc's own programs (`cc1`, `as`), given after it.
            for wrapper in values(args, &["-wrapper"]) {
                let mut argv: Vec<Field> = wrapper.split(',').map(Field::literal).collect();
                argv.push(Field::unknown());
                r.run(argv, &Io::default(), Data::Nothing, &[]);
            }
        }
        "gs" | "gsc" | "ghostscript" | "gsx" if args.iter().any(unsandboxed) => {
            r.unreadable("Ghostscript runs without its sandbox, where its files can run commands");
        }
        "fd" | "fdfind" => fd_exec(r, args),
        // `--post-renderer PROG --post-renderer-args A ...`: PROG gets the manifests.
        "helm" => {
            option_program(
                r,
                args,
                "--post-renderer",
                "--post-renderer-args",
                Data::Unknown,
            );
        }
        // `-DCMAKE_C_COMPILER_LAUNCHER=sh;-c;CMD`: the build runs the list as a command
        // before each compile or link.
        "cmake" => {
            for setting in values(args, &["-D"]) {
                let Some((name, value)) = setting.split_once('=') else {
                    continue;
                };
                let name = name.split(':').next().unwrap_or(name);
                if name.ends_with("_LAUNCHER") || name == "CMAKE_EXPORT_COMPILE_COMMANDS_HOOK" {
                    let mut argv: Vec<Field> = value.split(';').map(Field::literal).collect();
                    argv.push(Field::unknown());
                    r.run(argv, &Io::default(), Data::Nothing, &[]);
                }
            }
        }
        // `fastlane run sh command:CMD`.
        "fastlane" => {
            let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
            if let Some(at) = texts.windows(2).position(|w| w == ["run", "sh"]) {
                for a in &args[at + 2..] {
                    if let Some(code) = a.text.strip_prefix("command:") {
                        shell_c(r, code);
                    }
                }
            }
        }
        // Their log goes to the file: `valgrind --log-file=F`, `strace -o F`.
        "valgrind" | "strace" | "ltrace" => {
            let names: &[&str] = match program {
                "valgrind" => &[
                    "--log-file",
                    "--xml-file",
                    "--callgrind-out-file",
                    "--massif-out-file",
                ],
                _ => &["-o", "--output"],
            };
            let files: Vec<String> = values(args, names)
                .into_iter()
                .filter(|f| !f.starts_with(['!', '|']))
                .collect();
            if !files.is_empty() {
                super::record_written(r, files, false, "a tool's log");
            }
        }
        // A kubeconfig user whose credentials come from a command, run by every later
        // `kubectl`: `config set-credentials U --exec-command=sh --exec-arg=-c ...`.
        "kubectl" if args.iter().any(|a| a.text == "set-credentials") => {
            option_program(r, args, "--exec-command", "--exec-arg", Data::Nothing);
        }
        _ => {}
    }
    // `gcc -B DIR`: gcc runs its own programs (`as`, `ld`, `cc1`) from DIR.
    if matches!(program, "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++")
        && values(args, &["-B"])
            .iter()
            .any(|dir| r.env.holds_unknown_below(dir.trim_end_matches('/')))
    {
        r.unreadable("the compiler runs its programs from a directory the line downloaded into");
    }
}

/// Runs each value of the option `program` with the values of the option `arguments`
/// (`--post-renderer P --post-renderer-args A`), reading `stdin`.
fn option_program(r: &mut Reader, args: &[Field], program: &str, arguments: &str, stdin: Data) {
    let rest: Vec<Field> = values(args, &[arguments])
        .iter()
        .map(|a| Field::literal(a))
        .collect();
    for command in values(args, &[program]) {
        let mut argv = vec![Field::literal(&command)];
        argv.extend(rest.iter().cloned());
        r.run(argv, &Io::default(), stdin.clone(), &[]);
    }
}

/// A Ghostscript option that turns its sandbox off, or one not known.
fn unsandboxed(a: &Field) -> bool {
    let t = a.text.as_str();
    a.unknown
        || matches!(t, "-dNOSAFER" | "-dDELAYSAFER" | "-dNOSAFETY")
        || t.starts_with("-dSAFER=")
}

/// The values of the options `names`, given as `--name=VALUE`, `-oVALUE` for a short one,
/// or the next word.
fn values(args: &[Field], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut k = 0;
    while let Some(a) = args.get(k) {
        let t = a.text.as_str();
        for name in names {
            if t == *name {
                if let Some(next) = args.get(k + 1) {
                    out.push(next.text.clone());
                }
                k += 1;
            } else if let Some(value) = t.strip_prefix(name) {
                let value = value
                    .strip_prefix('=')
                    .or_else(|| (!name.starts_with("--")).then_some(value));
                out.extend(value.filter(|v| !v.is_empty()).map(str::to_owned));
            }
        }
        k += 1;
    }
    out
}

/// fd's options that take a value.
const FD_SHORT_VALUES: &str = "detESjocg";
const FD_LONG_VALUES: &[&str] = &[
    "--max-depth",
    "--extension",
    "--type",
    "--exclude",
    "--size",
    "--threads",
    "--owner",
    "--color",
    "--changed-within",
    "--changed-before",
    "--base-directory",
    "--search-path",
    "--ignore-file",
    "--min-depth",
    "--exact-depth",
    "--max-results",
    "--path-separator",
    "--batch-size",
    "--format",
    "--and",
];

/// `fd [PATTERN] [PATH...] -x CMD ARGS` (or `-X`, `--exec`, `--exec-batch`): CMD runs on
/// every entry found under each PATH (the working directory by default), given as `{}` (or
/// its forms `{/}`, `{//}`, `{.}`, `{/.}`) or added at the end; entries are read as every
/// file below PATH with the extension `-e` asks for, since a pattern cannot be read.
fn fd_exec(r: &mut Reader, args: &[Field]) {
    let Some(at) = args
        .iter()
        .position(|a| matches!(a.text.as_str(), "-x" | "--exec" | "-X" | "--exec-batch"))
    else {
        return;
    };
    let (mut positional, mut extension, mut shallow) = (Vec::new(), None, false);
    let mut k = 0;
    while k < at {
        let t = args[k].text.as_str();
        let takes = FD_LONG_VALUES.contains(&t)
            || t.len() == 2 && t.starts_with('-') && FD_SHORT_VALUES.contains(&t[1..]);
        if takes {
            let value = args.get(k + 1).map(|v| v.text.as_str());
            match t {
                "-e" | "--extension" => extension = value,
                "-d" | "--max-depth" | "--exact-depth" => shallow = value == Some("1"),
                _ => {}
            }
            k += 2;
            continue;
        }
        if !t.starts_with('-') {
            positional.push(&args[k]);
        }
        k += 1;
    }
    let dirs: Vec<String> = match positional.get(1..) {
        Some(paths) if !paths.is_empty() => paths.iter().map(|p| p.text.clone()).collect(),
        _ => vec![".".to_owned()],
    };
    let command: Vec<&Field> = args[at + 1..]
        .iter()
        .take_while(|a| a.text != ";")
        .collect();
    if command.is_empty() {
        return;
    }
    for dir in dirs {
        let below = if shallow { "*" } else { "**/*" };
        let entry = Field {
            text: match extension {
                Some(ext) => format!("{}/{below}.{ext}", dir.trim_end_matches('/')),
                None => format!("{}/{below}", dir.trim_end_matches('/')),
            },
            glob: true,
            ..Field::default()
        };
        let placeholder = |t: &str| {
            ["{}", "{/}", "{//}", "{.}", "{/.}"]
                .iter()
                .any(|p| t.contains(p))
        };
        let mut argv: Vec<Field> = command
            .iter()
            .map(|a| {
                if placeholder(&a.text) {
                    entry.clone()
                } else {
                    (*a).clone()
                }
            })
            .collect();
        if !command.iter().any(|a| placeholder(&a.text)) {
            argv.push(entry);
        }
        r.run(argv, &Io::default(), Data::Nothing, &[]);
    }
}
