//! A call's effect: the callee resolved to a qualified name, looked up in the table of
//! [`sinks`](super::sinks), and its arguments turned into the effect's values.

use tree_sitter::Node;

use super::args::Args;
use super::sinks::{BY_NAME, canonical, sink};
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};
use crate::matcher::code::{Effect, Val};

/// Methods that only `pathlib` paths have among the objects code commonly handles: called on
/// an object the reader does not follow, it is a path not known (`for f in self.files:
/// f.write_text(x)`).
pub(super) const PATH_ONLY_METHODS: &[&str] = &[
    "write_text",
    "write_bytes",
    "read_text",
    "read_bytes",
    "unlink",
    "rmdir",
    "touch",
    "symlink_to",
    "hardlink_to",
    "lchmod",
    "rename",
    "chmod",
    "mkdir",
];

impl<'a, 't> Py<'a, '_, 't> {
    /// The effect of one call; once per item when its arguments name the variable of a
    /// loop over a literal list (`for d in ('build', 'dist'): shutil.rmtree(d)`).
    pub(super) fn call(&mut self, node: Node<'t>) {
        if let Some((name, arguments)) = self.loop_over_arguments(node) {
            for argument in arguments {
                self.arguments.push((name, argument));
                self.call_once(node);
                self.arguments.pop();
            }
            return;
        }
        let Some(rounds) = self.loop_over_literal(node) else {
            return self.call_once(node);
        };
        self.each_round(rounds, |py| py.call_once(node));
    }

    /// The value `f` evaluates, or [`Val::Fetched`] when a decoder made it: decoded bytes
    /// run as code or as a command are unreadable, whatever they say.
    pub(super) fn undecoded(&mut self, f: impl FnOnce(&mut Self) -> Val) -> Val {
        let before = std::mem::replace(&mut self.decoded, false);
        let value = f(self);
        match std::mem::replace(&mut self.decoded, before) {
            true if !matches!(value, Val::Unknown) => Val::Fetched,
            _ => value,
        }
    }

    fn call_once(&mut self, node: Node<'t>) {
        let outer = self.narrowed.len();
        let outer_call = self.cx.enter_call(node.byte_range());
        self.call_effect(node);
        self.cx.leave_call(outer_call);
        self.narrowed.truncate(outer);
    }

    /// Narrows the loop variables the `if`s around `call` test, for the arguments read next
    /// (`call_once` drops them after the call). Only a call with effects looks: tree-sitter
    /// finds a parent by walking down from the root, so every call looking would cost the
    /// square of the depth.
    fn enter_guards(&mut self, call: Node<'t>) {
        let guards = self.guards(call);
        self.narrowed.extend(guards);
    }

    /// Whether `node` is an assignment to a name bound once.
    pub(super) fn bound_once(&self, node: Node<'t>) -> bool {
        kind(node) == "assignment"
            && by_field(node, "left").is_some_and(|left| {
                kind(left) == "identifier"
                    && matches!(self.names.get(self.text(left)), Some(Slot::Expr(_)))
            })
    }

    /// Whether `call` is `functools.partial(f, ...)`.
    pub(super) fn is_partial(&mut self, call: Node<'t>) -> bool {
        kind(call) == "call"
            && by_field(call, "function").is_some_and(
                |f| matches!(self.eval(f, 0), Obj::Ref(q) if canonical(&q) == "functools.partial"),
            )
    }

    /// The arguments of `call`: for a name bound to `functools.partial(f, a, k=v)`, the
    /// partial's own (after `f`) first, the call's after them, its keywords over the
    /// partial's.
    fn arguments(&mut self, call: Node<'t>) -> Args<'t> {
        let args = Args::of(self, call);
        let partial = by_field(call, "function")
            .filter(|f| kind(*f) == "identifier")
            .and_then(|f| match self.names.get(self.text(f)) {
                Some(Slot::Expr(value)) => Some(*value),
                _ => None,
            })
            .filter(|value| self.is_partial(*value));
        match partial {
            Some(partial) => Args::of(self, partial).then(args),
            None => args,
        }
    }

    /// The file whose text `node` reads whole, when it is `open(PATH).read()` or
    /// `Path(PATH).read_text()` (or `read_bytes`) with a known path.
    /// The source `node` compiles, when it is `compile(SOURCE, name, mode)`; else `node`.
    pub(super) fn compiled(&mut self, node: Node<'t>) -> Node<'t> {
        let compiles = kind(node) == "call"
            && by_field(node, "function").is_some_and(
                |f| matches!(self.eval(f, 0), Obj::Ref(q) if canonical(&q) == "builtins.compile"),
            );
        match compiles {
            true => Args::of(self, node).node(0, "source").unwrap_or(node),
            false => node,
        }
    }

    fn call_effect(&mut self, node: Node<'t>) {
        let line = self.line(node);
        let Some(function) = by_field(node, "function") else {
            return;
        };
        // Libraries that fetch code from a model hub and run it when told to trust it
        // (`from_pretrained(name, trust_remote_code=True)`, `torch.hub.load(repo, m,
        // trust_repo=True)`), whatever the library.
        if trusts_remote_code(self.src.text, node) {
            self.cx.eval(Val::Fetched, line);
        }
        let callee = self.eval(function, 0);
        // Most calls (`print`, `json.load`) are not sinks: their arguments are not gathered.
        let name = match &callee {
            Obj::Ref(q) => canonical(q),
            Obj::PathMethod(..) => {
                self.enter_guards(node);
                // The path again, now that the `if`s around the call narrow the loop
                // variable it may be (`if p.suffix == '.md': p.read_text()`).
                if let Obj::PathMethod(path, method) = self.eval(function, 0) {
                    let args = self.arguments(node);
                    self.path_method(path, &method, &args, line);
                }
                return;
            }
            // A method only a path has, on an object not followed (a loop variable over
            // something not known, an attribute): a path not known, as `Path(?)` would be.
            Obj::Attr(attr) if PATH_ONLY_METHODS.contains(&attr.as_str()) => {
                self.enter_guards(node);
                let args = self.arguments(node);
                self.path_method(Val::Unknown, attr, &args, line);
                return;
            }
            // `x.replace(dst)`: a string's `replace` takes two arguments, a path's one (it
            // moves the file).
            Obj::Attr(attr) | Obj::StrMethod(_, attr)
                if attr == "replace" && Args::of(self, node).count() == 1 =>
            {
                let path = match &callee {
                    Obj::StrMethod(v, _) => v.clone(),
                    _ => Val::Unknown,
                };
                self.enter_guards(node);
                let args = self.arguments(node);
                self.path_method(path, "replace", &args, line);
                return;
            }
            // Only the name is known (`ctypes.CDLL(None).system`): the calls that run
            // commands are recognised by name alone.
            Obj::Attr(attr) if BY_NAME.contains(&attr.as_str()) => format!("?.{attr}"),
            Obj::Attr(attr) if attr == "connect" => "?.connect".to_owned(),
            _ => return,
        };
        if let Some(words) = gitpython(&name) {
            self.enter_guards(node);
            let args = self.arguments(node);
            let mut argv: Vec<Val> = words.into_iter().map(Val::Known).collect();
            argv.extend(args.positional_from(self, 0));
            argv.extend(args.as_options(self));
            self.cx.command("git", argv, line);
            return;
        }
        let Some(sink) = sink(&name) else { return };
        self.enter_guards(node);
        let args = self.arguments(node);
        if name == "?.connect" && !matches!(args.pos(self, 0), Obj::List(_)) {
            return;
        }
        // Once each way the conditionals in its arguments can go.
        let conditionals = self.conditionals(node);
        self.each_choice(&conditionals, |py| py.run_sink(sink, &args, node, line));
    }

    /// Whether the value of `call` is only looked at, never called nor handed on: it is
    /// assigned to names (alone or in a tuple) each of which is only compared, tested,
    /// formatted into a string or printed (`a = getattr(settings, k, None); if a != b:
    /// print(f'{k}: {a!r}')`).
    pub(super) fn only_looked_at(&mut self, call: Node<'t>) -> bool {
        /// Built-ins that read a value and call nothing of it.
        const READERS: &[&str] = &["print", "repr", "str", "len", "type", "isinstance", "bool"];
        /// Each check walks the whole module: past a few, such a lookup is a call again,
        /// so a module of thousands of them is not read in the square of its size.
        const MOST_CHECKS: usize = 16;
        if self.looked_at_checks >= MOST_CHECKS {
            return false;
        }
        self.looked_at_checks += 1;
        let Some(mut parent) = call.parent() else {
            return false;
        };
        let mut at = call;
        if kind(parent) == "expression_list" {
            (at, parent) = (parent, parent.parent().unwrap_or(parent));
        }
        if kind(parent) != "assignment" || by_field(parent, "right") != Some(at) {
            return false;
        }
        let Some(left) = by_field(parent, "left") else {
            return false;
        };
        let names: Vec<&str> = match kind(left) {
            "identifier" => vec![self.text(left)],
            "pattern_list" | "tuple_pattern" => {
                let mut c = left.walk();
                left.named_children(&mut c).map(|n| self.text(n)).collect()
            }
            _ => return false,
        };
        let mut root = parent;
        while let Some(p) = root.parent() {
            root = p;
        }
        let mut looked_at = true;
        let mut ancestors: Vec<Node<'t>> = Vec::new();
        visit(root, |node, depth, at| {
            if at == Visit::Leave || !looked_at {
                return false;
            }
            ancestors.truncate(depth);
            ancestors.push(node);
            if kind(node) != "identifier" || !names.contains(&self.text(node)) {
                return true;
            }
            let parent = depth.checked_sub(1).and_then(|d| ancestors.get(d)).copied();
            looked_at = parent.is_some_and(|p| match kind(p) {
                "comparison_operator"
                | "boolean_operator"
                | "not_operator"
                | "interpolation"
                | "pattern_list" => true,
                "assignment" => by_field(p, "left") == Some(node),
                "argument_list" => depth
                    .checked_sub(2)
                    .and_then(|d| ancestors.get(d))
                    .is_some_and(|c| {
                        by_field(*c, "function").is_some_and(|f| {
                            READERS.contains(&self.text(f))
                                && self.names.get(self.text(f)).is_none()
                        })
                    }),
                _ => false,
            });
            true
        });
        looked_at
    }

    /// A name lookup of `host`: the name goes to the resolver.
    pub(super) fn lookup(&mut self, host: Val, line: usize) {
        self.cx
            .command("curl", vec![Val::known("dns://").concat(host)], line);
    }

    /// `subprocess.run(args, shell=...)`: a list is an argument vector (with `shell=True`
    /// its first item is the script); a string is a program, or the script with `shell`.
    pub(super) fn process(&mut self, args: &Args<'t>, line: usize) {
        let shell = match args.keyword(self, "shell").map(Obj::val) {
            None => false,
            Some(Val::Known(s)) => !matches!(s.as_str(), "False" | "0" | "None" | ""),
            Some(_) => true,
        };
        // `executable=` is the program run; the list's first item is only the name it is
        // shown as (`subprocess.run(['ls', 'approve'], executable='hookgate')`).
        let executable = args
            .keyword(self, "executable")
            .map(Obj::val)
            .filter(|e| e.text() != Some("None"));
        let effect = match (args.pos_or_kw(self, 0, "args"), shell) {
            (Obj::List(mut argv), false) => {
                if let (Some(program), Some(first)) = (executable, argv.first_mut()) {
                    *first = program;
                }
                Effect::Exec(argv)
            }
            (Obj::List(argv), true) => {
                Effect::Shell(argv.into_iter().next().unwrap_or(Val::Unknown))
            }
            (Obj::Val(Val::Known(program)), false) => Effect::Exec(vec![Val::Known(program)]),
            (other, _) => Effect::Shell(other.val()),
        };
        self.cx.found(effect, line);
    }

    /// Runs `program` with `argv`.
    pub(super) fn exec(&mut self, program: Val, argv: Vec<Val>, line: usize) {
        let mut run = vec![program];
        run.extend(argv);
        self.cx.found(Effect::Exec(run), line);
    }
}

/// Whether a call passes `trust_remote_code` or `trust_repo` other than `False`/`None`.
fn trusts_remote_code(src: &str, call: Node<'_>) -> bool {
    let Some(arguments) = by_field(call, "arguments") else {
        return false;
    };
    let mut cursor = arguments.walk();
    arguments.named_children(&mut cursor).any(|arg| {
        let text = |field| by_field(arg, field).and_then(|n| src.get(n.byte_range()));
        arg.kind() == "keyword_argument"
            && matches!(text("name"), Some("trust_remote_code" | "trust_repo"))
            && !matches!(text("value"), Some("False" | "None" | "0"))
    })
}

/// GitPython's calls that run git, as git's words before the call's own arguments:
/// `repo.git.reset("--hard")` runs `git reset --hard` (a method's `_` is git's `-`),
/// `repo.remote("origin").push(force=True)` `git push --force`,
/// `repo.create_remote(name, url)` `git remote add name url`.
fn gitpython(q: &str) -> Option<Vec<String>> {
    for prefix in ["git.Repo.git.", "git.Git.", "git.cmd.Git."] {
        if let Some(command) = q.strip_prefix(prefix)
            && !command.contains('.')
            && !matches!(
                command,
                "execute" | "clear_cache" | "version_info" | "refresh"
            )
        {
            return Some(vec![command.replace('_', "-")]);
        }
    }
    let words: &[&str] = match q {
        "git.Remote.push" => &["push"],
        "git.Remote.fetch" => &["fetch"],
        "git.Repo.create_remote" | "git.Remote.create" => &["remote", "add"],
        "git.Repo.delete_remote" | "git.Remote.remove" => &["remote", "remove"],
        "git.Repo.clone_from" => &["clone"],
        "git.Repo.head.reset" | "git.HEAD.reset" => &["reset", "--hard"],
        _ => return None,
    };
    Some(words.iter().map(|w| (*w).to_owned()).collect())
}
