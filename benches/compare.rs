//! Run with: cargo bench --bench compare
//!
//! The same decisions, side by side in one run, by hookgate and by two general-purpose policy
//! engines written in Rust, each given the equivalent of the same generated HOOKS.yaml
//! (`support::rules(n, Mix::Realistic)`, n = 100, 1,000 and 10,000 hooks) and asked about the
//! same three calls (`support::CALLS`: one that misses every hook, one that hits the audit hook
//! and is allowed, one that the last hook blocks). What each engine is given:
//!
//! - `hookgate`: the policy as HOOKS.yaml, loaded with `config::load_str` and compiled with
//!   `RuleGraph::from_policy`; a decision is `Engine::evaluate(point, &ctx)` on a
//!   current-thread tokio runtime.
//! - `cedar` (cedar-policy): one `forbid` per blocking hook, one `permit` annotated
//!   `@mode("audit")` per audit hook (evaluated, and listed in the response's reasons when it
//!   holds, but unable to turn a decision into a block), and a `permit(principal, action,
//!   resource);` baseline; `Authorizer::is_authorized` with an empty entity store. The call's
//!   point, tool, command and sessionKey go into the request context. Cedar has no regular
//!   expressions, so command and session patterns become `like` patterns (`Rule::command_like`,
//!   `Rule::session_like`). These are NOT equivalent in general: no `\s+`, no `\b`, no anchors
//!   (`^cmd3\s+--force\b` becomes `cmd3 --force*`); they agree on the calls benched here, which is
//!   checked before anything is timed. `isSubAgent` is `context.sessionKey like "*:subagent:*"`.
//! - `rego-rules` (regorus): one `deny contains "<hook>" if { ... }` rule per blocking hook and
//!   `audit contains ...` per audit hook, the hooks' regexes in `regex.match` (as Rego raw
//!   strings, so backslashes stay as they are), spread over files of 1,000 rules (regorus
//!   refuses files over 1 MB). A decision is `Engine::set_input` then `Engine::eval_rule` of
//!   `data.hooks.decision` (`{"deny": deny, "audit": audit}`) on the tree-walking interpreter.
//! - `rego-rules-rvm`: the same policy compiled to regorus's bytecode VM, `RegoVM::set_input`
//!   then `execute`. Not at 10,000 hooks: an RVM program holds at most 65,535 instructions.
//! - `rego-data-rvm`: the hooks as a `data` document and one generic rule over them
//!   (`some r in data.rules; r.points[input.point]; not mismatch(r)`), on the VM.
//! - `seed-js (port)`, when `node` is on PATH: `benches/seed-engine/engine.mjs`, a port of the
//!   evaluation loop described in the seed document (the OpenClaw plugin's contributor guide),
//!   NOT the plugin's own code, timed by `benches/seed-engine/run.mjs` in a node process.
//!
//! In the Cedar and Rego rules, exact tests (point, tool, topicId, isSubAgent) come before
//! patterns, as an author would write them; the seed port keeps the seed's order (tool,
//! command, topic, sub-agent, session). Both Rego variants enable regorus's regex cache, sized
//! to hold every pattern of the policy (its default of 256 entries would thrash at 1,000 hooks
//! and recompile regexes on every call).
//!
//! Outside the timed loop: parsing and compiling each policy (HOOKS.yaml load and rule graph,
//! `PolicySet::from_str`, Rego parsing and RVM compilation, the `data` document), the tokio
//! runtime, Cedar's entity uids and empty entity store. Inside, per decision: building the
//! engine's request from the call's fields (hookgate: the `Point` and a `HookContext`; Cedar: a
//! `Context` and a `Request`; Rego: the `input` object, set with `set_input`), evaluating, and
//! reading block/audit out of the answer. The Cedar and Rego requests carry the command
//! already extracted from `toolArgs.command`; hookgate and the seed port extract it themselves.
//!
//! Before anything is timed, every engine's answer for every call and n is checked against
//! the policy's (`Call::blocks`, and the audit hook firing on `hit` only), so all engines do
//! the same work. Then criterion measures each engine/call/n (group `compare`, ids
//! `{engine}/{call}/{n}`; estimates in target/criterion), and a plain table of per-decision
//! p50/p99 from our own loop (one `hdrhistogram` sample per decision) is printed with the
//! ratio of each engine's p50 to hookgate's. `HOOKGATE_COMPARE_TABLE_ONLY=1` skips criterion;
//! `HOOKGATE_COMPARE_SIZES=100,1000` picks the policy sizes.

