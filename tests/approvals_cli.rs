//! `hookgate approvals`: on the approvals file when no daemon runs, and against a running
//! daemon (with its token) when one does.

use serde_json::{Value, json};

use crate::daemon::Daemon;
use crate::util::{Dir, code, run, stderr, stdout};

const POLICY: &str = r#"version: "1"
hooks:
  - name: deploy-approval
    point: turn:tool:pre
    match: { tool: exec, commandPattern: deploy }
    action: require_approval
    timeoutMs: 600000
    description: deploys need a human
"#;

fn pending_file(dir: &Dir, id: &str) {
    let state = json!({
        "version": 1,
        "pending": [{
            "id": id, "hook": "deploy-approval", "point": "turn:tool:pre",
            "sessionKey": "s1", "tool": "exec", "args": { "command": "deploy prod" },
            "subject": "deploy prod", "risk": "high", "reasons": ["deploys need a human"],
            "createdAtMs": 1, "expiresAtMs": 99_999_999_999_999u64, "timeoutAction": "deny",
            "allowedDecisions": ["approve", "deny", "approve_session", "approve_always"],
        }],
        "grants": [],
        "history": [],
    });
    dir.write("approvals.json", &state.to_string());
}

fn approvals(dir: &Dir, args: &[&str]) -> std::process::Output {
    let mut all = vec!["approvals", "--config", "HOOKS.yaml"];
    all.extend_from_slice(args);
    let mut cmd = dir.hookgate(&all);
    cmd.env_remove("HOOKGATE_URL").env_remove("HOOKGATE_TOKEN");
    run(cmd)
}

fn json_of(out: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

#[test]
fn on_the_file_it_lists_decides_grants_and_revokes() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    pending_file(&dir, "apr_0000000000000001");

    let out = approvals(&dir, &["list"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("apr_0000000000000001  high"),
        "{}",
        stdout(&out)
    );

    let out = approvals(
        &dir,
        &[
            "approve",
            "apr_0000000000000001",
            "--always",
            "--pattern",
            "exec:deploy *",
            "--by",
            "carol",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "apr_0000000000000001: approved (approve_always) by carol\n"
    );

    let out = approvals(&dir, &["deny", "apr_0000000000000001"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("already decided"), "{}", stderr(&out));

    let grants = json_of(&approvals(&dir, &["grants", "--format", "json"]));
    let grant = &grants["grants"][0];
    assert_eq!(grant["pattern"], "exec:deploy *");
    assert_eq!(grant["by"], "carol");
    let id = grant["id"].as_str().expect("grant id").to_owned();

    // The file holds the decision: a restarted daemon would honour it.
    let file = crate::approvals::stored(&dir);
    assert_eq!(file["history"][0]["requestId"], "apr_0000000000000001");
    assert_eq!(file["pending"], json!([]));

    let out = approvals(&dir, &["revoke", &id]);
    assert_eq!(stdout(&out), format!("revoked {id}\n"));
    assert_eq!(approvals(&dir, &["grants"]).stdout, b"no grants\n");
    assert_eq!(code(&approvals(&dir, &["revoke", &id])), 1);
}

#[test]
fn against_a_running_daemon_it_decides_over_http_with_the_token() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let mut cmd = Daemon::command(&dir, &[]);
    cmd.env("HOOKGATE_TOKEN", "cli-secret")
        .env("HOOKGATE_APPROVER_TOKEN", "approver-secret");
    let d = Daemon::spawn(cmd);
    let client = d.client();
    let deploy = || -> Value {
        client
            .post(d.url("/v1/evaluate"))
            .bearer_auth("cli-secret")
            .json(&json!({
                "point": "turn:tool:pre",
                "context": { "sessionKey": "s1", "toolName": "exec", "toolArgs": { "command": "deploy prod" } },
            }))
            .send()
            .expect("evaluate")
            .json()
            .expect("decision")
    };
    let asked = deploy();
    assert_eq!(asked["decision"], "ask");
    let id = asked["approval"]["id"].as_str().expect("id").to_owned();

    let url = d.url("");
    let cli = |args: &[&str], env: Option<(&str, &str)>| {
        let mut all = vec!["approvals", "--url", url.as_str()];
        all.extend_from_slice(args);
        let mut cmd = dir.hookgate(&all);
        for name in [
            "HOOKGATE_TOKEN",
            "HOOKGATE_APPROVER_TOKEN",
            "HOOKGATE_ADMIN_TOKEN",
        ] {
            cmd.env_remove(name);
        }
        if let Some((name, token)) = env {
            cmd.env(name, token);
        }
        run(cmd)
    };
    let out = cli(&["list"], None);
    assert_eq!(code(&out), 1, "no token: refused");
    assert!(stderr(&out).contains("401"), "{}", stderr(&out));
    let out = cli(&["list"], Some(("HOOKGATE_TOKEN", "cli-secret")));
    assert_eq!(code(&out), 0, "the gateway's token reads: {}", stderr(&out));

    // The gateway's (and so the agent's) token cannot approve; the error names the role.
    let approve = ["approve", &id, "--session", "--by", "dave"];
    let out = cli(&approve, Some(("HOOKGATE_TOKEN", "cli-secret")));
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("this route needs the approve role") && stderr(&out).contains("403"),
        "{}",
        stderr(&out)
    );

    // The file is the daemon's: file mode must not touch it, so the CLI talks HTTP.
    let out = cli(
        &approve,
        Some(("HOOKGATE_APPROVER_TOKEN", "approver-secret")),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("{id}: approved (approve_session) by dave\n")
    );

    let again = deploy();
    assert_eq!(again["decision"], "allow", "{again}");
    assert_eq!(
        again["results"][0]["message"],
        "Approved by session grant by dave"
    );
}

/// Terminal escape sequences and bidi overrides an agent could put in a tool argument.
const HOSTILE: &str = "deploy \u{1b}[2J\u{1b}]0;title\u{7} \u{9b}31m \u{202e}gnp.exe";
/// How they read in text output.
const HOSTILE_SHOWN: &str = r"deploy \x1b[2J\x1b]0;title\x07 \u{9b}31m \u{202e}gnp.exe";

/// No raw control or bidi character of [`HOSTILE`] in `text`.
#[track_caller]
fn assert_no_raw_controls(text: &str) {
    for c in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}'] {
        assert!(!text.contains(c), "raw {c:?} in {text:?}");
    }
}

