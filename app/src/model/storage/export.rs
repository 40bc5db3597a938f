//! The graph document as Export writes it: pretty JSON in the document's key order, opening
//! with `"$schema"` so that an editor such as VS Code can complete and check the file. The
//! library keeps a document as it came (with a `"$schema"` it was imported with, without one
//! otherwise); only the exported file always names its schema.

use engine::{GRAPH_SCHEMA_ID, Graph};

/// The exported file's text. A document that already names a schema keeps it (a person may
/// point it at a copy of the schema file of their own).
pub fn export_text(graph: &Graph) -> String {
    let mut doc = graph.clone();
    doc.schema.get_or_insert_with(|| GRAPH_SCHEMA_ID.to_string());
    doc.to_pretty_json()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_opens_with_the_schema_and_reads_back_as_the_same_graph() {
        let graph = Graph::new("Plain");
        let text = export_text(&graph);
        assert!(
            text.starts_with("{\n  \"$schema\": \"urn:switchyard:graph@1\",\n  \"format\": \"switchyard/graph@1\""),
            "{text}"
        );
        let back = engine::parse_graph(&text).expect("the export reads back");
        assert_eq!(back.schema.as_deref(), Some(GRAPH_SCHEMA_ID));
        assert_eq!(back.semantics(), graph.semantics());
        // Exporting the imported file again gives the same bytes.
        assert_eq!(export_text(&back), text);
    }

    #[test]
    fn a_schema_the_document_names_is_kept() {
        let mut graph = Graph::new("Pointed");
        graph.schema = Some("./schema/graph.schema.json".into());
        let text = export_text(&graph);
        assert!(text.starts_with("{\n  \"$schema\": \"./schema/graph.schema.json\","), "{text}");
    }
}
