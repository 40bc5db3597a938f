//! The run panel: the input and the run controls, the timeline, the run's token usage, what
//! the run waits for, replies streaming in, the steps (with a map step's instances), and the
//! run history.

use leptos::prelude::*;

use engine::run::Status;

use crate::actions::commands::carry_out;
use crate::actions::run as run_ctl;
use crate::actions::{breakpoints, compare, navigation, panels};
use crate::model::runs::breakpoints::at_breakpoint;
use crate::model::runs::instances::{RanGroup, group_ran};
use crate::model::runs::playback::Playback;
use crate::model::{editing::words, runs::run_input};
use crate::platform::use_platform;
use crate::state::run::SPEEDS;
use crate::state::{use_alerts, use_app, use_doc, use_run, use_ui};
use crate::ui::run_panel::input_required::InputRequired;
use crate::ui::run_panel::instance_list::InstanceList;
use crate::ui::run_panel::live_reply::LiveReply;
use crate::ui::run_panel::run_error::RunErrorView;
use crate::ui::run_panel::run_version_notice::RunVersionNotice;
use crate::ui::run_panel::state_view::StateView;
use crate::ui::run_panel::trace_id::RunTrace;
use crate::ui::tests_panel::save_as_test::SaveAsTest;
use switchyard_ipc::commands::CommandId;

/// What the bar says of the run shown: its step, and what it is doing at this moment (a
/// live run between steps that does not play on, and runs no step, is paused, not running).
fn status_text(v: &Playback, running: bool) -> String {
    let r = &v.record;
    let what = match r.status {
        Status::Running if running => "running",
        Status::Running => "paused",
        Status::Completed => "completed",
        Status::Interrupted if at_breakpoint(&r.waiting) => "stopped at a breakpoint",
        Status::Interrupted => "waiting for input",
        Status::Failed => "failed",
        Status::LimitReached => "stopped at max_steps",
    };
    format!("Step {} of {} · {what}", v.displayed, v.len())
}

