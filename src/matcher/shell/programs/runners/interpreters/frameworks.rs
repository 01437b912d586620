//! Frameworks' consoles and tasks that run code: Django's `shell -c`, Rails' `runner` and
//! credentials, Laravel's `tinker`, rake, ERB templates.

use super::command_line::long_value;
use super::{Code, read_code, run_code, script_file};
use crate::matcher::code::{self, Lang};
use crate::matcher::shell::env::file_key;
use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader};

/// `erb FILE...` renders each template, running the Ruby code in it (`<% code %>`): a
/// template the line wrote (or the host's, when decisions read host files) is read as
/// that code.
pub(in crate::matcher::shell::programs) fn erb_templates(r: &mut Reader, args: &[Field]) {
    // The options that take a value: a library (`-r`), an encoding, a trim mode, a safe level.
    const VALUE: &[&str] = &["-r", "-E", "-T", "-S"];
    let mut operands = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if !operands && a.text == "--" {
            operands = true;
            continue;
        }
        if !operands && a.text.starts_with('-') && a.text != "-" {
            i += usize::from(VALUE.contains(&a.text.as_str()));
            continue;
        }
        if let Some((text, _)) = script_file(r, &a.text, a.unknown) {
            let path = a.text.as_str();
            r.built.insert(file_key(path));
            let code = code::erb_code(&text);
            r.in_file(path, |r| read_code(r, Some(Lang::Ruby), &code, Some(path)));
        }
    }
}

/// `rake -e CODE` (`--execute`, `-p`/`--execute-print`, `-E`/`--execute-continue`) runs
/// CODE as Ruby, with Rake's own `sh` at hand.
pub(in crate::matcher::shell::programs) fn rake_code(r: &mut Reader, args: &[Field]) {
    const CODE: &[&str] = &[
        "-e",
        "--execute",
        "-p",
        "--execute-print",
        "-E",
        "--execute-continue",
    ];
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let (name, inline) = long_value(a);
        if !CODE.contains(&name) {
            continue;
        }
        let (text, unknown) = match inline {
            Some(value) => (value, a.unknown),
            None => {
                i += 1;
                match args.get(i - 1) {
                    Some(code) => (code.text.as_str(), code.unknown),
                    None => continue,
                }
            }
        };
        if unknown {
            r.unreadable("rake runs Ruby code that comes from a substitution");
        } else {
            read_code(r, Some(Lang::Ruby), text, None);
        }
    }
}

/// A web framework's console: the subcommands that start it, the options that give it code
/// to run, and the options that take another value.
pub(in crate::matcher::shell::programs) struct Console {
    subcommands: &'static [&'static str],
    code: &'static [&'static str],
    value: &'static [&'static str],
    /// The first operand is the code (`rails runner CODE`), or a script file when it is
    /// named like one (`rails runner script/fix.rb`).
    operand: bool,
}

/// Django's `shell` (`manage.py`, `django-admin`).
pub(in crate::matcher::shell::programs) const DJANGO: Console = Console {
    subcommands: &["shell"],
    code: &["-c", "--command"],
    value: &[
        "-i",
        "--interface",
        "--settings",
        "--pythonpath",
        "-v",
        "--verbosity",
    ],
    operand: false,
};

/// Rails' `runner`, and `console`, which reads its code from standard input.
pub(in crate::matcher::shell::programs) const RAILS: Console = Console {
    subcommands: &["runner", "r", "console", "c"],
    code: &[],
    value: &["-e", "--environment"],
    operand: true,
};

/// Laravel's `tinker` (`php artisan`).
pub(super) const LARAVEL: Console = Console {
    subcommands: &["tinker"],
    code: &["--execute"],
    value: &["--env"],
    operand: false,
};

/// `rails credentials:show` (`:edit`, `:diff`, `encrypted:show FILE`): Rails decrypts the
/// credentials with `config/master.key` (or an environment's `config/credentials/ENV.key`,
/// or `--key FILE`) and prints them, as reading the key would give them.
pub(in crate::matcher::shell::programs) fn rails_credentials(r: &mut Reader, args: &[Field]) {
    const SHOWS: &[&str] = &[
        "credentials:show",
        "credentials:edit",
        "credentials:diff",
        "encrypted:show",
        "encrypted:edit",
    ];
    if !args.iter().any(|a| SHOWS.contains(&a.text.as_str())) {
        return;
    }
    let mut words = vec![
        Field::literal("cat"),
        Field::literal("config/master.key"),
        Field {
            glob: true,
            ..Field::literal("config/credentials/*.key")
        },
    ];
    let key = args
        .windows(2)
        .filter(|w| matches!(w[0].text.as_str(), "-k" | "--key"))
        .map(|w| w[1].clone());
    words.extend(key);
    r.run(words, &Io::default(), Data::Nothing, &[]);
}

/// Reads the code a framework's console runs ([`DJANGO`], [`RAILS`], [`LARAVEL`]), in
/// `lang`: from its code option, its operand, or its standard input. `args` start at the
/// subcommand.
pub(in crate::matcher::shell::programs) fn console(
    r: &mut Reader,
    lang: Lang,
    console: &Console,
    args: &[Field],
    stdin: &Data,
) {
    let Some((sub, rest)) = args.split_first() else {
        return;
    };
    if !console.subcommands.contains(&sub.text.as_str()) {
        return;
    }
    // The code and whether it is unknown: a code option's (the last), else the operand.
    let mut text: Option<(&str, bool)> = None;
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        i += 1;
        let (name, value) = long_value(a);
        if console.code.contains(&name) {
            text = match value {
                Some(v) => Some((v, a.unknown)),
                None => rest.get(i).map(|f| (f.text.as_str(), f.unknown)),
            };
            i += usize::from(value.is_none());
        } else if console.value.contains(&name) && value.is_none() {
            i += 1;
        } else if console.operand && !a.text.starts_with('-') && text.is_none() {
            text = Some((a.text.as_str(), a.unknown));
        }
    }
    match text {
        Some((_, true)) => r.unreadable("the console runs code that comes from a substitution"),
        // `rails runner script/fix.rb`: the file, as `ruby script/fix.rb` runs it.
        Some((path, false))
            if console.operand
                && path.ends_with(".rb")
                && !path.contains(|c: char| c.is_whitespace() || "()'\";".contains(c)) =>
        {
            run_code(r, ("ruby", Some(lang)), Code::File(path, false), stdin, &[]);
        }
        Some((text, false)) => read_code(r, Some(lang), text, None),
        None => run_code(r, ("console", Some(lang)), Code::Stdin, stdin, &[]),
    }
}
