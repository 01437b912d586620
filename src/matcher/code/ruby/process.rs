//! How a command is run: `system`'s rules for a shell line or a program and its arguments,
//! from the arguments of `system`, `exec`, `spawn`, `IO.popen` and `Open3`.

use super::kind;
use tree_sitter::Node;

use super::values::Args;
use super::{Obj, Rb};
use crate::matcher::code::{Effect, Val};

impl<'t> Rb<'_, '_, 't> {
    /// The arguments of a command: a leading environment hash and options skipped, `*list`
    /// spread; false when a spread list is not known (so neither is the count).
    pub(super) fn command_items(&mut self, args: &Args<'t>) -> (Vec<Obj>, bool) {
        let mut items = Vec::new();
        let mut exact = !(args.splat && args.pos.is_empty());
        for (n, node) in args.pos.iter().enumerate() {
            match kind(node) {
                "hash" | "hash_splat_argument" => {}
                // `env = {...}; IO.popen(env, [...])`: the leading environment by name.
                "identifier" if n == 0 && self.names_a_hash(*node) => {}
                // An item not known of a list (`[*ARGV]`, a growth past those read) stands
                // for any number of items, none too.
                "splat_argument" => match node.named_child(0).map(|n| self.eval(n, 0)) {
                    Some(Obj::List(vals)) => {
                        exact &= !vals.contains(&Val::Unknown);
                        items.extend(vals.into_iter().map(Obj::Val))
                    }
                    _ => exact = false,
                },
                // `IO.popen([env, 'ls', '-l', err: :out])`
                "array" => {
                    let mut c = node.walk();
                    let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
                    let parts = parts
                        .into_iter()
                        .filter(|p| !matches!(kind(p), "hash" | "pair"));
                    let list = parts.map(|p| self.eval(p, 0).val()).collect();
                    items.push(Obj::List(list));
                }
                _ => items.push(self.eval(*node, 0)),
            }
        }
        (items, exact)
    }

    /// Whether `node` is a name bound once to a hash literal.
    fn names_a_hash(&self, node: Node<'t>) -> bool {
        matches!(
            self.names.get(self.text(node)),
            Some(crate::matcher::code::scope::Slot::Expr(value)) if kind(*value) == "hash"
        )
    }

    /// `system`'s rules: one string is a shell line; several arguments (or an array as
    /// `[program, argv0]`) are a program and its arguments.
    pub(super) fn run(&mut self, (items, exact): (Vec<Obj>, bool), line: usize) {
        let mut argv: Vec<Val> = Vec::new();
        let single = items.len() == 1;
        for (n, item) in items.into_iter().enumerate() {
            match item {
                Obj::List(list) if n == 0 && single => argv.extend(list),
                Obj::List(list) if n == 0 => {
                    argv.push(list.into_iter().next().unwrap_or(Val::Unknown))
                }
                other => argv.push(other.val()),
            }
        }
        match (argv.len(), exact) {
            (0, _) => self.cx.found(Effect::Shell(Val::Unknown), line),
            (1, true) => {
                let cmd = argv.pop().unwrap_or(Val::Unknown);
                self.cx.found(Effect::Shell(cmd), line)
            }
            (_, exact) => {
                // Items not known may be none: `system(*["rm -rf ~", *ARGV])` is a shell
                // line when `ARGV` is empty.
                if let Some((first, rest)) = argv.split_first()
                    && !exact
                    && rest.iter().all(|v| *v == Val::Unknown)
                {
                    self.cx.found(Effect::Shell(first.clone()), line);
                }
                if !exact && argv.last() != Some(&Val::Unknown) {
                    argv.push(Val::Unknown);
                }
                self.cx.found(Effect::Exec(argv), line)
            }
        }
    }
}
