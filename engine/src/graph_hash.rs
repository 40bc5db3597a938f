//! A graph's fingerprint (format.md §11, `graph_hash`): which version of a graph a run belongs to.
//!
//! The hash covers the document's meaning, not where its nodes sit: it is the SHA-256 of the
//! document as canonical JSON (keys sorted, no whitespace) with `layout` and `$schema` left
//! out, so moving a node or re-exporting a file keeps it, and any other edit changes it.
//!
//! A record also keeps a short hash per part (`state.<field>`, `nodes.<id>`, `edges.<from> →
//! <to>`, `tools.<name>`, `mcp_servers.<name>`, `definitions.<name>`, and `name`, `description`, `limits`), so that
//! `resume` can say *what* changed instead of only that something did.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::document::Graph;

/// How many hex digits a part's hash keeps: enough to tell versions apart, small in a record.
const PART_DIGITS: usize = 16;

/// A graph's hash and the hashes of its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphHash {
    /// 64 lowercase hex digits.
    pub hash: String,
    /// Part name → the first 16 hex digits of its own hash.
    pub parts: BTreeMap<String, String>,
}

impl GraphHash {
    /// Hashes `graph`.
    pub fn of(graph: &Graph) -> GraphHash {
        let mut doc = serde_json::to_value(graph).unwrap_or(Value::Null);
        strip_presentation(&mut doc);
        let mut hashes = Hashes::default();
        hashes.document(&doc);
        GraphHash { hash: hex(&hashes.whole.0.finalize(), 64), parts: hashes.parts }
    }
}

/// Removes `layout` and `$schema` from a graph document and from every graph inside it
/// (definitions, embedded subgraphs), so that moving a node anywhere keeps the hash.
fn strip_presentation(doc: &mut Value) {
    let Value::Object(map) = doc else { return };
    map.remove("layout");
    map.remove("$schema");
    if let Some(Value::Object(defs)) = map.get_mut("definitions") {
        defs.values_mut().for_each(strip_presentation);
    }
    if let Some(Value::Array(nodes)) = map.get_mut("nodes") {
        for node in nodes {
            if let Some(inner) = node.get_mut("graph") {
                strip_presentation(inner);
            }
        }
    }
}

/// What differs between the parts of two versions of a graph, one phrase per part, in part
/// order: `node \`ask\` changed`, `state field \`count\` added`, `edge start → end removed`.
pub fn changes(before: &BTreeMap<String, String>, after: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (part, hash) in before {
        match after.get(part) {
            None => out.push(format!("{} removed", describe(part))),
            Some(h) if h != hash => out.push(format!("{} changed", describe(part))),
            Some(_) => {}
        }
    }
    for part in after.keys().filter(|p| !before.contains_key(*p)) {
        out.push(format!("{} added", describe(part)));
    }
    out
}

/// A part's name as a person reads it.
fn describe(part: &str) -> String {
    let Some((group, name)) = part.split_once('.') else {
        return format!("the graph's `{part}`");
    };
    match group {
        "state" => format!("state field `{name}`"),
        "nodes" => format!("node `{name}`"),
        "edges" => format!("edge {name}"),
        "tools" => format!("tool `{name}`"),
        "mcp_servers" => format!("MCP server `{name}`"),
        "definitions" => format!("definition `{name}`"),
        _ => format!("`{part}`"),
    }
}

/// The document's hash and its parts' hashes in one pass: each part is written as canonical
/// JSON once, and the same bytes go to its own hasher and to the whole document's, with the
/// punctuation between parts written to the whole one alone (what serde_json's compact
/// writer puts there), so both hashes come out as if each had been written on its own.
#[derive(Default)]
struct Hashes {
    whole: HashWriter,
    parts: BTreeMap<String, String>,
    /// One part's JSON, reused from part to part.
    buffer: Vec<u8>,
}

impl Hashes {
    /// Hashes `doc` (already without layout) and each of its parts.
    fn document(&mut self, doc: &Value) {
        let Value::Object(map) = doc else {
            self.plain(doc);
            return;
        };
        self.punctuation(b"{");
        for (i, (key, value)) in map.iter().enumerate() {
            if i > 0 {
                self.punctuation(b",");
            }
            self.key(key);
            match (key.as_str(), value) {
                ("format", _) => self.plain(value),
                ("state" | "tools" | "mcp_servers" | "definitions", Value::Object(entries)) => {
                    self.punctuation(b"{");
                    for (k, (name, v)) in entries.iter().enumerate() {
                        if k > 0 {
                            self.punctuation(b",");
                        }
                        self.key(name);
                        self.part(format!("{key}.{name}"), v);
                    }
                    self.punctuation(b"}");
                }
                ("nodes", Value::Array(nodes)) => self.list(nodes, |_, k, node| {
                    let id = node["id"].as_str().map_or_else(|| format!("#{k}"), str::to_string);
                    format!("nodes.{id}")
                }),
                ("edges", Value::Array(edges)) => self.list(edges, |named, _, edge| edge_part(named, edge)),
                _ => self.part(key.clone(), value),
            }
        }
        self.punctuation(b"}");
    }

