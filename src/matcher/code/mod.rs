//! The code reader: inline code of other languages (`python3 -c`, `node -e`, `perl -e`,
//! `ruby -e`, `php -r`, `lua -e`, and the same code fed on standard input) read into what it
//! does, so the filters that see shell commands see it too.
//!
//! Each language is parsed with its tree-sitter grammar (`tree.rs` keeps the bounds the
//! grammar does not: size, NUL, nesting, time); its module walks the tree with an
//! environment of constant values (`scope.rs`) and maps the calls that have effects to
//! [`Effect`]s: a shell command line, a program and its arguments, or one of the *virtual
//! commands* the shell reader already knows (`rm -r -f PATH` for `shutil.rmtree(PATH)`,
//! `cat PATH` for a file read, `curl URL` for a network request). Code that cannot be read
//! statically (an `eval` of a value not known, a function named at run time, code that was
//! downloaded or decoded, a fork in a loop) makes the reading *unreadable*, with the reason.

mod endless;
mod growths;
mod inline;
mod javascript;
mod lua;
#[cfg(test)]
mod ordinary;
mod perl;
mod php;
mod python;
mod ruby;
mod scope;
#[cfg(test)]
pub(crate) mod testing;
mod tree;

pub(crate) use endless::ENDLESS_DEVICES;

pub(crate) use scope::QUOTED_NOT_KNOWN;
pub use scope::Val;

/// The Ruby code of an ERB template (`<% code %>`, `<%= expr %>`), for `erb FILE`.
pub(crate) fn erb_code(template: &str) -> String {
    ruby::erb_code(template)
}

/// Longest code read, in bytes: as long as the longest command line.
pub const MAX_CODE: usize = 64 * 1024;
/// Parse work allowed for the code of one command line, in hundreds of the grammars' parse
/// operations. 64 KiB of the code agents and libraries write needs 100 to 690 (windows of
/// Python's standard library, of npm's and of Ruby's sources; `docs/performance.md`), and
/// code as dense as code gets three to four times that, so this reads the one whole and
/// stops the other (unreadable, rather than slow) at about 16 ms of parsing on the 2-core
/// machine the benches run on.
pub const PARSE_WORK: usize = 768;
/// Most effects kept from one piece of code.
pub const MAX_EFFECTS: usize = 256;
/// Deepest nesting of code run by code (`exec("exec('...')")`).
pub(crate) const MAX_DEPTH: usize = 4;
/// Most rounds of a loop over constants that a `fork` in it may take without being a fork
/// bomb: at most 2^4 processes, the children going round too.
pub(super) const FEW_ROUNDS: usize = 4;

/// A language whose inline code is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// `python`, `python3`, `python3.12`
    Python,
    /// `node`, `nodejs`, `deno`, `bun`, and the TypeScript runners `tsx`, `ts-node`
    /// (JavaScript with no type annotations is also their code)
    JavaScript,
    /// `ruby`
    Ruby,
    /// `perl`
    Perl,
    /// `php` (code without `<?php`, as `php -r` takes it)
    Php,
    /// `lua`, `luajit`
    Lua,
}

impl Lang {
    /// Every language, in the order of the enum.
    pub const ALL: [Lang; 6] = [
        Lang::Python,
        Lang::JavaScript,
        Lang::Ruby,
        Lang::Perl,
        Lang::Php,
        Lang::Lua,
    ];

    /// The language an interpreter program runs, by its file name.
    pub fn of_program(program: &str) -> Option<Lang> {
        let versioned = |name: &str| {
            program
                .strip_prefix(name)
                .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.'))
        };
        Some(match program {
            "python" | "python2" | "python3" | "pypy" | "pypy3" => Lang::Python,
            _ if versioned("python") => Lang::Python,
            "node" | "nodejs" | "deno" | "bun" | "tsx" | "ts-node" | "ts-node-esm" | "esno" => {
                Lang::JavaScript
            }
            "ruby" | "jruby" | "truffleruby" => Lang::Ruby,
            _ if versioned("ruby") => Lang::Ruby,
            "perl" => Lang::Perl,
            _ if versioned("perl") => Lang::Perl,
            "php" => Lang::Php,
            _ if versioned("php") => Lang::Php,
            "lua" | "luajit" => Lang::Lua,
            _ if versioned("lua") => Lang::Lua,
            _ => return None,
        })
    }

