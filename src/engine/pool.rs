//! The evaluation pool: the CPU-heavy part of an evaluation, off the async workers, within a
//! time limit.
//!
//! Reading a long shell command and running a large policy's regexes over it is CPU work
//! that can take seconds on a hostile call. On an async worker it would stall every other
//! request on that worker, `/healthz` included, and no timeout would fire (a timeout is
//! only noticed at an `.await`). So the daemon checks the filters ([`check_all`]) on a fixed
//! set of threads of its own, and waits for them at most the time limit: past it, the call
//! gets the fail-closed answer at once, and the thread stops at its next step (the checks
//! look at the same deadline). A light call (no shell syntax to read, a few KiB of text) is
//! checked where it is, under a small budget of steps: a thread hop would cost it more
//! than the checks; should it need more, it starts again on the pool.
//!
//! Threads cannot be killed, so the pool never grows: a fixed number of threads, and a queue
//! of fixed length (each connection has at most one evaluation waiting in it). When the
//! queue is full the call fails closed at once. A job that waited past its deadline is
//! dropped unread, so a backlog drains at the speed of the clock, not of the work.
//! Approval waits and the actions' I/O stay on the async side.
//!
//! The queue has two lanes. A call with little text (`cd app && npm test`: shell syntax,
//! so not light, but short) waits in the short lane, which every thread serves first; a
//! long call waits in the long lane. One more thread, at the daemon's own priority, is kept
//! for the short lane. So an agent's ordinary command never waits for a hostile 64 KiB one
//! to be read: at worst for the short calls before it.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::checks::{Checked, Overrun, check_all};
use crate::context::HookContext;
use crate::graph::RuleGraph;
use crate::matcher::{Deadline, shell};
use crate::point::Point;

/// The default time limit of an evaluation's checks.
///
/// Reading the longest command the shell reader takes (64 KiB) costs 10 to 30 ms, and a
/// realistic policy's regexes a fraction of a millisecond, so an honest call is far below
/// it even on a loaded machine; a hostile one holds a thread for at most this long.
pub(crate) const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(1);
/// The default length of the queue: the daemon's default connection limit, so that with
/// default settings a call waits for a thread rather than being turned away.
pub(crate) const DEFAULT_QUEUE: usize = 1024;
/// The most text (command, session key, tool arguments) a call may hold to be light, or
/// to wait in the short lane.
const LIGHT_BYTES: usize = 4 * 1024;
/// The steps (candidates visited, patterns run) a light call's checks may take where it is
/// before they move to the pool. Each is at most a regex run over a few KiB, typically
/// 0.1 µs: a light call holds an async worker for well under a millisecond.
const INLINE_STEPS: usize = 2_048;

/// How the pool is sized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolConfig {
    /// Threads checking filters of both lanes; at least one. One more is kept for short calls.
    pub threads: usize,
    /// Calls that may wait for a thread; past it they fail closed at once. Zero: none wait.
    pub queue: usize,
    /// The longest an evaluation's checks may take, waiting for a thread included.
    pub time_limit: Duration,
}

impl Default for PoolConfig {
    fn default() -> Self {
        PoolConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            queue: DEFAULT_QUEUE,
            time_limit: DEFAULT_TIME_LIMIT,
        }
    }
}

/// Why an evaluation got the fail-closed answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// Its checks ran over the time limit.
    TimeLimit(Duration),
    /// Every thread was busy and the queue full.
    Overloaded,
    /// Its checks failed (a panic, logged) or the pool is gone.
    Failed,
}

