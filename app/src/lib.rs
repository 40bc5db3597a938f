//! # Switchyard's editor
//!
//! | module | what it holds |
//! |---|---|
//! | [`model`] | the editing model: plain data and pure operations, tested natively |
//! | `platform` | what differs between the browser and the desktop app, behind one trait (wasm only) |
//! | `ui` | the Leptos components (browser only): they render the model and dispatch to it |

pub mod model;

#[cfg(target_arch = "wasm32")]
pub mod platform;

#[cfg(target_arch = "wasm32")]
pub mod ui;
