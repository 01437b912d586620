//! Code given inline or on standard input to an interpreter of a language hookgate has no
//! reader for (R, Tcl, Julia, PowerShell, AppleScript, ...). Such code is plain when it
//! names none of the language's functions that run programs, delete, fetch, open sockets
//! or evaluate text (`Rscript -e 'print(summary(x))'`), and opaque when it does, since
//! what it then does cannot be told. The few deletions agents write in R and Tcl with
//! literal paths (`unlink("build", recursive = TRUE)`, `file delete -force build`) are
//! read as the `rm` they are.
//!
//! The words are looked for in the whole text, strings included: a string may be code
//! the language evaluates, and a word in a message only costs a plain line its reading.

use crate::matcher::shell::expand::Field;
use crate::matcher::shell::walk::{Data, Io, Reader};

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

/// CMake commands that run programs, touch files, fetch or evaluate text. CMake's command
/// names are not case-sensitive; the scan looks at the text lowercased.
const CMAKE_WORDS: &[&str] = &[
    "file",
    "execute_process",
    "exec_program",
    "include",
    "cmake_language",
    "configure_file",
    "load_cache",
    "install",
    "make_directory",
    "write_file",
    "remove",
    "variable_watch",
    "load_command",
    "ctest_run_script",
    "ctest_upload",
    "ctest_submit",
];

/// Elixir and Erlang modules that run programs, touch files, fetch, open sockets or
/// evaluate text.
const ELIXIR_WORDS: &[&str] = &[
    "System",
    "File",
    "Port",
    "Code",
    "Mix.shell",
    "Mix.Shell",
    "Mix.Task",
    "Application",
    ":os",
    ":file",
    ":httpc",
    ":gen_tcp",
    ":ssl",
    ":erlang",
    "HTTPoison",
    "Req",
    "Finch",
    "Mint",
    "Tesla",
];

