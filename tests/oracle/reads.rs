//! What a command reads, against bash, for `match.readGlob`: a hook that blocks the planted
//! secrets by `readGlob` must block every line in which bash opened one of them for reading
//! (or the line must be unreadable). `readGlob` leaves out what a command only writes (`> f`,
//! `cp a f`, `tee f`), so the lines here write the secrets every way the reader leaves out,
//! and read them while writing (`sed -i ... w`, `<>`, `cat f > f.bak`): a write wrongly taken as
//! write-only would let a read through.

use std::path::Path;
use std::sync::Arc;

use hookgate::config::Place;
use hookgate::internals::Where;
use hookgate::internals::read_words;
use hookgate::{Engine, HookContext, Point, RuleGraph, config};

use super::sandbox::{HOME, WORK};
use super::{Case, Event, Verdict, check_all};

/// The planted secrets, blocked on read only.
const POLICY: &str = r#"version: 1
hooks:
  - name: secrets-read
    point: turn:tool:pre
    match:
      tool: Bash
      readGlob: ["**/.env", "**/.ssh/id_rsa", "**/.aws/credentials", "**/.netrc"]
    action: block
"#;

/// Lines that write a secret `{S}`, read it, or both.
const LINES: &[&str] = &[
    "echo X=1 >> {S}",
    "echo X=1 > {S}",
    "printf x | tee {S} > /dev/null",
    "printf x | tee -a {S} > /dev/null",
    "cp README.md {S}",
    "cp -n README.md {S}",
    "install -m 600 README.md {S}",
    "mv notes.md {S}",
    "dd if=/dev/zero of={S} bs=1 count=1 status=none",
    "truncate -s 0 {S}",
    "sort -o {S} a.txt",
    "ln -sf README.md {S}",
    // Read while written (a `sed -i` that also writes what it reads elsewhere).
    "sed -i 's/a/b/w /dev/stderr' {S}",
    "cat 0<>{S}",
    "cat {S} > {S}.bak",
    "cp {S} copy.txt",
    "tee out.txt < {S}",
    "dd if={S} of=out.txt status=none",
    "sort -o {S} {S}",
    "cat {S} >> {S}",
];

/// Lines that open a secret and print nothing of what it holds: counts, whether a
/// setting is there, and a setting changed in place. `readGlob` leaves them out on purpose
/// (`docs/hooks-reference.md`).
const COUNTS: &[&str] = &[
    "wc -l {S}",
    "grep -c = {S}",
    "grep -q '^X=' {S} && echo set",
    "sed -i 's/^X=.*/X=1/' {S}",
];

/// The secrets as lines spell them (see `sandbox::SECRETS`).
const SECRETS: &[&str] = &[
    ".env",
    "~/.ssh/id_rsa",
    "\"$HOME\"/.aws/credentials",
    "~/.netrc",
];

fn lines() -> Vec<String> {
    let mut out = Vec::new();
    for (i, line) in LINES.iter().enumerate() {
        for k in 0..2 {
            out.push(line.replace("{S}", SECRETS[(i + k) % SECRETS.len()]));
        }
    }
    out
}

/// Whether the secrets policy blocks `line`, run in the work tree.
fn blocked(engine: &Engine, line: &str) -> bool {
    let ctx: HookContext = serde_json::from_value(serde_json::json!({
        "sessionKey": "agent:main:main",
        "toolName": "Bash",
        "toolArgs": { "command": line },
        "cwd": WORK,
    }))
    .expect("context");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    !runtime
        .block_on(engine.evaluate(Point::TurnToolPre, &ctx))
        .passed
}

fn read_a_secret(case: &Case) -> bool {
    case.events
        .iter()
        .any(|e| matches!(e, Event::SecretRead { .. }))
}

/// Whether bash opened a secret of the home directory outside the work tree for reading.
pub(super) fn read_a_home_secret(case: &Case) -> bool {
    case.events.iter().any(|e| match e {
        Event::SecretRead { path, .. } => !path.starts_with(&format!("{WORK}/")),
        _ => false,
    })
}

