//! Programs with their own way of running commands or code: shells, `env`, `sudo`/`su`,
//! `xargs`, `find`, `git`, `sed`, `awk`, `tar`, `make`, `ssh`/`rsync`, package runners,
//! containers, editors and pagers, `trap`, `source`.

use super::super::SUBSTITUTION;
use super::super::SimpleCommand;
use super::super::env::Value;
use super::super::expand::Field;
use super::super::options::{self, Opt, Options};
use super::super::walk::{Data, Io, Reader, is_stdin_path};
use super::table::{self, Program};
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
            if opts.iter().any(|o| matches!(o, Opt::Short('v' | 'V', _))) {
                return Data::Known(String::new());
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
        "parallel" => {
            let (_, at) = options::leading(&t, &row.options);
            let rest = &args[at.min(args.len())..];
            let end = rest
                .iter()
                .position(|a| a.text.starts_with(":::"))
                .unwrap_or(rest.len());
            let mut command = rest[..end].to_vec();
            if command.is_empty() {
                stdin_shell(r, stdin);
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
        "scp" | "sftp" => {
            ssh_options(r, &t);
            let (opts, _) = options::leading(&t, &row.options);
            for o in &opts {
                if let Opt::Short('S', Some(p)) = o {
                    r.run(vec![Field::literal(p)], &Io::default(), Data::Nothing, &[]);
                }
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
            Data::Unknown
        }
        "git" => git(r, args, env),
        "sed" | "gsed" => sed(r, row, args),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => awk(r, row, args),
        "tar" | "gtar" | "bsdtar" => tar(r, &t),
        "make" | "gmake" => make(r, row, args, stdin),
        "npx" | "bunx" | "pnpx" => package_runner(r, row, args, 0),
        "npm" | "pnpm" | "yarn" => match t.first().map(String::as_str) {
            Some("exec" | "x" | "dlx") => package_runner(r, row, &args[1..], 0),
            _ => Data::Unknown,
        },
        "docker" | "podman" | "nerdctl" => container(r, args),
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
            let _ = io;
            Data::Unknown
        }
        "trap" => {
            let (_, at) = options::leading(&t, &Options::NONE);
            let rest = &args[at.min(args.len())..];
            if rest.len() > 1 {
                script_of(r, &rest[..1]);
            }
            Data::Nothing
        }
        "source" | "." => {
            match args.first() {
                Some(f) if f.unknown => r.opaque("the sourced script comes from a substitution"),
                Some(f) if is_stdin_path(&f.text) => stdin_shell(r, stdin),
                Some(f) => {
                    let positional = args[1..].iter().map(value_of).collect::<Vec<_>>();
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

fn value_of(f: &Field) -> Value {
    if f.unknown {
        Value::Unknown
    } else {
        Value::Known(f.text.clone())
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
        Value::Unknown => {
            r.opaque("the command runs code that comes from a value not known before it runs")
        }
    }
}

/// Code a program hands to `/bin/sh -c` (awk's `system`, sed's `e`, tar's checkpoint
/// actions, make's recipes): the shell runs too, and then the code.
pub(super) fn shell_c(r: &mut Reader, code: &str) {
    r.record(SimpleCommand {
        program: "sh".to_owned(),
        args: vec!["-c".to_owned(), code.to_owned()],
        redirects: Vec::new(),
    });
    r.script(code, Data::Nothing);
}

/// What a shell reads on standard input runs as its script.
fn stdin_shell(r: &mut Reader, stdin: Data) {
    match stdin {
        Data::Known(script) => {
            r.script(&script, Data::Nothing);
        }
        Data::Unknown => r.opaque("a script is piped into a shell"),
        Data::Nothing => {}
    }
}

/// A shell: its `-c` script, a script file, or what it reads on standard input.
pub(super) fn shell(r: &mut Reader, args: &[Field], stdin: Data, env: &[(String, Value)]) -> Data {
    for (name, value) in env {
        if matches!(name.as_str(), "BASH_ENV" | "ENV") {
            match value {
                Value::Known(path) => {
                    r.run_file(path, Data::Nothing);
                }
                Value::Unknown => r.opaque("the shell's start-up file comes from an unknown value"),
            }
        }
    }
    let mut i = 0;
    let mut command_string = false;
    let mut from_stdin = false;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "--" || t == "-" {
            i += 1;
            break;
        }
        if !(t.starts_with('-') || t.starts_with('+')) || t.len() < 2 {
            break;
        }
        if a.unknown {
            r.opaque("an option of the shell is not known before it runs");
        }
        if matches!(t, "-o" | "+o" | "-O" | "+O") {
            i += 1;
        } else if matches!(t, "--rcfile" | "--init-file") {
            if let Some(f) = args.get(i + 1) {
                r.run_file(&f.text, Data::Nothing);
            }
            i += 1;
        } else if !t.starts_with("--") {
            command_string |= t.contains('c');
            from_stdin |= t.contains('s');
        }
        i += 1;
    }
    match args.get(i) {
        Some(script) if command_string => {
            if script.unknown {
                r.opaque("the shell runs a script that comes from a substitution");
            }
            let positional: Vec<Value> = args
                .get(i + 2..)
                .unwrap_or_default()
                .iter()
                .map(value_of)
                .collect();
            let saved = r.env.positional.replace(positional);
            r.script(&script.text, Data::Nothing);
            r.env.positional = saved;
        }
        Some(file) if !from_stdin => {
            if file.unknown || is_stdin_path(&file.text) && stdin == Data::Unknown {
                r.opaque("the shell runs a script that comes from a substitution");
            } else if is_stdin_path(&file.text) {
                stdin_shell(r, stdin);
            } else {
                r.run_file(&file.text, Data::Nothing);
            }
        }
        _ => stdin_shell(r, stdin),
    }
    Data::Unknown
}

/// An interpreter of another language: its code is not read here, but code that comes
/// from a substitution or a pipe is not understood.
pub(super) fn interpreter(r: &mut Reader, args: &[Field], stdin: &Data) {
    let mut code: Option<&Field> = None;
    let mut from_stdin = true;
    for (k, a) in args.iter().enumerate() {
        if table::CODE_FLAGS.contains(&a.text.as_str()) {
            code = args.get(k + 1);
            from_stdin = false;
            break;
        }
        if !a.text.starts_with('-') || a.text == "-" {
            from_stdin = a.text == "-";
            if !from_stdin {
                code = Some(a);
            }
            break;
        }
    }
    match code {
        Some(c) if c.unknown => {
            r.opaque("the interpreter runs code that comes from a substitution")
        }
        // A script file this line downloaded or produced.
        Some(file)
            if r.env.files.get(&super::super::env::file_key(&file.text))
                == Some(&super::super::env::FileText::Unknown) =>
        {
            r.opaque("the line runs a script it downloaded or made from a command's output");
        }
        Some(_) => {}
        None if from_stdin && *stdin == Data::Unknown => {
            r.opaque("a script is piped into an interpreter");
        }
        None => {}
    }
}

/// `env [options] [NAME=VALUE]... [command]`, and `env -S 'script'`.
fn env_command(
    r: &mut Reader,
    row: &Program,
    args: &[Field],
    stdin: Data,
    outer: &[(String, Value)],
) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut split: Option<String> = None;
    for o in &opts {
        if let Some(s) = option_value(o, 'S', "split-string") {
            split = Some(s);
        }
    }
    let mut env: Vec<(String, Value)> = outer.to_vec();
    let mut k = at.min(args.len());
    while let Some(a) = args.get(k) {
        match a.text.split_once('=') {
            Some((name, value))
                if !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                let value = if a.unknown {
                    Value::Unknown
                } else {
                    Value::Known(value.to_owned())
                };
                r.special_variable(name, &value);
                env.push((name.to_owned(), value));
                k += 1;
            }
            _ => break,
        }
    }
    let mut rest: Vec<Field> = args[k..].to_vec();
    if let Some(s) = split {
        // `-S` splits its string into words (no globbing, no operators: `;` is a word),
        // which come before the other operands.
        let mut words = split_string(&s);
        words.extend(rest);
        rest = words;
    }
    r.run(rest, &Io::default(), stdin, &env)
}

/// The words of `env -S`'s string, split as env does: on whitespace, with single quotes
/// literal, double quotes and backslash escapes (`\_` is a space), `#` starting a comment
/// at a word's start, and `${NAME}` (the environment's value) unknown.
fn split_string(s: &str) -> Vec<Field> {
    let mut words = Vec::new();
    let mut word: Option<Field> = None;
    let mut chars = s.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, '#') if word.is_none() => break,
            (None, '\'' | '"') => {
                field(&mut word).quoted = true;
                quote = Some(c);
            }
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => field(&mut word).text.push(c),
            (_, '\\') => match chars.next() {
                Some('_') => field(&mut word).text.push(' '),
                Some('n') => field(&mut word).text.push('\n'),
                Some('t') => field(&mut word).text.push('\t'),
                Some('c') => break,
                Some(other) => field(&mut word).text.push(other),
                None => {}
            },
            (_, '$') if chars.peek() == Some(&'{') => {
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
                let f = field(&mut word);
                f.text.push_str(SUBSTITUTION);
                f.unknown = true;
            }
            (_, c) => field(&mut word).text.push(c),
        }
    }
    words.extend(word);
    words
}

