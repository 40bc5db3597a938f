//! The model's runs part: runs as the person watches them: the live run as a service and the worker's messages, test cases and the Tests panel, playback and moving through a run, versions, inputs, imports, instances, transcripts, usage, outcomes, breakpoints, form answers, the origins a run reaches, two runs compared.
//!
//! | module | what it holds |
//! |---|---|
//! | [`case_service`] | test cases as the run worker runs them: a suite prepared for a pass, then one case a request |
//! | [`breakpoints`] | the nodes a graph's runs stop before or after, kept per graph |
//! | [`compare`] | two runs side by side: steps aligned by number, which differ and the first that does, the state difference at a step |
//! | [`form_answer`] | a waiting human form filled in: controls, defaults, the answer checked by field |
//! | [`instances`] | a mapped node's instances (`node[i]`) read as their node, grouped and listed |
//! | [`mcp_calls`] | a `tools` step's MCP calls as the run panel shows them: server, tool, arguments, result, duration, progress, logs |
//! | [`origins`] | the origins a graph's requests would reach |
//! | [`outcome`] | ends that fail the run, and the run's error as the run panel shows it |
//! | [`playback`] | a run shown one step at a time: statuses, taken edges, state, changes |
//! | [`record_file`] | a run as a file taken away (Download record), and the trace id its run panel shows |
//! | [`run_import`] | a run record told from a graph among imported text, and whether it belongs to the open graph |
//! | [`run_input`] | the run's input: suggested from the graph, required keys left empty |
//! | [`run_service`] | the live run as a service: start, load, step, answer, drop, as requests and replies (the run worker holds one) |
//! | [`run_version`] | whether a run shown was made with an earlier version of the graph, and what changed |
//! | [`run_view`] | moving through a run: forward, back, a subgraph node's run, in step with the canvas |
//! | [`suite_panel`] | the Tests panel's model: the graph's suite stored and read back, cases added and removed, imports, each case's outcome and the evaluators' means |
//! | [`transcript`] | a `messages` field as a transcript, with what the shown step added or replaced |
//! | [`usage`] | token usage of model calls, per step, node and run |
//! | [`worker_messages`] | what the page and the run worker say to each other: calls, replies, HTTP and streamed text |

pub mod breakpoints;
pub mod case_service;
pub mod compare;
pub mod form_answer;
pub mod instances;
pub mod mcp_calls;
pub mod origins;
pub mod outcome;
pub mod playback;
pub mod record_file;
pub mod run_import;
pub mod run_input;
pub mod run_service;
pub mod run_version;
pub mod run_view;
pub mod suite_panel;
pub mod transcript;
pub mod usage;
pub mod worker_messages;
