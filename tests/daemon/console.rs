//! The operator console's server side: the open shell and its headers, the token on the
//! API, `GET /v1/decisions` (fed by every deciding route, masked, bounded, filtered), and
//! a tokenless daemon's refusal of rebound and cross-origin requests. The page itself is
//! tested in a real browser by `tests/console/`.

use reqwest::blocking::{RequestBuilder, Response};
use serde_json::{Value, json};

use super::{Daemon, exec, json_response};
use crate::util::Dir;

const TOKEN: &str = "console-test-token";

/// The CSP the console must carry, exactly.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
                   img-src 'self' data:; base-uri 'none'; form-action 'none'; \
                   frame-ancestors 'none'";

const POLICY: &str = r#"version: "1"
hooks:
  - name: rm-guard
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "rm\\s+-rf" }
    onFailure: { action: block, message: "no recursive rm" }
    action: block
  - name: deploy-approval
    point: turn:tool:pre
    match: { tool: exec, commandPattern: "deploy" }
    action: require_approval
    timeoutMs: 600000
    description: deploys need a human
"#;

fn start(token: Option<&str>) -> (Dir, Daemon) {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let mut cmd = Daemon::command(&dir, &[]);
    if let Some(token) = token {
        cmd.env("HOOKGATE_TOKEN", token);
    }
    let d = Daemon::spawn(cmd);
    (dir, d)
}

fn header<'r>(response: &'r Response, name: &str) -> &'r str {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no {name} header"))
}

fn authed(request: RequestBuilder) -> RequestBuilder {
    request.bearer_auth(TOKEN)
}

/// `GET /v1/decisions?<query>` with the token: 200 and its JSON.
fn decisions(d: &Daemon, query: &str) -> Value {
    let response = authed(d.client().get(d.url(&format!("/v1/decisions?{query}"))))
        .send()
        .expect("GET /v1/decisions");
    let (status, body) = json_response(response);
    assert_eq!(status, 200, "{body}");
    body
}

fn evaluate(d: &Daemon, body: &Value) -> Value {
    let response = authed(d.client().post(d.url("/v1/evaluate")))
        .json(body)
        .send()
        .expect("POST /v1/evaluate");
    let (status, body) = json_response(response);
    assert_eq!(status, 200, "{body}");
    body
}

fn seqs(answer: &Value) -> Vec<u64> {
    answer["decisions"]
        .as_array()
        .unwrap_or_else(|| panic!("no decisions: {answer}"))
        .iter()
        .map(|d| d["seq"].as_u64().unwrap_or_else(|| panic!("no seq: {d}")))
        .collect()
}

#[test]
fn the_shell_and_its_assets_are_open_locked_down_and_hold_no_data() {
    let (_dir, d) = start(Some(TOKEN));
    // Data the shell must not contain.
    let ask = evaluate(&d, &exec("deploy secret-service-name"));
    assert_eq!(ask["decision"], "ask", "{ask}");
    let status = {
        let response = authed(d.client().get(d.url("/v1/status")))
            .send()
            .expect("GET");
        json_response(response).1
    };
    let hash = status["hash"].as_str().expect("hash").to_owned();

    for (path, content_type, marker) in [
        (
            "/",
            "text/html; charset=utf-8",
            "<script src=\"/console.js\" defer>",
        ),
        ("/console.css", "text/css; charset=utf-8", "[hidden]"),
        (
            "/console.js",
            "text/javascript; charset=utf-8",
            "sessionStorage",
        ),
    ] {
        let response = d.client().get(d.url(path)).send().expect("GET");
        assert_eq!(response.status().as_u16(), 200, "{path}");
        assert_eq!(header(&response, "content-type"), content_type, "{path}");
        assert_eq!(header(&response, "content-security-policy"), CSP, "{path}");
        assert_eq!(header(&response, "x-content-type-options"), "nosniff");
        assert_eq!(header(&response, "referrer-policy"), "no-referrer");
        assert_eq!(header(&response, "cache-control"), "no-store");
        assert_eq!(header(&response, "x-frame-options"), "DENY");
        let body = response.text().expect("body");
        assert!(body.contains(marker), "{path} lacks {marker:?}");
        for data in [
            "secret-service-name",
            hash.as_str(),
            "deploy-approval",
            TOKEN,
        ] {
            assert!(!body.contains(data), "{path} holds {data:?}");
        }
    }
    // Only the three assets: anything else is still the JSON 404.
    let (status, body) = d.get("/console.map");
    assert_eq!(status, 404, "{body}");
}

