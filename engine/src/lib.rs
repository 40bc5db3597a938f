//! # Switchyard's engine
//!
//! Reads, checks and runs `switchyard/graph@1` documents: state graphs whose nodes read and
//! update one shared JSON state, in supersteps, the way LangGraph runs them. The engine is
//! sans-IO: time, run ids and network calls go through a [`Host`] supplied by the program
//! embedding it (the CLI, the browser, the desktop app), so the same code runs natively and
//! in WebAssembly.
//!
//! | module | what it holds |
//! |---|---|
//! | [`document`] | the graph document's types, one to one with the JSON, and [`NodeField`]: every node field with which kinds take it, declared once |
//! | [`graph_hash`] | a graph's fingerprint (`graph_hash`, layout left out) and per-part hashes, to name what changed between two versions |
//! | [`parse`] | reading documents strictly, with errors that give path, line and column |
//! | [`plan`] | validation (every problem, with its path) and compilation into a [`Plan`]: `plan/{types, compile, check, graph, node, kinds, human, end, effectful, llm, tools, map, definitions, input_keys, reads}` |
//! | [`script`] | the Rhai sandbox: expressions, scripts, `{{ }}` templates; values to and from JSON (a number JSON cannot hold is an error, text of lists and maps is JSON), and the state fields an expression reads: `script/{builtins, clock, json, reads}` |
//! | [`state`] | state fields, reducers, type checks, JSON patches: `state/{add, check, list, messages}` |
//! | [`messages`] | chat messages (format.md §4 (llm, tools) and §8): their shape, updates to a `messages` field, ids, `has_tool_calls` |
//! | [`run`] | the executor: `run/{types, start, step, exec, subgraph, definition, route, interrupt, form, breakpoint, ended, fork, record, replay, snapshots, spans, scope, outcome, nodeset, task, map, step_json}` |
//! | `effects` | `llm`, `http` and `tools` nodes: requests rendered, sent through the [`Host`] (streamed when it watches), timed out and retried; model providers (mock, OpenAI-compatible, Anthropic); a run's MCP client sessions and [`mcp_probe`]; the executor calls in with what they need, not the whole run: `effects/{send, http, llm, chat, mock, openai, anthropic, tools, tape, replay, mcp/{session, call, listing, probe}}`; every call goes on the run's reply tape, and is answered from it when replaying |
//! | [`sse`] | server-sent events read incrementally (streamed model replies, MCP's Streamable HTTP) |
//! | [`mcp`] | the Model Context Protocol's messages (format.md §2.11), pure: what a client sends, how a message the server sent is told apart, the results it reads (lenient types) and a result as a tool message's text; hosts move the bytes: `mcp/{wire, types, content}` |
//! | [`record`] | the run record, `switchyard/run@1`, and what reads it: status, errors, map instances, snapshots (which steps carry their full state, any step's state rebuilt), a record checked against its graph, the reply tape and answers, two runs compared: `record/{status, errors, instance, snapshots, verify, replies, diff}` |
//! | [`suite`] | tests built from runs, `switchyard/tests@1`: the suite format, datasets, a case run against its recorded replies and checked (expectations, evaluators, the baseline it must end like): `suite/{types, parse, dataset, prepare, check, case, expect, evaluate, summary, from_record}` |
//! | [`trace`] | a run as OpenTelemetry spans, pure: the record mapped to spans with the GenAI conventions, ids derived from the run, for a live export and `switchyard trace` alike |
//! | `schema` | (feature `schema`) the JSON Schemas of the documents, derived from these types: `schema/{graph, run, tests}` |
//! | [`stack`] | the stack a thread running graph work is given, for the deepest value a script can build |
//! | [`update`] | what a node writes in a step |
//! | [`json_schema`] | JSON Schema for tool `parameters` and `output_schema`: compiled once, values checked with the path of a mismatch |
//! | [`host`] | the [`Host`] trait through which every effect goes; `host/mcp`: an exchange with an MCP server |
//! | `json_size` | a value's length as compact JSON, counted without building the text |
//! | `json_eq` | JSON values compared by meaning: `1` and `1.0` are one number |
//! | `describe` | a JSON value's type name and an excerpt, for error messages |
//! | [`diagnostic`] | a validation problem: severity, path, message |
//! | [`mermaid`] | Mermaid flowchart export |
//!
//! The modules stand in layers, and a module uses only its own layer and those below it
//! (`tools/archcheck` fails on an upward import; the table is in its `rules.rs`). Bottom to
//! top:
//!
//! 1. `describe`, `diagnostic`, `json_eq`, `json_size`, `sse`, `stack`: values and findings that know no graph
//! 2. `document`: the graph format
//! 3. `parse`, `graph_hash`, `messages`, `json_schema`, `host`, `mcp`
//! 4. `script`
//! 5. `state`, `update`
//! 6. `plan`
//! 7. `record` (the run format), `mermaid`, `trace` (the record as spans)
//! 8. `effects`
//! 9. `run`: the executor
//! 10. `suite`: tests and evaluations run over the executor
//! 11. `schema`
//!
//! Every error type ([`DocError`], [`InputError`], [`NodeError`], [`RunError`],
//! [`script::CompileError`], [`script::EvalError`], [`state::FieldError`]) implements
//! [`std::error::Error`].
//!
//! ```
//! use std::rc::Rc;
//! use engine::{compile, parse_graph, OfflineHost, Run, Status};
//!
//! let graph = parse_graph(r#"{
//!   "format": "switchyard/graph@1",
//!   "state": { "count": { "type": "number", "reducer": "add" } },
//!   "nodes": [ { "id": "start", "kind": "start" },
//!              { "id": "inc", "kind": "set", "set": { "count": "1" } },
//!              { "id": "end", "kind": "end" } ],
//!   "edges": [ { "from": "start", "to": "inc" },
//!              { "from": "inc", "to": "inc", "when": "state.count < 3" },
//!              { "from": "inc", "to": "end", "when": "state.count >= 3" } ]
//! }"#).unwrap();
//! let plan = Rc::new(compile(&graph).plan.expect("valid"));
//! let host = OfflineHost::new();
//! let mut run = Run::start(plan, serde_json::json!({}), &host).unwrap();
//! pollster::block_on(run.run(&host));
//! assert_eq!(run.status(), Status::Completed);
//! assert_eq!(run.state_json()["count"], 3);
//! ```

