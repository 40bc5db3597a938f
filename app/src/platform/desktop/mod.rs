//! The editor inside the Tauri desktop app: graphs are files of a workflows folder (and any
//! file the user picks), runs are files beside them, the model settings live in the app's
//! settings file, and requests go out natively. Everything goes through the app's commands.
//!
//! | module | what it holds |
//! |---|---|
//! | `ipc` | calling a command of `switchyard-ipc`, errors as [`ipc::IpcError`] |
//! | `cache` | the workflows folder read at start-up; writes in the background |
//! | `host` | the engine's host, HTTP through the app |
//! | `stream` | a model's reply streamed back through a Tauri channel |
//! | `reply` | a request command's answer, as the engine takes it |

mod cache;
mod host;
mod ipc;
mod reply;
mod stream;

use engine::Graph;
use engine::host::{Host, LocalBoxFuture};
use switchyard_ipc as cmd;

use super::{ModelSettings, Place, Platform, StorageError, Wording};
use crate::model::storage::doc_id::DocId;
use crate::model::storage::keys::{OriginKey, Provider};
use crate::model::storage::library::{Entry, Library};
use crate::model::storage::saved_run::{MAX_RUNS_PER_GRAPH, RunSummary, SavedRun, evicted_notice, newest_first};

/// Whether the editor runs inside the desktop app.
pub fn detected() -> bool {
    ipc::available()
}

pub struct Desktop;

impl Desktop {
    /// Reads the workflows folder before the editor starts; returns problems to report.
    pub async fn start() -> (Desktop, Vec<String>) {
        let mut problems = cache::preload().await;
        if let Some(mut s) = settings().await {
            // The alerts are not up yet: told with the other problems found at start.
            problems.append(&mut s.notices);
        }
        (Desktop, problems)
    }
}

/// The app's settings; which origins have keys is kept for the engine's host. Notices about
/// the settings file (a damaged one set aside) are left in them for the caller to tell.
async fn settings() -> Option<cmd::PublicSettings> {
    let s = ipc::call(&cmd::GetSettings {}).await.ok()?;
    host::remember(&s);
    Some(s)
}

/// [`settings`], with its notices told as alerts.
async fn settings_told() -> Option<cmd::PublicSettings> {
    let mut s = settings().await?;
    for notice in std::mem::take(&mut s.notices) {
        cache::report(notice);
    }
    Some(s)
}

/// Reads again which origins have keys, for the engine's host.
async fn refresh_keys() {
    settings_told().await;
}

/// Reads the saved runs of a graph file opened from elsewhere, before the editor shows it
/// (the folder's graphs have theirs read at start-up).
async fn runs_of_file(id: &DocId) {
    if let DocId::File(_) = id {
        cache::load_runs_of_file(id.to_string()).await;
    }
}

fn storage_error(e: ipc::IpcError) -> StorageError {
    StorageError::Desktop(e.to_string())
}

