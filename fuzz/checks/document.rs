//! Any text given to the document reader: reading, validating and compiling must never panic,
//! and a document that reads must survive a write and a second read unchanged.

/// One input through the checks this module describes; a failed check panics.
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(graph) = engine::parse_graph(&text) else { return };

    // Validation is compilation's diagnostics; a plan exists exactly when none is an error.
    let compiled = engine::compile(&graph);
    let has_errors = compiled.diagnostics.iter().any(|d| d.is_error());
    assert_eq!(compiled.plan.is_some(), !has_errors, "{:?}", compiled.diagnostics);
    assert_eq!(engine::validate(&graph), compiled.diagnostics);
    let _ = engine::to_mermaid(&graph);

    // Round trip: what we write we can read back, to an equal graph.
    let written = graph.to_pretty_json();
    let again = engine::parse_graph(&written).unwrap_or_else(|e| panic!("re-reading failed: {e}\n{written}"));
    assert_eq!(again, graph, "round trip changed the graph\n{written}");
}
