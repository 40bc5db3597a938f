//! Running the open graph and moving through the run: the commands of the run panel (run,
//! pause, step, back, continue, reset, answer, fork, retry, open a saved run, fork a run of an
//! earlier version of the graph, open a subgraph's run). The run's signals are [`RunCtl`], in
//! the state.

use engine::record::RunRecord;
use engine::run::{InputError, Status};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::{Map, Value};

use super::live_host::call;
use super::settings::{approve_origins, approved_origins};
use crate::model::runs::instances::node_of;
use crate::model::runs::origins;
use crate::model::runs::outcome::error_shown;
use crate::model::runs::playback::Playback;
use crate::model::runs::run_input;
use crate::model::runs::run_service::{ForkAt, Refusal, Reply, Request, Update as RunUpdate};
use crate::model::runs::run_version::{RunVersion, run_version};
use crate::model::runs::run_view::nested_run;
use crate::model::storage::saved_run::SavedRun;
use crate::runner::Stopped;
use crate::state::{Alerts, App, DocState, Live, RunCtl};

/// Whether the open graph can run; why not, when it has errors (the first one given).
fn check_graph(doc: DocState) -> Result<(), String> {
    let errors: Vec<String> = doc
        .diagnostics
        .with_untracked(|d| d.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.path, d.message)).collect());
    match errors.first() {
        None => Ok(()),
        Some(first) => Err(graph_problems(errors.len(), first)),
    }
}

fn graph_problems(problems: usize, first: &str) -> String {
    format!(
        "The graph has {problems} problem{} to fix before it can run; the first: {first}",
        if problems == 1 { "" } else { "s" }
    )
}

fn document(doc: DocState) -> engine::Graph {
    doc.editor.with_untracked(|e| e.document().clone())
}

/// Starts a new run with the input in the Input box and plays it; when the graph would send
/// requests to origins the person has not used or approved, or start MCP servers' programs
/// whose command lines they have not allowed, asks first ([`RunCtl::new_origins`]).
pub fn start(app: App) {
    start_checked(app, true);
}

/// Remembers the origins and command lines asked about as approved, and starts the run
/// (once the command lines are kept: the desktop app checks them before it starts a
/// program).
pub fn run_anyway(app: App) {
    let App { doc, run: ctl, platform, alerts, .. } = app;
    let Some(asked) = ctl.new_origins.get_untracked() else { return };
    ctl.new_origins.set(None);
    let graph_id = doc.current.get_untracked().to_string();
    approve_origins(platform, &origins::entries_for(&asked, &graph_id));
    let lines = origins::command_lines(&asked);
    if lines.is_empty() {
        return start_checked(app, false);
    }
    let approving = platform.get().approve_commands(lines);
    spawn_local(async move {
        match approving.await {
            Ok(()) => start_checked(app, false),
            Err(why) => {
                alerts.error(format!("The command lines could not be kept as allowed, so the run did not start: {why}"))
            }
        }
    });
}

/// Does not start the run asked about.
pub fn cancel_start(ctl: RunCtl) {
    ctl.new_origins.set(None);
}

fn start_checked(app: App, ask: bool) {
    let App { doc, run: ctl, alerts, platform, .. } = app;
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
    if let Err(why) = check_graph(doc) {
        return alerts.error(why);
    }
    if ask {
        let graph_id = doc.current.get_untracked().to_string();
        let contacts = doc.editor.with_untracked(|e| origins::contacts(e.document()));
        let commands = platform.get().approved_commands();
        let new = origins::unknown(&contacts, &approved_origins(platform), commands.as_deref(), &graph_id);
        if !new.is_empty() {
            ctl.new_origins.set(Some(new));
            return;
        }
    }
    // A run already going is left for the new one (its step, if one runs, ended).
    ctl.playing.set(false);
    stop_step(ctl);
    let epoch = put_up(ctl);
    let request = Request::Start { graph: Box::new(document(doc)), input };
    spawn_local(async move {
        let Some(reply) = call_for(app, epoch, request).await else { return };
        match reply {
            Ok(Reply::Run(update)) => {
                ctl.parents.set(Vec::new());
                hold_live(ctl, &update);
                let initial = update.initial.clone().unwrap_or_default();
                ctl.view.set(Some(Playback::new(whole(update), initial)));
                play(app);
            }
            Ok(Reply::Refused(Refusal::Input { error })) => {
                alerts.error(format!("The run's input does not fit the graph: {error}"))
            }
            Ok(other) => refused(alerts, other),
            Err(Stopped) => {}
        }
    });
}