/// The word being built, started if need be.
fn field(word: &mut Option<Field>) -> &mut Field {
    word.get_or_insert_with(Field::default)
}

/// `xargs [options] [command [args]]`: the command runs with the items of standard input
/// (or of `-a file`) appended, or put in place of `-I`'s replacement string.
fn xargs(
    r: &mut Reader,
    row: &Program,
    args: &[Field],
    stdin: Data,
    env: &[(String, Value)],
) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut input = stdin;
    let mut replace: Option<String> = None;
    let mut delimiter: Option<char> = None;
    for o in &opts {
        match o {
            Opt::Short('a', Some(f)) | Opt::Long(_, Some(f))
                if matches!(o, Opt::Short('a', _))
                    || matches!(o, Opt::Long(l, _) if l == "arg-file") =>
            {
                input = r.file_data(&Field::literal(f));
                if input == Data::Nothing {
                    input = Data::Unknown;
                }
            }
            Opt::Short('I', v) | Opt::Short('i', v) => {
                replace = Some(v.clone().unwrap_or_else(|| "{}".to_owned()))
            }
            Opt::Long(l, v) if l == "replace" => {
                replace = Some(v.clone().unwrap_or_else(|| "{}".to_owned()))
            }
            Opt::Short('0', _) => delimiter = Some('\0'),
            Opt::Long(l, _) if l == "null" => delimiter = Some('\0'),
            Opt::Short('d', Some(d)) => delimiter = d.chars().next(),
            Opt::Long(l, Some(d)) if l == "delimiter" => delimiter = d.chars().next(),
            _ => {}
        }
    }
    let mut command: Vec<Field> = args[at.min(args.len())..].to_vec();
    if command.is_empty() {
        command.push(Field::literal("echo"));
    }
    let items: Vec<Field> = match &input {
        Data::Known(text) => match delimiter {
            Some(d) => text
                .split(d)
                .filter(|s| !s.is_empty())
                .map(Field::literal)
                .collect(),
            None => text
                .split_whitespace()
                .map(|s| Field::literal(s.trim_matches(['"', '\''])))
                .collect(),
        },
        Data::Unknown => vec![Field {
            text: SUBSTITUTION.to_owned(),
            unknown: true,
            ..Field::default()
        }],
        Data::Nothing => Vec::new(),
    };
    match replace {
        Some(token) => {
            let values: Vec<&Field> = if items.is_empty() {
                vec![]
            } else {
                items.iter().collect()
            };
            if values.is_empty() {
                r.run(command.clone(), &Io::default(), Data::Nothing, env);
            }
            for item in values {
                let replaced: Vec<Field> = command
                    .iter()
                    .map(|c| Field {
                        text: c.text.replace(&token, &item.text),
                        unknown: c.unknown || (item.unknown && c.text.contains(&token)),
                        ..c.clone()
                    })
                    .collect();
                r.run(replaced, &Io::default(), Data::Nothing, env);
            }
        }
        None => {
            command.extend(items);
            r.run(command, &Io::default(), Data::Nothing, env);
        }
    }
    Data::Unknown
}

