//! The real Gemini CLI (0.61.0) and Codex CLI (0.169.0), installed from npm by
//! `scripts/gateways-env/install` into `$CARGO_TARGET_DIR/<gateway>-env`, wired to hookgate
//! by `hookgate init` and run non-interactively against a loopback stand-in model server
//! that answers the first turn with a shell tool call. A blocked command does not run (its
//! marker file is not created) and the policy's reason reaches the model (the stand-in sees
//! it in the next request); an allowed one runs; for Codex, an `ask` through the daemon
//! becomes a deny that names the request, and the model's retry passes once it is approved.
//!
//! When the npm registry cannot be reached the tests say so loudly and skip; any other
//! install failure fails them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::daemon::Daemon;
use crate::stand_in::{Recorded, Reply, StandIn};
use crate::util::{Dir, code, run, stderr, stdout};

/// The policy: `touch` of a `blocked-marker` is blocked with a reason the model must see; of
/// an `asked-marker`, asked.
const POLICY: &str = r#"version: "1"
hooks:
  - name: no-blocked-markers
    point: [turn:tool:pre, subagent:tool:pre]
    match: { tool: Bash, commandPattern: "blocked-marker" }
    action: block
    onFailure: { action: block, message: "hookgate refuses blocked markers (REASON-7f3)" }
  - name: asked-markers
    point: [turn:tool:pre, subagent:tool:pre]
    match: { tool: Bash, commandPattern: "asked-marker" }
    action: require_approval
    description: "asked markers need a human"
"#;

/// The reason the model must be shown.
const REASON: &str = "REASON-7f3";

/// The target directory this test binary's `hookgate` was built in (so CARGO_TARGET_DIR is
/// honoured).
fn target_dir() -> PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_hookgate"));
    bin.parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| panic!("no target directory above {}", bin.display()))
}

/// The installed program `bin` of `gateway`, or None (said loudly) when the registry is
/// unreachable.
fn program(gateway: &str, bin: &str) -> Option<PathBuf> {
    // Two tests of one gateway must not install it into the same directory at once.
    static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let env = target_dir().join(format!("{gateway}-env"));
    let script = crate::util::repo().join("scripts/gateways-env/install");
    let out = Command::new(&script)
        .arg(gateway)
        .arg(&env)
        .stdin(Stdio::null())
        .output()
        .expect("run scripts/gateways-env/install");
    match code(&out) {
        0 => Some(env.join("node_modules/.bin").join(bin)),
        3 => {
            eprintln!(
                "\n*** SKIPPED: the real {gateway} could not be installed (the npm registry is \
                 unreachable): {} ***\n",
                stderr(&out)
            );
            None
        }
        c => panic!("installing {gateway} failed ({c}): {}", stderr(&out)),
    }
}

/// The command line the model is asked to run, from the prompt `RUN: <command>;`.
fn command_in(body: &str) -> Option<String> {
    let start = body.find("RUN: ")? + 5;
    let rest = &body[start..];
    Some(rest[..rest.find(';')?].to_owned())
}

/// A project directory with the policy, and a scratch home.
struct Setup {
    dir: Dir,
}

impl Setup {
    fn new() -> Setup {
        let dir = Dir::new();
        dir.write("project/HOOKS.yaml", POLICY);
        std::fs::create_dir_all(dir.path().join("home")).expect("home");
        Setup { dir }
    }

    fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn marker(&self, name: &str) -> PathBuf {
        self.project().join(name)
    }

    /// `hookgate init <gateway> --user` with `extra`, HOME (and CODEX_HOME) in the scratch
    /// home.
    fn init(&self, gateway: &str, extra: &[&str]) {
        let mut cmd = self.dir.hookgate(&["init", gateway, "--user"]);
        cmd.args(extra)
            .env("HOME", self.home())
            .env("CODEX_HOME", self.home().join(".codex"));
        let out = run(cmd);
        assert_eq!(code(&out), 0, "init {gateway}: {}", stderr(&out));
    }
}

// ---------------------------------------------------------------------------------------
// Gemini CLI: generateContent / streamGenerateContent at GOOGLE_GEMINI_BASE_URL.

fn gemini_model() -> StandIn {
    StandIn::start(Reply::With(Arc::new(|r: &Recorded| {
        let text = |t: &str| json!({ "text": t });
        let part =
            if !r.path.contains("streamGenerateContent") || r.body.contains("functionResponse") {
                text("done")
            } else {
                match command_in(&r.body) {
                    Some(command) => json!({ "functionCall": { "name": "run_shell_command",
                    "args": { "command": command, "description": "as asked" } } }),
                    None => text("nothing to run"),
                }
            };
        let answer = json!({
            "candidates": [{ "content": { "role": "model", "parts": [part] },
                             "finishReason": "STOP", "index": 0 }],
            "usageMetadata": { "promptTokenCount": 1, "candidatesTokenCount": 1,
                               "totalTokenCount": 2 } });
        if r.path.contains("alt=sse") {
            (
                200,
                "text/event-stream".into(),
                format!("data: {answer}\r\n\r\n"),
            )
        } else {
            (200, "application/json".into(), answer.to_string())
        }
    })))
}

