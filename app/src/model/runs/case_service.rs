//! Test cases as the run worker runs them (README, Tests): a suite is prepared once for a pass
//! against the graph as it is on the canvas (evaluators compiled, the graph planned), then
//! each case runs as a request of its own, with its recorded replies or live. A long suite
//! thus never holds the page, and Stop can end the worker between two cases or during one.

use std::rc::Rc;

use engine::host::Host;
use engine::record::ReplayMode;
use engine::suite::{Case, Prepared, Suite, prepare, run_case};
use engine::{Graph, Plan};

use super::run_service::{Refusal, Reply, plan_of};

/// The suite prepared for the pass under way.
#[derive(Default)]
pub struct CaseService {
    ready: Option<(Rc<Plan>, Prepared)>,
}

impl CaseService {
    /// Prepares `suite` to run against `graph`; an evaluator graph given as a file cannot be
    /// read here (the page leaves those out and says so).
    pub fn prepare(&mut self, graph: &Graph, suite: &Suite) -> Reply {
        self.ready = None;
        let plan = match plan_of(graph) {
            Ok(p) => p,
            Err(r) => return Reply::Refused(r),
        };
        let no_files = |path: &str| Err(format!("the editor cannot read the file {path}"));
        match prepare(suite, graph, &no_files) {
            Ok(prepared) => {
                self.ready = Some((plan, prepared));
                Reply::Prepared
            }
            Err(e) => Reply::Refused(Refusal::Suite { message: e.to_string() }),
        }
    }

    /// Runs `case` on the prepared suite: with its recorded replies, or `live` (providers
    /// called, replies recorded).
    pub async fn run(&self, case: &Case, live: bool, host: &dyn Host) -> Reply {
        let Some((plan, prepared)) = &self.ready else { return Reply::Refused(Refusal::NoSuite) };
        let mode = if live { ReplayMode::Live } else { ReplayMode::Replay };
        Reply::Case(Box::new(run_case(plan.clone(), case, prepared, mode, host).await))
    }
}
