//! The editing state of one open graph: the document, the selection, and the undo log.
//! Every change goes through [`Editor::apply`], so everything a user does can be undone.
//!
//! The editor can *enter* a subgraph node, or open one of the document's definitions
//! (format.md §9): from then on [`Editor::graph`] is that graph and edits apply there, while
//! [`Editor::document`] is still the whole document (what is saved, exported and run). A
//! subgraph node that `use`s a definition is entered into the definition itself, so an edit
//! made there changes every use. Each undo entry remembers the scope it was made in, so undo
//! and redo reach edits made inside a subgraph or a definition from anywhere.

use engine::document::{Layout, NodeKind, Position};
use engine::{Edge, Graph, Node};

use crate::model::editing::clipboard::{self, Fragment};
use crate::model::editing::definitions;
use crate::model::editing::edit::{Edit, Meta};
use crate::model::editing::geometry::{Point, node_rect, position, snap};
use crate::model::editing::layout::{Direction, auto_layout};
use crate::model::editing::palette;
use crate::model::editing::selection::Selection;

/// How many steps of undo are kept.
pub const UNDO_DEPTH: usize = 200;

/// One step from a graph into another.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ScopeStep {
    /// Into subgraph node `id` of the graph reached so far: its embedded graph, or the
    /// definition it uses.
    Node(String),
    /// Into the document's definition of that name (only the document holds definitions).
    Definition(String),
}

impl ScopeStep {
    /// The subgraph node this step enters, if it enters one.
    pub fn node(&self) -> Option<&str> {
        match self {
            ScopeStep::Node(id) => Some(id),
            ScopeStep::Definition(_) => None,
        }
    }
}

/// The steps from the document down to the graph being edited.
pub type Scope = Vec<ScopeStep>;

#[derive(Debug, Clone)]
pub struct Editor {
    root: Graph,
    scope: Scope,
    pub selection: Selection,
    undo: Vec<(Scope, Edit)>,
    redo: Vec<(Scope, Edit)>,
    /// Bumped by every change to the document.
    revision: u64,
    pub snap_to_grid: bool,
}

impl Editor {
    pub fn new(graph: Graph) -> Editor {
        Editor {
            root: graph,
            scope: Vec::new(),
            selection: Selection::default(),
            undo: Vec::new(),
            redo: Vec::new(),
            revision: 0,
            snap_to_grid: true,
        }
    }

    /// The graph on the canvas: the document, or the subgraph entered.
    pub fn graph(&self) -> &Graph {
        graph_at(&self.root, &self.scope).unwrap_or(&self.root)
    }

    /// The whole document, whatever subgraph is entered.
    pub fn document(&self) -> &Graph {
        &self.root
    }

    /// The validator's findings about the graph on the canvas. Inside a subgraph or a
    /// definition, its `use`s name the document's definitions, so it is checked with them
    /// (their own findings, about other graphs, left out).
    pub fn diagnostics(&self) -> Vec<engine::Diagnostic> {
        if self.scope.is_empty() || self.root.definitions.is_none() {
            return engine::validate(self.graph());
        }
        let mut shown = self.graph().clone();
        shown.definitions = self.root.definitions.clone();
        let mut found = engine::validate(&shown);
        found.retain(|d| d.path != "definitions" && !d.path.starts_with("definitions."));
        found
    }

    /// The subgraph nodes and definitions entered, outermost first.
    pub fn scope(&self) -> &[ScopeStep] {
        &self.scope
    }

    /// Shows the graph of subgraph node `id` of the current graph: the one it embeds, or the
    /// definition it uses.
    pub fn enter(&mut self, id: &str) -> Result<(), String> {
        match self.graph().node(id) {
            Some(n) if n.kind != NodeKind::Subgraph => return Err(format!("`{id}` is not a subgraph node")),
            Some(n) if n.graph.is_some() => {}
            Some(n) => match &n.use_def {
                Some(name) if self.definition(name).is_none() => {
                    return Err(format!("`{id}` uses `{name}`, which is not one of the graph's definitions"));
                }
                Some(_) => {}
                None => return Err(format!("`{id}` has no embedded graph yet")),
            },
            None => return Err(format!("no node `{id}`")),
        }
        self.scope.push(ScopeStep::Node(id.to_string()));
        self.selection.clear();
        Ok(())
    }

