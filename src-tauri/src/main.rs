//! Switchyard's desktop app: the editor (the same wasm app as in the browser) in a Tauri
//! window. The app detects Tauri at run time and then stores graphs through these commands,
//! as `*.json` files in a workflows folder, and sends `llm`/`http` requests natively. Each
//! command's arguments and reply are declared once, in the `switchyard-ipc` crate, which the
//! editor uses too; every command takes them as one `args` parameter.
//!
//! | command | what it does |
//! |---|---|
//! | `list_graphs`, `load_graph`, `save_graph`, `rename_graph`, `delete_graph`, `free_name`, `graph_modified` | the workflows folder |
//! | `list_runs`, `load_run`, `save_run`, `delete_run` | saved runs beside each graph |
//! | `load_suite`, `save_suite` | a graph's test suite, `<stem>.tests.json` beside its file |
//! | `open_file`, `save_file_as`, `save_external` | native dialogs reaching any file the user picks, and saving back to it |
//! | `http` | a request for an `llm` or `http` node, sent natively (no CORS) |
//! | `http_stream` | a model's request whose reply goes back piece by piece through a Tauri channel as it arrives |
//! | `get_settings`, `set_settings`, `remove_key` | keys per origin and the base URL, in a file only the user can read |
//! | `set_title` | the window title (file name and unsaved marker) |
//! | `take_opened` | graph files given on the command line, or by a second launch (single instance), read |
//! | `edit_text`, `close_window`, `read_clipboard` | what a native menu item asks of the window ([`menu`]) |
//! | `menu_items` | the native menus' items as built, for the desktop test |
//! | `mcp_exchange`, `mcp_close`, `allow_commands` | MCP servers for runs: exchanges carried out natively, a program started only when its whole command line was approved ([`mcp`]) |
//! | `set_traces`, `export_trace` | the Traces setting, and a run's session sent as an OpenTelemetry trace ([`traces`]) |
//!
//! | module | what it holds |
//! |---|---|
//! | [`menu`] | the native menus (File, Edit, View, Run, Help), built from the editor's command table, and Open Recent |
//! | [`clipboard`] | the system clipboard's text, for the menu's Paste |
//! | [`reference`] | Help ▸ The Graph Format: the format reference in a window of its own |
//! | [`mcp`] | MCP exchanges under the settings' consent and tokens, sessions closed with the window |
//! | [`traces`] | the app's one trace exporter (the Traces setting, else `OTEL_*`), runs' sessions mapped to spans |

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod clipboard;
mod mcp;
mod menu;
mod reference;
mod traces;

use std::collections::HashSet;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Mutex;

use engine::host::{Auth, HttpRequest, KeyRing, Origin};
use switchyard_ipc as ipc;
use tauri::ipc::{Channel, JavaScriptChannelId};
use tauri::menu::{MenuEvent, Submenu};
use tauri::{AppHandle, Manager, State, Wry};
use tauri_plugin_dialog::DialogExt;
use workflow_files::{Config, OriginKey, Settings, TraceSettings, Workflows, given, recent, write_atomic};

struct AppState {
    workflows: Workflows,
    config: Config,
    /// Files the user picked in a native dialog: the only paths outside the workflows folder
    /// the app writes to.
    picked: Mutex<HashSet<PathBuf>>,
    /// Files given from outside, not yet taken by the editor.
    opened: Mutex<Vec<PathBuf>>,
    /// File ▸ Open Recent, refilled when the list changes.
    recent_menu: Submenu<Wry>,
    /// MCP sessions runs have open, closed with the window.
    mcp_open: mcp::Open,
    /// The trace exporter, when traces are set up; shut down as the app exits.
    traces: traces::Traces,
}

/// What a command answers: its [`ipc::Command::Reply`], or why it failed.
type Reply<C> = Result<<C as ipc::Command>::Reply, String>;

fn saved(s: workflow_files::Saved) -> ipc::Saved {
    ipc::Saved { modified_ms: s.modified_ms }
}

