//! Crash safety: `kill -9` in the middle of a burst of decisions never loses an acknowledged
//! decision and never leaves a file that does not parse.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{allowed, call, grants, setup, stored, try_post};
use crate::daemon::{Daemon, send_signal};
use crate::util::Dir;

/// Requests (and decisions) per burst.
const BURST: usize = 200;
/// Clients deciding at once.
const WORKERS: usize = 2;
/// Per kill cycle: how many decisions are acknowledged before the killer starts its delay,
/// and the delay, so that the kill lands at a different point of the write path each time.
/// (Kept low: the daemon recompiles every always-grant on each decision, so a debug build
/// slows down as the grants pile up over the cycles.)
const CYCLES: [(usize, Duration); 4] = [
    (8, Duration::from_millis(0)),
    (20, Duration::from_millis(3)),
    (35, Duration::from_micros(1500)),
    (50, Duration::from_millis(7)),
];
/// The longest a burst may run before the test gives up on it.
const BURST_DEADLINE: Duration = Duration::from_secs(60);

/// What a burst saw acknowledged.
#[derive(Default)]
struct Acked {
    /// Requests whose `ask` came back: (request id, subject).
    asked: Vec<(String, String)>,
    /// approve_always decisions answered 200: (request id, subject).
    decided: Vec<(String, String)>,
}

/// Asks for `deploy svc-<cycle>-<n>` and approves it always, for every n in the burst, on
/// [`WORKERS`] clients, until the daemon stops answering; meanwhile kills it with `kill -9`
/// once `threshold` decisions were acknowledged and `delay` passed.
fn burst_and_kill(d: &Daemon, cycle: usize, threshold: usize, delay: Duration) -> Acked {
    let acked = Mutex::new(Acked::default());
    let done = AtomicBool::new(false);
    let evaluate = d.url("/v1/evaluate");
    let pid = d.pid();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let (acked, evaluate) = (&acked, &evaluate);
                scope.spawn(move || {
                    let client = d.operator();
                    let started = Instant::now();
                    for n in (w..BURST).step_by(WORKERS) {
                        assert!(started.elapsed() < BURST_DEADLINE, "the burst is stuck");
                        let subject = format!("deploy svc-{cycle}-{n}");
                        let Some((status, decision)) =
                            try_post(&client, evaluate, &call("crash", &subject))
                        else {
                            return;
                        };
                        assert_eq!(status, 200, "{decision}");
                        assert_eq!(decision["decision"], "ask", "{decision}");
                        let id = super::id_of(&decision);
                        lock(acked).asked.push((id.clone(), subject.clone()));
                        let url = evaluate.replace("/v1/evaluate", &format!("/v1/approvals/{id}"));
                        let body = json!({ "decision": "approve_always", "by": "burst" });
                        let Some((status, answer)) = try_post(&client, &url, &body) else {
                            return;
                        };
                        assert_eq!(status, 200, "{answer}");
                        lock(acked).decided.push((id, subject));
                    }
                })
            })
            .collect();
        let killer = scope.spawn(|| {
            while lock(&acked).decided.len() < threshold && !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_micros(200));
            }
            std::thread::sleep(delay);
            send_signal(pid, "KILL");
        });
        // Every worker is joined before the killer is released, even a failed one, so that
        // a failure never leaves the killer waiting for decisions that will not come.
        let results: Vec<_> = workers.into_iter().map(|w| w.join()).collect();
        done.store(true, Ordering::Relaxed);
        killer.join().expect("killer");
        for result in results {
            if let Err(panic) = result {
                std::panic::resume_unwind(panic);
            }
        }
    });
    acked
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn lock(acked: &Mutex<Acked>) -> std::sync::MutexGuard<'_, Acked> {
    acked
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The store after a kill: it reads, and holds every acknowledged request and decision.
fn check_file(dir: &Dir, acked: &Acked, cycle: usize) -> Value {
    let file = stored(dir);
    assert_eq!(file["version"], 1, "cycle {cycle}");
    let ids = |key: &str, field: &str| -> BTreeSet<String> {
        file[key]
            .as_array()
            .unwrap_or_else(|| panic!("cycle {cycle}: no {key} list"))
            .iter()
            .filter_map(|v| v[field].as_str().map(str::to_owned))
            .collect()
    };
    let pending = ids("pending", "id");
    let history = ids("history", "requestId");
    let patterns = ids("grants", "pattern");
    for (id, subject) in &acked.asked {
        assert!(
            pending.contains(id) || history.contains(id),
            "cycle {cycle}: acknowledged request {id} ({subject}) is neither pending nor decided"
        );
    }
    for (id, subject) in &acked.decided {
        assert!(
            history.contains(id),
            "cycle {cycle}: acknowledged decision on {id} ({subject}) is not in the history"
        );
        assert!(
            patterns.contains(&format!("exec:{subject}")),
            "cycle {cycle}: acknowledged always-grant for {subject} is not stored"
        );
        assert!(
            !pending.contains(id),
            "cycle {cycle}: {id} decided yet pending"
        );
    }
    file
}

/// Bursts of decisions, each cut short by `kill -9`, on a daemon started with `args`; after
/// each kill, every acknowledged request and decision is stored, and a restarted daemon
/// serves every acknowledged grant. `after_kill` looks at the directory after each kill.
pub(super) fn kill_cycles(args: &[&str], mut after_kill: impl FnMut(&Dir, usize)) {
    let dir = setup(super::LONG, "");
    let mut d = Daemon::start(&dir, args);
    let mut granted: Vec<String> = Vec::new();
    for (cycle, (threshold, delay)) in CYCLES.into_iter().enumerate() {
        let acked = burst_and_kill(&d, cycle, threshold, delay);
        let status = d.wait_exit();
        assert!(
            !status.success(),
            "cycle {cycle}: killed daemon exited {status}"
        );
        assert!(
            acked.decided.len() >= threshold.min(BURST),
            "cycle {cycle}: killed before {threshold} decisions"
        );
        let file = check_file(&dir, &acked, cycle);
        after_kill(&dir, cycle);
        granted.extend(acked.decided.into_iter().map(|(_, subject)| subject));

        // The killed daemon's lock is gone: a new one starts on the same file and every
        // acknowledged always-grant, of this cycle and the earlier ones, still applies.
        d = Daemon::start(&dir, args);
        assert_eq!(
            json!(grants(&d)),
            file["grants"],
            "cycle {cycle}: the restarted daemon does not serve the stored grants"
        );
        for subject in &granted {
            assert_eq!(
                allowed(&d, "after-crash", subject),
                format!("Approved by always grant `exec:{subject}`"),
            );
        }
    }
    d.signal("TERM");
    assert_eq!(d.wait_exit().code(), Some(0), "{}", d.stderr_text());
}

#[test]
fn kill_9_during_a_burst_of_decisions_loses_no_acknowledged_decision() {
    kill_cycles(&["--no-watch"], |_, _| {});
}