    /// Shows the document's definition `name` for editing, from wherever the canvas was.
    pub fn open_definition(&mut self, name: &str) -> Result<(), String> {
        if self.definition(name).is_none() {
            return Err(format!("the graph has no definition `{name}`"));
        }
        self.scope = vec![ScopeStep::Definition(name.to_string())];
        self.selection.clear();
        Ok(())
    }

    /// The document's definition `name`.
    pub fn definition(&self, name: &str) -> Option<&Graph> {
        self.root.definitions.as_ref()?.get(name)
    }

    /// Goes back to the graph holding the entered subgraph, selecting its node (nothing is
    /// selected on leaving a definition opened from the inspector). Gives the step left.
    pub fn leave(&mut self) -> Option<ScopeStep> {
        let step = self.scope.pop()?;
        self.selection = match &step {
            ScopeStep::Node(id) => Selection::only_node(id),
            ScopeStep::Definition(_) => Selection::default(),
        };
        Some(step)
    }

    /// What each step of the scope is called on the path bar: a node's id (with the
    /// definition it uses), or a definition's name.
    pub fn scope_labels(&self) -> Vec<String> {
        (0..self.scope.len())
            .map(|d| match &self.scope[d] {
                ScopeStep::Definition(name) => name.clone(),
                ScopeStep::Node(id) => {
                    let holder = graph_at(&self.root, &self.scope[..d]);
                    match holder.and_then(|g| g.node(id)).filter(|n| n.graph.is_none()).and_then(|n| n.use_def.as_ref())
                    {
                        Some(name) => format!("{id} ({name})"),
                        None => id.clone(),
                    }
                }
            })
            .collect()
    }

    /// Goes back up to `depth` subgraphs deep (0: the document).
    pub fn leave_to(&mut self, depth: usize) {
        while self.scope.len() > depth {
            self.leave();
        }
    }

