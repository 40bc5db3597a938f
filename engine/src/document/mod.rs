//! The graph document, `switchyard/graph@1` (format.md §2).
//!
//! These types mirror the JSON one to one: every field is optional where the spec makes it
//! optional, so that a document read and written again is byte-for-byte the same. Meaning
//! (defaults) is given by [`crate::validate`] and [`crate::plan`], not here. Which fields a
//! node of each kind takes is declared once, in [`NodeField`] and [`NodeKind::node_fields`].

mod fields;
mod form;
mod layout;
mod limits;
mod mcp;
pub(crate) mod objects;
mod tools;

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// The value of every document's `format` field.
pub const GRAPH_FORMAT: &str = "switchyard/graph@1";

/// The `$id` of the graph document's JSON Schema (`schema/graph.schema.json`): what a document's
/// optional `"$schema"` names. An identifier, not an address: editors map it to the file.
pub const GRAPH_SCHEMA_ID: &str = "urn:switchyard:graph@1";

pub use self::fields::NodeField;
pub use self::form::{FormField, Outcome};
use self::layout::opt_number;
pub use self::layout::{Layout, Position, VIEWPORT_KEY, Viewport};
pub use self::limits::{EffectiveLimits, Limits, MAX_RETRY_ATTEMPTS, MIN_RETRY_BACKOFF_MS};
pub use self::mcp::{McpServer, ToolMcp};
pub use self::tools::{ToolDef, ToolHttp, ToolRun};

/// A whole graph document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Graph {
    /// The JSON Schema the document says it follows (`"$schema"`); no meaning to a run.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Always `switchyard/graph@1`: the format and its version.
    pub format: String,
    /// The graph's name, shown in the editor and written into each run record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Free text for people reading the graph.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The shared state's declared fields, by name: each with a type and a reducer saying how
    /// nodes' updates merge into it. Keys nobody declared are still allowed (replaced).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt_map")]
    pub state: Option<IndexMap<String, StateField>>,
    /// Tools an `llm` node may offer its model, by name (format.md §4 (llm, tools) and §8).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt_map")]
    pub tools: Option<IndexMap<String, ToolDef>>,
    /// MCP servers whose tools the graph's `tools` run (format.md §2.11), by name.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt_map")]
    pub mcp_servers: Option<IndexMap<String, McpServer>>,
    /// Graphs that `subgraph` nodes and tools `use` by name (format.md §9); a definition may
    /// use the ones before it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt_map")]
    pub definitions: Option<IndexMap<String, Graph>>,
    /// The nodes: exactly one `start`, at least one `end`, and the steps between.
    #[serde(deserialize_with = "objects::list")]
    pub nodes: Vec<Node>,
    /// How control flows from node to node.
    #[serde(default, deserialize_with = "objects::list")]
    pub edges: Vec<Edge>,
    /// Bounds on a run (steps, time, sizes); each has a default.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt")]
    pub limits: Option<Limits>,
    /// Where the editor draws each node; no meaning to a run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
}

impl Graph {
    /// An empty graph holding a `start` and an `end` node joined by one edge.
    pub fn new(name: &str) -> Graph {
        Graph {
            schema: None,
            format: GRAPH_FORMAT.to_string(),
            name: Some(name.to_string()),
            description: None,
            state: None,
            tools: None,
            mcp_servers: None,
            definitions: None,
            nodes: vec![Node::new("start", NodeKind::Start), Node::new("end", NodeKind::End)],
            edges: vec![Edge::new("start", "end")],
            limits: None,
            layout: None,
        }
    }

    /// The graph's display name (`Untitled` when it has none).
    pub fn display_name(&self) -> &str {
        self.name.as_deref().filter(|n| !n.is_empty()).unwrap_or("Untitled")
    }

    /// A file name stem for a graph called `title`: lowercase letters and digits joined by
    /// `-`, at most 80 characters, `graph` when nothing is left. The editor and the desktop
    /// app name graph files with it.
    pub fn file_stem(title: &str) -> String {
        let slug = title
            .chars()
            .flat_map(|c| if c.is_alphanumeric() { c.to_lowercase().collect::<Vec<_>>() } else { vec!['-'] })
            .collect::<String>()
            .split('-')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        if slug.is_empty() { "graph".into() } else { slug.chars().take(80).collect() }
    }

    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// The document without its layout: two graphs with equal semantics mean the same thing
    /// whatever their positions on the canvas.
    pub fn semantics(&self) -> Graph {
        Graph { layout: None, schema: None, ..self.clone() }
    }

