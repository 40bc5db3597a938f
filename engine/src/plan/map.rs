//! Map edges (format.md §5, map edges): an edge whose `map` gives a list runs its target once per item.
//! Checked here: the list expression compiles, the item's name (`as`) is a name a script can
//! use and hides none of the scope's own, and the target is a node that can run as several
//! instances. Also worked out here: which names each target's expressions see.

use std::sync::Arc;

use crate::document::{Graph, Join, NodeKind};
use crate::plan::check::Checker;
use crate::plan::graph::Ids;
use crate::plan::types::MapEdge;
use crate::plan::{DEFAULT_ITEM_NAME, INDEX_NAME};
use crate::script::{SCOPE_NAMES, Scripting};

impl Checker {
    /// Checks edge `j`'s `map` and `as`, and compiles the list expression (none when the
    /// edge has no map or it has an error).
    pub(super) fn map_edge(&mut self, graph: &Graph, ids: &Ids<'_>, s: &Scripting, j: usize) -> Option<MapEdge> {
        let e = &graph.edges[j];
        let Some(src) = &e.map else {
            if e.as_name.is_some() {
                let message = "has no effect without `map` (it names the item of a map edge)".to_string();
                self.warn(format!("edges[{j}].as"), message, None, Some(j));
            }
            return None;
        };
        let target_ok = self.map_target(graph, ids, j);
        let name = e.as_name.as_deref().unwrap_or(DEFAULT_ITEM_NAME);
        let name_ok = self.item_name(s, name, j);
        let list = self.expr(s, src, format!("edges[{j}].map"), None, Some(j), &[]);
        if target_ok && name_ok { list.map(|list| MapEdge { list, name: Arc::from(name) }) } else { None }
    }

    /// The target of map edge `j` can run once per item: not `end`, a human node or a
    /// `join: all` node. Whether it can.
    fn map_target(&mut self, graph: &Graph, ids: &Ids<'_>, j: usize) -> bool {
        let e = &graph.edges[j];
        let Some(target) = ids.get(e.to.as_str()).map(|&i| &graph.nodes[i]) else {
            // An unknown target is reported with the edge's endpoints.
            return true;
        };
        let why = match target.kind {
            NodeKind::End => "`end` never runs, so there is nothing to run once per item; map into a node before it",
            NodeKind::Human => {
                "a human node waits for one answer per node, so it cannot run once per item; map into the nodes that prepare the question and ask once after them"
            }
            _ if target.join == Some(Join::All) => {
                "a `join: all` node runs once, after all its predecessors (map instances included); map into a node before it"
            }
            _ => return true,
        };
        self.error(format!("edges[{j}].map"), format!("cannot map into `{}`: {why}", target.id), None, Some(j));
        false
    }

    /// The item's name is one a script can use as a variable and is not one of the scope's
    /// own names. Whether it is.
    fn item_name(&mut self, s: &Scripting, name: &str, j: usize) -> bool {
        let path = format!("edges[{j}].as");
        if SCOPE_NAMES.contains(&name) || name == INDEX_NAME {
            let message =
                format!("`{name}` would hide the `{name}` every expression of the target sees; choose another name");
            self.error(path, message, None, Some(j));
            return false;
        }
        let identifier = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        // Rhai's keywords (`let`, `fn`, `true`…) look like identifiers but cannot name a
        // variable: a name is usable when it reads as a variable in scope and as nothing
        // without one.
        let usable = identifier && s.compile(name, &[name]).is_ok() && s.compile(name, &[]).is_err();
        if !usable {
            let message = format!(
                "`{name}` is not a name a script can use: use letters, digits and `_`, starting with a letter or `_`, and not a keyword"
            );
            self.error(path, message, None, Some(j));
        }
        usable
    }
}

/// For each node (by document index), the names its map items take: the `as` of every map
/// edge into it, once each, in edge order. Empty for a node no map edge leads to. Taken from
/// the document as written, so that a target's expressions are checked with the names its
/// edges give even while one of those edges has an error.
pub(super) fn item_names(graph: &Graph, ids: &Ids<'_>) -> Vec<Vec<Arc<str>>> {
    let mut names: Vec<Vec<Arc<str>>> = vec![Vec::new(); graph.nodes.len()];
    for e in graph.edges.iter().filter(|e| e.map.is_some()) {
        let name = e.as_name.as_deref().unwrap_or(DEFAULT_ITEM_NAME);
        if let Some(&t) = ids.get(e.to.as_str())
            && !names[t].iter().any(|n| &**n == name)
        {
            names[t].push(Arc::from(name));
        }
    }
    names
}
