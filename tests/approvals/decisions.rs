//! Each decision kind over HTTP, and what it does to later calls: one-time approval, deny,
//! session and always grants (exact and glob), allowedDecisions, revoking, listing, expiry.

use serde_json::{Value, json};

use super::{
    LONG, allowed, api_error, ask, ask_decision, decide, decide_raw, delete, eval, get_ok, grants,
    history, history_of, pending, pending_ids, poll, post_json, setup,
};
use crate::daemon::Daemon;

#[test]
fn an_ask_carries_the_request_and_re_asking_returns_the_same_id() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);

    let first = ask_decision(&d, "s1", "deploy prod");
    let approval = &first["approval"];
    let id = approval["id"].as_str().expect("id").to_owned();
    assert_eq!(approval["hook"], "deploy-approval", "{first}");
    assert_eq!(approval["point"], "turn:tool:pre", "{first}");
    assert_eq!(approval["tool"], "exec", "{first}");
    assert_eq!(
        approval["args"],
        json!({ "command": "deploy prod" }),
        "{first}"
    );
    assert_eq!(approval["risk"], "high", "{first}");
    assert_eq!(
        approval["reasons"],
        json!(["deploys need a human"]),
        "{first}"
    );
    assert_eq!(approval["timeoutAction"], "deny", "{first}");
    assert_eq!(
        approval["allowedDecisions"],
        json!(["approve", "deny", "approve_session", "approve_always"]),
        "{first}"
    );
    let created = approval["createdAtMs"].as_u64().expect("createdAtMs");
    let expires = approval["expiresAtMs"].as_u64().expect("expiresAtMs");
    assert_eq!(expires - created, LONG, "{first}");
    let notice = first["notifications"][0]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no notification: {first}"));
    assert!(
        notice.starts_with("Approval needed (high risk)"),
        "{notice}"
    );
    assert!(
        notice.contains(&id),
        "the notice names the request: {notice}"
    );
    assert!(notice.contains("deploy prod"), "{notice}");

    // Same call while pending: same request, no second notification.
    let again = ask_decision(&d, "s1", "deploy prod");
    assert_eq!(again["approval"]["id"], id.as_str(), "{again}");
    assert!(
        again["notifications"]
            .as_array()
            .is_none_or(|n| n.is_empty()),
        "asked again, notified again: {again}"
    );
    // Another session, another subject: other requests.
    let other_session = ask(&d, "s2", "deploy prod");
    let other_subject = ask(&d, "s1", "deploy staging");
    assert_ne!(other_session, id);
    assert_ne!(other_subject, id);
    assert_ne!(other_subject, other_session);
    // A call the hook does not match is not asked.
    assert_eq!(eval(&d, "s1", "echo hi")["decision"], "allow");

    let mut ids = pending_ids(&d, "");
    ids.sort();
    let mut want = vec![id.clone(), other_session, other_subject];
    want.sort();
    assert_eq!(ids, want);

    let shown = get_ok(&d, &format!("/v1/approvals/{id}"));
    assert_eq!(shown["status"], "pending", "{shown}");
    assert_eq!(shown["request"], first["approval"], "{shown}");
    let listed = get_ok(&d, "/v1/approvals");
    assert_eq!(listed["unavailable"], Value::Null, "{listed}");
}

