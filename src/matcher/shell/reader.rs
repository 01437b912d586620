//! Reading one nesting level: words, quoting, substitutions, redirections, here-documents.
//! What a finished simple command runs is [`programs::finish`]'s concern.

use std::collections::HashMap;

use super::programs;
use super::{CommandLine, MAX_COMMANDS, MAX_DEPTH, Redirect, SUBSTITUTION};

/// A word as read: its text without quoting, and what the shell would still do to it.
#[derive(Debug, Default, Clone)]
pub(super) struct Word {
    pub(super) text: String,
    /// Byte offset in `text` of the first quoted or escaped character, if any.
    pub(super) quoted_at: Option<usize>,
    /// Holds a parameter expansion or a substitution: its value is not known here.
    pub(super) expands: bool,
    /// Holds an unquoted glob or brace character.
    pub(super) pattern: bool,
}

impl Word {
    /// A word with no quoting or expansion.
    pub(super) fn literal(text: &str) -> Word {
        Word {
            text: text.to_owned(),
            ..Word::default()
        }
    }

    fn mark_quoted(&mut self) {
        if self.quoted_at.is_none() {
            self.quoted_at = Some(self.text.len());
        }
    }
}

/// What a simple command reads and writes besides its arguments.
#[derive(Debug, Default, Clone)]
pub(super) struct Io {
    pub(super) redirects: Vec<Redirect>,
    /// Here-document bodies and here-strings: a shell runs them as scripts.
    pub(super) stdin_scripts: Vec<String>,
    /// Standard input comes from a substitution (`< <(curl ...)`).
    pub(super) stdin_unknown: bool,
    /// Standard input is the previous command's output.
    pub(super) piped: bool,
}

/// The reading state of one command line, across nesting levels.
#[derive(Debug, Default)]
pub(super) struct Reader {
    pub(super) line: CommandLine,
    /// Characters visited, for the linear-time bound.
    pub(super) steps: usize,
    /// `name=value` assignments read so far: a guess at what `$name` holds.
    pub(super) vars: HashMap<String, String>,
    /// Files the line writes with `echo`/`printf`/`cat <<EOF` (path, text): a script the
    /// line then runs is read from here.
    pub(super) files: HashMap<String, String>,
    /// What the last `echo`/`printf` printed, for a `tee` or `cat` it is piped into.
    pub(super) printed: Option<String>,
}

impl Reader {
    /// Records why the line is not understood (the first reason is kept).
    pub(super) fn opaque(&mut self, reason: &'static str) {
        self.line.opaque.get_or_insert(reason);
    }

    /// Whether a bound was hit: reading stops.
    fn exhausted(&self) -> bool {
        self.line.commands.len() >= MAX_COMMANDS
    }

    /// Reads one nesting level, appending its simple commands (and nested ones).
    pub(super) fn read(&mut self, input: &str, depth: usize) {
        if depth > MAX_DEPTH {
            return self.opaque("the command nests too deeply");
        }
        let chars: Vec<char> = input.chars().collect();
        let mut i = 0;
        let mut words: Vec<Word> = Vec::new();
        let mut io = Io::default();
        let mut word = Word::default();
        let mut in_word = false;
        let mut heredocs: Vec<String> = Vec::new();

        macro_rules! end_word {
            () => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            };
        }
        macro_rules! give_up {
            () => {
                return self.opaque("a quote or substitution is not terminated")
            };
        }

