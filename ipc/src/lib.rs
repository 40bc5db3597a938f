//! The contract between the editor (compiled to wasm, running in the Tauri webview) and the
//! desktop app's commands. Each command is one struct: its fields are the command's
//! arguments, [`Command::NAME`] the name it is registered under, and [`Command::Reply`] what
//! it answers. The editor sends `{"args": <the struct>}`; the Tauri side takes one `args`
//! parameter of the same type, so both ends read and write the same declarations.
//!
//! | command | what it does |
//! |---|---|
//! | [`ListGraphs`], [`LoadGraph`], [`SaveGraph`], [`RenameGraph`], [`DeleteGraph`], [`FreeName`], [`GraphModified`] | the workflows folder |
//! | [`ListRuns`], [`LoadRun`], [`SaveRun`], [`DeleteRun`] | saved runs beside each graph |
//! | [`LoadSuite`], [`SaveSuite`] | a graph's test suite beside its file |
//! | [`OpenFile`], [`SaveFileAs`], [`SaveExternal`] | native dialogs reaching any file the user picks, and saving back to it |
//! | [`TakeOpened`] | graph files given from outside (the command line, a second launch), read |
//! | [`Http`] | a request for an `llm` or `http` node, sent natively (no CORS) |
//! | [`HttpStream`] | a model's request whose reply streams back piece by piece through a [`channel`] |
//! | [`GetSettings`], [`SetSettings`], [`RemoveKey`] | keys per origin and the base URL, in a file only the user can read |
//! | [`SetTraces`], [`ExportTrace`] | where runs are sent as OpenTelemetry traces, and a run's session sent there |
//! | [`SetTitle`] | the window title (file name and unsaved marker) |
//! | [`EditText`], [`CloseWindow`], [`ReadClipboard`] | what a native menu item asks of the window ([`menu`]) |
//! | [`MenuItems`] | the native menus' items as built, for the desktop test to compare with the palette |
//! | [`McpExchange`], [`McpClose`] | an exchange with an MCP server, carried out natively (a program started only when its whole command line was approved) |
//! | [`AllowCommands`] | remembers command lines the person approved for MCP servers |
//!
//! | module | what it holds |
//! |---|---|
//! | [`channel`] | Tauri channels: ids, messages, putting them back in order |
//! | [`commands`] | the editor's commands declared once: ids, labels, menus, keys per platform, help |
//! | [`menu`] | the native menus' event, text editing commands, a menu item as the app reports it |
//! | [`mcp`] | the command line a person approves for an MCP server |
//!
//! A command that fails rejects with a message (a string), except [`Http`] and
//! [`HttpStream`], which reject with an [`HttpFailure`].

pub mod channel;
pub mod commands;
pub mod mcp;
pub mod menu;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use channel::ChannelId;
pub use menu::{MENU_EVENT, MenuEntry, TextEdit};

/// One desktop command: its arguments are the implementing struct.
pub trait Command: Serialize + DeserializeOwned {
    /// The name the Tauri app registers the command under (its function's name).
    const NAME: &'static str;
    /// What the command answers when it succeeds.
    type Reply: Serialize + DeserializeOwned;
}

macro_rules! command {
    ($(#[$doc:meta])* $ty:ident $name:literal -> $reply:ty { $($(#[$fdoc:meta])* $field:ident : $fty:ty),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub struct $ty {
            $($(#[$fdoc])* pub $field: $fty,)*
        }
        impl Command for $ty {
            const NAME: &'static str = $name;
            type Reply = $reply;
        }
    };
}

/// One file of the workflows folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileEntry {
    pub file: String,
    /// The graph's name, or the file name when it cannot be read.
    #[serde(default)]
    pub name: String,
    pub modified_ms: u64,
    /// Why the file cannot be read, if it cannot.
    pub error: Option<String>,
}

/// A graph file's text and when it was last modified.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Loaded {
    pub text: String,
    pub modified_ms: u64,
}

/// A saved file's modification time, so the editor can notice later changes by others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    pub modified_ms: u64,
}

/// A file the user picked in the Open dialog, and its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Picked {
    pub path: String,
    pub text: String,
}

/// The size limit for an imported graph (32 MiB): a file, pasted text or a drop over it is
/// refused before it is read as a document, in the editor and by the app, which reads files
/// given from outside and the clipboard for it.
pub const MAX_IMPORT_BYTES: u64 = 32 * 1024 * 1024;

/// The DOM event the app dispatches in the editor's window when a second launch has handed
/// over files: the editor then takes them ([`TakeOpened`]).
pub const FILES_GIVEN_EVENT: &str = "switchyard-files-given";

/// A file given to the app from outside (on its command line, or to a second launch that
/// handed it over): its text, or why it could not be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Opened {
    pub path: String,
    pub text: Result<String, String>,
}