#[test]
fn approve_lets_the_next_identical_call_through_once() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let id = ask(&d, "s1", "deploy prod");

    let answer = decide(&d, &id, "approve", None);
    assert_eq!(answer["request"]["id"], id.as_str(), "{answer}");
    assert_eq!(
        answer["resolution"],
        json!({ "outcome": "approved", "by": "alice", "decision": "approve" })
    );
    assert!(pending_ids(&d, "").is_empty());
    let grants_now = grants(&d);
    assert_eq!(grants_now.len(), 1, "{grants_now:?}");
    let grant = &grants_now[0];
    assert_eq!(grant["kind"], "once", "{grant}");
    assert!(
        grant["id"].as_str().is_some_and(|g| g.starts_with("g_")),
        "{grant}"
    );
    assert_eq!(grant["sessionKey"], "s1", "{grant}");
    assert_eq!(grant["tool"], "exec", "{grant}");
    assert_eq!(grant["subject"], "deploy prod", "{grant}");
    assert_eq!(grant["by"], "alice", "{grant}");

    let shown = get_ok(&d, &format!("/v1/approvals/{id}"));
    assert_eq!(shown["status"], "decided", "{shown}");
    let decision = &shown["decision"];
    assert_eq!(decision["requestId"], id.as_str(), "{shown}");
    assert_eq!(decision["decision"], "approve", "{shown}");
    assert_eq!(decision["by"], "alice", "{shown}");
    assert_eq!(decision["tool"], "exec", "{shown}");
    assert_eq!(decision["subject"], "deploy prod", "{shown}");
    assert_eq!(decision["sessionKey"], "s1", "{shown}");
    assert!(decision["atMs"].as_u64().is_some(), "{shown}");
    assert!(decision.get("pattern").is_none(), "{shown}");

    // Not for another session, nor another subject: those ask, and do not use the grant.
    let other = ask(&d, "s2", "deploy prod");
    assert_ne!(other, id);
    ask(&d, "s1", "deploy prod2");
    // The identical call passes, once.
    assert_eq!(
        allowed(&d, "s1", "deploy prod"),
        "Approved by one-time approval by alice"
    );
    assert!(grants(&d).is_empty(), "the one-time grant was not used up");
    let next = ask(&d, "s1", "deploy prod");
    assert_ne!(next, id, "a decided request was asked again");

    let entries = history_of(&d, &id);
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["decision"], "approve");
}

#[test]
fn deny_is_recorded_and_the_call_asks_again() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let id = ask(&d, "s1", "deploy prod");

    let answer = decide(&d, &id, "deny", None);
    assert_eq!(
        answer["resolution"],
        json!({ "outcome": "denied", "by": "alice" })
    );
    assert!(grants(&d).is_empty());
    assert!(pending_ids(&d, "").is_empty());
    let entries = history_of(&d, &id);
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0]["decision"], "deny");
    assert_eq!(entries[0]["by"], "alice");
    assert_eq!(entries[0]["subject"], "deploy prod");
    assert_eq!(entries[0]["sessionKey"], "s1");
    let shown = get_ok(&d, &format!("/v1/approvals/{id}"));
    assert_eq!(shown["status"], "decided", "{shown}");
    assert_eq!(shown["decision"]["decision"], "deny", "{shown}");

    // A deny is not a standing refusal either: the same call asks again, as a new request.
    let next = ask(&d, "s1", "deploy prod");
    assert_ne!(next, id);
}

#[test]
fn approve_session_covers_the_session_only() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let id = ask(&d, "s1", "deploy prod");

    let answer = decide(&d, &id, "approve_session", None);
    assert_eq!(
        answer["resolution"],
        json!({ "outcome": "approved", "by": "alice", "decision": "approve_session" })
    );
    let grants_now = grants(&d);
    assert_eq!(grants_now.len(), 1, "{grants_now:?}");
    assert_eq!(grants_now[0]["kind"], "session");
    assert_eq!(grants_now[0]["sessionKey"], "s1");
    assert_eq!(grants_now[0]["subject"], "deploy prod");

    for _ in 0..3 {
        assert_eq!(
            allowed(&d, "s1", "deploy prod"),
            "Approved by session grant by alice"
        );
    }
    assert_eq!(grants(&d).len(), 1, "a session grant is not used up");
    ask(&d, "s2", "deploy prod");
    ask(&d, "s1", "deploy prod --force");
    assert_eq!(history_of(&d, &id)[0]["decision"], "approve_session");
}

