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
use super::scope::Val;
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
    /// Statements that are one expression and nothing more (Python's and JavaScript's
    /// `expression_statement`); in Ruby and Lua a growth is itself the statement.
    wrappers: &'static [&'static str],
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
    wrappers: &["expression_statement"],
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
    wrappers: &["expression_statement"],
};

/// Blocks (`each { }`, `do ... end`) are loops: what calls them may run them any number
/// of times. `retry` and `redo`, which can repeat any part of the code, the reader tells
/// apart (`Rb::always_loops`).
pub(super) const RUBY: Shape = Shape {
    lang: Lang::Ruby,
    deferred: &[
        "program",
        "method",
        "singleton_method",
        "lambda",
        "class",
        "module",
        "singleton_class",
        "begin_block",
        "end_block",
    ],
    loops: &[
        "while",
        "until",
        "for",
        "while_modifier",
        "until_modifier",
        "block",
        "do_block",
    ],
    blocks: &[
        "program",
        "body_statement",
        "block_body",
        "then",
        "else",
        "do",
        "begin",
        "ensure",
        "parenthesized_statements",
    ],
    wrappers: &[],
};

/// A `goto` that jumps back can repeat any part of a block: the reader tells it apart
/// (`Lua::jumps`).
pub(super) const LUA: Shape = Shape {
    lang: Lang::Lua,
    deferred: &["chunk", "function_declaration", "function_definition"],
    loops: &["for_statement", "while_statement", "repeat_statement"],
    blocks: &["chunk", "block"],
    wrappers: &[],
};

/// A `goto` that jumps back can repeat any part of a block: the reader tells it apart
/// (`Php::jumps`).
pub(super) const PHP: Shape = Shape {
    lang: Lang::Php,
    deferred: &[
        "program",
        "function_definition",
        "method_declaration",
        "anonymous_function",
        "arrow_function",
        "class_declaration",
        "anonymous_class",
    ],
    loops: &[
        "for_statement",
        "foreach_statement",
        "while_statement",
        "do_statement",
    ],
    blocks: &["program", "compound_statement", "colon_block"],
    wrappers: &["expression_statement"],
};

/// A block other than an `if`'s or `unless`'s (`map { }`, a bare block `redo` repeats)
/// the reader tells apart (`Pl::pushed_onto`), and `goto` and `redo` (`Pl::jumps`).
pub(super) const PERL: Shape = Shape {
    lang: Lang::Perl,
    deferred: &[
        "source_file",
        "function_definition",
        "function_definition_without_sub",
        "anonymous_function",
        "special_block",
    ],
    loops: &[
        "while_statement",
        "until_statement",
        "for_statement_1",
        "for_statement_2",
    ],
    blocks: &["source_file", "block"],
    wrappers: &[],
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
            // The growth is the statement, not in one (`args << x if ci`).
            let alone = growth == statement
                || (growth.parent() == Some(statement)
                    && self.wrappers.contains(&kind(self.lang, statement)));
            ran.push(if growth_block == block && alone && before_read {
                Ran::Always
            } else {
                Ran::Maybe
            });
        }
        Some(ran)
    }
}

impl Shape {
    /// The growths of `read` (a read of the list bound to `value`) that add to it, as
    /// chosen (see [`Chosen::applied`]); `None` where the code's shape does not tell.
    pub(super) fn applied<'t>(
        &self,
        chosen: &Chosen,
        (value, growths): (Node<'t>, &[Node<'t>]),
        read: Node<'t>,
    ) -> Option<Vec<Option<Node<'t>>>> {
        let ran = self.growths_ran(value, growths, read)?;
        Some(chosen.applied(growths, ran))
    }
}

