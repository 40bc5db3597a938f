//! What differs between the browser and the desktop app, behind one trait. [`start`] decides
//! which one the editor runs in (the only place that looks for Tauri), once, before the
//! editor mounts; the app then provides the chosen [`Platform`] as a context
//! ([`PlatformRef`]) and nothing else asks.
//!
//! | module | what it holds |
//! |---|---|
//! | (this file) | the [`Platform`] trait, [`StorageError`], [`PlatformRef`], [`start`] |
//! | `clock` | what both engine hosts share: clock, run ids, timers |
//! | `page` | the web page both draw in: focus, clipboard writes, downloads, the address, the window, timers, dropped files |
//! | `drafts` | what is typed in a field, committed before anything takes the field away |
//! | `browser` | local storage for graphs, runs, test suites and settings; the engine host over `fetch` |
//! | `desktop` | the Tauri commands (`switchyard-ipc`), a cache of the workflows folder, native dialogs, the engine host over IPC |

mod browser;
pub mod clock;
mod desktop;
mod drafts;
mod page;

use std::fmt;
use std::rc::Rc;

use engine::Graph;
use engine::host::{Host, LocalBoxFuture};
use leptos::prelude::*;

use crate::model::storage::doc_id::DocId;
use crate::model::storage::keys::{OriginKey, Provider};
use crate::model::storage::library::Library;
use crate::model::storage::saved_run::{RunSummary, SavedRun};

/// Why storage failed, in words a user can act on (its `Display`).
#[derive(Debug, Clone, PartialEq)]
pub enum StorageError {
    /// The browser's storage quota is used up.
    Full,
    /// The browser would not store it (the exception's name, when it has one).
    Refused(Option<String>),
    /// A saved run too big for what storage has left (its size in KB).
    RunTooBig(usize),
    /// Nothing stored under that id.
    Missing(Place),
    /// The stored graph does not read as a document: why.
    Unreadable(String),
    /// The stored run does not read: why.
    Damaged(String),
    /// The desktop app refused or failed: its message.
    Desktop(String),
    /// It could not be written as JSON.
    Encoding(String),
}

/// Where something was looked for, for [`StorageError::Missing`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    BrowserGraphs,
    BrowserRuns,
    WorkflowsFolder,
    RunsFolder,
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Full => f.write_str("the browser's storage is full"),
            StorageError::Refused(None) => f.write_str("the browser refused to store it"),
            StorageError::Refused(Some(name)) => write!(f, "the browser refused to store it ({name})"),
            StorageError::RunTooBig(kb) => write!(
                f,
                "the browser's storage is full (this run needs {kb} KB); it stays available until the tab closes"
            ),
            StorageError::Missing(Place::BrowserGraphs) => f.write_str("it is missing from storage"),
            StorageError::Missing(Place::BrowserRuns) => f.write_str("it is no longer in storage"),
            StorageError::Missing(Place::WorkflowsFolder) => f.write_str("it is not in the workflows folder"),
            StorageError::Missing(Place::RunsFolder) => f.write_str("it is not in the runs folder"),
            StorageError::Unreadable(why) | StorageError::Desktop(why) | StorageError::Encoding(why) => {
                f.write_str(why)
            }
            StorageError::Damaged(why) => write!(f, "it is damaged: {why}"),
        }
    }
}

impl std::error::Error for StorageError {}

/// The model settings as the settings dialog shows them: which origins have keys, never the
/// keys.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelSettings {
    pub base_url: String,
    /// Each origin that has a key, with the provider the key is for.
    pub key_origins: Vec<(String, Provider)>,
    /// A line about where things are kept (the desktop app: whether a key is set, the folder).
    pub note: String,
}

/// Texts that differ with where the editor runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wording {
    /// Said once the model settings are saved.
    pub settings_saved: &'static str,
    /// The hint under the Base URL field.
    pub base_url_hint: &'static str,
}

/// Everything the editor does differently in the browser and in the desktop app.
pub trait Platform {
    // The library and its graphs.

    /// Reads the library, with problems to report (graphs that could not be read are left out).
    fn load_library(&self) -> (Library, Vec<String>);
    fn save_library(&self, library: &Library) -> Result<(), StorageError>;
    /// An id for a new graph called `name`: a key in the browser, a file name on the desktop.
    fn new_id(&self, library: &Library, name: &str) -> DocId;
    fn load_graph(&self, id: &DocId) -> Result<Graph, StorageError>;
    fn save_graph(&self, id: &DocId, graph: &Graph) -> Result<(), StorageError>;
    fn delete_graph(&self, id: &DocId);
    /// Milliseconds since the epoch, for the library's save times.
    fn now(&self) -> f64 {
        js_sys::Date::now()
    }

    // Saved runs, per graph.

    /// The graph's saved runs, newest first.
    fn list_runs(&self, graph: &DocId) -> Vec<RunSummary>;
    fn load_run(&self, graph: &DocId, run: &str) -> Result<SavedRun, StorageError>;
    /// Saves a run. Returns notices for the user (runs evicted to make room).
    fn save_run(&self, graph: &DocId, saved: &SavedRun) -> Result<Vec<String>, StorageError>;
    fn delete_run(&self, graph: &DocId, run: &str);
    /// Bytes the graph's saved runs take.
    fn run_bytes(&self, graph: &DocId) -> usize;

