//! The CLI's error rendering on arbitrary text: what `hookgate validate` prints for a policy
//! that does not load, and `hookgate lint`'s snippet at any line and column. Never a panic,
//! and no control character but newlines in what it writes.
#![no_main]

use std::path::Path;

use hookgate::config::{self, YamlBudget, report};
use hookgate::terminal;
use libfuzzer_sys::fuzz_target;

fn assert_clean(out: &str) {
    if let Some(c) = out.chars().find(|&c| terminal::is_escaped(c) && c != '\n') {
        panic!("raw {c:?} in:\n{out}");
    }
}

fuzz_target!(|data: &[u8]| {
    // The first four bytes place a lint snippet; the rest, read lossily, is the policy.
    let (place, text) = data.split_at(data.len().min(4));
    let text = String::from_utf8_lossy(text);
    if let Err(error) = config::load_str_with(&text, Path::new("fuzz.yaml"), &YamlBudget::default())
    {
        assert_clean(&report::render_error(&error, false));
        let _ = report::render_error(&error, true);
    }
    let [line, a, b, c] = <[u8; 4]>::try_from(place).unwrap_or_default();
    let column = usize::from(a) << 16 | usize::from(b) << 8 | usize::from(c);
    let title: String = text.chars().take(64).collect();
    let out = report::render_warning(
        Path::new("fuzz.yaml"),
        &text,
        usize::from(line),
        column,
        &title,
        Some("help"),
        false,
    );
    assert_clean(&out);
});
