//! Parsing with a tree-sitter grammar, inside bounds the grammar does not keep: the size,
//! a NUL byte, nesting (the walk recurses over the tree) and work (a parse that spends
//! more than is left of [`PARSE_WORK`](super::PARSE_WORK) is cancelled). A syntax error
//! is reported with its line: the interpreter would refuse such code too, but the reader
//! cannot tell what it would run instead.

use std::borrow::Cow;
use std::ops::ControlFlow;
use std::sync::OnceLock;

use tree_sitter::{Node, ParseOptions, Parser, Tree};

use super::{Lang, MAX_CODE, Unread};

/// Deepest nesting of brackets read: the walk recurses once per level.
pub(super) const MAX_NESTING: usize = 100;
/// The syntax tree of `code`, or why it is not read. Each hundred operations of the
/// grammar's parse spend a unit of `work`; when none is left, the parse is cancelled.
pub(super) fn parse(lang: Lang, code: &str, work: &mut usize) -> Result<Tree, Unread> {
    let at_start = |reason| Unread { reason, line: 1 };
    if code.len() > MAX_CODE {
        return Err(at_start(
            "the code is over 64 KiB, more than hookgate reads in the time a decision has",
        ));
    }
    if let Some(at) = code.find('\0') {
        return Err(Unread {
            reason: "the code holds a NUL byte",
            line: line_of(code, at),
        });
    }
    if let Some(at) = too_deep(code) {
        return Err(Unread {
            reason: "the code nests brackets too deeply to read",
            line: line_of(code, at),
        });
    }
    PARSERS.with_borrow_mut(|parsers| {
        let parser = match parsers.iter_mut().position(|(l, _)| *l == lang) {
            Some(k) => &mut parsers[k].1,
            None => {
                let mut parser = Parser::new();
                parser
                    .set_language(&lang.grammar())
                    .map_err(|_| at_start("the code's grammar could not be loaded"))?;
                parsers.push((lang, parser));
                let last = parsers.len() - 1;
                &mut parsers[last].1
            }
        };
        let input = grammar_input(lang, code);
        let tree = parse_with(parser, &input, work)?;
        // Where tree-sitter-perl lost a file test with no operand, the test is given to it
        // as `$_` (the operand perl takes) and the code parsed again.
        if lang == Lang::Perl
            && let Some(fixed) = super::perl::bare_file_tests(tree.root_node(), &input)
        {
            let tree = parse_with(parser, &fixed, work)?;
            return accept(lang, tree, &fixed);
        }
        accept(lang, tree, &input)
    })
}

/// The bytes the grammar parses. tree-sitter-python also parses Python 2, where `print`
/// and `exec` were statements: each `print(` is then read both ways until its statement
/// ends (a typical one-liner's parse spends a third of its work on two `print` calls).
/// Python 3 has no such statements, so where a `(` follows, the keyword is given to the
/// grammar as another name of the same length: the tree has Python 3's shape, and every
/// byte range, through which the reader reads the text, is unchanged.
fn grammar_input(lang: Lang, code: &str) -> Cow<'_, [u8]> {
    const STATEMENTS: [(&str, &[u8]); 2] = [("print", b"_rint"), ("exec", b"_xec")];
    let bytes = code.as_bytes();
    match lang {
        Lang::Python => {}
        Lang::Perl => return perl_keys(code),
        _ => return Cow::Borrowed(bytes),
    }
    let in_name = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || !b.is_ascii();
    let mut input = Cow::Borrowed(bytes);
    for (keyword, name) in STATEMENTS {
        for (at, _) in code.match_indices(keyword) {
            let end = at + keyword.len();
            let called = bytes
                .get(end..)
                .and_then(|rest| rest.iter().find(|b| !matches!(b, b' ' | b'\t')))
                == Some(&b'(');
            let alone = at
                .checked_sub(1)
                .and_then(|before| bytes.get(before))
                .is_none_or(|&b| !in_name(b));
            if called && alone {
                input.to_mut()[at..end].copy_from_slice(name);
            }
        }
    }
    input
}

