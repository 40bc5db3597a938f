//! One tool call: the graph run on its own thread (the engine is not `Send`; each call gets a
//! thread with a run's stack, stepping it with the CLI's host as `switchyard run` does), and
//! what it tells the server side through channels: each finished step, the questions of the
//! nodes it waits at, and how it ended. The server side answers the questions and may cancel.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use engine::plan::{HumanAnswer, Op};
use engine::{Graph, Plan, Run, Status};
use net::mcp::AllowedCommands;
use serde_json::{Map, Value};
use tokio::sync::{mpsc, oneshot};

use super::elicit::{Asks, Question};
use super::stop::StoppingHost;
use crate::traces::RunTracer;

/// What the run thread tells the call.
#[derive(Debug)]
pub enum RunEvent {
    /// Step `step` finished, having run these nodes.
    Stepped { step: u64, ran: Vec<String> },
    /// The run waits for these nodes; answer on the channel (one answer per question, in
    /// order) or drop it to end the run.
    Waiting { questions: Vec<Question>, answers: oneshot::Sender<Vec<(String, Value)>> },
    /// The run stopped.
    Ended(Ending),
}

/// How a call's run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// Completed: the final state.
    Completed(Map<String, Value>),
    /// Failed, reached a limit, or was given input or an answer it refused: the message.
    Failed(String),
}

/// A call in progress: its events, and the flag that stops it.
pub struct Call {
    pub events: mpsc::UnboundedReceiver<RunEvent>,
    pub cancel: Arc<AtomicBool>,
}

/// Starts `graph` with `input` on a run thread, followed by `tracer` when traces are sent.
pub fn start(graph: Graph, input: Value, allowed: AllowedCommands, tracer: Option<RunTracer>) -> Call {
    let (tx, events) = mpsc::unbounded_channel();
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = cancel.clone();
    let failed = tx.clone();
    let spawned = engine::stack::spawn_run_thread("switchyard-mcp-call", move || {
        let mut tracer = tracer;
        drive(graph, input, allowed, &tx, &stop, tracer.as_mut());
    });
    if let Err(e) = spawned {
        let _ = failed.send(RunEvent::Ended(Ending::Failed(format!("cannot start the run's thread: {e}"))));
    }
    Call { events, cancel }
}

/// Runs the graph to its end, asking through `tx` when it waits; returns early when `stop`
/// is set (checked between steps; the host's waits end at once) or when the call stops
/// listening.
fn drive(
    graph: Graph,
    input: Value,
    allowed: AllowedCommands,
    tx: &mpsc::UnboundedSender<RunEvent>,
    stop: &Arc<AtomicBool>,
    mut tracer: Option<&mut RunTracer>,
) {
    let ending = |e: Ending| {
        let _ = tx.send(RunEvent::Ended(e));
    };
    let Some(plan) = engine::compile(&graph).plan else {
        return ending(Ending::Failed("the graph is not valid".into()));
    };
    if let Some(key) = undeclared_key(&plan, &input) {
        return ending(Ending::Failed(format!(
            "input: `{key}` is not a state field of the graph (the tool's inputSchema lists them)"
        )));
    }
    let plan = Rc::new(plan);
    let host = StoppingHost::new(crate::host::native_host(allowed), stop.clone());
    let mut run = match Run::start(plan.clone(), input, &host) {
        Ok(run) => run,
        Err(e) => return ending(Ending::Failed(format!("input: {e}"))),
    };
    if let Some(t) = tracer.as_deref_mut() {
        t.begin(&run);
    }
    drive_steps(&mut run, &plan, &host, tx, stop, tracer.as_deref_mut());
    if let Some(t) = tracer {
        t.session_ended(&run);
    }
    // A call given up (cancelled, or its client gone) leaves no server running.
    pollster::block_on(run.close_mcp(&host));
}

/// Steps `run` until it ends, is stopped, or its call stops listening.
fn drive_steps(
    run: &mut Run,
    plan: &Plan,
    host: &dyn engine::Host,
    tx: &mpsc::UnboundedSender<RunEvent>,
    stop: &Arc<AtomicBool>,
    mut tracer: Option<&mut RunTracer>,
) {
    let ending = |e: Ending| {
        let _ = tx.send(RunEvent::Ended(e));
    };
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let before = run.steps().len();
        pollster::block_on(run.step(host));
        if let Some(t) = tracer.as_deref_mut() {
            t.stepped(run);
        }
        for s in &run.steps()[before..] {
            let ran = s.ran.iter().map(|t| t.name(plan)).collect();
            if tx.send(RunEvent::Stepped { step: s.step, ran }).is_err() {
                return;
            }
        }
        match run.status() {
            Status::Running => {}
            Status::Completed => return ending(Ending::Completed(run.state_json())),
            Status::Failed | Status::LimitReached => return ending(Ending::Failed(failure(run))),
            Status::Interrupted => {
                let questions = questions(run, plan);
                if questions.is_empty() {
                    return ending(Ending::Failed("the run stopped at a breakpoint".into()));
                }
                // Waiting for a person ends the session; the answer starts the next one.
                if let Some(t) = tracer.as_deref_mut() {
                    t.session_ended(run);
                }
                let (answers_tx, answers_rx) = oneshot::channel();
                if tx.send(RunEvent::Waiting { questions, answers: answers_tx }).is_err() {
                    return;
                }
                let Ok(answers) = answers_rx.blocking_recv() else { return };
                for (node, answer) in answers {
                    if let Err(e) = run.answer(&node, answer) {
                        return ending(Ending::Failed(format!("{}: {}", e.path, e.message)));
                    }
                }
                if let Some(t) = tracer.as_deref_mut() {
                    t.begin(run);
                }
            }
        }
    }
}