#[path = "support/shipped_allocator.rs"]
mod shipped_allocator;
mod support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cedar_policy::{
    Authorizer, Context, Entities, EntityUid, PolicyId, PolicySet, Request, RestrictedExpression,
};
use criterion::{BenchmarkId, Criterion, SamplingMode};
use hdrhistogram::Histogram;
use hookgate::{HookContext, Point, RuleGraph, Verdict, config};
use regorus::languages::rego::compiler::Compiler;
use regorus::rvm::RegoVM;
use support::{CALLS, Call, Mix, Rule};

const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// Criterion's time per benchmark; slow engines get fewer, flat samples to fit in it (10
/// samples at least, so the slowest, tens of milliseconds a decision, overrun it a little).
const CRITERION_WARM_UP: Duration = Duration::from_secs(1);
const CRITERION_MEASUREMENT: Duration = Duration::from_secs(2);

/// The table's own loop: about this much time per engine/call/n, within the iteration bounds.
const TABLE_BUDGET: Duration = Duration::from_secs(1);
const TABLE_MIN_ITERATIONS: u64 = 100;
const TABLE_MAX_ITERATIONS: u64 = 2_000;

const SEED_LABEL: &str = "seed-js (port)";

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and then criterion runs
    // each benchmark once as a test, and the table (which only makes sense timed) is skipped.
    let timed = std::env::args().any(|arg| arg == "--bench");
    let started = Instant::now();

    check_hook_contexts();
    let mut fixtures: Vec<Fixture> = sizes().into_iter().map(Fixture::new).collect();
    for fixture in &mut fixtures {
        fixture.verify();
    }

    if std::env::var_os("HOOKGATE_COMPARE_TABLE_ONLY").is_none() {
        let mut criterion = Criterion::default().configure_from_args();
        criterion_benches(&mut criterion, &mut fixtures);
        criterion.final_summary();
    }

    if timed {
        let mut rows = measure_all(&mut fixtures);
        for fixture in &fixtures {
            for (label, why) in &fixture.skipped {
                println!("{label} n={}: skipped ({why})", fixture.n);
            }
        }
        match seed_js(&fixtures) {
            Ok(seed_rows) => rows.extend(seed_rows),
            Err(why) => println!("\n{SEED_LABEL}: skipped ({why})"),
        }
        print_table(&rows);
        println!("\ncompare: finished in {:.0?}", started.elapsed());
    }
}

/// `SIZES`, or the comma-separated list in `HOOKGATE_COMPARE_SIZES` (e.g. `100,1000`).
fn sizes() -> Vec<usize> {
    match std::env::var("HOOKGATE_COMPARE_SIZES") {
        Ok(list) => list
            .split(',')
            .map(|n| {
                n.trim()
                    .parse()
                    .expect("HOOKGATE_COMPARE_SIZES: numbers ≥ 2")
            })
            .collect(),
        Err(_) => SIZES.to_vec(),
    }
}

/// What every engine can say about a call: whether it blocks it, and whether the audit hook
/// fired (hookgate and the seed record audit hits; Cedar and Rego are given a rule for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outcome {
    blocked: bool,
    audited: bool,
}

impl Outcome {
    /// What the generated policy decides: the audit hook is on `git push`, which only `hit` runs.
    fn expected(call: &Call) -> Outcome {
        Outcome {
            blocked: call.blocks,
            audited: call.name == "hit",
        }
    }
}

/// One engine loaded with one policy; `decide` is the unit of work that is timed.
trait Gate {
    fn label(&self) -> &'static str;

    /// Builds the engine's request from the call, evaluates it, and reads the outcome.
    fn decide(&mut self, call: &Call) -> Result<Outcome, String>;
}

