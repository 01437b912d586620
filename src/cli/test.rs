//! `hookgate test`: run policy test files (`*.test.yaml`) with the real engine and report
//! like `cargo test` (or as JUnit XML / JSON for CI).
//!
//! Exit codes: 0 when every case passed; 1 when a case failed, a test file or its policy
//! could not be used, no test file was found, or (with `--fail-uncovered`) an enabled hook
//! was not exercised.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{self, ConfigError};
use crate::policy_test::report::{self as summary, Summary};
use crate::policy_test::{
    FileError, FileReport, LoadError, RunOptions, Runner, file, find_test_files, junit,
};
use crate::terminal::{self, escape};
use clap::ValueEnum;

use super::{EXIT_ERROR, emit, policy_path};

/// Arguments of `hookgate test`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Test files, or directories searched recursively for `*.test.yaml` and `*.test.yml`
    /// (skipping .git, node_modules, target, dist).
    #[arg(value_name = "PATH", default_value = ".")]
    paths: Vec<PathBuf>,
    /// Policy for test files without `policy:` (default: $HOOKGATE_CONFIG,
    /// $OPENCLAW_HOOKS_CONFIG, ./HOOKS.yaml, $OPENCLAW_WORKSPACE/HOOKS.yaml).
    #[arg(long)]
    config: Option<PathBuf>,
    /// text: one line per case, like `cargo test`; junit: JUnit XML; json: one JSON document.
    #[arg(long, value_enum, default_value_t)]
    format: TestFormat,
    /// Run the actions for real: `log` and `summarize_and_log` write their files, LLMs are
    /// asked, notifications are sent. By default a test run is dry.
    #[arg(long)]
    live_actions: bool,
    /// Fail when an enabled hook of a policy was exercised by no case.
    #[arg(long)]
    fail_uncovered: bool,
}

/// Output format of `hookgate test`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
enum TestFormat {
    /// One line per case, then failures, coverage and a summary.
    #[default]
    Text,
    /// JUnit XML on stdout (diagnostics on stderr).
    Junit,
    /// One JSON document on stdout (diagnostics on stderr).
    Json,
}

pub(crate) fn run(args: Args) -> u8 {
    let (files, unreadable) = find_test_files(&args.paths);
    if files.is_empty() && unreadable.is_empty() {
        eprintln!(
            "error: no test files (*.test.yaml, *.test.yml) found in {}",
            args.paths
                .iter()
                .map(|p| format!("`{}`", p.display()))
                .collect::<Vec<_>>()
                .join(", ")
        );
        return EXIT_ERROR;
    }
    let runtime = match super::evaluation_runtime() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return EXIT_ERROR;
        }
    };
    let printer = Printer {
        format: args.format,
        color: match args.format {
            TestFormat::Text => std::io::stdout().is_terminal(),
            _ => std::io::stderr().is_terminal(),
        },
    };
    let mut runner = Runner::new(RunOptions {
        live_actions: args.live_actions,
    });
    // Found once, for every file without `policy:`.
    let mut default_policy: Option<Result<PathBuf, Arc<ConfigError>>> = None;
    let mut reports = Vec::new();
    for (path, error) in unreadable {
        let report = FileReport::error(
            path.clone(),
            None,
            FileError::TestFile(LoadError::Read {
                path,
                source: error,
            }),
        );
        printer.file(&report);
        reports.push(report);
    }
    runtime.block_on(async {
        for path in files {
            let report = match file::load_file(&path) {
                Err(e) => FileReport::error(path, None, e.into()),
                Ok(tests) => {
                    let policy = match &tests.policy {
                        Some(p) => Ok(p.clone()),
                        None => default_policy
                            .get_or_insert_with(|| {
                                policy_path(args.config.as_deref())
                                    .map(relative_to_cwd)
                                    .map_err(Arc::new)
                            })
                            .clone(),
                    };
                    match policy {
                        Ok(policy) => runner.run(&tests, &policy).await,
                        Err(error) => {
                            FileReport::error(path, None, FileError::Policy { path: None, error })
                        }
                    }
                }
            };
            printer.file(&report);
            reports.push(report);
        }
        runner.flush().await;
    });
    let coverage = runner.coverage();
    let totals = Summary::of(&reports, &coverage);
    match args.format {
        TestFormat::Text => emit(&text_epilogue(
            &reports,
            &coverage,
            &totals,
            args.fail_uncovered,
        )),
        TestFormat::Junit => emit(&junit::render(&reports, &coverage, args.fail_uncovered)),
        TestFormat::Json => {
            let json = summary::to_json(&reports, &coverage, args.fail_uncovered);
            match serde_json::to_string_pretty(&json) {
                Ok(text) => emit(&format!("{}\n", terminal::escape_json(&text))),
                Err(e) => {
                    eprintln!("error: cannot print the report: {e}");
                    return EXIT_ERROR;
                }
            }
        }
    }
    if totals.ok(args.fail_uncovered) {
        0
    } else {
        EXIT_ERROR
    }
}