#[tauri::command]
fn list_graphs(state: State<'_, AppState>, args: ipc::ListGraphs) -> Reply<ipc::ListGraphs> {
    let ipc::ListGraphs {} = args;
    let entries = state.workflows.list().map_err(|e| e.0)?;
    Ok(entries
        .into_iter()
        .map(|e| ipc::FileEntry { file: e.file, name: e.name, modified_ms: e.modified_ms, error: e.error })
        .collect())
}

#[tauri::command]
fn load_graph(state: State<'_, AppState>, args: ipc::LoadGraph) -> Reply<ipc::LoadGraph> {
    let text = state.workflows.load(&args.file).map_err(|e| e.0)?;
    let modified_ms = state.workflows.modified(&args.file).map_err(|e| e.0)?;
    Ok(ipc::Loaded { text, modified_ms })
}

#[tauri::command]
fn save_graph(state: State<'_, AppState>, args: ipc::SaveGraph) -> Reply<ipc::SaveGraph> {
    state.workflows.save(&args.file, &args.text).map(saved).map_err(|e| e.0)
}

#[tauri::command]
fn rename_graph(state: State<'_, AppState>, args: ipc::RenameGraph) -> Reply<ipc::RenameGraph> {
    state.workflows.rename(&args.from, &args.to).map_err(|e| e.0)
}

#[tauri::command]
fn delete_graph(state: State<'_, AppState>, args: ipc::DeleteGraph) -> Reply<ipc::DeleteGraph> {
    state.workflows.delete(&args.file).map_err(|e| e.0)
}

#[tauri::command]
fn free_name(state: State<'_, AppState>, args: ipc::FreeName) -> <ipc::FreeName as ipc::Command>::Reply {
    state.workflows.free_name(&args.title)
}

#[tauri::command]
fn graph_modified(state: State<'_, AppState>, args: ipc::GraphModified) -> Reply<ipc::GraphModified> {
    state.workflows.modified(&args.file).map_err(|e| e.0)
}

#[tauri::command]
fn list_runs(state: State<'_, AppState>, args: ipc::ListRuns) -> Reply<ipc::ListRuns> {
    state.workflows.list_runs(&args.graph).map_err(|e| e.0)
}

#[tauri::command]
fn load_run(state: State<'_, AppState>, args: ipc::LoadRun) -> Reply<ipc::LoadRun> {
    state.workflows.load_run(&args.graph, &args.run).map_err(|e| e.0)
}

#[tauri::command]
fn save_run(state: State<'_, AppState>, args: ipc::SaveRun) -> Reply<ipc::SaveRun> {
    state.workflows.save_run(&args.graph, &args.run, &args.text).map_err(|e| e.0)
}

#[tauri::command]
fn delete_run(state: State<'_, AppState>, args: ipc::DeleteRun) -> Reply<ipc::DeleteRun> {
    state.workflows.delete_run(&args.graph, &args.run).map_err(|e| e.0)
}

#[tauri::command]
fn load_suite(state: State<'_, AppState>, args: ipc::LoadSuite) -> Reply<ipc::LoadSuite> {
    state.workflows.load_suite(&args.graph).map_err(|e| e.0)
}

#[tauri::command]
fn save_suite(state: State<'_, AppState>, args: ipc::SaveSuite) -> Reply<ipc::SaveSuite> {
    state.workflows.save_suite(&args.graph, &args.text).map_err(|e| e.0)
}

