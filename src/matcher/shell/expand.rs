//! Word expansion with the values the line gives its variables: quoting removed, brace and
//! tilde expansion, parameter expansion and its operators, command substitution (read as
//! nested commands; its output known when it is an `echo`/`printf` of known text), constant
//! arithmetic, and word splitting on `$IFS`. A value that cannot be known is written
//! [`SUBSTITUTION`] and marks its field unknown.

mod braces;
mod elements;
mod parameters;
mod pieces;

use super::SUBSTITUTION;
use super::env::Value;
use super::walk::Reader;
use brush_parser::word::{self, WordPieceWithSource};
pub(super) use parameters::Trim;
use parameters::extglob_as_star;

/// What `$$` and `$!` stand for: a number, never a `/` or a quote (written `*`, as
/// `date`'s output is).
const PROCESS_ID: &str = "*";

/// Most words one brace expression may expand to.
const MAX_BRACE_WORDS: usize = 256;
/// Words past which bash's own brace expansion is a memory bomb (ten million words of a
/// few bytes each take gigabytes as bash holds them).
const MAX_BASH_BRACE_WORDS: u128 = 10_000_000;

/// One word after expansion.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Field {
    pub(super) text: String,
    /// Part of the text is a value not known here.
    pub(super) unknown: bool,
    /// Holds an unquoted glob character: the shell may replace it with file names.
    pub(super) glob: bool,
    /// Some part was quoted or escaped: never a reserved word, an alias or an assignment.
    pub(super) quoted: bool,
    /// Some part is a variable's or a substitution's known value.
    pub(super) expanded: bool,
    /// A part not known was not quoted: the shell may split it into more words.
    pub(super) splits: bool,
}

impl Field {
    pub(super) fn literal(text: &str) -> Field {
        Field {
            text: text.to_owned(),
            ..Field::default()
        }
    }

    /// A word not known before the line runs, shown as a substitution.
    pub(super) fn unknown() -> Field {
        Field {
            text: super::SUBSTITUTION.to_owned(),
            unknown: true,
            ..Field::default()
        }
    }

    /// Whether getopt could take the field as an option: part of it is not known, and it
    /// starts with `-` or with what is not known, or the shell may split it into more
    /// words. A field whose known start is not `-` is an operand (`"dist/app-$V.zip"`).
    pub(in crate::matcher::shell) fn may_be_option(&self) -> bool {
        self.unknown
            && (self.splits
                || self.text.starts_with('-')
                || self.text.starts_with(super::SUBSTITUTION))
    }

    /// The field as a value: its text, or unknown if part of it is.
    pub(super) fn value(&self) -> Value {
        if self.unknown {
            Value::Unknown
        } else {
            Value::Known(self.text.clone())
        }
    }
}

/// Whether `raw` is one field of its own text: nothing to unquote or expand. Reading it
/// with the word parser gives the same field.
fn is_plain_word(raw: &str) -> bool {
    !raw.is_empty() && !raw.contains(['$', '`', '\'', '"', '\\', '{', '~', '*', '?', '['])
}

/// Whether unquoted `text` is a pattern the shell matches against file names: a lone `[`
/// (the `test` command) is not.
fn is_glob(text: &str) -> bool {
    text.contains(['*', '?']) || text.find('[').is_some_and(|k| text[k + 1..].contains(']'))
}

/// The home directory of a system account, as Debian's base-passwd fixes it: `~backup` is
/// `/var/backups` (where the shadow backups are), `~bin` is `/bin`, `~sys` is `/dev`.
fn system_home(user: &str) -> Option<&'static str> {
    Some(match user {
        "daemon" => "/usr/sbin",
        "bin" | "sync" | "proxy" => "/bin",
        "sys" => "/dev",
        "games" => "/usr/games",
        "man" => "/var/cache/man",
        "lp" => "/var/spool/lpd",
        "mail" => "/var/mail",
        "news" => "/var/spool/news",
        "uucp" => "/var/spool/uucp",
        "www-data" => "/var/www",
        "backup" => "/var/backups",
        "list" => "/var/list",
        "irc" => "/run/ircd",
        "nobody" => "/nonexistent",
        _ => return None,
    })
}

