//! The document's definitions (format.md §9) as the inspector edits them: listing them with who
//! uses them, adding one, renaming one together with every `use` of it, removing one nobody
//! uses, pointing a subgraph node at one, and turning a node's embedded graph into one.
//! Every operation gives an [`Edit`] on the document, so one gesture is one step of undo.
//!
//! Only the document holds definitions; a `use` anywhere (a node of the document, of an
//! embedded graph, of another definition, or a tool) names one of them.

use std::fmt;

use engine::document::NodeKind;
use engine::{Graph, Node};
use indexmap::IndexMap;

use crate::model::editing::edit::{Edit, Meta};

/// Why a definition cannot take a name, or cannot go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefinitionError {
    Empty,
    /// Names are 1 to 64 letters, digits, `_` and `-`, like node ids.
    Invalid(String),
    Taken(String),
    Unknown(String),
    /// Still used: by these nodes and tools.
    InUse {
        name: String,
        users: Vec<User>,
    },
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefinitionError::Empty => f.write_str("A definition needs a name"),
            DefinitionError::Invalid(n) => {
                write!(f, "`{n}` is not a valid definition name: use 1 to 64 letters, digits, `_` or `-`")
            }
            DefinitionError::Taken(n) => write!(f, "There is already a definition `{n}`"),
            DefinitionError::Unknown(n) => write!(f, "There is no definition `{n}`"),
            DefinitionError::InUse { name, users } => {
                let list: Vec<String> = users.iter().map(User::to_string).collect();
                write!(f, "Definition `{name}` is used by {}: make them use something else first", list.join(", "))
            }
        }
    }
}

impl std::error::Error for DefinitionError {}

/// What uses a definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserKind {
    Node,
    Tool,
}

/// A node or tool that uses a definition, and where it is: `within` names the definition and
/// the subgraph nodes holding it, outermost first (empty: the document's own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub kind: UserKind,
    pub name: String,
    pub within: Vec<String>,
}

impl fmt::Display for User {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            UserKind::Node => "node",
            UserKind::Tool => "tool",
        };
        write!(f, "{what} `{}`", self.name)?;
        for place in self.within.iter().rev() {
            write!(f, " in {place}")?;
        }
        Ok(())
    }
}

/// One line of the inspector's list.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub name: String,
    pub nodes: usize,
    pub users: Vec<User>,
}

impl Summary {
    /// "3 nodes · unused", "2 nodes · used by 2 nodes and 1 tool".
    pub fn facts(&self) -> String {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let count = |k: UserKind| self.users.iter().filter(|u| u.kind == k).count();
        let used = match (count(UserKind::Node), count(UserKind::Tool)) {
            (0, 0) => "unused".to_string(),
            (n, 0) => format!("used by {}", plural(n, "node")),
            (0, t) => format!("used by {}", plural(t, "tool")),
            (n, t) => format!("used by {} and {}", plural(n, "node"), plural(t, "tool")),
        };
        format!("{} · {used}", plural(self.nodes, "node"))
    }
}

/// The document's definitions in order, with their node counts and users.
pub fn summaries(doc: &Graph) -> Vec<Summary> {
    let all = users_in_document(doc);
    names(doc)
        .into_iter()
        .map(|name| {
            let nodes = doc.definitions.as_ref().and_then(|d| d.get(&name)).map_or(0, |g| g.nodes.len());
            let users = all.iter().filter(|(used, _)| *used == name).map(|(_, u)| u.clone()).collect();
            Summary { name, nodes, users }
        })
        .collect()
}

/// The definitions' names, in document order.
pub fn names(doc: &Graph) -> Vec<String> {
    doc.definitions.iter().flat_map(IndexMap::keys).cloned().collect()
}

/// Who uses definition `name`, anywhere in the document.
pub fn users(doc: &Graph, name: &str) -> Vec<User> {
    users_in_document(doc).into_iter().filter(|(used, _)| used == name).map(|(_, u)| u).collect()
}

/// Every `use` in the document: the name used, and by whom.
fn users_in_document(doc: &Graph) -> Vec<(String, User)> {
    let mut out = Vec::new();
    collect_users(doc, &[], &mut out);
    for (name, def) in doc.definitions.iter().flatten() {
        collect_users(def, &[format!("definition `{name}`")], &mut out);
    }
    out
}

