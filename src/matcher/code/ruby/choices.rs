//! A list grown by statements that may or may not have run (`args << "--ci" if ENV["CI"]`,
//! see [`growths`](crate::matcher::code::growths)): a call is read once with each set of
//! them, where the list would otherwise not be known.

use tree_sitter::Node;

use super::values::Args;
use super::{Obj, Rb, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::growths::{Choosing, Chosen, RUBY, Seen, each_way, with_growths};
use crate::matcher::code::scope::{Cx, Slot};

impl<'t> Rb<'_, '_, 't> {
    /// The growths that may have run of the lists `node` (a call, a backtick) names, or
    /// what the names there are bound to, a few assignments deep; none when there are
    /// more than [`MOST_CHOICES`](crate::matcher::code::growths::MOST_CHOICES).
    pub(super) fn growth_choices(&self, node: Node<'t>) -> Vec<Node<'t>> {
        if !self.grows {
            return Vec::new();
        }
        let seen = |n: Node<'t>| match kind(n) {
            "identifier" | "instance_variable" => match self.names.get(&self.key(n)) {
                Some(Slot::Expr(value)) => Seen::Bound(*value),
                Some(Slot::Grown(value, growths)) => Seen::Grown(*value, growths),
                _ => Seen::Nothing,
            },
            _ => Seen::Nothing,
        };
        let search = match kind(node) {
            "call" => [by_field(node, "arguments"), by_field(node, "receiver")]
                .into_iter()
                .flatten()
                .collect(),
            _ => vec![node],
        };
        RUBY.search_choices(search, seen, Some).unwrap_or_default()
    }

    /// Runs `f` once per set of `choices` that may have run; the values of names are
    /// computed afresh each way (one may be built from a grown list).
    pub(super) fn each_choice(&mut self, choices: &[Node<'t>], mut f: impl FnMut(&mut Self)) {
        if choices.is_empty() {
            return f(self);
        }
        each_way(self, choices, |rb| {
            rb.values.clear();
            f(rb)
        });
        self.values.clear();
    }

    /// The list bound to `value` and grown by `growths`, as `read` reads it: with the
    /// growths that have run and those chosen to. One that may have run but is not chosen
    /// (past [`MOST_CHOICES`](crate::matcher::code::growths::MOST_CHOICES)) adds an item not known, which stands for any number of
    /// them, as `*ARGV` does.
    pub(super) fn grown(
        &mut self,
        name: &str,
        read: Node<'t>,
        (value, growths): (Node<'t>, &[Node<'t>]),
        depth: usize,
    ) -> Obj {
        let unknown = Obj::Val(Val::Unknown);
        if self.untrusted || self.patched || self.always_loops {
            return unknown;
        }
        let Some(applied) = RUBY.applied(&self.chosen, (value, growths), read) else {
            return unknown;
        };
        if !self.names.enter(name) {
            return unknown;
        }
        let out = match self.eval(value, depth + 1) {
            Obj::List(items) => with_growths(items, applied, |g| self.added(g, depth + 1)),
            _ => None,
        };
        self.names.leave();
        out.map_or(unknown, Obj::List)
    }

    /// The items a growth adds: each operand of `args << a << b` and each argument of
    /// `push`/`append`; the items of `args += list` and of each argument of `concat` (an
    /// item not known where that list is not known). `None` where it is not read.
    fn added(&mut self, growth: Node<'t>, depth: usize) -> Option<Vec<Val>> {
        let mut items = Vec::new();
        match kind(growth) {
            "binary" => {
                let mut operands = Vec::new();
                let mut at = growth;
                while kind(at) == "binary" {
                    operands.extend(by_field(at, "right"));
                    at = by_field(at, "left")?;
                }
                for operand in operands.into_iter().rev() {
                    items.push(self.eval(operand, depth).val());
                }
            }
            "operator_assignment" => match self.eval(by_field(growth, "right")?, depth) {
                Obj::List(more) => items = more,
                _ => items.push(Val::Unknown),
            },
            _ => {
                let whole = by_field(growth, "method").is_some_and(|m| self.text(m) == "concat");
                let args = Args::of(growth);
                if args.block.is_some() {
                    return None;
                }
                for arg in &args.pos {
                    let spread = kind(*arg) == "splat_argument";
                    match self.eval(*arg, depth) {
                        Obj::List(more) if whole || spread => items.extend(more),
                        _ if whole || spread => items.push(Val::Unknown),
                        other => items.push(other.val()),
                    }
                }
            }
        }
        Some(items)
    }
}

impl Choosing for Rb<'_, '_, '_> {
    fn chosen_and_cx(&mut self) -> (&mut Chosen, &mut Cx) {
        (&mut self.chosen, self.cx)
    }
}
