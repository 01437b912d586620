//! A bounded shell command-line reader: it splits a command line into simple commands the
//! way a POSIX shell would, so a `commandPattern` also sees what actually runs.
//!
//! It removes quoting and escapes (`r''m`, `\rm`, `"rm"`, `$'\x72\x6d'`), drops `VAR=value`
//! prefixes, reduces program paths to their names (`/bin/rm` → `rm`), splits on `;`, `&&`,
//! `||`, `|`, `&` and newlines, and recurses into command substitutions (`$(...)`, backticks,
//! `<(...)`), into the scripts of `sh -c`/`bash -lc`/`eval`, and through wrappers (`sudo`,
//! `env`, `nohup`, `timeout`, `nice`, `xargs`, `find -exec`, ...). One pass over the input per
//! nesting level, with hard bounds on size, depth and count; what it cannot understand within
//! them is reported as opaque, never guessed.

/// Longest input read, in bytes.
pub const MAX_INPUT: usize = 64 * 1024;
/// Deepest nesting of substitutions and `-c` scripts.
pub const MAX_DEPTH: usize = 8;
/// Most simple commands kept.
pub const MAX_COMMANDS: usize = 512;

/// One simple command, unquoted: the program's name and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The program's file name (`rm` for `/bin/rm`).
    pub program: String,
    /// The arguments, quoting removed.
    pub args: Vec<String>,
}

impl SimpleCommand {
    /// `program arg1 arg2 ...`: what patterns are matched against.
    pub fn text(&self) -> String {
        let mut s = self.program.clone();
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s
    }
}

/// The simple commands of a command line, and whether all of it was understood.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandLine {
    /// Every simple command found, nested ones included.
    pub commands: Vec<SimpleCommand>,
    /// Why part of the line could not be understood (unterminated quote, bounds exceeded,
    /// a script piped into a shell), if so.
    pub opaque: Option<&'static str>,
}

/// Reads `input` as a shell command line.
pub fn parse(input: &str) -> CommandLine {
    let mut out = CommandLine::default();
    if input.len() > MAX_INPUT {
        out.opaque = Some("the command is over the size limit");
        return out;
    }
    read(input, 0, &mut out);
    out
}

/// Whether reading `input` could only give back `input` itself as one simple command: no
/// quoting, substitution, operator, redirection or comment; single spaces; and a first word
/// that is a plain program name, not a wrapper or a shell. The common case (`ls -la`) then
/// costs a byte scan instead of a parse.
pub fn is_plain(input: &str) -> bool {
    if input.is_empty()
        || input.starts_with(' ')
        || input.ends_with(' ')
        || input.contains("  ")
        || input
            .bytes()
            .any(|b| b"'\"\\$`;&|<>()#\n\t\r{}!".contains(&b) || !b.is_ascii())
    {
        return false;
    }
    let first = input.split(' ').next().unwrap_or_default();
    !(first.contains(['/', '=']) || is_shell(Some(first)) || is_wrapper(first))
}

