//! What the user can do, as plain functions over the state and the platform: components
//! call these and never each other. Actions use the state, the platform and the model, never
//! a component.
//!
//! | module | what it holds |
//! |---|---|
//! | [`startup`] | starting the editor: the graph opened first, its view, wiring the rest |
//! | [`document`] | new, open, save (and autosave), rename, duplicate, delete, reload from disk |
//! | [`exchange`] | import (file, pasted text), export (file, Mermaid), share links |
//! | [`files`] | the window title, files changed on disk, Open… and Save As… |
//! | [`leave`] | leaving a graph whose work could not be saved: keep a copy, discard, or stay |
//! | [`panels`] | the run panel's height and the minimap, as the person left them |
//! | [`mcp`] | the graph's MCP servers: Connect (their tools listed with the platform's host) and Add tools |
//! | [`breakpoints`] | the open graph's breakpoints: read, toggled and kept per graph, given to the run |
//! | [`run_import`] | a run record imported into the open graph's history and shown |
//! | [`tests`] | the graph's tests: Save as test, Run tests, Check against saved runs, Compare, import and export, datasets, Stop |
//! | [`compare`] | two runs side by side (`Compare runs`): runs handed over, or two of the History |
//! | [`run`] | run, pause, step, back, continue, reset, answer, fork, retry, saved and nested runs |
//! | `live_host` | the host a live run steps with (streamed model replies shown as they arrive), and calls to the run worker |
//! | [`follow`] | the canvas keeps the run's current nodes and the selected node in view |
//! | [`navigation`] | subgraphs (enter, leave), selecting and showing nodes and problems |
//! | [`drafts`] | what is typed in a field, committed before anything takes the field away |
//! | [`clipboard`] | copy and paste of nodes: the system clipboard, and the editor's own last copy |
//! | [`commands`] | every command of the command table carried out, and whether it can act now |
//! | [`keyboard`] | the commands' keys, Escape, the page's paste events |
//! | [`menu`] | the desktop app's native menu items, carried out |
//! | [`settings`] | the theme and the model settings |
//! | [`traces`] | runs as traces: the trace id copied, the record downloaded, a session sent as it ends, the Traces setting |

pub mod breakpoints;
pub mod clipboard;
pub mod commands;
pub mod compare;
pub mod document;
pub mod drafts;
pub mod exchange;
pub mod files;
pub mod follow;
pub mod keyboard;
pub mod leave;
mod live_host;
pub mod mcp;
pub mod menu;
pub mod navigation;
pub mod panels;
pub mod run;
pub mod run_import;
pub mod settings;
pub mod startup;
pub mod tests;
pub mod traces;
