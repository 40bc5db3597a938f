//! `switchyard resume RUN --graph GRAPH`: continues a run from its record (answering what
//! waits, passing a breakpoint, retrying a failed step, or carrying on after a kill when the
//! record says `running`), or forks it from an earlier step.

use engine::host::Host;
use engine::{Plan, Run, RunRecord, Status};
use serde_json::{Map, Value};

use crate::args::ResumeArgs;
use crate::changed_graph;
use crate::consent;
use crate::exit::Printed;
use crate::host::native_host;
use crate::input::{BadInput, parse_json_arg, read_record};
use crate::record_file;
use crate::session::drive_and_print;
use crate::undeclared::{self, Origin};

pub fn resume(args: ResumeArgs) -> Result<Printed, BadInput> {
    // The record resumed may be --record's FILE too: it is read whole before the first write.
    let inputs = [
        ("the graph", Some(args.graph.as_str())),
        ("--answer", record_file::at_file(&args.answer)),
        ("--set", record_file::at_file(&args.set)),
    ];
    record_file::refuse_inputs(args.driving.record.as_deref(), &inputs).map_err(|e| BadInput::new(e.to_string()))?;
    let (plan, breakpoints) = super::plan_with_breakpoints(&args.graph, &args.driving)?;
    let record = read_record(&args.run)?;
    same_graph_name(&record, &plan, &args.run, &args.graph)?;
    changed_graph::check(&record, &plan, &args.graph, args.allow_changed_graph)?;
    let set = parse_set(args.set.as_deref())?;
    let allowed = consent::allowed(&args.driving.allow_command);
    consent::check(&plan, &args.graph, &allowed)?;
    let host = native_host(allowed);
    let original =
        Run::from_record(plan.clone(), &record, &host).map_err(|e| BadInput::new(format!("{}: {e}", args.run)))?;
    let mut run = continue_or_fork(original, args.from_step, set.clone(), &host)?;
    if let Some(set) = &set {
        undeclared::check(&plan, set, Origin::Set, args.driving.strict)?;
    }
    run.set_breakpoints(breakpoints);
    match &args.answer {
        Some(arg) => answer(&mut run, arg)?,
        None => needs_no_answer(&run, args.from_step)?,
    }
    let printed = drive_and_print(&mut run, &host, &args.driving);
    // The run closed its sessions; whatever is left (a run cut short) ends with the command.
    net::mcp::close_all();
    printed
}

/// The record belongs to a graph of this name.
fn same_graph_name(record: &RunRecord, plan: &Plan, run_path: &str, graph_path: &str) -> Result<(), BadInput> {
    let graph_name = plan.graph.display_name();
    if record.graph == graph_name {
        return Ok(());
    }
    Err(BadInput::new(format!(
        "{run_path}: this run belongs to the graph \"{}\", but {graph_path} is \"{graph_name}\"",
        record.graph
    )))
}

fn parse_set(arg: Option<&str>) -> Result<Option<Map<String, Value>>, BadInput> {
    let Some(arg) = arg else { return Ok(None) };
    match parse_json_arg("--set", arg)? {
        Value::Object(m) => Ok(Some(m)),
        other => Err(BadInput::new(format!("--set: must be a JSON object, got {other}"))),
    }
}

/// A fork from step `from_step` with `set` applied there, or the run itself, continued.
fn continue_or_fork(
    original: Run,
    from_step: Option<u64>,
    set: Option<Map<String, Value>>,
    host: &dyn Host,
) -> Result<Run, BadInput> {
    if let Some(n) = from_step {
        return original.fork(n, set, host).map_err(|e| BadInput::new(format!("--from-step/--set: {e}")));
    }
    if set.is_some() {
        return Err(BadInput::new("--set: needs --from-step (a fork point)".into()));
    }
    let mut run = original;
    run.resume();
    Ok(run)
}

/// Gives each waiting node of `--answer` its answer.
fn answer(run: &mut Run, arg: &str) -> Result<(), BadInput> {
    let Value::Object(answers) = parse_json_arg("--answer", arg)? else {
        return Err(BadInput::new("--answer: must be a JSON object {\"node\": answer}".into()));
    };
    for (node, value) in answers {
        run.answer(&node, value).map_err(|e| BadInput::new(format!("--answer: {e}")))?;
    }
    Ok(())
}

/// Without `--answer`, a run waiting for a human node cannot go on (a breakpoint is passed by
/// resuming; a fork starts afresh).
fn needs_no_answer(run: &Run, from_step: Option<u64>) -> Result<(), BadInput> {
    if run.status() != Status::Interrupted || from_step.is_some() || run.at_breakpoint() {
        return Ok(());
    }
    let waiting = run.waiting_for();
    Err(BadInput::new(format!(
        "the run waits for an answer from {}; give it with --answer '{{\"{}\": …}}'",
        waiting.join(", "),
        waiting.first().map_or("node", String::as_str)
    )))
}