/// A pattern that matches in any case what `pattern` matches under `nocaseglob`: each
/// letter as a class of both cases (`/[R]OOT` is `/[Rr][oO][oO][tT]`), and each class
/// given the other case of the letters in it.
pub(super) fn any_case(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() * 4);
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '[' {
            // The class up to its `]` (a `]` first in it is one of its characters).
            let mut class = String::new();
            if let Some(&n) = chars.peek().filter(|n| matches!(n, '!' | '^')) {
                class.push(n);
                chars.next();
            }
            let mut closed = false;
            for n in chars.by_ref() {
                if n == ']' && !class.trim_start_matches(['!', '^']).is_empty() {
                    closed = true;
                    break;
                }
                class.push(n);
            }
            if !closed {
                out.push('[');
                out.push_str(&any_case(&class));
                continue;
            }
            let swapped: String = class
                .trim_start_matches(['!', '^'])
                .chars()
                .map(swap_case)
                .collect();
            out.push('[');
            out.push_str(&class);
            // A named class (`[[:upper:]]`) is left as it is.
            if !class.contains("[:") {
                out.push_str(&swapped);
            }
            out.push(']');
        } else if c.is_ascii_alphabetic() {
            out.extend(['[', c, swap_case(c), ']']);
        } else {
            out.push(c);
        }
    }
    out
}

fn swap_case(c: char) -> char {
    match c.is_ascii_lowercase() {
        true => c.to_ascii_uppercase(),
        false => c.to_ascii_lowercase(),
    }
}

/// Builds the fields of one word.
#[derive(Default)]
struct Builder {
    fields: Vec<Field>,
    current: Field,
    /// The current field exists even if empty (something quoted, or text, was added).
    started: bool,
    /// Text being added is a value (marks the fields it lands in as expanded).
    value: bool,
    /// A quoted `"$@"` or `"${a[@]}"` of no elements was added: alone in its quotes, it
    /// leaves no field (`"$@"` with no arguments is no word, not an empty one).
    vanished: bool,
}

impl Builder {
    fn push_text(&mut self, text: &str, quoted: bool) {
        self.current.expanded |= self.value && !text.is_empty();
        self.current.text.push_str(text);
        self.current.quoted |= quoted;
        self.started |= quoted || !text.is_empty();
        if !quoted && is_glob(text) {
            self.current.glob = true;
        }
    }

    fn push_unknown(&mut self, quoted: bool) {
        self.current.text.push_str(SUBSTITUTION);
        self.current.unknown = true;
        self.current.splits |= !quoted;
        self.current.quoted |= quoted;
        self.started = true;
    }

    fn break_field(&mut self) {
        if self.started {
            self.fields.push(std::mem::take(&mut self.current));
        }
        self.current = Field::default();
        self.started = false;
    }

    /// An unquoted expansion's text, split on the separators `ifs`.
    fn push_split(&mut self, text: &str, ifs: &str) {
        let mut first = true;
        for piece in text.split(|c| ifs.contains(c)) {
            if !first {
                self.break_field();
            }
            first = false;
            self.push_text(piece, false);
            if piece.is_empty() {
                // Whitespace separators do not delimit empty fields.
                self.started = !self.current.text.is_empty() || self.current.quoted;
            }
        }
    }

    fn finish(mut self) -> Vec<Field> {
        self.break_field();
        self.fields
    }
}