    /// The limits in force: every default filled in, and every value held to the host's
    /// [`EffectiveLimits::CEILINGS`] (validation warns about a value over its ceiling).
    pub fn effective_limits(&self) -> EffectiveLimits {
        let l = self.limits.clone().unwrap_or_default();
        let d = EffectiveLimits::DEFAULTS;
        let c = EffectiveLimits::CEILINGS;
        EffectiveLimits {
            max_steps: l.max_steps.unwrap_or(d.max_steps).min(c.max_steps),
            run_timeout_ms: l.run_timeout_ms.unwrap_or(d.run_timeout_ms).min(c.run_timeout_ms),
            node_timeout_ms: l.node_timeout_ms.unwrap_or(d.node_timeout_ms).min(c.node_timeout_ms),
            max_state_bytes: l.max_state_bytes.unwrap_or(d.max_state_bytes).min(c.max_state_bytes),
            max_ops: l.max_ops.unwrap_or(d.max_ops).min(c.max_ops),
            max_fanout: l.max_fanout.unwrap_or(d.max_fanout).min(c.max_fanout),
            max_record_bytes: l.max_record_bytes.unwrap_or(d.max_record_bytes).min(c.max_record_bytes),
        }
    }

    /// Pretty JSON with the field order of the spec: stable, so exports diff well.
    pub fn to_pretty_json(&self) -> String {
        // Serializing plain data into a String cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// One declared state field (format.md §3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct StateField {
    /// What values the field holds; an update of another type is a `type` error.
    #[serde(rename = "type")]
    pub ty: FieldType,
    /// How an update merges into the current value (`replace`, or `messages` for a
    /// `messages` field, when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reducer: Option<Reducer>,
    /// The value before any node writes; when absent: `""`, `0`, `false`, `[]` or `{}` by
    /// type, `null` for `any`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub default: Option<Value>,
    /// `append` and `messages` fields: keep at most this many items.
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// Which items go past `max_items`: `oldest` (when absent) drops from the front,
    /// `lowest:<key>` the items whose `<key>` is lowest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evict: Option<String>,
    /// What the field is for, for people reading the graph.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Keeps an explicit `null` apart from an absent field.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    /// Text.
    String,
    /// Any JSON number.
    Number,
    /// A whole number (a 64-bit signed integer).
    Integer,
    /// `true` or `false`.
    Boolean,
    /// A JSON array.
    List,
    /// A JSON object.
    Object,
    /// Any JSON value, `null` included.
    Any,
    /// A chat transcript, merged by the `messages` reducer (format.md §4 (llm, tools) and §8).
    Messages,
}

impl FieldType {
    pub const ALL: [FieldType; 8] = [
        FieldType::String,
        FieldType::Number,
        FieldType::Integer,
        FieldType::Boolean,
        FieldType::List,
        FieldType::Object,
        FieldType::Any,
        FieldType::Messages,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FieldType::String => "string",
            FieldType::Number => "number",
            FieldType::Integer => "integer",
            FieldType::Boolean => "boolean",
            FieldType::List => "list",
            FieldType::Object => "object",
            FieldType::Any => "any",
            FieldType::Messages => "messages",
        }
    }

