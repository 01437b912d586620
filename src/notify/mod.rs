//! Notifications to the user of a session: fire-and-forget, never delaying a decision.
//!
//! The engine hands each [`Notice`] to a [`Notifier`]. The default, [`Dispatcher`], puts it on
//! a bounded queue that a background thread drains: the notice is logged (tracing target
//! `hookgate::notify`) and delivered to the channels of `defaults.notify` (the Telegram Bot
//! API, a JSON webhook). When the queue is full the notice is dropped and counted. Every
//! Decision also lists its notices, so an embedding gateway can deliver them itself.

mod dispatcher;
#[cfg(feature = "notify")]
mod target;
#[cfg(feature = "notify")]
mod telegram;
#[cfg(feature = "notify")]
mod webhook;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub(crate) use dispatcher::Dispatcher;
#[cfg(feature = "notify")]
pub(crate) use target::{TelegramTarget, parse_target};

use crate::config::NotifySettings;
use crate::point::Point;

/// One message for the user behind a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Notice {
    /// The hook that sent it.
    pub hook: String,
    /// The point it was sent at.
    pub point: Point,
    /// The session the event belongs to (the primary target).
    pub session_key: String,
    /// `defaults.notificationTarget`: where to send when the session names no chat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback_target: Option<String>,
    /// The text.
    pub message: String,
    /// The policy's delivery channels (`None`: the implicit default).
    #[serde(skip)]
    pub channels: Option<Arc<NotifySettings>>,
}

/// Sends notices to users.
pub trait Notifier: Send + Sync + std::fmt::Debug {
    /// Sends without waiting; failures are the notifier's to report, never the caller's.
    fn notify(&self, notice: Notice);

    /// A receiver that completes once the notices queued so far are handled, if the
    /// notifier queues them (used before a one-shot process exits).
    fn flush(&self) -> Option<tokio::sync::oneshot::Receiver<()>> {
        None
    }
}

/// Writes notices to the log only, at WARN level.
#[cfg(test)]
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct LogNotifier;

#[cfg(test)]
impl Notifier for LogNotifier {
    fn notify(&self, notice: Notice) {
        log(&notice);
    }
}

fn log(notice: &Notice) {
    tracing::warn!(
        target: "hookgate::notify",
        hook = %notice.hook,
        session_key = %notice.session_key,
        fallback_target = notice.fallback_target.as_deref().unwrap_or(""),
        message = %notice.message,
        "notification"
    );
}