/// A request for an `llm` or `http` node (the engine's `HttpRequest`, with `auth` named).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    pub timeout_ms: u64,
    /// `Some("openai")` or `Some("anthropic")` when the app should add the key it keeps for
    /// the request's origin.
    #[serde(default)]
    pub auth: Option<String>,
}

/// The `auth` value asking for the OpenAI-compatible API key.
pub const AUTH_OPENAI: &str = "openai";
/// The `auth` value asking for the Anthropic key.
pub const AUTH_ANTHROPIC: &str = "anthropic";
/// The provider of a bearer token kept for an MCP server's origin.
pub const AUTH_MCP: &str = "mcp";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpReply {
    pub status: u16,
    pub body: String,
    /// The reply's headers (the engine reads `Retry-After`).
    #[serde(default)]
    pub headers: Vec<(String, String)>,
}

/// Why [`Http`] failed: its rejection value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HttpFailure {
    pub message: String,
    pub timed_out: bool,
}

/// An origin that has a key, and which provider the key is for (never the key itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyOrigin {
    /// `scheme://host[:port]`.
    pub origin: String,
    /// [`AUTH_OPENAI`] or `anthropic`.
    pub provider: String,
}

/// A key to keep for one origin.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct NewKey {
    pub origin: String,
    pub provider: String,
    pub key: String,
}

impl std::fmt::Debug for NewKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewKey").field("origin", &self.origin).field("provider", &self.provider).finish()
    }
}

/// What the settings dialog may see: which origins have keys, never the keys themselves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublicSettings {
    pub key_origins: Vec<KeyOrigin>,
    pub openai_base_url: Option<String>,
    pub workflows_dir: String,
    /// What the user must be told about the settings file (a damaged one set aside), each
    /// once: the editor shows them as alerts.
    #[serde(default)]
    pub notices: Vec<String>,
    /// The whole command lines ([`mcp::command_line`]) the person approved for MCP servers.
    #[serde(default)]
    pub allowed_commands: Vec<String>,
    /// Where runs are sent as traces, as the settings dialog may see it.
    #[serde(default)]
    pub traces: PublicTraces,
}

/// The traces setting as the settings dialog may see it: the headers' names, never their
/// values (they often carry a tracing tool's key).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicTraces {
    /// The collector's address as the person typed it; empty when the setting is off.
    pub endpoint: String,
    pub header_names: Vec<String>,
    pub capture_content: bool,
    /// Where traces go when the setting is off: the `OTEL_*` variables' endpoint, if set.
    #[serde(default)]
    pub from_environment: Option<String>,
}