fn collect_users(g: &Graph, within: &[String], out: &mut Vec<(String, User)>) {
    for n in g.nodes.iter().filter(|n| n.kind == NodeKind::Subgraph) {
        if let Some(used) = &n.use_def {
            let user = User { kind: UserKind::Node, name: n.id.clone(), within: within.to_vec() };
            out.push((used.clone(), user));
        }
        if let Some(inner) = &n.graph {
            let mut deeper = within.to_vec();
            deeper.push(format!("subgraph `{}`", n.id));
            collect_users(inner, &deeper, out);
        }
    }
    for (tool, def) in g.tools.iter().flatten() {
        if let Some(used) = &def.run.use_def {
            out.push((used.clone(), User { kind: UserKind::Tool, name: tool.clone(), within: within.to_vec() }));
        }
    }
}

/// A new definition that runs as it is: a start leading to an end.
pub fn new_definition() -> Graph {
    let mut g = Graph::new("");
    // Its name is its key in `definitions`.
    g.name = None;
    g
}

/// Adds a new definition named `definition` (or `definition_2`…) after the others; gives the
/// edit (on the document) and the name.
pub fn add(doc: &Graph) -> (Edit, String) {
    let mut defs = doc.definitions.clone().unwrap_or_default();
    let name = fresh_name(&defs, "definition");
    defs.insert(name.clone(), new_definition());
    (Edit::SetDefinitions(Some(defs)), name)
}

/// Renames definition `old` in place (keeping its position) and in every `use` of it, as one
/// edit on the document. `Ok(None)`: the name did not change.
pub fn rename(doc: &Graph, old: &str, new: &str) -> Result<Option<Edit>, DefinitionError> {
    let new = new.trim();
    if new == old {
        return Ok(None);
    }
    check_name(doc, new)?;
    let defs = doc.definitions.as_ref().filter(|d| d.contains_key(old)).ok_or(DefinitionError::Unknown(old.into()))?;
    let renamed: IndexMap<String, Graph> = defs
        .iter()
        .map(|(k, g)| {
            let mut g = g.clone();
            rename_uses(&mut g, old, new);
            (if k == old { new.to_string() } else { k.clone() }, g)
        })
        .collect();
    let mut edits = vec![Edit::SetDefinitions(Some(renamed))];
    edits.extend(document_uses_renamed(doc, old, new));
    Ok(Some(Edit::Batch(edits)))
}

/// Removes definition `name`, which nothing may use any more.
pub fn remove(doc: &Graph, name: &str) -> Result<Edit, DefinitionError> {
    let mut defs = doc.definitions.clone().unwrap_or_default();
    if defs.shift_remove(name).is_none() {
        return Err(DefinitionError::Unknown(name.into()));
    }
    let users = users(doc, name);
    if !users.is_empty() {
        return Err(DefinitionError::InUse { name: name.into(), users });
    }
    Ok(Edit::SetDefinitions((!defs.is_empty()).then_some(defs)))
}

/// Node `node` running definition `name` instead of its embedded graph.
pub fn use_definition(node: &Node, name: &str) -> Node {
    let mut n = node.clone();
    n.use_def = Some(name.to_string());
    n.graph = None;
    n
}

/// Node `node` running an embedded graph instead of a definition: a copy of the definition
/// it used (so it runs as before, and can be changed on its own), else a start and an end.
pub fn embed(doc: &Graph, node: &Node) -> Node {
    let mut n = node.clone();
    let copy = n.use_def.take().and_then(|name| doc.definitions.as_ref()?.get(&name).cloned().map(|g| (name, g)));
    let inner = match copy {
        Some((name, mut g)) => {
            g.name.get_or_insert(name);
            g
        }
        None => {
            let mut g = Graph::new("");
            g.name = Some(format!("{} graph", n.id));
            g
        }
    };
    n.graph = Some(Box::new(inner));
    n
}

/// The name a node's embedded graph takes as a new definition: the node's id, made unique.
pub fn reusable_name(doc: &Graph, id: &str) -> String {
    let defs = doc.definitions.clone().unwrap_or_default();
    fresh_name(&defs, if engine::plan::valid_id(id) { id } else { "definition" })
}

/// The edit taking document `before` to `after`, which has the same nodes (changed, not added
/// or removed): the nodes that changed, the settings and the definitions.
pub fn document_edit(before: &Graph, after: Graph) -> Edit {
    let mut edits: Vec<Edit> = after
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| before.nodes.get(*i) != Some(n))
        .map(|(index, n)| Edit::ReplaceNode { index, node: n.clone() })
        .collect();
    if Meta::of(&after) != Meta::of(before) {
        edits.push(Edit::SetMeta(Meta::of(&after)));
    }
    if after.definitions != before.definitions {
        edits.push(Edit::SetDefinitions(after.definitions));
    }
    Edit::Batch(edits)
}

