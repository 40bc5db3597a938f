//! The editor's components. Each file holds one component (or a component and its private
//! parts); they render the state in [`crate::state`] and call [`crate::actions`]. A
//! component imports only actions, state, model and its own child components; one that carries
//! out actions takes the [`crate::state::App`] handle (`use_app()`), one that only reads takes
//! from the state only the parts it uses (`use_doc()`, `use_view()`, `use_run()`,
//! `use_ui()`, `use_alerts()`, and the platform's `use_platform()`).
//!
//! | module | what it holds |
//! |---|---|
//! | `shell` | the frame around the editor: its layout, the toolbar and its icons, the messages for the user |
//! | `library` | the left sidebar: node kinds to add, saved graphs, templates |
//! | `canvas` | the canvas and what is drawn on it (nodes, edges, minimap, subgraph path) |
//! | `inspector` | the right sidebar: the forms of the graph, a node and an edge, and their parts |
//! | `run_panel` | the run controls, steps, history, the state at a step and what a run waits for |
//! | `tests_panel` | the Tests panel: the graph's test cases, passes over them, datasets; and the run panel's Save as test |
//! | `compare` | `Compare runs`: two runs side by side, step by step, with the state difference at each |
//! | `dialogs` | dialogs over the editor: import, share, search, settings, help, the command palette, unsaved work, new origins |
//! | `fields` | the form controls the forms are built of |

mod canvas;
mod compare;
mod dialogs;
mod fields;
mod inspector;
mod library;
mod run_panel;
mod shell;
mod tests_panel;

pub use shell::app::App;
