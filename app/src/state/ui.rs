//! The editor's own settings and chrome: the colour theme and the dialog open.

use leptos::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

/// The dialog currently open, if any.
#[derive(Debug, Clone, PartialEq)]
pub enum Dialog {
    Import,
    Share(String),
    Search,
    Help,
    Settings,
    /// The open file was changed by another program: its new text.
    FileChanged(String),
}

#[derive(Clone, Copy)]
pub struct UiState {
    pub theme: RwSignal<Theme>,
    pub dialog: RwSignal<Option<Dialog>>,
}

impl Default for UiState {
    fn default() -> UiState {
        UiState::new()
    }
}

impl UiState {
    pub fn new() -> UiState {
        UiState { theme: RwSignal::new(Theme::Light), dialog: RwSignal::new(None) }
    }
}

pub fn use_ui() -> UiState {
    expect_context::<UiState>()
}
