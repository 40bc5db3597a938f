//! Running the open graph and moving through the run: the commands of the run panel (run,
//! pause, step, back, continue, reset, answer, fork, retry, open a saved run, fork a run of an
//! earlier version of the graph, open a subgraph's run). The run's signals are [`RunCtl`], in
//! the state.

use std::rc::Rc;

use engine::record::RunRecord;
use engine::run::{ErrorKind, InputError, Status};
use engine::{Plan, Run, compile};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::{Map, Value};

use super::live_host::LiveHost;
use super::settings::{approve_origins, approved_origins};
use crate::model::instances::node_of;
use crate::model::origins;
use crate::model::playback::Playback;
use crate::model::run_input;
use crate::model::run_version::{RunVersion, run_version};
use crate::model::run_view::nested_run;
use crate::model::saved_run::SavedRun;
use crate::platform::PlatformRef;
use crate::state::{Alerts, DocState, RunCtl};

fn plan_of(doc: DocState) -> Result<Rc<Plan>, String> {
    let graph = doc.editor.with_untracked(|e| e.document().clone());
    let compiled = compile(&graph);
    match compiled.plan {
        Some(p) => Ok(Rc::new(p)),
        None => {
            let errors: Vec<String> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{}: {}", d.path, d.message))
                .collect();
            Err(format!(
                "The graph has {} problem{} to fix before it can run; the first: {}",
                errors.len(),
                if errors.len() == 1 { "" } else { "s" },
                errors.first().cloned().unwrap_or_default()
            ))
        }
    }
}

/// Starts a new run with the input in the Input box and plays it; when the graph would send
/// requests to origins the person has not used or approved, asks first
/// ([`RunCtl::new_origins`]).
pub fn start(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef) {
    start_checked(doc, ctl, alerts, platform, true);
}

/// Remembers the origins asked about as approved, and starts the run.
pub fn run_anyway(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef) {
    let Some(asked) = ctl.new_origins.get_untracked() else { return };
    ctl.new_origins.set(None);
    let graph_id = doc.current.get_untracked().to_string();
    approve_origins(platform, &origins::entries_for(&asked, &graph_id));
    start_checked(doc, ctl, alerts, platform, false);
}

/// Does not start the run asked about.
pub fn cancel_start(ctl: RunCtl) {
    ctl.new_origins.set(None);
}

fn start_checked(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef, ask: bool) {
    let input = match engine::parse::parse_value(&ctl.input.get_untracked()) {
        Ok(v) => v,
        Err(e) => return alerts.error(format!("The run's input is not valid JSON: {e}")),
    };
    let empty = doc.editor.with_untracked(|e| run_input::empty_required(e.document(), &input));
    if !empty.is_empty() {
        let keys: Vec<String> = empty.iter().map(|k| format!("`{k}`")).collect();
        return alerts.error(format!(
            "The input's {} {} required by the start node but empty: fill {} in before running",
            keys.join(" and "),
            if keys.len() == 1 { "is" } else { "are" },
            if keys.len() == 1 { "it" } else { "them" }
        ));
    }
    let plan = match plan_of(doc) {
        Ok(p) => p,
        Err(why) => return alerts.error(why),
    };
    if ask {
        let graph_id = doc.current.get_untracked().to_string();
        let contacts = doc.editor.with_untracked(|e| origins::contacts(e.document()));
        let new = origins::unknown(&contacts, &approved_origins(platform), &graph_id);
        if !new.is_empty() {
            ctl.new_origins.set(Some(new));
            return;
        }
    }
    let host = platform.get().host();
    match Run::start(plan, input, host.as_ref()) {
        Ok(run) => {
            let initial = run.state_at(0).map(|s| s.to_json()).unwrap_or_default();
            ctl.parents.set(Vec::new());
            ctl.view.set(Some(Playback::new(run.record(false), initial)));
            ctl.live.set_value(Some(run));
            play(doc, ctl, alerts, platform);
        }
        Err(e) => alerts.error(format!("The run's input does not fit the graph: {e}")),
    }
}

/// How long the fastest speed runs steps before letting the page draw.
const FRAME_BUDGET_MS: f64 = 12.0;

