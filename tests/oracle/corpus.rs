//! Every shell-command corpus of the repository through the oracle, held by a ratchet:
//! `tests/oracle/known-unsound.txt` lists exactly the lines the reader gets wrong today.
//! A new unsound line fails the test, and so does a listed line that is now sound or
//! unreadable (take it off the list: the list only shrinks). `ORACLE_BLESS=1` rewrites the
//! list from this run instead, for the reader's rewrite to record its progress.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use hookgate::config::Place;
use serde_json::Value;

use super::{Case, Tally, Verdict, check_all, reads};

const KNOWN_UNSOUND: &str = "tests/oracle/known-unsound.txt";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The build's target directory (`CARGO_TARGET_DIR` honoured): three levels above this
/// test binary (`<target>/<profile>/deps/tests-…`).
pub fn target_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.to_path_buf()))
        .unwrap_or_else(|| repo().join("target"))
}

/// The JSON-string lines of a corpus file (`#` lines and blank lines skipped).
pub fn json_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(n, l)| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{}:{}: not a JSON string: {e}", path.display(), n + 1))
        })
        .collect()
}

/// The shell commands of the policy packs' test files (`command:` of shell-tool cases).
fn policy_commands() -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("policies"))
        .expect("policies/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".test.yaml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("policy test file");
        let doc: Value = serde_saphyr::from_str(&text).expect("policy test YAML");
        for case in doc["cases"].as_array().into_iter().flatten() {
            let shell = case["tool"]
                .as_str()
                .is_none_or(|t| matches!(t, "exec" | "Bash" | "bash" | "shell"));
            if let Some(command) = case["command"].as_str().filter(|_| shell) {
                out.push(command.to_owned());
            }
        }
    }
    out
}

/// (corpus name, its lines): the bypass, everyday, routine-check and interpreter corpora and the policy
/// packs' cases.
pub fn corpora() -> Vec<(&'static str, Vec<String>)> {
    let shell = repo().join("tests/shell-corpus");
    vec![
        ("bypass", json_lines(&shell.join("bypass.txt"))),
        ("benign", json_lines(&shell.join("benign.txt"))),
        (
            "routine-checks",
            json_lines(&shell.join("routine-checks.txt")),
        ),
        (
            "interpreter-attacks",
            json_lines(&shell.join("interpreter-attacks.txt")),
        ),
        (
            "interpreter-routine",
            json_lines(&shell.join("interpreter-routine.txt")),
        ),
        ("policies", policy_commands()),
    ]
}

/// One JSON string per line, with a header.
fn write_list(path: &Path, header: &str, lines: &[(String, Option<String>)]) {
    let mut text = String::from(header);
    for (line, why) in lines {
        if let Some(why) = why {
            text.push_str(&format!("# {}\n", why.replace('\n', " ")));
        }
        text.push_str(&serde_json::to_string(line).expect("JSON string"));
        text.push('\n');
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

const HEADER: &str = "\
# Lines of the shell corpora (tests/shell-corpus/, the policy packs' test files) that the
# oracle finds UNSOUND with the current reader: bash did something the reader neither
# predicted nor called unreadable. One JSON string per line; the `#` line above each says what
# was missed first. The list must stay exact and may only shrink: tests/oracle/corpus.rs
# fails on an unsound line missing here and on a line here that is no longer unsound.
# Rewrite it from a run with ORACLE_BLESS=1 (scripts/oracle --bless).
";

#[test]
fn oracle_corpora_hold_the_known_unsound_ratchet() {
    let corpora = corpora();
    let mut lines: Vec<String> = Vec::new();
    for (_, c) in &corpora {
        for l in c {
            if !lines.contains(l) {
                lines.push(l.clone());
            }
        }
    }
    let start = std::time::Instant::now();
    let cases = check_all(&lines);
    let case = |l: &String| -> &Case {
        let i = lines.iter().position(|x| x == l).expect("line was run");
        &cases[i]
    };
    for (name, c) in &corpora {
        let tally = Tally::of(c.iter().map(case));
        eprintln!("oracle, corpus {name}: {tally}");
    }
    eprintln!(
        "oracle: {} distinct lines in {:.1} s",
        lines.len(),
        start.elapsed().as_secs_f64()
    );

    // `match.command.reads` places what the reader predicts: a home secret bash read on a
    // line the reader got right must be read in the home directory by that filter, or in
    // a place it cannot know (`cat $(...)`, where the reader predicted any path).
    let home_reads: Vec<&Case> = cases
        .iter()
        .filter(|c| matches!(c.verdict, Verdict::Sound) && reads::read_a_home_secret(c))
        .collect();
    eprintln!(
        "oracle: {} lines read a home secret and were read soundly",
        home_reads.len()
    );
    // The corpora read home secrets hundreds of ways: none would mean the check is idle.
    assert!(home_reads.len() >= 50, "{} home reads", home_reads.len());
    let unplaced: Vec<String> = home_reads
        .iter()
        .filter(|c| {
            let read = reads::read_places(c);
            !read.contains(&Place::Home) && !read.contains(&Place::Unknown)
        })
        .map(|c| c.report())
        .collect();
    assert!(
        unplaced.is_empty(),
        "home secrets bash read that `reads: home` does not name:\n{}",
        unplaced.join("\n")
    );

    let unsound: Vec<&Case> = cases
        .iter()
        .filter(|c| matches!(c.verdict, Verdict::Unsound { .. }))
        .collect();
    let path = repo().join(KNOWN_UNSOUND);
    if std::env::var_os("ORACLE_BLESS").is_some() {
        let list: Vec<(String, Option<String>)> = unsound
            .iter()
            .map(|c| (c.line.clone(), c.first_unpredicted()))
            .collect();
        write_list(&path, HEADER, &list);
        eprintln!("oracle: wrote {} lines to {KNOWN_UNSOUND}", list.len());
        return;
    }
    let known: BTreeSet<String> = json_lines(&path).into_iter().collect();
    let new: Vec<String> = unsound
        .iter()
        .filter(|c| !known.contains(&c.line))
        .map(|c| c.report())
        .collect();
    let now_unsound: BTreeSet<&String> = unsound.iter().map(|c| &c.line).collect();
    let fixed: Vec<&String> = known.iter().filter(|l| !now_unsound.contains(l)).collect();
    assert!(
        new.is_empty() && fixed.is_empty(),
        "the oracle's ratchet ({KNOWN_UNSOUND}) moved.\n\
         {} new unsound line(s) (the reader missed what bash did; fix the reader, or if \
         that is not possible now, add the line to the list):\n\n{}\n\
         {} listed line(s) no longer unsound (take them off the list):\n{}",
        new.len(),
        new.join("\n"),
        fixed.len(),
        fixed
            .iter()
            .map(|l| format!("  {}", serde_json::to_string(l).unwrap_or_default()))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
