//! The shared data corpus in `testdata/*.json`, run by one harness (after regex's
//! `testdata/*.toml`).
//!
//! Each file is `{ "description": "...", "cases": [case, ...] }`; a case is
//!
//! ```json
//! { "name": "unique, says what is checked",
//!   "policy": "HOOKS.yaml text" | ["one line", "per element"],
//!   "point": "turn:tool:pre",
//!   "context": { "sessionKey": "...", ... },
//!   "expect": { "decision": "block", "passed": false, "message": "..." | null,
//!               "hook": "..." | null, "mode": "enforce", "traceId": "...",
//!               "resultCount": 1,
//!               "results": [ { "hook": "...", "action": "block", "passed": false,
//!                              "message": "...", "audit": false } ] } }
//! ```
//!
//! Every `expect` key is optional and only the keys given are compared; `results`, when
//! given, lists every result. A failure names the file and the case.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hookgate::{Engine, HookContext, Point, RuleGraph, config};
use serde_json::{Map, Value};

/// Every corpus file, each run by its own test below.
const FILES: &[&str] = &[
    "audit.json",
    "block_message.json",
    "command_line.json",
    "decision.json",
    "filters.json",
    "log.json",
    "on_failure.json",
    "ordering.json",
    "points.json",
];

const CASE_KEYS: &[&str] = &["name", "policy", "point", "context", "expect"];
const EXPECT_KEYS: &[&str] = &[
    "decision",
    "passed",
    "message",
    "hook",
    "mode",
    "traceId",
    "resultCount",
    "results",
];
const RESULT_KEYS: &[&str] = &["hook", "action", "passed", "message", "audit"];

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

struct Case {
    name: String,
    policy: String,
    point: Point,
    context: HookContext,
    expect: Map<String, Value>,
}

fn read_cases(file: &str) -> Vec<Case> {
    let path = testdata().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let doc: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file} is not JSON: {e}"));
    let cases = doc["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("{file}: no `cases` list"));
    assert!(
        doc["description"].is_string(),
        "{file}: no `description` string"
    );
    cases.iter().map(|c| parse_case(file, c)).collect()
}

fn parse_case(file: &str, case: &Value) -> Case {
    let obj = case
        .as_object()
        .unwrap_or_else(|| panic!("{file}: a case is not an object: {case}"));
    let name = obj
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{file}: a case has no name: {case}"))
        .to_owned();
    let here = format!("{file} :: {name}");
    for key in obj.keys() {
        assert!(
            CASE_KEYS.contains(&key.as_str()),
            "{here}: unknown case key `{key}`"
        );
    }
    let policy = match obj.get("policy") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(lines)) => {
            let lines: Vec<&str> = lines
                .iter()
                .map(|l| {
                    l.as_str()
                        .unwrap_or_else(|| panic!("{here}: policy line is not a string"))
                })
                .collect();
            lines.join("\n") + "\n"
        }
        _ => panic!("{here}: `policy` must be a string or a list of lines"),
    };
    let point = obj
        .get("point")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{here}: no `point`"));
    let point: Point = point
        .parse()
        .unwrap_or_else(|e| panic!("{here}: bad point: {e}"));
    let context: HookContext =
        serde_json::from_value(obj.get("context").cloned().unwrap_or(Value::Null))
            .unwrap_or_else(|e| panic!("{here}: bad context: {e}"));
    let expect = obj
        .get("expect")
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("{here}: no `expect` object"))
        .clone();
    for key in expect.keys() {
        assert!(
            EXPECT_KEYS.contains(&key.as_str()),
            "{here}: unknown expect key `{key}`"
        );
    }
    for result in expect
        .get("results")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for key in result.as_object().into_iter().flat_map(Map::keys) {
            assert!(
                RESULT_KEYS.contains(&key.as_str()),
                "{here}: unknown result key `{key}`"
            );
        }
    }
    Case {
        name,
        policy,
        point,
        context,
        expect,
    }
}

/// Runs one case; `Err` lists every mismatch.
async fn run_case(case: &Case) -> Result<(), Vec<String>> {
    let policy = config::load_str(&case.policy, Path::new("HOOKS.yaml")).map_err(|e| {
        let mut out = vec![format!("policy does not load: {e}")];
        out.extend(e.diagnostics().iter().map(|d| format!("  {d}")));
        out
    })?;
    let engine = Engine::new(Arc::new(RuleGraph::from_policy(&policy)));
    let decision = engine.evaluate(case.point, &case.context).await;
    let actual = serde_json::to_value(&decision).map_err(|e| vec![format!("{e}")])?;
    let actual_results = actual["results"].as_array().cloned().unwrap_or_default();

    let mut problems = Vec::new();
    let mut check = |what: String, want: &Value, got: &Value| {
        if want != got {
            problems.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    for (key, want) in &case.expect {
        match key.as_str() {
            "resultCount" => check(
                "resultCount".into(),
                want,
                &Value::from(actual_results.len()),
            ),
            "results" => {
                let want = want.as_array().cloned().unwrap_or_default();
                check(
                    "number of results".into(),
                    &Value::from(want.len()),
                    &Value::from(actual_results.len()),
                );
                for (i, (w, got)) in want.iter().zip(&actual_results).enumerate() {
                    for (field, value) in w.as_object().into_iter().flatten() {
                        let got_value = match (field.as_str(), got.get(field)) {
                            ("audit", None) => Value::Bool(false),
                            (_, Some(v)) => v.clone(),
                            (_, None) => Value::Null,
                        };
                        check(format!("results[{i}].{field}"), value, &got_value);
                    }
                }
            }
            _ => check(key.clone(), want, actual.get(key).unwrap_or(&Value::Null)),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        problems.push(format!("decision was: {actual}"));
        Err(problems)
    }
}

async fn run_file(file: &str) {
    let cases = read_cases(file);
    assert!(!cases.is_empty(), "{file} has no cases");
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(problems) = run_case(case).await {
            failures.push(format!(
                "case `{}` in testdata/{file} failed:\n    {}",
                case.name,
                problems.join("\n    ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

macro_rules! corpus_file {
    ($($test:ident => $file:literal,)*) => {
        $(
            #[tokio::test]
            async fn $test() {
                run_file($file).await;
            }
        )*
    };
}

corpus_file! {
    corpus_audit => "audit.json",
    corpus_block_message => "block_message.json",
    corpus_command_line => "command_line.json",
    corpus_decision => "decision.json",
    corpus_filters => "filters.json",
    corpus_log => "log.json",
    corpus_on_failure => "on_failure.json",
    corpus_ordering => "ordering.json",
    corpus_points => "points.json",
}

#[test]
fn corpus_files_are_all_run_and_case_names_are_unique() {
    let on_disk: BTreeSet<String> = std::fs::read_dir(testdata())
        .expect("testdata/")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    let listed: BTreeSet<String> = FILES.iter().map(|f| (*f).to_owned()).collect();
    assert_eq!(on_disk, listed, "every testdata/*.json needs a test");

    let mut names = BTreeSet::new();
    let mut total = 0;
    for file in FILES {
        for case in read_cases(file) {
            total += 1;
            assert!(
                names.insert(case.name.clone()),
                "case name `{}` is used twice",
                case.name
            );
        }
    }
    assert!(total >= 25, "the corpus has only {total} cases");
}
