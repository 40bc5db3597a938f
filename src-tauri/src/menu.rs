//! The window's native menus, built from the editor's command table
//! ([`switchyard_ipc::commands`]): File, Edit, View, Run and Help, each command's label,
//! accelerator and grouping as declared there.
//!
//! The editor carries its commands out: choosing one dispatches [`ipc::MENU_EVENT`] in its
//! window. The app handles the rest itself: Open Recent (the file goes the way of one given
//! on the command line), the format reference (a window of its own) and About (GTK's dialog).

use std::path::{Path, PathBuf};

use switchyard_ipc::commands::{self, CommandId, Menu as Place};
use switchyard_ipc::{self as ipc, MenuEntry};
use tauri::menu::{AboutMetadata, IsMenuItem, Menu, MenuEvent, MenuItem, MenuItemKind, PredefinedMenuItem, Submenu};
use tauri::{AppHandle, Manager, Wry};

/// The Open Recent submenu's id; its items are `recent.N`, N indexing the recent list.
const RECENT_MENU: &str = "file.recent";
const RECENT_ITEM: &str = "recent.";
const CLEAR_RECENT: &str = "recent.clear";
const REFERENCE: &str = "help.reference";

/// One command's menu item.
fn item(app: &AppHandle, command: &commands::Command) -> tauri::Result<MenuItem<Wry>> {
    let accelerator = command.accelerator().map(commands::Chord::accelerator);
    MenuItem::with_id(app, command.wire, command.label, true, accelerator)
}

/// The items of one menu: its commands, a separator between groups, and what the app adds
/// itself (Open Recent after Open, the reference and About at the end of Help).
fn menu_items(app: &AppHandle, menu: Place, recent: &Submenu<Wry>) -> tauri::Result<Vec<Box<dyn IsMenuItem<Wry>>>> {
    let mut items: Vec<Box<dyn IsMenuItem<Wry>>> = Vec::new();
    let mut group = None;
    for command in commands::COMMANDS.iter().filter(|c| c.menu == menu) {
        if group.is_some_and(|g| g != command.group) {
            items.push(Box::new(PredefinedMenuItem::separator(app)?));
        }
        group = Some(command.group);
        items.push(Box::new(item(app, command)?));
        if command.id == CommandId::Open {
            items.push(Box::new(recent.clone()));
        }
    }
    if menu == Place::Help {
        let about = AboutMetadata {
            name: Some("Switchyard".into()),
            version: Some(env!("CARGO_PKG_VERSION").into()),
            comments: Some("Design LangGraph-style workflows, run them and step through every run.".into()),
            license: Some(env!("CARGO_PKG_LICENSE").into()),
            icon: app.default_window_icon().cloned(),
            ..AboutMetadata::default()
        };
        items.push(Box::new(PredefinedMenuItem::separator(app)?));
        items.push(Box::new(MenuItem::with_id(app, REFERENCE, "The graph &format", true, None::<&str>)?));
        items.push(Box::new(PredefinedMenuItem::about(app, Some("&About Switchyard"), Some(about))?));
    }
    Ok(items)
}

/// The menu bar, with `recent` in Open Recent; also returns that submenu, to refill later.
pub fn build(app: &AppHandle, recent: &[String]) -> tauri::Result<(Menu<Wry>, Submenu<Wry>)> {
    let recent_menu = Submenu::with_id(app, RECENT_MENU, "Open &recent", true)?;
    fill_recent(app, &recent_menu, recent)?;
    let bar = Menu::new(app)?;
    for menu in Place::ALL {
        let items = menu_items(app, menu, &recent_menu)?;
        let refs: Vec<&dyn IsMenuItem<Wry>> = items.iter().map(|i| &**i).collect();
        bar.append(&Submenu::with_items(app, menu.label(), true, &refs)?)?;
    }
    Ok((bar, recent_menu))
}

/// The editor's commands in the window's menus as built, menu by menu; the accelerator is the
/// one each was built with (Tauri cannot read it back).
pub fn entries(app: &AppHandle) -> tauri::Result<Vec<MenuEntry>> {
    let mut out = Vec::new();
    let Some(bar) = app.menu() else { return Ok(out) };
    for kind in bar.items()? {
        let MenuItemKind::Submenu(menu) = kind else { continue };
        let title = commands::plain(&menu.text()?);
        for kind in menu.items()? {
            let MenuItemKind::MenuItem(item) = kind else { continue };
            let id = item.id().as_ref().to_string();
            let accelerator =
                CommandId::from_id(&id).and_then(|c| c.command().accelerator()).map(commands::Chord::accelerator);
            out.push(MenuEntry { menu: title.clone(), id, text: item.text()?, accelerator });
        }
    }
    Ok(out)
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
    menu.append(&MenuItem::with_id(app, CLEAR_RECENT, "&Clear menu", true, None::<&str>)?)?;
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
    Editor(CommandId),
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
        CommandId::from_id(id).map(Chosen::Editor)
    }
}

/// Dispatches `command` to the editor in the main window.
pub fn to_editor(app: &AppHandle, command: CommandId) {
    if let Some(window) = app.get_webview_window("main") {
        // The id is one of ours ([`CommandId::id`]): plain ASCII, quoted as a JSON string.
        let detail = serde_json::Value::from(command.id());
        let _ = window
            .eval(format!("window.dispatchEvent(new CustomEvent('{}', {{ detail: {detail} }}))", ipc::MENU_EVENT));
    }
}

/// The recent file chosen, as a path.
pub fn recent_path(recent: &[String], n: usize) -> Option<PathBuf> {
    recent.get(n).map(PathBuf::from)
}
