//! Generated policies and contexts shared by the benches, so every engine (hookgate, Cedar,
//! Rego, the seed plugin's loop) decides the same rules on the same calls.
//!
//! A policy is a list of [`Rule`]s, one per hook. The realistic mix cycles through tool
//! filters, regex command patterns, session patterns, topic ids, sub-agent filters and
//! multi-point hooks; the worst case for the index puts every hook on `exec` with a distinct
//! regex. Two fixed rules end every policy: an audit-mode hook on `git push` (a hit that
//! allows) and a block on `shred` (the last hook, so a block visits every candidate first).

#![allow(dead_code)] // each bench uses part of this module

pub(crate) mod shell_lines;

/// Which policy shape to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mix {
    /// Tool filters, regex command patterns, session patterns, topic ids, multi-point hooks.
    Realistic,
    /// Every hook on `exec` with a distinct command regex: the index cannot help.
    AllExec,
}

impl Mix {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Mix::Realistic => "mix",
            Mix::AllExec => "all-exec",
        }
    }
}

/// One generated hook: every field is a filter that must hold (AND), as in HOOKS.yaml.
#[derive(Debug, Clone)]
pub(crate) struct Rule {
    pub(crate) name: String,
    pub(crate) points: Vec<&'static str>,
    pub(crate) tool: Option<&'static str>,
    /// A regex over the command subject (`toolArgs.command`, `.path`, ... or the prompt).
    pub(crate) command_pattern: Option<String>,
    /// The same condition as a Cedar `like` pattern (Cedar has no regex).
    pub(crate) command_like: Option<String>,
    pub(crate) session_pattern: Option<String>,
    pub(crate) session_like: Option<String>,
    pub(crate) topic_id: Option<u32>,
    pub(crate) is_sub_agent: Option<bool>,
    /// Audit mode: the hook fires and is recorded, but does not block.
    pub(crate) audit: bool,
}

impl Rule {
    fn new(name: String, points: &[&'static str], tool: Option<&'static str>) -> Rule {
        Rule {
            name,
            points: points.to_vec(),
            tool,
            command_pattern: None,
            command_like: None,
            session_pattern: None,
            session_like: None,
            topic_id: None,
            is_sub_agent: None,
            audit: false,
        }
    }

    fn command(mut self, regex: String, like: String) -> Rule {
        self.command_pattern = Some(regex);
        self.command_like = Some(like);
        self
    }

    fn session(mut self, regex: String, like: String) -> Rule {
        self.session_pattern = Some(regex);
        self.session_like = Some(like);
        self
    }
}

const TOOL_PRE: &str = "turn:tool:pre";
const SUB_TOOL_PRE: &str = "subagent:tool:pre";
const TURN_PRE: &str = "turn:pre";
const OTHER_TOOLS: [&str; 4] = ["browser", "message", "Read", "Write"];

/// `n` rules (n ≥ 2): `n - 2` generated ones, then the audit hit and the shred block.
pub(crate) fn rules(n: usize, mix: Mix) -> Vec<Rule> {
    let mut rules: Vec<Rule> = (0..n.saturating_sub(2))
        .map(|i| match mix {
            Mix::Realistic => realistic(i),
            Mix::AllExec => Rule::new(format!("h{i}"), &[TOOL_PRE], Some("exec"))
                .command(format!(r"^cmd{i}\s+--force\b"), format!("cmd{i} --force*")),
        })
        .collect();
    let mut audit = Rule::new("audit-git-push".into(), &[TOOL_PRE], Some("exec"))
        .command(r"^git\s+push\b".into(), "git push*".into());
    audit.audit = true;
    rules.push(audit);
    rules.push(
        Rule::new("shred-guard".into(), &[TOOL_PRE], Some("exec"))
            .command(r"\bshred\s".into(), "*shred *".into()),
    );
    rules
}

fn realistic(i: usize) -> Rule {
    let name = format!("h{i}");
    let other = OTHER_TOOLS[i / 8 % OTHER_TOOLS.len()];
    match i % 8 {
        0 => Rule::new(name, &[TOOL_PRE], Some("exec"))
            .command(format!(r"^cmd{i}\s+--force\b"), format!("cmd{i} --force*")),
        1 => Rule::new(name, &[TOOL_PRE, SUB_TOOL_PRE], Some("exec"))
            .command(format!(r"deploy-{i}\s+prod"), format!("*deploy-{i} prod*")),
        2 => Rule::new(name, &[TOOL_PRE], Some(other))
            .session(format!("^agent:team{i}:"), format!("agent:team{i}:*")),
        3 => Rule::new(name, &[TOOL_PRE], None)
            .command(format!("forbidden-{i}"), format!("*forbidden-{i}*")),
        4 => Rule::new(name, &[TOOL_PRE], Some("Read"))
            .command(format!("^/srv/secret-{i}/"), format!("/srv/secret-{i}/*")),
        5 => {
            let mut rule = Rule::new(name, &[TOOL_PRE, SUB_TOOL_PRE], Some("exec"));
            rule.topic_id = Some(i as u32);
            rule
        }
        6 => Rule::new(name, &[TURN_PRE, TOOL_PRE], None)
            .session(format!("^agent:tenant{i}:"), format!("agent:tenant{i}:*")),
        _ => {
            let mut rule = Rule::new(name, &[SUB_TOOL_PRE, TOOL_PRE], Some("exec")).command(
                format!(r"curl\s+\S*host{i}\.example\.com"),
                format!("*curl *host{i}.example.com*"),
            );
            rule.is_sub_agent = Some(true);
            rule
        }
    }
}

/// The rules as a HOOKS.yaml document.
pub(crate) fn hooks_yaml(rules: &[Rule]) -> String {
    let mut out = String::from("version: \"1\"\nhooks:\n");
    for rule in rules {
        let mut filter = Vec::new();
        if let Some(tool) = rule.tool {
            filter.push(format!("tool: {tool}"));
        }
        if let Some(p) = &rule.command_pattern {
            filter.push(format!("commandPattern: '{p}'"));
        }
        if let Some(p) = &rule.session_pattern {
            filter.push(format!("sessionPattern: '{p}'"));
        }
        if let Some(t) = rule.topic_id {
            filter.push(format!("topicId: {t}"));
        }
        if let Some(s) = rule.is_sub_agent {
            filter.push(format!("isSubAgent: {s}"));
        }
        let mode = if rule.audit { ", mode: audit" } else { "" };
        out.push_str(&format!(
            "  - {{ name: {}, point: [{}], match: {{ {} }}, action: block{mode} }}\n",
            rule.name,
            rule.points.join(", "),
            filter.join(", ")
        ));
    }
    out
}

/// One call to decide, as the gateway would send it.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    /// `miss`, `hit` or `block`.
    pub(crate) name: &'static str,
    pub(crate) point: &'static str,
    pub(crate) session_key: &'static str,
    pub(crate) tool: &'static str,
    pub(crate) command: &'static str,
    /// Whether the policy blocks it (checked by every bench before measuring).
    pub(crate) blocks: bool,
}

