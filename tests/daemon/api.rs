//! The HTTP API: decisions, batches, errors, authentication, status, metrics, decision log.

use std::os::unix::fs::PermissionsExt;

use serde_json::{Value, json};

use super::{Daemon, exec, hash, json_response, policy, run_to_exit, serve_command, slow_policy};
use crate::util::Dir;

fn dir_with(text: &str) -> Dir {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", text);
    dir
}

/// Asserts the `{"error": {...}}` envelope with `status` and `code`; returns the inner object.
fn api_error(status: u16, body: &Value, expected: u16, code: &str) -> Value {
    assert_eq!(status, expected, "{body}");
    let error = &body["error"];
    assert_eq!(error["status"], expected, "{body}");
    assert_eq!(error["code"], code, "{body}");
    assert!(
        error["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    error.clone()
}

#[test]
fn evaluate_blocks_and_allows() {
    let dir = dir_with(&policy("policy-A"));
    let d = Daemon::start(&dir, &[]);

    let block = d.decide(&exec("rm -rf /tmp/x"));
    assert_eq!(block["point"], "turn:tool:pre");
    assert_eq!(block["decision"], "block");
    assert_eq!(block["passed"], false);
    assert_eq!(block["message"], "policy-A");
    assert_eq!(block["hook"], "rm-guard");
    assert_eq!(block["mode"], "enforce");
    assert_eq!(block["results"][0]["hook"], "rm-guard");
    assert_eq!(block["results"][0]["passed"], false);
    assert!(block["traceId"].as_str().is_some_and(|t| !t.is_empty()));
    for key in ["injectedContext", "params", "approval"] {
        assert!(block.get(key).is_some(), "{key} missing: {block}");
    }

    let allow = d.decide(&exec("ls -la"));
    assert_eq!(allow["decision"], "allow");
    assert_eq!(allow["passed"], true);
    assert_eq!(allow["message"], Value::Null);
    assert_eq!(allow["hook"], Value::Null);
    assert_eq!(allow["results"], json!([]));

    // Another point: no candidate hooks, allowed; a given traceId is kept.
    let other = d.decide(&json!({
        "point": "turn:pre",
        "context": { "sessionKey": "s", "prompt": "rm -rf /", "traceId": "trace-42" }
    }));
    assert_eq!(other["decision"], "allow");
    assert_eq!(other["traceId"], "trace-42");
    // The point may be given inside the context instead.
    let inner = d.decide(&json!({
        "context": {
            "sessionKey": "s", "point": "turn:tool:pre",
            "toolName": "exec", "toolArgs": { "command": "rm -rf /" }
        }
    }));
    assert_eq!(inner["decision"], "block");
}

#[test]
fn a_batch_answers_each_request_in_order() {
    let dir = dir_with(&policy("policy-A"));
    let d = Daemon::start(&dir, &[]);
    let batch = json!([exec("ls /"), exec("rm -rf /"), exec("echo hi")]);
    let (status, decisions) = d.evaluate(&batch);
    assert_eq!(status, 200, "{decisions}");
    let decisions = decisions.as_array().expect("an array of decisions");
    let verdicts: Vec<&str> = decisions
        .iter()
        .map(|d| d["decision"].as_str().expect("decision"))
        .collect();
    assert_eq!(verdicts, ["allow", "block", "allow"]);
    assert_eq!(decisions[1]["message"], "policy-A");
    assert_eq!(decisions[1]["hook"], "rm-guard");

    let (status, empty) = d.evaluate(&json!([]));
    assert_eq!(status, 200, "{empty}");
    assert_eq!(empty, json!([]));
}

#[test]
fn health_and_readiness_are_open() {
    let dir = dir_with(&policy("policy-A"));
    let d = Daemon::start(&dir, &[]);
    let (status, body) = d.get("/healthz");
    assert_eq!((status, &body["status"]), (200, &json!("ok")), "{body}");
    let (status, body) = d.get("/readyz");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "ready");
    assert_eq!(body["hash"], hash(&policy("policy-A")));
}

#[test]
fn bad_requests_are_json_errors_and_change_nothing() {
    let dir = dir_with(&policy("policy-A"));
    let d = Daemon::start(&dir, &["--max-body", "1000", "--max-batch", "2"]);
    let before = d.decide(&exec("rm -rf /"));
    let hash_before = d.hash();
    let client = d.client();
    let raw = |body: &str| {
        json_response(
            client
                .post(d.url("/v1/evaluate"))
                .header("content-type", "application/json")
                .body(body.to_owned())
                .send()
                .expect("POST"),
        )
    };

    // Malformed JSON: where it broke.
    let (status, body) = raw("{\"point\":\n  \"turn:tool:pre\",,}");
    let e = api_error(status, &body, 400, "invalid_json");
    assert_eq!(e["line"], 2, "{body}");
    assert!(e["column"].as_u64().is_some_and(|c| c > 0), "{body}");
    assert!(e.get("field").is_none(), "{body}");

    // Missing sessionKey: named by its path.
    let (status, body) = d.evaluate(&json!({"point": "turn:tool:pre", "context": {}}));
    let e = api_error(status, &body, 400, "invalid_request");
    assert_eq!(e["field"], "context.sessionKey", "{body}");

    // Wrong type.
    let (status, body) = d.evaluate(&json!({
        "point": "turn:tool:pre",
        "context": { "sessionKey": "s", "toolName": "exec", "toolArgs": "x" }
    }));
    let e = api_error(status, &body, 400, "invalid_request");
    assert_eq!(e["field"], "context.toolArgs", "{body}");

    // Inside a batch, the path names the element.
    let (status, body) =
        d.evaluate(&json!([exec("ls"), {"point": "turn:tool:pre", "context": {}}]));
    let e = api_error(status, &body, 400, "invalid_request");
    assert_eq!(e["field"], "[1].context.sessionKey", "{body}");

    // Unknown point: 404 with a hint.
    let (status, body) =
        d.evaluate(&json!({"point": "turn:tool:pr", "context": {"sessionKey": "s"}}));
    let e = api_error(status, &body, 404, "not_found");
    assert_eq!(e["field"], "point", "{body}");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("did you mean `turn:tool:pre`")),
        "{body}"
    );

    // Over --max-body.
    let (status, body) = d.evaluate(&json!({
        "point": "turn:tool:pre",
        "context": { "sessionKey": "s", "prompt": "x".repeat(2000) }
    }));
    let e = api_error(status, &body, 413, "body_too_large");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("1000")),
        "{body}"
    );

    // Unknown routes, wrong methods.
    for path in ["/v2/evaluate", "/v1/evaluate/x", "/index.html"] {
        let (status, body) = d.get(path);
        api_error(status, &body, 404, "not_found");
    }
    let (status, body) = d.get("/v1/evaluate");
    api_error(status, &body, 405, "method_not_allowed");
    let (status, body) = d.post("/healthz");
    api_error(status, &body, 405, "method_not_allowed");

    // A batch over --max-batch.
    let (status, body) = d.evaluate(&json!([exec("ls"), exec("ls"), exec("ls")]));
    let e = api_error(status, &body, 400, "invalid_request");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("at most 2")),
        "{body}"
    );
    let (status, body) = d.evaluate(&json!([exec("ls"), exec("rm -rf /")]));
    assert_eq!(
        status, 200,
        "a batch of exactly --max-batch is fine: {body}"
    );

    // Nothing of that changed the daemon.
    let after = d.decide(&exec("rm -rf /"));
    for key in ["decision", "message", "hook", "passed"] {
        assert_eq!(after[key], before[key], "{key}");
    }
    let status = d.status();
    assert_eq!(status["hash"], hash_before);
    assert_eq!(status["healthy"], true);
    assert_eq!(status["lastReload"], Value::Null);
}

