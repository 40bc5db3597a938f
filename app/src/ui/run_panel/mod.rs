//! The run controls, steps, history, the state at a step and what a run waits for.
//!
//! | module | what it holds |
//! |---|---|
//! | `form_answer` | a waiting human form, filled in and answered |
//! | `input_required` | what a run waits for: an answer, a form, a breakpoint passed |
//! | `instance_list` | a map step's instances |
//! | `live_reply` | a model's reply streaming in |
//! | `mcp_call_list` | a `tools` node's MCP calls at a step: server, tool, arguments, result or error, duration, progress, logs |
//! | `panel` | the run panel: input, run controls, timeline, steps and history |
//! | `run_error` | why a run failed |
//! | `run_splitter` | the bar that sizes the run panel |
//! | `run_version_notice` | a run made with an earlier version of the graph: what changed, and Fork anyway |
//! | `state_view` | the state after the step shown, and what the step changed |
//! | `trace_id` | the run's trace id with a copy button, and its record downloaded |
//! | `transcript` | a `messages` field as a transcript |

pub mod form_answer;
pub mod input_required;
pub mod instance_list;
pub mod live_reply;
pub mod mcp_call_list;
pub mod panel;
pub mod run_error;
pub mod run_splitter;
pub mod run_version_notice;
pub mod state_view;
pub mod trace_id;
pub mod transcript;