fn run_gemini(gemini: &Path, setup: &Setup, model: &StandIn, command: &str) {
    let out = Command::new(gemini)
        .args(["-m", "gemini-2.5-flash", "--yolo", "--skip-trust", "-p"])
        .arg(format!("RUN: {command};"))
        .current_dir(setup.project())
        .env("HOME", setup.home())
        .env("GEMINI_API_KEY", "stand-in")
        .env("GOOGLE_GEMINI_BASE_URL", model.url())
        .env_remove("GOOGLE_API_KEY")
        .env_remove("GOOGLE_GENAI_USE_VERTEXAI")
        .env_remove("GOOGLE_GENAI_USE_GCA")
        .stdin(Stdio::null())
        .output()
        .expect("run gemini");
    assert_eq!(code(&out), 0, "gemini: {}\n{}", stdout(&out), stderr(&out));
}

#[test]
fn gemini_cli_blocks_with_the_reason_and_runs_what_is_allowed() {
    let Some(gemini) = program("gemini", "gemini") else {
        return;
    };
    let setup = Setup::new();
    // Settings already there (the auth type) must survive init's merge.
    let settings = setup.home().join(".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        &settings,
        r#"{"security":{"auth":{"selectedType":"gemini-api-key"}}}"#,
    )
    .expect("settings");
    let policy = setup.project().join("HOOKS.yaml");
    setup.init("gemini", &["--config", &policy.to_string_lossy()]);
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).expect("read")).expect("JSON");
    assert_eq!(merged["security"]["auth"]["selectedType"], "gemini-api-key");
    assert!(merged["hooks"]["BeforeTool"].is_array(), "{merged}");

    let model = gemini_model();
    let blocked = setup.marker("blocked-marker");
    run_gemini(
        &gemini,
        &setup,
        &model,
        &format!("touch {}", blocked.display()),
    );
    assert!(!blocked.exists(), "the blocked command ran");
    let told = model
        .requests()
        .iter()
        .any(|r| r.body.contains("functionResponse") && r.body.contains(REASON));
    assert!(
        told,
        "the model never saw the reason: {:?}",
        model.requests()
    );

    let allowed = setup.marker("allowed-marker");
    run_gemini(
        &gemini,
        &setup,
        &model,
        &format!("touch {}", allowed.display()),
    );
    assert!(allowed.exists(), "the allowed command did not run");
}

// ---------------------------------------------------------------------------------------
// Codex CLI: the Responses API at a `model_providers` entry's base_url.

/// Server-sent events for one Responses API turn whose output is `item`.
fn responses_turn(item: &Value) -> String {
    [
        json!({ "type": "response.created", "response": { "id": "resp_1" } }),
        json!({ "type": "response.output_item.done", "output_index": 0, "item": item }),
        json!({ "type": "response.completed", "response": { "id": "resp_1", "output": [item],
            "usage": { "input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                       "input_tokens_details": { "cached_tokens": 0 },
                       "output_tokens_details": { "reasoning_tokens": 0 } } } }),
    ]
    .iter()
    .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap_or("")))
    .collect()
}

/// What approves an approval request, by its id.
type Approve = Arc<dyn Fn(&str) + Send + Sync>;

/// The stand-in model: runs the prompt's command with Codex's shell tool; when the hook's
/// answer names an approval request, `approve` is called with its id and the same call is
/// made again (the model's retry).
fn codex_model(approve: Option<Approve>) -> StandIn {
    StandIn::start(Reply::With(Arc::new(move |r: &Recorded| {
        let body: Value = serde_json::from_str(&r.body).unwrap_or(Value::Null);
        let input = body["input"].as_array().cloned().unwrap_or_default();
        let outputs: Vec<String> = input
            .iter()
            .filter(|i| i["type"] == "function_call_output")
            .map(|i| i["output"].to_string())
            .collect();
        let command = input
            .iter()
            .find_map(|i| command_in(&i.to_string()))
            .unwrap_or_default();
        let call = |id: &str| {
            json!({ "type": "function_call", "id": format!("fc_{id}"), "call_id": id,
                    "name": "exec_command", "status": "completed",
                    "arguments": json!({ "cmd": command }).to_string() })
        };
        let request_id = outputs.last().and_then(|o| {
            let start = o.find("request apr_")? + "request ".len();
            Some(o[start..start + 20].to_owned())
        });
        let item = match (outputs.len(), request_id, &approve) {
            (0, _, _) if !command.is_empty() => call("call_1"),
            (1, Some(id), Some(approve)) => {
                approve(&id);
                call("call_2")
            }
            _ => json!({ "type": "message", "id": "msg_1", "role": "assistant",
                         "status": "completed",
                         "content": [{ "type": "output_text", "text": "done",
                                       "annotations": [] }] }),
        };
        (200, "text/event-stream".into(), responses_turn(&item))
    })))
}

