//! The graph's tools (format.md §4 (llm, tools) and §8) as the inspector edits them: adding one, renaming or removing
//! it together with the `llm` nodes that offer it, switching how it runs, and ticking it in
//! a node's `tools`. Every operation gives an [`Edit`], so one gesture is one step of undo.

use engine::document::{NodeKind, ToolDef, ToolHttp, ToolMcp, ToolRun};
use engine::{Graph, Node};
use indexmap::IndexMap;
use serde_json::json;

use crate::model::editing::edit::{Edit, Meta};

/// Why a tool cannot take a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolNameError {
    Empty,
    /// Models accept 1 to 64 letters, digits, `_` and `-`.
    Invalid(String),
    Taken(String),
}

impl std::fmt::Display for ToolNameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToolNameError::Empty => f.write_str("A tool needs a name"),
            ToolNameError::Invalid(n) => {
                write!(f, "`{n}` is not a valid tool name: use 1 to 64 letters, digits, `_` or `-`")
            }
            ToolNameError::Taken(n) => write!(f, "There is already a tool `{n}`"),
        }
    }
}

impl std::error::Error for ToolNameError {}

/// How a tool call runs: the choice the inspector offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    Script,
    Http,
    /// One of the document's definitions, run with the call's arguments as its input.
    Definition,
    /// A tool of one of the graph's MCP servers.
    Mcp,
}

impl RunKind {
    pub fn name(self) -> &'static str {
        match self {
            RunKind::Script => "script",
            RunKind::Http => "http",
            RunKind::Definition => "use",
            RunKind::Mcp => "mcp",
        }
    }

    pub fn from_name(name: &str) -> Option<RunKind> {
        [RunKind::Script, RunKind::Http, RunKind::Definition, RunKind::Mcp].into_iter().find(|k| k.name() == name)
    }

    /// What `run` holds; an MCP tool wins over a definition, a definition over a request, and
    /// a request over a script, when (wrongly) several are given.
    pub fn of(run: &ToolRun) -> RunKind {
        if run.mcp.is_some() {
            RunKind::Mcp
        } else if run.use_def.is_some() {
            RunKind::Definition
        } else if run.http.is_some() {
            RunKind::Http
        } else {
            RunKind::Script
        }
    }

    /// Whether `run` holds this kind alone.
    fn only(self, run: &ToolRun) -> bool {
        let given = [run.script.is_some(), run.http.is_some(), run.use_def.is_some(), run.mcp.is_some()];
        RunKind::of(run) == self && given.iter().filter(|g| **g).count() <= 1
    }
}

/// A new tool that works as it is: no arguments, and a script answering `"ok"`.
pub fn new_tool() -> ToolDef {
    ToolDef {
        description: None,
        parameters: Some(json!({ "type": "object", "properties": {} })),
        run: ToolRun { script: Some("\"ok\"".into()), ..ToolRun::default() },
    }
}

/// Switches how the tool runs, starting the other kind from a working example (a definition:
/// `first`, the document's first; an MCP tool: the graph's first server, `first`, and a tool
/// of the tool's own name). Nothing changes when it already runs that way.
pub fn set_run_kind(def: &mut ToolDef, kind: RunKind, first: Option<&str>) {
    if kind.only(&def.run) {
        return;
    }
    def.run = match kind {
        RunKind::Script => ToolRun { script: Some("\"ok\"".into()), ..ToolRun::default() },
        RunKind::Http => ToolRun {
            http: Some(ToolHttp {
                method: Some("GET".into()),
                url: "https://example.com/api?q={{ args.query }}".into(),
                headers: None,
                body: None,
            }),
            ..ToolRun::default()
        },
        RunKind::Definition => ToolRun { use_def: Some(first.unwrap_or_default().to_string()), ..ToolRun::default() },
        RunKind::Mcp => ToolRun {
            mcp: Some(ToolMcp { server: first.unwrap_or_default().to_string(), tool: None }),
            ..ToolRun::default()
        },
    };
}

