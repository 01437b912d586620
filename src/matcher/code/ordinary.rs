//! Code of the kind agents and libraries write, to any length: what the tests and the
//! benches (`benches/code.rs` includes this file) read as ordinary code.

/// Python as scripts are written, at most `bytes` long (and within a function of it):
/// functions with docstrings, comments, comprehensions, f-strings and a file written per
/// function.
pub(crate) fn ordinary_python(bytes: usize) -> String {
    let mut code = String::from("import json\nimport os\nimport sys\n\n");
    for k in 0.. {
        let function = format!(
            r#"def step_{k}(items, limit=10):
    """Return the items scored over the limit, and write their names to a report."""
    # Entries without a score are left out: the report has no use for them.
    chosen = [x for x in items if x.get("score", 0) > limit]
    total = sum(x["score"] for x in chosen)
    if not chosen:
        return []
    names = ", ".join(sorted(x["name"] for x in chosen))
    print(f"step {k}: {{len(chosen)}} items, total {{total}}: {{names}}")
    with open(os.path.join("reports", "step-{k}.txt"), "w") as out:
        out.write(names + "\n")
    return chosen


"#
        );
        if code.len() + function.len() > bytes {
            break;
        }
        code.push_str(&function);
    }
    code
}