fn codex_home(setup: &Setup, model: &StandIn) -> PathBuf {
    let home = setup.home().join(".codex");
    std::fs::create_dir_all(&home).expect("codex home");
    let config = format!(
        "model = \"gpt-5.1-codex\"\nmodel_provider = \"standin\"\n\n\
         [model_providers.standin]\nname = \"standin\"\nbase_url = \"{}/v1\"\n\
         wire_api = \"responses\"\nenv_key = \"STANDIN_API_KEY\"\n",
        model.url()
    );
    std::fs::write(home.join("config.toml"), config).expect("config.toml");
    home
}

fn run_codex(codex: &Path, setup: &Setup, home: &Path, command: &str) {
    let out = Command::new(codex)
        .args([
            "exec",
            "--skip-git-repo-check",
            "--dangerously-bypass-approvals-and-sandbox",
            // Codex runs a new hook only once a person has reviewed it in its /hooks screen;
            // a non-interactive test cannot, so it takes this flag (docs/gateways.md).
            "--dangerously-bypass-hook-trust",
        ])
        .arg(format!("RUN: {command};"))
        .current_dir(setup.project())
        .env("HOME", setup.home())
        .env("CODEX_HOME", home)
        .env("STANDIN_API_KEY", "stand-in")
        .env_remove("OPENAI_API_KEY")
        .stdin(Stdio::null())
        .output()
        .expect("run codex");
    assert_eq!(code(&out), 0, "codex: {}\n{}", stdout(&out), stderr(&out));
}

#[test]
fn codex_blocks_with_the_reason_and_runs_what_is_allowed() {
    let Some(codex) = program("codex", "codex") else {
        return;
    };
    let setup = Setup::new();
    let model = codex_model(None);
    let home = codex_home(&setup, &model);
    let policy = setup.project().join("HOOKS.yaml");
    setup.init("codex", &["--config", &policy.to_string_lossy()]);

    let blocked = setup.marker("blocked-marker");
    run_codex(
        &codex,
        &setup,
        &home,
        &format!("touch {}", blocked.display()),
    );
    assert!(!blocked.exists(), "the blocked command ran");
    let told = model
        .requests()
        .iter()
        .any(|r| r.body.contains("function_call_output") && r.body.contains(REASON));
    assert!(
        told,
        "the model never saw the reason: {:?}",
        model.requests()
    );

    let allowed = setup.marker("allowed-marker");
    run_codex(
        &codex,
        &setup,
        &home,
        &format!("touch {}", allowed.display()),
    );
    assert!(allowed.exists(), "the allowed command did not run");
}

#[test]
fn codex_asks_become_denials_that_pass_once_approved() {
    let Some(codex) = program("codex", "codex") else {
        return;
    };
    let setup = Setup::new();
    let daemon_dir = Dir::new();
    daemon_dir.write("HOOKS.yaml", POLICY);
    let daemon = Arc::new(Daemon::start(&daemon_dir, &[]));
    let approver = Arc::clone(&daemon);
    let approved = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let seen = Arc::clone(&approved);
    let model = codex_model(Some(Arc::new(move |id: &str| {
        let response = approver
            .operator()
            .post(approver.url(&format!("/v1/approvals/{id}")))
            .json(&json!({ "decision": "approve" }))
            .timeout(Duration::from_secs(10))
            .send()
            .expect("approve");
        assert_eq!(response.status().as_u16(), 200, "approving {id}");
        seen.lock().expect("lock").push(id.to_owned());
    })));
    let home = codex_home(&setup, &model);
    setup.init("codex", &["--daemon", &daemon.url("")]);

    let asked = setup.marker("asked-marker");
    run_codex(&codex, &setup, &home, &format!("touch {}", asked.display()));
    let requests = model.requests();
    let first_answer = requests
        .iter()
        .find(|r| r.body.contains("function_call_output"))
        .map(|r| r.body.clone())
        .unwrap_or_default();
    assert!(
        first_answer.contains("hookgate approvals approve apr_"),
        "the deny must say where to approve: {first_answer}"
    );
    assert_eq!(approved.lock().expect("lock").len(), 1, "one approval");
    assert!(asked.exists(), "the retry after approval did not run");
}
