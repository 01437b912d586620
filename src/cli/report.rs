//! Config errors and warnings on stderr, rendered by [`crate::config::report`].

use std::io::IsTerminal;

use crate::config::{ConfigError, LoadedPolicy, report};

/// Prints `error` to stderr: one snippet per problem, then a summary line.
pub(crate) fn print_config_error(error: &ConfigError) {
    eprint!("{}", report::render_error(error, stderr_color()));
}

/// Prints the loaded policy's warnings to stderr, each with its snippet.
pub(crate) fn print_warnings(policy: &LoadedPolicy) {
    eprint!("{}", report::render_warnings(policy, stderr_color()));
}

/// Whether stderr gets ANSI styles: a terminal, and no `NO_COLOR`.
fn stderr_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
