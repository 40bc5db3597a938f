//! `--events`: one JSON line on stderr per finished step,
//! `{"step", "ran", "status", "duration_ms", "next"}`, `status` being the run's after the step.

use engine::Run;
use engine::record::StepDoc;
use serde_json::json;

use crate::console::Console;
use crate::drive::Observer;

pub struct Events {
    console: Console,
}

impl Events {
    pub fn new(console: Console) -> Events {
        Events { console }
    }
}

/// The event line of step `s` of `run`.
fn line(run: &Run, s: &StepDoc) -> String {
    json!({
        "step": s.step,
        "ran": s.ran,
        "status": run.status().name(),
        "duration_ms": s.duration_ms,
        "next": s.next,
    })
    .to_string()
}

impl Observer for Events {
    fn stepped(&mut self, run: &Run, new_steps: &[StepDoc]) {
        for s in new_steps {
            self.console.raw(&line(run, s));
        }
    }
}
