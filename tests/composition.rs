//! `include:` and `discover:`: policies composed from several files, on real files with the
//! real binary, and a running daemon that follows the files it was composed from.

use serde_json::{Value, json};

use crate::daemon::{Daemon, exec};
use crate::util::{Dir, code, run, stderr, stdout};

/// A pack: one named block hook for `exec` commands matching `pattern`.
fn pack(name: &str, pattern: &str) -> String {
    format!(
        "version: \"1\"\nhooks:\n  - name: {name}\n    point: turn:tool:pre\n    match: {{ tool: exec, commandPattern: \"{pattern}\" }}\n    onFailure: {{ action: block, message: \"blocked by {name}\" }}\n    action: block\n"
    )
}

/// `hookgate check` of an exec command: (exit code, decision JSON).
fn check(dir: &Dir, command: &str) -> (i32, Value) {
    let arg = format!("command={command}");
    let out = run(dir.hookgate(&[
        "check",
        "--point",
        "turn:tool:pre",
        "--tool",
        "exec",
        "--arg",
        &arg,
        "--format",
        "json",
    ]));
    let decision = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("no decision ({e}): {}", stderr(&out)));
    (code(&out), decision)
}

/// `hookgate validate --format json`: (exit code, diagnostics).
fn validate(dir: &Dir) -> (i32, Vec<Value>) {
    let out = run(dir.hookgate(&["validate", "--format", "json"]));
    let diagnostics: Vec<Value> = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}{}", stdout(&out), stderr(&out)));
    (code(&out), diagnostics)
}

fn list(dir: &Dir) -> Vec<Value> {
    let out = run(dir.hookgate(&["list", "--format", "json"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("list JSON")
}

#[test]
fn included_hooks_run_after_the_root_s_and_remember_their_file() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\ninclude: [packs/rm.yaml, packs/dd.yaml]\nhooks:\n  - name: root-curl\n    point: turn:tool:pre\n    match: { tool: exec, commandPattern: curl }\n    action: block\n",
    );
    // Paths are relative to the including file: packs/dd.yaml includes ./nested/mkfs.yaml.
    dir.write("packs/rm.yaml", &pack("rm-pack", "rm -rf"));
    dir.write(
        "packs/dd.yaml",
        &pack("dd-pack", "dd if=").replace("hooks:", "include: [nested/mkfs.yaml]\nhooks:"),
    );
    dir.write("packs/nested/mkfs.yaml", &pack("mkfs-pack", "mkfs"));

    let (status, decision) = check(&dir, "rm -rf /");
    assert_eq!(status, 2);
    assert_eq!(decision["hook"], "rm-pack");
    assert_eq!(decision["message"], "blocked by rm-pack");
    assert_eq!(check(&dir, "mkfs.ext4 /dev/sda").1["hook"], "mkfs-pack");
    assert_eq!(check(&dir, "ls").0, 0);

    let hooks = list(&dir);
    let names: Vec<&str> = hooks.iter().filter_map(|h| h["name"].as_str()).collect();
    assert_eq!(names, ["root-curl", "rm-pack", "dd-pack", "mkfs-pack"]);
    let source = |i: usize| hooks[i]["source"].as_str().unwrap_or_default().to_owned();
    assert!(source(0).ends_with("HOOKS.yaml"), "{}", source(0));
    assert!(source(1).ends_with("packs/rm.yaml"), "{}", source(1));
    assert!(
        source(3).ends_with("packs/nested/mkfs.yaml"),
        "{}",
        source(3)
    );

    let out = run(dir.hookgate(&["validate"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("4 hooks from 4 files"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn an_error_in_an_included_file_points_into_that_file() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\ninclude: [packs/bad.yaml]\nhooks: []\n",
    );
    dir.write(
        "packs/bad.yaml",
        "version: \"1\"\nhooks:\n  - name: bad\n    point: turn:tool:pre\n    action: blok\n",
    );
    let (status, diagnostics) = validate(&dir);
    assert_eq!(status, 1);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert!(
        d["file"]
            .as_str()
            .unwrap_or_default()
            .ends_with("packs/bad.yaml"),
        "{d}"
    );
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(5), Some(13))
    );
    assert!(
        d["message"].as_str().unwrap_or_default().contains("blok"),
        "{d}"
    );

    // The text report shows the included file's snippet.
    let out = run(dir.hookgate(&["validate"]));
    assert!(
        stderr(&out).contains("packs/bad.yaml:5:13"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("action: blok"), "{}", stderr(&out));
}

#[test]
fn a_missing_include_and_an_include_cycle_point_at_the_include_entry() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\nhooks: []\ninclude:\n  - packs/a.yaml\n  - packs/missing.yaml\n",
    );
    dir.write("packs/a.yaml", "version: \"1\"\nhooks: []\n");
    let (status, diagnostics) = validate(&dir);
    assert_eq!(status, 1);
    let d = &diagnostics[0];
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(5), Some(5))
    );
    assert_eq!(d["path"], "include[1]");
    assert!(
        d["message"]
            .as_str()
            .unwrap_or_default()
            .contains("packs/missing.yaml"),
        "{d}"
    );

    // a.yaml -> b.yaml -> a.yaml: reported where b.yaml names a.yaml again.
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\nhooks: []\ninclude: [packs/a.yaml]\n",
    );
    dir.write(
        "packs/a.yaml",
        "version: \"1\"\nhooks: []\ninclude: [b.yaml]\n",
    );
    dir.write(
        "packs/b.yaml",
        "version: \"1\"\nhooks:\n  - { name: b, point: turn:pre, action: log }\ninclude:\n  - ./a.yaml\n",
    );
    let (status, diagnostics) = validate(&dir);
    assert_eq!(status, 1);
    let d = &diagnostics[0];
    assert!(
        d["file"]
            .as_str()
            .unwrap_or_default()
            .ends_with("packs/b.yaml"),
        "{d}"
    );
    assert_eq!(d["line"], 5);
    let message = d["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("include cycle: "), "{message}");
    assert!(
        message.contains("a.yaml -> ") && message.contains("b.yaml -> "),
        "{message}"
    );

    // A file including itself is the shortest cycle.
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\nhooks: []\ninclude: [HOOKS.yaml]\n",
    );
    let (status, diagnostics) = validate(&dir);
    assert_eq!(status, 1);
    assert_eq!(diagnostics[0]["line"], 3);
}

