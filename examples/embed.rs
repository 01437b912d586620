//! Run with: cargo run --example embed
//!
//! A minimal agent loop that embeds hookgate. It loads the repository's `HOOKS.yaml`,
//! compiles it once, then plays a few scripted turns: each prompt is checked at `turn:pre`
//! and each tool call at `turn:tool:pre` before it "runs". Blocked calls are not run; their
//! message goes back to the model instead, the way a gateway would report it.
//!
//! The default policy's audit hook writes one line per tool call to `logs/audit.jsonl`
//! (relative to `HOOKS.yaml`, so in the repository root).

use std::error::Error;
use std::path::Path;
use std::sync::Arc;

use hookgate::{Engine, HookContext, Point, RuleGraph, Verdict, config};
use serde_json::{Map, Value, json};

/// One scripted turn: what the user asked and the tool calls the "model" answers with.
struct Turn {
    prompt: &'static str,
    calls: Vec<(&'static str, Value)>,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    // 1. Load and validate the policy. Every problem comes with file:line:column.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("HOOKS.yaml");
    let policy = match config::load_file(&path) {
        Ok(policy) => policy,
        Err(error) => {
            for diagnostic in error.diagnostics() {
                eprintln!("{diagnostic}");
            }
            return Err(error.into());
        }
    };

    // 2. Compile it into the immutable rule graph and build the engine. The engine is cheap to
    //    clone and can be shared across tasks; a reload would build a new graph and engine.
    let engine = Engine::new(Arc::new(RuleGraph::from_policy(&policy)));
    println!(
        "loaded {} hooks from {}\n",
        policy.document.hooks.len(),
        path.display()
    );

    let session = "agent:main:telegram:123456789";
    let turns = [
        Turn {
            prompt: "What is in this project?",
            calls: vec![("exec", json!({ "command": "ls -la" }))],
        },
        Turn {
            prompt: "Clean up the build output",
            calls: vec![
                ("exec", json!({ "command": "rm -rf target/" })),
                ("exec", json!({ "command": "cargo clean" })),
            ],
        },
        Turn {
            prompt: "Which AWS account am I using?",
            calls: vec![("Read", json!({ "file_path": "/home/me/.aws/credentials" }))],
        },
        Turn {
            prompt: "Publish my branch",
            calls: vec![
                ("Bash", json!({ "command": "git push --force origin main" })),
                (
                    "Bash",
                    json!({ "command": "git push --force-with-lease origin main" }),
                ),
            ],
        },
    ];

    for turn in &turns {
        println!("user: {}", turn.prompt);

        // 3. Before the model sees the prompt.
        let ctx = HookContext::new(session).with_prompt(turn.prompt);
        let decision = engine.evaluate(Point::TurnPre, &ctx).await;
        if decision.decision == Verdict::Block {
            println!(
                "  turn blocked: {}\n",
                decision.message.as_deref().unwrap_or("(no message)")
            );
            continue;
        }

        // 4. Before each tool call.
        for (tool, args) in &turn.calls {
            let ctx = HookContext::new(session)
                .with_prompt(turn.prompt)
                .with_tool(*tool, object(args));
            let decision = engine.evaluate(Point::TurnToolPre, &ctx).await;
            let fired: Vec<&str> = decision.results.iter().map(|r| r.hook.as_str()).collect();
            match decision.decision {
                Verdict::Allow => {
                    println!(
                        "  {tool} {args}: allowed (hooks fired: {})",
                        fired.join(", ")
                    );
                    println!("    ... the gateway runs the tool here");
                }
                Verdict::Block => {
                    println!(
                        "  {tool} {args}: BLOCKED by {}",
                        decision.hook.as_deref().unwrap_or("?")
                    );
                    // The gateway does not run the tool; the model gets the message as the
                    // tool's result and can choose another way.
                    println!(
                        "    -> model: {}",
                        decision.message.as_deref().unwrap_or("(no message)")
                    );
                }
                Verdict::Ask => {
                    // A `require_approval` hook (the default policy's git pack asks before
                    // a force push): a gateway holds the call until a human decides.
                    println!("  {tool} {args}: waiting for approval");
                }
            }
        }
        println!();
    }

    // 5. Wait for the background log writer before exiting, so no audit line is lost.
    engine.flush().await;
    println!(
        "audit lines: {}",
        path.with_file_name("logs").join("audit.jsonl").display()
    );
    Ok(())
}

/// The tool arguments as the JSON object `HookContext` expects (non-objects become `{}`).
fn object(args: &Value) -> Map<String, Value> {
    match args {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    }
}