/// Every engine, loaded with the policy of `n` hooks.
struct Fixture {
    n: usize,
    rules: Vec<Rule>,
    gates: Vec<Box<dyn Gate>>,
    /// Engines that could not take this policy, and why.
    skipped: Vec<(&'static str, String)>,
}

impl Fixture {
    fn new(n: usize) -> Fixture {
        let rules = support::rules(n, Mix::Realistic);
        let mut gates: Vec<Box<dyn Gate>> = vec![
            Box::new(HookgateGate::new(&rules)),
            Box::new(CedarGate::new(&rules)),
            Box::new(RegoInterpGate {
                label: "rego-rules",
                engine: rego_rules_engine(&rules),
            }),
        ];
        let mut skipped = Vec::new();
        let (data_engine, data) = rego_data_engine(&rules);
        let vm_gates = [
            (
                "rego-rules-rvm",
                rego_rules_engine(&rules),
                regorus::Value::new_object(),
            ),
            ("rego-data-rvm", data_engine, data),
        ];
        for (label, engine, data) in vm_gates {
            match RegoVmGate::new(label, engine, data) {
                Ok(gate) => gates.push(Box::new(gate)),
                Err(why) => skipped.push((label, why)),
            }
        }
        Fixture {
            n,
            rules,
            gates,
            skipped,
        }
    }

    /// Panics unless every engine decides every call as the policy does.
    fn verify(&mut self) {
        for gate in &mut self.gates {
            for call in &CALLS {
                let got = gate
                    .decide(call)
                    .unwrap_or_else(|e| panic!("{} n={} {}: {e}", gate.label(), self.n, call.name));
                assert_eq!(
                    got,
                    Outcome::expected(call),
                    "{} n={} {}: decision differs from the policy's",
                    gate.label(),
                    self.n,
                    call.name
                );
            }
        }
    }
}

// --- hookgate ------------------------------------------------------------------------------

struct HookgateGate {
    engine: hookgate::Engine,
    runtime: tokio::runtime::Runtime,
}

impl HookgateGate {
    fn new(rules: &[Rule]) -> HookgateGate {
        let yaml = support::hooks_yaml(rules);
        let loaded =
            config::load_str(&yaml, Path::new("bench.yaml")).expect("generated HOOKS.yaml loads");
        let graph = RuleGraph::from_policy(&loaded);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("tokio runtime");
        HookgateGate {
            engine: hookgate::Engine::new(Arc::new(graph)),
            runtime,
        }
    }
}

/// The context the gateway sends for `call` (the same value as parsing `call.context_json()`,
/// which `check_hook_contexts` checks), built from its fields.
fn hook_context(call: &Call) -> HookContext {
    let mut args = serde_json::Map::new();
    args.insert("command".to_owned(), call.command.into());
    HookContext::new(call.session_key).with_tool(call.tool, args)
}

impl Gate for HookgateGate {
    fn label(&self) -> &'static str {
        "hookgate"
    }

    fn decide(&mut self, call: &Call) -> Result<Outcome, String> {
        let point = Point::from_name(call.point).ok_or("unknown point")?;
        let ctx = hook_context(call);
        let decision = self.runtime.block_on(self.engine.evaluate(point, &ctx));
        let blocked = decision.decision == Verdict::Block;
        if decision.passed == blocked {
            return Err(format!(
                "passed={} with {:?}",
                decision.passed, decision.decision
            ));
        }
        Ok(Outcome {
            blocked,
            audited: decision.results.iter().any(|result| result.audit),
        })
    }
}

// --- Cedar ---------------------------------------------------------------------------------

struct CedarGate {
    authorizer: Authorizer,
    policies: PolicySet,
    entities: Entities,
    principal: EntityUid,
    action: EntityUid,
    resource: EntityUid,
    /// The audit hooks' policies, to tell from the response's reasons that one fired.
    audit_ids: Vec<PolicyId>,
}