        while i < chars.len() {
            self.steps += 1;
            if self.exhausted() {
                return self.opaque("the command holds too many commands");
            }
            let c = chars[i];
            match c {
                ' ' | '\t' | '\r' => {
                    end_word!();
                    i += 1;
                }
                '#' if !in_word => {
                    while i < chars.len() && chars[i] != '\n' {
                        i += 1;
                    }
                }
                '<' | '>' if chars.get(i + 1) == Some(&'(') => {
                    // Process substitution: a file whose content is the command's output.
                    if in_word {
                        words.push(std::mem::take(&mut word));
                    }
                    let Some(next) = self.substitution(&chars, i, &mut word, depth) else {
                        give_up!();
                    };
                    in_word = true;
                    i = next;
                }
                '<' | '>' => {
                    end_word!();
                    match self.redirection(&chars, i, &mut io, &mut heredocs, depth) {
                        Some(next) => i = next,
                        None => give_up!(),
                    }
                }
                '&' if chars.get(i + 1) == Some(&'>') => {
                    end_word!();
                    match self.redirection(&chars, i, &mut io, &mut heredocs, depth) {
                        Some(next) => i = next,
                        None => give_up!(),
                    }
                }
                '\n' | ';' | '&' | '|' | '(' | ')' => {
                    end_word!();
                    let next = chars.get(i + 1).copied();
                    let piped = c == '|' && next != Some('|');
                    i += match (c, next) {
                        ('|', Some('|' | '&')) | ('&', Some('&')) | (';', Some(';' | '&')) => 2,
                        _ => 1,
                    };
                    if c == '\n' && !heredocs.is_empty() {
                        i = self.heredoc_bodies(&chars, i, &mut heredocs, &mut io);
                    }
                    programs::finish(self, std::mem::take(&mut words), io, depth);
                    io = Io {
                        piped,
                        ..Io::default()
                    };
                }
                _ => {
                    // A redirection's descriptor number (`2>`) is not an argument.
                    if c.is_ascii_digit() && !in_word && matches!(chars.get(i + 1), Some('>' | '<'))
                    {
                        i += 1;
                        continue;
                    }
                    in_word = true;
                    match self.read_word(&chars, i, &mut word, depth) {
                        Some(next) => i = next,
                        None => give_up!(),
                    }
                }
            }
        }
        if in_word {
            words.push(word);
        }
        if !heredocs.is_empty() {
            self.opaque("a here-document is not terminated");
        }
        programs::finish(self, words, io, depth);
    }

    /// Reads the rest of one word from `i` into `word`; returns where the word ends, or
    /// `None` if a quote or substitution is not terminated.
    fn read_word(
        &mut self,
        chars: &[char],
        mut i: usize,
        word: &mut Word,
        depth: usize,
    ) -> Option<usize> {
        while let Some(&c) = chars.get(i) {
            self.steps += 1;
            match c {
                ' ' | '\t' | '\r' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>' => {
                    return Some(i);
                }
                '\\' => {
                    word.mark_quoted();
                    if let Some(&next) = chars.get(i + 1)
                        && next != '\n'
                    {
                        word.text.push(next);
                    }
                    i += 2;
                }
                '\'' => {
                    word.mark_quoted();
                    let close = i + 1 + chars.get(i + 1..)?.iter().position(|&c| c == '\'')?;
                    self.steps += close - i;
                    word.text.extend(&chars[i + 1..close]);
                    i = close + 1;
                }
                '"' => {
                    word.mark_quoted();
                    i = self.double_quoted(chars, i + 1, word, depth)?;
                }
                '$' => match chars.get(i + 1) {
                    Some('\'') => {
                        word.mark_quoted();
                        let close = ansi_c_end(chars, i + 2)?;
                        self.steps += close - i;
                        word.text.push_str(&ansi_c(&chars[i + 2..close]));
                        i = close + 1;
                    }
                    // `$"..."` is a translatable string: the text itself here.
                    Some('"') => {
                        word.mark_quoted();
                        i = self.double_quoted(chars, i + 2, word, depth)?;
                    }
                    Some('(') => i = self.substitution(chars, i, word, depth)?,
                    next => {
                        word.expands |= next.copied().is_some_and(starts_parameter);
                        word.text.push('$');
                        i += 1;
                    }
                },
                '`' => i = self.substitution(chars, i, word, depth)?,
                '*' | '?' | '[' | '{' => {
                    word.pattern = true;
                    word.text.push(c);
                    i += 1;
                }
                _ => {
                    word.text.push(c);
                    i += 1;
                }
            }
        }
        Some(i)
    }

    /// Reads a double-quoted string from just after its opening quote; returns the index
    /// after the closing one.
    fn double_quoted(
        &mut self,
        chars: &[char],
        mut i: usize,
        word: &mut Word,
        depth: usize,
    ) -> Option<usize> {
        loop {
            let c = *chars.get(i)?;
            self.steps += 1;
            match c {
                '"' => return Some(i + 1),
                '\\' if matches!(chars.get(i + 1), Some('$' | '`' | '"' | '\\' | '\n')) => {
                    if chars[i + 1] != '\n' {
                        word.text.push(chars[i + 1]);
                    }
                    i += 2;
                }
                '`' => i = self.substitution(chars, i, word, depth)?,
                '$' if chars.get(i + 1) == Some(&'(') => {
                    i = self.substitution(chars, i, word, depth)?;
                }
                '$' => {
                    word.expands |= chars.get(i + 1).copied().is_some_and(starts_parameter);
                    word.text.push('$');
                    i += 1;
                }
                _ => {
                    word.text.push(c);
                    i += 1;
                }
            }
        }
    }

    /// Reads the substitution at `i` (`$(`, a backtick, `<(` or `>(`) as nested commands;
    /// the word gets [`SUBSTITUTION`] in its place, as its output is unknown. Returns the
    /// index after it.
    fn substitution(
        &mut self,
        chars: &[char],
        i: usize,
        word: &mut Word,
        depth: usize,
    ) -> Option<usize> {
        let (inner, next) = if chars[i] == '`' {
            self.backtick(chars, i)?
        } else {
            let close = self.matching_paren(chars, i + 1)?;
            (chars[i + 2..close].iter().collect::<String>(), close + 1)
        };
        // Re-reading a word that already holds the placeholder must not read `...`.
        if inner != "..." {
            self.read(&inner, depth + 1);
        }
        word.expands = true;
        word.text.push_str(SUBSTITUTION);
        Some(next)
    }

    /// The text between backticks opening at `open` (escapes removed) and the index after.
    fn backtick(&mut self, chars: &[char], open: usize) -> Option<(String, usize)> {
        let mut i = open + 1;
        let mut inner = String::new();
        while let Some(&c) = chars.get(i) {
            self.steps += 1;
            match c {
                '`' => return Some((inner, i + 1)),
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

    /// The index of the `)` closing the `(` at `open`, skipping quoted text.
    fn matching_paren(&mut self, chars: &[char], open: usize) -> Option<usize> {
        let mut level = 0usize;
        let mut i = open;
        let mut in_double = false;
        while let Some(&c) = chars.get(i) {
            self.steps += 1;
            match c {
                '\\' => i += 1,
                '"' => in_double = !in_double,
                '\'' if !in_double => {
                    let close = chars.get(i + 1..)?.iter().position(|&c| c == '\'')?;
                    self.steps += close;
                    i += close + 1;
                }
                '(' if !in_double || chars.get(i.wrapping_sub(1)) == Some(&'$') => level += 1,
                ')' if !in_double || level > 1 => {
                    level = level.saturating_sub(1);
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

    /// Reads the redirection operator at `i` and its target; returns the index after it.
    fn redirection(
        &mut self,
        chars: &[char],
        mut i: usize,
        io: &mut Io,
        heredocs: &mut Vec<String>,
        depth: usize,
    ) -> Option<usize> {
        let mut op = String::new();
        while let Some(&c) = chars.get(i) {
            if !"<>&|".contains(c) || op.len() == 3 || (c == '<' && op.ends_with('>')) {
                break;
            }
            op.push(c);
            i += 1;
        }
        while matches!(chars.get(i), Some(' ' | '\t')) {
            i += 1;
        }
        if op.starts_with("<<") && op != "<<<" {
            // A here-document: its body follows the next newline.
            if chars.get(i) == Some(&'-') {
                i += 1;
            }
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() && !";&|<>()".contains(chars[i]) {
                i += 1;
            }
            let delimiter = chars[start..i]
                .iter()
                .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                .collect();
            heredocs.push(delimiter);
            return Some(i);
        }
        let mut target = Word::default();
        let next = if matches!(chars.get(i), Some('<' | '>')) && chars.get(i + 1) == Some(&'(') {
            self.substitution(chars, i, &mut target, depth)?
        } else {
            self.read_word(chars, i, &mut target, depth)?
        };
        if op == "<<<" {
            io.stdin_scripts.push(target.text);
            return Some(next);
        }
        let duplicate = op.ends_with('&')
            && !op.starts_with('&')
            && (target.text == "-" || target.text.bytes().all(|b| b.is_ascii_digit()));
        if !duplicate {
            let op = match op.trim_matches(['&', '|']) {
                "<" => "<",
                ">>" => ">>",
                "<>" => "<>",
                _ => ">",
            };
            if op == "<" && target.text.contains(SUBSTITUTION) {
                io.stdin_unknown = true;
            }
            io.redirects.push(Redirect {
                op,
                target: target.text,
            });
        }
        Some(next)
    }

    /// Reads the bodies of pending here-documents starting at `i`; returns where the next
    /// command starts.
    fn heredoc_bodies(
        &mut self,
        chars: &[char],
        mut i: usize,
        heredocs: &mut Vec<String>,
        io: &mut Io,
    ) -> usize {
        for delimiter in heredocs.drain(..) {
            let mut body = String::new();
            loop {
                if i >= chars.len() {
                    self.opaque("a here-document is not terminated");
                    return i;
                }
                let end = chars[i..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(chars.len(), |p| i + p);
                self.steps += end - i + 1;
                let line: String = chars[i..end].iter().collect();
                i = (end + 1).min(chars.len());
                if line.trim_start_matches('\t') == delimiter {
                    break;
                }
                body.push_str(&line);
                body.push('\n');
            }
            io.stdin_scripts.push(body);
        }
        i
    }
}

/// Whether `$` followed by `c` is a parameter expansion (`$x`, `${x}`, `$1`, `$@`, ...).
fn starts_parameter(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_{@*#?$!-".contains(c)
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
        let (decoded, next) = match esc {
            'n' => (Some('\n'), i),
            't' => (Some('\t'), i),
            'r' => (Some('\r'), i),
            'a' => (Some('\x07'), i),
            'b' => (Some('\x08'), i),
            'e' | 'E' => (Some('\x1b'), i),
            'f' => (Some('\x0c'), i),
            'v' => (Some('\x0b'), i),
            'x' => code_point(body, i, 2, 16),
            'u' => code_point(body, i, 4, 16),
            'U' => code_point(body, i, 8, 16),
            '0'..='7' => code_point(body, i - 1, 3, 8),
            other => (Some(other), i),
        };
        i = next;
        s.extend(decoded);
    }
    s
}

/// The character written as up to `max` digits of `radix` from `from`, and where they end.
fn code_point(body: &[char], from: usize, max: usize, radix: u32) -> (Option<char>, usize) {
    let len = body[from..]
        .iter()
        .take(max)
        .take_while(|c| c.is_digit(radix))
        .count();
    let digits: String = body[from..from + len].iter().collect();
    let decoded = u32::from_str_radix(&digits, radix)
        .ok()
        .and_then(char::from_u32);
    (decoded, from + len)
}