/// Tests of `find` that narrow what it visits, so `-delete` removes chosen files rather
/// than whole trees.
const FIND_FILTERS: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-newer",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-size",
    "-empty",
    "-user",
    "-group",
    "-perm",
    "-inum",
    "-samefile",
    "-links",
    "-lname",
    "-ilname",
];

/// The pattern of a lone, positive `-name P` test: every file found has it as its name.
fn name_test(args: &[Field]) -> Option<String> {
    let mut found = None;
    for (k, a) in args.iter().enumerate() {
        match a.text.as_str() {
            "-name" => {
                let negated = k > 0 && matches!(args[k - 1].text.as_str(), "!" | "-not");
                if negated || found.is_some() {
                    return None;
                }
                found = args
                    .get(k + 1)
                    .filter(|p| !p.unknown && !p.text.contains('/'));
            }
            "-o" | "-or" | "," => return None,
            _ => {}
        }
    }
    found.map(|p| p.text.clone())
}

/// What `{}` stands for below a starting point: any file under it, or (with `-name P`)
/// any file under it named P (`./*P`: the `*` spans directories).
fn under(start: &str, name: Option<&str>) -> String {
    format!("{}/*{}", start.trim_end_matches('/'), name.unwrap_or(""))
}

/// `find`: each `-exec`/`-execdir`/`-ok`/`-okdir` command; `-delete` is an `rm` of the
/// starting points (recursive when nothing narrows the search).
fn find(r: &mut Reader, args: &[Field]) -> Data {
    let starts: Vec<Field> = args
        .iter()
        .take_while(|a| !a.text.starts_with('-') && !matches!(a.text.as_str(), "(" | "!" | ","))
        .cloned()
        .collect();
    let mut k = 0;
    while k < args.len() {
        match args[k].text.as_str() {
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let end = args[k + 1..]
                    .iter()
                    .position(|a| a.text == ";" || a.text == "+")
                    .map_or(args.len(), |p| k + 1 + p);
                // `{}` is each file found: a starting point itself, or something under it
                // (`./name` for `-execdir`).
                let command = &args[k + 1..end];
                let mut names: Vec<String> = if args[k].text.ends_with("dir") || starts.is_empty() {
                    vec![".".to_owned()]
                } else {
                    texts(&starts)
                };
                names.dedup();
                let batched = args.get(end).is_some_and(|a| a.text == "+");
                let name = name_test(args);
                for start in names {
                    if batched {
                        // `{} +`: one command with every file found, the start first.
                        let mut batch = Vec::new();
                        for c in command {
                            if c.text == "{}" {
                                batch.push(Field::literal(&start));
                                batch.push(Field {
                                    glob: true,
                                    ..Field::literal(&under(&start, name.as_deref()))
                                });
                            } else {
                                batch.push(c.clone());
                            }
                        }
                        r.run(batch, &Io::default(), Data::Nothing, &[]);
                    }
                    for found in [start.clone(), under(&start, name.as_deref())] {
                        let replaced = command
                            .iter()
                            .map(|c| Field {
                                text: c.text.replace("{}", &found),
                                glob: c.glob || c.text.contains("{}") && found.contains('*'),
                                ..c.clone()
                            })
                            .collect();
                        r.run(replaced, &Io::default(), Data::Nothing, &[]);
                    }
                }
                k = end;
            }
            "-delete" => {
                let narrowed = args.iter().any(|a| FIND_FILTERS.contains(&a.text.as_str()));
                let mut rm_args: Vec<String> = if narrowed {
                    vec![]
                } else {
                    vec!["-r".to_owned()]
                };
                rm_args.push("--".to_owned());
                rm_args.extend(if starts.is_empty() {
                    vec![".".to_owned()]
                } else {
                    texts(&starts)
                });
                r.record(SimpleCommand {
                    program: "rm".to_owned(),
                    args: rm_args,
                    redirects: Vec::new(),
                });
            }
            "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {}
            _ => {}
        }
        k += 1;
    }
    Data::Unknown
}

