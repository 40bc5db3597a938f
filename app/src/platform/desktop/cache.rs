//! The workflows folder as the editor works with it: a cache filled at start-up (see
//! [`preload`]) so reads are synchronous like the browser's; writes update the cache at once
//! and go to disk in the background, and a failure is reported through the error hook while
//! the work stays in memory.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use switchyard_ipc as cmd;
use switchyard_ipc::FileEntry;

use super::ipc::call;
use crate::model::storage::doc_id::DocId;
use crate::model::storage::saved_run::{MAX_RUNS_PER_GRAPH, evicted_on_load_notice, kept_and_evicted};

#[derive(Default)]
struct Cache {
    entries: Vec<FileEntry>,
    /// Document → its text, as last read or written.
    texts: HashMap<DocId, String>,
    /// Modification times we know of, to notice changes by other programs.
    modified: HashMap<DocId, u64>,
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
pub fn set_error_hook(f: ErrorHook) {
    ON_ERROR.with(|h| *h.borrow_mut() = Some(f));
}

pub(super) fn report(message: String) {
    ON_ERROR.with(|h| {
        if let Some(f) = h.borrow().as_ref() {
            f(message);
        }
    });
}

/// Reads the workflows folder (and each graph's runs) before the editor starts.
pub async fn preload() -> Vec<String> {
    let mut problems = Vec::new();
    let entries = match call(&cmd::ListGraphs {}).await {
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
        if let Ok(l) = call(&cmd::LoadGraph { file: e.file.clone() }).await {
            let id = DocId::Library(e.file.clone());
            CACHE.with(|c| {
                let mut c = c.borrow_mut();
                c.texts.insert(id.clone(), l.text);
                c.modified.insert(id, l.modified_ms);
            });
        }
        let runs = call(&cmd::ListRuns { graph: e.file.clone() }).await.unwrap_or_default();
        for run in runs.into_iter().take(MAX_RUNS_PER_GRAPH) {
            if let Ok(text) = call(&cmd::LoadRun { graph: e.file.clone(), run: run.clone() }).await {
                CACHE.with(|c| c.borrow_mut().runs.entry(e.file.clone()).or_default().insert(run, text));
            }
        }
    }
    CACHE.with(|c| c.borrow_mut().entries = entries);
    problems
}

/// Reads the saved runs of a graph file opened from elsewhere (by its path) the first time it
/// is opened: only the workflows folder's are read at start-up. Those beyond the newest
/// [`MAX_RUNS_PER_GRAPH`] (earlier versions never removed them) go, as a save would remove
/// them; afterwards a save removes the oldest, as for every graph.
pub async fn load_runs_of_file(graph: String) {
    if CACHE.with(|c| c.borrow().runs.contains_key(&graph)) {
        return;
    }
    let ids = call(&cmd::ListRuns { graph: graph.clone() }).await.unwrap_or_default();
    let (kept, evicted) = kept_and_evicted(&ids);
    let mut loaded = BTreeMap::new();
    for run in kept {
        if let Ok(text) = call(&cmd::LoadRun { graph: graph.clone(), run: run.clone() }).await {
            loaded.insert(run.clone(), text);
        }
    }
    for run in evicted {
        let _ = call(&cmd::DeleteRun { graph: graph.clone(), run: run.clone() }).await;
    }
    if !evicted.is_empty() {
        report(evicted_on_load_notice(&graph, evicted.len()));
    }
    CACHE.with(|c| {
        // A run saved while these were read stays.
        let mut c = c.borrow_mut();
        let runs = c.runs.entry(graph).or_default();
        for (id, text) in loaded {
            runs.entry(id).or_insert(text);
        }
    });
}

pub fn entries() -> Vec<FileEntry> {
    CACHE.with(|c| c.borrow().entries.clone())
}

pub fn text(id: &DocId) -> Option<String> {
    CACHE.with(|c| c.borrow().texts.get(id).cloned())
}

/// Saves a graph: the cache now, the file in the background.
pub fn save(id: &DocId, text: String) {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        c.texts.insert(id.clone(), text.clone());
        if let DocId::Library(file) = id
            && !c.entries.iter().any(|e| &e.file == file)
        {
            c.entries.push(FileEntry { file: file.clone(), name: String::new(), modified_ms: 0, error: None });
        }
    });
    let id = id.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let result = match &id {
            DocId::Library(file) => call(&cmd::SaveGraph { file: file.clone(), text }).await,
            DocId::File(path) => call(&cmd::SaveExternal { path: path.display().to_string(), text }).await,
        };
        match result {
            Ok(s) => CACHE.with(|c| {
                c.borrow_mut().modified.insert(id, s.modified_ms);
            }),
            Err(why) => report(format!("Could not save {id}: {why}. Your work is kept in this window.")),
        }
    });
}

pub fn delete(file: &str) {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        c.texts.remove(&DocId::Library(file.to_string()));
        c.entries.retain(|e| e.file != file);
        c.runs.remove(file);
    });
    let file = file.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(why) = call(&cmd::DeleteGraph { file: file.clone() }).await {
            report(format!("Could not delete {file}: {why}"));
        }
    });
}

/// Whether another program changed the file since we last read or wrote it: its new text.
pub async fn changed_on_disk(id: DocId) -> Option<String> {
    // Files outside the folder are not watched.
    let DocId::Library(file) = &id else { return None };
    let now = call(&cmd::GraphModified { file: file.clone() }).await.ok()?;
    let known = CACHE.with(|c| c.borrow().modified.get(&id).copied())?;
    if now <= known {
        return None;
    }
    let l = call(&cmd::LoadGraph { file: file.clone() }).await.ok()?;
    let ours = text(&id);
    CACHE.with(|c| {
        c.borrow_mut().modified.insert(id.clone(), l.modified_ms);
    });
    (ours.as_deref() != Some(l.text.as_str())).then_some(l.text)
}

pub fn runs(file: &str) -> BTreeMap<String, String> {
    CACHE.with(|c| c.borrow().runs.get(file).cloned().unwrap_or_default())
}

pub fn save_run(file: &str, run: &str, text: String) {
    CACHE.with(|c| c.borrow_mut().runs.entry(file.to_string()).or_default().insert(run.to_string(), text.clone()));
    let (graph, run) = (file.to_string(), run.to_string());
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(why) = call(&cmd::SaveRun { graph, run, text }).await {
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
    let (graph, run) = (file.to_string(), run.to_string());
    wasm_bindgen_futures::spawn_local(async move {
        let _ = call(&cmd::DeleteRun { graph, run }).await;
    });
}
