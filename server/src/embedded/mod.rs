//! The embedded backend: one process, one SQLite file, runs executed in the process.
//!
//! | module | what it holds |
//! |---|---|
//! | `store` | the SQLite store: threads, runs, checkpoints, the effect journal, crons (schema versioned) |
//! | `runner` | a run on an engine thread of its own: where it starts, its steps saved and told |
//! | `events` | a step's events for every stream mode |
//! | `host` | the runs' host: HTTP and MCP through `net`, every reply journaled |
//! | `backend` | [`Embedded`]: the [`crate::backend::Backend`] over them, live runs, restart |

mod backend;
mod events;
pub mod host;
mod runner;
pub mod store;

pub use backend::{Embedded, RunEnded};
