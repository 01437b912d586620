//! Blocks over a literal, read once per item: `%w[status diff].each { |c| system("git", c) }`
//! or `TASKS = {lint: "rubocop", test: "rspec"}; TASKS.each { |name, cmd| system(cmd) }`
//! runs each item's command, where reading the call once would run a command named at run
//! time.
//!
//! The block's parameters are bound together to each item's parts. That holds only while
//! the literal is what the block goes over: the literal itself, or a name bound once to one
//! (`.freeze` or not) and never changed in place (`Rb::settle` forgets such names); and
//! while nothing changes a value in place through anything but a name bound once
//! (`untrusted`, which also covers a block parameter changed in place) and no core class is
//! reopened (`patched`).

use tree_sitter::Node;

use super::{Rb, by_field, kind};
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};

/// Items of one literal read in turn, at most.
const MOST_ITEMS: usize = 16;
/// Nodes of one call looked at for a block's parameter.
const MOST_NODES: usize = 512;
/// Nodes looked at for blocks' parameters in the whole program: past it, each call is read
/// once, with its parameters not known.
const MOST_SEARCHED: usize = 1 << 16;
/// Calls read once per item, over the whole program: past it, a call is read once, with
/// the loop's names not known, so that a program of many calls in one loop costs a bounded
/// multiple of its size.
const MOST_ROUNDS: usize = 512;
/// Names whose values are looked into for a block's parameter, from one call.
const MOST_FOLLOWED: usize = 4;

/// Methods whose block is called with each item of the receiver and changes none.
pub(super) const ITERATORS: &[&str] = &[
    "each",
    "map",
    "collect",
    "select",
    "filter",
    "reject",
    "find",
    "detect",
    "flat_map",
    "filter_map",
    "sort_by",
];

/// Of those, the ones whose block's two parameters take a pair's parts (a hash's key and
/// value, or an array item's first two).
pub(super) const PAIRED: &[&str] = &[
    "each",
    "each_pair",
    "map",
    "collect",
    "select",
    "filter",
    "reject",
    "flat_map",
    "filter_map",
];

/// A block's parameters: each name, with the part of an item it takes (`None`: the item).
pub(super) type Params = Vec<(String, Option<usize>)>;

/// One item of a literal: an array's item, or a hash's key and value.
enum Item<'t> {
    One(Node<'t>),
    Pair(Node<'t>, Node<'t>),
}

impl<'t> Item<'t> {
    /// What a block parameter taking `part` of this item is bound to.
    fn part(&self, part: Option<usize>) -> Slot<'t> {
        match (self, part) {
            (Item::One(item), None) => Slot::Expr(*item),
            // `[["git", "status"]].each { |cmd, arg| ... }` takes the inner array's items.
            (Item::One(item), Some(n)) if kind(*item) == "array" => {
                let mut c = item.walk();
                let inner: Vec<Node<'t>> = item
                    .named_children(&mut c)
                    .filter(|i| kind(*i) != "comment")
                    .collect();
                match inner.get(n) {
                    Some(i) if inner.iter().all(|i| kind(*i) != "splat_argument") => Slot::Expr(*i),
                    _ => Slot::Many,
                }
            }
            (Item::One(item), Some(0)) => Slot::Expr(*item),
            (Item::Pair(key, _), Some(0)) => Slot::Expr(*key),
            (Item::Pair(_, value), Some(1)) => Slot::Expr(*value),
            _ => Slot::Many,
        }
    }
}