impl Cause {
    /// The decision's message.
    pub fn message(self) -> String {
        match self {
            Cause::TimeLimit(limit) => format!(
                "hookgate could not decide: the evaluation ran over its time limit ({} ms); \
                 the call is blocked",
                limit.as_millis()
            ),
            Cause::Overloaded => "hookgate could not decide: every evaluation thread is busy \
                                  and the queue is full; the call is blocked"
                .to_owned(),
            Cause::Failed => "hookgate could not decide: the evaluation failed (see the \
                              daemon's log); the call is blocked"
                .to_owned(),
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// A fixed set of threads that check filters, and a queue of fixed length before them, in
/// two lanes. Cheap to clone; the threads end when the last clone is dropped. On Linux the
/// threads that take long jobs run 10 `nice` steps below the thread that made the pool.
#[derive(Clone)]
pub struct EvalPool {
    owner: Arc<Owner>,
    config: PoolConfig,
}

impl std::fmt::Debug for EvalPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvalPool")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// What the pool's handles share with its threads.
struct Shared {
    lanes: Mutex<Lanes>,
    /// Wakes the thread kept for short jobs.
    for_kept: Condvar,
    /// Wakes one of the threads that take jobs of both lanes.
    for_shared: Condvar,
    /// Jobs that may wait.
    queue: usize,
}

/// The queue, in its two lanes, and which threads wait for a job.
#[derive(Default)]
struct Lanes {
    short: VecDeque<Job>,
    long: VecDeque<Job>,
    idle_kept: usize,
    idle_shared: usize,
    /// The last handle is gone: threads end once the queue is empty.
    closed: bool,
}

/// The lane a job waits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lane {
    Short,
    Long,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Lanes> {
        self.lanes.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `job`; past the queue's length, only if a thread takes it at once.
    fn submit(&self, lane: Lane, job: Job) -> Result<(), Cause> {
        let mut lanes = self.lock();
        let waiting = lanes.short.len() + lanes.long.len();
        let idle = match lane {
            Lane::Short => lanes.idle_kept + lanes.idle_shared,
            Lane::Long => lanes.idle_shared,
        };
        if waiting >= self.queue && idle <= waiting {
            return Err(Cause::Overloaded);
        }
        let wake = match lane {
            Lane::Short if lanes.idle_kept > 0 => &self.for_kept,
            _ => &self.for_shared,
        };
        match lane {
            Lane::Short => lanes.short.push_back(job),
            Lane::Long => lanes.long.push_back(job),
        }
        drop(lanes);
        wake.notify_one();
        Ok(())
    }
}

/// The handles' share: when the last is dropped, the threads are told to end.
struct Owner(Arc<Shared>);

impl Drop for Owner {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.for_kept.notify_all();
        self.0.for_shared.notify_all();
    }
}

impl EvalPool {
    /// Starts `config.threads` threads (at least one), and the one kept for short jobs.
    pub fn new(config: PoolConfig) -> std::io::Result<EvalPool> {
        let shared = Arc::new(Shared {
            lanes: Mutex::new(Lanes::default()),
            for_kept: Condvar::new(),
            for_shared: Condvar::new(),
            queue: config.queue,
        });
        let owner = Arc::new(Owner(Arc::clone(&shared)));
        // The threads of both lanes, then the one kept for short jobs.
        let threads = config.threads.max(1);
        for i in 0..=threads {
            let (shared, kept) = (Arc::clone(&shared), i == threads);
            std::thread::Builder::new()
                .name(format!("hookgate-eval-{i}"))
                .spawn(move || work(&shared, kept))?;
        }
        Ok(EvalPool { owner, config })
    }

    /// How the pool was sized.
    pub fn config(&self) -> PoolConfig {
        self.config
    }

    /// The filter checks of `ctx` at `point` on `graph`, within the time limit from now.
    pub(crate) async fn check(
        &self,
        graph: &Arc<RuleGraph>,
        point: Point,
        ctx: &HookContext,
    ) -> Result<Vec<Checked>, Cause> {
        let limit = self.config.time_limit;
        let deadline = Instant::now() + limit;
        if is_light(ctx)
            && let Ok(passed) = check_all(graph, point, ctx, Deadline::steps(INLINE_STEPS))
        {
            return Ok(passed);
        }
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = {
            let graph = Arc::clone(graph);
            let ctx = ctx.clone();
            Box::new(move || {
                // Its caller was answered while it waited: nothing to do.
                if answer.is_closed() || Instant::now() >= deadline {
                    let _ = answer.send(Err(Overrun));
                    return;
                }
                let _ = answer.send(check_all(&graph, point, &ctx, Deadline::at(deadline)));
            })
        };
        let lane = if is_short(ctx) {
            Lane::Short
        } else {
            Lane::Long
        };
        self.owner.0.submit(lane, job)?;
        match tokio::time::timeout_at(deadline.into(), answered).await {
            Ok(Ok(Ok(passed))) => Ok(passed),
            Ok(Ok(Err(Overrun))) | Err(_) => Err(Cause::TimeLimit(limit)),
            // The job was dropped unanswered: it panicked.
            Ok(Err(_)) => Err(Cause::Failed),
        }
    }
}

/// How much lower than the rest of the process the pool's threads run, as a `nice` step.
/// A light call is checked on a request thread; when hostile calls keep every pool thread
/// busy, the kernel then gives the request threads the cores first, and the heavy calls the
/// time left (docs/daemon.md, "Bounded work").
const POOL_NICE: i32 = 10;

/// One thread of the pool: runs jobs, short ones first, until the pool is dropped and its
/// queue is empty. The thread `kept` for short jobs takes no long one, and runs at the
/// daemon's own priority: its jobs are bounded by their size to a few milliseconds.
fn work(shared: &Shared, kept: bool) {
    if !kept {
        lower_priority();
    }
    let mut lanes = shared.lock();
    loop {
        let next = match lanes.short.pop_front() {
            Some(job) => Some(job),
            None if kept => None,
            None => lanes.long.pop_front(),
        };
        let Some(job) = next else {
            if lanes.closed {
                return;
            }
            let (idle, ready) = if kept {
                (&mut lanes.idle_kept, &shared.for_kept)
            } else {
                (&mut lanes.idle_shared, &shared.for_shared)
            };
            *idle += 1;
            lanes = ready.wait(lanes).unwrap_or_else(PoisonError::into_inner);
            if kept {
                lanes.idle_kept -= 1;
            } else {
                lanes.idle_shared -= 1;
            }
            continue;
        };
        drop(lanes);
        // A job that panics loses its answer (its caller fails closed), not the thread.
        if std::panic::catch_unwind(AssertUnwindSafe(job)).is_err() {
            tracing::error!("an evaluation's checks panicked; the call was blocked");
        }
        lanes = shared.lock();
    }
}

/// Lowers the calling thread's scheduling priority by [`POOL_NICE`]. Linux keeps a nice value
/// per thread; lowering one needs no privilege. Where it fails, the thread runs as it was.
#[cfg(target_os = "linux")]
fn lower_priority() {
    use rustix::process::{getpriority_process, setpriority_process};
    let thread = Some(rustix::thread::gettid());
    let lowered = getpriority_process(thread)
        .and_then(|now| setpriority_process(thread, (now + POOL_NICE).min(19)));
    if let Err(e) = lowered {
        tracing::debug!(error = %e, "cannot lower the evaluation thread's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

/// Whether checking `ctx` is cheap enough to do on the caller's thread: its command (if
/// any) reads as itself, with no shell syntax, and it holds little text.
fn is_light(ctx: &HookContext) -> bool {
    let plain = match ctx.tool_args.as_ref().and_then(|a| a.get("command")) {
        Some(serde_json::Value::String(command)) => shell::is_plain(command),
        _ => true,
    };
    plain && is_short(ctx)
}

/// Whether `ctx` holds at most [`LIGHT_BYTES`] of text: its command, if it has shell syntax
/// or code, is read within a millisecond or two.
fn is_short(ctx: &HookContext) -> bool {
    let mut budget = LIGHT_BYTES;
    let mut spend = |n: usize| match budget.checked_sub(n) {
        Some(left) => {
            budget = left;
            true
        }
        None => false,
    };
    spend(ctx.session_key.len())
        && ctx.prompt.as_ref().is_none_or(|p| spend(p.len()))
        && ctx.tool_args.as_ref().is_none_or(|args| {
            args.iter()
                .all(|(key, value)| spend(key.len()) && value_fits(value, &mut spend))
        })
}

/// Whether `value`'s text fits what `spend` has left (numbers and the like count a little).
fn value_fits(value: &serde_json::Value, spend: &mut impl FnMut(usize) -> bool) -> bool {
    use serde_json::Value;
    match value {
        Value::String(s) => spend(s.len()),
        Value::Array(items) => items.iter().all(|v| value_fits(v, spend)),
        Value::Object(map) => map
            .iter()
            .all(|(k, v)| spend(k.len()) && value_fits(v, spend)),
        Value::Null | Value::Bool(_) | Value::Number(_) => spend(8),
    }
}

#[cfg(test)]
mod tests;
