//! [`App`]: one handle on every part of the state and the platform, provided once at start-up.
//! Actions take it; a component that only reads one part keeps its narrow accessor
//! (`use_doc()`, `use_run()`…).

use leptos::prelude::*;

use super::{Alerts, DocState, RunCtl, TestsState, UiState, ViewState};
use crate::platform::PlatformRef;

/// The editor's state and platform, `Copy` like each of its parts.
#[derive(Clone, Copy)]
pub struct App {
    pub doc: DocState,
    pub view: ViewState,
    pub run: RunCtl,
    pub ui: UiState,
    pub alerts: Alerts,
    pub tests: TestsState,
    pub platform: PlatformRef,
}

/// The app handle provided at start-up.
pub fn use_app() -> App {
    expect_context::<App>()
}