impl Reader {
    /// The fields of the words `raw` (each as written in the source), in order.
    pub(super) fn expand_words<'a>(
        &mut self,
        raw: impl IntoIterator<Item = &'a str>,
    ) -> Vec<Field> {
        let mut out = Vec::new();
        for w in raw {
            out.extend(self.expand(w));
        }
        out
    }

    /// The fields of one word as written in the source.
    pub(super) fn expand(&mut self, raw: &str) -> Vec<Field> {
        let mut fields = self.expand_word(raw);
        // With extglob on, `!(keep.txt)` names what `*` names, and more than it says.
        if self.options.enable_extended_globbing {
            for f in &mut fields {
                if let Some(text) = extglob_as_star(&f.text) {
                    f.text = text;
                    f.glob = true;
                }
            }
        }
        fields
    }

    fn expand_word(&mut self, raw: &str) -> Vec<Field> {
        self.steps += raw.len() / 8 + 1;
        // Most words are plain text: nothing to expand, no parse needed.
        if is_plain_word(raw) {
            return vec![Field::literal(raw)];
        }
        match self.braces(raw) {
            // The words of `{a,b}c` are usually plain in turn.
            Some(Some(words)) => words
                .iter()
                .flat_map(|w| {
                    if is_plain_word(w) {
                        vec![Field::literal(w)]
                    } else {
                        self.expand_one(w)
                    }
                })
                .collect(),
            // Too many words to read: they are unknown, as a substitution's output is.
            Some(None) => vec![Field {
                text: super::SUBSTITUTION.to_owned(),
                unknown: true,
                ..Field::default()
            }],
            None => self.expand_one(raw),
        }
    }

    /// The fields of one word without brace expressions.
    fn expand_one(&mut self, raw: &str) -> Vec<Field> {
        let Some(pieces) = self.parse_word(raw) else {
            return vec![Field {
                text: raw.to_owned(),
                unknown: true,
                ..Field::default()
            }];
        };
        let mut b = Builder::default();
        self.pieces(&pieces, false, &mut b);
        b.finish()
    }

    /// The text of `raw` as one string, as in an assignment's value or a here-string: no
    /// splitting or globbing; `None` if part of it is unknown.
    pub(super) fn expand_string(&mut self, raw: &str) -> Value {
        if !raw.contains(['$', '`', '\'', '"', '\\', '~']) {
            return Value::known(raw);
        }
        let Some(pieces) = self.parse_word(raw) else {
            return Value::Unknown;
        };
        let mut b = Builder::default();
        self.pieces(&pieces, true, &mut b);
        let fields = b.finish();
        if fields.iter().any(|f| f.unknown) {
            return Value::Unknown;
        }
        Value::Known(
            fields
                .into_iter()
                .map(|f| f.text)
                .collect::<Vec<_>>()
                .join(" "),
        )
    }

    /// `raw` parsed as a word, its cost spent (about 10 ns a byte, and a fixed cost);
    /// `None`, the line unreadable, if it cannot be read.
    fn parse_word(&mut self, raw: &str) -> Option<Vec<WordPieceWithSource>> {
        if !self.spend_parse(1 + raw.len() / 64) {
            return None;
        }
        let parsed = word::parse(raw, &self.options);
        if parsed.is_err() {
            self.unreadable("a word could not be read");
        }
        parsed.ok()
    }

    /// Expands a here-document body (no quote removal; `$`, backticks and `\` are special
    /// unless the delimiter was quoted).
    pub(super) fn expand_heredoc(&mut self, body: &str, expand: bool) -> Value {
        if !expand {
            return Value::known(body);
        }
        // Its grammar costs about 50 ns a byte: a unit per 32 bytes charges a little less
        // than that, so that one here-document as large as a line may be (a file written
        // with `cat > f <<EOF`) is read; the line's size bounds how many there can be.
        if !self.spend_parse(1 + body.len() / 32) {
            return Value::Unknown;
        }
        let Ok(pieces) = word::parse_heredoc(body, &self.options) else {
            self.unreadable("a here-document could not be read");
            return Value::Unknown;
        };
        let mut b = Builder::default();
        self.pieces(&pieces, true, &mut b);
        let fields = b.finish();
        if fields.iter().any(|f| f.unknown) {
            return Value::Unknown;
        }
        Value::Known(fields.into_iter().map(|f| f.text).collect())
    }
}

/// Decodes the body of `$'...'`.
pub(super) fn ansi_c(body: &str) -> String {
    let body: Vec<char> = body.chars().collect();
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
            'x' => code_point(&body, i, 2, 16),
            'u' => code_point(&body, i, 4, 16),
            'U' => code_point(&body, i, 8, 16),
            'c' => (
                body.get(i)
                    .map(|c| char::from((*c as u8 & 0x1f) * u8::from(c.is_ascii()))),
                i + 1,
            ),
            '0'..='7' => code_point(&body, i - 1, 3, 8),
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
