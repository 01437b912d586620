//! The values of the calls that compute strings and paths (`join`, `sprintf`, `oct`,
//! `glob`, `File::Spec->catfile`, `decode_base64`, ...), apart from the expressions that
//! hold them.

use tree_sitter::Node;

use super::methods::is_http;
use super::text::{case, number, sprintf};
use super::values::class_of;
use super::{Obj, Pl, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::{TEMP_DIR, any_of, join};

impl Pl<'_, '_, '_> {
    /// The value a function call returns, for the calls that compute strings and paths.
    pub(super) fn value_of_call(&mut self, node: Node<'_>, code: &str, depth: usize) -> Obj {
        let Some(name) = self.callee_in(node, code) else {
            return Obj::Val(Val::Unknown);
        };
        let mut args: Vec<Obj> = Vec::new();
        for a in self.arg_nodes_in(node) {
            args.push(self.eval(a, code, depth + 1));
        }
        let k = |n: usize| args.get(n).cloned().map_or(Val::Unknown, Obj::val);
        let items = |from: usize| {
            args.iter()
                .skip(from)
                .cloned()
                .flat_map(Obj::list)
                .collect::<Vec<_>>()
        };
        let v = Obj::Val;
        match name.as_str() {
            _ if self.is_sub(&name) && self.returns_only_subs(&name) => Obj::Code,
            _ if self.is_sub(&name) => v(Val::Unknown),
            "join" => {
                let parts = items(1);
                let texts: Option<Vec<&str>> = parts.iter().map(Val::text).collect();
                match (k(0), texts) {
                    (Val::Known(sep), Some(t)) => v(Val::Known(t.join(&sep))),
                    _ if parts.contains(&Val::Fetched) => v(Val::Fetched),
                    _ => v(Val::Unknown),
                }
            }
            "reverse" => Obj::Rev(items(0)),
            // What `grep` keeps is among what it is given: each of those, at most.
            // `grep { ... } LIST` gives its block no place among the arguments.
            "grep" => Obj::List(
                match self
                    .text_in(node, code)
                    .trim_start_matches("grep")
                    .trim_start()
                    .starts_with('{')
                {
                    true => items(0),
                    false => items(1),
                },
            ),
            "scalar" => v(k(0)),
            "lc" | "uc" | "lcfirst" | "ucfirst" => v(match k(0) {
                Val::Known(s) => Val::Known(case(&name, &s)),
                other => other,
            }),
            "chr" => v(k(0)
                .text()
                .and_then(|n| n.parse::<u32>().ok())
                .and_then(char::from_u32)
                .map_or(Val::Unknown, |c| Val::Known(c.to_string()))),
            "sprintf" => v(sprintf(k(0), &items(1))),
            // `oct("4755")` is the mode 0o4755 (and `oct("0x1f")` hex, as perl reads it).
            "oct" | "hex" => v(k(0)
                .text()
                .and_then(|s| {
                    let s = s.trim();
                    let prefixed = ["0x", "0X", "0b", "0B"].iter().any(|p| s.starts_with(p));
                    match (name.as_str(), prefixed) {
                        ("oct", true) => number(s),
                        ("oct", false) => number(&format!("0{}", s.trim_start_matches("0o"))),
                        _ => i64::from_str_radix(s.trim_start_matches("0x"), 16).ok(),
                    }
                })
                .map_or(Val::Unknown, |n| Val::Known(n.to_string()))),
            // A pattern stands for the files it names, as a shell glob in an argument does
            // (`unlink glob "*.bak"` is `rm *.bak`). Perl's glob also expands braces, read as
            // the `*` that names at least as much (`~/.{netrc,npmrc}` as `~/.*`), and splits
            // on spaces and expands `~user`, which the reader does not follow.
            "glob" => v(match k(0) {
                Val::Known(p) => glob_pattern(&p),
                _ => Val::Unknown,
            }),
            "File::Spec::catfile" | "File::Spec::catdir" => v(join(&items(0))),
            "getcwd" | "cwd" | "Cwd::getcwd" | "Cwd::cwd" => v(Val::known(".")),
            // A new directory of the temporary directory, unless `DIR => d` puts it
            // elsewhere.
            "tempdir" | "File::Temp::tempdir" => {
                v(match self.text_in(node, code).contains("DIR") {
                    true => Val::Unknown,
                    // A name of random characters.
                    false => Val::Known(format!("{TEMP_DIR}/*")),
                })
            }
            "get" | "LWP::Simple::get" => v(Val::Fetched),
            "decode_base64"
            | "MIME::Base64::decode_base64"
            | "decode_base64url"
            | "pack"
            | "unpack"
            | "uncompress"
            | "Compress::Zlib::uncompress"
            | "Compress::Zlib::memGunzip"
            | "MIME::Base64::decode" => v(Val::Fetched),
            _ => v(Val::Unknown),
        }
    }

    pub(super) fn value_of_method(&mut self, node: Node<'_>, code: &str, depth: usize) -> Obj {
        let (Some(object), Some(method)) = (node.named_child(0), by_field(node, "function_name"))
        else {
            return Obj::Val(Val::Unknown);
        };
        let method = self.text_in(method, code);
        let receiver = class_of(self.eval(object, code, depth + 1), object, code);
        let args: Vec<Val> = self
            .arg_nodes_in(node)
            .into_iter()
            .flat_map(|a| self.eval(a, code, depth + 1).list())
            .collect();
        match (receiver, method) {
            (Obj::Class(c), "catfile" | "catdir" | "join") if c == "File::Spec" => {
                Obj::Val(join(&args))
            }
            (Obj::Class(c), "my_home") if c == "File::HomeDir" => Obj::Val(Val::known("~")),
            (Obj::Class(c), "new") => Obj::Class(c),
            (Obj::Class(c), "get" | "post" | "request" | "put" | "head" | "simple_request")
                if is_http(&c) =>
            {
                Obj::Response
            }
            (Obj::Response, _) => Obj::Response,
            _ => Obj::Val(Val::Unknown),
        }
    }
}

