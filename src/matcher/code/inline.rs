//! What the readers that read a function's body at each of its calls share (JavaScript's
//! `javascript/inline.rs`, Perl's `perl/inline.rs`, PHP's `php/inline.rs`): the bounds on that reading, and which
//! functions the program's own code reaches, so that a function called only from itself
//! (or from functions only it calls) is still read, once, by the program's pass.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::tree::{Visit, visit};

/// Calls inside calls read this deep at most.
const MOST_DEPTH: usize = 4;
/// Bodies read at call sites in one program, at most.
const MOST_INLINED: usize = 256;
/// Functions of one program read at their calls, at most: past it, none is (finding a
/// function's every mention costs a pass over the text per function).
const MOST_FUNCTIONS: usize = 64;

/// How a call of a function read at its calls is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reading {
    /// The body, with the parameters bound to the arguments; [`Budget::done`] after.
    AtCall,
    /// Past the depth or the budget: the body once, its parameters not known.
    Once,
    /// Past them again: the body was read once already.
    Skip,
}

/// The bounds on reading bodies at their calls, for one program.
pub(super) struct Budget {
    left: usize,
    depth: usize,
    generic: HashSet<usize>,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            left: MOST_INLINED,
            depth: 0,
            generic: HashSet::new(),
        }
    }
}

impl Budget {
    /// How to read a call of the function defined by the node with id `def`.
    pub(super) fn reading(&mut self, def: usize) -> Reading {
        if self.depth >= MOST_DEPTH || self.left == 0 {
            return match self.generic.insert(def) {
                true => Reading::Once,
                false => Reading::Skip,
            };
        }
        self.left -= 1;
        self.depth += 1;
        Reading::AtCall
    }

    /// Ends a [`Reading::AtCall`].
    pub(super) fn done(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// The functions of `defined` (by name) defined once, when there are at most
/// [`MOST_FUNCTIONS`] of them; else none. A name defined twice may call either body.
pub(super) fn defined_once<K: std::hash::Hash + Eq + Clone, F>(
    defined: impl IntoIterator<Item = (K, F)>,
) -> HashMap<K, F> {
    let mut by_name = HashMap::new();
    let mut twice = HashSet::new();
    for (name, f) in defined {
        if by_name.insert(name.clone(), f).is_some() {
            twice.insert(name);
        }
    }
    by_name.retain(|name, _| !twice.contains(name));
    if by_name.len() > MOST_FUNCTIONS {
        by_name.clear();
    }
    by_name
}

/// How many times `name` appears in `text` as a whole word.
pub(super) fn whole_words(text: &str, name: &str) -> usize {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(name)
        .filter(|(k, _)| {
            !word(text[..*k].chars().next_back()) && !word(text[k + name.len()..].chars().next())
        })
        .count()
}

/// Of the definitions `defs` (node ids), those the program's own code reaches: called
/// from outside all of them, or from the body of one reached. `callee` gives the definition
/// a node calls, if it calls one of them.
pub(super) fn reached<'t>(
    root: Node<'t>,
    defs: &HashSet<usize>,
    mut callee: impl FnMut(Node<'t>) -> Option<usize>,
) -> HashSet<usize> {
    let mut calls_in: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut from_top = Vec::new();
    // The definitions around the node being visited, with their depths.
    let mut around: Vec<(usize, usize)> = Vec::new();
    visit(root, |node, depth, at| {
        if at == Visit::Leave {
            if around.last().is_some_and(|(_, d)| *d == depth) {
                around.pop();
            }
            return false;
        }
        if defs.contains(&node.id()) {
            around.push((node.id(), depth));
        }
        if let Some(def) = callee(node) {
            match around.last() {
                Some((inside, _)) => calls_in.entry(*inside).or_default().push(def),
                None => from_top.push(def),
            }
        }
        true
    });
    let mut out = HashSet::new();
    while let Some(def) = from_top.pop() {
        if out.insert(def) {
            from_top.extend(calls_in.get(&def).into_iter().flatten());
        }
    }
    out
}
