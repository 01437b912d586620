//! `hookgate lint`

use std::io::IsTerminal;

use crate::config::{Code, Diagnostic};

use super::{EXIT_ERROR, Format, emit, report};

/// Exit code when there are findings.
const EXIT_FINDINGS: u8 = 2;

/// Arguments of `hookgate lint`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    policy: super::PolicyFileArgs,
    /// text: one snippet per finding, then a summary; json: an array of findings.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Leave out findings with this code (repeatable), e.g. `--allow unanchored`.
    #[arg(long, value_name = "CODE")]
    allow: Vec<String>,
}

pub(crate) fn run(args: Args) -> u8 {
    let mut allowed = Vec::new();
    for name in &args.allow {
        match Code::lint_code(name) {
            Some(code) => allowed.push(code),
            None => {
                let codes: Vec<&str> = Code::LINT.iter().map(|c| c.name()).collect();
                eprintln!(
                    "error: unknown lint code `{name}`; the codes are: {}",
                    codes.join(", ")
                );
                return EXIT_ERROR;
            }
        }
    }
    // Not `load_policy`: the load's warnings are findings here, not log lines.
    let path = args.policy.path();
    let policy = match path.and_then(|path| crate::config::load_file(&path)) {
        Ok(policy) => policy,
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
            return EXIT_ERROR;
        }
    };
    let findings: Vec<Diagnostic> = crate::lint::lint(&policy)
        .into_iter()
        .filter(|f| !allowed.contains(&f.code()))
        .collect();
    match args.format {
        Format::Json => match serde_json::to_string_pretty(&findings) {
            Ok(json) => emit(&format!("{}\n", crate::terminal::escape_json(&json))),
            Err(e) => {
                eprintln!("error: cannot print the findings: {e}");
                return EXIT_ERROR;
            }
        },
        Format::Text => {
            let color = std::io::stdout().is_terminal();
            let mut text = crate::config::report::render_in(&policy, &findings, color);
            text.push_str(&match findings.len() {
                0 => "no smells found\n".to_owned(),
                1 => "1 warning\n".to_owned(),
                n => format!("{n} warnings\n"),
            });
            emit(&text);
        }
    }
    if findings.is_empty() {
        0
    } else {
        EXIT_FINDINGS
    }
}
