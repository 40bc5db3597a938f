//! # Switchyard's editor
//!
//! | module | what it holds |
//! |---|---|
//! | [`model`] | the editing model: plain data and pure operations, tested natively |
//! | `platform` | what differs between the browser and the desktop app, behind one trait |
//! | `state` | the reactive state, split by concern (document, view, run, ui, alerts), each part its own context |
//! | `actions` | what the user can do (documents, runs, navigation), over state and platform |
//! | `runner` | where the live run's engine runs: a Web Worker (the page when none can start) |
//! | `ui` | the Leptos components: they render the state and call actions |
//!
//! Only the components need a browser (wasm32); the rest builds natively too, where the
//! actions are tested over a fake platform (`tests/flows.rs`). Dependencies go one way:
//! `ui` → `actions` → `state` → `runner` → `platform` → `model` → `engine`.

pub mod model;

pub mod actions;
pub mod platform;
pub mod runner;
pub mod state;

#[cfg(target_arch = "wasm32")]
pub mod ui;