/// Words that act, by language. A word matches whole: not inside a longer name.
const R_WORDS: &[&str] = &[
    "system",
    "system2",
    "shell",
    "shell.exec",
    "file.remove",
    "file.rename",
    "file.copy",
    "file.symlink",
    "file.create",
    "download.file",
    "url",
    "source",
    "sys.source",
    "eval",
    "evalq",
    "parse",
    "str2lang",
    "str2expression",
    "Sys.setenv",
    "Sys.chmod",
    "pipe",
    "socketConnection",
    "make.socket",
    "dyn.load",
    "file",
    "sink",
    "writeLines",
    "saveRDS",
    "save",
    "readRDS",
    "load",
    "unlink",
];
const TCL_WORDS: &[&str] = &[
    "exec",
    "open",
    "socket",
    "http::geturl",
    "::http::geturl",
    "eval",
    "uplevel",
    "interp",
    "load",
    "source",
    "subst",
    "file delete",
    "file rename",
    "file copy",
    "file link",
    "file attributes",
    "spawn",
    "send",
];
/// Emacs Lisp.
const LISP_WORDS: &[&str] = &[
    "shell-command",
    "shell-command-to-string",
    "async-shell-command",
    "call-process",
    "call-process-shell-command",
    "call-process-region",
    "process-file",
    "process-file-shell-command",
    "process-lines",
    "start-process",
    "start-process-shell-command",
    "start-file-process",
    "make-process",
    "make-network-process",
    "open-network-stream",
    "make-serial-process",
    "server-start",
    "delete-file",
    "delete-directory",
    "rename-file",
    "copy-file",
    "copy-directory",
    "make-symbolic-link",
    "set-file-modes",
    "write-region",
    "write-file",
    "append-to-file",
    "with-temp-file",
    "url-retrieve",
    "url-retrieve-synchronously",
    "url-copy-file",
    "url-insert-file-contents",
    "package-install",
    "package-install-file",
    "package-vc-install",
    "eval",
    "load",
    "load-file",
    "intern",
    "funcall",
    "apply",
    "read",
    "read-from-string",
    "symbol-function",
    "setenv",
    "insert-file-contents",
    "find-file",
];
/// C, C++ and Java: the library calls that run programs, delete, rename, open sockets or
/// files, and load code.
const COMPILED_WORDS: &[&str] = &[
    "system",
    "popen",
    "execl",
    "execlp",
    "execle",
    "execv",
    "execvp",
    "execvpe",
    "execve",
    "fexecve",
    "fork",
    "vfork",
    "clone",
    "posix_spawn",
    "posix_spawnp",
    "unlink",
    "unlinkat",
    "remove",
    "rmdir",
    "nftw",
    "ftw",
    "fts_open",
    "rename",
    "renameat",
    "truncate",
    "ftruncate",
    "open",
    "openat",
    "creat",
    "fopen",
    "chmod",
    "chown",
    "socket",
    "connect",
    "dlopen",
    "ptrace",
    "kill",
    "syscall",
    "ioctl",
    "mount",
    "setuid",
    // `Runtime.getRuntime().exec(...)`; `Runtime.version()` only reads.
    "getRuntime",
    "ProcessBuilder",
    "ProcessHandle",
    "Files",
    "File",
    "FileWriter",
    "FileOutputStream",
    "RandomAccessFile",
    "Socket",
    "URL",
    "HttpClient",
    "loadLibrary",
    "load",
];
/// Every other language: the names most of them use.
const OTHER_WORDS: &[&str] = &[
    "system",
    "exec",
    "eval",
    "spawn",
    "popen",
    "fork",
    "run",
    "shell",
    "socket",
    "connect",
    "unlink",
    "rmdir",
    "rm",
    "del",
    "delete",
    "remove",
    "removeFile",
    "removeDirectoryRecursive",
    "Remove-Item",
    "Invoke-Expression",
    "iex",
    "Invoke-WebRequest",
    "iwr",
    "Invoke-RestMethod",
    "irm",
    "Start-Process",
    "Set-Content",
    "Out-File",
    "FileUtils",
    "File",
    "IO",
    "Files",
    "Runtime",
    "ProcessBuilder",
    "System.Process",
    "download",
    "include",
    "load",
    "require",
    "source",
    "open",
    "write",
    "curl",
    "wget",
    "http",
    "https",
    "do shell script",
];

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
        r.opaque(
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

/// The names that act, of `lang`.
fn words_of(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::R => R_WORDS,
        Language::Tcl => TCL_WORDS,
        Language::Lisp => LISP_WORDS,
        Language::CMake => CMAKE_WORDS,
        Language::Elixir => ELIXIR_WORDS,
        Language::Compiled => COMPILED_WORDS,
        Language::Other => OTHER_WORDS,
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
mod tests {
    use super::*;

    #[test]
    fn words_match_whole_names() {
        let r = Language::R;
        assert!(names("system('ls')", "system", r));
        assert!(names("x <- 1; unlink (y)", "unlink", r));
        assert!(!names("filesystem(1)", "system", r));
        assert!(!names("my.system(1)", "system", r));
        assert!(!names("print(summary(x))", "system", r));
        assert!(!names(r#"write.csv(x, file = "out.csv")"#, "file", r));
        assert!(names("set f [open |sh w]", "open", Language::Tcl));
        assert!(!names("::http::geturl x", "http::geturl", Language::Tcl));
        assert!(names("File.delete('x')", "File", Language::Other));
        assert!(names(r#"cat("x\nsystem(\"id\")")"#, "system", r));
        // jshell reads as Java: a version print passes, a process started does not.
        assert!(!acts("jshell", "System.out.println(Runtime.version())"));
        assert!(acts("jshell", "Runtime.getRuntime().exec(\"id\")"));
        assert!(acts("jshell", "new ProcessBuilder(\"id\").start()"));
        // Elixir's modules that act; the project's own config read passes.
        assert!(acts(
            "mix",
            r#"for d <- ["_build", Path.expand("~")], do: File.rm_rf!(d)"#
        ));
        assert!(acts("elixir", r#"System.cmd("sh", ["-c", "id"])"#));
        assert!(!acts("mix", "IO.inspect(Mix.Project.config()[:version])"));
        // CMake's commands are called, in any case.
        assert!(names("file(remove_recurse x)", "file", Language::CMake));
        assert!(!names("set(file_list a b)", "file", Language::CMake));
    }

    #[test]
    fn r_deletions_with_literal_paths_read_as_rm() {
        let (commands, rest) =
            r_deletions(r#"unlink(c("docs/_site", "x"), recursive = TRUE); print(1)"#)
                .expect("read");
        assert_eq!(commands, [["rm", "-r", "-f", "--", "docs/_site", "x"]]);
        assert!(!rest.contains("unlink"));
        assert_eq!(
            r_deletions(r#"file.remove("a.txt")"#).expect("read").0,
            [["rm", "-f", "--", "a.txt"]]
        );
        // A computed path is not read: the call stays in the text, which is then opaque.
        assert!(r_deletions("unlink(path.expand(x), recursive = TRUE)").is_none());
        // Past the most read, the calls left stay in the text.
        let many = r#"unlink("a"); "#.repeat(MOST_DELETIONS + 1);
        let (commands, rest) = r_deletions(&many).expect("read");
        assert_eq!(commands.len(), MOST_DELETIONS);
        assert!(names(&rest, "unlink", Language::R));
    }

    #[test]
    fn tcl_deletions_with_literal_names_read_as_rm() {
        let (commands, _) = tcl_deletions("file delete -force ~").expect("read");
        assert_eq!(commands, [["rm", "-r", "-f", "~"]]);
        assert!(tcl_deletions("file delete [glob *]").is_none());
    }
}
