//! hookgate's integration tests: one binary, one module per area.

// Helpers are shared between modules of this one test binary, never exported.
#![allow(unreachable_pub)]

mod cli;
mod config_errors;
mod corpus;
mod daemon;
mod properties;
mod semantics;
mod util;
