//! The canvas: nodes and edges drawn in one transformed layer, and the gestures on it (pan
//! by dragging the background, marquee with shift, zoom with the wheel around the pointer,
//! moving nodes, drawing and reconnecting edges, dropping palette items and files). The
//! pointer gestures are worked out by the model ([`Gestures`]); the canvas forwards its
//! pointer events there and applies what comes back.

use leptos::ev;
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, PointerEvent, WheelEvent};

mod edge_view;
mod minimap;
mod node_menu;
mod node_view;
mod subgraph_path;

use edge_view::{EdgeView, WirePreview};
use minimap::Minimap;
use node_view::NodeView;
use subgraph_path::SubgraphPath;

use crate::actions::exchange;
use crate::model::editing::geometry::Point;
use crate::model::editing::gesture::{Gestures, Outcome, Show, Target};
use crate::state::{App, DocState, use_app, use_doc, use_run, use_view};
use crate::ui::library::palette_bar::DRAG_TYPE;

/// The canvas element, for turning client coordinates into canvas coordinates.
#[derive(Clone, Copy)]
pub struct CanvasRef(pub NodeRef<Div>);

impl CanvasRef {
    /// The pointer position relative to the canvas's top-left corner.
    pub fn screen_point(&self, client_x: f64, client_y: f64) -> Point {
        match self.0.get_untracked() {
            Some(el) => {
                let r = el.get_bounding_client_rect();
                Point::new(client_x - r.left(), client_y - r.top())
            }
            None => Point::new(client_x, client_y),
        }
    }
}

/// What nodes and edges need from the canvas; taken from context when they are created
/// (event handlers run outside the component tree).
#[derive(Clone, Copy)]
pub struct CanvasCtx {
    pub canvas: CanvasRef,
    /// The pointer gesture going on (see [`Gestures`]).
    pub gestures: StoredValue<Gestures>,
    pub app: App,
}

impl CanvasCtx {
    /// A press with the main button on `target`: starts its gesture (a drag, a wire), or
    /// selects what was clicked.
    pub fn press(&self, target: Target, ev: &PointerEvent) {
        let screen = self.canvas.screen_point(ev.client_x() as f64, ev.client_y() as f64);
        let view = self.app.view.view.get_untracked();
        let outcome = self.app.doc.selection.with_untracked(|selection| {
            let mut gestures = self.gestures.get_value();
            let outcome = gestures.down(target, screen, ev.shift_key(), view, selection);
            self.gestures.set_value(gestures);
            outcome
        });
        self.apply(outcome);
    }

    /// Shows what the gesture shows now, then carries out its commands (a command that cannot
    /// be carried out says why).
    fn apply(&self, outcome: Outcome) {
        let App { doc, view, alerts, .. } = self.app;
        for show in outcome.show {
            match show {
                Show::View(v) => view.view.set(v),
                Show::Marquee(area) => view.marquee.set(area),
                Show::Drag { ids, offset } => {
                    // The dragged nodes are set once per drag; the offset at every move.
                    if view.drag_ids.with_untracked(|d| d.is_empty()) {
                        view.drag_ids.set(std::sync::Arc::new(ids.into_iter().collect()));
                    }
                    view.drag_offset.set(offset);
                }
                Show::DragEnded => {
                    view.drag_ids.set(std::sync::Arc::new(Default::default()));
                    view.drag_offset.set((0.0, 0.0));
                }
                Show::Wire(wire) => view.wire.set(wire),
                Show::WireTo(p) => view.wire.update(|w| {
                    if let Some(w) = w {
                        w.to_point = p;
                    }
                }),
            }
        }
        for command in outcome.commands {
            if let Err(why) = doc.edit(|e| command.apply(e)) {
                alerts.error(why);
            }
        }
    }
}

