//! The background writer behind the `log` action: one thread, started by the first line,
//! appends JSONL lines to their files in batches. Its queue is bounded; when it is full the
//! decision waits rather than drop a line.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use tokio::sync::{mpsc, oneshot};

/// Lines waiting to be written, at most.
const QUEUE: usize = 8192;
/// Open files kept between batches, at most.
const OPEN_FILES: usize = 64;
/// The writer rests this long after each batch. While it rests it is not waiting on the
/// queue, so senders do not wake it line by line: under load, a wake-up (a context switch)
/// per line cost a third of the daemon's CPU; this caps wake-ups at about 1,000 a second.
/// A flush cuts the rest short (it unparks the writer): a one-shot `hookgate check`
/// otherwise waited out the whole rest before it could exit.
const COALESCE: std::time::Duration = std::time::Duration::from_millis(1);

enum Message {
    /// `None`: no target; the line goes to stderr.
    Line(Option<PathBuf>, String),
    Flush(oneshot::Sender<()>),
    /// Close every open file; the next line reopens it (after a logrotate rename).
    Reopen,
}

/// Handle to the writer thread. Dropping every handle stops the thread after it has written
/// what was queued.
#[derive(Debug, Clone)]
pub(crate) struct LogWriter {
    tx: mpsc::Sender<Message>,
    /// Set by [`LogWriter::flush`]: someone waits, so the writer does not rest.
    waited_on: Arc<AtomicBool>,
    /// The queue's other end, until the first line starts the writer thread with it: an
    /// engine that never logs starts no thread.
    idle: Arc<Mutex<Option<mpsc::Receiver<Message>>>>,
    /// The writer thread once started (`None` if it could not be), to wake from its rest.
    writer: Arc<OnceLock<Option<std::thread::Thread>>>,
}

impl LogWriter {
    /// A writer whose thread starts with the first line.
    pub(crate) fn new() -> LogWriter {
        let (tx, rx) = mpsc::channel(QUEUE);
        LogWriter {
            tx,
            waited_on: Arc::new(AtomicBool::new(false)),
            idle: Arc::new(Mutex::new(Some(rx))),
            writer: Arc::new(OnceLock::new()),
        }
    }

    /// The writer thread, started on the first call.
    fn start(&self) -> Option<&std::thread::Thread> {
        self.writer
            .get_or_init(|| {
                let rx = self
                    .idle
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take()?;
                let flag = Arc::clone(&self.waited_on);
                let spawned = std::thread::Builder::new()
                    .name("hookgate-log".into())
                    .spawn(move || run(rx, &flag));
                match spawned {
                    Ok(handle) => Some(handle.thread().clone()),
                    Err(e) => {
                        // Without the thread, sends fail and each line falls back to stderr.
                        tracing::error!(error = %e, "cannot start the log writer thread");
                        None
                    }
                }
            })
            .as_ref()
    }

    /// Queues `line` for `path` (stderr when `None`); waits while the queue is full.
    pub(crate) async fn append(&self, path: Option<PathBuf>, line: String) {
        self.start();
        if let Err(mpsc::error::SendError(Message::Line(_, line))) =
            self.tx.send(Message::Line(path, line)).await
        {
            eprintln!("[hookgate/log] {line}");
        }
    }

    /// Closes the open files once the lines queued before the call are written, so a rotated
    /// log is reopened under its name.
    pub(crate) async fn reopen(&self) {
        // Before the first line no file is open.
        if self.writer.get().is_some() {
            let _ = self.tx.send(Message::Reopen).await;
        }
    }

    /// Returns once every line queued before the call is written.
    pub(crate) async fn flush(&self) {
        // Before the first line nothing is queued.
        let Some(writer) = self.writer.get() else {
            return;
        };
        let (done, wait) = oneshot::channel();
        self.waited_on.store(true, Ordering::Release);
        if self.tx.send(Message::Flush(done)).await.is_ok() {
            if let Some(writer) = writer {
                writer.unpark();
            }
            let _ = wait.await;
        }
    }
}

fn run(mut rx: mpsc::Receiver<Message>, waited_on: &AtomicBool) {
    let mut files: HashMap<PathBuf, File> = HashMap::new();
    while let Some(first) = rx.blocking_recv() {
        let mut batch: Vec<(Option<PathBuf>, String)> = Vec::new();
        let mut acks = Vec::new();
        let mut reopen = false;
        let mut next = Some(first);
        while let Some(message) = next.take() {
            match message {
                Message::Line(path, line) => batch.push((path, line)),
                Message::Flush(ack) => acks.push(ack),
                Message::Reopen => {
                    reopen = true;
                    break;
                }
            }
            if batch.len() < QUEUE {
                next = rx.try_recv().ok();
            }
        }
        let lines = batch.len();
        write_batch(&mut files, batch);
        if reopen {
            files.clear();
        }
        for ack in acks {
            let _ = ack.send(());
        }
        if lines > 0 {
            // One wake-up per rest: sleeping in slices to look at the flag woke the thread
            // ten times a batch.
            let until = std::time::Instant::now() + COALESCE;
            while !waited_on.swap(false, Ordering::AcqRel) {
                let left = until.saturating_duration_since(std::time::Instant::now());
                if left.is_zero() {
                    break;
                }
                std::thread::park_timeout(left);
            }
        }
    }
}

fn write_batch(files: &mut HashMap<PathBuf, File>, batch: Vec<(Option<PathBuf>, String)>) {
    let mut by_file: Vec<(Option<PathBuf>, String)> = Vec::new();
    for (path, line) in batch {
        match by_file.iter_mut().find(|(p, _)| *p == path) {
            Some((_, buf)) => {
                buf.push_str(&line);
                buf.push('\n');
            }
            None => by_file.push((path, line + "\n")),
        }
    }
    for (path, buf) in by_file {
        let Some(path) = path else {
            for line in buf.lines() {
                eprintln!("[hookgate/log] {line}");
            }
            continue;
        };
        if let Err(e) = append(files, &path, buf.as_bytes()) {
            files.remove(&path);
            tracing::warn!(path = %path.display(), error = %e, "log write failed; writing to stderr");
            for line in buf.lines() {
                eprintln!("[hookgate/log] {line}");
            }
        }
    }
}

fn append(files: &mut HashMap<PathBuf, File>, path: &PathBuf, bytes: &[u8]) -> std::io::Result<()> {
    if !files.contains_key(path) {
        if files.len() >= OPEN_FILES {
            files.clear();
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        files.insert(path.clone(), file);
    }
    match files.get_mut(path) {
        Some(file) => file.write_all(bytes),
        None => Err(std::io::Error::other("log file handle missing")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_writer_thread_starts_with_the_first_line() {
        let writer = LogWriter::new();
        // Nothing to flush or reopen yet, and no thread to do it.
        writer.flush().await;
        writer.reopen().await;
        assert!(
            writer.writer.get().is_none(),
            "a thread started before any line"
        );
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("audit.jsonl");
        let clone = writer.clone();
        clone.append(Some(path.clone()), "{\"a\":1}".into()).await;
        writer.flush().await;
        assert!(writer.writer.get().is_some_and(Option::is_some));
        assert_eq!(
            std::fs::read_to_string(&path).expect("written"),
            "{\"a\":1}\n"
        );
    }
}
