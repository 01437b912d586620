//! hookgate's integration tests: one binary, one module per area.

mod cli;
mod config_errors;
mod corpus;
mod properties;
mod semantics;
mod util;
