//! The real Gemini CLI (0.61.0), Codex CLI (0.169.0), opencode (1.18.33) and GitHub Copilot
//! CLI (1.0.102), installed from npm by `scripts/gateways-env/install` into
//! `$CARGO_TARGET_DIR/<gateway>-env`, wired to hookgate by `hookgate init` and run against a
//! loopback stand-in model server that answers the first turn with a shell tool call. A
//! blocked command does not run (its marker file is not created) and the policy's reason
//! reaches the model (the stand-in sees it in the next request); an allowed one runs; a
//! sub-agent's call (opencode's and Copilot's `task` tool) reaches hookgate as a
//! sub-agent's. For Codex and opencode an `ask` through the daemon becomes a deny that names
//! the request, and the model's retry passes once it is approved; for Copilot CLI it becomes
//! Copilot's own prompt (driven in tmux), and a prompt-mode run (`-p`), where nobody can
//! answer, refuses the call.
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
        Setup::with_policy(POLICY)
    }

    fn with_policy(policy: &str) -> Setup {
        let dir = Dir::new();
        dir.write("project/HOOKS.yaml", policy);
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
            .env("CODEX_HOME", self.home().join(".codex"))
            .env("COPILOT_HOME", self.home().join(".copilot"));
        let out = run(cmd);
        assert_eq!(code(&out), 0, "init {gateway}: {}", stderr(&out));
    }

    /// `hookgate init <gateway>` with `extra`, in the project (its own configuration there).
    fn init_project(&self, gateway: &str, extra: &[&str]) {
        let mut cmd = self.dir.hookgate(&["init", gateway]);
        cmd.args(extra).current_dir(self.project());
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

/// The two runs every gateway's test makes, each given the command `run` sends as the
/// user's request: `touch` of a blocked marker must reach the stand-in model, must not run,
/// and its result must tell the model the policy's reason (`told`, in the gateway's own
/// request shape); `touch` of an allowed marker must run.
fn blocks_then_allows(
    setup: &Setup,
    model: &StandIn,
    told: impl Fn(&StandIn) -> bool,
    mut run: impl FnMut(&str),
) {
    let blocked = setup.marker("blocked-marker");
    run(&format!("touch {}", blocked.display()));
    assert!(
        model
            .requests()
            .iter()
            .any(|r| r.body.contains("blocked-marker")),
        "the gateway never asked the stand-in"
    );
    assert!(!blocked.exists(), "the blocked command ran");
    assert!(
        told(model),
        "the model never saw the reason: {:?}",
        model.requests()
    );
    let allowed = setup.marker("allowed-marker");
    run(&format!("touch {}", allowed.display()));
    assert!(allowed.exists(), "the allowed command did not run");
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
    let told = |m: &StandIn| {
        m.requests()
            .iter()
            .any(|r| r.body.contains("functionResponse") && r.body.contains(REASON))
    };
    blocks_then_allows(&setup, &model, told, |command| {
        run_gemini(&gemini, &setup, &model, command);
    });
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

    let told = |m: &StandIn| {
        m.requests()
            .iter()
            .any(|r| r.body.contains("function_call_output") && r.body.contains(REASON))
    };
    blocks_then_allows(&setup, &model, told, |command| {
        run_codex(&codex, &setup, &home, command);
    });
}

#[test]
fn codex_asks_become_denials_that_pass_once_approved() {
    let Some(codex) = program("codex", "codex") else {
        return;
    };
    let setup = Setup::new();
    let (_daemon_dir, daemon, approve, approved) = approving_daemon();
    let model = codex_model(Some(approve));
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
    approved_once(&approved, &asked);
}

// ---------------------------------------------------------------------------------------
// OpenAI chat completions: opencode's `@ai-sdk/openai-compatible` provider and Copilot CLI's
// BYOK provider (`COPILOT_PROVIDER_BASE_URL`) both stream `/v1/chat/completions`.

/// A policy rule only a sub-agent's call meets: a `subagent-marker` is refused at
/// `subagent:tool:pre` in a session whose key matches `session`, with its own reason.
fn subagent_rule(session: &str) -> String {
    format!(
        r#"  - name: no-subagent-markers
    point: [subagent:tool:pre]
    match: {{ tool: Bash, commandPattern: "subagent-marker", sessionPattern: "{session}" }}
    action: block
    onFailure: {{ action: block, message: "sub-agents refuse subagent markers (SUB-REASON-2c9)" }}
"#
    )
}

/// The reason a sub-agent's model must be shown.
const SUB_REASON: &str = "SUB-REASON-2c9";

/// The text of a chat message's content: a string, or parts with `text`.
fn content_text(message: &Value) -> String {
    match &message["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// One chat-completions turn whose assistant message is `delta`: streamed as server-sent
/// events when the request asked for a stream, else one JSON completion.
fn chat_turn(stream: bool, delta: &Value, finish: &str) -> (u16, String, String) {
    let usage = json!({ "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2 });
    if !stream {
        let answer = json!({ "id": "chatcmpl-1", "object": "chat.completion", "created": 1,
            "model": "stand-in", "usage": usage,
            "choices": [{ "index": 0, "message": delta, "finish_reason": finish }] });
        return (200, "application/json".into(), answer.to_string());
    }
    let chunk = |delta: &Value, finish: Value| {
        json!({ "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
                "model": "stand-in",
                "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }] })
    };
    let mut last = chunk(&json!({}), json!(finish));
    last["usage"] = usage;
    let events = format!(
        "data: {}\n\ndata: {last}\n\ndata: [DONE]\n\n",
        chunk(delta, Value::Null)
    );
    (200, "text/event-stream".into(), events)
}

/// The `task` tool's arguments that start a sub-agent told to `RUN: <command>;`, in the
/// gateway's spelling (opencode's `subagent_type`, Copilot CLI's `agent_type`).
fn task_args(body: &Value, command: &str) -> Value {
    let opencode = body["tools"].as_array().into_iter().flatten().any(|t| {
        t["function"]["name"] == "task"
            && t["function"]["parameters"]["properties"]["subagent_type"].is_object()
    });
    let prompt = format!("RUN: {command};");
    if opencode {
        json!({ "description": "delegate it", "prompt": prompt, "subagent_type": "general" })
    } else {
        json!({ "description": "delegate it", "prompt": prompt, "agent_type": "task",
                "name": "runner" })
    }
}

/// The approval request a tool result names (`... request apr_...`).
fn request_id(result: &str) -> Option<String> {
    let start = result.find("request apr_")? + "request ".len();
    let id: String = result[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    Some(id)
}

/// The stand-in chat model: the prompt `RUN: <command>;` is run with the `bash` tool (both
/// gateways call their shell tool `bash`); `DELEGATE RUN: <command>;` is handed to a
/// sub-agent with the `task` tool, whose own first turn then runs it. When the hook's answer
/// names an approval request, `approve` is called with its id and the same call is made
/// again (the model's retry). Anything else (a title request, a turn after a tool result)
/// answers "done".
fn chat_model(approve: Option<Approve>) -> StandIn {
    StandIn::start(Reply::With(Arc::new(move |r: &Recorded| {
        let body: Value = serde_json::from_str(&r.body).unwrap_or(Value::Null);
        let stream = body["stream"] == true;
        let messages = body["messages"].as_array().cloned().unwrap_or_default();
        let has_tool = |name: &str| {
            body["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|t| t["function"]["name"] == name)
        };
        let results: Vec<String> = messages
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(content_text)
            .collect();
        let asked = messages
            .iter()
            .filter(|m| m["role"] == "user")
            .map(content_text)
            .next_back()
            .unwrap_or_default();
        let call = |id: &str, name: &str, args: Value| {
            json!({ "role": "assistant", "content": null, "tool_calls": [{ "index": 0,
                "id": id, "type": "function",
                "function": { "name": name, "arguments": args.to_string() } }] })
        };
        let bash = |command: &str| json!({ "command": command, "description": "as asked" });
        let command = command_in(&asked);
        let retry = results.last().and_then(|r| request_id(r));
        let turn = match (command, results.len(), retry, &approve) {
            (Some(c), 0, _, _) if asked.contains("DELEGATE") && has_tool("task") => {
                Some(call("call_task", "task", task_args(&body, &c)))
            }
            (Some(c), 0, _, _) if has_tool("bash") => Some(call("call_1", "bash", bash(&c))),
            (Some(c), 1, Some(id), Some(approve)) => {
                approve(&id);
                Some(call("call_2", "bash", bash(&c)))
            }
            _ => None,
        };
        match turn {
            Some(delta) => chat_turn(stream, &delta, "tool_calls"),
            None => chat_turn(
                stream,
                &json!({ "role": "assistant", "content": "done" }),
                "stop",
            ),
        }
    })))
}

/// Whether some request to `model` carries a tool result holding `text`.
/// The sub-agent a `DELEGATE RUN` prompt started was stopped before its command ran, and
/// its model was told the sub-agent rule's reason.
fn sub_agent_was_stopped(model: &StandIn, delegated: &Path) {
    assert!(
        model
            .requests()
            .iter()
            .any(|r| r.body.contains("\"call_task\"")),
        "the sub-agent was never started"
    );
    assert!(!delegated.exists(), "the sub-agent's blocked command ran");
    assert!(
        model_was_told(model, SUB_REASON),
        "the sub-agent's model never saw the reason: {:?}",
        model.requests()
    );
}

/// A daemon on [`POLICY`] (its directory, kept alive by the caller) and an approver of its
/// pending requests, with what it approved.
fn approving_daemon() -> (
    Dir,
    Arc<Daemon>,
    Approve,
    Arc<std::sync::Mutex<Vec<String>>>,
) {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", POLICY);
    let daemon = Arc::new(Daemon::start(&dir, &[]));
    let (approve, approved) = approver(&daemon);
    (dir, daemon, approve, approved)
}

/// One request was approved, and the command retried after it ran.
fn approved_once(approved: &std::sync::Mutex<Vec<String>>, asked: &Path) {
    assert_eq!(approved.lock().expect("lock").len(), 1, "one approval");
    assert!(asked.exists(), "the retry after approval did not run");
}

fn model_was_told(model: &StandIn, text: &str) -> bool {
    model.requests().iter().any(|r| {
        let body: Value = serde_json::from_str(&r.body).unwrap_or(Value::Null);
        body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|m| m["role"] == "tool" && content_text(m).contains(text))
    })
}

/// An approver for `daemon`'s requests that records the ids it approved. It holds the
/// daemon weakly: the stand-in model's server thread keeps the approver past the test, and
/// a strong hold would keep the daemon from being killed on drop.
fn approver(daemon: &Arc<Daemon>) -> (Approve, Arc<std::sync::Mutex<Vec<String>>>) {
    let daemon = Arc::downgrade(daemon);
    let approved = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let seen = Arc::clone(&approved);
    let approve: Approve = Arc::new(move |id: &str| {
        let Some(daemon) = daemon.upgrade() else {
            return;
        };
        let response = daemon
            .operator()
            .post(daemon.url(&format!("/v1/approvals/{id}")))
            .json(&json!({ "decision": "approve" }))
            .timeout(Duration::from_secs(10))
            .send()
            .expect("approve");
        assert_eq!(response.status().as_u16(), 200, "approving {id}");
        seen.lock().expect("lock").push(id.to_owned());
    });
    (approve, approved)
}

// ---------------------------------------------------------------------------------------
// opencode: a custom provider (`@ai-sdk/openai-compatible`) in the project's opencode.json;
// hookgate's plugin in .opencode/plugin/.

/// The project's opencode.json: the stand-in as the only model.
fn opencode_config(setup: &Setup, model: &StandIn) {
    let config = json!({
        "$schema": "https://opencode.ai/config.json",
        "provider": { "standin": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "stand-in",
            "options": { "baseURL": format!("{}/v1", model.url()), "apiKey": "stand-in" },
            "models": { "m": { "name": "m", "tool_call": true } } } },
        "model": "standin/m",
        "share": "disabled",
        "autoupdate": false
    });
    std::fs::write(setup.project().join("opencode.json"), config.to_string())
        .expect("opencode.json");
}

/// `opencode run <prompt>` in the project, everything it keeps in the scratch home. At its
/// first start in a project opencode installs `@ai-sdk/openai-compatible` and its plugins'
/// `@opencode-ai/plugin` from npm (some tens of seconds).
fn run_opencode(opencode: &Path, setup: &Setup, prompt: &str) {
    let home = setup.home();
    let out = Command::new(opencode)
        .args(["run", "--print-logs"])
        .arg(prompt)
        .current_dir(setup.project())
        // opencode takes its directory from $PWD, which `cargo test` sets to the repository.
        .env("PWD", setup.project())
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        // No models.dev catalogue, update check, share link or LSP download: no network but
        // the stand-in and npm.
        .env("OPENCODE_DISABLE_MODELS_FETCH", "1")
        .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
        .env("OPENCODE_DISABLE_SHARE", "1")
        .env("OPENCODE_DISABLE_LSP_DOWNLOAD", "1")
        .env_remove("OPENCODE_CONFIG")
        .env_remove("OPENCODE_CONFIG_CONTENT")
        .env_remove("OPENCODE_CONFIG_DIR")
        .env_remove("OPENCODE_PERMISSION")
        .env_remove("HOOKGATE_COMMAND")
        .env_remove("OPENAI_API_KEY")
        .stdin(Stdio::null())
        .output()
        .expect("run opencode");
    assert_eq!(
        code(&out),
        0,
        "opencode: {}\n{}",
        stdout(&out),
        stderr(&out)
    );
}

#[test]
fn opencode_blocks_with_the_reason_and_runs_what_is_allowed() {
    let Some(opencode) = program("opencode", "opencode") else {
        return;
    };
    let setup = Setup::with_policy(&format!(
        "{POLICY}{}",
        subagent_rule("^opencode:ses_[A-Za-z0-9]+:subagent:ses_[A-Za-z0-9]+$")
    ));
    let model = chat_model(None);
    opencode_config(&setup, &model);
    let policy = setup.project().join("HOOKS.yaml");
    setup.init_project("opencode", &["--config", &policy.to_string_lossy()]);
    assert!(
        setup
            .project()
            .join(".opencode/plugin/hookgate.js")
            .is_file()
    );

    let told = |m: &StandIn| model_was_told(m, REASON);
    blocks_then_allows(&setup, &model, told, |command| {
        run_opencode(&opencode, &setup, &format!("RUN: {command};"));
    });

    // A sub-agent (the `task` tool) runs the command: the plugin finds the parent session,
    // so the call is evaluated at subagent:tool:pre under opencode:<parent>:subagent:<child>.
    let delegated = setup.marker("subagent-marker");
    run_opencode(
        &opencode,
        &setup,
        &format!("DELEGATE RUN: touch {};", delegated.display()),
    );
    sub_agent_was_stopped(&model, &delegated);
}

#[test]
fn opencode_asks_become_denials_that_pass_once_approved() {
    let Some(opencode) = program("opencode", "opencode") else {
        return;
    };
    let setup = Setup::new();
    let (_daemon_dir, daemon, approve, approved) = approving_daemon();
    let model = chat_model(Some(approve));
    opencode_config(&setup, &model);
    setup.init_project("opencode", &["--daemon", &daemon.url("")]);

    let asked = setup.marker("asked-marker");
    run_opencode(
        &opencode,
        &setup,
        &format!("RUN: touch {};", asked.display()),
    );
    assert!(
        model_was_told(&model, "hookgate approvals approve apr_"),
        "the deny must say where to approve: {:?}",
        model.requests()
    );
    approved_once(&approved, &asked);
}

// ---------------------------------------------------------------------------------------
// GitHub Copilot CLI: BYOK (`COPILOT_PROVIDER_BASE_URL`) with `COPILOT_OFFLINE=true`, so no
// GitHub account, token or network; personal hooks in $COPILOT_HOME/hooks, project hooks in
// .github/hooks (read once the folder is trusted).

/// The installed Copilot CLI and the directory its native binary unpacks its JavaScript
/// into (once, here, rather than into every scratch home at each start).
fn copilot() -> Option<(PathBuf, PathBuf)> {
    static UNPACKING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let copilot = program("copilot", "copilot")?;
    let cache = target_dir().join("copilot-env/pkg-cache");
    let _one_at_a_time = UNPACKING.lock().unwrap_or_else(|e| e.into_inner());
    let home = Dir::new();
    let out = Command::new(&copilot)
        .arg("--version")
        .env("COPILOT_PKG_CACHE_HOME", &cache)
        .env("COPILOT_AUTO_UPDATE", "false")
        .env("HOME", home.path())
        .env("COPILOT_HOME", home.path().join(".copilot"))
        .stdin(Stdio::null())
        .output()
        .expect("run copilot --version");
    assert_eq!(code(&out), 0, "copilot --version: {}", stderr(&out));
    assert!(stdout(&out).contains("1.0.102"), "{}", stdout(&out));
    Some((copilot, cache))
}

/// The environment every Copilot CLI run gets: the stand-in as a BYOK provider, offline,
/// everything it keeps in the scratch home.
fn copilot_env(cmd: &mut Command, setup: &Setup, model: &StandIn, cache: &Path) {
    cmd.current_dir(setup.project())
        .env("PWD", setup.project())
        .env("HOME", setup.home())
        .env("COPILOT_HOME", setup.home().join(".copilot"))
        .env("COPILOT_PKG_CACHE_HOME", cache)
        .env("COPILOT_OFFLINE", "true")
        .env("COPILOT_PROVIDER_BASE_URL", format!("{}/v1", model.url()))
        .env("COPILOT_PROVIDER_API_KEY", "stand-in")
        .env("COPILOT_MODEL", "gpt-4.1")
        .env("COPILOT_AUTO_UPDATE", "false")
        .env_remove("COPILOT_PROVIDER_TYPE")
        .env_remove("COPILOT_PROVIDER_WIRE_API")
        .env_remove("COPILOT_ALLOW_ALL")
        .env_remove("COPILOT_GITHUB_TOKEN")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN");
}

/// `copilot -p <prompt> --allow-all-tools` (prompt mode: nobody answers a prompt).
fn run_copilot(copilot: &Path, cache: &Path, setup: &Setup, model: &StandIn, prompt: &str) {
    run_copilot_with(copilot, cache, setup, model, prompt, &[]);
}

fn run_copilot_with(
    copilot: &Path,
    cache: &Path,
    setup: &Setup,
    model: &StandIn,
    prompt: &str,
    extra: &[&str],
) {
    let mut cmd = Command::new(copilot);
    cmd.args(["-p", prompt, "--allow-all-tools", "--no-auto-update"])
        .args(extra)
        .stdin(Stdio::null());
    copilot_env(&mut cmd, setup, model, cache);
    let out = cmd.output().expect("run copilot");
    assert_eq!(code(&out), 0, "copilot: {}\n{}", stdout(&out), stderr(&out));
}

#[test]
fn copilot_cli_blocks_with_the_reason_and_runs_what_is_allowed() {
    let Some((copilot, cache)) = copilot() else {
        return;
    };
    // The session's id is chosen here (--session-id), so the policy can name the parent in
    // the key a sub-agent's call must have.
    let session = "5e55a0e1-0000-4000-8000-00000000c0de";
    // subagentStart: context for the sub-agent's first prompt. Copilot names the sub-agent
    // (`agentId`) and its parent there, so the key is already the sub-agent's.
    let briefing = format!(
        "  - name: sub-agent-briefing\n    point: [subagent:spawn:pre]\n    \
         match: {{ sessionPattern: \"^copilot:{session}:subagent:[0-9a-f-]+$\" }}\n    \
         action: inject_context\n    source: briefing.txt\n"
    );
    let setup = Setup::with_policy(&format!(
        "{POLICY}{}{briefing}",
        subagent_rule(&format!("^copilot:{session}:subagent:[0-9a-f-]+$"))
    ));
    std::fs::write(setup.project().join("briefing.txt"), BRIEFING).expect("briefing");
    let model = chat_model(None);
    // Personal hooks ($COPILOT_HOME/hooks): read in a folder nobody trusted yet.
    let policy = setup.project().join("HOOKS.yaml");
    setup.init("copilot", &["--config", &policy.to_string_lossy()]);
    assert!(setup.home().join(".copilot/hooks/hookgate.json").is_file());

    let told = |m: &StandIn| model_was_told(m, REASON);
    blocks_then_allows(&setup, &model, told, |command| {
        run_copilot(
            &copilot,
            &cache,
            &setup,
            &model,
            &format!("RUN: {command};"),
        );
    });

    // A sub-agent (the `task` tool): Copilot sends the sub-agent's id as `sessionId` and the
    // parent as `parentAgentId`; the key must be copilot:<session>:subagent:<agent>.
    let delegated = setup.marker("subagent-marker");
    let prompt = format!("DELEGATE RUN: touch {};", delegated.display());
    run_copilot_with(
        &copilot,
        &cache,
        &setup,
        &model,
        &prompt,
        &["--session-id", session],
    );
    sub_agent_was_stopped(&model, &delegated);
    assert!(
        model.requests().iter().any(|r| r.body.contains(BRIEFING)),
        "the sub-agent was never given the subagentStart context: {:?}",
        model.requests()
    );
}

/// Copilot CLI runs a call whose `preToolUse` hook timed out (its changelog says so; this
/// checks it), so `hookgate hook` must answer before `timeoutSec`: with `--deadline` under
/// it the call is refused with hookgate's reason, with `--deadline` over it the call runs.
#[test]
fn copilot_cli_runs_what_a_timed_out_hook_did_not_answer_so_hookgate_answers_first() {
    let Some((copilot, cache)) = copilot() else {
        return;
    };
    let setup = Setup::with_policy(
        "version: \"1\"\nhooks:\n  - name: slow\n    point: [turn:tool:pre]\n    \
         match: { tool: Bash, commandPattern: \"marker\" }\n    action: exec_script\n    \
         script: \"sleep 10\"\n",
    );
    let model = chat_model(None);
    let hooks = setup.home().join(".copilot/hooks");
    std::fs::create_dir_all(&hooks).expect("hooks dir");
    let policy = setup.project().join("HOOKS.yaml");
    for (deadline, marker, runs) in [(1, "answered-marker", false), (6, "timed-out-marker", true)] {
        let command = format!(
            "{} hook --gateway copilot --event preToolUse --config {} --deadline {deadline}",
            env!("CARGO_BIN_EXE_hookgate"),
            policy.display()
        );
        let file = json!({ "version": 1, "hooks": { "preToolUse": [
            { "type": "command", "bash": command, "timeoutSec": 3 } ] } });
        std::fs::write(hooks.join("hookgate.json"), file.to_string()).expect("hooks");
        let made = setup.marker(marker);
        run_copilot(
            &copilot,
            &cache,
            &setup,
            &model,
            &format!("RUN: touch {};", made.display()),
        );
        assert_eq!(made.exists(), runs, "deadline {deadline} s, timeoutSec 3 s");
    }
    assert!(
        model_was_told(&model, "could not decide within its deadline (1 s"),
        "the model never saw hookgate's reason: {:?}",
        model.requests()
    );
}

/// What the `subagentStart` hook injects; it reaches the model only through the hook.
const BRIEFING: &str = "BRIEFING-5b1e: sub-agents report in haiku";

/// A private tmux server (its own socket) running one program in a 160x50 pane.
struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    fn start(socket: PathBuf, script: &Path) -> Tmux {
        let tmux = Tmux { socket };
        let out = tmux
            .command()
            .args(["new-session", "-d", "-x", "160", "-y", "50"])
            .arg(script)
            .output()
            .unwrap_or_else(|e| panic!("tmux cannot be run ({e}); scripts/test installs it"));
        assert_eq!(code(&out), 0, "tmux new-session: {}", stderr(&out));
        tmux
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-S").arg(&self.socket).stdin(Stdio::null());
        cmd
    }

    fn screen(&self) -> String {
        let out = self
            .command()
            .args(["capture-pane", "-p", "-J"])
            .output()
            .expect("tmux capture-pane");
        stdout(&out)
    }

    /// The screen once it shows `text`; panics (with the screen) after `within`.
    fn wait_for(&self, text: &str, within: Duration) -> String {
        let deadline = std::time::Instant::now() + within;
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the screen never showed {text:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    fn keys(&self, keys: &[&str]) {
        let out = self
            .command()
            .arg("send-keys")
            .args(keys)
            .output()
            .expect("tmux send-keys");
        assert_eq!(code(&out), 0, "tmux send-keys: {}", stderr(&out));
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").output();
    }
}

/// `s` quoted for sh.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[test]
fn copilot_cli_asks_with_its_own_prompt() {
    let Some((copilot, cache)) = copilot() else {
        return;
    };
    let setup = Setup::new();
    let model = chat_model(None);
    // Project hooks (.github/hooks/hookgate.json), read once the folder is trusted.
    let policy = setup.project().join("HOOKS.yaml");
    setup.init_project("copilot", &["--config", &policy.to_string_lossy()]);
    assert!(
        setup
            .project()
            .join(".github/hooks/hookgate.json")
            .is_file()
    );

    // Prompt mode: nobody can answer Copilot's prompt, so Copilot refuses the call and the
    // model is told why.
    let refused = setup.marker("asked-marker-p");
    let prompt = format!("RUN: touch {};", refused.display());
    run_copilot_with(
        &copilot,
        &cache,
        &setup,
        &model,
        &prompt,
        &["--trust-folder"],
    );
    assert!(
        model
            .requests()
            .iter()
            .any(|r| r.body.contains("asked-marker-p")),
        "copilot never asked the stand-in"
    );
    assert!(!refused.exists(), "an ask ran with nobody to answer it");
    assert!(
        model_was_told(&model, "asked markers need a human"),
        "the model never saw the ask's reason: {:?}",
        model.requests()
    );

    // Interactive, in a terminal: the ask is Copilot's own "Hook permission request" with
    // the policy's reason; answering Yes runs the call.
    let asked = setup.marker("asked-marker");
    let mut probe = Command::new("true");
    copilot_env(&mut probe, &setup, &model, &cache);
    let mut script = String::from("#!/bin/sh\n");
    script.push_str(&format!(
        "cd {}\n",
        sh_quote(&setup.project().to_string_lossy())
    ));
    for (key, value) in probe.get_envs() {
        let key = key.to_string_lossy();
        match value {
            Some(value) => script.push_str(&format!(
                "export {key}={}\n",
                sh_quote(&value.to_string_lossy())
            )),
            None => script.push_str(&format!("unset {key}\n")),
        }
    }
    script.push_str(&format!(
        "exec {} -i {} --allow-all-tools --no-auto-update\n",
        sh_quote(&copilot.to_string_lossy()),
        sh_quote(&format!("RUN: touch {};", asked.display()))
    ));
    let script = setup.dir.write("copilot-interactive.sh", &script);
    let mut mode = std::fs::metadata(&script).expect("script").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut mode, 0o755);
    std::fs::set_permissions(&script, mode).expect("chmod");

    let tmux = Tmux::start(setup.dir.path().join("tmux.sock"), &script);
    let within = Duration::from_secs(90);
    tmux.wait_for("Do you trust the files in this folder?", within);
    tmux.keys(&["Enter"]); // 1. Yes
    let screen = tmux.wait_for("Hook permission request", within);
    assert!(
        screen.contains("asked markers need a human"),
        "the prompt must give the policy's reason:\n{screen}"
    );
    assert!(!asked.exists(), "the call ran before it was answered");
    tmux.keys(&["Enter"]); // 1. Yes
    let deadline = std::time::Instant::now() + within;
    while !asked.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the approved call did not run:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    tmux.keys(&["/exit", "Enter"]);
}
