//! What the reader can tell of an awk program's values: variables, operands, the files
//! it adds to `ARGV`, and the paths it reads on standard input.

use super::files::{changed_in_place, operand};
use super::text::{awk_string, is_name, statement_end};
use crate::matcher::shell::env::Value;
use crate::matcher::shell::walk::Reader;
use std::collections::HashMap;

/// What the reader can tell of awk's values: variables assigned one expression (in the
/// program, by `-v NAME=VALUE` or by a `NAME=VALUE` operand), the file operands (`ARGV[1]`,
/// ..., `FILENAME` when there is one) and the files a program adds to `ARGV`.
#[derive(Debug, Default)]
pub(super) struct Values {
    /// Each variable's one expression; `None` when it is assigned more than once.
    pub(super) vars: HashMap<String, Option<String>>,
    /// The operands that are files, `None` where not known.
    pub(super) files: Vec<Option<String>>,
    /// Expressions the program stores in `ARGV`: files it reads.
    pub(super) argv_added: Vec<String>,
    /// Whether the program changes `ARGV` or `ENVIRON`: their elements are then not known.
    pub(super) argv_written: bool,
    pub(super) environ_written: bool,
    /// Terms evaluated so far: `a = b b b; b = c c c; ...` grows as a power of its depth, so
    /// the evaluation of one program is bounded.
    pub(super) terms: std::cell::Cell<usize>,
    /// The paths awk reads on its standard input, one a line, when it reads a listing whose
    /// names hold no blank or shell syntax (`ls tests/*.sh | awk ...`): each alternative
    /// list of [`Data::Listing`].
    pub(super) listed: Vec<Vec<String>>,
    /// Each alternative list of the paths of a listing on standard input, one a line, which
    /// a record is (`$0`) as long as the program does not change it, blanks or not.
    pub(super) listed_lines: Vec<Vec<String>>,
    /// Whether those lines are known text (`echo PATH | awk ...`), not a listing: their
    /// fields are known too.
    pub(super) lines_are_text: bool,
    /// Whether the data awk reads may be text the line itself holds or wrote.
    pub(super) data_on_line: bool,
    /// Whether fields are split at blanks, as by default (no `-F`, no `FS` set): `$1` of a
    /// listed path is then the path.
    pub(super) default_fields: bool,
}

impl Values {
    /// Deepest chain of variables followed (`a = b; b = c`).
    pub(super) const MAX_DEPTH: usize = 8;
    /// Most terms evaluated for one program, and longest value made: past them a value is
    /// not known.
    pub(super) const MAX_TERMS: usize = 4096;
    pub(super) const MAX_LEN: usize = 4096;

    /// The string constant `name` is given, when that is its one value (`-v f=sum`,
    /// `f = "sum"`).
    pub(super) fn constant(&self, name: &str) -> Option<&str> {
        let expression = self.vars.get(name)?.as_deref()?.trim();
        let inner = expression.strip_prefix('"')?.strip_suffix('"')?;
        (!inner.contains(['"', '\\'])).then_some(inner)
    }