/// tree-sitter-perl reads a hash key named like a quoting operator (`$opt{q}`,
/// `$j->{s}`, `$p{y}`) as the start of that operator, and the rest of the code as its
/// text. perl takes a bare name alone in a subscript as a string, so each such key right
/// after a variable or an arrow is given to the grammar as another name of its length.
/// It also reads `split /=/` (the usual split of `KEY=VALUE` lines) as `/=`, a division;
/// the pattern's `=` is given to it as another character, since a pattern is data to the
/// reader.
fn perl_keys(code: &str) -> Cow<'_, [u8]> {
    const QUOTING: [&str; 9] = ["s", "y", "q", "m", "tr", "qq", "qw", "qr", "qx"];
    let bytes = code.as_bytes();
    let in_name = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let mut input = Cow::Borrowed(bytes);
    for (at, _) in code.match_indices('{') {
        let before = &bytes[..at];
        let name = before.iter().rev().take_while(|b| in_name(b)).count();
        let subscript = before.ends_with(b"->")
            || name > 0
                && (at - name)
                    .checked_sub(1)
                    .is_some_and(|sigil| matches!(before[sigil], b'$' | b'@' | b'%'));
        if !subscript {
            continue;
        }
        let rest = &bytes[at + 1..];
        let key = rest.iter().take_while(|b| in_name(b)).count();
        if rest.get(key) == Some(&b'}') && QUOTING.iter().any(|q| q.as_bytes() == &rest[..key]) {
            input.to_mut()[at + 1] = b'_';
        }
    }
    for (at, word) in code.match_indices("split") {
        if at.checked_sub(1).is_some_and(|b| in_name(&bytes[b])) {
            continue;
        }
        let after = at + word.len();
        let pattern = after
            + bytes[after..]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'('))
                .count();
        if bytes.get(pattern..pattern + 2) == Some(b"/=") {
            input.to_mut()[pattern + 1] = b'_';
        }
    }
    input
}

thread_local! {
    /// One parser per language and thread: a parser keeps its allocations between parses.
    static PARSERS: std::cell::RefCell<Vec<(Lang, Parser)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn parse_with(parser: &mut Parser, bytes: &[u8], work: &mut usize) -> Result<Tree, Unread> {
    let at_start = |reason| Unread { reason, line: 1 };
    // A cancelled parse would otherwise resume on the next call.
    parser.reset();
    // tree-sitter reports progress every hundred operations (lexing a token, a shift, a
    // reduction, a step of error recovery): a count of the work done that, unlike a clock,
    // gives the same answer for the same code on any machine and under any load.
    let mut progress = |_: &tree_sitter::ParseState| match work.checked_sub(1) {
        Some(left) => {
            *work = left;
            ControlFlow::Continue(())
        }
        None => ControlFlow::Break(()),
    };
    parser
        .parse_with_options(
            &mut |at, _| bytes.get(at..).unwrap_or_default(),
            None,
            Some(ParseOptions::new().progress_callback(&mut progress)),
        )
        .ok_or_else(|| at_start("the code is too complex to read in time"))
}

/// `tree`, unless it holds a syntax error: perl's error recovery is accepted where what it
/// skipped is inert (see `perl/gaps.rs`).
fn accept(lang: Lang, tree: Tree, bytes: &[u8]) -> Result<Tree, Unread> {
    if let Some(error) = first_error(tree.root_node())
        && !(lang == Lang::Perl
            && std::str::from_utf8(bytes)
                .is_ok_and(|code| super::perl::errors_are_inert(tree.root_node(), code)))
    {
        return Err(Unread {
            reason: syntax_error(lang),
            line: error.start_position().row + 1,
        });
    }
    Ok(tree)
}

fn syntax_error(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "the python code has a syntax error",
        Lang::JavaScript => "the javascript code has a syntax error",
        Lang::Ruby => "the ruby code has a syntax error",
        Lang::Perl => "the perl code has a syntax error",
        Lang::Php => "the php code has a syntax error",
        Lang::Lua => "the lua code has a syntax error",
    }
}

/// The first node that is an error or was inserted by error recovery.
fn first_error(root: Node<'_>) -> Option<Node<'_>> {
    if !root.has_error() {
        return None;
    }
    let mut node = root;
    'down: loop {
        if node.is_error() || node.is_missing() {
            return Some(node);
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.has_error() || child.is_error() || child.is_missing() {
                node = child;
                continue 'down;
            }
        }
        return Some(node);
    }
}