fn is_wrapper(program: &str) -> bool {
    matches!(
        program,
        "eval"
            | "sudo"
            | "doas"
            | "env"
            | "timeout"
            | "nice"
            | "ionice"
            | "nohup"
            | "setsid"
            | "time"
            | "command"
            | "builtin"
            | "exec"
            | "stdbuf"
            | "chrt"
            | "taskset"
            | "xargs"
            | "find"
            | "then"
            | "do"
            | "else"
            | "if"
            | "while"
            | "until"
            | "elif"
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    /// `;`, `&`, `&&`, `||`, newline, or the end.
    End,
    /// `|` or `|&`: the next command reads this one's output.
    Pipe,
}

/// Reads one nesting level, appending its simple commands (and nested ones) to `out`.
fn read(input: &str, depth: usize, out: &mut CommandLine) {
    if depth > MAX_DEPTH {
        out.opaque = Some("the command nests too deeply");
        return;
    }
    let chars: Vec<char> = input.chars().collect();
    let mut i = 0;
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut heredocs: Vec<(String, bool)> = Vec::new();
    let mut piped_from_previous = false;

    macro_rules! end_word {
        () => {
            if in_word {
                words.push(std::mem::take(&mut word));
                in_word = false;
            }
        };
    }

    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => {
                end_word!();
                i += 1;
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '\n' | ';' | '&' | '|' | '(' | ')' => {
                end_word!();
                let sep = match (c, chars.get(i + 1)) {
                    ('|', Some('|')) => {
                        i += 2;
                        Sep::End
                    }
                    ('|', Some('&')) => {
                        i += 2;
                        Sep::Pipe
                    }
                    ('|', _) => {
                        i += 1;
                        Sep::Pipe
                    }
                    ('&', Some('&')) | (';', Some(';')) => {
                        i += 2;
                        Sep::End
                    }
                    _ => {
                        i += 1;
                        Sep::End
                    }
                };
                if c == '\n' && !heredocs.is_empty() {
                    i = skip_heredocs(&chars, i, &mut heredocs, depth, out);
                }
                finish(&mut words, depth, piped_from_previous, sep, out);
                piped_from_previous = sep == Sep::Pipe;
            }
            '<' if chars.get(i + 1) == Some(&'(') && !in_word => {
                match matching(&chars, i + 1, '(', ')') {
                    Some(close) => {
                        let inner: String = chars[i + 2..close].iter().collect();
                        read(&inner, depth + 1, out);
                        i = close + 1;
                    }
                    None => return unterminated(out),
                }
            }
            '<' if chars.get(i + 1) == Some(&'<') && chars.get(i + 2) != Some(&'<') => {
                end_word!();
                i += 2;
                let strip = chars.get(i) == Some(&'-');
                if strip {
                    i += 1;
                }
                while chars.get(i) == Some(&' ') {
                    i += 1;
                }
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !";&|<>()".contains(chars[i])
                {
                    i += 1;
                }
                let delimiter: String = chars[start..i]
                    .iter()
                    .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                    .collect();
                heredocs.push((delimiter, is_shell(words.first().map(String::as_str))));
            }
            '<' | '>' => {
                // A redirection: its target is not an argument.
                end_word!();
                i += 1;
                while i < chars.len() && matches!(chars[i], '>' | '<' | '&' | '|') {
                    i += 1;
                }
                while chars.get(i) == Some(&' ') {
                    i += 1;
                }
                let mut target = String::new();
                match read_word(&chars, i, &mut target, depth, out) {
                    Some(next) => i = next,
                    None => return unterminated(out),
                }
            }
            _ => {
                // A redirection's file descriptor (`2>`) is not an argument either.
                if c.is_ascii_digit() && !in_word && matches!(chars.get(i + 1), Some('>' | '<')) {
                    i += 1;
                    continue;
                }
                in_word = true;
                match read_word(&chars, i, &mut word, depth, out) {
                    Some(next) => i = next,
                    None => return unterminated(out),
                }
            }
        }
        if out.commands.len() > MAX_COMMANDS {
            out.opaque = Some("the command holds too many commands");
            return;
        }
    }
    if in_word {
        words.push(word);
    }
    if !heredocs.is_empty() {
        out.opaque = Some("a here-document is not terminated");
    }
    finish(&mut words, depth, piped_from_previous, Sep::End, out);
}

fn unterminated(out: &mut CommandLine) {
    out.opaque = Some("a quote or substitution is not terminated");
}

/// Reads the rest of one word from `i` into `word` (quotes removed, substitutions read as
/// nested commands); returns where the word ends, or `None` if a quote is not terminated.
fn read_word(
    chars: &[char],
    mut i: usize,
    word: &mut String,
    depth: usize,
    out: &mut CommandLine,
) -> Option<usize> {
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>' => return Some(i),
            '\\' => {
                if let Some(&next) = chars.get(i + 1)
                    && next != '\n'
                {
                    word.push(next);
                }
                i += 2;
            }
            '\'' => {
                let close = chars[i + 1..].iter().position(|&c| c == '\'')? + i + 1;
                word.extend(&chars[i + 1..close]);
                i = close + 1;
            }
            '"' => {
                i += 1;
                loop {
                    let c = *chars.get(i)?;
                    match c {
                        '"' => {
                            i += 1;
                            break;
                        }
                        '\\' if matches!(chars.get(i + 1), Some('$' | '`' | '"' | '\\' | '\n')) => {
                            word.push(chars[i + 1]);
                            i += 2;
                        }
                        _ if starts_substitution(chars, i) => {
                            i = nested(chars, i, word, depth, out)?;
                        }
                        _ => {
                            word.push(c);
                            i += 1;
                        }
                    }
                }
            }
            '$' if chars.get(i + 1) == Some(&'\'') => {
                let close = ansi_c_end(chars, i + 2)?;
                word.push_str(&ansi_c(&chars[i + 2..close]));
                i = close + 1;
            }
            _ if starts_substitution(chars, i) => {
                i = nested(chars, i, word, depth, out)?;
            }
            _ => {
                word.push(c);
                i += 1;
            }
        }
    }
    Some(i)
}

