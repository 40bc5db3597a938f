//! A map instance as the record names it, `<node>[<index>]`, and the item it got (format.md §5, map edges).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Splits a task's name into its node id and instance index: `summarize[2]` gives
/// (`summarize`, `Some(2)`), `summarize` gives (`summarize`, `None`). Node ids cannot hold
/// `[`, so the two forms never mix up. `None` for a malformed instance name.
pub fn split_name(name: &str) -> Option<(&str, Option<u32>)> {
    let Some((id, rest)) = name.split_once('[') else {
        return Some((name, None));
    };
    let digits = rest.strip_suffix(']')?;
    // One spelling per index: no sign, no leading zeros.
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    Some((id, Some(digits.parse().ok()?)))
}

/// The item one map instance gets: the name it has in the target's scope (the edge's `as`)
/// and its value. The record writes it as `{"as": "section", "item": …}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MapItem {
    /// The name the item has in the target's scope.
    #[serde(rename = "as")]
    pub name: Arc<str>,
    /// The item itself.
    pub item: Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_node_and_instance() {
        assert_eq!(split_name("summarize"), Some(("summarize", None)));
        assert_eq!(split_name("summarize[0]"), Some(("summarize", Some(0))));
        assert_eq!(split_name("s[120]"), Some(("s", Some(120))));
        for bad in ["s[", "s[]", "s[-1]", "s[01]", "s[1]x", "s[a]", "s[99999999999]"] {
            assert_eq!(split_name(bad), None, "{bad}");
        }
    }
}
