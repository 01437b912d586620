//! The shell reader on arbitrary bytes: no panic, linear work, and a normal form that
//! reads back to itself.
#![no_main]

use hookgate::matcher::shell;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let (line, steps) = shell::parse_counting(input);
    assert!(steps <= 6 * (shell::MAX_DEPTH + 2) * (input.chars().count() + 1));
    if line.unreadable.is_none() {
        let once = line.normalized();
        let again = shell::parse(&once);
        if again.unreadable.is_none() {
            assert_eq!(again.normalized(), once);
        }
    }
});