#[component]
pub fn Canvas() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let view = use_view();
    let canvas = NodeRef::<Div>::new();
    let canvas_ref = CanvasRef(canvas);
    let gestures = StoredValue::new(Gestures::default());
    provide_context(CanvasCtx { canvas: canvas_ref, gestures, app });

    // Keep the canvas size known (fit view, centring, minimap).
    let measure = move || {
        if let Some(el) = canvas.get_untracked() {
            let r = el.get_bounding_client_rect();
            view.canvas_size.set((r.width().max(1.0), r.height().max(1.0)));
            if view.fit_when_measured.get_value() {
                view.fit_when_measured.set_value(false);
                view.fit_view(&doc);
            }
        }
    };
    // The observer reports the first size once the page is laid out; measuring here instead
    // would force a layout of every node just drawn (300 ms for a thousand nodes).
    Effect::new(move |_| {
        if let Some(el) = canvas.get() {
            observe_size(&el, measure);
        }
    });
    let _ = window_event_listener(ev::resize, move |_| measure());

    let ctx = CanvasCtx { canvas: canvas_ref, gestures, app };
    let on_move = move |ev: PointerEvent| {
        if !gestures.with_value(Gestures::active) {
            return;
        }
        let screen = canvas_ref.screen_point(ev.client_x() as f64, ev.client_y() as f64);
        let shown = view.view.get_untracked();
        let outcome = gestures.try_update_value(|g| g.moved(screen, shown)).unwrap_or_default();
        ctx.apply(outcome);
    };
    let on_up = move |ev: PointerEvent| {
        if !gestures.with_value(Gestures::active) {
            return;
        }
        // Only a wire asks what is under the pointer.
        let over = gestures
            .with_value(Gestures::wiring)
            .then(|| node_at(ev.client_x() as f64, ev.client_y() as f64))
            .flatten();
        let outcome = gestures.try_update_value(|g| g.up(over)).unwrap_or_default();
        ctx.apply(outcome);
    };
    let _ = window_event_listener(ev::pointermove, on_move);
    let _ = window_event_listener(ev::pointerup, on_up);

    let on_down = move |ev: PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        ctx.press(Target::Background, &ev);
    };

    let on_wheel = move |ev: WheelEvent| {
        ev.prevent_default();
        let screen = canvas_ref.screen_point(ev.client_x() as f64, ev.client_y() as f64);
        let delta = if ev.delta_mode() == 1 { ev.delta_y() * 16.0 } else { ev.delta_y() };
        let factor = (-delta * 0.0015).exp();
        view.view.update(|v| *v = v.zoom_at(factor, screen));
    };

    let on_dragover = move |ev: DragEvent| ev.prevent_default();
    let on_drop = move |ev: DragEvent| {
        ev.prevent_default();
        let screen = canvas_ref.screen_point(ev.client_x() as f64, ev.client_y() as f64);
        let at = view.view.get_untracked().to_canvas(screen);
        let Some(dt) = ev.data_transfer() else { return };
        if let Some(file) = dt.files().and_then(|f| f.get(0)) {
            exchange::import_file(app, file);
            return;
        }
        if let Ok(kind) = dt.get_data(DRAG_TYPE)
            && let Some(kind) = engine::NodeKind::ALL.iter().find(|k| k.name() == kind)
        {
            let centered = Point::new(
                at.x - crate::model::editing::geometry::NODE_W / 2.0,
                at.y - crate::model::editing::geometry::NODE_H / 2.0,
            );
            doc.edit(|e| e.add_node(*kind, centered));
        }
    };

    let transform = move || {
        let v = view.view.get();
        format!("translate({}px, {}px) scale({})", v.x, v.y, v.zoom)
    };
    // The dot grid is its own layer, moved by a transform (less than one grid step) while
    // panning, so the browser does not repaint it on every frame.
    let grid_size = move || {
        let step = crate::model::editing::geometry::GRID * view.view.with(|v| v.zoom);
        format!("{step}px {step}px")
    };
    let grid_shift = move || {
        let v = view.view.get();
        let step = crate::model::editing::geometry::GRID * v.zoom;
        format!("translate({}px, {}px)", v.x.rem_euclid(step), v.y.rem_euclid(step))
    };
    let large = move || doc.node_ids.with(Vec::len) > 300;
    let on_canvas_key = move |ev: web_sys::KeyboardEvent| {
        let on_canvas = ev.target().zip(ev.current_target()).is_some_and(|(t, c)| t == c);
        if on_canvas && (crate::model::editing::focus_nav::Arrow::from_key(&ev.key()).is_some() || ev.key() == "Enter")
        {
            ev.prevent_default();
            crate::actions::navigation::enter_canvas(app);
        }
    };

    let run = use_run();
    // At the fastest speed steps go by faster than animations can show them.
    let instant = move || run.speed_ms.get() == 0 && (run.playing.get() || run.busy.get());
    view! {
        <div
            class="canvas"
            class:large=large
            class:far=move || view.far.get()
            class:instant=instant
            node_ref=canvas
            on:pointerdown=on_down
            on:wheel=on_wheel
            on:dragover=on_dragover
            on:drop=on_drop
            on:keydown=on_canvas_key
            // The canvas is a stop in the tab order while no node is selected (a selected
            // node is then the stop); arrows or Enter there go to the start node.
            tabindex=move || if doc.selection.with(|s| s.nodes.is_empty()) { "0" } else { "-1" }
            role="group"
            aria-label="Canvas"
            aria-description="Arrow keys move between nodes; Alt+arrows move the selected nodes; Enter edits; Delete removes"
        >
            <div class="grid" style:background-size=grid_size style:transform=grid_shift></div>
            <div class="viewport" style:transform=transform>
                <svg class="edges" aria-hidden="false">
                    <defs>
                        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                            <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head"></path>
                        </marker>
                        <marker id="arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                            <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head taken"></path>
                        </marker>
                    </defs>
                    <For each=move || edge_keys(doc) key=|k| k.clone() let:k>
                        <EdgeView index=k.0 from=k.1.clone() to=k.2.clone() label=k.3.clone() when=k.4.clone() map=k.5.clone()/>
                    </For>
                    <WirePreview/>
                </svg>
                <For each=move || doc.node_ids.get() key=|id| id.clone() let:id>
                    <NodeView id=id/>
                </For>
                {move || view.marquee.get().map(|r| view! {
                    <div class="marquee" style=format!("left:{}px;top:{}px;width:{}px;height:{}px", r.x, r.y, r.w, r.h)></div>
                })}
            </div>
            <Minimap/>
            <SubgraphPath/>
            {move || doc.node_ids.with(Vec::is_empty).then(|| view! {
                <div class="canvas-empty">"Drag a node from the palette, or press "<kbd>"Ctrl K"</kbd>" to search."</div>
            })}
        </div>
    }
}

