//! A call's arguments, positional and keyword, as written: read one by one as the sinks
//! need them, spread, passed on by a library, or turned into command-line options.

use tree_sitter::Node;

use super::{Obj, Py, by_field, kind};
use crate::matcher::code::Val;

/// A call's arguments: positional and keyword, unevaluated.
pub(super) struct Args<'t> {
    positional: Vec<Node<'t>>,
    keywords: Vec<(String, Node<'t>)>,
    /// A `*args` or `**kwargs` whose items are not known.
    splat: bool,
}

impl<'t> Args<'t> {
    pub(super) fn of(py: &Py<'_, '_, 't>, call: Node<'t>) -> Args<'t> {
        let mut args = Args {
            positional: Vec::new(),
            keywords: Vec::new(),
            splat: false,
        };
        let Some(list) = by_field(call, "arguments") else {
            return args;
        };
        // `f(x for x in xs)`: the generator is the one argument.
        if kind(list) == "generator_expression" {
            args.positional.push(list);
            return args;
        }
        let mut c = list.walk();
        for a in list.named_children(&mut c) {
            match kind(a) {
                "keyword_argument" => {
                    if let (Some(n), Some(v)) = (by_field(a, "name"), by_field(a, "value")) {
                        args.keywords.push((py.text(n).to_owned(), v));
                    }
                }
                "list_splat" | "dictionary_splat" => {
                    args.splat = true;
                    args.positional.push(a);
                }
                "comment" => {}
                _ => args.positional.push(a),
            }
        }
        args
    }

    /// The arguments a library passes on as literals (`threading.Thread(target=f,
    /// args=(a, b), kwargs={'k': v})`): the items of `tuple`, and the entries of `dict`
    /// whose keys are strings. `None` when either is not such a literal.
    pub(super) fn literal(
        py: &Py<'_, '_, 't>,
        tuple: Option<Node<'t>>,
        dict: Option<Node<'t>>,
    ) -> Option<Args<'t>> {
        let mut args = Args {
            positional: Vec::new(),
            keywords: Vec::new(),
            splat: false,
        };
        if let Some(tuple) = tuple {
            if !matches!(kind(tuple), "tuple" | "list") {
                return None;
            }
            let mut c = tuple.walk();
            for item in tuple.named_children(&mut c) {
                args.splat |= kind(item) == "list_splat";
                args.positional.push(item);
            }
        }
        if let Some(dict) = dict {
            if kind(dict) != "dictionary" {
                return None;
            }
            let mut c = dict.walk();
            for pair in dict.named_children(&mut c) {
                let key = by_field(pair, "key").filter(|_| kind(pair) == "pair")?;
                let value = by_field(pair, "value")?;
                let name = py.text(key).trim_matches(['"', '\'']);
                if kind(key) != "string" || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    return None;
                }
                args.keywords.push((name.to_owned(), value));
            }
        }
        Some(args)
    }

    /// Whether `node` is the first positional argument.
    pub(super) fn first_is(&self, node: Node<'t>) -> bool {
        self.positional.first() == Some(&node)
    }

    /// The arguments of a call of `functools.partial(f, ...)` (`self`, whose first is `f`):
    /// the partial's after `f`, then the call's; the call's keywords over the partial's.
    pub(super) fn then(mut self, call: Args<'t>) -> Args<'t> {
        if !self.positional.is_empty() {
            self.positional.remove(0);
        }
        self.positional.extend(call.positional);
        for (name, value) in call.keywords {
            self.keywords.retain(|(n, _)| *n != name);
            self.keywords.push((name, value));
        }
        self.splat |= call.splat;
        self
    }

    /// Whether `node` is the positional argument at `n`.
    pub(super) fn is_positional(&self, n: usize, node: Node<'t>) -> bool {
        self.positional.get(n) == Some(&node)
    }

    /// The same arguments without the first `n` positional ones (those a library takes
    /// for itself before the function it calls and its arguments).
    pub(super) fn after(&self, n: usize) -> Args<'t> {
        Args {
            positional: self.positional.iter().skip(n).copied().collect(),
            keywords: self.keywords.clone(),
            splat: self.splat,
        }
    }

    pub(super) fn count(&self) -> usize {
        self.positional.len() + self.keywords.len()
    }

    pub(super) fn pos(&self, py: &mut Py<'_, '_, 't>, n: usize) -> Obj {
        match self.positional.get(n) {
            Some(node) if kind(*node) == "list_splat" => match node.named_child(0) {
                Some(inner) => py.eval(inner, 0),
                None => Obj::Val(Val::Unknown),
            },
            Some(node) => py.eval(*node, 0),
            None if self.splat => Obj::Val(Val::Unknown),
            None => Obj::Val(Val::Unknown),
        }
    }

    /// The argument at position `n`, or else the keyword `name`, unevaluated.
    /// Whether a `*args` or `**kwargs` whose items are not known was given.
    pub(super) fn is_splat(&self) -> bool {
        self.splat
    }

    pub(super) fn node(&self, n: usize, name: &str) -> Option<Node<'t>> {
        match self.positional.get(n) {
            Some(node) => (kind(*node) != "list_splat").then_some(*node),
            None if self.splat => None,
            None => self
                .keywords
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| *v),
        }
    }

    pub(super) fn keyword(&self, py: &mut Py<'_, '_, 't>, name: &str) -> Option<Obj> {
        let node = self
            .keywords
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)?;
        Some(py.eval(node, 0))
    }

    pub(super) fn pos_or_kw(&self, py: &mut Py<'_, '_, 't>, n: usize, name: &str) -> Obj {
        if self.positional.len() > n {
            return self.pos(py, n);
        }
        self.keyword(py, name).unwrap_or(if self.splat {
            Obj::Val(Val::Unknown)
        } else {
            Obj::Val(Val::known(""))
        })
    }

    /// The keyword arguments as command-line options, as GitPython and sh-style wrappers
    /// turn them into options: `force=True` is `--force` (`f=True` is `-f`), `depth=1` is
    /// `--depth=1`, `False` and `None` leave the option out; `**kwargs` is unknown.
    pub(super) fn as_options(&self, py: &mut Py<'_, '_, 't>) -> Vec<Val> {
        let mut out = Vec::new();
        for (name, node) in &self.keywords {
            let dashes = if name.len() == 1 { "-" } else { "--" };
            let option = format!("{dashes}{}", name.replace('_', "-"));
            match py.eval(*node, 0).val() {
                Val::Known(v) if v == "True" => out.push(Val::Known(option)),
                Val::Known(v) if v == "False" || v == "None" => {}
                Val::Known(v) => out.push(Val::Known(format!("{option}={v}"))),
                _ => out.push(Val::Unknown),
            }
        }
        if self.splat {
            out.push(Val::Unknown);
        }
        out
    }

    /// The `**` spreads among the arguments.
    fn spread_dicts(&self) -> Vec<Node<'t>> {
        self.positional
            .iter()
            .copied()
            .filter(|n| kind(*n) == "dictionary_splat")
            .collect()
    }

    /// The positional arguments from `n` on, `*list` spread.
    pub(super) fn positional_from(&self, py: &mut Py<'_, '_, 't>, n: usize) -> Vec<Val> {
        let mut out = Vec::new();
        for node in self.positional.iter().skip(n) {
            if kind(*node) == "list_splat" {
                match node.named_child(0).map(|i| py.eval(i, 0)) {
                    Some(Obj::List(items)) => out.extend(items),
                    _ => out.push(Val::Unknown),
                }
            } else if kind(*node) == "dictionary_splat" {
                out.push(Val::Unknown);
            } else {
                out.push(py.eval(*node, 0).val());
            }
        }
        out
    }
}

impl<'t> Py<'_, '_, 't> {
    /// A call's named arguments as far as known: its keywords, and the pairs of a
    /// constant dictionary it spreads (`'{host}'.format(**api)`).
    pub(super) fn named_args(&mut self, args: &Args<'t>) -> Vec<(String, Val)> {
        let mut out = Vec::new();
        for node in args.spread_dicts() {
            let pairs = node
                .named_child(0)
                .and_then(|d| self.constant_dict(d))
                .and_then(|d| self.dict_pairs(d));
            for (k, v) in pairs.unwrap_or_default() {
                if let Val::Known(k) = self.eval(k, 0).val() {
                    let v = self.eval(v, 0).val();
                    out.push((k, v));
                }
            }
        }
        for (name, node) in args.keywords.clone() {
            let v = self.eval(node, 0).val();
            out.push((name, v));
        }
        out
    }
}