#[test]
fn every_api_route_the_console_reads_needs_the_token() {
    let (_dir, d) = start(Some(TOKEN));
    let client = d.client();
    for path in ["/v1/decisions", "/v1/approvals", "/v1/grants", "/v1/status"] {
        let (status, body) = d.get(path);
        assert_eq!(status, 401, "{path} without a token: {body}");
        let response = client
            .get(d.url(path))
            .bearer_auth("wrong")
            .send()
            .expect("GET");
        assert_eq!(response.status().as_u16(), 401, "{path} with a wrong token");
        let response = authed(client.get(d.url(path))).send().expect("GET");
        assert_eq!(response.status().as_u16(), 200, "{path} with the token");
    }
    for (method, path) in [("POST", "/v1/reload"), ("POST", "/v1/approvals/apr_x")] {
        let response = client
            .request(method.parse().expect("method"), d.url(path))
            .send()
            .expect("request");
        assert_eq!(response.status().as_u16(), 401, "{method} {path}");
    }
    let response = client
        .delete(d.url("/v1/grants/g_x"))
        .send()
        .expect("DELETE");
    assert_eq!(response.status().as_u16(), 401);
}

#[test]
fn recent_decisions_are_listed_newest_first_masked_and_filtered() {
    let (_dir, d) = start(Some(TOKEN));
    assert_eq!(decisions(&d, ""), json!({ "decisions": [], "last": 0 }));

    let block = evaluate(
        &d,
        &json!({
            "point": "turn:tool:pre",
            "context": {
                "sessionKey": "agent:main:console",
                "toolName": "exec",
                "toolArgs": {
                    "command": "rm -rf /srv",
                    "password": "hunter2-secret",
                    "nested": { "apiKey": "k-secret", "user": "bob" },
                },
            }
        }),
    );
    assert_eq!(block["decision"], "block");
    evaluate(&d, &exec("ls -la")); // 2: allow
    evaluate(&d, &exec("deploy prod")); // 3: ask

    let all = decisions(&d, "");
    assert_eq!(all["last"], 3, "{all}");
    assert_eq!(seqs(&all), [3, 2, 1], "newest first");
    let first = &all["decisions"][2];
    assert_eq!(first["point"], "turn:tool:pre");
    assert_eq!(first["decision"], "block");
    assert_eq!(first["hook"], "rm-guard");
    assert_eq!(first["message"], "no recursive rm");
    assert_eq!(first["tool"], "exec");
    assert_eq!(first["subject"], "rm -rf /srv");
    assert_eq!(first["sessionKey"], "agent:main:console");
    assert_eq!(first["traceId"], block["traceId"]);
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
            "password": "[masked]",
            "nested": { "apiKey": "[masked]", "user": "bob" },
        })
    );
    let text = all.to_string();
    assert!(!text.contains("hunter2"), "{text}");
    assert!(!text.contains("k-secret"), "{text}");
    assert_eq!(all["decisions"][1]["decision"], "allow");
    assert_eq!(all["decisions"][1]["hook"], Value::Null);
    assert_eq!(all["decisions"][0]["decision"], "ask");
    assert_eq!(all["decisions"][0]["hook"], "deploy-approval");

    // `after` returns only newer ones; `last` is always the newest of all.
    let newer = decisions(&d, "after=1");
    assert_eq!(seqs(&newer), [3, 2]);
    assert_eq!(newer["last"], 3);
    let none = decisions(&d, "after=3");
    assert_eq!(seqs(&none), Vec::<u64>::new());
    assert_eq!(none["last"], 3);
    // `decision` filters; `last` still moves past what the filter hid.
    for (verdict, want) in [("block", vec![1]), ("allow", vec![2]), ("ask", vec![3])] {
        let only = decisions(&d, &format!("decision={verdict}"));
        assert_eq!(seqs(&only), want, "{verdict}");
        assert_eq!(only["last"], 3);
    }
    assert_eq!(
        seqs(&decisions(&d, "decision=allow&after=2")),
        Vec::<u64>::new()
    );
    assert_eq!(seqs(&decisions(&d, "limit=1")), [3]);

    // Bad queries are 400s naming the problem.
    for query in ["decision=maybe", "after=-1", "limit=x", "bogus=1"] {
        let response = authed(d.client().get(d.url(&format!("/v1/decisions?{query}"))))
            .send()
            .expect("GET");
        let (status, body) = json_response(response);
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["error"]["code"], "invalid_request", "{body}");
    }
}

