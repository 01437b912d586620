//! The default notifier: a bounded queue drained by a background thread that delivers.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};

use super::{Notice, Notifier, log};

/// Notices waiting for delivery, at most; more are dropped and counted.
pub(crate) const QUEUE_CAPACITY: usize = 1024;

enum Job {
    Deliver(Notice),
    Flush(oneshot::Sender<()>),
}

/// Queues notices for a background thread, started with the first notice; `notify` never
/// waits.
#[derive(Debug, Clone)]
pub(crate) struct Dispatcher {
    tx: mpsc::Sender<Job>,
    dropped: Arc<AtomicU64>,
    /// The queue's other end, until the first notice starts the delivery thread with it:
    /// most one-shot processes send none, and the thread builds a runtime of its own.
    idle: Arc<Mutex<Option<mpsc::Receiver<Job>>>>,
    /// Whether a notice was ever queued: until then a flush has nothing to wait for.
    used: Arc<AtomicBool>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Job::Deliver(_) => "Deliver",
            Job::Flush(_) => "Flush",
        })
    }
}

impl Dispatcher {
    /// A dispatcher with a queue of [`QUEUE_CAPACITY`] and its delivery thread.
    pub(crate) fn spawn() -> Dispatcher {
        Dispatcher::with_capacity(QUEUE_CAPACITY)
    }

    /// A dispatcher with a queue of `capacity` (at least 1).
    pub(crate) fn with_capacity(capacity: usize) -> Dispatcher {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        Dispatcher {
            tx,
            dropped: Arc::new(AtomicU64::new(0)),
            idle: Arc::new(Mutex::new(Some(rx))),
            used: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Starts the delivery thread, once.
    fn start(&self) {
        if self.used.swap(true, Ordering::AcqRel) {
            return;
        }
        let rx = self.idle.lock().ok().and_then(|mut idle| idle.take());
        let Some(rx) = rx else { return };
        let spawned = std::thread::Builder::new()
            .name("hookgate-notify".into())
            .spawn(move || run(rx));
        if let Err(e) = spawned {
            // Without the thread the queue fills and every notice is dropped, counted and logged.
            tracing::error!(error = %e, "cannot start the notification thread");
        }
    }
}

impl Notifier for Dispatcher {
    fn notify(&self, notice: Notice) {
        self.start();
        match self.tx.try_send(Job::Deliver(notice)) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(job) | mpsc::error::TrySendError::Closed(job)) => {
                let dropped = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
                metrics::counter!("hookgate_notifications_dropped_total").increment(1);
                if let Job::Deliver(notice) = job {
                    // Still on the record, though not delivered.
                    log(&notice);
                }
                if dropped == 1 || dropped.is_multiple_of(100) {
                    tracing::warn!(dropped, "notification queue full; notices dropped");
                }
            }
        }
    }

    fn flush(&self) -> Option<oneshot::Receiver<()>> {
        // A one-shot process that sent nothing does not wait for the delivery thread to
        // start (it builds a runtime of its own) just to hear that nothing is queued.
        if !self.used.load(Ordering::Acquire) {
            return None;
        }
        let (done, wait) = oneshot::channel();
        self.tx.try_send(Job::Flush(done)).ok()?;
        Some(wait)
    }
}

fn run(mut rx: mpsc::Receiver<Job>) {
    let Some(runtime) = crate::worker::runtime("notify") else {
        // Notices are still logged, never silently lost.
        while let Some(job) = rx.blocking_recv() {
            if let Job::Deliver(notice) = job {
                log(&notice);
            }
        }
        return;
    };
    runtime.block_on(async move {
        let mut delivery = delivery::Delivery::default();
        while let Some(job) = rx.recv().await {
            match job {
                Job::Deliver(notice) => delivery.deliver(&notice).await,
                Job::Flush(done) => {
                    let _ = done.send(());
                }
            }
        }
    });
}

/// Sending notices to their channels over HTTP.
#[cfg(feature = "notify")]
mod delivery {
    use std::time::Duration;

    use super::super::{Notice, log, telegram, webhook};
    use crate::config::{NotifySettings, TelegramSettings};

    /// One delivery attempt may take this long.
    const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

    /// The HTTP client, built on the first notice: most processes never send one, and a
    /// one-shot `check` should not pay for loading TLS roots.
    #[derive(Default)]
    pub(super) struct Delivery {
        client: Option<reqwest::Client>,
        broken: bool,
    }

    impl Delivery {
        /// Logs `notice` and sends it to its channels.
        pub(super) async fn deliver(&mut self, notice: &Notice) {
            log(notice);
            if self.client.is_none() && !self.broken {
                self.client = reqwest::Client::builder()
                    .timeout(REQUEST_TIMEOUT)
                    .build()
                    .map_err(|e| tracing::error!(error = %e, "cannot build the HTTP client; notices are only logged"))
                    .ok();
                self.broken = self.client.is_none();
            }
            let Some(client) = &self.client else { return };
            let implicit;
            let settings = match &notice.channels {
                Some(settings) => settings.as_ref(),
                None => {
                    implicit = implicit_channels();
                    &implicit
                }
            };
            if let Some(telegram) = &settings.telegram {
                report("telegram", telegram::send(client, telegram, notice).await);
            }
            if let Some(webhook) = &settings.webhook {
                report("webhook", webhook::send(client, webhook, notice).await);
            }
        }
    }

    /// Without `defaults.notify`: Telegram when its token is set (the seed always used
    /// Telegram).
    fn implicit_channels() -> NotifySettings {
        let token_set =
            std::env::var(telegram::DEFAULT_TOKEN_ENV).is_ok_and(|t| !t.trim().is_empty());
        NotifySettings {
            telegram: token_set.then(TelegramSettings::default),
            webhook: None,
        }
    }

    fn report(channel: &'static str, result: Result<(), String>) {
        let label = if result.is_ok() { "sent" } else { "failed" };
        metrics::counter!("hookgate_notifications_total", "channel" => channel, "result" => label)
            .increment(1);
        if let Err(error) = result {
            tracing::warn!(channel, %error, "notification not delivered");
        }
    }
}

/// Without the `notify` feature there is no HTTP client: notices are logged, and a notice
/// with channels to go to says, once, that it was not sent.
#[cfg(not(feature = "notify"))]
mod delivery {
    use super::super::{Notice, log};

    #[derive(Default)]
    pub(super) struct Delivery {
        warned: bool,
    }

    impl Delivery {
        pub(super) async fn deliver(&mut self, notice: &Notice) {
            log(notice);
            if notice.channels.is_some() && !std::mem::replace(&mut self.warned, true) {
                tracing::warn!(
                    "this build of hookgate sends no notifications (the `notify` feature is off); notices are only logged"
                );
            }
        }
    }
}
