//! Settings actions: the colour theme (chosen, else the system's), the model settings with
//! their keys per origin, and the origins the person has used or approved.

use leptos::prelude::*;

use crate::model::storage::keys::{OriginKey, Provider, parse_origin};
use crate::platform::PlatformRef;
use crate::state::{App, Theme};

/// Applies the saved theme, else the system's preference, and keeps the page in step.
pub fn init_theme(app: App) {
    let App { ui, platform, .. } = app;
    let dark_preferred = platform.get().prefers_dark();
    let theme = match platform.get().preference("theme").as_deref() {
        Some("dark") => Theme::Dark,
        Some("light") => Theme::Light,
        _ if dark_preferred => Theme::Dark,
        _ => Theme::Light,
    };
    ui.theme.set(theme);
    Effect::new(move |_| {
        let name = match ui.theme.get() {
            Theme::Dark => "dark",
            Theme::Light => "light",
        };
        platform.get().show_theme(name);
    });
}

/// Switches between light and dark, and remembers the choice.
pub fn toggle_theme(app: App) {
    let App { ui, platform, .. } = app;
    let next = match ui.theme.get_untracked() {
        Theme::Light => Theme::Dark,
        Theme::Dark => Theme::Light,
    };
    ui.theme.set(next);
    platform.get().set_preference("theme", if next == Theme::Dark { "dark" } else { "light" });
}

/// Saves the Base URL as typed and, when a key was typed, keeps it for `origin` (typed, else
/// the Base URL's, else the provider's own); says where, and closes the dialog. A typed
/// origin that is not one keeps the dialog open with the reason.
pub fn save_model_settings(app: App, base_url: &str, origin: &str, provider: Provider, key: &str) {
    let App { ui, alerts, platform, .. } = app;
    let base_url = base_url.trim().to_string();
    let key = key.trim();
    let new_key = if key.is_empty() {
        None
    } else {
        let typed = if !origin.trim().is_empty() {
            origin.trim().to_string()
        } else if !base_url.is_empty() && provider == Provider::OpenAi {
            base_url.clone()
        } else if let Some(auth) = provider.auth() {
            auth.default_origin().to_string()
        } else {
            alerts.error("The token was not saved: give the MCP server's origin (such as https://mcp.example.com)");
            return;
        };
        match parse_origin(&typed) {
            Ok(origin) => Some(OriginKey { origin, provider, key: key.to_string() }),
            Err(why) => {
                alerts.error(format!("The key was not saved: {why}"));
                return;
            }
        }
    };
    if let Some(k) = &new_key {
        // An origin the person gave a key to is one they use.
        approve_origins(platform, std::slice::from_ref(&k.origin));
    }
    let platform = platform.get();
    let wording = platform.wording();
    let saving = platform.save_model_settings(base_url, new_key);
    leptos::task::spawn_local(async move {
        match saving.await {
            Ok(()) => alerts.info(wording.settings_saved),
            Err(why) => alerts.error(format!("Could not save the settings: {why}")),
        }
    });
    ui.dialog.set(None);
}

/// Forgets the key kept for `origin`; `done` runs once it is gone.
pub fn remove_key(app: App, origin: String, provider: Provider, done: impl FnOnce() + 'static) {
    let App { alerts, platform, .. } = app;
    let removing = platform.get().remove_key(origin.clone(), provider);
    leptos::task::spawn_local(async move {
        match removing.await {
            Ok(()) => {
                alerts.info(format!("Removed the key for {origin}"));
                done();
            }
            Err(why) => alerts.error(format!("Could not remove the key: {why}")),
        }
    });
}

/// The preference listing the origins the person has used or approved.
const APPROVED_ORIGINS: &str = "approved_origins";

/// The origins (and per-graph computed addresses) the person has used or approved.
pub fn approved_origins(platform: PlatformRef) -> Vec<String> {
    platform.get().preference(APPROVED_ORIGINS).and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

/// Remembers `entries` as approved.
pub fn approve_origins(platform: PlatformRef, entries: &[String]) {
    let mut list = approved_origins(platform);
    for e in entries {
        if !list.contains(e) {
            list.push(e.clone());
        }
    }
    if let Ok(text) = serde_json::to_string(&list) {
        platform.get().set_preference(APPROVED_ORIGINS, &text);
    }
}
