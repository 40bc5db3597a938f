//! The window's native menus: File, Edit, Run and Help, with the usual shortcut keys.
//!
//! Items that edit or run the graph are [`MenuAction`]s, carried out by the editor: choosing
//! one dispatches [`ipc::MENU_EVENT`] in its window. The app handles the rest itself: Open
//! Recent (the file goes the way of one given on the command line), the format reference
//! (a window of its own) and About (GTK's dialog).

use std::path::{Path, PathBuf};

use switchyard_ipc::{self as ipc, MenuAction};
use tauri::menu::{AboutMetadata, Menu, MenuEvent, MenuItem, PredefinedMenuItem, Submenu};
use tauri::{AppHandle, Manager, Wry};

/// The Open Recent submenu's id; its items are `recent.N`, N indexing the recent list.
const RECENT_MENU: &str = "file.recent";
const RECENT_ITEM: &str = "recent.";
const CLEAR_RECENT: &str = "recent.clear";
const REFERENCE: &str = "help.reference";

/// An item's label (`&` before its mnemonic) and shortcut.
fn label(action: MenuAction) -> (&'static str, Option<&'static str>) {
    match action {
        MenuAction::New => ("&New", Some("CmdOrCtrl+N")),
        MenuAction::Open => ("&Open…", Some("CmdOrCtrl+O")),
        MenuAction::Save => ("&Save", Some("CmdOrCtrl+S")),
        MenuAction::SaveAs => ("Save &As…", Some("CmdOrCtrl+Shift+S")),
        MenuAction::Export => ("&Export…", Some("CmdOrCtrl+E")),
        MenuAction::Close => ("&Close", Some("CmdOrCtrl+W")),
        MenuAction::Undo => ("&Undo", Some("CmdOrCtrl+Z")),
        MenuAction::Redo => ("&Redo", Some("CmdOrCtrl+Shift+Z")),
        MenuAction::Cut => ("Cu&t", Some("CmdOrCtrl+X")),
        MenuAction::Copy => ("&Copy", Some("CmdOrCtrl+C")),
        MenuAction::Paste => ("&Paste", Some("CmdOrCtrl+V")),
        MenuAction::SelectAll => ("Select &All", Some("CmdOrCtrl+A")),
        MenuAction::Run => ("&Run", Some("F5")),
        MenuAction::Step => ("&Step", Some("F10")),
        MenuAction::Back => ("&Back", Some("F9")),
        MenuAction::Continue => ("&Continue", Some("F8")),
        MenuAction::Reset => ("R&eset", Some("Shift+F5")),
    }
}

fn item(app: &AppHandle, action: MenuAction) -> tauri::Result<MenuItem<Wry>> {
    let (text, keys) = label(action);
    MenuItem::with_id(app, action.id(), text, true, keys)
}

