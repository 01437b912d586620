use super::*;

#[test]
fn bad_code_gets_a_reason_and_a_line() {
    let err = |lang, code: &str| {
        let mut work = usize::MAX;
        parse(lang, code, &mut work)
            .err()
            .map(|u| (u.reason, u.line))
    };
    assert_eq!(
        err(Lang::Python, "import os\nos.system('x'"),
        Some(("the python code has a syntax error", 2))
    );
    assert_eq!(
        err(Lang::Python, "x = 1\n\0"),
        Some(("the code holds a NUL byte", 2))
    );
    let deep = |n| format!("{}1{}", "(".repeat(n), ")".repeat(n));
    assert_eq!(
        err(Lang::Python, &deep(2_000)).map(|e| e.0),
        Some("the code nests brackets too deeply to read")
    );
    assert!(err(Lang::Python, &deep(10_000)).is_some());
    assert!(parse(Lang::Python, "print(1)", &mut 1).is_ok());
    // Every named node is entered and left once, in document order, and a node whose
    // enter says no is not gone below.
    let tree = parse(Lang::Python, "f(g(1), [2])", &mut 1).expect("parses");
    let mut seen = Vec::new();
    visit(tree.root_node(), |node, depth, at| {
        seen.push(format!("{at:?} {depth} {}", node.kind()));
        node.kind() != "list"
    });
    let entered = seen.iter().filter(|s| s.starts_with("Enter")).count();
    assert_eq!(entered, seen.len() / 2, "{seen:?}");
    assert_eq!(seen.first().map(String::as_str), Some("Enter 0 module"));
    assert_eq!(seen.last().map(String::as_str), Some("Leave 0 module"));
    assert!(seen.contains(&"Enter 6 integer".to_owned()), "{seen:?}");
    // The list was not gone below: its integer is not visited.
    assert_eq!(
        seen.iter().filter(|s| s.ends_with(" integer")).count(),
        2,
        "{seen:?}"
    );
    assert!(parse(Lang::Php, "system('ls');", &mut 1).is_ok());
}

#[test]
fn parse_work_is_counted_alike_every_time_and_runs_out() {
    let code = "x = f(g(h([{'a': (1, [2, {3: 4}])}])))\n".repeat(200);
    let spent = |work: usize| {
        let mut left = work;
        let parsed = parse(Lang::Python, &code, &mut left);
        (parsed.map(|_| ()).map_err(|u| u.reason), work - left)
    };
    let (parsed, needed) = spent(usize::MAX / 2);
    assert_eq!(parsed, Ok(()));
    assert!(needed > 10, "{needed}");
    // The same code costs the same, and one unit less does not do.
    assert_eq!(spent(needed), (Ok(()), needed));
    assert_eq!(
        spent(needed - 1),
        (Err("the code is too complex to read in time"), needed - 1)
    );
}

#[test]
fn perl_keys_named_like_quoting_operators_are_keys() {
    let input = |code| String::from_utf8_lossy(&grammar_input(Lang::Perl, code)).into_owned();
    assert_eq!(
        input("print $j->{s}, $opt{q}, @h{tr}, $h{qq}{y}; s{a}{b}; $x =~ s{c}{d}"),
        "print $j->{_}, $opt{_}, @h{_r}, $h{_q}{y}; s{a}{b}; $x =~ s{c}{d}"
    );
    // Not a subscript: a block, or a name followed by a space.
    assert_eq!(input("{s}x}y}; $h {s}"), "{s}x}y}; $h {s}");
    assert_eq!(input("h{s}"), "h{s}");
}

#[test]
fn python_2_statements_are_not_read_where_python_3_calls_are() {
    let input = |code| String::from_utf8_lossy(&grammar_input(Lang::Python, code)).into_owned();
    assert_eq!(
        input("print(x); sprint(y); x.print\t(z); exec(c); éprint(d)"),
        "_rint(x); sprint(y); x._rint\t(z); _xec(c); éprint(d)"
    );
    assert_eq!(
        input("print 'x'; exec code in ns; s = 'print(1)'"),
        "print 'x'; exec code in ns; s = '_rint(1)'"
    );
    assert_eq!(input("print(1)").len(), "print(1)".len());
    // The tree is the one the grammar makes of the code as written, named as written.
    let tree_of = |bytes: &[u8]| {
        let mut parser = Parser::new();
        parser.set_language(&Lang::Python.grammar()).expect("loads");
        parser
            .parse(bytes, None)
            .expect("parses")
            .root_node()
            .to_sexp()
    };
    for code in [
        "import json,sys; d = json.load(open('package.json')); print(d['name'], d['version'])",
        "print(open('x').read()); print(*a, sep='', file=sys.stderr)",
        "print (x), y",
        "exec(open('f').read()); exec (compile(s, 'f', 'exec'))",
        "[print(i) for i in range(3)]; f = lambda: print(1)",
        "print(x) if y else exec(z)",
        "def f():\n    print('a')\n    exec('b')\n",
        "print(f'{print(1)}')",
    ] {
        assert_eq!(
            tree_of(&grammar_input(Lang::Python, code)),
            tree_of(code.as_bytes()),
            "{code}"
        );
    }
    // The parse itself is lighter: its work, counted as the parse bound counts it, drops.
    let code = format!("import os\n{}", "print(os.getcwd(), 1)\n".repeat(50));
    let spent_on = |bytes: &[u8]| {
        let mut parser = Parser::new();
        parser.set_language(&Lang::Python.grammar()).expect("loads");
        let mut work = usize::MAX / 2;
        parse_with(&mut parser, bytes, &mut work).expect("parses");
        usize::MAX / 2 - work
    };
    let mut work = usize::MAX / 2;
    parse(Lang::Python, &code, &mut work).expect("parses");
    let spent = usize::MAX / 2 - work;
    assert!(spent < spent_on(code.as_bytes()), "{spent} units");
    assert_eq!(spent, spent_on(&grammar_input(Lang::Python, &code)));
    // Read both ways, this call's unpacked argument came out as a call of an unpacked
    // attribute; as Python 3 reads it, it is the unpacking of a call.
    let code = "print('==', platform.python_implementation(), *sys.version.split())";
    assert!(
        tree_of(&grammar_input(Lang::Python, code)).contains("(list_splat (call"),
        "{code}"
    );
}
