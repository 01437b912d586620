//! Switching a hook on or off in the policy text itself, touching nothing but its `enabled`
//! line: comments, order, quoting and layout stay as the team wrote them.
//!
//! The edit is made on the text (a value replaced, or one `enabled: false` inserted beside
//! the hook's `name`), and then proven: the new text must read as the old one with only
//! that hook's `enabled` changed, and must load. Anything else is refused.

use std::path::Path;

use serde_json::Value;
use thiserror::Error;

use super::yaml::{self, Position, YamlBudget};
use super::{ConfigError, load_str};

/// Why a hook could not be switched.
#[derive(Debug, Error)]
pub(crate) enum EditError {
    /// The policy does not load as it is.
    #[error(transparent)]
    Invalid(#[from] Box<ConfigError>),
    /// No hook has that name.
    #[error("no hook is named `{name}`{}", .suggestion.as_ref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default())]
    NoSuchHook {
        /// The name asked for.
        name: String,
        /// The closest name in the policy.
        suggestion: Option<String>,
    },
    /// The hook's layout is one the editor does not rewrite safely.
    #[error("cannot edit hook `{name}` in place ({why}); set `enabled` by hand")]
    Layout {
        /// The hook.
        name: String,
        /// What stood in the way.
        why: String,
    },
}

/// The result of [`set_enabled`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Edited {
    /// The new policy text (the old one when nothing changed).
    pub text: String,
    /// Whether the hook's state changed.
    pub changed: bool,
    /// The line of the `enabled` value in the new text.
    pub line: usize,
}

/// Sets `enabled` of the hook called `name` in the policy `text` (from `origin`).
pub(super) fn set_enabled(
    text: &str,
    origin: &Path,
    name: &str,
    enabled: bool,
) -> Result<Edited, EditError> {
    let policy = load_str(text, origin).map_err(Box::new)?;
    let Some(hook) = policy.document.hooks.iter().find(|h| h.id == name) else {
        let names = policy.document.hooks.iter().map(|h| h.id.as_str());
        return Err(EditError::NoSuchHook {
            name: name.to_owned(),
            suggestion: crate::suggest::closest(name, names).map(str::to_owned),
        });
    };
    let layout = |why: &str| EditError::Layout {
        name: name.to_owned(),
        why: why.to_owned(),
    };
    let parsed = yaml::parse(text, &YamlBudget::default()).map_err(|_| layout("unreadable"))?;
    let at = format!("/hooks/{}", hook.index);
    if hook.enabled == enabled {
        let line = parsed.spans.value(&format!("{at}/enabled")).line;
        return Ok(Edited {
            text: text.to_owned(),
            changed: false,
            line,
        });
    }
    let word = if enabled { "true" } else { "false" };
    let (new_text, line) = if parsed.value.pointer(&format!("{at}/enabled")).is_some() {
        let start = offset(text, parsed.spans.value(&format!("{at}/enabled")))
            .ok_or_else(|| layout("the `enabled` value was not found"))?;
        let end = start
            + text[start..]
                .find(|c: char| c.is_whitespace() || ",}]#".contains(c))
                .unwrap_or(text.len() - start);
        let line = parsed.spans.value(&format!("{at}/enabled")).line;
        (format!("{}{word}{}", &text[..start], &text[end..]), line)
    } else {
        insert_beside_name(text, &parsed.spans.key(&format!("{at}/name")), word)
            .ok_or_else(|| layout("the hook has no `name` key to place `enabled` beside"))?
    };
    // The proof: the same document but for this one field, and still a valid policy.
    let mut expected = parsed.value;
    if let Some(Value::Object(map)) = expected.pointer_mut(&at) {
        map.insert("enabled".into(), Value::Bool(enabled));
    }
    let reread = yaml::parse_plain(&new_text, &YamlBudget::default());
    let same = reread.is_ok_and(|v| same_ignoring_order(&v, &expected));
    if !same || load_str(&new_text, origin).is_err() {
        return Err(layout("the edited text would change more than `enabled`"));
    }
    Ok(Edited {
        text: new_text,
        changed: true,
        line,
    })
}