impl Platform for Desktop {
    /// The workflows folder as a library: one entry per file, unreadable files reported.
    fn load_library(&self) -> (Library, Vec<String>) {
        let mut library = Library::default();
        let mut problems = Vec::new();
        for e in cache::entries() {
            let text = cache::text(&DocId::Library(e.file.clone()));
            match (&e.error, text.map(|t| engine::parse_graph(&t))) {
                (Some(why), _) => {
                    problems.push(format!("The file {} could not be read and was skipped: {why}", e.file))
                }
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

    fn save_library(&self, _library: &Library) -> Result<(), StorageError> {
        // On the desktop the folder is the library.
        Ok(())
    }

    fn new_id(&self, library: &Library, name: &str) -> DocId {
        DocId::Library(library.fresh_file_name(name))
    }

    fn load_graph(&self, id: &DocId) -> Result<Graph, StorageError> {
        let text = cache::text(id).ok_or(StorageError::Missing(Place::WorkflowsFolder))?;
        engine::parse_graph(&text).map_err(|e| StorageError::Unreadable(e.to_string()))
    }

    fn save_graph(&self, id: &DocId, graph: &Graph) -> Result<(), StorageError> {
        cache::save(id, graph.to_pretty_json());
        Ok(())
    }

    fn delete_graph(&self, id: &DocId) {
        if let DocId::Library(file) = id {
            cache::delete(file);
        }
    }

    fn list_runs(&self, graph: &DocId) -> Vec<RunSummary> {
        let mut runs: Vec<(String, RunSummary)> = cache::runs(&graph.to_string())
            .into_iter()
            .filter_map(|(id, text)| serde_json::from_str::<SavedRun>(&text).ok().map(|s| (id, s.summary(0.0))))
            .collect();
        newest_first(&mut runs);
        runs.into_iter().map(|(_, s)| s).collect()
    }

    fn load_run(&self, graph: &DocId, run: &str) -> Result<SavedRun, StorageError> {
        let text = cache::runs(&graph.to_string()).remove(run).ok_or(StorageError::Missing(Place::RunsFolder))?;
        serde_json::from_str(&text).map_err(|e| StorageError::Damaged(e.to_string()))
    }

    fn save_run(&self, graph: &DocId, saved: &SavedRun) -> Result<Vec<String>, StorageError> {
        let file = graph.to_string();
        let text = serde_json::to_string_pretty(saved).map_err(|e| StorageError::Encoding(e.to_string()))?;
        cache::save_run(&file, &saved.record.run_id, text);
        let mut notices = Vec::new();
        for old in self.list_runs(graph).iter().skip(MAX_RUNS_PER_GRAPH) {
            cache::delete_run(&file, &old.run_id);
            notices.push(evicted_notice(&old.run_id));
        }
        Ok(notices)
    }

    fn delete_run(&self, graph: &DocId, run: &str) {
        cache::delete_run(&graph.to_string(), run);
    }

    fn run_bytes(&self, graph: &DocId) -> usize {
        cache::runs(&graph.to_string()).values().map(String::len).sum()
    }

    fn load_suite(&self, graph: &DocId) -> LocalBoxFuture<'static, Result<Option<String>, StorageError>> {
        let graph = graph.to_string();
        Box::pin(async move { ipc::call(&cmd::LoadSuite { graph }).await.map_err(storage_error) })
    }

    fn save_suite(&self, graph: &DocId, text: String) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        let graph = graph.to_string();
        Box::pin(async move { ipc::call(&cmd::SaveSuite { graph, text }).await.map_err(storage_error) })
    }

    fn preference(&self, name: &str) -> Option<String> {
        // The webview's local storage keeps this window's small preferences, as in a browser.
        super::browser::Browser.preference(name)
    }

    fn set_preference(&self, name: &str, value: &str) {
        super::browser::Browser.set_preference(name, value);
    }

    fn model_settings(&self) -> LocalBoxFuture<'static, ModelSettings> {
        Box::pin(async {
            match settings_told().await {
                Some(s) => ModelSettings {
                    base_url: s.openai_base_url.unwrap_or_default(),
                    key_origins: s
                        .key_origins
                        .iter()
                        .filter_map(|k| Provider::from_id(&k.provider).map(|p| (k.origin.clone(), p)))
                        .collect(),
                    note: format!("Keys stay in the app's settings file. Graphs are saved in {}.", s.workflows_dir),
                },
                None => ModelSettings::default(),
            }
        })
    }