/// `ssh -o ProxyCommand=...` and the other options whose value ssh runs as a command.
fn ssh_options(r: &mut Reader, t: &[String]) {
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
                });
            }
            r.script(value, Data::Nothing);
        }
        if key == "match" && value.to_ascii_lowercase().contains("exec") {
            r.opaque("an ssh Match exec option runs a command");
        }
    }
}

/// Configuration keys whose value git runs as a shell command.
fn git_runs(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key.starts_with("alias.")
        || key.starts_with("filter.")
        || key.starts_with("diff.") && (key.ends_with(".command") || key.ends_with(".textconv"))
        || key.starts_with("merge.") && key.ends_with(".driver")
        || key.starts_with("credential") && key.ends_with("helper")
        || key.ends_with(".cmd")
        || key.ends_with(".path") && key.starts_with("difftool.")
        || matches!(
            key.as_str(),
            "core.fsmonitor"
                | "core.sshcommand"
                | "core.pager"
                | "core.editor"
                | "core.askpass"
                | "core.gitproxy"
                | "core.hookspath"
                | "sequence.editor"
                | "gpg.program"
                | "gpg.ssh.program"
                | "gpg.x509.program"
                | "diff.external"
                | "pager.log"
                | "pager.diff"
                | "pager.show"
                | "uploadpack.packobjectshook"
                | "ssh.variant"
                | "protocol.ext.allow"
                | "remote.origin.uploadpack"
                | "remote.origin.receivepack"
        )
        || key.starts_with("pager.")
        || key.starts_with("remote.")
            && (key.ends_with(".uploadpack")
                || key.ends_with(".receivepack")
                || key.ends_with(".proxy"))
}