    /// A list whose items are parts, each named by `name` (given the parts named so far).
    fn list(&mut self, items: &[Value], name: impl Fn(&BTreeMap<String, String>, usize, &Value) -> String) {
        self.punctuation(b"[");
        for (k, item) in items.iter().enumerate() {
            if k > 0 {
                self.punctuation(b",");
            }
            let part = name(&self.parts, k, item);
            self.part(part, item);
        }
        self.punctuation(b"]");
    }

    /// Part `name`: `value` into the whole hash and its own.
    fn part(&mut self, name: String, value: &Value) {
        self.buffer.clear();
        // Writing a `Value` into a vector cannot fail.
        let _ = serde_json::to_writer(&mut self.buffer, value);
        self.whole.0.update(&self.buffer);
        let own: [u8; 32] = Sha256::digest(&self.buffer).into();
        self.parts.insert(name, hex(&own, PART_DIGITS));
    }

    /// `value` into the whole hash only.
    fn plain(&mut self, value: &Value) {
        let _ = serde_json::to_writer(&mut self.whole, value);
    }

    /// An object's key and its colon, into the whole hash only.
    fn key(&mut self, key: &str) {
        let _ = serde_json::to_writer(&mut self.whole, key);
        self.punctuation(b":");
    }

    fn punctuation(&mut self, bytes: &[u8]) {
        self.whole.0.update(bytes);
    }
}

/// An edge's part name, by its ends (and label); two edges between the same nodes with the
/// same label (different `when`s) are told apart by their order.
fn edge_part(named: &BTreeMap<String, String>, edge: &Value) -> String {
    let mut name = format!("{} → {}", text(&edge["from"]), text(&edge["to"]));
    if let Some(label) = edge["label"].as_str() {
        let _ = write!(name, " ({label})");
    }
    let mut key = format!("edges.{name}");
    let mut n = 2;
    while named.contains_key(&key) {
        key = format!("edges.{name} #{n}");
        n += 1;
    }
    key
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("?")
}

/// Feeds what serde_json writes to the hasher.
#[derive(Default)]
struct HashWriter(Sha256);

impl std::io::Write for HashWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The first `digits` lowercase hex digits of `bytes`.
fn hex(bytes: &[u8], digits: usize) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(digits);
    for b in bytes.iter().take(digits.div_ceil(2)) {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
    out.truncate(digits);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_graph;

    fn graph(extra: &str) -> Graph {
        parse_graph(&format!(
            r#"{{"format":"switchyard/graph@1","name":"g",
                "state":{{"n":{{"type":"integer","reducer":"add"}}}},
                "nodes":[{{"id":"start","kind":"start"}},{{"id":"inc","kind":"set","set":{{"n":"1"}}}},{{"id":"end","kind":"end"}}],
                "edges":[{{"from":"start","to":"inc"}},{{"from":"inc","to":"end"}}]{extra}}}"#
        ))
        .expect("a valid document")
    }

    #[test]
    fn layout_does_not_change_the_hash() {
        let plain = GraphHash::of(&graph(""));
        let moved = GraphHash::of(&graph(r#","layout":{"inc":{"x":10,"y":20}}"#));
        assert_eq!(plain, moved);
        assert_eq!(plain.hash.len(), 64);
        assert!(plain.hash.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    }

    #[test]
    fn layout_inside_definitions_and_embedded_graphs_does_not_count() {
        let inner = r#"{"format":"switchyard/graph@1","nodes":[{"id":"start","kind":"start"},{"id":"end","kind":"end"}],
            "edges":[{"from":"start","to":"end"}]LAYOUT}"#;
        let doc = |layout: &str| {
            let inner = inner.replace("LAYOUT", layout);
            parse_graph(&format!(
                r#"{{"format":"switchyard/graph@1","definitions":{{"d":{inner}}},
                    "nodes":[{{"id":"start","kind":"start"}},{{"id":"a","kind":"subgraph","use":"d"}},
                             {{"id":"b","kind":"subgraph","graph":{inner}}},{{"id":"end","kind":"end"}}],
                    "edges":[{{"from":"start","to":"a"}},{{"from":"a","to":"b"}},{{"from":"b","to":"end"}}]}}"#
            ))
            .expect("a valid document")
        };
        let plain = GraphHash::of(&doc(""));
        assert_eq!(plain, GraphHash::of(&doc(r#","layout":{"end":{"x":5,"y":9}}"#)));
    }

    #[test]
    fn an_edit_changes_the_hash_and_names_the_part() {
        let before = GraphHash::of(&graph(""));
        let mut g = graph(r#","limits":{"max_steps":5}"#);
        g.nodes[1].set.as_mut().expect("a set node").insert("n".into(), "2".into());
        let after = GraphHash::of(&g);
        assert_ne!(before.hash, after.hash);
        assert_eq!(changes(&before.parts, &after.parts), ["node `inc` changed", "the graph's `limits` added"]);
    }

    #[test]
    fn edges_are_named_by_their_ends() {
        let before = GraphHash::of(&graph(""));
        let mut g = graph("");
        g.edges.pop();
        let after = GraphHash::of(&g);
        assert_eq!(changes(&before.parts, &after.parts), ["edge inc → end removed"]);
    }
}
