//! Properties of the code reader (issue 19): on any input, in every language, it returns a
//! reading (never a panic), keeps its bounds (at most `MAX_EFFECTS` effects), and a piece of
//! code that does something harmful keeps doing it, for the reader, whatever harmless code
//! surrounds it. Time is measured by `cargo bench --bench code`, not asserted here.

use hookgate::code::{self, Effect, Lang, MAX_EFFECTS, Val};
use proptest::prelude::*;

const LANGS: &[Lang] = &Lang::ALL;

/// Pieces of code of every language, weighted towards what nests, quotes and calls.
fn codeish() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        Just("(".to_owned()),
        Just(")".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just("'".to_owned()),
        Just("\"".to_owned()),
        Just("`".to_owned()),
        Just("\\".to_owned()),
        Just("\n".to_owned()),
        Just("; ".to_owned()),
        Just(" + ".to_owned()),
        Just(" . ".to_owned()),
        Just(" .. ".to_owned()),
        Just("import os".to_owned()),
        Just("os.system(".to_owned()),
        Just("require('child_process').execSync(".to_owned()),
        Just("system ".to_owned()),
        Just("exec(".to_owned()),
        Just("eval(".to_owned()),
        Just("x = ".to_owned()),
        Just("$x = ".to_owned()),
        Just("local x = ".to_owned()),
        Just("#{".to_owned()),
        Just("${".to_owned()),
        Just("<<EOF\n".to_owned()),
        Just("'rm -rf ~'".to_owned()),
        Just("while True: ".to_owned()),
        Just("fork".to_owned()),
        "[a-z_.]{1,8}",
        "\\PC{1,3}",
    ];
    prop::collection::vec(atom, 0..80).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn any_code_gets_a_reading_within_bounds(code in codeish(), k in 0..LANGS.len()) {
        let reading = code::read(LANGS[k], &code);
        prop_assert!(reading.found.len() <= MAX_EFFECTS);
    }

    #[test]
    fn any_bytes_get_a_reading(bytes in prop::collection::vec(any::<u8>(), 0..512), k in 0..LANGS.len()) {
        let code = String::from_utf8_lossy(&bytes);
        let reading = code::read(LANGS[k], &code);
        prop_assert!(reading.found.len() <= MAX_EFFECTS);
    }

    /// A harmful call stays found, or the code is called unreadable, whatever harmless
    /// statements come before and after it.
    #[test]
    fn harmless_code_around_a_harmful_call_does_not_hide_it(
        before in prop::collection::vec(0..HARMLESS.len(), 0..6),
        after in prop::collection::vec(0..HARMLESS.len(), 0..6),
        k in 0..LANGS.len(),
    ) {
        let lang = LANGS[k];
        let (harmful, harmless) = examples(lang);
        let mut lines: Vec<&str> = before.iter().map(|i| harmless[*i % harmless.len()]).collect();
        lines.push(harmful);
        lines.extend(after.iter().map(|i| harmless[*i % harmless.len()]));
        let code = lines.join("\n");
        let reading = code::read(lang, &code);
        let shell = reading.found.iter().any(|f| f.effect == Effect::Shell(Val::known("rm -rf ~")));
        prop_assert!(shell || reading.unreadable.is_some(), "{code}\n{reading:?}");
    }
}

/// Indices into each language's harmless statements.
const HARMLESS: &[()] = &[(); 4];

/// A call that runs `rm -rf ~` and harmless statements, in `lang`.
fn examples(lang: Lang) -> (&'static str, &'static [&'static str]) {
    match lang {
        Lang::Python => (
            "import os; os.system('rm -rf ~')",
            &[
                "x = 1",
                "print('hello')",
                "import json",
                "y = [i for i in range(3)]",
            ],
        ),
        Lang::JavaScript => (
            "require('child_process').execSync('rm -rf ~')",
            &[
                "let x = 1;",
                "console.log('hello');",
                "const y = [1, 2].map(i => i * 2);",
                "JSON.stringify({});",
            ],
        ),
        Lang::Ruby => (
            "system('rm -rf ~')",
            &[
                "x = 1",
                "puts 'hello'",
                "y = [1, 2].map { |i| i * 2 }",
                "require 'json'",
            ],
        ),
        Lang::Perl => (
            "system('rm -rf ~');",
            &[
                "my $x = 1;",
                "print \"hello\\n\";",
                "my @y = map { $_ * 2 } (1, 2);",
                "use strict;",
            ],
        ),
        Lang::Php => (
            "system('rm -rf ~');",
            &[
                "$x = 1;",
                "echo 'hello';",
                "$y = array_map(fn($i) => $i * 2, [1, 2]);",
                "var_dump(1);",
            ],
        ),
        Lang::Lua => (
            "os.execute('rm -rf ~')",
            &[
                "local x = 1",
                "print('hello')",
                "local y = {1, 2}",
                "for i = 1, 2 do print(i) end",
            ],
        ),
    }
}