/// Environment variables whose value git runs as a command.
const GIT_ENV: &[&str] = &[
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_ASKPASS",
    "GIT_PROXY_COMMAND",
    "GIT_SEQUENCE_EDITOR",
    "PAGER",
    "EDITOR",
    "VISUAL",
    "SSH_ASKPASS",
];

/// `git`: the commands its configuration (`-c`, `git config`) and environment make it
/// run, aliases, and the subcommands that run a command (`rebase --exec`, `bisect run`,
/// `submodule foreach`, `filter-branch --*-filter`, `difftool -x`).
fn git(r: &mut Reader, args: &[Field], env: &[(String, Value)]) -> Data {
    let t = texts(args);
    for (name, value) in env {
        if GIT_ENV.contains(&name.as_str()) {
            code_value(r, value.clone());
        }
        if name == "GIT_CONFIG_PARAMETERS"
            || name.starts_with("GIT_CONFIG_VALUE_")
            || name == "GIT_EXEC_PATH"
            || name == "GIT_TEMPLATE_DIR"
        {
            r.opaque("git's configuration comes from the environment");
        }
    }
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut k = 0;
    while let Some(a) = args.get(k) {
        let text = a.text.as_str();
        if !text.starts_with('-') {
            break;
        }
        if a.unknown {
            r.opaque("an option of git is not known before it runs");
        }
        let config = if text == "-c" {
            k += 1;
            args.get(k).map(|f| (f.text.clone(), f.unknown))
        } else {
            text.strip_prefix("-c")
                .filter(|v| !v.is_empty() && !text.starts_with("--"))
                .map(|v| (v.to_owned(), a.unknown))
        };
        if let Some((kv, unknown)) = config {
            if unknown {
                r.opaque("git's configuration comes from a value not known before it runs");
            }
            if let Some((key, value)) = kv.split_once('=')
                && git_runs(key)
            {
                if key.to_ascii_lowercase().starts_with("alias.") {
                    aliases.push((key[6..].to_owned(), value.to_owned()));
                } else {
                    code_value(r, Value::Known(value.to_owned()));
                }
            }
        } else if text == "--config-env" || text.starts_with("--config-env=") {
            r.opaque("git's configuration comes from the environment");
        } else if matches!(
            text,
            "-C" | "--git-dir"
                | "--work-tree"
                | "--namespace"
                | "--exec-path"
                | "--super-prefix"
                | "--list-cmds"
                | "--attr-source"
        ) {
            k += 1;
        }
        k += 1;
    }
    let Some(sub) = args.get(k) else {
        return Data::Unknown;
    };
    if sub.unknown {
        r.opaque("git's subcommand is not known before it runs");
        return Data::Unknown;
    }
    let rest = &t[k + 1..];
    if let Some((_, value)) = aliases.iter().find(|(name, _)| *name == sub.text) {
        match value.strip_prefix('!') {
            Some(code) => {
                // git runs `sh -c 'CODE "$@"' CODE ARGS...` (just `sh -c CODE CODE` without
                // arguments).
                let mut sh_args = vec!["-c".to_owned()];
                if rest.is_empty() {
                    sh_args.push(code.to_owned());
                } else {
                    sh_args.push(format!("{code} \"$@\""));
                }
                sh_args.push(code.to_owned());
                sh_args.extend(rest.iter().cloned());
                r.record(SimpleCommand {
                    program: "sh".to_owned(),
                    args: sh_args,
                    redirects: Vec::new(),
                });
                let script = std::iter::once(code.to_owned())
                    .chain(rest.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(" ");
                r.script(&script, Data::Nothing);
            }
            None => {
                // An alias for another git command.
                let mut fields: Vec<Field> = std::iter::once(Field::literal("git"))
                    .chain(value.split_whitespace().map(Field::literal))
                    .collect();
                fields.extend(args[k + 1..].iter().cloned());
                r.run(fields, &Io::default(), Data::Nothing, &[]);
            }
        }
        return Data::Unknown;
    }
    match sub.text.as_str() {
        "config" => {
            // `git config [--global] key value`: the value runs later.
            let operands: Vec<&String> = rest.iter().filter(|a| !a.starts_with('-')).collect();
            if let [key, value, ..] = operands.as_slice()
                && git_runs(key)
            {
                code_value(r, Value::Known(value.trim_start_matches('!').to_string()));
            }
        }
        "rebase" => {
            for (j, a) in rest.iter().enumerate() {
                if a == "--exec" || a == "-x" {
                    script_of(r, args.get(k + 2 + j..k + 3 + j).unwrap_or_default());
                } else if let Some(code) = a.strip_prefix("--exec=") {
                    r.script(code, Data::Nothing);
                }
            }
        }
        "bisect" if rest.first().is_some_and(|a| a == "run") => {
            r.run(args[k + 2..].to_vec(), &Io::default(), Data::Nothing, &[]);
        }
        "submodule" if rest.iter().any(|a| a == "foreach") => {
            if let Some(j) = rest.iter().position(|a| a == "foreach") {
                let code: Vec<Field> = args[k + 2 + j..]
                    .iter()
                    .filter(|a| !a.text.starts_with("--"))
                    .cloned()
                    .collect();
                script_of(r, &code);
            }
        }
        "filter-branch" => {
            for (j, a) in rest.iter().enumerate() {
                if a.ends_with("-filter") && a.starts_with("--") {
                    script_of(r, args.get(k + 2 + j..k + 3 + j).unwrap_or_default());
                }
            }
        }
        "difftool" | "mergetool" => {
            for (j, a) in rest.iter().enumerate() {
                if a == "-x" || a == "--extcmd" {
                    script_of(r, args.get(k + 2 + j..k + 3 + j).unwrap_or_default());
                } else if let Some(code) = a.strip_prefix("--extcmd=") {
                    r.script(code, Data::Nothing);
                }
            }
        }
        _ => {}
    }
    Data::Unknown
}

/// `sed`: the `e` command and the `e` flag of `s` run commands; `w`/`r` name files.
fn sed(r: &mut Reader, row: &Program, args: &[Field]) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut scripts: Vec<String> = Vec::new();
    for o in &opts {
        if let Some(s) = option_value(o, 'e', "expression") {
            scripts.push(s);
        }
        if option_value(o, 'f', "file").is_some() {
            r.opaque("sed reads its script from a file");
        }
    }
    if scripts.is_empty()
        && let Some(s) = t.get(at)
    {
        scripts.push(s.clone());
        if args[at].unknown {
            r.opaque("sed's script is not known before it runs");
        }
    }
    for s in scripts {
        sed_script(r, &s);
    }
    Data::Unknown
}