fn check_name(doc: &Graph, name: &str) -> Result<(), DefinitionError> {
    if name.is_empty() {
        return Err(DefinitionError::Empty);
    }
    if !engine::plan::valid_id(name) {
        return Err(DefinitionError::Invalid(name.to_string()));
    }
    if doc.definitions.as_ref().is_some_and(|d| d.contains_key(name)) {
        return Err(DefinitionError::Taken(name.to_string()));
    }
    Ok(())
}

/// The document's own nodes and tools with `old` renamed in their uses (embedded graphs
/// included), as edits replacing what changed.
fn document_uses_renamed(doc: &Graph, old: &str, new: &str) -> Vec<Edit> {
    let mut edits: Vec<Edit> = doc
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(index, n)| {
            let mut node = n.clone();
            rename_node_uses(&mut node, old, new).then_some(Edit::ReplaceNode { index, node })
        })
        .collect();
    let mut meta = Meta::of(doc);
    if rename_tool_uses(&mut meta.tools, old, new) {
        edits.push(Edit::SetMeta(meta));
    }
    edits
}

/// Renames `old` to `new` in every use inside `g`; whether anything changed.
fn rename_uses(g: &mut Graph, old: &str, new: &str) -> bool {
    let mut changed = false;
    for n in &mut g.nodes {
        changed |= rename_node_uses(n, old, new);
    }
    changed | rename_tool_uses(&mut g.tools, old, new)
}

fn rename_node_uses(n: &mut Node, old: &str, new: &str) -> bool {
    if n.kind != NodeKind::Subgraph {
        return false;
    }
    let mut changed = false;
    if n.use_def.as_deref() == Some(old) {
        n.use_def = Some(new.to_string());
        changed = true;
    }
    if let Some(inner) = n.graph.as_deref_mut() {
        changed |= rename_uses(inner, old, new);
    }
    changed
}

fn rename_tool_uses(tools: &mut Option<IndexMap<String, engine::document::ToolDef>>, old: &str, new: &str) -> bool {
    let mut changed = false;
    for def in tools.iter_mut().flat_map(|t| t.values_mut()) {
        if def.run.use_def.as_deref() == Some(old) {
            def.run.use_def = Some(new.to_string());
            changed = true;
        }
    }
    changed
}

