//! Every field a node can carry, declared once (format.md §4): its JSON name, what it holds, and
//! which kinds it applies to.
//!
//! The parser suggests names from this table, the validator reports fields that do not
//! belong to a node's kind from it, and an editor can build its inspector on it:
//!
//! ```
//! use engine::document::{Node, NodeField, NodeKind};
//!
//! // What an `http` node takes, with a line of help for each field.
//! for field in NodeKind::Http.node_fields() {
//!     println!("{}: {}", field.name(), field.about());
//! }
//! // Fields a node carries that its kind does not use, and how to drop them.
//! let mut node = Node::new("ask", NodeKind::Human);
//! node.url = Some("https://example.com".into());
//! assert_eq!(node.stray_fields(), [NodeField::Url]);
//! node.clear(NodeField::Url);
//! assert!(node.stray_fields().is_empty());
//! ```

use super::{Node, NodeKind};

/// A field of a node: one of the common fields every kind has, or a kind-specific one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeField {
    Id,
    Kind,
    Label,
    Description,
    Join,
    TimeoutMs,
    Retry,
    OnError,
    Disabled,
    Pinned,
    Required,
    Set,
    Script,
    Route,
    Prompt,
    System,
    Writes,
    Options,
    Fields,
    RouteBy,
    Parse,
    Model,
    Messages,
    Tools,
    OutputSchema,
    Method,
    Url,
    Headers,
    Body,
    Graph,
    Use,
    Inputs,
    Outputs,
    Outcome,
    Message,
    Text,
}

impl NodeField {
    /// Every field, in the order a node's JSON is written in (and serde lists them).
    pub const ALL: [NodeField; 36] = [
        NodeField::Id,
        NodeField::Kind,
        NodeField::Label,
        NodeField::Description,
        NodeField::Join,
        NodeField::TimeoutMs,
        NodeField::Retry,
        NodeField::OnError,
        NodeField::Disabled,
        NodeField::Pinned,
        NodeField::Required,
        NodeField::Set,
        NodeField::Script,
        NodeField::Route,
        NodeField::Prompt,
        NodeField::System,
        NodeField::Writes,
        NodeField::Options,
        NodeField::Fields,
        NodeField::RouteBy,
        NodeField::Parse,
        NodeField::Model,
        NodeField::Messages,
        NodeField::Tools,
        NodeField::OutputSchema,
        NodeField::Method,
        NodeField::Url,
        NodeField::Headers,
        NodeField::Body,
        NodeField::Graph,
        NodeField::Use,
        NodeField::Inputs,
        NodeField::Outputs,
        NodeField::Outcome,
        NodeField::Message,
        NodeField::Text,
    ];

