//! `switchyard submit GRAPH [--input JSON|@FILE]`: starts a run on a Restate server that serves
//! `switchyard serve`, waits until it has started (or been refused), and prints its id.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use super::remote::{refused_or_failed, run_id_arg};
use crate::args::SubmitArgs;
use crate::exit::Printed;
use crate::ingress::{CallError, Ingress};
use crate::input::{BadInput, parse_json_arg, read_text};

/// How long a run may take to start before `submit` gives up waiting.
const START_WAIT: Duration = Duration::from_secs(60);

pub fn submit(args: SubmitArgs) -> Result<Printed, BadInput> {
    let (mut body, origin) = match (&args.graph, &args.graph_hash) {
        (Some(path), _) => (json!({ "graph": read_document(path)? }), path.clone()),
        (None, Some(hash)) => (json!({ "graph_hash": hash }), "--graph-hash".to_string()),
        (None, None) => return Err(BadInput::new("submit: give a graph, or --graph-hash".into())),
    };
    body["input"] = match &args.input {
        Some(arg) => parse_json_arg("--input", arg)?,
        None => Value::Object(Map::new()),
    };
    let run_id = match &args.id {
        Some(id) => run_id_arg(id)?,
        None => fresh_run_id(),
    };
    let ingress = Ingress::new(args.server.server.as_deref());
    match ingress.send(&run_id, "run", &body) {
        Ok(status) if status == "PreviouslyAccepted" => {
            return Err(BadInput::new(format!("--id: a run with the id {run_id} exists already")));
        }
        Ok(_) => {}
        Err(e) => return refused_or_failed(e, &origin),
    }
    match started(&ingress, &run_id) {
        Ok(()) => Ok(Printed::new(format!("{run_id}\n"), 0)),
        // The server refuses a graph with 422, an input with 400: named as `run` names them.
        Err(e @ CallError::Refused { status: 400, .. }) => refused_or_failed(e, "--input"),
        Err(e) => refused_or_failed(e, &origin),
    }
}

/// The graph file as JSON (the server checks it as a graph, as `run` would).
fn read_document(path: &str) -> Result<Value, BadInput> {
    let text = read_text(path)?;
    engine::parse::parse_value(&text).map_err(|e| BadInput::new(format!("{path}: {e}")))
}

/// Waits until the run has a record (it started) or has ended with a refusal of its graph or
/// input.
fn started(ingress: &Ingress, run_id: &str) -> Result<(), CallError> {
    let since = Instant::now();
    loop {
        match ingress.call(run_id, "status", None) {
            Ok(_) => return Ok(()),
            Err(CallError::Refused { status: 404, .. }) => {}
            Err(e) => return Err(e),
        }
        // No record yet: refused (the output says why), or not started yet.
        if ingress.output(run_id)?.is_some() {
            return Ok(());
        }
        if since.elapsed() > START_WAIT {
            return Err(CallError::Unreachable(format!(
                "the run {run_id} was accepted but has not started after {} s; see `switchyard status {run_id}` later",
                START_WAIT.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A new run id: the time in nanoseconds and the process, which two submissions do not share.
fn fresh_run_id() -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
    format!("run-{:x}-{:x}", nanos, std::process::id())
}
