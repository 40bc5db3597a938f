//! The compiled form of a graph: what the executor runs.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::document::{EffectiveLimits, FieldType, Graph, ModelConfig, NodeKind, OnError, Parse, Retry};
use crate::graph_hash::GraphHash;
use crate::json_schema::JsonSchema;
use crate::script::{Expr, Scripting, Template};
use crate::state::Schema;

/// An executable graph.
#[derive(Debug)]
pub struct Plan {
    /// The document it was compiled from.
    pub graph: Graph,
    /// The nodes, sorted by id: the order a step's updates are applied in.
    pub nodes: Vec<PlanNode>,
    /// Node id → index in `nodes`.
    pub by_id: HashMap<String, usize>,
    /// The start node's index.
    pub start: usize,
    pub schema: Schema,
    pub limits: EffectiveLimits,
    pub scripting: Scripting,
    /// The graph's hash, computed the first time a record asks for it.
    pub hash: OnceCell<GraphHash>,
}

impl Plan {
    /// The index of the node with id `id`.
    pub fn index(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// The node at `index` (from [`Plan::index`] or an edge).
    pub fn node(&self, index: usize) -> &PlanNode {
        &self.nodes[index]
    }

    /// The graph's fingerprint (format.md §11), computed once.
    pub fn graph_hash(&self) -> &GraphHash {
        self.hash.get_or_init(|| GraphHash::of(&self.graph))
    }

    /// The keys the start node requires in the input.
    pub fn required_inputs(&self) -> &[String] {
        match &self.nodes[self.start].op {
            Op::Start { required } => required,
            _ => &[],
        }
    }
}

/// A node ready to run: its common settings, its compiled operation and its edges.
#[derive(Debug)]
pub struct PlanNode {
    pub id: Arc<str>,
    pub kind: NodeKind,
    pub join_all: bool,
    pub on_error: OnError,
    pub disabled: bool,
    pub pinned: Option<Arc<Map<String, Value>>>,
    pub timeout_ms: Option<u64>,
    pub retry: Option<Retry>,
    pub op: Op,
    /// Its out-edges, in document order.
    pub out: Vec<PlanEdge>,
    /// Distinct sources of edges into this node (what a `join: all` waits for).
    pub preds: Vec<usize>,
    /// The `join: all` nodes this node is a predecessor of.
    pub feeds_joins: Vec<usize>,
    /// The names the items of map edges into this node take in its scope (besides `index`);
    /// empty when no map edge leads here.
    pub item_names: Vec<Arc<str>>,
}

/// An out-edge, its condition compiled.
#[derive(Debug)]
pub struct PlanEdge {
    /// Index in the document's `edges`.
    pub index: usize,
    pub to: usize,
    pub label: Option<String>,
    pub when: Option<Expr>,
    /// Its `map`: the target runs once per item of the list.
    pub map: Option<MapEdge>,
}

/// A map edge's list expression and the name its items take in the target's scope.
#[derive(Debug)]
pub struct MapEdge {
    pub list: Expr,
    pub name: Arc<str>,
}

impl PlanEdge {
    /// An edge labelled `error`, followed only when its source fails with `on_error: route`.
    pub fn is_error_edge(&self) -> bool {
        self.label.as_deref() == Some("error")
    }
}

/// What a node does, compiled: one variant per kind.
#[derive(Debug)]
pub enum Op {
    Start {
        required: Vec<String>,
    },
    /// An `end` node; `failed` when reaching it ends the run failed (format.md §4, end).
    End {
        failed: Option<FailedEnd>,
    },
    Note,
    Set(Vec<(String, Expr)>),
    Script(Expr),
    Router(Expr),
    Human(HumanOp),
    Llm(Box<LlmOp>),
    Http(HttpOp),
    Subgraph(SubgraphOp),
    Tools(ToolsOp),
}

/// An `end` node with `outcome: failed`.
#[derive(Debug)]
pub struct FailedEnd {
    /// The run's error message, rendered against the state after the step that reached it.
    pub message: Option<Template>,
}

/// A `human` node: its prompt, and what its answer is.
#[derive(Debug)]
pub struct HumanOp {
    pub prompt: Option<Template>,
    pub answer: HumanAnswer,
}

impl HumanOp {
    /// Whether the answer selects the out-edges by label (`options`, or a form's `route_by`).
    pub fn routes_by_label(&self) -> bool {
        match &self.answer {
            HumanAnswer::Value { options, .. } => options.is_some(),
            HumanAnswer::Form(form) => form.route_by.is_some(),
        }
    }
}

/// What a person answers a `human` node with.
#[derive(Debug)]
pub enum HumanAnswer {
    /// One value, written to `writes`; with `options` it must be one of them.
    Value { writes: String, options: Option<Vec<String>> },
    /// A form (format.md §4, human): an object of its fields, each written to the state field of its name.
    Form(FormOp),
}

/// A human node's form, compiled.
#[derive(Debug)]
pub struct FormOp {
    /// In document order.
    pub fields: Vec<FormFieldOp>,
    /// The field whose answer selects the labelled out-edge.
    pub route_by: Option<String>,
}

/// One field of a form.
#[derive(Debug)]
pub struct FormFieldOp {
    pub name: String,
    pub ty: FieldType,
    pub options: Option<Vec<String>>,
    pub required: bool,
    pub label: Option<String>,
    /// Evaluated when the node waits: the value the form is prefilled with.
    pub default: Option<Expr>,
}

/// An `llm` node's call.
#[derive(Debug)]
pub struct LlmOp {
    /// Absent when `messages` gives the whole conversation.
    pub prompt: Option<Template>,
    pub system: Option<Template>,
    /// An expression giving earlier messages, sent after `system` and before `prompt`.
    pub messages: Option<Expr>,
    /// The graph's tools the model may call, as the model is told of them.
    pub tools: Vec<ToolSpec>,
    /// The schema the reply must match (read as JSON).
    pub output_schema: Option<JsonSchema>,
    pub writes: String,
    /// `writes` is a `messages` field: it receives the assistant message, tool calls and all.
    pub writes_messages: bool,
    pub parse: Parse,
    pub model: ModelConfig,
    /// A mock model's replies and rules, compiled.
    pub mock: Vec<MockItem>,
}

/// A tool as a model is told of it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    /// A JSON Schema for the arguments (an empty object schema when the tool gives none).
    pub parameters: Value,
    /// An MCP tool whose document leaves out its description or parameters: the server's
    /// listing gives them when a model is offered the tool.
    pub listed: Option<Rc<McpToolOp>>,
}

