//! Driving a run step by step (`Run::step`), telling observers — the record file, the event
//! lines, the progress line — after each step rather than only once the run has stopped.

use engine::host::Host;
use engine::record::StepDoc;
use engine::{Run, Status, StepStates};

/// Something that follows a run as it goes.
pub trait Observer {
    /// Whether it reads the new steps' record form (building it can copy the state).
    fn wants_steps(&self) -> bool {
        true
    }
    /// The run is about to take its first step (it may already have stopped).
    fn started(&mut self, _run: &Run) {}
    /// A step is about to run.
    fn stepping(&mut self, _run: &Run) {}
    /// A call to `Run::step` returned; `new_steps` are the steps it added to the record
    /// (none when the run stopped before a step), with their states as a record holds them
    /// when more steps follow (`Run::step_docs_with`).
    fn stepped(&mut self, _run: &Run, _new_steps: &[StepDoc]) {}
    /// The run has stopped.
    fn finished(&mut self, _run: &Run) {}
}

/// Steps `run` until it stops, as `Run::run` does (a run stopped at a breakpoint goes on
/// past it: `Run::step` passes it), telling `observers` along the way; the steps they are
/// given carry their states as `states` says.
pub fn drive(run: &mut Run, host: &dyn Host, observers: &mut [&mut dyn Observer], states: StepStates) {
    for o in observers.iter_mut() {
        o.started(run);
    }
    loop {
        for o in observers.iter_mut() {
            o.stepping(run);
        }
        let before = run.steps().len();
        pollster::block_on(run.step(host));
        // Turning steps into their record form can cost a copy of the state: only when watched.
        let watched = observers.iter().any(|o| o.wants_steps());
        let new_steps = if watched { run.step_docs_with(before, states) } else { Vec::new() };
        for o in observers.iter_mut() {
            o.stepped(run, &new_steps);
        }
        if run.status() != Status::Running {
            break;
        }
    }
    for o in observers.iter_mut() {
        o.finished(run);
    }
}