#[component]
pub fn RunPanel() -> impl IntoView {
    let doc = use_doc();
    let alerts = use_alerts();
    let platform = use_platform();
    let ctl = use_run();
    let ui = use_ui();
    let app = use_app();
    let flavour = platform.get().flavour();
    // A run command's button: its name and tooltip (with its keys here) from the command table.
    let name = |id: CommandId| id.command().button_name();
    let tip = move |id: CommandId| id.command().tooltip(flavour);
    let run_keys = StoredValue::new(CommandId::Run.command().keys_in(flavour));
    let open = ui.run_open;
    // A new graph gets an input made from what it needs.
    Effect::new(move |_| {
        doc.current.track();
        let suggested = doc.editor.with_untracked(|e| run_input::suggested(e.document()));
        ctl.input.set(suggested);
        run_ctl::reset(app);
        breakpoints::load(app);
        run_ctl::load_history(app);
        // Recovery: a run left waiting for input (the tab was closed or reloaded) comes back.
        let unfinished = ctl
            .history
            .with_untracked(|h| h.first().filter(|r| r.status == Status::Interrupted).map(|r| r.run_id.clone()));
        if let Some(run_id) = unfinished {
            run_ctl::open_saved(app, &run_id);
            if ctl.version.with_untracked(|v| v.is_earlier()) {
                alerts.info("Reopened the last run, made with an earlier version of this graph");
            } else {
                alerts.info("Reopened the last run, which is waiting for input");
            }
        }
    });
    let has_view = move || ctl.view.with(Option::is_some);
    let len = move || ctl.view.with(|v| v.as_ref().map_or(0, Playback::len));
    let displayed = move || ctl.view.with(|v| v.as_ref().map_or(0, |v| v.displayed));
    let at_end = move || ctl.view.with(|v| v.as_ref().is_none_or(Playback::at_end));
    let status = move || ctl.view.with(|v| v.as_ref().map(|v| v.record.status));
    // The run goes on, or stopped at a breakpoint (the next step passes it).
    let goes_on = move || {
        ctl.view.with(|v| {
            v.as_ref().is_some_and(|v| {
                v.record.status == Status::Running
                    || (v.record.status == Status::Interrupted && at_breakpoint(&v.record.waiting))
            })
        })
    };
    // A run of an earlier version of the graph goes on only as a fork (its notice offers one).
    let can_step = move || !at_end() || (!ctl.version.with(|v| v.is_earlier()) && ctl.can_advance() && goes_on());
    let nested = move || !ctl.parents.with(Vec::is_empty);

    view! {
        // A fixed height the person sets on the splitter above; what is inside scrolls, so
        // the canvas and the controls never move as a run goes on.
        <section class="run-panel" class:collapsed=move || !open.get() role="region" aria-label="Run"
            style:height=move || open.get().then(|| format!("{}px", ui.run_height.get()))>
            <div class="run-bar">
                <button class="collapse" on:click=move |_| panels::toggle_run(app)
                    aria-label=move || if open.get() { "Hide run panel" } else { "Show run panel" }>
                    {move || if open.get() { "▾" } else { "▸" }}
                </button>
                <label class="run-input">
                    <span>"Input"</span>
                    // One line in the bar; while focused it opens over the panel below.
                    <span class="run-input-box">
                        <textarea aria-label="Input" spellcheck="false"
                            rows=move || ctl.input.with(|t| t.lines().count().clamp(1, 8)) prop:value=move || ctl.input.get()
                            on:input=move |ev| ctl.input.set(event_target_value(&ev))></textarea>
                    </span>
                </label>
                <button class="primary" on:click=move |_| carry_out(app, CommandId::Run)
                    title=tip(CommandId::Run) aria-label=name(CommandId::Run)>{name(CommandId::Run)}</button>
                <div class="tool-group" role="group" aria-label="Run controls">
                    // Pause and Continue are the two halves of Continue's key: each button does its half.
                    <button on:click=move |_| run_ctl::pause(ctl) disabled=move || !ctl.playing.get() && !ctl.busy.get()
                        title=tip(CommandId::Pause) aria-label=name(CommandId::Pause)>{name(CommandId::Pause)}</button>
                    <button on:click=move |_| carry_out(app, CommandId::Back) disabled=move || displayed() == 0
                        title=tip(CommandId::Back) aria-label=name(CommandId::Back)>{name(CommandId::Back)}</button>
                    <button on:click=move |_| carry_out(app, CommandId::Step) disabled=move || !has_view() || !can_step() || ctl.busy.get()
                        title=tip(CommandId::Step) aria-label=name(CommandId::Step)>{name(CommandId::Step)}</button>
                    <button on:click=move |_| run_ctl::play(app) disabled=move || !has_view() || ctl.playing.get() || !can_step()
                        title=tip(CommandId::Continue) aria-label=name(CommandId::Continue)>{name(CommandId::Continue)}</button>
                    <button on:click=move |_| carry_out(app, CommandId::Reset) disabled=move || !has_view()
                        title=tip(CommandId::Reset) aria-label=name(CommandId::Reset)>{name(CommandId::Reset)}</button>
                </div>
                <select aria-label="Speed" on:change=move |ev| {
                    if let Ok(ms) = event_target_value(&ev).parse::<u32>() { ctl.speed_ms.set(ms); }
                }>
                    {SPEEDS.iter().map(|(ms, name)| view! {
                        <option value=ms.to_string() selected=move || ctl.speed_ms.get() == *ms>{*name}</option>
                    }).collect_view()}
                </select>
                <input type="range" class="timeline" aria-label="Timeline" min="0" max=move || len().to_string()
                    prop:value=move || displayed().to_string() disabled=move || !has_view()
                    on:input=move |ev| {
                        if let Ok(k) = event_target_value(&ev).parse::<usize>() { run_ctl::show_step(ctl, k); }
                    }/>
                <span class="run-status-cell">
                    <span class="run-status" data-run-status=move || status().map_or("none", Status::name)
                        title=move || ctl.view.with(|v| v.as_ref().map(|v| status_text(v, ctl.playing.get() || ctl.busy.get())))>
                        {move || ctl.view.with(|v| v.as_ref().map(|v| status_text(v, ctl.playing.get() || ctl.busy.get())).unwrap_or_else(|| "No run yet".into()))}
                    </span>
                    {move || ctl.view.with(|v| v.as_ref().and_then(Playback::usage)).map(|u| view! {
                        <span class="run-usage" title="Tokens the run's model calls used">{format!("Run total: {u}")}</span>
                    })}
                </span>
            </div>
            <Show when=move || open.get()>
                <div class="run-body">
                    <div class="run-side">
                        <Show when=nested>
                            <div class="nested-bar">
                                <span>"Showing a subgraph's run"</span>
                                <button on:click=move |_| navigation::back_to_parent_run(app)>"Back to the parent run"</button>
                            </div>
                        </Show>
                        <Show when=move || !has_view()>
                            <p class="first-run" role="note">
                                "Fill in the "<b>"Input"</b>" above (JSON) and press "<b>"Run"</b>" ("
                                {run_keys.get_value().into_iter().enumerate().map(|(i, k)| view! { {(i > 0).then_some(" or ")}<kbd>{k.to_string()}</kbd> }).collect_view()}
                                "). Then walk through the run with "<b>"Step"</b>", "<b>"Back"</b>
                                " and the Timeline: the canvas shows which nodes ran and which edges were taken, the "
                                "state on the right what each step changed."
                            </p>
                        </Show>
                        <RunTrace/>
                        <RunVersionNotice/>
                        <RunErrorView/>
                        <SaveAsTest/>
                        <InputRequired/>
                        <LiveReply/>
                        <StepList/>
                        <RunHistory/>
                    </div>
                    <StateView/>
                </div>
            </Show>
        </section>
    }
}

