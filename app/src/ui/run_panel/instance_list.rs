//! The instances a step ran of each mapped node (`summarize[0]`, `summarize[1]`, …), grouped
//! under the node, each with its update or error. A long group starts folded and lists its
//! first [`FIRST_SHOWN`] instances until `Show all` is pressed, so a step of a thousand
//! instances costs the page what fifty do.

use leptos::prelude::*;

use crate::model::runs::instances::{InstanceRow, RanGroup, group_ran, instances_of};
use crate::state::use_run;

/// Instances listed before `Show all`.
const FIRST_SHOWN: usize = 50;
/// Groups up to this size start unfolded.
const OPEN_UP_TO: usize = 20;

/// The mapped nodes of step `step` (its number in the run shown) and their instances.
#[component]
pub fn InstanceList(step: usize) -> impl IntoView {
    let ctl = use_run();
    let groups = move || {
        ctl.view.with(|v| {
            let doc = v.as_ref()?.steps().iter().find(|s| s.step as usize == step)?;
            let groups: Vec<(String, Vec<InstanceRow>)> = group_ran(&doc.ran)
                .into_iter()
                .filter_map(|g| match g {
                    RanGroup::Mapped { node, .. } => Some((node.clone(), instances_of(doc, &node))),
                    RanGroup::Node(_) => None,
                })
                .collect();
            Some(groups)
        })
    };
    move || {
        groups().map(|groups| {
            groups.into_iter().map(|(node, rows)| view! { <InstanceGroup node=node rows=rows/> }).collect_view()
        })
    }
}

#[component]
fn InstanceGroup(node: String, rows: Vec<InstanceRow>) -> impl IntoView {
    let total = rows.len();
    let all = RwSignal::new(total <= FIRST_SHOWN);
    let failed = rows.iter().filter(|r| r.error.is_some()).count();
    let summary = match failed {
        0 => format!("{node}: {total} instance{}", if total == 1 { "" } else { "s" }),
        f => format!("{node}: {total} instances, {f} failed"),
    };
    let label = format!("Instances of {node}");
    let group_id = node.clone();
    let shown_rows = move || {
        let n = if all.get() { total } else { FIRST_SHOWN.min(total) };
        rows.iter().take(n).cloned().map(|r| view! { <Instance row=r/> }).collect_view()
    };
    view! {
        <details class="instances" open=total <= OPEN_UP_TO data-node=group_id>
            <summary>{summary}</summary>
            <ol class="instance-list" aria-label=label>{shown_rows}</ol>
            {move || (!all.get()).then(|| view! {
                <button class="small show-all" on:click=move |_| all.set(true)
                    aria-label=format!("Show all {total} instances of {node}")>
                    {format!("Show all {total} (showing {FIRST_SHOWN})")}
                </button>
            })}
        </details>
    }
}

#[component]
fn Instance(row: InstanceRow) -> impl IntoView {
    let failed = row.error.is_some();
    let what = row.error.or(row.update).unwrap_or_else(|| "no update".into());
    let name = row.id.clone();
    let full = what.clone();
    view! {
        <li class="instance" class:error=failed data-instance=row.id>
            <span class="instance-name">{name}</span>
            <code class="instance-update" title=full>{what}</code>
        </li>
    }
}
