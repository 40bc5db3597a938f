//! Telling a run record (`switchyard/run@1`, as `switchyard run` and `switchyard record` print
//! it) from a graph document among imported text, and whether it belongs to the open graph.

use engine::GraphHash;
use engine::record::{RUN_FORMAT, RunRecord};
use serde_json::Value;

/// Whether `text` is a JSON object saying it is a run record.
pub fn is_run_record(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| v.get("format").and_then(Value::as_str) == Some(RUN_FORMAT))
}

/// Why `record` cannot go into the history of the open graph, named `name` with hash
/// `current`: it is a run of another graph, or of another version of it.
pub fn belongs(record: &RunRecord, current: &GraphHash, name: &str) -> Result<(), String> {
    match &record.graph_hash {
        Some(hash) if *hash == current.hash => Ok(()),
        Some(hash) => Err(format!(
            "this run belongs to “{}” as it was when it ran (graph_hash {}…), not to the open graph; open that graph, then import the run",
            record.graph,
            // The hash is the record's, untrusted: cut by characters, not bytes.
            hash.chars().take(12).collect::<String>()
        )),
        // Records older than graph_hash: the name is all there is.
        None if record.graph == name => Ok(()),
        None => Err(format!("this run belongs to the graph “{}”, not to “{name}”", record.graph)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{OfflineHost, Run, compile, parse_graph};
    use std::rc::Rc;

    fn graph(name: &str) -> engine::Graph {
        parse_graph(&format!(
            r#"{{"format": "switchyard/graph@1", "name": "{name}",
                "nodes": [{{"id": "start", "kind": "start"}}, {{"id": "end", "kind": "end"}}],
                "edges": [{{"from": "start", "to": "end"}}]}}"#
        ))
        .expect("graph")
    }

    fn record_of(g: &engine::Graph) -> RunRecord {
        let plan = Rc::new(compile(g).plan.expect("valid"));
        let host = OfflineHost::new();
        // Started, not run: its record already names the graph and its hash.
        Run::start(plan, serde_json::json!({}), &host).expect("run").record(true)
    }

    #[test]
    fn a_record_is_told_from_a_graph() {
        let g = graph("A");
        assert!(is_run_record(&serde_json::to_string(&record_of(&g)).expect("json")));
        assert!(!is_run_record(&g.to_pretty_json()));
        assert!(!is_run_record("{\"format\": \"switchyard/run@1\""));
    }

    #[test]
    fn a_record_belongs_to_the_graph_version_it_ran_on() {
        let (a, b) = (graph("A"), graph("B"));
        let record = record_of(&a);
        assert_eq!(belongs(&record, &GraphHash::of(&a), "A"), Ok(()));
        let refused = belongs(&record, &GraphHash::of(&b), "B").expect_err("another graph");
        assert!(refused.contains("“A”") && refused.contains("open that graph"), "{refused}");
        let mut old = record.clone();
        old.graph_hash = None;
        assert_eq!(belongs(&old, &GraphHash::of(&b), "A"), Ok(()));
        assert!(belongs(&old, &GraphHash::of(&b), "B").is_err());
    }

    #[test]
    fn a_hash_of_any_characters_is_quoted_without_a_panic() {
        let record = record_of(&graph("A"));
        for hash in ["aéééééééé", "🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀", "", "é"] {
            let mut forged = record.clone();
            forged.graph_hash = Some(hash.to_string());
            let refused = belongs(&forged, &GraphHash::of(&graph("B")), "B").expect_err("another graph");
            let shown: String = hash.chars().take(12).collect();
            assert!(refused.contains(&format!("graph_hash {shown}…")), "{refused}");
        }
    }
}