/// Plays on: through recorded steps not shown yet, then by running new ones.
pub fn play(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef) {
    if ctl.playing.get_untracked() {
        return;
    }
    ctl.playing.set(true);
    spawn_local(async move {
        let host = LiveHost::new(platform.get().host(), ctl);
        let mut frame_start = js_sys::Date::now();
        loop {
            if !ctl.playing.get_untracked() {
                break;
            }
            let shown_all = ctl.view.with_untracked(|v| v.as_ref().is_none_or(Playback::at_end));
            if !shown_all {
                ctl.view.update(|v| {
                    if let Some(v) = v {
                        v.forward();
                    }
                });
            } else if ctl.can_advance() {
                advance(doc, ctl, alerts, platform, &host).await;
            } else {
                break;
            }
            let pause = ctl.speed_ms.get_untracked();
            if pause > 0 {
                gloo_timers::future::TimeoutFuture::new(pause).await;
            } else if js_sys::Date::now() - frame_start > FRAME_BUDGET_MS {
                // At full speed, steps run back to back for about a frame, then the page
                // draws and stays responsive (Pause works) before the next batch.
                gloo_timers::future::TimeoutFuture::new(0).await;
                frame_start = js_sys::Date::now();
            }
        }
        ctl.playing.set(false);
    });
}

pub fn pause(ctl: RunCtl) {
    ctl.playing.set(false);
}

/// One step forward: the next recorded step, or a new one.
pub fn step(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef) {
    ctl.playing.set(false);
    let shown_all = ctl.view.with_untracked(|v| v.as_ref().is_none_or(Playback::at_end));
    if !shown_all {
        ctl.view.update(|v| {
            if let Some(v) = v {
                v.forward();
            }
        });
    } else if ctl.can_advance() && !ctl.busy.get_untracked() {
        spawn_local(async move {
            let host = LiveHost::new(platform.get().host(), ctl);
            advance(doc, ctl, alerts, platform, &host).await;
        });
    }
}

pub fn back(ctl: RunCtl) {
    ctl.playing.set(false);
    ctl.view.update(|v| {
        if let Some(v) = v {
            v.back();
        }
    });
}

pub fn show_step(ctl: RunCtl, step: usize) {
    ctl.playing.set(false);
    ctl.view.update(|v| {
        if let Some(v) = v {
            v.show(step);
        }
    });
}

pub fn reset(ctl: RunCtl) {
    ctl.playing.set(false);
    clear_streaming(ctl);
    ctl.live.set_value(None);
    ctl.view.set(None);
    ctl.parents.set(Vec::new());
}

/// Runs one superstep of the live run and shows it.
async fn advance(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef, host: &dyn engine::host::Host) {
    let Some(mut run) = ctl.live.try_update_value(Option::take).flatten() else { return };
    ctl.busy.set(true);
    super::breakpoints::apply(doc, ctl, &mut run);
    run.step(host).await;
    ctl.busy.set(false);
    // The replies streamed during the step are in its record now.
    clear_streaming(ctl);
    sync_view(ctl, &run);
    let status = run.status();
    ctl.live.set_value(Some(run));
    if status != Status::Running {
        ctl.playing.set(false);
        finished(doc, ctl, alerts, platform);
    }
}

fn clear_streaming(ctl: RunCtl) {
    if !ctl.streaming.with_untracked(|m| m.is_empty()) {
        ctl.streaming.set(Default::default());
    }
}

/// Brings the shown record up to date with the live run: new steps are appended, the
/// head (status, state, waiting) replaced, and the newest step shown.
fn sync_view(ctl: RunCtl, run: &Run) {
    ctl.view.update(|v| {
        if let Some(v) = v {
            v.extend(run.record(false), run.step_docs(v.len()));
        }
    });
}

/// A run stopped (completed, failed, interrupted, limit): save it, and say what went wrong.
fn finished(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef) {
    let Some(view) = ctl.view.get_untracked() else { return };
    let record = &view.record;
    match (&record.status, &record.error) {
        (Status::Failed, Some(e)) if e.kind == ErrorKind::Ended => {
            alerts.error(format!("The run ended failed at end `{}`: {}", e.node.as_deref().unwrap_or("?"), e.message))
        }
        (Status::Failed, Some(e)) => alerts.error(format!(
            "The run failed at step {}{}: {}",
            record.step,
            e.node.as_deref().map(|n| format!(" in `{n}`")).unwrap_or_default(),
            e.message
        )),
        (Status::LimitReached, Some(e)) => alerts.error(format!("The run stopped at its step limit: {}", e.message)),
        // A stop, a question or the end is said by the run panel itself (its status, the
        // breakpoint and Input required); a toast over the canvas would only repeat it.
        _ => {}
    }
    save(doc, ctl, alerts, platform);
}

