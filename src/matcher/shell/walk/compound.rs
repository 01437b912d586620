//! Compound commands (`if`, `case`, loops, `[[ ]]`, groups and subshells): every branch is
//! read, and what the branches leave is joined.

use super::super::env::{Branches, Value, Var};
use super::super::expand::Field;
use super::{Data, Reader};
use brush_parser::ast;

impl Reader {
    /// A loop whose condition never ends it (`condition`, written, is one of `endless`) and
    /// whose body starts a command in the background (or detached) each time round, with no
    /// `break`, `exit` or `return`: processes pile up without bound (`while :; do sh &
    /// done`). Or whose body writes files with no pause: the disk fills. Or that has no
    /// pause at all: a busy loop.
    fn endless_spawner(&mut self, condition: &str, endless: &[&str], body: &ast::CompoundList) {
        let condition = condition.trim().trim_end_matches(';').trim();
        if !endless.contains(&condition) {
            return;
        }
        let text = body.to_string();
        let has_word = |words: &[&str]| {
            text.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|word| words.contains(&word))
        };
        // In the background, or detached to outlive the loop (`nohup`, `setsid`, a
        // container started with `-d`).
        let spawns = body
            .0
            .iter()
            .any(|item| matches!(item.1, ast::SeparatorOperator::Async))
            || has_word(&["nohup", "setsid", "daemonize", "disown"])
            || text.contains("systemd-run")
            || [" run -d", " run --detach", " -dm"]
                .iter()
                .any(|d| text.contains(d));
        let leaves = has_word(&["break", "exit", "return"]);
        if spawns && !leaves {
            self.unreadable_line(
                "a loop that never ends starts a process in the background each time round (a fork bomb)",
            );
        }
        // Files written each time round with no pause fill the disk (`while :; do cat f f
        // > g && mv g f; done`); a poller that sleeps or waits for input is ordinary.
        let writes = ["> /dev/null", ">/dev/null", ">&"]
            .iter()
            .fold(text.clone(), |t, quiet| t.replace(quiet, ""))
            .contains('>')
            || has_word(&["tee", "dd", "cp", "fallocate", "truncate"]);
        let pauses = has_word(&["sleep", "read", "wait", "inotifywait", "timeout"]);
        if writes && !leaves && !pauses {
            self.unreadable_line(
                "a loop that never ends writes files each time round (a disk filler)",
            );
        }
        if grows(&text) && !leaves && !pauses {
            self.unreadable_line(
                "a loop that never ends makes a variable longer each time round (a memory bomb)",
            );
        }
        // Anything else run with no pause and no way out holds a core for good, and floods
        // whatever the command feeds (`while :; do logger ...; done`).
        if !leaves && !pauses {
            self.unreadable_line(
                "a loop that never ends runs its commands with no pause and no way out (it \
                 holds a core until killed)",
            );
        }
    }

    pub(super) fn extended_test(&mut self, expr: &ast::ExtendedTestExpr) {
        use ast::ExtendedTestExpr as E;
        match expr {
            E::And(a, b) | E::Or(a, b) => {
                self.extended_test(a);
                self.extended_test(b);
            }
            E::Not(a) | E::Parenthesized(a) => self.extended_test(a),
            E::UnaryTest(op, w) => {
                let fields = self.expand(&w.value);
                if matches!(op, ast::UnaryPredicate::ShellVariableIsSetAndAssigned)
                    && let Some(name) = unsplit(&fields)
                {
                    self.subscript_of(&name);
                }
            }
            // `-eq`, `-gt`...: each side is an arithmetic expression, and a value that is not
            // a number is evaluated as one (`[[ $n -gt 3 ]]` with `n='a[$(cmd)]'` runs cmd).
            E::BinaryTest(op, a, b) => {
                use ast::BinaryPredicate as B;
                let arithmetic = matches!(
                    op,
                    B::ArithmeticEqualTo
                        | B::ArithmeticNotEqualTo
                        | B::ArithmeticLessThan
                        | B::ArithmeticLessThanOrEqualTo
                        | B::ArithmeticGreaterThan
                        | B::ArithmeticGreaterThanOrEqualTo
                );
                for side in [a, b] {
                    let fields = self.expand(&side.value);
                    if arithmetic && let Some(expression) = unsplit(&fields) {
                        self.arithmetic_command(&expression);
                    }
                }
            }
        }
    }

    pub(super) fn compound(&mut self, compound: &ast::CompoundCommand, stdin: Data) -> Data {
        use ast::CompoundCommand as C;
        match compound {
            C::BraceGroup(g) => self.list(&g.list, stdin),
            C::Subshell(s) => {
                let saved = self.mark();
                self.forked += 1;
                let out = self.list(&s.list, stdin);
                self.forked -= 1;
                self.restore(saved);
                out
            }
            C::Arithmetic(a) => {
                // brush-parser reads `( (cmd) )` and `((cmd) )`, two subshells to bash, as
                // the arithmetic command `((cmd))`: only `((` ... `))` written together is.
                let written = self.sources.last().and_then(|s| {
                    s.get(a.loc.start.index..a.loc.end.index)
                        .map(|t| t.starts_with("((") && t.ends_with("))"))
                });
                if written != Some(true) {
                    self.unreadable("nested subshells written like arithmetic are not read");
                }
                self.arithmetic_command(&a.expr.value);
                Data::Nothing
            }
            C::ArithmeticForClause(f) => {
                let condition = f
                    .condition
                    .as_ref()
                    .map_or(String::new(), |c| c.value.clone());
                self.endless_spawner(&condition, &["", "1"], &f.body.list);
                for e in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.arithmetic_command(&e.value);
                }
                // Twice, as a `while` body: a second pass sees the values the first leaves
                // behind, and a function the body calls back into is called again
                // (`f() { for ((i = 0; i < 2; i++)); do f & done; }`).
                let before = self.mark();
                let mut out = self.list(&f.body.list, stdin.clone());
                self.join(before);
                out = out.then(self.list(&f.body.list, stdin));
                self.join(before);
                out
            }
            C::ForClause(f) => self.for_loop(f, stdin),
            C::CaseClause(c) => {
                self.expand(&c.value.value);
                let listed = self.listed_variable(&c.value.value);
                // No pattern may match: the values before the `case` are one of its ways.
                let mut branches = Branches::from(self.mark());
                let mut out = Data::Nothing;
                for item in &c.cases {
                    for p in &item.patterns {
                        self.expand(&p.value);
                    }
                    if let Some(body) = &item.cmd {
                        if let Some((name, listing)) = &listed {
                            self.narrow(name, listing, &item.patterns);
                        }
                        out = out.then(self.list(body, stdin.clone()));
                    }
                    self.end_branch(&mut branches);
                }
                self.env.join_branches(branches);
                out
            }
            C::IfClause(i) => {
                let mut out = self.list(&i.condition, stdin.clone());
                // Each way starts from the values after the condition. A variable the
                // ways leave different is one of their values after the `if`, or of the
                // value it had too when no `else` makes one way always run.
                let has_else = i.elses.iter().flatten().any(|e| e.condition.is_none());
                let mut branches = if has_else {
                    Branches::every_way(self.mark())
                } else {
                    Branches::from(self.mark())
                };
                let ways = std::iter::once((None, &i.then)).chain(
                    i.elses
                        .iter()
                        .flatten()
                        .map(|e| (e.condition.as_ref(), &e.body)),
                );
                for (condition, body) in ways {
                    if let Some(c) = condition {
                        out = out.then(self.list(c, stdin.clone()));
                    }
                    out = out.then(self.list(body, stdin.clone()));
                    self.end_branch(&mut branches);
                }
                self.env.join_branches(branches);
                out
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                let endless = match compound {
                    C::UntilClause(_) => ["false"].as_slice(),
                    _ => [":", "true", "[ 1 ]", "((1))", "(( 1 ))"].as_slice(),
                };
                self.endless_spawner(&w.0.to_string(), endless, &w.1.list);
                let before = self.mark();
                let mut out = self.list(&w.0, stdin.clone());
                out = out.then(self.list(&w.1.list, stdin.clone()));
                // A second pass sees the values the first leaves behind.
                self.join(before);
                out = out.then(self.list(&w.0, stdin.clone()));
                out = out.then(self.list(&w.1.list, stdin));
                self.join(before);
                out
            }
            C::Coprocess(c) => {
                let saved = self.mark();
                let out = self.command(&c.body, Data::Unknown);
                self.restore(saved);
                out
            }
        }
    }

    /// The variable a `case` tests (`case "$f" in`), when it holds every file below a
    /// directory, as a loop over a listing gives it (`for f in $(git diff --name-only)`
    /// holds `./**/*`): with the listing.
    fn listed_variable(&self, word: &str) -> Option<(String, String)> {
        let name = word
            .trim_matches('"')
            .strip_prefix('$')?
            .trim_start_matches('{')
            .trim_end_matches('}');
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        match self.env.get(name) {
            Value::Known(listing) if listing.ends_with("/**/*") => Some((name.to_owned(), listing)),
            _ => None,
        }
    }

    /// Within a `case` branch, the listed variable holds the files its patterns match
    /// (`*.py)`: `./**/*.py`), since a case pattern's `*` matches `/` too. A pattern of
    /// another shape (`src/*`, `*`, `@(a|b)`) leaves the whole listing.
    fn narrow(&mut self, name: &str, listing: &str, patterns: &[ast::Word]) {
        let every = &listing[..listing.len() - 1];
        let narrowed: Option<Vec<String>> = patterns
            .iter()
            .map(|p| {
                let pattern = p.value.trim_matches(['"', '\'']);
                (pattern.len() > 1
                    && pattern.starts_with('*')
                    && !pattern[1..].contains(['*', '/', '(', '$', '`', '\\']))
                .then(|| format!("{every}{pattern}"))
            })
            .collect();
        match narrowed {
            Some(mut globs) if globs.len() == 1 => {
                self.env.set(name, Value::Known(globs.remove(0)))
            }
            Some(globs)
                if globs.len() <= super::super::env::MOST_WAYS && self.env.room_for_ways(name) =>
            {
                self.env.set_ways(
                    name,
                    globs
                        .into_iter()
                        .map(|g| Var::Scalar(Value::Known(g)))
                        .collect(),
                );
            }
            _ => {}
        }
    }

    fn for_loop(&mut self, f: &ast::ForClauseCommand, stdin: Data) -> Data {
        let fields = match &f.values {
            Some(words) => self.expand_words(words.iter().map(|w| w.value.as_str())),
            // `for x; do`: the positional parameters.
            None => match self.env.positional.clone() {
                Some(args) => args
                    .into_iter()
                    .map(|v| match v {
                        Value::Known(t) => Field::literal(&t),
                        Value::Unknown => Field {
                            text: super::super::SUBSTITUTION.to_owned(),
                            unknown: true,
                            ..Field::default()
                        },
                    })
                    .collect(),
                None => vec![Field {
                    text: super::super::SUBSTITUTION.to_owned(),
                    unknown: true,
                    ..Field::default()
                }],
            },
        };
        let before = self.mark();
        let mut out = Data::Nothing;
        if fields.is_empty() {
            return out;
        }
        // `declare -n ref; for ref in a b`: `$ref` is `$a`, then `$b`, and what the body
        // assigns to `ref` it assigns to them, which are not known after the loop.
        let nameref = self.env.namerefs.contains(&f.variable_name);
        let targets: Vec<String> = match nameref {
            true => fields.iter().map(|w| w.text.clone()).collect(),
            false => Vec::new(),
        };
        for field in fields {
            if self.exhausted() {
                return Data::Unknown;
            }
            let value = match nameref {
                true if !field.unknown => self.env.get(&field.text),
                true => Value::Unknown,
                false => field.value(),
            };
            self.env.set(&f.variable_name, value);
            let body = self.reached("from a for loop".to_owned(), |r| {
                r.list(&f.body.list, stdin.clone())
            });
            out = out.then(body);
        }
        // `break` may end the loop early.
        self.join(before);
        for target in &targets {
            self.env.set(target, Value::Unknown);
        }
        out
    }
}

