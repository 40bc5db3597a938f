//! The threads the CLI's requests run on: at most [`MAX_REQUESTS`] at once, the others
//! waiting their turn. A blocking client needs a thread per request in flight; one thread per
//! request, with no bound, let a wide fan-out or a model asking for many tool calls start
//! thousands of threads.
//!
//! Threads start when there is work and no idle thread, and end after [`IDLE`] without work.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

/// Requests in flight at once, per process.
pub const MAX_REQUESTS: usize = 32;

/// How long a thread waits for work before it ends.
const IDLE: Duration = Duration::from_secs(10);

type Job = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    /// Threads alive, and of those the ones waiting for work.
    live: usize,
    idle: usize,
}

struct Pool {
    queue: Mutex<Queue>,
    work: Condvar,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool { queue: Mutex::new(Queue::default()), work: Condvar::new() })
}

/// Runs `job` on a request thread, now or once one is free.
pub fn submit(job: impl FnOnce() + Send + 'static) {
    let pool = pool();
    let mut q = pool.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    q.jobs.push_back(Box::new(job));
    if q.idle == 0 && q.live < MAX_REQUESTS {
        // If the thread cannot start, the job waits for a running one; with none running it
        // would never run, so it runs here instead.
        match std::thread::Builder::new().name("request".into()).spawn(|| work(self::pool())) {
            Ok(_) => q.live += 1,
            Err(_) if q.live == 0 => {
                let job = q.jobs.pop_back().expect("the job just queued");
                drop(q);
                job();
                return;
            }
            Err(_) => {}
        }
    }
    drop(q);
    pool.work.notify_one();
}

fn work(pool: &Pool) {
    let mut q = pool.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    loop {
        if let Some(job) = q.jobs.pop_front() {
            drop(q);
            job();
            q = pool.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            continue;
        }
        q.idle += 1;
        let (next, waited) = pool.work.wait_timeout(q, IDLE).unwrap_or_else(std::sync::PoisonError::into_inner);
        q = next;
        q.idle -= 1;
        if waited.timed_out() && q.jobs.is_empty() {
            q.live -= 1;
            return;
        }
    }
}

/// Threads alive now (for tests).
#[cfg(test)]
fn live() -> usize {
    pool().queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner).live
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    #[test]
    fn many_jobs_run_on_at_most_the_bound_of_threads_and_all_finish() {
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let (done, finished) = mpsc::channel();
        for _ in 0..500 {
            let (running, most, done) = (running.clone(), most.clone(), done.clone());
            submit(move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(2));
                running.fetch_sub(1, Ordering::SeqCst);
                let _ = done.send(());
            });
        }
        for _ in 0..500 {
            finished.recv().expect("every job finishes");
        }
        let most = most.load(Ordering::SeqCst);
        assert!(most <= MAX_REQUESTS, "{most} jobs ran at once");
        assert!(most > 1, "the jobs ran one at a time");
        assert!(live() <= MAX_REQUESTS);
    }
}
