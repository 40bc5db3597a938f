//! Instances of a mapped node (a `map` edge runs its target once per item, in one step): the
//! run record names them `<node>[<index>]` in a step's `ran`, `updates`, `errors`, `details`
//! and `next`. Everything that shows a record on the canvas reads those names through
//! [`node_of`], so an instance counts as its node; the run panel lists the instances grouped
//! under their node ([`group_ran`], [`instances_of`]).

use std::collections::BTreeMap;

use engine::record::StepDoc;
use serde_json::Value;

/// The node a record id speaks of: `summarize[3]` is node `summarize`; a plain id is itself.
/// Node ids never hold `[`, so anything else is left as it is.
pub fn node_of(id: &str) -> &str {
    match split(id) {
        Some((node, _)) => node,
        None => id,
    }
}

fn split(id: &str) -> Option<(&str, usize)> {
    let inner = id.strip_suffix(']')?;
    let open = inner.rfind('[')?;
    let digits = &inner[open + 1..];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((&inner[..open], digits.parse().ok()?))
}

/// Whether record id `id` is node `node` or one of its instances.
pub fn is_of(id: &str, node: &str) -> bool {
    node_of(id) == node
}

/// A record map's entries for node `node` and its instances (`node`, `node[0]`, `node[1]`, …;
/// found with a range of the sorted keys, so a step with many nodes is not walked).
pub fn entries_of<'m, V>(map: &'m BTreeMap<String, V>, node: &str) -> Vec<(&'m String, &'m V)> {
    let prefix = format!("{node}[");
    let instances = map
        .range::<str, _>((std::ops::Bound::Included(prefix.as_str()), std::ops::Bound::Unbounded))
        .take_while(|(k, _)| k.starts_with(&prefix))
        .filter(|(k, _)| is_of(k, node));
    map.get_key_value(node).into_iter().chain(instances).collect()
}

/// Whether node `node` (or an instance of it) failed in `step`.
pub fn failed_in(step: &StepDoc, node: &str) -> bool {
    !entries_of(&step.errors, node).is_empty()
}

/// One entry of a step's `ran`, as the step list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RanGroup {
    /// A node that ran once.
    Node(String),
    /// A mapped node and how many of its instances ran.
    Mapped { node: String, count: usize },
}

impl RanGroup {
    pub fn node(&self) -> &str {
        match self {
            RanGroup::Node(n) | RanGroup::Mapped { node: n, .. } => n,
        }
    }

    /// `summarize ×3` for a mapped node, the id for the others.
    pub fn label(&self) -> String {
        match self {
            RanGroup::Node(n) => n.clone(),
            RanGroup::Mapped { node, count } => format!("{node} ×{count}"),
        }
    }
}

/// A step's `ran`, with each mapped node's instances folded into one entry, in the order the
/// node first appears.
pub fn group_ran(ran: &[String]) -> Vec<RanGroup> {
    let mut out: Vec<RanGroup> = Vec::new();
    let mut at: BTreeMap<&str, usize> = BTreeMap::new();
    for id in ran {
        match split(id) {
            None => out.push(RanGroup::Node(id.clone())),
            Some((node, _)) => match at.get(node) {
                Some(&i) => {
                    if let RanGroup::Mapped { count, .. } = &mut out[i] {
                        *count += 1;
                    }
                }
                None => {
                    at.insert(node, out.len());
                    out.push(RanGroup::Mapped { node: node.to_string(), count: 1 });
                }
            },
        }
    }
    out
}

/// How many instances of each mapped node ran in `step` (nodes that ran plainly are absent).
pub fn instance_counts(step: &StepDoc) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for id in &step.ran {
        if let Some((node, _)) = split(id) {
            *out.entry(node.to_string()).or_insert(0) += 1;
        }
    }
    out
}

/// One instance of a mapped node in a step: its name, index, and what it wrote or why it
/// failed.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceRow {
    pub id: String,
    pub index: usize,
    /// The update as `field: value` pairs, values as compact JSON.
    pub update: Option<String>,
    pub error: Option<String>,
}

/// The instances of `node` that ran in `step`, by index.
pub fn instances_of(step: &StepDoc, node: &str) -> Vec<InstanceRow> {
    let mut rows: Vec<InstanceRow> = step
        .ran
        .iter()
        .filter_map(|id| {
            let (n, index) = split(id)?;
            (n == node).then(|| InstanceRow {
                id: id.clone(),
                index,
                update: step.updates.get(id).map(update_text),
                error: step.errors.get(id).map(|e| e.message.clone()),
            })
        })
        .collect();
    rows.sort_by_key(|r| r.index);
    rows
}

