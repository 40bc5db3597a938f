//! The test suites that ship with gallery templates: a graph made from such a template starts
//! with its suite (README, Tests and evaluations), renamed to the new graph's name.
//!
//! A suite records the hash of the graph it was made for, so a template is recognised by its
//! hash: a graph that matches no shipped suite gets none.

use engine::document::Graph;
use engine::graph_hash::GraphHash;
use engine::suite::{Suite, parse_suite};

/// The suites kept in `templates/tests/` that the gallery offers with their template. The
/// others are there for `switchyard test` and the editor's tests, not to weigh on every page
/// load.
const SHIPPED: [&str; 1] = [include_str!("../../../../templates/tests/008-evaluation-loop.tests.json")];

/// The shipped suite of `template` (the gallery's graph, before it is renamed), made out to
/// the graph called `name`, as the text to store.
pub fn suite_for(template: &Graph, name: &str) -> Option<String> {
    let hash = GraphHash::of(template).hash;
    SHIPPED
        .iter()
        .filter_map(|text| parse_suite(text).ok())
        .find(|s| s.graph.hash.as_deref() == Some(hash.as_str()))
        .map(|suite| made_out_to(suite, name))
}

/// `suite` for the graph called `name`, kept without the path of the file it came from.
fn made_out_to(mut suite: Suite, name: &str) -> String {
    suite.graph.name = name.to_string();
    suite.graph.path = None;
    serde_json::to_string_pretty(&suite).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(text: &str) -> Graph {
        engine::parse_graph(text).expect("a template parses")
    }

    #[test]
    fn the_evaluation_loop_ships_with_its_suite_under_the_new_name() {
        let g = template(include_str!("../../../../templates/008-evaluation-loop.json"));
        let text = suite_for(&g, "Evaluation loop 2").expect("a shipped suite");
        let suite = parse_suite(&text).expect("it reads back");
        assert_eq!(suite.graph.name, "Evaluation loop 2");
        assert_eq!(suite.graph.path, None);
        assert!(suite.cases.len() >= 3);
        assert!(suite.evaluators.iter().any(|e| e.name == "judge"), "with its LLM judge");
    }

    #[test]
    fn other_graphs_get_no_suite() {
        let g = template(include_str!("../../../../templates/003-approval.json"));
        assert_eq!(suite_for(&g, "Approval workflow"), None);
        let mut edited = template(include_str!("../../../../templates/008-evaluation-loop.json"));
        edited.description = Some("changed".into());
        assert_eq!(suite_for(&edited, "Evaluation loop"), None, "an edited template is not the template");
    }
}
