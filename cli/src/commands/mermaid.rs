//! `switchyard mermaid GRAPH`: the graph as a Mermaid flowchart.

use engine::{compile, to_mermaid};

use crate::exit::Printed;
use crate::input::{self, BadInput, load_graph};

pub fn mermaid(graph: &str) -> Result<Printed, BadInput> {
    let doc = load_graph(graph)?;
    if compile(&doc).plan.is_none() {
        input::plan_or_bad_input(graph, &doc)?;
    }
    Ok(Printed::new(to_mermaid(&doc), 0))
}
