use super::discover::scan;
use super::*;

#[test]
fn canonical_json_ignores_key_order_but_not_values() {
    let a =
        serde_json::json!({ "tool": "exec", "commandPattern": "rm", "x": [1, { "b": 1, "a": 2 }] });
    let b =
        serde_json::json!({ "x": [1, { "a": 2, "b": 1 }], "commandPattern": "rm", "tool": "exec" });
    let c = serde_json::json!({ "tool": "exec", "commandPattern": "rm ", "x": [1, { "b": 1, "a": 2 }] });
    assert_eq!(canonical_json(Some(&a)), canonical_json(Some(&b)));
    assert_ne!(canonical_json(Some(&a)), canonical_json(Some(&c)));
    assert_eq!(canonical_json(None), "");
    assert_ne!(
        canonical_json(Some(&serde_json::json!({}))),
        canonical_json(None)
    );
}

#[test]
fn a_single_file_hashes_as_its_text_and_a_composed_one_covers_every_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("HOOKS.yaml");
    let text = "version: \"1\"\nhooks: []\n";
    std::fs::write(&root, text).expect("write");
    let single = crate::config::load_file(&root).expect("loads");
    assert_eq!(single.hash(), content_hash(text));

    std::fs::write(&root, "version: \"1\"\nhooks: []\ninclude: [p.yaml]\n").expect("write");
    std::fs::write(dir.path().join("p.yaml"), "version: \"1\"\nhooks: []\n").expect("write");
    let first = crate::config::load_file(&root).expect("loads").hash();
    std::fs::write(dir.path().join("p.yaml"), "version: 1\nhooks: []\n").expect("write");
    let second = crate::config::load_file(&root).expect("loads").hash();
    assert_ne!(first, second, "an included file's change changes the hash");
}

#[test]
fn scan_stops_at_the_depth_and_skips_vendored_directories() {
    let dir = tempfile::tempdir().expect("tempdir");
    for path in [
        "HOOKS.yaml",
        "a/HOOKS.yaml",
        "a/b/HOOKS.yaml",
        "node_modules/HOOKS.yaml",
        "dist/HOOKS.yaml",
    ] {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, "").expect("write");
    }
    let mut dirs = Vec::new();
    let found = scan(dir.path(), 1, &mut dirs).expect("scans");
    assert_eq!(
        found,
        [
            dir.path().join("HOOKS.yaml"),
            dir.path().join("a/HOOKS.yaml")
        ]
    );
    assert_eq!(dirs.len(), 2, "{dirs:?}");
    assert!(scan(&dir.path().join("missing"), 4, &mut dirs).is_err());
}