/// Asks the user for a graph file anywhere and reads it.
#[tauri::command]
async fn open_file(app: tauri::AppHandle, state: State<'_, AppState>, args: ipc::OpenFile) -> Reply<ipc::OpenFile> {
    let ipc::OpenFile {} = args;
    let picked = app.dialog().file().add_filter("Switchyard graph", &["json"]).blocking_pick_file();
    let Some(path) = picked.and_then(|p| p.into_path().ok()) else { return Ok(None) };
    let text = given::read_given(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    remember(&app, &state, &path, &text);
    Ok(Some(ipc::Picked { path: path.display().to_string(), text }))
}

/// Asks the user where to save, then writes the document there atomically.
#[tauri::command]
async fn save_file_as(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    args: ipc::SaveFileAs,
) -> Reply<ipc::SaveFileAs> {
    let picked = app
        .dialog()
        .file()
        .add_filter("Switchyard graph", &["json"])
        .set_file_name(&args.suggested)
        .blocking_save_file();
    let Some(path) = picked.and_then(|p| p.into_path().ok()) else { return Ok(None) };
    write_atomic(&path, &args.text).map_err(|e| saving_error(&path, &e))?;
    remember(&app, &state, &path, &args.text);
    Ok(Some(path.display().to_string()))
}

/// Lets the app save back to `path`, which the user chose, and lists it first in Open Recent
/// when `text` is a graph (the editor opens nothing else).
fn remember(app: &AppHandle, state: &AppState, path: &std::path::Path, text: &str) {
    if let Ok(mut picked) = state.picked.lock() {
        picked.insert(path.to_path_buf());
    }
    if engine::parse_graph(text).is_ok() {
        change_recent(app, state, |list| recent::remember(list, &path.display().to_string()));
    }
}

/// Changes the recent files list kept in the settings, and the menu showing it.
fn change_recent(app: &AppHandle, state: &AppState, change: impl FnOnce(&mut Vec<String>)) {
    let mut settings = state.config.load();
    change(&mut settings.recent);
    // A settings file that cannot be written keeps the list for this session only.
    let _ = state.config.save(&settings);
    let _ = menu::fill_recent(app, &state.recent_menu, &settings.recent);
}

/// Saves a file the user picked earlier with Open… or Save As…, atomically.
#[tauri::command]
fn save_external(state: State<'_, AppState>, args: ipc::SaveExternal) -> Reply<ipc::SaveExternal> {
    let path = PathBuf::from(args.path);
    let allowed = state.picked.lock().map(|p| p.contains(&path)).unwrap_or(false);
    if !allowed {
        return Err(format!("{} was not chosen in a file dialog, so the app will not write it", path.display()));
    }
    write_atomic(&path, &args.text).map_err(|e| saving_error(&path, &e))?;
    let modified_ms = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as u64);
    Ok(ipc::Saved { modified_ms })
}

/// A node's request as the app sends it: a model call written to the OpenAI address goes to
/// the Base URL setting; the key added is the one kept for the origin the request goes to,
/// and `net` reads that origin again with the client's own parser before it sends it (a
/// [`KeyRing`] trusting that one origin). `held` is every key kept, removed from replies.
struct Outgoing {
    request: HttpRequest,
    key: Option<String>,
    trusted: Vec<Origin>,
    held: Vec<String>,
}

impl Outgoing {
    fn new(state: &AppState, request: ipc::HttpRequest) -> Outgoing {
        let settings = state.config.load();
        let auth = match request.auth.as_deref() {
            Some(ipc::AUTH_OPENAI) => Some(Auth::OpenAi),
            Some(ipc::AUTH_ANTHROPIC) => Some(Auth::Anthropic),
            _ => None,
        };
        let mut url = request.url;
        if auth == Some(Auth::OpenAi)
            && let Some(base) = settings.openai_base_url.as_deref().filter(|b| !b.trim().is_empty())
            && let Some(rest) = url.strip_prefix("https://api.openai.com/v1")
        {
            url = format!("{}{rest}", base.trim().trim_end_matches('/'));
        }
        let mut ring = KeyRing::new();
        if let (Some(auth), Some(provider)) = (auth, request.auth.as_deref())
            && let Some(entry) = settings.key_for(provider, &url)
            && let Some(origin) = Origin::of(&entry.origin)
        {
            ring.add_key(auth, &entry.key);
            ring.trust(origin);
        }
        let key = auth.and_then(|a| ring.key_for(a, &url)).map(str::to_string);
        let request = HttpRequest {
            method: request.method,
            url,
            headers: request.headers,
            body: request.body,
            timeout_ms: request.timeout_ms,
            auth: if key.is_some() { auth } else { None },
        };
        let held = settings.keys.iter().map(|k| k.key.clone()).collect();
        Outgoing { request, key, trusted: ring.trusted().to_vec(), held }
    }

