use super::*;

#[test]
fn the_table_names_each_call_once() {
    for (k, (name, _)) in SINKS.iter().enumerate() {
        assert!(
            !SINKS[k + 1..].iter().any(|(n, _)| n == name),
            "{name} is listed twice"
        );
        assert_eq!(
            canonical(name),
            *name,
            "{name} is not in its canonical spelling"
        );
    }
    assert_eq!(sink("requests.post"), Some(Request(Method::Named("post"))));
    assert_eq!(sink("requests.json"), None);
    assert_eq!(sink("posix.remove"), None, "callers canonicalise first");
    assert_eq!(
        sink("sqlite3.Connection.load_extension"),
        sink("?.load_extension")
    );
}