#[test]
fn a_file_included_twice_brings_its_hooks_once() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\nhooks: []\ninclude: [a.yaml, b.yaml]\n",
    );
    dir.write(
        "a.yaml",
        "version: \"1\"\nhooks: []\ninclude: [base.yaml]\n",
    );
    dir.write(
        "b.yaml",
        "version: \"1\"\nhooks: []\ninclude: [base.yaml]\n",
    );
    dir.write("base.yaml", &pack("base", "rm"));
    let hooks = list(&dir);
    assert_eq!(hooks.len(), 1, "{hooks:?}");
}

#[test]
fn names_are_unique_across_included_files() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\ninclude: [packs/rm.yaml]\nhooks:\n  - name: rm-pack\n    point: turn:pre\n    action: log\n",
    );
    dir.write("packs/rm.yaml", &pack("rm-pack", "rm"));
    let (status, diagnostics) = validate(&dir);
    assert_eq!(status, 1);
    let d = &diagnostics[0];
    assert!(
        d["file"]
            .as_str()
            .unwrap_or_default()
            .ends_with("packs/rm.yaml"),
        "{d}"
    );
    assert_eq!(
        (d["line"].as_u64(), d["path"].as_str()),
        (Some(3), Some("hooks[0].name"))
    );
    assert!(
        d["help"].as_str().unwrap_or_default().contains("line 4"),
        "{d}"
    );
}

#[test]
fn only_the_root_s_defaults_apply_and_unnamed_included_hooks_name_their_file() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\ndefaults: { mode: enforce }\ninclude: [packs/p.yaml]\nhooks: []\n",
    );
    // The pack would put its hooks in audit mode; the root's defaults win.
    dir.write(
        "packs/p.yaml",
        "version: \"1\"\ndefaults:\n  mode: audit\nhooks:\n  - point: turn:tool:pre\n    match: { tool: exec, commandPattern: rm }\n    action: block\n",
    );
    let (status, decision) = check(&dir, "rm x");
    assert_eq!(status, 2, "{decision}");
    assert_eq!(decision["hook"], "packs/p.yaml:hooks[0]");

    let (status, diagnostics) = validate(&dir);
    assert_eq!(status, 0);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["kind"], "composition");
    assert_eq!(diagnostics[0]["line"], 3);
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("only the root file's `defaults` apply"),
        "{diagnostics:?}"
    );
}

#[test]
fn relative_paths_resolve_beside_the_included_file() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\ninclude: [packs/audit.yaml]\nhooks: []\n",
    );
    dir.write(
        "packs/audit.yaml",
        "version: \"1\"\nhooks:\n  - name: audit\n    point: turn:tool:pre\n    action: log\n    target: logs/audit.jsonl\n",
    );
    assert_eq!(check(&dir, "ls").0, 0);
    let line = std::fs::read_to_string(dir.path().join("packs/logs/audit.jsonl"))
        .expect("the log is written beside the pack");
    assert!(line.contains("\"ls\""), "{line}");
    assert!(!dir.path().join("logs").exists());
}