    /// `text` without any key the app keeps.
    fn clean(&self, text: &str) -> String {
        engine::host::redact(text, self.held.iter().map(String::as_str))
    }
}

fn failure(f: engine::host::HttpFailure) -> ipc::HttpFailure {
    ipc::HttpFailure { message: f.message, timed_out: f.timed_out }
}

/// Runs `send` on a blocking thread, answering with its reply cleaned of every kept key.
async fn sent(
    out: Outgoing,
    send: impl FnOnce(&Outgoing) -> Result<engine::host::HttpResponse, engine::host::HttpFailure> + Send + 'static,
) -> Result<ipc::HttpReply, ipc::HttpFailure> {
    tauri::async_runtime::spawn_blocking(move || {
        send(&out)
            .map(|r| ipc::HttpReply { status: r.status, body: out.clean(&r.body), headers: r.headers })
            .map_err(failure)
    })
    .await
    .map_err(|e| ipc::HttpFailure { message: e.to_string(), timed_out: false })?
}

/// Sends a node's request natively ([`Outgoing`]).
#[tauri::command]
async fn http(state: State<'_, AppState>, args: ipc::Http) -> Result<ipc::HttpReply, ipc::HttpFailure> {
    let out = Outgoing::new(&state, args.request);
    sent(out, |o| net::send_bound(&o.request, o.key.as_deref(), &o.trusted)).await
}

/// Sends a model's request natively ([`Outgoing`]) and passes each piece of its reply, as it
/// arrives, through the page's channel; the reply holds the whole body.
#[tauri::command]
async fn http_stream(
    webview: tauri::Webview,
    state: State<'_, AppState>,
    args: ipc::HttpStream,
) -> Result<ipc::HttpReply, ipc::HttpFailure> {
    let channel: Channel<String> = JavaScriptChannelId::from_str(&args.channel.to_string())
        .map_err(|e| ipc::HttpFailure { message: e.to_string(), timed_out: false })?
        .channel_on(webview);
    let out = Outgoing::new(&state, args.request);
    sent(out, move |o| {
        net::stream::send_stream_bound(&o.request, o.key.as_deref(), &o.trusted, &mut |piece| {
            // A page that went away stops listening; the request still finishes.
            let _ = channel.send(o.clean(piece));
        })
    })
    .await
}

#[tauri::command]
fn get_settings(state: State<'_, AppState>, args: ipc::GetSettings) -> <ipc::GetSettings as ipc::Command>::Reply {
    let ipc::GetSettings {} = args;
    let s = state.config.load();
    let traces = public_traces(&s);
    ipc::PublicSettings {
        key_origins: s
            .keys
            .iter()
            .map(|k| ipc::KeyOrigin { origin: k.origin.clone(), provider: k.provider.clone() })
            .collect(),
        openai_base_url: s.openai_base_url,
        workflows_dir: state.workflows.dir().display().to_string(),
        notices: state.config.take_notices(),
        allowed_commands: s.allowed_commands,
        traces,
    }
}

/// The Traces setting as the page may see it: header names, never their values.
fn public_traces(s: &Settings) -> ipc::PublicTraces {
    let from_environment = switchyard_otel::Config::from_env().ok().flatten().map(|c| c.endpoint_for_display());
    match &s.traces {
        Some(t) => ipc::PublicTraces {
            endpoint: t.endpoint.clone(),
            header_names: t.headers.iter().map(|(name, _)| name.clone()).collect(),
            capture_content: t.capture_content,
            from_environment,
        },
        None => ipc::PublicTraces { from_environment, ..ipc::PublicTraces::default() },
    }
}

