//! Run with: cargo bench --bench shell
//!
//! The shell reader alone (`hookgate::matcher::shell::parse`): typical agent commands of at
//! most 200 bytes, and 64 KiB lines of the shapes that cost the reader most (issue 18's
//! bound: a typical line in 10 µs or less, a 64 KiB line in 10 ms or less, release build).
//! Each worst shape is also read at 16 KiB, so the 64K/16K ratio shows whether the work
//! grows linearly (a ratio near 4). A line that would take more parsing than the reader's
//! parse budget is refused, so the last group is the real worst case: each shape repeated
//! to just under that bound, in a 64 KiB line padded with a quoted word.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hookgate::matcher::shell;

/// Everyday lines an agent runs.
const TYPICAL: &[&str] = &[
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
const SHAPES: &[(&str, &str)] = &[
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
fn heredoc_file(size: usize) -> String {
    let head = "cat > notes.md <<EOF\n";
    let body = repeated("line $HOME ${USER:-x} here\n", size - head.len() - 4);
    format!("{head}{body}\nEOF")
}

/// Shapes whose units differ, or that start with a prefix: `#` in a unit is its number, and
/// the line ends with the last text so that it stays valid.
const NUMBERED: &[(&str, &str, &str, &str)] = &[
    // Each `&&` copies every variable set so far.
    ("distinct-variables", "", "v#=1 && ", "true"),
    // Each assignment doubles the value.
    ("doubling", "x=0123456789; ", "x=$x$x; ", ""),
];

fn repeated(unit: &str, size: usize) -> String {
    unit.repeat(size / unit.len() + 1)[..size].to_owned()
}

fn numbered(prefix: &str, unit: &str, last: &str, size: usize) -> String {
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
fn over_token_bound(line: &str) -> bool {
    shell::parse(line)
        .opaque
        .is_some_and(|why| why.contains("too many words"))
}

/// A 64 KiB line: a quoted word as padding, then as many `unit`s as the parser still reads.
fn at_token_bound(unit: &str) -> String {
    let line = |k: usize| {
        let body = unit.repeat(k);
        let pad = shell::MAX_INPUT.saturating_sub(body.len() + 6);
        format!(": '{}'; {body}", "p".repeat(pad))
    };
    let (mut low, mut high) = (0, (shell::MAX_INPUT - 6) / unit.len());
    while low < high {
        let mid = (low + high).div_ceil(2);
        if over_token_bound(&line(mid)) {
            high = mid - 1;
        } else {
            low = mid;
        }
    }
    line(low)
}

fn shell_reader(c: &mut Criterion) {
    let mut group = c.benchmark_group("typical");
    for (k, line) in TYPICAL.iter().enumerate() {
        group.bench_with_input(BenchmarkId::from_parameter(k), line, |b, line| {
            b.iter(|| black_box(shell::parse(black_box(line))))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("worst");
    group.sample_size(10);
    for (name, unit) in SHAPES {
        for size in [16 * 1024, 64 * 1024] {
            let line = repeated(unit, size.min(shell::MAX_INPUT));
            group.bench_with_input(BenchmarkId::new(*name, size), &line, |b, line| {
                b.iter(|| black_box(shell::parse(black_box(line))))
            });
        }
    }
    for size in [16 * 1024, 64 * 1024] {
        let line = heredoc_file(size.min(shell::MAX_INPUT));
        group.bench_with_input(BenchmarkId::new("heredoc-file", size), &line, |b, line| {
            b.iter(|| black_box(shell::parse(black_box(line))))
        });
    }
    for (name, prefix, unit, last) in NUMBERED {
        for size in [16 * 1024, 64 * 1024] {
            let line = numbered(prefix, unit, last, size.min(shell::MAX_INPUT));
            group.bench_with_input(BenchmarkId::new(*name, size), &line, |b, line| {
                b.iter(|| black_box(shell::parse(black_box(line))))
            });
        }
    }
    group.finish();
    let mut group = c.benchmark_group("at-parse-bound");
    group.sample_size(10);
    // Unterminated quotes are refused whole, and here-documents at their count bound.
    let readable = |name: &&str| !matches!(*name, "unterminated" | "heredocs");
    for (name, unit) in SHAPES.iter().filter(|(name, _)| readable(name)) {
        let line = at_token_bound(unit);
        group.bench_with_input(BenchmarkId::new(*name, line.len()), &line, |b, line| {
            b.iter(|| black_box(shell::parse(black_box(line))))
        });
    }
    group.finish();
}

criterion_group!(benches, shell_reader);
criterion_main!(benches);
