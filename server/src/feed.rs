//! A run's events: a log every stream of that run reads from the start (a client that joins
//! late sees the run so far), and a count that wakes readers when an event arrives.
//!
//! The log is a tail bounded in bytes ([`TAIL_BYTES`]): a long run does not hold every event
//! it ever sent. Past the bound, `values` and `checkpoints` events superseded by a later one
//! go first (each is the whole state: the latest says all), then the oldest events. A reader
//! that had not yet read what went gets an `error` event and its stream ends.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::watch;

/// One event of a run: the stream mode it belongs to (`values`, `updates`, `debug`,
/// `messages`, …, or `error`) and its data.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub name: String,
    pub data: Value,
}

impl Event {
    pub fn new(name: impl Into<String>, data: Value) -> Event {
        Event { name: name.into(), data }
    }
}

/// How many bytes of events (as JSON) a run keeps for its readers.
pub const TAIL_BYTES: usize = 8 << 20;

/// Events whose latest one holds everything earlier ones did.
const WHOLE_STATE: [&str; 2] = ["values", "checkpoints"];

#[derive(Debug)]
struct Log {
    /// The kept events, by position since the run began (`first` is the oldest kept); a
    /// superseded whole-state event is left as `None`, so positions stay.
    events: VecDeque<Option<(Event, usize)>>,
    first: usize,
    bytes: usize,
    limit: usize,
    done: bool,
}

impl Log {
    fn new(limit: usize) -> Log {
        Log { events: VecDeque::new(), first: 0, bytes: 0, limit, done: false }
    }

    /// Positions pushed so far.
    fn end(&self) -> usize {
        self.first + self.events.len()
    }

    fn push(&mut self, event: Event) {
        let size = json_bytes(&event.data) + event.name.len();
        self.bytes += size;
        self.events.push_back(Some((event, size)));
        if self.bytes > self.limit {
            self.drop_superseded();
        }
        while self.bytes > self.limit && self.events.len() > 1 {
            self.pop_oldest();
        }
    }

    /// Leaves only the latest event of each whole-state kind.
    fn drop_superseded(&mut self) {
        let mut seen = [false; WHOLE_STATE.len()];
        for slot in self.events.iter_mut().rev() {
            let Some((event, size)) = slot else { continue };
            let Some(kind) = WHOLE_STATE.iter().position(|k| *k == event.name) else { continue };
            if std::mem::replace(&mut seen[kind], true) {
                self.bytes -= *size;
                *slot = None;
            }
        }
    }

    fn pop_oldest(&mut self) {
        if let Some(Some((_, size))) = self.events.pop_front() {
            self.bytes -= size;
        }
        self.first += 1;
        while let Some(None) = self.events.front() {
            self.events.pop_front();
            self.first += 1;
        }
    }
}

/// The length of `value` as compact JSON, counted without keeping the text.
fn json_bytes(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// The writing side, kept by whoever runs the run.
#[derive(Debug, Clone)]
pub struct FeedWriter {
    log: Arc<Mutex<Log>>,
    count: Arc<watch::Sender<usize>>,
}

impl Default for FeedWriter {
    fn default() -> Self {
        FeedWriter::new()
    }
}

impl FeedWriter {
    pub fn new() -> FeedWriter {
        FeedWriter::bounded(TAIL_BYTES)
    }

    /// A writer keeping at most `limit` bytes of events.
    pub fn bounded(limit: usize) -> FeedWriter {
        FeedWriter { log: Arc::new(Mutex::new(Log::new(limit))), count: Arc::new(watch::channel(0).0) }
    }

    /// A writer whose run has already ended with these events.
    pub fn finished(events: Vec<Event>) -> FeedWriter {
        let writer = FeedWriter::new();
        for e in events {
            writer.push(e);
        }
        writer.close();
        writer
    }

    pub fn push(&self, event: Event) {
        let n = {
            let mut log = self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            log.push(event);
            log.end()
        };
        self.count.send_replace(n);
    }

    /// The run has ended: readers finish once they have read everything.
    pub fn close(&self) {
        let n = {
            let mut log = self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            log.done = true;
            log.end()
        };
        // Wakes readers even when no event came last.
        self.count.send_modify(|c| *c = n);
    }

    pub fn reader(&self) -> Feed {
        Feed { log: self.log.clone(), count: self.count.subscribe(), read: 0, behind: false }
    }
}

/// What a reader gets next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    Event(Event),
    /// Nothing came for a while: time for a heartbeat.
    Quiet,
    /// The run has ended and every event was read.
    Done,
}

