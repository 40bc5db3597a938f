//! What the actions' tests run on: a fake [`Platform`] keeping graphs, runs, preferences and
//! the clipboard in memory (the engine's offline host for runs, which has no network), a
//! local executor for the actions' `spawn_local`, and the editor's state built under a
//! reactive owner as the app builds it at start-up.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use any_spawner::{CustomExecutor, Executor, PinnedFuture, PinnedLocalFuture};
use app::model::editing::editor::Editor;
use app::model::storage::doc_id::DocId;
use app::model::storage::keys::{KeyTable, OriginKey, Provider};
use app::model::storage::library::Library;
use app::model::storage::saved_run::{RunSummary, SavedRun};
use app::platform::{ModelSettings, Platform, PlatformRef, StorageError, Wording};
use app::state::{App, provide_all};
use engine::Graph;
use engine::host::{Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, OfflineHost};
use futures::executor::{LocalPool, LocalSpawner};
use futures::task::LocalSpawnExt;
use leptos::prelude::*;

/// Graphs, runs, preferences and what the page was asked to do, in memory.
#[derive(Default)]
pub struct Fake {
    pub library: RefCell<Library>,
    pub graphs: RefCell<BTreeMap<String, Graph>>,
    /// Saved runs per graph, oldest first.
    pub runs: RefCell<BTreeMap<String, Vec<SavedRun>>>,
    pub preferences: RefCell<BTreeMap<String, String>>,
    /// Test suites per graph, as stored text.
    pub suites: RefCell<BTreeMap<String, String>>,
    /// Whether storage refuses to save graphs and suites (as a full browser storage does).
    pub full: Cell<bool>,
    /// Files offered for download: name and text.
    pub downloads: RefCell<Vec<(String, String)>>,
    pub clipboard: RefCell<Option<String>>,
    pub drafts_committed: Cell<usize>,
    /// Selectors given keyboard focus, in order.
    pub focused: RefCell<Vec<String>>,
    /// What the editor does as the page closes (whether the work was kept).
    pub on_leave: RefCell<Vec<Box<dyn Fn() -> bool>>>,
    clock: Cell<f64>,
    /// One host for every run, so run ids stay unique.
    host: Rc<OfflineHost>,
}

impl Fake {
    /// Storage holding `graphs` (library id, graph), listed in the library.
    pub fn with_graphs(graphs: &[(&str, Graph)]) -> Rc<Fake> {
        let fake = Fake { clock: Cell::new(1_000_000.0), ..Fake::default() };
        for (id, g) in graphs {
            fake.graphs.borrow_mut().insert(id.to_string(), g.clone());
            fake.library.borrow_mut().touch(id, g.display_name(), 1.0);
        }
        Rc::new(fake)
    }

    /// Whether preference `name` mentions `text`.
    pub fn preference_has(&self, name: &str, text: &str) -> bool {
        self.preferences.borrow().get(name).is_some_and(|v| v.contains(text))
    }

    /// Closes the page: whether the editor said its work was kept.
    pub fn close_page(&self) -> bool {
        self.on_leave.borrow().iter().all(|keep| keep())
    }

    pub fn saved_runs(&self, graph: &str) -> Vec<SavedRun> {
        self.runs.borrow().get(graph).cloned().unwrap_or_default()
    }
}

impl Platform for Fake {
    fn load_library(&self) -> (Library, Vec<String>) {
        (self.library.borrow().clone(), Vec::new())
    }

    fn save_library(&self, library: &Library) -> Result<(), StorageError> {
        *self.library.borrow_mut() = library.clone();
        Ok(())
    }

    fn new_id(&self, library: &Library, name: &str) -> DocId {
        DocId::Library(library.fresh_id(name, self.now()))
    }

    fn load_graph(&self, id: &DocId) -> Result<Graph, StorageError> {
        self.graphs
            .borrow()
            .get(&id.to_string())
            .cloned()
            .ok_or(StorageError::Missing(app::platform::Place::BrowserGraphs))
    }

    fn save_graph(&self, id: &DocId, graph: &Graph) -> Result<(), StorageError> {
        if self.full.get() {
            return Err(StorageError::Full);
        }
        self.graphs.borrow_mut().insert(id.to_string(), graph.clone());
        Ok(())
    }

    fn delete_graph(&self, id: &DocId) {
        self.graphs.borrow_mut().remove(&id.to_string());
    }

    fn now(&self) -> f64 {
        self.clock.set(self.clock.get() + 1.0);
        self.clock.get()
    }

    fn list_runs(&self, graph: &DocId) -> Vec<RunSummary> {
        self.saved_runs(&graph.to_string()).iter().rev().map(|r| r.summary(0.0)).collect()
    }

    fn load_run(&self, graph: &DocId, run: &str) -> Result<SavedRun, StorageError> {
        self.saved_runs(&graph.to_string())
            .into_iter()
            .find(|r| r.record.run_id == run)
            .ok_or(StorageError::Missing(app::platform::Place::BrowserRuns))
    }

    fn save_run(&self, graph: &DocId, saved: &SavedRun) -> Result<Vec<String>, StorageError> {
        let mut runs = self.runs.borrow_mut();
        let list = runs.entry(graph.to_string()).or_default();
        list.retain(|r| r.record.run_id != saved.record.run_id);
        list.push(saved.clone());
        Ok(Vec::new())
    }

    fn delete_run(&self, graph: &DocId, run: &str) {
        if let Some(list) = self.runs.borrow_mut().get_mut(&graph.to_string()) {
            list.retain(|r| r.record.run_id != run);
        }
    }

    fn run_bytes(&self, _graph: &DocId) -> usize {
        0
    }

