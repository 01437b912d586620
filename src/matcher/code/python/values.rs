//! What an expression evaluates to, as far as the reader follows it: constant strings and
//! the functions that compute them, modules and functions by qualified name, paths, lists.

use tree_sitter::Node;

use super::sinks::{Sink, VALUE_FUNCTIONS, canonical, is_decoder, sink};
use super::text::{dedent, format_braces, parse_int, percent, unescape};
use super::{BUILTINS, Obj, Py, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::{Slot, TEMP_DIR, any_of, home, join, normalized};
use crate::matcher::code::tree::MAX_NESTING;

impl<'t> Py<'_, '_, 't> {
    /// What `node` evaluates to.
    pub(super) fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        match kind(node) {
            "string" => Obj::Val(self.string(node, depth)),
            "concatenated_string" => {
                let mut out = Val::known("");
                let mut c = node.walk();
                for part in node.named_children(&mut c) {
                    let v = self.string(part, depth);
                    out = out.concat(v);
                }
                Obj::Val(out)
            }
            // In decimal, as the program it is passed to reads it (`0x4966` is port 18790).
            "integer" => {
                let text = self.text(node).replace('_', "");
                Obj::Val(Val::Known(parse_int(&text).map_or(text, |n| n.to_string())))
            }
            "true" => Obj::Val(Val::known("True")),
            "false" => Obj::Val(Val::known("False")),
            "none" => Obj::Val(Val::known("None")),
            "parenthesized_expression" | "await" => match node.named_child(0) {
                Some(inner) => self.eval(inner, depth + 1),
                None => Obj::Val(Val::Unknown),
            },
            // A call's arguments, bound to a function's `*args` (see `inline`).
            "list" | "tuple" | "expression_list" | "argument_list" => {
                let mut items = Vec::new();
                let mut c = node.walk();
                let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                for item in children {
                    if matches!(
                        kind(item),
                        "keyword_argument" | "dictionary_splat" | "comment"
                    ) {
                        continue;
                    }
                    if kind(item) == "list_splat" {
                        match item.named_child(0).map(|n| self.eval(n, depth + 1)) {
                            Some(Obj::List(more)) => items.extend(more),
                            // The matches of a pattern (`*glob.glob('dist/*.whl')`), none
                            // or many, are read as the shell reads the pattern unquoted.
                            Some(Obj::Each(element)) => items.push(element.val()),
                            _ => items.push(Val::Unknown),
                        }
                        continue;
                    }
                    items.push(self.eval(item, depth + 1).val());
                }
                Obj::List(items)
            }
            "generator_expression" | "list_comprehension" => self.over_literal(node, depth),
            "identifier" => self.name(node, depth),
            "attribute" => {
                let (Some(object), Some(attr)) =
                    (by_field(node, "object"), by_field(node, "attribute"))
                else {
                    return Obj::Val(Val::Unknown);
                };
                let attr = self.text(attr).to_owned();
                if let Some(value) = self.member(object, &attr, depth) {
                    return value;
                }
                // Where a module's code is installed (`importlib.util.find_spec('requests')
                // .origin`): written to, the module runs what was written.
                if attr == "origin"
                    && kind(object) == "call"
                    && let Some(function) = by_field(object, "function")
                    && matches!(self.eval(function, depth + 1), Obj::Ref(q) if q == "importlib.util.find_spec")
                {
                    let module = Args::of(self, object).pos(self, 0).val();
                    return Obj::Val(match module {
                        Val::Known(m) => Val::Known(installed(&m)),
                        _ => Val::Prefix(SITE_PACKAGES.to_owned()),
                    });
                }
                match self.eval(object, depth + 1) {
                    // The interpreter running the code (`subprocess.run([sys.executable,
                    // '-m', 'pytest'])`), as the shell reader knows it.
                    Obj::Ref(q) if q == "sys" && attr == "executable" => {
                        Obj::Val(Val::known("python3"))
                    }
                    // The path constants (`os.path.join(os.sep, 'etc')`, `os.chdir(os.pardir)`).
                    Obj::Ref(q) if matches!(q.as_str(), "os" | "os.path" | "posixpath") => {
                        match attr.as_str() {
                            "sep" => Obj::Val(Val::known("/")),
                            "curdir" => Obj::Val(Val::known(".")),
                            "pardir" => Obj::Val(Val::known("..")),
                            _ => Obj::Ref(format!("{q}.{attr}")),
                        }
                    }
                    Obj::Ref(q) if attr == "__file__" => Obj::Val(Val::Known(installed(&q))),
                    Obj::Ref(q) => Obj::Ref(format!("{q}.{attr}")),
                    Obj::Path(p) => match attr.as_str() {
                        "parent" | "name" | "stem" | "suffix" => Obj::Val(Val::Unknown),
                        _ => Obj::PathMethod(p, attr),
                    },
                    Obj::Response => Obj::Response,
                    // A string has no `write_text`: what it is called on is the path it
                    // names (an item of a list read as its value, `for f in files`).
                    Obj::Val(v @ Val::Known(_))
                        if super::calls::PATH_ONLY_METHODS.contains(&attr.as_str()) =>
                    {
                        Obj::PathMethod(v, attr)
                    }
                    Obj::Val(v @ Val::Known(_)) => Obj::StrMethod(v, attr),
                    Obj::Val(Val::Fetched) => Obj::Response,
                    _ => Obj::Attr(attr),
                }
            }
            "subscript" => self.subscript(node, depth),
            // `10 << 20`, `2**30`, `64 * 1024 * 1024`: sizes and modes written as arithmetic.
            "binary_operator" => match self.int_constant(node, depth) {
                Some(n) => Obj::Val(Val::Known(n.to_string())),
                None => self.binary(node, depth),
            },
            // `-1`: the process group of every process, for `os.kill`.
            "unary_operator" => match (by_field(node, "operator"), by_field(node, "argument")) {
                (Some(op), Some(arg)) if self.text(op) == "-" => match self.eval(arg, depth + 1) {
                    Obj::Val(Val::Known(n)) if n.parse::<u64>().is_ok() => {
                        Obj::Val(Val::Known(format!("-{n}")))
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                _ => Obj::Val(Val::Unknown),
            },
            "conditional_expression" => {
                if let Some(side) = self.chosen_side(node) {
                    return self.eval(side, depth + 1);
                }
                let mut c = node.walk();
                let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
                match parts.as_slice() {
                    [a, _, b] => {
                        let (a, b) = (
                            self.eval(*a, depth + 1).val(),
                            self.eval(*b, depth + 1).val(),
                        );
                        Obj::Val(if a == b { a } else { Val::Unknown })
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "call" => self.value_of_call(node, depth),
            // `os.environ.get('HOME') or '/root'`: the side the left one's truth picks.
            "boolean_operator" => {
                let (Some(l), Some(op), Some(r)) = (
                    by_field(node, "left"),
                    by_field(node, "operator"),
                    by_field(node, "right"),
                ) else {
                    return Obj::Val(Val::Unknown);
                };
                let left = self.eval(l, depth + 1);
                let truth = match &left {
                    Obj::Val(v) => v.truth(&[""], &["0", "False", "None"]),
                    Obj::Path(_) | Obj::Ref(_) => Some(true),
                    _ => None,
                };
                match (self.text(op), truth) {
                    ("or", Some(true)) | ("and", Some(false)) => left,
                    ("or", Some(false)) | ("and", Some(true)) => self.eval(r, depth + 1),
                    _ => Obj::Val(Val::Unknown),
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// `[chr(c) for c in [46, 103]]` (or a generator): the body's value for each item of a
    /// literal list of a few items, the loop's one name bound to it in turn (`''.join(...)`
    /// of it is then known). Anything else, `if` clauses included, is not known.
    fn over_literal(&mut self, node: Node<'t>, depth: usize) -> Obj {
        const MOST_ITEMS: usize = 256;
        let mut c = node.walk();
        let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
        let [body, clause] = parts.as_slice() else {
            return Obj::Val(Val::Unknown);
        };
        let (Some(left), Some(right)) = (by_field(*clause, "left"), by_field(*clause, "right"))
        else {
            return Obj::Val(Val::Unknown);
        };
        if kind(*clause) != "for_in_clause" || kind(left) != "identifier" {
            return Obj::Val(Val::Unknown);
        }
        // Over a listing (`(os.path.join(d, f) for f in files)`): each item is what the
        // body gives for an element of it, when the name is bound to that listing alone.
        if !matches!(kind(right), "list" | "tuple") {
            return match self.names.get(self.text(left)) {
                Some(Slot::Each(iterable)) if *iterable == right => {
                    Obj::Each(Box::new(self.eval(*body, depth + 1)))
                }
                _ => Obj::Val(Val::Unknown),
            };
        }
        if right.named_child_count() > MOST_ITEMS {
            return Obj::Val(Val::Unknown);
        }
        let name = self.text(left);
        let mut c = right.walk();
        let items: Vec<Node<'t>> = right.named_children(&mut c).collect();
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            let outer = self.names.replace(name, Some(Slot::Expr(item)));
            values.push(self.eval(*body, depth + 1).val());
            self.names.replace(name, outer);
        }
        Obj::List(values)
    }

    /// An element of a listing bound to `name`, narrowed by its comprehension's `if`.
    fn narrowed_element(&self, name: &str, element: Obj) -> Obj {
        let mut narrows = self.narrowed.iter().filter(|(n, _)| *n == name);
        // A name narrowed by two comprehensions is bound twice, so not read: be sure.
        let (Some((_, narrow)), None) = (narrows.next(), narrows.next()) else {
            return element;
        };
        match element {
            Obj::Val(Val::Known(p)) => match narrow.apply(&p) {
                Some(q) => Obj::Val(Val::Known(q)),
                None => Obj::Val(Val::Known(p)),
            },
            // A `pathlib` listing, narrowed by `p.suffix`.
            Obj::Path(Val::Known(p)) => match narrow.apply(&p) {
                Some(q) => Obj::Path(Val::Known(q)),
                None => Obj::Path(Val::Known(p)),
            },
            other => other,
        }
    }

    /// The loop variable `name`'s value in the body of a `for` over `iterable`.
    fn element_of(&mut self, name: &str, iterable: Node<'t>, depth: usize) -> Obj {
        if !self.names.enter(name) {
            return Obj::Val(Val::Unknown);
        }
        let out = match self.eval(iterable, depth + 1) {
            Obj::Each(element) => self.narrowed_element(name, *element),
            // A list of paths (not read per item here): each of them, as the directory they
            // share with everything below it.
            Obj::List(items) => match items.split_first() {
                Some((first, rest)) => Obj::Val(
                    rest.iter()
                        .try_fold(first.clone(), |a, b| match a == *b {
                            true => Some(a),
                            false => covering(&a, b),
                        })
                        .unwrap_or(Val::Unknown),
                ),
                None => Obj::Val(Val::Unknown),
            },
            _ => Obj::Val(Val::Unknown),
        };
        self.names.leave();
        out
    }

    fn name(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let name = self.text(node);
        if self
            .lambdas
            .iter()
            .any(|(lambda, params)| params.contains(&name) && contains(*lambda, node))
        {
            return Obj::Val(Val::Unknown);
        }
        if let Some((_, value)) = self.arguments.iter().rev().find(|(n, _)| *n == name) {
            return Obj::Val(value.clone());
        }
        if let Some(value) = self.bound_value(name, node) {
            return value;
        }
        match self.names.get(name).cloned() {
            Some(Slot::Expr(value)) => {
                if !self.names.enter(name) {
                    return Obj::Val(Val::Unknown);
                }
                let out = self.eval(value, depth + 1);
                self.names.leave();
                // A list the code changes in place, or shares where it may be changed, is
                // not the one it was bound to (`parts = ['rm']; parts.append('-rf')`).
                match out {
                    Obj::List(_) | Obj::Each(_) if self.changed.value(name) => {
                        Obj::Val(Val::Unknown)
                    }
                    out => out,
                }
            }
            Some(Slot::Ref(q)) => Obj::Ref(q),
            Some(Slot::Each(iterable)) => self.element_of(name, iterable, depth),
            Some(Slot::Loops(iterables)) => match enclosing_loop(node, &iterables) {
                Some(iterable) => self.element_of(name, iterable, depth),
                None => Obj::Val(Val::Unknown),
            },
            Some(Slot::Part(iterable, k)) => {
                if !self.names.enter(name) {
                    return Obj::Val(Val::Unknown);
                }
                let out = match self.eval(iterable, depth + 1) {
                    Obj::Each(element) => match (*element, k) {
                        (Obj::Walk(root), 0) => Obj::Val(join(&[root, Val::known("**")])),
                        (Obj::Walk(_), _) => Obj::Each(Box::new(Obj::Val(Val::known("*")))),
                        _ => Obj::Val(Val::Unknown),
                    },
                    _ => Obj::Val(Val::Unknown),
                };
                self.names.leave();
                out
            }
            Some(Slot::Item(value, k)) => {
                if !self.names.enter(name) {
                    return Obj::Val(Val::Unknown);
                }
                let out = match self.eval(value, depth + 1) {
                    Obj::List(items) => Obj::Val(items.get(k).cloned().unwrap_or(Val::Unknown)),
                    _ => Obj::Val(Val::Unknown),
                };
                self.names.leave();
                out
            }
            Some(Slot::Many) => Obj::Val(Val::Unknown),
            None => {
                if BUILTINS.contains(&name) {
                    return Obj::Ref(format!("builtins.{name}"));
                }
                if name == "__builtins__" {
                    return Obj::Ref("builtins".to_owned());
                }
                for module in &self.names.star {
                    let q = canonical(&format!("{module}.{name}"));
                    if sink(&q).is_some() || VALUE_FUNCTIONS.contains(&q.as_str()) {
                        return Obj::Ref(q);
                    }
                }
                Obj::Val(Val::Unknown)
            }
        }
    }

    fn subscript(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let Some(value) = by_field(node, "value") else {
            return Obj::Val(Val::Unknown);
        };
        let index = by_field(node, "subscript");
        if let Some(item) = index.and_then(|i| self.constant_dict_item(value, i, depth)) {
            return item;
        }
        let base = self.eval(value, depth + 1);
        // `s[::-1]`
        if let (Some(i), Obj::Val(Val::Known(s))) = (index, &base)
            && kind(i) == "slice"
            && self.text(i).replace(' ', "") == "::-1"
        {
            return Obj::Val(Val::Known(s.chars().rev().collect()));
        }
        // A slice of a list with constant bounds is those items (`argv[1:3] + argv[4:]`).
        if let (Some(i), Obj::List(items)) = (index, &base)
            && kind(i) == "slice"
            && let Some(range) = slice_range(&self.text(i).replace([' ', '\t'], ""), items.len())
        {
            return Obj::List(items[range].to_vec());
        }
        // A slice of a listing is part of it (`sorted(glob(p))[:-keep]`), and of a list some
        // of its items: the whole list, which can only name more.
        if index.is_some_and(|i| kind(i) == "slice") && matches!(base, Obj::Each(_) | Obj::List(_))
        {
            return base;
        }
        let key = index.map(|i| self.eval(i, depth + 1).val());
        match (base, key) {
            (Obj::Ref(q), Some(Val::Known(k))) if q == "os.environ" => Obj::Val(self.cx.env(&k)),
            (Obj::Ref(q), Some(Val::Known(k))) if q == "sysconfig.get_paths()" => {
                Obj::Val(install_path(&k).map_or(Val::Unknown, Val::known))
            }
            // `globals()['os']`, `__builtins__.__dict__['exec']`, `vars(os)['system']`
            (Obj::Ref(q), Some(Val::Known(k))) if q.ends_with(".__dict__") => {
                Obj::Ref(format!("{}.{k}", q.trim_end_matches(".__dict__")))
            }
            (Obj::Ref(q), Some(Val::Known(k))) if q == "builtins.globals()" => self.name_text(&k),
            (Obj::Ref(q), _) if q.ends_with(".__dict__") || q == "builtins.globals()" => {
                self.cx.opaque(
                    "the code looks up a function by a name computed at run time",
                    self.line(node),
                );
                Obj::Val(Val::Unknown)
            }
            (Obj::List(items), Some(Val::Known(k))) => match k.parse::<usize>() {
                Ok(n) => Obj::Val(items.get(n).cloned().unwrap_or(Val::Unknown)),
                Err(_) => Obj::Val(Val::Unknown),
            },
            // `python3 -c CODE a b`: `sys.argv` is `['-c', 'a', 'b']`.
            (Obj::Ref(q), Some(Val::Known(k))) if q == "sys.argv" => {
                Obj::Val(match k.parse::<usize>() {
                    Ok(0) => Val::known("-c"),
                    Ok(n) => self.cx.arg(n - 1),
                    Err(_) => Val::Unknown,
                })
            }
            (Obj::Response, _) => Obj::Response,
            // One of the names a listing finds (`glob.glob(p)[0]`).
            (Obj::Each(element), _) => *element,
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// `MODES["suid"]` of a name bound once to a literal dictionary the code never changes:
    /// the value of the pair with that key.
    fn constant_dict_item(
        &mut self,
        value: Node<'t>,
        index: Node<'t>,
        depth: usize,
    ) -> Option<Obj> {
        let dict = self.constant_dict(value)?;
        let Val::Known(key) = self.eval(index, depth + 1).val() else {
            return None;
        };
        for (k, v) in self.dict_pairs(dict)? {
            match self.eval(k, depth + 1).val() {
                Val::Known(k) if k == key => return Some(self.eval(v, depth + 1)),
                Val::Known(_) => {}
                _ => return None,
            }
        }
        None
    }

    /// The literal dictionary `value` is, or names while it stays as written (see
    /// [`stays_as_written`]).
    fn constant_dict(&mut self, value: Node<'t>) -> Option<Node<'t>> {
        match kind(value) {
            "dictionary" => Some(value),
            _ => self.constant_literal(value, &["dictionary"]),
        }
    }

    /// The literal of one of `kinds` that the name `value` is bound to once, while it stays
    /// as written (see [`stays_as_written`]).
    pub(super) fn constant_literal(&self, value: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
        let literal = self.constant_shape(value, kinds)?;
        // An item that may be changed: a list, dictionary or set among them may not be as
        // written.
        (!self.items_may_change(value, literal)).then_some(literal)
    }

    /// Whether an item of the literal `literal`, bound to the name `value`, may be changed
    /// in place (a list, dictionary or set among them shared where it may be).
    pub(super) fn items_may_change(&self, value: Node<'t>, literal: Node<'t>) -> bool {
        self.changed.items(self.text(value)) && self.holds_containers(literal)
    }

    /// As [`Py::constant_literal`], but only its keys and length must be as written: its
    /// items may have been changed in place.
    pub(super) fn constant_shape(&self, value: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
        if kind(value) != "identifier" {
            return None;
        }
        let name = self.text(value);
        let Some(Slot::Expr(literal)) = self.names.get(name) else {
            return None;
        };
        if !kinds.contains(&kind(*literal)) || self.changed.value(name) {
            return None;
        }
        let code = self.src.text;
        let constant = *self
            .constant
            .borrow_mut()
            .entry(name)
            .or_insert_with(|| stays_as_written(code, name));
        constant.then_some(*literal)
    }

    /// Whether a literal list, tuple, set or dictionary may hold one (as an item or a value):
    /// anything but a literal string, number, boolean or `None`, or a name bound once to
    /// one.
    fn holds_containers(&self, literal: Node<'t>) -> bool {
        let scalar = |v: Node<'t>| {
            matches!(
                kind(v),
                "string" | "concatenated_string" | "integer" | "float" | "true" | "false" | "none"
            )
        };
        let mut c = literal.walk();
        let items: Vec<Node<'t>> = literal.named_children(&mut c).collect();
        items.into_iter().any(|item| {
            let value = match kind(item) {
                "pair" => by_field(item, "value"),
                _ => Some(item),
            };
            value.is_none_or(|v| {
                let bound = match kind(v) {
                    "identifier" => match self.names.get(self.text(v)) {
                        Some(Slot::Expr(e)) => *e,
                        _ => v,
                    },
                    _ => v,
                };
                !scalar(bound)
            })
        })
    }

    /// The key and value nodes of a literal dictionary of at most a few pairs; `None` when
    /// it holds anything else (a `**` spread).
    fn dict_pairs(&self, dict: Node<'t>) -> Option<Vec<(Node<'t>, Node<'t>)>> {
        const MOST_PAIRS: usize = 64;
        let mut c = dict.walk();
        let pairs: Vec<Node<'t>> = dict.named_children(&mut c).take(MOST_PAIRS + 1).collect();
        if pairs.len() > MOST_PAIRS {
            return None;
        }
        pairs
            .into_iter()
            .map(|pair| match kind(pair) {
                "pair" => Some((by_field(pair, "key")?, by_field(pair, "value")?)),
                _ => None,
            })
            .collect()
    }

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

    /// The name `mkdtemp(suffix, prefix, dir)` gives: the prefix (`tmp` when not given),
    /// random characters, the suffix; a pattern, as the random part is not known.
    fn temp_name(&mut self, args: &Args<'t>) -> String {
        let mut part = |n: usize, name: &str, default: &str| match args.node(n, name) {
            None => Some(default.to_owned()),
            Some(_) => match args.pos_or_kw(self, n, name).val() {
                Val::Known(t) if t == "None" => Some(default.to_owned()),
                Val::Known(t) if !t.contains(['/', '*', '?', '[']) => Some(t),
                _ => None,
            },
        };
        match (part(1, "prefix", "tmp"), part(0, "suffix", "")) {
            (Some(prefix), Some(suffix)) => format!("{prefix}*{suffix}"),
            _ => "*".to_owned(),
        }
    }

    /// A name looked up by its text (`globals()['os']`).
    fn name_text(&mut self, name: &str) -> Obj {
        match self.names.get(name).cloned() {
            Some(Slot::Ref(q)) => Obj::Ref(q),
            None if BUILTINS.contains(&name) => Obj::Ref(format!("builtins.{name}")),
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// The integer `node` computes from integer literals alone, if it fits in 127 bits.
    fn int_constant(&self, node: Node<'t>, depth: usize) -> Option<i128> {
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

    fn binary(&mut self, node: Node<'t>, depth: usize) -> Obj {
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

    /// The value a call returns, for the calls that compute strings and paths.
    fn value_of_call(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let Some(function) = by_field(node, "function") else {
            return Obj::Val(Val::Unknown);
        };
        if let Some(value) = self.returned_value(node, depth) {
            return value;
        }
        let callee = self.eval(function, depth + 1);
        let args = Args::of(self, node);
        let arg = |py: &mut Self, n: usize| args.pos(py, n).val();
        match callee {
            Obj::Ref(q) => {
                let q = canonical(&q);
                match q.as_str() {
                    "os.path.expanduser" | "os.path.abspath" | "os.path.realpath"
                    | "os.path.normpath" | "os.fspath" | "builtins.str" | "os.fsencode"
                    | "os.fsdecode" => Obj::Val(arg(self, 0)),
                    // `bytes([47, 101, 116, 99])`: the text of those code points.
                    "builtins.bytes" | "builtins.bytearray" => match args.pos(self, 0) {
                        Obj::List(items) => Obj::Val(
                            items
                                .iter()
                                .map(|v| v.text().and_then(parse_int).and_then(char::from_u32))
                                .collect::<Option<String>>()
                                .map_or(Val::Unknown, Val::Known),
                        ),
                        other => Obj::Val(other.val()),
                    },
                    // A partial function is its function, called with more arguments (see
                    // `Py::arguments`).
                    "functools.partial" => args.pos(self, 0),
                    // Objects whose methods the sinks name (`tarfile.TarFile.add`).
                    "tarfile.open" | "tarfile.TarFile" | "tarfile.TarFile.open" => {
                        Obj::Ref("tarfile.TarFile".to_owned())
                    }
                    "zipfile.ZipFile" => Obj::Ref("zipfile.ZipFile".to_owned()),
                    "xml.etree.ElementTree.ElementTree" | "xml.etree.ElementTree.parse" => {
                        Obj::Ref("xml.etree.ElementTree.ElementTree".to_owned())
                    }
                    "importlib.machinery.SourceFileLoader"
                    | "importlib.machinery.SourcelessFileLoader" => {
                        Obj::Ref("importlib.machinery.SourceFileLoader".to_owned())
                    }
                    // Debuggers, tracers and profilers, whose `run` runs Python source.
                    "bdb.Bdb" | "pdb.Pdb" => Obj::Ref("bdb.Bdb".to_owned()),
                    "trace.Trace" => Obj::Ref("trace.Trace".to_owned()),
                    "cProfile.Profile" | "profile.Profile" => {
                        Obj::Ref("cProfile.Profile".to_owned())
                    }
                    "configparser.ConfigParser" | "configparser.RawConfigParser" => {
                        Obj::Ref("configparser.ConfigParser".to_owned())
                    }
                    "crontab.CronTab" => Obj::Ref("crontab.CronTab".to_owned()),
                    // Where installed code lives, as a path in the system's Python.
                    "sysconfig.get_paths" => Obj::Ref("sysconfig.get_paths()".to_owned()),
                    "sysconfig.get_path" => match arg(self, 0) {
                        Val::Known(k) => {
                            Obj::Val(install_path(&k).map_or(Val::Unknown, Val::known))
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    "certifi.where" => {
                        Obj::Val(Val::Known(format!("{SITE_PACKAGES}/certifi/cacert.pem")))
                    }
                    // A SQLite connection and its cursors, whose `execute` runs SQL.
                    "sqlite3.connect" | "sqlite3.Connection.cursor" => {
                        Obj::Ref("sqlite3.Connection".to_owned())
                    }
                    // GitPython's repository and its remotes, whose methods run git.
                    "git.Repo" | "git.repo.Repo" | "git.Repo.init" | "git.Repo.clone_from" => {
                        Obj::Ref("git.Repo".to_owned())
                    }
                    "git.Repo.remote" | "git.Repo.create_remote" => {
                        Obj::Ref("git.Remote".to_owned())
                    }
                    "os.path.expandvars" => match arg(self, 0) {
                        Val::Known(p) if !home(&p).contains('$') => Obj::Val(Val::Known(home(&p))),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "os.path.join" | "posixpath.join" => {
                        let parts = args.positional_from(self, 0);
                        Obj::Val(join(&parts))
                    }
                    // `reduce(os.path.join, parts)` joins the parts as one call does.
                    "functools.reduce" => match (args.pos(self, 0), args.pos(self, 1)) {
                        (Obj::Ref(f), Obj::List(parts))
                            if matches!(f.as_str(), "os.path.join" | "posixpath.join")
                                && args.count() == 2 =>
                        {
                            Obj::Val(join(&parts))
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    "unicodedata.normalize" => match (arg(self, 0), arg(self, 1)) {
                        (Val::Known(form), Val::Known(text)) => {
                            Obj::Val(normalized(&text, &form).map_or(Val::Unknown, Val::Known))
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    "urllib.parse.urljoin" => match (arg(self, 0), arg(self, 1)) {
                        (Val::Known(base), Val::Known(url)) => {
                            Obj::Val(match url_join(&base, &url) {
                                Some(joined) => Val::Known(joined),
                                None => Val::Unknown,
                            })
                        }
                        _ => Obj::Val(Val::Unknown),
                    },
                    "os.getenv" | "os.environ.get" => match arg(self, 0) {
                        Val::Known(k) => Obj::Val(self.cx.env(&k)),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "os.getcwd" => Obj::Val(Val::known(".")),
                    // A number, as this machine has (`['make', f'-j{os.cpu_count()}']`).
                    "os.cpu_count" | "os.process_cpu_count" | "multiprocessing.cpu_count" => {
                        Obj::Val(Val::Known(
                            std::thread::available_parallelism()
                                .map_or(1, usize::from)
                                .to_string(),
                        ))
                    }
                    "textwrap.dedent" => Obj::Val(match arg(self, 0) {
                        Val::Known(text) => Val::Known(dedent(&text)),
                        Val::Fetched => Val::Fetched,
                        _ => Val::Unknown,
                    }),
                    // Where Python looks for `.pth` files and `usercustomize`: the version
                    // in the name is not known.
                    "site.getusersitepackages" => {
                        Obj::Val(Val::known("~/.local/lib/python3*/site-packages"))
                    }
                    "site.getsitepackages" => Obj::List(vec![
                        Val::known("/usr/local/lib/python3*/dist-packages"),
                        Val::known("/usr/lib/python3/dist-packages"),
                    ]),
                    // The program a name runs, found on `PATH`: somewhere below the root,
                    // so a write onto it (`shutil.copy(x, shutil.which('hookgate'))`)
                    // reaches that program wherever it is installed.
                    "shutil.which" => match arg(self, 0) {
                        Val::Known(name) if !name.is_empty() && !name.contains('/') => {
                            Obj::Val(Val::Known(format!("/**/{name}")))
                        }
                        Val::Known(path) => Obj::Val(Val::Known(path)),
                        _ => Obj::Val(Val::Unknown),
                    },
                    // A new directory or file of the temporary directory: its name is not
                    // known, where it is is (`shutil.rmtree(tempfile.mkdtemp())`).
                    "tempfile.gettempdir" => Obj::Val(Val::known(TEMP_DIR)),
                    // `mkdtemp(suffix, prefix, dir)`: in `dir`, else the temporary directory.
                    // `with TemporaryDirectory(suffix, prefix, dir) as d:` gives `d` such a
                    // name too.
                    // `mkstemp` gives `(fd, name)`.
                    "tempfile.mkdtemp"
                    | "tempfile.mktemp"
                    | "tempfile.TemporaryDirectory"
                    | "tempfile.mkstemp" => {
                        let name = self.temp_name(&args);
                        let path = match args.pos_or_kw(self, 2, "dir").val() {
                            Val::Known(d) if d.is_empty() || d == "None" => {
                                Val::Known(format!("{TEMP_DIR}/{name}"))
                            }
                            Val::Known(d) => Val::Known(format!("{d}/{name}")),
                            _ => Val::Unknown,
                        };
                        match q.as_str() {
                            "tempfile.mkstemp" => Obj::List(vec![Val::Unknown, path]),
                            _ => Obj::Val(path),
                        }
                    }
                    "pathlib.Path"
                    | "pathlib.PosixPath"
                    | "pathlib.PurePath"
                    | "pathlib.PurePosixPath" => {
                        let parts = args.positional_from(self, 0);
                        Obj::Path(if parts.is_empty() {
                            Val::known(".")
                        } else {
                            join(&parts)
                        })
                    }
                    "pathlib.Path.home" => Obj::Path(Val::known("~")),
                    "pathlib.Path.cwd" => Obj::Path(Val::known(".")),
                    "builtins.chr" => match arg(self, 0) {
                        Val::Known(n) => Obj::Val(
                            parse_int(&n)
                                .and_then(char::from_u32)
                                .map_or(Val::Unknown, |c| Val::Known(c.to_string())),
                        ),
                        other => Obj::Val(other),
                    },
                    "builtins.__import__" | "importlib.import_module" => match arg(self, 0) {
                        Val::Known(m) => Obj::Ref(m),
                        _ => Obj::Val(Val::Unknown),
                    },
                    // The object a dotted name names (`pkgutil.resolve_name('shutil:rmtree')`).
                    "pydoc.locate" | "pkgutil.resolve_name" => match arg(self, 0) {
                        Val::Known(m) => Obj::Ref(canonical(&m.replace(':', "."))),
                        _ => Obj::Val(Val::Unknown),
                    },
                    // An address written as a number (`ip_address(2130706433)`: 127.0.0.1).
                    "ipaddress.ip_address" | "ipaddress.IPv4Address" => {
                        Obj::Val(match arg(self, 0) {
                            Val::Known(t) => Val::Known(match t.parse::<u32>() {
                                Ok(n) => std::net::Ipv4Addr::from(n).to_string(),
                                Err(_) => t,
                            }),
                            other => other,
                        })
                    }
                    // A file object over a string is the string, for what reads it.
                    "io.StringIO" | "io.BytesIO" => Obj::Val(arg(self, 0)),
                    "builtins.getattr" => match (args.pos(self, 0), arg(self, 1)) {
                        (Obj::Ref(q), Val::Known(a)) => Obj::Ref(format!("{q}.{a}")),
                        (Obj::Path(p), Val::Known(a)) => Obj::PathMethod(p, a),
                        (_, Val::Known(a)) => Obj::Attr(a),
                        _ => Obj::Val(Val::Unknown),
                    },
                    "builtins.globals" | "builtins.locals" => Obj::Ref("builtins.globals()".into()),
                    "builtins.vars" => match args.pos(self, 0) {
                        Obj::Ref(q) => Obj::Ref(format!("{q}.__dict__")),
                        _ => Obj::Ref("builtins.globals()".into()),
                    },
                    "builtins.compile" => Obj::Val(arg(self, 0)),
                    "builtins.list" | "builtins.tuple" | "builtins.sorted" | "builtins.set"
                    | "builtins.frozenset" | "builtins.reversed" => args.pos(self, 0),
                    // Some of a listing's names are still names the pattern matches.
                    "builtins.filter" | "itertools.filterfalse" | "itertools.islice" => {
                        let listing = match q.as_str() {
                            "itertools.islice" => args.pos(self, 0),
                            _ => args.pos(self, 1),
                        };
                        match listing {
                            each @ Obj::Each(_) => each,
                            // Some of a list's items: each is one of the list's.
                            list @ Obj::List(_) if q != "itertools.islice" => list,
                            _ => Obj::Val(Val::Unknown),
                        }
                    }
                    // The names a listing finds, as the pattern they match: a loop over
                    // them acts on every file the pattern can name.
                    "glob.glob" | "glob.iglob" => Obj::Each(Box::new(Obj::Val(arg(self, 0)))),
                    "os.listdir" => Obj::Each(Box::new(Obj::Val(Val::known("*")))),
                    "os.walk" => Obj::Each(Box::new(Obj::Walk(arg(self, 0)))),
                    "urllib.request.Request" => Obj::Val(arg(self, 0)),
                    _ if matches!(sink(&q), Some(Sink::Network(..) | Sink::Request(_))) => {
                        Obj::Response
                    }
                    _ if is_decoder(&q) => {
                        self.decoded = true;
                        let given = (args.count() == 1).then(|| arg(self, 0));
                        match given.as_ref().and_then(|v| base64_constant(&q, v)) {
                            Some(text) => Obj::Val(Val::Known(text)),
                            None => Obj::Val(Val::Fetched),
                        }
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            Obj::PathMethod(p, m) => match m.as_str() {
                "expanduser" | "resolve" | "absolute" | "joinpath" => {
                    let mut parts = vec![p];
                    parts.extend(args.positional_from(self, 0));
                    Obj::Path(join(&parts))
                }
                "glob" => Obj::Each(Box::new(Obj::Path(join(&[p, arg(self, 0)])))),
                "rglob" => Obj::Each(Box::new(Obj::Path(join(&[
                    p,
                    Val::known("**"),
                    arg(self, 0),
                ])))),
                "iterdir" => Obj::Each(Box::new(Obj::Path(join(&[p, Val::known("*")])))),
                // The path as a `file://` address, which `urlopen` reads as the file.
                "as_uri" => Obj::Val(Val::known("file://").concat(p)),
                "with_name" | "with_stem" | "with_suffix" => {
                    Obj::Path(renamed(&p, m.as_str(), arg(self, 0)))
                }
                _ => Obj::Val(Val::Unknown),
            },
            Obj::StrMethod(p, m) => match m.as_str() {
                "join" => match args.pos(self, 0) {
                    Obj::List(items) => {
                        let texts: Option<Vec<&str>> = items.iter().map(Val::text).collect();
                        let sep = p.text().unwrap_or_default();
                        Obj::Val(texts.map_or(Val::Unknown, |t| Val::Known(t.join(sep))))
                    }
                    Obj::Val(Val::Known(s)) => {
                        let sep = p.text().unwrap_or_default();
                        let chars: Vec<String> = s.chars().map(String::from).collect();
                        Obj::Val(Val::Known(chars.join(sep)))
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                "split" => match (p, args.pos(self, 0)) {
                    (Val::Known(s), Obj::Val(Val::Known(sep))) if !sep.is_empty() => {
                        Obj::List(s.split(sep.as_str()).map(Val::known).collect())
                    }
                    (Val::Known(s), _) if args.count() == 0 => {
                        Obj::List(s.split_whitespace().map(Val::known).collect())
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                "replace" => match (p, arg(self, 0), arg(self, 1)) {
                    (Val::Known(s), Val::Known(a), Val::Known(b)) if !a.is_empty() => {
                        Obj::Val(Val::Known(s.replace(&a, &b)))
                    }
                    _ => Obj::Val(Val::Unknown),
                },
                "format" => {
                    let items = args.positional_from(self, 0);
                    let named = self.named_args(&args);
                    Obj::Val(format_braces(p, &items, &named))
                }
                "strip" | "lstrip" | "rstrip" if args.count() == 0 => Obj::Val(match p {
                    Val::Known(s) => Val::Known(match m.as_str() {
                        "strip" => s.trim().to_owned(),
                        "lstrip" => s.trim_start().to_owned(),
                        _ => s.trim_end().to_owned(),
                    }),
                    other => other,
                }),
                "lower" => Obj::Val(
                    p.text()
                        .map_or(Val::Unknown, |s| Val::Known(s.to_lowercase())),
                ),
                "upper" => Obj::Val(
                    p.text()
                        .map_or(Val::Unknown, |s| Val::Known(s.to_uppercase())),
                ),
                "encode" | "decode" => Obj::Val(p),
                _ => Obj::Val(Val::Unknown),
            },
            Obj::Response => Obj::Response,
            _ => Obj::Val(Val::Unknown),
        }
    }

    /// A string literal's value: escapes decoded (unless raw), f-string parts evaluated.
    fn string(&mut self, node: Node<'t>, depth: usize) -> Val {
        if kind(node) != "string" {
            return self.eval(node, depth + 1).val();
        }
        let mut raw = false;
        let mut out = Val::known("");
        let mut c = node.walk();
        for part in node.named_children(&mut c) {
            match kind(part) {
                "string_start" => {
                    let prefix = self.text(part);
                    raw = prefix.contains(['r', 'R']);
                }
                "string_content" => {
                    let text = self.text(part);
                    let text = if raw { text.to_owned() } else { unescape(text) };
                    out = out.concat(Val::Known(text));
                }
                "interpolation" => {
                    let v = match by_field(part, "expression") {
                        Some(e) if by_field(part, "format_specifier").is_none() => {
                            self.eval(e, depth + 1).val()
                        }
                        _ => Val::Unknown,
                    };
                    out = out.concat(v);
                }
                _ => {}
            }
        }
        out
    }
}

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

/// `path.with_name(new)` (`with_stem`, `with_suffix`): the same directory, another name.
/// pathlib refuses a name with a `/` in it, so a name not known still names something in
/// that directory ([`Val::NameIn`]).
fn renamed(path: &Val, method: &str, new: Val) -> Val {
    let Val::Known(path) = path else {
        return Val::Unknown;
    };
    let (dir, name) = match path.rsplit_once('/') {
        Some((d, n)) => (format!("{d}/"), n),
        None => (String::new(), path.as_str()),
    };
    if matches!(name, "" | "." | ".." | "~") || dir.is_empty() && path.starts_with('~') {
        return Val::Unknown;
    }
    let (stem, suffix) = match name.rfind('.') {
        Some(k) if k > 0 => name.split_at(k),
        _ => (name, ""),
    };
    let new = match new {
        Val::Known(n) if !n.contains('/') && (method == "with_suffix" || !n.is_empty()) => n,
        _ => return Val::NameIn(dir),
    };
    Val::Known(match method {
        "with_name" => dir + &new,
        "with_stem" => dir + &new + suffix,
        _ => dir + stem + &new,
    })
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

/// `urllib.parse.urljoin(base, url)` for the forms code builds addresses with: `url` whole
/// when it has a scheme, from the host when it starts with `/`, else beside the last `/`
/// of `base`'s path. Anything else (`..`, `//host`, a query alone) is not read.
fn url_join(base: &str, url: &str) -> Option<String> {
    if url.contains("://") {
        return Some(url.to_owned());
    }
    if url.starts_with("//") || url.contains("..") || url.starts_with(['?', '#']) {
        return None;
    }
    let (scheme, rest) = base.split_once("://")?;
    let host_end = rest.find('/').unwrap_or(rest.len());
    let origin = &base[..scheme.len() + 3 + host_end];
    if url.starts_with('/') {
        return Some(format!("{origin}{url}"));
    }
    let path = &rest[host_end..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    let dir = &path[..path.rfind('/').map_or(0, |k| k + 1)];
    let dir = if dir.is_empty() { "/" } else { dir };
    Some(format!("{origin}{dir}{url}"))
}

/// Of the loops over `iterables`, the innermost whose body holds `node`: a `for`
/// statement's body, or what a comprehension makes of each element. Found by walking up
/// from `node`, at most [`LOOP_SEARCH_DEPTH`] levels (tree-sitter finds each parent by
/// walking down from the root, so the walk is bounded and done only for such names).
pub(super) fn enclosing_loop<'t>(node: Node<'t>, iterables: &[Node<'t>]) -> Option<Node<'t>> {
    let loops: Vec<(Node<'t>, Node<'t>)> = iterables
        .iter()
        .filter_map(|it| {
            let header = it.parent()?;
            // A comprehension's `for ... in` clause is beside what it makes, not around it.
            let scope = match kind(header) {
                "for_in_clause" => header.parent()?,
                _ => header,
            };
            Some((scope, *it))
        })
        .collect();
    let mut at = node;
    for _ in 0..LOOP_SEARCH_DEPTH {
        let parent = at.parent()?;
        if let Some((_, iterable)) = loops
            .iter()
            .find(|(scope, it)| *scope == parent && !contains(at, *it) && !contains(*it, at))
        {
            return Some(*iterable);
        }
        at = parent;
    }
    None
}

/// Levels walked up from a name to the loop around it.
const LOOP_SEARCH_DEPTH: usize = 48;

/// Whether `outer` holds `inner`.
pub(super) fn contains(outer: Node<'_>, inner: Node<'_>) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// The installed Python code's directory, as the reader names it: where it is on this
/// machine is not known, and any such place runs what is written there.
const SITE_PACKAGES: &str = "/usr/lib/python3/dist-packages";

/// The file of module `module`'s code (`requests.__file__`).
fn installed(module: &str) -> String {
    format!("{SITE_PACKAGES}/{}/__init__.py", module.replace('.', "/"))
}

/// A `sysconfig` install path by its key.
fn install_path(key: &str) -> Option<&'static str> {
    match key {
        "purelib" | "platlib" => Some(SITE_PACKAGES),
        "stdlib" | "platstdlib" => Some("/usr/lib/python3"),
        "scripts" => Some("/usr/bin"),
        _ => None,
    }
}

/// The text of base64 (`base64.b64decode('aHR0cDovLw==')`) of a known constant, when it
/// decodes to UTF-8. As Python does by default, characters outside the alphabet are
/// dropped.
fn base64_constant(function: &str, value: &Val) -> Option<String> {
    use base64::Engine;
    let urlsafe = match function {
        "base64.b64decode" | "base64.standard_b64decode" | "base64.decodebytes" => false,
        "base64.urlsafe_b64decode" => true,
        _ => return None,
    };
    let text = value.text()?;
    let alphabet: String = text
        .chars()
        .map(|c| match (urlsafe, c) {
            (true, '-') => '+',
            (true, '_') => '/',
            _ => c,
        })
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(alphabet)
        .ok()?;
    String::from_utf8(bytes).ok()
}

/// Whether the dictionary or list bound to `name` stays as written: `name` is assigned once
/// and otherwise only read, by a subscript that is not assigned or deleted, by `.get`,
/// `.keys`, `.items`, `.values`, `.copy`, `.index` or `.count`, spread (`*name`,
/// `**name`), tested or looped over (`in name`), or handed to a built-in that only reads it
/// (`len`, `sorted`, ...). Passed anywhere else, or a method of it called, it could be
/// changed there.
pub(super) fn stays_as_written(code: &str, name: &str) -> bool {
    const READERS: &[&str] = &[
        "len(",
        "sorted(",
        "list(",
        "tuple(",
        "set(",
        "frozenset(",
        "enumerate(",
        "iter(",
        "reversed(",
        "dict(",
        "any(",
        "all(",
        "min(",
        "max(",
    ];
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut bound = 0;
    for (k, _) in code.match_indices(name) {
        let before = &code[..k];
        let rest = &code[k + name.len()..];
        if word(before.chars().next_back()) || word(rest.chars().next()) {
            continue;
        }
        let rest = rest.trim_start_matches([' ', '\t']);
        let assigned = |r: &str| r.starts_with('=') && !r.starts_with("==");
        if assigned(rest) {
            bound += 1;
            continue;
        }
        if let Some(inside) = rest.strip_prefix('[') {
            let Some(close) = inside.find(']') else {
                return false;
            };
            let after = inside[close + 1..].trim_start_matches([' ', '\t']);
            let augmented =
                after.len() > 1 && after[1..].starts_with('=') && !after.starts_with("==");
            if assigned(after) || augmented || before.trim_end().ends_with("del") {
                return false;
            }
            continue;
        }
        let keyword_in = before
            .trim_end_matches([' ', '\t'])
            .strip_suffix("in")
            .is_some_and(|b| b.ends_with([' ', '\t', '(', '[']) && before.ends_with([' ', '\t']));
        let read_by_builtin = READERS.iter().any(|r| {
            before
                .strip_suffix(r)
                .is_some_and(|b| !word(b.chars().next_back()) && !b.ends_with('.'))
        });
        if [
            ".get(", ".keys(", ".items(", ".values(", ".copy(", ".index(", ".count(",
        ]
        .iter()
        .any(|m| rest.starts_with(m))
            || before.ends_with('*')
            || keyword_in
            || read_by_builtin
        {
            continue;
        }
        return false;
    }
    bound == 1
}

/// The items `[start:stop]` (or `[start:stop:1]`) takes of a list of `len` items, when both
/// bounds are integers or left out, counted from the end when negative, as Python does.
fn slice_range(slice: &str, len: usize) -> Option<std::ops::Range<usize>> {
    let parts: Vec<&str> = slice.split(':').collect();
    let (start, stop) = match parts.as_slice() {
        [start, stop] | [start, stop, "" | "1"] => (*start, *stop),
        _ => return None,
    };
    let len = i64::try_from(len).ok()?;
    let bound = |text: &str, default: i64| -> Option<i64> {
        if text.is_empty() {
            return Some(default);
        }
        let n: i64 = text.parse().ok()?;
        Some(if n < 0 { (len + n).max(0) } else { n.min(len) })
    };
    let (start, stop) = (bound(start, 0)?, bound(stop, len)?);
    Some(usize::try_from(start).ok()?..usize::try_from(stop.max(start)).ok()?)
}

/// A pattern that names both `a` and `b`, when both are paths (no spaces, quotes or shell
/// syntax, which a command would have): what [`any_of`] makes of them (`~/.kube/config`
/// and `~/.docker/config.json` as `~/**/*`).
pub(super) fn covering(a: &Val, b: &Val) -> Option<Val> {
    fn path(v: &Val) -> Option<String> {
        let shell = |c: char| c.is_whitespace() || "'\"`$;|&()<>\\".contains(c);
        v.text()
            .filter(|t| !t.is_empty() && !t.contains(shell))
            .map(str::to_owned)
    }
    match any_of(&[path(a)?, path(b)?]) {
        Val::Unknown => None,
        v => Some(v),
    }
}
