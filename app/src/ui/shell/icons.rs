//! Small line icons for the toolbar, drawn on a 16 × 16 grid in the current text colour.
//! They are decoration: the button around one always carries its name (aria-label), and
//! shows it as text too while the window is wide enough.

use leptos::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Icon {
    New,
    Import,
    Open,
    SaveAs,
    Export,
    Mermaid,
    Share,
    Undo,
    Redo,
    ZoomIn,
    ZoomOut,
    FitView,
    AutoLayout,
    Tests,
}

impl Icon {
    /// The drawing: one SVG path (strokes only).
    fn path(self) -> &'static str {
        match self {
            Icon::New => "M8 3v10M3 8h10",
            Icon::Import => "M8 2v8M5 7l3 3 3-3M2.5 10.5v3h11v-3",
            Icon::Open => "M2 4h4l1.5 1.5H14V13H2z",
            Icon::SaveAs => "M3 2.5h8l2 2V13.5H3zM5.5 2.5v3h4v-3M5.5 13.5v-4h5v4",
            Icon::Export => "M8 10V2M5 5l3-3 3 3M2.5 10.5v3h11v-3",
            Icon::Mermaid => "M2 2.5h5v3.5H2zM9 10h5v3.5H9zM4.5 6v5.75H9",
            Icon::Share => {
                "M6.5 9.5l3-3M7 4.5l1.3-1.3a2.5 2.5 0 0 1 3.5 3.5L10.5 8M9 11.5l-1.3 1.3a2.5 2.5 0 0 1-3.5-3.5L5.5 8"
            }
            Icon::Undo => "M5.5 3 2.5 6l3 3M2.5 6h7a3.5 3.5 0 0 1 0 7H7",
            Icon::Redo => "M10.5 3l3 3-3 3M13.5 6h-7a3.5 3.5 0 0 0 0 7H9",
            Icon::ZoomIn => "M10.2 10.2 14 14M7 4.8v4.4M4.8 7h4.4M11.5 7a4.5 4.5 0 1 1-9 0 4.5 4.5 0 0 1 9 0",
            Icon::ZoomOut => "M10.2 10.2 14 14M4.8 7h4.4M11.5 7a4.5 4.5 0 1 1-9 0 4.5 4.5 0 0 1 9 0",
            Icon::FitView => "M2 6V2h4M10 2h4v4M14 10v4h-4M6 14H2v-4M5.5 6.5h5v3h-5z",
            Icon::AutoLayout => "M1.5 2.5h5v3h-5zM9.5 2.5h5v3h-5zM5.5 10.5h5v3h-5zM4 5.5v2.5h8V5.5M8 8v2.5",
            // A flask with a tick: tests.
            Icon::Tests => "M6 2h4M6.5 2v4L3 13h10L9.5 6V2M5.5 10.5l1.5 1.5 3-3",
        }
    }
}

/// The icon, hidden from assistive technology.
pub fn icon(which: Icon) -> impl IntoView {
    view! {
        <svg class="icon-svg" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d=which.path()></path>
        </svg>
    }
}
