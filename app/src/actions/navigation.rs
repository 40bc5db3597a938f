//! Moving around the document: entering and leaving subgraphs and definitions (keeping the
//! run on display in step with the graph shown: a subgraph's canvas shows its nested run),
//! selecting what the user picked and bringing it into view.

use leptos::prelude::*;

use super::run;
use crate::model::editing::focus_nav::{self, Arrow};
use crate::model::editing::geometry::{GRID, Point};
use crate::model::editing::placement;
use crate::model::editing::selection::Selection;
use crate::platform::PlatformRef;
use crate::state::{App, DocState};

/// Shows the graph inside subgraph node `id` of the graph on the canvas; when the run on
/// display has a nested run for that node at the shown step, that run is shown with it.
pub fn enter(app: App, id: &str) {
    let App { doc, run: ctl, alerts, .. } = app;
    let has_nested = ctl.view.with_untracked(|v| v.as_ref().is_some_and(|v| v.detail(id).is_some()));
    if has_nested && ctl.in_step.get() {
        // open_nested enters the canvas too.
        run::open_nested(app, id);
        return;
    }
    if let Err(why) = doc.edit(|e| e.enter(id)) {
        alerts.error(format!("Cannot open the subgraph: {why}"));
    }
}

/// Shows the document's definition `name` on the canvas for editing (the path bar leads back).
/// A subgraph's run on display is closed: a definition opened this way is no node's run.
pub fn open_definition(app: App, name: &str) {
    let App { doc, alerts, .. } = app;
    leave_to(app, 0);
    if let Err(why) = doc.edit(|e| e.open_definition(name)) {
        return alerts.error(format!("Cannot open the definition: {why}"));
    }
    // The inspector now shows the definition's own settings: from their top, not from where
    // the list of definitions was scrolled to.
    app.platform.get().scroll_to_top(".inspector");
}

/// Goes back up to `depth` subgraphs deep (0: the document), closing nested runs below it.
pub fn leave_to(app: App, depth: usize) {
    let App { doc, run: ctl, .. } = app;
    while ctl.parents.with_untracked(Vec::len) > depth {
        run::close_nested(ctl);
    }
    if doc.editor.with_untracked(|e| e.scope().len()) > depth {
        doc.edit(|e| e.leave_to(depth));
    }
}

/// Back to the run around the subgraph's run shown (the canvas leaves the subgraph with it).
pub fn back_to_parent_run(app: App) {
    let App { run: ctl, .. } = app;
    let depth = ctl.parents.with_untracked(Vec::len);
    leave_to(app, depth.saturating_sub(1));
}

/// Selects node `id` alone, centres the view on it and gives it keyboard focus (what the
/// search dialog does with the node found).
pub fn select_and_show(app: App, id: &str) {
    let App { doc, .. } = app;
    doc.edit(|e| e.selection = Selection::only_node(id));
    show_node(app, id);
    focus_node(app.platform, id);
}

/// Centres the view on node `id`, if it is on the canvas.
pub fn show_node(app: App, id: &str) {
    let App { doc, view, .. } = app;
    if let Some(r) = doc.rects.with_untracked(|r| r.get(id).copied()) {
        view.center_on(r.center());
    }
}

/// Selects a validation finding's node or edge (nothing for the graph's own), and shows the node.
pub fn select_problem(app: App, node: Option<&str>, edge: Option<usize>) {
    let App { doc, .. } = app;
    doc.edit(|e| match (node, edge) {
        (_, Some(i)) => {
            e.selection.clear();
            e.selection.edges.insert(i);
        }
        (Some(n), None) => e.selection = Selection::only_node(n),
        (None, None) => e.selection.clear(),
    });
    if let Some(n) = node {
        show_node(app, n);
    }
}

/// Adds a node of `kind` from the palette (a click or Enter on its button): in free space
/// beside the selected node, in the direction the graph flows, or near the middle of the
/// view; selected, and brought into view.
pub fn add_from_palette(app: App, kind: engine::document::NodeKind) {
    let App { doc, view, .. } = app;
    let after = doc.editor.with_untracked(|e| {
        let one = (e.selection.nodes.len() == 1).then(|| e.selection.nodes.first().cloned()).flatten()?;
        doc.rects.with_untracked(|r| r.get(&one).copied())
    });
    let flow = doc.flow.get_untracked();
    let seen = view.seen();
    let at = doc.editor.with_untracked(|e| placement::free_spot(e.graph(), after, seen, flow));
    let id = doc.edit(|e| e.add_node(kind, at));
    if let Some(r) = doc.rects.with_untracked(|r| r.get(&id).copied()) {
        view.bring_into_view(&doc, r);
    }
}

/// Puts keyboard focus on node `id` once it is drawn (the node in focus is the one the arrow
/// keys, Enter and Delete act on).
fn focus_node(platform: PlatformRef, id: &str) {
    let selector = format!("[data-node-id=\"{}\"]", id.replace('\\', "\\\\").replace('"', "\\\""));
    platform.get().focus(&selector);
}

/// The keyboard's way between nodes: selects the node `arrow` leads to from `from` (see
/// [`focus_nav::neighbour`]), brings it into view and focuses it.
pub fn step_focus(app: App, from: &str, arrow: Arrow) {
    let App { doc, .. } = app;
    let Some(to) = doc.editor.with_untracked(|e| focus_nav::neighbour(e.graph(), from, arrow)) else { return };
    focus_and_show(app, &to);
}

/// Selects node `id` alone, brings it into view and puts keyboard focus on it.
pub fn focus_and_show(app: App, id: &str) {
    let App { doc, view, .. } = app;
    doc.edit(|e| e.selection = Selection::only_node(id));
    if let Some(r) = doc.rects.with_untracked(|r| r.get(id).copied()) {
        view.reveal(r);
    }
    focus_node(app.platform, id);
}

/// The canvas got the keyboard with no node in focus: the start node (else the first) takes it.
pub fn enter_canvas(app: App) {
    let App { doc, .. } = app;
    if let Some(id) = doc.editor.with_untracked(|e| focus_nav::first_node(e.graph())) {
        focus_and_show(app, &id);
    }
}

/// Moves the selected nodes one grid step the way `arrow` points (one step of undo).
pub fn nudge_selection(doc: DocState, arrow: Arrow) {
    let d = arrow.offset(GRID);
    let moves: Vec<(String, Point)> = doc.editor.with_untracked(|e| {
        e.selection
            .nodes
            .iter()
            .filter_map(|id| {
                let r = doc.rects.with_untracked(|r| r.get(id).copied())?;
                Some((id.clone(), Point::new(r.x + d.x, r.y + d.y)))
            })
            .collect()
    });
    if !moves.is_empty() {
        doc.edit(|e| e.move_nodes(&moves));
    }
}

/// Puts keyboard focus back on the canvas (after the node that had it was deleted).
pub fn focus_canvas(platform: PlatformRef) {
    platform.get().focus(".canvas");
}

/// Selects every node of the graph on the canvas.
pub fn select_all(doc: DocState) {
    doc.edit(|e| {
        let ids: Vec<String> = e.graph().nodes.iter().map(|n| n.id.clone()).collect();
        e.selection.nodes.extend(ids);
    });
}

/// Opens a node for editing: selects it and puts keyboard focus in the inspector's first field.
pub fn edit_node(app: App, id: &str) {
    app.doc.edit(|e| e.selection = Selection::only_node(id));
    app.platform.get().focus(".inspector input, .inspector textarea");
}
