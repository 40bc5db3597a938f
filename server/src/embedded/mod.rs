//! The embedded backend: one process, one SQLite file, runs executed in the process.
//!
//! | module | what it holds |
//! |---|---|
//! | `store` | the SQLite store: threads, runs, checkpoints, the effect journal, crons (schema versioned) |
//! | `abandon` | a run that cannot go on (a panic, no thread, its graph gone) ended as `error`, once |
//! | `runner` | a run on an engine thread of its own: where it starts, its steps saved and told |
//! | `events` | a step's events for every stream mode |
//! | `turns` | how many runs go at once server-wide, the line of those waiting and its bound |
//! | `host` | the runs' host: HTTP and MCP through `net`, every reply journaled |
//! | `backend` | [`Embedded`]: the [`crate::backend::Backend`] over them, live runs, restart |

mod abandon;
mod backend;
mod events;
pub mod host;
mod runner;
pub mod store;
pub mod turns;

pub use backend::{Embedded, RunEnded};
