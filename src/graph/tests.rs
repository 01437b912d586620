use super::*;
use crate::config::load_str;

fn graph(yaml: &str) -> RuleGraph {
    let policy = load_str(yaml, Path::new("t.yaml")).expect("policy");
    RuleGraph::from_policy(&policy)
}

fn ids(g: &RuleGraph, point: Point, tool: Option<&str>) -> Vec<String> {
    g.candidates_for_tool(point, tool)
        .map(|h| h.id().to_owned())
        .collect()
}

#[test]
fn the_files_actions_write_are_the_gates() {
    let g = graph(
        "version: 1\nhooks:\n\
             - { name: a, point: turn:tool:pre, action: log, target: logs/audit.jsonl }\n\
             - { name: b, point: turn:tool:pre, action: log, target: \"logs/{sessionKey}.jsonl\" }\n",
    );
    let files = g.gate_files();
    assert!(
        files.iter().any(|f| f.ends_with("/logs/audit.jsonl")),
        "{files:?}"
    );
    // A path the call fills in is not one file.
    assert!(!files.iter().any(|f| f.contains("sessionKey")), "{files:?}");
}

#[test]
fn candidates_follow_priority_then_file_order_and_skip_other_tools() {
    let g = graph(
        "version: 1\nhooks:\n\
             - { name: a, point: turn:tool:pre, action: log }\n\
             - { name: b, point: turn:tool:pre, match: { tool: exec }, action: log }\n\
             - { name: c, point: turn:tool:pre, match: { tool: read }, action: log }\n\
             - { name: d, point: [turn:tool:pre, turn:pre], priority: 90, action: log }\n\
             - { name: e, point: turn:tool:pre, match: { tool: exec }, priority: 90, action: log }\n\
             - { name: f, point: turn:tool:pre, enabled: false, action: log }\n",
    );
    assert_eq!(
        ids(&g, Point::TurnToolPre, Some("exec")),
        ["d", "e", "a", "b"]
    );
    assert_eq!(ids(&g, Point::TurnToolPre, Some("read")), ["d", "a", "c"]);
    assert_eq!(ids(&g, Point::TurnToolPre, None), ["d", "a"]);
    assert_eq!(ids(&g, Point::TurnPre, Some("exec")), ["d"]);
    assert!(ids(&g, Point::CronPre, None).is_empty());
    assert_eq!(g.hooks()[0].points_label(), "turn:tool:pre, turn:pre");
}
