//! LangGraph's JSON shapes, built from the domain types and read into them.
//!
//! | module | what it holds |
//! |---|---|
//! | `message` | Switchyard messages ↔ LangChain's (`type` beside `role`), in values both ways |
//! | `assistant` | `Assistant`, the graph view (`get_graph`) and the schemas (`get_schemas`) |
//! | `thread` | `Thread` and `ThreadState` (a checkpoint) |
//! | `run` | `Run`, and a run request's body read into a [`crate::domain::RunRequest`] |
//! | `time` | timestamps as LangGraph writes them |

pub mod assistant;
pub mod message;
pub mod run;
pub mod thread;
pub mod time;
