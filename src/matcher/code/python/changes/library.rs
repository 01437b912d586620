//! What a library's functions and the built-ins do to what they are given: the built-ins
//! that only read it, and the library functions that change a list in place.

use tree_sitter::Node;

use crate::matcher::code::python::{Py, by_field, kind};
use crate::matcher::code::scope::Slot;

/// Built-ins that do not change what they are given.
const READS_ONLY: &[&str] = &[
    "print",
    "len",
    "str",
    "repr",
    "list",
    "tuple",
    "set",
    "frozenset",
    "sorted",
    "any",
    "all",
    "min",
    "max",
    "isinstance",
    "type",
    "bool",
    "int",
    "float",
    "enumerate",
    "zip",
    "iter",
    "reversed",
    "sum",
    "hash",
    "id",
    "format",
];

/// Library functions that change the list they are given (`random.shuffle(argv)`).
const LIBRARY_MUTATORS: &[&str] = &[
    "random.shuffle",
    "heapq.heappush",
    "heapq.heappop",
    "heapq.heapify",
    "heapq.heapreplace",
    "heapq.heappushpop",
    "bisect.insort",
    "bisect.insort_left",
    "bisect.insort_right",
    "operator.setitem",
    "operator.delitem",
    "operator.iadd",
    "operator.iconcat",
];

/// Whether `function` names a library's callable (reached from an imported name), a method
/// of a literal string, or a built-in that only reads its arguments.
pub(super) fn library_or_reader(py: &Py<'_, '_, '_>, function: Node<'_>) -> bool {
    let mut root = function;
    while kind(root) == "attribute" {
        match by_field(root, "object") {
            Some(object) => root = object,
            None => return false,
        }
    }
    match kind(root) {
        // A method of a literal (`' '.join(args)`) changes none of its arguments.
        "string" | "concatenated_string" => true,
        "identifier" => match py.names.get(py.text(root)) {
            Some(crate::matcher::code::scope::Slot::Ref(_)) => true,
            None => root == function && READS_ONLY.contains(&py.text(root)),
            _ => false,
        },
        _ => false,
    }
}

/// Whether `call` calls a library's function or a built-in that only reads what it is
/// given.
pub(super) fn shares_nothing(py: &Py<'_, '_, '_>, call: Node<'_>) -> bool {
    by_field(call, "function").is_some_and(|f| library_or_reader(py, f))
}

impl<'t> Py<'_, '_, 't> {
    /// Whether the value last in `path` is an argument of a library function that changes
    /// what it is given.
    pub(super) fn library_changes(&self, path: &[Node<'t>]) -> bool {
        let [.., call, arguments, _] = path else {
            return false;
        };
        kind(*arguments) == "argument_list"
            && kind(*call) == "call"
            && by_field(*call, "function").is_some_and(|f| {
                let text = self.text(f);
                LIBRARY_MUTATORS.iter().any(|m| {
                    *m == text
                        || m.rsplit_once('.').is_some_and(|(module, name)| {
                            name == text
                                && matches!(
                                    self.names.get(name),
                                    Some(Slot::Ref(q)) if q == m || q.starts_with(module)
                                )
                        })
                })
            })
    }
}
