//! Notifications to the user of a session (fire-and-forget).
//!
//! This build delivers notifications to the log (`tracing`, target `hookgate::notify`);
//! Telegram and webhook delivery plug in behind the same trait.

/// Sends a message to the user behind a notification target (a session key).
pub trait Notifier: Send + Sync + std::fmt::Debug {
    /// Sends without waiting; failures are the notifier's to report, never the caller's.
    fn notify(&self, target: &str, message: &str);
}

/// Writes notifications to the log at WARN level.
#[derive(Debug, Default, Clone, Copy)]
pub struct LogNotifier;

impl Notifier for LogNotifier {
    fn notify(&self, target: &str, message: &str) {
        tracing::warn!(target: "hookgate::notify", %target, %message, "notification");
    }
}
