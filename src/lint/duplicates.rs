//! `duplicate`: two enabled hooks of one file with the same points, the same `match` (as
//! written, key order aside) and the same action, target, script, source and mode. Copies
//! across files are composition conflicts already, reported by the loader.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use super::{Code, Diagnostic, Lint};
use crate::config::{HookSpec, canonical_json};

pub(super) fn check(cx: &Lint<'_>, out: &mut Vec<Diagnostic>) {
    let mut first: HashMap<(&Path, String), &HookSpec> = HashMap::new();
    for hook in cx.hooks() {
        if !hook.enabled {
            continue;
        }
        let Some(raw) = cx.raw_hook(hook) else {
            continue;
        };
        let key = (&*hook.file, key_of(hook, raw));
        match first.get(&key) {
            Some(original) => {
                let finding = cx.at_hook(
                    Code::Duplicate,
                    hook,
                    "",
                    format!(
                        "hook `{}` repeats {}: the same points, `match` and action",
                        hook.id,
                        cx.describe(original, &hook.file)
                    ),
                    Some(format!(
                        "both run for the same calls; remove one, or change what `{}` matches",
                        hook.id
                    )),
                );
                out.push(cx.relate(finding, original, "the hook it repeats"));
            }
            None => {
                first.insert(key, hook);
            }
        }
    }
}

/// What makes two hooks the same: points (as a set), `match`, action, what it acts on, and
/// mode (an audited copy of an enforced hook is a trial, not a slip).
fn key_of(hook: &HookSpec, raw: &Value) -> String {
    let mut points: Vec<&str> = hook.points.iter().map(|p| p.as_str()).collect();
    points.sort_unstable();
    let field = |name: &str| canonical_json(raw.get(name));
    // No `match` and an empty one match the same calls.
    let filter = match raw.get("match") {
        None | Some(Value::Null) => "{}".to_owned(),
        Some(m) => canonical_json(Some(m)),
    };
    format!(
        "{}\u{0}{filter}\u{0}{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}",
        points.join(","),
        field("action"),
        field("target"),
        field("script"),
        field("source"),
        hook.mode.as_str(),
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::findings;
    use super::*;

    fn policy(hooks: &str) -> String {
        format!("version: 1\nhooks:\n{hooks}")
    }

    #[test]
    fn a_copy_in_the_same_file_is_reported_at_the_later_one() {
        let yaml = policy(concat!(
            "  - name: a\n    point: [turn:tool:pre, subagent:tool:pre]\n    match: { tool: exec, commandPattern: x }\n    action: block\n",
            "  - name: b\n    point: [subagent:tool:pre, turn:tool:pre]\n    match:\n      commandPattern: x\n      tool: exec\n    action: block\n",
        ));
        let found = findings(&yaml, Code::Duplicate);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!((found[0].line(), found[0].column()), (7, 5));
        assert_eq!(found[0].path(), "hooks[1]");
        assert!(found[0].message().contains("`a` (line 3)"), "{found:#?}");
    }

    #[test]
    fn hooks_that_differ_are_not_duplicates() {
        let base = "  - { name: a, point: turn:pre, match: { tool: exec }, action: log, target: a.jsonl }\n";
        for other in [
            "  - { name: b, point: turn:pre, match: { tool: exec }, action: log, target: b.jsonl }\n",
            "  - { name: b, point: turn:pre, match: { tool: Bash }, action: log, target: a.jsonl }\n",
            "  - { name: b, point: turn:post, match: { tool: exec }, action: log, target: a.jsonl }\n",
            "  - { name: b, point: turn:pre, match: { tool: exec }, action: block }\n",
            "  - { name: b, point: turn:pre, enabled: false, match: { tool: exec }, action: log, target: a.jsonl }\n",
            "  - { name: b, point: turn:pre, mode: audit, match: { tool: exec }, action: log, target: a.jsonl }\n",
        ] {
            let yaml = policy(&format!("{base}{other}"));
            assert_eq!(findings(&yaml, Code::Duplicate), [], "{other}");
        }
        // No `match` and an empty one are the same.
        let yaml = policy(
            "  - { name: a, point: turn:pre, action: block }\n  - { name: b, point: turn:pre, match: {}, action: block }\n",
        );
        assert_eq!(findings(&yaml, Code::Duplicate).len(), 1);
    }
}
