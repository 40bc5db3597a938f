//! The desktop backend: when the editor runs inside the Tauri app, graphs and runs live in
//! files, reached through the app's commands. The UI works with a cache filled at start-up
//! (see [`preload`]); writes go to disk in the background, and a failure is reported through
//! the error hook while the work stays in memory.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Whether the editor runs inside the desktop app.
pub fn is_desktop() -> bool {
    web_sys::window().is_some_and(|w| js_sys::Reflect::has(&w, &"__TAURI_INTERNALS__".into()).unwrap_or(false))
}

/// Calls a desktop command; `args` is a JSON object of its arguments.
pub async fn invoke<T: DeserializeOwned>(cmd: &str, args: Value) -> Result<T, String> {
    let window = web_sys::window().ok_or("no window")?;
    let internals =
        js_sys::Reflect::get(&window, &"__TAURI_INTERNALS__".into()).map_err(|_| "not in the desktop app")?;
    let invoke: js_sys::Function =
        js_sys::Reflect::get(&internals, &"invoke".into()).ok().and_then(|f| f.dyn_into().ok()).ok_or("no invoke")?;
    let js_args = js_sys::JSON::parse(&args.to_string()).map_err(|_| "bad arguments")?;
    let promise: js_sys::Promise = invoke
        .call2(&internals, &JsValue::from_str(cmd), &js_args)
        .map_err(describe)?
        .dyn_into()
        .map_err(|_| "no promise")?;
    let result = JsFuture::from(promise).await.map_err(describe)?;
    let text = js_sys::JSON::stringify(&result).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "null".into());
    serde_json::from_str(&text).map_err(|e| format!("unexpected reply to {cmd}: {e}"))
}

fn describe(e: JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::JSON::stringify(&e).ok().and_then(|s| s.as_string()))
        .unwrap_or_else(|| "the desktop app refused".into())
}

/// One file of the workflows folder, as the app lists it.
#[derive(Debug, Clone, Deserialize)]
pub struct FileEntry {
    pub file: String,
    pub modified_ms: u64,
    pub error: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
struct Loaded {
    text: String,
    modified_ms: u64,
}

#[derive(Default)]
struct Cache {
    entries: Vec<FileEntry>,
    /// File (or picked path) → its text, as last read or written.
    texts: HashMap<String, String>,
    /// Modification times we know of, to notice changes by other programs.
    modified: HashMap<String, u64>,
    /// Graph file → run id → run text.
    runs: HashMap<String, BTreeMap<String, String>>,
}

/// Receives messages about failed background writes.
type ErrorHook = Box<dyn Fn(String)>;

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
    static ON_ERROR: RefCell<Option<ErrorHook>> = const { RefCell::new(None) };
}

/// Where background write failures are reported.
pub fn set_error_hook(f: impl Fn(String) + 'static) {
    ON_ERROR.with(|h| *h.borrow_mut() = Some(Box::new(f)));
}

fn report(message: String) {
    ON_ERROR.with(|h| {
        if let Some(f) = h.borrow().as_ref() {
            f(message);
        }
    });
}

/// Reads the workflows folder (and each graph's runs) before the editor starts.
pub async fn preload() -> Vec<String> {
    let mut problems = Vec::new();
    let entries: Vec<FileEntry> = match invoke("list_graphs", json!({})).await {
        Ok(e) => e,
        Err(why) => {
            problems.push(format!("Could not read the workflows folder: {why}"));
            Vec::new()
        }
    };
    for e in &entries {
        if e.error.is_some() {
            continue;
        }
        if let Ok(l) = invoke::<Loaded>("load_graph", json!({"file": e.file})).await {
            CACHE.with(|c| {
                let mut c = c.borrow_mut();
                c.texts.insert(e.file.clone(), l.text);
                c.modified.insert(e.file.clone(), l.modified_ms);
            });
        }
        let runs: Vec<String> = invoke("list_runs", json!({"graph": e.file})).await.unwrap_or_default();
        for run in runs.into_iter().take(super::run_store::MAX_RUNS_PER_GRAPH) {
            if let Ok(text) = invoke::<String>("load_run", json!({"graph": e.file, "run": run})).await {
                CACHE.with(|c| c.borrow_mut().runs.entry(e.file.clone()).or_default().insert(run, text));
            }
        }
    }
    CACHE.with(|c| c.borrow_mut().entries = entries);
    problems
}

