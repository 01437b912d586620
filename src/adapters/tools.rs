//! Each gateway's tool names and argument spellings, mapped to hookgate's canonical ones, so
//! one policy covers every gateway.
//!
//! The canonical names are the ones the default `HOOKS.yaml` and every pack already name:
//! Claude Code's `Bash`, `Read`, `Write` and `Edit` (with `command` and `file_path`), and
//! `apply_patch` (with the patch text in `input`). Mapping here, in one table, rather than
//! listing `run_shell_command`, `shell`, `bash`, `view`, ... in every hook of every pack
//! means a pack written once covers a gateway added later, and a hook that forgets one
//! gateway's spelling cannot open a hole for that gateway alone. The gateway's own name
//! stays in the context's `raw` payload.

use serde_json::{Map, Value};

use super::translate::against;

/// The canonical shell tool: `command` is the command line.
pub(crate) const SHELL: &str = "Bash";
/// The canonical file-reading tool: `file_path`.
pub(crate) const READ: &str = "Read";
/// The canonical file-writing tool: `file_path`, `content`.
pub(crate) const WRITE: &str = "Write";
/// The canonical file-editing tool: `file_path`, `old_string`, `new_string`.
pub(crate) const EDIT: &str = "Edit";
/// The canonical patch tool: the patch text in `input`, the files it names in `paths`.
pub(crate) const PATCH: &str = "apply_patch";

/// One gateway tool and how its arguments read.
#[derive(Debug)]
pub(crate) struct Row {
    /// The gateway's name for it.
    pub name: &'static str,
    /// hookgate's name for it.
    pub canonical: &'static str,
    /// `(gateway field, canonical field)` pairs, copied when present.
    pub fields: &'static [(&'static str, &'static str)],
    /// The field holding the directory a shell command runs in, relative to the session's.
    pub dir_field: Option<&'static str>,
}

/// A tool call in canonical form.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tool {
    /// hookgate's name (or the gateway's, for tools without a canonical one).
    pub name: String,
    /// The arguments: the gateway's own, plus the canonical fields.
    pub args: Map<String, Value>,
    /// Where a shell command runs, when the call names a directory of its own.
    pub cwd: Option<String>,
}

/// The call `name(args)` in canonical form, given `table` (the gateway's tools) and the
/// session's `cwd`. Relative file paths are made absolute against `cwd`. Fails (with what is
/// wrong) when a shell tool has no command string: such a call must not pass unread.
pub(crate) fn canonical(
    table: &[Row],
    name: &str,
    mut args: Map<String, Value>,
    cwd: Option<&str>,
) -> Result<Tool, String> {
    let Some(row) = table.iter().find(|r| r.name == name) else {
        return Ok(Tool {
            name: name.to_owned(),
            args,
            cwd: None,
        });
    };
    for (from, to) in row.fields {
        if let Some(value) = args.get(*from).cloned() {
            args.insert((*to).to_owned(), value);
        }
    }
    let mut tool_cwd = None;
    match row.canonical {
        SHELL => {
            if !matches!(args.get("command"), Some(Value::String(_))) {
                return Err(format!("calls `{name}` without a `command` string"));
            }
            if let Some(Value::String(dir)) = row.dir_field.and_then(|f| args.get(f))
                && !dir.is_empty()
            {
                tool_cwd = Some(against(cwd, dir));
            }
        }
        READ | WRITE | EDIT => {
            if let Some(Value::String(path)) = args.get("file_path") {
                let absolute = against(cwd, path);
                args.insert("file_path".into(), Value::String(absolute));
            }
        }
        PATCH => {
            if let Some(Value::String(patch)) = args.get("input") {
                let paths: Vec<Value> = patch_paths(patch)
                    .map(|p| Value::String(against(cwd, p)))
                    .collect();
                args.insert("paths".into(), Value::Array(paths));
            }
        }
        _ => {}
    }
    Ok(Tool {
        name: row.canonical.to_owned(),
        args,
        cwd: tool_cwd,
    })
}