/// Whether the text of a loop's body appends to a variable (`s+=$s`, `a+=(x)`) or sets one
/// to a text holding itself (`s=$s$s`, `s="${s}x"`); arithmetic (`i=$((i + 1))`) is a
/// number, not a text that grows.
fn grows(body: &str) -> bool {
    let name_end = |at: usize| {
        body[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
            .last()
            .map(|(k, _)| k)
    };
    body.match_indices('=').any(|(at, _)| {
        let appends = at > 0 && body.as_bytes()[at - 1] == b'+';
        let name_at = if appends { at - 1 } else { at };
        let Some(start) = name_end(name_at) else {
            return false;
        };
        let name = &body[start..name_at];
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return false;
        }
        let value = body[at + 1..]
            .split(|c: char| c.is_whitespace() || c == ';')
            .next()
            .unwrap_or_default();
        // `i=$((i + 1))`, `((i+=1))`
        if value.starts_with("$((")
            || (appends && value.trim_end_matches(')').parse::<i64>().is_ok())
        {
            return false;
        }
        appends || value.contains(&format!("${name}")) || value.contains(&format!("${{{name}}}"))
    })
}

/// A word of `[[ ]]` as one value: it is not split there, so the fields the reader cut it
/// into are joined again; `None` when part of it is not known.
fn unsplit(fields: &[Field]) -> Option<String> {
    if fields.iter().any(|f| f.unknown) {
        return None;
    }
    let texts: Vec<&str> = fields.iter().map(|f| f.text.as_str()).collect();
    Some(texts.join(" "))
}
