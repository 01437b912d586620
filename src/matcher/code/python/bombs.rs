//! Values too large for memory: constants (`10 ** 10 ** 11`, a number of a hundred billion
//! digits; `'x' * 10 ** 12`; `bytearray(1 << 40)`) and a device that never ends read whole
//! (`open('/dev/zero', 'rb').read()`). Python builds each whole before anything else runs,
//! so the line is a memory bomb however it goes on.

use tree_sitter::Node;

use super::args::Args;
use super::{Obj, Py, by_field, kind};

/// Digits past which a number is a memory bomb (a billion digits: about 400 MB).
const MOST_DIGITS: f64 = 1e9;
/// Items or bytes past which a repeated or allocated value is one (ten billion).
const MOST_ITEMS_LOG10: f64 = 10.0;

impl<'t> Py<'_, '_, 't> {
    /// Whether `node` (a binary operator or a call) builds a value too large for memory.
    pub(super) fn builds_too_much(&mut self, node: Node<'t>) -> bool {
        match kind(node) {
            "binary_operator" => {
                let (Some(l), Some(op), Some(r)) = (
                    by_field(node, "left"),
                    by_field(node, "operator"),
                    by_field(node, "right"),
                ) else {
                    return false;
                };
                match self.text(op) {
                    // A number's digits are its base-10 logarithm.
                    "**" => self.log10(node).is_some_and(|digits| digits >= MOST_DIGITS),
                    "*" => {
                        let repeated = |n: Node<'_>| {
                            matches!(kind(n), "string" | "concatenated_string" | "list" | "tuple")
                        };
                        (repeated(l) && self.log10(r).is_some_and(|n| n > MOST_ITEMS_LOG10))
                            || (repeated(r) && self.log10(l).is_some_and(|n| n > MOST_ITEMS_LOG10))
                    }
                    _ => false,
                }
            }
            "call" => {
                let Some(function) = by_field(node, "function") else {
                    return false;
                };
                // A device that never ends read whole (`open('/dev/zero', 'rb').read()`).
                let text = self.text(function);
                if [".read", ".read_bytes", ".read_text"]
                    .iter()
                    .any(|m| text.ends_with(m))
                {
                    return self
                        .file_read(node)
                        .is_some_and(|path| path.is_endless_device());
                }
                // Most calls are not these: their callee is not looked up.
                if !["bytearray", "bytes", "mmap"]
                    .iter()
                    .any(|name| text.ends_with(name))
                {
                    return false;
                }
                let Obj::Ref(q) = self.eval(function, 0) else {
                    return false;
                };
                let size_at = match q.as_str() {
                    "builtins.bytearray" | "builtins.bytes" => 0,
                    // An anonymous map (`mmap.mmap(-1, size)`), not a file's.
                    "mmap.mmap" => 1,
                    _ => return false,
                };
                let args = Args::of(self, node);
                let Some(size) = args.node(size_at, "length") else {
                    return false;
                };
                let anonymous = size_at == 0
                    || args
                        .node(0, "fileno")
                        .is_some_and(|f| self.text(f).replace(' ', "") == "-1");
                anonymous && self.log10(size).is_some_and(|n| n > MOST_ITEMS_LOG10)
            }
            _ => false,
        }
    }

    /// The base-10 logarithm of the integer constant `node` is (integer literals with
    /// `**`, `*`, `+` and `<<`), if it is one.
    fn log10(&self, node: Node<'t>) -> Option<f64> {
        self.log10_within(node, 0)
    }

    fn log10_within(&self, node: Node<'t>, depth: usize) -> Option<f64> {
        if depth > 16 {
            return None;
        }
        match kind(node) {
            "integer" => {
                let text = self.text(node).replace('_', "");
                let value = super::text::parse_int(&text)
                    .map(f64::from)
                    .or_else(|| text.parse::<f64>().ok())?;
                Some(value.max(1.0).log10())
            }
            "parenthesized_expression" => self.log10_within(node.named_child(0)?, depth + 1),
            "binary_operator" => {
                let l = self.log10_within(by_field(node, "left")?, depth + 1)?;
                let r = self.log10_within(by_field(node, "right")?, depth + 1)?;
                match self.text(by_field(node, "operator")?) {
                    // a ** b: b * log10(a), with b = 10^r.
                    "**" => Some(10f64.powf(r) * l),
                    "*" => Some(l + r),
                    "+" => Some(l.max(r) + 2f64.log10()),
                    // a << b: a * 2^b.
                    "<<" => Some(l + 10f64.powf(r) * 2f64.log10()),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// Iterators that never end, however the module is named (`import itertools as i`).
const ENDLESS_ITERATORS: &[&str] = &["itertools.count", "itertools.cycle"];

impl<'t> Py<'_, '_, 't> {
    /// Whether `call` makes an iterator that never ends and something builds a whole
    /// collection of it: a list, set or dictionary comprehension over it, or `list(...)`
    /// (`set`, `tuple`, `sorted`, `frozenset`) of it. Python builds the collection before
    /// anything else runs, for ever: a memory bomb. (Spelled with the module's own name,
    /// the text is caught after the reader runs, see `endless`; this is the same through
    /// an alias.)
    /// `parent` is the call's parent and `grandparent` the parent's.
    pub(super) fn collects_endless(
        &mut self,
        call: Node<'t>,
        parent: Node<'t>,
        grandparent: Node<'t>,
    ) -> bool {
        // Where the call is is looked at first: evaluating every callee is work.
        let collected = match kind(parent) {
            "for_in_clause" => {
                by_field(parent, "right") == Some(call)
                    && matches!(
                        kind(grandparent),
                        "list_comprehension" | "set_comprehension" | "dictionary_comprehension"
                    )
            }
            "argument_list" => by_field(grandparent, "function")
                .is_some_and(|f| {
                    matches!(self.eval(f, 0), Obj::Ref(q)
                        if matches!(q.as_str(), "builtins.list" | "builtins.set" | "builtins.tuple" | "builtins.sorted" | "builtins.frozenset"))
                }),
            _ => false,
        };
        let Some(function) = by_field(call, "function").filter(|_| collected) else {
            return false;
        };
        match self.eval(function, 0) {
            Obj::Ref(q) => {
                let q = super::sinks::canonical(&q);
                ENDLESS_ITERATORS.contains(&q.as_str())
                    || (q == "itertools.repeat" && one_positional(call))
            }
            _ => false,
        }
    }
}

/// Whether `call` has one argument, positional (`itertools.repeat(x)` repeats for ever;
/// with a count, it ends).
fn one_positional(call: Node<'_>) -> bool {
    let Some(list) = by_field(call, "arguments") else {
        return false;
    };
    let mut c = list.walk();
    let args: Vec<Node<'_>> = list
        .named_children(&mut c)
        .filter(|a| kind(*a) != "comment")
        .collect();
    matches!(args.as_slice(), [a] if !matches!(kind(*a), "keyword_argument" | "list_splat" | "dictionary_splat"))
}
