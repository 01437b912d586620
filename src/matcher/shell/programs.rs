//! What a simple command runs: assignments dropped, the program named, and the commands
//! that shells, interpreters and wrappers run on its behalf read in turn.

use super::reader::{Io, Reader, Word};
use super::{MAX_DEPTH, SUBSTITUTION, SimpleCommand};

/// Shells: they run a `-c` script, a script file, or what arrives on standard input.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "fish", "rbash",
];

/// Interpreters of other languages: not read, but their code must not come from unknown
/// places either.
const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "php",
    "lua",
    "deno",
    "bun",
    "Rscript",
    "tclsh",
    "pwsh",
    "osascript",
    "awk",
    "gawk",
];

/// Options of interpreters that take the code (or a module) in the next argument.
const CODE_FLAGS: &[&str] = &["-c", "-e", "-E", "-p", "-r", "-m", "--eval", "--print"];

/// Words that start a compound command or negate one; the program follows them.
const RESERVED: &[&str] = &[
    "{", "}", "!", "then", "do", "else", "if", "while", "until", "elif", "coproc",
];

/// Programs that run another command given in their arguments, and the options of each
/// that take a value.
const WRAPPERS: &[(&str, &[&str])] = &[
    (
        "sudo",
        &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"],
    ),
    ("doas", &["-u", "-C"]),
    ("pkexec", &["--user"]),
    ("nice", &["-n"]),
    ("ionice", &["-c", "-n", "-p"]),
    ("nohup", &[]),
    ("setsid", &[]),
    ("time", &["-f", "-o"]),
    ("builtin", &[]),
    ("exec", &["-a"]),
    ("stdbuf", &["-i", "-o", "-e"]),
    ("xargs", &["-I", "-n", "-P", "-d", "-E", "-L", "-s", "-a"]),
    ("fakeroot", &[]),
    ("unbuffer", &[]),
    ("torsocks", &[]),
    ("proxychains", &["-f"]),
    ("proxychains4", &["-f"]),
    ("strace", &["-o", "-e", "-p", "-s", "-u"]),
    ("ltrace", &["-o", "-e", "-p", "-u"]),
    ("nocache", &[]),
    ("rlwrap", &[]),
    ("unshare", &[]),
    ("firejail", &[]),
];

/// Wrappers whose first argument after the options is not the command: a duration
/// (`timeout 5`), a priority or CPU mask (`chrt 99`, `taskset 0x1`), a new root directory
/// (`chroot /mnt`), a lock file (`flock /tmp/l`).
const WRAPPERS_WITH_OPERAND: &[(&str, &[&str])] = &[
    ("timeout", &["-s", "-k"]),
    ("chrt", &[]),
    ("taskset", &[]),
    ("chroot", &[]),
    ("flock", &["-w", "-E"]),
];

/// Programs that run a string argument as a shell script, and the option that precedes
/// it (`None`: all arguments after the options, joined).
const SCRIPT_RUNNERS: &[(&str, Option<&str>)] = &[
    ("eval", None),
    ("watch", None),
    ("su", Some("-c")),
    ("runuser", Some("-c")),
    ("script", Some("-c")),
    ("sg", Some("-c")),
];

/// Whether `program` is anything but a plain program: reading it may find more commands.
pub(super) fn is_special(program: &str) -> bool {
    SHELLS.contains(&program)
        || INTERPRETERS.contains(&program)
        || RESERVED.contains(&program)
        || WRAPPERS.iter().any(|(w, _)| *w == program)
        || WRAPPERS_WITH_OPERAND.iter().any(|(w, _)| *w == program)
        || SCRIPT_RUNNERS.iter().any(|(w, _)| *w == program)
        || matches!(
            program,
            "env" | "command" | "find" | "busybox" | "ssh" | "parallel" | "alias" | "source" | "."
        )
        || is_declaration(program)
}

fn is_declaration(program: &str) -> bool {
    matches!(
        program,
        "export" | "declare" | "typeset" | "local" | "readonly"
    )
}

/// Ends a simple command: drops assignments and reserved words, then records what runs.
pub(super) fn finish(reader: &mut Reader, words: Vec<Word>, io: Io, depth: usize) {
    let mut start = 0;
    while words.get(start).is_some_and(is_assignment) {
        start += 1;
    }
    if start == words.len() {
        remember(reader, &words);
        return;
    }
    while words
        .get(start)
        .is_some_and(|w| w.quoted_at.is_none() && RESERVED.contains(&w.text.as_str()))
    {
        start += 1;
    }
    run(reader, &words[start..], io, depth);
}

