//! Run with: cargo bench --bench shell
//!
//! The shell reader alone (`hookgate::shell::parse`): typical agent commands of at
//! most 200 bytes, and 64 KiB lines of the shapes that cost the reader most (issue 18's
//! bound: a typical line in 10 µs or less, a 64 KiB line in 10 ms or less, release build).
//! Each worst shape is also read at 16 KiB, so the 64K/16K ratio shows whether the work
//! grows linearly (a ratio near 4). A line that would take more parsing than the reader's
//! parse budget is refused, so the last group is the real worst case: each shape repeated
//! to just under that bound, in a 64 KiB line padded with a quoted word.

use std::hint::black_box;

#[path = "support/shipped_allocator.rs"]
mod shipped_allocator;
mod support;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hookgate::shell;
use support::shell_lines::{
    NOT_AT_BOUND, NUMBERED, SHAPES, TYPICAL, at_parse_bound, heredoc_file, numbered, repeated,
};

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
    for (name, unit) in SHAPES
        .iter()
        .filter(|(name, _)| !NOT_AT_BOUND.contains(name))
    {
        let line = at_parse_bound(unit);
        group.bench_with_input(BenchmarkId::new(*name, line.len()), &line, |b, line| {
            b.iter(|| black_box(shell::parse(black_box(line))))
        });
    }
    group.finish();
}

criterion_group!(benches, shell_reader);
criterion_main!(benches);
