//! Code that does not end: a loop whose condition never fails, or a function that calls
//! itself. Either, around a program started, a fork or a file written, is a fork bomb or a
//! disk filler, whatever the calls are.

use tree_sitter::{Node, Tree};

use super::Lang;
use super::scope::Site;
use super::tree::{Source, Visit, kind, visit};

/// Devices whose reading never ends: what a shell filter or code reads whole from one
/// fills memory or, copied, the disk.
pub(crate) const ENDLESS_DEVICES: &[&str] =
    &["/dev/zero", "/dev/urandom", "/dev/random", "/dev/full"];

/// How the loops of some code end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Looping {
    /// Every loop may end.
    Ends,
    /// A loop never ends by its condition: starting programs or writing files in it makes
    /// the code opaque.
    Endless,
    /// Such a loop also grows what it holds each time round (a memory bomb).
    Grows,
}

/// Whether `code` has a loop that never ends by its condition (`while True:`, `loop do`,
/// `for (;;)`, `setInterval`), and whether it grows what it holds each time round:
/// appends, pushes, repeats or doubles a value (`while True: a.append("x" * 10**8)`,
/// `for(;;) a.push(Buffer.alloc(1<<26))`). Read from the text, spaces removed. Agents'
/// one-liners end; a watcher or poller is a program's job. A loop left by `break` (`last`
/// in Perl) may end: a retry loop around `subprocess.run` is ordinary.
pub(super) fn looping(lang: Lang, code: &str) -> Looping {
    let bare: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    // A loop that yields runs only as far as what takes its values asks for: a
    // generator's `while True: x = yield` holds what it holds, as a coroutine does.
    let yields = matches!(lang, Lang::Python | Lang::JavaScript) && code.contains("yield");
    if !endless_loop(lang, code, &bare) {
        Looping::Ends
    } else if GROWS.iter().any(|g| bare.contains(g)) && !yields {
        Looping::Grows
    } else {
        Looping::Endless
    }
}

/// Whether `code` (`bare`: without its spaces) has a loop that never ends by its condition.
fn endless_loop(lang: Lang, code: &str, bare: &str) -> bool {
    const PYTHON: &[&str] = &[
        "while1:",
        "whileTrue:",
        "iter(int,1)",
        "itertools.count(",
        "itertools.cycle(",
    ];
    const JAVASCRIPT: &[&str] = &["for(;;)", "while(true)", "while(1)", "setInterval("];
    const RUBY: &[&str] = &[
        "loop{",
        "loopdo",
        "whiletrue",
        "Float::INFINITY",
        "untilfalse",
    ];
    const PERL: &[&str] = &["while1", "while(1)", "for(;;)", "redo", "goto"];
    const PHP: &[&str] = &["while(1)", "while(true)", "for(;;)"];
    const LUA: &[&str] = &["whiletruedo", "untilfalse"];
    let constructs = match lang {
        Lang::Python => PYTHON,
        Lang::JavaScript => JAVASCRIPT,
        Lang::Ruby => RUBY,
        Lang::Perl => PERL,
        Lang::Php => PHP,
        Lang::Lua => LUA,
    };
    let leaves = match lang {
        Lang::Perl => "last",
        _ => "break",
    };
    // `for (let i = 0; ; i++)`: a C-style loop whose condition is left out.
    let c_style = matches!(lang, Lang::JavaScript | Lang::Php | Lang::Perl)
        && bare.contains("for(")
        && bare.contains(";;");
    let first = constructs
        .iter()
        .filter_map(|c| bare.find(c))
        .chain(bare.find("for(").filter(|_| c_style))
        .min();
    // A `return` after the loop starts may leave it (a reaper's `while True:` that returns
    // when no child is left); one before it is another function's.
    let returns = first.is_some_and(|at| bare[at..].contains("return"));
    first.is_some() && !code.contains(leaves) && !returns
}

