//! A case checked against the graph before it runs: answers and replies must name nodes the
//! graph still has. A case that names a node that is gone fails, naming it.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::types::Case;
use crate::plan::Plan;

/// Something wrong with a case itself, found before it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CaseProblem {
    /// Where in the case (`replies[3].node`, `answers[0].node`).
    pub path: String,
    pub message: String,
}

impl fmt::Display for CaseProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// What is wrong with `case` for `plan`: a case without a name, an answer or a reply for a
/// node the graph no longer has (a reply's node is the first segment of its `<outer>/<inner>` name, without a map
/// instance's `[i]`).
pub fn check_case(case: &Case, plan: &Plan) -> Vec<CaseProblem> {
    let mut problems = Vec::new();
    if case.name.trim().is_empty() {
        problems.push(CaseProblem { path: "name".into(), message: "the case has no name".into() });
    }
    for (i, a) in case.answers.iter().enumerate() {
        if plan.index(&a.node).is_none() {
            problems.push(gone(format!("answers[{i}].node"), &a.node, "an answer"));
        }
    }
    for (i, r) in case.replies.iter().enumerate() {
        let outer = outer_node(&r.node);
        if outer.is_empty() {
            problems.push(CaseProblem { path: format!("replies[{i}].node"), message: "names no node".into() });
        } else if plan.index(outer).is_none() {
            problems.push(gone(format!("replies[{i}].node"), outer, "a recorded reply"));
        }
    }
    problems
}

/// The top-level node of a tape name: `plan` of `plan[2]/inner`.
pub(crate) fn outer_node(name: &str) -> &str {
    let head = name.split('/').next().unwrap_or(name);
    head.split('[').next().unwrap_or(head)
}

fn gone(path: String, node: &str, what: &str) -> CaseProblem {
    CaseProblem { path, message: format!("{what} for node `{node}`, which the graph no longer has") }
}
