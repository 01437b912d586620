//! What a simple command runs on its behalf, by the program table: wrappers' commands,
//! shells' scripts, the code of programs that run code (`git -c alias.x='!...'`,
//! `sed 's/../../e'`, `tar --checkpoint-action=exec=...`, `find -exec`), and the effects of
//! the shell's own builtins on the values the reader tracks.

mod builtins;
mod git_view;
pub(crate) mod http;
pub(crate) mod resources;
mod rows;
mod runners;
pub(super) mod signals;
mod table;
pub(in crate::matcher::shell) mod urls;

use super::env::Value;
use super::expand::Field;
use super::options;
use super::walk::{Data, Io, Reader};
use crate::matcher::code::Lang;

pub(crate) use runners::{FIND_PATTERN_TESTS, awk_assignments};
pub(super) use runners::{edited_in_place, planted};
pub(super) use table::is_special;

/// Whether `program` has a cache or build cleaner (`runners/caches.rs`).
pub(super) fn is_cleaner(program: &str) -> bool {
    runners::CACHE_CLEANERS.contains(&program)
}

/// Whether `program` runs the command after its options in its own place (`nohup`,
/// `timeout`, `sudo`, `env`): that command reads its input and writes to its redirections.
pub(super) fn runs_in_place(program: &str) -> bool {
    table::find(program).is_some_and(|row| matches!(row.runs, table::Runs::Command { .. }))
        || matches!(program, "env" | "sudo" | "doas" | "command" | "builtin")
}

/// Whether `program` is a shell this reader reads (`sh`, `bash`, ...).
pub(super) fn is_shell(program: &str) -> bool {
    table::find(program).is_some_and(|row| row.runs == table::Runs::Shell)
}

/// Which of a shell's `args` is the script `-c` gives it (`bash -ec 'make all'`): code
/// the reader reads as such, not a file the shell opens.
pub(crate) fn script_operand(program: &str, args: &[String]) -> Option<usize> {
    if !is_shell(program) {
        return None;
    }
    let c = args.iter().position(|a| {
        a.strip_prefix('-')
            .is_some_and(|flags| !flags.starts_with('-') && flags.contains('c'))
    })?;
    (c + 1..args.len()).find(|&k| !args[k].starts_with(['-', '+']))
}

/// Whether `git SUBCOMMAND ARGS...` written plainly runs nothing but git and reads as
/// written: no global option before the subcommand, not a subcommand that runs commands or
/// writes configuration, and nothing git would read differently from how it is written
/// (`reset --har`, `clean -fdx`, `stash`: see `git_view`), nor a `checkout` whose names may
/// be paths (that is read where the command runs).
pub(super) fn plain_git(args: &[String]) -> bool {
    let Some(subcommand) = args.first() else {
        return false;
    };
    !subcommand.starts_with('-')
        && !matches!(
            subcommand.as_str(),
            "config"
                | "rebase"
                | "bisect"
                | "submodule"
                | "filter-branch"
                | "difftool"
                | "mergetool"
                | "grep"
                // What a patch writes is inside it (`runners::patches`).
                | "apply"
                | "am"
        )
        && git_view::view(args, false) == args
        && git_view::checkout_names(args).is_none()
        // `git show HEAD:.env` reads a file (`runners::git`).
        && !(matches!(subcommand.as_str(), "show" | "cat-file" | "archive")
            && args.iter().any(|a| a.contains(':')))
        // `git log --output=F` writes the file.
        && args.iter().all(|a| !a.starts_with("--output"))
}

