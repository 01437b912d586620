use super::*;

fn env_with(vars: &[(&str, &str)]) -> Env {
    let mut env = Env::default();
    for (name, value) in vars {
        env.set(name, Value::known(*value));
    }
    env
}

#[test]
fn restore_undoes_every_change_since_the_mark() {
    let mut env = env_with(&[("x", "1"), ("a", "keep")]);
    env.set_array("arr", vec![Value::known("p")]);
    let mark = env.mark();
    env.set("x", Value::known("2"));
    env.set("y", Value::known("3"));
    env.unset("a");
    assert_eq!(env.set_element("arr", "1".to_owned(), Value::known("q")), 1);
    env.set("x", Value::known("4"));
    assert_eq!(env.changes_since(mark), 5);
    env.restore(mark);
    assert_eq!(env.get("x"), Value::known("1"));
    assert_eq!(env.get("a"), Value::known("keep"));
    assert!(!env.assigned("y"));
    assert_eq!(env.array("arr"), Some(vec![Value::known("p")]));
    assert_eq!(env.changes_since(mark), 0);
}

#[test]
fn join_makes_what_changed_unknown() {
    let mut env = env_with(&[("x", "1"), ("same", "s")]);
    let mark = env.mark();
    env.set("x", Value::known("2"));
    env.set("same", Value::known("s"));
    env.set("new", Value::known("n"));
    env.unset("same");
    env.set("same", Value::known("s"));
    env.join(mark);
    assert_eq!(env.get("x"), Value::Unknown);
    assert_eq!(env.get("new"), Value::Unknown);
    assert_eq!(env.get("same"), Value::known("s"));
}

#[test]
fn branches_agree_or_make_a_variable_unknown() {
    let mut env = env_with(&[("both", "0"), ("one", "0"), ("kept", "0")]);
    let outer = env.mark();
    let mut branches = Branches::from(env.mark());
    env.set("both", Value::known("1"));
    env.set("one", Value::known("1"));
    env.end_branch(&mut branches);
    assert_eq!(env.get("one"), Value::known("0"), "each way starts again");
    env.set("both", Value::known("1"));
    env.set("kept", Value::known("0"));
    env.end_branch(&mut branches);
    env.join_branches(branches);
    // The values at the mark are one of the ways: `both` differs from them.
    assert_eq!(env.get("both"), Value::Unknown);
    assert_eq!(env.get("one"), Value::Unknown);
    assert_eq!(env.get("kept"), Value::known("0"));
    // What the join did is itself undone by a mark around it.
    env.restore(outer);
    assert_eq!(env.get("both"), Value::known("0"));
    assert_eq!(env.get("one"), Value::known("0"));
}