/// Sets (or, with an empty endpoint, turns off) the Traces setting and restarts the
/// exporter to match.
#[tauri::command]
fn set_traces(state: State<'_, AppState>, args: ipc::SetTraces) -> Reply<ipc::SetTraces> {
    let mut s = state.config.load();
    s.traces = if args.endpoint.trim().is_empty() {
        None
    } else {
        Some(TraceSettings::from_dialog(
            &args.endpoint,
            args.headers.as_deref(),
            args.capture_content,
            s.traces.as_ref(),
        )?)
    };
    state.config.save(&s).map_err(|e| e.0)?;
    state.traces.apply(traces::config_of(&s)?);
    Ok(())
}

/// Sends a run's latest session as a trace, mapped on a blocking thread.
#[tauri::command]
async fn export_trace(state: State<'_, AppState>, args: ipc::ExportTrace) -> Reply<ipc::ExportTrace> {
    let record: engine::record::RunRecord =
        serde_json::from_str(&args.record).map_err(|e| format!("not a run record: {e}"))?;
    let graph = args.graph.as_deref().and_then(|g| engine::parse_graph(g).ok());
    let traces = state.traces.clone();
    tauri::async_runtime::spawn_blocking(move || traces.export(&record, graph.as_ref()))
        .await
        .map_err(|e| e.to_string())
}

/// Sets the base URL, and keeps a new key for its origin when one is given.
#[tauri::command]
fn set_settings(state: State<'_, AppState>, args: ipc::SetSettings) -> Reply<ipc::SetSettings> {
    let mut s = state.config.load();
    if let Some(new) = args.add_key {
        let origin = Origin::of(new.origin.trim())
            .ok_or_else(|| format!("{:?} is not an http(s) origin", new.origin))?
            .to_string();
        if new.key.trim().is_empty() {
            return Err("the key is empty".into());
        }
        s.set_key(OriginKey { origin, provider: new.provider, key: new.key.trim().to_string() });
    }
    s.openai_base_url = args.base_url.filter(|b| !b.trim().is_empty());
    state.config.save(&s).map_err(|e| e.0)?;
    let _: Settings = s;
    Ok(())
}

/// Forgets one origin's key.
#[tauri::command]
fn remove_key(state: State<'_, AppState>, args: ipc::RemoveKey) -> Reply<ipc::RemoveKey> {
    let mut s = state.config.load();
    s.remove_key(&args.origin, &args.provider);
    state.config.save(&s).map_err(|e| e.0)
}

/// Carries out one exchange with an MCP server ([`mcp`]) on a blocking thread.
#[tauri::command]
async fn mcp_exchange(state: State<'_, AppState>, args: ipc::McpExchange) -> Reply<ipc::McpExchange> {
    let x: engine::host::McpExchange =
        serde_json::from_str(&args.exchange).map_err(|e| format!("not an MCP exchange: {e}"))?;
    let settings = state.config.load();
    let open = state.mcp_open.clone();
    let reply = tauri::async_runtime::spawn_blocking(move || {
        let reply = mcp::exchange(&x, &settings);
        open.note(&x.endpoint, &reply);
        reply
    })
    .await
    .map_err(|e| e.to_string())?;
    serde_json::to_string(&reply).map_err(|e| e.to_string())
}

/// Ends an MCP session its run no longer needs, on a blocking thread.
#[tauri::command]
async fn mcp_close(state: State<'_, AppState>, args: ipc::McpClose) -> Reply<ipc::McpClose> {
    let endpoint: engine::host::McpEndpoint =
        serde_json::from_str(&args.endpoint).map_err(|e| format!("not an MCP endpoint: {e}"))?;
    let settings = state.config.load();
    state.mcp_open.forget(args.connection.as_deref(), args.session_id.as_deref());
    tauri::async_runtime::spawn_blocking(move || {
        let policy = mcp::policy(&endpoint, &settings);
        net::mcp::close(&endpoint, args.connection.as_deref(), args.session_id.as_deref(), &policy);
    })
    .await
    .map_err(|e| e.to_string())
}

/// Remembers command lines the person approved for MCP servers.
#[tauri::command]
fn allow_commands(state: State<'_, AppState>, args: ipc::AllowCommands) -> Reply<ipc::AllowCommands> {
    let mut s = state.config.load();
    s.allow_commands(&args.lines);
    state.config.save(&s).map_err(|e| e.0)
}

