//! One module per command. `run` and `resume` prepare a run and hand it to
//! [`crate::session`], which drives it step by step. `test` runs a suite's cases
//! ([`crate::testing`]), `test_add` makes a case from a run, `diff` compares two runs, `trace` sends a record as traces. `serve` starts the Restate deployment,
//! `server` the LangGraph-compatible API (`switchyard-server`);
//! `submit`, `status`, `record`, `answer` and `fork` are its clients ([`crate::ingress`]); `mcp`
//! serves graphs as MCP tools ([`crate::mcp`]).

pub mod answer;
pub mod diff;
pub mod fork;
pub mod mcp;
pub mod mermaid;
mod remote;
pub mod resume;
pub mod run;
pub mod serve;
pub mod server;
pub mod status;
pub mod submit;
pub mod test;
pub mod test_add;
pub mod trace;
pub mod validate;

use std::rc::Rc;

use engine::Plan;
use engine::run::Breakpoints;

use crate::args::Driving;
use crate::input::{self, BadInput, load_graph};

/// The compiled graph at `path`, with the breakpoints `driving` names in it.
fn plan_with_breakpoints(path: &str, driving: &Driving) -> Result<(Rc<Plan>, Breakpoints), BadInput> {
    let doc = load_graph(path)?;
    let plan = Rc::new(input::plan_or_bad_input(path, &doc)?);
    let breakpoints = input::breakpoints(&plan, driving.break_before.clone(), driving.break_after.clone())?;
    Ok((plan, breakpoints))
}
