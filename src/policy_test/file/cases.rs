//! The file's top level and its cases: each case's name, point, context and expectation
//! checked, names unique, every problem kept for one report.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::{
    At, CASE_KEYS, Checker, DEFAULT_POINT, EXPECT_KEYS, Expectation, FILE_KEYS, SHORTHAND_KEYS,
    TestCase, TestFile, child, kind,
};
use crate::config::DiagnosticKind;
use crate::decision::Verdict;

impl Checker<'_> {
    pub(super) fn file(&mut self, value: &Value, path: &Path) -> Option<TestFile> {
        let Value::Object(map) = value else {
            self.schema(
                "",
                format!(
                    "expected a mapping with `cases` (and optionally `policy`), found {}",
                    kind(value)
                ),
            );
            return None;
        };
        self.unknown_keys(map, "", &[FILE_KEYS]);
        let policy = self.non_empty(map, "", "policy").map(|p| {
            let dir = path.parent().unwrap_or(Path::new(""));
            dir.join(p)
        });
        let cases = match map.get("cases") {
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.schema(
                    "/cases",
                    format!("expected a list of cases, found {}", kind(other)),
                );
                return None;
            }
            None => {
                self.schema("", "missing field `cases`");
                return None;
            }
        };
        let mut names: HashMap<String, usize> = HashMap::new();
        let mut out = Vec::with_capacity(cases.len());
        for (i, item) in cases.iter().enumerate() {
            let pointer = format!("/cases/{i}");
            let Some(case) = self.case(item, &pointer) else {
                continue;
            };
            if let Some(first) = names.get(&case.name) {
                self.semantic(
                    &child(&pointer, "name"),
                    format!("duplicate case name `{}`", case.name),
                    Some(format!("the first case of that name is on line {first}")),
                );
                continue;
            }
            names.insert(case.name.clone(), case.line);
            out.push(case);
        }
        Some(TestFile {
            path: path.to_path_buf(),
            policy,
            cases: out,
        })
    }

    fn case(&mut self, value: &Value, pointer: &str) -> Option<TestCase> {
        let Value::Object(map) = value else {
            self.schema(
                pointer,
                format!(
                    "expected a case (a mapping with `name` and `expect`), found {}",
                    kind(value)
                ),
            );
            return None;
        };
        let before = self.diagnostics.len();
        self.unknown_keys(map, pointer, &[CASE_KEYS, SHORTHAND_KEYS]);

        let name = self.non_empty(map, pointer, "name");
        if let Some(name) = &name
            && name.chars().any(char::is_control)
        {
            self.schema(
                &child(pointer, "name"),
                "a case name is one line, without control characters",
            );
        }
        if !map.contains_key("name") {
            self.schema(pointer, "missing field `name`");
        }

        let expect = self.expectation(map, pointer);
        let case_point = self.point(map, pointer);
        let context = match map.get("context") {
            Some(value) => {
                for key in SHORTHAND_KEYS.iter().filter(|k| map.contains_key(**k)) {
                    self.report(
                        DiagnosticKind::Semantic,
                        &child(pointer, key),
                        At::Key,
                        format!("`{key}` cannot be used together with `context`"),
                        Some(format!(
                            "describe the event either with `context` (a whole HookContext) or with the shorthand fields ({}), not both",
                            SHORTHAND_KEYS.join(", ")
                        )),
                    );
                }
                self.context(value, &child(pointer, "context"))
            }
            None => self.shorthand(map, pointer),
        };

        // The case's point wins; else the context's; else the default. Two different
        // points are a mistake worth naming.
        let point = match (case_point, context.as_ref().and_then(|c| c.point)) {
            (Some(a), Some(b)) if a != b => {
                self.semantic(
                    &child(pointer, "point"),
                    format!("`point: {a}` contradicts the context's `point: {b}`"),
                    Some("give the point once".to_owned()),
                );
                None
            }
            (Some(p), _) | (None, Some(p)) => Some(p),
            (None, None) => Some(DEFAULT_POINT),
        };

        if self.diagnostics.len() > before {
            return None;
        }
        Some(TestCase {
            name: name?,
            line: self.spans.value(pointer).line,
            point: point?,
            context: context?,
            expect: expect?,
        })
    }

    /// `expect: block` with `hook`/`message` beside it, or `expect: { decision: block, hook,
    /// message }`.
    fn expectation(&mut self, case: &Map<String, Value>, pointer: &str) -> Option<Expectation> {
        let (map, pointer, verdict_key) = match case.get("expect") {
            Some(Value::Object(inner)) => {
                let at = child(pointer, "expect");
                self.unknown_keys(inner, &at, &[EXPECT_KEYS]);
                for key in ["hook", "message"]
                    .iter()
                    .filter(|k| case.contains_key(**k))
                {
                    self.report(
                        DiagnosticKind::Semantic,
                        &child(pointer, key),
                        At::Key,
                        format!("`{key}` is given inside `expect` too"),
                        Some("give it once, inside `expect` or beside it".to_owned()),
                    );
                }
                (inner, at, "decision")
            }
            _ => (case, pointer.to_owned(), "expect"),
        };
        let pointer = pointer.as_str();
        let verdict = match self.string(map, pointer, verdict_key) {
            Some(text) => {
                let verdict = match text {
                    "allow" => Some(Verdict::Allow),
                    "block" => Some(Verdict::Block),
                    "ask" => Some(Verdict::Ask),
                    _ => None,
                };
                if verdict.is_none() {
                    let verdicts = ["allow", "block", "ask"];
                    let help = match crate::suggest::closest(text, verdicts) {
                        Some(near) => format!("did you mean `{near}`?"),
                        None => "expect one of `allow`, `block`, `ask`".to_owned(),
                    };
                    self.semantic(
                        &child(pointer, verdict_key),
                        format!("unknown verdict `{text}`"),
                        Some(help),
                    );
                }
                verdict
            }
            None => {
                if !map.contains_key(verdict_key) {
                    self.schema(
                        pointer,
                        format!("missing field `{verdict_key}` (allow, block or ask)"),
                    );
                }
                None
            }
        };
        let hook = self.non_empty(map, pointer, "hook");
        let message = self.non_empty(map, pointer, "message");
        if verdict == Some(Verdict::Allow) {
            // An allowed call has no deciding hook and no message to check.
            for key in ["hook", "message"].iter().filter(|k| map.contains_key(**k)) {
                self.report(
                    DiagnosticKind::Semantic,
                    &child(pointer, key),
                    At::Key,
                    format!("`{key}` needs a `block` or `ask` decision"),
                    Some("an allow decision has no deciding hook and no message".to_owned()),
                );
            }
        }
        Some(Expectation {
            verdict: verdict?,
            hook,
            message,
        })
    }
}