#[tauri::command]
fn set_title(window: tauri::Window, args: ipc::SetTitle) -> Reply<ipc::SetTitle> {
    window.set_title(&args.title).map_err(|e| e.to_string())
}

/// Reads the files given from outside since the last call. A file read can be saved back to,
/// as one picked in a dialog, and a graph goes first in Open Recent; a file that has gone
/// leaves it. Anyone can name a file there, a FIFO or a device too: the files are read off
/// the main thread (an async command), regular files only, up to the import limit ([`given`]).
#[tauri::command]
async fn take_opened(app: AppHandle, state: State<'_, AppState>, args: ipc::TakeOpened) -> Reply<ipc::TakeOpened> {
    let ipc::TakeOpened {} = args;
    let paths = std::mem::take(&mut *state.opened.lock().map_err(|e| e.to_string())?);
    let read = tauri::async_runtime::spawn_blocking(move || {
        paths.into_iter().map(|path| (given::read_given(&path), path)).collect::<Vec<_>>()
    })
    .await
    .map_err(|e| e.to_string())?;
    Ok(read
        .into_iter()
        .map(|(read, path)| {
            match &read {
                Ok(text) => remember(&app, &state, &path, text),
                Err(given::NotRead::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                    change_recent(&app, &state, |list| recent::forget(list, &path.display().to_string()));
                }
                Err(_) => {}
            }
            ipc::Opened { path: path.display().to_string(), text: read.map_err(|e| e.to_string()) }
        })
        .collect())
}

/// Carries out a text editing command in the focused field, natively: the menu's shortcut
/// keys reach the menu before the page (WebKitGTK; elsewhere the page's keys do it).
#[tauri::command]
fn edit_text(webview: tauri::Webview, args: ipc::EditText) -> Reply<ipc::EditText> {
    let command = args.edit.webkit_name();
    webview
        .with_webview(move |view| {
            #[cfg(target_os = "linux")]
            {
                use webkit2gtk::WebViewExt;
                view.inner().execute_editing_command(command);
            }
            #[cfg(not(target_os = "linux"))]
            let _ = (view, command);
        })
        .map_err(|e| e.to_string())
}

/// The system clipboard's text (the menu's Paste of nodes).
#[tauri::command]
async fn read_clipboard(app: AppHandle, args: ipc::ReadClipboard) -> Reply<ipc::ReadClipboard> {
    let ipc::ReadClipboard {} = args;
    // Refused over the import limit: the editor would parse it whole.
    clipboard::read_text(&app)
        .await
        .map(given::pasted)
        .transpose()
        .map_err(|e| format!("the clipboard's text is too large: {e}"))
}

/// The native menus' items as built (the desktop test compares them with the palette).
#[tauri::command]
fn menu_items(app: AppHandle, args: ipc::MenuItems) -> Reply<ipc::MenuItems> {
    let ipc::MenuItems {} = args;
    menu::entries(&app).map_err(|e| e.to_string())
}

#[tauri::command]
fn close_window(window: tauri::Window, args: ipc::CloseWindow) -> Reply<ipc::CloseWindow> {
    let ipc::CloseWindow {} = args;
    window.close().map_err(|e| e.to_string())
}

/// Why `path` could not be saved, in words for the user.
fn saving_error(path: &std::path::Path, e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => {
            format!("{} cannot be written there (the file or its folder is read-only)", path.display())
        }
        ErrorKind::NotFound => format!("the folder of {} is gone", path.display()),
        _ => format!("saving {}: {e}", path.display()),
    }
}

/// The files among a command line's arguments (after the program), made absolute from `cwd`:
/// every argument that is not an option.
fn files_in(args: impl IntoIterator<Item = String>, cwd: &std::path::Path) -> Vec<PathBuf> {
    args.into_iter().skip(1).filter(|a| !a.starts_with('-')).map(|a| cwd.join(a)).collect()
}

