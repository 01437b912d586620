//! Properties of the shell reader: it never panics, its work is linear in the input, and
//! its normal form is a fixed point.

use hookgate::matcher::shell::{self, MAX_DEPTH};
use proptest::prelude::*;

/// Characters the reader treats specially, weighted towards the ones that nest.
fn shellish() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        Just("$(".to_owned()),
        Just(")".to_owned()),
        Just("`".to_owned()),
        Just("'".to_owned()),
        Just("\"".to_owned()),
        Just("\\".to_owned()),
        Just("<<EOF\n".to_owned()),
        Just("\nEOF\n".to_owned()),
        Just("<<<".to_owned()),
        Just("<(".to_owned()),
        Just("bash -c ".to_owned()),
        Just("sudo ".to_owned()),
        Just("eval ".to_owned()),
        Just("x=rm; ".to_owned()),
        Just("$x ".to_owned()),
        Just("echo a > f; sh f; ".to_owned()),
        Just("{a,b} ".to_owned()),
        Just("$'\\x72' ".to_owned()),
        Just(" | ".to_owned()),
        Just("; ".to_owned()),
        Just("&& ".to_owned()),
        Just("rm -rf / ".to_owned()),
        "[a-z/.*-]{1,6}",
        "\\PC{1,3}",
    ];
    prop::collection::vec(atom, 0..64).prop_map(|parts| parts.concat())
}

/// Command lines built from well-formed pieces, so that most can be read.
fn readable() -> impl Strategy<Value = String> {
    let word = "[a-zA-Z0-9_./*~=-]{1,8}";
    let piece = prop_oneof![
        word.prop_map(|w| w),
        word.prop_map(|w| format!("'{w} x'")),
        word.prop_map(|w| format!("\"{w}\\\"y\"")),
        word.prop_map(|w| format!("$(echo {w})")),
        word.prop_map(|w| format!("> {w}")),
        word.prop_map(|w| format!("bash -c '{w} a; b'")),
        Just(";".to_owned()),
        Just("|".to_owned()),
        Just("&&".to_owned()),
        Just("sudo".to_owned()),
        Just("env X=1".to_owned()),
        Just("#".to_owned()),
        Just("!".to_owned()),
        Just("{".to_owned()),
    ];
    prop::collection::vec(piece, 1..24).prop_map(|parts| parts.join(" "))
}

/// Work allowed per input character: each nesting level reads its text at most a few times
/// (a substitution is scanned for its end, then read), and there are at most MAX_DEPTH + 1.
const STEPS_PER_CHAR: usize = 6 * (MAX_DEPTH + 2);

fn assert_linear(input: &str) {
    let (_, steps) = shell::parse_counting(input);
    assert!(
        steps <= STEPS_PER_CHAR * (input.chars().count() + 1),
        "{steps} steps for {} chars: {input:?}",
        input.chars().count()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_any_text(input in "\\PC{0,200}") {
        let _ = shell::parse(&input);
    }

    #[test]
    fn never_panics_and_stays_linear_on_shell_syntax(input in shellish()) {
        assert_linear(&input);
    }

    #[test]
    fn normalising_twice_equals_once(input in readable()) {
        let line = shell::parse(&input);
        prop_assume!(line.opaque.is_none());
        let once = line.normalized();
        let again = shell::parse(&once);
        prop_assert!(again.opaque.is_none(), "{once:?} became unreadable: {again:?}");
        prop_assert_eq!(again.normalized(), once);
    }
}

#[test]
fn pathological_inputs_stay_linear_and_are_not_understood() {
    let n = 20_000;
    let cases = [
        "$(".repeat(n),
        "`".repeat(n),
        "$(echo ".repeat(n) + &")".repeat(n),
        "\"$(".repeat(n),
        "bash -c '".repeat(n),
        "<(".repeat(n),
        "a=1;".repeat(n),
        "x; ".repeat(n),
        "echo a > f; sh f; ".repeat(n / 4),
        "\\".repeat(n),
        "'".repeat(n),
        format!("{}{}", "{".repeat(n), "}".repeat(n)),
        "$'\\x".repeat(n),
        "<<E\n".repeat(n),
    ];
    for input in &cases {
        let input = &input[..input.len().min(shell::MAX_INPUT)];
        assert_linear(input);
    }
    assert!(shell::parse(&"$(".repeat(n)).opaque.is_some());
    assert!(
        shell::parse(&("$(echo ".repeat(40) + &")".repeat(40)))
            .opaque
            .is_some()
    );
    assert!(
        shell::parse(&"x".repeat(shell::MAX_INPUT + 1))
            .opaque
            .is_some()
    );
}
