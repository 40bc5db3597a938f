//! Input keys the graph does not declare (format.md §3 lets them through as free-form `replace`
//! fields, but a typo in an input key would silently become new state): the CLI warns about
//! each, with the declared field it was probably meant to be, and refuses them with `--strict`.

use serde_json::{Map, Value};

use super::Plan;

/// An input key that names no declared state field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndeclaredKey {
    pub key: String,
    /// The declared field whose name is closest, when one is close enough to be a typo.
    pub did_you_mean: Option<String>,
}

impl UndeclaredKey {
    /// What is wrong with the key, wherever it was given: `the graph declares no state field
    /// `x` (did you mean `y`?)`.
    pub fn message(&self) -> String {
        let hint = match &self.did_you_mean {
            Some(name) => format!("did you mean `{name}`?"),
            None => "it becomes a free-form field".into(),
        };
        format!("the graph declares no state field `{}` ({hint})", self.key)
    }
}

impl std::fmt::Display for UndeclaredKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "input.{}: {}", self.key, self.message())
    }
}

impl Plan {
    /// The keys of `input` that no state field declares, in input order. A graph without a
    /// `state` block declares nothing and takes any key, so it has none.
    pub fn undeclared_input_keys(&self, input: &Map<String, Value>) -> Vec<UndeclaredKey> {
        if self.graph.state.is_none() {
            return Vec::new();
        }
        input
            .keys()
            .filter(|k| !self.schema.is_declared(k))
            .map(|key| UndeclaredKey { key: key.clone(), did_you_mean: closest(self, key) })
            .collect()
    }
}

/// The declared field closest to `key`, when one is close enough to be a typo.
fn closest(plan: &Plan, key: &str) -> Option<String> {
    nearest(key, plan.schema.fields().map(|(name, _)| name.as_str()))
}

/// The one of `names` closest to `key` by edit distance, if it is within a third of the key's
/// length (at least one edit); the first of equally close ones.
pub(crate) fn nearest<'a>(key: &str, names: impl Iterator<Item = &'a str>) -> Option<String> {
    let limit = (key.chars().count() / 3).max(1);
    names
        .map(|name| (strsim::damerau_levenshtein(key, name), name))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, name)| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compile, parse_graph};

    fn plan(state: &str) -> Plan {
        let g = parse_graph(&format!(
            r#"{{"format":"switchyard/graph@1",{state}
                "nodes":[{{"id":"start","kind":"start"}},{{"id":"end","kind":"end"}}],
                "edges":[{{"from":"start","to":"end"}}]}}"#
        ))
        .expect("valid");
        compile(&g).plan.expect("compiles")
    }

    #[test]
    fn a_typo_is_named_with_the_field_it_resembles() {
        let p = plan(r#""state":{"request":{"type":"string"},"count":{"type":"integer"}},"#);
        let input = serde_json::json!({"reqest": "x", "count": 1, "colour": "red"});
        let found = p.undeclared_input_keys(input.as_object().expect("object"));
        assert_eq!(
            found,
            [
                UndeclaredKey { key: "colour".into(), did_you_mean: None },
                UndeclaredKey { key: "reqest".into(), did_you_mean: Some("request".into()) },
            ]
        );
        assert_eq!(
            found[1].to_string(),
            "input.reqest: the graph declares no state field `reqest` (did you mean `request`?)"
        );
    }

    #[test]
    fn a_graph_without_state_takes_any_key() {
        let p = plan("");
        let input = serde_json::json!({"anything": 1});
        assert!(p.undeclared_input_keys(input.as_object().expect("object")).is_empty());
    }
}
