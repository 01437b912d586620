//! What an expression evaluates to, as far as the reader follows it (constant strings,
//! numbers and arrays, names bound once, modules, method objects, paths, URIs and socket
//! addresses, the calls that compute them), and a call's arguments.

use super::{by_field, kind};
use tree_sitter::Node;

use super::files::{expand, file_join};
use super::methods::shell_joined;
use super::sinks::{canonical, is_decoder, is_network};
use super::text::{parse_int, percent, unescape, word_escapes};
use super::{Obj, Rb};
use crate::matcher::code::Val;
use crate::matcher::code::scope::{Slot, join};
use crate::matcher::code::tree::MAX_NESTING;

/// A call's arguments, unevaluated.
#[derive(Clone, Default)]
pub(super) struct Args<'t> {
    pub(super) pos: Vec<Node<'t>>,
    keywords: Vec<Node<'t>>,
    pub(super) block: Option<Node<'t>>,
    /// The block written after the call (`{ |s| ... }`, `do |s| ... end`).
    pub(super) written_block: Option<Node<'t>>,
    /// A `*list` or `**hash` whose items are not known, or arguments not known at all.
    pub(super) splat: bool,
}

impl<'t> Args<'t> {
    pub(super) fn of(call: Node<'t>) -> Args<'t> {
        let mut args = Args {
            written_block: by_field(call, "block"),
            ..Args::default()
        };
        let list = match kind(call) {
            "element_reference" => Some(call),
            _ => by_field(call, "arguments"),
        };
        let Some(list) = list else { return args };
        let mut c = list.walk();
        for a in list.named_children(&mut c) {
            if kind(call) == "element_reference" && by_field(call, "object") == Some(a) {
                continue;
            }
            match kind(a) {
                "pair" => args.keywords.push(a),
                "block_argument" => args.block = Some(a),
                "comment" => {}
                "splat_argument" | "hash_splat_argument" | "forward_argument" => {
                    args.splat = true;
                    args.pos.push(a);
                }
                _ => args.pos.push(a),
            }
        }
        args
    }

    /// Arguments not known (`each(&method(:system))`).
    pub(super) fn unknown() -> Args<'t> {
        Args {
            splat: true,
            ..Args::default()
        }
    }

    pub(super) fn skip(&self, n: usize) -> Args<'t> {
        Args {
            pos: self.pos.iter().skip(n).copied().collect(),
            ..self.clone()
        }
    }

    pub(super) fn keyword(&self, rb: &mut Rb<'_, '_, 't>, name: &str) -> Option<Obj> {
        let pair = self.keywords.iter().find(|p| {
            by_field(*p, "key").is_some_and(|k| rb.text(k).trim_matches([':', '"', '\'']) == name)
        })?;
        Some(rb.eval(by_field(pair, "value")?, 0))
    }
}

impl<'t> Rb<'_, '_, 't> {
    /// The value of argument `n`, `*list` spread into its first item.
    pub(super) fn arg(&mut self, args: &Args<'t>, n: usize) -> Obj {
        match args.pos.get(n) {
            Some(node) if kind(node) == "splat_argument" => match node.named_child(0) {
                Some(inner) => self.eval(inner, 0),
                None => Obj::Val(Val::Unknown),
            },
            Some(node) => self.eval(*node, 0),
            None => Obj::Val(Val::Unknown),
        }
    }