#[test]
fn a_bearer_token_guards_every_route_but_health() {
    const TOKEN: &str = "s3cret-token-value";
    let dir = dir_with(&policy("policy-A"));
    let mut cmd = Daemon::command(&dir, &[]);
    cmd.env("HOOKGATE_TOKEN", TOKEN);
    let d = Daemon::spawn(cmd);
    let client = d.client();

    // No credentials.
    let response = client
        .post(d.url("/v1/evaluate"))
        .json(&exec("rm -rf /"))
        .send()
        .expect("POST");
    assert_eq!(
        response
            .headers()
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok()),
        Some("Bearer")
    );
    let (status, body) = json_response(response);
    api_error(status, &body, 401, "unauthorized");

    // Wrong token, wrong scheme, empty bearer.
    for auth in [
        "Bearer wrong-token".to_owned(),
        format!("Bearer {TOKEN}x"),
        format!("Basic {TOKEN}"),
        format!("Token {TOKEN}"),
        "Bearer ".to_owned(),
        TOKEN.to_owned(),
    ] {
        let response = client
            .post(d.url("/v1/evaluate"))
            .header("authorization", &auth)
            .json(&exec("rm -rf /"))
            .send()
            .expect("POST");
        assert!(response.headers().contains_key("www-authenticate"));
        let (status, body) = json_response(response);
        assert_eq!(status, 401, "Authorization: {auth:?} → {body}");
    }

    // The right token (the scheme is case-insensitive).
    for auth in [format!("Bearer {TOKEN}"), format!("bearer {TOKEN}")] {
        let response = client
            .post(d.url("/v1/evaluate"))
            .header("authorization", &auth)
            .json(&exec("rm -rf /"))
            .send()
            .expect("POST");
        let (status, body) = json_response(response);
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["message"], "policy-A");
    }

    // Health stays open; the operational routes are guarded.
    assert_eq!(d.get("/healthz").0, 200);
    assert_eq!(d.get("/readyz").0, 200);
    // Reading takes the evaluate token; reloading needs the admin role, which it is not.
    for (method, path, with_token) in [
        ("GET", "/metrics", 200),
        ("GET", "/v1/status", 200),
        ("POST", "/v1/reload", 403),
    ] {
        let request = |c: &reqwest::blocking::Client| match method {
            "GET" => c.get(d.url(path)),
            _ => c.post(d.url(path)),
        };
        let response = request(&client).send().expect("request");
        assert_eq!(
            response.status().as_u16(),
            401,
            "{method} {path} without a token"
        );
        let response = request(&client).bearer_auth(TOKEN).send().expect("request");
        assert_eq!(
            response.status().as_u16(),
            with_token,
            "{method} {path} with the evaluate token"
        );
    }
    assert!(
        !d.stderr_text().contains(TOKEN),
        "the token leaked into the log:\n{}",
        d.stderr_text()
    );
}