/// Whether `program`'s long options are spelled out for filters (so its line must be read).
pub(super) fn has_long_options(program: &str) -> bool {
    table::long_options(program).is_some()
}
/// The arguments as a filter should see them: long-option abbreviations spelled out for
/// the programs that accept them, and absolute paths in one spelling (`/dev//sda`,
/// `/dev/./sda` and `/proc/self/root/dev/sda` are `/dev/sda`).
pub(super) fn canonical_args(program: &str, args: &[String]) -> Vec<String> {
    let mut args = match table::long_options(program) {
        Some(spec) if args.iter().any(|a| a.starts_with("--")) => options::canonical(args, &spec),
        _ => args.to_vec(),
    };
    for a in &mut args {
        let (prefix, path) = match a.split_once('=') {
            Some((p, v)) if v.starts_with('/') && !p.starts_with('-') => (Some(p.len() + 1), v),
            _ => (None, a.as_str()),
        };
        if path.starts_with('/')
            && (path.contains("//") || path.contains("/./") || path.starts_with("/proc/"))
        {
            let clean = absolute(path);
            *a = match prefix {
                Some(n) => format!("{}{clean}", &a[..n]),
                None => clean,
            };
        }
    }
    args
}

/// An absolute path with repeated separators and `.` components dropped, and the root
/// reached through `/proc/self/root` (or a process's root) written as `/`.
fn absolute(path: &str) -> String {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let rest = crate::matcher::paths::below_proc_root(&parts);
    let mut out = String::from("/");
    out.push_str(&rest.join("/"));
    if path.ends_with('/') && out.len() > 1 {
        out.push('/');
    }
    out
}

/// Programs that may print some of a listing's lines as they are (see
/// [`builtins::keeps_lines`]).
const LINE_FILTERS: &[&str] = &[
    "head", "tail", "grep", "egrep", "fgrep", "sort", "uniq", "tac", "cat", "shuf",
];

/// Whether `program` reads a listing on its standard input as one: `xargs`, `cpio` and
/// `tar -T -` read the names, line filters pass some on.
pub(super) fn reads_listings(program: &str) -> bool {
    matches!(
        program,
        "xargs" | "cpio" | "tar" | "bsdtar" | "gtar" | "awk" | "gawk" | "mawk" | "nawk" | "read"
    ) || LINE_FILTERS.contains(&program)
}

