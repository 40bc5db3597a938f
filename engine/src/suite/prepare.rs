//! A suite made ready to run against one graph: the graph checked to be the one the suite is
//! for, the evaluators compiled (expressions) or loaded and planned (graphs).

use std::fmt;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::types::{Evaluator, GraphRef, Suite};
use crate::document::Graph;
use crate::plan::{Plan, compile};
use crate::script::{Expr, Scripting};

/// The names expectations and evaluators see besides the standard ones (`state`, `input`).
pub(crate) const SUITE_NAMES: [&str; 5] = ["status", "steps", "usage", "reference", "output"];

/// Why a suite cannot run against a graph at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SuiteError {
    /// The suite names another graph.
    OtherGraph { suite_for: String, graph: String },
    /// An evaluator cannot be used: its expression does not compile, its graph cannot be
    /// loaded, read or compiled.
    Evaluator { name: String, message: String },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::OtherGraph { suite_for, graph } => {
                write!(f, "the suite is for another graph: \"{suite_for}\", not \"{graph}\"")
            }
            SuiteError::Evaluator { name, message } => write!(f, "evaluator `{name}`: {message}"),
        }
    }
}

impl std::error::Error for SuiteError {}

/// A suite ready to run: evaluators compiled, evaluator graphs planned.
#[derive(Debug)]
pub struct Prepared {
    /// The sandbox expectations and expression evaluators run in, under the tested graph's
    /// ops limit.
    pub(crate) scripting: Scripting,
    pub(crate) evaluators: Vec<PreparedEvaluator>,
    /// The tested graph's hash, and the one the suite was made for when they differ.
    pub hash: String,
    pub suite_hash: Option<String>,
}

impl Prepared {
    /// Whether the graph changed since the suite was made (the edit being checked).
    pub fn graph_changed(&self) -> bool {
        self.suite_hash.as_ref().is_some_and(|h| *h != self.hash)
    }

    /// The evaluators' names, in suite order.
    pub fn evaluator_names(&self) -> Vec<String> {
        self.evaluators.iter().map(|e| e.name.clone()).collect()
    }
}

/// One evaluator, ready.
#[derive(Debug)]
pub(crate) struct PreparedEvaluator {
    pub name: String,
    pub threshold: f64,
    pub how: Scorer,
}

/// How an evaluator scores.
#[derive(Debug)]
pub(crate) enum Scorer {
    Expression(Expr),
    Graph(Rc<Plan>),
}

/// Prepares `suite` to run against `graph`; `load` reads an evaluator graph's file by its
/// path relative to the suite.
pub fn prepare(
    suite: &Suite,
    graph: &Graph,
    load: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Prepared, SuiteError> {
    let name = graph.display_name();
    if suite.graph.name != name {
        return Err(SuiteError::OtherGraph { suite_for: suite.graph.name.clone(), graph: name.to_string() });
    }
    let scripting = Scripting::new(&graph.effective_limits());
    let evaluators =
        suite.evaluators.iter().map(|e| prepare_evaluator(e, &scripting, load)).collect::<Result<_, _>>()?;
    Ok(Prepared {
        scripting,
        evaluators,
        hash: crate::graph_hash::GraphHash::of(graph).hash,
        suite_hash: suite.graph.hash.clone(),
    })
}

fn prepare_evaluator(
    e: &Evaluator,
    scripting: &Scripting,
    load: &dyn Fn(&str) -> Result<String, String>,
) -> Result<PreparedEvaluator, SuiteError> {
    let fail = |message: String| SuiteError::Evaluator { name: e.name.clone(), message };
    let how = match (&e.expression, &e.graph) {
        (Some(source), _) => Scorer::Expression(
            scripting
                .compile(source, &SUITE_NAMES)
                .map_err(|err| fail(format!("`{source}` does not compile: {err}")))?,
        ),
        (None, Some(GraphRef::Inline(g))) => Scorer::Graph(plan_of(g).map_err(fail)?),
        (None, Some(GraphRef::Path(path))) => {
            let text = load(path).map_err(|m| fail(format!("cannot read {path}: {m}")))?;
            let g = crate::parse::parse_graph(&text).map_err(|err| fail(format!("{path}: {err}")))?;
            Scorer::Graph(plan_of(&g).map_err(|m| fail(format!("{path}: {m}")))?)
        }
        (None, None) => return Err(fail("gives neither `expression` nor `graph`".into())),
    };
    Ok(PreparedEvaluator { name: e.name.clone(), threshold: e.threshold(), how })
}

/// The plan of an evaluator graph, or its first error.
fn plan_of(g: &Graph) -> Result<Rc<Plan>, String> {
    let compiled = compile(g);
    match compiled.plan {
        Some(plan) => Ok(Rc::new(plan)),
        None => Err(compiled
            .diagnostics
            .iter()
            .find(|d| d.severity == crate::Severity::Error)
            .map_or_else(|| "the graph is not valid".to_string(), |d| format!("the graph is not valid: {d}"))),
    }
}