#[test]
fn a_token_file_works_and_wins_over_the_environment() {
    let dir = dir_with(&policy("policy-A"));
    let file = dir.write("token", "file-token\n");
    // Readable by others: refused, naming the fix.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let (status, stderr) = run_to_exit(Daemon::command(&dir, &["--token-file", "token"]));
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("refusing the token file `token`: its mode is 644")
            && stderr.contains("chmod 600"),
        "{stderr}"
    );
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let mut cmd = Daemon::command(&dir, &["--token-file", "token"]);
    cmd.env("HOOKGATE_TOKEN", "env-token");
    let d = Daemon::spawn(cmd);
    let client = d.client();
    let status_with = |token: Option<&str>| {
        let mut request = client.post(d.url("/v1/evaluate")).json(&exec("ls"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().expect("POST").status().as_u16()
    };
    assert_eq!(status_with(Some("file-token")), 200);
    assert_eq!(status_with(None), 401);
    assert_eq!(status_with(Some("env-token")), 401);
}

#[test]
fn a_token_file_that_is_missing_is_refused() {
    let dir = dir_with(&policy("policy-A"));
    let (status, stderr) = run_to_exit(Daemon::command(&dir, &["--token-file", "nope"]));
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot read the token file"), "{stderr}");
    assert!(!stderr.contains("listening on"), "{stderr}");
}

#[test]
fn a_public_address_without_a_token_is_refused() {
    let dir = dir_with(&policy("policy-A"));
    let args = ["serve", "--config", "HOOKS.yaml", "--listen", "0.0.0.0:0"];
    let (status, stderr) = run_to_exit(serve_command(&dir, &args));
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("without a token"), "{stderr}");
    assert!(stderr.contains("HOOKGATE_TOKEN"), "{stderr}");
    assert!(!stderr.contains("listening on"), "{stderr}");

    // The same address with a token starts.
    let mut cmd = serve_command(&dir, &args);
    cmd.env("HOOKGATE_TOKEN", "public-token");
    let d = Daemon::spawn(cmd);
    assert!(d.addr().ip().is_unspecified(), "{}", d.addr());
    let response = d
        .client()
        .get(format!("http://127.0.0.1:{}/v1/status", d.addr().port()))
        .bearer_auth("public-token")
        .send()
        .expect("GET");
    assert_eq!(response.status().as_u16(), 200);
}