/// Whether a command substitution (`$(` or a backtick) starts at `i`.
fn starts_substitution(chars: &[char], i: usize) -> bool {
    match chars.get(i) {
        Some('`') => true,
        Some('$') => chars.get(i + 1) == Some(&'('),
        _ => false,
    }
}

/// Reads the substitution starting at `i` as nested commands; the word gets a placeholder
/// (its output is unknown). Returns the index after it.
fn nested(
    chars: &[char],
    i: usize,
    word: &mut String,
    depth: usize,
    out: &mut CommandLine,
) -> Option<usize> {
    let next = if chars[i] == '`' {
        backtick(chars, i, depth, out)?
    } else {
        substitution(chars, i + 1, depth, out)?
    };
    word.push_str("$(...)");
    Some(next)
}

/// Reads the `$( ... )` opening at `open` as nested commands; returns the index after it.
fn substitution(chars: &[char], open: usize, depth: usize, out: &mut CommandLine) -> Option<usize> {
    let close = matching(chars, open, '(', ')')?;
    let inner: String = chars[open + 1..close].iter().collect();
    read(&inner, depth + 1, out);
    Some(close + 1)
}

fn backtick(chars: &[char], open: usize, depth: usize, out: &mut CommandLine) -> Option<usize> {
    let mut i = open + 1;
    let mut inner = String::new();
    while let Some(&c) = chars.get(i) {
        match c {
            '`' => {
                read(&inner, depth + 1, out);
                return Some(i + 1);
            }
            '\\' => {
                inner.extend(chars.get(i + 1));
                i += 2;
            }
            _ => {
                inner.push(c);
                i += 1;
            }
        }
    }
    None
}