impl CedarGate {
    fn new(rules: &[Rule]) -> CedarGate {
        let text = cedar_policies(rules);
        let policies = PolicySet::from_str(&text).expect("generated Cedar policies parse");
        let audit_ids = policies
            .policies()
            .filter(|policy| policy.annotation("mode") == Some("audit"))
            .map(|policy| policy.id().clone())
            .collect();
        let uid = |text: &str| EntityUid::from_str(text).expect("entity uid parses");
        CedarGate {
            authorizer: Authorizer::new(),
            policies,
            entities: Entities::empty(),
            principal: uid(r#"Gateway::"bench""#),
            action: uid(r#"Action::"decide""#),
            resource: uid(r#"Call::"call""#),
            audit_ids,
        }
    }
}

/// The policy set: a baseline permit, then one policy per hook, in order.
fn cedar_policies(rules: &[Rule]) -> String {
    let mut text = String::from("permit(principal, action, resource);\n");
    for rule in rules {
        text.push_str(&cedar_policy(rule));
    }
    text
}

/// A blocking hook as a `forbid`; an audit hook as an annotated `permit`, which is evaluated
/// and reported as a reason when it holds but cannot turn a decision into a block.
fn cedar_policy(rule: &Rule) -> String {
    let points: Vec<String> = rule
        .points
        .iter()
        .map(|point| format!("context.point == {}", cedar_string(point)))
        .collect();
    let mut conditions = vec![match points.as_slice() {
        [one] => one.clone(),
        _ => format!("({})", points.join(" || ")),
    }];
    if let Some(tool) = rule.tool {
        conditions.push(format!("context.tool == {}", cedar_string(tool)));
    }
    if let Some(topic) = rule.topic_id {
        conditions.push(format!("context has topicId && context.topicId == {topic}"));
    }
    if let Some(sub_agent) = rule.is_sub_agent {
        let test = r#"context.sessionKey like "*:subagent:*""#;
        conditions.push(if sub_agent {
            test.to_owned()
        } else {
            format!("!({test})")
        });
    }
    if let Some(like) = &rule.command_like {
        conditions.push(format!("context.command like {}", cedar_string(like)));
    }
    if let Some(like) = &rule.session_like {
        conditions.push(format!("context.sessionKey like {}", cedar_string(like)));
    }
    let effect = if rule.audit {
        "@mode(\"audit\")\npermit"
    } else {
        "forbid"
    };
    format!(
        "@id({})\n{effect}(principal, action, resource) when {{ {} }};\n",
        cedar_string(&rule.name),
        conditions.join(" && ")
    )
}

/// A Cedar string literal. The generated names and patterns are plain ASCII; a quote or a
/// backslash would need escaping (and in a `like` pattern `\*` means a literal star).
fn cedar_string(text: &str) -> String {
    assert!(
        !text.contains(['"', '\\']),
        "unexpected quote or backslash in {text:?}"
    );
    format!("\"{text}\"")
}

impl Gate for CedarGate {
    fn label(&self) -> &'static str {
        "cedar"
    }

    fn decide(&mut self, call: &Call) -> Result<Outcome, String> {
        let string = |text: &str| RestrictedExpression::new_string(text.to_owned());
        let context = Context::from_pairs([
            ("point".to_owned(), string(call.point)),
            ("tool".to_owned(), string(call.tool)),
            ("command".to_owned(), string(call.command)),
            ("sessionKey".to_owned(), string(call.session_key)),
        ])
        .map_err(|e| e.to_string())?;
        let request = Request::new(
            self.principal.clone(),
            self.action.clone(),
            self.resource.clone(),
            context,
            None,
        )
        .map_err(|e| e.to_string())?;
        let response = self
            .authorizer
            .is_authorized(&request, &self.policies, &self.entities);
        // A policy whose condition errors is skipped, which would silently drop a hook.
        if let Some(error) = response.diagnostics().errors().next() {
            return Err(error.to_string());
        }
        Ok(Outcome {
            blocked: response.decision() == cedar_policy::Decision::Deny,
            audited: response
                .diagnostics()
                .reason()
                .any(|id| self.audit_ids.contains(id)),
        })
    }
}

// --- Rego ----------------------------------------------------------------------------------

const REGO_ENTRY_POINT: &str = "data.hooks.decision";

/// The largest capacity regorus accepts; the policies here have fewer distinct patterns.
const REGO_REGEX_CACHE: usize = regorus::cache::Config::MAX_CAPACITY;

fn configure_rego_cache() {
    regorus::cache::configure(regorus::cache::Config {
        regex: REGO_REGEX_CACHE,
        ..regorus::cache::Config::default()
    });
}

/// The Rego `input` for a call: the fields the policies read.
fn rego_input(call: &Call) -> regorus::Value {
    let field = |key: &str, value: &str| (regorus::Value::from(key), regorus::Value::from(value));
    regorus::Value::from(BTreeMap::from([
        field("point", call.point),
        field("tool", call.tool),
        field("command", call.command),
        field("sessionKey", call.session_key),
    ]))
}

/// Reads `{"deny": set, "audit": set}`.
fn rego_outcome(decision: &regorus::Value) -> Result<Outcome, String> {
    let non_empty = |key: &str| {
        decision[key]
            .as_set()
            .map(|set| !set.is_empty())
            .map_err(|e| format!("{key}: {e} in {decision}"))
    };
    Ok(Outcome {
        blocked: non_empty("deny")?,
        audited: non_empty("audit")?,
    })
}

const REGO_RULES_HEAD: &str = "package hooks\n\ndecision := {\"deny\": deny, \"audit\": audit}\n";

/// regorus refuses policy files over 1 MB (10,000 hooks is about 1.3 MB), so the rules are
/// spread over several files of the same package, as a large policy would be.
const REGO_RULES_PER_FILE: usize = 1_000;

/// A regorus engine holding one rule per hook.
fn rego_rules_engine(rules: &[Rule]) -> regorus::Engine {
    configure_rego_cache();
    let mut engine = regorus::Engine::new();
    engine
        .add_policy("hooks.rego".to_owned(), REGO_RULES_HEAD.to_owned())
        .expect("Rego policy head parses");
    for (i, chunk) in rules.chunks(REGO_RULES_PER_FILE).enumerate() {
        let mut text = String::from("package hooks\n");
        for rule in chunk {
            text.push_str(&rego_rule(rule));
        }
        engine
            .add_policy(format!("hooks-{i}.rego"), text)
            .expect("generated Rego rules parse");
    }
    engine
}

/// `deny contains "<hook>" if { ... }` for a blocking hook, `audit contains ...` for an audit
/// hook. Exact tests come before patterns, as a policy author would order them.
fn rego_rule(rule: &Rule) -> String {
    let mut body = vec![match rule.points.as_slice() {
        [one] => format!("input.point == {}", rego_raw(one)),
        many => {
            let set: Vec<String> = many.iter().map(|point| rego_raw(point)).collect();
            format!("input.point in {{{}}}", set.join(", "))
        }
    }];
    if let Some(tool) = rule.tool {
        body.push(format!("input.tool == {}", rego_raw(tool)));
    }
    if let Some(topic) = rule.topic_id {
        body.push(format!("input.topicId == {topic}"));
    }
    if let Some(sub_agent) = rule.is_sub_agent {
        let test = r#"contains(input.sessionKey, ":subagent:")"#;
        body.push(if sub_agent {
            test.to_owned()
        } else {
            format!("not {test}")
        });
    }
    if let Some(pattern) = &rule.command_pattern {
        body.push(format!("regex.match({}, input.command)", rego_raw(pattern)));
    }
    if let Some(pattern) = &rule.session_pattern {
        body.push(format!(
            "regex.match({}, input.sessionKey)",
            rego_raw(pattern)
        ));
    }
    let set = if rule.audit { "audit" } else { "deny" };
    format!(
        "\n{set} contains {} if {{\n\t{}\n}}\n",
        rego_raw(&rule.name),
        body.join("\n\t")
    )
}

/// A Rego raw string: regex backslashes stay as they are.
fn rego_raw(text: &str) -> String {
    assert!(!text.contains('`'), "unexpected backquote in {text:?}");
    format!("`{text}`")
}

/// The data-driven policy: one generic rule over `data.rules` (blocking hooks) and one over
/// `data.audit_rules`, so that each set is one pass over its own list. An absent filter is an
/// absent key, so a `mismatch` body fails at once on it; `not mismatch(r)` measured faster
/// than one helper per filter with `null` for absent.
const REGO_DATA_POLICY: &str = r#"package hooks

decision := {"deny": deny, "audit": audit}

deny contains r.name if {
	some r in data.rules
	r.points[input.point]
	not mismatch(r)
}

audit contains r.name if {
	some r in data.audit_rules
	r.points[input.point]
	not mismatch(r)
}

mismatch(r) if { r.tool; not r.tool == input.tool }
mismatch(r) if { r.topicId; not r.topicId == input.topicId }
mismatch(r) if { r.isSubAgent == true; not contains(input.sessionKey, ":subagent:") }
mismatch(r) if { r.isSubAgent == false; contains(input.sessionKey, ":subagent:") }
mismatch(r) if { r.command; not regex.match(r.command, input.command) }
mismatch(r) if { r.session; not regex.match(r.session, input.sessionKey) }
"#;

/// A regorus engine holding the data-driven policy, and the hooks as its `data`.
fn rego_data_engine(rules: &[Rule]) -> (regorus::Engine, regorus::Value) {
    configure_rego_cache();
    let mut engine = regorus::Engine::new();
    engine
        .add_policy("hooks.rego".to_owned(), REGO_DATA_POLICY.to_owned())
        .expect("data-driven Rego policy parses");
    let (audit, block): (Vec<&Rule>, Vec<&Rule>) = rules.iter().partition(|rule| rule.audit);
    let rows = |rules: Vec<&Rule>| -> Vec<serde_json::Value> {
        rules.into_iter().map(rego_data_rule).collect()
    };
    let data = serde_json::json!({ "rules": rows(block), "audit_rules": rows(audit) });
    (engine, regorus::Value::from(data))
}

/// A hook as data: `points` as an object (a set lookup), absent filters as absent keys.
fn rego_data_rule(rule: &Rule) -> serde_json::Value {
    let mut row = serde_json::Map::new();
    let mut set = |key: &str, value: serde_json::Value| {
        if !value.is_null() {
            row.insert(key.to_owned(), value);
        }
    };
    set("name", rule.name.clone().into());
    let points: serde_json::Map<String, serde_json::Value> = rule
        .points
        .iter()
        .map(|point| ((*point).to_owned(), true.into()))
        .collect();
    set("points", points.into());
    set("tool", rule.tool.into());
    set("topicId", rule.topic_id.into());
    set("isSubAgent", rule.is_sub_agent.into());
    set("command", rule.command_pattern.clone().into());
    set("session", rule.session_pattern.clone().into());
    row.into()
}

/// A policy evaluated by regorus's tree-walking interpreter (`Engine::eval_rule`).
struct RegoInterpGate {
    label: &'static str,
    engine: regorus::Engine,
}

impl Gate for RegoInterpGate {
    fn label(&self) -> &'static str {
        self.label
    }

    fn decide(&mut self, call: &Call) -> Result<Outcome, String> {
        self.engine.set_input(rego_input(call));
        let decision = self
            .engine
            .eval_rule(REGO_ENTRY_POINT.to_owned())
            .map_err(|e| e.to_string())?;
        rego_outcome(&decision)
    }
}

/// A policy compiled to regorus's bytecode VM (RVM).
struct RegoVmGate {
    label: &'static str,
    vm: RegoVM,
}

impl RegoVmGate {
    /// Err when the policy does not fit the VM: a program holds at most 65,535 instructions,
    /// which one rule per hook exceeds at 10,000 hooks.
    fn new(
        label: &'static str,
        mut engine: regorus::Engine,
        data: regorus::Value,
    ) -> Result<RegoVmGate, String> {
        let compiled = engine
            .compile_with_entrypoint(&REGO_ENTRY_POINT.into())
            .expect("Rego policy compiles");
        let program = Compiler::compile_from_policy(&compiled, &[REGO_ENTRY_POINT])
            .map_err(|e| format!("RVM compilation: {e}"))?;
        let mut vm = RegoVM::new_with_policy(compiled);
        // The default budget (25,000 instructions, a guard against runaway policies) stops a
        // pass over 1,000 hooks; this policy is trusted and finite.
        vm.set_max_instructions(usize::MAX);
        vm.load_program(program);
        vm.set_data(data).expect("RVM accepts the data");
        Ok(RegoVmGate { label, vm })
    }
}

impl Gate for RegoVmGate {
    fn label(&self) -> &'static str {
        self.label
    }

