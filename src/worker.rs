//! Background worker threads (the LLM caller, the notification sender) each drive their own
//! small tokio runtime, so they work whatever runtime the embedder evaluates on.

/// A current-thread runtime with I/O and time for the worker named `what`; `None` (and an
/// error in the log) when the system refuses one.
pub(crate) fn runtime(what: &str) -> Option<tokio::runtime::Runtime> {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => Some(runtime),
        Err(e) => {
            tracing::error!(error = %e, worker = what, "cannot start a worker runtime");
            None
        }
    }
}
