//! The builtins and everyday programs that move values the reader tracks: what `echo`,
//! `printf` and `cat` print, what `read`, `mapfile`, `printf -v` and the declarations
//! assign, `set`/`shift`/`unset`, aliases, links made with `ln -s`, and the files `tee`,
//! `curl` and `wget` write.

mod downloads;
mod output;
mod state;

use super::super::SimpleCommand;
use super::super::env::{DIR, FileText, Value};
use super::super::expand::{Field, ansi_c};
use super::super::walk::{Data, Io, Reader};
use super::texts;
pub(super) use downloads::{copied_from_afar, extracted, is_remote};
use downloads::{download, file_urls, release_download};
pub(super) use output::keeps_lines;
use output::{date_like, printf, seq, temp_name};
pub(in crate::matcher::shell) use state::unread_shell_options;
use state::{change_dir, read, set_target};

/// Whether `program args` prints shell setup for `eval` (`pyenv init -`, `ssh-agent -s`,
/// `brew shellenv`, `direnv hook bash`): the tool's own functions and exports, made by the
/// tool, not from anything on the line. `direnv export` is not: it runs the project's
/// `.envrc`.
pub(super) fn prints_shell_setup(program: &str, args: &[Field]) -> bool {
    let first = args.first().map(|a| a.text.as_str());
    match program {
        "pyenv" | "rbenv" | "nodenv" | "goenv" | "jenv" | "plenv" | "phpenv" => {
            first == Some("init")
        }
        "direnv" => first == Some("hook"),
        "ssh-agent" => matches!(first, Some("-s" | "-c") | None),
        "minikube" => matches!(first, Some("docker-env" | "podman-env")),
        "brew" => first == Some("shellenv"),
        "fnm" => first == Some("env"),
        "conda" | "micromamba" => first.is_some_and(|a| a.starts_with("shell.")),
        "starship" | "zoxide" | "mise" | "rtx" | "atuin" => {
            matches!(first, Some("init" | "activate"))
        }
        "opam" => first == Some("env"),
        "luarocks" => first == Some("path"),
        "dircolors" => args.iter().all(|a| a.text.starts_with('-')),
        _ => false,
    }
}

