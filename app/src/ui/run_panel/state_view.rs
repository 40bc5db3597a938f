//! The State region: the state at the shown step as a collapsible tree (keys the step changed
//! marked `data-changed="true"`; `messages` fields as transcripts), the step's patch, updates
//! and token usage, the selected node's history, and forking from the shown step with an
//! edited state.

use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::actions::run as run_ctl;
use crate::model::editing::state_fields::messages_fields;
use crate::model::runs::playback::Playback;
use crate::model::runs::transcript::transcript;
use crate::model::runs::usage::Usage;
use crate::state::{use_app, use_doc, use_run};
use crate::ui::run_panel::mcp_call_list::McpCallList;
use crate::ui::run_panel::transcript::TranscriptEntry;

#[component]
pub fn StateView() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let ctl = use_run();
    let state = Memo::new(move |_| ctl.view.with(|v| v.as_ref().map(|v| v.state())));
    let changed = Memo::new(move |_| ctl.view.with(|v| v.as_ref().map(Playback::changed_keys).unwrap_or_default()));
    let before = Memo::new(move |_| ctl.view.with(|v| v.as_ref().and_then(|v| v.state_before())));
    // Field types are the graph's on the canvas: known only when the run shown is of it.
    let transcripts =
        Memo::new(
            move |_| {
                if ctl.in_step.get() { doc.editor.with(|e| messages_fields(e.graph())) } else { Default::default() }
            },
        );
    let editing = RwSignal::new(None::<String>);
    let edit_error = RwSignal::new(None::<String>);
    let shown = move || ctl.view.with(|v| v.as_ref().map_or(0, |v| v.displayed));
    let failed_here = move || ctl.view.with(|v| v.as_ref().and_then(|v| v.current()).is_some_and(|s| s.failed));

    let start_edit = move |_| {
        let text = state.get_untracked().map(|s| serde_json::to_string_pretty(&Value::Object(s)).unwrap_or_default());
        edit_error.set(None);
        editing.set(text);
    };
    let run_from_here = move |_| {
        let Some(text) = editing.get_untracked() else { return };
        let edited = match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => return edit_error.set(Some("The state must be a JSON object.".into())),
            Err(e) => return edit_error.set(Some(format!("Not valid JSON: {e}"))),
        };
        let before = state.get_untracked().unwrap_or_default();
        let changes: Map<String, Value> = edited.into_iter().filter(|(k, v)| before.get(k) != Some(v)).collect();
        editing.set(None);
        run_ctl::fork(app, changes);
    };
    let retry = move |_| {
        // The failed step has no checkpoint: run on from the one before it.
        let k = shown();
        run_ctl::show_step(ctl, k.saturating_sub(1));
        run_ctl::fork(app, Map::new());
    };

    view! {
        <section class="state-view" role="region" aria-label="State">
            <div class="section-head">
                <h2>{move || format!("State after step {}", shown())}</h2>
                <div class="row-actions">
                    <Show when=failed_here>
                        <button on:click=retry title="Run the failed step again from the last good checkpoint">"Retry step"</button>
                    </Show>
                    <button on:click=start_edit disabled=move || state.get().is_none() || !ctl.parents.with(Vec::is_empty)
                        title="Change the state here and run on as a new run">"Edit and fork"</button>
                </div>
            </div>
            {move || match editing.get() {
                Some(text) => view! {
                    <div class="fork-editor">
                        <textarea aria-label="Edited state" prop:value=text on:input=move |ev| editing.set(Some(event_target_value(&ev)))></textarea>
                        {move || edit_error.get().map(|e| view! { <p class="check bad" role="status">{e}</p> })}
                        <div class="row-actions">
                            <button on:click=move |_| editing.set(None)>"Cancel"</button>
                            <button class="primary" on:click=run_from_here>{move || format!("Run from step {}", shown())}</button>
                        </div>
                    </div>
                }.into_any(),
                None => match state.get() {
                    None => view! { <p class="muted">"Run the graph to see its state at every step."</p> }.into_any(),
                    Some(map) => view! {
                        <ul class="tree root">
                            {map.into_iter().map(|(k, v)| {
                                let is_changed = changed.with(|c| c.contains(&k));
                                let messages = transcripts.with(|t| t.contains(&k)).then(|| {
                                    before.with(|b| transcript(&v, b.as_ref().map(|b| b.get(&k).unwrap_or(&Value::Null))))
                                }).flatten();
                                match messages {
                                    Some(messages) => view! { <TranscriptEntry name=k messages=messages changed=is_changed/> }.into_any(),
                                    None => view! { <Entry name=k.clone() value=v changed=is_changed top=true/> }.into_any(),
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                },
            }}
            <StepDetails/>
            <NodeRunDetails/>
        </section>
    }
}

/// Entries of a list or object shown before `Show all`.
const FIRST_ENTRIES: usize = 100;

/// One key of the tree; objects and lists fold.
#[component]
fn Entry(name: String, value: Value, changed: bool, top: bool) -> impl IntoView {
    let summary = match &value {
        Value::Object(m) => format!("{{…}} {} keys", m.len()),
        Value::Array(a) => format!("[…] {} items", a.len()),
        other => other.to_string(),
    };
    let foldable =
        matches!(&value, Value::Object(m) if !m.is_empty()) || matches!(&value, Value::Array(a) if !a.is_empty());
    // A changed list or object starts unfolded so the change is in view; a scalar has nothing to fold.
    let open = RwSignal::new(foldable && top && changed);
    let len = match &value {
        Value::Object(m) => m.len(),
        Value::Array(a) => a.len(),
        _ => 0,
    };
    // A long list shows its first entries until asked for all, so unfolding a thousand items
    // (a map step's results) does not stall the page.
    let all = RwSignal::new(len <= FIRST_ENTRIES);
    let more_name = name.clone();
    let children = move || {
        open.get().then(|| {
            let take = if all.get() { len } else { FIRST_ENTRIES };
            let items: Vec<(String, Value)> = match &value {
                Value::Object(m) => m.iter().take(take).map(|(k, v)| (k.clone(), v.clone())).collect(),
                Value::Array(a) => a.iter().take(take).enumerate().map(|(i, v)| (i.to_string(), v.clone())).collect(),
                _ => Vec::new(),
            };
            let name = more_name.clone();
            view! {
                <ul class="tree">
                    {items.into_iter().map(|(k, v)| view! { <Entry name=k value=v changed=false top=false/> }).collect_view()}
                    {(!all.get()).then(|| view! {
                        <li class="tree-more">
                            <button class="small" on:click=move |_| all.set(true) aria-label=format!("Show all {len} entries of {name}")>
                                {format!("Show all {len} (showing {FIRST_ENTRIES})")}
                            </button>
                        </li>
                    })}
                </ul>
            }
        })
    };
    view! {
        <li class="tree-entry" class:changed=changed data-key=name.clone() data-changed=if changed { "true" } else { "false" }>
            <div class="tree-row">
                {foldable.then(|| view! {
                    <button class="fold" aria-label=format!("Expand {name}") on:click=move |_| open.update(|o| *o = !*o)>
                        {move || if open.get() { "▾" } else { "▸" }}
                    </button>
                })}
                <span class="tree-key">{name.clone()}</span>
                <span class="tree-value">{move || if open.get() { String::new() } else { summary.clone() }}</span>
            </div>
            {children}
        </li>
    }
}

/// The shown step's patch and each node's update.
#[component]
fn StepDetails() -> impl IntoView {
    let ctl = use_run();
    let step = move || ctl.view.with(|v| v.as_ref().and_then(|v| v.current().cloned()));
    move || {
        step().map(|s| {
            let patch = serde_json::to_string_pretty(&s.patch).unwrap_or_default();
            let updates = serde_json::to_string_pretty(&s.updates).unwrap_or_default();
            let errors = (!s.errors.is_empty()).then(|| {
                view! {
                    <div class="step-errors">
                        {s.errors.iter().map(|(n, e)| view! { <p class="check bad">{format!("{n}: {}", e.message)}</p> }).collect_view()}
                    </div>
                }
            });
            let usage = step_usage(&s);
            view! {
                <div class="step-details">
                    {errors}
                    {usage}
                    <details>
                        <summary>{format!("Patch of step {} ({} operations)", s.step, s.patch.0.len())}</summary>
                        <pre class="json">{patch}</pre>
                    </details>
                    <details>
                        <summary>{format!("Updates of step {} ({} nodes)", s.step, s.updates.len())}</summary>
                        <pre class="json">{updates}</pre>
                    </details>
                </div>
            }
        })
    }
}

/// The tokens each model node of the step used (mapped instances summed), and the step's total.
fn step_usage(s: &engine::record::StepDoc) -> Option<impl IntoView + use<>> {
    let total = Usage::of_step(s)?;
    let mut nodes: Vec<String> =
        s.details.keys().map(|k| crate::model::runs::instances::node_of(k).to_string()).collect();
    nodes.dedup();
    let rows: Vec<(String, Usage)> = nodes.into_iter().filter_map(|n| Usage::of_node(s, &n).map(|u| (n, u))).collect();
    Some(view! {
        <div class="step-usage" role="group" aria-label=format!("Tokens of step {}", s.step)>
            <span class="usage-total">{format!("Tokens: {total}")}</span>
            {(rows.len() > 1).then(|| view! {
                <ul class="usage-nodes">
                    {rows.into_iter().map(|(n, u)| view! { <li>{format!("{n}: {u}")}</li> }).collect_view()}
                </ul>
            })}
        </div>
    })
}

/// For the node selected on the canvas: its updates so far, its last error, and what it
/// sent out (rendered prompt, request, nested run).
#[component]
fn NodeRunDetails() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let ctl = use_run();
    let node = Memo::new(move |_| {
        doc.editor.with(|e| if e.selection.nodes.len() == 1 { e.selection.nodes.first().cloned() } else { None })
    });
    move || {
        let id = node.get()?;
        // Ids repeat between a graph and its subgraphs: only the run of the graph on the
        // canvas speaks of its nodes.
        if !ctl.in_step.get() {
            return None;
        }
        ctl.view.with(|v| {
            let v = v.as_ref()?;
            let history = v.history(&id);
            let detail = v.detail(&id).map(|(step, d)| (step, d.clone()));
            // A mapped node's entries name the instance.
            let at = |s: &u64, rid: &String| if *rid == id { format!("step {s}") } else { format!("step {s}, {rid}") };
            let last_error = history.iter().rev().find_map(|(s, rid, r)| r.as_ref().err().map(|e| format!("{}: {e}", at(s, rid))));
            let outputs: Vec<String> = history
                .iter()
                .filter_map(|(s, rid, r)| r.as_ref().ok().map(|u| format!("{}: {}", at(s, rid), u)))
                .collect();
            let usage = detail.as_ref().and_then(|(step, _)| {
                let doc = v.steps().iter().rev().find(|d| d.step == *step)?;
                Usage::of_node(doc, &id).map(|u| format!("Tokens at step {step}: {u}"))
            });
            let is_subgraph = detail.as_ref().is_some_and(|(_, d)| d.get("subgraph").is_some());
            let id2 = id.clone();
            Some(view! {
                <div class="node-run" data-node=id.clone()>
                    <h3>{format!("Node {id}")}</h3>
                    <details open>
                        <summary>{format!("Outputs ({})", outputs.len())}</summary>
                        <pre class="json">{if outputs.is_empty() { "none yet".to_string() } else { outputs.join("\n") }}</pre>
                    </details>
                    {last_error.map(|e| view! { <p class="check bad">{format!("Last error, {e}")}</p> })}
                    {usage.map(|u| view! { <p class="node-usage">{u}</p> })}
                    {detail.as_ref().map(|(_, d)| view! { <McpCallList details=d.clone()/> })}
                    {detail.map(|(step, d)| {
                        let mut shown = d.clone();
                        if let Some(obj) = shown.as_object_mut() {
                            obj.remove("subgraph");
                        }
                        view! {
                            <details>
                                <summary>{format!("Sent at step {step}: prompt or request")}</summary>
                                <pre class="json">{serde_json::to_string_pretty(&shown).unwrap_or_default()}</pre>
                            </details>
                        }
                    })}
                    {is_subgraph.then(|| view! {
                        <button on:click=move |_| run_ctl::open_nested(app, &id2)>"Show the subgraph's run"</button>
                    })}
                </div>
            })
        })
    }
}