    // Test suites, one per graph (README, Tests and evaluations).

    /// The graph's test suite as stored (a `switchyard/tests@1` document), `None` when it has
    /// none yet: a local-storage key in the browser, `<stem>.tests.json` beside the graph's
    /// file on the desktop.
    fn load_suite(&self, graph: &DocId) -> LocalBoxFuture<'static, Result<Option<String>, StorageError>>;
    /// Keeps the graph's test suite; a failure leaves it in memory (the caller says so).
    fn save_suite(&self, graph: &DocId, text: String) -> LocalBoxFuture<'static, Result<(), StorageError>>;

    // Settings.

    /// A small preference of this window (theme, last open graph), best effort.
    fn preference(&self, name: &str) -> Option<String>;
    fn set_preference(&self, name: &str, value: &str);
    fn model_settings(&self) -> LocalBoxFuture<'static, ModelSettings>;
    /// Saves the base URL as typed (trimmed) and keeps `new_key` for its origin, if given.
    fn save_model_settings(
        &self,
        base_url: String,
        new_key: Option<OriginKey>,
    ) -> LocalBoxFuture<'static, Result<(), StorageError>>;
    /// Forgets the key of `provider` for `origin`.
    fn remove_key(&self, origin: String, provider: Provider) -> LocalBoxFuture<'static, Result<(), StorageError>>;
    fn wording(&self) -> Wording;

    // Files anywhere and the window (desktop only).