/// A new run is going up on display: replies for the one before are dropped from now on.
fn put_up(ctl: RunCtl) -> u64 {
    ctl.epoch.update_value(|e| *e += 1);
    ctl.epoch.get_value()
}

/// The engine holds the run of `update` as the live run behind the view.
fn hold_live(ctl: RunCtl, update: &RunUpdate) {
    ctl.live.set_value(Some(Live { head: update.head(), held: true }));
}

/// Sends `request` to the live run for the run put up at `epoch`; `None` when another run
/// went up on display meanwhile (the reply is for a run no longer shown).
async fn call_for(app: App, epoch: u64, request: Request) -> Option<Result<Reply, Stopped>> {
    let App { run: ctl, .. } = app;
    let reply = call(app, request).await;
    current(ctl, epoch).then_some(reply)
}

/// Whether the run put up at `epoch` is still the one on display.
fn current(ctl: RunCtl, epoch: u64) -> bool {
    ctl.epoch.try_get_value() == Some(epoch)
}

/// The record of a run just started, loaded or forked, with all its steps.
fn whole(update: Box<RunUpdate>) -> RunRecord {
    let RunUpdate { mut record, steps, .. } = *update;
    record.steps = Some(steps);
    record
}

/// Says why the live run refused a request (the refusals a caller does not word itself).
pub(super) fn refused(alerts: Alerts, reply: Reply) {
    match reply {
        Reply::Refused(Refusal::Graph { problems, first }) => alerts.error(graph_problems(problems, &first)),
        Reply::Refused(Refusal::Input { error }) => {
            alerts.error(format!("The run's input does not fit the graph: {error}"))
        }
        Reply::Refused(Refusal::Rebuild { error }) => {
            alerts.error(format!("This run no longer fits the graph: {error}"))
        }
        Reply::Refused(Refusal::Fork { step, error }) => alerts.error(format!("Cannot fork from step {step}: {error}")),
        Reply::Refused(Refusal::Answer { error }) => alerts.error(format!("That answer was not accepted: {error}")),
        Reply::Refused(Refusal::NoRun) => {
            alerts.error("This run cannot go on here (open it from the run history to continue it).")
        }
        Reply::Refused(Refusal::Suite { message }) => alerts.error(format!("The tests cannot run: {message}")),
        Reply::Refused(Refusal::NoSuite) => alerts.error("The tests were not ready to run; run them again."),
        Reply::Run(_) | Reply::Answered | Reply::Dropped | Reply::Prepared | Reply::Case(_) => {}
    }
}

/// How long the fastest speed shows recorded steps before letting the page draw.
const FRAME_BUDGET_MS: f64 = 12.0;

/// How long the worker runs steps for one reply at the fastest speed.
const BATCH_MS: f64 = 30.0;

/// Plays on: through recorded steps not shown yet, then by running new ones.
pub fn play(app: App) {
    let App { run: ctl, .. } = app;
    if ctl.playing.get_untracked() {
        return;
    }
    ctl.playing.set(true);
    spawn_local(async move {
        let mut frame_start = app.platform.get().now();
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
                advance(app).await;
            } else {
                break;
            }
            let pause = ctl.speed_ms.get_untracked();
            if pause > 0 {
                app.platform.get().sleep(pause).await;
            } else if app.platform.get().now() - frame_start > FRAME_BUDGET_MS {
                // At full speed, shown steps go by for about a frame, then the page draws.
                app.platform.get().sleep(0).await;
                frame_start = app.platform.get().now();
            }
        }
        ctl.playing.set(false);
    });
}

/// Stops playing. A step running now is stopped too, at once: the worker running it is
/// ended, and the run goes on later from the last step shown (that step runs again).
pub fn pause(ctl: RunCtl) {
    ctl.playing.set(false);
    stop_step(ctl);
}

/// Ends the step running now, if any; the run is loaded again from the steps on display
/// before it goes on.
fn stop_step(ctl: RunCtl) {
    if !ctl.busy.get_untracked() {
        return;
    }
    let engine = ctl.engine.get_value();
    if !engine.in_worker() {
        // The page runs the step itself: it cannot be ended, and lands when done.
        return;
    }
    engine.stop();
    ctl.busy.set(false);
    clear_streaming(ctl);
    ctl.live.update_value(|l| {
        if let Some(l) = l {
            l.held = false;
        }
    });
}

