//! `resume` of a run whose graph changed since it was recorded: the record's `graph_hash`
//! differs from the graph's. Refused unless `--allow-changed-graph`, naming what changed
//! part by part (the record keeps a short hash of each part).

use engine::{Plan, RunRecord};

use crate::input::BadInput;

/// At most this many changes are named; the rest are counted.
const NAMED: usize = 5;

/// Refuses `record` when it belongs to another version of `plan`'s graph. A record without
/// a hash (written before records had one) is taken as it is.
pub fn check(record: &RunRecord, plan: &Plan, graph_path: &str, allow: bool) -> Result<(), BadInput> {
    let Some(recorded) = &record.graph_hash else { return Ok(()) };
    let now = plan.graph_hash();
    if *recorded == now.hash || allow {
        return Ok(());
    }
    let changes = engine::graph_hash::changes(&record.graph_parts, &now.parts);
    Err(BadInput::new(format!(
        "{graph_path}: the graph changed since this run was recorded ({}); give --allow-changed-graph to continue anyway",
        summary(&changes)
    )))
}

/// `a, b and c`, or the first [`NAMED`] changes `and N more`.
fn summary(changes: &[String]) -> String {
    match changes {
        [] => "its hash differs".into(),
        [only] => only.clone(),
        _ if changes.len() > NAMED => {
            format!("{} and {} more", changes[..NAMED].join(", "), changes.len() - NAMED)
        }
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::summary;

    #[test]
    fn names_five_changes_and_counts_the_rest() {
        let list = |n: usize| (1..=n).map(|i| format!("c{i}")).collect::<Vec<_>>();
        assert_eq!(summary(&list(1)), "c1");
        assert_eq!(summary(&list(2)), "c1 and c2");
        assert_eq!(summary(&list(5)), "c1, c2, c3, c4 and c5");
        assert_eq!(summary(&list(8)), "c1, c2, c3, c4, c5 and 3 more");
    }
}