    fn decide(&mut self, call: &Call) -> Result<Outcome, String> {
        self.vm.set_input(rego_input(call));
        let decision = self.vm.execute().map_err(|e| e.to_string())?;
        rego_outcome(&decision)
    }
}

// --- criterion -----------------------------------------------------------------------------

fn criterion_benches(criterion: &mut Criterion, fixtures: &mut [Fixture]) {
    let mut group = criterion.benchmark_group("compare");
    group
        .warm_up_time(CRITERION_WARM_UP)
        .measurement_time(CRITERION_MEASUREMENT);
    for fixture in fixtures {
        for gate in &mut fixture.gates {
            for call in &CALLS {
                // Criterion's linear sampling runs 1 + 2 + ... + 100 = 5,050 iterations at
                // least; engines too slow for that in the measurement time get flat samples,
                // as many as fit (at least 10, criterion's minimum), with some headroom.
                let estimate = estimate(gate.as_mut(), call, Duration::from_millis(100));
                let fit =
                    (0.8 * CRITERION_MEASUREMENT.as_secs_f64() / estimate.as_secs_f64()) as usize;
                let (samples, mode) = match fit {
                    0..5_050 => (fit.clamp(10, 100), SamplingMode::Flat),
                    _ => (100, SamplingMode::Auto),
                };
                group.sample_size(samples).sampling_mode(mode);
                let id = BenchmarkId::new(format!("{}/{}", gate.label(), call.name), fixture.n);
                group.bench_function(id, |b| b.iter(|| gate.decide(black_box(call))));
            }
        }
    }
    group.finish();
}