    fn load_suite(&self, graph: &DocId) -> LocalBoxFuture<'static, Result<Option<String>, StorageError>> {
        let text = self.suites.borrow().get(&graph.to_string()).cloned();
        Box::pin(async move { Ok(text) })
    }

    fn save_suite(&self, graph: &DocId, text: String) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        let saved = if self.full.get() {
            Err(StorageError::Full)
        } else {
            self.suites.borrow_mut().insert(graph.to_string(), text);
            Ok(())
        };
        Box::pin(async move { saved })
    }

    fn preference(&self, name: &str) -> Option<String> {
        self.preferences.borrow().get(name).cloned()
    }

    fn set_preference(&self, name: &str, value: &str) {
        self.preferences.borrow_mut().insert(name.to_string(), value.to_string());
    }

    fn model_settings(&self) -> LocalBoxFuture<'static, ModelSettings> {
        Box::pin(async { ModelSettings::default() })
    }

    fn save_model_settings(
        &self,
        _base_url: String,
        _new_key: Option<OriginKey>,
    ) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        Box::pin(async { Ok(()) })
    }

    fn remove_key(&self, _origin: String, _provider: Provider) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        Box::pin(async { Ok(()) })
    }

    fn wording(&self) -> Wording {
        Wording { settings_saved: "Saved", base_url_hint: "" }
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
        name.to_string()
    }

    fn set_title(&self, _title: &str) {}

    fn read_clipboard(&self) -> LocalBoxFuture<'static, Result<Option<String>, String>> {
        let text = self.clipboard.borrow().clone();
        Box::pin(async move { Ok(text) })
    }

    fn write_clipboard(&self, text: &str) {
        *self.clipboard.borrow_mut() = Some(text.to_string());
    }

    fn own_copy(&self) -> Option<String> {
        self.preference("own_copy")
    }

    fn keep_own_copy(&self, text: &str) {
        self.set_preference("own_copy", text);
    }

    fn on_background_error(&self, _hook: Box<dyn Fn(String)>) {}

    fn commit_draft(&self) {
        self.drafts_committed.set(self.drafts_committed.get() + 1);
    }

    fn watch_drafts(&self) {}

    fn on_focus(&self, _f: Box<dyn Fn()>) {}

    fn on_files_given(&self, _f: Box<dyn Fn()>) {}

    fn on_page_leave(&self, keep: Box<dyn Fn() -> bool>) {
        self.on_leave.borrow_mut().push(keep);
    }

    fn focus(&self, selector: &str) {
        self.focused.borrow_mut().push(selector.to_string());
    }

    fn scroll_to_top(&self, _selector: &str) {}

    fn node_has_focus(&self) -> bool {
        false
    }

    fn download(&self, file: &str, text: &str, _mime: &str) -> Result<(), String> {
        self.downloads.borrow_mut().push((file.to_string(), text.to_string()));
        Ok(())
    }

    fn address(&self) -> String {
        "http://editor.test/".to_string()
    }

    fn fragment(&self) -> String {
        String::new()
    }

    fn drop_fragment(&self) {}

    fn window_height(&self) -> f64 {
        900.0
    }

    fn prefers_dark(&self) -> bool {
        false
    }

    fn show_theme(&self, _name: &str) {}

    /// Timers are ready at once: a run plays through without waiting.
    fn sleep(&self, _ms: u32) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }

    fn host(&self) -> Box<dyn Host> {
        Box::new(SharedHost(self.host.clone()))
    }

    fn key_origins(&self) -> KeyTable {
        KeyTable::default()
    }
}

/// The offline host, shared by every call.
struct SharedHost(Rc<OfflineHost>);

impl Host for SharedHost {
    fn now_ms(&self) -> f64 {
        self.0.now_ms()
    }

    fn new_run_id(&self) -> String {
        self.0.new_run_id()
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        self.0.http(request)
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.0.sleep(ms)
    }

    fn clock(&self) -> Option<Clock> {
        self.0.clock()
    }
}

thread_local! {
    static POOL: RefCell<LocalPool> = RefCell::new(LocalPool::new());
}

/// Spawns the actions' tasks on this thread's pool; [`settle`] runs them.
struct Spawner(LocalSpawner);

impl CustomExecutor for Spawner {
    fn spawn(&self, fut: PinnedFuture<()>) {
        let _ = self.0.spawn_local(fut);
    }

    fn spawn_local(&self, fut: PinnedLocalFuture<()>) {
        let _ = self.0.spawn_local(fut);
    }

    fn poll_local(&self) {}
}

/// Runs every task spawned so far, and those they spawn, until none can go on.
pub fn settle() {
    POOL.with(|p| p.borrow_mut().run_until_stalled());
}

/// The editor started on `fake` with library graph `open` shown, as the app starts it (its
/// state provided under a reactive owner kept for the test).
pub fn start(fake: &Rc<Fake>, open: &str) -> (App, Owner) {
    let spawner = POOL.with(|p| p.borrow().spawner());
    // The executor is per thread; the first test on another thread sets the global entry.
    let _ = Executor::init_local_custom_executor(Spawner(spawner));
    let owner = Owner::new();
    owner.set();
    let platform = PlatformRef::new(fake.clone() as Rc<dyn Platform>);
    provide_context(platform);
    let id = DocId::Library(open.to_string());
    let graph = fake.load_graph(&id).expect("the graph to open is stored");
    let library = fake.library.borrow().clone();
    let app = provide_all(Editor::new(graph), id, library, platform);
    settle();
    (app, owner)
}

/// The texts of the alerts shown now.
pub fn alerts(app: App) -> Vec<String> {
    app.alerts.list.with_untracked(|l| l.iter().map(|a| a.text.clone()).collect())
}