    /// The field's name in the JSON document.
    pub const fn name(self) -> &'static str {
        match self {
            NodeField::Id => "id",
            NodeField::Kind => "kind",
            NodeField::Label => "label",
            NodeField::Description => "description",
            NodeField::Join => "join",
            NodeField::TimeoutMs => "timeout_ms",
            NodeField::Retry => "retry",
            NodeField::OnError => "on_error",
            NodeField::Disabled => "disabled",
            NodeField::Pinned => "pinned",
            NodeField::Required => "required",
            NodeField::Set => "set",
            NodeField::Script => "script",
            NodeField::Route => "route",
            NodeField::Prompt => "prompt",
            NodeField::System => "system",
            NodeField::Writes => "writes",
            NodeField::Options => "options",
            NodeField::Fields => "fields",
            NodeField::RouteBy => "route_by",
            NodeField::Parse => "parse",
            NodeField::Model => "model",
            NodeField::Messages => "messages",
            NodeField::Tools => "tools",
            NodeField::OutputSchema => "output_schema",
            NodeField::Method => "method",
            NodeField::Url => "url",
            NodeField::Headers => "headers",
            NodeField::Body => "body",
            NodeField::Graph => "graph",
            NodeField::Use => "use",
            NodeField::Inputs => "inputs",
            NodeField::Outputs => "outputs",
            NodeField::Outcome => "outcome",
            NodeField::Message => "message",
            NodeField::Text => "text",
        }
    }

    /// One line saying what the field holds, for help texts and tooltips.
    pub const fn about(self) -> &'static str {
        match self {
            NodeField::Id => "unique id: 1 to 64 letters, digits, `_` or `-`",
            NodeField::Kind => "what the node does",
            NodeField::Label => "the name shown on the canvas (the id when empty)",
            NodeField::Description => "free text for people reading the graph",
            NodeField::Join => "`any`: run when any predecessor routes here; `all`: wait for every predecessor",
            NodeField::TimeoutMs => "how long one attempt may take, in milliseconds (llm, http, subgraph)",
            NodeField::Retry => "`{attempts, backoff_ms}`: re-run a failing llm, http or subgraph node",
            NodeField::OnError => "`fail` stops the run, `continue` goes on, `route` follows `error` edges",
            NodeField::Disabled => "bypass the node: it writes nothing and its unconditional edges are followed",
            NodeField::Pinned => "an update used instead of running the node",
            NodeField::Required => "input keys that must be present when the run starts",
            NodeField::Set => "`{field: expression}`: each expression's value is written to its field",
            NodeField::Script => "Rhai code giving a map of updates, or `()` for none",
            NodeField::Route => "an expression giving the label (or labels) of the edges to follow",
            NodeField::Prompt => "a template: the question shown to a person, or the message sent to the model",
            NodeField::System => "a template: the system message sent to the model",
            NodeField::Writes => "the state field the answer or result is written to",
            NodeField::Options => "the answers a person may give; out-edges labelled with them route by the answer",
            NodeField::Fields => "`{name: {type, options, required, label, default}}`: a form answered with one object",
            NodeField::RouteBy => "the form field (one with options) whose answer selects the labelled out-edge",
            NodeField::Parse => "how the reply is read: `text` or `json`",
            NodeField::Model => {
                "`{provider, model, base_url, temperature, max_tokens, responses}`: the chat model to call"
            }
            NodeField::Messages => {
                "llm: an expression giving earlier messages (`state.messages`); tools: the messages field whose tool calls run"
            }
            NodeField::Tools => "names of the graph's tools the model may call",
            NodeField::OutputSchema => "a JSON Schema the model's reply must match (read as JSON)",
            NodeField::Method => "the HTTP method (GET when absent)",
            NodeField::Url => "a template: the URL to request",
            NodeField::Headers => "`{name: template}`: request headers",
            NodeField::Body => "the request body: a template, or JSON whose strings are templates",
            NodeField::Graph => "the embedded graph document to run as one node",
            NodeField::Use => "the name of one of the graph's definitions to run, instead of `graph`",
            NodeField::Inputs => "`{sub_field: expression}`: the embedded run's input",
            NodeField::Outputs => "`{field: expression over result}`: what the embedded run writes back",
            NodeField::Outcome => "`completed` (default) or `failed`: how a run reaching this end finishes",
            NodeField::Message => "a template: the error message of a run ending here with `outcome: failed`",
            NodeField::Text => "the note's text",
        }
    }

    /// The field named `name` in a node's JSON.
    pub fn from_name(name: &str) -> Option<NodeField> {
        NodeField::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether every kind has the field (`id`, `label`, `retry`…), as opposed to the fields
    /// of [`NodeKind::node_fields`]. Some common fields still have no effect on some kinds
    /// (see [`NodeKind::uses`]).
    pub const fn is_common(self) -> bool {
        matches!(
            self,
            NodeField::Id
                | NodeField::Kind
                | NodeField::Label
                | NodeField::Description
                | NodeField::Join
                | NodeField::TimeoutMs
                | NodeField::Retry
                | NodeField::OnError
                | NodeField::Disabled
                | NodeField::Pinned
        )
    }
}

