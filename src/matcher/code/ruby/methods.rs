//! The methods of a known string or array the reader computes (`reverse`, `chr`, `split`,
//! `sub`, `tr`, `join`, `pack('c*')`, `map(&:chr)`), on known values.

use super::values::Args;
use super::{Obj, Rb};
use super::{by_field, kind};
use crate::matcher::code::Val;

impl<'t> Rb<'_, '_, 't> {
    pub(super) fn string_method(&mut self, s: String, name: &str, args: &Args<'t>) -> Obj {
        let arg = |rb: &mut Self, n: usize| rb.arg(args, n).val();
        let v = |t: String| Obj::Val(Val::Known(t));
        match (name, args.pos.len()) {
            (
                "to_s" | "to_str" | "to_sym" | "intern" | "itself" | "freeze" | "dup" | "clone"
                | "b" | "scrub" | "-@" | "+@" | "to_path",
                0,
            ) => v(s),
            ("reverse", 0) => v(s.chars().rev().collect()),
            ("upcase", 0) => v(s.to_uppercase()),
            ("downcase", 0) => v(s.to_lowercase()),
            ("strip", 0) => v(s.trim().to_owned()),
            ("lstrip", 0) => v(s.trim_start().to_owned()),
            ("rstrip", 0) => v(s.trim_end().to_owned()),
            ("chomp", 0) => v(s.strip_suffix('\n').unwrap_or(&s).to_owned()),
            ("chr", 0) => match s.parse::<u32>() {
                Ok(n) => char::from_u32(n).map_or(Obj::Val(Val::Unknown), |c| v(c.to_string())),
                Err(_) => v(s.chars().next().map(String::from).unwrap_or_default()),
            },
            ("ord", 0) => s
                .chars()
                .next()
                .map_or(Obj::Val(Val::Unknown), |c| v((c as u32).to_string())),
            ("chars", 0) => Obj::List(s.chars().map(|c| Val::Known(c.to_string())).collect()),
            ("split", 0) => Obj::List(s.split_whitespace().map(Val::known).collect()),
            ("split", 1) => match self.arg(args, 0) {
                Obj::Val(Val::Known(sep))
                    if !sep.is_empty() && args.pos.first().is_some_and(|n| kind(n) != "regex") =>
                {
                    Obj::List(s.split(sep.as_str()).map(Val::known).collect())
                }
                _ => Obj::Val(Val::Unknown),
            },
            ("concat" | "+", _) => {
                let mut out = Val::Known(s);
                for n in 0..args.pos.len() {
                    out = out.concat(arg(self, n));
                }
                Obj::Val(out)
            }
            ("prepend", 1) => Obj::Val(arg(self, 0).concat(Val::Known(s))),
            ("sub" | "gsub" | "tr" | "delete", _) => {
                let literal = args.pos.first().is_some_and(|n| kind(n) != "regex");
                match (arg(self, 0), arg(self, 1)) {
                    (Val::Known(a), Val::Known(b))
                        if literal && !a.is_empty() && !b.contains('\\') =>
                    {
                        match name {
                            "sub" => v(s.replacen(&a, &b, 1)),
                            "gsub" => v(s.replace(&a, &b)),
                            _ => tr(&s, &a, &b).map_or(Obj::Val(Val::Unknown), v),
                        }
                    }
                    (Val::Known(a), _) if name == "delete" && args.pos.len() == 1 => {
                        tr(&s, &a, "").map_or(Obj::Val(Val::Unknown), v)
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    pub(super) fn list_method(&mut self, items: Vec<Val>, name: &str, args: &Args<'t>) -> Obj {
        let arg = |rb: &mut Self, n: usize| rb.arg(args, n).val();
        match name {
            "join" => match (args.pos.len(), arg(self, 0)) {
                (0, _) => Obj::Val(Val::joined(&items, "")),
                (_, Val::Known(sep)) => Obj::Val(Val::joined(&items, &sep)),
                _ => Obj::Val(Val::Unknown),
            },
            "reverse" => Obj::List(items.into_iter().rev().collect()),
            "to_a" | "dup" | "flatten" | "compact" | "freeze" => Obj::List(items),
            "first" if args.pos.is_empty() => {
                Obj::Val(items.into_iter().next().unwrap_or(Val::Unknown))
            }
            "last" if args.pos.is_empty() => {
                Obj::Val(items.into_iter().last().unwrap_or(Val::Unknown))
            }
            "[]" | "at" | "fetch" => {
                match arg(self, 0).text().and_then(|i| i.parse::<i64>().ok()) {
                    Some(i) => {
                        let at = if i < 0 {
                            items.len().checked_sub(i.unsigned_abs() as usize)
                        } else {
                            Some(i as usize)
                        };
                        Obj::Val(
                            at.and_then(|i| items.get(i).cloned())
                                .unwrap_or(Val::Unknown),
                        )
                    }
                    None => Obj::Val(Val::Unknown),
                }
            }
            "pack" => match arg(self, 0).text() {
                Some("c*" | "C*" | "U*") => {
                    let chars: Option<String> = items
                        .iter()
                        .map(|i| {
                            i.text()
                                .and_then(|t| t.parse::<u32>().ok())
                                .and_then(char::from_u32)
                        })
                        .collect();
                    Obj::Val(chars.map_or(Val::Unknown, Val::Known))
                }
                _ => Obj::Val(Val::Fetched),
            },
            // `map(&:chr)`, `inject(:+)`, `sum('')`
            "map" | "collect" | "inject" | "reduce" | "sum" => {
                let method = match args.block.and_then(|b| b.named_child(0)) {
                    Some(b) => self.eval(b, 0).val(),
                    None => arg(self, 0),
                };
                match (name, method) {
                    ("inject" | "reduce", Val::Known(m)) if m == "+" => {
                        Obj::Val(Val::joined(&items, ""))
                    }
                    ("sum", Val::Known(m)) if m.is_empty() => Obj::Val(Val::joined(&items, "")),
                    ("map" | "collect", Val::Known(m)) if args.block.is_some() => {
                        let mut out = Vec::new();
                        for item in items {
                            out.push(match item {
                                Val::Known(s) => self.string_method(s, &m, &Args::default()).val(),
                                other => other,
                            });
                        }
                        Obj::List(out)
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
    }
}

impl<'t> Rb<'_, '_, 't> {
    /// What a method that quotes for the shell returns (`shellescape`, `shelljoin`, a
    /// `map` whose block quotes each item, `join` of such a map); `None` for any other.
    pub(super) fn quoted(
        &mut self,
        receiver: Option<&Obj>,
        name: &str,
        args: &Args<'t>,
    ) -> Option<Obj> {
        let receiver = receiver?;
        Some(match (name, receiver) {
            ("shellescape", Obj::Val(v)) if args.pos.is_empty() => {
                Obj::Val(v.clone().shell_quoted())
            }
            ("shelljoin", _) if args.pos.is_empty() => Obj::Val(shell_joined(receiver.clone())),
            ("map" | "collect", _) if self.quotes_each(args) => match receiver {
                Obj::List(items) => {
                    Obj::List(items.iter().cloned().map(Val::shell_quoted).collect())
                }
                _ => Obj::Quoted,
            },
            ("join", Obj::Quoted) => Obj::Val(match self.arg(args, 0).val() {
                Val::Known(sep) => Val::shell_joined(None, &sep),
                _ => Val::Unknown,
            }),
            _ => return None,
        })
    }

    /// Whether `args` hold a block that only quotes each item for the shell:
    /// `(&:shellescape)`, `{ |s| Shellwords.escape(s) }`, `{ |s| s.shellescape }`.
    fn quotes_each(&mut self, args: &Args<'t>) -> bool {
        let Some(block) = args.block.or(args.written_block) else {
            return false;
        };
        if kind(block) == "block_argument" {
            return block
                .named_child(0)
                .is_some_and(|s| self.src.of(s) == ":shellescape");
        }
        let params = by_field(block, "parameters").map(named).unwrap_or_default();
        let body = by_field(block, "body").map(named).unwrap_or_default();
        let ([param], [call]) = (params.as_slice(), body.as_slice()) else {
            return false;
        };
        if kind(*param) != "identifier" || kind(*call) != "call" {
            return false;
        }
        let param = self.src.of(*param);
        let (receiver, method) = (
            by_field(*call, "receiver").map(|r| self.src.of(r)),
            by_field(*call, "method").map(|m| self.src.of(m)),
        );
        let arguments: Vec<&str> = by_field(*call, "arguments")
            .map(|a| named(a).into_iter().map(|n| self.src.of(n)).collect())
            .unwrap_or_default();
        match (receiver, method, arguments.as_slice()) {
            (Some(r), Some("shellescape"), []) => r == param,
            (Some("Shellwords" | "::Shellwords"), Some("escape" | "shellescape"), [a]) => {
                *a == param
            }
            _ => false,
        }
    }
}

/// The named children of `node`, comments aside.
fn named(node: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    let mut c = node.walk();
    node.named_children(&mut c)
        .filter(|n| kind(*n) != "comment")
        .collect()
}

/// A list's items quoted for the shell and joined with spaces (`Shellwords.join`).
pub(super) fn shell_joined(list: Obj) -> Val {
    match list {
        Obj::List(items) => Val::shell_joined(Some(items), " "),
        _ => Val::shell_joined(None, " "),
    }
}

/// `String#tr` with plain characters and `a-z` ranges (`^` negation not followed).
fn tr(s: &str, from: &str, to: &str) -> Option<String> {
    fn expand(set: &str) -> Option<Vec<char>> {
        let chars: Vec<char> = set.chars().collect();
        if chars.first() == Some(&'^') || chars.contains(&'\\') {
            return None;
        }
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(&c) = chars.get(i) {
            match (chars.get(i + 1), chars.get(i + 2)) {
                (Some('-'), Some(&end)) if c <= end && (end as u32 - c as u32) < 1024 => {
                    out.extend((c as u32..=end as u32).filter_map(char::from_u32));
                    i += 3;
                }
                _ => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        Some(out)
    }
    let (from, to) = (expand(from)?, expand(to)?);
    Some(
        s.chars()
            .filter_map(|c| match from.iter().position(|&f| f == c) {
                Some(_) if to.is_empty() => None,
                Some(i) => to.get(i).or(to.last()).copied(),
                None => Some(c),
            })
            .collect(),
    )
}
