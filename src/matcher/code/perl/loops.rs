//! `foreach` loops the reader follows item by item (over a `glob` or a literal list), and
//! those few enough that a `fork` in them is not a fork bomb.

use tree_sitter::Node;

use super::{Pl, kind, literal_items};
use crate::matcher::code::scope::Slot;

impl<'a, 'c, 't> Pl<'a, 'c, 't> {
    /// `for my $f (LIST) { ... }`: the loop's named variable and its list.
    fn foreach_parts(node: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        if kind(node) != "for_statement_2" {
            return None;
        }
        let mut c = node.walk();
        let parts: Vec<Node<'t>> = node.named_children(&mut c).collect();
        let var = parts.iter().find(|p| kind(**p) == "scalar_variable")?;
        let list = parts.iter().find(|p| kind(**p) == "array")?;
        Some((*var, *list))
    }

    /// `for my $f (glob PATTERN) { ... }`: the loop's named variable, and the `glob` call
    /// whose names it takes in turn.
    pub(super) fn loop_over_glob(&self, node: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let (var, list) = Self::foreach_parts(node)?;
        let glob = match list.named_children(&mut list.walk()).collect::<Vec<_>>()[..] {
            [call] => call,
            _ => return None,
        };
        (self.callee(glob).as_deref() == Some("glob")).then_some((var, glob))
    }

    /// `foreach my $f ('a', 'b')`, `for my $f (qw(a b))`, or `for my $f (@a)` of an array
    /// assigned such a list once: the loop's named variable and the list of a few literal
    /// items it takes in turn (see `Pl::call`).
    pub(super) fn loop_over_literal(&self, node: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let (var, mut list) = Self::foreach_parts(node)?;
        let mut c = list.walk();
        if let [array] = list.named_children(&mut c).collect::<Vec<_>>()[..]
            && kind(array) == "array_variable"
            && let Some(Slot::Expr(value)) = self.names.get(self.text(array).trim())
        {
            list = *value;
        }
        literal_items(list).map(|_| (var, list))
    }

    /// Whether `node` is a `foreach` over a literal list of at most
    /// [`FEW_ROUNDS`](crate::matcher::code::FEW_ROUNDS) items (`(1 .. 4)`, `qw(a b)`,
    /// `('a', 'b')`): a `fork` in it makes at most 2^N processes, not a fork bomb.
    pub(super) fn few_rounds(&self, node: Node<'t>) -> bool {
        if kind(node) != "for_statement_2" {
            return false;
        }
        let mut c = node.walk();
        let Some(list) = node.named_children(&mut c).find(|n| kind(*n) == "array") else {
            return false;
        };
        let mut c = list.walk();
        let items: Vec<Node<'t>> = list.named_children(&mut c).collect();
        let few = crate::matcher::code::FEW_ROUNDS;
        match items.as_slice() {
            [range] if kind(*range) == "binary_expression" => {
                let bounds = self.text(*range).split_once("..").and_then(|(a, b)| {
                    Some((a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?))
                });
                matches!(bounds, Some((a, b)) if b - a < few as i64)
            }
            [words] if kind(*words) == "word_list_qw" => {
                let mut c = words.walk();
                words
                    .named_children(&mut c)
                    .filter(|n| kind(*n) == "list_item")
                    .count()
                    <= few
            }
            _ => {
                let values = items.iter().filter(|n| kind(**n) != "normal_comma");
                values.clone().count() <= few
                    && values.into_iter().all(|n| {
                        matches!(
                            kind(*n),
                            "string_single_quoted" | "string_double_quoted" | "integer"
                        )
                    })
            }
        }
    }
}