/// Finds `e` commands and `s///e` flags in a sed script.
fn sed_script(r: &mut Reader, script: &str) {
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            's' | 'y' => {
                let Some(&delim) = chars.get(i + 1) else {
                    return;
                };
                if delim == '\n' || delim == '\\' {
                    i += 1;
                    continue;
                }
                // Skip the two parts.
                let mut parts = 0;
                let mut j = i + 2;
                while j < chars.len() && parts < 2 {
                    if chars[j] == '\\' {
                        j += 2;
                        continue;
                    }
                    if chars[j] == delim {
                        parts += 1;
                    }
                    j += 1;
                }
                let flags_end = chars[j.min(chars.len())..]
                    .iter()
                    .position(|c| matches!(c, ';' | '\n' | '}'))
                    .map_or(chars.len(), |p| j + p);
                let flags: String = chars[j.min(chars.len())..flags_end].iter().collect();
                if c == 's' && flags.split('w').next().unwrap_or_default().contains('e') {
                    r.opaque("sed runs its pattern space as a command (the s///e flag)");
                }
                i = flags_end;
            }
            'e' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|c| *c == '\n' || *c == ';')
                    .map_or(chars.len(), |p| i + 1 + p);
                let command: String = chars[i + 1..end].iter().collect();
                if command.trim().is_empty() {
                    r.opaque("sed runs its pattern space as a command (the e command)");
                } else {
                    shell_c(r, command.trim());
                }
                i = end;
            }
            'r' | 'R' | 'w' | 'W' | 'a' | 'i' | 'c' | ':' | 'b' | 't' | 'T' | '#' => {
                // Their argument runs to the end of the line.
                i = chars[i..]
                    .iter()
                    .position(|c| *c == '\n')
                    .map_or(chars.len(), |p| i + p);
            }
            _ => i += 1,
        }
    }
}

