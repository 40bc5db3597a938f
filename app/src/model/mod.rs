//! The editor's model: plain data and pure operations, with no browser in sight. The UI
//! turns gestures into calls here and renders what comes out; everything here is tested
//! natively.
//!
//! | module | what it holds |
//! |---|---|
//! | [`editor`] | one open graph: document, selection, undo log, gestures as edits |
//! | [`edit`] | the edits every gesture becomes, each returning its inverse |
//! | [`selection`] | selected nodes and edges, clicks and marquee |
//! | [`gesture`] | the canvas's pointer gestures (drag, pan, marquee, wire, clicks) as what they show and the commands they end in |
//! | [`geometry`] | node boxes, pan and zoom, fitting a view, snapping |
//! | [`clipboard`] | copy and paste as JSON fragments |
//! | [`layout`] | automatic layered layout |
//! | [`focus_nav`] | moving between nodes with the arrow keys |
//! | [`placement`] | where a node added from the palette goes: free space near the selection |
//! | [`palette`] | what each node kind looks like and starts as |
//! | [`commands`] | the command palette's filter: the commands a typed query keeps, best first |
//! | [`tools`] | the graph's tools: add, rename and remove them with the nodes offering them |
//! | [`definitions`] | the document's definitions: listed with their users, added, renamed with every use, removed, used |
//! | [`mock_replies`] | a mock model's responses as text, tool calls and rules |
//! | [`map_edge`] | a map edge's item name, checked |
//! | [`state_fields`] | a state field's type and reducer kept fitting; the transcript fields |
//! | [`library`] | the saved graphs and their storage keys |
//! | [`doc_id`] | which document is open: a library graph or a file anywhere |
//! | [`saved_run`] | what is saved for a run, and the history's summary of it |
//! | [`run_service`] | the live run as a service: start, load, step, answer, drop, as requests and replies (the run worker holds one) |
//! | [`run_input`] | the run's input: suggested from the graph, required keys left empty |
//! | [`run_import`] | a run record told from a graph among imported text, and whether it belongs to the open graph |
//! | [`run_version`] | whether a run shown was made with an earlier version of the graph, and what changed |
//! | [`export`] | the document as Export writes it, naming its JSON Schema |
//! | [`playback`] | a run shown one step at a time: statuses, taken edges, state, changes |
//! | [`run_view`] | moving through a run: forward, back, a subgraph node's run, in step with the canvas |
//! | [`instances`] | a mapped node's instances (`node[i]`) read as their node, grouped and listed |
//! | [`transcript`] | a `messages` field as a transcript, with what the shown step added or replaced |
//! | [`usage`] | token usage of model calls, per step, node and run |
//! | [`share`] | share links carrying a compressed document |
//! | [`keys`] | provider keys bound to origins, the old single key migrated |
//! | [`origins`] | the origins a graph's requests would reach |
//! | [`import_cap`] | the size limit for an imported graph |
//! | [`indent`] | Tab and Shift+Tab in a script field: spaces to the next stop, selected lines indented or outdented |
//! | [`form_answer`] | a waiting human form filled in: controls, defaults, the answer checked by field |
//! | [`form_fields`] | a human node's form fields and `route_by` as the inspector edits them |
//! | [`breakpoints`] | the nodes a graph's runs stop before or after, kept per graph |
//! | [`names`] | fresh names for what is added: `name`, else `name_2`, `name_3`… |
//! | [`words`] | counts written as people write them (1 step, 2 steps) |
//! | [`worker_messages`] | what the page and the run worker say to each other: calls, replies, HTTP and streamed text |
//! | [`outcome`] | ends that fail the run, and the run's error as the run panel shows it |

pub mod breakpoints;
pub mod clipboard;
pub mod commands;
pub mod definitions;
pub mod doc_id;
pub mod edit;
pub mod editor;
pub mod export;
pub mod focus_nav;
pub mod form_answer;
pub mod form_fields;
pub mod geometry;
pub mod gesture;
pub mod import_cap;
pub mod indent;
pub mod instances;
pub mod keys;
pub mod layout;
pub mod library;
pub mod map_edge;
pub mod mock_replies;
pub mod names;
pub mod origins;
pub mod outcome;
pub mod palette;
pub mod placement;
pub mod playback;
pub mod run_import;
pub mod run_input;
pub mod run_service;
pub mod run_version;
pub mod run_view;
pub mod saved_run;
pub mod selection;
pub mod share;
pub mod state_fields;
pub mod tools;
pub mod transcript;
pub mod usage;
pub mod words;
pub mod worker_messages;