#[test]
fn an_empty_token_is_refused() {
    let dir = dir_with(&policy("policy-A"));
    dir.write("empty-token", "\n");
    for value in ["", "   "] {
        let mut cmd = Daemon::command(&dir, &[]);
        cmd.env("HOOKGATE_TOKEN", value);
        let (status, stderr) = run_to_exit(cmd);
        assert_eq!(status.code(), Some(1), "HOOKGATE_TOKEN={value:?}: {stderr}");
        assert!(stderr.contains("HOOKGATE_TOKEN"), "{stderr}");
        assert!(stderr.contains("empty"), "{stderr}");
        assert!(!stderr.contains("listening on"), "{stderr}");
    }
    let (status, stderr) = run_to_exit(Daemon::command(&dir, &["--token-file", "empty-token"]));
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("empty-token"), "{stderr}");
    assert!(stderr.contains("empty"), "{stderr}");
}

#[test]
fn status_describes_the_policy_in_force() {
    let text = policy("policy-A");
    let dir = dir_with(&text);
    let d = Daemon::start(&dir, &["--no-watch"]);
    let status = d.status();
    assert_eq!(status["config"], "HOOKS.yaml");
    assert_eq!(status["hash"], hash(&text));
    assert!(
        status["hash"]
            .as_str()
            .is_some_and(|h| h.len() == 7 + 64 && h.starts_with("sha256:")),
        "{status}"
    );
    let loaded_at = status["loadedAt"].as_str().expect("loadedAt");
    assert!(
        loaded_at.len() >= 20 && loaded_at.contains('T') && loaded_at.ends_with('Z'),
        "{loaded_at}"
    );
    assert_eq!(status["hooks"], 1);
    assert_eq!(status["healthy"], true);
    assert_eq!(status["lastReload"], Value::Null);
    assert_eq!(status["lastError"], Value::Null);

    // A reload of the same file is recorded as such.
    let (code, outcome) = d.post("/v1/reload");
    assert_eq!(code, 200, "{outcome}");
    assert_eq!(outcome["result"], "unchanged");
    let status = d.status();
    let last = &status["lastReload"];
    assert_eq!(last["trigger"], "request", "{status}");
    assert_eq!(last["result"], "unchanged", "{status}");
    assert!(last["at"].as_str().is_some_and(|a| a.ends_with('Z')));
    assert_eq!(
        status["loadedAt"], loaded_at,
        "an unchanged file is not reloaded"
    );
    assert_eq!(status["lastError"], Value::Null);
}

