//! The values of the functions that compute strings and arrays (`implode`, `str_replace`,
//! `sprintf`, `chr`, `array_map`, ...), apart from the expressions that hold them.

use tree_sitter::Node;

use super::files::{Res, resource};
use super::sinks::{function_name, is_decoder, is_value_function};
use super::text::sprintf;
use super::values::Args;
use super::{Obj, Php, by_field, kind};
use crate::matcher::code::Val;

impl<'t> Php<'_, '_, 't> {
    /// The value a call returns, for the calls that compute strings.
    pub(super) fn value_of_call(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let Some(f) = by_field(node, "function") else {
            return Obj::Val(Val::Unknown);
        };
        let name = match kind(f) {
            "name" | "qualified_name" => function_name(self.text(f)),
            _ => match self.eval(f, depth + 1).val() {
                Val::Known(s) => function_name(&s),
                _ => return Obj::Val(Val::Unknown),
            },
        };
        if !is_value_function(&name) {
            return Obj::Val(Val::Unknown);
        }
        let args = self.args(node);
        if name == "getenv" {
            return Obj::Val(args.val(0).text().map_or(Val::Unknown, |k| self.cx.env(k)));
        }
        value_of(&name, &args)
    }
}

/// The value function `name` returns for `a`.
fn value_of(name: &str, a: &Args<'_>) -> Obj {
    let fetched = a.vals.iter().any(|v| matches!(v, Obj::Val(Val::Fetched)));
    if is_decoder(name) || fetched {
        return Obj::Val(Val::Fetched);
    }
    let text = |n: usize| a.val(n).text().map(str::to_owned);
    let known = |t: Option<String>| Obj::Val(t.map_or(Val::Unknown, Val::Known));
    match name {
        "implode" | "join" => {
            let (sep, items) = match (a.get(0), a.get(1)) {
                (Obj::Array(items), sep) | (sep, Obj::Array(items)) => (sep.val(), items),
                (Obj::Quoted, sep) | (sep, Obj::Quoted) if a.vals.len() == 2 => {
                    return Obj::Val(match sep.val() {
                        Val::Known(s) => Val::shell_joined(None, &s),
                        _ => Val::Unknown,
                    });
                }
                _ => return Obj::Val(Val::Unknown),
            };
            let sep = if a.vals.len() == 1 {
                Val::known("")
            } else {
                sep
            };
            let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
            known(texts.zip(sep.text()).map(|(t, s)| t.join(s)))
        }
        "strrev" => known(
            text(0)
                .filter(|s| s.is_ascii())
                .map(|s| s.chars().rev().collect()),
        ),
        // An IPv4 address from its number (`long2ip(2130706433)` is `127.0.0.1`).
        "long2ip" => known(
            text(0)
                .and_then(|n| n.trim().parse::<u32>().ok())
                .map(|n| std::net::Ipv4Addr::from(n).to_string()),
        ),
        "chr" => known(text(0).and_then(|n| n.parse::<i64>().ok()).and_then(|n| {
            let b = u8::try_from(n.rem_euclid(256)).ok()?;
            b.is_ascii().then(|| char::from(b).to_string())
        })),
        "str_replace" => {
            let subject = text(2);
            let pairs: Vec<(Val, Val)> = match (a.get(0), a.get(1)) {
                (Obj::Array(s), Obj::Array(r)) => s
                    .into_iter()
                    .enumerate()
                    .map(|(n, s)| (s, r.get(n).cloned().unwrap_or(Val::known(""))))
                    .collect(),
                (Obj::Array(s), r) => {
                    let r = r.val();
                    s.into_iter().map(|s| (s, r.clone())).collect()
                }
                (s, r) => vec![(s.val(), r.val())],
            };
            let mut out = subject;
            for (s, r) in pairs {
                out = match (out, s.text(), r.text()) {
                    (Some(o), Some(""), Some(_)) => Some(o),
                    (Some(o), Some(s), Some(r)) => Some(o.replace(s, r)),
                    _ => None,
                };
            }
            known(out)
        }
        "sprintf" | "vsprintf" => {
            let items = match (name, a.get(1)) {
                ("vsprintf", Obj::Array(items)) => items,
                ("vsprintf", _) => return Obj::Val(Val::Unknown),
                _ => a.vals.iter().skip(1).cloned().map(Obj::val).collect(),
            };
            known(text(0).and_then(|f| sprintf(&f, &items)))
        }
        "fopen" => match resource(a.val(0)) {
            Res::Path(p) => Obj::Handle(p),
            _ => Obj::Val(Val::Unknown),
        },
        "strtolower" => known(text(0).map(|s| s.to_ascii_lowercase())),
        "strtoupper" => known(text(0).map(|s| s.to_ascii_uppercase())),
        "trim" | "ltrim" | "rtrim" if a.vals.len() == 1 => known(text(0).map(|s| {
            let ws: &[char] = &[' ', '\t', '\n', '\r', '\0', '\x0b'];
            match name {
                "trim" => s.trim_matches(ws).to_owned(),
                "ltrim" => s.trim_start_matches(ws).to_owned(),
                _ => s.trim_end_matches(ws).to_owned(),
            }
        })),
        "strval" | "realpath" => Obj::Val(a.val(0)),
        "getcwd" => Obj::Val(Val::known(".")),
        // The names a listing finds, as the pattern they match.
        "glob" => Obj::Each(Box::new(Obj::Val(a.val(0)))),
        "str_repeat" => known(
            text(0)
                .zip(text(1).and_then(|n| n.parse::<usize>().ok()))
                .and_then(|(s, n)| (s.len().saturating_mul(n) <= 4096).then(|| s.repeat(n))),
        ),
        "escapeshellarg" => Obj::Val(a.val(0).shell_quoted()),
        "str_split" => match text(0) {
            Some(s) if a.vals.len() == 1 => {
                Obj::Array(s.chars().map(|c| Val::Known(c.into())).collect())
            }
            _ => Obj::Val(Val::Unknown),
        },
        "explode" => match (text(0), text(1)) {
            (Some(sep), Some(s)) if !sep.is_empty() && a.vals.len() == 2 => {
                Obj::Array(s.split(sep.as_str()).map(Val::known).collect())
            }
            _ => Obj::Val(Val::Unknown),
        },
        "array_reverse" => match a.get(0) {
            Obj::Array(mut items) => {
                items.reverse();
                Obj::Array(items)
            }
            _ => Obj::Val(Val::Unknown),
        },
        // `array_map('chr', [114, 109])`
        "array_map" => match (a.val(0), a.get(1)) {
            (Val::Known(f), Obj::Array(items))
                if a.vals.len() == 2 && is_value_function(&f) && f != "array_map" =>
            {
                let mut out = Vec::new();
                for item in items {
                    out.push(value_of(&f, &Args::values(vec![item])).val());
                }
                Obj::Array(out)
            }
            (Val::Known(f), Obj::Val(_) | Obj::Each(_))
                if a.vals.len() == 2 && f.trim_start_matches('\\') == "escapeshellarg" =>
            {
                Obj::Quoted
            }
            _ => Obj::Val(Val::Unknown),
        },
        "file_get_contents" | "file" => match resource(a.val(0)) {
            Res::Url(_) | Res::Shell(_) => Obj::Val(Val::Fetched),
            _ => Obj::Val(Val::Unknown),
        },
        "curl_exec" | "stream_get_contents" | "fgets" | "fread" | "socket_read" => {
            Obj::Val(Val::Fetched)
        }
        // Its code is read where it is created.
        "create_function" => Obj::Closure,
        _ => Obj::Val(Val::Unknown),
    }
}
