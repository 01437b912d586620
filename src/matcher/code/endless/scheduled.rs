//! A JavaScript function that grows what it holds and schedules itself again, whatever
//! happens (`const grow = () => { pool.push(Buffer.alloc(1 << 30)); setImmediate(grow); }`):
//! the event loop runs it for ever, and each run keeps more memory. Unlike a call of
//! itself, a scheduled call never reaches the stack's limit.

use tree_sitter::Tree;

use super::super::Lang;
use super::super::tree::{Source, Visit, visit};
use super::{GROWS, defined_name};

/// What runs a function again later.
const SCHEDULERS: &[&str] = &[
    "setImmediate(",
    "setTimeout(",
    "setInterval(",
    "process.nextTick(",
    "queueMicrotask(",
];

/// The line of a JavaScript function that schedules itself with no condition around it
/// (no `if`, `?`, `&&`, `||` nor `return` in its body) and grows what it holds.
pub(in crate::matcher::code) fn grows_in_a_function_that_schedules_itself(
    lang: Lang,
    tree: &Tree,
    src: &Source<'_>,
) -> Option<usize> {
    if lang != Lang::JavaScript || !SCHEDULERS.iter().any(|s| src.text.contains(s)) {
        return None;
    }
    let mut found = None;
    visit(tree.root_node(), |node, _, at| {
        if found.is_some() || at == Visit::Leave {
            return false;
        }
        if let Some(name) = defined_name(lang, node) {
            let name = src.of(name);
            let text = src.of(node);
            // Most functions schedule nothing: only those that name a scheduler are looked
            // at closely (their text without spaces).
            if !SCHEDULERS
                .iter()
                .any(|s| text.contains(s.trim_end_matches('(')))
            {
                return true;
            }
            let bare: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            let schedules = SCHEDULERS.iter().any(|s| {
                bare.match_indices(s).any(|(at, s)| {
                    bare[at + s.len()..]
                        .strip_prefix(name)
                        .is_some_and(|rest| rest.starts_with([')', ',']))
                })
            });
            let conditional = ["if(", "?", "&&", "||", "return"]
                .iter()
                .any(|c| bare.contains(c));
            if schedules && !conditional && GROWS.iter().any(|g| bare.contains(g)) {
                found = Some(src.line(node));
            }
        }
        true
    });
    found
}

#[cfg(test)]
mod tests {
    use crate::matcher::code::{Lang, read};

    #[test]
    fn a_function_that_grows_and_schedules_itself_is_a_memory_bomb() {
        for code in [
            "const pool = []; const grow = () => { pool.push(Buffer.alloc(1 << 30, 1)); setImmediate(grow); }; grow();",
            "let s = 'x'; function more() { s += s; setTimeout(more, 0); } more();",
            "const a = []; function f() { a.push(new Array(1e6).fill(1)); process.nextTick(f) } f()",
        ] {
            let unread = read(Lang::JavaScript, code).unreadable;
            assert!(
                unread
                    .as_ref()
                    .is_some_and(|u| u.reason.contains("memory bomb")),
                "{code}: {unread:?}"
            );
        }
        // A poller that stops, or one that keeps nothing, is not.
        for code in [
            "const seen = []; function poll() { seen.push(Date.now()); if (seen.length < 5) setTimeout(poll, 100); } poll();",
            "function tick() { console.log(Date.now()); setTimeout(tick, 1000); } tick();",
        ] {
            assert!(read(Lang::JavaScript, code).unreadable.is_none(), "{code}");
        }
    }
}