/// The files a patch in the `*** Begin Patch` format adds, updates, deletes or moves to.
fn patch_paths(patch: &str) -> impl Iterator<Item = &str> {
    patch.lines().filter_map(|line| {
        [
            "*** Add File: ",
            "*** Update File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ]
        .iter()
        .find_map(|prefix| line.strip_prefix(prefix))
        .map(str::trim)
        .filter(|p| !p.is_empty())
    })
}

const fn row(
    name: &'static str,
    canonical: &'static str,
    fields: &'static [(&'static str, &'static str)],
) -> Row {
    Row {
        name,
        canonical,
        fields,
        dir_field: None,
    }
}

/// Claude Code's names are the canonical ones; the row makes a `Bash` call without a
/// command string an error, as for every other gateway.
pub(crate) const CLAUDE_CODE: &[Row] = &[row("Bash", SHELL, &[])];

/// Gemini CLI's built-in tools (`bundle/docs/reference/tools.md` and the function
/// declarations it sends the model, 0.61.0).
pub(crate) const GEMINI: &[Row] = &[
    Row {
        name: "run_shell_command",
        canonical: SHELL,
        fields: &[],
        dir_field: Some("dir_path"),
    },
    row("read_file", READ, &[]),
    row("write_file", WRITE, &[]),
    row("replace", EDIT, &[]),
];

/// Codex's hook tool names (0.169.0): its shell tool reaches hooks as `Bash` with
/// `command`; `apply_patch` carries the patch text in `command`.
pub(crate) const CODEX: &[Row] = &[
    row("Bash", SHELL, &[]),
    row("apply_patch", PATCH, &[("command", "input")]),
];

/// GitHub Copilot CLI's tools.
pub(crate) const COPILOT: &[Row] = &[
    row("bash", SHELL, &[]),
    row("view", READ, &[("path", "file_path")]),
    row(
        "create",
        WRITE,
        &[("path", "file_path"), ("file_text", "content")],
    ),
    row(
        "edit",
        EDIT,
        &[
            ("path", "file_path"),
            ("old_str", "old_string"),
            ("new_str", "new_string"),
        ],
    ),
];

/// opencode's tools (as its plugin's `tool.execute.before` sees them).
pub(crate) const OPENCODE: &[Row] = &[
    Row {
        name: "bash",
        canonical: SHELL,
        fields: &[],
        dir_field: Some("workdir"),
    },
    row("read", READ, &[("filePath", "file_path")]),
    row("write", WRITE, &[("filePath", "file_path")]),
    row(
        "edit",
        EDIT,
        &[
            ("filePath", "file_path"),
            ("oldString", "old_string"),
            ("newString", "new_string"),
        ],
    ),
    row("patch", PATCH, &[("patchText", "input")]),
    row("apply_patch", PATCH, &[("patchText", "input")]),
];

/// Cursor's `preToolUse` tool names; its older per-kind events are mapped by the adapter.
pub(crate) const CURSOR: &[Row] = &[
    row("Shell", SHELL, &[]),
    row("Read", READ, &[]),
    row("Write", WRITE, &[]),
    row("StrReplace", EDIT, &[]),
    row("Edit", EDIT, &[]),
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn gateways_tools_become_canonical() {
        let t = canonical(
            GEMINI,
            "run_shell_command",
            args(json!({"command": "ls", "dir_path": "web"})),
            Some("/w/app"),
        )
        .unwrap();
        assert_eq!(
            (t.name.as_str(), t.cwd.as_deref()),
            (SHELL, Some("/w/app/web"))
        );
        let t = canonical(
            COPILOT,
            "view",
            args(json!({"path": "notes.txt"})),
            Some("/w"),
        )
        .unwrap();
        assert_eq!(t.name, READ);
        assert_eq!(t.args["file_path"], "/w/notes.txt");
        let t = canonical(
            CODEX,
            "apply_patch",
            args(json!({"command": "*** Begin Patch\n*** Update File: HOOKS.yaml\n@@\n*** End Patch"})),
            Some("/w"),
        )
        .unwrap();
        assert_eq!(t.name, PATCH);
        assert_eq!(t.args["paths"], json!(["/w/HOOKS.yaml"]));
        assert!(t.args["input"].as_str().unwrap().contains("Update File"));
        // Unknown tools keep their names; a shell call without a command string is refused.
        assert_eq!(
            canonical(GEMINI, "web_fetch", Map::new(), None)
                .unwrap()
                .name,
            "web_fetch"
        );
        assert!(
            canonical(
                OPENCODE,
                "bash",
                args(json!({"command": ["rm", "-rf", "/"]})),
                None
            )
            .is_err()
        );
    }
}
