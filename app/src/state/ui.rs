//! The editor's own settings and chrome: the colour theme, the dialog open, the panels as
//! the person sized them, and the way Auto layout arranges.

use std::sync::Arc;

use leptos::prelude::*;

use crate::model::editing::layout::Direction;
use crate::model::runs::compare::Comparison;

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
    /// The command palette.
    Palette,
    Settings,
    /// The open file was changed by another program: its new text.
    FileChanged(String),
    /// Deleting a library graph waits for a yes: its id and name.
    ConfirmDelete {
        id: String,
        name: String,
    },
    /// Two runs side by side (`Compare runs`).
    Compare(Arc<Comparison>),
}

/// The run panel's height when the person has not chosen one (CSS pixels).
pub const RUN_HEIGHT: f64 = 300.0;

#[derive(Clone, Copy)]
pub struct UiState {
    pub theme: RwSignal<Theme>,
    pub dialog: RwSignal<Option<Dialog>>,
    /// The run panel's height (CSS pixels), as dragged on its splitter.
    pub run_height: RwSignal<f64>,
    /// Whether the run panel is open (else only its bar shows).
    pub run_open: RwSignal<bool>,
    /// Whether the minimap shows.
    pub minimap: RwSignal<bool>,
    /// In a narrow window, whether the library (palette, graphs, templates) is open over the
    /// canvas; a wide window always shows it beside the canvas.
    pub library_open: RwSignal<bool>,
    /// The way Auto layout arranges the graph: as the open graph flows, until the person
    /// picks another.
    pub layout_dir: RwSignal<Direction>,
}

impl Default for UiState {
    fn default() -> UiState {
        UiState::new()
    }
}

impl UiState {
    pub fn new() -> UiState {
        UiState {
            theme: RwSignal::new(Theme::Light),
            dialog: RwSignal::new(None),
            run_height: RwSignal::new(RUN_HEIGHT),
            run_open: RwSignal::new(true),
            minimap: RwSignal::new(true),
            library_open: RwSignal::new(false),
            layout_dir: RwSignal::new(Direction::LeftToRight),
        }
    }
}

pub fn use_ui() -> UiState {
    expect_context::<UiState>()
}