/// Steps listed at a time: a long run's list shows the page holding the displayed step, so a
/// 10,000-step run costs the page what a short one does.
const STEP_PAGE: usize = 100;

/// One row of the step list.
#[derive(Clone, PartialEq, Eq, Hash)]
struct StepRow {
    step: usize,
    ran: String,
    /// Whether the step ran instances of a mapped node.
    mapped: bool,
    errors: bool,
    failed: bool,
    /// Subgraph nodes of the step and how many steps their runs took.
    subgraphs: Vec<(String, usize)>,
}

/// The steps of the page holding `displayed`, and how many steps come before and after it.
fn step_page(v: &Playback) -> (Vec<StepRow>, usize, usize) {
    let page = v.displayed.saturating_sub(1) / STEP_PAGE;
    let from = (page * STEP_PAGE).min(v.len());
    let to = (from + STEP_PAGE).min(v.len());
    let rows = v.steps()[from..to]
        .iter()
        .map(|s| {
            let groups = group_ran(&s.ran);
            StepRow {
                step: s.step as usize,
                ran: groups.iter().map(RanGroup::label).collect::<Vec<_>>().join(", "),
                mapped: groups.iter().any(|g| matches!(g, RanGroup::Mapped { .. })),
                errors: !s.errors.is_empty(),
                failed: s.failed,
                subgraphs: s
                    .details
                    .iter()
                    .filter_map(|(node, d)| d["subgraph"]["steps"].as_array().map(|a| (node.clone(), a.len())))
                    .collect(),
            }
        })
        .collect();
    (rows, from, v.len() - to)
}

/// The steps of the shown run (a page of them at a time); a subgraph's steps can be opened.
#[component]
fn StepList() -> impl IntoView {
    let app = use_app();
    let ctl = use_run();
    let page = Memo::new(move |_| ctl.view.with(|v| v.as_ref().map(step_page).unwrap_or_default()));
    let shown = Memo::new(move |_| ctl.view.with(|v| v.as_ref().map_or(0, |v| v.displayed)));
    let row = move |r: StepRow| {
        let k = r.step;
        let text = format!("{k} · {}", if r.ran.is_empty() { "(waiting)".to_string() } else { r.ran });
        view! {
            <li class:current=move || shown.get() == k class:error=r.errors class:failed=r.failed>
                <button class="step-row" on:click=move |_| run_ctl::show_step(ctl, k)>{text}</button>
                {r.subgraphs.into_iter().map(|(node, count)| {
                    let node2 = node.clone();
                    view! {
                        // Named by its text, the first words for screen readers only.
                        <button class="small nested" on:click=move |_| { run_ctl::show_step(ctl, k); run_ctl::open_nested(app, &node2); }>
                            <span aria-hidden="true">"▸ "</span>
                            <span class="visually-hidden">"Open the steps of subgraph "</span>
                            {format!("{node}: {}", words::count(count as u64, "step"))}
                        </button>
                    }
                }).collect_view()}
                {move || (r.mapped && shown.get() == k).then(|| view! { <InstanceList step=k/> })}
            </li>
        }
    };
    view! {
        <section class="steps" aria-label="Steps">
            <h2>"Steps"</h2>
            <ol class="step-list">
                <li class:current=move || shown.get() == 0>
                    <button class="step-row" on:click=move |_| run_ctl::show_step(ctl, 0)>"0 · input"</button>
                </li>
                {move || page.with(|p| p.1 > 0).then(|| view! {
                    <li class="step-more">{move || format!("… steps 1–{} (move the Timeline to see them)", page.with(|p| p.1))}</li>
                })}
                <For each=move || page.with(|p| p.0.clone()) key=|r| r.clone() children=row/>
                {move || page.with(|p| p.2 > 0).then(|| view! {
                    <li class="step-more">{move || format!("… {} later steps", page.with(|p| p.2))}</li>
                })}
            </ol>
        </section>
    }
}