#[test]
fn metrics_count_decisions_and_describe_the_policy() {
    let a = policy("policy-A");
    let dir = dir_with(&a);
    let d = Daemon::start(&dir, &["--no-watch"]);
    d.decide(&exec("rm -rf /"));
    d.decide(&exec("rm -rf /"));
    d.decide(&exec("ls"));

    let m = d.metrics();
    let block = [
        ("point", "turn:tool:pre"),
        ("decision", "block"),
        ("hook", "rm-guard"),
    ];
    assert_eq!(m.value("hookgate_decisions_total", &block), 2.0);
    let allow = [
        ("point", "turn:tool:pre"),
        ("decision", "allow"),
        ("hook", ""),
    ];
    assert_eq!(m.value("hookgate_decisions_total", &allow), 1.0);
    assert_eq!(
        m.value(
            "hookgate_evaluation_duration_seconds_bucket",
            &[("point", "turn:tool:pre"), ("le", "+Inf")]
        ),
        3.0
    );
    assert_eq!(
        m.value(
            "hookgate_evaluation_duration_seconds_count",
            &[("point", "turn:tool:pre")]
        ),
        3.0
    );
    assert!(
        m.find("hookgate_evaluation_duration_seconds_bucket", &[])
            .len()
            > 2,
        "buckets:\n{}",
        m.text
    );
    let hash_a = hash(&a);
    let info = [("path", "HOOKS.yaml"), ("hash", hash_a.as_str())];
    assert_eq!(m.value("hookgate_policy_info", &info), 1.0);
    assert_eq!(m.value("hookgate_policy_hooks", &[]), 1.0);
    assert_eq!(m.value("hookgate_policy_reload_healthy", &[]), 1.0);
    assert!(
        m.text
            .contains("# TYPE hookgate_evaluation_duration_seconds histogram"),
        "{}",
        m.text
    );

    // After a reload, the info series names the new hash only.
    let b = format!(
        "{}  - name: second\n    point: turn:pre\n    action: log\n",
        policy("policy-B")
    );
    dir.write("HOOKS.yaml", &b);
    let (code, outcome) = d.post("/v1/reload");
    assert_eq!(
        (code, &outcome["result"]),
        (200, &json!("reloaded")),
        "{outcome}"
    );
    let m = d.metrics();
    let infos = m.find("hookgate_policy_info", &[]);
    assert_eq!(infos, [1.0], "one info series:\n{}", m.text);
    assert_eq!(
        m.find("hookgate_policy_info", &[("hash", &hash(&b))]),
        [1.0],
        "{}",
        m.text
    );
    assert_eq!(m.value("hookgate_policy_hooks", &[]), 2.0);
    assert_eq!(
        m.value("hookgate_reloads_total", &[("result", "reloaded")]),
        1.0
    );
}

/// Waits until `path` holds `n` complete lines; returns them parsed.
fn log_lines(d: &Daemon, path: &std::path::Path, n: usize) -> Vec<Value> {
    let read = || std::fs::read_to_string(path).unwrap_or_default();
    d.wait_for(
        || read().lines().count() >= n && read().ends_with('\n'),
        &format!("{n} lines in the decision log"),
    );
    read()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn the_decision_log_and_the_daemons_log_hold_no_raw_control_characters() {
    // The notice goes to the daemon's log on stderr with the session key and the hook.
    let dir = dir_with(
        r#"version: "1"
hooks:
  - name: "tell\e[2J"
    point: turn:tool:pre
    action: notify_user
  - name: rm-guard
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "rm\\s+-rf" }
    action: block
"#,
    );
    let log = dir.path().join("decisions.jsonl");
    let d = Daemon::start(&dir, &["--decision-log", log.to_str().expect("utf-8")]);
    let command = "rm -rf /srv \u{1b}[2J\u{1b}]0;title\u{7} \u{7f} \u{9b}31m \u{202e}gnp.exe";
    let session = "agent:main:\u{1b}[1A\u{2066}x\u{2069}";
    let block = d.decide(&json!({
        "point": "turn:tool:pre",
        "context": { "sessionKey": session, "toolName": "exec", "toolArgs": { "command": command } },
    }));
    assert_eq!(block["decision"], "block", "{block}");

    let raw = [
        '\u{1b}', '\u{7}', '\u{7f}', '\u{9b}', '\u{202e}', '\u{2066}',
    ];
    let lines = log_lines(&d, &log, 1);
    let text = std::fs::read_to_string(&log).expect("decision log");
    for c in raw {
        assert!(!text.contains(c), "raw {c:?} in the decision log: {text:?}");
    }
    // Still JSON, with the exact values.
    assert!(
        text.contains(r"\u001b[2J") && text.contains(r"\u202egnp.exe"),
        "{text}"
    );
    assert_eq!(lines[0]["args"]["command"], command);
    assert_eq!(lines[0]["sessionKey"], session);

    d.wait_for(
        || d.stderr_text().contains("notification"),
        "the notice in the daemon's log",
    );
    let stderr = d.stderr_text();
    for c in raw {
        assert!(
            !stderr.contains(c),
            "raw {c:?} in the daemon's log: {stderr:?}"
        );
    }
    assert!(
        stderr.contains(r"hook=tell\x1b[2J session_key=agent:main:\x1b[1A\u{2066}x\u{2069}"),
        "{stderr}"
    );
}

