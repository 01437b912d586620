//! Issue 24, item 3: every safer way a pack's message suggests passes the same policy.
//! Guards whose advice is itself denied are a common complaint. A pack opts in by saying so
//! in its header (`tests/pack_advice.rs runs each`): then every command in backticks in a
//! hook's `description` or `onFailure.message` is a suggestion, and it is run through the
//! pack alone and through the default `HOOKS.yaml` (which includes it), as `Bash` in a
//! project directory, and must be allowed by both.

use std::path::Path;

use serde_json::{Value, json};

use crate::util::Dir;

/// The backticked spans of `text`.
fn backticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// `(pack file name, suggestion)` for each pack that opts in.
fn suggestions() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("policies");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("policies/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".yaml") && !n.ends_with(".test.yaml"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let path = dir.join(&name);
        let text = std::fs::read_to_string(&path).expect("pack");
        if !text.contains("tests/pack_advice.rs runs each") {
            continue;
        }
        let pack = hookgate::config::load_file(&path).expect("the pack loads");
        for hook in &pack.document.hooks {
            let message = hook.on_failure.as_ref().and_then(|f| f.message.as_deref());
            let description = match &hook.action {
                hookgate::config::Action::RequireApproval(approval) => {
                    approval.description.as_deref()
                }
                _ => None,
            };
            for text in description.into_iter().chain(message) {
                out.extend(backticked(text).into_iter().map(|s| (name.clone(), s)));
            }
        }
    }
    out
}

/// The decisions of `policy` (relative to `dir`) for `commands`, run as `Bash` in a project.
fn decide(dir: &Dir, policy: &str, commands: &[&str]) -> Vec<Value> {
    let project = dir.path().join("proj");
    std::fs::create_dir_all(project.join(".git")).expect("project");
    let cwd = project.to_str().expect("utf-8 path");
    let lines: Vec<String> = commands
        .iter()
        .map(|c| {
            json!({"sessionKey": "agent:main:main", "toolName": "Bash",
                   "toolArgs": {"command": c}, "cwd": cwd})
            .to_string()
        })
        .collect();
    dir.write("contexts.jsonl", &(lines.join("\n") + "\n"));
    let out = dir
        .hookgate(&[
            "check",
            "--config",
            policy,
            "--point",
            "turn:tool:pre",
            "--contexts",
            "contexts.jsonl",
        ])
        .output()
        .expect("run hookgate check");
    let decisions: Vec<Value> = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("decision JSON"))
        .collect();
    assert_eq!(
        decisions.len(),
        commands.len(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    decisions
}

#[test]
fn every_suggestion_of_a_pack_passes_the_pack_and_the_default_policy() {
    let all = suggestions();
    assert!(
        all.len() >= 30,
        "the packs suggest less than before: {all:?}"
    );
    let dir = Dir::new();
    dir.copy_default_policy();
    let mut denied = Vec::new();
    let packs: std::collections::BTreeSet<&str> = all.iter().map(|(p, _)| p.as_str()).collect();
    for pack in packs {
        let commands: Vec<&str> = all
            .iter()
            .filter(|(p, _)| p == pack)
            .map(|(_, c)| c.as_str())
            .collect();
        for policy in [format!("policies/{pack}"), "HOOKS.yaml".to_owned()] {
            for (command, d) in commands.iter().zip(decide(&dir, &policy, &commands)) {
                if d["decision"] != "allow" {
                    denied.push(format!(
                        "  {pack} suggests {command:?}; {policy} says {} by {}",
                        d["decision"], d["hook"]
                    ));
                }
            }
        }
    }
    assert!(
        denied.is_empty(),
        "advice that is itself stopped:\n{}",
        denied.join("\n")
    );
}

#[test]
fn backticks_are_read_in_pairs() {
    assert_eq!(backticked("run `a b` or `c`, not d"), ["a b", "c"]);
    assert!(backticked("no commands").is_empty());
}

/// The lines of hook `name`'s `commandPattern: |-` block in the YAML file `path`.
fn command_pattern_block(path: &str, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("policy file");
    let start = text
        .find(&format!("- name: {name}\n"))
        .unwrap_or_else(|| panic!("{path} has no hook {name}"));
    text[start..]
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("commandPattern: |-"))
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with("action:"))
        .map(|l| l.trim().to_owned())
        .collect()
}

/// The default policy's copy of the credentials pack's hook for commands that print a
/// stored secret: the pack is not included by default, so its pattern is repeated there.
#[test]
fn the_default_policy_prints_no_stored_secret_the_credentials_pack_stops() {
    let pack = command_pattern_block("policies/credentials.yaml", "credentials-print-commands");
    let default = command_pattern_block("HOOKS.yaml", "no-stored-secrets-printed");
    assert!(pack.len() > 5, "{pack:?}");
    assert_eq!(default, pack);
}
