//! Roles, as the agent behind the gate would attack them: with the gateway's evaluate token
//! (or none, from the same host), it tries every route and CLI verb that would approve, revoke,
//! reload or switch a hook off, and fails each; the approver and admin tokens and the console
//! login do what they are for, and nothing more.

use std::os::unix::fs::PermissionsExt;

use reqwest::blocking::Client;
use serde_json::{Value, json};

use super::{
    Daemon, exec, json_response, login_code, new_client, run_to_exit, session_client, sign_in,
};
use crate::util::{Dir, code, run, stderr};

const GATEWAY: &str = "gateway-secret";
const APPROVER: &str = "approver-secret";
const ADMIN: &str = "admin-secret";

/// A policy that asks before `deploy` and blocks `rm -rf`.
const POLICY: &str = r#"version: "1"
hooks:
  - name: deploy-approval
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "deploy" }
    action: require_approval
    timeoutMs: 600000
  - name: rm-guard
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "rm -rf" }
    action: block
"#;

fn token_file(dir: &Dir, name: &str, secret: &str) -> String {
    let path = dir.write(name, &format!("{secret}\n"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    name.to_owned()
}

/// A daemon with a token for each role given (by file).
fn start(evaluate: bool, approve: bool, admin: bool) -> (Dir, Daemon) {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let mut args = Vec::new();
    for (wanted, flag, file, secret) in [
        (evaluate, "--token-file", "evaluate.token", GATEWAY),
        (approve, "--approver-token-file", "approve.token", APPROVER),
        (admin, "--admin-token-file", "admin.token", ADMIN),
    ] {
        if wanted {
            args.push(flag.to_owned());
            args.push(token_file(&dir, file, secret));
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let d = Daemon::start(&dir, &args);
    (dir, d)
}

/// `method path` with `body` and, when given, the bearer `token`: status and JSON.
fn send(
    client: &Client,
    d: &Daemon,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> (u16, Value) {
    let mut request = match method {
        "POST" => client.post(d.url(path)).json(body),
        "DELETE" => client.delete(d.url(path)),
        _ => client.get(d.url(path)),
    };
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    json_response(request.send().expect("request"))
}

/// Opens an approval request for `deploy <what>` (with `token` as the gateway); its id.
fn ask(d: &Daemon, token: Option<&str>, what: &str) -> String {
    let (status, decision) = send(
        &new_client(),
        d,
        "POST",
        "/v1/evaluate",
        token,
        &exec(&format!("deploy {what}")),
    );
    assert_eq!(status, 200, "{decision}");
    assert_eq!(decision["decision"], "ask", "{decision}");
    decision["approval"]["id"]
        .as_str()
        .expect("approval id")
        .to_owned()
}

/// Every route that approves, revokes, reloads or switches a hook, for request `id`.
fn privileged(id: &str) -> Vec<(&'static str, String, Value, &'static str)> {
    vec![
        (
            "POST",
            format!("/v1/approvals/{id}"),
            json!({ "decision": "approve_always", "by": "agent" }),
            "approve",
        ),
        (
            "POST",
            format!("/v1/approvals/{id}"),
            json!({ "decision": "deny", "by": "agent" }),
            "approve",
        ),
        ("DELETE", "/v1/grants/g_0".to_owned(), json!({}), "approve"),
        ("POST", "/v1/reload".to_owned(), json!({}), "admin"),
        (
            "POST",
            "/v1/hooks/rm-guard".to_owned(),
            json!({ "enabled": false }),
            "admin",
        ),
    ]
}

/// The agent's attempts with `token` all fail with `expected`, naming the role; the request
/// stays pending and `rm -rf` stays blocked.
fn agent_fails_everything(d: &Daemon, token: Option<&str>, expected: u16) {
    let id = ask(d, token, "prod");
    let client = new_client();
    for (method, path, body, role) in privileged(&id) {
        let (status, answer) = send(&client, d, method, &path, token, &body);
        assert_eq!(status, expected, "{method} {path} with {token:?}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap_or("");
        assert!(
            message.contains(&format!("needs the {role} role")),
            "{method} {path}: {answer}"
        );
    }
    // Guessing the console's login code.
    let response = client
        .get(d.url("/login?code=0000"))
        .send()
        .expect("GET /login");
    assert_eq!(response.status().as_u16(), 403);
    assert!(response.headers().get("set-cookie").is_none());

    let (_, pending) = send(&client, d, "GET", "/v1/approvals", token, &json!({}));
    assert_eq!(pending["pending"][0]["id"], id, "still pending: {pending}");
    let (_, decision) = send(&client, d, "POST", "/v1/evaluate", token, &exec("rm -rf ~"));
    assert_eq!(decision["decision"], "block", "{decision}");
}

#[test]
fn the_gateway_token_cannot_approve_revoke_reload_or_switch() {
    let (_dir, d) = start(true, true, true);
    agent_fails_everything(&d, Some(GATEWAY), 403);
}

#[test]
fn a_local_request_without_a_token_cannot_approve_revoke_reload_or_switch() {
    let (_dir, d) = start(false, false, false);
    agent_fails_everything(&d, None, 401);
}

#[test]
fn each_cli_verb_refuses_the_gateway_token_and_names_the_role() {
    let (dir, d) = start(true, true, true);
    let id = ask(&d, Some(GATEWAY), "prod");
    let url = d.url("");
    let verbs: [(&[&str], &str); 5] = [
        (&["approvals", "approve", &id], "approve"),
        (&["approvals", "deny", &id], "approve"),
        (&["approvals", "revoke", "g_0"], "approve"),
        (&["reload"], "admin"),
        (&["disable", "rm-guard", "--config", "HOOKS.yaml"], "admin"),
    ];
    for (verb, role) in verbs {
        let mut args = verb.to_vec();
        args.extend(["--url", url.as_str(), "--token-file", "evaluate.token"]);
        let mut cmd = dir.hookgate(&args);
        for name in [
            "HOOKGATE_TOKEN",
            "HOOKGATE_APPROVER_TOKEN",
            "HOOKGATE_ADMIN_TOKEN",
        ] {
            cmd.env_remove(name);
        }
        let out = run(cmd);
        assert_eq!(code(&out), 1, "{verb:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("needs the {role} role")),
            "{verb:?}: {}",
            stderr(&out)
        );
    }
    assert_eq!(
        ask(&d, Some(GATEWAY), "prod"),
        id,
        "the request is still pending"
    );
}

#[test]
fn the_approver_approves_but_does_not_administer_and_the_admin_does_both() {
    let (_dir, d) = start(true, true, true);
    let client = new_client();
    let id = ask(&d, Some(GATEWAY), "one");
    let (status, answer) = send(
        &client,
        &d,
        "POST",
        &format!("/v1/approvals/{id}"),
        Some(APPROVER),
        &json!({ "decision": "approve", "by": "alice" }),
    );
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = send(
        &client,
        &d,
        "POST",
        "/v1/reload",
        Some(APPROVER),
        &json!({}),
    );
    assert_eq!(status, 403, "{answer}");
    // The approver's token is no gateway's either.
    let (status, _) = send(
        &client,
        &d,
        "POST",
        "/v1/evaluate",
        Some(APPROVER),
        &exec("ls"),
    );
    assert_eq!(status, 403);

    let (status, answer) = send(&client, &d, "POST", "/v1/reload", Some(ADMIN), &json!({}));
    assert_eq!(status, 200, "{answer}");
    let id = ask(&d, Some(GATEWAY), "two");
    let (status, answer) = send(
        &client,
        &d,
        "POST",
        &format!("/v1/approvals/{id}"),
        Some(ADMIN),
        &json!({ "decision": "deny", "by": "root" }),
    );
    assert_eq!(status, 200, "{answer}");
}

#[test]
fn the_login_link_works_once_and_its_session_approves_until_signed_out() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let d = Daemon::start(&dir, &["--decision-log", "decisions.jsonl"]);
    // The test harness signed in with the first link; a second one was printed.
    let first = d.stderr_text();
    let code = login_code(&first).expect("a fresh link");
    let cookie = sign_in(d.addr(), &code);
    let reused = new_client()
        .get(d.url(&format!("/login?code={code}")))
        .send()
        .expect("GET");
    assert_eq!(reused.status().as_u16(), 403, "a link is good once");

    let id = ask(&d, None, "one");
    let operator = session_client(&cookie);
    let (status, answer) = send(
        &operator,
        &d,
        "POST",
        &format!("/v1/approvals/{id}"),
        None,
        &json!({ "decision": "approve", "by": "operator" }),
    );
    assert_eq!(status, 200, "{answer}");

    let response = operator.post(d.url("/logout")).send().expect("logout");
    assert_eq!(response.status().as_u16(), 204);
    let id = ask(&d, None, "two");
    let (status, _) = send(
        &operator,
        &d,
        "POST",
        &format!("/v1/approvals/{id}"),
        None,
        &json!({ "decision": "approve", "by": "operator" }),
    );
    assert_eq!(status, 401, "the session ended");

    // Codes reach the terminal only: not the decision log, not the API.
    let log = std::fs::read_to_string(dir.path().join("decisions.jsonl")).expect("log");
    let (_, status) = send(&new_client(), &d, "GET", "/v1/status", None, &json!({}));
    for code in d
        .stderr_text()
        .lines()
        .filter_map(|l| l.split("/login?code=").nth(1))
    {
        assert!(!log.contains(code) && !status.to_string().contains(code));
    }
}

#[test]
fn roles_that_share_a_token_or_a_readable_token_file_are_refused() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    token_file(&dir, "a.token", "same-secret");
    token_file(&dir, "b.token", "same-secret");
    let (status, err) = run_to_exit(Daemon::command(
        &dir,
        &["--token-file", "a.token", "--admin-token-file", "b.token"],
    ));
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.contains("the evaluate and admin tokens are the same"),
        "{err}"
    );

    let readable = dir.write("group.token", "group-secret\n");
    std::fs::set_permissions(&readable, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let (status, err) = run_to_exit(Daemon::command(
        &dir,
        &["--approver-token-file", "group.token"],
    ));
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("its mode is 640"), "{err}");
    assert!(!err.contains("group-secret"), "{err}");
}

/// The agent's shell tricks, as the self-protection pack's own corpus lists them, sent by the
/// gateway (with its evaluate token) to a daemon running the repo's default HOOKS.yaml: every
/// attack is refused and every read the corpus allows stays allowed.
#[test]
fn the_self_protection_corpus_is_decided_the_same_over_http_with_the_gateway_token() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus =
        hookgate::internals::load_test_file(&repo.join("policies/self-protection.test.yaml"))
            .expect("the corpus loads");
    let dir = Dir::new();
    token_file(&dir, "evaluate.token", GATEWAY);
    let config = repo.join("HOOKS.yaml");
    let approvals = dir.path().join("approvals.json");
    let log = dir.path().join("decisions.jsonl");
    let mut cmd = super::serve_command(
        &dir,
        &[
            "serve",
            "--config",
            config.to_str().expect("utf-8 path"),
            "--listen",
            "127.0.0.1:0",
            "--no-watch",
            "--token-file",
            "evaluate.token",
            "--approvals",
            approvals.to_str().expect("utf-8 path"),
            "--decision-log",
            log.to_str().expect("utf-8 path"),
        ],
    );
    // The policy's own audit hook writes under the working directory.
    cmd.current_dir(dir.path());
    let d = Daemon::spawn(cmd);
    let client = new_client();
    let mut blocked = 0;
    for case in &corpus.cases {
        let body = json!({ "point": case.point, "context": case.context });
        let (status, decision) = send(&client, &d, "POST", "/v1/evaluate", Some(GATEWAY), &body);
        assert_eq!(status, 200, "{}: {decision}", case.name);
        let expected = serde_json::to_value(case.expect.verdict).expect("verdict");
        assert_eq!(decision["decision"], expected, "{}: {decision}", case.name);
        blocked += usize::from(expected == "block");
    }
    assert!(blocked >= 60, "the corpus has its attacks: {blocked}");
}
