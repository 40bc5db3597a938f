//! One thread for every sleep of the CLI's host (timeouts and retry back-offs). A thread per
//! sleep, sleeping a node's whole timeout even after its reply came, let many requests keep
//! thousands of threads asleep. Here a sleep is an entry in a queue; the entry of a sleep
//! nobody waits for any more is dropped when it comes due.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use futures_channel::oneshot;

struct Due {
    at: Instant,
    seq: u64,
    wake: oneshot::Sender<()>,
}

impl PartialEq for Due {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl Eq for Due {}
impl PartialOrd for Due {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Due {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(other.at, other.seq))
    }
}

#[derive(Default)]
struct Sleeps {
    due: BinaryHeap<Reverse<Due>>,
    seq: u64,
    started: bool,
}

struct Timer {
    sleeps: Mutex<Sleeps>,
    changed: Condvar,
}

fn timer() -> &'static Timer {
    static TIMER: OnceLock<Timer> = OnceLock::new();
    TIMER.get_or_init(|| Timer { sleeps: Mutex::new(Sleeps::default()), changed: Condvar::new() })
}

/// A receiver that gets `()` once `ms` milliseconds have passed.
pub fn sleep(ms: u64) -> oneshot::Receiver<()> {
    let (wake, woken) = oneshot::channel();
    let t = timer();
    let mut s = t.sleeps.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !s.started {
        // Without the thread no sleep would end: say so once, and the sleeps end at once.
        s.started = std::thread::Builder::new().name("timer".into()).spawn(|| run(timer())).is_ok();
        if !s.started {
            let _ = wake.send(());
            return woken;
        }
    }
    // Sleeps past a century are as good as forever; keep the instant representable.
    let at = Instant::now() + Duration::from_millis(ms.min(3_155_760_000_000));
    s.seq += 1;
    let seq = s.seq;
    // Sleeps whose waiters left are dropped now and then, not only when they come due.
    if s.due.len() > 1024 && s.due.len().is_power_of_two() {
        let kept: Vec<_> = s.due.drain().filter(|Reverse(d)| !d.wake.is_canceled()).collect();
        s.due.extend(kept);
    }
    s.due.push(Reverse(Due { at, seq, wake }));
    drop(s);
    t.changed.notify_one();
    woken
}

fn run(t: &Timer) {
    let mut s = t.sleeps.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    loop {
        let now = Instant::now();
        while s.due.peek().is_some_and(|Reverse(d)| d.at <= now) {
            let Reverse(d) = s.due.pop().expect("peeked");
            let _ = d.wake.send(());
        }
        s = match s.due.peek().map(|Reverse(d)| d.at) {
            Some(at) => t.changed.wait_timeout(s, at - now).unwrap_or_else(std::sync::PoisonError::into_inner).0,
            None => t.changed.wait(s).unwrap_or_else(std::sync::PoisonError::into_inner),
        };
    }
}

/// Sleeps queued now (for tests).
#[cfg(test)]
fn queued() -> usize {
    timer().sleeps.lock().unwrap_or_else(std::sync::PoisonError::into_inner).due.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sleeps_end_in_order_of_their_time_on_one_thread() {
        let started = Instant::now();
        let long = sleep(200);
        let short = sleep(20);
        wait_for(short);
        let short_took = started.elapsed();
        wait_for(long);
        assert!(short_took >= Duration::from_millis(20), "{short_took:?}");
        assert!(started.elapsed() >= Duration::from_millis(200));
        // Abandoned sleeps do not pile up for ever.
        for _ in 0..5000 {
            drop(sleep(3_600_000));
        }
        assert!(queued() < 5000, "{} sleeps kept", queued());
    }

    /// Blocks on a receiver without an executor crate: the timer thread sends, this polls.
    fn wait_for(mut r: oneshot::Receiver<()>) {
        loop {
            match r.try_recv() {
                Ok(Some(())) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                Err(_) => panic!("the timer dropped a sleep"),
            }
        }
    }
}
