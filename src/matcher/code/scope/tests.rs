use super::*;

#[test]
fn join_starts_over_at_an_absolute_part() {
    let k = Val::known;
    assert_eq!(join(&[k("~"), k(".ssh"), k("id_rsa")]), k("~/.ssh/id_rsa"));
    assert_eq!(join(&[k("a/"), k("b")]), k("a/b"));
    assert_eq!(join(&[k("a"), k("/etc"), k("passwd")]), k("/etc/passwd"));
    assert_eq!(join(&[k("a"), Val::Unknown]), Val::Unknown);
    assert_eq!(join(&[k("a"), Val::Prefix("/b".into())]), Val::Unknown);
    assert_eq!(
        k("~/.ssh/").concat(Val::Unknown),
        Val::Prefix("~/.ssh/".into())
    );
    assert_eq!(k("").concat(Val::Unknown), Val::Unknown);
    assert_eq!(
        Val::Prefix("a".into()).concat(k("b")),
        Val::Prefix("a".into())
    );
}

#[test]
fn home_is_written_as_the_shell_reader_writes_it() {
    assert_eq!(home("$HOME/.ssh"), "~/.ssh");
    assert_eq!(home("${HOME}"), "~");
    assert_eq!(home("$HOMEDIR"), "$HOMEDIR");
}

#[test]
fn a_name_bound_twice_is_not_known() {
    let mut names = Names::default();
    names.bind("x", Slot::Ref("os".into()));
    assert!(matches!(names.get("x"), Some(Slot::Ref(_))));
    // The same module again is still it; another is not known.
    names.bind("x", Slot::Ref("os".into()));
    assert!(matches!(names.get("x"), Some(Slot::Ref(q)) if q == "os"));
    names.bind("x", Slot::Ref("sys".into()));
    assert!(matches!(names.get("x"), Some(Slot::Many)));
    assert!(names.enter("x"));
    assert!(!names.enter("x"));
    names.leave();
    assert!(names.enter("x"));
}
