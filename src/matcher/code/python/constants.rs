//! Literal lists and dictionaries bound once to a name: read through while the code keeps
//! them as written, which a scan of the whole code decides.

use tree_sitter::Node;

use super::{Obj, Py, by_field, kind};
use crate::matcher::code::Val;
use crate::matcher::code::scope::Slot;
use crate::matcher::code::tree::{Visit, visit};

impl<'t> Py<'_, '_, 't> {
    /// `MODES["suid"]` of a name bound once to a literal dictionary the code never changes:
    /// the value of the pair with that key.
    pub(super) fn constant_dict_item(
        &mut self,
        value: Node<'t>,
        index: Node<'t>,
        depth: usize,
    ) -> Option<Obj> {
        let dict = self.constant_dict(value)?;
        let Val::Known(key) = self.eval(index, depth + 1).val() else {
            return None;
        };
        for (k, v) in self.dict_pairs(dict)? {
            match self.eval(k, depth + 1).val() {
                Val::Known(k) if k == key => return Some(self.eval(v, depth + 1)),
                Val::Known(_) => {}
                _ => return None,
            }
        }
        None
    }

    /// The literal dictionary `value` is, or names while it stays as written (see
    /// [`stays_as_written`]).
    pub(super) fn constant_dict(&mut self, value: Node<'t>) -> Option<Node<'t>> {
        match kind(value) {
            "dictionary" => Some(value),
            _ => self.constant_literal(value, &["dictionary"]),
        }
    }

    /// The literal of one of `kinds` that the name `value` is bound to once, while it stays
    /// as written (see [`stays_as_written`]).
    pub(super) fn constant_literal(&self, value: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
        let literal = self.constant_shape(value, kinds)?;
        // An item that may be changed: a list, dictionary or set among them may not be as
        // written.
        (!self.items_may_change(value, literal)).then_some(literal)
    }

    /// Whether an item of the literal `literal`, bound to the name `value`, may be changed
    /// in place (a list, dictionary or set among them shared where it may be).
    pub(super) fn items_may_change(&self, value: Node<'t>, literal: Node<'t>) -> bool {
        self.changed.items(self.text(value)) && self.holds_containers(literal)
    }

    /// As [`Py::constant_literal`], but only its keys and length must be as written: its
    /// items may have been changed in place.
    pub(super) fn constant_shape(&self, value: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
        if kind(value) != "identifier" {
            return None;
        }
        let name = self.text(value);
        let Some(Slot::Expr(literal)) = self.names.get(name) else {
            return None;
        };
        if !kinds.contains(&kind(*literal)) || self.changed.value(name) {
            return None;
        }
        let code = self.code_only();
        let constant = *self
            .constant
            .borrow_mut()
            .entry(name)
            .or_insert_with(|| stays_as_written(code, name));
        constant.then_some(*literal)
    }

    /// Whether a literal list, tuple, set or dictionary may hold one (as an item or a value):
    /// anything but a literal string, number, boolean or `None`, or a name bound once to
    /// one.
    fn holds_containers(&self, literal: Node<'t>) -> bool {
        let scalar = |v: Node<'t>| {
            matches!(
                kind(v),
                "string" | "concatenated_string" | "integer" | "float" | "true" | "false" | "none"
            )
        };
        let mut c = literal.walk();
        let items: Vec<Node<'t>> = literal.named_children(&mut c).collect();
        items.into_iter().any(|item| {
            let value = match kind(item) {
                "pair" => by_field(item, "value"),
                _ => Some(item),
            };
            value.is_none_or(|v| {
                let bound = match kind(v) {
                    "identifier" => match self.names.get(self.text(v)) {
                        Some(Slot::Expr(e)) => *e,
                        _ => v,
                    },
                    _ => v,
                };
                !scalar(bound)
            })
        })
    }

