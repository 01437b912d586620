//! Code given inline or on standard input to an interpreter of a language hookgate has no
//! reader for (R, Tcl, Julia, PowerShell, AppleScript, ...). Such code is plain when it
//! names none of the language's functions that run programs, delete, fetch, open sockets
//! or evaluate text (`Rscript -e 'print(summary(x))'`), and unreadable when it does, since
//! what it then does cannot be told. The few deletions agents write in R and Tcl with
//! literal paths (`unlink("build", recursive = TRUE)`, `file delete -force build`) are
//! read as the `rm` they are.
//!
//! The words are looked for in the whole text, strings included: a string may be code
//! the language evaluates, and a word in a message only costs a plain line its reading.

mod words;

use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader};
use words::words_of;

/// The languages told apart, by the interpreter's name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Language {
    R,
    Tcl,
    Lisp,
    /// CMake's script language (`cmake -P`), whose commands are called as `name(...)`.
    CMake,
    /// Elixir (`elixir -e`, `mix run -e`), whose modules are written `File.rm_rf`.
    Elixir,
    /// C and C++ source a compiler is given, and Java's single-file source.
    Compiled,
    Other,
}

fn language(program: &str) -> Language {
    match program {
        "Rscript" | "R" => Language::R,
        p if p.starts_with("tclsh") || p.starts_with("wish") || p == "expect" => Language::Tcl,
        "emacs" | "emacsclient" => Language::Lisp,
        "cmake" => Language::CMake,
        "elixir" | "iex" | "mix" => Language::Elixir,
        "cc" | "gcc" | "g++" | "c++" | "clang" | "clang++" | "tcc" | "java" | "jshell" => {
            Language::Compiled
        }
        _ => Language::Other,
    }
}

/// Reads `text`, the code `program` runs.
pub(super) fn read(r: &mut Reader, program: &str, text: &str) {
    let lang = language(program);
    let deletions = match lang {
        Language::R => r_deletions(text),
        Language::Tcl => tcl_deletions(text),
        Language::Lisp
        | Language::CMake
        | Language::Elixir
        | Language::Compiled
        | Language::Other => None,
    };
    // With its deletions read, the rest of the code must act in no other way.
    let rest = match &deletions {
        Some((_, rest)) => rest.as_str(),
        None => text,
    };
    if calls_any(rest, lang) {
        r.unreadable(
            "the interpreter runs code of a language hookgate does not read, which calls \
             functions that run programs, delete, fetch or evaluate text",
        );
        return;
    }
    for argv in deletions.map(|(argv, _)| argv).unwrap_or_default() {
        let words = argv.iter().map(|w| Field::literal(w)).collect();
        r.run(words, &Io::default(), Data::Nothing, &[]);
    }
}

/// Whether source of `program`'s language (a compiler's C, Java's) calls functions that
/// run programs, delete, fetch or open files.
pub(super) fn acts(program: &str, text: &str) -> bool {
    calls_any(text, language(program))
}

/// Whether `text` names one of the words of `lang` that act ([`words_of`]); CMake's command
/// names are matched in any case.
fn calls_any(text: &str, lang: Language) -> bool {
    let lowered;
    let text = match lang {
        Language::CMake => {
            lowered = text.to_lowercase();
            lowered.as_str()
        }
        _ => text,
    };
    words_of(lang).iter().any(|w| names(text, w, lang))
}

/// Whether `text` holds `word` as a whole name of `lang` (R's names hold `.`, Tcl's `::`),
/// and in R as a function called (`file(` but not `file = "x"`).
fn names(text: &str, word: &str, lang: Language) -> bool {
    let is_name = |c: char| {
        c.is_alphanumeric()
            || c == '_'
            || (lang == Language::R && c == '.')
            || (lang == Language::Tcl && c == ':')
            || (matches!(lang, Language::Other | Language::Lisp) && c == '-')
    };
    text.match_indices(word).any(|(k, _)| {
        // An escape before a name in a string (`"\nsystem(...)"`) ends what came before.
        let escaped = text[..k].len() >= 2 && text.as_bytes()[k - 2] == b'\\';
        let before = text[..k].chars().next_back().filter(|_| !escaped);
        let after = &text[k + word.len()..];
        let whole = !before.is_some_and(is_name) && !after.chars().next().is_some_and(is_name);
        whole
            && (!matches!(lang, Language::R | Language::CMake)
                || after.trim_start().starts_with('('))
    })
}

