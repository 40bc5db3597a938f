//! The graph document, `switchyard/graph@1` (spec section 2).
//!
//! These types mirror the JSON one to one: every field is optional where the spec makes it
//! optional, so that a document read and written again is byte-for-byte the same. Meaning
//! (defaults) is given by [`crate::validate`] and [`crate::plan`], not here. Which fields a
//! node of each kind takes is declared once, in [`NodeField`] and [`NodeKind::node_fields`].

mod fields;
mod form;
pub(crate) mod objects;
mod tools;

use indexmap::IndexMap;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// The value of every document's `format` field.
pub const GRAPH_FORMAT: &str = "switchyard/graph@1";

/// The `$id` of the graph document's JSON Schema (`schema/graph.schema.json`): what a document's
/// optional `"$schema"` names. An identifier, not an address: editors map it to the file.
pub const GRAPH_SCHEMA_ID: &str = "urn:switchyard:graph@1";

pub use self::fields::NodeField;
pub use self::form::{FormField, Outcome};
pub use self::tools::{ToolDef, ToolHttp, ToolRun};

/// A whole graph document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Graph {
    /// The JSON Schema the document says it follows (`"$schema"`); no meaning to a run.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt_map")]
    pub state: Option<IndexMap<String, StateField>>,
    /// Tools an `llm` node may offer its model, by name (spec 2.6).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt_map")]
    pub tools: Option<IndexMap<String, ToolDef>>,
    /// Graphs that `subgraph` nodes and tools `use` by name (spec 2.10); a definition may
    /// use the ones before it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt_map")]
    pub definitions: Option<IndexMap<String, Graph>>,
    #[serde(deserialize_with = "objects::list")]
    pub nodes: Vec<Node>,
    #[serde(default, deserialize_with = "objects::list")]
    pub edges: Vec<Edge>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt")]
    pub limits: Option<Limits>,
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

/// One declared state field (spec 2.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateField {
    #[serde(rename = "type")]
    pub ty: FieldType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reducer: Option<Reducer>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub default: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evict: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Keeps an explicit `null` apart from an absent field.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    String,
    Number,
    Integer,
    Boolean,
    List,
    Object,
    Any,
    /// A chat transcript, merged by the `messages` reducer (spec 2.6).
    Messages,
}

impl FieldType {
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
#[serde(rename_all = "snake_case")]
pub enum Reducer {
    #[default]
    Replace,
    Append,
    Add,
    Merge,
    /// LangGraph's `add_messages`: the only reducer of a `messages` field.
    Messages,
}

impl Reducer {
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

/// Every node kind of spec 2.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Start,
    End,
    Set,
    Script,
    Router,
    Human,
    Llm,
    Http,
    Subgraph,
    Tools,
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
#[serde(rename_all = "snake_case")]
pub enum Join {
    #[default]
    Any,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnError {
    #[default]
    Fail,
    Continue,
    Route,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Parse {
    Text,
    Json,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Retry {
    pub attempts: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_ms: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    Mock,
    Openai,
    /// Anthropic's Messages API (spec 2.6).
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
#[serde(deny_unknown_fields)]
pub struct ModelConfig {
    pub provider: Provider,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "opt_number")]
    pub temperature: Option<f64>,
    /// The most tokens the reply may take (Anthropic requires it; 1024 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// A mock model's replies: strings, `{content, tool_calls}` objects, or rules
    /// `{when, reply}` (spec 2.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responses: Option<Vec<Value>>,
}

/// One node. Kind-specific fields are all listed here as optional fields (rather than as an
/// enum) so that unknown fields are reported with their exact JSON path, and a field that does
/// not belong to the node's kind gets a clear diagnostic from the validator. Each field has a
/// [`NodeField`] naming and describing it; keep the two in the same order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// `human`: a form, `{name: field}`, answered with one object (spec 2.8).
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
    /// `end`: how a run that reaches this end finishes (spec 2.9).
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

/// An edge (spec 2.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edge {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// An expression giving a list: the target runs once per item (spec 2.7).
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

/// `limits` as written; see [`EffectiveLimits`] for the values in force.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_state_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ops: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_fanout: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_record_bytes: Option<u64>,
}

impl Limits {
    /// Each limit by name, as written.
    pub fn named(&self) -> [(&'static str, Option<u64>); 7] {
        [
            ("max_steps", self.max_steps),
            ("run_timeout_ms", self.run_timeout_ms),
            ("node_timeout_ms", self.node_timeout_ms),
            ("max_state_bytes", self.max_state_bytes),
            ("max_ops", self.max_ops),
            ("max_fanout", self.max_fanout),
            ("max_record_bytes", self.max_record_bytes),
        ]
    }
}

/// The limits with the spec's defaults applied (spec 2.4), held to the host's ceilings
/// (spec 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EffectiveLimits {
    pub max_steps: u64,
    pub run_timeout_ms: u64,
    pub node_timeout_ms: u64,
    pub max_state_bytes: u64,
    pub max_ops: u64,
    /// Instances of one node in one step.
    pub max_fanout: u64,
    /// The run record kept in memory; past it the run stops with a `limit` error.
    pub max_record_bytes: u64,
}

impl EffectiveLimits {
    /// The values used when a document gives none (spec 2.4).
    pub const DEFAULTS: EffectiveLimits = EffectiveLimits {
        max_steps: 24,
        run_timeout_ms: 900_000,
        node_timeout_ms: 180_000,
        max_state_bytes: 1_048_576,
        max_ops: 100_000,
        max_fanout: 1000,
        max_record_bytes: 268_435_456,
    };