#[test]
fn approve_always_without_a_pattern_grants_the_exact_subject_everywhere() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let id = ask(&d, "s1", "deploy prod");

    let answer = decide(&d, &id, "approve_always", None);
    assert_eq!(
        answer["resolution"],
        json!({ "outcome": "approved", "by": "alice", "decision": "approve_always" })
    );
    let grants_now = grants(&d);
    assert_eq!(grants_now.len(), 1, "{grants_now:?}");
    assert_eq!(grants_now[0]["kind"], "always");
    assert_eq!(grants_now[0]["pattern"], "exec:deploy prod");
    assert_eq!(grants_now[0]["by"], "alice");
    let entries = history_of(&d, &id);
    assert_eq!(entries[0]["decision"], "approve_always", "{entries:?}");
    assert_eq!(entries[0]["pattern"], "exec:deploy prod", "{entries:?}");
    let shown = get_ok(&d, &format!("/v1/approvals/{id}"));
    assert_eq!(shown["decision"]["pattern"], "exec:deploy prod", "{shown}");

    for session in ["s1", "s2", "agent:main:other"] {
        assert_eq!(
            allowed(&d, session, "deploy prod"),
            "Approved by always grant `exec:deploy prod`"
        );
    }
    // Exactly the subject, nothing near it.
    ask(&d, "s1", "deploy prod2");
    ask(&d, "s1", "deploy pro");
}

#[test]
fn approve_always_of_a_subject_with_glob_characters_matches_it_literally() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let id = ask(&d, "s1", "ls *.md [ab]");
    decide(&d, &id, "approve_always", None);
    let pattern = grants(&d)[0]["pattern"]
        .as_str()
        .expect("pattern")
        .to_owned();
    assert_eq!(
        allowed(&d, "s2", "ls *.md [ab]"),
        format!("Approved by always grant `{pattern}`")
    );
    ask(&d, "s1", "ls README.md [ab]");
    ask(&d, "s1", "ls *.md a");
}

#[test]
fn approve_always_with_a_glob_pattern_covers_every_matching_call() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let id = ask(&d, "s1", "ls -la");

    let answer = decide(&d, &id, "approve_always", Some("exec:ls *"));
    assert_eq!(answer["resolution"]["decision"], "approve_always");
    let grants_now = grants(&d);
    assert_eq!(grants_now.len(), 1, "{grants_now:?}");
    assert_eq!(grants_now[0]["pattern"], "exec:ls *");
    assert_eq!(history_of(&d, &id)[0]["pattern"], "exec:ls *");

    for (session, command) in [
        ("s1", "ls -la"),
        ("s2", "ls -la"),
        ("s3", "ls /etc/ssh"),
        ("s4", "ls -R ."),
    ] {
        assert_eq!(
            allowed(&d, session, command),
            "Approved by always grant `exec:ls *`",
            "{command} in {session}"
        );
    }
    ask(&d, "s1", "deploy prod");
    // The glob is anchored: it does not match inside a longer subject.
    ask(&d, "s1", "tools ls -la");
}

#[test]
fn decisions_on_unknown_or_decided_requests_are_refused() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);

    let (status, body) = d.get("/v1/approvals/apr_0000000000000000");
    api_error(status, &body, 404, "not_found");
    let (status, body) = decide_raw(&d, "apr_0000000000000000", "approve", None);
    api_error(status, &body, 404, "not_found");

    let id = ask(&d, "s1", "deploy prod");
    // Not a decision at all: 400, and the request stays pending.
    let (status, body) = post_json(
        &d,
        &format!("/v1/approvals/{id}"),
        &json!({ "decision": "maybe", "by": "alice" }),
    );
    assert_eq!(status, 400, "{body}");
    let (status, body) = post_json(
        &d,
        &format!("/v1/approvals/{id}"),
        &json!({ "decision": "approve", "who": "alice" }),
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(pending_ids(&d, ""), vec![id.clone()]);

    decide(&d, &id, "deny", None);
    for decision in ["deny", "approve", "approve_session", "approve_always"] {
        let (status, body) = decide_raw(&d, &id, decision, None);
        api_error(status, &body, 409, "already_decided");
    }
    assert_eq!(history_of(&d, &id).len(), 1);
    assert!(grants(&d).is_empty(), "a refused decision left a grant");

    // `by` defaults to "api".
    let id = ask(&d, "s1", "deploy staging");
    let (status, body) = post_json(
        &d,
        &format!("/v1/approvals/{id}"),
        &json!({ "decision": "deny" }),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["resolution"]["by"], "api", "{body}");
}

