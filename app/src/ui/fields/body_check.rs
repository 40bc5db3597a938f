//! [`templates_in_json`]: a [`Validator`] for a JSON request body whose strings may hold
//! `{{ }}` templates (an `http` node's body, an HTTP tool's body).

use std::sync::Arc;

use engine::document::EffectiveLimits;
use leptos::prelude::*;
use serde_json::Value;

use crate::state::DocState;
use crate::ui::fields::check::{Check, ScopeNames, Validator, Verdict, check_source};

/// Checks every string holding `{{` in the value as a template (`check` says which names
/// the holes may use); an error says where in the JSON it is.
pub fn templates_in_json(doc: DocState, check: Check) -> Validator {
    fn walk(v: &Value, path: &str, check: Check, limits: EffectiveLimits, more: &[String]) -> Result<(), String> {
        match v {
            Value::String(t) if t.contains("{{") => match check_source(t, check, limits, more) {
                Some(Err(e)) => Err(if path.is_empty() { e } else { format!("{e} in {path}") }),
                _ => Ok(()),
            },
            Value::Array(items) => {
                items.iter().enumerate().try_for_each(|(i, x)| walk(x, &format!("{path}[{i}]"), check, limits, more))
            }
            Value::Object(map) => map.iter().try_for_each(|(k, x)| {
                walk(x, &if path.is_empty() { k.clone() } else { format!("{path}.{k}") }, check, limits, more)
            }),
            _ => Ok(()),
        }
    }
    let more = use_context::<ScopeNames>();
    Arc::new(move |v: &Value| -> Verdict {
        let limits = doc.editor.with_untracked(|e| e.graph().effective_limits());
        let more = more.map(|m| m.0.get_untracked()).unwrap_or_default();
        walk(v, "", check, limits, &more).map(|()| "✓ valid JSON; templates compile".to_string())
    })
}