    /// The graph being edited. The scope always names existing subgraph nodes: edits that
    /// would break it (deleting or renaming an entered node) can only be made from outside it,
    /// and undo returns to the scope an edit was made in.
    fn graph_mut(&mut self) -> &mut Graph {
        if graph_at(&self.root, &self.scope).is_none() {
            self.scope.clear();
        }
        graph_at_mut(&mut self.root, &self.scope).expect("the scope was just checked")
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Applies an edit, recording how to undo it.
    pub fn apply(&mut self, edit: Edit) {
        let inverse = edit.apply(self.graph_mut());
        self.record(self.scope.clone(), inverse);
    }

    /// Applies an edit to the document itself, wherever the canvas is (what the graph's
    /// definitions section does).
    pub fn apply_to_document(&mut self, edit: Edit) {
        let inverse = edit.apply(&mut self.root);
        self.record(Vec::new(), inverse);
        if graph_at(&self.root, &self.scope).is_none() {
            self.scope.clear();
            self.selection.clear();
        }
    }

    fn record(&mut self, scope: Scope, inverse: Edit) {
        if inverse.is_empty() {
            return;
        }
        self.undo.push((scope, inverse));
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.changed();
    }

    /// Undoes the last edit, in the scope it was made in (which becomes the one shown).
    pub fn undo(&mut self) -> bool {
        let Some((scope, edit)) = self.undo.pop() else { return false };
        let inverse = self.apply_in(&scope, edit);
        self.redo.push((scope, inverse));
        self.changed();
        true
    }

    pub fn redo(&mut self) -> bool {
        let Some((scope, edit)) = self.redo.pop() else { return false };
        let inverse = self.apply_in(&scope, edit);
        self.undo.push((scope, inverse));
        self.changed();
        true
    }

    fn apply_in(&mut self, scope: &[ScopeStep], edit: Edit) -> Edit {
        if self.scope != scope {
            self.scope = scope.to_vec();
            self.selection.clear();
        }
        edit.apply(self.graph_mut())
    }

    fn changed(&mut self) {
        self.revision += 1;
        // An empty layout is dropped so that it does not appear in exports.
        let graph = self.graph_mut();
        if let Some(l) = &graph.layout
            && l.nodes.is_empty()
            && l.viewport.is_none()
        {
            graph.layout = None;
        }
        let graph = graph_at(&self.root, &self.scope).unwrap_or(&self.root);
        self.selection.retain_existing(graph);
    }

    fn snapped(&self, p: Point) -> Position {
        if self.snap_to_grid { position(snap(p.x), snap(p.y)) } else { position(p.x, p.y) }
    }

    /// Adds a node of `kind` with its top-left corner at `at`, selects it, returns its id.
    pub fn add_node(&mut self, kind: NodeKind, at: Point) -> String {
        let node = palette::new_node(self.graph(), kind);
        let id = node.id.clone();
        let pos = self.snapped(at);
        self.apply(Edit::InsertNode { index: self.graph().nodes.len(), node, pos: Some(pos) });
        self.selection = Selection::only_node(&id);
        id
    }

    /// Deletes the selected nodes (with their edges) and the selected edges.
    pub fn delete_selection(&mut self) {
        let nodes = self.selection.nodes.clone();
        let mut edge_ix: Vec<usize> = self
            .graph()
            .edges
            .iter()
            .enumerate()
            .filter(|(i, e)| self.selection.edges.contains(i) || nodes.contains(&e.from) || nodes.contains(&e.to))
            .map(|(i, _)| i)
            .collect();
        edge_ix.sort_unstable_by(|a, b| b.cmp(a));
        let mut edits: Vec<Edit> = edge_ix.into_iter().map(|index| Edit::RemoveEdge { index }).collect();
        edits.extend(nodes.into_iter().map(|id| Edit::RemoveNode { id }));
        self.apply(Edit::Batch(edits));
        self.selection.clear();
    }

    /// Moves nodes to new top-left corners (one undo step for the whole drag).
    pub fn move_nodes(&mut self, moves: &[(String, Point)]) {
        let edits: Vec<Edit> = moves
            .iter()
            .filter_map(|(id, p)| {
                let pos = self.snapped(*p);
                let i = self.graph().nodes.iter().position(|n| &n.id == id)?;
                let current = node_rect(self.graph(), i);
                let unchanged =
                    (current.x - pos.x).abs() < 0.01 && (current.y - pos.y).abs() < 0.01 && self.has_position(id);
                (!unchanged).then(|| Edit::SetPosition { id: id.clone(), pos: Some(pos) })
            })
            .collect();
        self.apply(Edit::Batch(edits));
    }

    fn has_position(&self, id: &str) -> bool {
        self.graph().layout.as_ref().is_some_and(|l| l.nodes.contains_key(id))
    }

    /// Connects `from` to `to`, giving the edge a label when the source chooses by label.
    pub fn connect(&mut self, from: &str, to: &str) -> Result<usize, String> {
        let edge = self.new_edge(from, to)?;
        let index = self.graph().edges.len();
        self.apply(Edit::InsertEdge { index, edge });
        self.selection.clear();
        self.selection.edges.insert(index);
        Ok(index)
    }

    /// Moves one end of an existing edge.
    pub fn reconnect(&mut self, index: usize, from: &str, to: &str) -> Result<(), String> {
        let Some(old) = self.graph().edges.get(index).cloned() else { return Err("that edge no longer exists".into()) };
        self.check_endpoints(from, to, Some(index))?;
        let mut edge = old.clone();
        edge.from = from.to_string();
        edge.to = to.to_string();
        self.apply(Edit::ReplaceEdge { index, edge });
        Ok(())
    }

    fn check_endpoints(&self, from: &str, to: &str, ignore: Option<usize>) -> Result<(), String> {
        let kind = |id: &str| self.graph().node(id).map(|n| n.kind);
        match (kind(from), kind(to)) {
            (None, _) | (_, None) => return Err("both ends of an edge must be nodes".into()),
            (Some(NodeKind::End), _) => return Err("nothing can follow an end node".into()),
            (_, Some(NodeKind::Start)) => return Err("no edge may lead into the start node".into()),
            (Some(NodeKind::Note), _) | (_, Some(NodeKind::Note)) => return Err("notes cannot be connected".into()),
            _ => {}
        }
        let duplicate = self
            .graph()
            .edges
            .iter()
            .enumerate()
            .any(|(i, e)| Some(i) != ignore && e.from == from && e.to == to && e.label.is_none());
        if duplicate && !self.chooses_by_label(from) {
            return Err(format!("`{from}` is already connected to `{to}`"));
        }
        Ok(())
    }

    fn chooses_by_label(&self, id: &str) -> bool {
        self.graph()
            .node(id)
            .is_some_and(|n| n.kind == NodeKind::Router || (n.kind == NodeKind::Human && n.options.is_some()))
    }

    fn new_edge(&self, from: &str, to: &str) -> Result<Edge, String> {
        self.check_endpoints(from, to, None)?;
        let mut edge = Edge::new(from, to);
        let node = self.graph().node(from);
        let first_out = !self.graph().edges.iter().any(|e| e.from == from);
        if first_out && node.is_some_and(|n| n.kind == NodeKind::Human) && self.chooses_by_label(from) {
            // A person's first edge out of a fresh human node catches every answer, so
            // `start → human → end` runs before any option has an edge of its own.
            edge.label = Some("default".into());
        } else if self.chooses_by_label(from) {
            let used: Vec<&str> =
                self.graph().edges.iter().filter(|e| e.from == from).filter_map(|e| e.label.as_deref()).collect();
            let options: Vec<String> =
                node.and_then(|n| n.options.clone()).unwrap_or_else(|| vec!["yes".into(), "no".into()]);
            let label = options
                .into_iter()
                .chain(std::iter::once("default".to_string()))
                .chain((2..).map(|k| format!("choice_{k}")))
                .find(|l| !used.contains(&l.as_str()))
                .unwrap_or_default();
            edge.label = Some(label);
        }
        Ok(edge)
    }

    /// Replaces a node's fields; a changed id is carried through its edges and position.
    pub fn update_node(&mut self, id: &str, node: Node) -> Result<(), String> {
        let Some(index) = self.graph().nodes.iter().position(|n| n.id == id) else {
            return Err(format!("no node `{id}`"));
        };
        if node == self.graph().nodes[index] {
            return Ok(());
        }
        let mut edits = Vec::new();
        if node.id != id {
            if !engine::plan::valid_id(&node.id) {
                return Err(format!("`{}` is not a valid id: use 1 to 64 letters, digits, `_` or `-`", node.id));
            }
            if self.graph().node(&node.id).is_some() {
                return Err(format!("another node already has the id `{}`", node.id));
            }
            for (i, e) in self.graph().edges.iter().enumerate() {
                if e.from == id || e.to == id {
                    let mut e = e.clone();
                    if e.from == id {
                        e.from = node.id.clone();
                    }
                    if e.to == id {
                        e.to = node.id.clone();
                    }
                    edits.push(Edit::ReplaceEdge { index: i, edge: e });
                }
            }
            if let Some(pos) = self.graph().layout.as_ref().and_then(|l| l.nodes.get(id)).cloned() {
                edits.push(Edit::SetPosition { id: id.to_string(), pos: None });
                edits.push(Edit::SetPosition { id: node.id.clone(), pos: Some(pos) });
            }
            if self.selection.nodes.remove(id) {
                self.selection.nodes.insert(node.id.clone());
            }
        }
        edits.insert(0, Edit::ReplaceNode { index, node });
        self.apply(Edit::Batch(edits));
        Ok(())
    }

    pub fn update_edge(&mut self, index: usize, edge: Edge) {
        if self.graph().edges.get(index) != Some(&edge) {
            self.apply(Edit::ReplaceEdge { index, edge });
        }
    }

    pub fn set_meta(&mut self, meta: Meta) {
        if meta != Meta::of(self.graph()) {
            self.apply(Edit::SetMeta(meta));
        }
    }

    /// Sets the document's name, description and limits, from inside a subgraph too.
    pub fn set_document_meta(&mut self, meta: Meta) {
        let scope = std::mem::take(&mut self.scope);
        self.set_meta(meta);
        if graph_at(&self.root, &scope).is_some() {
            self.scope = scope;
        }
    }

    /// The selection as a clipboard fragment.
    pub fn copy(&self) -> Option<Fragment> {
        clipboard::copy(self.graph(), &self.selection)
    }

    /// Pastes a fragment, offset from where it was copied, and selects what was pasted.
    pub fn paste(&mut self, fragment: &Fragment, offset: f64) -> Vec<String> {
        let (edit, ids) = clipboard::paste(self.graph(), fragment, offset, offset);
        self.apply(edit);
        self.selection.clear();
        self.selection.nodes.extend(ids.iter().cloned());
        ids
    }

    /// Copies and pastes the selection in one step.
    pub fn duplicate(&mut self) -> Vec<String> {
        match self.copy() {
            Some(f) => self.paste(&f, 40.0),
            None => Vec::new(),
        }
    }

    pub fn auto_layout(&mut self, direction: Direction) {
        let edits = auto_layout(self.graph(), direction)
            .into_iter()
            .map(|(id, pos)| Edit::SetPosition { id, pos: Some(pos) })
            .collect();
        self.apply(Edit::Batch(edits));
    }

    /// Replaces the whole document (an import): one undoable step, shown from the top.
    pub fn replace_graph(&mut self, graph: Graph) {
        self.scope.clear();
        let mut edits: Vec<Edit> =
            (0..self.graph().edges.len()).rev().map(|index| Edit::RemoveEdge { index }).collect();
        edits.extend(self.graph().nodes.iter().map(|n| Edit::RemoveNode { id: n.id.clone() }));
        edits.push(Edit::SetMeta(Meta::of(&graph)));
        edits.push(Edit::SetDefinitions(graph.definitions.clone()));
        let positions = graph.layout.clone().unwrap_or_default();
        for (index, node) in graph.nodes.into_iter().enumerate() {
            let pos = positions.nodes.get(&node.id).cloned();
            edits.push(Edit::InsertNode { index, node, pos });
        }
        edits.extend(graph.edges.into_iter().enumerate().map(|(index, edge)| Edit::InsertEdge { index, edge }));
        self.apply(Edit::Batch(edits));
        if let Some(v) = positions.viewport {
            self.root.layout.get_or_insert_with(Layout::default).viewport = Some(v);
        }
        self.selection.clear();
    }

    /// Turns subgraph node `id`'s embedded graph into a new definition the node uses (one
    /// step of undo); gives the definition's name.
    pub fn make_reusable(&mut self, id: &str) -> Result<String, String> {
        let name = definitions::reusable_name(&self.root, id);
        let mut doc = self.root.clone();
        let graph = graph_at_mut(&mut doc, &self.scope).ok_or("the graph shown is gone")?;
        let Some(node) = graph.nodes.iter_mut().find(|n| n.id == id && n.kind == NodeKind::Subgraph) else {
            return Err(format!("no subgraph node `{id}`"));
        };
        let Some(mut inner) = node.graph.take() else { return Err(format!("`{id}` has no embedded graph")) };
        node.use_def = Some(name.clone());
        // Only the document holds definitions.
        inner.definitions = None;
        doc.definitions.get_or_insert_with(Default::default).insert(name.clone(), *inner);
        let edit = definitions::document_edit(&self.root, doc);
        self.apply_to_document(edit);
        Ok(name)
    }

    /// Saves the canvas's pan and zoom in the document (not an undoable edit).
    pub fn set_viewport(&mut self, view: crate::model::editing::geometry::View) {
        // The view of an entered subgraph is not kept: entering one always fits it.
        if !self.scope.is_empty() {
            return;
        }
        self.root.layout.get_or_insert_with(Layout::default).viewport = Some(view.to_viewport());
    }
}

/// Where a scope leads, as a place in the document: a definition (or the document itself)
/// and the subgraph nodes with embedded graphs from there.
struct Place {
    definition: Option<String>,
    nodes: Vec<String>,
}

/// Follows `scope` from the document: each step a subgraph node with an embedded graph, a
/// subgraph node using a definition, or a definition. `None` when a step leads nowhere.
fn place_of(root: &Graph, scope: &[ScopeStep]) -> Option<Place> {
    let mut place = Place { definition: None, nodes: Vec::new() };
    let mut g = root;
    for step in scope {
        let name = match step {
            ScopeStep::Definition(name) => name,
            ScopeStep::Node(id) => {
                let n = g.node(id).filter(|n| n.kind == NodeKind::Subgraph)?;
                if let Some(inner) = n.graph.as_deref() {
                    place.nodes.push(id.clone());
                    g = inner;
                    continue;
                }
                n.use_def.as_ref()?
            }
        };
        // Definitions are the document's: a use anywhere starts again from there.
        g = root.definitions.as_ref()?.get(name)?;
        place = Place { definition: Some(name.clone()), nodes: Vec::new() };
    }
    Some(place)
}

/// The graph reached along `scope`.
fn graph_at<'g>(root: &'g Graph, scope: &[ScopeStep]) -> Option<&'g Graph> {
    let place = place_of(root, scope)?;
    let base = match &place.definition {
        Some(name) => root.definitions.as_ref()?.get(name)?,
        None => root,
    };
    place.nodes.iter().try_fold(base, |g, id| g.node(id).and_then(|n| n.graph.as_deref()))
}