#[test]
fn the_decision_log_says_when_this_host_cannot_see_the_workspace() {
    // Deletes are placed: the workspace root and the system are blocked, build outputs go.
    let dir = dir_with(
        r#"version: "1"
hooks:
  - name: no-delete-outside
    point: turn:tool:pre
    match:
      tool: exec
      command:
        deletes: [workspace-root, system, unknown]
    action: block
"#,
    );
    let log = dir.path().join("decisions.jsonl");
    let d = Daemon::start(&dir, &["--decision-log", log.to_str().expect("utf-8")]);
    let here = dir.path().join("proj");
    std::fs::create_dir_all(here.join(".git")).expect("mkdir");
    let here = here.to_str().expect("utf-8").to_owned();
    // The agent's machine, not this one.
    let away = "/nonexistent-host-path/alice/proj";
    let decide = |cwd: &str, workspace: Option<&str>, command: &str| {
        let mut context = json!({
            "sessionKey": "agent:main:main",
            "toolName": "exec",
            "toolArgs": { "command": command },
            "cwd": cwd,
        });
        if let Some(w) = workspace {
            context["workspace"] = json!(w);
        }
        d.decide(&json!({ "point": "turn:tool:pre", "context": context }))["decision"].clone()
    };
    // Paths still resolve against a workspace this host does not have: build outputs by
    // their built-in names, the root itself blocked.
    assert_eq!(
        decide(away, Some(away), "rm -rf build node_modules"),
        "allow"
    );
    assert_eq!(decide(away, Some(away), "rm -rf ../proj"), "block");
    assert_eq!(decide(&here, None, "rm -rf build"), "allow");

    let lines = log_lines(&d, &log, 3);
    let note = |k: usize| {
        lines[k]["placesNote"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    for k in [0, 1] {
        assert!(
            note(k).contains(&format!(
                "the workspace {away} is not a directory on this host"
            )),
            "{}",
            lines[k]
        );
    }
    assert!(lines[2].get("placesNote").is_none(), "{}", lines[2]);
}

#[test]
fn the_decision_log_has_a_line_per_decision_with_secrets_masked() {
    let a = policy("policy-A");
    let dir = dir_with(&a);
    let log = dir.path().join("logs").join("decisions.jsonl");
    let d = Daemon::start(&dir, &["--decision-log", log.to_str().expect("utf-8")]);

    let block = d.decide(&json!({
        "point": "turn:tool:pre",
        "context": {
            "sessionKey": "agent:main:secret-test",
            "toolName": "exec",
            "toolArgs": {
                "command": "rm -rf /srv",
                "apiKey": "k-1",
                "GITHUB_TOKEN": "t-1",
                "headers": { "Authorization": "Bearer x", "accept": "json" },
                "env": [ { "db_password": "p-1", "user": "bob" } ],
                "clientSecret": "s-1",
            }
        }
    }));
    assert_eq!(block["decision"], "block");
    let allow = d.decide(&json!({
        "point": "turn:pre",
        "context": { "sessionKey": "agent:main:other", "prompt": "hello", "traceId": "trace-7" }
    }));

    let lines = log_lines(&d, &log, 2);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let first = &lines[0];
    assert_eq!(first["point"], "turn:tool:pre");
    assert_eq!(first["decision"], "block");
    assert_eq!(first["hook"], "rm-guard");
    assert_eq!(first["message"], "policy-A");
    assert_eq!(first["traceId"], block["traceId"]);
    assert_eq!(first["sessionKey"], "agent:main:secret-test");
    assert_eq!(first["tool"], "exec");
    assert_eq!(first["policy"], hash(&a));
    assert!(
        first["latencyMs"].as_f64().is_some_and(|l| l >= 0.0),
        "{first}"
    );
    assert!(
        first["ts"].as_str().is_some_and(|t| t.ends_with('Z')),
        "{first}"
    );
    assert_eq!(
        first["args"],
        json!({
            "command": "rm -rf /srv",
            "apiKey": "[masked]",
            "GITHUB_TOKEN": "[masked]",
            "headers": { "Authorization": "[masked]", "accept": "json" },
            "env": [ { "db_password": "[masked]", "user": "bob" } ],
            "clientSecret": "[masked]",
        })
    );
    let text = std::fs::read_to_string(&log).expect("log");
    for secret in ["k-1", "t-1", "Bearer x", "p-1", "s-1"] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }

    let second = &lines[1];
    assert_eq!(second["decision"], "allow");
    assert_eq!(second["point"], "turn:pre");
    assert_eq!(second["traceId"], "trace-7");
    assert_eq!(second["traceId"], allow["traceId"]);
    for absent in ["hook", "message", "tool", "args"] {
        assert!(second.get(absent).is_none(), "{absent} in {second}");
    }
}

#[test]
fn mask_fields_replaces_the_default_list() {
    let dir = dir_with(&policy("policy-A"));
    let log = dir.path().join("decisions.jsonl");
    let d = Daemon::start(
        &dir,
        &[
            "--decision-log",
            log.to_str().expect("utf-8"),
            "--mask-fields",
            "pin,OTP",
        ],
    );
    d.decide(&json!({
        "point": "turn:tool:pre",
        "context": {
            "sessionKey": "s",
            "toolName": "exec",
            "toolArgs": {
                "command": "ls",
                "token": "visible-token",
                "PIN": "1234",
                "nested": { "otpCode": "999", "apiKey": "visible-key" },
            }
        }
    }));
    let lines = log_lines(&d, &log, 1);
    assert_eq!(
        lines[0]["args"],
        json!({
            "command": "ls",
            "token": "visible-token",
            "PIN": "[masked]",
            "nested": { "otpCode": "[masked]", "apiKey": "visible-key" },
        })
    );
}

#[test]
fn a_request_over_the_time_limit_is_503() {
    let dir = dir_with(&slow_policy(3));
    let d = Daemon::start(&dir, &["--request-timeout", "200ms"]);
    let (status, body) = d.evaluate(&json!({"point": "turn:pre", "context": {"sessionKey": "s"}}));
    let e = api_error(status, &body, 503, "timeout");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("200 ms")),
        "{body}"
    );
    // The daemon still answers, quick requests included.
    assert_eq!(d.get("/healthz").0, 200);
    let quick = d.decide(&json!({"point": "turn:post", "context": {"sessionKey": "s"}}));
    assert_eq!(quick["decision"], "allow");
}

