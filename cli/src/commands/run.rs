//! `switchyard run GRAPH [--input JSON|@FILE]`: starts a run and drives it to its end.

use engine::Run;
use serde_json::Value;

use crate::args::RunArgs;
use crate::consent;
use crate::exit::Printed;
use crate::host::native_host;
use crate::input::{BadInput, parse_json_arg};
use crate::record_file;
use crate::session::drive_and_print;
use crate::undeclared::{self, Origin};

pub fn run(args: RunArgs) -> Result<Printed, BadInput> {
    let inputs = [("the graph", Some(args.graph.as_str())), ("--input", record_file::at_file(&args.input))];
    record_file::refuse_inputs(args.driving.record.as_deref(), &inputs).map_err(|e| BadInput::new(e.to_string()))?;
    let (plan, breakpoints) = super::plan_with_breakpoints(&args.graph, &args.driving)?;
    let input = match &args.input {
        Some(arg) => parse_json_arg("--input", arg)?,
        None => serde_json::json!({}),
    };
    let allowed = consent::allowed(&args.driving.allow_command);
    consent::check(&plan, &args.graph, &allowed)?;
    let host = native_host(allowed);
    let mut run = Run::start(plan.clone(), input.clone(), &host).map_err(|e| BadInput::new(format!("--input: {e}")))?;
    if let Value::Object(keys) = &input {
        undeclared::check(&plan, keys, Origin::Input, args.driving.strict)?;
    }
    run.set_breakpoints(breakpoints);
    let printed = drive_and_print(&mut run, &host, &args.driving);
    // The run closed its sessions; whatever is left (a run cut short) ends with the command.
    net::mcp::close_all();
    printed
}