/// Edges keyed by everything that identifies them, so a changed edge is redrawn.
type EdgeKey = (usize, String, String, Option<String>, Option<String>, Option<String>);

fn edge_keys(doc: DocState) -> Vec<EdgeKey> {
    doc.editor.with(|e| {
        e.graph()
            .edges
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let map = x.map.as_ref().map(|m| format!("{m} as {}", x.as_name.as_deref().unwrap_or("item")));
                (i, x.from.clone(), x.to.clone(), x.label.clone(), x.when.clone(), map)
            })
            .collect()
    })
}

/// `base` followed by the names of the flags that are on: one `class` attribute in place of a
/// reactive toggle per class.
fn class_list(base: &str, flags: &[(bool, &str)]) -> String {
    flags.iter().filter(|(on, _)| *on).fold(base.to_string(), |mut c, (_, name)| {
        c.push(' ');
        c.push_str(name);
        c
    })
}

/// The id of the node under a client point, if any.
pub fn node_at(x: f64, y: f64) -> Option<String> {
    let el = document().element_from_point(x as f32, y as f32)?;
    let node = el.closest("[data-node-id]").ok().flatten()?;
    node.get_attribute("data-node-id")
}

/// Whether an event started on an element that handles its own clicks (handles, buttons).
pub fn from_control(ev: &web_sys::Event) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| el.closest("[data-handle], button, input, textarea, select").ok().flatten().is_some())
}

/// Calls `measure` whenever `el` changes size, not only when the window does: opening or
/// resizing the run panel shrinks the canvas, and fit view must fit what is left.
fn observe_size(el: &web_sys::HtmlDivElement, measure: impl Fn() + 'static) {
    use wasm_bindgen::closure::Closure;
    let callback = Closure::<dyn Fn()>::new(measure);
    if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
        observer.observe(el);
    }
    // Lives as long as the page: the canvas is never unmounted.
    callback.forget();
}