/// Mean time of one decision, after warming up for about `warm_up`.
fn estimate(gate: &mut dyn Gate, call: &Call, warm_up: Duration) -> Duration {
    let started = Instant::now();
    let mut runs = 0u32;
    while runs < 3 || (started.elapsed() < warm_up && runs < 10_000) {
        let _ = black_box(gate.decide(black_box(call)));
        runs += 1;
    }
    started.elapsed() / runs
}

// --- the table -----------------------------------------------------------------------------

/// One engine's figures for one call at one n.
struct Row {
    n: usize,
    call: &'static str,
    engine: &'static str,
    iterations: u64,
    p50_ns: u64,
    p99_ns: u64,
}

fn measure_all(fixtures: &mut [Fixture]) -> Vec<Row> {
    let mut rows = Vec::new();
    for fixture in fixtures {
        for gate in &mut fixture.gates {
            for call in &CALLS {
                rows.push(measure(fixture.n, gate.as_mut(), call));
            }
        }
    }
    rows
}

/// Times decisions one by one into a histogram: about `TABLE_BUDGET` of them, within bounds.
fn measure(n: usize, gate: &mut dyn Gate, call: &Call) -> Row {
    let estimate = estimate(gate, call, Duration::from_millis(200));
    let iterations = u64::try_from(TABLE_BUDGET.as_nanos() / estimate.as_nanos().max(1))
        .unwrap_or(u64::MAX)
        .clamp(TABLE_MIN_ITERATIONS, TABLE_MAX_ITERATIONS);
    let mut histogram =
        Histogram::<u64>::new_with_bounds(1, 600_000_000_000, 3).expect("histogram bounds");
    for _ in 0..iterations {
        let started = Instant::now();
        let outcome = gate.decide(black_box(call));
        let elapsed = started.elapsed();
        black_box(outcome).expect("decided during verification already");
        histogram.saturating_record(u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX));
    }
    Row {
        n,
        call: call.name,
        engine: gate.label(),
        iterations,
        p50_ns: histogram.value_at_quantile(0.5),
        p99_ns: histogram.value_at_quantile(0.99),
    }
}