/// The byte offset where brackets first nest deeper than [`MAX_NESTING`], counted without
/// regard to strings and comments (which can only make the count larger).
fn too_deep(code: &str) -> Option<usize> {
    let mut depth: usize = 0;
    for (at, b) in code.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(at);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn line_of(code: &str, at: usize) -> usize {
    code.as_bytes()
        .get(..at)
        .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
        + 1
}

/// The kind of `node`, a node of `lang`'s grammar, looked up in a table made once per
/// grammar. tree-sitter's own `Node::kind` measures and checks the name's C string on every
/// call, and the walks ask for the kind of every node (7% of reading a typical line).
pub(super) fn kind(lang: Lang, node: Node<'_>) -> &'static str {
    static KINDS: [OnceLock<Box<[&'static str]>>; Lang::ALL.len()] =
        [const { OnceLock::new() }; Lang::ALL.len()];
    let table = KINDS[lang as usize].get_or_init(|| {
        let grammar = lang.grammar();
        (0..grammar.node_kind_count())
            .map(|id| {
                u16::try_from(id)
                    .ok()
                    .and_then(|id| grammar.node_kind_for_id(id))
                    .unwrap_or_default()
            })
            .collect()
    });
    table
        .get(usize::from(node.kind_id()))
        .copied()
        .unwrap_or_else(|| node.kind())
}

/// The child of `node` (a node of `lang`'s grammar) in the field `name`. tree-sitter's own
/// `child_by_field_name` finds the field's id by comparing `name` with every field name of
/// the grammar in turn; this looks it up in a sorted table made once per grammar.
pub(super) fn field<'t>(lang: Lang, node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_id(field_id(lang, name)?.get())
}

/// The children of `node` in the field `name` (see [`field`]).
pub(super) fn fields<'t>(lang: Lang, node: Node<'t>, name: &str) -> Vec<Node<'t>> {
    let Some(id) = field_id(lang, name) else {
        return Vec::new();
    };
    let mut cursor = node.walk();
    node.children_by_field_id(id, &mut cursor).collect()
}

fn field_id(lang: Lang, name: &str) -> Option<std::num::NonZeroU16> {
    // The grammar's fields by their name's first byte: a field is looked up on most nodes
    // the readers visit, so a handful of comparisons of a few bytes each, not a search.
    type Table = Box<[Vec<(&'static str, std::num::NonZeroU16)>]>;
    static FIELDS: [OnceLock<Table>; Lang::ALL.len()] =
        [const { OnceLock::new() }; Lang::ALL.len()];
    let table = FIELDS[lang as usize].get_or_init(|| {
        let grammar = lang.grammar();
        let mut table: Vec<Vec<_>> = vec![Vec::new(); 256];
        for id in 1..=grammar.field_count() {
            let Ok(id) = u16::try_from(id) else { continue };
            if let (Some(name), Some(id)) =
                (grammar.field_name_for_id(id), std::num::NonZeroU16::new(id))
                && let Some(first) = name.bytes().next()
            {
                table[usize::from(first)].push((name, id));
            }
        }
        table.into()
    });
    let bucket = table.get(usize::from(*name.as_bytes().first()?))?;
    bucket.iter().find(|(n, _)| *n == name).map(|(_, id)| *id)
}

/// Where a [`visit`] is at a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Visit {
    /// Before its descendants: return whether to go below it.
    Enter,
    /// After its descendants (also when the enter said not to go below).
    Leave,
}

/// Visits `root` and its named descendants in document order with one cursor (a walk that
/// made a cursor per node would allocate per node). `f` gets each named node with its depth,
/// once on [`Visit::Enter`] (its answer says whether to go below) and once on
/// [`Visit::Leave`].
pub(super) fn visit<'t>(root: Node<'t>, mut f: impl FnMut(Node<'t>, usize, Visit) -> bool) {
    let mut cursor = root.walk();
    let mut depth = 0usize;
    let mut down = f(root, 0, Visit::Enter);
    loop {
        if down && cursor.goto_first_child() {
            depth += 1;
        } else {
            // Nothing more below: leave, then find the next sibling on the way up.
            loop {
                let node = cursor.node();
                if node.is_named() {
                    f(node, depth, Visit::Leave);
                }
                if depth == 0 {
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                cursor.goto_parent();
                depth -= 1;
            }
        }
        let node = cursor.node();
        down = node.is_named() && f(node, depth, Visit::Enter);
    }
}

/// The code being walked, and the line of the outer code it starts at.
pub(super) struct Source<'a> {
    pub(super) text: &'a str,
    first_line: usize,
}

impl<'a> Source<'a> {
    pub(super) fn new(text: &'a str, first_line: usize) -> Source<'a> {
        Source { text, first_line }
    }

    /// The text of `node`.
    pub(super) fn of(&self, node: Node<'_>) -> &'a str {
        self.text.get(node.byte_range()).unwrap_or_default()
    }

    /// The line `node` starts on, counted in the outermost code.
    pub(super) fn line(&self, node: Node<'_>) -> usize {
        self.first_line + node.start_position().row
    }
}

#[cfg(test)]
mod tests;