#[test]
fn decisions_outside_allowed_decisions_are_400_and_leave_the_request_pending() {
    let dir = setup(LONG, "    allowedDecisions: [approve, deny]\n");
    let d = Daemon::start(&dir, &[]);
    let decision = ask_decision(&d, "s1", "deploy prod");
    assert_eq!(
        decision["approval"]["allowedDecisions"],
        json!(["approve", "deny"])
    );
    let id = super::id_of(&decision);

    for refused in ["approve_always", "approve_session"] {
        let (status, body) = decide_raw(&d, &id, refused, None);
        let error = api_error(status, &body, 400, "invalid_request");
        assert_eq!(error["field"], "decision", "{body}");
        assert!(
            error["message"]
                .as_str()
                .expect("message")
                .contains("allowed"),
            "{body}"
        );
    }
    let (status, body) = decide_raw(&d, &id, "approve_always", Some("exec:ls *"));
    assert_eq!(status, 400, "{body}");
    assert_eq!(pending_ids(&d, ""), vec![id.clone()]);
    assert!(grants(&d).is_empty());
    assert!(history(&d).is_empty());

    decide(&d, &id, "approve", None);
    assert_eq!(
        allowed(&d, "s1", "deploy prod"),
        "Approved by one-time approval by alice"
    );
}

#[test]
fn patterns_that_are_not_tool_colon_glob_are_400_and_leave_the_request_pending() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let id = ask(&d, "s1", "ls -la");

    for bad in ["ls *", "exec:ls [a"] {
        let (status, body) = decide_raw(&d, &id, "approve_always", Some(bad));
        let error = api_error(status, &body, 400, "invalid_request");
        assert_eq!(error["field"], "pattern", "{bad}: {body}");
        assert!(
            error["message"].as_str().expect("message").contains(bad),
            "{bad}: {body}"
        );
    }
    assert_eq!(pending_ids(&d, ""), vec![id.clone()]);
    assert!(grants(&d).is_empty());
    assert!(history(&d).is_empty());

    decide(&d, &id, "approve_always", Some("exec:ls *"));
    assert_eq!(
        allowed(&d, "s9", "ls /"),
        "Approved by always grant `exec:ls *`"
    );
}

#[test]
fn revoking_a_grant_makes_the_call_ask_again() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let always = ask(&d, "s1", "ls -la");
    decide(&d, &always, "approve_always", Some("exec:ls *"));
    let session = ask(&d, "s1", "deploy prod");
    decide(&d, &session, "approve_session", None);
    let once = ask(&d, "s1", "deploy staging");
    decide(&d, &once, "approve", None);
    allowed(&d, "s2", "ls -la");
    allowed(&d, "s1", "deploy prod");

    let all = grants(&d);
    assert_eq!(all.len(), 3, "{all:?}");
    let mut kinds: Vec<_> = all
        .iter()
        .map(|g| g["kind"].as_str().expect("kind"))
        .collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["always", "once", "session"]);
    let id_of_kind = |kind: &str| {
        all.iter()
            .find(|g| g["kind"] == kind)
            .and_then(|g| g["id"].as_str())
            .expect("grant id")
            .to_owned()
    };

    for kind in ["always", "session", "once"] {
        let grant = id_of_kind(kind);
        let (status, body) = delete(&d, &format!("/v1/grants/{grant}"));
        assert_eq!(status, 200, "{body}");
        assert_eq!(body, json!({ "revoked": grant }));
        assert!(
            grants(&d).iter().all(|g| g["id"] != grant.as_str()),
            "{kind} grant still listed"
        );
        let (status, body) = delete(&d, &format!("/v1/grants/{grant}"));
        api_error(status, &body, 404, "not_found");
    }
    assert!(grants(&d).is_empty());
    ask(&d, "s2", "ls -la");
    ask(&d, "s1", "deploy prod");
    ask(&d, "s1", "deploy staging");
    let (status, body) = delete(&d, "/v1/grants/g_0000000000000000");
    api_error(status, &body, 404, "not_found");
    // Revoking is not a decision: the history keeps the three decisions only.
    assert_eq!(history(&d).len(), 3);
}