    /// The language's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::Ruby => "ruby",
            Lang::Perl => "perl",
            Lang::Php => "php",
            Lang::Lua => "lua",
        }
    }

    fn grammar(self) -> tree_sitter::Language {
        match self {
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Lang::Perl => tree_sitter_perl::LANGUAGE.into(),
            Lang::Php => tree_sitter_php::LANGUAGE_PHP_ONLY.into(),
            Lang::Lua => tree_sitter_lua::LANGUAGE.into(),
        }
    }
}

/// What a piece of code does that a filter may care about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Runs a shell command line (`os.system(s)`, `` `s` ``, `child_process.exec(s)`).
    Shell(Val),
    /// Runs a program with these arguments, the program first (`subprocess.run([...])`).
    Exec(Vec<Val>),
    /// Runs a file of the same language, as its interpreter would (the interpreter first):
    /// `include "x.php"`, `load "x.rb"`, `dofile("x.lua")`. Followed from code written on
    /// the line; a file of the host does not have its own loads followed, since those are
    /// its project's libraries (`php artisan` loads Composer's autoloader).
    Load(Vec<Val>),
    /// A virtual command with the same effect, as the shell would spell it: `rm -r -f PATH`
    /// for a recursive delete, `cat PATH` for a read, `tee PATH` for a write, `curl URL`
    /// for a network request, `chmod MODE PATH`, `mv FROM TO`, `cp FROM TO`.
    Command(&'static str, Vec<Val>),
    /// Adds a directory or an archive that the code's later imports load modules from
    /// (`sys.path.insert(0, d)`, `site.addsitedir(d)`): what the line downloaded there is
    /// code it runs.
    ModulePath(Val),
    /// Writes the text (as far as it is known) to a file: `tee ARGS` (the path, after `-a`
    /// when it appends) with that text on its input, so that a script the line then runs
    /// from that file is read (`Path('t.py').write_text(CODE)` then `python3 t.py`).
    Write(Vec<Val>, Val),
}

/// One effect and where in the code it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Found {
    /// What the code does.
    pub effect: Effect,
    /// The line of the code it comes from, from 1.
    pub line: usize,
}

/// Why a piece of code cannot be read, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unread {
    /// Why, in words for a message.
    pub reason: &'static str,
    /// The line of the code, from 1.
    pub line: usize,
}

/// What reading a piece of code found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reading {
    /// The effects, in the order of the code.
    pub found: Vec<Found>,
    /// Set when the code cannot be read statically: the first reason.
    pub unreadable: Option<Unread>,
}

/// Reads `code` written in `lang`, with a whole [`PARSE_WORK`].
pub fn read(lang: Lang, code: &str) -> Reading {
    let mut work = PARSE_WORK;
    read_within(lang, code, &[], &mut work)
}

/// Reads `code` written in `lang`, run with the script arguments `args` (what follows the
/// code on its command line: `python3 -c CODE a b` has `sys.argv[1]` `a`), spending parse
/// work from `work` (the work left for the code of a command line). The code is unreadable if
/// `work` runs out.
pub fn read_within(lang: Lang, code: &str, args: &[Val], work: &mut usize) -> Reading {
    read_script(lang, code, (args, Origin::Inline), &[], None, work)
}

/// Where the code an interpreter runs came from, which tells what its own list of
/// arguments holds (`sys.argv`, `process.argv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The code of `-c` or `-e`, run with the arguments after it: `sys.argv` is `['-c',
    /// ...]`, `process.argv` `[node, ...]`.
    Inline,
    /// Standard input (`python3 - a b`, `node - a b`): `sys.argv` is `['-', ...]`,
    /// `process.argv` `[node, '-', ...]`.
    Stdin,
    /// A file, or code whose arguments the reader is not given: they are not known.
    Elsewhere,
}