/// Adds a new tool named `tool` (or `tool_2`…) after the others; gives the edit and the name.
pub fn add(graph: &Graph) -> (Edit, String) {
    let mut meta = Meta::of(graph);
    let tools = meta.tools.get_or_insert_with(IndexMap::new);
    let name = fresh_name(tools, "tool");
    tools.insert(name.clone(), new_tool());
    (Edit::SetMeta(meta), name)
}

/// Changes one tool's definition; `None` when there is no such tool or nothing changes.
pub fn update(graph: &Graph, name: &str, f: impl FnOnce(&mut ToolDef)) -> Option<Edit> {
    let mut meta = Meta::of(graph);
    let def = meta.tools.as_mut()?.get_mut(name)?;
    let before = def.clone();
    f(def);
    (*def != before).then_some(Edit::SetMeta(meta))
}

/// Renames a tool in place (keeping its position) and in every `llm` node offering it.
/// `Ok(None)`: the name did not change.
pub fn rename(graph: &Graph, old: &str, new: &str) -> Result<Option<Edit>, ToolNameError> {
    let new = new.trim();
    if new == old {
        return Ok(None);
    }
    check_name(graph, new)?;
    let mut meta = Meta::of(graph);
    let Some(tools) = meta.tools.take() else { return Ok(None) };
    meta.tools = Some(tools.into_iter().map(|(k, d)| if k == old { (new.to_string(), d) } else { (k, d) }).collect());
    let mut edits = vec![Edit::SetMeta(meta)];
    edits.extend(change_offers(graph, old, |list| {
        list.iter_mut().filter(|t| *t == old).for_each(|t| *t = new.to_string());
    }));
    Ok(Some(Edit::Batch(edits)))
}

/// Removes a tool, and takes it off every `llm` node that offered it.
pub fn remove(graph: &Graph, name: &str) -> Option<Edit> {
    let mut meta = Meta::of(graph);
    meta.tools.as_mut()?.shift_remove(name)?;
    if meta.tools.as_ref().is_some_and(IndexMap::is_empty) {
        meta.tools = None;
    }
    let mut edits = vec![Edit::SetMeta(meta)];
    edits.extend(change_offers(graph, name, |list| list.retain(|t| t != name)));
    Some(Edit::Batch(edits))
}

/// Ticks or unticks tool `name` in a node's `tools`, keeping the graph's order of tools for
/// the ones it defines (names it does not define stay where they were, at the end).
pub fn offer(graph: &Graph, node: &Node, name: &str, on: bool) -> Node {
    let mut n = node.clone();
    let mut list = n.tools.take().unwrap_or_default();
    list.retain(|t| t != name);
    if on {
        list.push(name.to_string());
    }
    let defined: Vec<&String> = graph.tools.iter().flat_map(IndexMap::keys).collect();
    list.sort_by_key(|t| defined.iter().position(|d| *d == t).unwrap_or(usize::MAX));
    n.tools = (!list.is_empty()).then_some(list);
    n
}

/// The names a node offers, the graph's tools first in their order, then names the graph
/// does not define (shown so they can be unticked).
pub fn choices(graph: &Graph, node: &Node) -> Vec<(String, bool)> {
    let offered = node.tools.clone().unwrap_or_default();
    let mut out: Vec<(String, bool)> = Vec::new();
    for name in graph.tools.iter().flat_map(IndexMap::keys) {
        out.push((name.clone(), true));
    }
    for name in offered {
        if !out.iter().any(|(n, _)| *n == name) {
            out.push((name, false));
        }
    }
    out
}

fn check_name(graph: &Graph, name: &str) -> Result<(), ToolNameError> {
    if name.is_empty() {
        return Err(ToolNameError::Empty);
    }
    if !engine::plan::valid_id(name) {
        return Err(ToolNameError::Invalid(name.to_string()));
    }
    if graph.tools.as_ref().is_some_and(|t| t.contains_key(name)) {
        return Err(ToolNameError::Taken(name.to_string()));
    }
    Ok(())
}