/// Reads a program not in the table; returns what it prints.
pub(super) fn run(
    r: &mut Reader,
    program: &str,
    args: &[Field],
    io: &Io,
    stdin: Data,
    env: &[(String, Value)],
) -> Data {
    let known = |f: &Field| (!f.unknown).then(|| f.text.clone());
    match program {
        "echo" => {
            let mut newline = true;
            let mut escapes = false;
            let mut k = 0;
            while let Some(a) = args.get(k) {
                let flags = a
                    .text
                    .strip_prefix('-')
                    .filter(|f| !f.is_empty() && f.chars().all(|c| "neE".contains(c)));
                let Some(flags) = flags else { break };
                newline &= !flags.contains('n');
                escapes = flags.contains('e') || escapes && !flags.contains('E');
                k += 1;
            }
            let parts: Option<Vec<String>> = args[k..].iter().map(known).collect();
            match parts {
                Some(p) => {
                    let mut text = p.join(" ");
                    if escapes {
                        text = ansi_c(&text);
                    }
                    if newline {
                        text.push('\n');
                    }
                    Data::Known(text)
                }
                None => Data::Unknown,
            }
        }
        "printf" => {
            let t = texts(args);
            let (target, start) = match t.first().map(String::as_str) {
                Some("-v") => (t.get(1).cloned(), 2),
                Some("--") => (None, 1),
                _ => (None, 0),
            };
            let start = if t.get(start).is_some_and(|a| a == "--") {
                start + 1
            } else {
                start
            };
            let rest = args.get(start..).unwrap_or_default();
            let out = match rest.split_first() {
                Some((format, values)) if !format.unknown => {
                    let values: Option<Vec<String>> = values.iter().map(known).collect();
                    values.map(|v| printf(&format.text, &v))
                }
                _ => None,
            };
            match target {
                Some(name) => {
                    // `printf -v` fails in a POSIX shell and leaves the variable as it was.
                    let value = if r.posix {
                        Value::Unknown
                    } else {
                        out.map_or(Value::Unknown, Value::Known)
                    };
                    set_target(r, &name, value);
                    Data::Nothing
                }
                None => out.map_or(Data::Unknown, Data::Known),
            }
        }
        "read" => {
            // `IFS=/ read a b`: fields are cut as IFS says; only the default is followed.
            let ifs = env
                .iter()
                .rfind(|(name, _)| name == "IFS")
                .map_or_else(|| r.env.get("IFS"), |(_, v)| v.clone());
            // One name takes a whole line whatever `IFS` is (`IFS= read -r f`), but for
            // blanks at its ends, which a listed path has none of: `read` takes a listing
            // only into one name.
            let stdin = match stdin {
                Data::Listing(..) => stdin,
                _ if ifs == Value::known(" \t\n") => stdin,
                _ => Data::Unknown,
            };
            read(r, args, stdin);
            Data::Nothing
        }
        "mapfile" | "readarray" => {
            let t = texts(args);
            if t.iter().any(|a| {
                a.starts_with("-C")
                    || (a.starts_with('-') && !a.starts_with("--") && a.contains('C'))
            }) {
                r.unreadable("mapfile runs a command for the lines it reads (-C)");
            }
            let name = t
                .iter()
                .rev()
                .find(|a| !a.starts_with('-'))
                .cloned()
                .unwrap_or_else(|| "MAPFILE".to_owned());
            match stdin {
                Data::Known(text) if !r.posix => {
                    let items = text.lines().map(Value::known).collect();
                    r.env.set_array(&name, items);
                }
                _ => r.env.set_array(&name, vec![Value::Unknown]),
            }
            Data::Nothing
        }
        "declare" | "typeset" | "local" | "export" | "readonly" => {
            // Assignments are applied by the walker; `-n` makes a name refer to another.
            let t = texts(args);
            if t.iter()
                .any(|a| a.starts_with('-') && a.contains('A') && !a.starts_with("--"))
            {
                for a in t.iter().filter(|a| !a.starts_with('-')) {
                    let name = a.split(['=', '[']).next().unwrap_or_default();
                    if r.env.associative.len() < 64 {
                        r.env.associative.push(name.to_owned());
                    }
                }
            }
            if t.iter()
                .any(|a| a.starts_with('-') && a.contains('n') && !a.starts_with("--"))
            {
                for a in t.iter().filter(|a| !a.starts_with('-')) {
                    let name = a.split('=').next().unwrap_or_default();
                    r.env.set(name, Value::Unknown);
                    if r.env.namerefs.len() < 64 {
                        r.env.namerefs.push(name.to_owned());
                    }
                }
            }
            Data::Nothing
        }
        "set" => {
            let t = texts(args);
            unread_shell_options(r, &t);
            if t.iter().any(|a| {
                a == "-x"
                    || a == "-o" && t.iter().any(|b| b == "xtrace")
                    || a.starts_with('-') && !a.starts_with("--") && a.contains('x')
            }) {
                r.env.xtrace = true;
                if let Value::Known(ps4) = r.env.get("PS4") {
                    r.special_variable("PS4", &Value::Known(ps4));
                }
            }
            if let Some(k) = t.iter().position(|a| a == "--") {
                r.env.positional = Some(args[k + 1..].iter().map(Field::value).collect());
            }
            Data::Nothing
        }
        "shift" => {
            // A count not known (`shift $((OPTIND - 1))` after getopts) leaves any number of
            // the arguments; one larger than their number shifts none (bash fails).
            let n = match args.first() {
                None => Some(1),
                Some(a) if a.unknown => None,
                Some(a) => a.text.trim().parse::<usize>().ok(),
            };
            match n {
                Some(n) => {
                    if let Some(p) = r.env.positional.as_mut()
                        && n <= p.len()
                    {
                        p.drain(..n);
                    }
                }
                None if args.first().is_some_and(|a| a.unknown) => r.env.positional = None,
                // Not a number: bash refuses, and shifts nothing.
                None => {}
            }
            Data::Nothing
        }
        "unset" => {
            for a in texts(args).iter().filter(|a| !a.starts_with('-')) {
                r.subscript_of(a);
                r.env.unset(a);
            }
            Data::Nothing
        }
        "let" => {
            for a in texts(args) {
                r.arithmetic_command(&a);
            }
            Data::Nothing
        }
        "alias" => {
            for a in args {
                if let Some((name, value)) = a.text.split_once('=') {
                    if a.unknown {
                        r.unreadable("an alias is defined from a value not known before it runs");
                        continue;
                    }
                    let texts = r.env.aliases.entry(name.to_owned()).or_default();
                    if texts.len() < super::super::walk::MAX_DEFINITIONS {
                        texts.push(value.to_owned());
                    }
                    // Read now too: what an alias runs is known the moment it is defined.
                    r.script(value, Data::Nothing);
                }
            }
            Data::Nothing
        }
        "cat" => {
            let files: Vec<&Field> = args
                .iter()
                .filter(|a| !a.text.starts_with('-') || a.text == "-")
                .collect();
            if files.is_empty() {
                return stdin;
            }
            let mut out = Data::Nothing;
            for f in files {
                let data = if f.text == "-" {
                    stdin.clone()
                } else {
                    r.file_data(f)
                };
                out = match (out, data) {
                    (Data::Unknown | Data::Listing(..), _)
                    | (_, Data::Unknown | Data::Listing(..)) => Data::Unknown,
                    (Data::Known(mut a), Data::Known(b)) => {
                        a.push_str(&b);
                        Data::Known(a)
                    }
                    // A file of the workspace: its text is not known here.
                    (_, Data::Nothing) => return Data::Unknown,
                    (Data::Nothing, d) => d,
                };
            }
            out
        }
        // What these print is not known, but where it is, or that it holds no `/`: written
        // as a pattern that matches it, enough to place a path made from it (`rm -rf
        // "$(mktemp -d)"` is in temp, a backup named with `$(date +%F)` stays in its
        // directory).
        "mktemp" => Data::Known(format!("{}\n", temp_name(&texts(args)))),
        "date" => match texts(args).iter().find_map(|a| a.strip_prefix('+')) {
            Some(format)
                if format.contains(['/', '\n'])
                    || format.contains("%D")
                    || format.contains("%x")
                    || format.contains("%c")
                    || format.contains("%r") =>
            {
                Data::Unknown
            }
            Some(format) => Data::Known(format!("{}\n", date_like(format))),
            None if args.is_empty() => Data::Known("*\n".to_owned()),
            None => Data::Unknown,
        },
        "whoami" if args.is_empty() => Data::Known(format!("{}\n", super::super::env::user_name())),
        // A number, as this machine has (`make -j"$(nproc)"`).
        "nproc" => Data::Known(format!(
            "{}\n",
            std::thread::available_parallelism().map_or(1, usize::from)
        )),
        "seq" => seq(args),
        "which" => match args {
            [name] if !name.text.starts_with('-') => r.program_path(name),
            _ => Data::Unknown,
        },
        "type" => match args {
            [flag, name] if flag.text == "-P" || flag.text == "-p" => r.program_path(name),
            _ => Data::Unknown,
        },
        "tee" => {
            let append = args.iter().any(|a| a.text == "-a" || a.text == "--append");
            let text = match &stdin {
                Data::Known(t) => FileText::Known(t.clone()),
                _ => FileText::Unknown,
            };
            for f in args.iter().filter(|a| !a.text.starts_with('-')) {
                r.env.write_file(&f.text, text.clone(), append);
            }
            stdin
        }
        "curl" | "wget" => {
            download(r, program, args, io);
            if program == "curl" {
                file_urls(r, args);
            }
            // `wget --use-askpass=PROGRAM` runs PROGRAM for a password.
            let t = texts(args);
            let askpass =
                t.iter()
                    .enumerate()
                    .find_map(|(k, a)| match a.strip_prefix("--use-askpass") {
                        Some(v) if v.starts_with('=') => Some(v[1..].to_owned()),
                        Some("") => t.get(k + 1).cloned(),
                        _ => None,
                    });
            if program == "wget"
                && let Some(askpass) = askpass
            {
                r.run(
                    vec![Field::literal(&askpass)],
                    &Io::default(),
                    Data::Nothing,
                    &[],
                );
            }
            Data::Unknown
        }
        "gh" if args.len() > 1 && args[0].text == "release" && args[1].text == "download" => {
            release_download(r, &texts(&args[2..]));
            Data::Unknown
        }
        "ls" => super::runners::ls(r, args),
        "unzip" | "7z" | "7za" | "7zz" => {
            extracted(r, program, &texts(args), &stdin);
            Data::Unknown
        }
        "grep" | "egrep" | "fgrep" => super::runners::grep(r, args),
        "rg" => super::runners::rg(
            r,
            args,
            env.iter().any(|(name, _)| name == "RIPGREP_CONFIG_PATH"),
        ),
        // apt installs through dpkg, which runs the packages' scripts: what dpkg is given
        // is not known here.
        "apt" | "apt-get" | "aptitude" => {
            r.record(SimpleCommand {
                program: "dpkg".to_owned(),
                args: vec![crate::matcher::shell::SUBSTITUTION.to_owned()],
                redirects: Vec::new(),
                origin: Some(format!("run by {program}")),
                dir: None,
            });
            Data::Unknown
        }
        // A named pipe carries what another process writes into it: reading it gives
        // something not known here (`mkfifo f; sh < f | nc HOST PORT > f`).
        "mkfifo" | "mknod" => {
            let operands = args.iter().filter(|a| !a.text.starts_with('-'));
            let names: Vec<String> = match program {
                "mknod" => operands.take(1).map(|a| a.text.clone()).collect(),
                _ => operands.map(|a| a.text.clone()).collect(),
            };
            for name in names {
                r.env.write_file(&name, FileText::Unknown, false);
            }
            Data::Nothing
        }
        // A copy of a system program runs as that program (`cp /bin/rm x && ./x -rf ~`):
        // remembered as a link, which running it resolves.
        "cp" | "install" => {
            let t = texts(args);
            // install's options that take a value: `install -m 755 SRC DEST`.
            let valued = |a: &str| program == "install" && matches!(a, "-m" | "-o" | "-g" | "-S");
            let operands: Vec<&String> = t
                .iter()
                .enumerate()
                .filter(|(k, a)| !(a.starts_with('-') || *k > 0 && valued(t[*k - 1].as_str())))
                .map(|(_, a)| a)
                .collect();
            // A copy of a system program, of a program the reader treats specially, or of
            // the gate's own binary runs as what it copies (`cp hookgate /tmp/hg && /tmp/hg
            // approvals approve 1`).
            let known_program = |source: &str| {
                let name = source.rsplit('/').next().unwrap_or_default();
                name == "hookgate" || super::table::is_special(name)
            };
            if let [source, dest] = operands.as_slice()
                && ([
                    "/bin/",
                    "/sbin/",
                    "/usr/bin/",
                    "/usr/sbin/",
                    "/usr/local/bin/",
                ]
                .iter()
                .any(|dir| source.starts_with(dir))
                    || known_program(source))
            {
                r.env
                    .links
                    .insert(super::super::env::file_key(dest), source.to_string());
            }
            // `cp /dev/stdin x.sh <<< 'rm -rf ~'`: the file holds what standard input does.
            if let [source, dest] = operands.as_slice()
                && super::super::walk::is_stdin_path(source)
            {
                let text = match &stdin {
                    Data::Known(t) => FileText::Known(t.clone()),
                    _ => FileText::Unknown,
                };
                r.env.write_file(dest, text, false);
            }
            Data::Nothing
        }
        // `hash -p /bin/rm ls`: the name runs that program from now on, as an alias would.
        "hash" => {
            let t = texts(args);
            let mut words = t.iter();
            while let Some(w) = words.next() {
                if w == "-p"
                    && let (Some(path), Some(name)) = (words.next(), words.next())
                {
                    r.env
                        .aliases
                        .entry(name.clone())
                        .or_default()
                        .push(path.clone());
                }
            }
            Data::Nothing
        }
        "ln" => {
            let t = texts(args);
            if t.iter().any(|a| {
                a.starts_with('-') && !a.starts_with("--") && a.contains('s') || a == "--symbolic"
            }) {
                let operands: Vec<&String> = t.iter().filter(|a| !a.starts_with('-')).collect();
                if let [target, link] = operands.as_slice() {
                    r.env
                        .links
                        .insert(super::super::env::file_key(link), target.to_string());
                }
            }
            Data::Nothing
        }
        // `mkfs -t TYPE args` runs `mkfs.TYPE args`.
        "mkfs" => {
            let t = texts(args);
            if let Some(k) = t.iter().position(|a| a == "-t")
                && let Some(kind) = args.get(k + 1)
            {
                let mut command = vec![Field {
                    text: format!("mkfs.{}", kind.text),
                    ..kind.clone()
                }];
                command.extend(args[..k].iter().cloned());
                command.extend(args[k + 2..].iter().cloned());
                return r.run(command, &Io::default(), Data::Nothing, &[]);
            }
            Data::Unknown
        }
        "cd" | "pushd" => {
            change_dir(r, args);
            Data::Nothing
        }
        // Back to a directory the stack holds: not tracked.
        "popd" => {
            r.env.set(DIR, Value::Unknown);
            Data::Nothing
        }
        "shopt" => {
            let t = texts(args);
            if t.iter().any(|a| a == "nocaseglob") {
                if t.iter().any(|a| a == "-s") {
                    r.env.nocaseglob = true;
                } else if t.iter().any(|a| a == "-u") {
                    r.env.nocaseglob = false;
                }
            }
            Data::Nothing
        }
        "true" | "false" | ":" | "test" | "[" | "exit" | "return" | "wait" | "break"
        | "continue" => Data::Nothing,
        _ => Data::Unknown,
    }
}
