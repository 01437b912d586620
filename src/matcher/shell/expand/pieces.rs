//! The pieces of a word (text, quotes, tildes, parameters, substitutions, arithmetic)
//! expanded into fields, split and globbed as bash does unless quoted.

use super::super::env::Value;
use super::super::walk::{Data, Reader};
use super::parameters::Expansion;
use super::{Builder, Field, ansi_c, system_home};
use brush_parser::word::{Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource};

impl Reader {
    pub(super) fn pieces(&mut self, pieces: &[WordPieceWithSource], quoted: bool, b: &mut Builder) {
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
                // `curl -T "$(ls ~/.ssh/id_* | head -1)"`: a listing of one name is that
                // name, read as the path or the pattern the listing holds (several names
                // are one word holding newlines, a name of no file).
                WordPiece::CommandSubstitution(script)
                | WordPiece::BackquotedCommandSubstitution(script) => {
                    let out = self.substitution_output(script);
                    let one_name = match &out {
                        // Quoted, a name is not cut at a newline: the list not known that
                        // stands for the pieces of one so cut does not count.
                        Data::Listing(lists, may_split) if quoted || !may_split => {
                            let cut = |l: &Vec<Field>| {
                                *may_split && matches!(l.as_slice(), [f] if f.unknown)
                            };
                            match lists.as_slice() {
                                [list] | [list, _] if !cut(list) => match list.as_slice() {
                                    [name] if !name.unknown => Some(name.text.clone()),
                                    _ => None,
                                },
                                _ => None,
                            }
                            .filter(|_| lists.len() == 1 || lists.last().is_some_and(cut))
                        }
                        _ => None,
                    };
                    match one_name {
                        Some(name) => {
                            b.push_text(&name, false);
                            b.current.expanded = true;
                        }
                        None => self.push_values(Expansion::One(output_value(out)), quoted, b),
                    }
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
                self.unreadable("the command splits words with an unknown $IFS");
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
        let super::super::env::Value::Known(dir) = self.env.get(super::super::env::DIR) else {
            return None;
        };
        let absolute = self.host.as_ref()?.absolute(Some(&dir), ".")?;
        Some(super::super::super::paths::normalize(&absolute))
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

    /// What a command substitution prints.
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
            && let Some(reason) = super::super::streams::Outcome::Hoards.reason()
        {
            self.unreadable_line(reason);
        }
        out
    }

    /// A constant arithmetic expression's value; substitutions inside it are read.
    pub(super) fn arithmetic(&mut self, expr: &str) -> Value {
        if expr.contains(['$', '`']) {
            let _ = self.expand_string(expr);
            return Value::Unknown;
        }
        self.arithmetic_values(expr);
        match super::super::arith::eval(expr, &self.env) {
            Some(n) => Value::Known(n.to_string()),
            None => Value::Unknown,
        }
    }
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