/// A call that matches no hook, one that hits the audit hook and is allowed, and one that
/// the last hook blocks.
pub(crate) const CALLS: [Call; 3] = [
    Call {
        name: "miss",
        point: TOOL_PRE,
        session_key: "agent:main:main",
        tool: "exec",
        command: "ls -la /tmp",
        blocks: false,
    },
    Call {
        name: "hit",
        point: TOOL_PRE,
        session_key: "agent:main:main",
        tool: "exec",
        command: "git push origin main",
        blocks: false,
    },
    Call {
        name: "block",
        point: TOOL_PRE,
        session_key: "agent:main:main",
        tool: "exec",
        command: "shred -u secrets.txt",
        blocks: true,
    },
];

impl Call {
    /// The HookContext JSON of this call.
    pub(crate) fn context_json(&self) -> String {
        serde_json::json!({
            "sessionKey": self.session_key,
            "toolName": self.tool,
            "toolArgs": { "command": self.command },
        })
        .to_string()
    }
}

/// Copies the repository's default `HOOKS.yaml` into `dir`, with the packs it includes at the
/// same relative paths (every `policies/*.yaml` but the test files); the policy's path.
pub(crate) fn copy_default_policy(dir: &std::path::Path) -> std::path::PathBuf {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let policy = dir.join("HOOKS.yaml");
    std::fs::copy(repo.join("HOOKS.yaml"), &policy).expect("copy HOOKS.yaml");
    std::fs::create_dir_all(dir.join("policies")).expect("mkdir policies");
    for entry in std::fs::read_dir(repo.join("policies")).expect("policies/") {
        let path = entry.expect("policies/ entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.ends_with(".yaml") && !name.ends_with(".test.yaml") {
            std::fs::copy(&path, dir.join("policies").join(name)).expect("copy a pack");
        }
    }
    policy
}

/// The p50 and p99 of `samples` timed runs of `run`, in nanoseconds. One run per sample, so
/// each figure includes two clock reads (about 40 ns here).
pub(crate) fn quantiles(samples: usize, mut run: impl FnMut()) -> (f64, f64) {
    let mut histogram = hdrhistogram::Histogram::<u64>::new(3).expect("histogram");
    for _ in 0..samples {
        let started = std::time::Instant::now();
        run();
        let _ = histogram.record(started.elapsed().as_nanos() as u64);
    }
    (
        histogram.value_at_quantile(0.50) as f64,
        histogram.value_at_quantile(0.99) as f64,
    )
}
