//! Building a HookContext from `--context` or from shorthand flags.

use std::io::Read;
use std::path::PathBuf;

use crate::HookContext;
use serde_json::{Map, Value};

/// Where the context comes from.
#[derive(Debug, clap::Args)]
pub(crate) struct ContextArgs {
    /// A HookContext JSON file, or `-` for stdin.
    #[arg(long, value_name = "FILE|-", conflicts_with_all = ["tool", "args", "session", "prompt", "topic"])]
    context: Option<PathBuf>,
    /// Tool name (shorthand for toolName).
    #[arg(long)]
    tool: Option<String>,
    /// Tool argument `key=value` (repeatable); the value is JSON if it parses, else a string.
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    args: Vec<String>,
    /// Session key (default `cli:check`).
    #[arg(long)]
    session: Option<String>,
    /// User prompt.
    #[arg(long)]
    prompt: Option<String>,
    /// Topic id.
    #[arg(long)]
    topic: Option<String>,
    /// The directory the tool runs in, absolute: relative paths and `cd` resolve against it.
    #[arg(long, value_name = "DIR")]
    cwd: Option<String>,
    /// The project root, absolute (default: the nearest ancestor of --cwd holding `.git`).
    #[arg(long, value_name = "DIR")]
    workspace: Option<String>,
}

impl ContextArgs {
    pub(crate) fn build(&self) -> Result<HookContext, String> {
        for (flag, dir) in [("--cwd", &self.cwd), ("--workspace", &self.workspace)] {
            if let Some(problem) = dir.as_deref().and_then(crate::context::dir_problem) {
                return Err(format!("{flag} {problem}"));
            }
        }
        if let Some(path) = &self.context {
            let text = if path.as_os_str() == "-" {
                let mut s = String::new();
                std::io::stdin()
                    .read_to_string(&mut s)
                    .map_err(|e| format!("cannot read stdin: {e}"))?;
                s
            } else {
                std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?
            };
            let mut ctx = parse_context(&text).map_err(|e| format!("`{}`: {e}", path.display()))?;
            if self.cwd.is_some() {
                ctx.cwd.clone_from(&self.cwd);
            }
            if self.workspace.is_some() {
                ctx.workspace.clone_from(&self.workspace);
            }
            return Ok(ctx);
        }
        let mut ctx = HookContext::new(
            self.session
                .clone()
                .unwrap_or_else(|| "cli:check".to_owned()),
        );
        ctx.tool_name = self.tool.clone();
        ctx.prompt = self.prompt.clone();
        ctx.cwd.clone_from(&self.cwd);
        ctx.workspace.clone_from(&self.workspace);
        ctx.topic_id = self.topic.as_ref().map(|t| match t.parse::<i64>() {
            Ok(n) => Value::from(n),
            Err(_) => Value::String(t.clone()),
        });
        if !self.args.is_empty() {
            let mut map = Map::new();
            for pair in &self.args {
                let (key, value) = pair
                    .split_once('=')
                    .ok_or_else(|| format!("--arg `{pair}` is not KEY=VALUE"))?;
                crate::json_keys::check_str(value).map_err(|e| format!("--arg `{key}`: {e}"))?;
                let value =
                    serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_owned()));
                // Never last-wins: `--arg command=ls --arg command=rm` is refused.
                if map.insert(key.to_owned(), value).is_some() {
                    return Err(format!("--arg `{key}` is given twice"));
                }
            }
            ctx.tool_args = Some(map);
        }
        Ok(ctx)
    }
}

/// Parses a HookContext JSON document, naming the field that is wrong.
pub(crate) fn parse_context(text: &str) -> Result<HookContext, String> {
    crate::json_keys::check_str(text).map_err(|e| format!("invalid context: {e}"))?;
    serde_json::from_str(text).map_err(|e| format!("invalid context: {e}"))
}
