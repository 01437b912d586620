//! The names the module binds (see [`Names`](crate::matcher::code::scope::Names)):
//! imports, assignments, loop variables, definitions; and what makes a name not known.

use tree_sitter::Node;

use super::{MOST_LAMBDAS, Py, by_field, dict_view, fields, kind};
use crate::matcher::code::scope::Slot;

impl<'a, 'c, 't> Py<'a, 'c, 't> {
    /// Gathers the names `node` binds (see [`Names`](crate::matcher::code::scope::Names)).
    pub(super) fn bind(&mut self, node: Node<'t>) {
        match kind(node) {
            "import_statement" => {
                for name in fields(node, "name") {
                    match kind(name) {
                        "aliased_import" => {
                            if let (Some(n), Some(a)) =
                                (by_field(name, "name"), by_field(name, "alias"))
                            {
                                self.names
                                    .bind(self.text(a), Slot::Ref(self.text(n).into()));
                            }
                        }
                        _ => {
                            let full = self.text(name);
                            let first = full.split('.').next().unwrap_or(full);
                            self.names.bind(first, Slot::Ref(first.into()));
                        }
                    }
                }
            }
            "import_from_statement" => {
                let module = by_field(node, "module_name")
                    .map(|m| self.text(m))
                    .unwrap_or_default();
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    if kind(child) == "wildcard_import" {
                        self.names.star.push(module.to_owned());
                    }
                }
                for name in fields(node, "name") {
                    let (n, alias) = match kind(name) {
                        "aliased_import" => (by_field(name, "name"), by_field(name, "alias")),
                        _ => (Some(name), Some(name)),
                    };
                    if let (Some(n), Some(a)) = (n, alias) {
                        let q = format!("{module}.{}", self.text(n));
                        self.names.bind(self.text(a), Slot::Ref(q));
                    }
                }
            }
            "assignment" => self.bind_assignment(node),
            "named_expression" => {
                if let (Some(n), Some(v)) = (by_field(node, "name"), by_field(node, "value")) {
                    self.names.bind(self.text(n), Slot::Expr(v));
                }
            }
            "call" => {
                if let Some(name) = self.growth_of(node)
                    && matches!(self.names.get(name), Some(Slot::Expr(_) | Slot::Grown(..)))
                {
                    self.names.grow(name, node);
                    self.has_conditionals = true;
                }
            }
            "augmented_assignment" => match by_field(node, "left") {
                // A list grown (see `growths`); for any other value, `+=` makes the name
                // not known, as a binding would.
                Some(left)
                    if kind(left) == "identifier"
                        && by_field(node, "operator").is_some_and(|o| self.text(o) == "+=") =>
                {
                    self.names.grow(self.text(left), node);
                }
                left => self.forget_in(left),
            },
            "for_statement" | "for_in_clause" => {
                match (by_field(node, "left"), by_field(node, "right")) {
                    (Some(left), Some(right)) if kind(left) == "identifier" => {
                        self.names.bind_loop(self.text(left), right);
                        self.over_literals |= matches!(
                            kind(right),
                            "list"
                                | "tuple"
                                | "set"
                                | "binary_operator"
                                | "dictionary"
                                | "identifier"
                                | "attribute"
                        ) || dict_view(self, right) == Some("keys");
                        if kind(node) == "for_in_clause"
                            && let Some(narrow) = self.narrow(node, self.text(left))
                        {
                            self.narrowed.push((self.text(left), narrow));
                        }
                    }
                    (Some(left), Some(right))
                        if matches!(kind(left), "pattern_list" | "tuple_pattern")
                            && self.unpacks_names(left) =>
                    {
                        let mut c = left.walk();
                        let parts: Vec<Node<'t>> = left.named_children(&mut c).collect();
                        // `for path, text in files.items()`: the first name takes each key,
                        // as a loop over the keys would.
                        let items = dict_view(self, right) == Some("items");
                        self.over_literals |=
                            items || matches!(kind(right), "list" | "tuple" | "set");
                        for (k, part) in parts.into_iter().enumerate() {
                            match k {
                                0 if items => self.names.bind_loop(self.text(part), right),
                                _ => self.names.bind(self.text(part), Slot::Part(right, k)),
                            }
                        }
                    }
                    (left, _) => self.forget_in(left),
                }
            }
            "function_definition" | "class_definition" => {
                self.forget_in(by_field(node, "name"));
                self.forget_in(by_field(node, "parameters"));
            }
            // A lambda's parameters are its own: not known inside it (see `Py::lambdas`),
            // and the names as they are outside it. Past a bound, forgotten everywhere.
            "lambda" => match by_field(node, "parameters") {
                Some(params) if self.lambdas.len() < MOST_LAMBDAS => {
                    let mut names = Vec::new();
                    let mut c = params.walk();
                    for p in params.named_children(&mut c) {
                        let name = match kind(p) {
                            "identifier" => Some(p),
                            _ => by_field(p, "name").or_else(|| p.named_child(0)),
                        };
                        match name.filter(|n| kind(*n) == "identifier") {
                            Some(n) => names.push(self.text(n)),
                            None => self.forget_in(Some(p)),
                        }
                    }
                    self.lambdas.push((node, names));
                }
                params => self.forget_in(params),
            },
            // `with tarfile.open(p) as t:` binds `t` to what the expression is.
            "as_pattern"
                if node.parent().is_some_and(|p| kind(p) == "with_item")
                    && let (Some(value), Some(alias)) =
                        (node.named_child(0), by_field(node, "alias"))
                    && let Some(name) = alias.named_child(0)
                    && alias.named_child_count() == 1
                    && kind(name) == "identifier" =>
            {
                // An archive opened in several `with`s under one name (`t`) is an archive
                // in each: bound to its kind, the name stays known.
                let slot = match self.archive_opened(value) {
                    Some(kind) => Slot::Ref(kind.to_owned()),
                    None => Slot::Expr(value),
                };
                self.names.bind(self.text(name), slot);
            }
            "as_pattern" | "with_item" | "except_clause" => {
                let mut c = node.walk();
                for child in node.named_children(&mut c) {
                    if kind(child) == "as_pattern_target" {
                        self.forget_in(Some(child));
                    }
                }
                self.forget_in(by_field(node, "alias"));
            }
            "global_statement" | "nonlocal_statement" | "delete_statement" => {
                self.forget_in(Some(node))
            }
            _ => {}
        }
    }

    /// Whether every target of `for a, b in ...` is a plain name.
    fn unpacks_names(&self, left: Node<'t>) -> bool {
        let mut c = left.walk();
        left.named_children(&mut c)
            .all(|part| kind(part) == "identifier")
    }

    fn bind_assignment(&mut self, node: Node<'t>) {
        let (Some(left), Some(right)) = (by_field(node, "left"), by_field(node, "right")) else {
            self.forget_in(by_field(node, "left"));
            return;
        };
        // `a = b = value`: the inner assignment is bound when the walk reaches it.
        let value = if kind(right) == "assignment" {
            by_field(right, "right").unwrap_or(right)
        } else {
            right
        };
        if kind(left) == "identifier" {
            self.names.bind(self.text(left), Slot::Expr(value));
        } else if matches!(kind(left), "pattern_list" | "tuple_pattern") && self.unpacks_names(left)
        {
            // `fd, path = tempfile.mkstemp(dir='build')`: each name one item of the value.
            let mut c = left.walk();
            let parts: Vec<Node<'t>> = left.named_children(&mut c).collect();
            for (k, part) in parts.into_iter().enumerate() {
                self.names.bind(self.text(part), Slot::Item(value, k));
            }
        } else if let Some(key) = self.environ_key(left) {
            self.environ
                .entry(key)
                .and_modify(|v| *v = None)
                .or_insert(Some((node, value)));
        } else {
            self.forget_in(Some(left));
        }
    }

    /// The list `NAME` that the call `node` grows, when it is `NAME.append(x)` or
    /// `NAME.extend(xs)` as a statement of its own (see `growths`).
    pub(super) fn growth_of(&self, node: Node<'t>) -> Option<&'a str> {
        let function = by_field(node, "function").filter(|f| kind(*f) == "attribute")?;
        let method = by_field(function, "attribute")?;
        let object = by_field(function, "object").filter(|o| kind(*o) == "identifier")?;
        let statement = node
            .parent()
            .is_some_and(|p| kind(p) == "expression_statement");
        (matches!(self.text(method), "append" | "extend") && statement).then(|| self.text(object))
    }

    /// `K` of `os.environ['K']` (or `environ['K']`), a plain string.
    fn environ_key(&self, left: Node<'t>) -> Option<&'a str> {
        if kind(left) != "subscript"
            || !matches!(
                by_field(left, "value").map(|v| self.text(v)),
                Some("os.environ" | "environ")
            )
        {
            return None;
        }
        let key = by_field(left, "subscript").filter(|k| kind(*k) == "string")?;
        let text = self.text(key);
        let quote = text.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
        text.strip_prefix(quote)?
            .strip_suffix(quote)
            .filter(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    }

    /// Every name `node` binds becomes not known: of an item or attribute assigned
    /// (`results[ver] = x`, `self.cmd = x`), the name of what holds it, not the index's
    /// names (only read) nor the attribute's (no variable).
    fn forget_in(&mut self, node: Option<Node<'_>>) {
        let Some(node) = node else { return };
        match kind(node) {
            "identifier" => {
                let name = self.text(node);
                self.names.forget(name);
                return;
            }
            "subscript" => return self.forget_in(by_field(node, "value")),
            "attribute" => return self.forget_in(by_field(node, "object")),
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            if matches!(
                kind(child),
                "identifier"
                    | "pattern_list"
                    | "tuple_pattern"
                    | "list_pattern"
                    | "parameters"
                    | "typed_parameter"
                    | "default_parameter"
                    | "typed_default_parameter"
                    | "list_splat_pattern"
                    | "dictionary_splat_pattern"
                    | "as_pattern_target"
                    | "tuple"
                    | "list"
                    | "pattern"
                    | "expression_list"
            ) {
                self.forget_in(Some(child));
            }
        }
    }
}

impl<'t> Py<'_, '_, 't> {
    /// The kind of archive `value` opens, when it is a call of an archive's constructor
    /// named through an import (`tarfile.open(...)`, `zipfile.ZipFile(...)`, or `ZipFile`
    /// imported from `zipfile`).
    fn archive_opened(&self, value: Node<'t>) -> Option<&'static str> {
        let function = by_field(value, "function").filter(|_| kind(value) == "call")?;
        let qualified = match kind(function) {
            "identifier" => match self.names.get(self.text(function)) {
                Some(Slot::Ref(q)) => q.clone(),
                _ => return None,
            },
            "attribute" => {
                let object = by_field(function, "object").filter(|o| kind(*o) == "identifier")?;
                let attribute = by_field(function, "attribute")?;
                match self.names.get(self.text(object)) {
                    Some(Slot::Ref(q)) => format!("{q}.{}", self.text(attribute)),
                    _ => return None,
                }
            }
            _ => return None,
        };
        super::computed::archive(&super::sinks::canonical(&qualified))
    }
}