fn fresh_name(defs: &IndexMap<String, Graph>, base: &str) -> String {
    crate::model::editing::names::fresh_name(base, |n| defs.contains_key(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::editing::editor::{Editor, ScopeStep};
    use crate::model::editing::geometry::Point;
    use engine::document::{ToolDef, ToolRun};

    fn subgraph_using(id: &str, name: &str) -> Node {
        let mut n = Node::new(id, NodeKind::Subgraph);
        n.use_def = Some(name.into());
        n
    }

    /// A document with definitions `double` and `wrap` (which uses `double`), two nodes using
    /// `double` (one inside an embedded graph) and a tool using it.
    fn doc() -> Graph {
        let mut g = Graph::new("doc");
        g.nodes.insert(1, subgraph_using("first", "double"));
        let mut holder = Node::new("holder", NodeKind::Subgraph);
        let mut inner = Graph::new("inner");
        inner.nodes.insert(1, subgraph_using("deep", "double"));
        holder.graph = Some(Box::new(inner));
        g.nodes.insert(2, holder);
        let mut wrap = new_definition();
        wrap.nodes.insert(1, subgraph_using("again", "double"));
        let mut defs = IndexMap::new();
        defs.insert("double".to_string(), new_definition());
        defs.insert("wrap".to_string(), wrap);
        g.definitions = Some(defs);
        let tool = ToolDef {
            description: None,
            parameters: None,
            run: ToolRun { use_def: Some("double".into()), ..ToolRun::default() },
        };
        g.tools = Some(IndexMap::from([("twice".to_string(), tool)]));
        g
    }

    fn uses_of(g: &Graph, name: &str) -> Vec<String> {
        users(g, name).iter().map(User::to_string).collect()
    }

    #[test]
    fn the_list_counts_nodes_and_names_every_user_where_it_is() {
        let s = summaries(&doc());
        assert_eq!(s.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["double", "wrap"]);
        assert_eq!(s[0].nodes, 2);
        assert_eq!(s[1].nodes, 3);
        assert_eq!(
            uses_of(&doc(), "double"),
            ["node `first`", "node `deep` in subgraph `holder`", "tool `twice`", "node `again` in definition `wrap`"]
        );
        assert!(s[1].users.is_empty());
        assert_eq!(s[0].facts(), "2 nodes · used by 3 nodes and 1 tool");
        assert_eq!(s[1].facts(), "3 nodes · unused");
    }

    #[test]
    fn adding_gives_a_working_graph_under_a_fresh_name_and_undo_removes_it() {
        let mut ed = Editor::new(Graph::new("t"));
        for expected in ["definition", "definition_2"] {
            let (edit, name) = add(ed.document());
            assert_eq!(name, expected);
            ed.apply_to_document(edit);
        }
        let def = ed.definition("definition").unwrap();
        assert_eq!(def.nodes.len(), 2);
        assert!(engine::validate(def).iter().all(|d| !d.is_error()), "a new definition runs as it is");
        assert!(ed.undo());
        assert_eq!(names(ed.document()), ["definition"]);
        assert!(ed.undo());
        assert_eq!(ed.document().definitions.as_ref().map(IndexMap::len).unwrap_or(0), 0);
    }

    #[test]
    fn renaming_follows_every_use_in_one_undo_step() {
        let before = doc();
        let mut ed = Editor::new(before.clone());
        let edit = rename(ed.document(), "double", "twofold").unwrap().unwrap();
        ed.apply_to_document(edit);
        let g = ed.document();
        assert_eq!(names(g), ["twofold", "wrap"], "the renamed definition keeps its place");
        assert!(uses_of(g, "double").is_empty());
        assert_eq!(uses_of(g, "twofold").len(), 4);
        assert_eq!(g.node("first").unwrap().use_def.as_deref(), Some("twofold"));
        assert_eq!(g.tools.as_ref().unwrap()["twice"].run.use_def.as_deref(), Some("twofold"));
        assert!(ed.undo());
        assert_eq!(ed.document(), &before);
        assert!(!ed.can_undo(), "one step of undo");
    }

    #[test]
    fn a_bad_or_taken_name_is_refused_with_its_reason() {
        let g = doc();
        assert_eq!(rename(&g, "double", " ").unwrap_err(), DefinitionError::Empty);
        assert_eq!(rename(&g, "double", "a b").unwrap_err(), DefinitionError::Invalid("a b".into()));
        assert_eq!(rename(&g, "double", "wrap").unwrap_err(), DefinitionError::Taken("wrap".into()));
        assert_eq!(rename(&g, "ghost", "x").unwrap_err(), DefinitionError::Unknown("ghost".into()));
        assert!(rename(&g, "double", "double").unwrap().is_none());
    }

    #[test]
    fn a_used_definition_is_not_removed_and_the_refusal_says_by_whom() {
        let mut ed = Editor::new(doc());
        let err = remove(ed.document(), "double").unwrap_err();
        assert_eq!(
            err.to_string(),
            "Definition `double` is used by node `first`, node `deep` in subgraph `holder`, tool `twice`, \
             node `again` in definition `wrap`: make them use something else first"
        );
        ed.apply_to_document(remove(ed.document(), "wrap").unwrap());
        assert_eq!(names(ed.document()), ["double"]);
        assert!(ed.undo());
        assert_eq!(names(ed.document()), ["double", "wrap"]);
        let mut lone = Graph::new("t");
        lone.definitions = Some(IndexMap::from([("x".to_string(), new_definition())]));
        let Edit::SetDefinitions(after) = remove(&lone, "x").unwrap() else { panic!("not a definitions edit") };
        assert_eq!(after, None, "no empty `definitions` object is left in the document");
    }

    #[test]
    fn a_node_switches_between_a_definition_and_an_embedded_copy() {
        let g = doc();
        let mut node = Node::new("s", NodeKind::Subgraph);
        node.graph = Some(Box::new(Graph::new("mine")));
        let using = use_definition(&node, "wrap");
        assert_eq!((using.use_def.as_deref(), using.graph.is_none()), (Some("wrap"), true));
        let embedded = embed(&g, &using);
        assert_eq!(embedded.use_def, None);
        let copy = embedded.graph.as_deref().unwrap();
        assert_eq!(copy.nodes, g.definitions.as_ref().unwrap()["wrap"].nodes, "a copy of the definition");
        assert_eq!(copy.name.as_deref(), Some("wrap"));
        let fresh = embed(&g, &Node::new("s", NodeKind::Subgraph));
        assert_eq!(fresh.graph.unwrap().nodes.len(), 2);
    }

    #[test]
    fn a_definition_opens_for_editing_and_edits_land_in_it_with_undo() {
        let mut ed = Editor::new(doc());
        assert!(ed.open_definition("ghost").is_err());
        ed.open_definition("double").unwrap();
        assert_eq!(ed.scope_labels(), ["double"]);
        let id = ed.add_node(NodeKind::Set, Point::new(0.0, 100.0));
        assert!(ed.definition("double").unwrap().node(&id).is_some(), "the edit is in definitions.double");
        assert!(ed.document().node(&id).is_none());
        assert!(ed.leave().is_some());
        assert!(ed.scope().is_empty());
        assert!(ed.selection.nodes.is_empty());
        assert!(ed.undo());
        assert_eq!(ed.scope(), [ScopeStep::Definition("double".into())], "undo shows where the edit was");
        assert!(ed.graph().node(&id).is_none());
        assert!(ed.redo());
        assert!(ed.definition("double").unwrap().node(&id).is_some());
    }

    #[test]
    fn entering_a_node_that_uses_a_definition_edits_the_definition() {
        let mut ed = Editor::new(doc());
        ed.enter("holder").unwrap();
        ed.enter("deep").unwrap();
        assert_eq!(ed.scope_labels(), ["holder", "deep (double)"]);
        let id = ed.add_node(NodeKind::Script, Point::new(0.0, 100.0));
        // Every user of `double` now runs the changed graph.
        assert!(ed.definition("double").unwrap().node(&id).is_some());
        ed.leave_to(0);
        ed.enter("first").unwrap();
        assert!(ed.graph().node(&id).is_some());
        let mut broken = doc();
        broken.nodes[1].use_def = Some("ghost".into());
        let mut ed = Editor::new(broken);
        assert!(ed.enter("first").unwrap_err().contains("not one of the graph's definitions"));
    }

    #[test]
    fn making_an_embedded_graph_reusable_is_one_step_of_undo() {
        let before = doc();
        let mut ed = Editor::new(before.clone());
        let name = ed.make_reusable("holder").unwrap();
        assert_eq!(name, "holder");
        let g = ed.document();
        assert_eq!(g.node("holder").unwrap().use_def.as_deref(), Some("holder"));
        assert!(g.node("holder").unwrap().graph.is_none());
        assert!(ed.definition("holder").unwrap().node("deep").is_some());
        assert!(uses_of(ed.document(), "double").contains(&"node `deep` in definition `holder`".to_string()));
        assert!(ed.make_reusable("first").is_err(), "a node using a definition has no graph to make reusable");
        assert!(ed.undo());
        assert_eq!(ed.document(), &before);
        // From inside a definition too: the new definition sits beside it.
        let mut ed = Editor::new(before);
        ed.open_definition("wrap").unwrap();
        let id = ed.add_node(NodeKind::Subgraph, Point::new(0.0, 200.0));
        let name = ed.make_reusable(&id).unwrap();
        assert_eq!(names(ed.document()), ["double", "wrap", name.as_str()]);
        assert_eq!(ed.graph().node(&id).unwrap().use_def.as_deref(), Some(name.as_str()));
        assert_eq!(ed.scope(), [ScopeStep::Definition("wrap".into())]);
    }

    #[test]
    fn inside_a_definition_its_uses_of_others_are_checked_against_the_documents() {
        let mut ed = Editor::new(doc());
        ed.open_definition("wrap").unwrap();
        let found: Vec<String> = ed.diagnostics().iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
        assert!(found.is_empty(), "{found:?}");
        let mut node = ed.graph().node("again").unwrap().clone();
        node.use_def = Some("ghost".into());
        ed.update_node("again", node).unwrap();
        let found: Vec<String> = ed.diagnostics().iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
        assert!(found.iter().any(|d| d.contains("`ghost`")), "{found:?}");
        assert!(found.iter().all(|d| !d.contains("definitions.")), "only this graph's findings: {found:?}");
    }

    #[test]
    fn the_canvas_says_which_definition_a_node_uses() {
        assert_eq!(crate::model::editing::palette::summary(&subgraph_using("a", "double")), "uses definition double");
    }

    #[test]
    fn an_import_brings_its_definitions_and_undo_takes_them_away() {
        let mut ed = Editor::new(Graph::new("t"));
        ed.replace_graph(doc());
        assert_eq!(names(ed.document()), ["double", "wrap"]);
        assert!(ed.undo());
        assert_eq!(ed.document().definitions, None);
    }
}
