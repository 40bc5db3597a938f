//! Reading documents from text, with errors that say where.
//!
//! Every error carries the JSON path of the offending value (`nodes[2].lable`) and, when the
//! text itself is at fault, the line and column, so a person can find the problem at once.

use std::fmt;

use serde::de::DeserializeOwned;

use crate::document::objects::Obj;
use crate::document::{GRAPH_FORMAT, Graph, NodeField};

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
    let graph: Graph = parse_object_as(text)?;
    check_format(&graph)?;
    Ok(graph)
}

/// The same as [`parse_graph`] for a document already parsed as JSON (no line numbers).
pub fn graph_from_value(value: serde_json::Value) -> Result<Graph, DocError> {
    let graph: Graph = serde_path_to_error::deserialize(value).map(|o: Obj<Graph>| o.0).map_err(|e| {
        let path = path_string(e.path());
        let message = tidy_message(&e.inner().to_string(), &path);
        DocError { path, line: None, column: None, message }
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
    // The fast path: no path tracking, which costs on every value of a document that is
    // almost always fine. Only a document that fails is read again, to say where.
    if let Ok(value) = serde_json::from_str(text) {
        return Ok(value);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = path_string(e.path());
        let inner = e.into_inner();
        let mut error = doc_error(path, &inner);
        if let Some(found) = wrong_type_at(text, &inner) {
            error.message = format!("expected one of the allowed names (a string), found {found}");
        }
        error
    })?;
    de.end().map_err(|e| doc_error(String::new(), &e))?;
    Ok(value)
}

/// Reads a document whose top level must be a JSON object (a graph, a run record): serde
/// would also take a struct written as a list of its fields, which nobody means.
pub fn parse_object_as<T: DeserializeOwned>(text: &str) -> Result<T, DocError> {
    parse_json_as::<Obj<T>>(text).map(|o| o.0)
}

/// Reads JSON text into a plain value (for `--input`, `--answer` and the like).
pub fn parse_value(text: &str) -> Result<serde_json::Value, DocError> {
    parse_json_as(text)
}

/// serde_json says "expected value" both for text that is not JSON and for a well-formed
/// value of a type a name (an enum) cannot take, such as `"kind": 5`. The second is told
/// apart by reading a value where the error points; it is then named (`a list`, …).
fn wrong_type_at(text: &str, e: &serde_json::Error) -> Option<&'static str> {
    if !e.is_syntax() || strip_position(&e.to_string()) != "expected value" || e.line() == 0 {
        return None;
    }
    let line_start: usize = text.split_inclusive('\n').take(e.line() - 1).map(str::len).sum();
    let mut at = (line_start + e.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut rest = serde_json::Deserializer::from_str(&text[at..]).into_iter::<serde_json::Value>();
    Some(match rest.next()?.ok()? {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "true or false",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "an object",
    })
}

fn doc_error(path: String, e: &serde_json::Error) -> DocError {
    let (line, column) = if e.line() > 0 { (Some(e.line()), Some(e.column().max(1))) } else { (None, None) };
    if e.is_eof() {
        let empty = e.line() <= 1 && e.column() == 0;
        let message = if empty { "the document is empty" } else { "the document ends too early (truncated JSON?)" };
        // Where the text stopped says more than a half-built path.
        return DocError { path: String::new(), line, column, message: message.into() };
    }
    let mut message = tidy_message(&strip_position(&e.to_string()), &path);
    if path.is_empty() && message.starts_with("expected an object, found ") {
        message = message.replacen("expected an object", "the document must be a JSON object { … }", 1);
    }
    DocError { path, line, column, message }
}

/// The path as `nodes[2].kind`. serde_path_to_error marks a place it could not name with
/// `?`; such a tail is dropped rather than shown.
fn path_string(path: &serde_path_to_error::Path) -> String {
    let s = path.to_string();
    let mut s = if s == "." { String::new() } else { s };
    while let Some(cut) = s.strip_suffix(".?").or_else(|| s.strip_suffix("?")) {
        s = cut.to_string();
    }
    s
}

/// serde_json appends " at line L column C"; the position is reported separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// Rewrites serde's messages in plain words: "unknown field `lable`, expected one of …"
/// becomes a suggestion of the closest known name, "invalid type: string \"ten\", expected
/// u64" becomes "expected a whole number ≥ 0, found the string \"ten\"". `path` is where
/// the error is: a node's fields are suggested from [`NodeField`].
fn tidy_message(message: &str, path: &str) -> String {
    without_type_names(&tidy(message, path))
}

fn tidy(message: &str, path: &str) -> String {
    // A message wrapped by a custom deserializer (`a: invalid type: …`): tidy the inner one.
    if let Some((head, inner)) = message.split_once(": ")
        && !head.contains(' ')
        && (inner.starts_with("invalid ") || inner.starts_with("unknown ") || inner.starts_with("missing "))
    {
        return format!("{head}: {}", tidy(inner, path));
    }
    if let Some(rest) = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: "))
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!("expected {}, found {}", plain_expected(expected), plain_found(found));
    }
    if let Some(rest) = message.strip_prefix("unknown variant `")
        && let Some((found, allowed)) = rest.split_once("`, expected ")
    {
        let allowed = allowed.trim_start_matches("one of ").replace('`', "");
        return format!("`{found}` is not allowed here (use one of: {allowed})");
    }
    let plain = match message {
        "expected ident" | "expected value" => {
            "this is not valid JSON here (expected a value such as a string in quotes, a number, an object or a list)"
        }
        "trailing characters" => "unexpected text after the end of the document",
        "key must be a string" => "object keys must be strings in double quotes",
        "expected `:`" => "expected `:` after an object key",
        "expected `,` or `}`" => "expected `,` or `}` (a missing comma?)",
        "expected `,` or `]`" => "expected `,` or `]` (a missing comma?)",
        "recursion limit exceeded" => "the document nests too deeply",
        _ => "",
    };
    if !plain.is_empty() {
        return plain.to_string();
    }
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message.to_string();
    };
    let Some(end) = rest.find('`') else {
        return message.to_string();
    };
    let field = &rest[..end];
    let expected: Vec<&str> = if in_node(path) {
        NodeField::ALL.iter().map(|f| f.name()).collect()
    } else {
        rest[end..].split('`').skip(2).step_by(2).collect()
    };
    let best = expected
        .iter()
        .map(|cand| (strsim::damerau_levenshtein(field, cand), *cand))
        .filter(|(d, cand)| *d <= 2.max(cand.len() / 3))
        .min();
    match best {
        Some((_, cand)) => format!("unknown field `{field}` (did you mean `{cand}`?)"),
        None if expected.is_empty() => format!("unknown field `{field}`"),
        None => format!("unknown field `{field}` (allowed here: {})", expected.join(", ")),
    }
}

