//! Reading documents from text, with errors that say where.
//!
//! Every error carries the JSON path of the offending value (`nodes[2].lable`) and, when the
//! text itself is at fault, the line and column, so a person can find the problem at once.

use std::fmt;

use serde::de::DeserializeOwned;

use crate::document::{GRAPH_FORMAT, Graph};

/// A document that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocError {
    /// JSON path of the value at fault (`nodes[2].kind`); empty for the whole document.
    pub path: String,
    /// 1-based line and column in the text, when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl fmt::Display for DocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut wrote_where = false;
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, "line {l}, column {c}")?;
            wrote_where = true;
        }
        if !self.path.is_empty() {
            if wrote_where {
                write!(f, ", ")?;
            }
            write!(f, "at {}", self.path)?;
            wrote_where = true;
        }
        if wrote_where {
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for DocError {}

/// Reads a graph document, strictly: unknown fields, wrong types and a wrong `format` are
/// errors naming their path.
pub fn parse_graph(text: &str) -> Result<Graph, DocError> {
    let graph: Graph = parse_json_as(text)?;
    check_format(&graph)?;
    Ok(graph)
}

/// The same as [`parse_graph`] for a document already parsed as JSON (no line numbers).
pub fn graph_from_value(value: serde_json::Value) -> Result<Graph, DocError> {
    let graph: Graph = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = path_string(e.path());
        let message = tidy_message(&e.inner().to_string());
        DocError {
            path,
            line: None,
            column: None,
            message,
        }
    })?;
    check_format(&graph)?;
    Ok(graph)
}

fn check_format(graph: &Graph) -> Result<(), DocError> {
    if graph.format != GRAPH_FORMAT {
        return Err(DocError {
            path: "format".into(),
            line: None,
            column: None,
            message: format!("expected \"{GRAPH_FORMAT}\", found \"{}\"", graph.format),
        });
    }
    Ok(())
}

/// Reads any strict document type from JSON text.
pub fn parse_json_as<T: DeserializeOwned>(text: &str) -> Result<T, DocError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = path_string(e.path());
        let inner = e.into_inner();
        doc_error(path, &inner)
    })?;
    de.end().map_err(|e| doc_error(String::new(), &e))?;
    Ok(value)
}

/// Reads JSON text into a plain value (for `--input`, `--answer` and the like).
pub fn parse_value(text: &str) -> Result<serde_json::Value, DocError> {
    parse_json_as(text)
}

fn doc_error(path: String, e: &serde_json::Error) -> DocError {
    let (line, column) = if e.line() > 0 {
        (Some(e.line()), Some(e.column()))
    } else {
        (None, None)
    };
    let message = if e.is_eof() {
        "the document ends too early (truncated JSON?)".to_string()
    } else {
        tidy_message(&strip_position(&e.to_string()))
    };
    DocError {
        path,
        line,
        column,
        message,
    }
}

fn path_string(path: &serde_path_to_error::Path) -> String {
    let s = path.to_string();
    if s == "." { String::new() } else { s }
}

/// serde_json appends " at line L column C"; the position is reported separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// Shortens serde's "unknown field `lable`, expected one of `id`, `kind`, …" into a
/// suggestion of the closest known name.
fn tidy_message(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_string();
    };
    let Some(end) = rest.find('`') else {
        return message.to_string();
    };
    let field = &rest[..end];
    let expected: Vec<&str> = rest[end..].split('`').skip(2).step_by(2).collect();
    let best = expected
        .iter()
        .map(|cand| (strsim::damerau_levenshtein(field, cand), *cand))
        .filter(|(d, cand)| *d <= 2.max(cand.len() / 3))
        .min();
    match best {
        Some((_, cand)) => format!("unknown field `{field}` (did you mean `{cand}`?)"),
        None if expected.is_empty() => format!("unknown field `{field}`"),
        None => format!(
            "unknown field `{field}` (allowed here: {})",
            expected.join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_field_names_its_path_and_suggests() {
        let text = r#"{"format":"switchyard/graph@1","nodes":[{"id":"s","kind":"start"},{"id":"a","kind":"set","lable":"x"}]}"#;
        let err = parse_graph(text).unwrap_err();
        assert_eq!(err.path, "nodes[1].lable");
        assert!(
            err.message.contains("did you mean `label`"),
            "{}",
            err.message
        );
        assert_eq!(err.line, Some(1));
    }

    #[test]
    fn truncated_json_gives_line_and_column() {
        let err =
            parse_graph("{\n  \"format\": \"switchyard/graph@1\",\n  \"nodes\": [").unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(err.message.contains("truncated"), "{}", err.message);
    }

    #[test]
    fn wrong_format_is_rejected() {
        let err = parse_graph(r#"{"format":"other","nodes":[]}"#).unwrap_err();
        assert_eq!(err.path, "format");
    }

    #[test]
    fn wrong_type_names_path() {
        let text = r#"{"format":"switchyard/graph@1","nodes":[],"limits":{"max_steps":"ten"}}"#;
        let err = parse_graph(text).unwrap_err();
        assert_eq!(err.path, "limits.max_steps");
    }
}