#[test]
fn control_and_bidi_characters_in_a_request_are_listed_escaped() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let d = Daemon::start(&dir, &[]);
    let asked = d.decide(&json!({
        "point": "turn:tool:pre",
        "context": {
            "sessionKey": "s1\u{1b}[1A\u{202e}",
            "toolName": "exec",
            "toolArgs": { "command": HOSTILE },
        },
    }));
    assert_eq!(asked["decision"], "ask", "{asked}");
    let id = asked["approval"]["id"].as_str().expect("id").to_owned();
    let url = d.url("");
    let cli = |args: &[&str]| {
        let mut all = vec!["approvals", "--url", url.as_str()];
        all.extend_from_slice(args);
        let mut cmd = dir.hookgate(&all);
        cmd.env_remove("HOOKGATE_TOKEN");
        run(cmd)
    };

    let out = cli(&["list"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let list = stdout(&out);
    assert_no_raw_controls(&list);
    assert!(list.contains(HOSTILE_SHOWN), "{list}");
    assert!(list.contains(r"session=s1\x1b[1A\u{202e}"), "{list}");
    assert_eq!(list.lines().count(), 1, "one request, one line: {list}");

    // `show` prints the request as JSON: still JSON, nothing raw.
    let out = cli(&["show", &id]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_no_raw_controls(&stdout(&out));
    let shown = json_of(&out);
    assert_eq!(shown["request"]["subject"], HOSTILE);

    // JSON keeps the exact value, with every such character as a `\u` escape.
    let out = cli(&["list", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert_no_raw_controls(&text);
    assert!(
        text.contains(r"\u001b[2J") && text.contains(r"\u202e"),
        "{text}"
    );
    assert_eq!(json_of(&out)["pending"][0]["args"]["command"], HOSTILE);
}
