//! The policy loader on arbitrary text: a policy or a list of diagnostics, never a panic.
#![no_main]

use std::path::Path;

use hookgate::config::{self, YamlBudget};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = config::load_str_with(text, Path::new("fuzz.yaml"), &YamlBudget::default());
});