/// Inserts `enabled: <word>` beside the hook's `name` key at `key`: before it in a flow
/// mapping (`{ name: x, ... }`), on a line of its own after it in a block mapping.
fn insert_beside_name(text: &str, key: &Position, word: &str) -> Option<(String, usize)> {
    let start = offset(text, *key)?;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = text[line_start..start].trim_end();
    if before.ends_with('{') || before.ends_with(',') {
        let new = format!("{}enabled: {word}, {}", &text[..start], &text[start..]);
        return Some((new, key.line));
    }
    // Block style: the key's column is the mapping's indentation.
    let indent = " ".repeat(key.column.saturating_sub(1));
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let newline = if text[..line_end].ends_with('\r') {
        "\r\n"
    } else {
        "\n"
    };
    let new = if line_end == text.len() {
        format!("{text}{newline}{indent}enabled: {word}{newline}")
    } else {
        format!(
            "{}\n{indent}enabled: {word}{newline}{}",
            &text[..line_end],
            &text[line_end + 1..]
        )
    };
    Some((new, key.line + 1))
}

/// The byte offset of a 1-based line and character column.
fn offset(text: &str, at: Position) -> Option<usize> {
    let mut line_start = 0;
    for _ in 1..at.line {
        line_start += text[line_start..].find('\n')? + 1;
    }
    let line = &text[line_start..];
    let column = line
        .char_indices()
        .nth(at.column.saturating_sub(1))
        .map_or(line.len(), |(i, _)| i);
    Some(line_start + column)
}

/// JSON equality where an inserted key may sit anywhere in its mapping.
fn same_ignoring_order(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_ignoring_order(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_ignoring_order(v, w))
        }
        _ => a == b,
    }
}

/// What [`switch_in_file`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Switched {
    /// The file the hook is written in (the policy file, or one it includes or discovers).
    pub file: std::path::PathBuf,
    /// Whether the file changed (false: the hook was already in that state).
    pub changed: bool,
    /// The line of the hook's `enabled` value.
    pub line: usize,
}

