//! `hookgate list`, `enable` and `disable`: the real binary on real files, and a running
//! daemon that reloads what `disable` wrote.

use serde_json::Value;

use crate::daemon::{Daemon, exec, policy};
use crate::util::{Dir, code, run, stderr, stdout};

const POLICY: &str = "\
version: \"1\"
# Reviewed by security, 2026-11.
hooks:
  - name: audit   # every call
    point: [turn:tool:pre, subagent:tool:pre]
    action: log
    target: audit.jsonl
  - { name: no-rm, point: turn:tool:pre, match: { tool: exec, commandPattern: 'rm\\s' }, action: block }
  - name: quiet
    point: turn:pre
    enabled: false   # off since the incident
    action: block
";

/// The lines removed and added between two texts, in order.
fn changed_lines(old: &str, new: &str) -> (Vec<String>, Vec<String>) {
    let o: Vec<&str> = old.lines().collect();
    let n: Vec<&str> = new.lines().collect();
    (
        o.iter()
            .filter(|l| !n.contains(l))
            .map(|l| l.to_string())
            .collect(),
        n.iter()
            .filter(|l| !o.contains(l))
            .map(|l| l.to_string())
            .collect(),
    )
}

#[test]
fn list_shows_every_hook_with_its_points_action_state_and_source() {
    let dir = Dir::new();
    let path = dir.write("HOOKS.yaml", POLICY);
    let out = run(dir.hookgate(&["list"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("NAME"), "{text}");
    assert!(
        lines[1].contains("audit")
            && lines[1].contains("turn:tool:pre,subagent:tool:pre")
            && lines[1].contains("log")
            && lines[1].contains("yes"),
        "{text}"
    );
    assert!(
        lines[3].contains("quiet") && lines[3].contains(" no "),
        "{text}"
    );

    let out = run(dir.hookgate(&["list", "--format", "json"]));
    let hooks: Vec<Value> = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(hooks.len(), 3);
    assert_eq!(hooks[1]["name"], "no-rm");
    assert_eq!(hooks[1]["action"], "block");
    assert_eq!(hooks[2]["enabled"], false);
    let source = hooks[0]["source"].as_str().expect("source");
    assert_eq!(std::path::Path::new(source).file_name(), path.file_name());
}

#[test]
fn disable_and_enable_touch_only_the_enabled_line() {
    let dir = Dir::new();
    let path = dir.write("HOOKS.yaml", POLICY);

    // A block hook without `enabled`: one line added, at the hook's indentation.
    let out = run(dir.hookgate(&["disable", "audit"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("disabled `audit`"),
        "{}",
        stdout(&out)
    );
    let after = std::fs::read_to_string(&path).expect("read");
    assert_eq!(
        changed_lines(POLICY, &after),
        (vec![], vec!["    enabled: false".to_owned()])
    );
    assert!(after.contains("# Reviewed by security") && after.contains("# every call"));

    // An existing `enabled`: the value changes, its comment stays.
    let out = run(dir.hookgate(&["enable", "quiet"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let again = std::fs::read_to_string(&path).expect("read");
    assert_eq!(
        changed_lines(&after, &again),
        (
            vec!["    enabled: false   # off since the incident".to_owned()],
            vec!["    enabled: true   # off since the incident".to_owned()]
        )
    );

    // A flow mapping: the key goes inside its braces.
    let out = run(dir.hookgate(&["disable", "no-rm"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let flow = std::fs::read_to_string(&path).expect("read");
    let (removed, added) = changed_lines(&again, &flow);
    assert_eq!(removed.len(), 1);
    assert!(
        added[0].starts_with("  - { enabled: false, name: no-rm,"),
        "{added:?}"
    );

    // The result is a valid policy that says so.
    let out = run(dir.hookgate(&["list", "--format", "json"]));
    let hooks: Vec<Value> = serde_json::from_str(&stdout(&out)).expect("json");
    let states: Vec<&Value> = hooks.iter().map(|h| &h["enabled"]).collect();
    assert_eq!(
        states,
        [&Value::Bool(false), &Value::Bool(false), &Value::Bool(true)]
    );
}

#[test]
fn unknown_names_and_broken_policies_are_refused_and_the_file_left_alone() {
    let dir = Dir::new();
    let path = dir.write("HOOKS.yaml", POLICY);
    let out = run(dir.hookgate(&["disable", "no-rn"]));
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("did you mean `no-rm`"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&path).expect("read"), POLICY);

    let broken = POLICY.replace("action: log", "action: lgo");
    dir.write("HOOKS.yaml", &broken);
    let out = run(dir.hookgate(&["disable", "audit"]));
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("lgo"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&path).expect("read"), broken);

    // Already in the state asked for: nothing written, exit 0.
    dir.write("HOOKS.yaml", POLICY);
    let out = run(dir.hookgate(&["disable", "quiet"]));
    assert_eq!(code(&out), 0);
    assert!(
        stdout(&out).contains("already disabled"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_running_daemon_switches_hooks_only_for_the_admin_role() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", &policy("blocked by rm-guard"));
    let mut cmd = Daemon::command(&dir, &[]);
    cmd.env("HOOKGATE_ADMIN_TOKEN", "admin-secret");
    let daemon = Daemon::spawn(cmd);
    let url = daemon.url("");
    let blocks = || daemon.decide(&exec("rm -rf /tmp/x"))["decision"] == "block";
    assert!(blocks());
    let switch = |verb: &str, extra: &[&str], admin: Option<&str>| {
        let mut args = vec![verb, "rm-guard", "--config", "HOOKS.yaml"];
        args.extend_from_slice(extra);
        let mut cmd = dir.hookgate(&args);
        cmd.env_remove("HOOKGATE_URL")
            .env_remove("HOOKGATE_ADMIN_TOKEN");
        if let Some(token) = admin {
            cmd.env("HOOKGATE_ADMIN_TOKEN", token);
        }
        run(cmd)
    };
    let untouched = std::fs::read_to_string(dir.path().join("HOOKS.yaml")).expect("read");

    // The daemon holds the policy: the CLI goes to it, never to the file, and without the
    // admin token (the agent's position) it is refused with the role named.
    for (extra, token) in [
        (vec!["--url", url.as_str()], None),
        (vec!["--url", url.as_str()], Some("wrong")),
    ] {
        let out = switch("disable", &extra, token);
        assert_eq!(code(&out), 1, "{}", stdout(&out));
        assert!(stderr(&out).contains("admin"), "{}", stderr(&out));
    }
    // Without --url it asks the default address, never the file.
    let out = switch("disable", &[], None);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("HOOKS.yaml")).expect("read"),
        untouched
    );
    assert!(blocks(), "still in force");

    let out = switch("disable", &["--url", &url], Some("admin-secret"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("disabled `rm-guard`"),
        "{}",
        stdout(&out)
    );
    // The daemon reloaded before it answered.
    assert_eq!(daemon.decide(&exec("rm -rf /tmp/x"))["decision"], "allow");

    let out = switch("enable", &["--url", &url], Some("admin-secret"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(blocks());
}
