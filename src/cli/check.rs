//! `hookgate check`: evaluate one context (or a JSONL file of them) and explain the decision.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::Arc;

use crate::config::Unparseable;
use crate::decision::{Decision, Verdict};
use crate::terminal::{self, escape};
use crate::{Engine, HookContext, Point, RuleGraph, Step, matcher};

use super::context_args::{ContextArgs, parse_context};
use super::{EXIT_ERROR, Format, emit, load_policy, report};

/// Arguments of `hookgate check`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Policy file (default: $HOOKGATE_CONFIG, $OPENCLAW_HOOKS_CONFIG, ./HOOKS.yaml,
    /// $OPENCLAW_WORKSPACE/HOOKS.yaml).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Lifecycle point (e.g. turn:tool:pre); in batch mode, the default for lines without one.
    #[arg(long)]
    point: Option<String>,
    #[command(flatten)]
    context: ContextArgs,
    /// Batch mode: one HookContext JSON per line; prints one Decision JSON per line.
    #[arg(long, value_name = "FILE.jsonl", conflicts_with = "context")]
    contexts: Option<PathBuf>,
    /// text: an explanation; json: the Decision JSON.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Also list each command the reader found that is not written out on the line (inside
    /// interpreter code, through a wrapper, a loop or a variable) and where it came from.
    #[arg(long, conflicts_with = "contexts")]
    explain: bool,
}

pub(crate) fn run(args: Args) -> u8 {
    let policy = match load_policy(args.config.as_ref()) {
        Ok(p) => p,
        Err(e) => {
            report::print_config_error(&e);
            return EXIT_ERROR;
        }
    };
    let default_point = match args.point.as_deref().map(str::parse::<Point>).transpose() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --point: {}", escape(&e.to_string()));
            return EXIT_ERROR;
        }
    };
    let runtime = match super::evaluation_runtime() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return EXIT_ERROR;
        }
    };
    let engine = Engine::new(Arc::new(RuleGraph::from_policy(&policy)));
    runtime.block_on(async {
        let code = match &args.contexts {
            Some(file) => batch(&engine, file, default_point).await,
            None => single(&engine, &args, default_point).await,
        };
        engine.flush().await;
        code
    })
}

async fn single(engine: &Engine, args: &Args, default_point: Option<Point>) -> u8 {
    let ctx = match args.context.build() {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("error: {}", escape(&e));
            return EXIT_ERROR;
        }
    };
    let Some(point) = default_point.or(ctx.point) else {
        eprintln!("error: no lifecycle point: pass --point (or put \"point\" in the context)");
        return EXIT_ERROR;
    };
    let (decision, steps) = engine.explain(point, &ctx).await;
    match args.format {
        Format::Json => match serde_json::to_string_pretty(&decision) {
            Ok(json) => emit(&format!("{}\n", terminal::escape_json(&json))),
            Err(e) => {
                eprintln!("error: cannot print the decision: {e}");
                return EXIT_ERROR;
            }
        },
        Format::Text => emit(&explain(
            engine.graph(),
            point,
            &ctx,
            &decision,
            &steps,
            args.explain,
        )),
    }
    exit_code(&decision)
}

fn exit_code(decision: &Decision) -> u8 {
    match decision.decision {
        Verdict::Allow => 0,
        Verdict::Block => 2,
        Verdict::Ask => 3,
    }
}

/// Evaluates each line of a JSONL file; a bad line is reported in place and the run goes on.
async fn batch(engine: &Engine, file: &PathBuf, default_point: Option<Point>) -> u8 {
    let reader: Box<dyn BufRead> = if file.as_os_str() == "-" {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        match std::fs::File::open(file) {
            Ok(f) => Box::new(BufReader::new(f)),
            Err(e) => {
                eprintln!(
                    "error: cannot read `{}`: {e}",
                    escape(&file.display().to_string())
                );
                return EXIT_ERROR;
            }
        }
    };
    let (mut blocked, mut asked, mut failed) = (false, false, false);
    // A file is answered in one buffered stream; a pipe on stdin gets each answer as soon as
    // its line is decided, since its writer may wait for it.
    let streaming = file.as_os_str() == "-";
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (n, line) in reader.lines().enumerate() {
        let line_no = n + 1;
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!(
                    "error: `{}` line {line_no}: {e}",
                    escape(&file.display().to_string())
                );
                failed = true;
                break;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let evaluated = parse_context(&line).and_then(|ctx| {
            let point = ctx
                .point
                .or(default_point)
                .ok_or("no lifecycle point: pass --point or set \"point\"")?;
            Ok((point, ctx))
        });
        let written = match evaluated {
            Ok((point, ctx)) => {
                let decision = engine.evaluate(point, &ctx).await;
                blocked |= decision.decision == Verdict::Block;
                asked |= decision.decision == Verdict::Ask;
                write_json(&mut out, &decision)
            }
            Err(e) => {
                failed = true;
                // The line is the agent's: its values are quoted in the message.
                eprintln!(
                    "error: `{}` line {line_no}: {}",
                    escape(&file.display().to_string()),
                    escape(&e)
                );
                let json = serde_json::json!({ "line": line_no, "error": e });
                write_json(&mut out, &json)
            }
        };
        let ended = written.and_then(|()| out.write_all(b"\n"));
        let flushed = ended.and_then(|()| if streaming { out.flush() } else { Ok(()) });
        if flushed.is_err() {
            return EXIT_ERROR;
        }
    }
    if out.flush().is_err() {
        return EXIT_ERROR;
    }
    if failed {
        EXIT_ERROR
    } else if blocked {
        2
    } else if asked {
        3
    } else {
        0
    }
}