/// Saves the shown run in the graph's history.
pub fn save(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef) {
    let Some(view) = ctl.view.get_untracked() else { return };
    if !ctl.parents.with_untracked(Vec::is_empty) {
        return;
    }
    let graph = doc.current.get_untracked();
    let saved = SavedRun { record: view.complete_record(), initial: view.initial.clone() };
    let platform = platform.get();
    match platform.save_run(&graph, &saved) {
        Ok(notices) => {
            for n in notices {
                alerts.info(n);
            }
        }
        Err(why) => alerts.error(format!("Could not save the run: {why}.")),
    }
    ctl.history.set(platform.list_runs(&graph));
}

/// Answers the node the run waits for, and plays on.
pub fn answer(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef, node: &str, value: Value) {
    if let Err(e) = try_answer(doc, ctl, alerts, platform, node, value) {
        alerts.error(format!("That answer was not accepted: {e}"));
    }
}

/// Answers the node the run waits for and plays on; an answer the engine refuses is handed
/// back (its path names the form field at fault) rather than reported.
pub fn try_answer(
    doc: DocState,
    ctl: RunCtl,
    alerts: Alerts,
    platform: PlatformRef,
    node: &str,
    value: Value,
) -> Result<(), InputError> {
    if ctl.version.with_untracked(RunVersion::is_earlier) {
        // The form is not shown then; an answer in flight lands here.
        alerts.info("This run was made with an earlier version of this graph: fork it to go on");
        return Ok(());
    }
    let result = ctl.live.try_update_value(|r| r.as_mut().map(|r| r.answer(node, value))).flatten();
    match result {
        Some(Ok(())) => {
            ctl.view.update(|v| {
                if let Some(v) = v {
                    v.record.status = Status::Running;
                    v.record.waiting.clear();
                }
            });
            play(doc, ctl, alerts, platform);
            // The form that had focus is gone: the Timeline, which follows the run, takes it.
            focus_timeline();
            Ok(())
        }
        Some(Err(e)) => Err(e),
        None => {
            alerts.error("This run cannot go on here (open it from the run history to continue it).");
            Ok(())
        }
    }
}

fn focus_timeline() {
    request_animation_frame(|| {
        if let Some(el) = document().query_selector("input.timeline").ok().flatten()
            && let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el)
        {
            let _ = el.focus();
        }
    });
}

/// Starts a new run from the shown step, with `values` set in the state there.
pub fn fork(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef, values: Map<String, Value>) {
    let Some(view) = ctl.view.get_untracked() else { return };
    let step = view.displayed as u64;
    let Some(source) = rebuild(doc, alerts, platform, &view.record) else { return };
    let host = platform.get().host();
    let host = host.as_ref();
    let result =
        if values.is_empty() { source.fork(step, None, host) } else { source.fork_with_values(step, values, host) };
    match result {
        Ok(run) => {
            show_fork(ctl, run, view.initial);
            alerts.info(format!("Forked a new run from step {step}; the original run is kept in the history"));
            play(doc, ctl, alerts, platform);
        }
        Err(e) => alerts.error(format!("Cannot fork from step {step}: {e}")),
    }
}

/// Forks the run on display, made with an earlier version of the graph, into a new run of
/// the graph as it is now, from the step shown (of the outermost run, when a subgraph's run
/// is shown), and plays it. When the record cannot be rebuilt against this version, the old
/// run stays on display and its notice says why ([`RunCtl::fork_refused`]).
pub fn fork_anyway(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef) {
    close_all_nested(ctl);
    if doc.editor.with_untracked(|e| !e.scope().is_empty()) {
        doc.edit(|e| e.leave_to(0));
    }
    let Some(view) = ctl.view.get_untracked() else { return };
    let step = view.displayed as u64;
    let run_id = view.record.run_id.clone();
    let refuse = |why: String| ctl.fork_refused.set(Some((run_id.clone(), why)));
    let plan = match plan_of(doc) {
        Ok(p) => p,
        Err(why) => return refuse(why),
    };
    let host = platform.get().host();
    let host = host.as_ref();
    let forked = Run::from_record(plan, &view.record, host)
        .map_err(|e| format!("It cannot be rebuilt against this version: {e}"))
        .and_then(|source| source.fork(step, None, host).map_err(|e| format!("Cannot fork from step {step}: {e}")));
    match forked {
        Ok(run) => {
            ctl.playing.set(false);
            let initial = run.state_at(0).map(|s| s.to_json()).unwrap_or(view.initial);
            show_fork(ctl, run, initial);
            alerts.info(format!(
                "Forked a new run from step {step} of {run_id} against the graph as it is now; the original run is kept in the history"
            ));
            play(doc, ctl, alerts, platform);
        }
        Err(why) => refuse(why),
    }
}

