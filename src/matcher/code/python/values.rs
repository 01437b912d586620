//! What an expression evaluates to, as far as the reader follows it: constant strings and
//! the functions that compute them, modules and functions by qualified name, paths, lists.

use tree_sitter::Node;

use super::args::Args;
use super::loops::enclosing_loop;
use super::sinks::{VALUE_FUNCTIONS, canonical, sink};
use super::text::{parse_int, unescape};
use super::{BUILTINS, Obj, Py, by_field, kind};
use crate::matcher::code::growths::{PYTHON, with_growths};
use crate::matcher::code::scope::{Slot, any_of, join};
use crate::matcher::code::tree::MAX_NESTING;
use crate::matcher::code::{Origin, Val};

impl<'t> Py<'_, '_, 't> {
    /// Environment variable `name` as the code reads it at `at`: the value the code gave it
    /// (`os.environ['D'] = os.path.expanduser('~/.ssh')`) where that assignment is a
    /// statement of the module's own, before `at`; the line's where the code gives it
    /// none; else not known (a value given in a branch, a function, or after the read, may
    /// or may not be the one read).
    pub(super) fn environ_value(&mut self, name: &str, at: Node<'t>, depth: usize) -> Obj {
        match self.environ.get(name).copied() {
            None => Obj::Val(self.cx.env(name)),
            Some(Some((assignment, value)))
                if assignment.end_byte() <= at.start_byte()
                    && assignment
                        .parent()
                        .filter(|p| kind(*p) == "expression_statement")
                        .and_then(|p| p.parent())
                        .is_some_and(|m| kind(m) == "module") =>
            {
                Obj::Val(self.eval(value, depth + 1).val())
            }
            Some(_) => Obj::Val(Val::Unknown),
        }
    }

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
                        "parent" | "name" | "stem" | "suffix" => match &p {
                            Val::Known(p) => super::files::path_part(p, &attr),
                            _ => Obj::Val(Val::Unknown),
                        },
                        _ => Obj::PathMethod(p, attr),
                    },
                    Obj::Response => Obj::Response,
                    Obj::TempFile(path) if attr == "name" => Obj::Val(path),
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
                    // Either side, when the call is read both ways (see `choices`).
                    _ => match self.chosen_side(node) {
                        Some(side) if side == l => left,
                        Some(side) => self.eval(side, depth + 1),
                        None => Obj::Val(Val::Unknown),
                    },
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
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
            Some(Slot::Grown(value, growths)) => self.grown(name, node, value, &growths, depth),
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

    /// The list `name`, bound to `value` and grown by `growths`, as `read` reads it: with
    /// the growths that have run and those chosen to (see [`growths`](super::growths)).
    /// One that may have run but is not chosen (past the choices a call is read with)
    /// adds an item not known, which stands for any number of them, as a spread list's
    /// does (`[*extra]`).
    fn grown(
        &mut self,
        name: &str,
        read: Node<'t>,
        value: Node<'t>,
        growths: &[Node<'t>],
        depth: usize,
    ) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        let Some(applied) = PYTHON.applied(&self.chosen, (value, growths), read) else {
            return unknown;
        };
        if self.changed.value(name) || !self.names.enter(name) {
            return unknown;
        }
        let out = match self.eval(value, depth + 1) {
            Obj::List(items) => with_growths(items, applied, |g| self.added(g, depth)),
            _ => None,
        };
        self.names.leave();
        out.map_or(unknown, Obj::List)
    }

    /// The items `growth` adds to a list: `+= [...]` and `extend([...])` a list's items,
    /// `append(x)` one item. `+=` of anything else adds items not known (`+= 'ab'` adds
    /// characters, `+= s.split()` words; what is not iterable raises, and the read is not
    /// reached). `None` where they are not read.
    fn added(&mut self, growth: Node<'t>, depth: usize) -> Option<Vec<Val>> {
        if kind(growth) == "augmented_assignment" {
            return match self.eval(by_field(growth, "right")?, depth + 1) {
                Obj::List(items) => Some(items),
                _ => Some(vec![Val::Unknown]),
            };
        }
        let method = by_field(growth, "function").and_then(|f| by_field(f, "attribute"))?;
        let args = by_field(growth, "arguments")?;
        let mut c = args.walk();
        let args: Vec<Node<'t>> = args.named_children(&mut c).collect();
        let [arg] = args.as_slice() else {
            return None;
        };
        if matches!(
            kind(*arg),
            "keyword_argument" | "list_splat" | "dictionary_splat"
        ) {
            return None;
        }
        match (self.text(method), self.eval(*arg, depth + 1)) {
            ("append", item) => Some(vec![item.val()]),
            ("extend", Obj::List(items)) => Some(items),
            _ => None,
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
        let slice = index
            .filter(|i| kind(*i) == "slice")
            .map(|i| self.text(i).replace([' ', '\t'], ""));
        if let Some(slice) = &slice {
            match &base {
                // `s[::-1]`, `s[2:]`
                Obj::Val(Val::Known(s)) => {
                    let chars: Vec<char> = s.chars().collect();
                    if let Some(taken) = slice_indices(slice, chars.len()) {
                        return Obj::Val(Val::Known(taken.into_iter().map(|k| chars[k]).collect()));
                    }
                }
                // A slice of a list with constant bounds is those items, in that order
                // (`argv[1:3] + argv[4:]`, `words[::-1]`).
                Obj::List(items) => {
                    return match slice_indices(slice, items.len()) {
                        Some(taken) => {
                            Obj::List(taken.into_iter().map(|k| items[k].clone()).collect())
                        }
                        // Which items, and in which order, is not known: the program of an
                        // argument list may be any of them.
                        None => Obj::Val(Val::Unknown),
                    };
                }
                // A slice of a listing is part of it (`sorted(glob(p))[:-keep]`): the whole
                // listing, which can only name more.
                Obj::Each(_) => return base,
                // `sys.argv[1:]` of `python3 -c CODE a b`: the arguments, when each is known.
                Obj::Ref(q) if q == "sys.argv" => {
                    let from = slice
                        .strip_suffix(':')
                        .and_then(|n| n.parse::<usize>().ok());
                    let given = from
                        .filter(|&n| n > 0)
                        .and_then(|n| self.cx.args()?.get(n - 1..))
                        .filter(|a| a.len() <= 16 && a.iter().all(|v| matches!(v, Val::Known(_))));
                    if let Some(given) = given {
                        return Obj::List(given.to_vec());
                    }
                }
                _ => {}
            }
        }
        let key = index.map(|i| self.eval(i, depth + 1).val());
        match (base, key) {
            (Obj::Ref(q), Some(Val::Known(k))) if q == "os.environ" => {
                self.environ_value(&k, node, depth)
            }
            (Obj::Ref(q), Some(Val::Known(k))) if q == "sysconfig.get_paths()" => {
                Obj::Val(install_path(&k).map_or(Val::Unknown, Val::known))
            }
            // `globals()['os']`, `__builtins__.__dict__['exec']`, `vars(os)['system']`
            (Obj::Ref(q), Some(Val::Known(k))) if q.ends_with(".__dict__") => {
                Obj::Ref(format!("{}.{k}", q.trim_end_matches(".__dict__")))
            }
            (Obj::Ref(q), Some(Val::Known(k))) if q == "builtins.globals()" => self.name_text(&k),
            (Obj::Ref(q), _) if q.ends_with(".__dict__") || q == "builtins.globals()" => {
                self.cx.unreadable(
                    "the code looks up a function by a name computed at run time",
                    self.line(node),
                );
                Obj::Val(Val::Unknown)
            }
            (Obj::List(items), Some(Val::Known(k))) => match k.parse::<usize>() {
                Ok(n) => Obj::Val(items.get(n).cloned().unwrap_or(Val::Unknown)),
                Err(_) => Obj::Val(Val::Unknown),
            },
            // `python3 -c CODE a b`: `sys.argv` is `['-c', 'a', 'b']` (`'-'` for code
            // from standard input, the script's name for a file).
            (Obj::Ref(q), Some(Val::Known(k))) if q == "sys.argv" => {
                Obj::Val(match k.parse::<usize>() {
                    Ok(0) => match self.cx.origin() {
                        Origin::Inline => Val::known("-c"),
                        Origin::Stdin => Val::known("-"),
                        Origin::Elsewhere => Val::Unknown,
                    },
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

    /// A name looked up by its text (`globals()['os']`).
    fn name_text(&mut self, name: &str) -> Obj {
        match self.names.get(name).cloned() {
            Some(Slot::Ref(q)) => Obj::Ref(q),
            None if BUILTINS.contains(&name) => Obj::Ref(format!("builtins.{name}")),
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

/// Whether `outer` holds `inner`.
pub(super) fn contains(outer: Node<'_>, inner: Node<'_>) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// The installed Python code's directory, as the reader names it: where it is on this
/// machine is not known, and any such place runs what is written there.
pub(super) const SITE_PACKAGES: &str = "/usr/lib/python3/dist-packages";

/// The file of module `module`'s code (`requests.__file__`).
pub(super) fn installed(module: &str) -> String {
    format!("{SITE_PACKAGES}/{}/__init__.py", module.replace('.', "/"))
}

/// A `sysconfig` install path by its key.
pub(super) fn install_path(key: &str) -> Option<&'static str> {
    match key {
        "purelib" | "platlib" => Some(SITE_PACKAGES),
        "stdlib" | "platstdlib" => Some("/usr/lib/python3"),
        "scripts" => Some("/usr/bin"),
        _ => None,
    }
}

/// The indices `[start:stop:step]` takes of a sequence of `len` items, in order, as Python
/// takes them (negative bounds count from the end, a negative step walks back), when every
/// part is an integer or left out.
fn slice_indices(slice: &str, len: usize) -> Option<Vec<usize>> {
    let parts: Vec<&str> = slice.split(':').collect();
    let (start, stop, step) = match parts.as_slice() {
        [start, stop] => (*start, *stop, ""),
        [start, stop, step] => (*start, *stop, *step),
        _ => return None,
    };
    let number = |text: &str| -> Option<Option<i64>> {
        match text {
            "" => Some(None),
            t => t.parse().ok().map(Some),
        }
    };
    let n = i64::try_from(len).ok()?;
    let step = number(step)?.unwrap_or(1);
    let (start, stop) = (number(start)?, number(stop)?);
    // Python clamps a bound to [low, high] after counting a negative one from the end.
    let bound = |b: Option<i64>, default: i64, low: i64, high: i64| match b {
        None => default,
        Some(v) if v < 0 => v.saturating_add(n).max(low),
        Some(v) => v.min(high),
    };
    let mut taken = Vec::new();
    if step > 0 {
        let (mut k, stop) = (bound(start, 0, 0, n), bound(stop, n, 0, n));
        while k < stop {
            taken.push(usize::try_from(k).ok()?);
            k = k.saturating_add(step);
        }
    } else if step < 0 {
        let (mut k, stop) = (bound(start, n - 1, -1, n - 1), bound(stop, -1, -1, n - 1));
        while k > stop {
            taken.push(usize::try_from(k).ok()?);
            k = k.saturating_add(step);
        }
    } else {
        // A step of 0 is an error: the code stops there.
        return None;
    }
    Some(taken)
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