/// [`read_within`], for the code of the script file at `path` (relative to the line's
/// directory) when it is one: its directory is what `__DIR__` and `__dirname` are; `env`
/// holds the environment variables the command line gives the program.
pub(crate) fn read_script(
    lang: Lang,
    code: &str,
    (args, origin): (&[Val], Origin),
    env: &[(String, Val)],
    path: Option<&str>,
    work: &mut usize,
) -> Reading {
    if !may_act(lang, code) {
        return Reading::default();
    }
    let mut cx = scope::Cx::new(*work)
        .with_args(args, origin)
        .with_env(env)
        .in_script(path);
    read_into(&mut cx, lang, code, 0, 1);
    *work = cx.parse_work;
    cx.finish()
}

/// Whether `code` could have an effect at all. Python code reaches the system only through
/// an import, a dunder attribute or a handful of built-ins, or takes its memory in a loop
/// that never ends or in a constant too large (`10 ** 10 ** 11`); code that does none of
/// these (`print(sum(range(10)))`) is not parsed. The
/// other languages are always parsed.
fn may_act(lang: Lang, code: &str) -> bool {
    const PYTHON: &[&str] = &[
        "import",
        "__",
        "open",
        "exec",
        "eval",
        "compile",
        "getattr",
        "globals",
        "locals",
        "vars",
        "breakpoint",
        "help",
        // A constant too large for memory (`10 ** 10 ** 11`, `bytearray(1 << 40)`).
        "**",
        "<<",
        "bytearray",
    ];
    match lang {
        // A loop that fills memory needs no import (see `endless::looping`).
        Lang::Python => {
            PYTHON.iter().any(|w| code.contains(w))
                || endless::looping(lang, code) == endless::Looping::Grows
        }
        _ => true,
    }
}

/// Reads `code` (found at `line` of the outer code, `depth` levels of `eval` down) into `cx`.
fn read_into(cx: &mut scope::Cx, lang: Lang, code: &str, depth: usize, line: usize) {
    if depth > MAX_DEPTH {
        cx.unreadable(
            "the code runs code that runs code, too deeply to read",
            line,
        );
        return;
    }
    let tree = match tree::parse(lang, code, &mut cx.parse_work) {
        Ok(tree) => tree,
        Err(unread) => {
            cx.unreadable(unread.reason, line + unread.line.saturating_sub(1));
            return;
        }
    };
    let src = tree::Source::new(code, line);
    let before = cx.mark();
    match lang {
        Lang::Python => python::read(cx, &tree, &src),
        Lang::JavaScript => javascript::read(cx, &tree, &src),
        Lang::Ruby => ruby::read(cx, &tree, &src),
        Lang::Perl => perl::read(cx, &tree, &src),
        Lang::Php => php::read(cx, &tree, &src),
        Lang::Lua => lua::read(cx, &tree, &src),
    }
    let spawns = cx.spawned_since(before);
    let looping = endless::looping(lang, code);
    if !spawns.is_empty() && looping != endless::Looping::Ends {
        cx.unreadable(
            "the code starts programs or writes files in a loop that never ends (a fork bomb or a disk filler)",
            line,
        );
    } else if looping == endless::Looping::Grows {
        cx.unreadable(
            "the code grows what it holds in a loop that never ends (a memory bomb)",
            line,
        );
    } else if let Some(at) = endless::grows_in_a_function_that_schedules_itself(lang, &tree, &src) {
        cx.unreadable(
            "the code grows what it holds in a function that runs itself again and again (a memory bomb)",
            at,
        );
    } else if let Some(at) =
        endless::spawns_in_a_function_that_calls_itself(lang, &tree, &src, &spawns)
    {
        cx.unreadable(
            "the code starts programs, forks or writes files in a function that calls itself (a fork bomb or a disk filler)",
            at,
        );
    }
    // Code run by code (`exec('...')`) is read where the walk found it, with the names of
    // the code that runs it (see `scope::Outer`).
    let (nested, outer) = cx.take_nested();
    for (text, at) in nested {
        if outer.called_in(&text).is_some() {
            cx.unreadable(
                "the code runs code that calls a name of the code around it (a function or module not followed there)",
                at,
            );
            continue;
        }
        cx.with_inherited(std::rc::Rc::clone(&outer), |cx| {
            read_into(cx, lang, &text, depth + 1, at)
        });
    }
}
