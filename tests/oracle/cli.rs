//! What `scripts/oracle` runs: ignored tests driven by environment variables, printing
//! reports. Each does nothing when its variable is unset.
//!
//! - `ORACLE_LINE='LINE'`: one line, its full report;
//! - `ORACLE_FILE=F`: every line of F (a JSON string per line as in the corpora, `#`
//!   comments; a line that is not JSON is taken as it is), the report of each unsound one
//!   (of each one with `ORACLE_VERBOSE=1`) and the counts;
//! - `ORACLE_CASES=N [ORACLE_SEED=S]`: N generated lines, the reports of the unsound ones,
//!   the summary; the unsound lines go to `<target>/oracle-findings.txt`.

use super::{Tally, Verdict, check, check_all, generate};

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn verbose() -> bool {
    var("ORACLE_VERBOSE").is_some()
}

#[test]
#[ignore = "run by scripts/oracle 'LINE'"]
fn oracle_cli_line() {
    let Some(line) = var("ORACLE_LINE") else {
        return;
    };
    println!("{}", check(&line).report());
}

#[test]
#[ignore = "run by scripts/oracle --file F"]
fn oracle_cli_file() {
    let Some(file) = var("ORACLE_FILE") else {
        return;
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| l.to_owned()))
        .collect();
    let cases = check_all(&lines);
    for c in &cases {
        if verbose() || matches!(c.verdict, Verdict::Unsound { .. }) {
            println!("{}", c.report());
        }
    }
    println!("{file}: {}", Tally::of(&cases));
}

#[test]
#[ignore = "run by scripts/oracle --generate N [--seed S]"]
fn oracle_cli_generate() {
    let Some(count) = var("ORACLE_CASES").and_then(|n| n.parse::<usize>().ok()) else {
        return;
    };
    let seed = var("ORACLE_SEED")
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        });
    // ORACLE_CODE=1: interpreter lines (issue 19) instead of shell lines.
    let code = var("ORACLE_CODE").is_some();
    println!(
        "oracle: {count} generated {} lines, seed {seed}",
        if code { "interpreter" } else { "shell" }
    );
    let lines = if code {
        generate::code_sample(count, seed)
    } else {
        generate::sample(count, seed)
    };
    let findings = generate::run(&lines);
    for c in &findings.cases {
        if verbose() || matches!(c.verdict, Verdict::Unsound { .. }) {
            println!("{}", c.report());
        }
    }
    println!("{}", findings.summary);
}