/// `awk`: `system(...)`, `print | "cmd"`, `"cmd" | getline` with a constant command are
/// read; any other of these forms makes the line opaque.
fn awk(r: &mut Reader, row: &Program, args: &[Field]) -> Data {
    let t = texts(args);
    let (opts, at) = options::leading(&t, &row.options);
    let mut programs: Vec<String> = Vec::new();
    let mut from_file = false;
    for o in &opts {
        if let Some(s) = option_value(o, 'f', "file") {
            from_file = true;
            let _ = s;
        }
        if let Opt::Long(l, Some(s)) = o
            && l == "source"
        {
            programs.push(s.clone());
        }
    }
    if !from_file
        && programs.is_empty()
        && let Some(p) = args.get(at)
    {
        if p.unknown {
            r.opaque("awk's program is not known before it runs");
        }
        programs.push(p.text.clone());
    }
    if from_file {
        r.opaque("awk reads its program from a file");
    }
    for p in programs {
        awk_program(r, &p);
    }
    Data::Unknown
}

fn awk_program(r: &mut Reader, program: &str) {
    let b = program.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if program[i..].starts_with("system")
            && !b
                .get(i.wrapping_sub(1))
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            let rest = program[i + 6..].trim_start();
            match rest
                .strip_prefix('(')
                .map(str::trim_start)
                .and_then(awk_string)
            {
                Some((code, after)) if after.trim_start().starts_with(')') => {
                    shell_c(r, &code);
                }
                _ => r.opaque("awk runs a command it builds at run time"),
            }
        }
        if b[i] == b'|' && b.get(i + 1) != Some(&b'|') && b.get(i.wrapping_sub(1)) != Some(&b'|') {
            let after = program[i + 1..].trim_start();
            if after.starts_with("getline") || after.starts_with('&') {
                // `"cmd" | getline`: the command is the string before the bar.
                let before = program[..i].trim_end();
                match before.rfind('"').and_then(|end| {
                    let start = before[..end].rfind('"')?;
                    Some(before[start + 1..end].to_owned())
                }) {
                    Some(code) if before.ends_with('"') => {
                        shell_c(r, &code);
                    }
                    _ => r.opaque("awk runs a command it builds at run time"),
                }
            } else {
                match awk_string(after) {
                    Some((code, _)) => {
                        shell_c(r, &code);
                    }
                    None => r.opaque("awk runs a command it builds at run time"),
                }
            }
        }
        i += 1;
    }
}

