//! The panels as the person sizes them: the run panel's height (dragged on its splitter, or
//! set from the keyboard), whether it is open, and whether the minimap shows; all kept with
//! the editor's preferences, so the editor opens as it was left.

use leptos::prelude::*;

use crate::platform::PlatformRef;
use crate::state::App;
use crate::state::ui::RUN_HEIGHT;

/// The run panel is never shorter than its bar and a few rows.
pub const RUN_MIN: f64 = 140.0;

const HEIGHT_KEY: &str = "run_panel_height";
const OPEN_KEY: &str = "run_panel_open";
const MINIMAP_KEY: &str = "minimap";

/// Reads the panels' sizes kept from last time.
pub fn init(app: App) {
    let App { ui, platform, .. } = app;
    let p = platform.get();
    let kept = p.preference(HEIGHT_KEY).and_then(|h| h.parse::<f64>().ok()).filter(|h| h.is_finite());
    ui.run_height.set(clamp_run_height(platform, kept.unwrap_or_else(|| usual_run_height(platform))));
    ui.run_open.set(p.preference(OPEN_KEY).as_deref() != Some("false"));
    ui.minimap.set(p.preference(MINIMAP_KEY).as_deref() != Some("false"));
}

/// The height the run panel opens with until the person sets one: a third of a short window,
/// at most [`RUN_HEIGHT`].
fn usual_run_height(platform: PlatformRef) -> f64 {
    (platform.get().window_height() * 0.3).clamp(RUN_MIN, RUN_HEIGHT)
}

/// The tallest the run panel may be: the canvas keeps at least a third of the window.
pub fn run_max(platform: PlatformRef) -> f64 {
    (platform.get().window_height() * 0.62).max(RUN_MIN)
}

fn clamp_run_height(platform: PlatformRef, h: f64) -> f64 {
    h.clamp(RUN_MIN, run_max(platform))
}

/// Sets the run panel's height (while dragging: not kept until [`keep_run_height`]).
pub fn resize_run(app: App, h: f64) {
    app.ui.run_height.set(clamp_run_height(app.platform, h));
}

/// Keeps the run panel's height for next time.
pub fn keep_run_height(app: App) {
    let App { ui, platform, .. } = app;
    platform.get().set_preference(HEIGHT_KEY, &ui.run_height.get_untracked().round().to_string());
}

/// Back to the height it opens with the first time.
pub fn reset_run_height(app: App) {
    resize_run(app, usual_run_height(app.platform));
    keep_run_height(app);
}

/// Opens or closes the run panel (its bar stays).
pub fn toggle_run(app: App) {
    let App { ui, platform, .. } = app;
    let open = !ui.run_open.get_untracked();
    ui.run_open.set(open);
    platform.get().set_preference(OPEN_KEY, &open.to_string());
}

/// Shows or hides the minimap.
pub fn toggle_minimap(app: App) {
    let App { ui, platform, .. } = app;
    let shown = !ui.minimap.get_untracked();
    ui.minimap.set(shown);
    platform.get().set_preference(MINIMAP_KEY, &shown.to_string());
}
