//! One node on the canvas: coloured by kind, with its icon, label, a summary of its
//! configuration, a badge for validation problems, a badge counting the instances a mapped
//! node ran in the shown step, and its connection handles.

use leptos::prelude::*;
use web_sys::PointerEvent;

use crate::actions::navigation;
use crate::model::editing::focus_nav::Arrow;
use crate::model::editing::gesture::Target;
use crate::model::editing::palette;
use crate::model::runs::outcome::fails_run;
use crate::state::{NodeProblems, use_app, use_doc, use_run, use_view};
use crate::ui::canvas::node_menu::NodeMenu;
use crate::ui::canvas::{CanvasCtx, class_list, from_control};
use engine::NodeKind;
use engine::run::Breakpoint;

/// `before` or `after`, for classes, data attributes and accessible text.
fn side_word(side: Breakpoint) -> &'static str {
    match side {
        Breakpoint::Before => "before",
        Breakpoint::After => "after",
    }
}

#[component]
pub fn NodeView(id: String) -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let view = use_view();
    let run = use_run();
    let ctx = expect_context::<CanvasCtx>();
    let node = {
        let id = id.clone();
        Memo::new(move |_| {
            let ix = doc.node_index.with(|m| m.get(&id).copied())?;
            doc.editor.with(|e| e.graph().nodes.get(ix).cloned())
        })
    };
    let rect = {
        let id = id.clone();
        Memo::new(move |_| view.rect_of(&doc, &id))
    };
    // Its body is drawn only near the screen on a large graph, and never from far out.
    let detailed = Memo::new(move |_| view.detailed(rect.get()));
    let selected = {
        let id = id.clone();
        Memo::new(move |_| doc.selection.with(|s| s.nodes.contains(&id)))
    };
    let problems = {
        let id = id.clone();
        Memo::new(move |_| doc.node_problems.with(|m| m.get(&id).cloned().unwrap_or_default()))
    };
    // One signal of this node's own: a step wakes only the nodes it changed.
    let mark = run.node_mark_signal(&id);
    let status = {
        let mark = mark.clone();
        Signal::derive(move || mark.with(|m| m.status))
    };
    let instances = {
        let mark = mark.clone();
        Signal::derive(move || mark.with(|m| m.instances))
    };
    let running = Signal::derive(move || mark.with(|m| m.running));
    // Breakpoints are on the document's own nodes (a subgraph's run is not stopped in).
    let breaks = {
        let id = id.clone();
        Memo::new(
            move |_| if doc.scope.with(Vec::is_empty) { run.breakpoints.with(|b| b.sides_of(&id)) } else { Vec::new() },
        )
    };
    let menu_open = RwSignal::new(false);
    let fails = move || node.with(|n| n.as_ref().is_some_and(fails_run));
    let kind = move || node.with(|n| n.as_ref().map(|n| n.kind));
    let info = move || palette::info(kind().unwrap_or(NodeKind::Set));
    let title = move || node.with(|n| n.as_ref().map(|n| n.title().to_string()).unwrap_or_default());
    let disabled = move || node.with(|n| n.as_ref().is_some_and(engine::Node::is_disabled));

    let down_id = id.clone();
    let on_down = move |ev: PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        ev.stop_propagation();
        if from_control(&ev) {
            return;
        }
        ctx.press(Target::Node(down_id.clone()), &ev);
    };
    let dbl_id = id.clone();
    let on_dblclick = move |_| {
        if kind() == Some(NodeKind::Subgraph) {
            return navigation::enter(app, &dbl_id);
        }
        navigation::edit_node(app, &dbl_id);
    };

    let body_id = id.clone();
    let kind_name = move || kind().map_or("set", NodeKind::name);
    let aria = move || format!("{} node {}{}", info().title, title(), if fails() { ", outcome failed" } else { "" });

    let on_menu = move |ev: web_sys::MouseEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        menu_open.set(true);
    };
    let key_id = id.clone();
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let key = ev.key();
        if key == "ContextMenu" || (ev.shift_key() && key == "F10") {
            ev.prevent_default();
            menu_open.set(true);
            return;
        }
        // Keys meant for the node's menu or a control inside it stay there.
        if menu_open.get_untracked() || from_control(&ev) {
            return;
        }
        let plain = !(ev.ctrl_key() || ev.meta_key());
        if let Some(arrow) = Arrow::from_key(&key).filter(|_| plain) {
            ev.prevent_default();
            ev.stop_propagation();
            if ev.alt_key() || ev.shift_key() {
                navigation::nudge_selection(doc, arrow);
            } else {
                navigation::step_focus(app, &key_id, arrow);
            }
        } else if key == "Enter" && plain {
            ev.prevent_default();
            ev.stop_propagation();
            navigation::edit_node(app, &key_id);
        }
    };
    // Focus reached by the keyboard (Tab) selects the node, so the keys act on what is seen
    // selected; a click's focus leaves the selection to the click (Shift+click toggles).
    let focus_id = id.clone();
    let on_focus = move |ev: web_sys::FocusEvent| {
        let by_keyboard = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|el| el.matches(":focus-visible").unwrap_or(false));
        if by_keyboard && !selected.get_untracked() {
            doc.edit(|e| e.selection = crate::model::editing::selection::Selection::only_node(&focus_id));
        }
    };
    // One class list and one style for the whole box: a thousand nodes each with a dozen
    // reactive attributes made opening a large graph slow.
    let classes = move || {
        let flags = [
            (selected.get(), "selected"),
            (fails(), "failed-end"),
            (menu_open.get(), "menu-open"),
            (disabled(), "disabled"),
            (problems.with(|p| p.0 > 0), "has-errors"),
            (kind() == Some(NodeKind::Note), "note"),
            (doc.flow.get() == crate::model::editing::layout::Direction::TopDown, "flow-down"),
            (!detailed.get(), "plain"),
        ];
        class_list("node", &flags)
    };
    let style = move || {
        let kind = info().color_var;
        match rect.get() {
            Some(r) => format!(
                "transform: translate({}px, {}px); width: {}px; height: {}px; --kind: var({kind})",
                r.x, r.y, r.w, r.h
            ),
            None => format!("--kind: var({kind})"),
        }
    };
    let menu_id = id.clone();
    view! {
        <div
            class=classes
            data-outcome=move || fails().then_some("failed")
            data-breakpoints=move || breaks.with(|b| (!b.is_empty()).then(|| b.iter().map(|s| side_word(*s)).collect::<Vec<_>>().join(" ")))
            on:contextmenu=on_menu
            on:keydown=on_key
            on:focus=on_focus
            // Roving focus: the selected node is the canvas's stop in the tab order.
            tabindex=move || if selected.get() { "0" } else { "-1" }
            data-node-id=id.clone()
            data-kind=kind_name
            data-status=move || status.get()
            data-running=move || running.get().then_some("true")
            data-instances=move || (instances.get() > 0).then(|| instances.get().to_string())
            style=style
            on:pointerdown=on_down
            on:dblclick=on_dblclick
            role="group"
            aria-label=aria
        >
            {move || detailed.get().then(|| view! { <NodeBody id=body_id.clone() node=node problems=problems instances=instances/> })}
            {move || breaks.get().into_iter().map(|side| {
                let text = format!("Breakpoint {}", side_word(side));
                view! { <span class=format!("bp-dot {}", side_word(side)) role="img" aria-label=text.clone() title=text></span> }
            }).collect_view()}
            {move || menu_open.get().then(|| view! { <NodeMenu id=menu_id.clone() open=menu_open/> })}
        </div>
    }
}