/// Records what `words` runs: the command itself and whatever it runs in turn.
fn run(reader: &mut Reader, words: &[Word], io: Io, depth: usize) {
    let Some((first, rest)) = words.split_first() else {
        return;
    };
    if words.iter().any(|w| w.expands && w.text.contains("IFS")) {
        reader.opaque("the command splits words with $IFS");
    }
    if first.pattern && first.quoted_at.is_none() {
        if let Some(items) = brace_list(&first.text) {
            let mut expanded: Vec<Word> = items.map(Word::literal).collect();
            expanded.extend_from_slice(rest);
            return run(reader, &expanded, io, depth);
        }
        if !first.expands {
            reader.opaque("the program name is a glob or brace pattern");
        }
    }
    if first.expands {
        reader.opaque("the program comes from a variable or a substitution");
        // Still read the likeliest value, so filters see it whatever onUnparseable says.
        if let Some(value) = lookup(reader, first) {
            let mut guessed: Vec<Word> = value.split_whitespace().map(Word::literal).collect();
            if !guessed.is_empty() && !guessed[0].text.contains('$') {
                guessed.extend_from_slice(rest);
                return run(reader, &guessed, io, depth);
            }
        }
    }
    let program = first.text.rsplit('/').next().unwrap_or_default().to_owned();
    if program.is_empty() {
        return;
    }
    let mut args = Vec::with_capacity(rest.len());
    for w in rest {
        match lookup(reader, w) {
            Some(value) if w.quoted_at.is_none() => {
                args.extend(value.split_whitespace().map(str::to_owned));
            }
            Some(value) => args.push(value),
            None => args.push(w.text.clone()),
        }
    }
    if reader.line.commands.len() >= super::MAX_COMMANDS {
        return reader.opaque("the command holds too many commands");
    }
    remember_file(reader, &program, &args, &io);
    reader.line.commands.push(SimpleCommand {
        program: program.clone(),
        args,
        redirects: io.redirects.clone(),
    });
    if depth >= MAX_DEPTH {
        return reader.opaque("the command nests too deeply");
    }
    // `./x.sh` that this line wrote: its text runs.
    if first.text.contains('/')
        && let Some(script) = written(reader, &first.text)
    {
        run_written(reader, &script, depth);
    }
    what_it_runs(reader, &program, rest, io, depth);
}

/// Reads the commands that `program` runs on its behalf.
fn what_it_runs(reader: &mut Reader, program: &str, args: &[Word], io: Io, depth: usize) {
    if SHELLS.contains(&program) {
        return shell(reader, args, &io, depth);
    }
    if INTERPRETERS.contains(&program) {
        return interpreter(reader, args, &io);
    }
    if let Some((_, with_value)) = WRAPPERS.iter().find(|(w, _)| *w == program) {
        return run(reader, skip_options(args, with_value), io, depth + 1);
    }
    if let Some((_, with_value)) = WRAPPERS_WITH_OPERAND.iter().find(|(w, _)| *w == program) {
        let rest = skip_options(args, with_value);
        if program == "flock"
            && let Some(script) = option_value(args, "-c")
        {
            return reader.read(&script.text, depth + 1);
        }
        return run(reader, rest.get(1..).unwrap_or_default(), io, depth + 1);
    }
    if let Some((_, flag)) = SCRIPT_RUNNERS.iter().find(|(w, _)| *w == program) {
        let script = match flag {
            Some(flag) => match option_value(args, flag) {
                Some(script) => script.text.clone(),
                None => return,
            },
            None => join(skip_options(args, &["-n", "-d"])),
        };
        return reader.read(&script, depth + 1);
    }
    match program {
        "env" => {
            if let Some(script) = option_value(args, "-S") {
                return reader.read(&script.text, depth + 1);
            }
            let rest = skip_options(args, &["-u", "-C"]);
            let start = rest
                .iter()
                .position(|a| !is_assignment(a))
                .unwrap_or(rest.len());
            run(reader, &rest[start..], io, depth + 1);
        }
        // `command -v rm` only looks the name up.
        "command" if !args.iter().any(|a| a.text == "-v" || a.text == "-V") => {
            run(reader, skip_options(args, &[]), io, depth + 1);
        }
        "busybox" => run(reader, args, io, depth + 1),
        "find" => find_exec(reader, args, depth),
        "parallel" => {
            let rest = skip_options(args, &["-j", "-S", "--jobs"]);
            let end = rest
                .iter()
                .position(|a| a.text.starts_with(":::"))
                .unwrap_or(rest.len());
            run(reader, &rest[..end], Io::default(), depth + 1);
        }
        "ssh" => {
            // The remote command is a script for the remote shell.
            let rest = skip_options(
                args,
                &[
                    "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O",
                    "-o", "-p", "-Q", "-R", "-S", "-W", "-w",
                ],
            );
            if rest.len() > 1 {
                reader.read(&join(&rest[1..]), depth + 1);
            }
        }
        "alias" => {
            for a in args {
                if let Some((_, value)) = a.text.split_once('=') {
                    reader.read(value, depth + 1);
                }
            }
        }
        "source" | "." => {
            if let Some(script) = args.first().and_then(|f| written(reader, &f.text)) {
                run_written(reader, &script, depth);
            }
            let from_stdin = args
                .first()
                .is_some_and(|a| matches!(a.text.as_str(), "/dev/stdin" | "-"));
            if args.first().is_some_and(|a| a.text.contains(SUBSTITUTION))
                || (io.piped && from_stdin)
            {
                reader.opaque("the sourced script comes from a substitution or a pipe");
            }
        }
        p if is_declaration(p) => remember(reader, args),
        _ => {}
    }
}

