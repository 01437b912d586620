//! `is_plain` against the parser: a line the fast path takes must read exactly as the
//! parser reads it. The lines are generated from every simple command of the shell corpora
//! (real programs with their real arguments), and from those programs with other commands'
//! arguments, so a program a table of the reader knows but `is_plain` does not is found.

use super::*;

const CORPORA: [&str; 8] = [
    include_str!("../../../tests/shell-corpus/bypass.txt"),
    include_str!("../../../tests/shell-corpus/benign.txt"),
    include_str!("../../../tests/shell-corpus/routine.txt"),
    include_str!("../../../tests/shell-corpus/routine-checks.txt"),
    include_str!("../../../tests/shell-corpus/routine-cloud.txt"),
    include_str!("../../../tests/shell-corpus/routine-system.txt"),
    include_str!("../../../tests/shell-corpus/interpreter-attacks.txt"),
    include_str!("../../../tests/shell-corpus/interpreter-routine.txt"),
];

/// Every simple command of the corpora, as program and arguments.
fn corpus_commands() -> Vec<(String, Vec<String>)> {
    let mut commands = Vec::new();
    for line in CORPORA.iter().flat_map(|c| c.lines()) {
        let Ok(input) = serde_json::from_str::<String>(line) else {
            continue;
        };
        for command in parse(&input).commands {
            commands.push((command.program, command.args));
        }
    }
    commands
}

fn agrees(input: &str) -> Result<(), String> {
    if !is_plain(input) {
        return Ok(());
    }
    let (fast, _) = read(input, None);
    let (parsed, _) = read_parsed(input, None);
    if fast == parsed {
        Ok(())
    } else {
        Err(format!(
            "{input:?}: the fast path reads {:?}, the parser {:?} (unreadable {:?})",
            fast.commands
                .iter()
                .map(SimpleCommand::text)
                .collect::<Vec<_>>(),
            parsed
                .commands
                .iter()
                .map(SimpleCommand::text)
                .collect::<Vec<_>>(),
            parsed.unreadable
        ))
    }
}

#[test]
fn the_fast_path_reads_as_the_parser_does() {
    let commands = corpus_commands();
    assert!(commands.len() > 5_000, "{} commands", commands.len());
    let mut programs: Vec<&str> = commands.iter().map(|(p, _)| p.as_str()).collect();
    programs.sort_unstable();
    programs.dedup();
    let mut failures = Vec::new();
    let mut tried = 0;
    // Each command as written; then each program with the arguments of the commands that
    // come 1, 7 and 31 places after it (any program's options, deterministically mixed).
    for (i, (program, args)) in commands.iter().enumerate() {
        let own = std::iter::once(program.as_str()).chain(args.iter().map(String::as_str));
        let mut candidates = vec![own.collect::<Vec<_>>().join(" ")];
        for step in [1, 7, 31] {
            let (_, other) = &commands[(i + step) % commands.len()];
            let words = std::iter::once(program.as_str()).chain(other.iter().map(String::as_str));
            candidates.push(words.collect::<Vec<_>>().join(" "));
        }
        for input in candidates {
            tried += usize::from(is_plain(&input));
            if let Err(e) = agrees(&input) {
                failures.push(e);
            }
        }
    }
    // And every program with each of a few arguments that make programs run or delete.
    for program in &programs {
        for args in [
            "-c x", "-e x", "--exec x", "-x x", "clean", "run x", "-rf /", "x",
        ] {
            let input = format!("{program} {args}");
            tried += usize::from(is_plain(&input));
            if let Err(e) = agrees(&input) {
                failures.push(e);
            }
        }
    }
    assert!(tried > 1_000, "only {tried} plain lines");
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} lines:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
