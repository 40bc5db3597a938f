//! The progress line: on a terminal, once a run has taken more than a second, stderr shows
//! which step runs, what runs in it and the time so far, redrawn while a step waits (a slow
//! request); it is cleared when the run ends. Nothing is drawn when stderr is not a terminal.

use std::io::IsTerminal;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use engine::Run;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::drive::Observer;

/// How long a run goes before the line appears: a quick run prints nothing extra.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// How often the elapsed time and the spinner are redrawn.
const TICK: Duration = Duration::from_millis(100);
/// At most this many node ids are named; the rest are counted.
const NAMED: usize = 3;

pub struct Progress {
    bar: ProgressBar,
    /// Dropped to tell the thread that would show the line that the run is over.
    stop: Option<mpsc::Sender<()>>,
    shower: Option<JoinHandle<()>>,
}

impl Progress {
    /// A progress line, if stderr is a terminal.
    pub fn on_terminal() -> Option<Progress> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let bar = ProgressBar::hidden();
        if let Ok(style) = ProgressStyle::with_template("{spinner} step {pos} · {msg} · {elapsed}") {
            bar.set_style(style);
        }
        Some(Progress { bar, stop: None, shower: None })
    }

    /// The bar, so that other lines on stderr are printed above it.
    pub fn bar(&self) -> ProgressBar {
        self.bar.clone()
    }
}

/// Shows `bar` on stderr after [`SHOW_AFTER`], unless `stop` is dropped first.
fn show_later(bar: ProgressBar, stop: &mpsc::Receiver<()>) {
    if let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(SHOW_AFTER) {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        bar.enable_steady_tick(TICK);
    }
}

/// What the step about to run runs: `fetch, rank` or `a, b, c and 4 more`, counted.
fn running(ids: &[String]) -> String {
    let count = match ids.len() {
        0 => return "nothing to run".into(),
        1 => "1 node running".to_string(),
        n => format!("{n} nodes running"),
    };
    let mut named = ids.iter().take(NAMED).cloned().collect::<Vec<_>>().join(", ");
    if ids.len() > NAMED {
        named.push_str(&format!(" and {} more", ids.len() - NAMED));
    }
    format!("{count} ({named})")
}

impl Observer for Progress {
    fn started(&mut self, _run: &Run) {
        let (tx, rx) = mpsc::channel();
        let bar = self.bar.clone();
        self.stop = Some(tx);
        self.shower = Some(std::thread::spawn(move || show_later(bar, &rx)));
    }

    fn stepping(&mut self, run: &Run) {
        self.bar.set_position(run.step_count() + 1);
        self.bar.set_message(running(&run.next_ids()));
    }

    fn finished(&mut self, _run: &Run) {
        drop(self.stop.take());
        if let Some(shower) = self.shower.take() {
            let _ = shower.join();
        }
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::running;

    #[test]
    fn names_a_few_nodes_and_counts_the_rest() {
        let ids = |n: usize| (0..n).map(|i| format!("n{i}")).collect::<Vec<_>>();
        assert_eq!(running(&ids(1)), "1 node running (n0)");
        assert_eq!(running(&ids(3)), "3 nodes running (n0, n1, n2)");
        assert_eq!(running(&ids(5)), "5 nodes running (n0, n1, n2 and 2 more)");
    }
}
