//! What an expression evaluates to, as far as the reader follows it: constant strings and
//! the `string` and `table` functions that compute them, globals and modules by qualified
//! name, tables; and a call's arguments.

use super::{by_field, kind};
use tree_sitter::Node;

use super::text::{format, number, unescape};
use super::{COMPUTED_NAME, DATA_MODULES, GLOBALS, Lua, Obj};
use crate::matcher::code::Val;
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::MAX_NESTING;

impl<'t> Lua<'_, '_, 't> {
    pub(super) fn arg_nodes(node: Node<'t>) -> Vec<Node<'t>> {
        match by_field(node, "arguments") {
            // `f"x"`, `f{...}`
            Some(a) if kind(a) != "arguments" => vec![a],
            Some(a) => Self::named(a),
            None => Vec::new(),
        }
    }

    pub(super) fn args(&mut self, node: Node<'t>) -> Vec<Obj> {
        Self::arg_nodes(node)
            .into_iter()
            .map(|a| self.eval(a, 0))
            .collect()
    }

    /// What `node` evaluates to.
    pub(super) fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        match kind(node) {
            "string" => Obj::Val(self.string(node)),
            "number" => Obj::Val(number(self.text(node))),
            "parenthesized_expression" => match Self::named(node).first() {
                Some(inner) => self.eval(*inner, depth + 1),
                None => Obj::Val(Val::Unknown),
            },
            "identifier" => self.name(node, depth),
            "dot_index_expression" | "bracket_index_expression" => {
                let (Some(base), Some(key)) = (by_field(node, "table"), by_field(node, "field"))
                else {
                    return Obj::Val(Val::Unknown);
                };
                let key = if kind(node) == "dot_index_expression" {
                    Val::known(self.text(key))
                } else {
                    self.eval(key, depth + 1).val()
                };
                match (self.eval(base, depth + 1), key) {
                    (Obj::Ref(q), Val::Known(k)) => Obj::Ref(canonical(&format!("{q}.{k}"))),
                    (Obj::Ref(q), _) => {
                        if !DATA_MODULES.contains(&q.as_str()) {
                            self.cx.unreadable(COMPUTED_NAME, self.line(node));
                        }
                        Obj::Val(Val::Unknown)
                    }
                    (Obj::Table(items), Val::Known(k)) => match k.parse::<usize>() {
                        Ok(n) if n > 0 => {
                            Obj::Val(items.get(n - 1).cloned().unwrap_or(Val::Unknown))
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "binary_expression" => {
                let (Some(l), Some(op), Some(r)) = (
                    by_field(node, "left"),
                    by_field(node, "operator"),
                    by_field(node, "right"),
                ) else {
                    return Obj::Val(Val::Unknown);
                };
                // `c and a or b`: Lua's conditional value, where the left side's truth is
                // known (a string, a number or a table is true; `nil` and `false` are not
                // read, so their side is not known).
                // A standard function the reader follows is there in every Lua but
                // `loadstring` and `setfenv` (gone from 5.2).
                let truth = |o: &Obj| match o {
                    Obj::Val(Val::Known(_)) | Obj::Table(_) | Obj::Func => Some(true),
                    Obj::Ref(q) => {
                        let q = canonical(q);
                        (super::calls::is_sink(&q)
                            && !matches!(q.as_str(), "loadstring" | "setfenv"))
                        .then_some(true)
                    }
                    _ => None,
                };
                match self.text(op) {
                    ".." => {
                        let l = self.eval(l, depth + 1).val();
                        Obj::Val(l.concat(self.eval(r, depth + 1).val()))
                    }
                    "and" => match truth(&self.eval(l, depth + 1)) {
                        Some(true) => self.eval(r, depth + 1),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "or" => {
                        let l = self.eval(l, depth + 1);
                        if truth(&l) == Some(true) {
                            return l;
                        }
                        // `loadstring or load`: whichever this Lua has (`loadstring` is
                        // gone from 5.2), both compile a string.
                        match (l, self.eval(r, depth + 1)) {
                            (Obj::Ref(a), Obj::Ref(b)) if compiles(&a) && compiles(&b) => {
                                Obj::Ref("load".into())
                            }
                            _ => Obj::Val(Val::Unknown),
                        }
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "table_constructor" => {
                let mut items = Vec::new();
                for field in Self::named(node) {
                    if by_field(field, "name").is_none()
                        && let Some(v) = by_field(field, "value")
                    {
                        items.push(self.eval(v, depth + 1).val());
                    }
                }
                Obj::Table(items)
            }
            "function_definition" => Obj::Func,
            "function_call" => self.value_of_call(node, depth),
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn name(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let name = self.text(node);
        match self.names.get(name).cloned() {
            Some(Slot::Expr(value)) if !self.wild => {
                if !self.names.enter(name) {
                    return Obj::Val(Val::Unknown);
                }
                let out = self.eval(value, depth + 1);
                self.names.leave();
                out
            }
            Some(Slot::Grown(value, growths)) if !self.wild => {
                self.grown(name, node, (value, &growths), depth)
            }
            Some(_) => Obj::Val(Val::Unknown),
            None if GLOBALS.contains(&name) => Obj::Ref(name.to_owned()),
            None => Obj::Val(Val::Unknown),
        }
    }

    /// The value a call returns, for the calls that compute strings and name modules.
    fn value_of_call(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let Some(callee) = by_field(node, "name") else {
            return Obj::Val(Val::Unknown);
        };
        // A function of the program's own that quotes its argument as one shell word.
        if kind(callee) == "identifier" && !self.wild && self.quoters.contains(&self.text(callee)) {
            return Obj::Val(get(&self.args(node), 0).shell_quoted());
        }
        let (q, args) = if kind(callee) == "method_index_expression" {
            // `("x"):rep(3)`: a string's methods are the `string` functions.
            let (Some(object), Some(method)) =
                (by_field(callee, "table"), by_field(callee, "method"))
            else {
                return Obj::Val(Val::Unknown);
            };
            let receiver = self.eval(object, depth + 1);
            if !matches!(receiver, Obj::Val(Val::Known(_) | Val::Fetched)) {
                return Obj::Val(Val::Unknown);
            }
            let mut args = vec![receiver];
            args.extend(self.args(node));
            (format!("string.{}", self.text(method)), args)
        } else {
            match self.eval(callee, depth + 1) {
                Obj::Ref(q) => (canonical(&q), self.args(node)),
                _ => return Obj::Val(Val::Unknown),
            }
        };
        let arg = |n: usize| get(&args, n);
        let text = |n: usize| arg(n).text().map(str::to_owned);
        let known = |t: Option<String>| Obj::Val(t.map_or(Val::Unknown, Val::Known));
        if q.starts_with("string.") && args.iter().any(|a| matches!(a, Obj::Val(Val::Fetched))) {
            return Obj::Val(Val::Fetched);
        }
        match q.as_str() {
            "io.open" => Obj::File(arg(0)),
            "require" => match arg(0) {
                Val::Known(m) => Obj::Ref(canonical(&m)),
                _ => Obj::Val(Val::Unknown),
            },
            "rawget" => match (args.first(), arg(1)) {
                (Some(Obj::Ref(t)), Val::Known(k)) => Obj::Ref(canonical(&format!("{t}.{k}"))),
                _ => Obj::Val(Val::Unknown),
            },
            "os.getenv" => Obj::Val(arg(0).text().map_or(Val::Unknown, |k| self.cx.env(k))),
            // A new file of the temporary directory, named `lua_` and six random characters.
            "os.tmpname" => Obj::Val(Val::Known(format!(
                "{}/lua_*",
                crate::matcher::code::scope::TEMP_DIR
            ))),
            "tostring" => Obj::Val(arg(0)),
            "string.char" => {
                let chars: Option<String> = (0..args.len())
                    .map(|n| {
                        arg(n)
                            .text()
                            .and_then(|t| t.parse::<u8>().ok())
                            .filter(u8::is_ascii)
                            .map(char::from)
                    })
                    .collect();
                known(chars)
            }
            "string.reverse" => known(
                text(0)
                    .filter(|s| s.is_ascii())
                    .map(|s| s.chars().rev().collect()),
            ),
            "string.upper" => known(text(0).map(|s| s.to_ascii_uppercase())),
            "string.lower" => known(text(0).map(|s| s.to_ascii_lowercase())),
            "string.rep" if args.len() == 2 => known(
                text(0)
                    .zip(text(1).and_then(|n| n.parse::<usize>().ok()))
                    .and_then(|(s, n)| (s.len().saturating_mul(n) <= 4096).then(|| s.repeat(n))),
            ),
            "string.format" => {
                let rest: Vec<Val> = (1..args.len()).map(arg).collect();
                known(text(0).and_then(|f| format(&f, &rest)))
            }
            "string.gsub" if args.len() == 3 => match (text(0), text(1), text(2)) {
                (Some(s), Some(p), Some(r)) if !r.contains('%') => known(gsub(&s, &p, &r)),
                _ => Obj::Val(Val::Unknown),
            },
            "table.concat" => match args.first() {
                Some(Obj::Table(items)) if args.len() <= 2 => {
                    let sep = if args.len() == 2 {
                        arg(1)
                    } else {
                        Val::known("")
                    };
                    let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
                    known(texts.zip(sep.text()).map(|(t, s)| t.join(s)))
                }
                _ => Obj::Val(Val::Unknown),
            },
            "socket.http.request" | "ssl.https.request" => Obj::Val(Val::Fetched),
            "socket.tcp" | "socket.tcp4" | "socket.tcp6" | "socket.udp" | "socket.udp4"
            | "socket.udp6" => Obj::Socket,
            "load" | "loadstring" | "loadfile" => Obj::Func,
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// A string literal's value: a long bracket string as written, a quoted one unescaped.
    pub(super) fn string(&self, node: Node<'_>) -> Val {
        let start = by_field(node, "start").map_or("", |s| self.text(s));
        let content = by_field(node, "content").map_or("", |c| self.text(c));
        if start.starts_with('[') {
            // A newline right after the opening bracket is not part of the string.
            let body = content
                .strip_prefix("\r\n")
                .or(content.strip_prefix('\n'))
                .unwrap_or(content);
            return Val::known(body);
        }
        unescape(content).map_or(Val::Unknown, Val::Known)
    }
}

pub(super) fn get(args: &[Obj], n: usize) -> Val {
    args.get(n).cloned().map_or(Val::Unknown, Obj::val)
}

/// Qualified names spelled another way: `_G.os` is `os`, `package.loaded.os` is `os`.
/// Whether global `q` compiles a string of Lua into a function.
fn compiles(q: &str) -> bool {
    matches!(canonical(q).as_str(), "load" | "loadstring")
}

pub(super) fn canonical(q: &str) -> String {
    let mut q = q;
    loop {
        let next = ["_G.", "_ENV.", "package.loaded."]
            .iter()
            .find_map(|p| q.strip_prefix(p));
        match next {
            Some(rest) => q = rest,
            None => return q.to_owned(),
        }
    }
}

/// `s:gsub(pattern, r)` for a pattern of plain characters, `%` escapes of punctuation
/// (`%.`), and the anchors `^` and `$`; other magic characters make it a pattern match,
/// which is not followed.
fn gsub(s: &str, pattern: &str, r: &str) -> Option<String> {
    let (start, pattern) = match pattern.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, pattern),
    };
    let mut plain = String::new();
    let mut end = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '%' => match chars.next() {
                Some(e) if !e.is_alphanumeric() => plain.push(e),
                _ => return None,
            },
            '$' if chars.as_str().is_empty() => end = true,
            c if "^$()%.[]*+-?".contains(c) => return None,
            c => plain.push(c),
        }
    }
    if plain.is_empty() {
        return None;
    }
    Some(match (start, end) {
        (false, false) => s.replace(&plain, r),
        (true, true) => {
            if s == plain {
                r.to_owned()
            } else {
                s.to_owned()
            }
        }
        (true, false) => match s.strip_prefix(&plain) {
            Some(rest) => format!("{r}{rest}"),
            None => s.to_owned(),
        },
        (false, true) => match s.strip_suffix(&plain) {
            Some(rest) => format!("{rest}{r}"),
            None => s.to_owned(),
        },
    })
}