/// The reading side: one per stream.
#[derive(Debug)]
pub struct Feed {
    log: Arc<Mutex<Log>>,
    count: watch::Receiver<usize>,
    read: usize,
    /// Told it fell behind the tail: nothing more is read.
    behind: bool,
}

impl Feed {
    /// The next event, waiting at most `quiet` for one.
    pub async fn next(&mut self, quiet: Duration) -> Next {
        loop {
            self.count.mark_unchanged();
            if self.behind {
                return Next::Done;
            }
            {
                let log = self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if self.read < log.first {
                    self.behind = true;
                    return Next::Event(fell_behind(log.first - self.read));
                }
                while self.read < log.end() {
                    let slot = &log.events[self.read - log.first];
                    self.read += 1;
                    if let Some((e, _)) = slot {
                        return Next::Event(e.clone());
                    }
                }
                if log.done {
                    return Next::Done;
                }
            }
            match tokio::time::timeout(quiet, self.count.changed()).await {
                Ok(Ok(())) => {}
                // The writer is gone without closing: nothing more will come.
                Ok(Err(_)) => return Next::Done,
                Err(_) => return Next::Quiet,
            }
        }
    }
}

/// What a reader that fell behind the kept tail gets instead of the `missed` events.
fn fell_behind(missed: usize) -> Event {
    let message = format!(
        "this stream fell behind the run by more than the {TAIL_BYTES} bytes of events kept; {missed} event(s) are gone: join the run again"
    );
    Event::new("error", serde_json::json!({"error": "StreamBehind", "message": message}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn drain(feed: &mut Feed) -> Vec<Event> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let mut got = Vec::new();
        while let Next::Event(e) = runtime.block_on(feed.next(Duration::from_millis(10))) {
            got.push(e);
        }
        got
    }

    #[test]
    fn a_late_reader_gets_the_latest_state_and_a_slow_one_is_told_it_fell_behind() {
        let writer = FeedWriter::bounded(200);
        let mut slow = writer.reader();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        writer.push(Event::new("updates", json!({"a": 0})));
        assert_eq!(
            runtime.block_on(slow.next(Duration::from_millis(10))),
            Next::Event(Event::new("updates", json!({"a": 0})))
        );
        for i in 0..50 {
            writer.push(Event::new("values", json!({"n": i, "pad": "xxxxxxxxxx"})));
        }
        writer.push(Event::new("updates", json!({"b": 1})));
        writer.close();
        // Superseded states went, not the updates: a late reader sees them all and the latest
        // state, but not the 50 states.
        let late = drain(&mut writer.reader());
        let names: Vec<&str> = late.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names.first(), Some(&"updates"), "{late:?}");
        assert_eq!(names.last(), Some(&"updates"), "{late:?}");
        assert!(names.len() < 20, "{late:?}");
        assert_eq!(late[late.len() - 2].data["n"], 49);
        // The slow reader had read the first event: it reads on from the oldest state kept.
        let rest = drain(&mut slow);
        assert_eq!(rest.len(), late.len() - 1, "{rest:?}");
        let bytes = writer.log.lock().map(|l| l.bytes).unwrap_or(usize::MAX);
        assert!(bytes <= 200, "{bytes}");
    }

    #[test]
    fn a_reader_behind_the_oldest_kept_event_gets_an_error_and_ends() {
        let writer = FeedWriter::bounded(100);
        let mut slow = writer.reader();
        for i in 0..20 {
            writer.push(Event::new("updates", json!({"n": i})));
        }
        writer.close();
        let got = drain(&mut slow);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].name, "error");
        assert!(got[0].data["message"].as_str().unwrap_or_default().contains("fell behind"));
    }
}