/// One item of a mock model's `responses`.
#[derive(Debug)]
pub enum MockItem {
    /// Answers in turn with the other plain items.
    Plain(MockReply),
    /// Answers when `when` holds (tried in order, before the plain items).
    Rule { when: Expr, reply: MockReply },
}

/// What a mock model answers. Its strings are templates (`{{ }}`), rendered in the scope a
/// rule's `when` sees, so that a mock's answer can follow the state, the prompt and the
/// messages (a tool's result, an item of a map).
#[derive(Debug)]
pub enum MockReply {
    /// Text, or any JSON value (used as it is with `parse: json`).
    Value(JsonTemplate),
    /// An assistant message: text and tool calls (`{name, arguments}`; ids are generated).
    Message { content: JsonTemplate, tool_calls: Vec<(String, JsonTemplate)> },
}

/// An `http` node's request.
#[derive(Debug)]
pub struct HttpOp {
    pub request: RequestOp,
    pub writes: String,
    pub parse: Parse,
}

/// A request to render: an `http` node's, or an `http` tool's.
#[derive(Debug)]
pub struct RequestOp {
    pub method: String,
    pub url: Template,
    pub headers: Vec<(String, Template)>,
    pub body: Option<Body>,
}

/// A `tools` node: runs the tool calls of the last assistant message of `field`.
#[derive(Debug)]
pub struct ToolsOp {
    pub field: String,
    /// `on_error: fail` was set: a call that fails fails the node, instead of answering
    /// the model with an `error:` message.
    pub fail: bool,
    pub tools: Rc<Vec<PlanTool>>,
}

/// A graph-level tool, compiled.
#[derive(Debug)]
pub struct PlanTool {
    pub spec: ToolSpec,
    pub parameters: Option<JsonSchema>,
    pub run: ToolRunOp,
}

/// How a tool call runs.
#[derive(Debug)]
pub enum ToolRunOp {
    /// Rhai with `args` in scope; its value is the result.
    Script(Expr),
    /// A request whose templates see `args`; the reply is the result.
    Http(RequestOp),
    /// Definition `name` run on the call's input; its final state (or `outputs` over it) is
    /// the result.
    Use(UseOp),
    /// A tool of an MCP server, called in the run's session with that server.
    Mcp(Rc<McpToolOp>),
}

