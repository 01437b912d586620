//! A list bound once and then grown (Python's `argv = ['pytest']`, `if ci: argv +=
//! ['--ci']`, `subprocess.run(argv)`; JavaScript's `args.push(x)`), read as the list with
//! the growths that ran before the read. Which ran is told only where the code's shape
//! bounds it:
//! - the binding and every growth are statements of one function (or program, or round of
//!   one loop), none in a loop or function of its own, so that after each binding each
//!   growth runs once at most, in the order written;
//! - every growth comes after the binding and before the read, which is in that same
//!   function or round (not in a function of its own).
//!
//! The list read is then the bound one with some of the growths, in order. A growth that is
//! itself a statement of the binding's own block, before the statement the read is in, has
//! run; each other is a choice the call is read both ways for. A union of the growths
//! would not do: `git clean -fd` with `-n` added in one branch is not `git clean -fd -n`
//! where the branch did not run.

use tree_sitter::Node;

use super::Lang;
use super::scope::Cx;
use super::tree::kind;

/// The node kinds of a language's grammar that tell where a growth may run.
pub(super) struct Shape {
    lang: Lang,
    /// Nodes whose body runs at another time than where it is written (functions, the
    /// program itself).
    deferred: &'static [&'static str],
    /// Nodes whose body runs more than once for one run of what is around them. With the
    /// deferred ones, the regions a growth must share with the binding.
    loops: &'static [&'static str],
    /// Nodes whose children are statements run in order.
    blocks: &'static [&'static str],
}

pub(super) const PYTHON: Shape = Shape {
    lang: Lang::Python,
    deferred: &[
        "module",
        "function_definition",
        "lambda",
        "class_definition",
    ],
    loops: &[
        "for_statement",
        "while_statement",
        "list_comprehension",
        "set_comprehension",
        "dictionary_comprehension",
        "generator_expression",
    ],
    blocks: &["block", "module"],
};

pub(super) const JAVASCRIPT: Shape = Shape {
    lang: Lang::JavaScript,
    deferred: &[
        "program",
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "generator_function",
        "arrow_function",
        "method_definition",
        "class_body",
    ],
    loops: &[
        "for_statement",
        "for_in_statement",
        "while_statement",
        "do_statement",
    ],
    blocks: &["statement_block", "program"],
};

/// Levels climbed from a node to its region (tree-sitter finds a parent by walking down
/// from the root, so each climb is bounded); past them, nothing is told.
const MOST_LEVELS: usize = 48;

/// Whether a growth ran before a read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Ran {
    /// It ran: it is a statement of the binding's block, before the read's.
    Always,
    /// It may or may not have: a choice.
    Maybe,
}

/// `node`'s ancestors, innermost first, up to and including the first that `stop` takes.
fn ancestors<'t>(node: Node<'t>, stop: impl Fn(Node<'t>) -> bool) -> Option<Vec<Node<'t>>> {
    let mut out = Vec::new();
    let mut at = node;
    for _ in 0..MOST_LEVELS {
        let parent = at.parent()?;
        out.push(parent);
        if stop(parent) {
            return Some(out);
        }
        at = parent;
    }
    None
}

impl Shape {
    /// The block a statement holding `node` is directly in, and that statement, from
    /// `node`'s ancestors.
    fn statement_in_block<'t>(
        &self,
        node: Node<'t>,
        up: &[Node<'t>],
    ) -> Option<(Node<'t>, Node<'t>)> {
        let k = up
            .iter()
            .position(|a| self.blocks.contains(&kind(self.lang, *a)))?;
        let statement = if k == 0 { node } else { up[k - 1] };
        Some((up[k], statement))
    }

    /// How each of `growths` (statements that add to the list) ran before `read`, a read
    /// of the list bound to `value`; `None` where the code's shape does not tell.
    pub(super) fn growths_ran<'t>(
        &self,
        value: Node<'t>,
        growths: &[Node<'t>],
        read: Node<'t>,
    ) -> Option<Vec<Ran>> {
        let is_region = |n: Node<'t>| {
            let k = kind(self.lang, n);
            self.loops.contains(&k) || self.deferred.contains(&k)
        };
        let bound = ancestors(value, is_region)?;
        let region = *bound.last()?;
        let (block, _) = self.statement_in_block(value, &bound)?;
        // The read is in the region, not in a function of its own inside it.
        let reading = ancestors(read, |n| {
            n == region || self.deferred.contains(&kind(self.lang, n))
        })?;
        if reading.last() != Some(&region) {
            return None;
        }
        let read_statement = reading
            .iter()
            .position(|a| *a == block)
            .map(|k| if k == 0 { read } else { reading[k - 1] });
        let mut ran = Vec::with_capacity(growths.len());
        for &growth in growths {
            let up = ancestors(growth, is_region)?;
            if up.last() != Some(&region)
                || growth.start_byte() < value.end_byte()
                || growth.end_byte() > read.start_byte()
            {
                return None;
            }
            let (growth_block, statement) = self.statement_in_block(growth, &up)?;
            let before_read =
                read_statement.is_some_and(|r| r.start_byte() >= statement.end_byte());
            // The growth is the statement, not in one (an `if` on one line).
            let alone = growth.parent() == Some(statement);
            ran.push(if growth_block == block && alone && before_read {
                Ran::Always
            } else {
                Ran::Maybe
            });
        }
        Some(ran)
    }
}