pub fn entries() -> Vec<FileEntry> {
    CACHE.with(|c| c.borrow().entries.clone())
}

pub fn text(file: &str) -> Option<String> {
    CACHE.with(|c| c.borrow().texts.get(file).cloned())
}

/// Saves a graph: the cache now, the file in the background.
pub fn save(file: &str, text: String) {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        c.texts.insert(file.to_string(), text.clone());
        if !file.starts_with('/') && !c.entries.iter().any(|e| e.file == file) {
            c.entries.push(FileEntry { file: file.to_string(), modified_ms: 0, error: None });
        }
    });
    let file = file.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        let (cmd, args) = if file.starts_with('/') {
            ("save_external", json!({"path": file, "text": text}))
        } else {
            ("save_graph", json!({"file": file, "text": text}))
        };
        #[derive(Deserialize)]
        struct Saved {
            modified_ms: u64,
        }
        match invoke::<Saved>(cmd, args).await {
            Ok(s) => CACHE.with(|c| {
                c.borrow_mut().modified.insert(file, s.modified_ms);
            }),
            Err(why) => report(format!("Could not save {file}: {why}. Your work is kept in this window.")),
        }
    });
}

pub fn delete(file: &str) {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        c.texts.remove(file);
        c.entries.retain(|e| e.file != file);
        c.runs.remove(file);
    });
    let file = file.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(why) = invoke::<()>("delete_graph", json!({"file": file})).await {
            report(format!("Could not delete {file}: {why}"));
        }
    });
}

/// Whether another program changed the file since we last read or wrote it.
pub async fn changed_on_disk(file: &str) -> Option<String> {
    if file.starts_with('/') {
        return None;
    }
    let now: u64 = invoke("graph_modified", json!({"file": file})).await.ok()?;
    let known = CACHE.with(|c| c.borrow().modified.get(file).copied())?;
    if now <= known {
        return None;
    }
    let l: Loaded = invoke("load_graph", json!({"file": file})).await.ok()?;
    let ours = text(file);
    CACHE.with(|c| {
        c.borrow_mut().modified.insert(file.to_string(), l.modified_ms);
    });
    (ours.as_deref() != Some(l.text.as_str())).then_some(l.text)
}

pub fn runs(file: &str) -> BTreeMap<String, String> {
    CACHE.with(|c| c.borrow().runs.get(file).cloned().unwrap_or_default())
}

pub fn save_run(file: &str, run: &str, text: String) {
    CACHE.with(|c| c.borrow_mut().runs.entry(file.to_string()).or_default().insert(run.to_string(), text.clone()));
    let (file, run) = (file.to_string(), run.to_string());
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(why) = invoke::<()>("save_run", json!({"graph": file, "run": run, "text": text})).await {
            report(format!("Could not save the run: {why}. It stays available until the window closes."));
        }
    });
}

pub fn delete_run(file: &str, run: &str) {
    CACHE.with(|c| {
        if let Some(r) = c.borrow_mut().runs.get_mut(file) {
            r.remove(run);
        }
    });
    let (file, run) = (file.to_string(), run.to_string());
    wasm_bindgen_futures::spawn_local(async move {
        let _ = invoke::<()>("delete_run", json!({"graph": file, "run": run})).await;
    });
}

/// Sets the window title.
pub fn set_title(title: String) {
    wasm_bindgen_futures::spawn_local(async move {
        let _ = invoke::<()>("set_title", json!({"title": title})).await;
    });
}