    fn save_model_settings(
        &self,
        base_url: String,
        new_key: Option<OriginKey>,
    ) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        let add_key =
            new_key.map(|k| cmd::NewKey { origin: k.origin, provider: k.provider.id().to_string(), key: k.key });
        Box::pin(async move {
            ipc::call(&cmd::SetSettings { base_url: Some(base_url), add_key }).await.map_err(storage_error)?;
            refresh_keys().await;
            Ok(())
        })
    }

    fn remove_key(&self, origin: String, provider: Provider) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        Box::pin(async move {
            ipc::call(&cmd::RemoveKey { origin, provider: provider.id().to_string() }).await.map_err(storage_error)?;
            refresh_keys().await;
            Ok(())
        })
    }

    fn wording(&self) -> Wording {
        Wording {
            settings_saved: "Settings saved in the app's settings file",
            base_url_hint: "Replaces the OpenAI address, e.g. http://127.0.0.1:11434/v1 for Ollama.",
        }
    }

    fn has_files(&self) -> bool {
        true
    }

    fn flavour(&self) -> switchyard_ipc::commands::Flavour {
        switchyard_ipc::commands::Flavour::Desktop
    }

    fn open_file(&self) -> LocalBoxFuture<'static, Result<Option<(DocId, String)>, StorageError>> {
        Box::pin(async {
            let picked = ipc::call(&cmd::OpenFile {}).await.map_err(storage_error)?;
            let Some(p) = picked else { return Ok(None) };
            let id = DocId::parse(&p.path);
            runs_of_file(&id).await;
            Ok(Some((id, p.text)))
        })
    }

    fn save_file_as(
        &self,
        suggested: String,
        text: String,
    ) -> LocalBoxFuture<'static, Result<Option<DocId>, StorageError>> {
        Box::pin(async move {
            let path = ipc::call(&cmd::SaveFileAs { suggested, text }).await.map_err(storage_error)?;
            Ok(path.map(|p| DocId::parse(&p)))
        })
    }

    fn take_opened(&self) -> LocalBoxFuture<'static, Vec<(DocId, Result<String, String>)>> {
        Box::pin(async {
            let files = ipc::call(&cmd::TakeOpened {}).await.unwrap_or_default();
            let mut opened = Vec::new();
            for f in files {
                let id = DocId::parse(&f.path);
                if f.text.is_ok() {
                    runs_of_file(&id).await;
                }
                opened.push((id, f.text));
            }
            opened
        })
    }

    fn changed_on_disk(&self, id: &DocId) -> LocalBoxFuture<'static, Option<String>> {
        Box::pin(cache::changed_on_disk(id.clone()))
    }

    fn title(&self, name: &str, id: &DocId, unsaved: bool) -> String {
        format!("{}{name} — {} — Switchyard", if unsaved { "• " } else { "" }, id.short_name())
    }

    fn set_title(&self, title: &str) {
        leptos::prelude::document().set_title(title);
        let title = title.to_string();
        wasm_bindgen_futures::spawn_local(async move {
            let _ = ipc::call(&cmd::SetTitle { title }).await;
        });
    }

    fn edit_text(&self, edit: switchyard_ipc::TextEdit) {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = ipc::call(&cmd::EditText { edit }).await;
        });
    }

    fn read_clipboard(&self) -> LocalBoxFuture<'static, Result<Option<String>, String>> {
        Box::pin(async {
            match ipc::call(&cmd::ReadClipboard {}).await {
                Ok(text) => Ok(text),
                // The app refuses text over the import size limit, and says why.
                Err(ipc::IpcError::Refused(why)) => Err(why),
                Err(_) => Ok(None),
            }
        })
    }

    fn close_window(&self) {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = ipc::call(&cmd::CloseWindow {}).await;
        });
    }

    fn on_background_error(&self, hook: Box<dyn Fn(String)>) {
        cache::set_error_hook(hook);
    }

    fn host(&self) -> Box<dyn Host> {
        Box::new(host::DesktopHost)
    }

    fn key_origins(&self) -> crate::model::storage::keys::KeyTable {
        host::key_origins()
    }

    fn approved_commands(&self) -> Option<Vec<String>> {
        Some(host::approved_commands())
    }

    fn approve_commands(&self, lines: Vec<String>) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        Box::pin(async move {
            ipc::call(&cmd::AllowCommands { lines: lines.clone() }).await.map_err(storage_error)?;
            host::note_approved(&lines);
            Ok(())
        })
    }

    fn has_traces(&self) -> bool {
        true
    }

    fn trace_settings(&self) -> LocalBoxFuture<'static, Option<cmd::PublicTraces>> {
        Box::pin(async { settings_told().await.map(|s| s.traces) })
    }

    fn save_trace_settings(
        &self,
        endpoint: String,
        headers: Option<String>,
        capture_content: bool,
    ) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        Box::pin(async move {
            ipc::call(&cmd::SetTraces { endpoint, headers, capture_content }).await.map_err(storage_error)
        })
    }

    fn export_trace(&self, record: &engine::record::RunRecord, graph: Option<&Graph>) {
        let Ok(record) = serde_json::to_string(record) else { return };
        let graph = graph.map(Graph::to_pretty_json);
        wasm_bindgen_futures::spawn_local(async move {
            // The app warns on its stderr when the collector cannot be reached; a refusal
            // here (a record the app cannot read) is for the console, never the run.
            if let Err(why) = ipc::call(&cmd::ExportTrace { record, graph }).await {
                web_sys::console::warn_1(&format!("switchyard: the run was not sent as a trace: {why}").into());
            }
        });
    }
}