/// What a loop that never ends does when it grows what it holds: it takes the machine's
/// memory.
const GROWS: &[&str] = &[
    ".append(",
    ".extend(",
    ".insert(",
    ".push(",
    ".concat(",
    ".alloc(",
    "str_repeat(",
    "string.rep(",
    "table.insert(",
    "[]=",
    "<<",
    "+=",
    "*=",
    // Perl's and PHP's string appends and repeats, Perl's `push @a`.
    ".=",
    "x=",
    "push@",
    "push(@",
    "bytearray(",
    // A comprehension or a list of an endless iterator: `{i: ... for i in
    // itertools.count()}`, `list(iter(int, 1))`.
    "initertools.count(",
    "initertools.cycle(",
    "initer(int,1)",
    "list(itertools.count(",
    "list(itertools.cycle(",
    "list(iter(int,1)",
    "set(itertools.count(",
    "tuple(itertools.count(",
];

/// The line of a function that calls itself, or names itself to be called back
/// (`setImmediate(f)`, `Thread(target=f)`), and that holds one of the `spawns` (where the
/// code starts a program, forks or writes a file: inside its bytes when the call's bytes
/// are known, else on its lines). One walk that keeps the functions
/// around each node; a name is compared with the innermost few only.
pub(super) fn spawns_in_a_function_that_calls_itself(
    lang: Lang,
    tree: &Tree,
    src: &Source<'_>,
    spawns: &[Site],
) -> Option<usize> {
    const INNERMOST: usize = 16;
    if spawns.is_empty() {
        return None;
    }
    let mut open: Vec<(Node<'_>, Node<'_>)> = Vec::new();
    let mut found = None;
    visit(tree.root_node(), |node, _, at| {
        if found.is_some() {
            return false;
        }
        if at == Visit::Leave {
            if open.last().is_some_and(|(def, _)| def.id() == node.id()) {
                open.pop();
            }
            return false;
        }
        if let Some(name) = defined_name(lang, node) {
            open.push((node, name));
        } else if node.child_count() == 0 && matches!(kind(lang, node), "identifier" | "name")
            || matches!(kind(lang, node), "scalar_variable" | "variable_name")
        {
            let text = src.of(node);
            // `subprocess.run` in `def run(c)` is another function: a name after a `.`
            // (`->`, `::`) belongs to an object.
            let recursive = open
                .iter()
                .rev()
                .take(INNERMOST)
                .find(|(_, name)| name.id() != node.id() && src.of(*name) == text)
                .filter(|_| {
                    !node
                        .prev_sibling()
                        .is_some_and(|p| matches!(p.kind(), "." | "->" | "::" | "&." | "?."))
                });
            if let Some((def, _)) = recursive
                && !descends_a_listing(lang, src, node, *def)
            {
                let (first, last) = (
                    src.line(*def),
                    src.line(*def) + def.end_position().row - def.start_position().row,
                );
                let inside = |s: &Site| match &s.bytes {
                    Some(bytes) => def.byte_range().contains(&bytes.start),
                    None => (first..=last).contains(&s.line),
                };
                if spawns.iter().any(inside) {
                    found = Some(first);
                }
            }
        }
        true
    });
    found
}

/// The names of calls that list a directory's entries.
const LISTINGS: &[&str] = &[
    "readdirSync",
    "readdir",
    "opendirSync",
    "opendir",
    "scandir",
    "listdir",
    "iterdir",
    "glob",
    "iglob",
    "each_child",
    "each_entry",
    "children",
    "DirectoryIterator",
    "RecursiveDirectoryIterator",
];

