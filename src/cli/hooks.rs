//! `hookgate list`, `hookgate enable NAME`, `hookgate disable NAME`

use std::io::Write;
use std::path::{Path, PathBuf};

use hookgate::config::{self, EditError};
use hookgate::terminal::{self, escape};

use super::{EXIT_ERROR, Format, emit, load_policy, report};

/// Arguments of `hookgate list`.
#[derive(Debug, clap::Args)]
pub(crate) struct ListArgs {
    /// Policy file (default: $HOOKGATE_CONFIG, $OPENCLAW_HOOKS_CONFIG, ./HOOKS.yaml,
    /// $OPENCLAW_WORKSPACE/HOOKS.yaml).
    #[arg(long)]
    config: Option<PathBuf>,
    /// text: a table; json: an array of hooks.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// Arguments of `hookgate enable` and `hookgate disable`.
#[derive(Debug, clap::Args)]
pub(crate) struct SwitchArgs {
    /// The hook's name.
    name: String,
    /// Policy file (default: as for `list`).
    #[arg(long)]
    config: Option<PathBuf>,
}

pub(crate) fn list(args: ListArgs) -> u8 {
    let policy = match load_policy(args.config.as_ref()) {
        Ok(p) => p,
        Err(e) => {
            report::print_config_error(&e);
            return EXIT_ERROR;
        }
    };
    let rows: Vec<serde_json::Value> = policy
        .document
        .hooks
        .iter()
        .map(|h| {
            serde_json::json!({
                "name": h.id,
                "points": h.points.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
                "action": h.program.as_deref().unwrap_or(h.action.as_str()),
                "enabled": h.enabled,
                "priority": h.priority,
                "mode": h.mode,
                "source": h.file.display().to_string(),
            })
        })
        .collect();
    match args.format {
        Format::Json => match serde_json::to_string_pretty(&rows) {
            Ok(json) => emit(&format!("{}\n", terminal::escape_json(&json))),
            Err(e) => {
                eprintln!("error: cannot print the hooks: {e}");
                return EXIT_ERROR;
            }
        },
        Format::Text => emit(&table(&policy.document.hooks)),
    }
    0
}

/// The hooks as a table; names, programs and files are the policy's, escaped.
fn table(hooks: &[config::HookSpec]) -> String {
    let rows: Vec<[String; 5]> = hooks
        .iter()
        .map(|h| {
            [
                escape(&h.id).into_owned(),
                h.points
                    .iter()
                    .map(|p| p.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
                escape(h.program.as_deref().unwrap_or(h.action.as_str())).into_owned(),
                if h.enabled { "yes" } else { "no" }.to_owned(),
                escape(&h.file.display().to_string()).into_owned(),
            ]
        })
        .collect();
    let header = ["NAME", "POINTS", "ACTION", "ENABLED", "SOURCE"].map(str::to_owned);
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// Sets the hook's `enabled` in the file it is written in (the policy file, or a file it
/// includes or discovers), in place; a running daemon reloads it.
pub(crate) fn switch(args: SwitchArgs, enabled: bool) -> u8 {
    let policy = match load_policy(args.config.as_ref()) {
        Ok(p) => p,
        Err(e) => {
            report::print_config_error(&e);
            return EXIT_ERROR;
        }
    };
    // An unknown name is looked up in the root file, which reports it with a suggestion.
    let path = policy
        .document
        .hooks
        .iter()
        .find(|h| h.id == args.name)
        .map_or_else(|| policy.path.clone(), |h| h.file.to_path_buf());
    let text = match config::read_text(&path, &config::YamlBudget::default()) {
        Ok(t) => t,
        Err(e) => {
            report::print_config_error(&e);
            return EXIT_ERROR;
        }
    };
    let word = if enabled { "enabled" } else { "disabled" };
    let edited = match config::set_enabled(&text, &path, &args.name, enabled) {
        Ok(e) => e,
        Err(EditError::Invalid(e)) => {
            report::print_config_error(&e);
            return EXIT_ERROR;
        }
        Err(e) => {
            eprintln!(
                "error: {}: {}",
                escape(&path.display().to_string()),
                escape(&e.to_string())
            );
            return EXIT_ERROR;
        }
    };
    if !edited.changed {
        emit(&format!(
            "`{}` is already {word} ({}:{})\n",
            escape(&args.name),
            escape(&path.display().to_string()),
            edited.line
        ));
        return 0;
    }
    if let Err(e) = replace(&path, &edited.text) {
        eprintln!(
            "error: cannot write `{}`: {e}",
            escape(&path.display().to_string())
        );
        return EXIT_ERROR;
    }
    emit(&format!(
        "{word} `{}` ({}:{})\n",
        escape(&args.name),
        escape(&path.display().to_string()),
        edited.line
    ));
    0
}

/// Replaces the file's content at once (a write beside it, then a rename), keeping its
/// permissions, so a reader (the daemon's watcher) never sees half a file.
fn replace(path: &Path, text: &str) -> std::io::Result<()> {
    // A symlinked policy (a ConfigMap's `..data` link) keeps its link: the file it points
    // to is the one replaced.
    let path = &std::fs::canonicalize(path)?;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(text.as_bytes())?;
    file.as_file().sync_all()?;
    let permissions = std::fs::metadata(path)?.permissions();
    std::fs::set_permissions(file.path(), permissions)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