#[test]
fn pending_requests_can_be_filtered() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &[]);
    let a = ask(&d, "s1", "deploy prod");
    let b = ask(&d, "s2", "deploy prod");
    let c = ask(&d, "s1", "ls -la");

    let sorted = |mut ids: Vec<String>| {
        ids.sort();
        ids
    };
    assert_eq!(
        sorted(pending_ids(&d, "?sessionKey=s1")),
        sorted(vec![a.clone(), c.clone()])
    );
    assert_eq!(pending_ids(&d, "?sessionKey=s2"), vec![b.clone()]);
    assert!(pending_ids(&d, "?sessionKey=s3").is_empty());
    assert_eq!(pending_ids(&d, "?tool=exec").len(), 3);
    assert!(pending_ids(&d, "?tool=Read").is_empty());
    assert_eq!(pending_ids(&d, "?risk=high").len(), 3);
    assert!(pending_ids(&d, "?risk=low").is_empty());
    assert_eq!(pending_ids(&d, "?hook=deploy-approval").len(), 3);
    assert!(pending_ids(&d, "?hook=other").is_empty());
    assert_eq!(
        pending_ids(
            &d,
            "?sessionKey=s1&tool=exec&risk=high&hook=deploy-approval"
        )
        .len(),
        2
    );
    // Oldest first.
    assert_eq!(pending_ids(&d, ""), vec![a, b, c]);
    // An unknown filter or risk is a 400, not an unfiltered list.
    let (status, body) = d.get("/v1/approvals?sesionKey=s1");
    assert_eq!(status, 400, "{body}");
    let (status, body) = d.get("/v1/approvals?risk=extreme");
    assert_eq!(status, 400, "{body}");
    assert_eq!(pending(&d, "").len(), 3);
}

#[test]
fn unanswered_requests_expire_by_their_timeout_action() {
    let dir = crate::util::Dir::new();
    // Two hooks: `deploy` times out denied, `ls` times out allowed.
    dir.write(
        "HOOKS.yaml",
        r#"version: "1"
hooks:
  - name: deploy-approval
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "deploy" }
    action: require_approval
    risk: high
    timeoutMs: 700
    description: deploys need a human
  - name: ls-approval
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "ls" }
    action: require_approval
    risk: low
    timeoutMs: 700
    timeoutAction: allow
    description: listing needs a human
"#,
    );
    let d = Daemon::start(&dir, &[]);
    let denied = ask(&d, "s1", "deploy prod");
    let ls = eval(&d, "s1", "ls -la");
    assert_eq!(ls["decision"], "ask", "{ls}");
    assert_eq!(ls["approval"]["timeoutAction"], "allow", "{ls}");
    let allowed_id = super::id_of(&ls);

    // Nobody asks again: the sweeper resolves them.
    let mut shown = Value::Null;
    for (id, decision) in [(&denied, "deny"), (&allowed_id, "approve")] {
        poll(&format!("{id} to time out"), || {
            shown = get_ok(&d, &format!("/v1/approvals/{id}"));
            shown["status"] == "decided"
        });
        assert_eq!(shown["decision"]["by"], "timeout", "{shown}");
        assert_eq!(shown["decision"]["decision"], decision, "{shown}");
    }
    assert!(pending_ids(&d, "").is_empty());
    assert!(grants(&d).is_empty(), "a timeout granted something");
    let (status, body) = decide_raw(&d, &denied, "approve", None);
    api_error(status, &body, 409, "already_decided");
    // Timing out allowed is not a grant: the next call asks again.
    let again = eval(&d, "s1", "ls -la");
    assert_eq!(again["decision"], "ask", "{again}");
    assert_ne!(super::id_of(&again), allowed_id);
    assert_eq!(history(&d).len(), 2);
}