/// Why [`switch_in_file`] failed.
#[derive(Debug, Error)]
pub(crate) enum SwitchError {
    /// The edit itself (see [`set_enabled`]).
    #[error(transparent)]
    Edit(#[from] EditError),
    /// The file could not be replaced.
    #[error("cannot write `{}`: {source}", file.display())]
    Write {
        /// The file.
        file: std::path::PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// Sets `enabled` of the hook called `name` of the policy at `policy` in the file the hook is
/// written in, replacing that file at once (a write beside it, then a rename, keeping its
/// permissions), so a reader (the daemon's watcher) never sees half a file.
pub(crate) fn switch_in_file(
    policy: &Path,
    name: &str,
    enabled: bool,
) -> Result<Switched, SwitchError> {
    let invalid = |e: ConfigError| SwitchError::Edit(EditError::Invalid(Box::new(e)));
    let loaded = super::load_file(policy).map_err(invalid)?;
    // An unknown name is looked up in the root file, which reports it with a suggestion.
    let file = loaded
        .document
        .hooks
        .iter()
        .find(|h| h.id == name)
        .map_or_else(|| loaded.path.clone(), |h| h.file.to_path_buf());
    let text = super::read_text(&file, &YamlBudget::default()).map_err(invalid)?;
    let edited = set_enabled(&text, &file, name, enabled)?;
    if edited.changed {
        replace(&file, &edited.text).map_err(|source| SwitchError::Write {
            file: file.clone(),
            source,
        })?;
    }
    Ok(Switched {
        file,
        changed: edited.changed,
        line: edited.line,
    })
}

fn replace(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
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

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: &str = "\
version: 1
# The team's rules.
hooks:
  - name: audit   # keep
    point: turn:tool:pre
    action: log
  - { name: flow, point: turn:pre, action: block }
  - name: off
    point: turn:pre
    enabled: false # switched off in the incident
    action: block
  - point: turn:pre
    action: log
";

    fn edit(name: &str, enabled: bool) -> Edited {
        set_enabled(POLICY, Path::new("HOOKS.yaml"), name, enabled).expect("edits")
    }

    /// The lines that differ, old then new.
    fn diff(old: &str, new: &str) -> (Vec<String>, Vec<String>) {
        let o: Vec<&str> = old.lines().collect();
        let n: Vec<&str> = new.lines().collect();
        let removed = o.iter().filter(|l| !n.contains(l)).map(|l| l.to_string());
        let added = n.iter().filter(|l| !o.contains(l)).map(|l| l.to_string());
        (removed.collect(), added.collect())
    }

    #[test]
    fn a_block_hook_gets_one_new_line_at_its_indentation() {
        let e = edit("audit", false);
        assert!(e.changed);
        assert_eq!(
            diff(POLICY, &e.text),
            (vec![], vec!["    enabled: false".into()])
        );
        assert_eq!(e.line, 5);
        assert!(e.text.contains("# keep") && e.text.contains("# The team's rules."));
    }

    #[test]
    fn a_flow_hook_gets_the_key_inside_its_braces() {
        let e = edit("flow", false);
        let (removed, added) = diff(POLICY, &e.text);
        assert_eq!(
            removed,
            ["  - { name: flow, point: turn:pre, action: block }"]
        );
        assert_eq!(
            added,
            ["  - { enabled: false, name: flow, point: turn:pre, action: block }"]
        );
    }

    #[test]
    fn an_existing_value_is_replaced_and_its_comment_kept() {
        let e = edit("off", true);
        let (removed, added) = diff(POLICY, &e.text);
        assert_eq!(
            removed,
            ["    enabled: false # switched off in the incident"]
        );
        assert_eq!(added, ["    enabled: true # switched off in the incident"]);
        assert_eq!(e.line, 10);
        // And back, to the original text exactly.
        let back = set_enabled(&e.text, Path::new("HOOKS.yaml"), "off", false).expect("back");
        assert_eq!(back.text, POLICY);
    }

    #[test]
    fn nothing_changes_when_the_hook_is_already_so() {
        let e = edit("off", false);
        assert!(!e.changed);
        assert_eq!(e.text, POLICY);
    }

    #[test]
    fn unknown_names_are_refused_with_a_suggestion() {
        match set_enabled(POLICY, Path::new("HOOKS.yaml"), "audti", false) {
            Err(EditError::NoSuchHook { suggestion, .. }) => {
                assert_eq!(suggestion.as_deref(), Some("audit"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_invalid_policy_is_not_edited() {
        let broken = POLICY.replace("action: log\n  - {", "action: nope\n  - {");
        assert!(matches!(
            set_enabled(&broken, Path::new("HOOKS.yaml"), "audit", false),
            Err(EditError::Invalid(_))
        ));
    }

    #[test]
    fn the_repo_policy_round_trips() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/HOOKS.yaml")).expect("x");
        let policy = load_str(&text, Path::new("HOOKS.yaml")).expect("valid");
        // The hooks written in HOOKS.yaml itself; the packs it includes are other files.
        let root = Path::new("HOOKS.yaml");
        let own: Vec<_> = policy
            .document
            .hooks
            .iter()
            .filter(|h| &*h.file == root)
            .collect();
        assert!(own.len() >= 5, "{}", own.len());
        for hook in own {
            let off = set_enabled(&text, Path::new("HOOKS.yaml"), &hook.id, false).expect("off");
            let (removed, added) = diff(&text, &off.text);
            assert!(removed.is_empty() && added.len() == 1, "{}", hook.id);
            let on = set_enabled(&off.text, Path::new("HOOKS.yaml"), &hook.id, true).expect("on");
            assert_eq!(diff(&off.text, &on.text).1.len(), 1, "{}", hook.id);
        }
    }
}
