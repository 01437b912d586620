//! Constant shell arithmetic (`$((1+2))`, `${s:2:3}` offsets): integers, the usual operators
//! and variables whose values the line set. Anything else is not a constant.

use super::env::{Env, Value};

/// Longest expression evaluated; longer ones are not constants here.
const MAX_LEN: usize = 256;

/// The value of `expr`, if it is a constant the reader can compute.
pub(super) fn eval(expr: &str, env: &Env) -> Option<i64> {
    if expr.len() > MAX_LEN {
        return None;
    }
    let tokens = tokenize(expr, env)?;
    let mut p = Parser { tokens, pos: 0 };
    let v = p.expr(0)?;
    (p.pos == p.tokens.len()).then_some(v)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Op(&'static str),
    Open,
    Close,
}

const OPS: &[&str] = &[
    "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "&",
    "|", "^",
];

fn tokenize(expr: &str, env: &Env) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let b = expr.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            out.push(Tok::Num(number(&expr[start..i])?));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let n = match env.get(&expr[start..i]) {
                Value::Known(t) if t.trim().is_empty() => 0,
                Value::Known(t) => number(t.trim())?,
                Value::Unknown => return None,
            };
            out.push(Tok::Num(n));
        } else if c == b'(' {
            out.push(Tok::Open);
            i += 1;
        } else if c == b')' {
            out.push(Tok::Close);
            i += 1;
        } else {
            let op = OPS.iter().find(|op| expr[i..].starts_with(**op))?;
            out.push(Tok::Op(op));
            i += op.len();
        }
    }
    Some(out)
}

/// A decimal, `0x` hex or leading-zero octal literal.
fn number(text: &str) -> Option<i64> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        i64::from_str_radix(hex, 16).ok()
    } else if text.len() > 1 && text.starts_with('0') {
        i64::from_str_radix(&text[1..], 8).ok()
    } else {
        text.parse().ok()
    }
}

struct Parser {
    tokens: Vec<Tok>,
    pos: usize,
}

fn precedence(op: &str) -> u8 {
    match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => 11, // **
    }
}

impl Parser {
    fn expr(&mut self, min: u8) -> Option<i64> {
        let mut left = self.unary()?;
        while let Some(Tok::Op(op)) = self.tokens.get(self.pos).cloned() {
            let prec = precedence(op);
            if prec < min {
                break;
            }
            self.pos += 1;
            // `**` is right-associative.
            let right = self.expr(if op == "**" { prec } else { prec + 1 })?;
            left = apply(op, left, right)?;
        }
        Some(left)
    }

    fn unary(&mut self) -> Option<i64> {
        match self.tokens.get(self.pos).cloned()? {
            Tok::Num(n) => {
                self.pos += 1;
                Some(n)
            }
            Tok::Open => {
                self.pos += 1;
                let v = self.expr(0)?;
                (self.tokens.get(self.pos) == Some(&Tok::Close)).then_some(())?;
                self.pos += 1;
                Some(v)
            }
            Tok::Op("-") => {
                self.pos += 1;
                self.unary()?.checked_neg()
            }
            Tok::Op("+") => {
                self.pos += 1;
                self.unary()
            }
            _ => None,
        }
    }
}

fn apply(op: &str, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        "+" => a.checked_add(b)?,
        "-" => a.checked_sub(b)?,
        "*" => a.checked_mul(b)?,
        "/" => a.checked_div(b)?,
        "%" => a.checked_rem(b)?,
        "**" => a.checked_pow(u32::try_from(b).ok()?)?,
        "<<" => a.checked_shl(u32::try_from(b).ok()?)?,
        ">>" => a.checked_shr(u32::try_from(b).ok()?)?,
        "<" => i64::from(a < b),
        ">" => i64::from(a > b),
        "<=" => i64::from(a <= b),
        ">=" => i64::from(a >= b),
        "==" => i64::from(a == b),
        "!=" => i64::from(a != b),
        "&&" => i64::from(a != 0 && b != 0),
        "||" => i64::from(a != 0 || b != 0),
        "&" => a & b,
        "|" => a | b,
        "^" => a ^ b,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_and_known_variables() {
        let mut env = Env::default();
        env.set("n", Value::known("3"));
        for (e, want) in [
            ("1+2*3", Some(7)),
            ("(1+2)*3", Some(9)),
            ("-2+n", Some(1)),
            ("2**10", Some(1024)),
            ("010", Some(8)),
            ("0x10", Some(16)),
            ("1/0", None),
            ("m+1", None),
            ("1 +", None),
        ] {
            assert_eq!(eval(e, &env), want, "{e}");
        }
    }
}
