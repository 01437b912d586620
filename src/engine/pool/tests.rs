use super::*;
use serde_json::json;

fn ctx(v: serde_json::Value) -> HookContext {
    serde_json::from_value(v).expect("context")
}

#[test]
fn light_calls_are_plain_and_short() {
    assert!(is_light(&ctx(
        json!({"sessionKey": "s", "toolArgs": {"command": "ls -la"}})
    )));
    assert!(is_light(&ctx(
        json!({"sessionKey": "s", "prompt": "hello"})
    )));
    assert!(!is_light(&ctx(
        json!({"sessionKey": "s", "toolArgs": {"command": "ls | wc"}})
    )));
    let long = "a ".repeat(LIGHT_BYTES);
    assert!(!is_light(&ctx(
        json!({"sessionKey": "s", "toolArgs": {"command": long.trim()}})
    )));
    let many = vec!["ab"; LIGHT_BYTES];
    assert!(!is_light(&ctx(
        json!({"sessionKey": "s", "toolArgs": {"paths": many}})
    )));
    let nested = json!({"a": {"b": [{"c": "x".repeat(LIGHT_BYTES)}]}});
    assert!(!is_light(&ctx(
        json!({"sessionKey": "s", "toolArgs": {"deep": nested}})
    )));
}

#[cfg(target_os = "linux")]
#[test]
fn pool_threads_run_below_the_threads_that_answer_requests() {
    use rustix::process::getpriority_process;
    let here = getpriority_process(Some(rustix::thread::gettid())).expect("priority");
    let pool = EvalPool::new(PoolConfig {
        threads: 1,
        queue: 1,
        time_limit: Duration::from_secs(5),
    })
    .expect("pool");
    let (tx, rx) = std::sync::mpsc::channel();
    run_in(&pool, Lane::Long, move || {
        let _ = tx.send(getpriority_process(Some(rustix::thread::gettid())));
    })
    .expect("queued");
    let there = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("the job ran")
        .expect("priority");
    assert_eq!(there, (here + POOL_NICE).min(19));
}

fn run_in(pool: &EvalPool, lane: Lane, job: impl FnOnce() + Send + 'static) -> Result<(), Cause> {
    pool.owner.0.submit(lane, Box::new(job))
}

/// A job that runs until `gate` lets it go, then says `name` on `done`.
fn held(
    gate: &Arc<Mutex<std::sync::mpsc::Receiver<()>>>,
    done: &std::sync::mpsc::Sender<&'static str>,
    name: &'static str,
) -> impl FnOnce() + Send + 'static {
    let (gate, done) = (Arc::clone(gate), done.clone());
    move || {
        let _ = gate
            .lock()
            .expect("gate")
            .recv_timeout(Duration::from_secs(10));
        let _ = done.send(name);
    }
}

fn config(threads: usize, queue: usize) -> PoolConfig {
    PoolConfig {
        threads,
        queue,
        time_limit: Duration::from_secs(5),
    }
}

#[test]
fn short_jobs_do_not_wait_for_long_ones() {
    let pool = EvalPool::new(config(2, 8)).expect("pool");
    let (open, gate) = std::sync::mpsc::channel();
    let gate = Arc::new(Mutex::new(gate));
    let (done, said) = std::sync::mpsc::channel();
    for _ in 0..3 {
        run_in(&pool, Lane::Long, held(&gate, &done, "long")).expect("queued");
    }
    // One long job runs and two wait; the other thread is kept for short jobs.
    let short = done.clone();
    run_in(&pool, Lane::Short, move || {
        let _ = short.send("short");
    })
    .expect("queued");
    let wait = Duration::from_secs(5);
    assert_eq!(said.recv_timeout(wait), Ok("short"));
    for _ in 0..3 {
        open.send(()).expect("open");
        assert_eq!(said.recv_timeout(wait), Ok("long"));
    }
}

/// Queues a job that runs until `gate` lets it go, once it has started.
fn started(
    pool: &EvalPool,
    lane: Lane,
    gate: &Arc<Mutex<std::sync::mpsc::Receiver<()>>>,
    done: &std::sync::mpsc::Sender<&'static str>,
    name: &'static str,
) {
    let (tell, told) = std::sync::mpsc::channel();
    let job = held(gate, done, name);
    run_in(pool, lane, move || {
        let _ = tell.send(());
        job();
    })
    .expect("queued");
    told.recv_timeout(Duration::from_secs(5))
        .expect("a thread took the job");
}

#[test]
fn the_thread_kept_for_short_jobs_takes_no_long_one() {
    let pool = EvalPool::new(config(1, 8)).expect("pool");
    let (open, gate) = std::sync::mpsc::channel();
    let gate = Arc::new(Mutex::new(gate));
    let (done, said) = std::sync::mpsc::channel();
    started(&pool, Lane::Long, &gate, &done, "first long");
    let thread = || std::thread::current().name().unwrap_or_default().to_owned();
    let (ran, on) = std::sync::mpsc::channel();
    let second = ran.clone();
    run_in(&pool, Lane::Long, move || {
        let _ = second.send(("long", thread()));
    })
    .expect("queued");
    run_in(&pool, Lane::Short, move || {
        let _ = ran.send(("short", thread()));
    })
    .expect("queued");
    let wait = Duration::from_secs(5);
    // The short job runs while the only thread of both lanes is busy; the long one
    // waits for that thread.
    assert_eq!(
        on.recv_timeout(wait),
        Ok(("short", "hookgate-eval-1".to_owned()))
    );
    assert!(on.recv_timeout(Duration::from_millis(200)).is_err());
    open.send(()).expect("open");
    assert_eq!(said.recv_timeout(wait), Ok("first long"));
    assert_eq!(
        on.recv_timeout(wait),
        Ok(("long", "hookgate-eval-0".to_owned()))
    );
}

#[test]
fn past_the_queue_a_call_is_turned_away() {
    let pool = EvalPool::new(config(1, 1)).expect("pool");
    let (open, gate) = std::sync::mpsc::channel();
    let gate = Arc::new(Mutex::new(gate));
    let (done, said) = std::sync::mpsc::channel();
    // Both threads busy, one job waiting: the queue is full.
    started(&pool, Lane::Long, &gate, &done, "long");
    let (open_short, short_gate) = std::sync::mpsc::channel();
    let short_gate = Arc::new(Mutex::new(short_gate));
    started(&pool, Lane::Short, &short_gate, &done, "short");
    run_in(&pool, Lane::Long, held(&gate, &done, "waiting")).expect("queued");
    for lane in [Lane::Long, Lane::Short] {
        assert_eq!(run_in(&pool, lane, || {}).err(), Some(Cause::Overloaded));
    }
    let wait = Duration::from_secs(5);
    open_short.send(()).expect("open");
    assert_eq!(said.recv_timeout(wait), Ok("short"));
    for name in ["long", "waiting"] {
        open.send(()).expect("open");
        assert_eq!(said.recv_timeout(wait), Ok(name));
    }
}

#[test]
fn a_call_with_little_text_waits_in_the_short_lane() {
    let lane = |v| {
        if is_short(&ctx(v)) {
            Lane::Short
        } else {
            Lane::Long
        }
    };
    assert_eq!(
        lane(json!({"sessionKey": "s", "toolArgs": {"command": "cd app && npm test | tail"}})),
        Lane::Short
    );
    let long = "echo a; ".repeat(LIGHT_BYTES / 8 + 1);
    assert_eq!(
        lane(json!({"sessionKey": "s", "toolArgs": {"command": long}})),
        Lane::Long
    );
}
