//! Functions with effects used as values: passed, stored or returned where the reader does
//! not follow, or handed to a library that calls them with arguments it knows.

use tree_sitter::Node;

use super::args::Args;
use super::sinks::{Sink, canonical, sink};
use super::{Obj, Py, by_field, kind};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::{Effect, Val};

impl<'a, 't> Py<'a, '_, 't> {
    /// A name or an attribute used as a value: a function with effects passed, stored or
    /// returned is called where the reader does not follow, with arguments it does not
    /// know (`list(map(os.system, cmds))`, `{'x': os.system}['x'](c)`).
    pub(super) fn passed(&mut self, node: Node<'t>) {
        if kind(node) == "identifier" {
            let may_be_function = match self.names.get(self.text(node)).cloned() {
                // An item of a tuple may be a function (`f, g = os.remove, print`).
                Some(Slot::Ref(_) | Slot::Item(..)) | None => true,
                Some(Slot::Expr(value) | Slot::Grown(value, _)) => {
                    matches!(kind(value), "attribute" | "identifier") || self.is_partial(value)
                }
                Some(Slot::Each(_) | Slot::Loops(_) | Slot::Part(..) | Slot::Many) => false,
            };
            if !may_be_function {
                return;
            }
        }
        let Obj::Ref(q) = self.eval(node, 0) else {
            return;
        };
        if sink(&canonical(&q)).is_none() {
            return;
        }
        if let Some(parent) = node.parent() {
            // A keyword's name (`f(system=1)`) and an assignment's target are not values.
            if matches!(kind(parent), "keyword_argument" | "assignment")
                && [by_field(parent, "name"), by_field(parent, "left")].contains(&Some(node))
            {
                return;
            }
            // `run = os.system`: a name bound once is followed where it is called; so is
            // `wipe = functools.partial(shutil.rmtree, ...)`.
            if self.bound_once(parent) {
                return;
            }
            if kind(parent) == "argument_list"
                && let Some(call) = parent.parent()
                && self.is_partial(call)
                && Args::of(self, call).first_is(node)
                && call.parent().is_some_and(|a| self.bound_once(a))
            {
                return;
            }
        }
        if self.called_by_library(node, &q) {
            return;
        }
        self.cx.unreadable(
            "the code passes a function that runs commands or changes files as a value, to be called where it cannot be followed",
            self.line(node),
        );
    }

    /// A function with effects (`q`, passed as `node`) given to a library that calls it with
    /// arguments the reader knows, read as that call: `map(os.remove, glob.glob(p))` on
    /// each item (as `filter`), `stack.callback(os.remove, path)`, `atexit.register(f, *args)` and
    /// `weakref.finalize(obj, f, *args)` with the arguments after it. Whether it was.
    fn called_by_library(&mut self, node: Node<'t>, q: &str) -> bool {
        let Some(sink) = sink(&canonical(q)) else {
            return false;
        };
        // A partial function holds arguments of its own, which the library's call does not
        // show.
        if kind(node) == "identifier"
            && let Some(Slot::Expr(value)) = self.names.get(self.text(node)).cloned()
            && self.is_partial(value)
        {
            return false;
        }
        // `threading.Thread(target=f, args=(...), kwargs={...})`: `f` with those.
        if let Some(keyword) = node.parent().filter(|p| kind(*p) == "keyword_argument")
            && by_field(keyword, "name").is_some_and(|n| self.text(n) == "target")
            && let Some(call) = keyword
                .parent()
                .filter(|p| kind(*p) == "argument_list")
                .and_then(|p| p.parent())
            && let Some(function) = by_field(call, "function")
            && let Obj::Ref(class) = self.eval(function, 0)
            && matches!(
                canonical(&class).as_str(),
                "threading.Thread" | "multiprocessing.Process"
            )
        {
            let given = Args::of(self, call);
            let Some(args) = Args::literal(
                self,
                given.node(usize::MAX, "args"),
                given.node(usize::MAX, "kwargs"),
            ) else {
                return false;
            };
            let line = self.line(call);
            // Made in a loop over a literal list, once per item (`[Thread(target=f,
            // args=(d,)) for d in ('build', 'dist')]`).
            match self.loop_over_literal(call) {
                Some(rounds) => self.each_round(rounds, |py| py.run_sink(sink, &args, call, line)),
                None => self.run_sink(sink, &args, call, line),
            }
            return true;
        }
        let Some(call) = node
            .parent()
            .filter(|p| kind(*p) == "argument_list")
            .and_then(|p| p.parent())
        else {
            return false;
        };
        let Some(function) = by_field(call, "function") else {
            return false;
        };
        let library = match self.eval(function, 0) {
            Obj::Ref(c) => canonical(&c),
            Obj::Attr(a) => format!("?.{a}"),
            _ => return false,
        };
        let args = Args::of(self, call);
        let line = self.line(call);
        let at = match library.as_str() {
            "builtins.map" | "builtins.filter" => 0,
            "?.callback" | "atexit.register" => 0,
            "weakref.finalize" => 1,
            _ => return false,
        };
        if !args.is_positional(at, node) {
            return false;
        }
        // `map` and `filter` call the function on each item.
        if !matches!(library.as_str(), "builtins.map" | "builtins.filter") {
            self.run_sink(sink, &args.after(at + 1), call, line);
            return true;
        }
        let items = match args.pos(self, 1) {
            Obj::Each(element) => vec![element.val()],
            Obj::List(items) => items,
            other => vec![other.val()],
        };
        match sink {
            Sink::Command(program, flags, [0]) => {
                for item in items {
                    let mut argv: Vec<Val> = flags.iter().map(|f| Val::known(*f)).collect();
                    argv.push(item);
                    self.cx.command(program, argv, line);
                }
            }
            Sink::Shell => {
                for item in items {
                    self.cx.found(Effect::Shell(item), line);
                }
            }
            _ => return false,
        }
        true
    }
}
