//! hookgate's integration tests: one binary, one module per area.

// Helpers are shared between modules of this one test binary, never exported.
#![allow(unreachable_pub)]

mod actions;
mod approvals;
mod approvals_cli;
mod claude_code;
mod cli;
mod code_properties;
mod composition;
mod config_errors;
mod corpus;
mod daemon;
mod external;
mod gateways_real;
mod git_oracle;
mod hook_cli;
mod hooks_cli;
mod host_files;
mod lint_cli;
mod llm;
mod notify;
mod openclaw;
mod oracle;
mod pack_advice;
mod policy_test_cli;
mod properties;
mod regular_files;
mod render_properties;
mod same_policy;
mod semantics;
mod shell_corpus;
mod shell_properties;
mod sql_oracle;
mod stand_in;
mod util;
