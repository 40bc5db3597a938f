//! Saved graphs in local storage (README, The editor): the library index under
//! `switchyard.index`, each graph under `switchyard.graph.<id>`. Nothing here ever deletes a
//! graph it cannot read.

use engine::Graph;

use super::local;
use crate::model::storage::library::{Entry, INDEX_KEY, Library, PREFIX, graph_key};
use crate::platform::{Place, StorageError};

/// Reads the library index. A missing or unreadable index is rebuilt from the graph keys
/// found in storage; graphs that cannot be read are left out and reported.
pub fn load_library() -> (Library, Vec<String>) {
    let mut problems = Vec::new();
    let mut library = match local::get(INDEX_KEY).map(|t| serde_json::from_str::<Library>(&t)) {
        Some(Ok(lib)) => lib,
        Some(Err(_)) => {
            problems.push("The list of saved graphs was damaged; it has been rebuilt from the graphs found.".into());
            rebuild_index()
        }
        None => rebuild_index(),
    };
    library.entries.retain(|e| match load_graph(&e.id) {
        Ok(_) => true,
        Err(why) => {
            problems.push(format!("The saved graph “{}” could not be read and was skipped: {why}", e.name));
            false
        }
    });
    (library, problems)
}

fn rebuild_index() -> Library {
    let mut library = Library::default();
    let prefix = format!("{PREFIX}graph.");
    for key in local::keys() {
        let Some(id) = key.strip_prefix(&prefix) else { continue };
        let name = local::get(&key)
            .and_then(|t| engine::parse_graph(&t).ok())
            .map_or_else(|| id.to_string(), |g| g.display_name().to_string());
        library.entries.push(Entry { id: id.to_string(), name, updated: 0.0 });
    }
    library
}

pub fn load_graph(id: &str) -> Result<Graph, StorageError> {
    let text = local::get(&graph_key(id)).ok_or(StorageError::Missing(Place::BrowserGraphs))?;
    engine::parse_graph(&text).map_err(|e| StorageError::Unreadable(e.to_string()))
}

pub fn save_graph(id: &str, graph: &Graph) -> Result<(), StorageError> {
    local::set(&graph_key(id), &graph.to_pretty_json())
}

pub fn save_library(library: &Library) -> Result<(), StorageError> {
    let text = serde_json::to_string(library).map_err(|e| StorageError::Encoding(e.to_string()))?;
    local::set(INDEX_KEY, &text)
}

pub fn delete_graph(id: &str) {
    local::remove(&graph_key(id));
    // Its tests go with it.
    local::remove(&crate::model::storage::library::suite_key(id));
}