#[test]
fn cwd_and_workspace_must_be_absolute_and_place_the_deletes() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/policies/destructive.yaml"
        ))
        .expect("pack"),
    );
    let project = dir.path().join("proj");
    std::fs::create_dir_all(project.join(".git")).expect("project");
    let d = Daemon::start(&dir, &[]);
    let with = |cwd: Value, command: &str| {
        let mut body = exec(command);
        body["context"]["cwd"] = cwd;
        d.evaluate(&body)
    };
    for bad in [json!("proj"), json!(7)] {
        let (status, body) = with(bad.clone(), "ls");
        let error = api_error(status, &body, 400, "invalid_request");
        assert_eq!(error["field"], "context.cwd", "{bad}: {body}");
    }
    let cwd = json!(project.to_str().expect("utf-8"));
    for (command, decision) in [
        ("rm -rf build node_modules", "allow"),
        ("rm -f notes.txt", "allow"),
        ("rm -rf src", "ask"),
        ("rm -rf .git", "block"),
        ("cd .. && rm -rf proj", "block"),
    ] {
        let (status, body) = with(cwd.clone(), command);
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["decision"], decision, "{command}: {body}");
    }
    // Without a cwd, a relative delete cannot be placed: a human decides.
    assert_eq!(d.decide(&exec("rm -rf build"))["decision"], "ask");
}
