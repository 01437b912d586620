//! Arithmetic (`(( ))`, `let`, `$(( ))`, subscripts): bash evaluates a variable's text as an
//! expression of its own, so the code a value holds is read where it is used.

use super::super::env::Value;
use super::Reader;
use std::collections::HashSet;

impl Reader {
    /// `(( ... ))` and `let`: substitutions inside are read; assigned names become unknown
    /// unless the whole expression is `name=constant`.
    pub(in crate::matcher::shell) fn arithmetic_command(&mut self, expr: &str) {
        self.arithmetic_at(expr, 0, &mut HashSet::new());
    }

    /// Bash evaluates a variable's value that is not a number as an expression of its own,
    /// so a value the line set (`x='a[$(rm -rf ~)]'`) runs what it holds: read it, to the
    /// depth `depth` is at (bash stops at 1024; the reader at 8).
    fn arithmetic_at(&mut self, expr: &str, depth: usize, read: &mut HashSet<String>) {
        // Values that name each other many times over would be read again and again.
        self.steps += expr.len() / 4 + 1;
        if self.exhausted() {
            return;
        }
        if expr.contains(['$', '`']) {
            let _ = self.expand_string(&format!("\"{expr}\""));
        }
        let bytes = expr.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_alphabetic() || bytes[i] == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                self.arithmetic_value(&expr[start..i], depth, read);
                let rest = expr[i..].trim_start();
                let assigns = (rest.starts_with('=') && !rest.starts_with("=="))
                    || [
                        "+=", "-=", "*=", "/=", "%=", "++", "--", "<<=", ">>=", "&=", "|=", "^=",
                    ]
                    .iter()
                    .any(|op| rest.starts_with(op))
                    || expr[..start].trim_end().ends_with("++")
                    || expr[..start].trim_end().ends_with("--");
                if assigns {
                    let name = expr[start..i].to_owned();
                    let value = rest
                        .strip_prefix('=')
                        .filter(|v| !v.contains([',', '=']))
                        .and_then(|v| super::super::arith::eval(v, &self.env));
                    self.env.set(
                        &name,
                        value.map_or(Value::Unknown, |n| Value::Known(n.to_string())),
                    );
                }
            } else {
                i += 1;
            }
        }
    }

    /// An array element's name (`a[i]`) given to a builtin that sets or unsets it, or to
    /// `[[ -v ]]`: bash evaluates its subscript as arithmetic, running the substitutions in
    /// it (`unset 'a[$(rm -rf ~)]'`).
    pub(in crate::matcher::shell) fn subscript_of(&mut self, name: &str) {
        if let Some((_, rest)) = name.split_once('[') {
            self.arithmetic_command(rest.strip_suffix(']').unwrap_or(rest));
        }
    }

    /// The values of the variables `expr` names, read as [`Reader::arithmetic_at`] reads
    /// them, for an expression whose assignments are not followed (`$((x + 1))`).
    pub(in crate::matcher::shell) fn arithmetic_values(&mut self, expr: &str) {
        let mut read = HashSet::new();
        let names = expr
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'));
        for name in names {
            self.arithmetic_value(name, 0, &mut read);
        }
    }

    /// The value of variable `name` read as the expression bash evaluates it as, when it is
    /// not a number (see [`Reader::arithmetic_at`]). Each name is read once per expression
    /// (`read`): what it runs is the same each time, and names that name each other many
    /// times over cost no more than their text.
    fn arithmetic_value(&mut self, name: &str, depth: usize, read: &mut HashSet<String>) {
        self.steps += 1;
        if depth >= 8 || self.exhausted() || read.contains(name) {
            return;
        }
        read.insert(name.to_owned());
        let expression = |c: char| c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '`');
        if let Value::Known(value) = self.env.get(name)
            && value.contains(expression)
        {
            self.arithmetic_at(&value, depth + 1, read);
        }
    }
}