#[test]
fn every_deciding_route_feeds_the_recent_decisions() {
    let (_dir, d) = start(Some(TOKEN));
    let client = d.client();
    // A batch of two.
    let response = authed(client.post(d.url("/v1/evaluate")))
        .json(&json!([exec("ls"), exec("rm -rf /")]))
        .send()
        .expect("batch");
    assert_eq!(response.status().as_u16(), 200);
    // Claude Code's http hook.
    let response = authed(client.post(d.url("/v1/claude-code")))
        .body(
            json!({
                "session_id": "cc-1", "hook_event_name": "PreToolUse", "tool_name": "exec",
                "tool_input": { "command": "rm -rf /home", "token": "cc-secret" }
            })
            .to_string(),
        )
        .send()
        .expect("claude-code");
    assert_eq!(response.status().as_u16(), 200);
    // OpenClaw's plugin hook.
    let response = authed(client.post(d.url("/v1/openclaw/before_tool_call")))
        .json(&json!({
            "event": { "toolName": "exec", "params": { "command": "deploy web" } },
            "ctx": { "sessionKey": "agent:main:oc" }
        }))
        .send()
        .expect("openclaw");
    assert_eq!(response.status().as_u16(), 200);

    let all = decisions(&d, "");
    assert_eq!(seqs(&all), [4, 3, 2, 1], "{all}");
    let subjects: Vec<&str> = all["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .map(|r| r["subject"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(subjects, ["deploy web", "rm -rf /home", "rm -rf /", "ls"]);
    assert_eq!(all["decisions"][1]["args"]["token"], "[masked]", "{all}");
    assert!(!all.to_string().contains("cc-secret"));
    assert_eq!(all["decisions"][0]["sessionKey"], "agent:main:oc");

    // A request that fails validation decides nothing, so records nothing.
    let response = authed(client.post(d.url("/v1/evaluate")))
        .json(&json!({ "point": "turn:tool:pre", "context": {} }))
        .send()
        .expect("invalid");
    assert_eq!(response.status().as_u16(), 400);
    assert_eq!(decisions(&d, "")["last"], 4);
}

#[test]
fn long_subjects_are_clipped() {
    let (_dir, d) = start(Some(TOKEN));
    let long = format!("ls {}", "a".repeat(10_000));
    evaluate(&d, &exec(&long));
    let all = decisions(&d, "");
    let subject = all["decisions"][0]["subject"].as_str().expect("subject");
    assert!(subject.chars().count() <= 300, "{} chars", subject.len());
    assert!(
        subject.starts_with("ls aaa") && subject.ends_with('…'),
        "{subject}"
    );
    let arg = all["decisions"][0]["args"]["command"]
        .as_str()
        .expect("args");
    assert!(arg.chars().count() <= 300, "{} chars", arg.len());
}

#[test]
fn the_mask_fields_flag_applies_to_the_recent_decisions() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let d = Daemon::start(&dir, &["--mask-fields", "pin"]);
    d.decide(&json!({
        "point": "turn:tool:pre",
        "context": { "sessionKey": "s", "toolName": "exec",
                     "toolArgs": { "command": "ls", "PIN": "1234", "token": "shown" } }
    }));
    let (status, all) = d.get("/v1/decisions");
    assert_eq!(status, 200, "{all}");
    assert_eq!(
        all["decisions"][0]["args"],
        json!({ "command": "ls", "PIN": "[masked]", "token": "shown" })
    );
}

#[test]
fn a_tokenless_daemon_refuses_rebound_hosts_and_cross_origin_requests() {
    let (_dir, d) = start(None);
    let client = d.client();
    let url = d.url("/v1/status");
    let own = url
        .strip_prefix("http://")
        .and_then(|rest| rest.split('/').next())
        .expect("host:port")
        .to_owned();

    // A local program (no Origin) and the console itself (same origin) are answered.
    assert_eq!(d.get("/v1/status").0, 200);
    let operator = d.operator();
    let response = operator
        .post(d.url("/v1/reload"))
        .header("origin", format!("http://{own}"))
        .header("sec-fetch-site", "same-origin")
        .send()
        .expect("POST");
    assert_eq!(response.status().as_u16(), 200);

    // A page whose host name was rebound to 127.0.0.1.
    let response = client
        .get(&url)
        .header("host", "rebound.evil.example:18790")
        .send()
        .expect("GET");
    let (status, body) = json_response(response);
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["error"]["code"], "forbidden");
    // A cross-origin "simple" POST that would approve a request.
    let ask = d.decide(&exec("deploy prod"));
    let id = ask["approval"]["id"].as_str().expect("approval id");
    for (name, value) in [
        ("origin", "https://evil.example"),
        ("origin", "null"),
        ("sec-fetch-site", "cross-site"),
    ] {
        // Even with the session cookie (a browser would not send it: SameSite=Strict).
        let response = operator
            .post(d.url(&format!("/v1/approvals/{id}")))
            .header("content-type", "text/plain")
            .header(name, value)
            .body(r#"{"decision":"approve"}"#)
            .send()
            .expect("POST");
        assert_eq!(response.status().as_u16(), 403, "{name}: {value}");
    }
    let (status, pending) = d.get("/v1/approvals");
    assert_eq!(status, 200);
    assert_eq!(pending["pending"][0]["id"], id, "still pending: {pending}");

    // Health and the data-free shell stay open.
    for path in ["/healthz", "/"] {
        let response = client
            .get(d.url(path))
            .header("host", "rebound.evil.example:18790")
            .send()
            .expect("GET");
        assert_eq!(response.status().as_u16(), 200, "{path}");
    }
}