/// `pattern` with each `{a,b}` group written `*`, which matches what the group names and
/// more; an unclosed group stays as it is.
/// What Perl's `glob PATTERNS` names, as one pattern ([`any_of`] the patterns it splits
/// on spaces).
fn glob_pattern(patterns: &str) -> Val {
    let parts: Vec<String> = patterns.split_whitespace().map(braces_as_stars).collect();
    // `~user` is another user's home, which the reader does not know.
    let other_home = |p: &String| {
        p.strip_prefix('~')
            .is_some_and(|rest| !rest.is_empty() && !rest.starts_with('/'))
    };
    if parts.iter().any(other_home) {
        return Val::Unknown;
    }
    any_of(&parts)
}

fn braces_as_stars(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push('*');
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

impl<'t> Pl<'_, '_, 't> {
    /// Whether the sub `name`, defined once, returns an anonymous sub on every way out
    /// (`sub make_filter { my @p = @_; return sub { ... } }`): what a call of it gives is
    /// one of the code's own subs, each read where it is written.
    fn returns_only_subs(&mut self, name: &str) -> bool {
        if let Some(known) = self.returning_subs.get(name) {
            return *known;
        }
        let returns = self.every_return_is_a_sub(name);
        self.returning_subs.insert(name.to_owned(), returns);
        returns
    }

    fn every_return_is_a_sub(&self, name: &str) -> bool {
        let mut bodies = self.subs.iter().filter(|(s, _)| s == name);
        let (Some((_, body)), None) = (bodies.next(), bodies.next()) else {
            return false;
        };
        let mut c = body.walk();
        let statements: Vec<Node<'_>> = body
            .named_children(&mut c)
            .filter(|n| kind(*n) != "comment")
            .collect();
        let returns_sub = |n: Node<'_>| match kind(n) {
            "anonymous_function" => true,
            "return_expression" => {
                let mut c = n.walk();
                let values: Vec<Node<'_>> = n.named_children(&mut c).collect();
                matches!(values.as_slice(), [v] if kind(*v) == "anonymous_function")
            }
            _ => false,
        };
        if !statements.last().is_some_and(|last| returns_sub(*last)) {
            return false;
        }
        // Every other `return` of the sub itself (not of a sub inside it) gives a sub too.
        let mut others = true;
        crate::matcher::code::tree::visit(*body, |node, _, at| {
            if at == crate::matcher::code::tree::Visit::Leave || !others {
                return false;
            }
            match kind(node) {
                "anonymous_function" | "function_definition" => false,
                "return_expression" => {
                    others = returns_sub(node);
                    false
                }
                _ => true,
            }
        });
        others
    }
}
