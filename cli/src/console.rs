//! Lines on stderr while a progress line may be showing: each is printed above it (the
//! progress line is taken away, the text written, the progress line drawn again).

use indicatif::ProgressBar;

use crate::output::say;

/// Where the run's stderr lines go.
#[derive(Clone, Default)]
pub struct Console {
    /// The progress line, when stderr is a terminal.
    bar: Option<ProgressBar>,
}

impl Console {
    pub fn with_bar(bar: ProgressBar) -> Console {
        Console { bar: Some(bar) }
    }

    /// `switchyard: LINE`, above the progress line.
    pub fn say(&self, line: &str) {
        self.above(|| say(line));
    }

    /// `LINE` as it is (an event line is JSON, with nothing before it).
    pub fn raw(&self, line: &str) {
        self.above(|| crate::output::raw_line(line));
    }

    fn above(&self, print: impl FnOnce()) {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }
}