/// A tool that an MCP server runs.
#[derive(Debug, PartialEq)]
pub struct McpToolOp {
    pub server: Rc<McpServerOp>,
    /// The server's name for the tool.
    pub tool: String,
    /// The document's `parameters`: the server's `inputSchema` must still be this one.
    pub parameters: Option<Value>,
}

/// One of the document's `mcp_servers`, checked.
#[derive(Debug, PartialEq)]
pub struct McpServerOp {
    /// Its key in `mcp_servers`: one session per run is kept under it.
    pub name: String,
    pub transport: McpTransport,
}

/// How a server is reached.
#[derive(Debug, Clone, PartialEq)]
pub enum McpTransport {
    /// A program speaking MCP over stdio, started as written.
    Stdio { program: String, args: Vec<String>, env: Vec<(String, String)> },
    /// Streamable HTTP; header values are templates over `input`, rendered when a run opens
    /// the session.
    Http { url: String, headers: Vec<(String, String)> },
}

/// A tool that runs a definition.
#[derive(Debug)]
pub struct UseOp {
    pub name: String,
    pub plan: Rc<Plan>,
    /// The definition's input, `args` in scope; `None`: the arguments as they are.
    pub inputs: Option<Vec<(String, Expr)>>,
    /// The call's result, `result` (the final state) in scope; `None`: the final state.
    pub outputs: Option<Vec<(String, Expr)>>,
}

/// An `http` body: a template, or JSON whose strings are templates.
#[derive(Debug)]
pub enum Body {
    Text(Template),
    Json(JsonTemplate),
}

/// JSON whose strings may be templates.
#[derive(Debug)]
pub enum JsonTemplate {
    Literal(Value),
    Text(Template),
    List(Vec<JsonTemplate>),
    Object(Vec<(String, JsonTemplate)>),
}

/// A `subgraph` node's plan (embedded, or a definition's, shared) and its input and output
/// expressions.
#[derive(Debug)]
pub struct SubgraphOp {
    pub plan: Rc<Plan>,
    pub inputs: Vec<(String, Expr)>,
    pub outputs: Vec<(String, Expr)>,
}

/// The top-level document's definitions, compiled, and its MCP servers, which every graph of
/// the document names.
#[derive(Debug, Default)]
pub(super) struct Definitions {
    /// Every definition's name, in document order.
    names: Vec<String>,
    /// The plans of the definitions compiled so far without error.
    plans: HashMap<String, Rc<Plan>>,
    pub(super) mcp: Rc<McpServers>,
}

/// What a `use` finds.
pub(super) enum Found {
    Plan(Rc<Plan>),
    /// A definition that cannot run: its own errors, or its cycle, are reported already.
    Broken,
    Unknown,
}

impl Definitions {
    /// None compiled yet, of those named `names`.
    pub(super) fn named(names: Vec<String>, mcp: Rc<McpServers>) -> Definitions {
        Definitions { names, plans: HashMap::new(), mcp }
    }

    /// Definition `name` compiled without error.
    pub(super) fn add(&mut self, name: &str, plan: Rc<Plan>) {
        self.plans.insert(name.to_string(), plan);
    }

    /// The definition named `name`.
    pub(super) fn find(&self, name: &str) -> Found {
        match self.plans.get(name) {
            Some(plan) => Found::Plan(plan.clone()),
            None if self.names.iter().any(|n| n == name) => Found::Broken,
            None => Found::Unknown,
        }
    }

    /// The definitions' names, for a message about an unknown one.
    pub(super) fn known(&self) -> String {
        if self.names.is_empty() {
            return "the graph has no definitions".into();
        }
        let names: Vec<String> = self.names.iter().map(|n| format!("`{n}`")).collect();
        format!("the definitions are {}", names.join(", "))
    }
}

/// The servers a graph declares, as its tools find them by name (the `mcp` module reads them),
/// over those of the graph it is in (a definition's or embedded graph's over the document's).
#[derive(Debug, Default)]
pub(super) struct McpServers {
    /// Every declared name, in document order.
    pub(super) names: Vec<String>,
    /// The servers compiled without error.
    pub(super) ok: HashMap<String, Rc<McpServerOp>>,
    /// The servers of the graph around this one, found when this one does not declare a name.
    pub(super) outer: Option<Rc<McpServers>>,
}

/// The outcome of compiling: every diagnostic, and a plan when none is an error.
#[derive(Debug)]
pub struct Compiled {
    pub plan: Option<Plan>,
    pub diagnostics: Vec<Diagnostic>,
}
