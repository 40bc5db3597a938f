//! The suite format, `switchyard/tests@1`, one to one with the JSON: the graph tested, its
//! cases (input, answers, recorded replies, expectations, a baseline run) and evaluators.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::document::Graph;
use crate::record::{RecordedReply, RunRecord};

/// The value of every suite's `format` field.
pub const TESTS_FORMAT: &str = "switchyard/tests@1";

/// The `$id` of the suite's JSON Schema (`schema/tests.schema.json`).
pub const TESTS_SCHEMA_ID: &str = "urn:switchyard:tests@1";

/// The threshold of an evaluator that gives none.
pub const DEFAULT_THRESHOLD: f64 = 0.5;

/// A test suite: cases for one graph, and the evaluators that score every case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// The JSON Schema the suite says it follows (`"$schema"`).
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Always `switchyard/tests@1`: the format and its version.
    pub format: String,
    /// The graph the cases are for.
    pub graph: SuiteGraph,
    /// The cases, each a run to make and check.
    #[serde(default)]
    pub cases: Vec<Case>,
    /// What scores every case's run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evaluators: Vec<Evaluator>,
    /// A JSON Lines file of more cases (inputs, references), relative to the suite file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
}

/// The graph a suite is for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SuiteGraph {
    /// The graph file, relative to the suite file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The graph's `name`: a suite runs only against a graph of this name.
    pub name: String,
    /// The graph's hash when the suite was made (a different one is the edit being checked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
}

/// One case: a run to make (input, answers, the replies its effects get) and what must hold
/// of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The case's name, unique in the suite.
    pub name: String,
    /// The run's input.
    #[serde(default)]
    pub input: Map<String, Value>,
    /// The answers human nodes get, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<CaseAnswer>,
    /// The replies the run's effects get (model turns, HTTP, MCP), matched by node and order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replies: Vec<RecordedReply>,
    /// Expressions that must be `true` of the run (`state`, `status`, `steps`, `usage`,
    /// `reference`, `input`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<String>,
    /// What the output should be, for expectations and evaluators.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<Value>,
    /// The run the case was made from (no details, no replies): the run must end like it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<RunRecord>,
}

/// An answer a case gives a human node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CaseAnswer {
    /// The node answered.
    pub node: String,
    /// The answer.
    pub value: Value,
}

/// What scores a case's run from 0 to 1: an expression, or a graph (a judge).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Evaluator {
    /// The evaluator's name, unique in the suite.
    pub name: String,
    /// An expression over `input`, `output`, `reference`, `status`, `steps`, `usage`: a
    /// number from 0 to 1, or true/false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expression: Option<String>,
    /// A graph run with `{input, output, reference}` whose final state's `score` (and
    /// `comment`) is read: a path relative to the suite file, or the graph itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<GraphRef>,
    /// The least score that passes (0.5 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
}

impl Evaluator {
    /// The least score that passes.
    pub fn threshold(&self) -> f64 {
        self.threshold.unwrap_or(DEFAULT_THRESHOLD)
    }
}

/// An evaluator's graph: a file or the document inline.
#[derive(Debug, Clone, PartialEq)]
pub enum GraphRef {
    /// A path relative to the suite file.
    Path(String),
    /// A `switchyard/graph@1` document.
    Inline(Box<Graph>),
}

impl Serialize for GraphRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GraphRef::Path(p) => s.serialize_str(p),
            GraphRef::Inline(g) => g.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for GraphRef {
    /// A string is a path; an object is read as strictly as a graph file, its error naming
    /// the path inside it.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match Value::deserialize(d)? {
            Value::String(p) => Ok(GraphRef::Path(p)),
            v @ Value::Object(_) => crate::parse::graph_from_value(v)
                .map(|g| GraphRef::Inline(Box::new(g)))
                .map_err(|e| D::Error::custom(format!("in the graph: {e}"))),
            _ => Err(D::Error::custom("expected a path (a string) or a graph document (an object)")),
        }
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for GraphRef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "GraphRef".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let graph = generator.subschema_for::<Graph>();
        schemars::json_schema!({
            "description": "A graph file relative to the suite file, or a graph document.",
            "oneOf": [ { "type": "string", "minLength": 1 }, graph ]
        })
    }
}
