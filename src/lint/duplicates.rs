//! `duplicate`: two enabled hooks of one file with the same points, the same `match` (as
//! written, key order aside) and the same action, target, script, source and mode. Copies
//! across files are composition conflicts already, reported by the loader.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use super::{Code, Finding, Lint};
use crate::config::HookSpec;

pub(super) fn check(cx: &Lint<'_>, out: &mut Vec<Finding>) {
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
            Some(original) => out.push(cx.at_hook(
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
            )),
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
    let field = |name: &str| canonical(raw.get(name));
    // No `match` and an empty one match the same calls.
    let filter = match raw.get("match") {
        None | Some(Value::Null) => "{}".to_owned(),
        Some(m) => canonical(Some(m)),
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

/// JSON text of `value` with object keys sorted, so the order they were written in does not
/// matter.
fn canonical(value: Option<&Value>) -> String {
    fn write(value: &Value, out: &mut String) {
        match value {
            Value::Object(map) => {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                out.push('{');
                for (n, (key, v)) in entries.into_iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(key.clone()).to_string());
                    out.push(':');
                    write(v, out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    if let Some(value) = value {
        write(value, &mut out);
    }
    out
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
        assert_eq!((found[0].line, found[0].column), (7, 5));
        assert_eq!(found[0].path, "hooks[1]");
        assert!(found[0].message.contains("`a` (line 3)"), "{found:#?}");
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

    #[test]
    fn canonical_json_ignores_key_order() {
        let a: Value = serde_json::json!({"b": [1, {"y": 1, "x": 2}], "a": "s"});
        let b: Value = serde_json::json!({"a": "s", "b": [1, {"x": 2, "y": 1}]});
        assert_eq!(canonical(Some(&a)), canonical(Some(&b)));
        assert_ne!(
            canonical(Some(&serde_json::json!([1, 2]))),
            canonical(Some(&serde_json::json!([2, 1])))
        );
    }
}
