//! Racing clients: exactly one decision wins, identical calls share one request.

use std::collections::BTreeSet;
use std::sync::Barrier;

use serde_json::{Value, json};

use super::{ask, grants, history, history_of, pending_ids, setup, try_post};
use crate::daemon::Daemon;

const DECISIONS: [&str; 4] = ["approve", "deny", "approve_session", "approve_always"];
const RACERS: usize = 8;

#[test]
fn of_racing_decisions_exactly_one_wins() {
    let dir = setup(super::LONG, "");
    let d = Daemon::start(&dir, &[]);
    let rounds = 5;
    for round in 0..rounds {
        let command = format!("deploy svc-{round}");
        let id = ask(&d, "s1", &command);
        let url = d.url(&format!("/v1/approvals/{id}"));
        let start = Barrier::new(RACERS);
        let answers: Vec<(usize, u16, Value)> = std::thread::scope(|scope| {
            let racers: Vec<_> = (0..RACERS)
                .map(|i| {
                    let (url, start, d) = (&url, &start, &d);
                    scope.spawn(move || {
                        // A client of its own: its own connection.
                        let client = d.operator();
                        let body = json!({
                            "decision": DECISIONS[i % DECISIONS.len()],
                            "by": format!("racer-{i}"),
                        });
                        start.wait();
                        let (status, answer) =
                            try_post(&client, url, &body).expect("the daemon answers");
                        (i, status, answer)
                    })
                })
                .collect();
            racers
                .into_iter()
                .map(|r| r.join().expect("racer"))
                .collect()
        });

        let winners: Vec<_> = answers.iter().filter(|(_, s, _)| *s == 200).collect();
        assert_eq!(winners.len(), 1, "round {round}: {answers:?}");
        for (_, status, answer) in answers.iter().filter(|(_, s, _)| *s != 200) {
            assert_eq!(*status, 409, "round {round}: {answer}");
            assert_eq!(answer["error"]["code"], "already_decided", "{answer}");
        }
        let (winner, _, answer) = winners[0];
        let decision = DECISIONS[winner % DECISIONS.len()];
        let by = format!("racer-{winner}");
        assert_eq!(answer["resolution"]["by"], by.as_str(), "{answer}");

        let entries = history_of(&d, &id);
        assert_eq!(entries.len(), 1, "round {round}: {entries:?}");
        assert_eq!(entries[0]["decision"], decision, "{entries:?}");
        assert_eq!(entries[0]["by"], by.as_str(), "{entries:?}");
        let shown = super::get_ok(&d, &format!("/v1/approvals/{id}"));
        assert_eq!(shown["decision"]["by"], by.as_str(), "{shown}");

        // Only the winner's grant exists for this subject.
        let left: Vec<_> = grants(&d)
            .into_iter()
            .filter(|g| {
                g["subject"] == command.as_str() || g["pattern"] == format!("exec:{command}")
            })
            .collect();
        let want = match decision {
            "approve" => Some("once"),
            "approve_session" => Some("session"),
            "approve_always" => Some("always"),
            _ => None,
        };
        match want {
            Some(kind) => {
                assert_eq!(left.len(), 1, "round {round}: {left:?}");
                assert_eq!(left[0]["kind"], kind, "{left:?}");
                assert_eq!(left[0]["by"], by.as_str(), "{left:?}");
            }
            None => assert!(left.is_empty(), "round {round}: a deny left {left:?}"),
        }
    }
    assert_eq!(history(&d).len(), rounds);
    assert!(pending_ids(&d, "").is_empty());
    // The file agrees with the API.
    let stored = super::stored(&dir);
    assert_eq!(stored["history"].as_array().map(Vec::len), Some(rounds));
    assert_eq!(stored["grants"], json!(grants(&d)));
}

#[test]
fn racing_identical_calls_open_one_request() {
    let dir = setup(super::LONG, "");
    let d = Daemon::start(&dir, &[]);
    let url = d.url("/v1/evaluate");
    let start = Barrier::new(RACERS);
    let ids: Vec<String> = std::thread::scope(|scope| {
        let callers: Vec<_> = (0..RACERS)
            .map(|_| {
                let (url, start, d) = (&url, &start, &d);
                scope.spawn(move || {
                    let client = d.operator();
                    start.wait();
                    let (status, decision) =
                        try_post(&client, url, &super::call("s1", "deploy prod"))
                            .expect("the daemon answers");
                    assert_eq!(status, 200, "{decision}");
                    assert_eq!(decision["decision"], "ask", "{decision}");
                    let notified = decision["notifications"]
                        .as_array()
                        .is_some_and(|n| !n.is_empty());
                    (super::id_of(&decision), notified)
                })
            })
            .collect();
        let answers: Vec<_> = callers
            .into_iter()
            .map(|c| c.join().expect("caller"))
            .collect();
        let notified = answers.iter().filter(|(_, n)| *n).count();
        assert_eq!(notified, 1, "one request, one notification: {answers:?}");
        answers.into_iter().map(|(id, _)| id).collect()
    });
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    assert_eq!(pending_ids(&d, ""), vec![ids[0].clone()]);
}

#[test]
fn a_one_time_approval_lets_exactly_one_of_racing_identical_calls_through() {
    let dir = setup(super::LONG, "");
    let d = Daemon::start(&dir, &[]);
    for round in 0..3 {
        let command = format!("deploy svc-{round}");
        let id = ask(&d, "s1", &command);
        super::decide(&d, &id, "approve", None);
        let url = d.url("/v1/evaluate");
        let start = Barrier::new(RACERS);
        let verdicts: Vec<Value> = std::thread::scope(|scope| {
            let callers: Vec<_> = (0..RACERS)
                .map(|_| {
                    let (url, start, command, d) = (&url, &start, &command, &d);
                    scope.spawn(move || {
                        let client = d.operator();
                        start.wait();
                        let (status, decision) =
                            try_post(&client, url, &super::call("s1", command))
                                .expect("the daemon answers");
                        assert_eq!(status, 200, "{decision}");
                        decision
                    })
                })
                .collect();
            callers
                .into_iter()
                .map(|c| c.join().expect("caller"))
                .collect()
        });
        let passed: Vec<_> = verdicts
            .iter()
            .filter(|v| v["decision"] == "allow")
            .collect();
        assert_eq!(passed.len(), 1, "round {round}: {verdicts:?}");
        assert_eq!(
            passed[0]["results"][0]["message"],
            "Approved by one-time approval by alice"
        );
        // The others asked, all for one new request.
        let asked: BTreeSet<String> = verdicts
            .iter()
            .filter(|v| v["decision"] == "ask")
            .map(super::id_of)
            .collect();
        assert_eq!(asked.len(), 1, "round {round}: {verdicts:?}");
        assert!(
            !asked.contains(&id),
            "round {round}: the decided request came back"
        );
        assert!(grants(&d).is_empty(), "round {round}: {:?}", grants(&d));
    }
}