    /// The key and value nodes of a literal dictionary of at most a few pairs; `None` when
    /// it holds anything else (a `**` spread).
    pub(super) fn dict_pairs(&self, dict: Node<'t>) -> Option<Vec<(Node<'t>, Node<'t>)>> {
        const MOST_PAIRS: usize = 64;
        let mut c = dict.walk();
        let pairs: Vec<Node<'t>> = dict.named_children(&mut c).take(MOST_PAIRS + 1).collect();
        if pairs.len() > MOST_PAIRS {
            return None;
        }
        pairs
            .into_iter()
            .map(|pair| match kind(pair) {
                "pair" => Some((by_field(pair, "key")?, by_field(pair, "value")?)),
                _ => None,
            })
            .collect()
    }
}

/// Whether the dictionary or list bound to `name` stays as written: `name` is assigned once
/// and otherwise only read, by a subscript that is not assigned or deleted, by `.get`,
/// `.keys`, `.items`, `.values`, `.copy`, `.index` or `.count`, spread (`*name`,
/// `**name`), tested or looped over (`in name`), or handed to a built-in that only reads it
/// (`len`, `sorted`, ...). Passed anywhere else, or a method of it called, it could be
/// changed there.
pub(super) fn stays_as_written(code: &str, name: &str) -> bool {
    const READERS: &[&str] = &[
        "len(",
        "sorted(",
        "list(",
        "tuple(",
        "set(",
        "frozenset(",
        "enumerate(",
        "iter(",
        "reversed(",
        "dict(",
        "any(",
        "all(",
        "min(",
        "max(",
    ];
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut bound = 0;
    for (k, _) in code.match_indices(name) {
        let before = &code[..k];
        let rest = &code[k + name.len()..];
        if word(before.chars().next_back()) || word(rest.chars().next()) {
            continue;
        }
        let rest = rest.trim_start_matches([' ', '\t']);
        let assigned = |r: &str| r.starts_with('=') && !r.starts_with("==");
        if assigned(rest) {
            bound += 1;
            continue;
        }
        if let Some(inside) = rest.strip_prefix('[') {
            let Some(close) = inside.find(']') else {
                return false;
            };
            let after = inside[close + 1..].trim_start_matches([' ', '\t']);
            let augmented =
                after.len() > 1 && after[1..].starts_with('=') && !after.starts_with("==");
            if assigned(after) || augmented || before.trim_end().ends_with("del") {
                return false;
            }
            continue;
        }
        let keyword_in = before
            .trim_end_matches([' ', '\t'])
            .strip_suffix("in")
            .is_some_and(|b| b.ends_with([' ', '\t', '(', '[']) && before.ends_with([' ', '\t']));
        let read_by_builtin = READERS.iter().any(|r| {
            before
                .strip_suffix(r)
                .is_some_and(|b| !word(b.chars().next_back()) && !b.ends_with('.'))
        });
        if [
            ".get(", ".keys(", ".items(", ".values(", ".copy(", ".index(", ".count(",
        ]
        .iter()
        .any(|m| rest.starts_with(m))
            || before.ends_with('*')
            || keyword_in
            || read_by_builtin
        {
            continue;
        }
        return false;
    }
    bound == 1
}

impl Py<'_, '_, '_> {
    /// The code with the text of its strings (not an f-string's `{...}`) and of its
    /// comments blanked, byte for byte: a name's uses are found in it by their text, and
    /// `print("all checks passed")` does not use `checks`.
    pub(super) fn code_only(&self) -> &str {
        self.code_only.get_or_init(|| {
            let mut bytes = self.src.text.as_bytes().to_vec();
            visit(self.root, |node, _, at| {
                if at == Visit::Leave {
                    return false;
                }
                match kind(node) {
                    "string_content" | "escape_sequence" | "comment" => {
                        if let Some(text) = bytes.get_mut(node.byte_range()) {
                            text.fill(b' ');
                        }
                        false
                    }
                    _ => true,
                }
            });
            // Whole characters are blanked, so the text stays UTF-8; were it not, no
            // name would be found to stay as written.
            String::from_utf8(bytes).unwrap_or_default()
        })
    }
}
