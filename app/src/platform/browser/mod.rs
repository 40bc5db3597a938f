//! The editor in a browser tab: graphs, runs and settings in the browser's local storage
//! (README, The editor), model calls with `fetch`.
//!
//! | module | what it holds |
//! |---|---|
//! | `local` | reading and writing local-storage keys; a refused write said in words |
//! | `graphs` | the library index and one key per graph |
//! | `runs` | saved runs, compressed, one key each, and an index per graph |
//! | `suites` | each graph's test suite under one key |
//! | `keys` | provider keys, one per origin, and the Base URL |
//! | `fetch_host` | the engine's host: clock, timers, `fetch` with the origin's key added |
//! | `fetch` | one `fetch`: credentials never redirected, aborted when its time is up |
//! | `mcp` | MCP Streamable HTTP over `fetch`; programs and servers that refuse pages said plainly |
//! | `stream` | a response body read as it arrives, decoded across split characters |
//! | `fetch_error` | why a request or its body failed, in words |

mod fetch;
mod fetch_error;
mod fetch_host;
mod graphs;
mod keys;
mod local;
mod mcp;
mod runs;
mod stream;
mod suites;

use engine::Graph;
use engine::host::{Host, LocalBoxFuture};

use keys::BASE_URL_SETTING;

use super::{ModelSettings, Platform, StorageError, Wording};
use crate::model::storage::doc_id::DocId;
use crate::model::storage::keys::{OriginKey, Provider};
use crate::model::storage::library::Library;
use crate::model::storage::saved_run::{RunSummary, SavedRun};

pub struct Browser;

impl Platform for Browser {
    fn load_library(&self) -> (Library, Vec<String>) {
        graphs::load_library()
    }

    fn save_library(&self, library: &Library) -> Result<(), StorageError> {
        graphs::save_library(library)
    }

    fn new_id(&self, library: &Library, name: &str) -> DocId {
        DocId::Library(library.fresh_id(name, self.now()))
    }

    fn load_graph(&self, id: &DocId) -> Result<Graph, StorageError> {
        graphs::load_graph(&id.to_string())
    }

    fn save_graph(&self, id: &DocId, graph: &Graph) -> Result<(), StorageError> {
        graphs::save_graph(&id.to_string(), graph)
    }

    fn delete_graph(&self, id: &DocId) {
        graphs::delete_graph(&id.to_string());
    }

    fn list_runs(&self, graph: &DocId) -> Vec<RunSummary> {
        runs::list(&graph.to_string())
    }

    fn load_run(&self, graph: &DocId, run: &str) -> Result<SavedRun, StorageError> {
        runs::load(&graph.to_string(), run)
    }

    fn save_run(&self, graph: &DocId, saved: &SavedRun) -> Result<Vec<String>, StorageError> {
        runs::save(&graph.to_string(), saved, self.now())
    }

    fn delete_run(&self, graph: &DocId, run: &str) {
        runs::delete(&graph.to_string(), run);
    }

    fn run_bytes(&self, graph: &DocId) -> usize {
        runs::bytes_used(&graph.to_string())
    }

    fn load_suite(&self, graph: &DocId) -> LocalBoxFuture<'static, Result<Option<String>, StorageError>> {
        let text = suites::load(&graph.to_string());
        Box::pin(async move { Ok(text) })
    }

    fn save_suite(&self, graph: &DocId, text: String) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        let saved = suites::save(&graph.to_string(), &text);
        Box::pin(async move { saved })
    }

    fn preference(&self, name: &str) -> Option<String> {
        local::get_setting(name)
    }

    fn set_preference(&self, name: &str, value: &str) {
        local::set_setting(name, value);
    }

    fn model_settings(&self) -> LocalBoxFuture<'static, ModelSettings> {
        let s = ModelSettings {
            base_url: local::get_setting(BASE_URL_SETTING).unwrap_or_default(),
            key_origins: keys::load().into_iter().map(|k| (k.origin, k.provider)).collect(),
            note: String::new(),
        };
        Box::pin(async move { s })
    }

    fn save_model_settings(
        &self,
        base_url: String,
        new_key: Option<OriginKey>,
    ) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        local::set_setting(BASE_URL_SETTING, &base_url);
        let saved = new_key.map_or(Ok(()), keys::add);
        Box::pin(async move { saved })
    }

    fn remove_key(&self, origin: String, provider: Provider) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        let removed = keys::remove(&origin, provider);
        Box::pin(async move { removed })
    }

    fn wording(&self) -> Wording {
        Wording {
            settings_saved: "Settings saved in this browser",
            base_url_hint: "Replaces the OpenAI address, e.g. http://127.0.0.1:11434/v1 for Ollama. The server must allow requests from this page (CORS).",
        }
    }

    fn has_files(&self) -> bool {
        false
    }

    fn open_file(&self) -> LocalBoxFuture<'static, Result<Option<(DocId, String)>, StorageError>> {
        Box::pin(async { Ok(None) })
    }

    fn save_file_as(
        &self,
        _suggested: String,
        _text: String,
    ) -> LocalBoxFuture<'static, Result<Option<DocId>, StorageError>> {
        Box::pin(async { Ok(None) })
    }

    fn changed_on_disk(&self, _id: &DocId) -> LocalBoxFuture<'static, Option<String>> {
        Box::pin(async { None })
    }

    fn title(&self, name: &str, _id: &DocId, _unsaved: bool) -> String {
        // Work is saved within a moment of each change: no unsaved marker.
        format!("{name} — Switchyard")
    }

    fn set_title(&self, title: &str) {
        leptos::prelude::document().set_title(title);
    }

    fn on_background_error(&self, _hook: Box<dyn Fn(String)>) {
        // Every browser write is synchronous and reports its own failure.
    }

    fn host(&self) -> Box<dyn Host> {
        Box::new(fetch_host::BrowserHost::from_settings())
    }

    fn key_origins(&self) -> crate::model::storage::keys::KeyTable {
        keys::table().without_keys()
    }
}
