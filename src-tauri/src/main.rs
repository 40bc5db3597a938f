//! Switchyard's desktop app: the editor (the same wasm app as in the browser) in a Tauri
//! window. The app detects Tauri at run time and then stores graphs through these commands,
//! as `*.json` files in a workflows folder, and sends `llm`/`http` requests natively.
//!
//! | command | what it does |
//! |---|---|
//! | `list_graphs`, `load_graph`, `save_graph`, `rename_graph`, `delete_graph`, `free_name`, `graph_modified` | the workflows folder |
//! | `list_runs`, `load_run`, `save_run`, `delete_run` | saved runs beside each graph |
//! | `open_file`, `save_file_as`, `save_external` | native dialogs reaching any file the user picks, and saving back to it |
//! | `http` | a request for an `llm` or `http` node, sent natively (no CORS) |
//! | `get_settings`, `set_settings` | the API key and base URL, in a file only the user can read |
//! | `set_title` | the window title (file name and unsaved marker) |

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Mutex;

use engine::host::{Auth, HttpRequest};
use serde::{Deserialize, Serialize};
use tauri::{Manager, State};
use tauri_plugin_dialog::DialogExt;
use workflow_files::{Config, Entry, Saved, Settings, Workflows, write_atomic};

struct AppState {
    workflows: Workflows,
    config: Config,
    /// Files the user picked in a native dialog: the only paths outside the workflows folder
    /// the app writes to.
    picked: Mutex<HashSet<PathBuf>>,
}

type Reply<T> = Result<T, String>;

#[tauri::command]
fn list_graphs(state: State<'_, AppState>) -> Reply<Vec<Entry>> {
    state.workflows.list().map_err(|e| e.0)
}

#[derive(Serialize)]
struct Loaded {
    text: String,
    modified_ms: u64,
}

#[tauri::command]
fn load_graph(state: State<'_, AppState>, file: String) -> Reply<Loaded> {
    let text = state.workflows.load(&file).map_err(|e| e.0)?;
    let modified_ms = state.workflows.modified(&file).map_err(|e| e.0)?;
    Ok(Loaded { text, modified_ms })
}

#[tauri::command]
fn save_graph(state: State<'_, AppState>, file: String, text: String) -> Reply<Saved> {
    state.workflows.save(&file, &text).map_err(|e| e.0)
}

#[tauri::command]
fn rename_graph(state: State<'_, AppState>, from: String, to: String) -> Reply<()> {
    state.workflows.rename(&from, &to).map_err(|e| e.0)
}

#[tauri::command]
fn delete_graph(state: State<'_, AppState>, file: String) -> Reply<()> {
    state.workflows.delete(&file).map_err(|e| e.0)
}

#[tauri::command]
fn free_name(state: State<'_, AppState>, title: String) -> String {
    state.workflows.free_name(&title)
}

#[tauri::command]
fn graph_modified(state: State<'_, AppState>, file: String) -> Reply<u64> {
    state.workflows.modified(&file).map_err(|e| e.0)
}

#[tauri::command]
fn list_runs(state: State<'_, AppState>, graph: String) -> Reply<Vec<String>> {
    state.workflows.list_runs(&graph).map_err(|e| e.0)
}

#[tauri::command]
fn load_run(state: State<'_, AppState>, graph: String, run: String) -> Reply<String> {
    state.workflows.load_run(&graph, &run).map_err(|e| e.0)
}

#[tauri::command]
fn save_run(state: State<'_, AppState>, graph: String, run: String, text: String) -> Reply<()> {
    state.workflows.save_run(&graph, &run, &text).map_err(|e| e.0)
}

#[tauri::command]
fn delete_run(state: State<'_, AppState>, graph: String, run: String) -> Reply<()> {
    state.workflows.delete_run(&graph, &run).map_err(|e| e.0)
}

#[derive(Serialize)]
struct Picked {
    path: String,
    text: String,
}

/// Asks the user for a graph file anywhere and reads it.
#[tauri::command]
async fn open_file(app: tauri::AppHandle, state: State<'_, AppState>) -> Reply<Option<Picked>> {
    let picked = app.dialog().file().add_filter("Switchyard graph", &["json"]).blocking_pick_file();
    let Some(path) = picked.and_then(|p| p.into_path().ok()) else { return Ok(None) };
    remember(&state, &path);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    Ok(Some(Picked { path: path.display().to_string(), text }))
}

/// Asks the user where to save, then writes the document there atomically.
#[tauri::command]
async fn save_file_as(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    suggested: String,
    text: String,
) -> Reply<Option<String>> {
    let picked =
        app.dialog().file().add_filter("Switchyard graph", &["json"]).set_file_name(&suggested).blocking_save_file();
    let Some(path) = picked.and_then(|p| p.into_path().ok()) else { return Ok(None) };
    write_atomic(&path, &text).map_err(|e| format!("saving {}: {e}", path.display()))?;
    remember(&state, &path);
    Ok(Some(path.display().to_string()))
}