mod describe;
pub mod diagnostic;
pub mod document;
mod effects;
pub mod graph_hash;
pub mod host;
pub(crate) mod json_eq;
pub mod json_schema;
mod json_size;
pub mod mcp;
pub mod mermaid;
pub mod messages;
pub mod parse;
pub mod plan;
pub mod record;
pub mod run;
#[cfg(feature = "schema")]
pub mod schema;
pub mod script;
pub mod sse;
pub mod stack;
pub mod state;
pub mod suite;
pub mod trace;
pub mod update;

pub use diagnostic::{Diagnostic, Severity};
pub use document::{Edge, GRAPH_SCHEMA_ID, Graph, Node, NodeField, NodeKind};
pub use effects::{ListedTool, Listing, mcp_probe};
pub use graph_hash::GraphHash;
pub use host::{Host, OfflineHost};
pub use mermaid::to_mermaid;
pub use parse::{DocError, parse_graph};
pub use plan::{Compiled, Plan, compile, validate};
pub use record::diff::{RunDiff, StepDiff, describe_first, diff_runs};
pub use record::snapshots::StepStates;
pub use record::{
    ErrorKind, GivenAnswer, InputError, NodeError, RUN_FORMAT, RUN_SCHEMA_ID, RecordedReply, ReplayMode, ReplayProblem,
    ReplyKind, RunError, RunRecord, Status, TraceSession, Usage,
};
pub use run::Run;