/// `path` relative to the working directory when it is inside it (discovery names
/// `./HOOKS.yaml` by its absolute path), for shorter reports.
fn relative_to_cwd(path: PathBuf) -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else {
        return path;
    };
    match path.strip_prefix(&cwd) {
        Ok(rest) if !rest.as_os_str().is_empty() => rest.to_path_buf(),
        _ => path,
    }
}

/// Prints each file as it is done: its cases (text), or its problems.
struct Printer {
    format: TestFormat,
    /// ANSI styles in diagnostics.
    color: bool,
}

impl Printer {
    fn file(&self, report: &FileReport) {
        let text = self.format == TestFormat::Text;
        let mut out = String::new();
        match &report.outcome {
            Ok(cases) => {
                if !text {
                    return;
                }
                out.push_str(&format!(
                    "\nrunning {} case{} from {}",
                    cases.len(),
                    if cases.len() == 1 { "" } else { "s" },
                    escape(&report.file.display().to_string())
                ));
                if let Some(policy) = &report.policy {
                    out.push_str(&format!(
                        " (policy {})",
                        escape(&policy.display().to_string())
                    ));
                }
                out.push('\n');
                for case in cases {
                    out.push_str(&format!(
                        "test {} ... {}\n",
                        escape(&case.name),
                        if case.passed() { "ok" } else { "FAILED" }
                    ));
                }
            }
            Err(error) => {
                if text {
                    out.push('\n');
                }
                out.push_str(&format!("error: {}\n", headline(&report.file, error)));
                out.push_str(&self.diagnostics(error));
            }
        }
        if text {
            emit(&out);
        } else {
            eprint!("{out}");
        }
    }

    /// The positioned problems behind `error`, as snippets.
    fn diagnostics(&self, error: &FileError) -> String {
        match error {
            FileError::TestFile(LoadError::Invalid {
                file,
                source_text,
                diagnostics,
            }) => config::report::render_diagnostics(file, source_text, diagnostics, self.color),
            FileError::Policy { error, .. } => match &**error {
                ConfigError::Invalid {
                    file,
                    source_text,
                    diagnostics,
                } => config::report::render_diagnostics(file, source_text, diagnostics, self.color),
                _ => String::new(),
            },
            FileError::TestFile(LoadError::Read { .. }) => String::new(),
        }
    }
}

/// What went wrong with a file, in one line (escaped: it names files and quotes them).
fn headline(file: &Path, error: &FileError) -> String {
    let line = match error {
        // These name the test file themselves.
        FileError::TestFile(e) => e.to_string(),
        FileError::Policy { .. } => format!("{}: {error}", file.display()),
    };
    escape(&line).into_owned()
}

/// After the cases: the failures with their explanations, files that could not be run,
/// coverage, and the summary line.
fn text_epilogue(
    reports: &[FileReport],
    coverage: &[crate::policy_test::Coverage],
    totals: &Summary,
    fail_uncovered: bool,
) -> String {
    let mut out = String::new();
    let failed: Vec<(&Path, &crate::policy_test::CaseResult)> = reports
        .iter()
        .flat_map(|r| r.cases().iter().map(move |c| (r.file.as_path(), c)))
        .filter(|(_, c)| !c.passed())
        .collect();
    if !failed.is_empty() {
        out.push_str("\nfailures:\n");
        for (file, case) in &failed {
            out.push_str(&format!(
                "\n---- {} (line {}): {} ----\n",
                escape(&file.display().to_string()),
                case.line,
                escape(&case.name)
            ));
            for line in &case.failures {
                out.push_str(&escape(line));
                out.push('\n');
            }
        }
    }
    let broken: Vec<&FileReport> = reports.iter().filter(|r| r.outcome.is_err()).collect();
    if !broken.is_empty() {
        out.push_str("\ncould not run:\n");
        for r in broken {
            if let Err(e) = &r.outcome {
                out.push_str(&format!("    {}\n", headline(&r.file, e)));
            }
        }
    }
    if !coverage.is_empty() {
        out.push('\n');
        for c in coverage {
            out.push_str(&format!(
                "coverage: {}\n",
                escape(&summary::coverage_line(c))
            ));
        }
    }
    out.push_str(&format!("\ntest result: {}\n", totals.line(fail_uncovered)));
    out
}