/// Reads what `program` runs with `args`; returns what it prints, as far as known.
pub(super) fn run(
    r: &mut Reader,
    program: &str,
    args: &[Field],
    io: &Io,
    stdin: Data,
    env: &[(String, Value)],
) -> Data {
    let checks_only = is_shell(program) && runners::noexec(args);
    // sed weighs its own words: a value in its script's patterns is asked about.
    if table::SENSITIVE.contains(&program)
        && program != "sed"
        && runners::takes_unknown_option(program, args)
        && !checks_only
    {
        r.unreadable("an argument that changes what the program does is not known before it runs");
    }
    if env
        .iter()
        .any(|(name, _)| name == "LD_PRELOAD" || name == "LD_AUDIT")
    {
        r.unreadable("the command preloads a library");
    }
    // Flags given to make through its environment may override any variable of the
    // makefile (`MAKEFLAGS='DIR=/' make clean`); flags that only set how it runs
    // (`MAKEFLAGS=-j4`) change nothing it does.
    if matches!(program, "make" | "gmake")
        && env.iter().any(|(name, value)| {
            matches!(name.as_str(), "MAKEFLAGS" | "GNUMAKEFLAGS" | "MFLAGS")
                && !matches!(value, Value::Known(flags) if only_pacing(flags))
        })
    {
        r.unreadable("make takes flags from the environment (MAKEFLAGS)");
    }
    if program == "sysctl" {
        runners::sysctl(r, args);
    }
    // `PERLDB_OPTS='RemotePort=HOST:PORT' perl -d`: the debugger connects to HOST and takes
    // its commands from there.
    if program == "perl" {
        runners::perl_debugger_port(r, env);
    }
    runners::browser(r, env);
    runners::environment(r, env);
    runners::downloaded_operands(r, program, table::find(program), args);
    runners::option_commands(r, program, args);
    runners::compiled_source(r, program, args, &stdin);
    if program == "rake" {
        runners::rake_code(r, args);
    }
    if program == "erb" {
        runners::erb_templates(r, args);
    }
    if matches!(program, "django-admin" | "django-admin.py") {
        runners::console(r, Lang::Python, &runners::DJANGO, args, &stdin);
    }
    if program == "rails" {
        runners::console(r, Lang::Ruby, &runners::RAILS, args, &stdin);
        runners::rails_credentials(r, args);
    }
    if runners::CACHE_CLEANERS.contains(&program) {
        runners::cache_cleaners(r, program, args, env);
    }
    if program == "dc" {
        runners::dc(r, args, &stdin);
    }
    // A PKCS#11 provider is a library the program loads (`ssh-keygen -D lib.so`, `ssh -I`,
    // `ssh-add -s`): its code runs in the program.
    if matches!(program, "ssh-keygen" | "ssh" | "ssh-add")
        && args.iter().any(|a| {
            let t = a.text.as_str();
            let flag = match program {
                "ssh-keygen" => "-D",
                "ssh" => "-I",
                _ => "-s",
            };
            t.starts_with(flag) || t.contains("PKCS11Provider")
        })
    {
        r.unreadable("the program loads a library it is given (a PKCS#11 provider)");
    }
    if runners::BUILD_TOOLS.contains(&program) {
        runners::written_files(r, program, args);
    }
    if matches!(program, "pip" | "pip3" | "uv") {
        runners::stdin_requirements(r, args, &stdin);
    }
    // Read as printing nothing the reader follows, so the everyday `eval "$(pyenv init -)"`
    // passes.
    if builtins::prints_shell_setup(program, args) {
        return Data::Known(String::new());
    }
    // Line filters keep some of the lines they read as they are (`tail -n +6`, `grep -v
    // venv`, `sort`): what they print of a listing is among its names, for `xargs`. Given
    // other options, the listing is text not known to them, as to any program.
    let stdin = match stdin {
        Data::Listing(..) if builtins::keeps_lines(program, args) => return stdin,
        Data::Listing(..) if LINE_FILTERS.contains(&program) => Data::Unknown,
        other => other,
    };
    if let Some(row) = table::find(program) {
        return r.reached(format!("run by {program}"), |r| match row.runs {
            table::Runs::Command { skip } => {
                let texts = texts(args);
                let (opts, at) = options::leading(&texts, &row.options);
                // `strace -o '!CMD'` (or `|CMD`) pipes its trace into `sh -c CMD`.
                if program == "strace" {
                    for o in &opts {
                        let value = option_value(o, 'o', "output").unwrap_or_default();
                        if let Some(command) = value.strip_prefix(['!', '|']) {
                            runners::shell_c(r, command);
                        }
                    }
                }
                if no_command(program, &opts) {
                    return Data::Unknown;
                }
                let rest = args.get(at + skip..).unwrap_or_default().to_vec();
                r.run(rest, &Io::default(), stdin, env)
            }
            table::Runs::Shell => {
                // A POSIX shell (dash as `sh`) lacks bash's `printf -v`, arrays, `mapfile`.
                let saved = std::mem::replace(
                    &mut r.posix,
                    !matches!(program, "bash" | "rbash" | "zsh" | "ksh" | "mksh"),
                );
                let out = runners::shell(r, args, stdin, env);
                r.posix = saved;
                out
            }
            table::Runs::Script => {
                // bash's `eval` too reads options (`eval -x` is an error), so leading ones
                // are never part of the script.
                let (_, at) = options::leading(&texts(args), &row.options);
                script_of(r, args.get(at..).unwrap_or_default());
                Data::Unknown
            }
            table::Runs::Subcommand {
                names,
                options: sub_options,
                skip,
            } => {
                let texts = texts(args);
                let (_, at) = options::leading(&texts, &row.options);
                if !texts.get(at).is_some_and(|s| names.contains(&s.as_str())) {
                    return Data::Unknown;
                }
                let after = at + 1;
                let (_, k) = options::leading(&texts[after..], &sub_options);
                let mut start = after + k;
                match skip {
                    table::Skip::Operands(n) => {
                        start = (start + n).min(texts.len());
                        if texts.get(start).is_some_and(|a| a == "--") {
                            start += 1;
                        }
                    }
                    table::Skip::ToDashDash => {
                        if let Some(dash) = texts[after..].iter().position(|a| a == "--") {
                            start = start.max(after + dash + 1);
                        }
                    }
                }
                r.run(
                    args.get(start..).unwrap_or_default().to_vec(),
                    &Io::default(),
                    stdin,
                    env,
                )
            }
            table::Runs::ScriptOption(short, longs) => {
                let texts = texts(args);
                let (opts, _) = options::leading(&texts, &row.options);
                for o in opts {
                    let code = longs
                        .split('|')
                        .find_map(|long| option_value(&o, short, long));
                    if let Some(code) = code {
                        // `script -c` hands the command to `$SHELL -c`.
                        runners::shell_c(r, &code);
                    }
                }
                Data::Unknown
            }
            table::Runs::Own => runners::run(r, program, row, args, io, stdin, env),
        });
    }
    if table::is_interpreter(program) {
        // The variables the command gives the program, which its code may read.
        let given = env.iter().map(|(name, value)| {
            let value = match value {
                Value::Known(v) => crate::matcher::code::Val::Known(v.clone()),
                Value::Unknown => crate::matcher::code::Val::Unknown,
            };
            (name.clone(), value)
        });
        let outer = std::mem::replace(&mut r.code_env, given.collect());
        runners::interpreter(r, program, args, &stdin);
        r.code_env = outer;
        runners::inspect_mode(r, program, args, env, &stdin);
        return Data::Unknown;
    }
    if table::DATABASE_CLIENTS.contains(&program) {
        runners::database_client(r, program, args, stdin);
        return Data::Unknown;
    }
    builtins::run(r, program, args, io, stdin, env)
}