/// Replaces each `llm` node whose `tools` name `tool`, with `f` applied to its list (an
/// emptied list is dropped).
fn change_offers(graph: &Graph, tool: &str, f: impl Fn(&mut Vec<String>)) -> Vec<Edit> {
    graph
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.kind == NodeKind::Llm && n.tools.as_ref().is_some_and(|t| t.iter().any(|x| x == tool)))
        .map(|(index, n)| {
            let mut node = n.clone();
            let mut list = node.tools.take().unwrap_or_default();
            f(&mut list);
            node.tools = (!list.is_empty()).then_some(list);
            Edit::ReplaceNode { index, node }
        })
        .collect()
}

fn fresh_name(tools: &IndexMap<String, ToolDef>, base: &str) -> String {
    crate::model::editing::names::fresh_name(base, |n| tools.contains_key(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::editing::editor::Editor;

    fn agent() -> Graph {
        let mut g = Graph::new("agent");
        let mut llm = Node::new("agent", NodeKind::Llm);
        llm.tools = Some(vec!["search".into(), "clock".into()]);
        g.nodes.push(llm);
        let mut other = Node::new("other", NodeKind::Llm);
        other.tools = Some(vec!["clock".into()]);
        g.nodes.push(other);
        let mut tools = IndexMap::new();
        tools.insert("search".to_string(), new_tool());
        tools.insert("clock".to_string(), new_tool());
        g.tools = Some(tools);
        g
    }

    fn tool_names(g: &Graph) -> Vec<String> {
        g.tools.iter().flat_map(IndexMap::keys).cloned().collect()
    }

    fn offers(g: &Graph, id: &str) -> Option<Vec<String>> {
        g.node(id).unwrap().tools.clone()
    }

    #[test]
    fn adding_gives_fresh_names_and_one_undo_step() {
        let mut ed = Editor::new(Graph::new("t"));
        for expected in ["tool", "tool_2", "tool_3"] {
            let (edit, name) = add(ed.graph());
            assert_eq!(name, expected);
            ed.apply(edit);
        }
        assert_eq!(tool_names(ed.graph()), ["tool", "tool_2", "tool_3"]);
        assert!(ed.undo());
        assert_eq!(tool_names(ed.graph()), ["tool", "tool_2"]);
    }

    #[test]
    fn renaming_keeps_the_place_and_follows_into_nodes_and_undo_restores_both() {
        let before = agent();
        let mut ed = Editor::new(before.clone());
        let edit = rename(ed.graph(), "search", "web_search").unwrap().unwrap();
        ed.apply(edit);
        assert_eq!(tool_names(ed.graph()), ["web_search", "clock"]);
        assert_eq!(offers(ed.graph(), "agent").unwrap(), ["web_search", "clock"]);
        assert_eq!(offers(ed.graph(), "other").unwrap(), ["clock"]);
        assert!(ed.undo());
        assert_eq!(ed.graph(), &before);
    }

    #[test]
    fn a_bad_or_taken_name_is_refused_with_its_reason() {
        let g = agent();
        assert_eq!(rename(&g, "search", " ").unwrap_err(), ToolNameError::Empty);
        assert_eq!(rename(&g, "search", "two words").unwrap_err(), ToolNameError::Invalid("two words".into()));
        assert_eq!(rename(&g, "search", "clock").unwrap_err(), ToolNameError::Taken("clock".into()));
        assert!(rename(&g, "search", "search").unwrap().is_none());
        assert_eq!(ToolNameError::Taken("clock".into()).to_string(), "There is already a tool `clock`");
    }

    #[test]
    fn removing_takes_the_tool_off_nodes_and_drops_emptied_lists() {
        let before = agent();
        let mut ed = Editor::new(before.clone());
        ed.apply(remove(ed.graph(), "clock").unwrap());
        assert_eq!(tool_names(ed.graph()), ["search"]);
        assert_eq!(offers(ed.graph(), "agent").unwrap(), ["search"]);
        assert_eq!(offers(ed.graph(), "other"), None);
        ed.apply(remove(ed.graph(), "search").unwrap());
        assert_eq!(ed.graph().tools, None, "no empty `tools` object is left in the document");
        assert!(remove(ed.graph(), "search").is_none());
        assert!(ed.undo() && ed.undo());
        assert_eq!(ed.graph(), &before);
    }

    #[test]
    fn updating_a_definition_is_one_edit_and_no_change_is_none() {
        let mut ed = Editor::new(agent());
        assert!(update(ed.graph(), "search", |_| {}).is_none());
        assert!(update(ed.graph(), "ghost", |d| d.description = Some("x".into())).is_none());
        ed.apply(update(ed.graph(), "search", |d| d.description = Some("Searches".into())).unwrap());
        assert_eq!(ed.graph().tools.as_ref().unwrap()["search"].description.as_deref(), Some("Searches"));
        assert!(ed.undo());
        assert_eq!(ed.graph().tools.as_ref().unwrap()["search"].description, None);
    }

    #[test]
    fn switching_the_run_kind_starts_from_a_working_example() {
        let mut def = new_tool();
        assert_eq!(RunKind::of(&def.run), RunKind::Script);
        def.run.script = Some("args.x".into());
        set_run_kind(&mut def, RunKind::Script, None);
        assert_eq!(def.run.script.as_deref(), Some("args.x"), "the same kind keeps the script");
        set_run_kind(&mut def, RunKind::Http, None);
        assert_eq!(RunKind::of(&def.run), RunKind::Http);
        assert_eq!(def.run.script, None, "a tool runs one way only");
        assert!(def.run.http.as_ref().unwrap().url.starts_with("https://"));
        set_run_kind(&mut def, RunKind::Script, None);
        assert_eq!(def.run.http, None);
        set_run_kind(&mut def, RunKind::Definition, Some("summarize"));
        assert_eq!(RunKind::of(&def.run), RunKind::Definition);
        assert_eq!(def.run, ToolRun { use_def: Some("summarize".into()), ..ToolRun::default() });
        set_run_kind(&mut def, RunKind::Definition, Some("other"));
        assert_eq!(def.run.use_def.as_deref(), Some("summarize"), "the same kind keeps its definition");
        set_run_kind(&mut def, RunKind::Script, None);
        assert_eq!(def.run.use_def, None);
        assert_eq!(RunKind::from_name("use"), Some(RunKind::Definition));
        assert_eq!(RunKind::from_name("http"), Some(RunKind::Http));
        assert_eq!(RunKind::from_name("ftp"), None);
        set_run_kind(&mut def, RunKind::Mcp, Some("memory"));
        assert_eq!(RunKind::of(&def.run), RunKind::Mcp);
        assert_eq!(
            def.run,
            ToolRun { mcp: Some(ToolMcp { server: "memory".into(), tool: None }), ..ToolRun::default() }
        );
        assert_eq!(RunKind::from_name("mcp"), Some(RunKind::Mcp));
    }

    #[test]
    fn ticking_a_tool_keeps_the_graphs_order_and_unknown_names_stay_listed() {
        let g = agent();
        let mut n = Node::new("x", NodeKind::Llm);
        n = offer(&g, &n, "clock", true);
        n = offer(&g, &n, "search", true);
        assert_eq!(n.tools.clone().unwrap(), ["search", "clock"]);
        n.tools.as_mut().unwrap().insert(0, "gone".into());
        assert_eq!(
            choices(&g, &n),
            [("search".to_string(), true), ("clock".to_string(), true), ("gone".to_string(), false)]
        );
        n = offer(&g, &n, "gone", false);
        n = offer(&g, &n, "search", false);
        assert_eq!(n.tools.clone().unwrap(), ["clock"]);
        n = offer(&g, &n, "clock", false);
        assert_eq!(n.tools, None);
    }

    #[test]
    fn an_import_keeps_the_tools() {
        let mut ed = Editor::new(Graph::new("t"));
        ed.replace_graph(agent());
        assert_eq!(tool_names(ed.graph()), ["search", "clock"]);
        assert!(ed.undo());
        assert_eq!(ed.graph().tools, None);
    }
}
