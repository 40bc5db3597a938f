//! A run made into a case: its input, the answers given, the replies recorded, and the run
//! itself as the baseline the case must end like.

use super::types::{Case, CaseAnswer};
use crate::record::RunRecord;

/// The case `name` that makes the run `record` again: input, answers, replies, the record as
/// baseline (without details or replies, which the case holds once), and the expectation
/// that it ends with the same status.
pub fn case_from_record(record: &RunRecord, name: &str) -> Case {
    Case {
        name: name.to_string(),
        input: record.input.clone(),
        answers: record.answers.iter().map(|a| CaseAnswer { node: a.node.clone(), value: a.value.clone() }).collect(),
        replies: record.replies.clone(),
        expect: vec![format!("status == \"{}\"", record.status.name())],
        reference: None,
        baseline: Some(baseline_of(record)),
    }
}

/// `record` as a case keeps it: no replies, answers or step details (the case holds the
/// replies; details repeat them).
pub(crate) fn baseline_of(record: &RunRecord) -> RunRecord {
    let mut baseline = record.clone();
    baseline.replies.clear();
    baseline.answers.clear();
    baseline.schema = None;
    if let Some(steps) = &mut baseline.steps {
        for s in steps {
            s.details.clear();
        }
    }
    baseline
}
