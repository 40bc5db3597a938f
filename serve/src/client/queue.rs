//! `multitask_strategy: enqueue`: a run asked for while the thread is busy waits in the
//! thread's document (so every server sees it, as `pending`) and starts when the runs before it
//! have ended. Whoever drains the queue ([`RestateThreads::drain`]) starts them in turn; two
//! servers draining one thread at once start each run once, since a start is refused (409)
//! while the thread is busy.

use std::time::Duration;

use crate::client::RestateThreads;
use crate::client::clock;
use crate::client::doc::{QueuedRun, ThreadRun};
use crate::client::ingress::Failure;
use crate::client::start::{RunStart, thread_run};

/// How long a queued run's turn is waited for, at most, by one drain.
const TURN: Duration = Duration::from_secs(3600);

impl RestateThreads {
    /// Starts the run at once if the thread is free, else puts it at the end of its queue (its
    /// `graph_run` empty until it starts).
    pub fn start_or_enqueue(&self, thread_id: &str, mut start: RunStart) -> Result<ThreadRun, Failure> {
        let run_id = start.run_id.get_or_insert_with(clock::new_id).clone();
        let doc = self.thread(thread_id)?;
        if doc.queued.is_empty() && self.refuse_if_busy(&doc).is_ok() {
            match self.start_run(thread_id, start.clone()) {
                // Busy meanwhile: it waits its turn.
                Err(e) if e.status == 409 && self.is_busy(thread_id)? => {}
                other => return other,
            }
        }
        let run = thread_run(&run_id, "", &start, 0, 0);
        self.change(thread_id, |doc| {
            doc.queued.push(QueuedRun { run: run.clone(), start: start.clone() });
            Ok(())
        })?;
        Ok(run)
    }

    /// Starts the thread's queued runs one after the other, each once the one before has
    /// ended; returns when the queue is empty.
    pub fn drain(&self, thread_id: &str) -> Result<(), Failure> {
        loop {
            let doc = self.thread(thread_id)?;
            if doc.queued.is_empty() {
                return Ok(());
            }
            if let Some(last) = doc.runs.last() {
                let view = self.wait_run(thread_id, &last.run_id, TURN)?;
                if !view.status.is_final() {
                    continue;
                }
            }
            // A run that could not start has left the queue; the next ones still get their turn.
            let _ = self.start_next(thread_id);
        }
    }

    /// Starts the oldest queued run if the thread is free. One that cannot start (its resume
    /// finds nothing waiting, its input no longer fits) leaves the queue with the error.
    fn start_next(&self, thread_id: &str) -> Result<(), Failure> {
        let doc = self.thread(thread_id)?;
        let Some(next) = doc.queued.first() else { return Ok(()) };
        if self.refuse_if_busy(&doc).is_err() {
            return Ok(());
        }
        let run_id = next.run.run_id.clone();
        let mut start = next.start.clone();
        start.run_id = Some(run_id.clone());
        let started = self.start_run(thread_id, start);
        if let Err(e) = &started
            && e.status == 409
            && self.is_busy(thread_id)?
        {
            return Ok(());
        }
        self.unqueue(thread_id, &run_id)?;
        started.map(drop)
    }

    /// Takes the run out of the queue (started, failed to start, or cancelled); whether it was there.
    pub(crate) fn unqueue(&self, thread_id: &str, run_id: &str) -> Result<bool, Failure> {
        let (_, was) = self.change(thread_id, |doc| {
            let before = doc.queued.len();
            doc.queued.retain(|q| q.run.run_id != run_id);
            Ok(before != doc.queued.len())
        })?;
        Ok(was)
    }

    fn is_busy(&self, thread_id: &str) -> Result<bool, Failure> {
        let doc = self.thread(thread_id)?;
        Ok(self.refuse_if_busy(&doc).is_err())
    }
}
