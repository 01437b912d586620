//! The processes `pkill`, `pgrep` and `killall -r` pick by a pattern: a pattern that matches
//! hookgate's name or command line (`pkill -f 'hook[g]ate'`, `killall -r 'hook.*'`) picks
//! the daemon, however it is spelled. The reader records such a command a second time
//! naming `hookgate`, so a filter on the name sees it.

use regex_automata::meta::Regex;
use regex_automata::util::syntax;

/// What the daemon's process is called and how it is started, as a pattern would see them.
const GATE: &[&str] = &[
    "hookgate",
    "hookgate serve",
    "hookgate serve --config HOOKS.yaml --listen 127.0.0.1:18790",
];

/// Largest compiled pattern tried; a bigger one is taken to pick the daemon.
const SIZE_LIMIT: usize = 1 << 16;

/// Whether `program` with `args` signals processes by a pattern that picks hookgate's,
/// written otherwise than `hookgate`.
pub(crate) fn picks_gate_by_pattern(program: &str, args: &[String]) -> bool {
    let (with_value, regex): (&[&str], bool) = match program {
        "pkill" | "pgrep" => (
            &[
                "-d", "-g", "-G", "-P", "-s", "-t", "-u", "-U", "-F", "--signal", "--ns",
                "--nslist",
            ],
            true,
        ),
        "killall" => (
            &[
                "-s",
                "--signal",
                "-u",
                "--user",
                "-o",
                "--older-than",
                "-y",
                "--younger-than",
            ],
            args.iter()
                .any(|a| a == "-r" || a == "--regexp" || is_bundle_with(a, 'r')),
        ),
        _ => return false,
    };
    if !regex {
        return false;
    }
    let mut patterns = Vec::new();
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        if with_value.contains(&a.as_str()) {
            iter.next();
        } else if !a.starts_with('-') || a == "-" {
            patterns.push(a.as_str());
        }
    }
    patterns.into_iter().any(|p| {
        p != "hookgate" && matches_gate(p, args.iter().any(|a| a == "-i" || a == "--ignore-case"))
    })
}

/// Whether `pattern` (an extended regular expression) finds a match in hookgate's name or
/// command line; one that cannot be compiled within the limit counts as matching.
fn matches_gate(pattern: &str, ignore_case: bool) -> bool {
    let built = Regex::builder()
        .syntax(syntax::Config::new().case_insensitive(ignore_case))
        .configure(Regex::config().nfa_size_limit(Some(SIZE_LIMIT)))
        .build(pattern);
    match built {
        Ok(regex) => GATE.iter().any(|g| regex.is_match(g)),
        // A pattern the reader cannot compile is one pgrep may still take.
        Err(_) => true,
    }
}

fn is_bundle_with(arg: &str, letter: char) -> bool {
    arg.strip_prefix('-')
        .is_some_and(|b| !b.starts_with('-') && b.contains(letter))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picks(line: &str) -> bool {
        let mut words = line.split(' ').map(str::to_owned);
        let program = words.next().unwrap_or_default();
        picks_gate_by_pattern(&program, &words.collect::<Vec<_>>())
    }

    #[test]
    fn patterns_that_match_hookgate_pick_it() {
        for line in [
            "pkill -f hook[g]ate",
            "pkill -f hook.ate",
            "pkill -9 -f ^hook",
            "pgrep -f gate.serve",
            "killall -r hook.*",
            "pkill -i HOOK.ATE",
            // pgrep's pattern finds a match anywhere: part of the name picks it too.
            "pkill gate",
            "pkill -f serve",
        ] {
            assert!(picks(line), "{line}");
        }
        for line in [
            "pkill -f node",
            "pkill -f gunicorn.*app",
            "killall hook.ate",
            "pkill hookgate",
            "pgrep -u root sshd",
            "kill -9 1234",
        ] {
            assert!(!picks(line), "{line}");
        }
    }
}
