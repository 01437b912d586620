//! `hookgate validate`

use super::{EXIT_ERROR, Format, emit, report};

/// Arguments of `hookgate validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    policy: super::PolicyFileArgs,
    /// text: snippets on stderr; json: an array of diagnostics on stdout.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub(crate) fn run(args: Args) -> u8 {
    // Not `load_policy`: its warnings are printed below with their snippets, not logged.
    let path = args.policy.path();
    match path.and_then(|path| crate::config::load_file(&path)) {
        Ok(policy) => {
            let hooks = &policy.document.hooks;
            let enabled = hooks.iter().filter(|h| h.enabled).count();
            match args.format {
                // Valid: the array holds only warnings (empty when there are none).
                Format::Json => match serde_json::to_string_pretty(&policy.warnings) {
                    Ok(json) => emit(&format!("{}\n", crate::terminal::escape_json(&json))),
                    Err(e) => {
                        eprintln!("error: cannot print the warnings: {e}");
                        return EXIT_ERROR;
                    }
                },
                Format::Text => {
                    report::print_warnings(&policy);
                    let files = policy.sources.len();
                    let from = if files > 1 {
                        format!(" from {files} files")
                    } else {
                        String::new()
                    };
                    let warned = match policy.warnings.len() {
                        0 => String::new(),
                        1 => ", 1 warning".to_owned(),
                        n => format!(", {n} warnings"),
                    };
                    emit(&format!(
                        "{} is valid: {} hook{}{from} ({enabled} enabled){warned}\n",
                        crate::terminal::escape(&policy.path.display().to_string()),
                        hooks.len(),
                        if hooks.len() == 1 { "" } else { "s" },
                    ));
                }
            }
            0
        }
        Err(error) => {
            match args.format {
                Format::Json => match serde_json::to_string_pretty(error.diagnostics()) {
                    Ok(json) if !error.diagnostics().is_empty() => {
                        emit(&format!("{}\n", crate::terminal::escape_json(&json)))
                    }
                    _ => emit(&format!(
                        "{}\n",
                        crate::terminal::escape_json(
                            &serde_json::json!([{ "message": error.to_string() }]).to_string()
                        )
                    )),
                },
                Format::Text => report::print_config_error(&error),
            }
            EXIT_ERROR
        }
    }
}
