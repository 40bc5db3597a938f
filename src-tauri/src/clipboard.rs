//! The system clipboard's text, read natively: the menu's Paste (Ctrl+V reaches the menu, not
//! the page, so the page gets no paste event), and WebKitGTK does not let the page read the
//! clipboard without one.

use std::sync::mpsc;
use std::time::Duration;

use tauri::AppHandle;

/// How long a clipboard owner may take to answer (GTK asks it over X).
const WAIT: Duration = Duration::from_secs(3);

/// The clipboard's text, or `None` when it holds none (or its owner does not answer).
pub async fn read_text(app: &AppHandle) -> Option<String> {
    let (tx, rx) = mpsc::channel();
    // GTK's clipboard lives on the main thread; it answers through the callback.
    app.run_on_main_thread(move || request(tx)).ok()?;
    tauri::async_runtime::spawn_blocking(move || rx.recv_timeout(WAIT).ok().flatten()).await.ok().flatten()
}

#[cfg(target_os = "linux")]
fn request(tx: mpsc::Sender<Option<String>>) {
    let clipboard = gtk::Clipboard::get(&gtk::gdk::SELECTION_CLIPBOARD);
    clipboard.request_text(move |_, text| {
        let _ = tx.send(text.map(str::to_string));
    });
}

#[cfg(not(target_os = "linux"))]
fn request(tx: mpsc::Sender<Option<String>>) {
    let _ = tx.send(None);
}