    /// Whether graphs can be opened from and saved to files anywhere (Open…, Save As…).
    fn has_files(&self) -> bool;
    /// Which commands and keys the editor has here (the desktop's menus take some keys the
    /// browser keeps for itself): what Help, the palette and the key handler go by.
    fn flavour(&self) -> switchyard_ipc::commands::Flavour {
        switchyard_ipc::commands::Flavour::Browser
    }
    /// Asks the user for a graph file; `None` when they cancel.
    fn open_file(&self) -> LocalBoxFuture<'static, Result<Option<(DocId, String)>, StorageError>>;
    /// Asks the user where to save `text`, writes it there, and returns the new id.
    fn save_file_as(
        &self,
        suggested: String,
        text: String,
    ) -> LocalBoxFuture<'static, Result<Option<DocId>, StorageError>>;
    /// Graph files given to the app from outside since the last call (the desktop app's
    /// command line, or a second launch that handed its files over): each with its text, or
    /// why it could not be read. None in the browser.
    fn take_opened(&self) -> LocalBoxFuture<'static, Vec<(DocId, Result<String, String>)>> {
        Box::pin(async { Vec::new() })
    }
    /// The file's new text, when another program changed it since we read or wrote it.
    fn changed_on_disk(&self, id: &DocId) -> LocalBoxFuture<'static, Option<String>>;
    /// The window title for the open graph (unsaved work marked where it is not saved at once).
    fn title(&self, name: &str, id: &DocId, unsaved: bool) -> String;
    fn set_title(&self, title: &str);
    /// Carries out a text editing command in the focused field natively (the desktop's
    /// menus; the browser has none, and lets the page's own keys do it).
    fn edit_text(&self, _edit: switchyard_ipc::TextEdit) {}
    /// Closes the window (File ▸ Close on the desktop).
    fn close_window(&self) {}
    /// The system clipboard's text, when the page may read it (the desktop reads it natively,
    /// and refuses text over the import size limit with why).
    fn read_clipboard(&self) -> LocalBoxFuture<'static, Result<Option<String>, String>> {
        page::read_clipboard()
    }
    /// Writes `text` to the system clipboard, best effort.
    fn write_clipboard(&self, text: &str) {
        page::write_clipboard(text);
    }
    /// The editor's own last copy of nodes (for when the system clipboard cannot be read).
    fn own_copy(&self) -> Option<String> {
        page::own_copy()
    }
    fn keep_own_copy(&self, text: &str) {
        page::keep_own_copy(text);
    }
    /// Where failures of background writes (the desktop's) are reported.
    fn on_background_error(&self, hook: Box<dyn Fn(String)>);

    // The page the editor draws in (the same web page in the browser and the desktop app;
    // the native tests' fake platform keeps these in memory).

    /// Commits what is typed in the focused field, as leaving it would.
    fn commit_draft(&self) {
        drafts::commit_focused();
    }
    /// Starts committing drafts before the editor's own handlers see a press or a key; once.
    fn watch_drafts(&self) {
        drafts::install();
    }
    /// Puts keyboard focus on what `selector` finds, once the page has drawn.
    fn focus(&self, selector: &str) {
        page::focus_after_draw(selector.to_string());
    }
    /// Scrolls what `selector` finds to its top, once the page has drawn.
    fn scroll_to_top(&self, selector: &str) {
        page::scroll_to_top_after_draw(selector.to_string());
    }
    /// Whether a node on the canvas has keyboard focus.
    fn node_has_focus(&self) -> bool {
        page::node_has_focus()
    }
    /// Offers `text` as a file to download (the browser's Export); why not, when refused.
    fn download(&self, file: &str, text: &str, mime: &str) -> Result<(), String> {
        page::download(file, text, mime).map_err(|e| format!("{e:?}"))
    }
    /// The page's address without its fragment, for share links.
    fn address(&self) -> String {
        page::address()
    }
    /// The address's fragment (`#…`, or empty).
    fn fragment(&self) -> String {
        page::fragment()
    }
    /// Drops the address's fragment, so a reload does not see it again.
    fn drop_fragment(&self) {
        page::drop_fragment();
    }
    /// The window's height in CSS pixels.
    fn window_height(&self) -> f64 {
        page::window_height()
    }
    /// Whether the system asks for a dark colour scheme.
    fn prefers_dark(&self) -> bool {
        page::prefers_dark()
    }
    /// Shows the page in theme `name` (`light` or `dark`).
    fn show_theme(&self, name: &str) {
        page::show_theme(name);
    }
    /// Ready after `ms` milliseconds (0: once the page had a turn to draw).
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        page::sleep(ms)
    }
    /// Calls `f` whenever the window gains focus.
    fn on_focus(&self, f: Box<dyn Fn()>) {
        page::on_window_focus(f);
    }
    /// Calls `f` whenever the desktop app says files were handed to it (never in a browser).
    fn on_files_given(&self, f: Box<dyn Fn()>) {
        page::on_files_given(f);
    }
    /// Calls `keep` as the page is about to close; when it returns false (the work could not
    /// be kept), the person is asked whether to leave anyway.
    fn on_page_leave(&self, keep: Box<dyn Fn() -> bool>) {
        page::on_page_leave(keep);
    }
    /// The text of a file the person chose or dropped; `None` when it cannot be read.
    fn read_file(&self, file: web_sys::File) -> LocalBoxFuture<'static, Option<String>> {
        page::read_file(file)
    }

    // Running graphs.

    /// The engine's host for a run: clocks, timers, and HTTP for `llm` and `http` nodes.
    fn host(&self) -> Box<dyn Host>;
    /// Which origins have keys for which provider, and the Base URL, never the keys: for the
    /// run worker to decide which requests may carry one (the host adds it when it sends).
    fn key_origins(&self) -> crate::model::storage::keys::KeyTable;
    /// The whole command lines of MCP servers the person approved, where graphs may start
    /// programs once the person allows each line (the desktop app, which checks again before
    /// it starts one); `None` where no program can start (a web page: the run says so and
    /// points to the desktop app), so nothing is asked.
    fn approved_commands(&self) -> Option<Vec<String>> {
        None
    }
    /// Remembers `lines` as approved command lines, before a run that needs them starts.
    fn approve_commands(&self, _lines: Vec<String>) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        Box::pin(async { Ok(()) })
    }

    // Traces (README, See runs in Phoenix, Langfuse or Jaeger).

    /// Whether runs can be sent to a tracing tool from here (the desktop app, which owns an
    /// OpenTelemetry exporter; a web page has none: its runs' records are exported later with
    /// `switchyard trace`).
    fn has_traces(&self) -> bool {
        false
    }
    /// The Traces setting as the settings dialog shows it (header names, never values).
    fn trace_settings(&self) -> LocalBoxFuture<'static, Option<switchyard_ipc::PublicTraces>> {
        Box::pin(async { None })
    }
    /// Saves the Traces setting: `endpoint` empty turns it off; `headers` `None` keeps the
    /// headers kept so far.
    fn save_trace_settings(
        &self,
        _endpoint: String,
        _headers: Option<String>,
        _capture_content: bool,
    ) -> LocalBoxFuture<'static, Result<(), StorageError>> {
        Box::pin(async { Ok(()) })
    }
    /// Hands a run whose session just ended to the tracing tool, when one is set up; with
    /// `graph` when it is the version the run ran. Best effort: a run never waits on it.
    fn export_trace(&self, _record: &engine::record::RunRecord, _graph: Option<&Graph>) {}
}

/// Decides where the editor runs and reads what it needs first (nothing in the browser, whose
/// storage is synchronous; the workflows folder on the desktop). Returns problems to report.
pub async fn start() -> (Rc<dyn Platform>, Vec<String>) {
    if desktop::detected() {
        let (p, problems) = desktop::Desktop::start().await;
        (Rc::new(p), problems)
    } else {
        (Rc::new(browser::Browser), Vec::new())
    }
}

/// The platform as a context: a copyable handle (the platform itself is not `Send`).
#[derive(Clone, Copy)]
pub struct PlatformRef(StoredValue<Rc<dyn Platform>, LocalStorage>);

impl PlatformRef {
    pub fn new(platform: Rc<dyn Platform>) -> PlatformRef {
        PlatformRef(StoredValue::new_local(platform))
    }

    pub fn get(&self) -> Rc<dyn Platform> {
        self.0.get_value()
    }
}

pub fn use_platform() -> PlatformRef {
    expect_context::<PlatformRef>()
}