    /// What `node` evaluates to.
    pub(super) fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        // Arguments are evaluated afresh (`depth` 0), so calls nested without brackets
        // (`format format format ...`) are bounded here.
        if depth > MAX_NESTING || self.nest > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        self.nest += 1;
        let out = self.eval_node(node, depth);
        self.nest -= 1;
        out
    }

    fn eval_node(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let d = depth + 1;
        match kind(node) {
            "string" | "chained_string" | "delimited_symbol" | "bare_symbol"
            | "heredoc_beginning" => Obj::Val(self.string(node, d)),
            // A word of `%w[...]`, also when read alone (a block's parameter over one).
            "bare_string" => Obj::Val(match self.string(node, d) {
                Val::Known(word) => Val::Known(word_escapes(&word)),
                other => other,
            }),
            "simple_symbol" => Obj::Val(Val::known(self.text(node).trim_start_matches(':'))),
            "hash_key_symbol" => Obj::Val(Val::known(self.text(node))),
            "character" => {
                let t = self.text(node).get(1..).unwrap_or_default();
                Obj::Val(Val::Known(unescape(t, true)))
            }
            "integer" => Obj::Val(
                parse_int(self.text(node)).map_or(Val::Unknown, |n| Val::Known(n.to_string())),
            ),
            "float" => Obj::Val(Val::known(self.text(node))),
            "true" => Obj::Val(Val::known("true")),
            "false" => Obj::Val(Val::known("false")),
            "unary" => match (by_field(node, "operator"), by_field(node, "operand")) {
                (Some(op), Some(v)) if self.text(op) == "-" => match self.eval(v, d).val() {
                    Val::Known(n) if n.parse::<i64>().is_ok() => {
                        Obj::Val(Val::Known(format!("-{n}")))
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                _ => Obj::Val(Val::Unknown),
            },
            "array" | "string_array" | "symbol_array" | "right_assignment_list" => {
                let mut items = Vec::new();
                let mut c = node.walk();
                let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                for item in children {
                    match (kind(item), item.named_child(0)) {
                        ("splat_argument", Some(inner)) => match self.eval(inner, d) {
                            Obj::List(more) => items.extend(more),
                            _ => items.push(Val::Unknown),
                        },
                        _ => items.push(self.eval(item, d).val()),
                    }
                }
                Obj::List(items)
            }
            "splat_argument" => node
                .named_child(0)
                .map_or(Obj::Val(Val::Unknown), |n| self.eval(n, d)),
            "parenthesized_statements" => {
                let last = node.named_child(node.named_child_count().saturating_sub(1) as u32);
                last.map_or(Obj::Val(Val::Unknown), |n| self.eval(n, d))
            }
            "identifier" | "instance_variable" | "global_variable" | "class_variable" => {
                self.name(node, d)
            }
            "constant" => match self.names.get(&self.key(node)) {
                Some(_) => self.name(node, d),
                None => Obj::Const(self.text(node).to_owned()),
            },
            "scope_resolution" => {
                let name = by_field(node, "name").map_or("", |n| self.text(n));
                match by_field(node, "scope").map(|s| self.eval(s, d)) {
                    None => Obj::Const(name.to_owned()),
                    Some(Obj::Const(scope)) => Obj::Const(format!("{scope}::{name}")),
                    Some(_) => Obj::Val(Val::Unknown),
                }
            }
            "self" => Obj::Const("Kernel".into()),
            "binary" => self.binary(node, d),
            "conditional" => {
                let (a, b) = (by_field(node, "consequence"), by_field(node, "alternative"));
                match (a, b) {
                    (Some(a), Some(b)) => {
                        let (a, b) = (self.eval(a, d).val(), self.eval(b, d).val());
                        Obj::Val(if a == b { a } else { Val::Unknown })
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "call" => {
                let name = by_field(node, "method").map_or("call", |m| self.text(m));
                let receiver = by_field(node, "receiver").map(|r| self.eval(r, d));
                let args = Args::of(node);
                self.value(receiver, name, &args)
            }
            "element_reference" => {
                let object = by_field(node, "object").map(|o| self.eval(o, d));
                let args = Args::of(node);
                self.value(object, "[]", &args)
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn name(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let key = self.key(node);
        let name = key.as_str();
        match self.names.get(name).cloned() {
            Some(Slot::Expr(value)) => {
                // A name's value does not depend on where it is used: computed once.
                let out = match self.values.get(name) {
                    Some(out) => out.clone(),
                    None if !self.names.enter(name) => return Obj::Val(Val::Unknown),
                    None => {
                        let out = self.eval(value, depth + 1);
                        self.names.leave();
                        self.values.insert(key.clone(), out.clone());
                        out
                    }
                };
                match out {
                    Obj::Const(_) | Obj::Method(_) | Obj::Response => out,
                    _ if self.untrusted => Obj::Val(Val::Unknown),
                    _ => out,
                }
            }
            Some(Slot::Grown(value, growths)) => self.grown(name, node, (value, &growths), depth),
            Some(Slot::Each(receiver)) if !self.untrusted && self.names.enter(name) => {
                let out = match self.eval(receiver, depth + 1) {
                    Obj::Each(element) => *element,
                    _ => Obj::Val(Val::Unknown),
                };
                self.names.leave();
                out
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn binary(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let (Some(l), Some(op), Some(r)) = (
            by_field(node, "left"),
            by_field(node, "operator"),
            by_field(node, "right"),
        ) else {
            return Obj::Val(Val::Unknown);
        };
        let op = self.text(op);
        // `ENV['HOME'] || '/root'`: only `nil` and `false` are false.
        if matches!(op, "||" | "or") && !self.patched {
            let left = self.eval(l, depth);
            let truth = match &left {
                Obj::Val(v) => v.truth(&[], &["false", "nil"]),
                Obj::Path(_) | Obj::List(_) => Some(true),
                _ => None,
            };
            return match truth {
                Some(true) => left,
                Some(false) => self.eval(r, depth),
                None => Obj::Val(Val::Unknown),
            };
        }
        if !matches!(op, "+" | "*" | "%" | "/") || self.patched {
            return Obj::Val(Val::Unknown);
        }
        let (left, right) = (self.eval(l, depth), self.eval(r, depth));
        match (op, left, right) {
            ("+", Obj::List(a), Obj::List(b)) => Obj::List(a.into_iter().chain(b).collect()),
            ("+" | "/", Obj::Path(p), b) => Obj::Path(join(&[p, b.val()])),
            ("+", Obj::Val(a), b) => Obj::Val(a.concat(b.val())),
            ("%", Obj::Val(Val::Known(f)), args) => {
                let args = match args {
                    Obj::List(items) => items,
                    other => vec![other.val()],
                };
                Obj::Val(percent(&f, &args))
            }
            ("*", Obj::Val(Val::Known(s)), Obj::Val(Val::Known(n))) => match n.parse::<usize>() {
                Ok(n) if n.saturating_mul(s.len()) <= 4096 => Obj::Val(Val::Known(s.repeat(n))),
                _ => Obj::Val(Val::Unknown),
            },
            ("*", Obj::List(items), Obj::Val(Val::Known(sep))) => {
                Obj::Val(Val::joined(&items, &sep))
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// The value method `name` of `receiver` returns, for the calls that compute strings,
    /// paths, modules and method objects.
    fn value(&mut self, receiver: Option<Obj>, name: &str, args: &Args<'t>) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        let arg = |rb: &mut Self, n: usize| rb.arg(args, n).val();
        // Decoders and network reads whatever the receiver.
        match (name, &receiver) {
            ("unpack" | "unpack1", _) => return Obj::Val(Val::Fetched),
            (_, Some(Obj::Response | Obj::Val(Val::Fetched))) => return Obj::Response,
            ("method" | "public_method" | "instance_method", _) => {
                let q = arg(self, 0)
                    .text()
                    .and_then(|m| self.qualify(receiver.as_ref(), m, true));
                return q.map_or(unknown, Obj::Method);
            }
            ("send" | "__send__" | "public_send", _) => {
                return match arg(self, 0) {
                    Val::Known(m) if self.nest <= MAX_NESTING => {
                        self.nest += 1;
                        let out = self.value(receiver, &m, &args.skip(1));
                        self.nest -= 1;
                        out
                    }
                    _ => unknown,
                };
            }
            _ => {}
        }
        if !self.patched
            && let Some(quoted) = self.quoted(receiver.as_ref(), name, args)
        {
            return quoted;
        }
        match receiver {
            None => match name {
                "format" | "sprintf" => match arg(self, 0) {
                    Val::Known(f) => {
                        let rest = (1..args.pos.len())
                            .map(|n| arg(self, n))
                            .collect::<Vec<_>>();
                        Obj::Val(percent(&f, &rest))
                    }
                    _ => unknown,
                },
                "URI" => Obj::Uri(arg(self, 0)),
                "Pathname" => Obj::Path(arg(self, 0)),
                "String" => Obj::Val(arg(self, 0)),
                "open" if arg(self, 0).text().is_some_and(|u| u.contains("://")) => Obj::Response,
                _ => unknown,
            },
            Some(Obj::Const(c)) => {
                let q = format!("{}.{name}", canonical(&c));
                match q.as_str() {
                    "Dir.home" if args.pos.is_empty() && !self.env_written && !self.patched => {
                        Obj::Val(Val::known("~"))
                    }
                    // The user's entry in the password database, whose `dir` is the home.
                    "Etc.getpwuid" if args.pos.is_empty() => Obj::Const("Etc::Passwd".into()),
                    "Etc::Passwd.dir" => Obj::Val(Val::known("~")),
                    "Dir.pwd" | "Dir.getwd" => Obj::Val(Val::known(".")),
                    // The names a listing finds, as the pattern they match.
                    "Dir.[]" | "Dir.glob" => Obj::Each(Box::new(Obj::Val(arg(self, 0)))),
                    // The names in a directory (not paths: the code joins them to it, or
                    // they name files where it is), as Python's `os.listdir` is read.
                    "Dir.children" | "Dir.each_child" | "Dir.entries" => {
                        Obj::Each(Box::new(Obj::Val(Val::known("*"))))
                    }
                    // `ruby -e CODE a b`: `ARGV` is `['a', 'b']`.
                    "ARGV.[]" | "ARGV.fetch" | "ARGV.first" | "ARGV.shift" => {
                        let n = match q.as_str() {
                            "ARGV.first" | "ARGV.shift" => Val::known("0"),
                            _ => arg(self, 0),
                        };
                        Obj::Val(match n.text().and_then(|n| n.parse::<usize>().ok()) {
                            Some(n) => self.cx.arg(n),
                            None => Val::Unknown,
                        })
                    }
                    "ENV.fetch" | "ENV.[]" => {
                        let name = arg(self, 0);
                        Obj::Val(self.env(name))
                    }
                    "File.join" if !self.patched => {
                        let mut parts = Vec::new();
                        for n in 0..args.pos.len() {
                            match self.arg(args, n) {
                                Obj::List(items) => parts.extend(items),
                                other => parts.push(other.val()),
                            }
                        }
                        Obj::Val(file_join(&parts))
                    }
                    // One shell word, whatever it holds.
                    "Shellwords.escape" | "Shellwords.shellescape" if !self.patched => {
                        Obj::Val(arg(self, 0).shell_quoted())
                    }
                    "Shellwords.join" | "Shellwords.shelljoin" if !self.patched => {
                        let list = self.arg(args, 0);
                        Obj::Val(shell_joined(list))
                    }
                    "File.expand_path" | "File.absolute_path" | "File.realpath" | "File.path" => {
                        let (path, dir) = (arg(self, 0), args.pos.get(1).map(|_| arg(self, 1)));
                        Obj::Val(expand(path, dir, q != "File.expand_path"))
                    }
                    "URI.parse" | "Kernel.URI" => Obj::Uri(arg(self, 0)),
                    // `URI::HTTP.build(host: h, port: p, path: '/x')`: a part not given is
                    // left out; one not known leaves what comes after it not known.
                    "URI::HTTP.build" | "URI::HTTPS.build" if args.pos.is_empty() => {
                        let scheme = if q.starts_with("URI::HTTPS") {
                            "https://"
                        } else {
                            "http://"
                        };
                        let mut url = Val::known(scheme);
                        for (part, before) in
                            [("host", ""), ("port", ":"), ("path", ""), ("query", "?")]
                        {
                            if let Some(value) = args.keyword(self, part) {
                                url = url.concat(Val::known(before)).concat(value.val());
                            }
                        }
                        Obj::Uri(url)
                    }
                    "Pathname.new" => Obj::Path(arg(self, 0)),
                    "Pathname.pwd" | "Pathname.getwd" => Obj::Path(Val::known(".")),
                    "String.new" => Obj::Val(arg(self, 0)),
                    "Kernel.format" | "Kernel.sprintf" => self.value(None, name, args),
                    // An HTTP client object for one host, whose requests go there.
                    "Net::HTTP.new" | "Net::HTTP.start" => {
                        Obj::Addr(match (arg(self, 0), arg(self, 1)) {
                            (Val::Known(h), Val::Known(p)) => {
                                Val::Known(format!("http://{}:{p}", super::network::bracketed(&h)))
                            }
                            (Val::Known(h), _) if args.pos.len() < 2 => {
                                Val::Known(format!("http://{}", super::network::bracketed(&h)))
                            }
                            _ => Val::Unknown,
                        })
                    }
                    "Addrinfo.tcp" | "Socket.sockaddr_in" | "Socket.pack_sockaddr_in" => {
                        let (a, b) = (arg(self, 0), arg(self, 1));
                        let (host, port) = if q.starts_with("Addrinfo") {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        Obj::Addr(match (host, port) {
                            (Val::Known(h), Val::Known(p)) => Val::Known(format!("tcp://{h}:{p}")),
                            _ => Val::Unknown,
                        })
                    }
                    _ if name == "const_get" => match arg(self, 0) {
                        Val::Known(m) => Obj::Const(m.trim_start_matches("::").to_owned()),
                        _ => unknown,
                    },
                    _ if is_decoder(&q) => Obj::Val(Val::Fetched),
                    "Kernel.open" => self.value(None, name, args),
                    _ if is_network(&q) => Obj::Response,
                    _ => unknown,
                }
            }
            Some(Obj::Path(p)) => match name {
                "join" | "+" | "/" | "expand_path" => {
                    let mut parts = vec![p];
                    parts.extend((0..args.pos.len()).map(|n| arg(self, n)));
                    Obj::Path(join(&parts))
                }
                "to_s" | "to_path" | "realpath" | "cleanpath" => Obj::Val(p),
                _ => unknown,
            },
            Some(Obj::Uri(u)) => match name {
                "to_s" => Obj::Val(u),
                "open" | "read" => Obj::Response,
                _ => unknown,
            },
            Some(Obj::Method(q)) => match name {
                "to_proc" | "unbind" | "bind" => Obj::Method(q),
                _ => unknown,
            },
            _ if self.patched => unknown,
            // `Dir.glob(p).select { ... }`: some of what the pattern names, in some order.
            Some(Obj::Each(element))
                if matches!(
                    name,
                    "select"
                        | "filter"
                        | "reject"
                        | "sort"
                        | "sort_by"
                        | "uniq"
                        | "to_a"
                        | "reverse"
                        | "first"
                        | "last"
                        | "take"
                        | "drop"
                        | "compact"
                ) =>
            {
                Obj::Each(element)
            }
            Some(Obj::Val(Val::Known(s))) => self.string_method(s, name, args),
            Some(Obj::List(items)) => self.list_method(items, name, args),
            _ => unknown,
        }
    }

    /// `ENV[name]`, while the code sets none (see [`Cx::env`](crate::matcher::code::scope::Cx::env)).
    fn env(&self, name: Val) -> Val {
        match name.text() {
            Some(name) if !self.env_written => self.cx.env(name),
            _ => Val::Unknown,
        }
    }
}
