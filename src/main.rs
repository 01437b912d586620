//! The `hookgate` command: validate policies and ask what they decide.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
