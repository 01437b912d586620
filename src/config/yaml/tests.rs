use super::*;
use std::time::Instant;

/// The fast path must read every document exactly as the path with positions does.
#[test]
fn plain_and_positioned_reads_agree() {
    let mut texts: Vec<String> = [
        "version: 1\nn: [1e2, 100.0, 2.5, -3, 0x10, 1_000]\nb: [yes, no, on, true, ~, null]\n",
        "a: &x { k: [1, 2, {z: 'q'}] }\nb: *x\nc: \"\\u00e9\"\nd: |\n  multi\n  line\n",
        "- 1\n- - nested\n  - [deep, {x: y}]\n- ''\n",
        "key: value # comment\nempty:\nlist: []\nmap: {}\n",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/");
    texts.push(std::fs::read_to_string(format!("{root}HOOKS.yaml")).expect("HOOKS.yaml"));
    for entry in std::fs::read_dir(format!("{root}policies")).expect("policies") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "yaml") {
            texts.push(std::fs::read_to_string(&path).expect("policy"));
        }
    }
    for text in &texts {
        let plain = parse_plain(text, &YamlBudget::default()).expect("plain");
        assert_eq!(plain, parse_ok(text).value, "{text}");
    }
    for bad in ["a: .inf\n", "a: [1,\n", "a: 1\na: 2\n"] {
        assert!(parse_plain(bad, &YamlBudget::default()).is_err(), "{bad}");
        assert!(parse(bad, &YamlBudget::default()).is_err(), "{bad}");
    }
}

fn parse_ok(text: &str) -> Parsed {
    parse(text, &YamlBudget::default()).expect("valid yaml")
}

#[test]
fn positions_follow_pointers() {
    let p = parse_ok("version: \"1\"\nhooks:\n  - point: turn:pre\n    action: block\n");
    assert_eq!(p.value["hooks"][0]["action"], "block");
    assert_eq!(
        p.spans.value("/hooks/0/action"),
        Position {
            line: 4,
            column: 13
        }
    );
    assert_eq!(
        p.spans.key("/hooks/0/action"),
        Position { line: 4, column: 5 }
    );
    assert_eq!(p.spans.value("/hooks/0"), Position { line: 3, column: 5 });
    // An absent field is reported at its nearest present ancestor.
    assert_eq!(
        p.spans.value("/hooks/0/match/tool"),
        Position { line: 3, column: 5 }
    );
}

#[test]
fn pointer_tokens_are_escaped() {
    let p = parse_ok("\"a/b~c\": 1\n");
    assert_eq!(
        p.spans.value("/a~1b~0c"),
        Position {
            line: 1,
            column: 10
        }
    );
}

#[test]
fn syntax_errors_have_positions() {
    let err = parse("a: [1, 2\nb: 3\n", &YamlBudget::default()).unwrap_err();
    assert!(err.message.starts_with("invalid YAML"), "{}", err.message);
    assert!(!err.message.contains(" at line "), "{}", err.message);
    assert!(err.position.line >= 1);
}

#[test]
fn duplicate_keys_are_rejected() {
    let err = parse("a: 1\na: 2\n", &YamlBudget::default()).unwrap_err();
    assert_eq!(
        err.message,
        "duplicate key `a`: a key may appear once in a mapping"
    );
    assert_eq!(err.position.line, 2);
}

#[test]
fn alias_bomb_is_rejected_quickly() {
    let mut text = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
    for i in 1..12u8 {
        let (name, prev) = ((b'a' + i) as char, (b'a' + i - 1) as char);
        let refs = vec![format!("*{prev}"); 9].join(",");
        text.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    let start = Instant::now();
    let err = parse(&text, &YamlBudget::default()).unwrap_err();
    assert!(
        err.message.contains("budget") || err.message.contains("alias"),
        "{}",
        err.message
    );
    // Not a timing assertion on the gate: a bound that only a hang would break.
    assert!(start.elapsed().as_secs() < 10);
}

#[test]
fn deep_nesting_is_rejected() {
    let text = format!("a: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let err = parse(&text, &YamlBudget::default()).unwrap_err();
    assert_eq!(err.message, "nesting is deeper than the limit of 32 levels");
}

#[test]
fn oversized_files_are_rejected_before_parsing() {
    let budget = YamlBudget {
        max_bytes: 10,
        ..YamlBudget::default()
    };
    let err = parse("version: \"1\"\nhooks: []\n", &budget).unwrap_err();
    assert!(err.message.contains("byte limit"));
}

#[test]
fn empty_text_is_null() {
    assert_eq!(parse_ok("  \n# only a comment\n").value, Value::Null);
}