/// When a run was saved, as the person reads a time: the time of day for today's runs,
/// else the date and time.
fn when(at_ms: f64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at_ms));
    let today = js_sys::Date::new_0().to_date_string() == date.to_date_string();
    let time = String::from(date.to_locale_time_string("default"));
    if today {
        time
    } else {
        format!("{} {time}", String::from(date.to_locale_date_string("default", &wasm_bindgen::JsValue::UNDEFINED)))
    }
}

/// Earlier runs of this graph. Any two can be compared: `Compare with…` on one, then
/// `Compare` on the other (Escape or `Cancel` gives up the pick).
#[component]
fn RunHistory() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let platform = use_platform();
    let ctl = use_run();
    let shown_id = move || ctl.view.with(|v| v.as_ref().map(|v| v.record.run_id.clone()));
    // The run picked first for a comparison: its id and its column's label.
    let picked = RwSignal::new(None::<(String, String)>);
    // A pick does not outlive its graph.
    Effect::new(move |_| {
        doc.current.track();
        picked.set(None);
    });
    let is_picked = move |id: &str| picked.with(|p| p.as_ref().is_some_and(|(p, _)| p == id));
    view! {
        <section class="history" aria-label="Run history">
            <h2>{move || {
                ctl.history.track();
                let kb = platform.get().run_bytes(&doc.current.get_untracked()) as f64 / 1024.0;
                format!("History · {} · {kb:.1} KB stored", words::count(ctl.history.with(Vec::len) as u64, "run"))
            }}</h2>
            {move || picked.get().map(|(_, label)| view! {
                <p class="history-picking" role="status">{format!("Pick the run to compare with {label}.")}</p>
            })}
            <ul>
                <For each=move || ctl.history.get() key=|r| (r.run_id.clone(), r.steps, r.status.name()) let:r>
                    {
                        let id = r.run_id.clone();
                        let id2 = id.clone();
                        let id3 = id.clone();
                        let id4 = id.clone();
                        let id5 = id.clone();
                        let id6 = id.clone();
                        let id7 = id.clone();
                        let id8 = id.clone();
                        let label = format!(
                            "{} · {} · {} · {}",
                            r.status.name().replace('_', " "),
                            words::count(r.steps, "step"),
                            when(r.at),
                            r.run_id
                        );
                        // The column heading this run gets in a comparison (two runs can end
                        // in one second: the id tells them apart).
                        let column = format!("{} · {}", when(r.at), r.run_id);
                        let compare = move |_| match picked.get_untracked() {
                            Some((first, _)) if first == id5 => picked.set(None),
                            Some((first, first_label)) => {
                                picked.set(None);
                                compare::open_saved(app, (&first, first_label), (&id5, column.clone()));
                            }
                            None => picked.set(Some((id5.clone(), column.clone()))),
                        };
                        view! {
                            <li class:current=move || shown_id().as_deref() == Some(id3.as_str()) class:picked=move || is_picked(&id6) data-run-id=id4>
                                <button class="history-open" on:click=move |_| run_ctl::open_saved(app, &id)>{label}</button>
                                <button class="small history-compare" on:click=compare
                                    on:keydown=move |ev| if ev.key() == "Escape" && picked.with_untracked(Option::is_some) {
                                        ev.stop_propagation();
                                        picked.set(None);
                                    }
                                    aria-pressed=move || is_picked(&id7).to_string()>
                                    {move || match picked.get() {
                                        None => "Compare with…",
                                        Some((first, _)) if first == id8 => "Cancel compare",
                                        Some(_) => "Compare",
                                    }}
                                </button>
                                <button class="icon" aria-label="Delete this run" on:click=move |_| {
                                    platform.get().delete_run(&doc.current.get_untracked(), &id2);
                                    run_ctl::load_history(app);
                                }>"✕"</button>
                            </li>
                        }
                    }
                </For>
            </ul>
        </section>
    }
}
