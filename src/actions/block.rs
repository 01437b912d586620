//! `block`: stop the agent at this point.

use super::{Invocation, Outcome};
use crate::config::Mode;

/// Longest command excerpt in the default message, in characters.
const COMMAND_EXCERPT: usize = 80;

pub(super) fn run(inv: &Invocation<'_>, notify_user: bool) -> Outcome {
    let message = inv
        .failure_message()
        .unwrap_or_else(|| default_message(inv));
    let spec = inv.hook.spec();
    let wants_notice = notify_user
        || spec
            .on_failure
            .as_ref()
            .and_then(|f| f.notify_user)
            .unwrap_or(false);
    // An audited block stops nothing, so nobody is told it did.
    let notice = (wants_notice && spec.mode == Mode::Enforce).then(|| message.clone());
    Outcome::fail(message).with_notice(notice)
}

/// `Action blocked by lifecycle hook. | Tool: <tool> | Command: <80 chars…> | Hook point: <points>`
fn default_message(inv: &Invocation<'_>) -> String {
    let mut parts = vec!["Action blocked by lifecycle hook.".to_owned()];
    if let Some(tool) = inv.ctx.tool_name.as_deref().filter(|t| !t.is_empty()) {
        parts.push(format!("Tool: {tool}"));
    }
    if let Some(command) = inv.ctx.command_text() {
        parts.push(format!("Command: {}", truncate(&command, COMMAND_EXCERPT)));
    }
    parts.push(format!("Hook point: {}", inv.hook.points_label()));
    parts.join(" | ")
}

/// Cuts `s` to `max` characters and marks the cut with `…`.
pub(super) fn truncate(s: &str, max: usize) -> String {
    let kept = truncate_plain(s, max);
    if kept.len() < s.len() {
        format!("{kept}…")
    } else {
        kept.to_owned()
    }
}

/// The first `max` characters of `s`, unmarked (JavaScript's `slice(0, max)`).
pub(super) fn truncate_plain(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((cut, _)) => &s[..cut],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::truncate;

    #[test]
    fn truncation_counts_characters_and_marks_the_cut() {
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 3), "abc…");
        assert_eq!(truncate("ééééé", 2), "éé…");
    }
}
