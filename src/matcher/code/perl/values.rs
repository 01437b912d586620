//! What an expression evaluates to, as far as the reader follows it (constant strings and
//! lists, variables bound once, classes and network responses), and a call's name and
//! arguments; what the functions and methods that compute strings return is in
//! `computed.rs`.

use super::{by_field, kind};
use tree_sitter::Node;

use super::text::{delimited, number};
use super::{Obj, Pl};
use crate::matcher::code::Val;
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::MAX_NESTING;

impl Pl<'_, '_, '_> {
    /// What `node` (in `code`, the outer code or an interpolated `@{[ ... ]}`) evaluates to.
    pub(super) fn eval(&mut self, node: Node<'_>, code: &str, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.at) {
            return Obj::Val(Val::Unknown);
        }
        let text = code.get(node.byte_range()).unwrap_or_default();
        let v = |v: Val| Obj::Val(v);
        match kind(node) {
            "string_single_quoted"
            | "string_q_quoted"
            | "string_double_quoted"
            | "string_qq_quoted" => v(self.string(node, code, depth)),
            // What a command prints is not known: its text is what it runs, read as such
            // where it stands (`eval qx{curl -s URL}` runs what was downloaded).
            "backtick_quoted" | "command_qx_quoted" => v(Val::Unknown),
            // One word of a `qw(...)` list, as a loop over it takes it.
            "list_item" => v(Val::known(text)),
            "word_list_qw" => {
                let inner = delimited(text.trim_start_matches("qw").trim_start());
                Obj::List(inner.split_whitespace().map(Val::known).collect())
            }
            "integer" | "octal" | "hexadecimal" => {
                v(number(text).map_or(Val::Unknown, |n| Val::Known(n.to_string())))
            }
            "floating_point" => v(Val::known(text)),
            "anonymous_function" => Obj::Code,
            // Options (`{ verbose => 1 }`), not paths.
            "hash_ref" => Obj::List(Vec::new()),
            "unary_expression" if text.starts_with('\\') => Obj::Code,
            "scalar_variable" | "array_variable" | "hash_variable" => self.name(text, depth),
            "special_scalar_variable" | "package_variable" => match self.found_name(text.trim()) {
                Some(file) => v(file),
                None => v(Val::Unknown),
            },
            "array" => {
                let mut c = node.walk();
                let items: Vec<Node<'_>> = node
                    .named_children(&mut c)
                    .filter(|n| !is_separator(*n))
                    .collect();
                if let [one] = items.as_slice() {
                    return self.eval(*one, code, depth + 1);
                }
                Obj::List(
                    items
                        .into_iter()
                        .flat_map(|i| self.eval(i, code, depth + 1).list())
                        .collect(),
                )
            }
            "array_access_variable" => {
                let (Some(base), Some(index)) = (node.named_child(0), by_field(node, "index"))
                else {
                    return v(Val::Unknown);
                };
                let name = format!("@{}", self.text_in(base, code).get(1..).unwrap_or_default());
                let list = self.name(&name, depth).list();
                match self
                    .eval(index, code, depth + 1)
                    .val()
                    .text()
                    .and_then(|i| i.parse::<usize>().ok())
                {
                    Some(i)
                        if matches!(self.names.get(&name), Some(Slot::Expr(_)))
                            || self.param(&name).is_some() =>
                    {
                        v(list.get(i).cloned().unwrap_or(Val::Unknown))
                    }
                    // `perl -e CODE a b`: `@ARGV` is `('a', 'b')` while the code sets none.
                    Some(i) if name == "@ARGV" && self.names.get(&name).is_none() => {
                        v(self.cx.arg(i))
                    }
                    _ => v(Val::Unknown),
                }
            }
            "hash_access_variable_simple" | "hash_access_variable" => {
                let (Some(base), Some(key)) = (node.named_child(0), by_field(node, "key")) else {
                    return v(Val::Unknown);
                };
                let key = match kind(key) {
                    "identifier" => Val::known(self.text_in(key, code)),
                    _ => self.eval(key, code, depth + 1).val(),
                };
                let base_text = self.text_in(base, code);
                if base_text == "$ENV" && kind(node) == "hash_access_variable_simple" {
                    return v(self.env(key));
                }
                // `$c{tab}` of a hash assigned a literal list once: that pair's value.
                if kind(node) == "hash_access_variable_simple"
                    && let Val::Known(key) = &key
                    && let Some(name) = base_text.strip_prefix('$')
                    && let Some(Slot::Expr(list)) = self.names.get(&format!("%{name}")).cloned()
                    && let Some(value) = self.pair_value(list, key)
                {
                    return self.eval(value, self.src.text, depth + 1);
                }
                // `$handler{$ext}` of a hash whose values are all subs the code writes: one
                // of them, each read where it is written.
                if kind(node) == "hash_access_variable_simple"
                    && let Some(name) = base_text.strip_prefix('$')
                    && let Some(Slot::Expr(list)) = self.names.get(&format!("%{name}")).cloned()
                    && self.all_subs(list)
                {
                    return Obj::Code;
                }
                match self.eval(base, code, depth + 1) {
                    Obj::Response => Obj::Response,
                    _ => v(Val::Unknown),
                }
            }
            "binary_expression" => self.binary(node, code, depth),
            "ternary_expression" => {
                let (Some(a), Some(b)) = (by_field(node, "true"), by_field(node, "false")) else {
                    return v(Val::Unknown);
                };
                let (a, b) = (
                    self.eval(a, code, depth + 1).val(),
                    self.eval(b, code, depth + 1).val(),
                );
                v(if a == b { a } else { Val::Unknown })
            }
            "call_expression_with_spaced_args"
            | "call_expression_with_args_with_brackets"
            | "call_expression_with_bareword" => self.value_of_call(node, code, depth),
            "method_invocation" => self.value_of_method(node, code, depth),
            "package_name" | "identifier" => Obj::Class(text.to_owned()),
            _ => v(Val::Unknown),
        }
    }

    pub(super) fn text_in<'x>(&self, node: Node<'_>, code: &'x str) -> &'x str {
        code.get(node.byte_range()).unwrap_or_default()
    }

    /// The value of a variable (`$x`, `@a`, `${x}`).
    pub(super) fn name(&mut self, text: &str, depth: usize) -> Obj {
        let name = text.replace(['{', '}', ' '], "");
        if let Some(file) = self.found_name(&name) {
            return Obj::Val(file);
        }
        if let Some(value) = self.param(&name) {
            return value;
        }
        let slot = self.names.get(&name).cloned();
        // The interpreter running the code (`system($^X, '-c', $f)`), as the shell reader
        // knows it.
        if slot.is_none() && matches!(name.as_str(), "$^X" | "$EXECUTABLE_NAME") {
            return Obj::Val(Val::known("perl"));
        }
        match slot {
            // The variable of a loop over a `glob`: each name the pattern matches.
            Some(Slot::Each(value)) | Some(Slot::Expr(value)) => {
                if !self.names.enter(&name) {
                    return Obj::Val(Val::Unknown);
                }
                let out = self.eval(value, self.src.text, depth + 1);
                self.names.leave();
                match out {
                    // A scalar is assigned in scalar context: `$c = reverse "~ fr- mr"` holds
                    // the text reversed, which a list context would not reverse.
                    Obj::Rev(_) if name.starts_with('$') && matches!(slot, Some(Slot::Expr(_))) => {
                        Obj::Val(out.val())
                    }
                    // What the code may have changed unseen keeps only its kind: an agent
                    // stays an agent, so its requests are still seen.
                    Obj::Val(_) | Obj::List(_) | Obj::Rev(_) if self.all_unknown => {
                        Obj::Val(Val::Unknown)
                    }
                    out => out,
                }
            }
            Some(Slot::Grown(value, growths)) => match self.reading {
                Some(read) => self.grown(&name, read, (value, &growths), depth),
                None => Obj::Val(Val::Unknown),
            },
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// The value node of the pair with key `key` in a literal list of pairs (`(tab =>
    /// "/x", job => "y")`); `None` when a key is not a bare word or a plain string.
    /// Whether `list`, a literal list of pairs, has values that are all anonymous subs.
    fn all_subs(&self, list: Node<'_>) -> bool {
        let mut c = list.walk();
        let items: Vec<Node<'_>> = list
            .named_children(&mut c)
            .filter(|n| !matches!(kind(*n), "normal_comma" | "fat_comma"))
            .collect();
        kind(list) == "array"
            && !items.is_empty()
            && items.len().is_multiple_of(2)
            && items
                .chunks(2)
                .all(|pair| kind(pair[1]) == "anonymous_function")
    }

    fn pair_value<'t>(&self, list: Node<'t>, key: &str) -> Option<Node<'t>> {
        const MOST_PAIRS: usize = 64;
        if kind(list) != "array" {
            return None;
        }
        let mut c = list.walk();
        let items: Vec<Node<'t>> = list
            .named_children(&mut c)
            .filter(|n| !matches!(kind(*n), "normal_comma" | "fat_comma"))
            .take(2 * MOST_PAIRS + 1)
            .collect();
        if !items.len().is_multiple_of(2) || items.len() > 2 * MOST_PAIRS {
            return None;
        }
        for pair in items.chunks(2) {
            let (k, value) = (pair[0], pair[1]);
            let name = match kind(k) {
                "call_expression_with_bareword" | "identifier" => self.text(k).trim(),
                "string_single_quoted" | "string_double_quoted" => {
                    let t = self.text(k);
                    let inner = t.get(1..t.len().saturating_sub(1)).unwrap_or_default();
                    if inner.contains(['$', '@', '\\']) {
                        return None;
                    }
                    inner
                }
                _ => return None,
            };
            if name == key {
                return Some(value);
            }
        }
        None
    }

    /// `$ENV{KEY}`, while the code sets no `%ENV` (see
    /// [`Cx::env`](crate::matcher::code::scope::Cx::env)).
    pub(super) fn env(&self, key: Val) -> Val {
        match key.text() {
            Some(key) if self.names.get("%ENV").is_none() => self.cx.env(key),
            _ => Val::Unknown,
        }
    }

    fn binary(&mut self, node: Node<'_>, code: &str, depth: usize) -> Obj {
        let op = operator(node, code);
        let mut c = node.walk();
        let parts: Vec<Node<'_>> = node.named_children(&mut c).collect();
        let (Some(&l), Some(&r)) = (parts.first(), parts.last()) else {
            return Obj::Val(Val::Unknown);
        };
        match op {
            "." => {
                let (a, b) = (
                    self.eval(l, code, depth + 1).val(),
                    self.eval(r, code, depth + 1).val(),
                );
                Obj::Val(a.concat(b))
            }
            "x" => {
                let count = self
                    .eval(r, code, depth + 1)
                    .val()
                    .text()
                    .and_then(|n| n.parse::<usize>().ok());
                match (self.eval(l, code, depth + 1), count) {
                    (Obj::List(items), Some(n)) if n.saturating_mul(items.len()) <= 256 => {
                        Obj::List(
                            items
                                .iter()
                                .cycle()
                                .take(n * items.len())
                                .cloned()
                                .collect(),
                        )
                    }
                    (other, Some(n)) => match other.val() {
                        Val::Known(s) if n.saturating_mul(s.len()) <= 4096 => {
                            Obj::Val(Val::Known(s.repeat(n)))
                        }
                        Val::Fetched => Obj::Val(Val::Fetched),
                        _ => Obj::Val(Val::Unknown),
                    },
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "=" => self.eval(r, code, depth + 1),
            // `$ENV{HOME} // '/root'`: the side the left one picks (a known text is
            // defined; `''` and `'0'` are false).
            "//" | "||" | "or" => {
                let left = self.eval(l, code, depth + 1);
                let truth = match &left {
                    Obj::Val(v) if op == "//" => v.truth(&[], &[""]),
                    Obj::Val(v) => v.truth(&["", "0"], &[]),
                    _ => None,
                };
                match truth {
                    Some(true) => left,
                    Some(false) => self.eval(r, code, depth + 1),
                    None => Obj::Val(Val::Unknown),
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    pub(super) fn callee_in(&self, node: Node<'_>, code: &str) -> Option<String> {
        let bare = match kind(node) {
            "call_expression_with_bareword" => node,
            _ => node
                .named_child(0)
                .filter(|c| kind(c) == "call_expression_with_bareword")?,
        };
        let mut name = self.text_in(bare, code).trim_start_matches('&').to_owned();
        for prefix in ["CORE::GLOBAL::", "CORE::"] {
            if let Some(rest) = name.strip_prefix(prefix) {
                name = rest.to_owned();
            }
        }
        Some(name)
    }

    /// [`Pl::arg_nodes`] for any tree (a call inside `@{[ ... ]}` too).
    pub(super) fn arg_nodes_in<'x>(&self, call: Node<'x>) -> Vec<Node<'x>> {
        let mut out = Vec::new();
        let mut c = call.walk();
        let lists: Vec<Node<'x>> = call.children_by_field_name("args", &mut c).collect();
        for list in lists.into_iter().filter(|l| kind(l) != "block") {
            let list = if kind(list) == "parenthesized_argument" {
                list.named_child(0).unwrap_or(list)
            } else {
                list
            };
            if matches!(kind(list), "arguments" | "array") {
                let mut c = list.walk();
                out.extend(
                    list.named_children(&mut c)
                        .filter(|n| !is_separator(*n))
                        .map(|n| low_precedence_left(n).unwrap_or(n)),
                );
            } else {
                out.push(list);
            }
        }
        if kind(call) != "call_expression_with_spaced_args" {
            return out;
        }
        // Finding a sibling costs a walk over the parent's children: only for the calls
        // whose arguments go on as siblings.
        let mut next = call.next_sibling();
        // `my $u = sprintf "%s:%d", $h, $p;`: the grammar ends the assignment at the first
        // comma, where Perl's list operator takes the rest of the list.
        if next.is_none()
            && let Some(parent) = call.parent()
            && kind(parent) == "binary_expression"
            && by_field(parent, "operator").is_some_and(|op| kind(op) == "=")
            && parent.named_child(parent.named_child_count().saturating_sub(1) as u32) == Some(call)
        {
            next = parent.next_sibling();
        }
        while let Some(arg) = next
            .filter(|n| is_comma(*n))
            .and_then(|c| c.next_sibling())
            .filter(|n| n.is_named() && !is_separator(*n))
        {
            // `open F, '>', $path or die`: the grammar reads the last argument as
            // `$path or die`, where Perl's `or` ends the whole call.
            if let Some(left) = low_precedence_left(arg) {
                out.push(left);
                break;
            }
            out.push(arg);
            next = arg.next_sibling();
        }
        out
    }
}

/// A method's receiver as a class: a bareword (`IO::Socket::INET->new`) or a known string.
pub(super) fn class_of(obj: Obj, object: Node<'_>, code: &str) -> Obj {
    match obj {
        Obj::Val(Val::Known(name)) => Obj::Class(name),
        _ if kind(object) == "call_expression_with_bareword" => {
            Obj::Class(code.get(object.byte_range()).unwrap_or_default().to_owned())
        }
        other => other,
    }
}

/// A binary expression's operator: the text between its operands (the grammar leaves
/// some, as `x`, out of its `operator` field).
pub(super) fn operator<'x>(node: Node<'_>, code: &'x str) -> &'x str {
    let mut c = node.walk();
    let parts: Vec<Node<'_>> = node.named_children(&mut c).collect();
    match (parts.first(), parts.last()) {
        (Some(l), Some(r)) if parts.len() == 2 => code
            .get(l.end_byte()..r.start_byte())
            .unwrap_or_default()
            .trim(),
        _ => "",
    }
}

/// The left side of `X or Y` (also `and`, `xor`): Perl's word operators bind more loosely
/// than the comma, so what is left of one is the call's last argument.
fn low_precedence_left(node: Node<'_>) -> Option<Node<'_>> {
    if kind(node) != "binary_expression" {
        return None;
    }
    let mut c = node.walk();
    let word = node
        .children(&mut c)
        .any(|op| !op.is_named() && matches!(op.kind(), "or" | "and" | "xor"));
    word.then(|| node.named_child(0)).flatten()
}

fn is_comma(node: Node<'_>) -> bool {
    matches!(kind(node), "normal_comma" | "fat_comma")
}

pub(super) fn is_separator(node: Node<'_>) -> bool {
    is_comma(node) || kind(node) == "comments"
}