/// Shows a run just forked (the steps it took over from its source included) as the live run.
fn show_fork(ctl: RunCtl, run: Run, initial: Map<String, Value>) {
    let mut record = run.record(false);
    record.steps = Some(run.step_docs(0));
    ctl.view.set(Some(Playback::new(record, initial)));
    ctl.live.set_value(Some(run));
}

/// The engine run for a record, against the open graph.
fn rebuild(doc: DocState, alerts: Alerts, platform: PlatformRef, record: &RunRecord) -> Option<Run> {
    let plan = match plan_of(doc) {
        Ok(p) => p,
        Err(why) => {
            alerts.error(why);
            return None;
        }
    };
    let host = platform.get().host();
    match Run::from_record(plan, record, host.as_ref()) {
        Ok(r) => Some(r),
        Err(e) => {
            alerts.error(format!("This run no longer fits the graph: {e}"));
            None
        }
    }
}

/// Shows a saved run; one that stopped half way can be continued.
pub fn open_saved(doc: DocState, ctl: RunCtl, alerts: Alerts, platform: PlatformRef, run_id: &str) {
    // A saved run is of the whole document.
    close_all_nested(ctl);
    if doc.editor.with_untracked(|e| !e.scope().is_empty()) {
        doc.edit(|e| e.leave_to(0));
    }
    let graph = doc.current.get_untracked();
    match platform.get().load_run(&graph, run_id) {
        Ok(saved) => {
            ctl.playing.set(false);
            ctl.parents.set(Vec::new());
            // A run of an earlier version of the graph is only looked at (its notice offers a
            // fork): rebuilding it against this version would run its rest on a changed graph.
            let earlier = run_version(&saved.record, &doc.hash.get_untracked()).is_earlier();
            ctl.live.set_value(if earlier { None } else { rebuild(doc, alerts, platform, &saved.record) });
            ctl.view.set(Some(Playback::new(saved.record, saved.initial)));
        }
        Err(why) => alerts.error(format!("Could not open that run: {why}")),
    }
}

/// Loads the run history of the open graph.
pub fn load_history(doc: DocState, ctl: RunCtl, platform: PlatformRef) {
    ctl.history.set(platform.get().list_runs(&doc.current.get_untracked()));
}

/// Shows the run a subgraph node made at the shown step (its steps are in the parent's
/// record); `close_nested` goes back.
pub fn open_nested(doc: DocState, ctl: RunCtl, alerts: Alerts, node: &str) {
    // The running step would land in the nested view rather than in its own run.
    if ctl.busy.get_untracked() {
        return alerts.info("Wait for the running step to finish, then open the subgraph's run");
    }
    let Some(view) = ctl.view.get_untracked() else { return };
    let nested = match nested_run(&view, node) {
        Ok(n) => n,
        Err(why) => return alerts.info(why.to_string()),
    };
    // The canvas goes into the subgraph with its run, when it showed the run's graph; an
    // instance of a mapped subgraph node (`sub[2]`) runs the graph of node `sub`.
    let canvas_follows = ctl.in_step.get();
    let graph_node = node_of(node);
    ctl.playing.set(false);
    ctl.parents.update(|p| p.push((graph_node.to_string(), view)));
    ctl.view.set(Some(nested));
    if canvas_follows && let Err(why) = doc.edit(|e| e.enter(graph_node)) {
        alerts.info(format!("Showing the subgraph's run without its graph: {why}"));
    }
}

/// Back to the run around the subgraph's run shown (the canvas leaves the subgraph with it).
pub fn close_nested(ctl: RunCtl) {
    let mut parents = ctl.parents.get_untracked();
    if let Some((_, parent)) = parents.pop() {
        ctl.parents.set(parents);
        ctl.view.set(Some(parent));
    }
}

/// Back to the outermost run, closing every subgraph's run shown.
pub fn close_all_nested(ctl: RunCtl) {
    while !ctl.parents.with_untracked(Vec::is_empty) {
        close_nested(ctl);
    }
}
