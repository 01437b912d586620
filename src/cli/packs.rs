//! `hookgate packs`: the packs in `policies/` beside the policy, what each guards, how many
//! hooks it has, and whether the policy includes it.

use std::path::{Path, PathBuf};

use crate::config;
use crate::terminal::{self, escape};
use serde_json::{Value, json};

use super::{EXIT_ERROR, Format, emit, load_policy, report};

/// Arguments of `hookgate packs`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Policy file (default: as for `list`); its `policies/` directory is listed.
    #[arg(long)]
    config: Option<PathBuf>,
    /// text: a table; json: an array of packs.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub(crate) fn run(args: Args) -> u8 {
    let policy = match load_policy(args.config.as_ref()) {
        Ok(p) => p,
        Err(e) => {
            report::print_config_error(&e);
            return EXIT_ERROR;
        }
    };
    let dir = policy
        .path
        .parent()
        .unwrap_or(Path::new("."))
        .join("policies");
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_pack(p))
            .collect(),
        Err(e) => {
            eprintln!(
                "error: cannot list `{}`: {e}",
                escape(&dir.display().to_string())
            );
            return EXIT_ERROR;
        }
    };
    files.sort();
    let included: Vec<PathBuf> = policy
        .sources
        .iter()
        .filter_map(|s| std::fs::canonicalize(&s.path).ok())
        .collect();
    let packs: Vec<Value> = files.iter().map(|file| describe(file, &included)).collect();
    match args.format {
        Format::Json => emit(&format!(
            "{}\n",
            terminal::escape_json(&Value::Array(packs).to_string())
        )),
        Format::Text => emit(&table(&packs)),
    }
    0
}

/// A pack file: YAML, not a test file.
fn is_pack(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".yaml") && !n.ends_with(".test.yaml"))
}

/// One pack: its name, what its header says it guards, its hooks (or why it does not load),
/// whether the policy includes it, and whether it has a test file.
fn describe(file: &Path, included: &[PathBuf]) -> Value {
    let name = file
        .file_stem()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let (hooks, error) = match config::load_file(file) {
        Ok(pack) => (Some(pack.document.hooks.len()), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let tests = file.with_file_name(format!("{name}.test.yaml")).is_file();
    json!({
        "name": name,
        "file": file,
        "guards": std::fs::read_to_string(file).ok().and_then(|t| title(&t)),
        "hooks": hooks,
        "error": error,
        "included": std::fs::canonicalize(file).is_ok_and(|f| included.contains(&f)),
        "tests": tests,
    })
}

/// The first line of the file's header comment that is not the editor's schema line:
/// `# Policy pack: credential and secret files.` gives `credential and secret files.`.
fn title(text: &str) -> Option<String> {
    text.lines()
        .map_while(|l| l.strip_prefix('#'))
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("yaml-language-server"))
        .map(|l| {
            l.strip_prefix("Policy pack:")
                .unwrap_or(l)
                .trim()
                .to_owned()
        })
}

fn table(packs: &[Value]) -> String {
    let text = |v: &Value| escape(v.as_str().unwrap_or("")).into_owned();
    let mut out = String::from("PACK                   HOOKS  INCLUDED  GUARDS\n");
    for p in packs {
        let hooks = p["hooks"]
            .as_u64()
            .map_or_else(|| "error".to_owned(), |n| n.to_string());
        let guards = match p["error"].as_str() {
            Some(e) => format!("does not load: {}", escape(e)),
            None => text(&p["guards"]),
        };
        out.push_str(&format!(
            "{:<22} {:>5}  {:<8}  {}\n",
            text(&p["name"]),
            hooks,
            if p["included"] == true { "yes" } else { "no" },
            guards
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_is_the_first_header_line_after_the_schema() {
        let text = "# yaml-language-server: $schema=x\n#\n# Policy pack: git commands.\n#\n# more\nversion: \"1\"\n";
        assert_eq!(title(text).as_deref(), Some("git commands."));
        assert_eq!(title("version: \"1\"\n"), None);
        assert_eq!(
            title("# Audit-only policy: watch.\n").as_deref(),
            Some("Audit-only policy: watch.")
        );
    }
}
