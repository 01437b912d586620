use super::*;

#[test]
fn words_match_whole_names() {
    let r = Language::R;
    assert!(names("system('ls')", "system", r));
    assert!(names("x <- 1; unlink (y)", "unlink", r));
    assert!(!names("filesystem(1)", "system", r));
    assert!(!names("my.system(1)", "system", r));
    assert!(!names("print(summary(x))", "system", r));
    assert!(!names(r#"write.csv(x, file = "out.csv")"#, "file", r));
    assert!(names("set f [open |sh w]", "open", Language::Tcl));
    assert!(!names("::http::geturl x", "http::geturl", Language::Tcl));
    assert!(names("File.delete('x')", "File", Language::Other));
    assert!(names(r#"cat("x\nsystem(\"id\")")"#, "system", r));
    // jshell reads as Java: a version print passes, a process started does not.
    assert!(!acts("jshell", "System.out.println(Runtime.version())"));
    assert!(acts("jshell", "Runtime.getRuntime().exec(\"id\")"));
    assert!(acts("jshell", "new ProcessBuilder(\"id\").start()"));
    // Elixir's modules that act; the project's own config read passes.
    assert!(acts(
        "mix",
        r#"for d <- ["_build", Path.expand("~")], do: File.rm_rf!(d)"#
    ));
    assert!(acts("elixir", r#"System.cmd("sh", ["-c", "id"])"#));
    assert!(!acts("mix", "IO.inspect(Mix.Project.config()[:version])"));
    // CMake's commands are called, in any case.
    assert!(names("file(remove_recurse x)", "file", Language::CMake));
    assert!(!names("set(file_list a b)", "file", Language::CMake));
}

#[test]
fn r_deletions_with_literal_paths_read_as_rm() {
    let (commands, rest) =
        r_deletions(r#"unlink(c("docs/_site", "x"), recursive = TRUE); print(1)"#).expect("read");
    assert_eq!(commands, [["rm", "-r", "-f", "--", "docs/_site", "x"]]);
    assert!(!rest.contains("unlink"));
    assert_eq!(
        r_deletions(r#"file.remove("a.txt")"#).expect("read").0,
        [["rm", "-f", "--", "a.txt"]]
    );
    // A computed path is not read: the call stays in the text, which is then unreadable.
    assert!(r_deletions("unlink(path.expand(x), recursive = TRUE)").is_none());
    // Past the most read, the calls left stay in the text.
    let many = r#"unlink("a"); "#.repeat(MOST_DELETIONS + 1);
    let (commands, rest) = r_deletions(&many).expect("read");
    assert_eq!(commands.len(), MOST_DELETIONS);
    assert!(names(&rest, "unlink", Language::R));
}

#[test]
fn tcl_deletions_with_literal_names_read_as_rm() {
    let (commands, _) = tcl_deletions("file delete -force ~").expect("read");
    assert_eq!(commands, [["rm", "-r", "-f", "~"]]);
    assert!(tcl_deletions("file delete [glob *]").is_none());
}
