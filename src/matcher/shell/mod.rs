//! The shell reader: a command line read into the simple commands bash would run, so
//! filters see what actually runs.
//!
//! It parses with bash's grammar (`brush-parser`, behind the bounds of `syntax.rs`), then
//! walks the tree as bash would run it (`walk.rs`) with an environment of known values
//! (`env.rs`): words are expanded (`expand.rs`), and each simple command is handed to the
//! program table (`programs/`), which reads the commands and code that wrappers, shells and
//! other programs run on its behalf. A value the reader cannot know is *unknown*; it makes
//! the line unreadable in program position, or as an argument of a program where it could
//! change what happens. The whole read spends from a work budget proportional to the input,
//! so it is linear whatever the line repeats. The design and the parser evaluation are in
//! `docs/shell-reader.md`; what is read is listed in `docs/hooks-reference.md`.

pub use host::Host;

mod arith;
pub(crate) mod effects;
mod env;
mod expand;
mod host;
mod options;
mod pattern;
mod programs;
mod streams;
mod syntax;
mod traps;
mod walk;

pub(crate) use programs::{FIND_PATTERN_TESTS, awk_assignments, script_operand};
pub(crate) use programs::{http, resources};

/// Longest input read, in bytes.
pub const MAX_INPUT: usize = 64 * 1024;
/// Deepest nesting of substitutions and `-c` scripts.
pub const MAX_DEPTH: usize = 8;
/// Most simple commands kept.
pub const MAX_COMMANDS: usize = 512;

/// What an argument becomes when it holds a command substitution: its output is unknown.
pub const SUBSTITUTION: &str = "$(...)";

/// One simple command, unquoted: the program's name, its arguments and its redirections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The program's file name (`rm` for `/bin/rm`).
    pub program: String,
    /// The arguments, quoting removed.
    pub args: Vec<String>,
    /// File redirections (`> out`, `< in`), in order; descriptor copies (`2>&1`) are left out.
    pub redirects: Vec<Redirect>,
    /// How the reader found the command when it is not written out on the line as it runs
    /// (`from a for loop`, `run by git`, `with values from variables`), for messages.
    pub origin: Option<String>,
    /// The directory it runs in, as `cd` on the line left it: `.` (where the line starts),
    /// `./sub` (relative to that), an absolute path or `~/...`; `None` when the line went
    /// somewhere the reader cannot know (`cd "$X"`, `cd -`).
    pub dir: Option<String>,
}

/// A file redirection of a simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// `<`, `>`, `>>` or `<>` (the descriptor number and `&`/`|` modifiers dropped).
    pub op: &'static str,
    /// The file, quoting removed.
    pub target: String,
}

impl SimpleCommand {
    /// A command the reader finds the line runs without spelling it out (`pip install URL`
    /// for a requirements file the line wrote, `cp` for `docker cp`): no redirections; the
    /// reader records it in the directory the line is in.
    pub(crate) fn implied(program: &str, args: Vec<String>, origin: Option<String>) -> Self {
        SimpleCommand {
            program: program.to_owned(),
            args,
            redirects: Vec::new(),
            origin,
            dir: None,
        }
    }

    /// `program arg1 arg2 ... > target`, with arguments quoted where the shell would need it:
    /// what `commandPattern` is matched against. Reading this text again gives back the
    /// same command.
    pub fn text(&self) -> String {
        // In program position, `X=1` would read as an assignment and `r*` as a pattern.
        // A reserved word (`/bin/if` runs a program named `if`) would start a compound.
        let reserved = matches!(
            self.program.as_str(),
            "if" | "then"
                | "else"
                | "elif"
                | "fi"
                | "do"
                | "done"
                | "case"
                | "esac"
                | "while"
                | "until"
                | "for"
                | "in"
                | "select"
                | "function"
                | "time"
                | "coproc"
                | "[["
                | "]]"
        );
        let mut s = if reserved || self.program.contains(['=', '*', '?', '[', '{']) {
            format!("'{}'", self.program.replace('\'', r"'\''"))
        } else {
            quote(&self.program).into_owned()
        };
        for a in &self.args {
            s.push(' ');
            s.push_str(&quote(a));
        }
        for r in &self.redirects {
            s.push(' ');
            s.push_str(r.op);
            s.push(' ');
            s.push_str(&quote(&r.target));
        }
        s
    }
}

/// Whether a leading `~` in `word` reads back as the same text: `~`, `~/x` and `~user` do
/// (the reader writes the home and other users' homes that way); `~0`, `~+` and `~-`
/// would be read as directory-stack entries.
fn tilde_reads_back(word: &str) -> bool {
    let Some(rest) = word.strip_prefix('~') else {
        return true;
    };
    let user = rest.split('/').next().unwrap_or_default();
    user.is_empty()
        || user.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && user
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
}

/// `word`, single-quoted if the shell would read it as anything but itself.
fn quote(word: &str) -> std::borrow::Cow<'_, str> {
    let plain = !word.is_empty()
        && !word.starts_with('#')
        && !matches!(word, "!" | "{" | "}")
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || "_@%+=:,./-*?[]{}^~".contains(c))
        && (!word.contains('{') || !word.contains(','))
        && tilde_reads_back(word);
    if plain {
        word.into()
    } else {
        format!("'{}'", word.replace('\'', r"'\''")).into()
    }
}