/// `summary: "…"; count: 3` for an update writing two fields (`no fields` for an empty one).
fn update_text(update: &engine::update::Update) -> String {
    match serde_json::to_value(update) {
        Ok(Value::Object(fields)) if fields.is_empty() => "no fields".into(),
        Ok(Value::Object(fields)) => fields.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("; "),
        Ok(other) => other.to_string(),
        Err(e) => format!("(unreadable update: {e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(doc: Value) -> StepDoc {
        serde_json::from_value(doc).expect("a step")
    }

    /// Step 2 of a map over three sections: three instances of `summarize` and a plain node.
    fn mapped_step() -> StepDoc {
        step(json!({
            "step": 2,
            "ran": ["summarize[0]", "summarize[1]", "log", "summarize[2]"],
            "updates": {
                "summarize[0]": {"summaries": ["a"]},
                "summarize[1]": {"summaries": ["b"]},
                "summarize[2]": {"summaries": ["c"]},
                "log": {"seen": 3}
            },
            "errors": {"summarize[1]x": {"kind": "llm", "message": "not an instance"}},
            "patch": [], "state": {}, "next": ["combine"], "duration_ms": 0.1
        }))
    }

    #[test]
    fn an_instance_is_its_node_and_other_ids_are_themselves() {
        assert_eq!(node_of("summarize[12]"), "summarize");
        assert_eq!(node_of("summarize"), "summarize");
        // Not instance names: left whole.
        for odd in ["a[]", "a[x]", "a[1", "[3]x", "a[-1]", "a[1]]"] {
            assert_eq!(node_of(odd), odd, "{odd}");
        }
        assert_eq!(node_of("[3]"), "", "an empty node name is what the id says");
    }

    #[test]
    fn ran_groups_fold_instances_under_their_node() {
        let s = mapped_step();
        let groups = group_ran(&s.ran);
        assert_eq!(groups, vec![RanGroup::Mapped { node: "summarize".into(), count: 3 }, RanGroup::Node("log".into())]);
        let labels: Vec<String> = groups.iter().map(RanGroup::label).collect();
        assert_eq!(labels, ["summarize ×3", "log"]);
        assert_eq!(instance_counts(&s), BTreeMap::from([("summarize".to_string(), 3)]));
    }

    #[test]
    fn instances_list_in_index_order_with_their_updates() {
        let mut s = mapped_step();
        // Out of order in `ran`, and past 9 so that text order would differ.
        s.ran = (0..12).rev().map(|i| format!("summarize[{i}]")).collect();
        for i in 3..12 {
            s.updates.insert(format!("summarize[{i}]"), serde_json::from_value(json!({"summaries": [i]})).unwrap());
        }
        let rows = instances_of(&s, "summarize");
        assert_eq!(rows.iter().map(|r| r.index).collect::<Vec<_>>(), (0..12).collect::<Vec<_>>());
        assert_eq!(rows[0].id, "summarize[0]");
        assert_eq!(rows[0].update.as_deref(), Some(r#"summaries: ["a"]"#));
        assert_eq!(rows[10].update.as_deref(), Some(r#"summaries: [10]"#));
        s.updates.insert("summarize[1]".into(), serde_json::from_value(json!({"a": 1, "b": "two"})).unwrap());
        s.updates.insert("summarize[2]".into(), serde_json::from_value(json!({})).unwrap());
        let rows = instances_of(&s, "summarize");
        assert_eq!(rows[1].update.as_deref(), Some(r#"a: 1; b: "two""#));
        assert_eq!(rows[2].update.as_deref(), Some("no fields"));
        assert!(instances_of(&s, "log").is_empty());
    }

    #[test]
    fn an_instance_error_is_its_nodes_failure() {
        let mut s = mapped_step();
        assert!(!failed_in(&s, "summarize"), "summarize[1]x is not an instance of summarize");
        s.errors
            .insert("summarize[1]".into(), serde_json::from_value(json!({"kind": "llm", "message": "429"})).unwrap());
        assert!(failed_in(&s, "summarize"));
        assert!(!failed_in(&s, "summ"));
        assert!(!failed_in(&s, "log"));
        let rows = instances_of(&s, "summarize");
        assert_eq!(rows[1].error.as_deref(), Some("429"));
        let keys: Vec<&String> = entries_of(&s.errors, "summarize").into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["summarize[1]"]);
    }
}
