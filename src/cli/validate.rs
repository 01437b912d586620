//! `hookgate validate`

use std::path::PathBuf;

use super::{EXIT_ERROR, Format, emit, load_policy, report};

/// Arguments of `hookgate validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Policy file (default: --config, $HOOKGATE_CONFIG, $OPENCLAW_HOOKS_CONFIG, ./HOOKS.yaml,
    /// $OPENCLAW_WORKSPACE/HOOKS.yaml).
    file: Option<PathBuf>,
    /// Policy file (same as FILE).
    #[arg(long, conflicts_with = "file")]
    config: Option<PathBuf>,
    /// text: snippets on stderr; json: an array of diagnostics on stdout.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub(crate) fn run(args: Args) -> u8 {
    match load_policy(args.file.as_ref().or(args.config.as_ref())) {
        Ok(policy) => {
            let hooks = &policy.document.hooks;
            let enabled = hooks.iter().filter(|h| h.enabled).count();
            match args.format {
                Format::Json => emit("[]\n"),
                Format::Text => emit(&format!(
                    "{} is valid: {} hook{} ({enabled} enabled)\n",
                    policy.path.display(),
                    hooks.len(),
                    if hooks.len() == 1 { "" } else { "s" },
                )),
            }
            0
        }
        Err(error) => {
            match args.format {
                Format::Json => match serde_json::to_string_pretty(error.diagnostics()) {
                    Ok(json) if !error.diagnostics().is_empty() => emit(&format!("{json}\n")),
                    _ => emit(&format!(
                        "{}\n",
                        serde_json::json!([{ "message": error.to_string() }])
                    )),
                },
                Format::Text => report::print_config_error(&error),
            }
            EXIT_ERROR
        }
    }
}