/// The index of the bracket closing the one at `open`, skipping quoted text.
fn matching(chars: &[char], open: usize, left: char, right: char) -> Option<usize> {
    let mut level = 0usize;
    let mut i = open;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => i += 1,
            '\'' => i += chars[i + 1..].iter().position(|&c| c == '\'')? + 1,
            c if c == left => level += 1,
            c if c == right => {
                level -= 1;
                if level == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn ansi_c_end(chars: &[char], start: usize) -> Option<usize> {
    let mut i = start;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => i += 2,
            '\'' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// Decodes the body of `$'...'`.
fn ansi_c(body: &[char]) -> String {
    let mut s = String::new();
    let mut i = 0;
    while i < body.len() {
        if body[i] != '\\' || i + 1 >= body.len() {
            s.push(body[i]);
            i += 1;
            continue;
        }
        let esc = body[i + 1];
        i += 2;
        let code = |digits: &[char], radix| {
            u32::from_str_radix(&digits.iter().collect::<String>(), radix).ok()
        };
        match esc {
            'n' => s.push('\n'),
            't' => s.push('\t'),
            'r' => s.push('\r'),
            'a' => s.push('\x07'),
            'b' => s.push('\x08'),
            'e' | 'E' => s.push('\x1b'),
            'f' => s.push('\x0c'),
            'v' => s.push('\x0b'),
            'x' => {
                let len = body[i..]
                    .iter()
                    .take(2)
                    .take_while(|c| c.is_ascii_hexdigit())
                    .count();
                s.extend(code(&body[i..i + len], 16).and_then(char::from_u32));
                i += len;
            }
            'u' | 'U' => {
                let max = if esc == 'u' { 4 } else { 8 };
                let len = body[i..]
                    .iter()
                    .take(max)
                    .take_while(|c| c.is_ascii_hexdigit())
                    .count();
                s.extend(code(&body[i..i + len], 16).and_then(char::from_u32));
                i += len;
            }
            '0'..='7' => {
                let len = 1 + body[i..]
                    .iter()
                    .take(2)
                    .take_while(|c| ('0'..='7').contains(*c))
                    .count();
                s.extend(code(&body[i - 1..i - 1 + len], 8).and_then(char::from_u32));
                i += len - 1;
            }
            other => s.push(other),
        }
    }
    s
}

/// Skips the bodies of pending here-documents starting at `i`; a shell's here-document is
/// read as its script.
fn skip_heredocs(
    chars: &[char],
    mut i: usize,
    heredocs: &mut Vec<(String, bool)>,
    depth: usize,
    out: &mut CommandLine,
) -> usize {
    for (delimiter, script) in heredocs.drain(..) {
        let mut body = String::new();
        loop {
            if i >= chars.len() {
                out.opaque = Some("a here-document is not terminated");
                return i;
            }
            let end = chars[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |p| i + p);
            let line: String = chars[i..end].iter().collect();
            i = (end + 1).min(chars.len());
            if line.trim_start_matches('\t') == delimiter {
                break;
            }
            body.push_str(&line);
            body.push('\n');
        }
        if script {
            read(&body, depth + 1, out);
        }
    }
    i
}

/// Ends a simple command: unwraps wrappers and `-c` scripts, and records what runs.
fn finish(words: &mut Vec<String>, depth: usize, piped: bool, _sep: Sep, out: &mut CommandLine) {
    let taken = std::mem::take(words);
    let mut words: &[String] = &taken;
    // Assignments before the program (`VAR=1 rm ...`) set its environment.
    while words.first().is_some_and(|w| is_assignment(w)) {
        words = &words[1..];
    }
    // `{ ...; }` groups and `!` negation are not programs.
    while words.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "{" | "}" | "!" | "then" | "do" | "else" | "if" | "while" | "until" | "elif"
        )
    }) {
        words = &words[1..];
    }
    let Some((first, rest)) = words.split_first() else {
        return;
    };
    let program = first.rsplit('/').next().unwrap_or(first).to_owned();
    if program.is_empty() {
        return;
    }
    out.commands.push(SimpleCommand {
        program: program.clone(),
        args: rest.to_vec(),
    });
    unwrap(&program, rest, depth, piped, out);
}

/// What a wrapper runs: the command it was given, read as a command of its own.
fn unwrap(program: &str, args: &[String], depth: usize, piped: bool, out: &mut CommandLine) {
    if depth >= MAX_DEPTH {
        out.opaque = Some("the command nests too deeply");
        return;
    }
    if is_shell(Some(program)) {
        match args
            .iter()
            .position(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
        {
            Some(flag) => {
                if let Some(script) = args.get(flag + 1) {
                    read(script, depth + 1, out);
                }
            }
            None if piped && !args.iter().any(|a| !a.starts_with('-')) => {
                out.opaque = Some("a script is piped into a shell");
            }
            None => {}
        }
        return;
    }
    let inner: &[String] = match program {
        "eval" => {
            read(&args.join(" "), depth + 1, out);
            return;
        }
        "sudo" | "doas" => skip_options(
            args,
            &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"],
        ),
        "env" => {
            let rest = skip_options(args, &["-u", "-C", "-S"]);
            let start = rest
                .iter()
                .position(|a| !is_assignment(a))
                .unwrap_or(rest.len());
            &rest[start..]
        }
        "timeout" => {
            let rest = skip_options(args, &["-s", "-k"]);
            rest.get(1..).unwrap_or(&[])
        }
        "nice" | "ionice" => skip_options(args, &["-n", "-c", "-p"]),
        "nohup" | "setsid" | "time" | "command" | "builtin" | "exec" | "stdbuf" | "chrt"
        | "taskset" => skip_options(args, &[]),
        "xargs" => skip_options(args, &["-I", "-n", "-P", "-d", "-E", "-L", "-s", "-a"]),
        "find" => {
            for (k, a) in args.iter().enumerate() {
                if matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                    let end = args[k + 1..]
                        .iter()
                        .position(|a| a == ";" || a == "+")
                        .map_or(args.len(), |p| k + 1 + p);
                    push_words(&args[k + 1..end], depth, out);
                }
            }
            return;
        }
        _ => return,
    };
    push_words(inner, depth, out);
}

