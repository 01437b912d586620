//! Word expansion with the values the line gives its variables: quoting removed, brace and
//! tilde expansion, parameter expansion and its operators, command substitution (read as
//! nested commands; its output known when it is an `echo`/`printf` of known text), constant
//! arithmetic, and word splitting on `$IFS`. A value that cannot be known is written
//! [`SUBSTITUTION`] and marks its field unknown.

use brush_parser::word::{
    self, Parameter, ParameterExpr, ParameterTestType, SpecialParameter, TildeExpr, WordPiece,
    WordPieceWithSource,
};

/// What `$$` stands for: a number, never a `/` or a quote (written `*`, as `date`'s output
/// is).
const PROCESS_ID: &str = "*";

use super::SUBSTITUTION;
use super::env::Value;
use super::walk::{Data, Reader};

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

    /// `raw` after brace expansion, when it has a brace expression: `Some(None)` when it
    /// expands to more words than are read (or is over the parse budget, the line opaque).
    fn braces(&mut self, raw: &str) -> Option<Option<Vec<String>>> {
        if !raw.contains('{') {
            return None;
        }
        // brush-parser's brace grammar costs about 0.2 µs a byte.
        if !self.spend_parse(1 + raw.len() / 4) {
            return Some(None);
        }
        let parsed = word::parse_brace_expansions(raw, &self.options).ok()??;
        // bash builds every word in memory first (`echo {0..9999}{0..9999}{0..99}`).
        if words_of(&parsed) > MAX_BASH_BRACE_WORDS {
            self.opaque_line(
                "a brace expression expands to more words than memory holds (a memory bomb)",
            );
            return Some(None);
        }
        let mut words = vec![String::new()];
        for piece in parsed {
            match piece {
                word::BraceExpressionOrText::Text(t) => {
                    for w in &mut words {
                        w.push_str(&t);
                    }
                }
                word::BraceExpressionOrText::Expr(members) => {
                    let mut alternatives = Vec::new();
                    for m in members {
                        let Some(texts) = brace_member(&m) else {
                            return Some(None);
                        };
                        alternatives.extend(texts);
                    }
                    let mut next = Vec::new();
                    for w in &words {
                        for a in &alternatives {
                            if next.len() >= MAX_BRACE_WORDS {
                                return Some(None);
                            }
                            let mut joined = String::with_capacity(w.len() + a.len());
                            joined.push_str(w);
                            joined.push_str(a);
                            next.push(joined);
                        }
                    }
                    words = next;
                }
            }
        }
        (words.len() != 1 || words[0] != raw).then_some(Some(words))
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
    /// `None`, the line opaque, if it cannot be read.
    fn parse_word(&mut self, raw: &str) -> Option<Vec<WordPieceWithSource>> {
        if !self.spend_parse(1 + raw.len() / 64) {
            return None;
        }
        let parsed = word::parse(raw, &self.options);
        if parsed.is_err() {
            self.opaque("a word could not be read");
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
            self.opaque("a here-document could not be read");
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

    fn pieces(&mut self, pieces: &[WordPieceWithSource], quoted: bool, b: &mut Builder) {
        for (k, p) in pieces.iter().enumerate() {
            self.steps += 1;
            match &p.piece {
                WordPiece::Text(t) => {
                    if quoted {
                        b.push_text(t, true);
                    } else {
                        b.push_text(t, false);
                    }
                }
                WordPiece::SingleQuotedText(t) => b.push_text(t, true),
                WordPiece::AnsiCQuotedText(t) => b.push_text(&ansi_c(t), true),
                WordPiece::EscapeSequence(e) => {
                    let c = e.strip_prefix('\\').unwrap_or(e);
                    if c != "\n" {
                        b.push_text(c, true);
                    }
                }
                WordPiece::DoubleQuotedSequence(inner)
                | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    let before = (b.started, b.current.quoted, b.current.text.len());
                    b.vanished = false;
                    b.push_text("", true);
                    // `"$PWD/build"`, `"$(pwd)"/dist`: the working directory starting a path.
                    let after = match inner.get(1) {
                        Some(p) => Some(&p.piece),
                        None => pieces.get(k + 1).map(|n| &n.piece),
                    };
                    match inner.split_first() {
                        Some((first, rest))
                            if b.current.text.is_empty()
                                && self.is_working_dir(&first.piece)
                                && starts_path_rest(after) =>
                        {
                            b.push_text(".", true);
                            self.pieces(rest, true, b);
                        }
                        _ => self.pieces(inner, true, b),
                    }
                    if std::mem::take(&mut b.vanished)
                        && inner.len() == 1
                        && b.current.text.len() == before.2
                        && !b.current.unknown
                    {
                        (b.started, b.current.quoted) = (before.0, before.1);
                    }
                }
                WordPiece::TildeExpansion(t) => {
                    let text = match t {
                        TildeExpr::Home => "~".to_owned(),
                        TildeExpr::UserHome(user) => match system_home(user) {
                            Some(home) => home.to_owned(),
                            None => format!("~{user}"),
                        },
                        TildeExpr::WorkingDir => ".".to_owned(),
                        _ => {
                            b.push_unknown(quoted);
                            continue;
                        }
                    };
                    b.push_text(&text, true);
                }
                // The home directory is written `~` where a path starts with it, and `$HOME`
                // inside a word (`-d @$HOME/.netrc`), where a `~` would be a literal tilde.
                WordPiece::ParameterExpansion(ParameterExpr::Parameter {
                    parameter: Parameter::Named(name),
                    indirect: false,
                }) if name == "HOME" && !self.env.assigned("HOME") => {
                    let home = if b.current.text.is_empty() {
                        "~"
                    } else {
                        "$HOME"
                    };
                    b.push_text(home, true);
                }
                // The working directory is `.` when a word is `$PWD` or starts with `$PWD/`,
                // unquoted; elsewhere (`"$PWD":/src`, `root = "$PWD"` in a here-document) its
                // absolute path, known when decisions read the host.
                WordPiece::ParameterExpansion(ParameterExpr::Parameter {
                    parameter: Parameter::Named(name),
                    indirect: false,
                }) if name == "PWD" && !self.env.assigned("PWD") => {
                    let path_start = !quoted
                        && b.current.text.is_empty()
                        && starts_path_rest(pieces.get(k + 1).map(|n| &n.piece));
                    if path_start {
                        b.push_text(".", true);
                    } else if let Some(dir) = self.working_dir_on_host() {
                        b.push_text(&dir, quoted);
                    } else {
                        b.push_unknown(quoted);
                    }
                }
                WordPiece::ParameterExpansion(expr) => {
                    let values = self.parameter(expr);
                    self.push_values(values, quoted, b);
                }
                // `$(pwd)/dist`, as `$PWD/dist` above.
                WordPiece::CommandSubstitution(_) | WordPiece::BackquotedCommandSubstitution(_)
                    if !quoted
                        && b.current.text.is_empty()
                        && self.is_working_dir(&p.piece)
                        && starts_path_rest(pieces.get(k + 1).map(|n| &n.piece)) =>
                {
                    b.push_text(".", true);
                }
                // `rm $(find build -name '*.o')`: unquoted and alone in its word, a listing
                // is split into the names it prints, one word each, as xargs takes them.
                WordPiece::CommandSubstitution(script)
                | WordPiece::BackquotedCommandSubstitution(script)
                    if !quoted && pieces.len() == 1 =>
                {
                    match self.substitution_output(script) {
                        Data::Listing(lists, _) => push_listing(b, lists),
                        out => {
                            let value = output_value(out);
                            self.push_values(Expansion::One(value), quoted, b);
                        }
                    }
                }
                WordPiece::CommandSubstitution(script)
                | WordPiece::BackquotedCommandSubstitution(script) => {
                    let value = self.substitution(script);
                    self.push_values(Expansion::One(value), quoted, b);
                }
                WordPiece::ArithmeticExpression(e) => {
                    let value = self.arithmetic(&e.value);
                    self.push_values(Expansion::One(value), quoted, b);
                }
            }
        }
    }

    fn push_values(&mut self, values: Expansion, quoted: bool, b: &mut Builder) {
        let ifs = match self.env.get("IFS") {
            Value::Known(s) => s,
            Value::Unknown => {
                self.opaque("the command splits words with an unknown $IFS");
                " \t\n".to_owned()
            }
        };
        // Copying a value is work proportional to its length: `x=$x$x` repeated doubles it
        // each time, so the budget, not the memory, is what ends such a line.
        self.steps += match &values {
            Expansion::One(Value::Known(t)) => t.len() / 8,
            Expansion::One(Value::Unknown) => 0,
            Expansion::Each(items) | Expansion::Joined(items) => items
                .iter()
                .map(|v| match v {
                    Value::Known(t) => t.len() / 8 + 1,
                    Value::Unknown => 1,
                })
                .sum(),
        };
        b.value = true;
        self.push_expansion(values, quoted, &ifs, b);
        b.value = false;
    }

    fn push_expansion(&mut self, values: Expansion, quoted: bool, ifs: &str, b: &mut Builder) {
        let values = match values {
            Expansion::Joined(items) if quoted => {
                let separator = ifs.chars().next().map(String::from).unwrap_or_default();
                let texts: Option<Vec<String>> = items
                    .into_iter()
                    .map(|v| match v {
                        Value::Known(t) => Some(t),
                        Value::Unknown => None,
                    })
                    .collect();
                Expansion::One(texts.map_or(Value::Unknown, |t| Value::Known(t.join(&separator))))
            }
            Expansion::Joined(items) => Expansion::Each(items),
            other => other,
        };
        match values {
            Expansion::One(Value::Known(t)) if quoted => b.push_text(&t, true),
            Expansion::One(Value::Known(t)) => b.push_split(&t, ifs),
            Expansion::One(Value::Unknown) => b.push_unknown(quoted),
            Expansion::Each(items) | Expansion::Joined(items) => {
                b.vanished |= quoted && items.is_empty();
                for (k, v) in items.into_iter().enumerate() {
                    if k > 0 {
                        if quoted {
                            b.break_field();
                        } else {
                            b.push_split(" ", " ");
                        }
                        b.started = quoted;
                    }
                    match v {
                        Value::Known(t) if quoted => b.push_text(&t, true),
                        Value::Known(t) => b.push_split(&t, ifs),
                        Value::Unknown => b.push_unknown(quoted),
                    }
                }
            }
        }
    }

    /// The value of a command substitution: its commands are read; its output is known when
    /// it only prints known text.
    /// The absolute path of the directory the line is in, when decisions read the host and
    /// the line has not gone somewhere unknown.
    fn working_dir_on_host(&self) -> Option<String> {
        let super::env::Value::Known(dir) = self.env.get(super::env::DIR) else {
            return None;
        };
        let absolute = self.host.as_ref()?.absolute(Some(&dir), ".")?;
        Some(super::super::paths::normalize(&absolute))
    }

    /// Whether `piece` is the working directory as the line has not redefined it: `$PWD`,
    /// or `$(pwd)` (`-L`/`-P` too) with no function or alias named `pwd` on the line.
    fn is_working_dir(&self, piece: &WordPiece) -> bool {
        match piece {
            WordPiece::ParameterExpansion(ParameterExpr::Parameter {
                parameter: Parameter::Named(name),
                indirect: false,
            }) => name == "PWD" && !self.env.assigned("PWD"),
            WordPiece::CommandSubstitution(script)
            | WordPiece::BackquotedCommandSubstitution(script) => {
                matches!(script.trim(), "pwd" | "pwd -L" | "pwd -P")
                    && !self.env.functions.contains_key("pwd")
                    && !self.env.aliases.contains_key("pwd")
            }
            _ => false,
        }
    }

    pub(super) fn substitution(&mut self, script: &str) -> Value {
        let out = self.substitution_output(script);
        output_value(out)
    }

    /// What a command substitution prints (see [`Reader::substitution`]).
    fn substitution_output(&mut self, script: &str) -> Data {
        self.last_endless = false;
        // `$(< FILE)` is bash's `$(cat FILE)`.
        let cat;
        let script = match script.trim().strip_prefix('<') {
            Some(file)
                if !file.starts_with(['<', '(', '&'])
                    && !file.contains([';', '|', '&', '\n', '<', '>', '(', '`']) =>
            {
                cat = format!("cat {file}");
                cat.as_str()
            }
            _ => script,
        };
        // It runs in a process of its own (`f() { echo $(f) $(f); }` forks as `f & f`).
        self.forked += 1;
        let out = self.script(script, Data::Nothing);
        self.forked -= 1;
        // The shell keeps all a substitution prints: `x=$(yes)` never ends, and grows.
        if std::mem::take(&mut self.last_endless)
            && let Some(reason) = super::streams::Outcome::Hoards.reason()
        {
            self.opaque_line(reason);
        }
        out
    }

    /// A constant arithmetic expression's value; substitutions inside it are read.
    fn arithmetic(&mut self, expr: &str) -> Value {
        if expr.contains(['$', '`']) {
            let _ = self.expand_string(expr);
            return Value::Unknown;
        }
        self.arithmetic_values(expr);
        match super::arith::eval(expr, &self.env) {
            Some(n) => Value::Known(n.to_string()),
            None => Value::Unknown,
        }
    }

    fn parameter(&mut self, expr: &ParameterExpr) -> Expansion {
        use ParameterExpr as P;
        match expr {
            P::Parameter {
                parameter,
                indirect,
            } => self.lookup(parameter, *indirect),
            P::UseDefaultValues {
                parameter,
                indirect,
                test_type,
                default_value,
            }
            | P::AssignDefaultValues {
                parameter,
                indirect,
                test_type,
                default_value,
            } => {
                let current = self.lookup(parameter, *indirect);
                let assign = matches!(expr, P::AssignDefaultValues { .. });
                match self.is_null(parameter, *indirect, &current, test_type) {
                    Some(false) => current,
                    Some(true) => {
                        let value = self.expand_string(default_value.as_deref().unwrap_or(""));
                        if assign && let Parameter::Named(name) = parameter {
                            self.env.set(name, value.clone());
                        }
                        Expansion::One(value)
                    }
                    None => self.either(default_value.as_deref()),
                }
            }
            P::UseAlternativeValue {
                parameter,
                indirect,
                test_type,
                alternative_value,
            } => {
                let current = self.lookup(parameter, *indirect);
                match self.is_null(parameter, *indirect, &current, test_type) {
                    Some(true) => Expansion::One(Value::known("")),
                    Some(false) => Expansion::One(
                        self.expand_string(alternative_value.as_deref().unwrap_or("")),
                    ),
                    None => self.either(alternative_value.as_deref()),
                }
            }
            P::IndicateErrorIfNullOrUnset {
                parameter,
                indirect,
                ..
            } => self.lookup(parameter, *indirect),
            P::ParameterLength {
                parameter,
                indirect,
            } => match self.lookup_text(parameter, *indirect) {
                Expansion::One(Value::Known(t)) => {
                    Expansion::One(Value::Known(t.chars().count().to_string()))
                }
                Expansion::Each(items) | Expansion::Joined(items)
                    if matches!(parameter, Parameter::NamedWithAllIndices { .. }) =>
                {
                    Expansion::One(Value::Known(items.len().to_string()))
                }
                _ => Expansion::One(Value::Unknown),
            },
            P::RemoveSmallestSuffixPattern {
                parameter,
                indirect,
                pattern,
            }
            | P::RemoveLargestSuffixPattern {
                parameter,
                indirect,
                pattern,
            }
            | P::RemoveSmallestPrefixPattern {
                parameter,
                indirect,
                pattern,
            }
            | P::RemoveLargestPrefixPattern {
                parameter,
                indirect,
                pattern,
            } => {
                let pattern = self.expand_string(pattern.as_deref().unwrap_or(""));
                let kind = match expr {
                    P::RemoveSmallestSuffixPattern { .. } => Trim::SmallestSuffix,
                    P::RemoveLargestSuffixPattern { .. } => Trim::LargestSuffix,
                    P::RemoveSmallestPrefixPattern { .. } => Trim::SmallestPrefix,
                    _ => Trim::LargestPrefix,
                };
                let current = self.lookup_text(parameter, *indirect);
                current.map(|v| match (v, &pattern) {
                    (Value::Known(t), Value::Known(p)) => {
                        super::pattern::trim(&t, p, kind).map_or(Value::Unknown, Value::Known)
                    }
                    _ => Value::Unknown,
                })
            }
            P::Substring {
                parameter,
                indirect,
                offset,
                length,
            } => {
                let offset = self.arithmetic(&offset.value);
                let length = length.as_ref().map(|l| self.arithmetic(&l.value));
                let current = self.lookup_text(parameter, *indirect);
                current.map(|v| substring(v, &offset, length.as_ref()))
            }
            P::Transform {
                parameter,
                indirect,
                op,
            } => {
                use word::ParameterTransformOp as Op;
                let current = self.lookup_text(parameter, *indirect);
                match op {
                    Op::ToLowerCase => current.map(|v| v.map_text(|t| t.to_lowercase())),
                    Op::ToUpperCase => current.map(|v| v.map_text(|t| t.to_uppercase())),
                    Op::CapitalizeInitial => current.map(|v| v.map_text(|t| capitalize(&t))),
                    Op::ExpandEscapeSequences => current.map(|v| v.map_text(|t| ansi_c(&t))),
                    Op::PromptExpand => {
                        // `${x@P}` expands the value as a prompt: its substitutions run.
                        current.map(|v| match v {
                            Value::Known(t) => self.expand_string(&format!("\"{t}\"")),
                            Value::Unknown => Value::Unknown,
                        })
                    }
                    _ => Expansion::One(Value::Unknown),
                }
            }
            // `${x^}`, `${x^^}`, `${x,}`, `${x,,}`: with a pattern (`${x^^r}`), only the
            // characters it matches change, which is not modelled: unknown.
            P::UppercaseFirstChar {
                parameter,
                indirect,
                pattern,
            }
            | P::UppercasePattern {
                parameter,
                indirect,
                pattern,
            }
            | P::LowercaseFirstChar {
                parameter,
                indirect,
                pattern,
            }
            | P::LowercasePattern {
                parameter,
                indirect,
                pattern,
            } => {
                let current = self.lookup_text(parameter, *indirect);
                if pattern
                    .as_deref()
                    .is_some_and(|p| !matches!(p, "" | "?" | "*"))
                {
                    return current.map(|_| Value::Unknown);
                }
                let convert: fn(&str) -> String = match expr {
                    P::UppercaseFirstChar { .. } => capitalize,
                    P::UppercasePattern { .. } => str::to_uppercase,
                    P::LowercaseFirstChar { .. } => lower_first,
                    _ => str::to_lowercase,
                };
                current.map(|v| v.map_text(|t| convert(&t)))
            }
            P::ReplaceSubstring {
                parameter,
                indirect,
                pattern,
                replacement,
                match_kind,
            } => {
                let pattern = self.expand_string(pattern);
                let replacement = self.expand_string(replacement.as_deref().unwrap_or(""));
                let current = self.lookup_text(parameter, *indirect);
                current.map(|v| match (v, &pattern, &replacement) {
                    (Value::Known(t), Value::Known(p), Value::Known(r)) => {
                        super::pattern::replace(&t, p, r, match_kind.clone())
                            .map_or(Value::Unknown, Value::Known)
                    }
                    _ => Value::Unknown,
                })
            }
            P::VariableNames { prefix, .. } => Expansion::Each(
                self.env
                    .names()
                    .filter(|n| n.starts_with(prefix.as_str()))
                    .map(Value::known)
                    .collect(),
            ),
            P::MemberKeys {
                variable_name,
                concatenate,
            } => match self.env.keys(variable_name) {
                Some(keys) => {
                    let keys = keys.into_iter().map(Value::Known).collect();
                    if *concatenate {
                        Expansion::Joined(keys)
                    } else {
                        Expansion::Each(keys)
                    }
                }
                None => Expansion::One(Value::Unknown),
            },
        }
    }

    /// A `${x:-word}`-like expansion whose test cannot be decided: `word` is read for its
    /// substitutions (it may run), and the value is unknown.
    fn either(&mut self, word: Option<&str>) -> Expansion {
        let _ = self.expand_string(word.unwrap_or(""));
        Expansion::One(Value::Unknown)
    }

    /// Whether the parameter is null (or unset) for a `:-`/`-` test: `None` if not known.
    fn is_null(
        &self,
        parameter: &Parameter,
        indirect: bool,
        current: &Expansion,
        test: &ParameterTestType,
    ) -> Option<bool> {
        if indirect {
            return None;
        }
        if let Parameter::Named(name) = parameter
            && !self.env.is_set(name)
        {
            // The agent's environment may hold it.
            return None;
        }
        match (current, test) {
            (Expansion::One(Value::Known(t)), ParameterTestType::UnsetOrNull) => Some(t.is_empty()),
            (Expansion::One(Value::Known(_)), ParameterTestType::Unset) => Some(false),
            _ => None,
        }
    }

    /// [`Reader::lookup`] for an operation on the value's text (`${HOME:0:1}`, `${#HOME}`,
    /// `${HOME/r/x}`), which needs `$HOME`'s real text rather than the `~` that stands for
    /// it in paths: the host's home directory, else not known.
    fn lookup_text(&mut self, parameter: &Parameter, indirect: bool) -> Expansion {
        // `${!x:0:1}` with `x=HOME` names it through another variable.
        let name = match (parameter, indirect) {
            (Parameter::Named(name), false) => Some(name.clone()),
            (Parameter::Named(_), true) => match self.lookup_direct(parameter) {
                Expansion::One(Value::Known(name)) => Some(name),
                _ => None,
            },
            _ => None,
        };
        if !name.is_some_and(|n| n == "HOME" && self.env.is_builtin(&n)) {
            return self.lookup(parameter, indirect);
        }
        Expansion::One(
            self.host
                .as_ref()
                .and_then(|h| h.home.clone())
                .map_or(Value::Unknown, Value::Known),
        )
    }

    fn lookup(&mut self, parameter: &Parameter, indirect: bool) -> Expansion {
        let direct = self.lookup_direct(parameter);
        if !indirect {
            return direct;
        }
        match direct {
            Expansion::One(Value::Known(name)) => {
                if !self.spend_parse(1) {
                    return Expansion::One(Value::Unknown);
                }
                match word::parse_parameter(&name, &self.options) {
                    Ok(p) => self.lookup_direct(&p),
                    Err(_) => Expansion::One(Value::Unknown),
                }
            }
            _ => Expansion::One(Value::Unknown),
        }
    }

    fn lookup_direct(&mut self, parameter: &Parameter) -> Expansion {
        match parameter {
            Parameter::Named(name) => Expansion::One(self.env.get(name)),
            Parameter::NamedWithIndex { name, index } => {
                let index = match self.expand_string(index) {
                    Value::Known(i) => match super::arith::eval(&i, &self.env) {
                        Some(n) => n.to_string(),
                        // `${a[RANDOM%2]}`: an index not known of an indexed array.
                        None if self.env.is_indexed(name) => {
                            return Expansion::One(Value::Unknown);
                        }
                        None => i,
                    },
                    Value::Unknown => return Expansion::One(Value::Unknown),
                };
                Expansion::One(self.env.element(name, &index))
            }
            Parameter::NamedWithAllIndices { name, concatenate } => match self.env.array(name) {
                Some(items) if *concatenate => Expansion::Joined(items),
                Some(items) => Expansion::Each(items),
                None => Expansion::One(Value::Unknown),
            },
            Parameter::Positional(0) => Expansion::One(Value::known("bash")),
            // `$0`: the name `bash -c SCRIPT NAME` gave, else the agent's shell's own.
            Parameter::Special(SpecialParameter::ShellName) => {
                Expansion::One(self.env.arg0.clone().unwrap_or(Value::Unknown))
            }
            Parameter::Positional(n) => Expansion::One(match &self.env.positional {
                Some(args) => args
                    .get(*n as usize - 1)
                    .cloned()
                    .unwrap_or(Value::known("")),
                None => Value::Unknown,
            }),
            Parameter::Special(SpecialParameter::AllPositionalParameters { concatenate }) => {
                match &self.env.positional {
                    // `"$*"`: one word, joined by the first character of `$IFS`.
                    Some(args) if *concatenate => Expansion::Joined(args.clone()),
                    Some(args) => Expansion::Each(args.clone()),
                    None => Expansion::One(Value::Unknown),
                }
            }
            Parameter::Special(SpecialParameter::PositionalParameterCount) => {
                Expansion::One(match &self.env.positional {
                    Some(args) => Value::Known(args.len().to_string()),
                    None => Value::Unknown,
                })
            }
            // The shell's process id: digits, never a path (`/tmp/build.$$`).
            Parameter::Special(SpecialParameter::ProcessId) => {
                Expansion::One(Value::known(PROCESS_ID))
            }
            Parameter::Special(_) => Expansion::One(Value::Unknown),
        }
    }
}

/// What a parameter expands to: one value, or (`"$@"`, `"${a[@]}"`) one per element.
#[derive(Debug, Clone)]
enum Expansion {
    One(Value),
    Each(Vec<Value>),
    /// `${a[*]}`: quoted, one word of the elements joined by the first character of
    /// `$IFS`; unquoted, as `${a[@]}`.
    Joined(Vec<Value>),
}

impl Expansion {
    fn map(self, mut f: impl FnMut(Value) -> Value) -> Expansion {
        match self {
            Expansion::One(v) => Expansion::One(f(v)),
            Expansion::Each(items) => Expansion::Each(items.into_iter().map(f).collect()),
            Expansion::Joined(items) => Expansion::Joined(items.into_iter().map(f).collect()),
        }
    }
}

impl Value {
    fn map_text(self, f: impl FnOnce(String) -> String) -> Value {
        match self {
            Value::Known(t) => Value::Known(f(t)),
            Value::Unknown => Value::Unknown,
        }
    }
}

/// Which end `${x%p}`, `${x%%p}`, `${x#p}`, `${x##p}` removes.
#[derive(Debug, Clone, Copy)]
pub(super) enum Trim {
    SmallestSuffix,
    LargestSuffix,
    SmallestPrefix,
    LargestPrefix,
}

/// Whether what follows the working directory in a word (`after`, the next piece) keeps it
/// the start of a path: the word ends, or a `/` comes next. Elsewhere (`$PWD:/src`,
/// `$PWD.bak`) the directory's absolute name, which is not known, is part of a longer text.
fn starts_path_rest(after: Option<&WordPiece>) -> bool {
    match after {
        None => true,
        Some(WordPiece::Text(t)) => t.starts_with('/'),
        Some(_) => false,
    }
}

fn lower_first(t: &str) -> String {
    let mut c = t.chars();
    c.next()
        .map(|f| f.to_lowercase().chain(c).collect())
        .unwrap_or_default()
}

fn capitalize(t: &str) -> String {
    let mut c = t.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// `${x:offset:length}` on characters, with bash's negative offsets and lengths.
fn substring(v: Value, offset: &Value, length: Option<&Value>) -> Value {
    let (Value::Known(t), Value::Known(o)) = (v, offset) else {
        return Value::Unknown;
    };
    let chars: Vec<char> = t.chars().collect();
    let len = chars.len() as i64;
    let Ok(o) = o.parse::<i64>() else {
        return Value::Unknown;
    };
    let start = if o < 0 { (len + o).max(0) } else { o.min(len) };
    let end = match length {
        None => len,
        Some(Value::Known(l)) => match l.parse::<i64>() {
            Ok(l) if l < 0 => len + l,
            Ok(l) => start.saturating_add(l).min(len),
            Err(_) => return Value::Unknown,
        },
        Some(Value::Unknown) => return Value::Unknown,
    };
    if end < start {
        return Value::known("");
    }
    Value::Known(chars[start as usize..end as usize].iter().collect())
}

/// `text` with each extended glob group (`!(a|b)`, `@(x)`, `*(x)`, `+(x)`, `?(x)`) written
/// as `*`, if it has one.
fn extglob_as_star(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let opens = |k: usize| {
        matches!(bytes.get(k), Some(b'!' | b'@' | b'*' | b'+' | b'?'))
            && bytes.get(k + 1) == Some(&b'(')
    };
    if !(0..bytes.len()).any(opens) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut k = 0;
    while k < bytes.len() {
        if opens(k) {
            // To the group's closing parenthesis, nested ones counted.
            let mut depth = 0usize;
            let mut end = k + 1;
            while end < bytes.len() {
                match bytes[end] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                end += 1;
            }
            out.push('*');
            k = end + 1;
        } else {
            let c = text[k..].chars().next().unwrap_or_default();
            out.push(c);
            k += c.len_utf8().max(1);
        }
    }
    Some(out)
}

/// How many words brace expansion makes of `parts` (saturating), without making them.
fn words_of(parts: &[word::BraceExpressionOrText]) -> u128 {
    use word::BraceExpressionMember as M;
    let sequence = |from: i64, to: i64, step: i64| {
        u128::from(from.abs_diff(to)) / u128::from(step.unsigned_abs().max(1)) + 1
    };
    parts.iter().fold(1u128, |total, part| match part {
        word::BraceExpressionOrText::Text(_) => total,
        word::BraceExpressionOrText::Expr(members) => {
            let alternatives = members.iter().fold(0u128, |sum, m| {
                sum.saturating_add(match m {
                    M::Child(inner) => words_of(inner),
                    M::NumberSequence {
                        start,
                        end,
                        increment,
                    } => sequence(*start, *end, *increment),
                    M::CharSequence {
                        start,
                        end,
                        increment,
                    } => sequence(i64::from(*start as u32), i64::from(*end as u32), *increment),
                })
            });
            total.saturating_mul(alternatives)
        }
    })
}

/// The texts one brace member stands for (`a`, or `1..3` → 1 2 3), bounded.
fn brace_member(m: &word::BraceExpressionMember) -> Option<Vec<String>> {
    use word::BraceExpressionMember as M;
    match m {
        M::Child(parts) => {
            let mut words = vec![String::new()];
            for p in parts {
                match p {
                    word::BraceExpressionOrText::Text(t) => {
                        for w in &mut words {
                            w.push_str(t);
                        }
                    }
                    word::BraceExpressionOrText::Expr(members) => {
                        let mut alternatives = Vec::new();
                        for m in members {
                            alternatives.extend(brace_member(m)?);
                        }
                        let mut next = Vec::new();
                        for w in &words {
                            for a in &alternatives {
                                let mut joined = String::with_capacity(w.len() + a.len());
                                joined.push_str(w);
                                joined.push_str(a);
                                next.push(joined);
                            }
                        }
                        if next.len() > MAX_BRACE_WORDS {
                            return None;
                        }
                        words = next;
                    }
                }
            }
            Some(words)
        }
        M::NumberSequence {
            start,
            end,
            increment,
        } => {
            let step = increment.unsigned_abs().max(1) as usize;
            let count = (start.abs_diff(*end) as usize) / step + 1;
            if count > MAX_BRACE_WORDS {
                return None;
            }
            let up = start <= end;
            Some(
                (0..count)
                    .map(|k| {
                        let k = (k * step) as i64;
                        (if up { start + k } else { start - k }).to_string()
                    })
                    .collect(),
            )
        }
        M::CharSequence {
            start,
            end,
            increment,
        } => {
            let (a, z) = (*start as u32, *end as u32);
            let step = increment.unsigned_abs().max(1) as usize;
            let count = (a.abs_diff(z) as usize) / step + 1;
            if count > MAX_BRACE_WORDS {
                return None;
            }
            Some(
                (0..count)
                    .filter_map(|k| {
                        let k = (k * step) as u32;
                        char::from_u32(if a <= z { a + k } else { a - k }).map(String::from)
                    })
                    .collect(),
            )
        }
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

/// A substitution's output as a value: its text without the newlines at its end, as the
/// shell takes it.
fn output_value(out: Data) -> Value {
    match out {
        Data::Known(out) => Value::Known(out.trim_end_matches('\n').to_owned()),
        _ => Value::Unknown,
    }
}

/// The names a listing prints, each a word of its own (every list it may be, together;
/// a listing whose names may hold a blank has a list not known among them).
fn push_listing(b: &mut Builder, lists: Vec<Vec<Field>>) {
    for item in lists.into_iter().flatten() {
        b.break_field();
        b.current = Field {
            expanded: true,
            ..item
        };
        b.started = true;
    }
}