/// A shell: reads its `-c` script or what it reads on standard input; a script it cannot
/// see (a substitution, a pipe) makes the line opaque.
fn shell(reader: &mut Reader, args: &[Word], io: &Io, depth: usize) {
    let mut i = 0;
    let mut command_string = false;
    // `bash -s args`: the script comes on standard input, the arguments are its own.
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
        if matches!(t, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") {
            i += 1;
        } else if t.starts_with('-') && !t.starts_with("--") {
            command_string |= t.contains('c');
            from_stdin |= t.contains('s');
        }
        i += 1;
    }
    match args.get(i) {
        Some(script) if command_string => reader.read(&script.text, depth + 1),
        Some(file) if file.text.contains(SUBSTITUTION) && !from_stdin => {
            reader.opaque("the shell runs a script that comes from a substitution");
        }
        Some(file) if !from_stdin => {
            if let Some(script) = written(reader, &file.text) {
                run_written(reader, &script, depth);
            }
        }
        _ => {
            if io.stdin_unknown {
                reader.opaque("the shell runs a script that comes from a substitution");
            } else if io.stdin_scripts.is_empty() && io.piped {
                reader.opaque("a script is piped into a shell");
            }
            for script in &io.stdin_scripts {
                reader.read(script, depth + 1);
            }
        }
    }
}

/// An interpreter of another language: its code is not read, but code that comes from a
/// substitution or a pipe is not understood.
fn interpreter(reader: &mut Reader, args: &[Word], io: &Io) {
    let mut code = None;
    for (k, a) in args.iter().enumerate() {
        if CODE_FLAGS.contains(&a.text.as_str()) {
            code = Some(args.get(k + 1).map_or("", |c| c.text.as_str()));
            break;
        }
        if !a.text.starts_with('-') || a.text == "-" {
            code = (a.text != "-").then_some(a.text.as_str());
            break;
        }
    }
    match code {
        Some(code) if code.contains(SUBSTITUTION) => {
            reader.opaque("the interpreter runs code that comes from a substitution");
        }
        Some(_) => {}
        None => {
            let unknown = io.stdin_unknown
                || io
                    .stdin_scripts
                    .iter()
                    .any(|s| s.contains("$(") || s.contains('`'));
            if unknown || (io.piped && io.stdin_scripts.is_empty()) {
                reader.opaque("a script is piped into an interpreter");
            }
        }
    }
}

/// `find ... -exec cmd {} ;`: each `-exec`/`-execdir`/`-ok` command.
fn find_exec(reader: &mut Reader, args: &[Word], depth: usize) {
    let mut k = 0;
    while k < args.len() {
        if matches!(
            args[k].text.as_str(),
            "-exec" | "-execdir" | "-ok" | "-okdir"
        ) {
            let end = args[k + 1..]
                .iter()
                .position(|a| a.text == ";" || a.text == "+")
                .map_or(args.len(), |p| k + 1 + p);
            run(reader, &args[k + 1..end], Io::default(), depth + 1);
            k = end;
        }
        k += 1;
    }
}