/// One step forward: the next recorded step, or a new one.
pub fn step(app: App) {
    let App { run: ctl, .. } = app;
    ctl.playing.set(false);
    let shown_all = ctl.view.with_untracked(|v| v.as_ref().is_none_or(Playback::at_end));
    if !shown_all {
        ctl.view.update(|v| {
            if let Some(v) = v {
                v.forward();
            }
        });
    } else if ctl.can_advance() && !ctl.busy.get_untracked() {
        spawn_local(advance(app));
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

/// Takes the run off display at once: a step running now is ended with its worker.
pub fn reset(app: App) {
    let App { run: ctl, .. } = app;
    ctl.playing.set(false);
    stop_step(ctl);
    put_up(ctl);
    clear_streaming(ctl);
    drop_live(app);
    ctl.view.set(None);
    ctl.parents.set(Vec::new());
}

/// Forgets the engine run behind the view.
fn drop_live(app: App) {
    let App { run: ctl, .. } = app;
    if ctl.live.with_value(|l| l.as_ref().is_some_and(|l| l.held)) {
        spawn_local(async move {
            let _ = call(app, Request::Drop).await;
        });
    }
    ctl.live.set_value(None);
}

/// Has the engine hold the run on display again, after a step was stopped half way.
async fn hold_again(app: App) -> bool {
    let App { run: ctl, .. } = app;
    if ctl.live.with_value(|l| l.as_ref().is_none_or(|l| l.held)) {
        return true;
    }
    load_shown(app).await
}

/// Has the engine load the run on display (the outermost one, when a subgraph's run is open)
/// and hold it as the live run; whether it does.
async fn load_shown(app: App) -> bool {
    let App { doc, run: ctl, alerts, .. } = app;
    // The outermost run on display, when a subgraph's run is open.
    let record = ctl.parents.with_untracked(|p| p.first().map(|(_, outer)| outer.complete_record()));
    let Some(record) = record.or_else(|| ctl.view.with_untracked(|v| v.as_ref().map(Playback::complete_record))) else {
        return false;
    };
    let epoch = ctl.epoch.get_value();
    let reply = call(app, Request::Load { graph: Box::new(document(doc)), record: Box::new(record), fork: None }).await;
    if !current(ctl, epoch) {
        return false;
    }
    match reply {
        Ok(Reply::Run(update)) => {
            hold_live(ctl, &update);
            true
        }
        Ok(other) => {
            ctl.live.set_value(None);
            refused(alerts, other);
            false
        }
        Err(Stopped) => false,
    }
}

/// Runs one superstep of the live run and shows it.
async fn advance(app: App) {
    let App { run: ctl, alerts, .. } = app;
    if ctl.busy.get_untracked() || !hold_again(app).await {
        return;
    }
    let epoch = ctl.epoch.get_value();
    let breakpoints = super::breakpoints::for_run(app);
    let shown = ctl.view.with_untracked(|v| v.as_ref().map_or(0, Playback::len));
    // At the fastest speed the worker runs steps for about a frame's worth of time and the
    // page draws the batch once: drawing each step of a large graph would take longer than
    // running it.
    let budget_ms = if ctl.playing.get_untracked() && ctl.speed_ms.get_untracked() == 0 { BATCH_MS } else { 0.0 };
    ctl.busy.set(true);
    let reply = call(app, Request::Step { breakpoints, shown, budget_ms }).await;
    if !current(ctl, epoch) {
        // Reset or another run while the page ran this step itself (no worker to end): the
        // step is over now.
        ctl.busy.set(false);
        return;
    }
    match reply {
        Ok(Reply::Run(update)) => {
            ctl.busy.set(false);
            // The replies streamed during the step are in its record now.
            clear_streaming(ctl);
            let status = update.record.status;
            hold_live(ctl, &update);
            show_new_steps(ctl, update);
            if status != Status::Running {
                ctl.playing.set(false);
                finished(app);
            }
        }
        Ok(other) => {
            ctl.busy.set(false);
            ctl.playing.set(false);
            ctl.live.set_value(None);
            refused(alerts, other);
        }
        // Paused or reset half way: that already said what the run panel shows.
        Err(Stopped) if !ctl.busy.get_untracked() => {}
        // The worker stopped by itself (the engine failed inside it): the run stays at the
        // steps shown, and goes on from there once loaded again.
        Err(Stopped) => {
            ctl.busy.set(false);
            ctl.playing.set(false);
            ctl.live.update_value(|l| {
                if let Some(l) = l {
                    l.held = false;
                }
            });
            alerts.error("The engine stopped during this step; the run is kept up to the step before it");
        }
    }
}

fn clear_streaming(ctl: RunCtl) {
    if !ctl.streaming.with_untracked(|m| m.is_empty()) {
        ctl.streaming.set(Default::default());
    }
}

/// Brings the shown record up to date with the live run: new steps are appended, the
/// head (status, state, waiting) replaced, and the newest step shown.
fn show_new_steps(ctl: RunCtl, update: Box<RunUpdate>) {
    ctl.view.update(|v| {
        if let Some(v) = v {
            let RunUpdate { record, steps, .. } = *update;
            v.extend(record, steps);
        }
    });
}

/// A run stopped (completed, failed, interrupted, limit): save it, and say what went wrong.
fn finished(app: App) {
    let App { run: ctl, alerts, .. } = app;
    let Some(view) = ctl.view.get_untracked() else { return };
    // A failure or a limit is said as the run panel says it; a stop, a question or the end
    // is said by the run panel itself (its status, the breakpoint and Input required), and a
    // toast over the canvas would only repeat it.
    if let Some(shown) = error_shown(&view.record) {
        alerts.error(shown.in_one_line());
    }
    save(app);
    super::traces::session_ended(app);
}

/// Saves the shown run in the graph's history.
pub fn save(app: App) {
    let App { doc, run: ctl, alerts, platform, .. } = app;
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
pub fn answer(app: App, node: &str, value: Value) {
    let App { alerts, .. } = app;
    let node = node.to_string();
    spawn_local(async move {
        if let Err(e) = try_answer(app, &node, value).await {
            alerts.error(format!("That answer was not accepted: {e}"));
        }
    });
}

/// Answers the node the run waits for and plays on; an answer the engine refuses is handed
/// back (its path names the form field at fault) rather than reported.
pub async fn try_answer(app: App, node: &str, value: Value) -> Result<(), InputError> {
    let App { run: ctl, alerts, .. } = app;
    if ctl.version.with_untracked(RunVersion::is_earlier) {
        // The form is not shown then; an answer in flight lands here.
        alerts.info("This run was made with an earlier version of this graph: fork it to go on");
        return Ok(());
    }
    // A run just opened from the history is loaded by the engine as it is shown; an answer
    // given before that load came back has the shown run loaded now.
    if ctl.live.with_value(Option::is_none) && !load_shown(app).await {
        alerts.error("This run cannot go on here (open it from the run history to continue it).");
        return Ok(());
    }
    if !hold_again(app).await {
        return Ok(());
    }
    let epoch = ctl.epoch.get_value();
    let reply = call(app, Request::Answer { node: node.to_string(), value }).await;
    if !current(ctl, epoch) {
        return Ok(());
    }
    match reply {
        Ok(Reply::Answered) => {
            ctl.live.update_value(|l| {
                if let Some(l) = l {
                    l.head.status = Status::Running;
                    l.head.waiting.clear();
                }
            });
            ctl.view.update(|v| {
                if let Some(v) = v {
                    v.record.status = Status::Running;
                    v.record.waiting.clear();
                }
            });
            play(app);
            // The form that had focus is gone: the Timeline, which follows the run, takes it.
            app.platform.get().focus("input.timeline");
            Ok(())
        }
        Ok(Reply::Refused(Refusal::Answer { error })) => Err(error),
        Ok(other) => {
            refused(alerts, other);
            Ok(())
        }
        Err(Stopped) => Ok(()),
    }
}

/// Starts a new run from the shown step, with `values` set in the state there.
pub fn fork(app: App, values: Map<String, Value>) {
    let App { doc, run: ctl, alerts, .. } = app;
    let Some(view) = ctl.view.get_untracked() else { return };
    let step = view.displayed as u64;
    let request = Request::Load {
        graph: Box::new(document(doc)),
        record: Box::new(view.record),
        fork: Some(ForkAt { step, values }),
    };
    let epoch = ctl.epoch.get_value();
    spawn_local(async move {
        let Some(reply) = call_for(app, epoch, request).await else { return };
        match reply {
            Ok(Reply::Run(update)) => {
                show_fork(ctl, update, view.initial);
                alerts.info(format!("Forked a new run from step {step}; the original run is kept in the history"));
                play(app);
            }
            Ok(other) => refused(alerts, other),
            Err(Stopped) => {}
        }
    });
}

/// Forks the run on display, made with an earlier version of the graph, into a new run of
/// the graph as it is now, from the step shown (of the outermost run, when a subgraph's run
/// is shown), and plays it. When the record cannot be rebuilt against this version, the old
/// run stays on display and its notice says why ([`RunCtl::fork_refused`]).
pub fn fork_anyway(app: App) {
    let App { doc, run: ctl, alerts, .. } = app;
    close_all_nested(ctl);
    if doc.editor.with_untracked(|e| !e.scope().is_empty()) {
        doc.edit(|e| e.leave_to(0));
    }
    let Some(view) = ctl.view.get_untracked() else { return };
    let step = view.displayed as u64;
    let run_id = view.record.run_id.clone();
    let fork = Some(ForkAt { step, values: Map::new() });
    let request = Request::Load { graph: Box::new(document(doc)), record: Box::new(view.record), fork };
    let epoch = ctl.epoch.get_value();
    spawn_local(async move {
        let Some(reply) = call_for(app, epoch, request).await else { return };
        let why = match reply {
            Ok(Reply::Run(update)) => {
                ctl.playing.set(false);
                show_fork(ctl, update, view.initial);
                alerts.info(format!(
                    "Forked a new run from step {step} of {run_id} against the graph as it is now; the original run is kept in the history"
                ));
                return play(app);
            }
            Ok(Reply::Refused(Refusal::Graph { problems, first })) => graph_problems(problems, &first),
            Ok(Reply::Refused(Refusal::Rebuild { error })) => {
                format!("It cannot be rebuilt against this version: {error}")
            }
            Ok(Reply::Refused(Refusal::Fork { error, .. })) => format!("Cannot fork from step {step}: {error}"),
            Ok(other) => return refused(alerts, other),
            Err(Stopped) => return,
        };
        ctl.fork_refused.set(Some((run_id, why)));
    });
}

/// Shows a run just forked (the steps it took over from its source included) as the live run;
/// `initial` is the state before its first step when the fork does not say.
fn show_fork(ctl: RunCtl, update: Box<RunUpdate>, initial: Map<String, Value>) {
    put_up(ctl);
    hold_live(ctl, &update);
    let initial = update.initial.clone().unwrap_or(initial);
    ctl.view.set(Some(Playback::new(whole(update), initial)));
}

/// Shows a saved run; one that stopped half way can be continued (once the engine holds it
/// again, a moment later).
pub fn open_saved(app: App, run_id: &str) {
    let App { doc, run: ctl, alerts, platform, .. } = app;
    // A saved run is of the whole document.
    close_all_nested(ctl);
    if doc.editor.with_untracked(|e| !e.scope().is_empty()) {
        doc.edit(|e| e.leave_to(0));
    }
    let graph = doc.current.get_untracked();
    match platform.get().load_run(&graph, run_id) {
        Ok(saved) => {
            ctl.playing.set(false);
            stop_step(ctl);
            ctl.parents.set(Vec::new());
            drop_live(app);
            let epoch = put_up(ctl);
            // A run of an earlier version of the graph is only looked at (its notice offers a
            // fork): rebuilding it against this version would run its rest on a changed graph.
            let earlier = run_version(&saved.record, &doc.hash.get_untracked()).is_earlier();
            if !earlier {
                let request = Request::Load {
                    graph: Box::new(document(doc)),
                    record: Box::new(saved.record.clone()),
                    fork: None,
                };
                spawn_local(async move {
                    let Some(reply) = call_for(app, epoch, request).await else { return };
                    match reply {
                        Ok(Reply::Run(update)) => hold_live(ctl, &update),
                        Ok(other) => refused(alerts, other),
                        Err(Stopped) => {}
                    }
                });
            }
            ctl.view.set(Some(Playback::new(saved.record, saved.initial)));
        }
        Err(why) => alerts.error(format!("Could not open that run: {why}")),
    }
}

/// Loads the run history of the open graph.
pub fn load_history(app: App) {
    let App { doc, run: ctl, platform, .. } = app;
    ctl.history.set(platform.get().list_runs(&doc.current.get_untracked()));
}

/// Shows the run a subgraph node made at the shown step (its steps are in the parent's
/// record); `close_nested` goes back.
pub fn open_nested(app: App, node: &str) {
    let App { doc, run: ctl, alerts, .. } = app;
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