fn push_words(words: &[String], depth: usize, out: &mut CommandLine) {
    let mut words = words.to_vec();
    finish(&mut words, depth + 1, false, Sep::End, out);
}

/// `args` after the leading options (and the values of `with_value` options).
fn skip_options<'a>(args: &'a [String], with_value: &[&str]) -> &'a [String] {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "--" {
            return &args[i + 1..];
        }
        if !a.starts_with('-') || a == "-" {
            break;
        }
        i += if with_value.contains(&a.as_str()) {
            2
        } else {
            1
        };
    }
    args.get(i..).unwrap_or(&[])
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

fn is_shell(program: Option<&str>) -> bool {
    program
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .is_some_and(|p| {
            matches!(
                p,
                "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "mksh" | "busybox"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &str) -> Vec<String> {
        parse(input)
            .commands
            .iter()
            .map(SimpleCommand::text)
            .collect()
    }

    #[test]
    fn quoting_escapes_and_paths_are_removed() {
        for input in [
            r"r''m -rf /",
            r"\rm -rf /",
            r#""rm" -rf /"#,
            r"$'\x72\x6d' -rf /",
            "/bin/rm -rf /",
            "FOO=1 rm -rf /",
        ] {
            assert_eq!(texts(input), ["rm -rf /"], "{input}");
        }
    }

    #[test]
    fn chains_pipes_and_substitutions_are_split() {
        assert_eq!(texts("ls; rm -rf /"), ["ls", "rm -rf /"]);
        assert_eq!(texts("a && b || c & d"), ["a", "b", "c", "d"]);
        assert_eq!(texts("echo $(rm -rf /)"), ["rm -rf /", "echo $(...)"]);
        assert_eq!(texts("echo `rm -rf /`"), ["rm -rf /", "echo $(...)"]);
        assert_eq!(
            texts("cat file | grep x > out.txt 2>&1"),
            ["cat file", "grep x"]
        );
    }

    #[test]
    fn wrappers_and_shell_scripts_are_unwrapped() {
        assert!(texts("bash -c 'rm -rf /'").contains(&"rm -rf /".to_owned()));
        assert!(texts("sh -lc \"rm -rf /\"").contains(&"rm -rf /".to_owned()));
        assert!(
            texts("sudo -u root env X=1 nohup timeout 5 nice -n 10 rm -rf /")
                .contains(&"rm -rf /".to_owned())
        );
        assert!(texts("find . -name x -exec rm -rf {} ;").contains(&"rm -rf {}".to_owned()));
        assert!(texts("echo / | xargs -n 1 rm -rf").contains(&"rm -rf".to_owned()));
        assert!(texts("eval 'rm -rf /'").contains(&"rm -rf /".to_owned()));
    }

    #[test]
    fn what_cannot_be_understood_is_opaque() {
        assert!(parse("echo 'unterminated").opaque.is_some());
        assert!(parse("echo cm0gLXJmIC8= | base64 -d | sh").opaque.is_some());
        assert!(parse(&"$(".repeat(10_000)).opaque.is_some());
        assert!(parse("ls -la").opaque.is_none());
    }

    #[test]
    fn plain_commands_read_as_themselves() {
        for plain in [
            "ls -la",
            "git status",
            "cargo test --release",
            "grep -rf pat .",
        ] {
            assert!(is_plain(plain), "{plain}");
            assert_eq!(texts(plain), [plain], "{plain}");
        }
        for not_plain in [
            "sudo ls", "/bin/ls", "X=1 ls", "ls;rm", "ls  -la", " ls", "bash x", "r''m", "ls é",
        ] {
            assert!(!is_plain(not_plain), "{not_plain}");
        }
    }

    #[test]
    fn here_documents_into_a_shell_are_read_as_scripts() {
        let line = parse("bash <<EOF\nrm -rf /\nEOF\n");
        assert!(
            line.commands.iter().any(|c| c.text() == "rm -rf /"),
            "{line:?}"
        );
        let data = parse("cat <<EOF\nrm -rf /\nEOF\n");
        assert!(!data.commands.iter().any(|c| c.program == "rm"), "{data:?}");
    }
}