fn print_table(rows: &[Row]) {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nPer-decision latency, own loop (one hdrhistogram sample per decision);\n\
         ratio = engine p50 / hookgate p50 for the same n and call.\n\
         {SEED_LABEL} is a port of the loop described in the seed, not the plugin's own code.\n"
    );
    let _ = writeln!(
        out,
        "{:>6}  {:<6} {:<16} {:>6} {:>11} {:>11} {:>10}",
        "n", "call", "engine", "iters", "p50", "p99", "ratio"
    );
    let mut sizes: Vec<usize> = rows.iter().map(|row| row.n).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for n in sizes {
        for call in &CALLS {
            let baseline = rows
                .iter()
                .find(|row| row.n == n && row.call == call.name && row.engine == "hookgate")
                .map(|row| row.p50_ns);
            for row in rows
                .iter()
                .filter(|row| row.n == n && row.call == call.name)
            {
                let ratio = baseline.map_or(String::from("-"), |base| {
                    format!("{:.1}×", row.p50_ns as f64 / base.max(1) as f64)
                });
                let _ = writeln!(
                    out,
                    "{:>6}  {:<6} {:<16} {:>6} {:>11} {:>11} {:>10}",
                    row.n,
                    row.call,
                    row.engine,
                    row.iterations,
                    format_ns(row.p50_ns),
                    format_ns(row.p99_ns),
                    ratio
                );
            }
        }
        out.push('\n');
    }
    print!("{out}");
}

fn format_ns(ns: u64) -> String {
    match ns {
        0..1_000 => format!("{ns} ns"),
        1_000..1_000_000 => format!("{:.2} µs", ns as f64 / 1e3),
        _ => format!("{:.2} ms", ns as f64 / 1e6),
    }
}

// --- the seed plugin's loop, ported to JavaScript ------------------------------------------