/// A double-quoted awk string at the start of `text`, unescaped, and the text after it.
fn awk_string(text: &str) -> Option<(String, &str)> {
    let body = text.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[k + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// `tar`: options whose value is a command (`--checkpoint-action=exec=`, `--to-command`,
/// `--use-compress-program`/`-I`, `--rsh-command`, `--info-script`/`-F`,
/// `--new-volume-script`), abbreviations included.
fn tar(r: &mut Reader, t: &[String]) -> Data {
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
fn make(r: &mut Reader, row: &Program, args: &[Field], stdin: Data) -> Data {
    let t = texts(args);
    let (opts, _) = options::leading(&t, &row.options);
    for o in &opts {
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

fn makefile(r: &mut Reader, data: Data) {
    match data {
        Data::Known(text) => {
            for line in text.lines() {
                if let Some(recipe) = line.strip_prefix('\t') {
                    shell_c(r, recipe.trim_start_matches(['@', '-', '+']));
                } else if let Some((_, recipe)) = line
                    .split_once(';')
                    .filter(|(target, _)| target.contains(':'))
                {
                    shell_c(r, recipe);
                }
            }
            if text.contains("$(shell") {
                r.opaque("a makefile runs $(shell ...)");
            }
        }
        Data::Unknown => r.opaque("make reads a makefile that is not known before it runs"),
        Data::Nothing => {}
    }
}

/// `npx pkg args`, `npm exec -- pkg args`: a package's program runs (downloaded if not
/// installed); it is read as a command named by the package. `-c 'script'` is a script.
fn package_runner(r: &mut Reader, row: &Program, args: &[Field], _: usize) -> Data {
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
fn container(r: &mut Reader, args: &[Field]) -> Data {
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
fn ex_command(r: &mut Reader, command: &str) {
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
