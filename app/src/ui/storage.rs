//! Saving graphs (spec section 7): in the browser's local storage through gloo-storage, or,
//! in the desktop app, as files (see [`super::desktop`]). Every failure is returned as a
//! message for the user; nothing here ever deletes a graph it cannot read.

use engine::Graph;
use gloo_storage::{LocalStorage, Storage};

use super::desktop;
use crate::model::library::{Entry, INDEX_KEY, Library, PREFIX, graph_key};

/// Why a write failed, in words a user can act on.
fn describe(e: &wasm_bindgen::JsValue) -> String {
    let name = js_sys::Reflect::get(e, &"name".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    if name == "QuotaExceededError" || name.contains("Quota") {
        "the browser's storage is full".into()
    } else if name.is_empty() {
        "the browser refused to store it".into()
    } else {
        format!("the browser refused to store it ({name})")
    }
}

pub fn now() -> f64 {
    js_sys::Date::now()
}

fn raw_get(key: &str) -> Option<String> {
    LocalStorage::raw().get_item(key).ok().flatten()
}

fn raw_set(key: &str, value: &str) -> Result<(), String> {
    LocalStorage::raw().set_item(key, value).map_err(|e| describe(&e))
}

/// Reads the library index. A missing or unreadable index is rebuilt from the graph keys
/// found in storage; graphs that cannot be read are left out and reported.
pub fn load_library() -> (Library, Vec<String>) {
    if desktop::is_desktop() {
        return desktop_library();
    }
    let mut problems = Vec::new();
    let mut library = match raw_get(INDEX_KEY).map(|t| serde_json::from_str::<Library>(&t)) {
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
    let storage = LocalStorage::raw();
    let mut library = Library::default();
    let len = storage.length().unwrap_or(0);
    let prefix = format!("{PREFIX}graph.");
    for i in 0..len {
        let Some(key) = storage.key(i).ok().flatten() else { continue };
        let Some(id) = key.strip_prefix(&prefix) else { continue };
        let name = raw_get(&key)
            .and_then(|t| engine::parse_graph(&t).ok())
            .map_or_else(|| id.to_string(), |g| g.display_name().to_string());
        library.entries.push(Entry { id: id.to_string(), name, updated: 0.0 });
    }
    library
}

/// The workflows folder as a library: one entry per file, unreadable files reported.
fn desktop_library() -> (Library, Vec<String>) {
    let mut library = Library::default();
    let mut problems = Vec::new();
    for e in desktop::entries() {
        match (&e.error, desktop::text(&e.file).map(|t| engine::parse_graph(&t))) {
            (Some(why), _) => problems.push(format!("The file {} could not be read and was skipped: {why}", e.file)),
            (None, Some(Ok(g))) => library.entries.push(Entry {
                id: e.file.clone(),
                name: g.display_name().to_string(),
                updated: e.modified_ms as f64,
            }),
            (None, Some(Err(why))) => {
                problems.push(format!("The file {} could not be read and was skipped: {why}", e.file))
            }
            (None, None) => problems.push(format!("The file {} could not be read and was skipped", e.file)),
        }
    }
    library.entries.sort_by(|a, b| b.updated.total_cmp(&a.updated));
    (library, problems)
}

/// A storage id for a new graph called `name`: a key in the browser, a file name on the
/// desktop.
pub fn new_id(library: &Library, name: &str) -> String {
    if desktop::is_desktop() { library.fresh_file_name(name) } else { library.fresh_id(name, now()) }
}

pub fn load_graph(id: &str) -> Result<Graph, String> {
    if desktop::is_desktop() {
        let text = desktop::text(id).ok_or("it is not in the workflows folder")?;
        return engine::parse_graph(&text).map_err(|e| e.to_string());
    }
    let text = raw_get(&graph_key(id)).ok_or("it is missing from storage")?;
    engine::parse_graph(&text).map_err(|e| e.to_string())
}

pub fn save_graph(id: &str, graph: &Graph) -> Result<(), String> {
    if desktop::is_desktop() {
        desktop::save(id, graph.to_pretty_json());
        return Ok(());
    }
    raw_set(&graph_key(id), &graph.to_pretty_json())
}

pub fn save_library(library: &Library) -> Result<(), String> {
    if desktop::is_desktop() {
        // On the desktop the folder is the library.
        return Ok(());
    }
    let text = serde_json::to_string(library).map_err(|e| e.to_string())?;
    raw_set(INDEX_KEY, &text)
}

pub fn delete_graph(id: &str) {
    if desktop::is_desktop() {
        return desktop::delete(id);
    }
    let _ = LocalStorage::raw().remove_item(&graph_key(id));
}

/// A small setting (theme, last open graph…), best effort.
pub fn get_setting(name: &str) -> Option<String> {
    raw_get(&format!("{PREFIX}setting.{name}"))
}

pub fn set_setting(name: &str, value: &str) {
    let _ = raw_set(&format!("{PREFIX}setting.{name}"), value);
}