/// Whether the call of its own function at `name` walks a directory tree: it is made in
/// a loop (or a callback, or a block) over a listing of a directory named by one of the
/// function's parameters (`for (const e of fs.readdirSync(d))`, `for e in os.scandir(d):`,
/// `Dir.each_child(d) { |e| ... }`), with another argument than the function was given,
/// and the function does not fork. Each call then goes a directory further down, and the
/// walk ends where the tree does: a recursive codemod or cleanup, not a bomb. A fork in
/// it would double the walkers at each directory. Read from the tree, so a comment that
/// names a listing does not count.
fn descends_a_listing(lang: Lang, src: &Source<'_>, name: Node<'_>, def: Node<'_>) -> bool {
    if src.of(def).contains("fork") {
        return false;
    }
    // The call's arguments, and the parameters of the function, as written.
    let arguments = name
        .next_sibling()
        .filter(|a| kind(lang, *a).contains("argument"))
        .map(|a| src.of(a).trim_matches(['(', ')', ' ']));
    // `const walk = (d) => ...` holds its parameters in its value.
    let function = def.child_by_field_name("value").unwrap_or(def);
    let Some(parameters) = function
        .child_by_field_name("parameters")
        .or_else(|| function.child_by_field_name("parameter"))
        .map(|p| src.of(p).trim_matches(['(', ')', ' ']))
    else {
        return false;
    };
    match arguments {
        Some(a) if !a.is_empty() && a != parameters => {}
        _ => return false,
    }
    let names: Vec<&str> = parameters
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
        .collect();
    // Up from the call to the function: a listing before the branch the call is in.
    let mut inner = name;
    while let Some(outer) = inner.parent() {
        if outer.id() == def.id() {
            return false;
        }
        let mut c = outer.walk();
        let before = outer
            .children(&mut c)
            .take_while(|child| child.id() != inner.id())
            .collect::<Vec<_>>();
        let lists = std::iter::once(outer)
            .filter(|o| lists_a_parameter(lang, src, *o, &names))
            .chain(
                before
                    .into_iter()
                    .filter(|b| holds_a_listing(lang, src, *b, &names)),
            )
            .next()
            .is_some();
        if lists {
            return true;
        }
        inner = outer;
    }
    false
}

/// Whether `node` or a node below it (at most a few hundred) is a call of a listing of a
/// directory one of `parameters` names.
fn holds_a_listing(lang: Lang, src: &Source<'_>, node: Node<'_>, parameters: &[&str]) -> bool {
    const MOST_NODES: usize = 256;
    let mut seen = 0;
    let mut found = false;
    visit(node, |n, _, at| {
        if found || at == Visit::Leave || seen >= MOST_NODES || kind(lang, n) == "comment" {
            return false;
        }
        seen += 1;
        found = lists_a_parameter(lang, src, n, parameters);
        true
    });
    found
}

/// Whether `node` is a call of a listing (see [`LISTINGS`]) whose arguments name one of
/// `parameters`.
fn lists_a_parameter(lang: Lang, src: &Source<'_>, node: Node<'_>, parameters: &[&str]) -> bool {
    if !kind(lang, node).contains("call") {
        return false;
    }
    let callee = ["method", "function", "name"]
        .iter()
        .find_map(|f| node.child_by_field_name(f))
        .map(|c| {
            ["property", "attribute", "name"]
                .iter()
                .find_map(|f| c.child_by_field_name(f))
                .unwrap_or(c)
        });
    let Some(callee) = callee else { return false };
    let called = src.of(callee);
    let called = called.rsplit(['.', ':', '>']).next().unwrap_or(called);
    if !LISTINGS.contains(&called) {
        return false;
    }
    let Some(arguments) = node.child_by_field_name("arguments") else {
        return false;
    };
    let text = src.of(arguments);
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
    parameters.iter().any(|p| {
        text.match_indices(p).any(|(k, _)| {
            !word(text[..k].chars().next_back()) && !word(text[k + p.len()..].chars().next())
        })
    })
}