    /// Takes `NAME=VALUE` as an assignment of a constant; false for anything else.
    pub(super) fn assign_operand(&mut self, text: &str) -> bool {
        let Some((name, value)) = text.split_once('=') else {
            return false;
        };
        if !is_name(name) {
            return false;
        }
        // awk decodes escapes in the value as in a string (`-v c='\150\157'` is "ho").
        let mut quoted = String::from("\"");
        let mut chars = value.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(n) => quoted.extend(['\\', n]),
                    None => quoted.push_str("\\\\"),
                },
                '"' => quoted.push_str("\\\""),
                c => quoted.push(c),
            }
        }
        quoted.push('"');
        self.set(name, quoted);
        true
    }

    pub(super) fn set(&mut self, name: &str, expression: String) {
        self.vars
            .entry(name.to_owned())
            .and_modify(|v| *v = None)
            .or_insert(Some(expression));
    }

    /// Collects the assignments `NAME = EXPRESSION` and `ARGV[...] = EXPRESSION` of
    /// `program`, each expression running to the end of its statement.
    pub(super) fn assign_in(&mut self, program: &str) {
        let b = program.as_bytes();
        let substitutes = program.contains("sub(");
        let mut quoted = false;
        let mut k = 0;
        while k < b.len() {
            let c = b[k];
            if quoted {
                if c == b'\\' {
                    k += 1;
                } else if c == b'"' {
                    quoted = false;
                }
                k += 1;
                continue;
            }
            if c == b'"' {
                quoted = true;
                k += 1;
                continue;
            }
            let starts_name = (c.is_ascii_alphabetic() || c == b'_')
                && !k
                    .checked_sub(1)
                    .and_then(|p| b.get(p))
                    .is_some_and(|p| p.is_ascii_alphanumeric() || *p == b'_' || *p == b'$');
            if !starts_name {
                k += 1;
                continue;
            }
            let start = k;
            while b
                .get(k)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            {
                k += 1;
            }
            let name = &program[start..k];
            if changed_in_place(program, start, k, substitutes) {
                self.vars.insert(name.to_owned(), None);
                continue;
            }
            let mut at = k;
            let element = b.get(at) == Some(&b'[');
            if element {
                match program[at..].find(']') {
                    Some(close) => at += close + 1,
                    None => continue,
                }
            }
            let rest = program[at..].trim_start();
            let Some(value) = rest.strip_prefix('=').filter(|v| !v.starts_with('=')) else {
                continue;
            };
            let end = statement_end(value);
            let expression = value[..end].trim().to_owned();
            match (name, element) {
                ("ARGV", true) => {
                    self.argv_written = true;
                    self.argv_added.push(expression);
                }
                ("ENVIRON", true) => self.environ_written = true,
                (_, true) => {}
                (_, false) => self.set(name, expression),
            }
        }
    }

    /// The text `expression` evaluates to, when it is a concatenation of constants,
    /// `ENVIRON["NAME"]` of a known variable, `ARGV[N]`, `FILENAME` and variables with
    /// such a value; `None` otherwise.
    pub(super) fn eval(&self, r: &Reader, expression: &str, depth: usize) -> Option<String> {
        self.eval_in(r, expression, depth, None)
    }

    /// The text of a command built from constants and data (`"mkdir -p out/" $1`), with
    /// `data` in the place of each term the data decides: a field, an array element, a
    /// variable with no one known value, a function's result. `None` for any other
    /// expression (operators, conditions).
    pub(super) fn eval_with_data(
        &self,
        r: &Reader,
        expression: &str,
        data: &str,
    ) -> Option<String> {
        self.eval_in(r, expression, 0, Some(data))
    }

    pub(super) fn eval_in(
        &self,
        r: &Reader,
        expression: &str,
        depth: usize,
        data: Option<&str>,
    ) -> Option<String> {
        if depth > Self::MAX_DEPTH || self.terms.get() > Self::MAX_TERMS {
            return None;
        }
        let mut out = String::new();
        let mut rest = expression.trim_start();
        while !rest.is_empty() {
            self.terms.set(self.terms.get() + 1);
            if self.terms.get() > Self::MAX_TERMS || out.len() > Self::MAX_LEN {
                return None;
            }
            if rest.starts_with('"') {
                let (text, after) = awk_string(rest)?;
                out.push_str(&text);
                rest = after;
            } else if rest.starts_with('(') {
                let group = operand(rest);
                let inner = group.strip_prefix('(')?.strip_suffix(')')?;
                out.push_str(&self.eval_in(r, inner, depth + 1, data)?);
                rest = &rest[group.len()..];
            } else if let (Some(data), Some(after)) = (data, rest.strip_prefix('$')) {
                // A field: `$1`, `$NF`, `$(NF-1)`.
                let len = match after.starts_with('(') {
                    true => operand(after).len(),
                    false => after
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(after.len()),
                };
                if len == 0 {
                    return None;
                }
                out.push_str(data);
                rest = &after[len..];
            } else if let Some(after) = rest.strip_prefix("ENVIRON[") {
                if self.environ_written {
                    return None;
                }
                let (name, after) = awk_string(after.trim_start())?;
                rest = after.trim_start().strip_prefix(']')?;
                match r.env.get(&name) {
                    Value::Known(text) => out.push_str(&text),
                    Value::Unknown => return None,
                }
            } else if let Some(after) = rest.strip_prefix("ARGV[") {
                if self.argv_written {
                    return None;
                }
                let close = after.find(']')?;
                let n: usize = after[..close].trim().parse().ok()?;
                out.push_str(self.files.get(n.checked_sub(1)?)?.as_deref()?);
                rest = &after[close + 1..];
            } else {
                let len = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .unwrap_or(rest.len());
                let word = &rest[..len];
                if word.is_empty() {
                    return None;
                } else if word.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
                    out.push_str(word);
                } else if word == "FILENAME" {
                    match self.files.as_slice() {
                        [Some(only)] => out.push_str(only),
                        _ => return None,
                    }
                } else if let Some(value) = self.vars.get(word).and_then(|v| v.as_deref()) {
                    out.push_str(&self.eval_in(r, value, depth + 1, data)?);
                } else {
                    // An array element (`dirs[i]`), a call (`tolower($1)`) or a variable
                    // the data sets.
                    let data = data.filter(|_| is_name(word))?;
                    let after = rest[len..].trim_start();
                    let taken = if after.starts_with('(') {
                        operand(after).len()
                    } else if after.starts_with('[') {
                        after.find(']')? + 1
                    } else {
                        0
                    };
                    out.push_str(data);
                    rest = &after[taken..];
                    rest = rest.trim_start();
                    continue;
                }
                rest = &rest[len..];
            }
            rest = rest.trim_start();
        }
        Some(out)
    }
}
