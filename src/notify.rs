//! Notifications to the user of a session (fire-and-forget).
//!
//! This build delivers notifications to the log (`tracing`, target `hookgate::notify`);
//! Telegram and webhook delivery plug in behind the same trait.

/// One message for the user behind a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Notice<'a> {
    /// The session the event belongs to (the primary target).
    pub session_key: &'a str,
    /// `defaults.notificationTarget`: where to send when the session cannot be reached.
    pub fallback_target: Option<&'a str>,
    /// The text.
    pub message: &'a str,
}

/// Sends notices to users.
pub trait Notifier: Send + Sync + std::fmt::Debug {
    /// Sends without waiting; failures are the notifier's to report, never the caller's.
    fn notify(&self, notice: &Notice<'_>);
}

/// Writes notices to the log at WARN level.
#[derive(Debug, Default, Clone, Copy)]
pub struct LogNotifier;

impl Notifier for LogNotifier {
    fn notify(&self, notice: &Notice<'_>) {
        tracing::warn!(
            target: "hookgate::notify",
            session_key = notice.session_key,
            fallback_target = notice.fallback_target.unwrap_or(""),
            message = notice.message,
            "notification"
        );
    }
}