/// Remembers what `echo`/`printf` (their arguments) or `cat`/`tee` (a here-document)
/// write to a file, for a later command of the line that runs it.
fn remember_file(reader: &mut Reader, program: &str, args: &[String], io: &Io) {
    if matches!(program, "curl" | "wget") {
        return remember_download(reader, args, io);
    }
    let printed = reader.printed.take();
    let text = match program {
        "echo" | "printf" => {
            let text = args.join(" ").replace("\\n", "\n");
            reader.printed = Some(text.clone());
            text
        }
        "cat" | "tee" if !io.stdin_scripts.is_empty() => io.stdin_scripts.join("\n"),
        "cat" | "tee" if io.piped && printed.is_some() => printed.unwrap_or_default(),
        _ => return,
    };
    let mut targets: Vec<(&str, bool)> = io
        .redirects
        .iter()
        .filter(|r| r.op != "<")
        .map(|r| (r.target.as_str(), r.op == ">>"))
        .collect();
    if program == "tee" {
        let append = args.iter().any(|a| a == "-a");
        targets.extend(
            args.iter()
                .filter(|a| !a.starts_with('-'))
                .map(|a| (a.as_str(), append)),
        );
    }
    for (target, append) in targets {
        let path = target.trim_start_matches("./").to_owned();
        match reader.files.get_mut(&path) {
            Some(old) if append => {
                old.push('\n');
                old.push_str(&text);
            }
            _ => {
                reader.files.insert(path, text.clone());
            }
        }
    }
}

/// The text of a file whose content was downloaded: it is not known.
const DOWNLOADED: &str = "\0downloaded";

/// Remembers the files `curl`/`wget` write (`-o`, `-O`, `--output-document=`, `>`, or the
/// URL's file name), so that running one is known to run unknown code.
fn remember_download(reader: &mut Reader, args: &[String], io: &Io) {
    let mut targets: Vec<&str> = io
        .redirects
        .iter()
        .filter(|r| r.op != "<")
        .map(|r| r.target.as_str())
        .collect();
    for (k, a) in args.iter().enumerate() {
        if matches!(a.as_str(), "-o" | "-O" | "--output" | "--output-document")
            && let Some(value) = args.get(k + 1)
        {
            targets.push(value);
        }
        if let Some(value) = a
            .strip_prefix("--output-document=")
            .or_else(|| a.strip_prefix("--output="))
        {
            targets.push(value);
        }
        if a.contains("://") {
            targets.extend(a.rsplit('/').next().filter(|n| !n.is_empty()));
        }
    }
    for target in targets {
        let path = target.trim_start_matches("./").to_owned();
        reader.files.insert(path, DOWNLOADED.to_owned());
    }
}

/// Reads a script the line wrote (or marks the line opaque if it downloaded it).
fn run_written(reader: &mut Reader, script: &str, depth: usize) {
    if script == DOWNLOADED {
        reader.opaque("the line runs a script it downloaded");
    } else {
        reader.read(script, depth + 1);
    }
}

/// The text this line wrote to `path`, if it wrote it; taken, so that running a file
/// again costs nothing (its commands are already read).
fn written(reader: &mut Reader, path: &str) -> Option<String> {
    reader.files.remove(path.trim_start_matches("./"))
}

/// Remembers `name=value` words for later `$name` lookups.
fn remember(reader: &mut Reader, words: &[Word]) {
    for w in words.iter().filter(|w| is_assignment(w)) {
        if let Some((name, value)) = w.text.split_once('=') {
            reader.vars.insert(name.to_owned(), value.to_owned());
        }
    }
}

/// The remembered value of a word that is exactly `$name` or `${name}`.
fn lookup(reader: &Reader, word: &Word) -> Option<String> {
    if !word.expands {
        return None;
    }
    let name = word.text.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|n| n.strip_suffix('}'))
        .unwrap_or(name);
    reader.vars.get(name).cloned()
}

/// The items of an unquoted `{a,b,c}` word, which bash expands to separate words.
fn brace_list(text: &str) -> Option<impl Iterator<Item = &str>> {
    let inner = text.strip_prefix('{')?.strip_suffix('}')?;
    (inner.contains(',') && !inner.contains(['{', '}'])).then(|| inner.split(','))
}

/// The value after option `flag` (`-c script` or `-cscript`), among leading options.
fn option_value<'a>(args: &'a [Word], flag: &str) -> Option<&'a Word> {
    let k = args.iter().position(|a| a.text == flag)?;
    args.get(k + 1)
}

fn join(words: &[Word]) -> String {
    words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `args` after the leading options (and the values of `with_value` options).
fn skip_options<'a>(args: &'a [Word], with_value: &[&str]) -> &'a [Word] {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "--" {
            return &args[i + 1..];
        }
        if !t.starts_with('-') || t == "-" {
            break;
        }
        i += if with_value.contains(&t) { 2 } else { 1 };
    }
    args.get(i..).unwrap_or_default()
}

/// `NAME=value` with an unquoted, valid name.
fn is_assignment(word: &Word) -> bool {
    let Some((name, _)) = word.text.split_once('=') else {
        return false;
    };
    word.quoted_at.is_none_or(|q| q > name.len())
        && !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}
