//! Totals and the shared wording of a run: the summary, coverage lines, error details, JSON.

use serde_json::{Value, json};

use super::run::{Coverage, FileError, FileReport};
use crate::config::Diagnostic;

/// The totals of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Cases that met their expectations.
    pub passed: usize,
    /// Cases that did not.
    pub failed: usize,
    /// Test files that could not be run (malformed, unreadable, or a policy that won't load).
    pub errors: usize,
    /// Enabled hooks that no case exercised, over every policy.
    pub unexercised: usize,
}

impl Summary {
    /// The totals of `reports` and `coverage`.
    pub(crate) fn of(reports: &[FileReport], coverage: &[Coverage]) -> Summary {
        Summary {
            passed: reports.iter().map(FileReport::passed).sum(),
            failed: reports.iter().map(FileReport::failed).sum(),
            errors: reports.iter().filter(|r| r.outcome.is_err()).count(),
            unexercised: coverage.iter().map(|c| c.unexercised.len()).sum(),
        }
    }

    /// Whether the run succeeded: no failed case and no error (and, with `fail_uncovered`,
    /// every enabled hook exercised).
    pub(crate) fn ok(&self, fail_uncovered: bool) -> bool {
        self.failed == 0 && self.errors == 0 && !(fail_uncovered && self.unexercised > 0)
    }

    /// `ok. 12 passed, 0 failed` / `FAILED. 11 passed, 1 failed, 1 error`.
    pub(crate) fn line(&self, fail_uncovered: bool) -> String {
        let mut line = format!(
            "{}. {} passed, {} failed",
            if self.ok(fail_uncovered) {
                "ok"
            } else {
                "FAILED"
            },
            self.passed,
            self.failed
        );
        if self.errors > 0 {
            line.push_str(&format!(
                ", {} error{} (test files that could not be run)",
                self.errors,
                if self.errors == 1 { "" } else { "s" }
            ));
        }
        if fail_uncovered && self.unexercised > 0 {
            line.push_str(&format!(
                ", {} hook{} not exercised",
                self.unexercised,
                if self.unexercised == 1 { "" } else { "s" }
            ));
        }
        line
    }
}

/// `policies/x.yaml: 6 of 7 enabled hooks exercised; not exercised: fork-bomb (line 88)`.
pub(crate) fn coverage_line(c: &Coverage) -> String {
    let mut line = format!(
        "{}: {} of {} enabled hook{} exercised",
        c.policy.display(),
        c.exercised(),
        c.enabled,
        if c.enabled == 1 { "" } else { "s" }
    );
    if !c.unexercised.is_empty() {
        let names: Vec<String> = c
            .unexercised
            .iter()
            .map(|u| match (&u.file, u.line) {
                (None, Some(line)) => format!("{} (line {line})", u.hook),
                (Some(file), Some(line)) => format!("{} ({} line {line})", u.hook, file.display()),
                (Some(file), None) => format!("{} ({})", u.hook, file.display()),
                (None, None) => u.hook.clone(),
            })
            .collect();
        line.push_str("; not exercised: ");
        line.push_str(&names.join(", "));
    }
    line
}

/// The problems behind `error`, one per line (`file:line:column: field: message`), or its
/// message when it has none.
pub(crate) fn error_details(error: &FileError) -> String {
    let diagnostics = diagnostics(error);
    if diagnostics.is_empty() {
        return error.to_string();
    }
    let mut lines = vec![error.to_string()];
    lines.extend(diagnostics.iter().map(ToString::to_string));
    lines.join("\n")
}

/// The positioned problems behind `error`.
pub(crate) fn diagnostics(error: &FileError) -> &[Diagnostic] {
    match error {
        FileError::TestFile(e) => e.diagnostics(),
        FileError::Policy { error, .. } => error.diagnostics(),
    }
}

/// The whole run as one JSON document: `files` (each with its `cases` and their decisions, or
/// its `error`), `coverage` and `summary`.
pub(crate) fn to_json(
    reports: &[FileReport],
    coverage: &[Coverage],
    fail_uncovered: bool,
) -> Value {
    let summary = Summary::of(reports, coverage);
    let files: Vec<Value> = reports
        .iter()
        .map(|r| {
            let mut file = json!({
                "file": r.file.display().to_string(),
                "policy": r.policy.as_ref().map(|p| p.display().to_string()),
            });
            match &r.outcome {
                Ok(cases) => {
                    file["cases"] = cases
                        .iter()
                        .map(|c| {
                            json!({
                                "name": c.name,
                                "line": c.line,
                                "passed": c.passed(),
                                "failures": c.failures,
                                "decision": c.decision,
                                "durationMs": c.duration.as_secs_f64() * 1000.0,
                            })
                        })
                        .collect();
                }
                Err(error) => {
                    file["error"] = json!({
                        "kind": match error {
                            FileError::TestFile(_) => "test_file",
                            FileError::Policy { .. } => "policy",
                        },
                        "message": error.to_string(),
                        "problems": diagnostics(error),
                    });
                }
            }
            file
        })
        .collect();
    let coverage_json: Vec<Value> = coverage
        .iter()
        .map(|c| {
            json!({
                "policy": c.policy.display().to_string(),
                "enabled": c.enabled,
                "exercised": c.exercised(),
                "unexercised": c.unexercised.iter().map(|u| json!({
                    "hook": u.hook,
                    "file": u.file.as_ref().map(|f| f.display().to_string()),
                    "line": u.line,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "files": files,
        "coverage": coverage_json,
        "summary": {
            "passed": summary.passed,
            "failed": summary.failed,
            "errors": summary.errors,
            "unexercised": summary.unexercised,
            "ok": summary.ok(fail_uncovered),
        },
    })
}