fn graph_at_mut<'g>(root: &'g mut Graph, scope: &[ScopeStep]) -> Option<&'g mut Graph> {
    let place = place_of(root, scope)?;
    let mut g = match &place.definition {
        Some(name) => root.definitions.as_mut()?.get_mut(name)?,
        None => root,
    };
    for id in &place.nodes {
        g = g.nodes.iter_mut().find(|n| &n.id == id)?.graph.as_deref_mut()?;
    }
    Some(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn editor() -> Editor {
        Editor::new(Graph::new("t"))
    }

    #[test]
    fn a_fresh_human_node_connected_between_start_and_end_is_valid() {
        let mut ed = editor();
        let ask = ed.add_node(NodeKind::Human, Point::new(200.0, 0.0));
        ed.selection.clear();
        ed.selection.edges.insert(0);
        ed.delete_selection();
        ed.connect("start", &ask).unwrap();
        let first = ed.connect(&ask, "end").unwrap();
        assert_eq!(ed.graph().edges[first].label.as_deref(), Some("default"));
        let errors: Vec<_> = ed.diagnostics().into_iter().filter(engine::Diagnostic::is_error).collect();
        assert!(errors.is_empty(), "{errors:?}");
        // A second edge takes the first option's label; the default still catches the rest.
        let set = ed.add_node(NodeKind::Set, Point::new(400.0, 200.0));
        let second = ed.connect(&ask, &set).unwrap();
        assert_eq!(ed.graph().edges[second].label.as_deref(), Some("approve"));
    }

    #[test]
    fn build_connect_undo_redo() {
        let mut ed = editor();
        let original = ed.graph().clone();
        let r = ed.add_node(NodeKind::Router, Point::new(101.0, 59.0));
        let s = ed.add_node(NodeKind::Set, Point::new(300.0, 60.0));
        ed.connect("start", &r).unwrap();
        let yes = ed.connect(&r, &s).unwrap();
        let no = ed.connect(&r, "end").unwrap();
        assert_eq!(ed.graph().edges[yes].label.as_deref(), Some("yes"));
        assert_eq!(ed.graph().edges[no].label.as_deref(), Some("no"));
        // Snapped to the grid.
        let l = ed.graph().layout.as_ref().unwrap();
        assert_eq!((l.nodes[&r].x, l.nodes[&r].y), (100.0, 60.0));
        let built = ed.graph().clone();
        while ed.undo() {}
        assert_eq!(ed.graph(), &original);
        while ed.redo() {}
        assert_eq!(ed.graph(), &built);
    }

    #[test]
    fn bad_connections_are_refused_with_a_reason() {
        let mut ed = editor();
        assert!(ed.connect("end", "start").unwrap_err().contains("end node"));
        assert!(ed.connect("start", "start").unwrap_err().contains("start node"));
        assert!(ed.connect("start", "end").unwrap_err().contains("already connected"));
        assert!(!ed.can_redo());
    }

    #[test]
    fn deleting_a_node_takes_its_edges_and_undo_brings_them_back() {
        let mut ed = editor();
        let a = ed.add_node(NodeKind::Set, Point::new(0.0, 200.0));
        ed.connect("start", &a).unwrap();
        ed.connect(&a, "end").unwrap();
        let before = ed.graph().clone();
        ed.selection = Selection::only_node(&a);
        ed.delete_selection();
        assert_eq!(ed.graph().edges.len(), 1);
        assert!(ed.graph().node(&a).is_none());
        ed.undo();
        assert_eq!(ed.graph(), &before);
    }

    #[test]
    fn renaming_carries_edges_and_position() {
        let mut ed = editor();
        ed.move_nodes(&[("end".into(), Point::new(400.0, 0.0))]);
        let mut n = ed.graph().node("end").unwrap().clone();
        n.id = "finish".into();
        ed.update_node("end", n).unwrap();
        assert_eq!(ed.graph().edges[0].to, "finish");
        assert!(ed.graph().layout.as_ref().unwrap().nodes.contains_key("finish"));
        let mut bad = ed.graph().node("finish").unwrap().clone();
        bad.id = "start".into();
        assert!(ed.update_node("finish", bad).unwrap_err().contains("already"));
        ed.undo();
        assert_eq!(ed.graph().edges[0].to, "end");
    }

    #[test]
    fn a_drag_is_one_undo_step() {
        let mut ed = editor();
        ed.move_nodes(&[("start".into(), Point::new(0.0, 0.0)), ("end".into(), Point::new(300.0, 0.0))]);
        ed.move_nodes(&[("start".into(), Point::new(40.0, 40.0)), ("end".into(), Point::new(340.0, 40.0))]);
        ed.undo();
        let l = ed.graph().layout.as_ref().unwrap();
        assert_eq!((l.nodes["start"].x, l.nodes["end"].x), (0.0, 300.0));
    }

    #[test]
    fn duplicate_then_undo() {
        let mut ed = editor();
        let a = ed.add_node(NodeKind::Llm, Point::new(0.0, 100.0));
        ed.selection = Selection::only_node(&a);
        let ids = ed.duplicate();
        assert_eq!(ids.len(), 1);
        assert_eq!(ed.selection.nodes.len(), 1);
        assert_eq!(ed.graph().nodes.len(), 4);
        ed.undo();
        assert_eq!(ed.graph().nodes.len(), 3);
    }

    #[test]
    fn import_replaces_everything_in_one_undoable_step() {
        let mut ed = editor();
        let mut other = Graph::new("other");
        other.nodes.insert(1, Node::new("x", NodeKind::Script));
        other.nodes[1].script = Some("()".into());
        ed.replace_graph(other.clone());
        assert_eq!(ed.graph().semantics(), other.semantics());
        ed.undo();
        assert_eq!(ed.graph().display_name(), "t");
    }

    #[test]
    fn auto_layout_places_every_node() {
        let mut ed = editor();
        ed.auto_layout(Direction::LeftToRight);
        let l = ed.graph().layout.as_ref().unwrap();
        assert!(l.nodes["start"].x < l.nodes["end"].x);
        assert!(ed.undo());
        assert!(ed.graph().layout.is_none());
    }

    #[test]
    fn edits_inside_a_subgraph_land_in_the_document_and_undo_from_outside() {
        let mut ed = editor();
        let sub = ed.add_node(NodeKind::Subgraph, Point::new(200.0, 0.0));
        let set = ed.add_node(NodeKind::Set, Point::new(400.0, 0.0));
        assert!(ed.enter(&set).is_err(), "a set node has no graph to enter");
        ed.enter(&sub).unwrap();
        assert_eq!(ed.scope(), [ScopeStep::Node(sub.clone())]);
        let inner_before = ed.graph().clone();
        let inner_node = ed.add_node(NodeKind::Script, Point::new(100.0, 100.0));
        ed.connect("start", &inner_node).unwrap();
        // The canvas shows the inner graph; the document holds it inside the subgraph node.
        assert!(ed.graph().node(&inner_node).is_some());
        assert!(ed.document().node(&inner_node).is_none());
        let embedded = ed.document().node(&sub).unwrap().graph.as_deref().unwrap();
        assert_eq!(embedded, ed.graph());
        assert_eq!(embedded.edges.len(), inner_before.edges.len() + 1);

        assert_eq!(ed.leave(), Some(ScopeStep::Node(sub.clone())));
        assert!(ed.scope().is_empty());
        assert!(ed.selection.nodes.contains(&sub), "leaving selects the subgraph node");
        // Undo from the top undoes the inner edit and shows where it happened.
        assert!(ed.undo());
        assert_eq!(ed.scope(), [ScopeStep::Node(sub.clone())]);
        assert!(ed.graph().node(&inner_node).is_some());
        assert_eq!(ed.graph().edges.len(), inner_before.edges.len());
        assert!(ed.undo());
        assert_eq!(ed.graph(), &inner_before);
        assert!(ed.redo());
        assert!(ed.graph().node(&inner_node).is_some());
        // A document edit while inside is undone at the top.
        ed.leave_to(0);
        let label_before = ed.graph().node(&set).unwrap().label.clone();
        ed.update_node(&set, {
            let mut n = ed.graph().node(&set).unwrap().clone();
            n.label = Some("Count".into());
            n
        })
        .unwrap();
        ed.enter(&sub).unwrap();
        assert!(ed.undo());
        assert!(ed.scope().is_empty());
        assert_eq!(ed.graph().node(&set).unwrap().label, label_before);
        // Renaming the document from inside keeps the subgraph on the canvas; its view is
        // not written into the embedded graph.
        ed.enter(&sub).unwrap();
        let inner_layout = ed.graph().layout.clone();
        let mut meta = Meta::of(ed.document());
        meta.name = Some("Renamed".into());
        ed.set_document_meta(meta);
        assert_eq!(ed.document().name.as_deref(), Some("Renamed"));
        assert_eq!(ed.scope(), [ScopeStep::Node(sub.clone())]);
        ed.set_viewport(crate::model::editing::geometry::View::default());
        assert_eq!(ed.graph().layout, inner_layout);
        // Importing replaces the whole document, from the top.
        ed.replace_graph(Graph::new("imported"));
        assert!(ed.scope().is_empty());
        assert_eq!(ed.document().name.as_deref(), Some("imported"));
    }
}
