//! Where the live run's engine runs: in a Web Worker, a second wasm module started after the
//! editor's first paint, so a long step never stops the page from drawing, and Pause or Reset
//! can stop a step at once by ending the worker. When no worker can start, the page runs the
//! same service itself.
//!
//! | module | what it holds |
//! |---|---|
//! | `link` | the page's side: [`RunEngine`], calls to the run, the worker started, stopped, replaced |
//! | `worker` | the worker's side: its entry point and message loop |
//! | `port` | the worker's way to the page: messages out, HTTP requests waiting for replies |
//! | `worker_host` | the host the worker's engine steps with: every effect sent back to the page |
//!
//! The requests, replies and messages themselves are plain data, in
//! [`crate::model::runs::run_service`] and [`crate::model::runs::worker_messages`].

mod link;
mod port;
pub mod worker;
mod worker_host;

pub use self::link::{RunEngine, Stopped};
