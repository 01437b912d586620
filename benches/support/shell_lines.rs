//! Shell command lines for the benches: what agents run every day, and the shapes that
//! cost the shell reader most.

use hookgate::shell;

/// Everyday lines an agent runs.
pub(crate) const TYPICAL: &[&str] = &[
    "git status",
    "cargo test --release -- --nocapture",
    "git commit -m \"Fix the parser's handling of quoted here-documents\"",
    "ls -la src/ && cat README.md | head -n 40",
    "for f in src/*.rs; do wc -l \"$f\"; done",
    "if [ -f package.json ]; then npm ci && npm test; fi",
    "find . -name '*.py' -not -path './.venv/*' | xargs grep -n 'TODO' | sort | uniq -c",
    "docker run --rm -v \"$PWD\":/src -w /src node:20 npm test 2>&1 | tail -n 50",
];

/// Shapes repeated to a size: each is one unit of a long line.
pub(crate) const SHAPES: &[(&str, &str)] = &[
    ("commands", "echo a; "),
    ("pipeline", "a | b && c || "),
    ("quotes", "\"$a\"$b'c'\\d "),
    ("substitutions", "x $(echo $(echo y)) "),
    ("assignments", "x=$x$x; "),
    ("functions", "f(){ g; }; g(){ h; }; f; "),
    ("for-loops", "for i in a b c; do echo $i; done; "),
    ("heredocs", "cat <<E\nx\nE\n"),
    ("empty-substitutions", "$() "),
    ("parameters", "${a:-b}${c#d} "),
    ("brace-words", "{a,b}{c,d} "),
    (
        "wrappers",
        "sudo env X=1 timeout 5 nice -n 1 bash -c 'rm -f x'; ",
    ),
    ("unterminated", "\"'\"'"),
];

/// One long here-document that expands (`<<EOF`, not `<<'EOF'`): a file written by `cat`.
pub(crate) fn heredoc_file(size: usize) -> String {
    let head = "cat > notes.md <<EOF\n";
    let body = repeated("line $HOME ${USER:-x} here\n", size - head.len() - 4);
    format!("{head}{body}\nEOF")
}

/// Shapes whose units differ, or that start with a prefix: `#` in a unit is its number, and
/// the line ends with the last text so that it stays valid.
pub(crate) const NUMBERED: &[(&str, &str, &str, &str)] = &[
    // Each `&&` copies every variable set so far.
    ("distinct-variables", "", "v#=1 && ", "true"),
    // Each assignment doubles the value.
    ("doubling", "x=0123456789; ", "x=$x$x; ", ""),
];

pub(crate) fn repeated(unit: &str, size: usize) -> String {
    unit.repeat(size / unit.len() + 1)[..size].to_owned()
}

pub(crate) fn numbered(prefix: &str, unit: &str, last: &str, size: usize) -> String {
    let mut line = prefix.to_owned();
    for k in 0.. {
        let next = unit.replace('#', &k.to_string());
        if line.len() + next.len() + last.len() > size {
            break;
        }
        line.push_str(&next);
    }
    line.push_str(last);
    line
}

/// Whether `line` was refused for its number of tokens.
fn over_parse_bound(line: &str) -> bool {
    shell::parse(line)
        .unreadable
        .is_some_and(|why| why.contains("too many words"))
}

/// A 64 KiB line: a quoted word as padding, then as many `unit`s as the parser still reads.
/// The shapes [`at_parse_bound`] has no line for: unterminated quotes are refused whole, and
/// here-documents at their count bound.
pub(crate) const NOT_AT_BOUND: &[&str] = &["unterminated", "heredocs"];

pub(crate) fn at_parse_bound(unit: &str) -> String {
    let line = |k: usize| {
        let body = unit.repeat(k);
        let pad = shell::MAX_INPUT.saturating_sub(body.len() + 6);
        format!(": '{}'; {body}", "p".repeat(pad))
    };
    let (mut low, mut high) = (0, (shell::MAX_INPUT - 6) / unit.len());
    while low < high {
        let mid = (low + high).div_ceil(2);
        if over_parse_bound(&line(mid)) {
            high = mid - 1;
        } else {
            low = mid;
        }
    }
    line(low)
}
