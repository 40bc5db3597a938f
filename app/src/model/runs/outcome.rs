//! How a run ends (format.md §4, end): an `end` node that fails the run, what the canvas says about
//! it, and the run's error as the run panel shows it (for an end with outcome failed: which
//! end, and its rendered message).

use engine::document::Outcome;
use engine::record::RunRecord;
use engine::run::{ErrorKind, Status};
use engine::{Node, NodeKind};

/// Whether `node` is an end that fails the run reaching it.
pub fn fails_run(node: &Node) -> bool {
    node.kind == NodeKind::End && node.outcome == Some(Outcome::Failed)
}

/// The run's error as the run panel shows it: a heading and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorShown {
    pub heading: String,
    pub message: String,
    /// The node the error is about (the end, for a run that ended failed).
    pub node: Option<String>,
}

impl ErrorShown {
    /// The heading and the message in one line, as an alert says them.
    pub fn in_one_line(&self) -> String {
        format!("{}: {}", self.heading, self.message)
    }
}

/// What the run panel (and the alert when the run stops) says about a run that failed or hit
/// a limit; nothing otherwise. The one place that words how a run ended badly.
pub fn error_shown(record: &RunRecord) -> Option<ErrorShown> {
    let e = record.error.as_ref()?;
    let heading = match (record.status, e.kind, e.node.as_deref()) {
        (Status::Failed, ErrorKind::Ended, Some(end)) => format!("The run ended failed at end `{end}`"),
        (Status::Failed, kind, Some(node)) => format!("The run failed in `{node}` ({kind})"),
        (Status::Failed, kind, None) => format!("The run failed ({kind})"),
        (Status::LimitReached, ..) => "The run stopped at its step limit".to_string(),
        _ => return None,
    };
    Some(ErrorShown { heading, message: e.message.clone(), node: e.node.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::run::RunError;

    fn record(status: Status, error: Option<RunError>) -> RunRecord {
        let mut r: RunRecord = serde_json::from_value(serde_json::json!({
            "format": "switchyard/run@1", "run_id": "r", "graph": "g", "status": "completed",
            "input": {}, "state": {}, "step": 2, "next": [], "waiting": [], "error": null,
            "outputs": {}
        }))
        .expect("a minimal record");
        r.status = status;
        r.error = error;
        r
    }

    #[test]
    fn only_an_end_with_outcome_failed_fails_the_run() {
        let mut end = Node::new("rejected", NodeKind::End);
        assert!(!fails_run(&end));
        end.outcome = Some(Outcome::Completed);
        assert!(!fails_run(&end));
        end.outcome = Some(Outcome::Failed);
        assert!(fails_run(&end));
        let mut set = Node::new("x", NodeKind::Set);
        set.outcome = Some(Outcome::Failed);
        assert!(!fails_run(&set), "a stray outcome on another kind does nothing");
    }

    #[test]
    fn a_run_ended_failed_names_its_end_and_shows_the_message() {
        let ended =
            RunError { node: Some("agent_failed".into()), kind: ErrorKind::Ended, message: "agent b failed".into() };
        let shown = error_shown(&record(Status::Failed, Some(ended))).unwrap();
        assert_eq!(shown.heading, "The run ended failed at end `agent_failed`");
        assert_eq!(shown.message, "agent b failed");
        assert_eq!(shown.node.as_deref(), Some("agent_failed"));
        let broke = RunError { node: Some("calc".into()), kind: ErrorKind::Expression, message: "bad".into() };
        assert_eq!(
            error_shown(&record(Status::Failed, Some(broke))).unwrap().heading,
            "The run failed in `calc` (expression)"
        );
        assert_eq!(error_shown(&record(Status::Completed, None)), None);
    }
}