/// Appends `more` to `items`, an item not known right after another read as one (each
/// may stand for any number of items).
pub(super) fn extend_merging<T>(items: &mut Vec<T>, more: Vec<T>, unknown: impl Fn(&T) -> bool) {
    for item in more {
        if !(unknown(&item) && items.last().is_some_and(&unknown)) {
            items.push(item);
        }
    }
}

impl Shape {
    /// For `read`, a read of the list bound to `value` and grown by `growths`: the growths
    /// that may have run, added to `choices` (once each), and what the binding and each
    /// growth add (`added` of it), to `follow` (searched for more choices).
    pub(super) fn choices_of<'t>(
        &self,
        (value, growths, read): (Node<'t>, &[Node<'t>], Node<'t>),
        choices: &mut Vec<Node<'t>>,
        follow: &mut Vec<Node<'t>>,
        added: impl Fn(Node<'t>) -> Option<Node<'t>>,
    ) {
        follow.push(value);
        let ran = self.growths_ran(value, growths, read).unwrap_or_default();
        for (&growth, ran) in growths.iter().zip(ran) {
            if ran == Ran::Maybe && !choices.contains(&growth) {
                choices.push(growth);
            }
            follow.extend(added(growth));
        }
    }
}

/// The choices being read one way, by node id: `true` for a growth that ran (or the first
/// side of a conditional).
#[derive(Default)]
pub(super) struct Chosen(Vec<(usize, bool)>);

impl Chosen {
    /// The way `node` is read, when it is one of the choices being read.
    pub(super) fn way(&self, node: Node<'_>) -> Option<bool> {
        let &(_, way) = self.0.iter().rev().find(|(id, _)| *id == node.id())?;
        Some(way)
    }

    /// The growths of a read (`ran`, see [`Shape::growths_ran`]) that add to the list, in
    /// order: `Some` for one that ran or is chosen to, `None` for one that may have run and
    /// is not chosen (past the choices a call is read with).
    pub(super) fn applied<'t>(&self, growths: &[Node<'t>], ran: Vec<Ran>) -> Vec<Option<Node<'t>>> {
        let mut applied = Vec::new();
        for (&growth, ran) in growths.iter().zip(ran) {
            match (ran, self.way(growth)) {
                (Ran::Always, _) | (Ran::Maybe, Some(true)) => applied.push(Some(growth)),
                (Ran::Maybe, Some(false)) => {}
                (Ran::Maybe, None) => applied.push(None),
            }
        }
        applied
    }
}

/// A reader that reads a call once per way its choices go.
pub(super) trait Choosing {
    fn chosen_and_cx(&mut self) -> (&mut Chosen, &mut Cx);
}

/// Runs `f` on `reader` once per way `choices` can go (all `2^n`), each read as chosen; an
/// effect every way finds alike is kept once.
pub(super) fn each_way<R: Choosing>(
    reader: &mut R,
    choices: &[Node<'_>],
    mut f: impl FnMut(&mut R),
) {
    if choices.is_empty() {
        return f(reader);
    }
    let (chosen, cx) = reader.chosen_and_cx();
    let (outer, mark) = (chosen.0.len(), cx.found_so_far());
    for ways in 0..1usize << choices.len() {
        let way = |(k, c): (usize, &Node<'_>)| (c.id(), ways & (1 << k) == 0);
        let (chosen, _) = reader.chosen_and_cx();
        chosen.0.extend(choices.iter().enumerate().map(way));
        f(reader);
        let (chosen, cx) = reader.chosen_and_cx();
        chosen.0.truncate(outer);
        cx.drop_repeats(mark);
    }
}