/// An input key no state field declares: the tool's inputSchema allows no other keys, so
/// the call refuses it rather than warning as `switchyard run` does.
fn undeclared_key(plan: &Plan, input: &Value) -> Option<String> {
    input.as_object()?.keys().find(|k| !plan.schema.is_declared(k)).cloned()
}

/// The message of a run that failed or reached a limit.
fn failure(run: &Run) -> String {
    match run.error() {
        Some(e) => match &e.node {
            Some(node) => format!("{} (node `{node}`)", e.message),
            None => e.message.clone(),
        },
        None => format!("the run stopped: {}", run.status().name()),
    }
}

/// What each waiting human node asks (breakpoints are not questions).
fn questions(run: &Run, plan: &Plan) -> Vec<Question> {
    run.waiting()
        .iter()
        .filter(|w| w.breakpoint.is_none())
        .map(|w| {
            let asks = match &w.fields {
                Some(fields) => Asks::Form(fields.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
                None => one_value(plan, &w.node, w.options.clone()),
            };
            Question { node: w.node.clone(), prompt: w.prompt.clone(), asks }
        })
        .collect()
}

/// A node answered with one value: the field it writes and that field's type.
fn one_value(plan: &Plan, node: &str, options: Option<Vec<String>>) -> Asks {
    let writes = plan
        .index(node)
        .and_then(|ix| match &plan.node(ix).op {
            Op::Human(h) => match &h.answer {
                HumanAnswer::Value { writes, .. } => Some(writes.clone()),
                HumanAnswer::Form(_) => None,
            },
            _ => None,
        })
        // A suspended subgraph passes its child's question up: answered as one value.
        .unwrap_or_else(|| node.to_string());
    let ty = plan
        .graph
        .state
        .as_ref()
        .and_then(|s| s.get(&writes))
        .map(|f| f.ty)
        .unwrap_or(engine::document::FieldType::Any);
    Asks::One { writes, ty, options }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events_of(graph: &str, input: Value) -> Vec<RunEvent> {
        let mut call = start(engine::parse_graph(graph).unwrap(), input, AllowedCommands::none(), None);
        let mut out = Vec::new();
        while let Some(e) = call.events.blocking_recv() {
            let end = matches!(e, RunEvent::Ended(_));
            out.push(e);
            if end {
                break;
            }
        }
        out
    }

    const COUNT: &str = r#"{"format":"switchyard/graph@1","state":{"n":{"type":"number","reducer":"add"}},
        "nodes":[{"id":"start","kind":"start"},{"id":"inc","kind":"set","set":{"n":"1"}},{"id":"end","kind":"end"}],
        "edges":[{"from":"start","to":"inc"},{"from":"inc","to":"inc","when":"state.n < 3"},{"from":"inc","to":"end","when":"state.n >= 3"}]}"#;

    #[test]
    fn a_run_reports_each_step_then_its_state() {
        let events = events_of(COUNT, serde_json::json!({}));
        let steps: Vec<u64> = events
            .iter()
            .filter_map(|e| if let RunEvent::Stepped { step, .. } = e { Some(*step) } else { None })
            .collect();
        assert_eq!(steps, vec![1, 2, 3]);
        match events.last() {
            Some(RunEvent::Ended(Ending::Completed(state))) => assert_eq!(state["n"], 3),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn refused_input_ends_the_call_with_its_message() {
        let events = events_of(COUNT, serde_json::json!({"n": "three"}));
        match events.last() {
            Some(RunEvent::Ended(Ending::Failed(m))) => assert!(m.starts_with("input: "), "{m}"),
            other => panic!("{other:?}"),
        }
        let events = events_of(COUNT, serde_json::json!({"m": 1}));
        match events.last() {
            Some(RunEvent::Ended(Ending::Failed(m))) => {
                assert_eq!(m, "input: `m` is not a state field of the graph (the tool's inputSchema lists them)")
            }
            other => panic!("{other:?}"),
        }
    }
}