/// Rust's names for things never reach a person: `struct Graph` is an object, `enum Status`
/// and `variant identifier` are names, `unit` is nothing.
fn without_type_names(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some((before, word, after)) = next_type_word(rest) {
        out.push_str(before);
        let name_len = after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len());
        // The type's own name goes with it.
        let tail = &after[name_len..];
        let plain = match word {
            "struct " | "tuple struct " | "map " => "an object",
            "unit variant" | "unit struct" => "a plain name",
            _ => "one of the allowed names",
        };
        out.push_str(plain);
        // "struct Graph with 8 elements": the count is the struct's, not the person's.
        let tail = match tail.strip_prefix(" with ") {
            Some(t) if word != "map " => t.split_once(" elements").map_or(tail, |(_, r)| r),
            _ => tail,
        };
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The first Rust type word in `s`: the text before it, the word, and the text after it.
fn next_type_word(s: &str) -> Option<(&str, &'static str, &str)> {
    const WORDS: [&str; 7] =
        ["tuple struct ", "struct ", "enum ", "variant identifier", "unit variant", "unit struct", "variant "];
    WORDS
        .iter()
        .filter_map(|w| s.find(w).map(|i| (i, *w)))
        .min_by_key(|(i, w)| (*i, std::cmp::Reverse(w.len())))
        .map(|(i, w)| (&s[..i], w, &s[i + w.len()..]))
}

/// Whether `path` names a field of a node: `nodes[2].lable`, also in an embedded graph.
fn in_node(path: &str) -> bool {
    let Some((parent, _)) = path.rsplit_once('.') else { return false };
    let Some((list, digits)) = parent.strip_suffix(']').and_then(|p| p.rsplit_once('[')) else { return false };
    (list == "nodes" || list.ends_with(".nodes")) && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn plain_expected(expected: &str) -> String {
    match expected.trim() {
        "u64" | "u32" | "usize" | "u16" | "u8" => "a whole number ≥ 0".into(),
        "i64" | "i32" => "a whole number".into(),
        "f64" | "f32" => "a number".into(),
        "a boolean" | "bool" => "true or false".into(),
        "a map" | "a JSON object" => "an object".into(),
        "a sequence" => "a list".into(),
        "unit" => "no value (write the name alone, as a string)".into(),
        other if other.starts_with("struct ") => "an object".into(),
        other if other.starts_with("enum ") || other.starts_with("variant ") => "one of the allowed names".into(),
        other => other.trim_matches('`').to_string(),
    }
}

fn plain_found(found: &str) -> String {
    let f = found.trim();
    if let Some(s) = f.strip_prefix("string ") {
        return format!("the string {s}");
    }
    match f {
        "map" => "an object".into(),
        "unit" => "null".into(),
        "sequence" => "a list".into(),
        "null" | "unit value" => "null".into(),
        other => other
            .replace("integer `", "the number `")
            .replace("floating point `", "the number `")
            .replace("boolean `", "`"),
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
        assert!(err.message.contains("did you mean `label`"), "{}", err.message);
        assert_eq!(err.line, Some(1));
    }

    #[test]
    fn unknown_node_fields_are_suggested_from_the_table() {
        let text = r#"{"format":"switchyard/graph@1","nodes":[{"id":"s","kind":"start","graph":{
            "format":"switchyard/graph@1","nodes":[{"id":"a","kind":"http","urll":"x"}]}}]}"#;
        let err = parse_graph(text).unwrap_err();
        assert_eq!(err.path, "nodes[0].graph.nodes[0].urll");
        assert!(err.message.contains("did you mean `url`"), "{}", err.message);
        assert!(in_node("nodes[12].x") && !in_node("nodes[1].retry.x") && !in_node("limits.x") && !in_node("x"));
    }

    #[test]
    fn truncated_json_gives_line_and_column() {
        let err = parse_graph("{\n  \"format\": \"switchyard/graph@1\",\n  \"nodes\": [").unwrap_err();
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
        assert_eq!(err.message, "expected a whole number ≥ 0, found the string \"ten\"");
    }

    #[test]
    fn empty_and_cut_documents_have_no_half_paths() {
        let err = parse_graph("").unwrap_err();
        assert_eq!((err.line, err.column, err.message.as_str()), (Some(1), Some(1), "the document is empty"));
        let err = parse_graph("{\"format\": \"switchyard/graph@1\", \"nodes\": [{\"id\": \"s\"").unwrap_err();
        assert_eq!(err.path, "");
        assert!(err.message.contains("truncated"), "{err}");
    }

    #[test]
    fn unknown_kind_lists_the_kinds() {
        let err = parse_graph(r#"{"format":"switchyard/graph@1","nodes":[{"id":"a","kind":"rooter"}]}"#).unwrap_err();
        assert_eq!(err.path, "nodes[0].kind");
        assert!(err.message.contains("`rooter` is not allowed here (use one of: start, end"), "{}", err.message);
    }
}