impl std::fmt::Display for NodeField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl NodeKind {
    /// The kind-specific fields a node of this kind takes (beyond the common ones): the
    /// table every other view of node fields derives from.
    pub const fn node_fields(self) -> &'static [NodeField] {
        use NodeField as F;
        match self {
            NodeKind::Start => &[F::Required],
            NodeKind::End => &[F::Outcome, F::Message],
            NodeKind::Set => &[F::Set],
            NodeKind::Script => &[F::Script],
            NodeKind::Router => &[F::Route],
            NodeKind::Human => &[F::Prompt, F::Writes, F::Options, F::Fields, F::RouteBy],
            NodeKind::Llm => {
                &[F::Prompt, F::System, F::Writes, F::Parse, F::Model, F::Messages, F::Tools, F::OutputSchema]
            }
            NodeKind::Http => &[F::Method, F::Url, F::Headers, F::Body, F::Writes, F::Parse],
            NodeKind::Subgraph => &[F::Graph, F::Use, F::Inputs, F::Outputs],
            NodeKind::Tools => &[F::Messages],
            NodeKind::Note => &[F::Text],
        }
    }

    /// The names of [`NodeKind::node_fields`].
    pub fn fields(self) -> &'static [&'static str] {
        // Built once from the table, so that callers get a plain slice of names.
        static NAMES: std::sync::OnceLock<Vec<Vec<&'static str>>> = std::sync::OnceLock::new();
        let names = NAMES
            .get_or_init(|| NodeKind::ALL.iter().map(|k| k.node_fields().iter().map(|f| f.name()).collect()).collect());
        NodeKind::ALL.iter().position(|&k| k == self).map_or(&[], |i| names[i].as_slice())
    }

    /// Whether `field` means something on a node of this kind: its own fields, and the
    /// common ones but `retry` and `timeout_ms` off effectful kinds, and `join`,
    /// `on_error`, `pinned` and `disabled` on `start`, `end` and `note`, which never run.
    pub fn uses(self, field: NodeField) -> bool {
        match field {
            NodeField::Id | NodeField::Kind | NodeField::Label | NodeField::Description => true,
            NodeField::TimeoutMs | NodeField::Retry => self.is_effectful(),
            NodeField::Join | NodeField::OnError | NodeField::Pinned | NodeField::Disabled => {
                !matches!(self, NodeKind::Start | NodeKind::End | NodeKind::Note)
            }
            _ => self.node_fields().contains(&field),
        }
    }
}

impl Node {
    /// Whether the node carries `field` (`id` and `kind` always).
    pub fn has(&self, field: NodeField) -> bool {
        match field {
            NodeField::Id | NodeField::Kind => true,
            NodeField::Label => self.label.is_some(),
            NodeField::Description => self.description.is_some(),
            NodeField::Join => self.join.is_some(),
            NodeField::TimeoutMs => self.timeout_ms.is_some(),
            NodeField::Retry => self.retry.is_some(),
            NodeField::OnError => self.on_error.is_some(),
            NodeField::Disabled => self.disabled.is_some(),
            NodeField::Pinned => self.pinned.is_some(),
            NodeField::Required => self.required.is_some(),
            NodeField::Set => self.set.is_some(),
            NodeField::Script => self.script.is_some(),
            NodeField::Route => self.route.is_some(),
            NodeField::Prompt => self.prompt.is_some(),
            NodeField::System => self.system.is_some(),
            NodeField::Writes => self.writes.is_some(),
            NodeField::Options => self.options.is_some(),
            NodeField::Fields => self.fields.is_some(),
            NodeField::RouteBy => self.route_by.is_some(),
            NodeField::Parse => self.parse.is_some(),
            NodeField::Model => self.model.is_some(),
            NodeField::Messages => self.messages.is_some(),
            NodeField::Tools => self.tools.is_some(),
            NodeField::OutputSchema => self.output_schema.is_some(),
            NodeField::Method => self.method.is_some(),
            NodeField::Url => self.url.is_some(),
            NodeField::Headers => self.headers.is_some(),
            NodeField::Body => self.body.is_some(),
            NodeField::Graph => self.graph.is_some(),
            NodeField::Use => self.use_def.is_some(),
            NodeField::Inputs => self.inputs.is_some(),
            NodeField::Outputs => self.outputs.is_some(),
            NodeField::Outcome => self.outcome.is_some(),
            NodeField::Message => self.message.is_some(),
            NodeField::Text => self.text.is_some(),
        }
    }

