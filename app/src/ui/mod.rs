//! The editor's components. Each file holds one component (or one concern); they render the
//! model in [`crate::model`] and turn gestures into calls on it.

mod alerts;
mod app;
mod canvas;
mod desktop_window;
mod dialogs;
mod edge_form;
mod edge_view;
mod export;
mod fields;
mod graph_form;
mod import;
mod inspector;
mod keyboard;
mod library_panel;
mod minimap;
mod node_form;
mod node_view;
mod palette_bar;
mod run_ctl;
mod run_panel;
mod settings;
mod share_link;
mod state_view;
mod store;
mod subgraph_nav;
mod toolbar;

pub use app::App;