command!(
    /// Every graph file of the workflows folder.
    ListGraphs "list_graphs" -> Vec<FileEntry> {}
);
command!(LoadGraph "load_graph" -> Loaded { file: String });
command!(SaveGraph "save_graph" -> Saved { file: String, text: String });
command!(RenameGraph "rename_graph" -> () { from: String, to: String });
command!(DeleteGraph "delete_graph" -> () { file: String });
command!(
    /// A file name not used yet in the workflows folder, made from a title.
    FreeName "free_name" -> String { title: String }
);
command!(
    /// The file's modification time, in milliseconds since the epoch.
    GraphModified "graph_modified" -> u64 { file: String }
);
command!(
    /// The run ids saved beside a graph file.
    ListRuns "list_runs" -> Vec<String> { graph: String }
);
command!(LoadRun "load_run" -> String { graph: String, run: String });
command!(SaveRun "save_run" -> () { graph: String, run: String, text: String });
command!(DeleteRun "delete_run" -> () { graph: String, run: String });
command!(
    /// The test suite kept beside a graph file (`<stem>.tests.json`); `None` when it has none.
    LoadSuite "load_suite" -> Option<String> { graph: String }
);
command!(
    /// Writes the test suite beside a graph file, atomically.
    SaveSuite "save_suite" -> () { graph: String, text: String }
);
command!(
    /// Asks the user for a graph file anywhere and reads it; `None` when they cancel.
    OpenFile "open_file" -> Option<Picked> {}
);
command!(
    /// Asks the user where to save, writes the text there, and answers the path chosen.
    SaveFileAs "save_file_as" -> Option<String> { suggested: String, text: String }
);
command!(
    /// Saves a file the user picked earlier with Open… or Save As….
    SaveExternal "save_external" -> Saved { path: String, text: String }
);
command!(
    /// Sends a node's request natively; rejects with an [`HttpFailure`].
    Http "http" -> HttpReply { request: HttpRequest }
);
command!(
    /// Sends a request whose reply streams (a model's server-sent events): each piece of the
    /// body, as text, goes through `channel` as it arrives, and the reply holds the whole body.
    /// Rejects with an [`HttpFailure`].
    HttpStream "http_stream" -> HttpReply { request: HttpRequest, channel: ChannelId }
);
command!(GetSettings "get_settings" -> PublicSettings {});
command!(
    /// Sets the base URL, and keeps a new key for its origin when one is given (replacing
    /// that origin's key for the same provider).
    SetSettings "set_settings" -> () { base_url: Option<String>, add_key: Option<NewKey> }
);
command!(
    /// Forgets the key of `provider` for `origin`.
    RemoveKey "remove_key" -> () { origin: String, provider: String }
);
command!(
    /// Sets where runs are sent as traces: `endpoint` empty turns the setting off (the
    /// `OTEL_*` variables apply again); `headers` (`name=value` pairs, comma separated)
    /// `None` keeps the headers kept so far.
    SetTraces "set_traces" -> () { endpoint: String, headers: Option<String>, capture_content: bool }
);
command!(
    /// Sends one session of a run as a trace, when traces are set up (else does nothing):
    /// `record` is the run record (`switchyard/run@1`) as JSON, `graph` its graph document
    /// when the editor has the version it ran. Answers the trace id sent, if any.
    ExportTrace "export_trace" -> Option<String> { record: String, graph: Option<String> }
);
command!(SetTitle "set_title" -> () { title: String });
command!(
    /// The files given from outside since the last call, oldest first (each once); the app
    /// may then save back to those it could read.
    TakeOpened "take_opened" -> Vec<Opened> {}
);
command!(
    /// Carries out a text editing command in the focused field (a menu item's, see
    /// [`menu::text_edit`]).
    EditText "edit_text" -> () { edit: TextEdit }
);
command!(
    /// Closes the window (File ▸ Close, once the editor has saved).
    CloseWindow "close_window" -> () {}
);
command!(
    /// The system clipboard's text, if it holds any (the menu's Paste, which gets no paste
    /// event).
    ReadClipboard "read_clipboard" -> Option<String> {}
);
command!(
    /// The native menus' items as the app built them, menu by menu.
    MenuItems "menu_items" -> Vec<MenuEntry> {}
);

command!(
    /// Carries out one exchange with an MCP server natively: `exchange` is the engine's
    /// `McpExchange` as JSON, the reply its `McpReply` as JSON. A program starts only when
    /// its whole command line was approved ([`AllowCommands`]); otherwise the reply ends
    /// `Refused`, saying so.
    McpExchange "mcp_exchange" -> String { exchange: String }
);
command!(
    /// Ends an MCP session when its run stops: `endpoint` is the engine's `McpEndpoint` as
    /// JSON.
    McpClose "mcp_close" -> () { endpoint: String, connection: Option<String>, session_id: Option<String> }
);
command!(
    /// Remembers `lines` ([`mcp::command_line`]) as approved, in the settings file.
    AllowCommands "allow_commands" -> () { lines: Vec<String> }
);

/// Every command's name, for checking that the app registers each one.
pub const COMMANDS: [&str; 32] = [
    ListGraphs::NAME,
    LoadGraph::NAME,
    SaveGraph::NAME,
    RenameGraph::NAME,
    DeleteGraph::NAME,
    FreeName::NAME,
    GraphModified::NAME,
    ListRuns::NAME,
    LoadRun::NAME,
    SaveRun::NAME,
    DeleteRun::NAME,
    LoadSuite::NAME,
    SaveSuite::NAME,
    OpenFile::NAME,
    SaveFileAs::NAME,
    SaveExternal::NAME,
    Http::NAME,
    HttpStream::NAME,
    GetSettings::NAME,
    SetSettings::NAME,
    RemoveKey::NAME,
    SetTitle::NAME,
    TakeOpened::NAME,
    EditText::NAME,
    CloseWindow::NAME,
    ReadClipboard::NAME,
    MenuItems::NAME,
    McpExchange::NAME,
    McpClose::NAME,
    AllowCommands::NAME,
    SetTraces::NAME,
    ExportTrace::NAME,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_round_trip_as_json_objects() {
        let args = SetSettings { base_url: Some("http://127.0.0.1:11434/v1".into()), add_key: None };
        let text = serde_json::to_string(&args).unwrap();
        assert_eq!(text, r#"{"base_url":"http://127.0.0.1:11434/v1","add_key":null}"#);
        assert_eq!(serde_json::from_str::<SetSettings>(&text).unwrap(), args);
        assert_eq!(serde_json::to_string(&ListGraphs {}).unwrap(), "{}");
        assert_eq!(serde_json::from_str::<ListGraphs>("{}").unwrap(), ListGraphs {});
    }

    #[test]
    fn command_names_are_unique() {
        let mut names = COMMANDS.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COMMANDS.len());
    }
}
