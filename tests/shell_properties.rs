//! Properties of the shell reader: it never panics, its own work (the walk, counted in
//! steps, with each parse counted by the length it reads) is linear in the input, and its
//! normal form is a fixed point. The parser's time is measured by `cargo bench --bench
//! shell`, not asserted here.

use hookgate::shell::{self, MAX_DEPTH};
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
    // Most generated lines are read; the ones bash would refuse (`{`, `!` in odd places)
    // are unreadable and skipped by `normalising_twice_equals_once`, hence the reject budget.
    #![proptest_config(ProptestConfig {
        cases: 512,
        max_global_rejects: 16_384,
        ..ProptestConfig::default()
    })]

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
        prop_assume!(line.unreadable.is_none());
        let once = line.normalized();
        let again = shell::parse(&once);
        prop_assert!(again.unreadable.is_none(), "{once:?} became unreadable: {again:?}");
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
        // A quoted `)` in each substitution hides the nesting from a count of brackets;
        // it once exhausted the stack of brush-parser's tokenizer.
        "$(echo \")\" ".repeat(n) + &")".repeat(n),
        "${x:-$(echo '}' ".repeat(n / 2) + &")}".repeat(n / 2),
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
        // A value doubled at each step, and thousands of variables copied at each `&&`.
        format!("x=0123456789;{}", "x=$x$x;".repeat(n)),
        (0..5_000)
            .map(|k| format!("v{k}=1 && "))
            .collect::<String>()
            + "true",
    ];
    for input in &cases {
        let input = &input[..input.len().min(shell::MAX_INPUT)];
        assert_linear(input);
    }
    assert!(shell::parse(&"$(".repeat(n)).unreadable.is_some());
    assert!(
        shell::parse(&("$(echo ".repeat(40) + &")".repeat(40)))
            .unreadable
            .is_some()
    );
    assert!(
        shell::parse(&"x".repeat(shell::MAX_INPUT + 1))
            .unreadable
            .is_some()
    );
}

/// Issue 18's bad input: each gets a decision (unreadable) and none takes the process down. Run
/// on a thread with a 2 MiB stack, the size of a tokio worker's, where an unbounded
/// recursive parse of 10,000 levels would overflow (a crash no `catch_unwind` can stop).
#[test]
fn bad_input_is_unreadable_and_never_crashes() {
    let n = 10_000;
    let nested = [
        "(".repeat(n),
        "( ".repeat(n),
        "{ ".repeat(n),
        "$(".repeat(n),
        "${x:-".repeat(n),
        "$((".repeat(n),
        "<(".repeat(n),
        "[[ ( ".repeat(n),
        "if true; then ".repeat(n),
        "while true; do ".repeat(n),
        "case x in x) ".repeat(n),
        "f() { ".repeat(n),
        format!("{}x{}", "$(echo ".repeat(n), ")".repeat(n)),
        format!("{}{}", "{ a; ".repeat(n), "}".repeat(n)),
    ];
    let other = [
        "echo 'unterminated".to_owned(),
        "echo \"unterminated $(".to_owned(),
        "cat <<EOF\nno end".to_owned(),
        "rm -rf /\0 --no-preserve-root".to_owned(),
        "x".repeat(1 << 20),
        "a;".repeat(1 << 19),
        "''$(<<EOF\n)\nEOF\n".to_owned(),
    ];
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            for input in nested.iter().chain(other.iter()) {
                let line = shell::parse(input);
                assert!(
                    line.unreadable.is_some(),
                    "{:?}...: {:?}",
                    &input[..input.len().min(40)],
                    line.unreadable
                );
            }
        })
        .expect("spawn a reader thread");
    worker.join().expect("the reader thread finished");
}