/// The menu bar, with `recent` in Open Recent; also returns that submenu, to refill later.
pub fn build(app: &AppHandle, recent: &[String]) -> tauri::Result<(Menu<Wry>, Submenu<Wry>)> {
    let sep = || PredefinedMenuItem::separator(app);
    let recent_menu = Submenu::with_id(app, RECENT_MENU, "Open &Recent", true)?;
    fill_recent(app, &recent_menu, recent)?;
    let file = Submenu::with_items(
        app,
        "&File",
        true,
        &[
            &item(app, MenuAction::New)?,
            &item(app, MenuAction::Open)?,
            &recent_menu,
            &sep()?,
            &item(app, MenuAction::Save)?,
            &item(app, MenuAction::SaveAs)?,
            &item(app, MenuAction::Export)?,
            &sep()?,
            &item(app, MenuAction::Close)?,
        ],
    )?;
    let edit = Submenu::with_items(
        app,
        "&Edit",
        true,
        &[
            &item(app, MenuAction::Undo)?,
            &item(app, MenuAction::Redo)?,
            &sep()?,
            &item(app, MenuAction::Cut)?,
            &item(app, MenuAction::Copy)?,
            &item(app, MenuAction::Paste)?,
            &sep()?,
            &item(app, MenuAction::SelectAll)?,
        ],
    )?;
    let run = Submenu::with_items(
        app,
        "&Run",
        true,
        &[
            &item(app, MenuAction::Run)?,
            &item(app, MenuAction::Step)?,
            &item(app, MenuAction::Back)?,
            &item(app, MenuAction::Continue)?,
            &sep()?,
            &item(app, MenuAction::Reset)?,
        ],
    )?;
    let about = AboutMetadata {
        name: Some("Switchyard".into()),
        version: Some(env!("CARGO_PKG_VERSION").into()),
        comments: Some("Design LangGraph-style workflows, run them and step through every run.".into()),
        license: Some(env!("CARGO_PKG_LICENSE").into()),
        icon: app.default_window_icon().cloned(),
        ..AboutMetadata::default()
    };
    let help = Submenu::with_items(
        app,
        "&Help",
        true,
        &[
            &MenuItem::with_id(app, REFERENCE, "The Graph &Format", true, Some("F1"))?,
            &sep()?,
            &PredefinedMenuItem::about(app, Some("&About Switchyard"), Some(about))?,
        ],
    )?;
    let bar = Menu::with_items(app, &[&file, &edit, &run, &help])?;
    Ok((bar, recent_menu))
}

/// Replaces Open Recent's items with `recent` (numbered 1 to 10, each its own mnemonic).
pub fn fill_recent(app: &AppHandle, menu: &Submenu<Wry>, recent: &[String]) -> tauri::Result<()> {
    for old in menu.items()? {
        menu.remove(&old)?;
    }
    if recent.is_empty() {
        menu.append(&MenuItem::new(app, "No recent files", false, None::<&str>)?)?;
        return Ok(());
    }
    for (i, path) in recent.iter().enumerate() {
        let text = recent_label(i, Path::new(path));
        menu.append(&MenuItem::with_id(app, format!("{RECENT_ITEM}{i}"), text, true, None::<&str>)?)?;
    }
    menu.append(&PredefinedMenuItem::separator(app)?)?;
    menu.append(&MenuItem::with_id(app, CLEAR_RECENT, "&Clear Menu", true, None::<&str>)?)?;
    Ok(())
}

/// `&1 name — folder`: the number is the mnemonic, a `&` in the path is shown as itself.
fn recent_label(i: usize, path: &Path) -> String {
    let number = if i < 9 { format!("&{}", i + 1) } else { format!("1&{}", i - 9) };
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let folder = path.parent().map(|p| p.display().to_string()).unwrap_or_default();
    format!("{number}  {} — {}", name.replace('&', "&&"), folder.replace('&', "&&"))
}

/// What a chosen menu item is.
pub enum Chosen {
    /// For the editor.
    Editor(MenuAction),
    /// The n-th recent file.
    Recent(usize),
    ClearRecent,
    Reference,
}

impl Chosen {
    pub fn of(event: &MenuEvent) -> Option<Chosen> {
        let id = event.id().as_ref();
        if id == CLEAR_RECENT {
            return Some(Chosen::ClearRecent);
        }
        if id == REFERENCE {
            return Some(Chosen::Reference);
        }
        if let Some(n) = id.strip_prefix(RECENT_ITEM) {
            return n.parse().ok().map(Chosen::Recent);
        }
        MenuAction::from_id(id).map(Chosen::Editor)
    }
}

/// Dispatches `action` to the editor in the main window.
pub fn to_editor(app: &AppHandle, action: MenuAction) {
    if let Some(window) = app.get_webview_window("main") {
        // The id is one of ours ([`MenuAction::id`]): plain ASCII, quoted as a JSON string.
        let detail = serde_json::Value::from(action.id());
        let _ = window
            .eval(format!("window.dispatchEvent(new CustomEvent('{}', {{ detail: {detail} }}))", ipc::MENU_EVENT));
    }
}

/// The recent file chosen, as a path.
pub fn recent_path(recent: &[String], n: usize) -> Option<PathBuf> {
    recent.get(n).map(PathBuf::from)
}
