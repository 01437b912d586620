//! Wait mode: `"wait": true` holds the evaluation until a human decides or the request times
//! out. Decisions come from another thread while the waiting call is in flight.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::{
    LONG, allowed, ask, decide, get_ok, history_of, pending_ids, setup, wait_pending, waiting,
};
use crate::daemon::Daemon;

/// Starts a waiting evaluation of `command` in `session` on another thread, waits until its
/// request is pending, runs `act` with the request id, and returns the waiting call's
/// Decision.
fn while_waiting(d: &Daemon, session: &str, command: &str, act: impl FnOnce(&str)) -> Value {
    std::thread::scope(|scope| {
        let waiter = scope.spawn(|| d.evaluate(&waiting(session, command)));
        let id = wait_pending(d, session, command);
        assert!(
            !waiter.is_finished(),
            "the waiting call returned before anyone decided"
        );
        act(&id);
        let (status, decision) = waiter.join().expect("waiting thread");
        assert_eq!(status, 200, "{decision}");
        decision
    })
}

#[test]
fn approving_releases_a_waiting_call_with_allow() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let decision = while_waiting(&d, "s1", "deploy prod", |id| {
        decide(&d, id, "approve", None);
    });
    assert_eq!(decision["decision"], "allow", "{decision}");
    assert_eq!(decision["passed"], true, "{decision}");
    assert_eq!(decision["approval"], Value::Null, "{decision}");
    assert_eq!(
        decision["results"][0]["message"], "Approved by alice (approve)",
        "{decision}"
    );
    assert!(pending_ids(&d, "").is_empty());

    // approve_session while waiting: the waiting call passes, and so do later ones.
    let decision = while_waiting(&d, "s1", "deploy staging", |id| {
        decide(&d, id, "approve_session", None);
    });
    assert_eq!(
        decision["results"][0]["message"], "Approved by alice (approve_session)",
        "{decision}"
    );
    assert_eq!(
        allowed(&d, "s1", "deploy staging"),
        "Approved by session grant by alice"
    );
}

#[test]
fn denying_releases_a_waiting_call_with_block() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let mut request = String::new();
    let decision = while_waiting(&d, "s1", "deploy prod", |id| {
        request = id.to_owned();
        decide(&d, id, "deny", None);
    });
    assert_eq!(decision["decision"], "block", "{decision}");
    assert_eq!(decision["passed"], false, "{decision}");
    assert_eq!(decision["message"], "Denied by alice", "{decision}");
    assert_eq!(decision["hook"], "deploy-approval", "{decision}");
    assert_eq!(history_of(&d, &request)[0]["decision"], "deny");
    assert!(pending_ids(&d, "").is_empty());
}

#[test]
fn a_waiting_call_that_nobody_answers_is_denied_at_its_timeout() {
    let timeout = 1_500;
    let dir = setup(timeout, "");
    let d = Daemon::start(&dir, &[]);
    let started = Instant::now();
    let decision = d.decide(&waiting("s1", "deploy prod"));
    let took = started.elapsed();
    assert_eq!(decision["decision"], "block", "{decision}");
    assert_eq!(
        decision["message"], "Approval timed out; denied",
        "{decision}"
    );
    assert!(
        took >= Duration::from_millis(timeout * 9 / 10),
        "answered after {took:?}, before the {timeout} ms timeout"
    );
    assert!(pending_ids(&d, "").is_empty());
    let history = get_ok(&d, "/v1/approvals/history");
    let entry = &history["history"][0];
    assert_eq!(entry["by"], "timeout", "{history}");
    assert_eq!(entry["decision"], "deny", "{history}");
    assert_eq!(entry["subject"], "deploy prod", "{history}");
}

#[test]
fn a_waiting_call_that_nobody_answers_is_allowed_by_timeout_action_allow() {
    let timeout = 1_500;
    let dir = setup(timeout, "    timeoutAction: allow\n");
    let d = Daemon::start(&dir, &[]);
    let started = Instant::now();
    let decision = d.decide(&waiting("s1", "deploy prod"));
    let took = started.elapsed();
    assert_eq!(decision["decision"], "allow", "{decision}");
    assert_eq!(
        decision["results"][0]["message"], "Approval timed out; allowed by timeoutAction",
        "{decision}"
    );
    assert!(
        took >= Duration::from_millis(timeout * 9 / 10),
        "answered after {took:?}, before the {timeout} ms timeout"
    );
    let history = get_ok(&d, "/v1/approvals/history");
    assert_eq!(history["history"][0]["by"], "timeout", "{history}");
    assert_eq!(history["history"][0]["decision"], "approve", "{history}");
    // Not a grant: the next call asks.
    ask(&d, "s1", "deploy prod");
}