/// Runs `benches/seed-engine/run.mjs` with node once per n, on the same hooks and calls, and
/// checks that the port decides as the policy does. Err says why it was skipped.
fn seed_js(fixtures: &[Fixture]) -> Result<Vec<Row>, String> {
    match Command::new("node").arg("--version").output() {
        Ok(output) if output.status.success() => {}
        Ok(_) | Err(_) => return Err("node is not on PATH".to_owned()),
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/seed-engine/run.mjs");
    let mut rows = Vec::new();
    for fixture in fixtures {
        // The port's own loop: about as many samples as the table's, fewer at 10,000 hooks.
        let iterations = if fixture.n > 1_000 { 300 } else { 2_000 };
        let input = seed_input(&fixture.rules, iterations);
        let file = tempfile::NamedTempFile::new().map_err(|e| e.to_string())?;
        std::fs::write(file.path(), input.to_string()).map_err(|e| e.to_string())?;
        let output = Command::new("node")
            .arg(&script)
            .arg(file.path())
            .output()
            .map_err(|e| format!("running node: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "node failed: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        rows.extend(seed_rows(&output.stdout, iterations)?);
    }
    Ok(rows)
}

/// `{hooks, calls, iterations}`, the hooks in HOOKS.yaml's JSON shape.
fn seed_input(rules: &[Rule], iterations: u64) -> serde_json::Value {
    let calls: Vec<serde_json::Value> = CALLS
        .iter()
        .map(|call| {
            let context: serde_json::Value =
                serde_json::from_str(&call.context_json()).expect("the call's context is JSON");
            serde_json::json!({ "name": call.name, "point": call.point, "context": context })
        })
        .collect();
    serde_json::json!({
        "hooks": rules.iter().map(seed_hook).collect::<Vec<_>>(),
        "calls": calls,
        "iterations": iterations,
    })
}

fn seed_hook(rule: &Rule) -> serde_json::Value {
    let mut filter = serde_json::Map::new();
    let mut set = |key: &str, value: serde_json::Value| {
        if !value.is_null() {
            filter.insert(key.to_owned(), value);
        }
    };
    set("tool", rule.tool.into());
    set("commandPattern", rule.command_pattern.clone().into());
    set("sessionPattern", rule.session_pattern.clone().into());
    set("topicId", rule.topic_id.into());
    set("isSubAgent", rule.is_sub_agent.into());
    let point = match rule.points.as_slice() {
        [one] => serde_json::json!(one),
        many => serde_json::json!(many),
    };
    let mut hook = serde_json::json!({
        "name": rule.name,
        "point": point,
        "match": filter,
        "action": "block",
    });
    if rule.audit {
        hook["mode"] = "audit".into();
    }
    hook
}

/// Parses run.mjs's `{results: [{n, call, p50_ns, p99_ns, blocked, audited}]}`.
fn seed_rows(stdout: &[u8], iterations: u64) -> Result<Vec<Row>, String> {
    let parsed: serde_json::Value =
        serde_json::from_slice(stdout).map_err(|e| format!("run.mjs output: {e}"))?;
    let results = parsed["results"].as_array().ok_or("run.mjs: no results")?;
    results
        .iter()
        .map(|result| {
            let n = result["n"].as_u64().ok_or("run.mjs: no n")?;
            let name = result["call"].as_str().ok_or("run.mjs: no call")?;
            let call = CALLS
                .iter()
                .find(|call| call.name == name)
                .ok_or("run.mjs: unknown call")?;
            let got = Outcome {
                blocked: result["blocked"].as_bool().ok_or("run.mjs: no blocked")?,
                audited: result["audited"].as_bool().ok_or("run.mjs: no audited")?,
            };
            assert_eq!(
                got,
                Outcome::expected(call),
                "{SEED_LABEL} n={n} {name}: decision differs from the policy's"
            );
            Ok(Row {
                n: usize::try_from(n).map_err(|e| e.to_string())?,
                call: call.name,
                engine: SEED_LABEL,
                iterations,
                p50_ns: result["p50_ns"].as_u64().ok_or("run.mjs: no p50_ns")?,
                p99_ns: result["p99_ns"].as_u64().ok_or("run.mjs: no p99_ns")?,
            })
        })
        .collect()
}

/// Panics unless the context built from the call's fields is the one the gateway would send
/// as JSON (`Call::context_json`), so hookgate decides the same calls as the others.
fn check_hook_contexts() {
    for call in &CALLS {
        let parsed: HookContext =
            serde_json::from_str(&call.context_json()).expect("the call's context parses");
        assert_eq!(hook_context(call), parsed, "{}: contexts differ", call.name);
    }
}