/// What a node shows inside its box: icon, label, kind, flags, problems badge, summary and
/// handles. Left out when the canvas is zoomed far out on a large graph, where it would be
/// unreadable and is most of the cost of drawing a thousand nodes.
#[component]
fn NodeBody(
    id: String,
    node: Memo<Option<engine::Node>>,
    problems: Memo<NodeProblems>,
    instances: Signal<usize>,
) -> impl IntoView {
    let app = use_app();
    let ctx = expect_context::<CanvasCtx>();
    let kind = move || node.with(|n| n.as_ref().map(|n| n.kind));
    let info = move || palette::info(kind().unwrap_or(NodeKind::Set));
    let title = move || node.with(|n| n.as_ref().map(|n| n.title().to_string()).unwrap_or_default());
    let summary = move || node.with(|n| n.as_ref().map(palette::summary).unwrap_or_default());
    let pinned = move || node.with(|n| n.as_ref().is_some_and(|n| n.pinned.is_some()));
    let has_in = move || !matches!(kind(), Some(NodeKind::Start | NodeKind::Note));
    let has_out = move || !matches!(kind(), Some(NodeKind::End | NodeKind::Note));
    let out_id = id.clone();
    let on_out = move |ev: PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        ev.stop_propagation();
        ev.prevent_default();
        ctx.press(Target::OutHandle(out_id.clone()), &ev);
    };
    let open_id = id;
    view! {
        <div class="node-head">
            // Icon, title and kind change together and seldom: one reactive part, not three.
            {move || {
                let info = info();
                view! {
                    <span class="node-icon" aria-hidden="true">{info.icon}</span>
                    <span class="node-title">{title()}</span>
                    <span class="node-kind">{info.title}</span>
                }
            }}
            // The flags and badges: one reactive part for all four (most nodes show none).
            {move || {
                let (errors, warnings, text) = problems.get();
                let n = instances.get();
                view! {
                    {node.with(|n| n.as_ref().is_some_and(fails_run)).then(|| view! {
                        <span class="node-flag failed-flag" title="Outcome failed: a run reaching this end fails">"✖ fails run"</span>
                    })}
                    {pinned().then(|| view! { <span class="node-flag" title="Pinned: uses a fixed update">"📌"</span> })}
                    {(n > 0).then(|| view! {
                        <span class="badge instances-badge" role="img" aria-label=format!("{n} instances")
                            title=format!("{n} instances ran in this step")>{format!("×{n}")}</span>
                    })}
                    {(errors + warnings > 0).then(|| view! {
                        <span class="badge" class:error={errors > 0} class:warning={errors == 0} title=text
                            data-problems={errors + warnings}>
                            {if errors > 0 { errors.to_string() } else { warnings.to_string() }}
                        </span>
                    })}
                }
            }}
        </div>
        <div class="node-summary">{summary}</div>
        {move || (kind() == Some(NodeKind::Subgraph)).then(|| {
            let open_id = open_id.clone();
            let label = format!("Open subgraph {}", open_id);
            view! {
                <button class="node-open" aria-label=label title="Open the embedded graph (or double-click the node)"
                    on:click=move |_| navigation::enter(app, &open_id)>"Open ⤵"</button>
            }
        })}
        {move || {
            let on_out = on_out.clone();
            view! {
                {has_in().then(|| view! { <div class="handle in" data-handle="in" title="Input"></div> })}
                {has_out().then(|| view! {
                    <div class="handle out" data-handle="out" title="Drag to connect" on:pointerdown=on_out></div>
                })}
            }
        }}
    }
}