/// Options after which a wrapper runs no command (`command -v rm`, `ionice -p 1`).
fn no_command(program: &str, opts: &[options::Opt]) -> bool {
    use options::Opt;
    opts.iter().any(|o| match (program, o) {
        ("command", Opt::Short('v' | 'V', _)) => true,
        ("ionice", Opt::Short('p' | 'P' | 'u', _)) => true,
        ("taskset" | "chrt", Opt::Short('p', _)) => true,
        ("taskset" | "chrt", Opt::Long(l, _)) => l == "pid",
        _ => false,
    })
}

/// The value of option `-short` or `--long` in `o`.
fn option_value(o: &options::Opt, short: char, long: &str) -> Option<String> {
    match o {
        options::Opt::Short(c, v) if *c == short => v.clone(),
        options::Opt::Long(l, v) if l == long => v.clone(),
        _ => None,
    }
}

/// The fields' texts.
fn texts(args: &[Field]) -> Vec<String> {
    args.iter().map(|a| a.text.clone()).collect()
}

/// Reads `args` joined by spaces as a shell script (`eval a b`, `watch 'cmd'`); an unknown
/// part makes the line unreadable.
fn script_of(r: &mut Reader, args: &[Field]) {
    if args.iter().any(|a| a.unknown) {
        r.unreadable(crate::matcher::shell::walk::CODE_NOT_KNOWN);
        return;
    }
    let script = texts(args).join(" ");
    r.script(&script, Data::Nothing);
}

/// Whether make's flags only set how many jobs run and how it prints (`-j4`, `-s`, `-k`,
/// `--no-print-directory`, `-Otarget`), and so change none of what it runs.
fn only_pacing(flags: &str) -> bool {
    flags.split_whitespace().all(|flag| {
        let (name, value) = flag.split_once('=').unwrap_or((flag, ""));
        match name {
            "--jobs" | "--load-average" | "--max-load" => {
                value.chars().all(|c| c.is_ascii_digit() || c == '.')
            }
            "--output-sync" => value.chars().all(|c| c.is_ascii_alphabetic()),
            "--silent"
            | "--quiet"
            | "--keep-going"
            | "--no-print-directory"
            | "--print-directory" => value.is_empty(),
            _ => {
                let letters = flag.strip_prefix('-').unwrap_or(flag);
                !flag.contains('=')
                    && !letters.is_empty()
                    && !letters.starts_with('-')
                    && match letters.split_once(['j', 'l', 'O']) {
                        // A value only after the last of `j`, `l`, `O` (`-j4`, `-Otarget`).
                        Some((before, after)) => {
                            before.chars().all(|c| "ksw".contains(c))
                                && after.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
                        }
                        None => letters.chars().all(|c| "ksw".contains(c)),
                    }
            }
        }
    })
}
