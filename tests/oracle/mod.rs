//! The differential oracle for the shell reader: each command line is run by real bash in
//! a sandbox under strace, and what bash did (the programs it ran, the planted secrets it
//! read, the planted files it deleted) is compared with what
//! `hookgate::shell::parse` predicted. The rule: everything bash did was
//! predicted, or the reader said the line is unreadable. See `docs/shell-oracle.md`.
//!
//! - `sandbox`: bubblewrap + strace + process cap + timeout, the planted home;
//! - `strace`, `events`: the trace read back into events;
//! - `paths`, `glob`, `compare`: the prediction matched against the events;
//! - `corpus`: the corpora through the oracle, with the `known-unsound.txt` ratchet;
//! - `generate`: generated lines (wrappers × quoting × value flow × payloads) and the
//!   soundness budget;
//! - `generate_code`: generated interpreter lines (Python, Perl, JavaScript, Ruby, PHP,
//!   Lua code running the same payloads);
//! - `checks`: the harness's own tests (isolation, fork bomb, a wrong prediction caught);
//! - `writes`: generated writes of planted files, against what the reader says each
//!   command deletes or writes (the places of `overwrites`, `writes`, `deletes`);
//! - `cli`: ignored tests that `scripts/oracle` drives through environment variables.

mod checks;
mod cli;
mod compare;
mod corpus;
mod events;
mod generate;
mod generate_code;
mod glob;
mod paths;
mod reads;
mod sandbox;
mod strace;
mod uids;
mod writes;

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use hookgate::shell::{CommandLine, parse};

pub use compare::Verdict;
pub use events::Event;

/// One line through the oracle.
pub struct Case {
    pub line: String,
    pub run: sandbox::Run,
    pub events: Vec<Event>,
    pub predicted: CommandLine,
    pub verdict: Verdict,
}

/// Runs `line` and judges the reader's prediction of it.
pub fn check(line: &str) -> Case {
    check_against(line, parse(line))
}

/// Runs `line` and judges `predicted` (the harness's own tests pass wrong predictions).
pub fn check_against(line: &str, predicted: CommandLine) -> Case {
    let run = sandbox::run(line);
    let calls = strace::parse(&run.trace);
    // The top `bash -c` must be in the trace, or nothing was traced and silence would
    // read as "sound".
    let traced = calls.iter().any(|c| c.name == "execve" && c.ok());
    assert!(
        traced || run.timed_out,
        "no exec in the trace of {line:?}:\n{}\nstderr: {}",
        run.trace,
        run.stderr
    );
    let events = events::events(&calls, &sandbox::secrets(), &sandbox::planted());
    let verdict = compare::verdict(&predicted, &events);
    Case {
        line: line.to_owned(),
        run,
        events,
        predicted,
        verdict,
    }
}

/// How many sandboxes run at once (`ORACLE_THREADS`, 3 by default: the machines have two
/// cores and a case spends much of its time waiting on process start-up).
fn threads() -> usize {
    std::env::var("ORACLE_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .filter(|t| *t > 0)
        .unwrap_or(3)
}

/// Every line through the oracle, a few at a time; the cases in the lines' order.
pub fn check_all(lines: &[String]) -> Vec<Case> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, Case)>> = Mutex::new(Vec::with_capacity(lines.len()));
    std::thread::scope(|s| {
        for _ in 0..threads().min(lines.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(line) = lines.get(i) else { break };
                    let case = check(line);
                    done.lock().expect("cases lock").push((i, case));
                }
            });
        }
    });
    let mut done = done.into_inner().expect("cases lock");
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, c)| c).collect()
}

/// At most this many events of a kind are listed in a report.
const SHOWN: usize = 12;

impl Case {
    /// What bash did, what the reader predicted, and the verdict, for a person.
    pub fn report(&self) -> String {
        let mut r = String::new();
        let run = &self.run;
        let _ = writeln!(r, "line:    {:?}", self.line);
        let _ = writeln!(
            r,
            "bash:    exit {}, {} ms{}",
            run.status.map_or("-".to_owned(), |s| s.to_string()),
            run.elapsed.as_millis(),
            if run.timed_out {
                ", killed at the timeout"
            } else {
                ""
            }
        );
        list(&mut r, "  ", &self.events);
        if self.events.is_empty() {
            let _ = writeln!(r, "  (no exec, secret read or deletion)");
        }
        let _ = writeln!(r, "reader:  {}", predicted_text(&self.predicted));
        if let Some(why) = &self.predicted.unreadable {
            let _ = writeln!(r, "         unreadable: {why}");
        }
        let _ = writeln!(r, "verdict: {}", self.verdict);
        if let Verdict::Unsound { unpredicted } = &self.verdict {
            list(&mut r, "  not predicted: ", unpredicted);
        }
        r
    }

    /// A one-line summary of why the case is unsound (the first unpredicted event).
    pub fn first_unpredicted(&self) -> Option<String> {
        match &self.verdict {
            Verdict::Unsound { unpredicted } => unpredicted.first().map(ToString::to_string),
            _ => None,
        }
    }
}

/// The predicted commands as `program [args] < target`, joined by `; `: written here from
/// the fields alone, which are all of the reader's interface the oracle relies on.
fn predicted_text(line: &CommandLine) -> String {
    let commands: Vec<String> = line
        .commands
        .iter()
        .map(|c| {
            let mut s = format!("{} {:?}", c.program, c.args);
            for redirect in &c.redirects {
                let _ = write!(s, " {} {:?}", redirect.op, redirect.target);
            }
            s
        })
        .collect();
    if commands.is_empty() {
        "(no command)".to_owned()
    } else {
        commands.join("; ")
    }
}

fn list(r: &mut String, prefix: &str, events: &[Event]) {
    for e in events.iter().take(SHOWN) {
        let _ = writeln!(r, "{prefix}{e}");
    }
    if events.len() > SHOWN {
        let _ = writeln!(r, "{prefix}... and {} more", events.len() - SHOWN);
    }
}

/// Counts of verdicts over a set of cases.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub sound: usize,
    pub unreadable: usize,
    pub unsound: usize,
}

impl Tally {
    pub fn of<'a>(cases: impl IntoIterator<Item = &'a Case>) -> Tally {
        let mut t = Tally::default();
        for c in cases {
            match c.verdict {
                Verdict::Sound => t.sound += 1,
                Verdict::Unreadable => t.unreadable += 1,
                Verdict::Unsound { .. } => t.unsound += 1,
            }
        }
        t
    }

    pub fn total(&self) -> usize {
        self.sound + self.unreadable + self.unsound
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |n: usize| 100.0 * n as f64 / self.total().max(1) as f64;
        write!(
            f,
            "{} lines: {} sound, {} unreadable ({:.1}%), {} unsound ({:.1}%)",
            self.total(),
            self.sound,
            self.unreadable,
            pct(self.unreadable),
            self.unsound,
            pct(self.unsound)
        )
    }
}
