//! Evaluation of arbitrary contexts (shell commands above all) against the repository's
//! default policy, with its log hook left out so nothing is written.
#![no_main]

use std::path::Path;
use std::sync::{Arc, OnceLock};

use hookgate::config::{self, YamlBudget};
use hookgate::{Engine, HookContext, Point, RuleGraph};
use libfuzzer_sys::fuzz_target;

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let text = include_str!("../../HOOKS.yaml")
            .replace("action: log", "action: block\n    enabled: false");
        // The repository's path, so its `include:` of policies/self-protection.yaml resolves.
        let origin = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../HOOKS.yaml"));
        let policy = config::load_str_with(&text, origin, &YamlBudget::default())
            .expect("the default policy loads");
        Engine::new(Arc::new(RuleGraph::from_policy(&policy)))
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Either a whole context as JSON, or a shell command for the exec tool.
    let ctx: HookContext = serde_json::from_str(text).unwrap_or_else(|_| {
        serde_json::from_value(serde_json::json!({
            "sessionKey": "agent:main:main",
            "toolName": "exec",
            "toolArgs": {"command": text},
        }))
        .expect("a context")
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let _ = runtime.block_on(engine().evaluate(Point::TurnToolPre, &ctx));
});