/// Writes `value` as one line of JSON, without its newline ([`terminal::escape_json`]).
fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> std::io::Result<()> {
    let json = serde_json::to_string(value).map_err(std::io::Error::from)?;
    out.write_all(terminal::escape_json(&json).as_bytes())
}

/// The human-readable explanation of one evaluation.
fn explain(
    graph: &RuleGraph,
    point: Point,
    ctx: &HookContext,
    decision: &Decision,
    steps: &[Step],
    found: bool,
) -> String {
    let mut s = String::new();
    let registered = graph.registered(point).count();
    let candidates = graph
        .candidates_for_tool(point, ctx.tool_name.as_deref())
        .count();
    s.push_str(&format!(
        "policy:  {} ({} hooks)\n",
        escape(&graph.source().display().to_string()),
        graph.hooks().len()
    ));
    s.push_str(&format!("point:   {point}\n"));
    if let Some(tool) = &ctx.tool_name {
        s.push_str(&format!("tool:    {}\n", escape(tool)));
    }
    let subject = ctx.command_subject();
    if !subject.is_empty() {
        s.push_str(&format!("subject: {}\n", escape(&format!("{subject:?}"))));
    }
    let reading = matcher::Subject::of(ctx, graph.defaults().on_unparseable)
        .host_files(graph.defaults().host_files)
        .gate_files(std::sync::Arc::clone(graph.gate_files()));
    if let Some(line) = reading.command_line() {
        s.push_str(&format!("runs:    {}\n", escape(&line.normalized())));
        if found {
            for c in line.commands.iter().filter(|c| c.origin.is_some()) {
                let origin = c.origin.as_deref().unwrap_or_default();
                s.push_str(&format!(
                    "found:   {}  ({})\n",
                    escape(&c.text()),
                    escape(origin)
                ));
            }
        }
        if let Some(reason) = line.unreadable {
            s.push_str(&format!(
                "unread:  {}; shell-aware filters {}\n",
                escape(reason),
                match graph.defaults().on_unparseable {
                    Unparseable::Match => "match it (defaults.onUnparseable: match)",
                    Unparseable::Nomatch => "do not match it (defaults.onUnparseable: nomatch)",
                },
            ));
        }
    }
    if let Some(note) = matcher::places::unseen(ctx) {
        s.push_str(&format!("places:  {}\n", escape(&note)));
    }
    s.push_str(&format!(
        "hooks:   {registered} enabled at this point, {candidates} candidate{} for this tool, {} evaluated\n",
        if candidates == 1 { "" } else { "s" },
        steps.len(),
    ));
    for step in steps {
        match step {
            Step::Skipped { hook, filter } => {
                s.push_str(&format!(
                    "  -  {}: skipped, match.{} did not match\n",
                    escape(hook),
                    filter.as_str()
                ));
            }
            Step::Fired { hook, result } => {
                if let Some(r) = decision.results.get(*result) {
                    let mark = if r.audit {
                        "AUDIT"
                    } else if r.passed {
                        "pass"
                    } else {
                        "BLOCK"
                    };
                    s.push_str(&format!(
                        "  {} {}: matched, action {} -> {mark}: {}\n",
                        if r.passed { "+" } else { "x" },
                        escape(hook),
                        escape(&r.action),
                        escape(r.message.as_deref().unwrap_or(""))
                    ));
                }
            }
        }
    }
    match (&decision.decision, &decision.hook) {
        (Verdict::Block, Some(hook)) => s.push_str(&format!(
            "decision: BLOCK by {}: {}\n",
            escape(hook),
            escape(decision.message.as_deref().unwrap_or(""))
        )),
        (verdict, _) => s.push_str(&format!(
            "decision: {}\n",
            format!("{verdict:?}").to_uppercase()
        )),
    }
    s
}