/// The most deletions read from one text of code.
const MOST_DELETIONS: usize = 64;

/// R's `unlink(...)` and `file.remove(...)` whose arguments are only string literals,
/// `c(...)` of them and the `recursive`/`force`/`expand` flags: each as `rm`, and the text
/// left once they are taken out. `None` when there is no such call.
fn r_deletions(text: &str) -> Option<(Vec<Vec<String>>, String)> {
    let mut commands = Vec::new();
    let mut rest = String::with_capacity(text.len());
    let mut at = 0;
    // Each call looks for the next from where the last ended: a bounded number of them
    // keeps the work linear in the text; past it the rest is left to the word scan.
    while commands.len() < MOST_DELETIONS
        && let Some((start, name)) = next_call(text, at, &["unlink", "file.remove"])
    {
        let open = start + name.len();
        let Some(close) = closing_paren(text, open) else {
            break;
        };
        let inner = &text[open + 1..close];
        let Some((paths, others)) = literals(inner, '"', '\'') else {
            break;
        };
        let flags: String = others.chars().filter(|c| !c.is_whitespace()).collect();
        let recursive = flags.contains("recursive=TRUE") || flags.contains("recursive=T,");
        let allowed = flags
            .replace("recursive=TRUE", "")
            .replace("recursive=FALSE", "")
            .replace("force=TRUE", "")
            .replace("force=FALSE", "")
            .replace("expand=TRUE", "")
            .replace("c(", "")
            .replace([')', ','], "");
        if !allowed.is_empty() || paths.is_empty() {
            break;
        }
        let mut argv = vec!["rm".to_owned()];
        if recursive && name == "unlink" {
            argv.push("-r".to_owned());
        }
        argv.push("-f".to_owned());
        argv.push("--".to_owned());
        argv.extend(paths);
        commands.push(argv);
        rest.push_str(&text[at..start]);
        at = close + 1;
    }
    if commands.is_empty() {
        return None;
    }
    rest.push_str(&text[at..]);
    Some((commands, rest))
}

/// Tcl's `file delete ?-force? ?--? NAME...` with literal names (braced or bare words, no
/// substitution), up to the end of its command: each as `rm`, and the text left.
fn tcl_deletions(text: &str) -> Option<(Vec<Vec<String>>, String)> {
    let mut commands = Vec::new();
    let mut rest = String::new();
    for command in text.split(['\n', ';']) {
        let words: Vec<&str> = command.split_whitespace().collect();
        let literal = |w: &&str| !w.contains(['[', '$', '\\', '"']);
        if words.len() > 2
            && words[0] == "file"
            && words[1] == "delete"
            && words.iter().all(literal)
        {
            let mut argv = vec!["rm".to_owned(), "-f".to_owned()];
            for w in &words[2..] {
                match *w {
                    "-force" => argv.insert(1, "-r".to_owned()),
                    "--" => {}
                    w => argv.push(w.trim_start_matches('{').trim_end_matches('}').to_owned()),
                }
            }
            commands.push(argv);
        } else {
            rest.push_str(command);
            rest.push('\n');
        }
    }
    (!commands.is_empty()).then_some((commands, rest))
}

/// The next call of one of `names` at or after byte `from`: where it starts, and the name.
fn next_call<'n>(text: &str, from: usize, names: &[&'n str]) -> Option<(usize, &'n str)> {
    names
        .iter()
        .filter_map(|name| {
            let mut k = from;
            while let Some(found) = text[k..].find(name) {
                let start = k + found;
                let end = start + name.len();
                let before = text[..start].chars().next_back();
                let whole = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
                if whole && text[end..].starts_with('(') {
                    return Some((start, *name));
                }
                k = end;
            }
            None
        })
        .min()
}

/// The byte offset of the `)` closing the `(` at `open`, quotes respected.
fn closing_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (k, c) in text[open..].char_indices() {
        match (quote, c) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The string literals of `text` (quoted with either quote, no escapes in them) and the
/// text around them; `None` when a literal holds an escape or is not closed.
fn literals(text: &str, a: char, b: char) -> Option<(Vec<String>, String)> {
    let mut found = Vec::new();
    let mut others = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == a || c == b {
            let mut literal = String::new();
            loop {
                match chars.next()? {
                    '\\' => return None,
                    d if d == c => break,
                    d => literal.push(d),
                }
            }
            found.push(literal);
        } else {
            others.push(c);
        }
    }
    Some((found, others))
}

#[cfg(test)]
mod tests;
