//! Test cases as the run worker runs them (README, Tests and evaluations): a suite is prepared once for a pass
//! against the graph as it is on the canvas (evaluators compiled, the graph planned), then
//! each case runs as a request of its own, with its recorded replies or live. A long suite
//! thus never holds the page, and Stop can end the worker between two cases or during one.
//! The run service carries the requests here and words the refusals.

use std::rc::Rc;

use engine::host::Host;
use engine::record::ReplayMode;
use engine::suite::{Case, CaseResult, Prepared, Suite, prepare, run_case};
use engine::{Graph, Plan};

/// The suite prepared for the pass under way.
#[derive(Default)]
pub struct CaseService {
    ready: Option<(Rc<Plan>, Prepared)>,
}

impl CaseService {
    /// Prepares `suite` to run against `graph` (planned as `plan`); why not, when it cannot
    /// (another graph's suite, an evaluator that does not compile). An evaluator graph given
    /// as a file cannot be read here: the page leaves those out and says so.
    pub fn prepare(&mut self, plan: Rc<Plan>, graph: &Graph, suite: &Suite) -> Result<(), String> {
        self.ready = None;
        let no_files = |path: &str| Err(format!("the editor cannot read the file {path}"));
        let prepared = prepare(suite, graph, &no_files).map_err(|e| e.to_string())?;
        self.ready = Some((plan, prepared));
        Ok(())
    }

    /// Runs `case` on the prepared suite: with its recorded replies, or `live` (providers
    /// called, replies recorded). `None` when no suite was prepared (a new worker).
    pub async fn run(&self, case: &Case, live: bool, host: &dyn Host) -> Option<CaseResult> {
        let (plan, prepared) = self.ready.as_ref()?;
        let mode = if live { ReplayMode::Live } else { ReplayMode::Replay };
        Some(run_case(plan.clone(), case, prepared, mode, host).await)
    }
}