#[test]
fn waiting_and_non_waiting_calls_share_one_request() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);

    // The waiting call opens the request; a plain call for the same thing gets that request.
    let decision = while_waiting(&d, "s1", "deploy prod", |id| {
        let joined = super::ask_decision(&d, "s1", "deploy prod");
        assert_eq!(super::id_of(&joined), id, "{joined}");
        assert!(
            joined["notifications"]
                .as_array()
                .is_none_or(|n| n.is_empty()),
            "{joined}"
        );
        decide(&d, id, "approve_always", None);
    });
    assert_eq!(
        decision["results"][0]["message"], "Approved by alice (approve_always)",
        "{decision}"
    );
    assert!(
        decision["notifications"]
            .as_array()
            .is_some_and(|n| n.len() == 1),
        "the call that opened the request carries its notice: {decision}"
    );

    // A plain call opens the request; a waiting call for the same thing waits on it.
    let asked = ask(&d, "s1", "deploy staging");
    std::thread::scope(|scope| {
        let waiter = scope.spawn(|| d.decide(&waiting("s1", "deploy staging")));
        // Give the waiting call time to come in; it cannot return before a decision.
        std::thread::sleep(Duration::from_millis(300));
        assert!(!waiter.is_finished(), "the waiting call did not wait");
        assert_eq!(pending_ids(&d, ""), vec![asked.clone()]);
        decide(&d, &asked, "deny", None);
        // Should the waiting call have come in only after the decision (a very loaded
        // machine), it opened a new request: deny that too rather than hang.
        let mut late = None;
        super::poll("the waiting call to be answered", || {
            if late.is_none() {
                late = pending_ids(&d, "").pop();
                if let Some(id) = &late {
                    decide(&d, id, "deny", None);
                }
            }
            waiter.is_finished()
        });
        let decision = waiter.join().expect("waiter");
        assert_eq!(decision["message"], "Denied by alice", "{decision}");
        if late.is_none() {
            assert!(
                decision["notifications"]
                    .as_array()
                    .is_none_or(|n| n.is_empty()),
                "the waiting call opened a request of its own: {decision}"
            );
        }
    });
}

/// A one-time approval given while the call waits is used by that call: it must not also
/// let the next identical call through (two executions for one "approve once").
#[test]
fn approve_once_while_waiting_lets_exactly_one_call_through() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let decision = while_waiting(&d, "s1", "deploy prod", |id| {
        decide(&d, id, "approve", None);
    });
    assert_eq!(decision["decision"], "allow", "{decision}");
    let leftover = super::grants(&d);
    assert!(
        leftover.is_empty(),
        "the one-time approval was used by the waiting call, yet a grant remains: {leftover:?}"
    );
    let next = d.decide(&super::call("s1", "deploy prod"));
    assert_eq!(
        next["decision"], "ask",
        "a second identical call passed on one one-time approval: {next}"
    );
}

/// SIGTERM must stop the daemon promptly even while a call waits for a human: nobody can
/// decide once the daemon drains (it takes no new connections), so finishing the wait means
/// hanging until `timeoutMs` (60 s by default, up to an hour).
#[test]
fn sigterm_with_a_waiting_call_in_flight_exits_promptly() {
    let dir = setup(LONG, "");
    let mut d = Daemon::start(&dir, &[]);
    let client = d.client();
    let url = d.url("/v1/evaluate");
    let waiter = std::thread::spawn(move || {
        let response = client
            .post(url)
            .json(&waiting("s1", "deploy prod"))
            .send()
            .ok()?;
        let status = response.status().as_u16();
        Some((status, response.json::<Value>().ok()?))
    });
    wait_pending(&d, "s1", "deploy prod");
    d.signal("TERM");
    // Panics after EXIT_DEADLINE (10 s) if the daemon still runs; the request waits 600 s.
    let status = d.wait_exit();
    assert_eq!(status.code(), Some(0), "{}", d.stderr_text());
    // The waiting call failed closed: no answer, an error status, or a block.
    if let Some((200, decision)) = waiter.join().expect("waiting thread") {
        assert_ne!(decision["decision"], "allow", "{decision}");
    }
}

#[test]
fn every_call_waiting_on_the_same_request_is_released() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let waiters = 3;
    let decisions: Vec<Value> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..waiters)
            .map(|_| scope.spawn(|| d.decide(&waiting("s1", "deploy prod"))))
            .collect();
        let id = wait_pending(&d, "s1", "deploy prod");
        // Give the other waiters time to come in; they cannot return before a decision.
        std::thread::sleep(Duration::from_millis(200));
        assert!(handles.iter().all(|h| !h.is_finished()));
        assert_eq!(pending_ids(&d, ""), vec![id.clone()]);
        decide(&d, &id, "deny", None);
        // A waiter that came in only after the decision (a very loaded machine) opened a new
        // request: deny that too, so that no waiter is left hanging.
        let mut decided = vec![id];
        super::poll("every waiter to be answered", || {
            for other in pending_ids(&d, "") {
                if !decided.contains(&other) {
                    decide(&d, &other, "deny", None);
                    decided.push(other);
                }
            }
            handles.iter().all(|h| h.is_finished())
        });
        handles
            .into_iter()
            .map(|h| h.join().expect("waiter"))
            .collect()
    });
    for decision in &decisions {
        assert_eq!(decision["decision"], "block", "{decision}");
        assert_eq!(decision["message"], "Denied by alice", "{decision}");
    }
}