/// `items` (a list as bound) with what each growth of `applied` (see [`Shape::applied`])
/// adds, by `added`: for one that may have run and is not chosen, an item not known,
/// which stands for any number of them. `None` where a growth's items are not known.
pub(super) fn with_growths<'t>(
    mut items: Vec<Val>,
    applied: Vec<Option<Node<'t>>>,
    mut added: impl FnMut(Node<'t>) -> Option<Vec<Val>>,
) -> Option<Vec<Val>> {
    for growth in applied {
        let more = match growth {
            Some(growth) => added(growth)?,
            None => vec![Val::Unknown],
        };
        extend_merging(&mut items, more, |v| *v == Val::Unknown);
    }
    Some(items)
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
    fn choices_of<'t>(
        &self,
        (value, growths, read): (Node<'t>, &[Node<'t>], Node<'t>),
        choices: &mut Vec<Node<'t>>,
        follow: &mut Vec<Node<'t>>,
        added: &impl Fn(Node<'t>) -> Option<Node<'t>>,
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

/// Choices read both ways for one call, at most: past it, none is (each then adds an item
/// not known), so a call is read at most 2^4 times.
pub(super) const MOST_CHOICES: usize = 4;
/// Nodes looked at for one call's choices, and assignments followed from it.
const MOST_NODES: usize = 512;
const MOST_ASSIGNMENTS: usize = 12;

/// What a node met in the search for a call's choices is, for the language's reader.
pub(super) enum Seen<'s, 't: 's> {
    /// A name bound once to this value, which is searched too.
    Bound(Node<'t>),
    /// A name bound to this value, then grown by these statements.
    Grown(Node<'t>, &'s [Node<'t>]),
    /// A choice of its own (Python's `a if c else b`).
    Choice(Node<'t>),
    Nothing,
}

impl Shape {
    /// The choices in `roots` (a call's arguments), or in what the names there are bound
    /// to, a few assignments deep: the growths that may have run of the lists they name,
    /// and what `seen` calls a choice. `added` is the part of a growth that holds what it
    /// adds (searched too). `None` when the search is cut short, or finds more than
    /// [`MOST_CHOICES`].
    pub(super) fn search_choices<'s, 't: 's>(
        &self,
        mut search: Vec<Node<'t>>,
        mut seen: impl FnMut(Node<'t>) -> Seen<'s, 't>,
        added: impl Fn(Node<'t>) -> Option<Node<'t>>,
    ) -> Option<Vec<Node<'t>>> {
        let mut found: Vec<Node<'t>> = Vec::new();
        let (mut nodes, mut followed) = (0, 0);
        while let Some(root) = search.pop() {
            let mut assigned = Vec::new();
            super::tree::visit(root, |node, _, at| {
                if at == super::tree::Visit::Leave || nodes >= MOST_NODES {
                    return false;
                }
                nodes += 1;
                match seen(node) {
                    Seen::Bound(value) => assigned.push(value),
                    Seen::Grown(value, growths) => {
                        self.choices_of((value, growths, node), &mut found, &mut assigned, &added)
                    }
                    Seen::Choice(c) if !found.contains(&c) => found.push(c),
                    Seen::Choice(_) | Seen::Nothing => {}
                }
                true
            });
            for value in assigned {
                if followed < MOST_ASSIGNMENTS {
                    followed += 1;
                    search.push(value);
                }
            }
        }
        (nodes < MOST_NODES && found.len() <= MOST_CHOICES).then_some(found)
    }
}

/// The choices being read one way, by node id: `true` for a growth that ran (or the first
/// side of a conditional).
#[derive(Default)]
pub(super) struct Chosen(Vec<(usize, bool)>, usize);

/// Ways calls are read in one program, at most (32 calls with four choices each): past
/// it, a call is read once, its choices not known, so that a program of many such calls
/// costs a bounded multiple of its size (blind round 51's bench: 16 KiB of calls, each read
/// 16 ways, took 220 ms).
const MOST_WAYS_READ: usize = 512;

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
/// effect every way finds alike is kept once. Past [`MOST_WAYS_READ`] in the program, once,
/// none chosen.
pub(super) fn each_way<R: Choosing>(
    reader: &mut R,
    choices: &[Node<'_>],
    mut f: impl FnMut(&mut R),
) {
    let (chosen, cx) = reader.chosen_and_cx();
    let count = 1usize << choices.len();
    if choices.is_empty() || chosen.1 + count > MOST_WAYS_READ {
        return f(reader);
    }
    chosen.1 += count;
    let (outer, mark) = (chosen.0.len(), cx.found_so_far());
    for ways in 0..count {
        let way = |(k, c): (usize, &Node<'_>)| (c.id(), ways & (1 << k) == 0);
        let (chosen, _) = reader.chosen_and_cx();
        chosen.0.extend(choices.iter().enumerate().map(way));
        f(reader);
        let (chosen, cx) = reader.chosen_and_cx();
        chosen.0.truncate(outer);
        cx.drop_repeats(mark);
    }
}