    /// The most a document may ask for (spec 8): a shared graph must not be able to run
    /// forever or exhaust the machine. A larger value is clamped, with a warning.
    pub const CEILINGS: EffectiveLimits = EffectiveLimits {
        max_steps: 1_000_000,
        run_timeout_ms: 86_400_000,
        node_timeout_ms: 86_400_000,
        max_state_bytes: 64 * 1024 * 1024,
        max_ops: 100_000_000,
        max_fanout: 100_000,
        max_record_bytes: 1024 * 1024 * 1024,
    };

    /// The ceiling of the limit called `name`.
    pub fn ceiling(name: &str) -> Option<u64> {
        let c = EffectiveLimits::CEILINGS;
        Some(match name {
            "max_steps" => c.max_steps,
            "run_timeout_ms" => c.run_timeout_ms,
            "node_timeout_ms" => c.node_timeout_ms,
            "max_state_bytes" => c.max_state_bytes,
            "max_ops" => c.max_ops,
            "max_fanout" => c.max_fanout,
            "max_record_bytes" => c.max_record_bytes,
            _ => return None,
        })
    }
}

/// Writes a whole number without a fraction (`120`, not `120.0`), so a document written by
/// hand survives a round trip unchanged.
fn number<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    if v.fract() == 0.0 && v.abs() < 9.0e15 { s.serialize_i64(*v as i64) } else { s.serialize_f64(*v) }
}

fn opt_number<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => number(v, s),
        None => s.serialize_none(),
    }
}

/// Where a node sits on the canvas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    #[serde(serialize_with = "number")]
    pub x: f64,
    #[serde(serialize_with = "number")]
    pub y: f64,
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "opt_number")]
    pub w: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "opt_number")]
    pub h: Option<f64>,
}

/// The canvas's pan and zoom.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Viewport {
    #[serde(serialize_with = "number")]
    pub x: f64,
    #[serde(serialize_with = "number")]
    pub y: f64,
    #[serde(default = "one", serialize_with = "number")]
    pub zoom: f64,
}

fn one() -> f64 {
    1.0
}

/// `layout`: node id → position, plus the optional key `viewport`. Kept apart from the
/// semantics so that moving a node never changes what the graph means.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    pub viewport: Option<Viewport>,
    pub nodes: IndexMap<String, Position>,
}

/// The reserved key of `layout` that holds the viewport rather than a node's position.
pub const VIEWPORT_KEY: &str = "viewport";

impl Serialize for Layout {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.nodes.len() + usize::from(self.viewport.is_some())))?;
        for (id, pos) in &self.nodes {
            m.serialize_entry(id, pos)?;
        }
        if let Some(v) = &self.viewport {
            m.serialize_entry(VIEWPORT_KEY, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Layout {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = IndexMap::<String, Value>::deserialize(d)?;
        let mut layout = Layout::default();
        for (key, value) in raw {
            if key == VIEWPORT_KEY {
                let v = objects::Obj::<Viewport>::deserialize(value)
                    .map(|o| o.0)
                    .map_err(|e| D::Error::custom(format!("viewport: {e}")))?;
                layout.viewport = Some(v);
            } else {
                let p = objects::Obj::<Position>::deserialize(value)
                    .map(|o| o.0)
                    .map_err(|e| D::Error::custom(format!("{key}: {e}")))?;
                layout.nodes.insert(key, p);
            }
        }
        Ok(layout)
    }
}
