//! The `hookgate` command: validate policies and ask what they decide.

use std::process::ExitCode;

/// The daemon frees on one thread what another allocated (a request's context is checked on
/// the evaluation pool, its answer dropped on the request thread). glibc's malloc takes the
/// other thread's arena lock for that, so a busy evaluation thread could hold up a request;
/// mimalloc frees across threads without a lock, and allocates faster (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    hookgate::run_cli()
}