impl<'a, 't> Rb<'a, '_, 't> {
    /// Reads `node` once for each item of the literal that a block parameter named in it
    /// goes over, with the block's parameters bound to that item; or once.
    pub(super) fn each_item(&mut self, node: Node<'t>, mut read: impl FnMut(&mut Self, Node<'t>)) {
        let Some(rounds) = self.rounds(node) else {
            return read(self, node);
        };
        for round in rounds {
            let outer: Vec<(String, Option<Slot<'t>>)> = round
                .into_iter()
                .map(|(name, slot)| {
                    let outer = self.names.replace(&name, Some(slot));
                    (name, outer)
                })
                .collect();
            // Values of names computed from a parameter differ from round to round.
            self.values.clear();
            read(self, node);
            for (name, slot) in outer {
                self.names.replace(&name, slot);
            }
        }
        self.values.clear();
    }

    /// The rounds of the block whose parameter `node` names (or the value of a name it
    /// names does), each binding all of the block's parameters.
    fn rounds(&mut self, node: Node<'t>) -> Option<Vec<Vec<(String, Slot<'t>)>>> {
        if self.blocks.is_empty() || self.untrusted || self.patched {
            return None;
        }
        let receiver = self.block_named_in(node)?;
        let params = self.blocks.get(&receiver.id())?.clone();
        let items = self
            .literal_items(receiver)
            .filter(|items| self.rounds_read + items.len() <= MOST_ROUNDS)?;
        self.rounds_read += items.len();
        Some(
            items
                .iter()
                .map(|item| {
                    params
                        .iter()
                        .map(|(name, part)| (name.clone(), item.part(*part)))
                        .collect()
                })
                .collect(),
        )
    }

    /// The receiver of the block whose parameter is named in `node`'s receiver and
    /// arguments (not its own block), or in the value of a name they name.
    fn block_named_in(&mut self, node: Node<'t>) -> Option<Node<'t>> {
        let mut search: Vec<Node<'t>> = match kind(node) {
            "call" => ["receiver", "arguments"]
                .iter()
                .filter_map(|f| by_field(node, f))
                .collect(),
            _ => vec![node],
        };
        let (mut nodes, mut followed) = (0, 0);
        while let Some(root) = search.pop() {
            let mut found = None;
            let mut assigned = Vec::new();
            visit(root, |n, _, at| {
                if found.is_some()
                    || at == Visit::Leave
                    || nodes >= MOST_NODES
                    || self.searched + nodes >= MOST_SEARCHED
                {
                    return false;
                }
                nodes += 1;
                if kind(n) == "identifier" {
                    match self.names.get(&self.key(n)) {
                        Some(Slot::Each(r) | Slot::Part(r, _))
                            if self.blocks.contains_key(&r.id()) =>
                        {
                            found = Some(*r)
                        }
                        Some(Slot::Expr(value)) => assigned.push(*value),
                        _ => {}
                    }
                }
                true
            });
            if found.is_some() {
                self.searched += nodes;
                return found;
            }
            if followed < MOST_FOLLOWED {
                followed += assigned.len();
                search.extend(assigned);
            }
        }
        self.searched += nodes;
        None
    }

    /// The items of the literal `receiver` is, or is the name of (bound once, never
    /// changed), if it has at most [`MOST_ITEMS`] and none is spread from elsewhere.
    fn literal_items(&self, receiver: Node<'t>) -> Option<Vec<Item<'t>>> {
        let mut list = match kind(receiver) {
            "identifier" | "constant" => match self.names.get(&self.key(receiver)) {
                Some(Slot::Expr(value)) => *value,
                _ => return None,
            },
            _ => receiver,
        };
        // `TASKS = {...}.freeze` is the hash itself.
        if kind(list) == "call"
            && by_field(list, "method").is_some_and(|m| self.text(m) == "freeze")
            && by_field(list, "arguments").is_none()
        {
            list = by_field(list, "receiver")?;
        }
        let hash = match kind(list) {
            "hash" => true,
            "array" | "string_array" | "symbol_array" => false,
            _ => return None,
        };
        let mut c = list.walk();
        let items = list
            .named_children(&mut c)
            .filter(|i| kind(*i) != "comment")
            .map(|item| match (hash, kind(item)) {
                (true, "pair") => {
                    Some(Item::Pair(by_field(item, "key")?, by_field(item, "value")?))
                }
                (false, k) if k != "splat_argument" => Some(Item::One(item)),
                _ => None,
            })
            .collect::<Option<Vec<Item<'t>>>>()?;
        (!items.is_empty() && items.len() <= MOST_ITEMS).then_some(items)
    }
}
