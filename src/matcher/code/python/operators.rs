//! The binary operators: integer arithmetic of literals alone, and `+`, `/`, `%` and `*`
//! of strings, paths and listings.

use tree_sitter::Node;

use super::text::percent;
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::{any_of, join};
use crate::matcher::code::tree::MAX_NESTING;

impl<'t> Py<'_, '_, 't> {
    /// The integer `node` computes from integer literals alone, if it fits in 127 bits.
    pub(super) fn int_constant(&self, node: Node<'t>, depth: usize) -> Option<i128> {
        if depth > MAX_NESTING {
            return None;
        }
        match kind(node) {
            "integer" => super::text::parse_wide(self.text(node)),
            "parenthesized_expression" => self.int_constant(node.named_child(0)?, depth + 1),
            "unary_operator" if self.text(by_field(node, "operator")?) == "-" => self
                .int_constant(by_field(node, "argument")?, depth + 1)?
                .checked_neg(),
            "binary_operator" => {
                // The right side first: in a chain (`a + b + c`) it is the short one, so text
                // joined by `+` is given up at once rather than down the chain.
                let r = self.int_constant(by_field(node, "right")?, depth + 1)?;
                let l = self.int_constant(by_field(node, "left")?, depth + 1)?;
                let shift = u32::try_from(r).ok().filter(|s| *s < 127);
                match self.text(by_field(node, "operator")?) {
                    "+" => l.checked_add(r),
                    "-" => l.checked_sub(r),
                    "*" => l.checked_mul(r),
                    // Python floors; for a positive divisor that is the Euclidean division.
                    "//" if r > 0 => Some(l.div_euclid(r)),
                    "%" if r > 0 => Some(l.rem_euclid(r)),
                    "**" => l.checked_pow(u32::try_from(r).ok()?),
                    "<<" => l.checked_mul(1i128.checked_shl(shift?)?),
                    ">>" => Some(l >> shift?),
                    "|" => Some(l | r),
                    "&" => Some(l & r),
                    "^" => Some(l ^ r),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    pub(super) fn binary(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let (Some(l), Some(op), Some(r)) = (
            by_field(node, "left"),
            by_field(node, "operator"),
            by_field(node, "right"),
        ) else {
            return Obj::Val(Val::Unknown);
        };
        let op = self.text(op);
        let left = self.eval(l, depth + 1);
        let right = self.eval(r, depth + 1);
        match (op, left, right) {
            ("+", Obj::List(a), Obj::List(b)) => Obj::List(a.into_iter().chain(b).collect()),
            // `glob.glob(a) + glob.glob(b)`, `['HOOKS.yaml'] + glob.glob(p)`: each name
            // matches one of them.
            ("+", a @ (Obj::Each(_) | Obj::List(_)), b @ (Obj::Each(_) | Obj::List(_))) => {
                let patterns = |side: Obj| match side {
                    Obj::Each(e) => match *e {
                        Obj::Val(Val::Known(p)) | Obj::Path(Val::Known(p)) => Some(vec![p]),
                        _ => None,
                    },
                    Obj::List(items) => items
                        .into_iter()
                        .map(|v| v.text().map(glob_literal))
                        .collect(),
                    _ => None,
                };
                let both = patterns(a).zip(patterns(b)).map(|(a, b)| [a, b].concat());
                Obj::Each(Box::new(Obj::Val(
                    both.map_or(Val::Unknown, |p| any_of(&p)),
                )))
            }
            // A list plus what is not known: Python adds only a list to a list, so the
            // items written stay first and an unknown rest follows (`['ruff', 'check'] +
            // files`).
            ("+", Obj::List(mut a), Obj::Val(Val::Unknown)) => {
                a.push(Val::Unknown);
                Obj::List(a)
            }
            ("+", a, b) => Obj::Val(a.val().concat(b.val())),
            ("/", Obj::Path(p), b) => Obj::Path(join(&[p, b.val()])),
            ("%", Obj::Val(Val::Known(f)), args) => {
                let args = match args {
                    Obj::List(items) => items,
                    other => vec![other.val()],
                };
                Obj::Val(percent(&f, &args))
            }
            ("*", Obj::Val(Val::Known(s)), Obj::Val(Val::Known(n)))
                if n.parse::<usize>().is_ok_and(|n| n * s.len() <= 4096) =>
            {
                Obj::Val(Val::Known(s.repeat(n.parse().unwrap_or(0))))
            }
            _ => Obj::Val(Val::Unknown),
        }
    }
}

/// `text` as a glob pattern that matches only itself.
fn glob_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | ',' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