/// The simple commands of a command line, and whether all of it was understood.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandLine {
    /// Every simple command found, nested ones included, in the order they were read
    /// (a substitution's commands come before the command that uses its output).
    pub commands: Vec<SimpleCommand>,
    /// Why part of the line could not be understood, if so.
    pub unreadable: Option<&'static str>,
}

impl CommandLine {
    /// The distinct command texts, in first-seen order, joined by `; `: the normal form
    /// of the line. Normalising it again gives the same text.
    pub fn normalized(&self) -> String {
        let mut seen: Vec<String> = Vec::new();
        for c in &self.commands {
            let t = c.text();
            if !seen.contains(&t) {
                seen.push(t);
            }
        }
        seen.join("; ")
    }
}

/// Reads `input` as a shell command line.
pub fn parse(input: &str) -> CommandLine {
    parse_counting(input).0
}

/// [`parse`], reading the script files the line runs from `host` when it did not write them
/// itself (`bash x.sh`, `./x.py`).
pub fn parse_on(input: &str, host: Option<Host>) -> CommandLine {
    read(input, host).0
}

/// [`parse`], and the number of characters it visited: the measure of its running time,
/// which the tests hold to a linear bound.
pub fn parse_counting(input: &str) -> (CommandLine, usize) {
    read(input, None)
}

fn read(input: &str, host: Option<Host>) -> (CommandLine, usize) {
    if input.len() > MAX_INPUT {
        let line = CommandLine {
            commands: Vec::new(),
            unreadable: Some("the command is over the size limit"),
        };
        return (line, 0);
    }
    // `./x.sh` alone is plain, but runs a file the host may hold.
    let runs_a_path = host.is_some() && input.split(' ').next().is_some_and(|w| w.contains('/'));
    if is_plain(input) && !runs_a_path {
        let mut words = input.split(' ').map(str::to_owned);
        let command = SimpleCommand {
            program: words.next().unwrap_or_default(),
            args: words.collect(),
            redirects: Vec::new(),
            origin: None,
            dir: Some(".".to_owned()),
        };
        // `cp /dev/zero f` is plain too.
        let fills = match streams::judge(&command, false) {
            streams::Outcome::FillsDisk => streams::fills(&command),
            _ => Vec::new(),
        };
        let mut commands = vec![command];
        commands.extend(fills);
        let line = CommandLine {
            commands,
            unreadable: None,
        };
        return (line, input.len());
    }
    read_parsed(input, host)
}

/// `input` read by the parser, with no fast path.
fn read_parsed(input: &str, host: Option<Host>) -> (CommandLine, usize) {
    let mut reader = walk::Reader::new(input.len());
    reader.host = host;
    reader.script(input, walk::Data::Nothing);
    reader.read_unread_traps();
    programs::planted(&mut reader);
    (reader.line, reader.steps)
}

/// Whether reading `input` could only give back `input` itself as one simple command: no
/// quoting, expansion, operator, redirection or comment; single spaces; and a first word
/// that is a plain program name, not a wrapper, shell or interpreter. The common case
/// (`ls -la`) then costs a byte scan instead of a parse.
pub(crate) fn is_plain(input: &str) -> bool {
    // One table lookup per byte: this runs on every command a pattern looks at.
    const NOT_PLAIN: [bool; 256] = {
        let mut table = [false; 256];
        let special = b"'\"\\$`;&|<>()#\n\t\r{}!";
        let mut i = 0;
        while i < special.len() {
            table[special[i] as usize] = true;
            i += 1;
        }
        let mut b = 0x80;
        while b < 256 {
            table[b] = true;
            b += 1;
        }
        table
    };
    if input.is_empty()
        || input.contains("//")
        || input.contains("/./")
        || input.contains("/proc/")
        // A device that never ends, read whole (`grep x /dev/zero`, `tail /dev/zero`).
        || crate::matcher::code::ENDLESS_DEVICES.iter().any(|d| input.contains(d))
        || input.starts_with(' ')
        || input.ends_with(' ')
        || input.contains("  ")
        || input.bytes().any(|b| NOT_PLAIN[usize::from(b)])
    {
        return false;
    }
    let mut words = input.split(' ');
    let first = words.next().unwrap_or_default();
    if first == "git" {
        // `git push origin main` runs nothing else; options before the subcommand (`-c`)
        // and the subcommands that run commands need the reader.
        let rest: Vec<String> = words.map(str::to_owned).collect();
        return programs::plain_git(&rest);
    }
    !(first.contains(['/', '=', '*', '?', '[', '~'])
        || programs::is_special(first)
        // Cache and build cleaners delete a directory an option may name
        // (`cargo clean --target-dir /srv`); `cargo build` stays plain.
        || programs::is_cleaner(first) && (input.contains(" clean") || input.contains(" purge"))
        || input.contains(" --") && programs::has_long_options(first))
}

#[cfg(test)]
mod git_tests;
#[cfg(test)]
mod plain_tests;
#[cfg(test)]
mod tests;