/// Queues files given from outside for the editor, which takes them (`take_opened`).
fn queue_opened(app: &tauri::AppHandle, files: Vec<PathBuf>) {
    if files.is_empty() {
        return;
    }
    if let Some(state) = app.try_state::<AppState>()
        && let Ok(mut opened) = state.opened.lock()
    {
        opened.extend(files);
    }
}

/// Tells the editor files were queued. It takes them at this event: a focus event may not
/// come (the window may have it already, or the desktop may not pass it on).
fn hand_to_editor(app: &tauri::AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.eval(format!("window.dispatchEvent(new Event('{}'))", ipc::FILES_GIVEN_EVENT));
    }
}

fn on_menu(app: &AppHandle, event: &MenuEvent) {
    let Some(chosen) = menu::Chosen::of(event) else { return };
    let Some(state) = app.try_state::<AppState>() else { return };
    match chosen {
        menu::Chosen::Editor(action) => menu::to_editor(app, action),
        menu::Chosen::Recent(n) => {
            let list = state.config.load().recent;
            if let Some(path) = menu::recent_path(&list, n) {
                queue_opened(app, vec![path]);
                hand_to_editor(app);
            }
        }
        menu::Chosen::ClearRecent => change_recent(app, &state, Vec::clear),
        menu::Chosen::Reference => {
            if let Err(e) = reference::show(app) {
                eprintln!("switchyard: the format reference could not open: {e}");
            }
        }
    }
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
        // First: a second launch hands its files to this one and exits.
        .plugin(tauri_plugin_single_instance::init(|app, argv, cwd| {
            queue_opened(app, files_in(argv, std::path::Path::new(&cwd)));
            if let Some(window) = app.get_webview_window("main") {
                let _ = window.unminimize();
                let _ = window.set_focus();
            }
            hand_to_editor(app);
        }))
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            let dir = data_dir(app);
            let workflows = Workflows::open(dir.join("workflows"))?;
            let config = Config::new(dir.join("settings.json"));
            let cwd = std::env::current_dir().unwrap_or_default();
            let opened = Mutex::new(files_in(std::env::args(), &cwd));
            let (bar, recent_menu) = menu::build(app.handle(), &config.load().recent)?;
            app.set_menu(bar)?;
            app.on_menu_event(|app, event| on_menu(app, &event));
            let traces = traces::Traces::default();
            match traces::config_of(&config.load()) {
                Ok(c) => traces.apply(c),
                // A bad variable costs the traces, never the app.
                Err(why) => eprintln!("switchyard: traces are off: {why}"),
            }
            app.manage(AppState {
                workflows,
                config,
                picked: Mutex::new(HashSet::new()),
                opened,
                recent_menu,
                mcp_open: mcp::Open::default(),
                traces,
            });
            Ok(())
        })
        .on_window_event(|window, event| {
            // The servers runs started end with the window that ran them.
            if let tauri::WindowEvent::Destroyed = event
                && let Some(state) = window.app_handle().try_state::<AppState>()
                && window.label() == "main"
            {
                state.mcp_open.close_all(&state.config.load());
            }
        })
        .register_uri_scheme_protocol(reference::SCHEME, |_, request| reference::serve(request))
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
            load_suite,
            save_suite,
            open_file,
            save_file_as,
            save_external,
            http,
            http_stream,
            get_settings,
            set_settings,
            remove_key,
            set_title,
            take_opened,
            edit_text,
            close_window,
            read_clipboard,
            menu_items,
            mcp_exchange,
            mcp_close,
            allow_commands,
            set_traces,
            export_trace
        ])
        .build(tauri::generate_context!())
        .unwrap_or_else(|e| {
            eprintln!("switchyard: the desktop app could not start: {e}");
            std::process::exit(1);
        })
        .run(|app, event| {
            // Spans still queued go out before the app ends, waiting a bounded time.
            if let tauri::RunEvent::Exit = event
                && let Some(state) = app.try_state::<AppState>()
            {
                state.traces.shut_down();
            }
        });
}