    /// The initial value of a field of this type that has no `default`.
    pub fn zero(self) -> Value {
        match self {
            FieldType::String => Value::String(String::new()),
            FieldType::Number | FieldType::Integer => Value::from(0),
            FieldType::Boolean => Value::Bool(false),
            FieldType::List | FieldType::Messages => Value::Array(Vec::new()),
            FieldType::Object => Value::Object(Map::new()),
            FieldType::Any => Value::Null,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Reducer {
    /// The update replaces the value; two nodes writing it in one step is a `conflict`.
    #[default]
    Replace,
    /// Lists concatenate; an update that is not a list is appended as one item.
    Append,
    /// Numbers add up.
    Add,
    /// Objects merge shallowly, the update's keys winning.
    Merge,
    /// LangGraph's `add_messages`: the only reducer of a `messages` field.
    Messages,
}

impl Reducer {
    pub const ALL: [Reducer; 5] = [Reducer::Replace, Reducer::Append, Reducer::Add, Reducer::Merge, Reducer::Messages];

    /// Whether the reducer works on a field of type `ty`.
    pub fn fits(self, ty: FieldType) -> bool {
        match self {
            // A transcript is merged by message id, never replaced whole.
            Reducer::Replace => ty != FieldType::Messages,
            Reducer::Append => matches!(ty, FieldType::List | FieldType::Any),
            Reducer::Add => matches!(ty, FieldType::Number | FieldType::Integer | FieldType::Any),
            Reducer::Merge => matches!(ty, FieldType::Object | FieldType::Any),
            Reducer::Messages => ty == FieldType::Messages,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Reducer::Replace => "replace",
            Reducer::Append => "append",
            Reducer::Add => "add",
            Reducer::Merge => "merge",
            Reducer::Messages => "messages",
        }
    }
}

/// Every node kind of format.md §4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(description = "What the node does."))]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// Where every run begins (exactly one per graph); never runs as a step.
    Start,
    /// Ends the branch that reaches it; never runs as a step.
    End,
    /// Writes the value of each expression in `set` to its field.
    Set,
    /// Runs Rhai code that gives a map of updates.
    Script,
    /// Follows the out-edges whose label the `route` expression gives.
    Router,
    /// Waits for a person's answer (free text, one of `options`, or a form of `fields`).
    Human,
    /// Calls a chat model (a mock, an OpenAI-compatible API, or Anthropic).
    Llm,
    /// Makes an HTTP request.
    Http,
    /// Runs another graph (embedded in `graph`, or one of `definitions` by `use`) as one step.
    Subgraph,
    /// Runs the tool calls of the last assistant message in a `messages` field.
    Tools,
    /// A comment on the canvas: never runs and has no edges.
    Note,
}

impl NodeKind {
    pub const ALL: [NodeKind; 11] = [
        NodeKind::Start,
        NodeKind::End,
        NodeKind::Set,
        NodeKind::Script,
        NodeKind::Router,
        NodeKind::Human,
        NodeKind::Llm,
        NodeKind::Http,
        NodeKind::Subgraph,
        NodeKind::Tools,
        NodeKind::Note,
    ];

    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Start => "start",
            NodeKind::End => "end",
            NodeKind::Set => "set",
            NodeKind::Script => "script",
            NodeKind::Router => "router",
            NodeKind::Human => "human",
            NodeKind::Llm => "llm",
            NodeKind::Http => "http",
            NodeKind::Subgraph => "subgraph",
            NodeKind::Tools => "tools",
            NodeKind::Note => "note",
        }
    }

    /// Kinds whose work goes through the host (network, models) and may be retried.
    pub fn is_effectful(self) -> bool {
        matches!(self, NodeKind::Llm | NodeKind::Http | NodeKind::Subgraph | NodeKind::Tools)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Join {
    /// Run when any predecessor routes here.
    #[default]
    Any,
    /// Wait until every predecessor has routed here.
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OnError {
    /// A failure stops the run.
    #[default]
    Fail,
    /// A failure is recorded on the node and the other branches go on.
    Continue,
    /// A failure follows the out-edges labelled `error`.
    Route,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Parse {
    /// Keep the reply as a string.
    Text,
    /// Read the reply as JSON (an error when it is not).
    Json,
}

/// Re-running a failing effectful node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Retry {
    /// How many times the node may run in all, the first attempt included (at least 1).
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub attempts: u32,
    /// How long to wait before each new attempt, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_ms: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// Answers from `responses`, offline and deterministic.
    Mock,
    /// The OpenAI-compatible chat completions API (OpenAI, Ollama, llama.cpp, vLLM…).
    Openai,
    /// Anthropic's Messages API (format.md §4 (llm, tools) and §8).
    Anthropic,
}

impl Provider {
    pub fn name(self) -> &'static str {
        match self {
            Provider::Mock => "mock",
            Provider::Openai => "openai",
            Provider::Anthropic => "anthropic",
        }
    }
}

/// An `llm` node's model settings. There is deliberately no field for an API key: keys come
/// from the host, and an `api_key` in a document is rejected as an unknown field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ModelConfig {
    /// Which API the call goes to.
    pub provider: Provider,
    /// The model's name, as the provider knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Where the provider's API is served, instead of its usual address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// Sampling temperature sent with the request.
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "opt_number")]
    pub temperature: Option<f64>,
    /// The most tokens the reply may take (Anthropic requires it; 1024 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// A mock model's replies: strings, `{content, tool_calls}` objects, or rules
    /// `{when, reply}` (format.md §4 (llm, tools) and §8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responses: Option<Vec<Value>>,
}