#[test]
fn disable_edits_the_file_the_hook_is_written_in() {
    let dir = Dir::new();
    let root_text = "version: \"1\"\ninclude: [packs/rm.yaml]\nhooks: []\n";
    let root = dir.write("HOOKS.yaml", root_text);
    let pack_path = dir.write("packs/rm.yaml", &pack("rm-pack", "rm"));
    let out = run(dir.hookgate(&["disable", "rm-pack"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("packs/rm.yaml"), "{}", stdout(&out));
    assert_eq!(std::fs::read_to_string(&root).expect("root"), root_text);
    let edited = std::fs::read_to_string(&pack_path).expect("pack");
    assert_eq!(
        edited,
        pack("rm-pack", "rm").replace("    point:", "    enabled: false\n    point:")
    );
    assert_eq!(check(&dir, "rm x").0, 0);
}

/// A workspace: the root opts in to discovery; projects bring their own HOOKS.yaml.
fn workspace() -> Dir {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\ndiscover: true\nhooks:\n  - name: root-rm\n    point: turn:tool:pre\n    match: { tool: exec, commandPattern: \"rm -rf\" }\n    action: block\n",
    );
    dir.write("proj/api/HOOKS.yaml", &pack("api-curl", "curl"));
    // Depth 4 is found; depth 5 and skipped directories are not.
    dir.write("a/b/c/d/HOOKS.yaml", &pack("deep-4", "deep4"));
    dir.write("a/b/c/d/e/HOOKS.yaml", &pack("deep-5", "deep5"));
    dir.write("node_modules/x/HOOKS.yaml", &pack("in-node-modules", "nm"));
    dir.write(".git/HOOKS.yaml", &pack("in-git", "git"));
    dir.write("web/dist/HOOKS.yaml", &pack("in-dist", "dist"));
    dir
}

#[test]
fn discovery_finds_workspace_policies_to_depth_four_skipping_vendored_directories() {
    let dir = workspace();
    let hooks = list(&dir);
    let names: Vec<&str> = hooks.iter().filter_map(|h| h["name"].as_str()).collect();
    // The root's hooks first, then discovered files in path order.
    assert_eq!(names, ["root-rm", "deep-4", "api-curl"]);
    assert_eq!(check(&dir, "curl https://x").1["hook"], "api-curl");
    let (status, diagnostics) = validate(&dir);
    assert_eq!((status, diagnostics.len()), (0, 0), "{diagnostics:?}");
}

#[test]
fn discovery_skips_an_invalid_file_with_a_warning_and_reports_conflicts() {
    let dir = workspace();
    dir.write(
        "proj/broken/HOOKS.yaml",
        "version: \"1\"\nhooks:\n  - name: broken\n    point: turn:tol:pre\n    action: block\n",
    );
    // A name the root already uses, and a hook identical in point and match to the root's.
    dir.write(
        "proj/clash/HOOKS.yaml",
        "version: \"1\"\nhooks:\n  - name: api-curl\n    point: turn:pre\n    action: log\n  - name: copy-of-root\n    point: [turn:tool:pre, turn:pre]\n    match: { commandPattern: \"rm -rf\", tool: exec }\n    action: log\n",
    );
    let (status, diagnostics) = validate(&dir);
    assert_eq!(
        status, 0,
        "a discovered file never fails the root: {diagnostics:?}"
    );
    let find = |file: &str, needle: &str| {
        diagnostics
            .iter()
            .find(|d| {
                d["file"].as_str().unwrap_or_default().ends_with(file)
                    && d["message"].as_str().unwrap_or_default().contains(needle)
            })
            .unwrap_or_else(|| panic!("no `{needle}` warning in {file}: {diagnostics:?}"))
            .clone()
    };
    let skipped = find("proj/broken/HOOKS.yaml", "skipped");
    assert_eq!(
        (skipped["line"].as_u64(), skipped["column"].as_u64()),
        (Some(4), Some(12))
    );
    let duplicate = find("proj/clash/HOOKS.yaml", "duplicate hook name `api-curl`");
    assert_eq!(duplicate["line"], 3);
    let overlap = find("proj/clash/HOOKS.yaml", "overlaps `root-rm`");
    assert_eq!(overlap["line"], 6);
    assert_eq!(diagnostics.len(), 3, "{diagnostics:?}");

    let names: Vec<String> = list(&dir)
        .iter()
        .filter_map(|h| h["name"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(names, ["root-rm", "deep-4", "api-curl", "copy-of-root"]);

    // The text report shows each warning with its snippet and still says valid.
    let out = run(dir.hookgate(&["validate"]));
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("3 warnings"), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("proj/clash/HOOKS.yaml:6:5"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_invalid_root_fails_even_with_discovery() {
    let dir = workspace();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\ndiscover: true\nhooks:\n  - point: nope\n    action: block\n",
    );
    let (status, diagnostics) = validate(&dir);
    assert_eq!(status, 1);
    assert_eq!(diagnostics[0]["line"], 4);
}

#[test]
fn a_running_daemon_follows_included_and_discovered_files() {
    let dir = Dir::new();
    dir.write(
        "HOOKS.yaml",
        "version: \"1\"\ninclude: [packs/rm.yaml]\ndiscover: { root: projects }\nhooks: []\n",
    );
    dir.write("packs/rm.yaml", &pack("rm-pack", "rm -rf"));
    std::fs::create_dir_all(dir.path().join("projects")).expect("mkdir");
    let daemon = Daemon::start(&dir, &[]);
    assert_eq!(daemon.decide(&exec("rm -rf /tmp/x"))["hook"], "rm-pack");
    let files = daemon.status()["files"].clone();
    assert_eq!(files.as_array().map(Vec::len), Some(2), "{files}");
    assert_eq!(files[1]["role"], "included");

    // An edit to the included file is picked up.
    dir.write(
        "packs/rm.yaml",
        &pack("rm-pack", "rm -rf").replace("blocked by", "stopped by"),
    );
    daemon.wait_for(
        || daemon.decide(&exec("rm -rf /tmp/x"))["message"] == "stopped by rm-pack",
        "the daemon to reload the included file",
    );

    // A project appearing in the workspace (a new directory, then its policy) is picked up.
    dir.write("projects/new/HOOKS.yaml", &pack("new-project", "curl"));
    daemon.wait_for(
        || daemon.decide(&exec("curl x"))["hook"] == "new-project",
        "the daemon to discover the new project's policy",
    );

    // A broken include keeps the last good policy in force, and is reported.
    dir.write(
        "packs/rm.yaml",
        "version: \"1\"\nhooks:\n  - point: turn:tol:pre\n    action: block\n",
    );
    daemon.wait_for(
        || daemon.status()["healthy"] == false,
        "the daemon to report the broken include",
    );
    let error = daemon.status()["lastError"]["error"].clone();
    assert!(
        error["diagnostics"][0]["file"]
            .as_str()
            .unwrap_or_default()
            .ends_with("packs/rm.yaml"),
        "{error}"
    );
    assert_eq!(error["diagnostics"][0]["line"], 3);
    assert_eq!(daemon.decide(&exec("rm -rf /tmp/x"))["hook"], "rm-pack");
    assert_eq!(
        daemon.decide(&json!({"point": "turn:pre", "context": {"sessionKey": "s"}}))["decision"],
        "allow"
    );
}

/// The names (for unnamed hooks, the ids) of the hooks `hookgate list --config <config>`
/// shows in `dir`.
fn hook_ids(dir: &Dir, config: &str) -> Vec<String> {
    let out = run(dir.hookgate(&["list", "--config", config, "--format", "json"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let hooks: Vec<Value> = serde_json::from_str(&stdout(&out)).expect("list JSON");
    hooks
        .iter()
        .map(|h| h["name"].as_str().expect("name").to_owned())
        .collect()
}

#[test]
fn a_relative_config_discovers_from_the_working_directory() {
    let dir = Dir::new();
    dir.write("HOOKS.yaml", "version: \"1\"\ndiscover: true\nhooks: []\n");
    dir.write(
        "proj/HOOKS.yaml",
        "version: \"1\"\nhooks:\n  - point: turn:tool:pre\n    action: block\n",
    );
    let out = run(dir.hookgate(&["validate", "--config", "HOOKS.yaml"]));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1 hook from 2 files"),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(!stderr(&out).contains("cannot scan"), "{}", stderr(&out));
    // Found files are named the same whichever way the root was named.
    let absolute = dir.path().join("HOOKS.yaml");
    let relative_ids = hook_ids(&dir, "HOOKS.yaml");
    assert_eq!(relative_ids, ["proj/HOOKS.yaml:hooks[0]"]);
    assert_eq!(
        relative_ids,
        hook_ids(&dir, absolute.to_str().expect("UTF-8 path"))
    );
}
