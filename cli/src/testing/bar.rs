//! The progress bar of `switchyard test`: on a terminal only (stderr is a tty), cases done out
//! of all, failures so far and the time elapsed; cleared when the cases are done, so that the
//! report prints on a clean screen. Nothing is drawn into a file or a pipe.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct CaseBar {
    bar: Option<ProgressBar>,
    failed: usize,
}

impl CaseBar {
    /// A bar over `count` cases of `what` (the graph's file), drawn only on a terminal.
    pub fn new(count: usize, what: &str) -> CaseBar {
        if !std::io::stderr().is_terminal() {
            return CaseBar { bar: None, failed: 0 };
        }
        let bar = ProgressBar::with_draw_target(Some(count as u64), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} cases · {msg} · {elapsed}") {
            bar.set_style(style);
        }
        bar.set_message(format!("{what} · 0 failed"));
        bar.enable_steady_tick(Duration::from_millis(100));
        CaseBar { bar: Some(bar), failed: 0 }
    }

    /// A case ended.
    pub fn done(&mut self, passed: bool, what: &str) {
        let Some(bar) = &self.bar else { return };
        if !passed {
            self.failed += 1;
        }
        bar.set_message(format!("{what} · {} failed", self.failed));
        bar.inc(1);
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