/// One node. Kind-specific fields are all listed here as optional fields (rather than as an
/// enum) so that unknown fields are reported with their exact JSON path, and a field that does
/// not belong to the node's kind gets a clear diagnostic from the validator. Each field has a
/// [`NodeField`] naming and describing it; keep the two in the same order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        description = "One node of the graph: its `kind` says what it does, and each kind takes its own fields besides the common ones."
    )
)]
#[serde(deny_unknown_fields)]
pub struct Node {
    pub id: String,
    pub kind: NodeKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join: Option<Join>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt")]
    pub retry: Option<Retry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_error: Option<OnError>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinned: Option<Map<String, Value>>,

    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<IndexMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
    /// `human`: a form, `{name: field}`, answered with one object (format.md §4, human).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt_map")]
    pub fields: Option<IndexMap<String, FormField>>,
    /// `human`: the form field (one with `options`) whose answer selects the labelled out-edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parse: Option<Parse>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt")]
    pub model: Option<ModelConfig>,
    /// `llm`: an expression giving earlier messages; `tools`: a `messages` field's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<String>,
    /// `llm`: names of the graph's tools the model may call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// `llm`: a JSON Schema the reply must match (implies `parse: json`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub output_schema: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<IndexMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub body: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt_box")]
    pub graph: Option<Box<Graph>>,
    /// `subgraph`: the name of one of the graph's `definitions`, instead of `graph`.
    #[serde(default, rename = "use", skip_serializing_if = "Option::is_none")]
    pub use_def: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<IndexMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outputs: Option<IndexMap<String, String>>,
    /// `end`: how a run that reaches this end finishes (format.md §4, end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// `end` with `outcome: failed`: a template, the run's error message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl Node {
    /// A node of `kind` with no fields but its id.
    pub fn new(id: &str, kind: NodeKind) -> Node {
        Node {
            id: id.to_string(),
            kind,
            label: None,
            description: None,
            join: None,
            timeout_ms: None,
            retry: None,
            on_error: None,
            disabled: None,
            pinned: None,
            required: None,
            set: None,
            script: None,
            route: None,
            prompt: None,
            system: None,
            writes: None,
            options: None,
            fields: None,
            route_by: None,
            parse: None,
            model: None,
            messages: None,
            tools: None,
            output_schema: None,
            method: None,
            url: None,
            headers: None,
            body: None,
            graph: None,
            use_def: None,
            inputs: None,
            outputs: None,
            outcome: None,
            message: None,
            text: None,
        }
    }

    /// The label shown for the node: its `label`, else its id.
    pub fn title(&self) -> &str {
        self.label.as_deref().filter(|l| !l.is_empty()).unwrap_or(&self.id)
    }

    pub fn is_disabled(&self) -> bool {
        self.disabled.unwrap_or(false)
    }
}

/// An edge (format.md §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(description = "An edge: after `from` runs, `to` runs in the next step if the edge is followed.")
)]
#[serde(deny_unknown_fields)]
pub struct Edge {
    /// An optional name for the edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The id of the node the edge leaves.
    pub from: String,
    /// The id of the node the edge enters.
    pub to: String,
    /// Out of a `router` or a `human` node with options, the answer that selects this edge
    /// (`default` catches the rest); `error` marks the edge taken when the source fails with
    /// `on_error: route`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// An expression over the state after the step: the edge is followed only when it is true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// An expression giving a list: the target runs once per item (format.md §5, map edges).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<String>,
    /// The name each item has in the target's scope (`item` when absent).
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub as_name: Option<String>,
}

impl Edge {
    pub fn new(from: &str, to: &str) -> Edge {
        Edge { id: None, from: from.to_string(), to: to.to_string(), label: None, when: None, map: None, as_name: None }
    }
}