#[test]
fn grants_and_pending_requests_survive_a_policy_reload() {
    let dir = setup(LONG, "");
    let d = Daemon::start(&dir, &["--no-watch"]);
    let pending_id = ask(&d, "s1", "deploy prod");
    let always = ask(&d, "s1", "ls -la");
    decide(&d, &always, "approve_always", Some("exec:ls *"));

    let before = d.hash();
    dir.write(
        "HOOKS.yaml",
        &super::policy(LONG, "    timeoutAction: allow\n"),
    );
    let (status, body) = d.post("/v1/reload");
    assert_eq!(status, 200, "{body}");
    assert_ne!(d.hash(), before, "the policy was not reloaded");

    assert_eq!(pending_ids(&d, ""), vec![pending_id.clone()]);
    assert_eq!(
        allowed(&d, "s2", "ls /"),
        "Approved by always grant `exec:ls *`"
    );
    assert_eq!(ask(&d, "s1", "deploy prod"), pending_id);
    let fresh = ask_decision(&d, "s1", "deploy staging");
    assert_eq!(fresh["approval"]["timeoutAction"], "allow", "{fresh}");
}

#[test]
fn a_bearer_token_guards_every_approvals_route() {
    const TOKEN: &str = "approvals-s3cret";
    let dir = setup(LONG, "");
    let mut cmd = Daemon::command(&dir, &[]);
    cmd.env("HOOKGATE_TOKEN", TOKEN);
    let d = Daemon::spawn(cmd);
    let client = d.client();
    let evaluate = |token: Option<&str>, command: &str| {
        let mut request = client
            .post(d.url("/v1/evaluate"))
            .json(&super::call("s1", command));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        crate::daemon::json_response(request.send().expect("POST"))
    };
    let (status, asked) = evaluate(Some(TOKEN), "deploy prod");
    assert_eq!(status, 200, "{asked}");
    let id = super::id_of(&asked);

    let routes = [
        ("GET", "/v1/approvals".to_owned(), None),
        ("GET", format!("/v1/approvals/{id}"), None),
        ("GET", "/v1/approvals/history".to_owned(), None),
        ("GET", "/v1/grants".to_owned(), None),
        (
            "POST",
            format!("/v1/approvals/{id}"),
            Some(json!({ "decision": "approve_always", "pattern": "exec:*" })),
        ),
        ("DELETE", "/v1/grants/g_0000000000000000".to_owned(), None),
    ];
    for (method, path, body) in &routes {
        for token in [None, Some("wrong")] {
            let mut request = match *method {
                "GET" => client.get(d.url(path)),
                "POST" => client.post(d.url(path)),
                _ => client.delete(d.url(path)),
            };
            if let Some(body) = body {
                request = request.json(body);
            }
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let (status, answer) = crate::daemon::json_response(request.send().expect("send"));
            assert_eq!(status, 401, "{method} {path} with {token:?}: {answer}");
        }
    }
    // The refused decision decided nothing.
    let (status, listed) = crate::daemon::json_response(
        client
            .get(d.url("/v1/approvals"))
            .bearer_auth(TOKEN)
            .send()
            .expect("GET"),
    );
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["pending"][0]["id"], id.as_str(), "{listed}");
    let (_, again) = evaluate(Some(TOKEN), "deploy anything");
    assert_eq!(again["decision"], "ask", "{again}");
}

/// Tool names may contain `:` (namespaced MCP tools). `approve_always` without a pattern
/// grants `<tool>:<subject>`, which is then split at the first `:`, so the grant names
/// another tool and never applies, though the decision was acknowledged.
#[test]
fn approve_always_works_for_tool_names_with_a_colon() {
    let dir = crate::util::Dir::new();
    dir.write(
        "HOOKS.yaml",
        r#"version: "1"
hooks:
  - name: issue-approval
    point: turn:tool:pre
    match: { tool: "github:create_issue" }
    action: require_approval
    timeoutMs: 600000
"#,
    );
    let d = Daemon::start(&dir, &[]);
    let call = json!({
        "point": "turn:tool:pre",
        "context": {
            "sessionKey": "s1",
            "toolName": "github:create_issue",
            "toolArgs": { "message": "hello" },
        }
    });
    let asked = d.decide(&call);
    assert_eq!(asked["decision"], "ask", "{asked}");
    decide(&d, &super::id_of(&asked), "approve_always", None);
    let again = d.decide(&call);
    assert_eq!(
        again["decision"],
        "allow",
        "the acknowledged always-grant {:?} does not apply: {again}",
        grants(&d)
    );
}
