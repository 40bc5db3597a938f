//! [`NodeEdit`]: the node an inspector form edits, shared by the node form and the forms of
//! the kinds with their own file (`llm_form`), with the small conversions they all use.

use engine::Node;
use engine::document::Parse;
use leptos::prelude::*;

use crate::state::{Alerts, DocState};

/// The datalist of declared state fields, suggested wherever a field name is typed.
pub const STATE_LIST: &str = "inspector-state-fields";

/// The node being edited: reads its fields as signals, writes through `update_node`.
#[derive(Clone, Copy)]
pub struct NodeEdit {
    pub doc: DocState,
    pub alerts: Alerts,
    pub node: Memo<Option<Node>>,
}

impl NodeEdit {
    /// One value of the node, as a signal that changes only when that value does.
    pub fn get<T>(self, f: impl Fn(&Node) -> T + Send + Sync + 'static) -> Signal<T>
    where
        T: Clone + PartialEq + Default + Send + Sync + 'static,
    {
        let node = self.node;
        Memo::new(move |_| node.with(|n| n.as_ref().map(&f).unwrap_or_default())).into()
    }

    /// Changes the node (one step of undo); a refusal (a clashing id) is shown as an alert.
    pub fn update(self, f: impl FnOnce(&mut Node)) {
        let Some(mut n) = self.node.get_untracked() else { return };
        let id = n.id.clone();
        f(&mut n);
        if let Err(why) = self.doc.edit(|e| e.update_node(&id, n)) {
            self.alerts.error(why);
        }
    }

    /// The limits in force, for placeholders.
    pub fn limits(self) -> engine::document::EffectiveLimits {
        self.doc.editor.with_untracked(|e| e.graph().effective_limits())
    }
}

/// Text, or nothing when it is blank.
pub fn non_empty(v: String) -> Option<String> {
    if v.trim().is_empty() { None } else { Some(v) }
}

/// Trimmed text, or nothing when it is blank.
pub fn trimmed(v: &str) -> Option<String> {
    let t = v.trim();
    (!t.is_empty()).then(|| t.to_string())
}

pub fn as_u64(v: Option<f64>) -> Option<u64> {
    v.map(|v| v.max(0.0) as u64)
}

pub fn parse_name(p: Option<Parse>, default: Parse) -> String {
    match p.unwrap_or(default) {
        Parse::Text => "text".into(),
        Parse::Json => "json".into(),
    }
}

/// `text`/`json`, stored as absent when it is the kind's default.
pub fn parse_value(v: &str, default: Parse) -> Option<Parse> {
    let p = if v == "json" { Parse::Json } else { Parse::Text };
    (p != default).then_some(p)
}