fn remember(state: &AppState, path: &std::path::Path) {
    if let Ok(mut picked) = state.picked.lock() {
        picked.insert(path.to_path_buf());
    }
}

/// Saves a file the user picked earlier with Open… or Save As…, atomically.
#[tauri::command]
fn save_external(state: State<'_, AppState>, path: String, text: String) -> Reply<Saved> {
    let path = PathBuf::from(path);
    let allowed = state.picked.lock().map(|p| p.contains(&path)).unwrap_or(false);
    if !allowed {
        return Err(format!("{} was not chosen in a file dialog, so the app will not write it", path.display()));
    }
    write_atomic(&path, &text).map_err(|e| format!("saving {}: {e}", path.display()))?;
    let modified_ms = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as u64);
    Ok(Saved { modified_ms })
}

/// A request as the editor sends it (the engine's `HttpRequest`).
#[derive(Deserialize)]
struct Request {
    method: String,
    url: String,
    headers: Vec<(String, String)>,
    body: Option<String>,
    timeout_ms: u64,
    #[serde(default)]
    auth: Option<String>,
}

#[derive(Serialize)]
struct Response {
    status: u16,
    body: String,
}

#[derive(Serialize)]
struct Failure {
    message: String,
    timed_out: bool,
}

/// Sends a node's request natively, adding the API key for model calls.
#[tauri::command]
async fn http(state: State<'_, AppState>, request: Request) -> Result<Response, Failure> {
    let settings = state.config.load();
    let openai = request.auth.as_deref() == Some("openai");
    let mut url = request.url;
    if openai
        && let Some(base) = settings.openai_base_url.as_deref().filter(|b| !b.trim().is_empty())
        && let Some(rest) = url.strip_prefix("https://api.openai.com/v1")
    {
        url = format!("{}{rest}", base.trim_end_matches('/'));
    }
    let req = HttpRequest {
        method: request.method,
        url,
        headers: request.headers,
        body: request.body,
        timeout_ms: request.timeout_ms,
        auth: openai.then_some(Auth::OpenAi),
    };
    let key = if openai { settings.openai_api_key.clone() } else { None };
    let sent = tauri::async_runtime::spawn_blocking(move || net::send_blocking(&req, key.as_deref()))
        .await
        .map_err(|e| Failure { message: e.to_string(), timed_out: false })?;
    sent.map(|r| Response { status: r.status, body: r.body })
        .map_err(|f| Failure { message: f.message, timed_out: f.timed_out })
}

/// What the settings dialog may see: whether a key is set, never the key itself.
#[derive(Serialize)]
struct PublicSettings {
    has_api_key: bool,
    openai_base_url: Option<String>,
    workflows_dir: String,
}

#[tauri::command]
fn get_settings(state: State<'_, AppState>) -> PublicSettings {
    let s = state.config.load();
    PublicSettings {
        has_api_key: s.openai_api_key.as_deref().is_some_and(|k| !k.is_empty()),
        openai_base_url: s.openai_base_url,
        workflows_dir: state.workflows.dir().display().to_string(),
    }
}

/// Updates the settings; an absent key leaves the stored one as it is.
#[tauri::command]
fn set_settings(state: State<'_, AppState>, api_key: Option<String>, base_url: Option<String>) -> Reply<()> {
    let mut s = state.config.load();
    if let Some(k) = api_key {
        s.openai_api_key = Some(k).filter(|k| !k.trim().is_empty());
    }
    s.openai_base_url = base_url.filter(|b| !b.trim().is_empty());
    state.config.save(&s).map_err(|e| e.0)?;
    let _: Settings = s;
    Ok(())
}

#[tauri::command]
fn set_title(window: tauri::Window, title: String) -> Reply<()> {
    window.set_title(&title).map_err(|e| e.to_string())
}

/// The data folder: `SWITCHYARD_DATA_DIR` when set (tests), else the app's data folder.
fn data_dir(app: &tauri::App) -> PathBuf {
    match std::env::var_os("SWITCHYARD_DATA_DIR") {
        Some(d) => PathBuf::from(d),
        None => app.path().app_data_dir().unwrap_or_else(|_| PathBuf::from(".switchyard")),
    }
}

fn main() {
    tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            let dir = data_dir(app);
            let workflows = Workflows::open(dir.join("workflows"))?;
            let config = Config::new(dir.join("settings.json"));
            app.manage(AppState { workflows, config, picked: Mutex::new(HashSet::new()) });
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            list_graphs,
            load_graph,
            save_graph,
            rename_graph,
            delete_graph,
            free_name,
            graph_modified,
            list_runs,
            load_run,
            save_run,
            delete_run,
            open_file,
            save_file_as,
            save_external,
            http,
            get_settings,
            set_settings,
            set_title
        ])
        .run(tauri::generate_context!())
        .unwrap_or_else(|e| {
            eprintln!("switchyard: the desktop app could not start: {e}");
            std::process::exit(1);
        });
}