/// Where the reader's prediction of `case` reads, by `match.command.reads`: each word
/// placed as the engine places it, against the sandbox's home and work tree.
pub(super) fn read_places(case: &Case) -> Vec<Place> {
    let places = Where::new(
        Some(WORK.to_owned()),
        Some(WORK.to_owned()),
        Some(HOME.to_owned()),
        vec!["/tmp".to_owned()],
    );
    case.predicted
        .commands
        .iter()
        .flat_map(|c| {
            read_words(c)
                .into_iter()
                .map(|w| places.place(c.dir.as_deref(), w))
        })
        .collect()
}

fn reads_in_home(case: &Case) -> bool {
    read_places(case).contains(&Place::Home)
}

#[test]
fn oracle_every_secret_bash_reads_is_one_read_glob_matches() {
    let policy = config::load_str(POLICY, Path::new("reads.yaml")).expect("policy");
    let engine = Engine::new(Arc::new(RuleGraph::from_policy(&policy)));
    let lines = lines();
    let cases = check_all(&lines);
    let read = cases.iter().filter(|c| read_a_secret(c)).count();
    let let_through: Vec<String> = cases
        .iter()
        .filter(|c| read_a_secret(c) && !matches!(c.verdict, Verdict::Unreadable))
        .filter(|c| !blocked(&engine, &c.line))
        .map(|c| c.report())
        .collect();
    // The write-only lines that bash really left unread and the policy lets through: the
    // point of `readGlob`. If none were, the filter would be `pathGlob` again.
    let writes_passed = cases
        .iter()
        .filter(|c| !read_a_secret(c) && !blocked(&engine, &c.line))
        .count();
    eprintln!(
        "reads oracle: {} lines, {read} read a secret, {writes_passed} wrote one unread and \
         passed, {} read one and passed",
        lines.len(),
        let_through.len()
    );
    // The lines are built to read in about half the cases: if none did, the sandbox or
    // the trace broke, and silence would pass for soundness.
    assert!(read * 4 >= lines.len(), "only {read} lines read a secret");
    assert!(
        writes_passed * 4 >= lines.len(),
        "only {writes_passed} writes passed"
    );
    assert!(
        let_through.is_empty(),
        "secrets bash read that readGlob let through:\n{}",
        let_through.join("\n")
    );
    // Counting a secret's lines opens it, as bash shows, and passes: what is printed
    // holds nothing of it.
    let counts: Vec<String> = COUNTS
        .iter()
        .flat_map(|line| SECRETS.iter().map(move |s| line.replace("{S}", s)))
        .collect();
    for case in check_all(&counts) {
        assert!(
            read_a_secret(&case),
            "bash did not open the secret: {}",
            case.report()
        );
        assert!(
            !blocked(&engine, &case.line),
            "a count was blocked: {}",
            case.line
        );
    }

    // The same reads, by place: every line in which bash read a secret of the home
    // directory is one `reads: home` names, and the lines that only wrote one are not.
    let home_read = cases.iter().filter(|c| read_a_home_secret(c)).count();
    let unplaced: Vec<String> = cases
        .iter()
        .filter(|c| read_a_home_secret(c) && !matches!(c.verdict, Verdict::Unreadable))
        .filter(|c| !reads_in_home(c))
        .map(|c| c.report())
        .collect();
    let home_writes_unread = cases
        .iter()
        .filter(|c| !read_a_secret(c) && c.line.contains('~') && !reads_in_home(c))
        .count();
    eprintln!(
        "reads oracle, by place: {home_read} lines read a home secret, {} not placed in \
         home; {home_writes_unread} wrote one unread and were not",
        unplaced.len()
    );
    assert!(home_read * 4 >= lines.len(), "only {home_read} home reads");
    assert!(
        home_writes_unread * 8 >= lines.len(),
        "only {home_writes_unread} home writes were left out of the reads"
    );
    assert!(
        unplaced.is_empty(),
        "home secrets bash read that `reads: home` does not name:\n{}",
        unplaced.join("\n")
    );
}