    /// Removes `field` from the node. `id` and `kind` cannot be removed and stay as they are.
    pub fn clear(&mut self, field: NodeField) {
        match field {
            NodeField::Id | NodeField::Kind => {}
            NodeField::Label => self.label = None,
            NodeField::Description => self.description = None,
            NodeField::Join => self.join = None,
            NodeField::TimeoutMs => self.timeout_ms = None,
            NodeField::Retry => self.retry = None,
            NodeField::OnError => self.on_error = None,
            NodeField::Disabled => self.disabled = None,
            NodeField::Pinned => self.pinned = None,
            NodeField::Required => self.required = None,
            NodeField::Set => self.set = None,
            NodeField::Script => self.script = None,
            NodeField::Route => self.route = None,
            NodeField::Prompt => self.prompt = None,
            NodeField::System => self.system = None,
            NodeField::Writes => self.writes = None,
            NodeField::Options => self.options = None,
            NodeField::Fields => self.fields = None,
            NodeField::RouteBy => self.route_by = None,
            NodeField::Parse => self.parse = None,
            NodeField::Model => self.model = None,
            NodeField::Messages => self.messages = None,
            NodeField::Tools => self.tools = None,
            NodeField::OutputSchema => self.output_schema = None,
            NodeField::Method => self.method = None,
            NodeField::Url => self.url = None,
            NodeField::Headers => self.headers = None,
            NodeField::Body => self.body = None,
            NodeField::Graph => self.graph = None,
            NodeField::Use => self.use_def = None,
            NodeField::Inputs => self.inputs = None,
            NodeField::Outputs => self.outputs = None,
            NodeField::Outcome => self.outcome = None,
            NodeField::Message => self.message = None,
            NodeField::Text => self.text = None,
        }
    }

    /// The kind-specific fields this node actually carries, by name (whatever its kind).
    pub fn present_fields(&self) -> Vec<&'static str> {
        NodeField::ALL.into_iter().filter(|&f| !f.is_common() && self.has(f)).map(NodeField::name).collect()
    }

    /// Fields the node carries that mean nothing on its kind (see [`NodeKind::uses`]): the
    /// kind-specific ones first, in document order, then `retry`, `timeout_ms`, `join`,
    /// `on_error`, `pinned` and `disabled`.
    pub fn stray_fields(&self) -> Vec<NodeField> {
        const COMMON: [NodeField; 6] = [
            NodeField::Retry,
            NodeField::TimeoutMs,
            NodeField::Join,
            NodeField::OnError,
            NodeField::Pinned,
            NodeField::Disabled,
        ];
        let specific = NodeField::ALL.into_iter().filter(|f| !f.is_common());
        specific.chain(COMMON).filter(|&f| self.has(f) && !self.kind.uses(f)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table and the document's `Node` name the same fields in the same order: serde's
    /// "unknown field" message lists the struct's.
    #[test]
    fn the_table_matches_the_document() {
        let err = serde_json::from_str::<Node>(r#"{"id": "a", "kind": "set", "zzz": 1}"#).unwrap_err().to_string();
        let listed: Vec<&str> = err.split('`').skip(3).step_by(2).collect();
        let names: Vec<&str> = NodeField::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(listed, names, "{err}");
        for f in NodeField::ALL {
            assert_eq!(NodeField::from_name(f.name()), Some(f));
            assert!(!f.about().is_empty());
        }
    }

    #[test]
    fn every_kind_uses_its_fields_and_flags_the_rest() {
        for kind in NodeKind::ALL {
            assert_eq!(kind.fields().len(), kind.node_fields().len());
            let mut node = Node::new("n", kind);
            for f in NodeField::ALL {
                node.clear(f);
            }
            assert!(node.stray_fields().is_empty());
            for &f in kind.node_fields() {
                assert!(kind.uses(f) && !f.is_common(), "{kind:?} {f}");
            }
        }
        let mut note = Node::new("n", NodeKind::Note);
        note.retry = Some(crate::document::Retry { attempts: 2, backoff_ms: None });
        note.writes = Some("x".into());
        assert_eq!(note.stray_fields(), [NodeField::Writes, NodeField::Retry]);
        assert_eq!(note.present_fields(), ["writes"]);
    }
}
