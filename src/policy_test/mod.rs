//! Policy tests: `*.test.yaml` files of cases, each an event and the decision a policy must
//! make about it, run with the real [`Engine`](crate::Engine) (`hookgate test`).
//!
//! - [`file`](mod@file): the test-file format, read within the same budgets as a policy,
//!   every problem reported with its line and column.
//! - [`discover`]: finding `*.test.yaml` files under directories.
//! - [`run`]: evaluating cases (a dry run by default: see
//!   [`Services::dry_run`](crate::actions::Services::dry_run)), judging decisions, coverage.
//! - [`report`] and [`junit`]: totals, JSON and JUnit XML.

pub(crate) mod file;
pub(crate) mod files;
pub(crate) mod junit;
pub(crate) mod report;
pub(crate) mod run;

pub(crate) use file::LoadError;
pub(crate) use files::find_test_files;
pub(crate) use run::{CaseResult, Coverage, FileError, FileReport, RunOptions, Runner};

#[cfg(test)]
mod tests {
    use super::*;

    /// A test file and its policy, run as `hookgate test` runs them.
    #[test]
    fn a_test_file_runs_against_its_policy() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        std::fs::write(
            dir.path().join("HOOKS.yaml"),
            r#"
version: "1"
hooks:
  - { name: rm-guard, point: turn:tool:pre, match: { commandPattern: '^rm\s' }, action: block }
"#,
        )?;
        let tests = file::parse_str(
            r#"
policy: HOOKS.yaml
cases:
  - { name: rm is blocked, tool: exec, command: "rm -rf /", expect: block, hook: rm-guard }
  - { name: ls is allowed, tool: exec, command: "ls", expect: allow }
"#,
            &dir.path().join("HOOKS.test.yaml"),
        )?;
        let policy = tests.policy.clone().unwrap_or_default();

        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()?;
        let mut runner = Runner::new(RunOptions::default());
        let report = runtime.block_on(runner.run(&tests, &policy));
        assert_eq!((report.passed(), report.failed()), (2, 0));
        assert!(runner.coverage()[0].unexercised.is_empty());
        Ok(())
    }
}
