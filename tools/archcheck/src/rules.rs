//! The layout the check holds the tree to, as data: change a table here, not the code that
//! reads it.
//!
//! - [`LAYERS`]: folders whose modules are stacked in layers, bottom first. A module (a file
//!   or folder directly in the folder) may use modules of its own layer and of the layers
//!   below; naming one above is an upward import. Every module must be in the table, so a
//!   new one is placed on purpose.
//! - [`FOLDERS`]: folders that hold only sub-folders (and their `mod.rs`): no loose file at
//!   their top.
//!
//! Each rule has a [`Mode`]: `Enforce` fails the check, `Warn` prints what it finds without
//! failing, `Off` only counts it on the closing lines. Every rule here is enforced; `Warn`
//! and `Off` are for bringing in a new rule while the tree is moved to it.

/// What a rule does with what it finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A finding fails the check.
    Enforce,
    /// Findings are printed, marked as warnings; the check still passes.
    Warn,
    /// Findings are only counted on the rule's line.
    Off,
}

/// A folder whose modules are stacked in layers.
pub struct Layers {
    /// The folder, relative to the workspace root.
    pub dir: &'static str,
    /// The layers, bottom first; each names modules directly in `dir` (a file without its
    /// `.rs`, or a folder).
    pub layers: &'static [&'static [&'static str]],
    pub mode: Mode,
}

/// A folder that may hold no loose file at its top but the ones named.
pub struct Folders {
    pub dir: &'static str,
    /// The files allowed at its top.
    pub allowed: &'static [&'static str],
    pub mode: Mode,
}

/// The engine's layers, bottom to top. The crate root (`lib.rs`) is above them all: it
/// declares and re-exports every module.
pub const ENGINE_LAYERS: &[&[&str]] = &[
    // Values and findings that know nothing of graphs.
    &["describe", "diagnostic", "json_eq", "json_size", "sse", "stack"],
    // The graph format.
    &["document"],
    // Reading a document, its fingerprint, chat messages, JSON Schema, and the host trait
    // through which every effect goes.
    &["parse", "graph_hash", "messages", "json_schema", "host", "mcp"],
    // The Rhai sandbox.
    &["script"],
    // State fields, reducers, patches, and what a node writes.
    &["state", "update"],
    // Validation and compilation into a plan.
    &["plan"],
    // The run format, and Mermaid export of a plan.
    &["record", "mermaid", "trace"],
    // Nodes that reach outside the engine.
    &["effects"],
    // The executor.
    &["run"],
    // Tests and evaluations built from runs, run over the executor.
    &["suite"],
    // The JSON Schemas of the formats (feature `schema`).
    &["schema"],
];

/// The editor's model, by job, bottom to top: what is stored and exchanged; the open graph
/// as it is edited; runs as they are watched.
pub const APP_MODEL_LAYERS: &[&[&str]] = &[&["storage"], &["editing"], &["runs"]];

pub const LAYERS: &[Layers] = &[
    Layers { dir: "engine/src", layers: ENGINE_LAYERS, mode: Mode::Enforce },
    Layers { dir: "app/src/model", layers: APP_MODEL_LAYERS, mode: Mode::Enforce },
];

/// The editor's components go in folders by screen region (shell, library, canvas,
/// inspector, run panel, dialogs, fields) and its model in folders by job.
pub const FOLDERS: &[Folders] = &[
    Folders { dir: "app/src/ui", allowed: &["mod.rs"], mode: Mode::Enforce },
    Folders { dir: "app/src/model", allowed: &["mod.rs"], mode: Mode::Enforce },
];
