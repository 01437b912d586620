//! Code that does not end: a loop whose condition never fails, or a function that calls
//! itself. Either, around a program started, a fork or a file written, is a fork bomb or a
//! disk filler, whatever the calls are.

mod doubling;
mod python_loops;
mod scheduled;

pub(super) use scheduled::grows_in_a_function_that_schedules_itself;

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
    /// the code unreadable.
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
    // What a loop that drains an endless generator keeps, it keeps for ever.
    let grows = GROWS
        .iter()
        .filter(|g| lang != Lang::Python || !NOT_PYTHON.contains(g))
        .any(|g| bare.contains(g));
    if lang == Lang::Python && yields && python_loops::generator_drained_for_ever(code) {
        return match grows {
            true => Looping::Grows,
            false => Looping::Endless,
        };
    }
    // A poller that keeps what it reads each time round keeps it for ever all the same.
    if lang == Lang::Python && grows && python_loops::loop_without_a_way_out(code, true) {
        return Looping::Grows;
    }
    if !endless_loop(lang, code, &bare) {
        // A loop whose condition holds because its body doubles what it tests.
        let leaves = ["break", "last", "return"].iter().any(|l| code.contains(l));
        if !leaves && !yields && doubling::doubles_while_it_holds(code) {
            Looping::Grows
        } else {
            Looping::Ends
        }
    } else if grows && !yields {
        Looping::Grows
    } else {
        Looping::Endless
    }
}

/// Whether `code` (`bare`: without its spaces) has a loop that never ends by its condition.
fn endless_loop(lang: Lang, code: &str, bare: &str) -> bool {
    // Python's `while True:` loops are bounded by indentation (see `python_loops`).
    const PYTHON: &[&str] = &["iter(int,1)", "itertools.count(", "itertools.cycle("];
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
    // Lua's `nil` and `false` are its only false values: a number, a string or the time
    // is true.
    const LUA: &[&str] = &[
        "whiletruedo",
        "untilfalse",
        "untilnil",
        "while1do",
        "whileos.time()do",
        "whileos.clock()do",
    ];
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
        .chain(calls_until_a_constant_never_met(lang, bare))
        .min();
    // A `return` after the loop starts may leave it (a reaper's `while True:` that returns
    // when no child is left); one before it is another function's.
    let returns = first.is_some_and(|at| bare[at..].contains("return"));
    first.is_some() && !code.contains(leaves) && !returns
        || lang == Lang::Python && python_loops::loop_without_a_way_out(code, false)
}

/// Where Python's `iter(lambda: A, B)` is, when `A` and `B` are different literals: the
/// function never returns the sentinel, so the iterator never ends.
fn calls_until_a_constant_never_met(lang: Lang, bare: &str) -> Option<usize> {
    if lang != Lang::Python {
        return None;
    }
    bare.match_indices("iter(lambda:").find_map(|(at, call)| {
        let args = &bare[at + call.len()..];
        let (value, rest) = args.split_once(',')?;
        let sentinel = &rest[..rest.find(')')?];
        let literal = |t: &str| {
            !t.is_empty()
                && (t.bytes().all(|c| c.is_ascii_digit())
                    || (t.len() >= 2
                        && t.starts_with(['"', '\''])
                        && t[1..].find(['"', '\'']) == Some(t.len() - 2)))
        };
        (literal(value) && literal(sentinel) && value != sentinel).then_some(at)
    })
}

/// Entries of [`GROWS`] that are other languages' operators, and in Python text only
/// parts of names (`suffix=".py"` holds `x=`).
const NOT_PYTHON: &[&str] = &[
    "x=",
    ".=",
    "push@",
    "push(@",
    "[]=",
    "str_repeat(",
    "string.rep(",
    ":rep(",
    "table.insert(",
];

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
    ":rep(",
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
    "initer(lambda:",
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
mod tests;
