//! The editor's components. Each file holds one component (or a component and its private
//! parts); they render the state in [`crate::state`] and call [`crate::actions`]. A
//! component imports only actions, state, model and its own child components, and takes
//! from the state only the parts it uses (`use_doc()`, `use_view()`, `use_run()`,
//! `use_ui()`, `use_alerts()`, and the platform's `use_platform()`).
//!
//! | module | what it holds |
//! |---|---|
//! | `app` | the whole editor's layout |
//! | `toolbar`, `icons` | the header: file, edit, view and help commands; its line icons |
//! | `palette_bar`, `library_panel` | the left sidebar: node kinds, saved graphs, templates |
//! | `canvas` | the canvas and what is drawn on it (nodes, edges, minimap, subgraph path) |
//! | `run_panel`, `state_view` | the run controls, steps, history, and the state at a step |
//! | `run_splitter` | the bar that sizes the run panel |
//! | `input_required`, `form_answer`, `run_error` | what a run waits for (an answer, a form, a breakpoint passed), and why it failed |
//! | `run_version_notice` | a run made with an earlier version of the graph: what changed, and Fork anyway |
//! | `transcript`, `instance_list`, `live_reply` | a `messages` field as a transcript, a map step's instances, replies streaming in |
//! | `inspector`, `node_form`, `edge_form`, `graph_form`, `fields` | the right sidebar's forms |
//! | `node_edit`, `llm_form`, `node_edges` | the node being edited, shared by the node forms; an `llm` node's fields; its edges, to open from the keyboard |
//! | `human`, `breakpoint_toggles` | a human node's answer or form and an end's outcome; a node's breakpoints |
//! | `tools` | the graph's tools, and the tool, transcript and mock-reply parts of node forms |
//! | `definitions` | the document's definitions, and what a subgraph node runs (embedded graph or definition) |
//! | `dialogs`, `settings`, `help_dialog` | dialogs (import, share, search, settings, file changed); Help: every command and its keys on this platform |
//! | `command_palette` | the command palette: every command, filtered as one types, carried out with Enter |
//! | `unsaved_dialog`, `origins_dialog` | asking before unsaved work is left, and before a run reaches new origins |
//! | `alerts` | messages for the user |

mod alerts;
mod app;
mod breakpoint_toggles;
mod canvas;
mod command_palette;
mod definitions;
mod dialogs;
mod edge_form;
mod fields;
mod form_answer;
mod graph_form;
mod help_dialog;
mod human;
mod icons;
mod input_required;
mod inspector;
mod instance_list;
mod library_panel;
mod live_reply;
mod llm_form;
mod node_edges;
mod node_edit;
mod node_form;
mod origins_dialog;
mod palette_bar;
mod run_error;
mod run_panel;
mod run_splitter;
mod run_version_notice;
mod settings;
mod state_view;
mod toolbar;
mod tools;
mod transcript;
mod unsaved_dialog;

pub use app::App;