/// The name node of a function definition (`def f`, `function f`, `sub f`, `const f = () =>
/// ...`).
fn defined_name<'t>(lang: Lang, node: Node<'t>) -> Option<Node<'t>> {
    match kind(lang, node) {
        "function_definition"
        | "function_declaration"
        | "function_expression"
        | "generator_function_declaration"
        | "method" => node.child_by_field_name("name"),
        "variable_declarator"
            if node.child_by_field_name("value").is_some_and(|v| {
                matches!(kind(lang, v), "arrow_function" | "function_expression")
            }) =>
        {
            node.child_by_field_name("name")
        }
        // Perl's `$g = sub { fork; $g->() }`, PHP's `$g = function () use (&$g) { ...; $g(); }`.
        "binary_expression" | "assignment_expression"
            if matches!(lang, Lang::Perl | Lang::Php)
                && node
                    .child_by_field_name("operator")
                    .is_none_or(|op| op.kind() == "=")
                && node
                    .named_child(node.named_child_count().saturating_sub(1) as u32)
                    .is_some_and(|v| {
                        matches!(
                            kind(lang, v),
                            "anonymous_function"
                                | "anonymous_function_creation_expression"
                                | "arrow_function"
                        )
                    }) =>
        {
            let left = node.named_child(0)?;
            match kind(lang, left) {
                "scalar_variable" | "variable_name" => Some(left),
                "variable_declaration" => left.child_by_field_name("variable_name"),
                _ => None,
            }
        }
        // Python's `f = lambda: [os.fork(), f()]`.
        "assignment"
            if node
                .child_by_field_name("right")
                .is_some_and(|v| kind(lang, v) == "lambda") =>
        {
            node.child_by_field_name("left")
                .filter(|l| kind(lang, *l) == "identifier")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::matcher::code::{Lang, read};

    #[test]
    fn a_function_that_calls_itself_around_a_fork_is_a_fork_bomb() {
        for (lang, code) in [
            (
                Lang::Python,
                "import os\ndef b():\n    os.fork(); os.fork(); b()\nb()",
            ),
            (Lang::Python, "import os; f = lambda: [os.fork(), f()]; f()"),
            (
                Lang::Python,
                "import threading\ndef t():\n    threading.Thread(target=t).start()\nt()",
            ),
            (
                Lang::Python,
                "import multiprocessing as mp\ndef boom():\n    while True:\n        mp.Process(target=boom).start()\nboom()",
            ),
            (
                Lang::JavaScript,
                "const cp = require('child_process'); (function f() { cp.exec('sleep 9'); setImmediate(f); })()",
            ),
            (
                Lang::JavaScript,
                "const cp = require('child_process'); const f = () => { cp.spawn('sleep', ['9']); f(); }; f()",
            ),
            (Lang::Perl, "sub f { fork; fork; f() } f()"),
            // A sub held by a variable, calling itself through it.
            (Lang::Perl, "my $g; $g = sub { fork; $g->() }; $g->()"),
            (Lang::Perl, "my $g = sub { fork; $g->() }; $g->()"),
            (
                Lang::Php,
                "$g = function () use (&$g) { pcntl_fork(); $g(); }; $g();",
            ),
            (Lang::Ruby, "g = ->{ fork; g.() }; g.()"),
        ] {
            assert!(read(lang, code).opaque.is_some(), "{code}");
        }
        // One that does not call itself is not.
        assert!(
            read(Lang::Perl, "my $f = sub { fork }; $f->(); $f->()")
                .opaque
                .is_none()
        );
    }

    #[test]
    fn a_directory_walk_that_calls_itself_ends_where_the_tree_does() {
        let walk = |body: &str| {
            format!(
                "const fs = require('fs'), path = require('path');\nfunction walk(d) {{\n  for (const e of fs.readdirSync(d, {{ withFileTypes: true }})) {{\n    const p = path.join(d, e.name);\n    {body}\n  }}\n}}\nwalk('src');"
            )
        };
        let opaque = |code: &str| read(Lang::JavaScript, code).opaque;
        let rewrite = walk(
            "if (e.isDirectory()) walk(p); else fs.writeFileSync(p, fs.readFileSync(p, 'utf8').trim());",
        );
        assert!(opaque(&rewrite).is_none(), "{rewrite}");
        let python = "import os\ndef walk(d):\n    for e in os.scandir(d):\n        if e.is_dir():\n            walk(e.path)\n        else:\n            open(e.path, 'a').close()\nwalk('src')";
        assert!(read(Lang::Python, python).opaque.is_none());
        // The same directory again each time never ends; a fork doubles the walkers.
        for body in [
            "fs.writeFileSync(p, 'x'); walk(d);",
            "require('child_process').fork('x.js'); walk(p);",
        ] {
            let code = walk(body);
            assert!(opaque(&code).is_some(), "{code}");
        }
        // A listing only in a comment, or of another directory than the parameter's, does
        // not bound the recursion.
        for code in [
            "const fs = require('fs');\nfunction f(d) {\n  for (const x of [1, 2]) { /* fs.readdirSync(d) */ fs.writeFileSync('a' + x, 'x'); f(d + 'x'); }\n}\nf('a');",
            "const fs = require('fs');\nfunction f(d) {\n  for (const e of fs.readdirSync('.')) { fs.writeFileSync(e, 'x'); f(d + 'x'); }\n}\nf('a');",
        ] {
            assert!(opaque(code).is_some(), "{code}");
        }
        let ruby = "def walk(d)\n  Dir.each_child(d) { |e| p = File.join(d, e); File.directory?(p) ? walk(p) : File.write(p, File.read(p).strip) }\nend\nwalk('src')";
        assert!(read(Lang::Ruby, ruby).opaque.is_none());
        // On one line, a program started outside a function is told apart by its bytes;
        // a file opened outside and written inside is still inside.
        assert!(opaque("const fs = require('fs'); const f = (o) => typeof o === 'object' ? Object.values(o).map(f) : o; f(require('./a.json'))").is_none());
        assert!(opaque("const w = require('fs').createWriteStream('/tmp/x'); const b = Buffer.alloc(1 << 20); (function f() { while (w.write(b)); w.once('drain', f) })()").is_some());
    }

    #[test]
    fn a_loop_that_never_ends_and_grows_a_value_is_a_memory_bomb() {
        let bomb = "the code grows what it holds in a loop that never ends (a memory bomb)";
        for (lang, code) in [
            (
                Lang::Python,
                "a = []\nwhile True:\n    a.append('x' * 10**8)",
            ),
            (
                Lang::JavaScript,
                "const a=[];for(;;)a.push(Buffer.alloc(1<<26,1))",
            ),
            (Lang::Php, "$a=[]; while(1) $a[]=str_repeat('x',1<<27);"),
            (Lang::Ruby, "a = []; loop { a << 'x' * 2**27 }"),
            (
                Lang::Lua,
                "local t = {} while true do table.insert(t, string.rep('x', 2^27)) end",
            ),
            (Lang::Perl, "$x .= 'A' x 2**30 while 1"),
            (Lang::Perl, "my @a; while (1) { push @a, 'x' x 2**20 }"),
            (
                Lang::Php,
                "$s = ''; while (true) { $s .= str_pad('', 1 << 20); }",
            ),
        ] {
            assert_eq!(
                read(lang, code).opaque.map(|u| u.reason),
                Some(bomb),
                "{code}"
            );
        }
        // A loop that is left, or one that only reads, is ordinary.
        for (lang, code) in [
            (
                Lang::Python,
                "import sys\nn = 0\nwhile True:\n    line = sys.stdin.readline()\n    if not line: break\n    n += 1\nprint(n)",
            ),
            (
                Lang::Python,
                "xs = []\nfor i in range(10):\n    xs.append(i)\nprint(xs)",
            ),
            // A reaper that returns when no child is left; a generator fed with `send`.
            (
                Lang::Python,
                "import os, signal\ndef reap(s, f):\n    while True:\n        pid, _ = os.waitpid(-1, os.WNOHANG)\n        if pid == 0:\n            return\nsignal.signal(signal.SIGCHLD, reap)",
            ),
            (
                Lang::Python,
                "def counter():\n    n = 0\n    while True:\n        x = yield n\n        n += 1\nc = counter()\nnext(c)\nprint(c.send(1))",
            ),
        ] {
            assert_eq!(read(lang, code).opaque, None, "{code}");
        }
    }

    #[test]
    fn recursion_or_processes_alone_are_ordinary() {
        for (lang, code) in [
            (
                Lang::Python,
                "def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\nprint(fact(5))",
            ),
            (
                Lang::Python,
                "import subprocess\ndef run(c):\n    subprocess.run(c)\nrun(['ls'])\nrun(['pwd'])",
            ),
            (
                Lang::Python,
                "import os, subprocess\ndef walk(d):\n    for e in os.scandir(d):\n        if e.is_dir(): walk(e.path)\nwalk('src')\nsubprocess.run(['git', 'status'])",
            ),
            (
                Lang::Python,
                "import multiprocessing as mp\nfor i in range(4):\n    mp.Process(target=print).start()",
            ),
            (
                Lang::JavaScript,
                "const fs = require('fs'); function walk(d) { for (const e of fs.readdirSync(d)) console.log(e); } walk('src')",
            ),
        ] {
            assert_eq!(read(lang, code).opaque, None, "{code}");
        }
    }

    #[test]
    fn a_device_that_never_ends_read_or_copied_to_its_end_is_a_bomb() {
        use crate::matcher::code::testing::effects;
        let bomb = Some(crate::matcher::code::scope::READS_ENDLESS);
        for (lang, code) in [
            (Lang::JavaScript, "require('fs').readFileSync('/dev/zero')"),
            (
                Lang::JavaScript,
                "await require('fs/promises').readFile('/dev/urandom')",
            ),
            (Lang::Ruby, "File.read('/dev/zero')"),
            (Lang::Ruby, "File.binread('/dev/urandom').size"),
            (Lang::Lua, "local b = io.open('/dev/zero', 'rb'):read('a')"),
            (
                Lang::Lua,
                "local f = io.open('/dev/urandom'); print(#f:read('*a'))",
            ),
            (Lang::Php, "$x = file_get_contents('/dev/zero');"),
        ] {
            assert_eq!(read(lang, code).opaque.map(|u| u.reason), bomb, "{code}");
        }
        // Read a few bytes at a time, or an ordinary file whole.
        for (lang, code) in [
            (
                Lang::JavaScript,
                "require('fs').readFileSync('package.json')",
            ),
            (
                Lang::JavaScript,
                "require('fs').createReadStream('/dev/urandom', {end: 15})",
            ),
            (Lang::Ruby, "File.read('/dev/urandom', 16)"),
            (
                Lang::Lua,
                "local f = io.open('/dev/urandom', 'rb'); print(f:read(16))",
            ),
            (
                Lang::Lua,
                "for l in io.open('data.txt'):lines() do print(l) end",
            ),
            (
                Lang::Php,
                "$f = fopen('/dev/urandom', 'rb'); echo bin2hex(fread($f, 16));",
            ),
        ] {
            assert_eq!(read(lang, code).opaque, None, "{code}");
        }
        // Copied to its end, it fills the disk: `cp /dev/zero FILE`, as in the shell; copied
        // from a file, or a length at a time, it does not.
        for (lang, code, fills) in [
            (
                Lang::Python,
                "import shutil\nwith open('/dev/zero', 'rb') as s, open('/var/tmp/x', 'wb') as d:\n    shutil.copyfileobj(s, d)",
                true,
            ),
            (
                Lang::Php,
                "$a = fopen('/dev/zero', 'rb'); stream_copy_to_stream($a, fopen('/var/tmp/x', 'wb'));",
                true,
            ),
            (
                Lang::Python,
                "import shutil\nwith open('src/a.py', 'rb') as s, open('/var/tmp/x', 'wb') as d:\n    shutil.copyfileobj(s, d)",
                false,
            ),
            (
                Lang::Php,
                "stream_copy_to_stream(fopen('/dev/zero', 'rb'), fopen('/var/tmp/x', 'wb'), 4096);",
                false,
            ),
        ] {
            let found = effects(lang, code);
            let copies = found.contains(&"cp /dev/zero /var/tmp/x".to_owned());
            assert_eq!(copies, fills, "{code}: {found:?}");
        }
    }
}
